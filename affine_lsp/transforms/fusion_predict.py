"""What a fusion is predicted to do to speed (:class:`Prediction`), from the
cost model's counts (:mod:`.fusion_cost`).

* Work: ``work_ratio = fused cost / (source cost + destination cost)``
  (dynamic op instances, the slice's loops at their slice trip counts). Over
  ``1 + COMPUTE_TOLERANCE`` the fusion multiplies the work: it is not
  profitable, and the title says how many times the producer is recomputed
  (``(fused cost - destination cost) / source cost``) and how much more
  work that is.
* When the counts cannot be made (a trip count that is not constant, a slice
  whose trip count is unknown), the redundant computation is unknown: not
  profitable ("cannot count the recomputation"), never a guess.
* Otherwise the fusion is profitable, and the summary says what happens to
  the intermediate memref: no longer written to memory (the fused nest got a
  private, shrunk buffer and the producer is gone), or still written but
  read back while in cache, or (sibling fusion) read once for both nests.
  No speedup figure: the model counts work and traffic, it has no basis for
  a time.
"""

from __future__ import annotations

from affine_lsp.ir.core import Value
from affine_lsp.transforms.fusion_cost import COMPUTE_TOLERANCE, Profit
from affine_lsp.transforms.machine import caches, human_bytes
from affine_lsp.transforms.profitability import Prediction, change


def recompute_factor(pr: Profit, depth: int) -> float | None:
    """How many times the producer's work is done in the fused nest."""
    ev = pr.evals.get(depth)
    if ev is None or ev.fused_cost is None or pr.src_cost is None or pr.dst_cost is None or pr.src_cost == 0:
        return None
    return max(0.0, (ev.fused_cost - pr.dst_cost) / pr.src_cost)


def work_ratio(pr: Profit, depth: int) -> float | None:
    ev = pr.evals.get(depth)
    if ev is None or ev.extra_fraction is None:
        return None
    return 1.0 + ev.extra_fraction


def _times(x: float) -> str:
    return f"{x:.0f}" if x >= 10 else f"{x:.1f}"


def predict(kind: str, pr: Profit | None, depth: int, memrefs: list[Value], removed_src: bool = True, privatized: list[Value] | None = None) -> Prediction:
    """The prediction for fusing at ``depth``; ``privatized``: the memrefs
    the fused nest replaced with a private buffer (None: not known yet)."""
    names = ", ".join(m.name for m in memrefs) or "the shared memref"
    if pr is None or pr.skipped:
        why = pr.reason if pr is not None and pr.reason else "the trip counts are not constant"
        return Prediction(
            False, "cannot count the recomputation", f"Legal, but the redundant computation cannot be counted ({why}): not fused without --force."
        )
    ratio = work_ratio(pr, depth)
    if ratio is None:
        ev = pr.evals.get(depth)
        note = ev.note if ev is not None and ev.note else "the slice's trip counts are unknown"
        return Prediction(False, "cannot count the recomputation", f"Legal, but the redundant computation at depth {depth} cannot be counted ({note}).")
    pct = change("compute", ratio - 1)
    if ratio > 1 + COMPUTE_TOLERANCE:
        times = recompute_factor(pr, depth) or ratio
        summary = f"legal, but recomputes the producer {_times(times)}x per element: ~{_times(ratio)}x more work"
        reason = (
            f"Fusing at depth {depth} runs the producer's slice once per iteration of the destination's loops 1..{depth}: "
            f"{pr.src_cost} source op instances become {round(times * (pr.src_cost or 0))} "
            f"(the fused nest does {_times(ratio)}x the work of the two nests; tolerance {COMPUTE_TOLERANCE * 100:.0f}%)."
        )
        return Prediction(False, summary, reason, work_ratio=ratio)
    if kind == "sibling":
        what = f"{names} read by both in one pass"
    elif privatized is None:
        what = f"{names} consumed right after it is produced"
    elif removed_src and all(m in privatized for m in memrefs):
        what = f"{names} no longer written to memory"
    elif not removed_src:
        what = f"the producer is kept; {names} read back while in cache"
    else:
        what = f"{names} still written to memory, read back while in cache"
        size = pr.src_write_bytes
        if size is not None and size <= caches().l2:
            what = f"{names} still written to memory (its {human_bytes(size)} fit in L2: little traffic saved)"
    summary = f"fuses 2 nests; {what}; {pct}"
    reason = f"Fusion at depth {depth} adds {pct} (op instances {(pr.src_cost or 0) + (pr.dst_cost or 0)} -> {pr.evals[depth].fused_cost}); {what}."
    return Prediction(True, summary, reason, work_ratio=ratio)
