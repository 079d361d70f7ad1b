"""Time tiling of stencils for "Optimize loop nest": when a skewed band's
innermost point loop still vectorizes, and the tile sizes of such a band.

isl's scheduler skews a stencil's space loops by its time loop
(``S0[t, i, j] -> [t, 2t + i, 2t + j]`` for jacobi-2d) so that the band
becomes permutable, and :mod:`.optimize_schedule` tiles it (parallelogram
tiles, as Pluto does). No member of such a band is coincident (the time
steps' dependences move along every member), so the band's own test
(coincident and unit-stride) never finds a vector loop, and the prediction
rejected the tiling as losing the original vectorizable loop.

Inside a tile, though, the innermost *point* loop only has to respect the
dependences between instances that agree on every outer loop (the tile
loops, the outer point loops and the loops around the band).
:func:`point_loop_order` takes those, exactly, from the model's
dependences, and looks for an order of the band's statements in which
each of them goes from a statement to a later one; a statement that
depends on itself along the point loop (a recurrence) has none.

LLVM refuses a point loop that holds several statements linked by a short
forward dependence (jacobi's two sweeps: "forward loop carried data
dependence that prevents store-to-load forwarding"), so the innermost
point loop is distributed (:func:`distribute_point_loop`): inside a tile,
each statement gets its own innermost loop, in that order. That is legal
by the check above, and each of those loops, free of dependences at fixed
outer loops, then vectorizes alone (:func:`point_loop_vectorizes`).

isl's scheduler does not finish on heat-3d (4-D, two sweeps: minutes,
whatever its options), so a time loop around sweeps gets its band directly
(:func:`time_skewed_schedule`), as Pluto's time skewing writes it: every
statement ``S_s[t, x1..xd] -> [t, c*t + x1 + o_s, ..., c*t + xd + o_s]``
with the smallest skew ``c`` (0..4) and shifts ``o_s`` that make every
dependence distance non-negative on every member (a permutable band, so
any tiling of it is legal), statements at the same band point in a
topological order of their dependences. It is tried before isl's scheduler
on such groups only, and the plan's second legality proof checks it like
any other schedule.

Time tiling pays when one time step's data exceeds half of L1
(:func:`time_tiling_pays`). Tile sizes (:func:`tile_sizes`): the innermost
(vector) member's tile is long, so that the point loop runs long enough
for vector code, and the space members' tiles are as large as keeps one
time step of a tile in half of L2.
"""

from __future__ import annotations

from collections.abc import Sequence

import islpy as isl

from affine_lsp.analysis.isl_support import DT
from affine_lsp.transforms.optimize_model import NestModel, Statement

TIME_TILE = 32
"""Time steps per tile of a skewed (time-tiled) band."""

SPACE_TILES = (32, 16, 8)
"""The tile sizes of the outer space members of a time-tiled band, largest
first (:func:`tile_sizes` takes the first whose tile fits in cache)."""

VECTOR_TILE = 256
"""The innermost (vector) member's tile in a time-tiled band: long enough
that LLVM's vector loop and its runtime alias checks pay off."""

VECTOR_TILE_1D = 2048
"""The same for a band with one space member (jacobi-1d): its tile holds
one row, so a longer one (2 x 2048 f64, about L1) costs no locality."""


def _statement_names(s: isl.UnionSet) -> list[str]:
    names: list[str] = []
    s.foreach_set(lambda x: names.append(x.get_tuple_name()))
    return names


def _body_positions(node: isl.ScheduleNode) -> dict[str, int] | None:
    """The position of each statement in the body of the band's innermost
    loop: its filter's index when the band's child is a sequence of leaves,
    0 for all when it is a leaf; None when loops or unordered sets lie
    below the band (its innermost member is then not the innermost loop)."""
    child = node.child(0)
    t = child.get_type()
    if t == isl.schedule_node_type.leaf:
        return dict.fromkeys(_statement_names(node.get_domain()), 0)
    if t != isl.schedule_node_type.sequence:
        return None
    out: dict[str, int] = {}
    for k in range(child.n_children()):
        f = child.child(k)
        if f.get_type() != isl.schedule_node_type.filter or f.child(0).get_type() != isl.schedule_node_type.leaf:
            return None
        for name in _statement_names(f.filter_get_filter()):
            out[name] = k
    return out


