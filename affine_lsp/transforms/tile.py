"""Tile loop nest, and Skew and tile.

**Tiling** (what ``-affine-loop-tile`` does, with exact legality): a perfect,
hyper-rectangular band of ``n`` loops becomes ``n`` tile-space loops (the
original bounds, step ``step * size``) around ``n`` intra-tile loops running
from the tile's start to ``min(original upper bound, start + step * size)``;
the ``min`` is left out when the trip count is a known multiple of the size,
and the intra-tile loop runs ``start + trip`` when the whole trip count fits
in one tile (symbolic bounds included), as MLIR does. The intra-tile loops
keep the original IV names, so the body is copied verbatim.

Legal only when the band is fully permutable: no dependence not carried by
an outer loop has a negative distance component in a band dimension
(:func:`~affine_lsp.transforms.band.permutability_violation`, exact isl
queries on the engine's distance sets). MLIR only warns and tiles anyway.

**Skew and tile**: when a band is not permutable but skewing it is
(stencils whose dependences have distances like ``(1, -1)``), the skew
factors are computed from the distance sets
(:func:`~affine_lsp.transforms.band.find_skew`): dimension ``k`` becomes
``y_k = j_k + sum_m f[k][m] j_m``; the permutability of the skewed band is
checked again on the transformed distances before it is tiled. That check
is the whole legality proof: when every transformed distance is
componentwise non-negative (and non-zero), the tile coordinates
``floor((y - origin) / size)`` of a dependence's target are componentwise
no smaller than its source's whatever the origin, and inside one tile the
order of ``y`` is lexicographic, so every dependence still goes forward. The skewed
tiles are rectangular in ``y``; the intra-tile loops take ``max``/``min`` of
the tile and the skewed original bounds, and the original IVs are recovered
with ``affine.apply`` at the top of the body.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from affine_lsp.ir.affine_expr import AffineMap, dim, from_linear_form, linearize
from affine_lsp.ir.affine_ops import Bound, ForView
from affine_lsp.ir.core import Operation, Value
from affine_lsp.transforms import loop_verdicts
from affine_lsp.transforms.band import (
    band_dependences,
    band_ivs,
    bound_dependencies,
    find_skew,
    perfect_band,
    permutability_violation,
    structural_reason,
)
from affine_lsp.transforms.catalog import OptionError, parse_ints
from affine_lsp.transforms.edits import TextEdit, Transform, UnsafeTransform
from affine_lsp.transforms.loop_models import suggest_sizes, tile_prediction
from affine_lsp.transforms.profitability import Prediction, remark
from affine_lsp.transforms.rewrite import (
    LoopOutcome,
    NameGen,
    apply_sequentially,
    body_text,
    checked_in_section,
    detached_value,
    function_text,
    line_indent,
    loops_on_lines,
)
from affine_lsp.transforms.verdict import Kind, Why, kind_of, not_applicable

if TYPE_CHECKING:
    from argparse import Namespace

DEFAULT_TILE_SIZE = 32

Linear = tuple[dict[Value, int], int]


def rectangular_band(loop: Operation) -> list[Operation]:
    """The perfect band at ``loop``, cut before the first loop whose bounds
    use an IV of the band (tiling needs a hyper-rectangular band, as MLIR)."""
    band = perfect_band(loop)
    for k, used in enumerate(bound_dependencies(band)):
        if used:
            return band[:k]
    return band


def sizes_for(band: Sequence[Operation], sizes: Sequence[int]) -> list[int]:
    """One tile size per band loop (the last given size repeats)."""
    s = list(sizes) or [DEFAULT_TILE_SIZE]
    return [s[k] if k < len(s) else s[-1] for k in range(len(band))]


@dataclass
class TilePlan:
    band: list[Operation]
    sizes: list[int]
    skew: list[list[int]] | None = None
    reason: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.reason is None

    @property
    def skewed(self) -> bool:
        return self.skew is not None and any(any(r) for r in self.skew)


def plan_tile(loop: Operation, sizes: Sequence[int], skew: bool = False, unchecked: bool = False, depth: int | None = None) -> TilePlan:
    """How to tile the band at ``loop`` (its first ``depth`` loops), or why
    not. With ``skew``, a band that is not permutable is skewed first when a
    skew makes it permutable. ``unchecked`` skips the dependence check (for
    tests that show what an illegal tiling would compute)."""
    if loop.name != "affine.for":
        return TilePlan([loop], [], reason=not_applicable(f"'{loop.name}' is not an affine.for"))
    band = rectangular_band(loop)
    if not band:
        band = [loop]
    if depth is not None:
        band = band[:depth]
    sz = sizes_for(band, sizes)
    if any(s < 1 for s in sz):
        return TilePlan(band, sz, reason=not_applicable("tile sizes must be positive"))
    if len(band) == 1 and not ForView(band[0]).inits:
        return TilePlan(band, sz)  # strip-mining keeps the execution order: always legal
    why = structural_reason(band)
    if why is not None:
        return TilePlan(band, sz, reason=why)
    if unchecked:
        return TilePlan(band, sz)
    bd = band_dependences(band)
    if bd.reason is not None:
        return TilePlan(band, sz, reason=Why(f"cannot check the dependences of the band: {bd.reason}", kind_of(bd.reason, Kind.UNPROVEN)))
    bad = permutability_violation(bd)
    if bad is None:
        return TilePlan(band, sz)
    if not skew:
        return TilePlan(band, sz, reason=Why(f"the band is not fully permutable: {bad}", kind_of(bad, Kind.UNPROVEN)))
    factors = find_skew(bd)
    if factors is None:
        return TilePlan(band, sz, reason=Why(f"the band is not fully permutable and no skew makes it so: {bad}", kind_of(bad, Kind.UNPROVEN)))
    again = permutability_violation(bd, factors)  # the skewed band, checked again
    if again is not None:
        return TilePlan(band, sz, reason=Why(f"the skewed band is not fully permutable: {again}", kind_of(again, Kind.UNPROVEN)))
    why = _skew_shape_reason(band)
    if why is not None:
        return TilePlan(band, sz, reason=not_applicable(f"cannot skew this band: {why}"))
    return TilePlan(band, sz, factors, notes=[f"without skewing, {bad}"])


def _skew_shape_reason(band: Sequence[Operation]) -> str | None:
    for lp in band:
        f = ForView(lp)
        if f.step != 1:
            return f"the loop at {f.iv.name if f.iv else '?'} has step {f.step}"
        for b in (f.lower, f.upper):
            if _linear(b) is None:
                return f"the bounds of the loop at {f.iv.name if f.iv else '?'} are not single affine expressions"
    return None


# ------------------------------------------------------------------ printing


def _linear(b: Bound) -> Linear | None:
    """A single-result bound as a linear form over its operand values."""
    if b.map.num_results != 1:
        return None
    lin = linearize(b.map.results[0], b.map.num_dims)
    if lin is None:
        return None
    coeffs: dict[Value, int] = {}
    for pos, c in lin[0].items():
        v = b.operands[pos]
        coeffs[v] = coeffs.get(v, 0) + c
    return {v: c for v, c in coeffs.items() if c}, lin[1]


def _lin_add(a: Linear, b: Linear, scale: int = 1) -> Linear:
    coeffs = dict(a[0])
    for v, c in b[0].items():
        coeffs[v] = coeffs.get(v, 0) + scale * c
    return {v: c for v, c in coeffs.items() if c}, a[1] + scale * b[1]


def _lin_map(terms: Sequence[Linear], kw: str) -> str:
    """``terms`` as a bound (every value a dim operand: a valid symbol is a
    valid dim); a plain integer for a single constant."""
    if len(terms) == 1 and not terms[0][0]:
        return str(terms[0][1])
    vals: list[Value] = []
    for coeffs, _ in terms:
        for v in coeffs:
            if not any(v is w for w in vals):
                vals.append(v)
    exprs = [from_linear_form([coeffs.get(v, 0) for v in vals], [], c) for coeffs, c in terms]
    m = AffineMap(len(vals), 0, exprs)
    prefix = f"{kw} " if len(terms) > 1 else ""
    return f"{prefix}affine_map<{m}>({', '.join(v.name for v in vals)})"


def _bound_text(m: AffineMap, operands: Sequence[Value], kw: str) -> str:
    if m.num_results == 1 and m.num_dims == 0 and m.num_symbols == 0:
        e = m.results[0].simplify()
        if e.is_constant():
            return str(e.value)  # type: ignore[attr-defined]
    if m.num_results == 1 and m.num_dims == 0 and m.num_symbols == 1 and str(m.results[0]) == "s0":
        return operands[0].name  # the shorthand `to %n`
    dims = ", ".join(v.name for v in operands[: m.num_dims])
    syms = ", ".join(v.name for v in operands[m.num_dims :])
    prefix = f"{kw} " if m.num_results > 1 else ""
    return f"{prefix}affine_map<{m}>({dims})" + (f"[{syms}]" if syms else "")


def _constant_span(f: ForView) -> int | None:
    """``upper - lower`` when it is a constant (symbolic bounds included)."""
    lo, up = _linear(f.lower), _linear(f.upper)
    if lo is None or up is None:
        return None
    diff = _lin_add(up, lo, -1)
    return None if diff[0] else diff[1]


def _intra_upper(f: ForView, tile_iv: str, size: int) -> str:
    """The intra-tile upper bound (MLIR's ``constructTiledIndexSetHyperRect``)."""
    step = f.step
    span = _constant_span(f)
    if span is not None:
        trip = max(0, -(-span // step))
        if trip < size:
            return f"affine_map<(d0) -> (d0 + {span})>({tile_iv})"
        if trip % size == 0:
            return f"affine_map<(d0) -> (d0 + {step * size})>({tile_iv})"
    up = f.upper
    m = up.map
    nd = m.num_dims
    results = [*m.results, dim(nd) + step * size]
    new = AffineMap(nd + 1, m.num_symbols, results)
    return _bound_text(new, [*up.dim_operands, _named(tile_iv), *up.symbol_operands], "min")


def _named(name: str) -> Value:
    return detached_value(name, None)


def tile_edits(text: str, plan: TilePlan) -> list[TextEdit]:
    """The edit replacing the band by its tiled (or skewed and tiled) nest."""
    band = plan.band
    outer = band[0]
    n = len(band)
    ind = line_indent(text, outer.span.start)
    names = NameGen.from_text(function_text(text, outer))
    views = [ForView(lp) for lp in band]
    ivs = band_ivs(band)
    tile_ivs = [names.fresh(iv.name.lstrip("%") + "_t") for iv in ivs]
    lines: list[str] = []
    if not plan.skewed:
        for k, f in enumerate(views):
            head = f"affine.for {tile_ivs[k]} = {_bound_text(f.lower.map, f.lower.operands, 'max')} to {_bound_text(f.upper.map, f.upper.operands, 'min')} step {f.step * plan.sizes[k]} {{"
            lines.append(ind + "  " * k + head)
        for k, f in enumerate(views):
            step = f" step {f.step}" if f.step != 1 else ""
            head = f"affine.for {ivs[k].name} = affine_map<(d0) -> (d0)>({tile_ivs[k]}) to {_intra_upper(f, tile_ivs[k], plan.sizes[k])}{step} {{"
            lines.append(ind + "  " * (n + k) + head)
        prologue: list[str] = []
    else:
        lines, prologue = _skewed_headers(plan, views, ivs, tile_ivs, names, ind)
    body_ind = ind + "  " * (2 * n)
    body = "".join(body_ind + p + "\n" for p in prologue) + body_text(text, band[-1], body_ind)
    closing = "\n".join(ind + "  " * k + "}" for k in range(2 * n - 1, -1, -1))
    new = "\n".join(lines) + "\n" + body + closing
    return [TextEdit(outer.span.start, outer.span.end, new[len(ind) :])]


def _inverse_unit_lower(s: list[list[int]]) -> list[list[int]]:
    n = len(s)
    g = [[int(i == j) for j in range(n)] for i in range(n)]
    for i in range(n):
        for j in range(i):
            g[i][j] = -sum(s[i][m] * g[m][j] for m in range(j, i))
    return g


def _skewed_headers(plan: TilePlan, views: list[ForView], ivs: list[Value], tile_ivs: list[str], names: NameGen, ind: str) -> tuple[list[str], list[str]]:
    assert plan.skew is not None
    n = len(views)
    f = plan.skew
    s = [[f[i][j] if j < i else int(i == j) for j in range(n)] for i in range(n)]
    g = _inverse_unit_lower(s)
    lows = [_linear(v.lower) for v in views]
    ups = [_linear(v.upper) for v in views]
    assert all(x is not None for x in lows + ups)
    # the skewed IVs: a fresh name unless y_k is j_k itself
    y_names = [ivs[k].name if not any(f[k]) else names.fresh(ivs[k].name.lstrip("%") + "_s") for k in range(n)]
    ys = [_named(y) for y in y_names]
    lines = []
    for k in range(n):
        lo, hi = lows[k], ups[k]
        assert lo is not None and hi is not None
        for m in range(k):
            lm, um = lows[m], ups[m]
            assert lm is not None and um is not None
            lo = _lin_add(lo, lm, f[k][m])
            hi = _lin_add(hi, _lin_add(um, ({}, -1)), f[k][m])
        lines.append(ind + "  " * k + f"affine.for {tile_ivs[k]} = {_lin_map([lo], 'max')} to {_lin_map([hi], 'min')} step {plan.sizes[k]} {{")

    def original(m: int) -> Linear:
        """j_m as a linear form of the skewed IVs y_0..y_m."""
        return {ys[p]: g[m][p] for p in range(m + 1) if g[m][p]}, 0

    for k in range(n):
        lo, hi = lows[k], ups[k]
        assert lo is not None and hi is not None
        for m in range(k):
            lo = _lin_add(lo, original(m), f[k][m])
            hi = _lin_add(hi, original(m), f[k][m])
        t = _named(tile_ivs[k])
        lb = _lin_map([({t: 1}, 0), lo], "max")
        ub = _lin_map([({t: 1}, plan.sizes[k]), hi], "min")
        lines.append(ind + "  " * (n + k) + f"affine.for {y_names[k]} = {lb} to {ub} {{")
    prologue = []
    for k in range(n):
        if any(f[k]):
            coeffs, _ = original(k)
            prologue.append(f"{ivs[k].name} = affine.apply {_lin_map([(coeffs, 0)], '')}")
    return lines, prologue


# ------------------------------------------------------------------ API


def _title(plan: TilePlan) -> str:
    dims = "x".join(str(s) for s in plan.sizes)
    if plan.skewed:
        assert plan.skew is not None
        return f"Skew and tile loop nest ({dims}, skew {describe_skew(plan)})"
    return f"Tile loop nest ({dims})"


def describe_skew(plan: TilePlan) -> str:
    assert plan.skew is not None
    ivs = [iv.name for iv in band_ivs(plan.band)]
    parts = []
    for k, row in enumerate(plan.skew):
        if any(row):
            terms = [ivs[k]] + [f"{c}*{ivs[m]}" if c != 1 else ivs[m] for m, c in enumerate(row) if c]
            parts.append(f"{ivs[k]} → {' + '.join(terms)}")
    return ", ".join(parts)


def tile_candidates(doc: object, loop: Operation, sizes: Sequence[int] = (DEFAULT_TILE_SIZE,)) -> list[Transform]:
    """Code actions for the band at ``loop``: "Tile loop nest (32x32)" (or
    disabled with the dependence that forbids it) and, when only a skew
    makes it legal, "Skew and tile loop nest (...)"."""
    from affine_lsp.source.document import Document

    assert isinstance(doc, Document)
    if loop.name != "affine.for":
        return []
    out: list[Transform] = []
    plan = plan_tile(loop, sizes)
    out.append(_candidate(doc, plan, "Tile loop nest"))
    if not plan.ok and "not fully permutable" in (plan.reason or ""):
        skewed = plan_tile(loop, sizes, skew=True)
        if skewed.ok:
            out.append(_candidate(doc, skewed, "Skew and tile loop nest"))
    return out


def _candidate(doc: object, plan: TilePlan, base: str) -> Transform:
    from affine_lsp.source.document import Document

    assert isinstance(doc, Document)
    dims = "x".join(str(s) for s in plan.sizes)
    if not plan.ok:
        title = f"{base} ({dims}): {plan.reason}"
        return Transform("tile", title, [], f"Cannot tile: {plan.reason}", {"disabled": plan.reason})
    try:
        edits = tile_edits(doc.text, plan)
        checked_in_section(doc, edits)
    except UnsafeTransform as e:
        reason = f"the tiled nest does not verify: {e}"
        return Transform("tile", f"{base} ({dims}): {reason}", [], reason, {"disabled": reason})
    details = "The band is fully permutable" + (f" after skewing ({describe_skew(plan)}); " + "; ".join(plan.notes) if plan.skewed else "") + "."
    pred = tile_prediction(plan.band, plan.sizes)
    data: dict[str, object] = {"loop": plan.band[0].span.start}
    if pred is not None:
        details += "\n\n" + pred.markdown()
    else:
        data["no_prediction"] = "a trip count of the band is not constant"
        details += "\n\nNo prediction: a trip count of the band is not constant (the cost model needs the footprint of a tile)."
    return Transform("tile", _title(plan), edits, details, data, prediction=pred)


def _top_level_loops(root: Operation) -> list[Operation]:
    return [op for op in root.walk() if op.name == "affine.for" and not any(a.name in ("affine.for", "affine.parallel") for a in op.ancestors())]


def tile_document(
    text: str,
    sizes: Sequence[int] | None = (DEFAULT_TILE_SIZE,),
    lines: Sequence[int] | None = None,
    skew: bool = False,
    unchecked: bool = False,
    profitable_only: bool = False,
) -> tuple[str, list[LoopOutcome]]:
    """Tile the bands starting on ``lines`` (1-based; their whole
    rectangular band, refused when illegal), or with ``lines=None`` every
    outermost band, as far down as it is fully permutable (like
    ``-affine-loop-tile``, without tiling illegally); with
    ``profitable_only``, only those predicted profitable
    (:func:`.loop_models.tile_prediction`: not when the nest's data already
    fits in the cache). Every outcome carries the prediction. With
    ``skew``, a band that only a skew makes permutable is skewed and tiled. ``sizes=None``: per band, the sizes
    :func:`.loop_models.suggest_sizes` picks from its footprint."""
    from affine_lsp.source.document import Document

    doc = Document(text)
    outcomes: list[LoopOutcome] = []
    plans: dict[int, TilePlan] = {}
    preds: dict[int, Prediction | None] = {}
    for sec in doc.sections:
        if lines is not None:
            loops = list(loops_on_lines(doc, sec.module, lines))
        else:
            loops = [(op, doc.lines.line_of(op.span.start) + 1) for op in _top_level_loops(sec.module)]
        for op, line in loops:
            band_sizes = sizes
            if band_sizes is None:
                band_sizes = suggest_sizes(rectangular_band(op) or [op]) or [DEFAULT_TILE_SIZE]
            plan = plan_tile(op, band_sizes, skew=skew, unchecked=unchecked)
            if not plan.ok and lines is None and not unchecked:
                for depth in range(len(plan.band) - 1, 0, -1):  # the longest permutable prefix
                    shorter = plan_tile(op, band_sizes, depth=depth)
                    if shorter.ok:
                        shorter.notes.append(f"not deeper: {plan.reason}")
                        plan = shorter
                        break
            if not plan.ok:
                outcomes.append(LoopOutcome(op.span.start, line, False, plan.reason or ""))
                continue
            if any(op in p.band for p in plans.values()):
                outcomes.append(LoopOutcome(op.span.start, line, False, "part of a band already tiled"))
                continue
            pred = tile_prediction(plan.band, plan.sizes)
            if lines is None and profitable_only and pred is not None and not pred.profitable:
                outcomes.append(LoopOutcome(op.span.start, line, False, remark(pred)))
                continue
            preds[op.span.start] = pred
            plans[op.span.start] = plan

    def rewrite(cur: str, op: Operation) -> list[TextEdit] | str:
        old = plans[op.span.start]  # the ops are rewritten last first: earlier offsets do not move
        plan = plan_tile(op, old.sizes, skew=skew, unchecked=True, depth=len(old.band))
        if old.skew is not None:
            plan.skew = old.skew
        return tile_edits(cur, plan) if plan.ok else (plan.reason or "")

    new, done = apply_sequentially(text, list(plans), ["affine.for"], rewrite)
    for off, plan in plans.items():
        why = done.get(off)
        what = ("skewed and tiled" if plan.skewed else "tiled") + f" {len(plan.band)} loop(s) by {'x'.join(map(str, plan.sizes))}"
        if plan.skewed:
            what += f" (skew {describe_skew(plan)})"
        elif plan.notes:
            what += f" ({'; '.join(plan.notes)})"
        outcomes.append(
            LoopOutcome(off, doc.lines.line_of(off) + 1, why is None, why if why is not None else what, remark(preds.get(off), "a trip count is not constant"))
        )
    outcomes.sort(key=lambda o: o.offset)
    return new, outcomes


# ------------------------------------------------------------------ hover


def tile_verdicts(loop: Operation) -> list[loop_verdicts.Verdict]:
    if loop.name != "affine.for":
        return []
    plan = plan_tile(loop, (DEFAULT_TILE_SIZE,))
    n = len(plan.band)
    out = [loop_verdicts.Verdict.of(f"tile ({n}-loop band)", plan.reason)]
    if plan.ok:
        out.append(loop_verdicts.Verdict.of("skew and tile (no skew needed)", None))
    else:
        skewed = plan_tile(loop, (DEFAULT_TILE_SIZE,), skew=True)
        name = f"skew and tile ({describe_skew(skewed)})" if skewed.ok and skewed.skewed else "skew and tile"
        out.append(loop_verdicts.Verdict.of(name, skewed.reason))
    return out


def tile_rewrite(args: Namespace) -> Callable[[str, Sequence[int] | None], tuple[str, list[LoopOutcome]]]:
    """``affine-lsp tile``: like ``mlir-opt -affine-loop-tile="tile-sizes=..."``,
    only where legal: the band on ``--loop``, or (``--all``) every outermost
    band as deep as it is fully permutable unless its data already fits in
    half the L2 cache (``--force``: those too); ``--skew`` skews a band first
    when only a skew makes it permutable."""
    sizes: list[int] | None = None
    if args.sizes.strip() != "auto":
        try:
            sizes = parse_ints(args.sizes)
        except ValueError:
            sizes = []
        if not sizes or any(s < 1 for s in sizes):
            raise OptionError("--sizes must be positive integers, e.g. 32,32, or auto")
    return lambda text, lines: tile_document(text, sizes, lines, skew=args.skew, profitable_only=not args.force)
