"""The new schedule of "Optimize loop nest": isl's scheduler, tiling and the
intra-tile order.

* **Scheduling**: isl's Pluto-style scheduler
  (``ScheduleConstraints.compute_schedule``) with validity = every
  dependence (RAW, WAR, WAW), coincidence = the same (parallel loops have
  distance 0), proximity = the same (reuse distances are minimised); the
  fusion strategy is isl's "max" one with whole components (SCCs are
  fused when a legal schedule allows it), bands as deep as possible.
* **Intra-tile order**: in every permutable band the members are reordered
  so that the innermost loop is the one along which most accesses are
  unit-stride or invariant, a coincident (parallel) one first: LLVM
  vectorizes such loops. Any order of a permutable band is legal.
* **Tiling**: permutable bands of depth >= 2 are tiled (``band_tile``) when
  they hold reuse (an access invariant along a member) and some member has
  more iterations than a tile.
* **Legality, a second time**: every dependence, composed with the final
  schedule, must go forward (:func:`violations`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import islpy as isl

from affine_lsp import forking
from affine_lsp.analysis.isl_support import CTX, DT
from affine_lsp.transforms import optimize_parallel, optimize_stencil
from affine_lsp.transforms.optimize_model import NestModel, Refused, Statement
from affine_lsp.transforms.schedule_bands import isolate_full_tiles, permuted, reorder_band

SCHEDULE_TIMEOUT_S = 10.0
"""The CPU time isl's scheduler may take on one nest group, all strategies
together (the child's own CPU time, :func:`_child_cpu_seconds`: a loaded
machine, whose child gets a fraction of a core, does not stop it early and
gets the answer a quiet one gets)."""

SCHEDULE_WALL_FACTOR = 20.0
"""A child stopped (or starved) beyond this many times its CPU budget of
wall time is killed all the same: the wall-clock bound of last resort."""

_POLL_S = 0.02  # how often the parent reads the child's CPU time

STRATEGIES: tuple[tuple[float, dict[str, int]], ...] = (
    (0.25, {"schedule_whole_component": 1, "schedule_max_constant_term": -1}),
    (0.75, {"schedule_whole_component": 0, "schedule_max_constant_term": 16}),
)
"""isl's scheduler options tried in turn, each with its share of
:data:`SCHEDULE_TIMEOUT_S`: first the whole-component strategy with
unbounded shifts (the best fusion choices, but its ILPs blow up on chains
of matrix products: 2mm and 3mm of ``bench/kernels`` take minutes), then
the incremental strategy with shifts bounded by 16 (docs/performance.md)."""

AUTO_TILE = 32
"""The tile size without ``--tile``."""

MAX_COEFFICIENT = 4
"""Bound on the coefficients of the schedule (skew factors beyond it are
rarely worth it; the bound keeps isl's ILPs small)."""

INNER_TILE_FACTOR = 4
"""The innermost member of a tiled band, when it is a vector loop, gets tiles this many times
longer than the others (32 x 32 x 128 by default): a 32-iteration vector
loop spends too much in its prologue, epilogue and runtime alias checks."""


@dataclass
class BandInfo:
    members: int
    order: list[int]  # the band's members, in the chosen order (indices into the scheduler's band)
    coincident: list[bool]
    tiled: list[int] | None
    vector: int | None  # the innermost member when it is unit-stride and parallel
    maps: str  # the band's partial schedule, as affine maps of the original loops
    register: list[int] | None = None  # register tiling: the point loops' order (positions in ``order``), the reduction member innermost
    parallel_tile: int | None = None  # --parallel: the member (position in ``order``) whose tile loop is outermost


@dataclass
class Schedule:
    schedule: isl.Schedule
    fused: bool = True
    bands: list[BandInfo] = field(default_factory=list)
    changed: bool = True
    unit_before: float = 0.0
    unit_after: float = 0.0
    vector_before: list = field(default_factory=list)  # original innermost loops LLVM vectorizes
    made_unit: list[str] = field(default_factory=list)  # statements whose strided innermost loop becomes unit-stride
    vector_unit: list[str] = field(default_factory=list)  # statements of a register tile walking every access unit-stride or invariant along its vector loop
    same_order: bool = False  # --parallel: without the threads' tiles, the schedule orders the instances as the original does


def _set_options(ctx: isl.Context, fuse: bool) -> None:
    ctx.set_schedule_maximize_band_depth(1)
    ctx.set_schedule_outer_coincidence(0)
    ctx.set_schedule_serialize_sccs(0 if fuse else 1)
    ctx.set_schedule_maximize_coincidence(1)
    ctx.set_schedule_treat_coalescing(1)
    ctx.set_schedule_max_coefficient(MAX_COEFFICIENT)
    ctx.set_tile_scale_tile_loops(1)
    ctx.set_tile_shift_point_loops(0)


def _stride_class(model: NestModel, sched: isl.UnionMap) -> tuple[int, int, int]:
    """``(unit, invariant, other)`` counts of the accesses along the last
    dimension of ``sched`` (one map per statement, same range space)."""
    kinds = [k for _, k in _access_strides(model, sched)]
    return kinds.count("unit"), kinds.count("invariant"), kinds.count("other")


def _access_strides(model: NestModel, sched: isl.UnionMap) -> list[tuple[object, str]]:
    """Each access with ``unit``, ``invariant`` or ``other``: how the element
    it touches moves along the last dimension of ``sched``."""
    out: list[tuple[object, str]] = []
    for st in model.statements:
        m = _restrict(sched, st.name)
        if m is None:
            continue
        n = m.dim(DT.out)
        if n == 0:
            continue
        # {[t] -> [t'] : t' = t + e_last}: the next instance along the last dim
        sp = isl.Space.map_from_set(m.range().get_space())
        step = isl.Map.universe(sp)
        for k in range(n - 1):
            step = step.equate(DT.in_, k, DT.out, k)
        c = isl.Constraint.equality_alloc(isl.LocalSpace.from_space(sp))
        c = c.set_coefficient_val(DT.out, n - 1, 1).set_coefficient_val(DT.in_, n - 1, -1).set_constant_val(-1)
        step = step.add_constraint(c)
        inst = m.apply_range(step).apply_range(m.reverse())  # instance -> next instance along the last dim
        for acc in st.accesses:
            rel = acc.relation.set_tuple_name(DT.in_, st.name)  # type: ignore[union-attr]
            moved = rel.reverse().apply_range(inst).apply_range(rel)
            if moved.is_empty():
                out.append((acc, "invariant"))
                continue
            d = moved.deltas()
            rank = d.dim(DT.set)
            if rank == 0:
                out.append((acc, "invariant"))
                continue
            zero = isl.Set.universe(d.get_space())
            for k in range(rank - 1):
                zero = zero.fix_val(DT.set, k, isl.Val.zero(CTX))
            z_all = zero.fix_val(DT.set, rank - 1, isl.Val.zero(CTX))
            u = zero.lower_bound_val(DT.set, rank - 1, isl.Val.int_from_si(CTX, -1)).upper_bound_val(DT.set, rank - 1, isl.Val.one(CTX))
            if d.is_subset(z_all):
                out.append((acc, "invariant"))
            elif d.is_subset(u):
                out.append((acc, "unit"))
            else:
                out.append((acc, "other"))
    return out


def _restrict(u: isl.UnionMap, name: str) -> isl.Map | None:
    got: list[isl.Map] = []
    u.foreach_map(lambda m: got.append(m) if m.get_tuple_name(DT.in_) == name else None)
    return got[0] if got else None


def _member_map(partial: isl.MultiUnionPwAff, k: int) -> isl.UnionMap:
    """The band's partial schedule with member ``k`` last."""
    n = partial.dim(DT.out)
    order = [j for j in range(n) if j != k] + [k]
    return isl.UnionMap.from_multi_union_pw_aff(permuted(partial, order))


def _pick_innermost(model: NestModel, partial: isl.MultiUnionPwAff, coincident: list[bool]) -> tuple[int, bool]:
    """The member to put innermost, and whether it is a vector loop
    (unit-stride accesses, parallel)."""
    best, best_key, best_unit = len(coincident) - 1, None, False
    for k in range(len(coincident)):
        unit, inv, other = _stride_class(model, _member_map(partial, k))
        key = (unit + inv - 2 * other, coincident[k], unit, k)
        if best_key is None or key > best_key:
            best, best_key, best_unit = k, key, unit > 0 and other == 0
    return best, best_unit and coincident[best]


def _unit_stride_member(model: NestModel, partial: isl.MultiUnionPwAff, k: int) -> bool:
    """Every access is unit-stride or invariant along member ``k`` of the band, one unit-stride."""
    unit, _, other = _stride_class(model, _member_map(partial, k))
    return unit > 0 and other == 0


def _bytes(acc: object) -> int:
    """The size of the memref an access touches (dynamic sizes: unbounded)."""
    t = getattr(getattr(acc, "memref", None), "type", None)
    shape = getattr(t, "shape", None)
    if shape is None or any(d is None for d in shape):
        return 1 << 62
    elem = str(getattr(t, "element", ""))
    width = int(elem[1:]) // 8 if elem[:1] in "fi" and elem[1:].isdigit() else 8
    n = 1
    for d in shape:
        n *= d
    return n * max(1, width)


def _tiling_pays(model: NestModel, node: isl.ScheduleNode, partial: isl.MultiUnionPwAff, min_bytes: int) -> bool:
    """Tiling the band brings reuse into cache that the untiled order does
    not already have there. Either an access is invariant along a member
    other than the innermost (temporal reuse) or unit-stride along one
    (spatial reuse the innermost loop does not exploit: a transpose's column
    accesses), on a memref larger than ``min_bytes`` (a smaller one stays in
    cache without tiling); or a dependence links two instances of the band
    (:func:`_carries`, a stencil's reuse). In both cases the data the
    members inside the reusing one touch between two uses (the reuse
    distance, :func:`_inner_footprint`) must exceed half of L1:
    floyd-warshall's row ``path[k][*]`` is reused along ``i`` from L1
    already, and tiling ``(i, j)`` only cuts its vector loop short (a
    slowdown: docs/performance.md). Each member's strides are computed once."""
    n = partial.dim(DT.out)
    strides = [_access_strides(model, _member_map(partial, k)) for k in range(n)]
    kinds = [{id(acc): kind for acc, kind in member} for member in strides]
    extents = _member_extents(model, partial)
    threshold = _l1_half(min_bytes)
    for k in range(n - 1):
        if any(kind in ("invariant", "unit") and _bytes(acc) > min_bytes for acc, kind in strides[k]):
            if _inner_footprint(model, kinds, extents, k) > threshold:
                return True
    return _carries(model, node, min_bytes) and _inner_footprint(model, kinds, extents, 0) > threshold


def _l1_half(min_bytes: int) -> int:
    """Half the L1 data cache: the reuse distance below which the data is
    still there without tiling (0 when ``min_bytes`` is: a tile size the
    user asked for tiles every band it can)."""
    from affine_lsp.transforms.machine import caches

    return caches().l1 // 2 if min_bytes else 0


def _inner_footprint(model: NestModel, kinds: list[dict[int, str]], extents: list[int], k: int) -> int:
    """Bytes the band's members inside member ``k`` touch in one iteration
    of ``k``: per distinct access of the band's statements (a load and a
    store of the same element count once), the product of the extents of
    those members it moves along (capped by its memref), 8 bytes an
    element. ``kinds``: per member, each access's stride class by ``id``."""
    total = 0
    seen: set[tuple[int, str]] = set()
    for acc in (acc for st in model.statements for acc in st.accesses):
        key = (id(getattr(acc, "memref", None)), str(getattr(acc, "relation", "")))
        if id(acc) not in kinds[k] or key in seen:
            continue
        seen.add(key)
        elems = 1
        for j in range(k + 1, len(extents)):
            if kinds[j].get(id(acc)) != "invariant":
                elems *= extents[j]
        total += min(elems * 8, _bytes(acc))
    return total


def _member_extents(model: NestModel, partial: isl.MultiUnionPwAff) -> list[int]:
    """How many values each member of a band takes on the statements'
    domains (the largest over the statements; unbounded: a large number)."""
    n = partial.dim(DT.out)
    out = [1] * n
    sched = isl.UnionMap.from_multi_union_pw_aff(partial)
    dom = None
    for st in model.statements:
        u = isl.UnionSet.from_set(st.domain)
        dom = u if dom is None else dom.union(u)
    rng = sched.intersect_domain(dom).range() if dom is not None else sched.range()

    def one(s: isl.Set) -> None:
        for k in range(min(n, s.dim(DT.set))):
            ls = isl.LocalSpace.from_space(s.get_space())
            aff = isl.Aff.var_on_domain(ls, DT.set, k)
            lo, hi = s.min_val(aff), s.max_val(aff)
            size = hi.sub(lo).to_python() + 1 if lo.is_int() and hi.is_int() else 1 << 30
            out[k] = max(out[k], int(size))

    rng.foreach_set(one)
    return out


def cache_bytes() -> int:
    """The size of the largest per-core cache below L3 (L2), from sysfs;
    1 MiB when unknown."""
    import glob

    best = 0
    for d in glob.glob("/sys/devices/system/cpu/cpu0/cache/index*"):
        try:
            level = int(Path(d, "level").read_text())
            size = Path(d, "size").read_text().strip()
        except (OSError, ValueError):
            continue
        mult = {"K": 1024, "M": 1 << 20}.get(size[-1:], 1)
        try:
            b = int(size.rstrip("KM")) * mult
        except ValueError:
            continue
        if level == 2:
            best = max(best, b)
    return best or (1 << 20)


def _extents_exceed(node: isl.ScheduleNode, size: int) -> bool:
    """Some member of the band takes more than ``size`` values."""
    partial = node.band_get_partial_schedule_union_map()
    dom = node.get_domain()
    rng = partial.intersect_domain(dom).range()
    big = False

    def check(s: isl.Set) -> None:
        nonlocal big
        for k in range(s.dim(DT.set)):
            ls = isl.LocalSpace.from_space(s.get_space())
            aff = isl.Aff.var_on_domain(ls, DT.set, k)
            lo, hi = s.min_val(aff), s.max_val(aff)
            if not (lo.is_int() and hi.is_int()) or hi.sub(lo).to_python() >= size:
                big = True

    rng.foreach_set(check)
    return big


def _carries(model: NestModel, node: isl.ScheduleNode, min_bytes: int) -> bool:
    """Some dependence links two instances of the band's statements (a
    stencil's reuse), on a memref larger than ``min_bytes``."""
    dom = node.get_domain()
    names: set[str] = set()
    dom.foreach_set(lambda s: names.add(s.get_tuple_name()))
    return any(s in names and d in names and _bytes(_Mem(m)) > min_bytes for s, d, m in model.dep_memrefs)


@dataclass
class _Mem:
    memref: object


def _describe(partial: isl.MultiUnionPwAff, model: NestModel) -> str:
    parts = []
    m = isl.UnionMap.from_multi_union_pw_aff(partial)
    for st in model.statements:
        sm = _restrict(m, st.name)
        if sm is None:
            continue
        text = str(sm.remove_redundancies())
        body = text[text.index("{") + 1 : text.rindex("}")].strip()
        if ":" in body:
            body = body[: body.index(":")].strip()
        parts.append(body)
    return "; ".join(parts)


def compute(model: NestModel, tile: int | None, fuse: bool = True, budget_ctx: isl.Context = CTX, parallel: bool = False) -> Schedule:
    """The new schedule of ``model``: with ``fuse``, isl fuses what a legal
    schedule allows (its whole-component strategy); without, every strongly
    connected component of the dependence graph gets loops of its own
    (distribution). ``tile``: the tile size, or None for the automatic
    choice: 32, and only bands whose reused data does not fit in half the L2
    cache (:func:`cache_bytes`) are tiled. ``parallel``: a band's first
    parallel member gets its tile loop outermost (:mod:`.optimize_parallel`).
    Call inside :func:`limited`."""
    _set_options(budget_ctx, fuse)
    dom: isl.UnionSet | None = None
    for st in model.statements:
        u = isl.UnionSet.from_set(st.domain)
        dom = u if dom is None else dom.union(u)
    assert dom is not None
    sc = isl.ScheduleConstraints.on_domain(dom)
    sc = sc.set_validity(model.deps).set_coincidence(model.deps).set_proximity(model.deps)
    sched = optimize_stencil.time_skewed_schedule(model)  # a time loop around sweeps: Pluto's time skewing, without isl's scheduler
    for k, (share, options) in enumerate(STRATEGIES if sched is None else ()):
        for name, value in options.items():
            getattr(budget_ctx, "set_" + name)(value)
        try:
            sched = _bounded_schedule(sc, share * SCHEDULE_TIMEOUT_S)
            break
        except Refused:
            if k == len(STRATEGIES) - 1:
                raise Refused(f"isl's scheduler did not finish within {SCHEDULE_TIMEOUT_S:g} s") from None
    if sched is None:
        raise Refused("isl's scheduler found no schedule")
    out = Schedule(sched, fused=fuse)
    root = sched.get_root()
    min_bytes = cache_bytes() // 2 if tile is None else 0
    if parallel:  # the schedule without the threads' tiles: is it the original order?
        out.same_order = is_identity(model, _walk(root, model, tile or AUTO_TILE, min_bytes, Schedule(sched, fused=fuse)).get_schedule())
    out.schedule = _walk(root, model, tile or AUTO_TILE, min_bytes, out, parallel).get_schedule()
    return out


def _bounded_schedule(sc: isl.ScheduleConstraints, timeout: float) -> isl.Schedule | None:
    """``sc.compute_schedule()`` in a forked child, given ``timeout``
    seconds: isl's scheduler is not bounded by the operation budget (deep
    nests: minutes), and a C call cannot be interrupted from Python. The
    schedule comes back in isl's text form. Raises :class:`Refused` on a
    timeout. Without ``fork``, runs in place."""
    import os
    import select
    import signal
    import time

    if not forking.available():
        return sc.compute_schedule()
    r, w = os.pipe()

    def child() -> None:  # schedule, write, exit without any cleanup of the parent's state (affine_lsp.forking)
        os.close(r)
        try:
            got = sc.compute_schedule()
            data = ("S" + got.to_str()) if got is not None else "N"
        except Exception as e:
            data = "E" + str(e)
        view = memoryview(data.encode())
        while view:
            n = os.write(w, view)
            view = view[n:]

    pid = forking.fork(child)
    os.close(w)
    chunks: list[bytes] = []
    start = time.monotonic()
    deadline = start + max(SCHEDULE_WALL_FACTOR * timeout, timeout + 30.0)
    try:
        while True:
            now = time.monotonic()
            cpu = _child_cpu_seconds(pid)
            spent = cpu if cpu is not None else now - start  # (no /proc: wall time)
            if spent >= timeout or now >= deadline:
                os.kill(pid, signal.SIGKILL)
                what = (
                    "of CPU time"
                    if cpu is not None and now < deadline
                    else "of wall time"
                    if cpu is None
                    else f"of CPU time (stopped after {now - start:.0f} s of wall time)"
                )
                raise Refused(f"isl's scheduler did not finish within {timeout:g} s {what}")
            ready, _, _ = select.select([r], [], [], min(_POLL_S, max(0.0, deadline - now)))
            if not ready:
                continue
            chunk = os.read(r, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(r)
        os.waitpid(pid, 0)
    text = b"".join(chunks).decode()
    if text.startswith("S"):
        return isl.Schedule.read_from_str(CTX, text[1:])
    if text.startswith("E"):
        raise Refused(f"isl's scheduler failed: {text[1:]}")
    return None


def _child_cpu_seconds(pid: int) -> float | None:
    """The CPU time (user + system) child ``pid`` has used so far, from
    ``/proc/PID/stat``; None where it cannot be read."""
    import os

    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    fields = stat[stat.rfind(b")") + 2 :].split()  # after "pid (comm) ": state is field 3, utime and stime 14 and 15
    try:
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (IndexError, ValueError, OSError):
        return None


def _walk(node: isl.ScheduleNode, model: NestModel, tile: int, min_bytes: int, out: Schedule, parallel: bool = False) -> isl.ScheduleNode:
    if node.get_type() == isl.schedule_node_type.band:
        n = node.band_n_member()
        partial = node.band_get_partial_schedule()
        coinc = [bool(node.band_member_get_coincident(k)) for k in range(n)]
        permutable = bool(node.band_get_permutable())
        order = list(range(n))
        vector = None
        if permutable and n >= 2:
            inner, is_vec = _pick_innermost(model, partial, coinc)
            order = [k for k in range(n) if k != inner] + [inner]
            vector = n - 1 if is_vec else None
            # parallel members outside
            order = sorted(order[:-1], key=lambda k: not coinc[k]) + order[-1:]
            if order != list(range(n)):
                newp = permuted(partial, order)
                node = node.delete().insert_partial_schedule(newp)
                node = node.band_set_permutable(1)
                for j, k in enumerate(order):
                    node = node.band_member_set_coincident(j, int(coinc[k]))
                partial = newp
            if vector is None and not any(coinc) and _unit_stride_member(model, partial, n - 1):
                vector = n - 1 if optimize_stencil.point_loop_vectorizes(model, node, partial) else None
        elif n == 1 and coinc[0] and node.child(0).get_type() == isl.schedule_node_type.leaf and _unit_stride_member(model, partial, 0):
            vector = 0  # a one-loop band innermost, parallel and unit-stride: LLVM vectorizes it as it is
        info = BandInfo(n, order, [coinc[k] for k in order], None, vector, _describe(partial, model))
        time_band = optimize_stencil.is_time_band(coinc, vector)
        auto_time = bool(min_bytes) and time_band  # automatic mode: the stencil policy decides and sizes the tiles
        pays = optimize_stencil.time_tiling_pays(model, _member_extents(model, partial)) if auto_time else _tiling_pays(model, node, partial, min_bytes)
        # --parallel: the tile loop of the first parallel member outermost, the band tiled along it alone if need be
        par_member = optimize_parallel.first_parallel_inside(info.coincident) if parallel and permutable and n >= 2 and not time_band else None
        par_only = par_member is not None and not (tile > 1 and _extents_exceed(node, tile) and pays)
        if par_only:
            sizes0 = [tile] * (n - 1) + [tile * INNER_TILE_FACTOR if vector is not None else tile]
            par_only = _member_extents(model, partial)[par_member] > sizes0[par_member]  # type: ignore[index]
            if not par_only:
                par_member = None
        if permutable and n >= 2 and ((tile > 1 and _extents_exceed(node, tile) and pays) or par_only):
            tiles = [tile] * (n - 1) + [tile * INNER_TILE_FACTOR if vector is not None else tile]
            if par_only:
                tiles = optimize_parallel.parallel_tile_sizes(tiles, _member_extents(model, partial), par_member)  # type: ignore[arg-type]
            reg = register_order(model, partial, info.coincident, vector) if not time_band and not par_only else None
            if reg is not None:
                tiles = register_tile_sizes(tiles, reg, info.coincident, _member_extents(model, partial), INNER_TILE_FACTOR)
            if auto_time:
                tiles = optimize_stencil.tile_sizes(model, _member_extents(model, partial))
            sizes = isl.MultiVal.zero(node.band_get_space())
            for k in range(n):
                sizes = sizes.set_val(k, isl.Val.int_from_si(CTX, tiles[k]))
            node = node.band_tile(sizes)
            info.tiled = None if par_only else tiles  # (tiles for the threads only bring no reuse: the prediction does not count them)
            out.bands.append(info)
            if par_member is not None:
                node = optimize_parallel.parallel_tile_first(node, tiles, info.coincident, par_member)
                info.parallel_tile = par_member
            elif not time_band:  # a skewed time tile's full part is no simpler, and its isolated code is slower (docs/performance.md)
                node = isolate_full_tiles(node, tiles)
            node = node.child(0)  # the point band: its order is set; leave its subtree as is
            if reg is not None:
                assert vector is not None
                out.vector_unit += _unit_statements(model, _member_map(partial, vector))
                node = reorder_band(node, reg, [info.coincident[k] for k in reg])
                info.register = reg
            for k in range(n):  # guards of partial tiles and of fused statements are hoisted out of the point loops
                node = node.band_member_set_ast_loop_type(k, isl.ast_loop_type.separate)
            if time_band:
                node = optimize_stencil.distribute_point_loop(model, node, n)
            return node.parent()
        out.bands.append(info)
    for k in range(node.n_children()):
        node = _walk(node.child(k), model, tile, min_bytes, out, parallel).parent()
    return node


def register_order(model: NestModel, partial: isl.MultiUnionPwAff, coincident: list[bool], vector: int | None) -> list[int] | None:
    """The point-loop order of a register tile (BLAS's micro-kernel, Pluto's
    and PPCG's register tiling): in a tiled band whose innermost member is a
    vector loop, a member along which every write is invariant (a reduction
    member: gemm's ``k``) goes innermost, inside the vector member. The
    written elements then stay the same along the innermost loop
    (:mod:`.accumulate` keeps them in registers), the vector loop becomes an
    outer-loop vectorization of the reduction, and unroll-and-jam of the
    other parallel members gives independent vector accumulators. None when
    the band has no such member, or no other parallel member to unroll."""
    n = len(coincident)
    if vector is None or n < 3:
        return None
    for r in range(n - 1):
        if coincident[r]:
            continue
        strides = _access_strides(model, _member_map(partial, r))  # the band's statements' accesses only
        writes = [kind for a, kind in strides if a.is_write]  # type: ignore[attr-defined]
        if writes and all(kind == "invariant" for kind in writes) and any(coincident[k] for k in range(n - 1) if k != r):
            if any(kind == "other" for _, kind in strides) and not _band_is_box(model, partial):
                # The partial tiles along a non-rectangular edge (the diagonal
                # of a triangular band) are generated with the same point
                # order, in scalar code: there the reduction member innermost
                # walks its strided accesses across cache lines, the order
                # the tiling was meant to undo. Keep the vector member innermost.
                return None
            return [k for k in range(n - 1) if k != r] + [vector, r]
    return None


def _band_is_box(model: NestModel, partial: isl.MultiUnionPwAff) -> bool:
    """Every statement's instances, under the band's partial schedule, fill
    the box of their own bounds: every tile of the band but those at the
    box's far edges is full."""
    dom = None
    for st in model.statements:
        u = isl.UnionSet.from_set(st.domain)
        dom = u if dom is None else dom.union(u)
    sched = isl.UnionMap.from_multi_union_pw_aff(partial)
    rng = sched.intersect_domain(dom).range() if dom is not None else sched.range()
    boxes: list[bool] = []

    def one(s: isl.Set) -> None:
        box = isl.Set.universe(s.get_space())
        for k in range(s.dim(DT.set)):
            ls = isl.LocalSpace.from_space(s.get_space())
            aff = isl.Aff.var_on_domain(ls, DT.set, k)
            lo, hi = s.min_val(aff), s.max_val(aff)
            if not (lo.is_int() and hi.is_int()):
                boxes.append(False)
                return
            box = box.lower_bound_val(DT.set, k, lo).upper_bound_val(DT.set, k, hi)
        boxes.append(box.is_subset(s))

    rng.foreach_set(one)
    return all(boxes)


def register_tile_sizes(tiles: list[int], order: list[int], coincident: list[bool], extents: list[int], factor: int) -> list[int]:
    """The tile sizes of a register tile (``order``: its point loops, the
    reduction member last): the reduction member as long as the vector
    member (``factor`` times the others), and every member but the vector
    one sized, where some size between half its tile and its tile divides
    its extent, to that divisor (a multiple of 4 for the parallel members,
    which unroll-and-jam unrolls by 4): no partial tile along it, whose
    code (a ``min`` bound, no full-tile separation) runs scalar."""
    out = list(tiles)
    red, vec = order[-1], order[-2]
    out[red] = out[red] * factor
    for m in range(len(out)):
        if m == vec or m >= len(extents):
            continue
        quantum = 4 if coincident[m] else 1
        for size in [*range(out[m], 2 * out[m] + 1), *range(out[m] - 1, out[m] // 2 - 1, -1)]:
            if size > 0 and size % quantum == 0 and extents[m] % size == 0:
                out[m] = size
                break
    return out


def flat_map(schedule: isl.Schedule) -> isl.UnionMap:
    """The schedule as one map per statement, padded to one range width."""
    m = schedule.get_map()
    maps: list[isl.Map] = []
    m.foreach_map(maps.append)
    width = max(x.dim(DT.out) for x in maps)
    out: isl.UnionMap | None = None
    for x in maps:
        n = x.dim(DT.out)
        x = x.set_tuple_name(DT.out, None) if x.has_tuple_name(DT.out) else x
        if n < width:
            x = x.add_dims(DT.out, width - n)
            for k in range(n, width):
                x = x.fix_val(DT.out, k, isl.Val.zero(CTX))
        u = isl.UnionMap.from_map(x)
        out = u if out is None else out.union(u)
    assert out is not None
    return out


def violations(model: NestModel, schedule: isl.Schedule) -> isl.UnionMap:
    """The dependences the schedule does not keep forward (empty when legal)."""
    s = flat_map(schedule)
    before = s.lex_lt_union_map(s)  # pairs of instances in schedule order
    return model.deps.subtract(before)


def is_identity(model: NestModel, schedule: isl.Schedule) -> bool:
    """The new schedule orders every pair of instances as the original does
    (both restricted to the statements' domains: isl's schedule map is not)."""
    s = flat_map(schedule).intersect_domain(schedule.get_domain())
    o = model.original
    if s.is_equal(o):
        return True
    return s.lex_lt_union_map(s).is_equal(o.lex_lt_union_map(o))


def _innermost_prefix(m: isl.Map) -> isl.Map:
    """``m`` without its trailing constant dimensions (its last dimension is
    then the statement's innermost loop)."""
    rng = m.range()
    n = m.dim(DT.out)
    while n > 0:
        ls = isl.LocalSpace.from_space(rng.get_space())
        aff = isl.Aff.var_on_domain(ls, DT.set, n - 1)
        lo, hi = rng.min_val(aff), rng.max_val(aff)
        if not (lo.is_int() and hi.is_int() and lo.eq(hi)):
            break
        n -= 1
    return m.project_out(DT.out, n, m.dim(DT.out) - n)


def stride_counts(model: NestModel, schedule: isl.Schedule) -> tuple[float, float]:
    """The share of accesses unit-stride or invariant along the innermost
    loop, in the original order and in ``schedule``."""
    new = flat_map(schedule)
    orig = model.original
    shares = []
    for sched in (orig, new):
        maps: list[isl.Map] = []
        for st in model.statements:
            m = _restrict(sched, st.name)
            if m is not None:
                maps.append(_innermost_prefix(m))
        unit = inv = other = 0
        for m in maps:
            u, i, o = _stride_class(model, isl.UnionMap.from_map(m))
            unit, inv, other = unit + u, inv + i, other + o
        total = unit + inv + other
        shares.append((unit + inv) / total if total else 0.0)
    return shares[0], shares[1]


def strided_made_unit(model: NestModel, schedule: isl.Schedule, vector_unit: Sequence[str] = ()) -> list[str]:
    """The statements whose innermost loop walks some access with a stride
    (not unit, not invariant: a column of a row-major array) in the original
    order, and none in ``schedule`` (every access unit-stride or invariant
    along the new innermost loop, one unit-stride; for the statements of
    ``vector_unit``, a register tile's, along its vector loop, which the
    composition vectorizes around the reduction loop innermost): the loop
    LLVM could not vectorize, walking across cache lines, becomes one that
    is vectorized."""
    new = flat_map(schedule)
    out: list[str] = []
    for st in model.statements:
        kinds = []
        for sched in (model.original, new):
            m = _restrict(sched, st.name)
            kinds.append(_stride_class(model, isl.UnionMap.from_map(_innermost_prefix(m))) if m is not None else (0, 0, 0))
        (_, _, before_other), (after_unit, _, after_other) = kinds
        if before_other > 0 and (st.name in vector_unit or (after_other == 0 and after_unit > 0)):
            out.append(st.name)
    return out


def _unit_statements(model: NestModel, sched: isl.UnionMap) -> list[str]:
    """The statements of ``sched`` (one map each) whose every access is
    unit-stride or invariant along its last dimension, one unit-stride."""
    out: list[str] = []
    for st in model.statements:
        m = _restrict(sched, st.name)
        if m is None:
            continue
        unit, _, other = _stride_class(model, isl.UnionMap.from_map(m))
        if unit > 0 and other == 0:
            out.append(st.name)
    return out


def unit_stride_loop(model: NestModel, st: Statement) -> bool:
    """Every access of ``st`` is unit-stride or invariant along its innermost
    original loop (and one is unit-stride)."""
    m = _restrict(model.original, st.name)
    if m is None:
        return False
    unit, _, other = _stride_class(model, isl.UnionMap.from_map(_innermost_prefix(m)))
    return unit > 0 and other == 0
