"""Register accumulators and register tiles in "Optimize loop nest"
(:mod:`affine_lsp.transforms.accumulate`, ``optimize_schedule.register_order``,
the composition of :mod:`affine_lsp.transforms.optimize_compose`), its
budget and its threshold of gain:

* the reduction patterns of gesummv, atax, bicg and mvt keep their
  accumulators in ``iter_args`` (one per unrolled row: several
  accumulators), vectorized with vector accumulators and a
  ``vector.reduction`` after the loop, and compute the original's values
  under mlir-runner;
* a matrix product gets a register tile: the reduction loop innermost,
  carrying vectors in ``iter_args`` (four rows unrolled and jammed, the
  vector loop around it), same values;
* the pairs :mod:`.accumulate` refuses (an element read elsewhere in the
  loop, two elements that may be the same);
* past its budget optimize answers with the best candidate built so far,
  valid; a best rewrite predicted below the threshold leaves the nest alone.
"""

from __future__ import annotations

import re

import pytest

from affine_lsp.source.document import Document
from affine_lsp.transforms import optimize as opt
from affine_lsp.transforms.accumulate import accumulate_document, plan_accumulate
from affine_lsp.transforms.optimize import optimize_document
from affine_lsp.transforms.optimize_compose import Budget, register_tile_width
from affine_lsp.transforms.profitability import Prediction
from tests import oracle
from tests.test_tile_exec import run_variants
from tests.test_vectorize_harness import needs_runner

REDUCTIONS = """func.func @gesummv(%A: memref<64x64xf64>, %B: memref<64x64xf64>, %tmp: memref<64xf64>, %x: memref<64xf64>, %y: memref<64xf64>) {
  %zero = arith.constant 0.0 : f64
  %alpha = arith.constant 1.5 : f64
  %beta = arith.constant 1.25 : f64
  affine.for %i = 0 to 64 {
    affine.store %zero, %tmp[%i] : memref<64xf64>
    affine.store %zero, %y[%i] : memref<64xf64>
    affine.for %j = 0 to 64 {
      %a = affine.load %A[%i, %j] : memref<64x64xf64>
      %xj = affine.load %x[%j] : memref<64xf64>
      %p = arith.mulf %a, %xj : f64
      %t = affine.load %tmp[%i] : memref<64xf64>
      %s = arith.addf %p, %t : f64
      affine.store %s, %tmp[%i] : memref<64xf64>
      %b = affine.load %B[%i, %j] : memref<64x64xf64>
      %q = arith.mulf %b, %xj : f64
      %yi = affine.load %y[%i] : memref<64xf64>
      %u = arith.addf %q, %yi : f64
      affine.store %u, %y[%i] : memref<64xf64>
    }
    %t = affine.load %tmp[%i] : memref<64xf64>
    %at = arith.mulf %alpha, %t : f64
    %yi = affine.load %y[%i] : memref<64xf64>
    %by = arith.mulf %beta, %yi : f64
    %r = arith.addf %at, %by : f64
    affine.store %r, %y[%i] : memref<64xf64>
  }
  return
}

func.func @atax(%A: memref<48x64xf64>, %x: memref<64xf64>, %y: memref<64xf64>, %tmp: memref<48xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 64 {
    affine.store %zero, %y[%i] : memref<64xf64>
  }
  affine.for %i = 0 to 48 {
    affine.store %zero, %tmp[%i] : memref<48xf64>
    affine.for %j = 0 to 64 {
      %t = affine.load %tmp[%i] : memref<48xf64>
      %a = affine.load %A[%i, %j] : memref<48x64xf64>
      %xj = affine.load %x[%j] : memref<64xf64>
      %p = arith.mulf %a, %xj : f64
      %s = arith.addf %t, %p : f64
      affine.store %s, %tmp[%i] : memref<48xf64>
    }
    affine.for %j = 0 to 64 {
      %yj = affine.load %y[%j] : memref<64xf64>
      %a = affine.load %A[%i, %j] : memref<48x64xf64>
      %t = affine.load %tmp[%i] : memref<48xf64>
      %p = arith.mulf %a, %t : f64
      %s = arith.addf %yj, %p : f64
      affine.store %s, %y[%j] : memref<64xf64>
    }
  }
  return
}

func.func @mvt(%A: memref<64x64xf64>, %x1: memref<64xf64>, %y1: memref<64xf64>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %x = affine.load %x1[%i] : memref<64xf64>
      %a = affine.load %A[%i, %j] : memref<64x64xf64>
      %y = affine.load %y1[%j] : memref<64xf64>
      %p = arith.mulf %a, %y : f64
      %s = arith.addf %x, %p : f64
      affine.store %s, %x1[%i] : memref<64xf64>
    }
  }
  return
}
"""

