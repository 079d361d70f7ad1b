"""transforms/parallel_work.py: which parallel loop --parallel runs on
threads, by the work one entry of it holds (trips x ops per iteration);
optimize --parallel and parallelize_document(min_work=...) follow it."""

from __future__ import annotations

from affine_lsp.source.document import Document
from affine_lsp.transforms import parallel_work
from affine_lsp.transforms.optimize import optimize_document
from affine_lsp.transforms.parallelize import parallelize_document

# A small init loop, a big outer-parallel nest, a triangular nest, and a
# big nest whose outer loop has a single iteration (its inner loop is the one
# to share).
NESTS = """\
func.func @f(%A: memref<512x512xf64>, %B: memref<512x512xf64>, %y: memref<512xf64>, %C: memref<1x4096x64xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 512 {
    affine.store %zero, %y[%i] : memref<512xf64>
  }
  affine.for %i = 0 to 512 {
    affine.for %j = 0 to 512 {
      %a = affine.load %A[%i, %j] : memref<512x512xf64>
      %m = arith.mulf %a, %a : f64
      affine.store %m, %B[%i, %j] : memref<512x512xf64>
    }
  }
  affine.for %i = 0 to 512 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %a = affine.load %A[%i, %j] : memref<512x512xf64>
      affine.store %a, %B[%i, %j] : memref<512x512xf64>
    }
  }
  affine.for %o = 0 to 1 {
    affine.for %i = 0 to 4096 {
      affine.for %j = 0 to 64 {
        %c = affine.load %C[%o, %i, %j] : memref<1x4096x64xf64>
        %d = arith.addf %c, %c : f64
        affine.store %d, %C[%o, %i, %j] : memref<1x4096x64xf64>
      }
    }
  }
  return
}
"""


def _loops() -> list:  # type: ignore[type-arg]
    doc = Document(NESTS)
    f = next(iter(doc.sections[0].functions()))
    return [op for op in f.walk() if op.name == "affine.for"]


def test_work_per_entry_counts_trips_times_the_body() -> None:
    init, outer, inner, tri_outer, tri_inner, one, big_i, _big_j = _loops()
    assert parallel_work.work_per_entry(init) == 512 * 1  # one store per iteration (the constant is free)
    assert parallel_work.work_per_entry(inner) == 512 * 3
    assert parallel_work.work_per_entry(outer) == 512 * (1 + 512 * 3)
    # The triangular loop: its bound at the middle of the outer range (0..511).
    assert parallel_work.trips(tri_inner) == 255
    assert parallel_work.work_per_entry(tri_outer) == 512 * (1 + 255 * 2)
    assert parallel_work.trips(one) == 1
    assert parallel_work.work_per_entry(big_i) == 4096 * (1 + 64 * 3)


def test_small_loops_stay_sequential_and_a_one_trip_loop_passes_the_choice_inside() -> None:
    init, outer, _inner, _tri_outer, _tri_inner, one, big_i, _big_j = _loops()
    assert "too little work per fork" in (parallel_work.too_little_work(init) or "")
    assert parallel_work.too_little_work(outer) is None
    assert "nothing to share" in (parallel_work.too_little_work(one) or "")
    assert parallel_work.too_little_work(big_i) is None
    new, outcomes = parallelize_document(NESTS, max_nested=1, min_work=parallel_work.MIN_WORK_PER_FORK)
    headers = [line.strip() for line in new.splitlines() if "affine.parallel" in line or "affine.for" in line]
    assert headers[0] == "affine.for %i = 0 to 512 {"  # the init loop: too little work
    assert headers[1].startswith("affine.parallel (%i) = (0) to (512)")  # the big nest, outermost
    assert headers[2] == "affine.for %j = 0 to 512 {"  # one parallel loop per nest
    assert headers[5] == "affine.for %o = 0 to 1 {"
    assert headers[6].startswith("affine.parallel (%i) = (0) to (4096)")  # inside the one-trip loop
    reasons = {o.line: o.message for o in outcomes if not o.done}
    assert any("too little work per fork" in m for m in reasons.values())
    # Without the threshold, MLIR's rule: every outermost parallel loop.
    new_all, _ = parallelize_document(NESTS, max_nested=1)
    assert new_all.count("affine.parallel (") > new.count("affine.parallel (")


def test_optimize_parallel_explains_a_loop_left_sequential() -> None:
    small = """\
func.func @f(%y: memref<64xf64>, %x: memref<64xf64>) {
  affine.for %i = 0 to 64 {
    %a = affine.load %x[%i] : memref<64xf64>
    %m = arith.mulf %a, %a : f64
    affine.store %m, %y[%i] : memref<64xf64>
  }
  return
}
"""
    new, _, explains = optimize_document(small, parallel=True, force=True)
    assert "affine.parallel" not in new
    assert any("left sequential: too little work per fork" in x for _, e, _ in explains for x in e), explains