def point_loop_vectorizes(model: NestModel, node: isl.ScheduleNode, partial: isl.MultiUnionPwAff) -> bool:
    """The band at ``node`` (whose members are ``partial``, in their final
    order) is innermost, and its last member, split into one point loop per
    statement (:func:`distribute_point_loop`), vectorizes: see
    :func:`point_loop_order`."""
    return point_loop_order(model, node, partial) is not None


def point_loop_order(model: NestModel, node: isl.ScheduleNode, partial: isl.MultiUnionPwAff) -> list[str] | None:
    """An order of the band's statements in which each can get its own
    innermost point loop: every dependence between instances that agree on
    the loops around the band and on its other members goes from a
    statement to a later one in the order (a topological order of those
    dependences, isl's body order where it is free). None when there is
    none (a cycle), when a statement depends on itself along the last
    member (a recurrence: its loop does not vectorize), or when loops lie
    below the band."""
    n = partial.dim(DT.out)
    pos = _body_positions(node)
    if pos is None or n < 1:
        return None
    dom = node.get_domain()
    deps = model.deps.intersect_domain(dom).intersect_range(dom)
    prefix = node.get_prefix_schedule_multi_union_pw_aff()
    if prefix.dim(DT.out) > 0:
        deps = deps.eq_at_multi_union_pw_aff(prefix)
    outer = partial.drop_dims(DT.out, n - 1, 1)
    if outer.dim(DT.out) > 0:
        deps = deps.eq_at_multi_union_pw_aff(outer)
    last = partial.drop_dims(DT.out, 0, n - 1)
    if not deps.lex_gt_at_multi_union_pw_aff(last).is_empty():
        return None  # a dependence going backwards: the schedule would be illegal
    edges: set[tuple[str, str]] = set()
    recurrence = False

    def edge(m: isl.Map) -> None:
        nonlocal recurrence
        src, dst = m.get_tuple_name(DT.in_), m.get_tuple_name(DT.out)
        if src == dst:
            recurrence = True
        else:
            edges.add((src, dst))

    deps.foreach_map(edge)  # same instances were removed from the model's dependences
    if recurrence:
        return None
    order: list[str] = []
    left = sorted(pos, key=lambda name: (pos[name], name))
    while left:
        ready = [x for x in left if not any(d == x and s in left for s, d in edges)]
        if not ready:
            return None  # a cycle: the statements cannot get loops of their own
        order.append(ready[0])
        left.remove(ready[0])
    return order


def is_time_band(coincident: list[bool], vector: int | None) -> bool:
    """A band tiled with :func:`tile_sizes`: no member is parallel (every
    member carries the time steps' dependences: a skewed stencil) and its
    innermost point loop vectorizes."""
    return vector is not None and not any(coincident)


def only_time_bands(bands: Sequence[object]) -> bool:
    """Every band of a schedule is a time-tiled one (:func:`is_time_band`,
    ``bands``: :class:`~.optimize_schedule.BandInfo`): none of its loops is
    parallel but the innermost point loops of the tiles, too short to pay
    for threads (``--parallel`` leaves such a schedule sequential)."""
    return bool(bands) and all(is_time_band(b.coincident, b.vector) and b.tiled for b in bands)  # type: ignore[attr-defined]


def tile_sizes(model: NestModel, extents: list[int]) -> list[int]:
    """The tiles of a time-tiled band whose members take ``extents``
    values: the time member (outermost) :data:`TIME_TILE`, the innermost
    :data:`VECTOR_TILE`, the space members between them the largest of
    :data:`SPACE_TILES` for which one time step of a tile (every memref the
    statements touch, over the tile's space extents) fits in half of L2:
    heat-3d's 32 x 32 x 118 points of two arrays (1.9 MB) do not, 16 x 16 x
    118 do."""
    from affine_lsp.transforms.machine import caches

    n = len(extents)
    if n == 2:
        return [TIME_TILE, VECTOR_TILE_1D]
    memrefs = {id(acc.memref) for st in model.statements for acc in st.accesses}
    inner = min(VECTOR_TILE, extents[-1])
    space = SPACE_TILES[-1]
    for size in SPACE_TILES:
        points = inner
        for e in extents[1:-1]:
            points *= min(size, e)
        if len(memrefs) * points * 8 <= caches().l2 // 2:
            space = size
            break
    return [TIME_TILE] + [space] * (n - 2) + [VECTOR_TILE]


