"""What the iteration-space and dependence-graph views draw, as JSON.

:func:`iteration_space` takes the loop nest of one loop (its enclosing loops,
the loop, and the loops below it while a body holds exactly one loop) and two
of its IVs as the axes; the other IVs are fixed at a value or projected
(existentially), parameters get small values. It answers, computed with isl
from the dependence engine's model (:mod:`.polyhedral`, :mod:`.dependences`),
exactly and under the engine's operation budget:

* ``points``: the integer points of the nest's domain in the view (sampled,
  with ``sampled: true``, past ``max_points``), and per point the accesses it
  makes;
* ``constraints``: the non-redundant constraints ``a*x + b*y + c >= 0`` (or
  ``= 0``) of the drawn domain (so every result of a ``max`` lower / ``min``
  upper bound that matters), and of each ``affine.if`` in the nest;
* ``dependences`` (kind RAW/WAR/WAW, memref, depth, carrying loop, source
  and sink ops) and ``arrows``: the source -> sink iteration pairs of each.

:func:`dependence_graph` gives a function's accesses (grouped by loop nest)
as nodes and its dependences as edges. Both are what the
``affine-lsp.iterationSpace`` / ``affine-lsp.dependenceGraph`` server
commands return and what ``affine-lsp plot`` / ``deps --format dot`` draw.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import islpy as isl

from affine_lsp.analysis.dependences import NONE, DepResult, FunctionDeps
from affine_lsp.analysis.isl_support import CTX, DT, BudgetExceeded, IslFailure, limited, val
from affine_lsp.analysis.polyhedral import AccessModel
from affine_lsp.ir.affine_ops import ForView, ParallelView
from affine_lsp.ir.core import Block, Operation, Span, Value

LOOP_OP_NAMES = ("affine.for", "affine.parallel")
DEFAULT_PARAM = 8
"""The value a parameter gets when none is given (small: a readable picture)."""
MAX_POINTS = 2500
MAX_ARROWS = 4000
CAP_SAMPLE = 8  # a capped dependence's arrows are picked from up to this many times its share
_ENUMERATE_AREA = 40_000  # bounding boxes up to this area are enumerated, then sampled

RangeOf = Callable[[Span], dict]


class ViewError(Exception):
    """The view cannot be drawn (no loop, unbounded domain, budget...)."""


def loop_ivs_of(loop: Operation) -> list[Value]:
    if loop.name == "affine.for":
        iv = ForView(loop).iv
        return [iv] if iv is not None else []
    return list(ParallelView(loop).ivs)


def _body(loop: Operation) -> Block | None:
    if not loop.regions or not loop.regions[0].blocks:
        return None
    return loop.regions[0].blocks[0]


def nest_chain(loop: Operation) -> list[Operation]:
    """The loops of the nest drawn for ``loop``: the affine loops around it
    (outermost first), itself, and the loops below while a body holds exactly
    one affine loop."""
    outer = []
    cur = loop.parent_op if loop.parent is not None else None
    while cur is not None and cur.name not in ("func.func", "builtin.module"):
        if cur.name in LOOP_OP_NAMES:
            outer.append(cur)
        cur = cur.parent_op if cur.parent is not None else None
    chain = [*reversed(outer), loop]
    cur = loop
    while True:
        body = _body(cur)
        if body is None:
            break
        inner = [o for o in body.operations if o.name in LOOP_OP_NAMES]
        if len(inner) != 1:
            break
        cur = inner[0]
        chain.append(cur)
    return chain


@dataclass
class _View:
    ivs: list[Value]
    names: list[str]  # source names of the IVs (%i)
    dims: tuple[int, int | None]
    fixed: dict[int, int]  # IV position -> value; the others not drawn are projected
    params: dict[str, int]  # isl parameter name -> value

    def compatible(self, ivs: Sequence[Value]) -> bool:
        """``ivs`` is a prefix of the chain or extends it."""
        n = min(len(ivs), len(self.ivs))
        return all(a is b for a, b in zip(ivs[:n], self.ivs[:n]))

    def has_axes(self, ivs: Sequence[Value]) -> bool:
        m = len(ivs)
        return self.dims[0] < m and (self.dims[1] is None or self.dims[1] < m)

    def to_view(self, names: Sequence[str]) -> isl.Map:
        """``{ [ivs of an access/level] -> [x, y] }`` fixing the fixed IVs
        it has (the ones it lacks and the projected ones are free)."""
        m = len(names)
        ins = [f"v{k}" for k in range(m)]
        cons = []
        dx, dy = self.dims
        cons.append(f"x = v{dx}" if dx < m else "x = x")
        if dy is None:
            cons.append("y = 0")
        elif dy < m:
            cons.append(f"y = v{dy}")
        for k, value in self.fixed.items():
            if k < m:
                cons.append(f"v{k} = {value}")
        return isl.Map.read_from_str(CTX, f"{{ [{', '.join(ins)}] -> [x, y] : {' and '.join(cons)} }}")

    def fix(self, obj: Any) -> Any:
        """Fix the parameters of an isl set/map and drop them."""
        sp = obj.get_space()
        for k in range(sp.dim(DT.param)):
            name = sp.get_dim_name(DT.param, k)
            obj = obj.fix_val(DT.param, k, val(self.params.get(name, DEFAULT_PARAM)))
        obj = obj.project_out(DT.param, 0, obj.dim(DT.param))
        if isinstance(obj, isl.Set):
            return obj.reset_tuple_id()
        return obj.reset_tuple_id(DT.in_).reset_tuple_id(DT.out)


def _points(s: isl.Set, limit: int | None = None) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    n = s.dim(DT.set)
    failed: list[str] = []

    def cb(p: isl.Point) -> isl.stat | None:
        try:
            out.append(tuple(p.get_coordinate_val(DT.set, k).to_python() for k in range(n)))
        except isl.Error as e:  # the operation budget, inside the callback
            failed.append(str(e))
            return isl.stat.error
        if limit is not None and len(out) >= limit:
            # Stop the enumeration the way isl's callbacks do (an exception
            # raised here would be printed by islpy as a warning).
            return isl.stat.error
        return None

    try:
        s.foreach_point(cb)
    except isl.Error as e:
        if failed or limit is None or len(out) < limit:
            # The operation budget tripped (inside the callback, or isl then
            # hands it an invalid point): said as such, not as a failure.
            budget = next((m for m in (str(e), *failed) if "maximal number of operations" in m), None)
            if budget is not None or (failed and "invalid arg" in failed[0]):
                raise BudgetExceeded(budget or failed[0]) from None
            raise IslFailure(failed[0] if failed else str(e)) from None
    return out


def _bounds(s: isl.Set, k: int) -> tuple[int, int]:
    lo, hi = s.dim_min_val(k), s.dim_max_val(k)
    if not (lo.is_int() and hi.is_int()):
        raise ViewError("the domain is unbounded in the view (a bound is not affine or a parameter is missing)")
    return lo.to_python(), hi.to_python()


def _constraints(s: isl.Set) -> set[tuple[int, int, int, bool]]:
    """Non-redundant constraints ``a*x + b*y + c (>= | =) 0`` of a 2-d set
    without existential variables (those with divs are left out)."""
    out: set[tuple[int, int, int, bool]] = set()
    s = s.remove_redundancies().coalesce()
    for bs in s.get_basic_sets():
        for c in bs.get_constraints():
            if any(not c.get_coefficient_val(DT.div, k).is_zero() for k in range(c.dim(DT.div))):
                continue
            a = c.get_coefficient_val(DT.set, 0).to_python()
            b = c.get_coefficient_val(DT.set, 1).to_python()
            k = c.get_constant_val().to_python()
            if a == 0 and b == 0:
                continue
            g = math.gcd(math.gcd(a, b), k) or 1
            out.add((a // g, b // g, k // g, c.is_equality()))
    return out


def _affine_text(terms: list[tuple[int, str]], c: int) -> str:
    out = ""
    for k, n in terms:
        if not k:
            continue
        mag = n if abs(k) == 1 else f"{abs(k)} * {n}"
        out += (" - " if k < 0 else " + ") + mag if out else ("-" if k < 0 else "") + mag
    if c or not out:
        out += (f" - {-c}" if c < 0 else f" + {c}") if out else str(c)
    return out


def constraint_text(a: int, b: int, c: int, eq: bool, xn: str, yn: str) -> str:
    """``a*x + b*y + c >= 0`` (or ``== 0``) as ``y >= ...`` / ``x <= ...``
    with the IV names (the general form when the coefficient is not +-1)."""
    lhs, coef, other = (yn, b, (a, xn)) if b != 0 else (xn, a, (0, yn))
    if abs(coef) != 1:
        return f"{_affine_text([(a, xn), (b, yn)], c)} {'==' if eq else '>='} 0"
    # coef * lhs >= -(other + c)  <=>  lhs (>= | <=) -(other + c) / coef
    rhs = _affine_text([(-other[0] * coef, other[1])], -c * coef)
    return f"{lhs} {'==' if eq else '>=' if coef > 0 else '<='} {rhs}"


def _op_ref(op: Operation, range_of: RangeOf) -> dict:
    return {"op": op.name, "range": range_of(op.span), "nameRange": range_of(op.name_span)}


def _acc_ref(acc: AccessModel, range_of: RangeOf) -> dict:
    return {
        **_op_ref(acc.op, range_of),
        "memref": acc.memref.name if acc.memref is not None else None,
        "role": acc.role,
        "write": acc.is_write,
    }


def _carrier(dep: DepResult) -> Value | None:
    if dep.src is None or not dep.is_carried:
        return None
    return dep.src.ivs[dep.depth - 1] if dep.depth - 1 < len(dep.src.ivs) else None


def _parse_dims(dims: Sequence[int | str] | None, names: list[str], default: tuple[int, int | None]) -> tuple[int, int | None]:
    if not dims:
        return default
    out: list[int] = []
    for d in dims:
        if isinstance(d, int) or (isinstance(d, str) and d.lstrip("-").isdigit()):
            k = int(d)
        else:
            want = str(d) if str(d).startswith("%") else f"%{d}"
            if want not in names:
                raise ViewError(f"no loop {want} in this nest (loops: {', '.join(names)})")
            k = names.index(want)
        if not 0 <= k < len(names):
            raise ViewError(f"loop #{k} is not in this nest of {len(names)} loops")
        out.append(k)
    if len(out) == 1:
        return (out[0], None)
    if out[0] == out[1]:
        raise ViewError("the two axes must be different loops")
    return (out[0], out[1])


def iteration_space(
    fd: FunctionDeps,
    loop: Operation,
    range_of: RangeOf,
    dims: Sequence[int | str] | None = None,
    fixed: Mapping[str, int | None] | None = None,
    params: Mapping[str, int] | None = None,
    max_points: int = MAX_POINTS,
    max_arrows: int = MAX_ARROWS,
) -> dict:
    """The iteration-space picture of the nest of ``loop`` (see the module doc).

    ``dims``: the two axes (IV names like ``%i`` or ``i``, or positions in the
    nest); ``fixed``: IV name -> value (None: projected; the default for every
    IV not drawn); ``params``: parameter (``%N``, ``N`` or isl name) -> value.
    Raises :class:`ViewError` when it cannot be drawn."""
    chain = nest_chain(loop)
    ivs: list[Value] = []
    iv_loop: list[Operation] = []
    for lp in chain:
        for v in loop_ivs_of(lp):
            ivs.append(v)
            iv_loop.append(lp)
    if not ivs:
        raise ViewError("the loop has no induction variable")
    names = [v.name or f"%iv{k}" for k, v in enumerate(ivs)]
    sel = [k for k, lp in enumerate(iv_loop) if lp is loop]
    first = sel[0]
    if len(ivs) == 1:
        default: tuple[int, int | None] = (0, None)
    elif len(sel) >= 2:
        default = (sel[0], sel[1])
    elif first + 1 < len(ivs):
        default = (first, first + 1)
    else:
        default = (first - 1, first)
    axes = _parse_dims(dims, names, default)
    fixed_pos: dict[int, int] = {}
    for name, value in (fixed or {}).items():
        want = name if name.startswith("%") else f"%{name}"
        if want not in names:
            raise ViewError(f"no loop {want} in this nest (loops: {', '.join(names)})")
        k = names.index(want)
        if value is not None and k not in axes:
            fixed_pos[k] = int(value)
    body = _body(chain[-1])
    if body is None:
        raise ViewError("the innermost loop has no body")
    model = fd.model
    in_nest = [a for a in fd.accesses if any(lp in a.loops for lp in chain)]
    param_names: list[str] = []
    try:
        with limited(fd.budget):
            domain, dom_ivs, _iv_isl, failures = model.block_domain(body)
            for obj in [domain] + [o for a in in_nest for o in (a.relation, a.domain) if o is not None]:
                sp = obj.get_space()
                param_names.extend(sp.get_dim_name(DT.param, k) for k in range(sp.dim(DT.param)))
    except BudgetExceeded:
        raise ViewError(f"dependence analysis budget exceeded ({fd.budget} isl operations) while modelling the nest") from None
    except IslFailure as e:
        raise ViewError(f"isl failure: {e}") from None
    if list(dom_ivs) != ivs:
        raise ViewError("the nest is not modelled (its IVs are not the enclosing loops')")
    # Parameters: the user's values by isl name, source name or bare name.
    given: dict[str, int] = {}
    for k, v in (params or {}).items():
        given[str(k)] = int(v)
        given[str(k).lstrip("%")] = int(v)
    pvals: dict[str, int] = {}
    plist: list[dict] = []
    for pn in dict.fromkeys(param_names):
        label = model.param_desc.get(pn, pn)
        v = given.get(pn, given.get(label, given.get(label.lstrip("%"), DEFAULT_PARAM)))
        pvals[pn] = v
        plist.append({"name": pn, "label": label, "value": v, "default": pn not in given and label not in given and label.lstrip("%") not in given})
    view = _View(ivs, names, axes, fixed_pos, pvals)
    xn = names[axes[0]]
    yn = names[axes[1]] if axes[1] is not None else ""
    notes: list[str] = [f"not exact: {f}" for f in failures]
    out: dict[str, Any] = {
        "loop": {**_op_ref(loop, range_of), "iv": names[first]},
        "ivs": [{"name": n, **_op_ref(lp, range_of)} for n, lp in zip(names, iv_loop)],
        "dims": [names[axes[0]]] + ([names[axes[1]]] if axes[1] is not None else []),
        "axes": {"x": xn, "y": yn or None},
        "fixed": {n: fixed_pos.get(k) for k, n in enumerate(names) if k not in axes},
        "params": plist,
    }
    out.update(_draw(fd, view, domain, chain, in_nest, range_of, max_points, max_arrows, notes))
    out["notes"] = notes
    return out


def _domain_points(view: _View, domain: isl.Set, max_points: int, notes: list[str]) -> tuple[isl.Set, isl.Set, list[tuple[int, ...]], int | None, bool]:
    """``(the domain in the view, the part drawn, its points, how many in
    all (None: not counted), sampled)``. Runs isl: inside :func:`limited`."""
    inames = [f"v{k}" for k in range(len(view.ivs))]
    dom2 = view.fix(domain).apply(view.to_view(inames)).coalesce()
    if dom2.is_empty():
        return dom2, dom2, [], 0, False
    if not dom2.is_bounded():
        raise ViewError("the domain is unbounded in the view (a bound is not affine)")
    (x0, x1), (y0, y1) = _bounds(dom2, 0), _bounds(dom2, 1)
    area = (x1 - x0 + 1) * (y1 - y0 + 1)
    total: int | None = None
    if area <= _ENUMERATE_AREA:
        pts = sorted(_points(dom2))
        total = len(pts)
        if total <= max_points:
            return dom2, dom2, pts, total, False
    else:  # a big box, maybe a thin domain: count up to the limit
        pts = sorted(_points(dom2, max_points + 1))
        if len(pts) <= max_points:
            return dom2, dom2, pts, len(pts), False
    # A grid through the first point, every `step` values along each axis
    # (it meets a strided domain: the first point is on both).
    step = max(2, math.ceil(math.sqrt((total or area) / max_points)))
    p0 = _points(dom2.lexmin())[0]
    while True:
        grid = isl.Set.read_from_str(CTX, f"{{ [x, y] : (x - ({p0[0]})) mod {step} = 0 and (y - ({p0[1]})) mod {step} = 0 }}")
        sample = dom2.intersect(grid)
        pts = sorted(_points(sample, max_points + 1))
        if len(pts) <= max_points:
            break
        step += 1
    notes.append(f"sampled: {len(pts)} of {total if total is not None else f'more than {max_points}'} points drawn")
    return dom2, sample, pts, total, True


def _lift(view: _View, obj: Any, n_ivs: int, dt: Any = DT.set) -> tuple[Any, int]:
    """``obj`` (a set over ``n_ivs`` IVs of the chain, or one side of a map)
    with its IVs below the chain projected out: (obj, its IVs left)."""
    m = min(n_ivs, len(view.ivs))
    if n_ivs > m:
        obj = obj.project_out(dt, m, n_ivs - m)
    return obj, m


def _draw(
    fd: FunctionDeps,
    view: _View,
    domain: isl.Set,
    chain: list[Operation],
    in_nest: list[AccessModel],
    range_of: RangeOf,
    max_points: int,
    max_arrows: int,
    notes: list[str],
) -> dict:
    """Each phase runs under its own isl budget (the engine's): the domain
    and its points must succeed; an ``affine.if``, an access or a dependence
    over the budget is left out with a note."""
    xn = view.names[view.dims[0]]
    yn = view.names[view.dims[1]] if view.dims[1] is not None else "0"
    inames = [f"v{k}" for k in range(len(view.ivs))]
    one_loop = view.dims[1] is None
    try:
        with limited(fd.budget):
            dom2, sample_set, pts, total, sampled = _domain_points(view, domain, max_points, notes)
            base = _constraints(dom2) if not dom2.is_empty() else set()
    except BudgetExceeded:
        raise ViewError(f"dependence analysis budget exceeded ({fd.budget} isl operations) while drawing the domain") from None
    except IslFailure as e:
        raise ViewError(f"isl failure: {e}") from None
    if one_loop:  # y = 0 is not a bound
        base = {c for c in base if c[0] != 0}
    constraints: list[dict] = [
        {"a": a, "b": b, "c": c, "eq": eq, "kind": "bound", "text": constraint_text(a, b, c, eq, xn, yn)} for a, b, c, eq in sorted(base)
    ]
    skipped: list[str] = []
    # the conditions of the affine.if ops of the nest
    for op in chain[0].walk():
        if op.name != "affine.if" or not op.regions or not op.regions[0].blocks:
            continue
        try:
            with limited(fd.budget):
                d, ivs_if, _, _ = fd.model.block_domain(op.regions[0].blocks[0])
                if not view.compatible(ivs_if):
                    continue
                dd, m = _lift(view, view.fix(d), len(ivs_if))
                d2 = dd.apply(view.to_view(inames[:m])).coalesce()
                found = set() if d2.is_empty() else _constraints(d2) - base
        except (BudgetExceeded, IslFailure):
            skipped.append(f"the condition of the affine.if at {_op_line(op, range_of)}")
            continue
        for a, b, c, eq in sorted(found):
            if one_loop and a == 0:
                continue
            constraints.append({"a": a, "b": b, "c": c, "eq": eq, "kind": "if", "text": constraint_text(a, b, c, eq, xn, yn), **_op_ref(op, range_of)})
    # the accesses of the nest and where they run (one lacking an axis runs
    # at every point of its column/row)
    accs = [a for a in in_nest if a.domain is not None and view.compatible(a.ivs)]
    acc_index = {a.index: k for k, a in enumerate(accs)}
    accesses = [_acc_ref(a, range_of) for a in accs]
    point_accesses: dict[tuple[int, ...], list[int]] = {p: [] for p in pts}
    for k, a in enumerate(accs):
        try:
            with limited(fd.budget):
                dd, m = _lift(view, view.fix(a.domain), len(a.ivs))
                found_pts = _points(dd.apply(view.to_view(inames[:m])).intersect(sample_set), len(pts) + 1)
        except (BudgetExceeded, IslFailure):
            skipped.append(f"where {a.describe()} runs")
            continue
        for p in found_pts:
            if p in point_accesses:
                point_accesses[p].append(k)
    # the dependences and their arrows
    deps: list[dict] = []
    arrows: list[dict] = []
    hidden = 0
    arrows_capped = False
    pairs_checked = fd.candidate_pairs(accs) if fd.within_limit(accs) else []
    found = sum(1 for s, d in pairs_checked for r in fd.pair(s, d).results if r.status != NONE)
    for s, d in pairs_checked:
        for r in fd.pair(s, d).results:
            if r.status == NONE:
                continue
            carrier = _carrier(r)
            info: dict[str, Any] = {
                "kind": r.kind,
                "memref": s.memref.name if s.memref is not None else None,
                "depth": r.depth,
                "carriedBy": carrier.name if carrier is not None else None,
                "distance": r.mlir_str(),
                "status": r.status,
                "source": acc_index[s.index],
                "sink": acc_index[d.index],
                "arrows": 0,
                "drawn": False,
            }
            if r.reason:
                info["reason"] = r.reason
            deps.append(info)
            rel = r.relation
            if rel is None or not (view.has_axes(s.ivs) and view.has_axes(d.ivs)):
                hidden += 1
                continue
            # each dependence left gets an equal share of the arrows left (a
            # share it does not use goes to the next ones): a dependence
            # with many arrows never crowds out the kinds after it
            left = (max_arrows - len(arrows)) // (found - len(deps) + 1)
            try:
                with limited(fd.budget):
                    rr, ms = _lift(view, view.fix(rel), len(s.ivs), DT.in_)
                    rr, md = _lift(view, rr, len(d.ivs), DT.out)
                    r2 = rr.apply_domain(view.to_view(inames[:ms])).apply_range(view.to_view(inames[:md]))
                    if sampled:
                        r2 = r2.intersect_domain(sample_set)
                    w = r2.coalesce().wrap()
                    bounded = w.is_empty() or w.is_bounded()
                    pairs = _points(w, CAP_SAMPLE * left + 1) if bounded and left > 0 else []
            except (BudgetExceeded, IslFailure):
                skipped.append(f"the arrows of the {r.kind} from line {_op_line(s.op, range_of)} to line {_op_line(d.op, range_of)}")
                continue
            if not bounded:
                hidden += 1
                continue
            if len(pairs) > left:
                # evenly spaced over what was enumerated (up to CAP_SAMPLE
                # times the share), not the first ones: the arrows drawn
                # spread over the nest instead of its first iterations
                arrows_capped = True
                pairs = [pairs[k * len(pairs) // left] for k in range(left)]
            for p in sorted(pairs):
                arrows.append(
                    {"from": [p[0], p[1]], "to": [p[2], p[3]], "dep": len(deps) - 1, "kind": r.kind, "memref": info["memref"], "carriedBy": info["carriedBy"]}
                )
            info["arrows"] = len(pairs)
            info["drawn"] = True
    if hidden:
        notes.append(f"{hidden} dependence(s) not drawn: an end lacks an axis of the view or its relation is unknown")
    if skipped:
        notes.append(f"over the analysis budget ({fd.budget} isl operations), left out: {'; '.join(skipped)}")
    if arrows_capped:
        notes.append(f"arrows capped at {max_arrows} (each dependence gets an equal share)")
    return {
        "points": [list(p) for p in pts],
        "numPoints": total,
        "sampled": sampled,
        "pointAccesses": [point_accesses[p] for p in pts],
        "constraints": constraints,
        "accesses": accesses,
        "dependences": deps,
        "arrows": arrows,
        "arrowsCapped": arrows_capped,
    }


def _op_line(op: Operation, range_of: RangeOf) -> int:
    return int(range_of(op.name_span)["start"]["line"]) + 1


def dependence_graph(fd: FunctionDeps, range_of: RangeOf) -> dict:
    """A function's accesses as nodes (with the top-level loop nest of each)
    and its dependences (status not ``none``) as edges."""
    nests: list[Operation] = []
    nodes: list[dict] = []
    index: dict[int, int] = {}
    for a in fd.accesses:
        nest = a.loops[0] if a.loops else None
        if nest is not None and nest not in nests:
            nests.append(nest)
        index[a.index] = len(nodes)
        node = _acc_ref(a, range_of)
        node["id"] = f"a{a.index}"
        node["nest"] = nests.index(nest) if nest is not None else None
        node["ivs"] = [v.name for v in a.ivs]
        nodes.append(node)
    edges: list[dict] = []
    for p in fd.pairs:
        for r in p.results:
            if r.status == NONE:
                continue
            carrier = _carrier(r)
            edge = {
                "source": index[p.src.index],
                "sink": index[p.dst.index],
                "kind": r.kind,
                "memref": p.src.memref.name if p.src.memref is not None else None,
                "depth": r.depth,
                "carriedBy": carrier.name if carrier is not None else None,
                "distance": r.mlir_str(),
                "status": r.status,
            }
            edges.append(edge)
    return {
        "nests": [{"iv": (loop_ivs_of(n)[0].name if loop_ivs_of(n) else None), **_op_ref(n, range_of)} for n in nests],
        "nodes": nodes,
        "edges": edges,
        "notes": [n.message for n in fd.notes],
    }


def lines_range_of(lines: Any) -> RangeOf:
    """A :data:`RangeOf` over a :class:`LineIndex` (LSP ranges as dicts)."""

    def f(span: Span) -> dict:
        sl, sc = lines.position(span.start)
        el, ec = lines.position(max(span.start, span.end))
        return {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}

    return f
