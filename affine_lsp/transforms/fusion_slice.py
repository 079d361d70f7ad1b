"""Computation slices (MLIR's ``getComputationSliceState`` / ``computeSliceUnion``)
with isl.

For a source nest ``S``, a destination nest ``D`` and a depth ``d``, the
slice is the set of source iterations the destination needs per iteration
``p`` of its outer ``d`` loops: the source instances that write (producer-
consumer) or read (sibling) an element the destination instances with
prefix ``p`` access. It is the union, over every pair of a source access and
a destination access on the same memref, of ``{ p -> s : loc_S(s) = loc_D(t),
t[0:d] = p }``.

Each source loop ``L`` around a relevant source access gets bounds that are
functions of ``p`` (and parameters): the projection of the slice on ``L``'s
IV, bounded by the facets of its polyhedral hull (``max`` of lower bounds,
``min`` of upper bounds, ``ceildiv``/``floordiv`` for non-unit
coefficients). Bounds that are redundant on the destination's iteration
domain are dropped; original bounds that depend on outer source IVs
(triangular nests) are kept. A loop whose slice bounds have a constant
difference of one iteration is later promoted (its body inlined).

The slice over-approximates what is needed (hull, box per loop); that is
safe: every fusion is validated on the generated code
(:mod:`.fusion_validate`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import islpy as isl

from affine_lsp.analysis.isl_support import DT
from affine_lsp.ir.affine_expr import AffineExpr, constant, dim, from_linear_form, symbol
from affine_lsp.ir.affine_ops import ForView
from affine_lsp.ir.core import Operation, Value
from affine_lsp.transforms.fusion_ir import enclosing_fors, for_iv
from affine_lsp.transforms.fusion_isl import AVM, CAccess, CanonModel, aff_to_expr, dim_extents, max_int, pieces, set_space


@dataclass
class LoopBounds:
    """Bounds of one source loop in the copy: ``lower``/``upper`` are the
    ``max``/``min`` terms (upper exclusive); None keeps the original."""

    loop: Operation
    lower: AVM | None = None
    upper: AVM | None = None
    trip: int | None = None  # most iterations per destination iteration
    exact_one: bool = False  # exactly one iteration for every destination iteration

    @property
    def sliced(self) -> bool:
        return self.lower is not None or self.upper is not None


@dataclass
class Slice:
    depth: int
    chain: list[Operation]  # destination loops 1..depth
    bounds: dict[Operation, LoopBounds] = field(default_factory=dict)
    iteration_count: int | None = None
    maximal: bool | None = None
    empty: bool = False
    reason: str = ""
    # per relevant source access: {P[p] -> S<k>[s]} instances executed per p
    instances: dict[str, isl.Map] = field(default_factory=dict)

    def describe(self) -> str:
        parts = []
        for lb in self.bounds.values():
            iv = for_iv(lb.loop)
            name = iv.name if iv is not None else "?"
            if lb.sliced:
                lo = "(unchanged)" if lb.lower is None else lb.lower.pretty("max")
                hi = "(unchanged)" if lb.upper is None else lb.upper.pretty("min")
                parts.append(f"{name} ∈ [{lo}, {hi})")
        return "; ".join(parts)


def chain_of(dst: Operation, dst_accesses: list[Operation]) -> list[Operation]:
    """The destination loops around every one of ``dst_accesses``
    (outermost first): MLIR's ``getInnermostCommonLoopDepth``."""
    chains = [enclosing_fors(a, stop=None) for a in dst_accesses]
    chains = [c[c.index(dst) :] if dst in c else [] for c in chains]
    if not chains:
        return []
    out = []
    for level in zip(*chains):
        if all(x is level[0] for x in level):
            out.append(level[0])
        else:
            break
    return out


def _chain_domain(cm: CanonModel, chain: list[Operation], depth: int) -> isl.Set | None:
    """The iteration domain of the destination loops 1..depth (set ``P[p]``)."""
    body = ForView(chain[depth - 1]).body
    if body is None:
        return None
    lv = cm.model._level(body)
    if lv.failures:
        return None
    dom = cm._canon(lv.domain, False)
    n = dom.dim(DT.set)
    if n != depth:
        return None
    return dom.set_tuple_name("P")