MATMUL = """func.func @mm(%A: memref<48x60xf64>, %B: memref<60x96xf64>, %C: memref<48x96xf64>) {
  affine.for %i = 0 to 48 {
    affine.for %k = 0 to 60 {
      affine.for %j = 0 to 96 {
        %a = affine.load %A[%i, %k] : memref<48x60xf64>
        %b = affine.load %B[%k, %j] : memref<60x96xf64>
        %c = affine.load %C[%i, %j] : memref<48x96xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %C[%i, %j] : memref<48x96xf64>
      }
    }
  }
  return
}
"""


# The same product in i, j, k order: its innermost loop walks B's columns, so
# the new schedule pays even before the composition vectorizes it (in i, k, j
# order, LLVM vectorizes the original's innermost loop, and the register
# tile, scalar until the composition vectorizes it, is predicted slower).
MATMUL_IJK = (
    MATMUL.replace("affine.for %k = 0 to 60 {", "@K@")
    .replace("affine.for %j = 0 to 96 {", "affine.for %k = 0 to 60 {")
    .replace("@K@", "affine.for %j = 0 to 96 {")
)


def _function(text: str, name: str) -> str:
    start = text.index(f"func.func @{name}(")
    nxt = text.find("func.func @", start + 1)
    return text[start : nxt if nxt >= 0 else len(text)]


def test_reductions_vectorize_with_accumulators_in_registers() -> None:
    new, outcomes, _ = optimize_document(REDUCTIONS)
    assert all(o.done for o in outcomes), [o.message for o in outcomes]
    for name in ("gesummv", "atax", "mvt"):
        body = _function(new, name)
        # the reduction loop carries vector accumulators, reduced after it
        assert re.search(r"= affine\.for %\w+ = \S+ to \S+ step 8 iter_args\([^)]*\) -> \(vector<8xf64>", body), body
        assert "vector.reduction <add>" in body, body
    # gesummv: two accumulators per row (tmp and y); atax: one per unrolled row (four)
    ges = re.search(r"step 8 iter_args\(([^)]*)\) -> \(([^)]*)\)", _function(new, "gesummv"))
    assert ges is not None and ges.group(2).count("vector<8xf64>") % 2 == 0 and ges.group(2).count("vector<8xf64>") >= 2
    assert _function(new, "atax").count("vector.reduction <add>") == 4
    # inside the vectorized loops, nothing loads or stores the accumulated elements
    for mem in ("%tmp", "%x1"):
        for loop in re.findall(r"step 8 iter_args.*?\n(.*?)affine\.yield", new, re.S):
            assert f"{mem}[" not in loop


@needs_runner
def test_register_accumulators_compute_the_original_values() -> None:
    new, _, _ = optimize_document(REDUCTIONS)
    assert "vector.reduction" in new
    assert not oracle.errors(new)
    results = run_variants(REDUCTIONS, {"optimized": new})
    assert results["optimized"] == results[""]


