"""Vectorization that makes code faster: ``in_bounds`` transfers, a scalar
remainder loop instead of masks, the loop choice and the prediction
(``vectorize_profit.predict``) that ``--all``, ``--force``, ``--loop`` and the
code action read.

Execution tests run the kernels before and after with the reference
``mlir-runner`` (tests/test_vectorize_harness.py) and look at the lowered
LLVM dialect: a transfer proven in bounds and not masked lowers to a plain
vector load/store, never ``llvm.intr.masked.load/store``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp.source.document import Document
from affine_lsp.transforms.vectorize import vectorize_candidates, vectorize_document, vectorize_reason
from affine_lsp.transforms.vectorize_analysis import analyze
from affine_lsp.transforms.vectorize_profit import LLVM_DOES_IT, predict
from tests import oracle
from tests.test_server_support import code_actions_at, config, pos, serving
from tests.test_vectorize_harness import DATA, differences, needs_runner, run

ROOT = Path(__file__).resolve().parent.parent

# 2mm's first product, PolyBench loop order i-j-k: k innermost is a float
# reduction into memory with B strided along k (LLVM keeps it scalar); j,
# around it, has every access unit-stride (tmp, B) or invariant (A) along it.
MATMUL = """func.func @matmul(%A: memref<24x24xf32>, %B: memref<24x24xf32>, %tmp: memref<24x24xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to 24 {
      affine.store %zero, %tmp[%i, %j] : memref<24x24xf32>
      affine.for %k = 0 to 24 {
        %a = affine.load %A[%i, %k] : memref<24x24xf32>
        %b = affine.load %B[%k, %j] : memref<24x24xf32>
        %p = arith.mulf %a, %b : f32
        %t = affine.load %tmp[%i, %j] : memref<24x24xf32>
        %s = arith.addf %t, %p : f32
        affine.store %s, %tmp[%i, %j] : memref<24x24xf32>
      }
    }
  }
  return
}
"""

# An element-wise innermost loop (LLVM -O3 vectorizes it), trip count 21.
SCALE = """func.func @scale(%A: memref<21xf32>, %B: memref<21xf32>) {
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 21 {
    %a = affine.load %A[%i] : memref<21xf32>
    %m = arith.mulf %a, %two : f32
    affine.store %m, %B[%i] : memref<21xf32>
  }
  return
}
"""

# A float reduction, trip count 19 (LLVM does not reassociate it).
DOT = """func.func @dot(%A: memref<19xf32>, %B: memref<19xf32>) -> f32 {
  %z = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 19 iter_args(%acc = %z) -> (f32) {
    %a = affine.load %A[%i] : memref<19xf32>
    %b = affine.load %B[%i] : memref<19xf32>
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    affine.yield %s : f32
  }
  return %r : f32
}
"""


def loops(text: str) -> list:
    doc = Document(text)
    return [op for s in doc.sections for op in s.module.walk() if op.name == "affine.for"]


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def cli(*args: str, text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "affine_lsp", "vectorize", "-", *args], input=text, capture_output=True, text=True, cwd=ROOT, timeout=120)


# ------------------------------------------------------------------ the rewrite


def test_multiple_of_the_width_gives_in_bounds_transfers_and_no_mask() -> None:
    j = loops(MATMUL)[1]
    plan = analyze(j, 8)
    assert plan.trip_count == 24 and not plan.mask and not plan.remainder
    assert {op.name for op in plan.in_bounds} == {"affine.load", "affine.store"} and len(plan.in_bounds) == 4
    new, outcomes = vectorize_document(MATMUL, 8, [line_of(MATMUL, "affine.for %j")])
    assert [o.done for o in outcomes] == [True]
    transfers = [ln.strip() for ln in new.splitlines() if "vector.transfer_" in ln]
    assert len(transfers) == 4 and all("{in_bounds = [true]}" in t for t in transfers), transfers
    assert "create_mask" not in new and "affine.for %j = 0 to 24 step 8 {" in new
    assert Document(new).notes() == []


def test_not_a_multiple_gives_a_scalar_remainder_loop() -> None:
    new, outcomes = vectorize_document(DOT, 8, [3])
    assert [o.done for o in outcomes] == [True]
    assert "affine.for %i = 0 to 16 step 8 iter_args(%acc = %acc_init) -> (vector<8xf32>) {" in new
    assert "%r_part = vector.reduction <add>, %r_vec, %z : vector<8xf32> into f32" in new
    assert "%r = affine.for %i = 16 to 19 iter_args(%acc = %r_part) -> (f32) {" in new
    assert "create_mask" not in new and new.count("{in_bounds = [true]}") == 2
    new, _ = vectorize_document(SCALE, 8, [3])
    assert "affine.for %i = 0 to 16 step 8 {" in new and "affine.for %i = 16 to 21 {" in new and "create_mask" not in new


def test_unknown_trip_count_splits_at_the_last_whole_vector() -> None:
    text = SCALE.replace("0 to 21", "%lo to %n").replace("%B: memref<21xf32>)", "%B: memref<21xf32>, %lo: index, %n: index)")
    [lp] = loops(text)
    plan = analyze(lp, 8)
    assert plan.remainder and not plan.mask and plan.in_bounds == set()  # %n unbounded: not proven in bounds
    assert not predict(plan).profitable and "not proven in bounds" in predict(plan).reason
    new, _ = vectorize_document(text, 8, [3])
    split = "affine_map<()[s0, s1] -> (s0 + ((-s0 + s1) floordiv 8) * 8)>()[%lo, %n]"
    assert f"affine.for %i = %lo to {split} step 8 {{" in new
    assert "affine.for %i = max affine_map<()[s0, s1] -> (s0, s0 + ((-s0 + s1) floordiv 8) * 8)>()[%lo, %n] to %n {" in new
    assert Document(new).notes() == []


@needs_runner
@pytest.mark.oracle
def test_results_agree_and_the_lowering_has_no_masks() -> None:
    text = MATMUL + SCALE + DOT
    before = run(text)
    new, outcomes = vectorize_document(text, 8, force=True)
    assert sum(o.done for o in outcomes) == 3, outcomes
    assert not differences(before, run(new))
    lowered = oracle.opt(new, *oracle.VECTOR_LOWERING)
    assert "llvm.intr.masked" not in lowered and "vector<8xf32>" in lowered
    # without in_bounds the same transfers would be masked: the attribute is what removes them
    masked = oracle.opt(new.replace(" {in_bounds = [true]}", ""), *oracle.VECTOR_LOWERING)
    assert "llvm.intr.masked.load" in masked


@needs_runner
@pytest.mark.oracle
@pytest.mark.parametrize("vf", [4, 8, 16])
def test_remainder_and_masked_kernels_keep_their_results(vf: int) -> None:
    """Symbolic bounds (the split point as a bound; a loop whose upper bound
    is below its lower one runs neither part) and a tiled loop (a min bound:
    the one case still masked)."""
    text = (DATA / "remainder.mlir").read_text()
    new, outcomes = vectorize_document(text, vf, force=True)
    assert sum(o.done for o in outcomes) == 4, outcomes
    assert new.count("vector.create_mask") == 1 and new.count("affine.for %i = max affine_map") == 3
    assert not differences(run(text), run(new))


# ------------------------------------------------------------------ which loop, and the prediction


def test_the_unit_stride_outer_loop_is_picked_over_the_strided_innermost_one() -> None:
    i, j, k = loops(MATMUL)
    assert "stores a value that differs between iterations" in (vectorize_reason(k, 8) or "")  # the reduction into tmp[i][j]
    assert not predict(analyze(i, 8)).profitable  # tmp, A along dimension 0: strided
    pj = predict(analyze(j, 8))
    assert pj.profitable and "outer-loop vectorization" in pj.reason
    new, outcomes = vectorize_document(MATMUL, 8)
    by_line = {o.line: o for o in outcomes}
    assert by_line[line_of(MATMUL, "affine.for %j")].done
    assert "outer-loop vectorization of %j" in by_line[line_of(MATMUL, "affine.for %j")].message
    assert not by_line[line_of(MATMUL, "affine.for %k")].done  # B strided along k
    assert not by_line[line_of(MATMUL, "affine.for %i")].done
    assert "affine.for %j = 0 to 24 step 8 {" in new and "affine.for %k = 0 to 24 {" in new


def test_a_loop_llvm_vectorizes_is_declined_by_all_and_done_with_force() -> None:
    [lp] = loops(SCALE)
    pred = predict(analyze(lp, 8))
    assert not pred.profitable and pred.reason == LLVM_DOES_IT
    new, outcomes = vectorize_document(SCALE, 8)
    assert new == SCALE and [o.done for o in outcomes] == [False]
    assert outcomes[0].message == f"predicted not profitable: {LLVM_DOES_IT} (--force vectorizes it)"
    forced, outcomes = vectorize_document(SCALE, 8, force=True)
    assert "vector.transfer_read" in forced and [o.done for o in outcomes] == [True]


def test_cli_all_force_verbose_and_loop() -> None:
    p = cli("--all", "-v", text=SCALE)
    assert p.returncode == 0 and p.stdout == SCALE
    assert f"-:3:3: remark: not vectorized: predicted not profitable: {LLVM_DOES_IT} (--force vectorizes it)" in p.stderr
    p = cli("--all", "--force", text=SCALE)
    assert p.returncode == 0 and "vector.transfer_read" in p.stdout
    # the user asked for this loop: done, and told it is not predicted to help
    p = cli("--loop", "3", text=SCALE)
    assert p.returncode == 0 and "vector.transfer_read" in p.stdout
    assert f"remark: vectorized (VF=8): predicted not to help: {LLVM_DOES_IT}" in p.stderr
    p = cli("--all", text=DOT)
    assert "vector.reduction" in p.stdout and "remark: vectorized (VF=8): float reduction, in-bounds transfers; scalar remainder loop" in p.stderr


def test_code_action_carries_the_prediction() -> None:
    doc = Document(MATMUL)
    _, j, _ = loops(MATMUL)
    [t8, *_] = vectorize_candidates(doc, j)
    assert t8.prediction is not None and t8.prediction.profitable
    assert "Predicted: faster" in t8.details and "outer-loop vectorization" in t8.details


# ------------------------------------------------------------------ through the language server

URI = "file:///vectorize_profit.mlir"
TEXT = MATMUL + "\n" + SCALE


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    async for _ in serving(lsp_client, URI, TEXT):
        yield


async def _vectorize_actions(client: LanguageClient, p: types.Position) -> list[types.CodeAction]:
    return [a for a in await code_actions_at(client, URI, p) if a.title.startswith("Vectorize loop")]


@pytest.mark.asyncio(loop_scope="module")
async def test_lsp_titles_say_the_predicted_effect(client: LanguageClient):
    got = await _vectorize_actions(client, pos(TEXT, "affine.for %j", delta=3))
    titles = [a.title for a in got]
    # One action, at the width the model predicts fastest (issue #43: not one per width, all "~Nx faster").
    assert len(titles) == 1 and titles[0].startswith("Vectorize loop (VF=") and "x faster: outer-loop vectorization of %j, in-bounds transfers)" in titles[0], (
        titles
    )
    assert got[0].is_preferred
    got = await _vectorize_actions(client, pos(TEXT, "affine.for %i = 0 to 21", delta=3))
    titles = [a.title for a in got]
    assert "Vectorize loop (VF=8) (not profitable: LLVM -O3 already vectorizes it)" in titles, titles
    assert not any(a.is_preferred for a in got)