def compute_slice(
    cm: CanonModel,
    src_accs: list[CAccess],
    dst_accs: list[CAccess],
    chain: list[Operation],
    depth: int,
) -> Slice:
    """The slice of ``src`` needed at ``depth`` by the destination accesses.

    ``src_accs`` are the source accesses the slice is computed from (the
    stores for producer-consumer fusion, the loads of the shared memref for
    sibling fusion); ``dst_accs`` are every destination access.
    """
    sl = Slice(depth, chain[:depth])
    inner = chain[depth - 1]
    cx = _chain_domain(cm, chain, depth)
    if cx is None:
        sl.empty, sl.reason = True, "the destination loops are not analysable"
        return sl
    per_loop: dict[Operation, isl.Map] = {}
    per_acc: dict[str, isl.Map] = {}
    for w in src_accs:
        for a in dst_accs:
            if a.mid != w.mid or (not a.is_write and not w.is_write and not _sibling(src_accs)):
                continue
            if not (inner is a.op or inner.is_ancestor_of(a.op)):
                sl.empty, sl.reason = True, f"an access to {a.memref.name} is outside the loops of depth {depth}"
                return sl
            r = a.relation.apply_range(w.relation.reverse())
            if r.is_empty():
                continue
            n_in = r.dim(DT.in_)
            r = r.project_out(DT.in_, depth, n_in - depth).set_tuple_name(DT.in_, "P")
            prev = per_acc.get(w.stmt)
            per_acc[w.stmt] = r if prev is None else prev.union(r)
            loops = enclosing_fors(w.op, stop=None)
            for k, iv in enumerate(w.inner_ivs):
                loop = next((lp for lp in loops if for_iv(lp) is iv), None)
                if loop is None:
                    continue
                rk = r.project_out(DT.out, k + 1, r.dim(DT.out) - k - 1).project_out(DT.out, 0, k).set_tuple_name(DT.out, "L")
                prev_l = per_loop.get(loop)
                per_loop[loop] = rk if prev_l is None else prev_l.union(rk)
    if not per_acc:
        sl.empty, sl.reason = True, "no dependence between the loop nests"
        return sl
    chain_ivs = [for_iv(lp) for lp in chain[:depth]]
    if any(v is None for v in chain_ivs):
        sl.empty, sl.reason = True, "malformed destination loop"
        return sl
    for loop, rel in per_loop.items():
        sl.bounds[loop] = _loop_bounds(cm, loop, rel, cx, chain_ivs)  # type: ignore[arg-type]
    # Trip counts and instances executed per destination iteration.
    count = 1
    counted: set[Operation] = set()
    for w in src_accs:
        inst = _instances(cm, w, sl, cx, chain_ivs)  # type: ignore[arg-type]
        if w.stmt not in per_acc:
            if inst is not None:
                sl.instances[w.stmt] = inst
            continue
        if inst is None:
            sl.iteration_count = None
            count = -1
            continue
        sl.instances[w.stmt] = inst
        for lp in enclosing_fors(w.op, stop=None):
            if lp in counted or not _inside_nest(lp, w):
                continue
            counted.add(lp)
            lb = sl.bounds.get(lp)
            t = lb.trip if lb is not None and lb.sliced else const_trip(lp)
            if t is None or count < 0:
                count = -1
            else:
                count *= t
    sl.iteration_count = count if count >= 0 else None
    sl.maximal = _is_maximal(sl, src_accs)
    return sl


def _sibling(src_accs: list[CAccess]) -> bool:
    return bool(src_accs) and not any(a.is_write for a in src_accs)


def _inside_nest(lp: Operation, w: CAccess) -> bool:
    return for_iv(lp) in w.inner_ivs