def test_a_matrix_product_gets_a_register_tile() -> None:
    new, outcomes, explains = optimize_document(MATMUL, tile=8)
    assert outcomes[0].done, outcomes[0].message
    lines = [ln for _, ex, _ in explains for ln in ex]
    assert any("register tile: point loops in the order of members 0, 2, 1" in ln for ln in lines), lines
    width = register_tile_width()
    assert width == 16  # tests/conftest.py: 32 vector registers of 512 bits
    # four rows unrolled and jammed, each a vector accumulator carried by the k loop
    acc = re.search(r"= affine\.for %k\S* = .*? iter_args\(([^)]*)\) -> \(([^)]*)\)", new)
    assert acc is not None, new
    assert acc.group(2) == ", ".join([f"vector<{width}xf64>"] * 4)
    assert not oracle.errors(new)


TRIANGULAR = """func.func @cov(%data: memref<60x50xf64>, %cov: memref<50x50xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 50 {
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to 50 {
      affine.store %zero, %cov[%i, %j] : memref<50x50xf64>
      affine.for %k = 0 to 60 {
        %c = affine.load %cov[%i, %j] : memref<50x50xf64>
        %a = affine.load %data[%k, %i] : memref<60x50xf64>
        %b = affine.load %data[%k, %j] : memref<60x50xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %cov[%i, %j] : memref<50x50xf64>
      }
    }
  }
  return
}
"""


def test_a_triangular_band_with_a_strided_reduction_keeps_the_vector_loop_innermost() -> None:
    """covariance's upper triangle: its diagonal tiles are generated with the
    point order of the full ones, in scalar code; a register tile would put
    the reduction ``k`` (``%data[%k, ...]``: 50 elements apart) innermost
    there. The band keeps ``j`` (unit-stride, parallel) innermost instead."""
    new, outcomes, explains = optimize_document(TRIANGULAR, tile=8)
    assert outcomes[0].done, outcomes[0].message
    lines = [ln for _, ex, _ in explains for ln in ex]
    band = [ln for ln in lines if "S1[i, j, k]" in ln or "tiled" in ln]
    assert band and not any("register tile" in ln for ln in band), lines
    assert any("vector loop: member 2" in ln for ln in band), band
    # the box of the same product still gets its register tile
    _, _, box_explains = optimize_document(MATMUL, tile=8)
    assert any("register tile" in ln for _, ex, _ in box_explains for ln in ex)
    assert not oracle.errors(new)


@needs_runner
def test_the_register_tile_computes_the_original_values() -> None:
    new, _, _ = optimize_document(MATMUL, tile=8)
    assert "iter_args" in new
    results = run_variants(MATMUL, {"optimized": new})
    assert results["optimized"] == results[""]


def _loops(text: str) -> dict[str, object]:
    doc = Document(text)
    return {op.regions[0].blocks[0].arguments[0].name: op for s in doc.sections for op in s.module.walk() if op.name == "affine.for"}


