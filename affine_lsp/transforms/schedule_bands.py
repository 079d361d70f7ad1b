"""Operations on the bands of an isl schedule tree that the optimizer's
scheduling (:mod:`.optimize_schedule`) and its ``--parallel`` tile order
(:mod:`.optimize_parallel`) share: permuting a band's members, and the full
tiles of a tiled band generated apart."""

from __future__ import annotations

from collections.abc import Sequence

import islpy as isl

from affine_lsp.analysis.isl_support import CTX, DT


def permuted(partial: isl.MultiUnionPwAff, order: list[int]) -> isl.MultiUnionPwAff:
    out = partial
    for j, k in enumerate(order):
        out = out.set_at(j, partial.get_at(k))
    return out


def reorder_band(node: isl.ScheduleNode, order: list[int], coincident: list[bool]) -> isl.ScheduleNode:
    """The band ``node`` with its members in ``order`` (a permutable band:
    any order is legal)."""
    newp = permuted(node.band_get_partial_schedule(), order)
    node = node.delete().insert_partial_schedule(newp).band_set_permutable(1)
    for j, c in enumerate(coincident):
        node = node.band_member_set_coincident(j, int(c))
    return node


def anonymous(m: isl.Map) -> isl.Map:
    for dt in (DT.in_, DT.out):
        if m.has_tuple_name(dt) or m.has_tuple_id(dt):
            m = m.reset_tuple_id(dt)
    return m


def full_tiles(node: isl.ScheduleNode, tiles: Sequence[int]) -> isl.Set | None:
    """The tiles of the tiled band ``node`` (its child: the point band) whose
    every point is an iteration of some statement: the full tiles. None when
    the band is not at the top of the schedule (the set would depend on the
    outer loops) or when every tile is full."""
    if node.get_schedule_depth() != 0:
        return None
    dom = node.get_domain()
    tile = node.band_get_partial_schedule_union_map().intersect_domain(dom)
    point = node.child(0).band_get_partial_schedule_union_map().intersect_domain(dom)
    pairs: isl.Map | None = None

    def add(m: isl.Map) -> None:
        nonlocal pairs
        m = anonymous(m)
        pairs = m if pairs is None else pairs.union(m)

    tile.reverse().apply_range(point).foreach_map(add)  # tile -> point, per statement
    if pairs is None:
        return None
    n = len(tiles)
    box = isl.Map.universe(pairs.get_space())
    for k in range(n):  # t_k <= p_k < t_k + size_k
        ls = isl.LocalSpace.from_space(box.get_space())
        lo = isl.Constraint.inequality_alloc(ls).set_coefficient_val(DT.out, k, 1).set_coefficient_val(DT.in_, k, -1)
        hi = isl.Constraint.inequality_alloc(ls).set_coefficient_val(DT.out, k, -1).set_coefficient_val(DT.in_, k, 1).set_constant_val(tiles[k] - 1)
        box = box.add_constraint(lo).add_constraint(hi)
    tiles_set = pairs.domain()
    box = box.intersect_domain(tiles_set)
    partial = box.subtract(pairs).domain()
    if partial.is_empty():
        return None
    return tiles_set.subtract(partial)


def isolate_full_tiles(node: isl.ScheduleNode, tiles: Sequence[int]) -> isl.ScheduleNode:
    """The full tiles of the tiled band generated apart (isl's ``isolate``
    option, as PPCG and Pluto's full/partial tile separation): their point
    loops run a constant number of iterations, without ``min`` bounds, so
    unroll-and-jam and vectorization apply to them. Only code generation
    changes, never the schedule."""
    full = full_tiles(node, tiles)
    if full is None or full.is_empty():
        return node
    n = len(tiles)
    names = ", ".join(f"t{k}" for k in range(n))
    opt = isl.Set.read_from_str(CTX, f"{{ isolate[[] -> [{names}]] }}")
    full_named = full.set_tuple_name(None) if full.has_tuple_name() else full
    iso = opt.unwrap().intersect_range(full_named).wrap().set_tuple_name("isolate")
    return node.band_set_ast_build_options(isl.UnionSet.from_set(iso))