def time_tiling_pays(model: NestModel, extents: list[int]) -> bool:
    """Time tiling brings reuse into cache: the data of one time step (every
    memref the statements touch, over the space members' extents) exceeds
    half of L1 (jacobi-1d's two rows of 10^5 f64 fit in L2, not in L1: its
    time tiles pay, docs/performance.md)."""
    from affine_lsp.transforms.machine import caches

    memrefs = {id(acc.memref) for st in model.statements for acc in st.accesses}
    points = 1
    for e in extents[1:]:
        points *= e
    return len(memrefs) * points * 8 > caches().l1 // 2


def distribute_point_loop(model: NestModel, node: isl.ScheduleNode, n: int) -> isl.ScheduleNode:
    """The point band at ``node`` (``n`` members, every one ``separate``)
    with its innermost member split off and repeated for each statement of
    its body, in :func:`point_loop_order` (one innermost loop per
    statement). The returned node is the band of the outer point members
    (``node`` itself when nothing is split)."""
    if n < 2:
        return node
    order = point_loop_order(model, node, node.band_get_partial_schedule())
    if order is None or len(order) < 2:
        return node
    node = node.band_split(n - 1)
    depth = node.get_tree_depth()
    inner = node.child(0)
    dom = inner.get_domain()
    for name in order[:-1]:
        inner = inner.order_before(_part(dom, name))
    while inner.get_tree_depth() > depth:
        inner = inner.parent()
    return inner


def _part(dom: isl.UnionSet, name: str) -> isl.UnionSet:
    got: list[isl.Set] = []
    dom.foreach_set(lambda s: got.append(s) if s.get_tuple_name() == name else None)
    return isl.UnionSet.from_set(got[0]) if got else isl.UnionSet.empty(dom.get_space())


MAX_SKEW = 4
"""The largest skew factor :func:`time_skewed_schedule` tries (isl's
scheduler is bounded by the same coefficient bound)."""


def _is_time_loop_of_sweeps(model: NestModel) -> bool:
    """Every statement lies in the same outermost loop, at the same depth
    (>= 2), and no access depends on that loop's IV (a time loop around
    space sweeps: a stencil)."""
    sts = model.statements
    if not sts:
        return False
    n = len(sts[0].ivs)
    if n < 2 or any(len(st.ivs) != n or st.ivs[0] is not sts[0].ivs[0] for st in sts):
        return False
    for st in sts:
        for acc in st.accesses:
            rel = acc.relation
            if rel is None or rel.gist_domain(rel.domain()).involves_dims(DT.in_, 0, 1):
                return False
    return True


def _min_over(rel: isl.Map, coeffs_out: list[int], coeffs_in: list[int], const: int) -> float | None:
    """The minimum of ``sum(co*y) - sum(ci*x) + const`` over the pairs
    ``x -> y`` of ``rel`` (None: unbounded below)."""
    w = rel.wrap()
    ls = isl.LocalSpace.from_space(w.get_space())
    n_in = rel.dim(DT.in_)
    aff = isl.Aff.zero_on_domain(ls).set_constant_val(isl.Val.int_from_si(w.get_ctx(), const))
    for k, c in enumerate(coeffs_in):
        if c:
            aff = aff.set_coefficient_val(DT.in_, k, isl.Val.int_from_si(w.get_ctx(), -c))
    for k, c in enumerate(coeffs_out):
        if c:
            aff = aff.set_coefficient_val(DT.in_, n_in + k, isl.Val.int_from_si(w.get_ctx(), c))
    v = w.min_val(aff)
    if v.is_infty() or v.is_neginfty() or v.is_nan():
        return None if not v.is_infty() else float("inf")
    return float(v.to_python())


def _member(n: int, c: int, k: int) -> list[int]:
    """Coefficients of band member ``k`` (0: the time IV) over the IVs."""
    co = [0] * n
    if k == 0:
        co[0] = 1
    else:
        co[0], co[k] = c, 1
    return co


def time_skewed_schedule(model: NestModel) -> isl.Schedule | None:
    """The time-skewed band of a time loop around sweeps (see the module's
    docstring), or None when the group is not one or no skew up to
    :data:`MAX_SKEW` makes the band permutable."""
    if not _is_time_loop_of_sweeps(model):
        return None
    sts = model.statements
    n = len(sts[0].ivs)
    index = {st.name: k for k, st in enumerate(sts)}
    deps: list[tuple[int, int, isl.Map]] = []
    model.deps.foreach_map(lambda m: deps.append((index[m.get_tuple_name(DT.in_)], index[m.get_tuple_name(DT.out)], m)))
    for _, _, m in deps:  # the time member: no dependence may go back in time
        lo = _min_over(m, _member(n, 0, 0), _member(n, 0, 0), 0)
        if lo is None or lo < 0:
            return None
    for c in range(MAX_SKEW + 1):  # 0: no skew needed
        got = _shifts(deps, len(sts), n, c)
        if got is None:
            continue
        order = _same_point_order(deps, got, sts, n, c)
        if order is None:
            continue
        return _build(model, got, order, n, c)
    return None


