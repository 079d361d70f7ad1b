"""Interchange loops, and Interchange for locality.

A perfect band's loops are permuted (``order[p]`` = the original position of
the loop placed at position ``p``, outermost first). Legal iff no dependence
not carried by an outer loop gets a lexicographically negative distance
vector once its band components are permuted -- an exact isl query on the
engine's distance sets (:func:`~affine_lsp.transforms.band.permutation_violation`)
-- and every loop stays inside the loops its bounds use. The loop headers
and the body are moved verbatim.

"Interchange for locality" puts innermost the band loop along which the most
accesses of the body are unit-stride (the IV only in the last index, with
coefficient +-1) or invariant (the IV in no index), when that is legal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from affine_lsp.ir.core import Operation
from affine_lsp.transforms import loop_verdicts
from affine_lsp.transforms.band import band_dependences, band_ivs, bound_dependencies, perfect_band, permutation_violation
from affine_lsp.transforms.catalog import OptionError, parse_ints
from affine_lsp.transforms.edits import TextEdit, Transform, UnsafeTransform
from affine_lsp.transforms.loop_models import Locality, interchange_prediction, locality
from affine_lsp.transforms.profitability import remark
from affine_lsp.transforms.rewrite import LoopOutcome, apply_sequentially, body_text, checked_in_section, line_indent, loops_on_lines
from affine_lsp.transforms.verdict import Kind, illegal, not_applicable

if TYPE_CHECKING:
    from argparse import Namespace


def order_reason(band: Sequence[Operation], order: Sequence[int]) -> str | None:
    """Why ``order`` is not a permutation of the band that keeps every loop
    inside the loops its bounds use (None when it is)."""
    n = len(band)
    if sorted(order) != list(range(n)):
        return not_applicable(f"the order {','.join(map(str, order))} is not a permutation of 0..{n - 1}")
    pos = {old: p for p, old in enumerate(order)}
    ivs = band_ivs(band)
    for k, used in enumerate(bound_dependencies(band)):
        for m in used:
            if pos[m] > pos[k]:
                return illegal(f"the bounds of the loop at {ivs[k].name} use {ivs[m].name}, which would move inside it")  # the output would not verify
    return None


def interchange_reason(band: Sequence[Operation], order: Sequence[int]) -> str | None:
    """Why permuting ``band`` by ``order`` is illegal, or None."""
    why = order_reason(band, order)
    if why is not None:
        return why
    if list(order) == list(range(len(band))):
        return None
    return permutation_violation(band_dependences(band), order)


def interchange_edits(text: str, band: Sequence[Operation], order: Sequence[int]) -> list[TextEdit]:
    """The edit replacing the band by its permutation (headers and body verbatim)."""
    outer = band[0]
    n = len(band)
    ind = line_indent(text, outer.span.start)
    heads = [text[lp.span.start : lp.regions[0].span.start + 1] for lp in band]
    lines = [ind + "  " * p + heads[old] for p, old in enumerate(order)]
    body = body_text(text, band[-1], ind + "  " * n)
    closing = "\n".join(ind + "  " * k + "}" for k in range(n - 1, -1, -1))
    new = "\n".join(lines) + "\n" + body + closing
    return [TextEdit(outer.span.start, outer.span.end, new[len(ind) :])]


# ------------------------------------------------------------------ locality


def locality_order(band: Sequence[Operation], legal_only: bool = True) -> tuple[list[int], Locality] | None:
    """The order putting innermost a loop with more unit-stride or invariant
    accesses than the current innermost one: the best such loop whose move is
    legal (with ``legal_only``; the best one otherwise), the others keeping
    their relative order. None when no loop improves on the innermost (or
    no improving move is legal)."""
    loc = locality(band)
    n = len(band)
    if n < 2 or loc.total == 0:
        return None
    better = sorted((k for k in range(n - 1) if loc.good[k] > loc.good[n - 1]), key=lambda k: (-loc.good[k], -k))
    if not better:
        return None
    orders = [[k for k in range(n) if k != best] + [best] for best in better]
    if legal_only:
        orders = [o for o in orders if interchange_reason(band, o) is None]
    return (orders[0], loc) if orders else None


# ------------------------------------------------------------------ API


def _describe_order(band: Sequence[Operation], order: Sequence[int]) -> str:
    ivs = band_ivs(band)
    return "(" + ", ".join(ivs[k].name for k in order) + ")"


def _transform(doc: object, band: list[Operation], order: list[int], title: str, details: str) -> Transform:
    from affine_lsp.source.document import Document

    assert isinstance(doc, Document)
    why = interchange_reason(band, order)
    if why is None:
        try:
            edits = interchange_edits(doc.text, band, order)
            checked_in_section(doc, edits)
        except UnsafeTransform as e:
            why = f"the interchanged nest does not verify: {e}"
    if why is not None:
        return Transform("interchange", f"{title}: {why}", [], f"Cannot interchange: {why}", {"disabled": why})
    pred = interchange_prediction(band, order)
    return Transform("interchange", title, edits, details + "\n\n" + pred.markdown(), {"loop": band[0].span.start, "order": list(order)}, prediction=pred)


def interchange_candidates(doc: object, loop: Operation) -> list[Transform]:
    """Code actions for the band at ``loop``: "Interchange for locality"
    (when another loop innermost makes more accesses unit-stride or
    invariant) and "Interchange loops" (the band's two outer loops swapped)."""
    if loop.name != "affine.for":
        return []
    band = perfect_band(loop)
    if len(band) < 2:
        return []
    out: list[Transform] = []
    got = locality_order(band) or locality_order(band, legal_only=False)
    if got is not None:
        order, loc = got
        ivs = band_ivs(band)
        title = (
            f"Interchange for locality: {ivs[order[-1]].name} innermost "
            f"({loc.good[order[-1]]}/{loc.total} accesses unit-stride or invariant, instead of {loc.good[len(band) - 1]}/{loc.total})"
        )
        out.append(_transform(doc, band, order, title, f"New loop order {_describe_order(band, order)}."))
    swap = [1, 0, *range(2, len(band))]
    if got is None or got[0] != swap:
        out.append(_transform(doc, band, swap, f"Interchange loops {_describe_order(band, swap)}", "Swaps the two outer loops of the band."))
    return out


def _bands(root: Operation) -> list[list[Operation]]:
    """The maximal perfect bands (of two loops or more) in pre-order."""
    seen: set[int] = set()
    out = []
    for op in root.walk():
        if op.name != "affine.for" or id(op) in seen:
            continue
        band = perfect_band(op)
        seen.update(id(lp) for lp in band)
        if len(band) >= 2:
            out.append(band)
    return out


def interchange_document(
    text: str, lines: Sequence[int] | None = None, order: Sequence[int] | None = None, unchecked: bool = False
) -> tuple[str, list[LoopOutcome]]:
    """Permute the bands starting on ``lines`` (1-based) by ``order``, or
    interchange them for locality when no order is given; with
    ``lines=None``, interchange for locality every band where that is legal.
    ``unchecked`` skips the dependence check (tests of what an illegal
    interchange would compute)."""
    from affine_lsp.source.document import Document

    doc = Document(text)
    outcomes: list[LoopOutcome] = []
    plans: dict[int, tuple[int, list[int]]] = {}  # offset -> (depth, order)
    preds: dict[int, str] = {}  # offset -> the prediction's remark
    for sec in doc.sections:
        if lines is None:
            bands = _bands(sec.module)
        else:
            bands = [perfect_band(op, len(order) if order is not None else None) for op, _line in loops_on_lines(doc, sec.module, lines)]
        for band in bands:
            off = band[0].span.start
            line = doc.lines.line_of(off) + 1
            if order is not None:
                new_order = list(order)
                if len(band) < len(new_order):
                    outcomes.append(LoopOutcome(off, line, False, f"the perfect band here has {len(band)} loop(s), fewer than the order's {len(new_order)}"))
                    continue
            else:
                got = locality_order(band, legal_only=not unchecked)
                if got is None:
                    best = locality_order(band, legal_only=False)
                    why = "the innermost loop already has the most unit-stride or invariant accesses"
                    if best is not None:
                        why = f"a better loop order for locality {_describe_order(band, best[0])} is not legal: {interchange_reason(band, best[0])}"
                    outcomes.append(LoopOutcome(off, line, False, why))
                    continue
                new_order = got[0]
            why = order_reason(band, new_order) if unchecked else interchange_reason(band, new_order)
            if why is not None:
                outcomes.append(LoopOutcome(off, line, False, why))
                continue
            plans[off] = (len(new_order), new_order)
            preds[off] = remark(interchange_prediction(band, new_order))

    def rewrite(cur: str, op: Operation) -> list[TextEdit] | str:
        depth, new_order = plans[op.span.start]
        band = perfect_band(op, depth)
        if len(band) < depth:
            return "the band changed"
        return interchange_edits(cur, band, new_order)

    new, done = apply_sequentially(text, list(plans), ["affine.for"], rewrite)
    for off, (_depth, new_order) in plans.items():
        why = done.get(off)
        outcomes.append(
            LoopOutcome(
                off, doc.lines.line_of(off) + 1, why is None, why if why is not None else f"interchanged to order {','.join(map(str, new_order))}", preds[off]
            )
        )
    outcomes.sort(key=lambda o: o.offset)
    return new, outcomes


# ------------------------------------------------------------------ hover


def interchange_verdicts(loop: Operation) -> list[loop_verdicts.Verdict]:
    if loop.name != "affine.for":
        return []
    band = perfect_band(loop)
    if len(band) < 2:
        return [loop_verdicts.Verdict.of("interchange", not_applicable("no perfectly nested loop inside"))]
    got = locality_order(band) or locality_order(band, legal_only=False)
    order = got[0] if got is not None else [1, 0] + list(range(2, len(band)))
    why = interchange_reason(band, order)
    what = f"interchange to {_describe_order(band, order)}"
    if got is not None:
        loc = got[1]
        what += f" (for locality: {loc.good[order[-1]]}/{loc.total} accesses unit-stride or invariant instead of {loc.good[len(band) - 1]}/{loc.total})"
    return [loop_verdicts.Verdict.of(what, why, Kind.UNPROVEN)]


def interchange_rewrite(args: Namespace) -> Callable[[str, Sequence[int] | None], tuple[str, list[LoopOutcome]]]:
    """``affine-lsp interchange``: with ``--loop LINE --order 1,0`` the band on
    LINE is permuted; without ``--order``, bands are interchanged for
    locality wherever that is legal."""
    order = None
    if args.order is not None:
        try:
            order = parse_ints(args.order)
        except ValueError:
            order = []
        if not order or not args.loop:
            raise OptionError("--order needs --loop and a list like 1,0")
    return lambda text, lines: interchange_document(text, lines, order)
