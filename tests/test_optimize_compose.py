""" "Optimize loop nest" composes unroll-and-jam and vectorization after the
schedule (:mod:`affine_lsp.transforms.optimize_compose`): which composition
the models pick, what ``--explain`` says about what they declined, and
execution with mlir-runner against the originals (equal values).

* Small PolyBench-style kernels: a matrix-vector product whose ``j`` loop
  accumulates in memory (unroll-and-jam of ``i``), a 2-D convolution
  (unroll-and-jam of ``i`` and outer-loop vectorization of ``j``), a
  matrix product with sizes that are not multiples of the tile (tiled, full
  tiles generated apart, their point loop unrolled and jammed).
* Generated programs (the seeded generator of ``test_optimize_exec``) with
  loops twice as long, so that unroll-and-jam by 4 applies: optimized
  with the defaults, executed (``test_optimize_exec`` runs the generated
  programs of the usual length with the composition on, forced and not).
"""

from __future__ import annotations

import re
import subprocess
import sys

from affine_lsp.transforms.optimize import optimize_document
from tests import oracle
from tests.test_optimize_exec import random_program
from tests.test_tile_exec import run_variants
from tests.test_vectorize_harness import needs_runner

KERNELS = """func.func @mv(%A: memref<64x48xf64>, %x: memref<48xf64>, %y: memref<64xf64>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      %a = affine.load %A[%i, %j] : memref<64x48xf64>
      %b = affine.load %x[%j] : memref<48xf64>
      %c = affine.load %y[%i] : memref<64xf64>
      %p = arith.mulf %a, %b : f64
      %s = arith.addf %c, %p : f64
      affine.store %s, %y[%i] : memref<64xf64>
    }
  }
  return
}

func.func @conv(%in: memref<70x70xf64>, %w: memref<5x5xf64>, %out: memref<66x66xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 66 {
    affine.for %j = 0 to 66 {
      affine.store %zero, %out[%i, %j] : memref<66x66xf64>
      affine.for %p = 0 to 5 {
        affine.for %q = 0 to 5 {
          %x = affine.load %in[%i + %p, %j + %q] : memref<70x70xf64>
          %k = affine.load %w[%p, %q] : memref<5x5xf64>
          %m = arith.mulf %x, %k : f64
          %o = affine.load %out[%i, %j] : memref<66x66xf64>
          %s = arith.addf %o, %m : f64
          affine.store %s, %out[%i, %j] : memref<66x66xf64>
        }
      }
    }
  }
  return
}

func.func @mm(%A: memref<50x45xf64>, %B: memref<45x70xf64>, %C: memref<50x70xf64>) {
  affine.for %i = 0 to 50 {
    affine.for %k = 0 to 45 {
      affine.for %j = 0 to 70 {
        %a = affine.load %A[%i, %k] : memref<50x45xf64>
        %b = affine.load %B[%k, %j] : memref<45x70xf64>
        %c = affine.load %C[%i, %j] : memref<50x70xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %C[%i, %j] : memref<50x70xf64>
      }
    }
  }
  return
}
"""

COPY = """func.func @copy(%A: memref<64x64xf32>, %B: memref<64x64xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %v = affine.load %A[%i, %j] : memref<64x64xf32>
      affine.store %v, %B[%i, %j] : memref<64x64xf32>
    }
  }
  return
}
"""


def _messages(outcomes: list) -> dict[int, str]:  # type: ignore[type-arg]
    return {o.line: o.message for o in outcomes if o.done}


def test_the_models_pick_unroll_and_jam_and_vectorization_and_explain_them() -> None:
    new, outcomes, explains = optimize_document(KERNELS, tile=8)
    done = list(_messages(outcomes).values())
    assert len(done) == 3, [o.message for o in outcomes]
    mv, conv, mm = done
    # mv: the four rows' accumulators in registers, then a vector reduction each
    assert "unroll-and-jam by 4 of %i" in mv and "accumulators of %j: 4 accumulator(s)" in mv and "vectorize (VF 8) of %j: float reduction" in mv
    assert "unroll-and-jam by 4 of %i" in conv and "vectorize (VF 8) of %j: outer-loop vectorization" in conv
    # mm: a register tile (k innermost in the point loops, its tile as long as the vector loop's)
    assert "tiled 8x45x32" in mm and "unroll-and-jam by 4 of %i:" in mm and "accumulators of %k" in mm
    # the full tiles of mm are generated apart: their point loop %i (the
    # original name kept) runs from %i_t, without min, unrolled and jammed
    body = new[new.index("func.func @mm") :]
    assert re.search(r"affine\.for %i = affine_map<\(d0\) -> \(d0\)>\(%i_t\) to [^\n]* step 4 \{", body), body
    lines = [ln for _, ex, _ in explains for ln in ex]
    # conv: the tiled schedule, composed, is predicted slower than the original order composed
    assert "schedule: the original order (the new one is predicted slower once composed)" in lines
    assert any(ln.startswith("declined: vectorize %i:") for ln in lines)
    # without the composition: the schedules alone (tiled by 8), nothing unrolled or vectorized
    alone, outcomes2, _ = optimize_document(KERNELS, tile=8, compose=False)
    assert "step 4 {" not in alone and "vector<" not in alone and sum(o.done for o in outcomes2) == 3


@needs_runner
def test_composed_kernels_compute_the_same_values() -> None:
    new, _, _ = optimize_document(KERNELS, tile=8)
    assert "vector<8xf64>" in new and "step 4" in new
    assert not oracle.errors(new)
    results = run_variants(KERNELS, {"composed": new})
    assert results["composed"] == results[""]


def _longer(text: str) -> str:
    """A generated program with its arrays and loop bounds doubled."""
    text = text.replace("memref<24x24xf32>", "memref<48x48xf32>").replace("memref<24xf32>", "memref<48xf32>")
    return re.sub(r" to (\d+) \{", lambda m: f" to {2 * int(m.group(1))} {{", text)


@needs_runner
def test_generated_programs_with_longer_loops_compose_and_compute_the_same_values() -> None:
    source = "\n".join(_longer(random_program(s)) for s in range(100, 104))
    new, outcomes, _ = optimize_document(source)
    assert not oracle.errors(new), new
    composed = [o.message for o in outcomes if o.done and "unroll-and-jam by 4" in o.message]
    assert len(composed) >= 2, [o.message for o in outcomes]  # the seeds are fixed: unroll-and-jam applies to two groups
    results = run_variants(source, {"composed": new})
    assert results["composed"] == results[""]


def test_explain_says_why_the_model_declines_vectorization(tmp_path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "copy.mlir"
    f.write_text(COPY)
    p = subprocess.run([sys.executable, "-m", "affine_lsp", "optimize", "--explain", "-v", str(f)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout == COPY  # left alone
    assert "declined: vectorize %j: predicted not profitable: innermost unit-stride loop: LLVM -O3 vectorizes the scalar code already" in p.stderr, p.stderr
    assert "not optimized: left alone" in p.stderr