def const_trip(loop: Operation) -> int | None:
    fv = ForView(loop)
    t = fv.constant_trip_count()
    if t is not None:
        return t
    lo, hi = fv.lower, fv.upper
    if lo.map.num_results == 1 and hi.map.num_results == 1 and lo.operands == hi.operands and lo.map.num_dims == hi.map.num_dims:
        d = (hi.map.results[0] - lo.map.results[0]).simplify()
        if d.is_constant():
            return max(0, -(-d.value // fv.step))  # type: ignore[attr-defined]
    return None


def _loop_bounds(cm: CanonModel, loop: Operation, rel: isl.Map, cx: isl.Set, chain_ivs: list[Value]) -> LoopBounds:
    lb = LoopBounds(loop)
    fv = ForView(loop)
    if fv.step != 1 or fv.inits:
        # Strided loops keep their bounds (a new lower bound would change the
        # stride's phase); reduction loops are copied whole.
        lb.trip = const_trip(loop)
        return lb
    space = set_space([f"p{k}" for k in range(len(chain_ivs))])
    cxs = _named(cx.reset_tuple_id(), space)
    exact = _exact_terms(cm, rel, chain_ivs)
    if exact is not None:
        lo_avm, hi_avm = exact
    else:
        lo_avm, hi_avm = _hull_terms(cm, rel, chain_ivs)
    if not lo_avm.exprs and not hi_avm.exprs:
        lb.trip = const_trip(loop)
        return lb
    # The slice holds instances of the source only where the destination
    # needs some; the copy runs for every destination iteration: keep the
    # original bounds too (pruned where they never decide).
    orig_lo = _split_terms(AVM.from_map(fv.lower.map, list(fv.lower.operands)))
    orig_hi = _split_terms(AVM.from_map(fv.upper.map, list(fv.upper.operands)))
    lows = _prune(cm, _split_terms(lo_avm) + orig_lo, space, cxs, chain_ivs, lower=True)
    highs = _prune(cm, _split_terms(hi_avm) + orig_hi, space, cxs, chain_ivs, lower=False)
    if lo_avm.exprs:
        lb.lower = lows[0].merged(lows[1:]).simplified()
    if hi_avm.exprs:
        lb.upper = highs[0].merged(highs[1:]).simplified()
    lb.trip = _trip(cm, lb, fv, space, cxs, chain_ivs)
    return lb


def _split_terms(a: AVM) -> list[AVM]:
    return [AVM([e], list(a.dims), list(a.syms)).simplified() for e in a.exprs]


def _exact_terms(cm: CanonModel, rel: isl.Map, chain_ivs: list[Value]) -> tuple[AVM, AVM] | None:
    """``[min(p), max(p) + 1)`` when the smallest and the largest IV value
    of the slice are each one (quasi-)affine function of ``p``."""
    lo = _one_piece(cm, rel.lexmin_pw_multi_aff().get_pw_aff(0), chain_ivs)
    if lo is None:
        return None
    hi = lo if rel.is_single_valued() else _one_piece(cm, rel.lexmax_pw_multi_aff().get_pw_aff(0), chain_ivs)
    if hi is None:
        return None
    return lo, AVM([(hi.exprs[0] + 1).simplify()], list(hi.dims), list(hi.syms))


def _hull_terms(cm: CanonModel, rel: isl.Map, chain_ivs: list[Value]) -> tuple[AVM, AVM]:
    """Lower and upper bound terms from the facets of the slice's hull."""
    hull = rel.remove_divs().polyhedral_hull().remove_redundancies()
    nparams = hull.dim(DT.param)
    param_exprs, dims, syms = _param_exprs(cm, hull, chain_ivs)
    lowers: list[AffineExpr] = []
    uppers: list[AffineExpr] = []
    for c in hull.get_constraints():
        a = int(c.get_coefficient_val(DT.out, 0).to_python())
        if a == 0:
            continue
        dc = [int(c.get_coefficient_val(DT.in_, i).to_python()) for i in range(hull.dim(DT.in_))]
        pc = [int(c.get_coefficient_val(DT.param, i).to_python()) for i in range(nparams)]
        k0 = int(c.get_constant_val().to_python())
        if any(pc[i] and param_exprs[i] is None for i in range(nparams)):
            continue
        rest: AffineExpr = from_linear_form(dc, [], k0)
        for i in range(nparams):
            if pc[i]:
                rest = rest + param_exprs[i] * pc[i]  # type: ignore[operator]
        # a*s + rest >= 0 (or == 0)
        if a > 0 or c.is_equality():
            aa = abs(a)
            num = (rest * -1) if a > 0 else rest
            lowers.append((num.ceildiv(aa) if aa != 1 else num).simplify())
        if a < 0 or c.is_equality():
            aa = abs(a)
            num = rest if a < 0 else rest * -1
            uppers.append(((num.floordiv(aa) if aa != 1 else num) + 1).simplify())
    return AVM(lowers, list(dims), list(syms)), AVM(uppers, list(dims), list(syms))


def _param_exprs(cm: CanonModel, obj: isl.Map | isl.Aff, chain_ivs: list[Value]) -> tuple[list[AffineExpr | None], list[Value], list[Value]]:
    """AffineExprs for the parameters of ``obj``: dims for outer IVs,
    symbols for function-level values, None when not expressible."""
    param_exprs: list[AffineExpr | None] = []
    syms: list[Value] = []
    dims: list[Value] = list(chain_ivs)
    for k in range(obj.dim(DT.param)):
        n = obj.get_dim_name(DT.param, k)
        v = cm.param_values.get(n)
        if v is None:
            param_exprs.append(None)
        elif n.startswith("o"):
            param_exprs.append(dim(len(dims)))
            dims.append(v)
        else:
            param_exprs.append(symbol(len(syms)))
            syms.append(v)
    return param_exprs, dims, syms


def _one_piece(cm: CanonModel, pw: isl.PwAff, chain_ivs: list[Value]) -> AVM | None:
    """``pw`` as one (quasi-)affine expression (None if it has several)."""
    pw = pw.coalesce()
    ps = pieces(pw)
    if not ps or len({str(a) for _, a in ps}) != 1:
        return None
    aff = ps[0][1]
    pe, dims, syms = _param_exprs(cm, aff, chain_ivs)
    e = aff_to_expr(aff, [dim(k) for k in range(len(chain_ivs))], pe)
    if e is None:
        return None
    return AVM([e], list(dims), list(syms)).simplified()


def _prune(cm: CanonModel, terms: list[AVM], space: isl.Space, cx: isl.Set, chain_ivs: list[Value], lower: bool) -> list[AVM]:
    """Drop terms that never decide the max (lower) / min (upper) on ``cx``
    (terms that are not functions of the destination IVs are kept)."""
    uniq: list[AVM] = []
    for t in terms:
        if not any(str(t) == str(u) for u in uniq):
            uniq.append(t)
    pws: list[isl.PwAff | None] = []
    for t in uniq:
        try:
            pws.append(cm.avm_pwaffs(t, space, chain_ivs)[0].intersect_domain(cx))
        except ValueError:
            pws.append(None)
    keep = list(range(len(uniq)))
    changed = True
    while changed:
        changed = False
        for i in list(keep):
            if pws[i] is None:
                continue
            others = [pws[j] for j in keep if j != i and pws[j] is not None]
            if not others:
                continue
            best = others[0]
            for o in others[1:]:
                best = best.max(o) if lower else best.min(o)  # type: ignore[union-attr]
            bad = pws[i].gt_set(best) if lower else pws[i].lt_set(best)  # type: ignore[union-attr,arg-type]
            if bad.intersect(cx).is_empty():
                keep.remove(i)
                changed = True
                break
    return [uniq[i] for i in keep]


def _bound_pwaff(cm: CanonModel, a: AVM, space: isl.Space, ivs: list[Value], lower: bool) -> isl.PwAff | None:
    try:
        pws = cm.avm_pwaffs(a, space, ivs)
    except ValueError:
        return None
    out = pws[0]
    for p in pws[1:]:
        out = out.max(p) if lower else out.min(p)
    return out


def _is_src_iv(v: Value) -> bool:
    from affine_lsp.transforms.fusion_isl import is_loop_iv

    return is_loop_iv(v)


def _trip(cm: CanonModel, lb: LoopBounds, fv: ForView, space: isl.Space, cx: isl.Set, chain_ivs: list[Value]) -> int | None:
    """Most iterations of the copied loop for one destination iteration."""
    if not lb.sliced:
        return const_trip(fv.op)
    lo = lb.lower if lb.lower is not None else AVM.from_map(fv.lower.map, list(fv.lower.operands))
    hi = lb.upper if lb.upper is not None else AVM.from_map(fv.upper.map, list(fv.upper.operands))
    if any(v not in chain_ivs and _is_src_iv(v) and cm.value_param(v) is None for v in lo.dims + hi.dims):
        return const_trip(fv.op)
    ext_space = space.add_dims(DT.set, 1).set_dim_name(DT.set, len(chain_ivs), "s")
    ivs_ext = [*chain_ivs, for_iv(fv.op)]
    lo_pw = _bound_pwaff(cm, lo, ext_space, ivs_ext, True)  # type: ignore[arg-type]
    hi_pw = _bound_pwaff(cm, hi, ext_space, ivs_ext, False)  # type: ignore[arg-type]
    if lo_pw is None or hi_pw is None:
        return None
    ls = isl.LocalSpace.from_space(ext_space)
    s = isl.PwAff.from_aff(isl.Aff.var_on_domain(ls, DT.set, len(chain_ivs)))
    q = s.ge_set(lo_pw).intersect(s.lt_set(hi_pw))
    q = q.intersect(_extend_set(cx, ext_space))
    rel = _as_map(q, len(chain_ivs))
    ext = dim_extents(rel)
    if ext is None:
        return None
    lb.exact_one = ext[0] == 1 and _extend_set(cx, ext_space).project_out(DT.set, len(chain_ivs), 1).is_subset(rel.domain())
    return ext[0]


def _extend_set(cx: isl.Set, ext_space: isl.Space) -> isl.Set:
    n = cx.dim(DT.set)
    s = cx.reset_tuple_id().add_dims(DT.set, 1)
    for k in range(n + 1):
        s = s.set_dim_name(DT.set, k, ext_space.get_dim_name(DT.set, k))
    return s


def _named(s: isl.Set, space: isl.Space) -> isl.Set:
    for k in range(s.dim(DT.set)):
        s = s.set_dim_name(DT.set, k, space.get_dim_name(DT.set, k))
    return s


def _as_map(s: isl.Set, n_in: int) -> isl.Map:
    """``{[a, b] : ...}`` as ``{[a] -> [b] : ...}`` (first ``n_in`` dims in)."""
    m = isl.Map.from_range(s)
    return m.move_dims(DT.in_, 0, DT.out, 0, n_in)


def _instances(cm: CanonModel, w: CAccess, sl: Slice, cx: isl.Set, chain_ivs: list[Value]) -> isl.Map | None:
    """``{P[p] -> S[s]}``: the instances of ``w`` the copy executes per ``p``."""
    n = len(w.inner_ivs)
    names = [f"p{k}" for k in range(len(chain_ivs))] + [f"s{k}" for k in range(n)]
    space = set_space(names)
    ivs: list[Value] = [*chain_ivs, *w.inner_ivs]
    ls = isl.LocalSpace.from_space(space)
    cons = isl.Set.universe(space)
    for k, iv in enumerate(w.inner_ivs):
        loop = iv.owner.parent_op if hasattr(iv, "owner") and iv.owner is not None else None  # type: ignore[attr-defined]
        lb = sl.bounds.get(loop) if loop is not None else None
        if lb is None or not lb.sliced:
            continue
        var = isl.PwAff.from_aff(isl.Aff.var_on_domain(ls, DT.set, len(chain_ivs) + k))
        try:
            if lb.lower is not None:
                for p in cm.avm_pwaffs(lb.lower, space, ivs):
                    cons = cons.intersect(var.ge_set(p))
            if lb.upper is not None:
                for p in cm.avm_pwaffs(lb.upper, space, ivs):
                    cons = cons.intersect(var.lt_set(p))
        except ValueError:
            return None
    m = _as_map(cons, len(chain_ivs)).set_tuple_name(DT.in_, "P").set_tuple_name(DT.out, w.stmt)
    m = m.intersect_domain(cx).intersect_range(w.domain)
    return m


def _is_maximal(sl: Slice, src_accs: list[CAccess]) -> bool | None:
    """Every instance of the relevant source accesses is executed by the
    copy for some destination iteration."""
    for w in src_accs:
        inst = sl.instances.get(w.stmt)
        if inst is None:
            continue
        if not w.domain.is_subset(inst.range()):
            return False
    return True


def _offset(ur: isl.Map, dim_exprs: list[AffineExpr | None], param_exprs: list[AffineExpr | None]) -> tuple[isl.PwAff | None, AffineExpr | None, int | None]:
    """An affine offset ``o(p)`` with every element ``l`` of ``ur(p)`` in
    ``[o(p), o(p) + extent)``, the smallest extent among the pieces of the
    lexicographic minimum (a single piece is the exact minimum)."""
    lo = ur.lexmin_pw_multi_aff().get_pw_aff(0).coalesce()
    best: tuple[isl.PwAff | None, AffineExpr | None, int | None] = (None, None, None)
    seen: set[str] = set()
    for _, a in pieces(lo):
        if str(a) in seen:
            continue
        seen.add(str(a))
        e = aff_to_expr(a, dim_exprs, param_exprs)
        if e is None:
            continue
        off = isl.PwAff.from_aff(a)
        shifted = ur.reset_tuple_id(DT.out).sum(isl.Map.from_pw_aff(off.neg()).set_tuple_name(DT.in_, "P").reset_tuple_id(DT.out).intersect_domain(ur.domain()))
        vals = shifted.range()
        if vals.is_empty():
            continue
        mn = max_int(vals, lambda ls: isl.Aff.var_on_domain(ls, DT.set, 0).neg())
        mx = max_int(vals, lambda ls: isl.Aff.var_on_domain(ls, DT.set, 0))
        if mn is None or mx is None or -mn < 0:
            continue
        ext = mx + 1
        if best[2] is None or ext < best[2]:
            best = (isl.PwAff.from_aff(a), e, ext)
    return best


@dataclass
class PrivateRegion:
    shape: list[int | None]
    offsets: AVM  # one expression per dimension, over the destination IVs 1..depth and parameters
    constants: dict[Operation, dict[int, int]] = field(default_factory=dict)  # subscripts that are constant in the buffer


def private_region(
    cm: CanonModel,
    sl: Slice,
    memref_mid: str,
    src_writes: list[CAccess],
    dst_accs: list[CAccess],
    full_shape: list[int | None],
) -> PrivateRegion | None:
    """The bounding box, per destination iteration ``p``, of the elements of
    a memref the fused nest accesses (the copy's writes and the destination's
    accesses): the shape of a private buffer and its offset in the original."""
    depth = sl.depth
    chain_ivs = [for_iv(lp) for lp in sl.chain]
    parts: list[isl.Map] = []
    owners: list[Operation] = []
    for w in src_writes:
        if w.mid != memref_mid:
            continue
        inst = sl.instances.get(w.stmt)
        if inst is None:
            return None
        parts.append(inst.apply_range(w.relation).set_tuple_name(DT.in_, "P"))
        owners.append(w.op)
    for a in dst_accs:
        if a.mid != memref_mid:
            continue
        n = a.relation.dim(DT.in_)
        parts.append(a.relation.project_out(DT.in_, depth, n - depth).set_tuple_name(DT.in_, "P"))
        owners.append(a.op)
    if not parts:
        return None
    u = parts[0]
    for p in parts[1:]:
        u = u.union(p)
    u = u.coalesce()
    ext = dim_extents(u)
    if ext is None:
        return None
    rank = u.dim(DT.out)
    dim_exprs: list[AffineExpr | None] = [dim(k) for k in range(depth)]
    param_exprs, dims, syms = _param_exprs(cm, u, chain_ivs)  # type: ignore[arg-type]
    offsets: list[AffineExpr] = []
    shape: list[int] = []
    constants: dict[Operation, dict[int, int]] = {}
    for r in range(rank):
        ur = u.project_out(DT.out, r + 1, rank - r - 1).project_out(DT.out, 0, r)
        lo, expr, extent = _offset(ur, dim_exprs, param_exprs)
        fs = full_shape[r]
        if expr is None or extent is None or (fs is not None and extent > fs):
            if fs is None:
                return None  # a dynamic dimension that does not shrink
            expr = constant(0)
            shape.append(fs)
            lo = None
        else:
            shape.append(max(1, extent))
        offsets.append(expr)
        for part, owner in zip(parts, owners):
            pr = part.project_out(DT.out, r + 1, rank - r - 1).project_out(DT.out, 0, r)
            pr = pr.reset_tuple_id(DT.out)
            if lo is not None:
                pr = pr.sum(isl.Map.from_pw_aff(lo.neg()).set_tuple_name(DT.in_, "P").reset_tuple_id(DT.out))
            vals = pr.range()
            if vals.is_empty():
                continue
            hi_v = max_int(vals, lambda ls: isl.Aff.var_on_domain(ls, DT.set, 0))
            lo_v = max_int(vals, lambda ls: isl.Aff.var_on_domain(ls, DT.set, 0).neg())
            if hi_v is not None and lo_v is not None and hi_v == -lo_v:
                constants.setdefault(owner, {})
                prev = constants[owner].get(r)
                if prev is None or prev == hi_v:
                    constants[owner][r] = hi_v
    # an op counted twice with different constants is not constant
    return PrivateRegion(shape, AVM(offsets, dims, syms).simplified(), constants)