def _shifts(deps: list[tuple[int, int, isl.Map]], count: int, n: int, c: int) -> list[int] | None:
    """The smallest non-negative shifts ``o`` with ``c*dt + dx_k + o[dst] -
    o[src] >= 0`` on every dependence and space member ``k`` (longest paths;
    None: a positive cycle or an unbounded distance)."""
    need: list[tuple[int, int, int]] = []  # o[dst] >= o[src] + w
    for src, dst, m in deps:
        for k in range(1, n):
            co = _member(n, c, k)
            lo = _min_over(m, co, co, 0)
            if lo is None:
                return None
            if lo == float("inf"):
                continue
            need.append((src, dst, int(-lo)))
    o = [0] * count
    for _ in range(count + 1):
        changed = False
        for src, dst, w in need:
            if o[src] + w > o[dst]:
                o[dst] = o[src] + w
                changed = True
        if not changed:
            return o
    return None


def _same_point_order(deps: list[tuple[int, int, isl.Map]], o: list[int], sts: list[Statement], n: int, c: int) -> list[int] | None:
    """An order of the statements at one point of the band: a topological
    order of the dependences whose every member distance can be 0 (None: a
    cycle, or a statement depending on itself at one point)."""
    edges: set[tuple[int, int]] = set()
    for src, dst, m in deps:
        pinned = m
        for k in range(n):
            co = _member(n, c, k)
            ls = isl.LocalSpace.from_space(m.get_space())
            e = isl.Constraint.equality_alloc(ls).set_constant_val(isl.Val.int_from_si(m.get_ctx(), o[dst] - o[src] if k else 0))
            for j, v in enumerate(co):
                if v:
                    e = e.set_coefficient_val(DT.out, j, isl.Val.int_from_si(m.get_ctx(), v))
                    e = e.set_coefficient_val(DT.in_, j, isl.Val.int_from_si(m.get_ctx(), -v))
            pinned = pinned.add_constraint(e)
        if pinned.is_empty():
            continue
        if src == dst:
            return None
        edges.add((src, dst))
    order: list[int] = []
    left = list(range(len(sts)))
    while left:
        ready = [x for x in left if not any(d == x and s in left for s, d in edges)]
        if not ready:
            return None
        order.append(ready[0])
        left.remove(ready[0])
    return order


def _build(model: NestModel, o: list[int], order: list[int], n: int, c: int) -> isl.Schedule:
    """The schedule: one permutable band ``[t, c*t + x1 + o_s, ...]``, then
    the statements in ``order``."""
    sts = model.statements
    dom: isl.UnionSet | None = None
    for st in sts:
        u = isl.UnionSet.from_set(st.domain)
        dom = u if dom is None else dom.union(u)
    assert dom is not None
    members: list[str] = []
    for k in range(n):
        parts = []
        for s, st in enumerate(sts):
            ivs = st.iv_names
            e = ivs[0] if k == 0 else f"{c}*{ivs[0]} + {ivs[k]} + {o[s]}"
            parts.append(f"{st.name}[{', '.join(ivs)}] -> [({e})]")
        members.append("{ " + "; ".join(parts) + " }")
    params = sts[0].domain.get_space().get_var_names(DT.param)
    prefix = f"[{', '.join(params)}] -> " if params else ""  # isl reads "[] -> [...]" as an empty tuple
    mupa = isl.MultiUnionPwAff.read_from_str(model.deps.get_ctx(), f"{prefix}[{', '.join(members)}]")
    node = isl.Schedule.from_domain(dom).insert_partial_schedule(mupa).get_root().child(0)
    node = node.band_set_permutable(1)
    if len(sts) > 1:
        filters = isl.UnionSetList.alloc(model.deps.get_ctx(), len(order))
        for s in order:
            filters = filters.add(isl.UnionSet.from_set(sts[s].domain))
        node = node.child(0).insert_sequence(filters).parent()
    return node.get_schedule()
