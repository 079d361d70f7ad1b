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
loops, the outer point loops and the loops around the band). It vectorizes
(LLVM's loop vectorizer, which checks the remaining distances itself) when
each such dependence either stays in one iteration of it, or goes forward
along it from a statement placed earlier in its body to a later one (a
"forward" dependence in LLVM's terms: the vector of the earlier statement
is complete before the later one reads it). :func:`point_loop_vectorizes`
decides that exactly on the dependences of the model.

LLVM refuses a point loop that holds several statements linked by a
short forward dependence (jacobi's two sweeps: "forward loop carried data
dependence that prevents store-to-load forwarding"), so the innermost point
loop is distributed (:func:`distribute_point_loop`): inside a tile, each
statement gets its own innermost loop, in the body's order. That is legal
exactly when the check above holds (every dependence between instances that
agree on the outer loops goes from a statement to itself or to a later
one), and each of those loops then vectorizes alone.

Tile sizes (:func:`tile_sizes`): the time member's tile is short and the
innermost (vector) member's long, so that the point loop runs long enough
for vector code and the tile's working set (its rows, widened by the skew
of the time steps it holds) stays in half of L2.
"""

from __future__ import annotations

import islpy as isl

from affine_lsp.analysis.isl_support import DT
from affine_lsp.transforms.optimize_model import NestModel

TIME_TILE = 32
"""Time steps per tile of a skewed (time-tiled) band."""

SPACE_TILE = 32
"""The tile size of the outer space members of a time-tiled band."""

VECTOR_TILE = 256
"""The innermost (vector) member's tile in a time-tiled band: long enough
that LLVM's vector loop and its runtime alias checks pay off."""


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


def tile_sizes(n: int) -> list[int]:
    """The tiles of a time-tiled band of ``n`` members: the time member
    (outermost) :data:`TIME_TILE`, the space members :data:`SPACE_TILE`,
    the innermost :data:`VECTOR_TILE`."""
    if n == 1:
        return [VECTOR_TILE]
    return [TIME_TILE] + [SPACE_TILE] * (n - 2) + [VECTOR_TILE]


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