def test_accumulate_refuses_an_element_read_elsewhere_or_possibly_aliased() -> None:
    text = """func.func @f(%A: memref<8x8xf64>, %s: memref<8xf64>, %o: memref<8xf64>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %t = affine.load %s[%i] : memref<8xf64>
      %a = affine.load %A[%i, %j] : memref<8x8xf64>
      %u = arith.addf %t, %a : f64
      affine.store %u, %s[%i] : memref<8xf64>
      %w = affine.load %s[%j] : memref<8xf64>
      affine.store %w, %o[%j] : memref<8xf64>
    }
    affine.for %k = 0 to 8 {
      %t = affine.load %o[%i] : memref<8xf64>
      %v = affine.load %o[%k] : memref<8xf64>
      %u = arith.addf %t, %v : f64
      affine.store %u, %o[%i] : memref<8xf64>
    }
  }
  affine.for %i = 0 to 4 {
    %i1 = affine.apply affine_map<(d0) -> (d0 + 4)>(%i)
    affine.for %j = 0 to 8 {
      %t = affine.load %s[%i] : memref<8xf64>
      %a = affine.load %A[%i, %j] : memref<8x8xf64>
      %u = arith.addf %t, %a : f64
      affine.store %u, %s[%i] : memref<8xf64>
      %t1 = affine.load %s[%i1] : memref<8xf64>
      %u1 = arith.addf %t1, %a : f64
      affine.store %u1, %s[%i1] : memref<8xf64>
    }
  }
  return
}
"""
    doc = Document(text)
    inner = [
        op for s in doc.sections for op in s.module.walk() if op.name == "affine.for" and not any(o.name == "affine.for" for o in op.walk() if o is not op)
    ]
    j, k, j2 = inner
    assert not plan_accumulate(j).pairs  # %s[%j] is read in the loop too
    assert not plan_accumulate(k).pairs  # %o[%k] may be %o[%i]
    assert len(plan_accumulate(j2).pairs) == 2  # %s[%i] and %s[%i + 4]: two elements, never the same
    new, outcomes = accumulate_document(text)
    assert [o.done for o in outcomes] == [True]
    assert "iter_args(%t = %t_init, %t1 = %t1_init) -> (f64, f64)" in new
    assert not oracle.errors(new) if oracle.available() else True


def test_a_scalar_register_tile_over_a_loop_llvm_vectorizes_is_not_a_partial_answer() -> None:
    """Past the budget, with no composition built, the register tile of the
    i, k, j product would run scalar where the original's innermost loop is
    vectorized by LLVM: the nest is left alone rather than made slower."""
    new, outcomes, _ = optimize_document(MATMUL, tile=8, budget=1e-9)
    assert new == MATMUL and not outcomes[0].done


def test_past_its_budget_optimize_keeps_the_best_candidate_built() -> None:
    new, outcomes, explains = optimize_document(MATMUL_IJK, tile=8, budget=1e-9)
    lines = [ln for _, ex, _ in explains for ln in ex]
    assert any(ln.startswith("budget: 1e-09 s spent; 7 candidate composition(s) not tried") for ln in lines), lines
    assert outcomes[0].done  # the new schedule, tiled, without the composition: a partial answer
    assert "step 4" not in new and "vector<" not in new and "%i_t" in new
    if oracle.available():
        assert not oracle.errors(new)


@needs_runner
def test_the_partial_answer_computes_the_original_values() -> None:
    new, _, _ = optimize_document(MATMUL_IJK, tile=8, budget=1e-9)
    assert new != MATMUL_IJK
    results = run_variants(MATMUL_IJK, {"partial": new})
    assert results["partial"] == results[""]


def test_a_rewrite_predicted_below_the_threshold_leaves_the_nest_alone() -> None:
    doc = Document(MATMUL)
    root = next(op for s in doc.sections for op in s.module.walk() if op.name == "affine.for")
    region = MATMUL[root.span.start : root.span.end]
    for speed, done in ((opt.MIN_PREDICTED_SPEEDUP - 0.05, False), (opt.MIN_PREDICTED_SPEEDUP + 0.05, True)):
        plan = opt.OptimizePlan([root])
        pred = Prediction(True, "reordered", "a schedule", speedup=speed)
        opt._choose(plan, MATMUL, 0, [opt.Base(region, speed, pred)], pred, False, Budget(None))
        assert plan.ok is done, (speed, plan.reason)
        if not done:
            assert plan.reason is not None and "below 1.1x" in plan.reason


@pytest.mark.parametrize("spec, width", [("32x512", 16), ("16x256", 8), ("16x128", 8)])
def test_the_register_tile_width_follows_the_vector_registers(monkeypatch: pytest.MonkeyPatch, spec: str, width: int) -> None:
    from affine_lsp.transforms import machine

    monkeypatch.setenv("AFFINE_LSP_VECTOR_REGISTERS", spec)
    machine.vector_registers.cache_clear()
    try:
        assert register_tile_width() == width
    finally:
        monkeypatch.undo()
        machine.vector_registers.cache_clear()
