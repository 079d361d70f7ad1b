"""Vectorize loop: whether the rewrite is predicted to make the code faster.

The code is compiled afterwards by LLVM at ``-O3`` (``mlir-runner -O3``, or
any pipeline ending in LLVM's optimizer), whose loop vectorizer already
vectorizes the scalar code in the common case. So vectorizing a loop here
pays only where LLVM cannot, and the model says which case a plan is in
(MLIR 22.1.8's lowering of the transfers, LLVM's vectorizer):

* **declined**
  - a transfer that is not proven in bounds, or every transfer masked (a
    bound that is a max/min of several expressions, and a trip count not a
    multiple of the width): lowered to masked loads and stores
    (``llvm.intr.masked.load/store``, ``vmaskmovps``), slower than what
    LLVM makes of the scalar loop;
  - a transfer along a memref dimension that is not the fastest varying
    (a ``permutation_map``): strided, lowered element by element;
  - a constant trip count below the width: only the scalar remainder runs;
  - an innermost loop (no loop inside it) with no float reduction: LLVM -O3
    vectorizes the scalar code already (unit-stride accesses, integer
    reductions, forward dependences with runtime alias checks), so the
    rewrite gains nothing;
* **profitable**
  - an innermost loop carrying a float reduction: LLVM keeps it scalar (it
    does not reassociate floating-point additions without fast-math flags,
    which MLIR's ``arith`` ops do not carry), the vector accumulator does;
  - a loop with loops inside (outer-loop vectorization): LLVM vectorizes
    only innermost loops; here ``N`` iterations of the outer loop run the
    inner loops together, each access unit-stride or invariant along it
    (the ``j`` loop around the ``k`` reduction of a matrix product);
    full over a loop of :data:`FULL_VECTORS` vectors or more, or whatever
    its length when its inner loop accumulates in ``iter_args`` (a
    register tile: the accumulators are loaded once per inner loop).
"""

from __future__ import annotations

from affine_lsp.ir.affine_ops import ForView
from affine_lsp.ir.types import FloatType
from affine_lsp.transforms.profitability import Prediction
from affine_lsp.transforms.vectorize_analysis import VectorPlan

LLVM_DOES_IT = "innermost unit-stride loop: LLVM -O3 vectorizes the scalar code already"

OUTER_SPEEDUP = 3.0
"""Predicted speedup of outer-loop vectorization over a long loop (the
kernels it is set from: docs/performance.md, "Figures behind the code")."""

FULL_VECTORS = 16
"""Vector iterations from which the outer-loop speedup is full: a shorter
loop (a 32-iteration tile: 4 vectors) spends its time in the inner loops'
set-up and gains in proportion (conv2d's tiled 32-iteration loop against
the untiled one: docs/performance.md)."""

REDUCTION_SPEEDUP = 2.0
"""Predicted speedup of a float reduction accumulated in a vector, over a
loop of :data:`FULL_VECTORS` vectors or more."""


def _outer_speedup(plan: VectorPlan) -> float:
    """Full when the loop is long, or when its inner loop accumulates in
    registers (``iter_args`` carried as vectors: a register tile, whose
    set-up, loading the accumulators, is paid once per inner loop)."""
    if plan.trip_count is None or plan.vector_args:
        return OUTER_SPEEDUP
    share = min(1.0, plan.trip_count / (plan.vf * FULL_VECTORS))
    return 1.0 + (OUTER_SPEEDUP - 1.0) * share


def _reduction_speedup(plan: VectorPlan) -> float:
    """Full over a loop of :data:`FULL_VECTORS` vectors or more, less in
    proportion below: each run of the loop ends with a horizontal
    ``vector.reduction`` and its scalar remainder (conv2d's 11-iteration
    reduction over a filter row gains little)."""
    if plan.trip_count is None:
        return REDUCTION_SPEEDUP
    share = min(1.0, plan.trip_count / (plan.vf * FULL_VECTORS))
    return 1.0 + (REDUCTION_SPEEDUP - 1.0) * share


def _has_inner_loop(plan: VectorPlan) -> bool:
    return any(op.name in ("affine.for", "affine.parallel") for op in plan.loop.walk() if op is not plan.loop)


def predict(plan: VectorPlan) -> Prediction:
    """The predicted effect of ``plan`` on speed (see the module's doc)."""
    f_iv = ForView(plan.loop).iv
    iv = f_iv.name if f_iv is not None else "the loop"
    transfers = [a for a in plan.accesses.values() if a.contiguous]
    if plan.mask:
        return Prediction(
            False,
            "masked transfers",
            "the trip count is not a known multiple of the width and a bound is a max/min of several expressions "
            "(no remainder loop): every transfer is masked (llvm.intr.masked.load/store)",
        )
    strided = [a for a in transfers if not a.fastest]
    if strided:
        a = strided[0]
        return Prediction(
            False,
            f"strided transfers on {a.access.memref.name}",
            f"{a.access.memref.name} is accessed along memref dimension {a.dim}, not the fastest varying: "
            "the transfer (permutation_map) is lowered element by element",
        )
    outside = [a for a in transfers if a.op not in plan.in_bounds]
    if outside:
        a = outside[0]
        return Prediction(
            False,
            f"{a.access.memref.name} not proven in bounds",
            f"the transfers on {a.access.memref.name} are not proven in bounds: they are lowered to masked loads/stores",
        )
    if plan.trip_count is not None and plan.trip_count < plan.vf:
        return Prediction(
            False,
            f"trip count {plan.trip_count} < VF {plan.vf}",
            f"the loop runs {plan.trip_count} iterations, fewer than one vector of {plan.vf}: only the scalar remainder runs",
        )
    rest = "; scalar remainder loop" if plan.remainder else ""
    if _has_inner_loop(plan):
        return Prediction(
            True,
            f"outer-loop vectorization of {iv}, in-bounds transfers{rest}",
            f"outer-loop vectorization: {plan.vf} iterations of {iv} run the inner loops together, every access unit-stride or "
            "invariant along it, unmasked; LLVM -O3 vectorizes only innermost loops",
            speedup=_outer_speedup(plan),
        )
    floats = [r for r in plan.reductions if isinstance(r.type, FloatType)]
    if floats:
        return Prediction(
            True,
            f"float reduction, in-bounds transfers{rest}",
            f"float reduction of {floats[0].iter_arg.name}: LLVM -O3 keeps it scalar (no reassociation without fast-math); "
            "the vectorized loop accumulates in a vector",
            speedup=_reduction_speedup(plan),
        )
    return Prediction(False, "LLVM -O3 already vectorizes it", LLVM_DOES_IT)
