"""``optimize --parallel``: the tile loop of a band's first parallel member
outermost, so that each task of the parallel loop is a whole tile band.

``--parallel`` makes the outermost parallel loop of every path an
``affine.parallel`` when one entry of it holds enough work
(:mod:`.parallel_work`). In a band whose outer members are sequential (a
reduction loop outside, the parallel member inside: mvt's ``x1[i] +=
A[i][j] * y[j]`` scheduled ``[j, i]``, the ``j`` loop of atax's second
product) that loop is inside the sequential one, and each of its entries
forks and joins the threads for one row: too little work, left sequential.
A permutable band's tile loops can be put in any order (each tile is a set
of whole iterations of every member), so:

* a tiled band whose first member is not parallel gets the tile loop of its
  first parallel member outermost (:func:`parallel_tile_first`); the point
  loops keep their order (the vector loop innermost, the register tile);
* a band the automatic mode does not tile (its data fits in cache) is tiled
  along that member alone (:func:`parallel_tile_sizes`: the member's usual
  tile, every other member one tile of its whole extent, which generates no
  loop), then reordered the same way.

The parallel loop is then the outermost loop of the band, one task per tile
of the parallel member with every iteration of the other members in it. The
schedule goes through the same second legality proof as any other
(:func:`.optimize_schedule.violations`); the full tiles are still generated
apart (isl's ``isolate`` option, on the reordered tile band).
"""

from __future__ import annotations

from collections.abc import Sequence

import islpy as isl

from affine_lsp.analysis.isl_support import CTX
from affine_lsp.transforms.schedule_bands import full_tiles, reorder_band

PARALLEL_TILE_PREFERENCE = 1.05
"""The factor of the sequential prediction (``optimize._predict``) of a
schedule with such a band whose order is otherwise the original one
(the schedule made without ``--parallel`` is the identity,
``Schedule.same_order``):
the threads' gain is not in that model, and the tiles for the threads cost
little sequentially (one more loop level), so that schedule is preferred to
the original order (which has no outer parallel loop). Not for a schedule
that also reorders or distributes (atax, whose distributed products read
the matrix twice: docs/performance.md, "Figures behind the code"): the
sequential model decides there."""


def first_parallel_inside(coincident: Sequence[bool]) -> int | None:
    """The first parallel member of a band when the first member is not
    parallel (None: the outermost member is parallel already, or none is)."""
    if not coincident or coincident[0]:
        return None
    return next((k for k, c in enumerate(coincident) if c), None)


def parallel_tile_sizes(tiles: Sequence[int], extents: Sequence[int], member: int) -> list[int]:
    """Tile sizes that strip-mine ``member`` alone: its own size from
    ``tiles``, every other member one tile of its whole extent."""
    return [tiles[k] if k == member else max(1, int(extents[k])) for k in range(len(tiles))]


def parallel_tile_first(node: isl.ScheduleNode, tiles: Sequence[int], coincident: Sequence[bool], member: int) -> isl.ScheduleNode:
    """The tile band ``node`` (just made by ``band_tile``; its child is the
    point band) with the tile loop of ``member`` outermost, the others in
    their order, and its full tiles generated apart as
    :func:`.schedule_bands.isolate_full_tiles` does (the full tiles are
    computed in the members' original order, then permuted)."""
    n = len(tiles)
    order = [member] + [k for k in range(n) if k != member]
    full = full_tiles(node, tiles)
    node = reorder_band(node, order, [coincident[k] for k in order])
    if full is None or full.is_empty():
        return node
    src = ", ".join(f"t{k}" for k in range(n))
    dst = ", ".join(f"t{k}" for k in order)
    perm = isl.Map.read_from_str(CTX, f"{{ [{src}] -> [{dst}] }}")
    full = (full.set_tuple_name(None) if full.has_tuple_name() else full).apply(perm)
    names = ", ".join(f"t{k}" for k in range(n))
    opt = isl.Set.read_from_str(CTX, f"{{ isolate[[] -> [{names}]] }}")
    iso = opt.unwrap().intersect_range(full).wrap().set_tuple_name("isolate")
    return node.band_set_ast_build_options(isl.UnionSet.from_set(iso))
