"""MLIR's fusion cost model (``isFusionProfitable`` in ``LoopFusion.cpp``).

* The cost of a loop nest is its number of dynamic op instances: per loop,
  ``trip count * (ops in the body + cost of the child loops)``, loops and
  ``affine.if`` ops not counted (constant trip counts only).
* Fusing a slice at depth ``d`` adds ``slice cost`` to the body of the
  destination loop ``d`` (the slice's loops use their slice trip counts);
  when the slice is a single iteration, the loads the store would forward
  to are subtracted (as MLIR does, only those below the insertion loop).
* ``additional compute fraction = fused / (src + dst) - 1``.
* ``storage reduction = src write region / slice write region`` (bounding
  boxes in bytes; the slice region is per destination iteration).
* The chosen depth maximises the storage reduction among the depths whose
  additional compute is below the tolerance (30% by default), the deepest
  on ties; fusion is then profitable unless ``dst footprint + slice write
  region > src footprint + dst footprint``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import islpy as isl

from affine_lsp.ir.affine_ops import ForView
from affine_lsp.ir.core import Operation, Value
from affine_lsp.transforms.fusion_ir import READ_OPS, access_memref, element_size
from affine_lsp.transforms.fusion_isl import CAccess, dim_extents
from affine_lsp.transforms.fusion_slice import Slice, const_trip
from affine_lsp.transforms.profitability import percent

COMPUTE_TOLERANCE = 0.30


@dataclass
class NestStats:
    trip: dict[Operation, int]
    ops: dict[Operation, int]
    children: dict[Operation, list[Operation]]


def nest_stats(root: Operation) -> NestStats | None:
    """Per loop of the nest: trip count, op count, child loops (None if a
    trip count is not constant or a loop is nested in something else)."""
    st = NestStats({}, {}, {})
    for op in root.walk():
        if op.name != "affine.for":
            continue
        if op is not root:
            parent = op.parent_op
            if parent is None or parent.name != "affine.for":
                return None
            st.children.setdefault(parent, []).append(op)
        t = const_trip(op)
        if t is None:
            return None
        st.trip[op] = t
        body = ForView(op).body
        st.ops[op] = sum(1 for o in (body.operations if body else []) if o.name not in ("affine.for", "affine.if", "affine.yield"))
    return st


def cost(loop: Operation, st: NestStats, trips: dict[Operation, int] | None = None, extra: dict[Operation, int] | None = None) -> int:
    n = st.ops.get(loop, 0)
    for c in st.children.get(loop, []):
        n += cost(c, st, trips, extra)
    if extra is not None:
        n += extra.get(loop, 0)
    t = st.trip.get(loop, 0)
    if trips is not None and loop in trips:
        t = trips[loop]
    return t * n


def region_bytes(rel: isl.Map, memref: Value) -> int | None:
    """Size of the bounding box of the image of one input point (the whole
    range for a 0-dim input), in bytes."""
    ext = dim_extents(rel)
    es = element_size(memref.type)
    if ext is None or es is None:
        return None
    n = 1
    for e in ext:
        n *= e
    return n * es


def _range_map(s: isl.Set) -> isl.Map:
    return isl.Map.from_range(s)


def footprint(accs: list[CAccess]) -> int | None:
    """MLIR ``getMemoryFootprintBytes``: the sum over memrefs of the
    bounding box of every element the accesses touch."""
    by: dict[str, tuple[Value, isl.Set]] = {}
    for a in accs:
        r = a.relation.range()
        got = by.get(a.mid)
        by[a.mid] = (a.memref, r if got is None else got[1].union(r))
    total = 0
    for m, s in by.values():
        b = region_bytes(_range_map(s), m)
        if b is None:
            return None
        total += b
    return total


@dataclass
class DepthEval:
    depth: int
    fused_cost: int | None = None
    extra_fraction: float | None = None
    storage_reduction: float | None = None
    slice_write_bytes: int | None = None
    note: str = ""


@dataclass
class Profit:
    src_cost: int | None = None
    dst_cost: int | None = None
    src_write_bytes: int | None = None
    evals: dict[int, DepthEval] = field(default_factory=dict)
    src_mem: int | None = None
    dst_mem: int | None = None
    reason: str = ""
    skipped: bool = False  # profitability not evaluated
    multi_store: bool = False  # several producer stores: MLIR would not evaluate (fuses at the deepest legal depth)

    def best(self, max_depth: int, tolerance: float = COMPUTE_TOLERANCE) -> int | None:
        """MLIR's choice among the depths ``<= max_depth``."""
        best: int | None = None
        best_sr = 0.0
        for d in range(max_depth, 0, -1):
            ev = self.evals.get(d)
            if ev is None or ev.extra_fraction is None or ev.storage_reduction is None:
                continue
            if ev.storage_reduction > best_sr and ev.extra_fraction < tolerance:
                best, best_sr = d, ev.storage_reduction
        if best is None:
            return None
        ev = self.evals[best]
        if self.src_mem is None or self.dst_mem is None or ev.slice_write_bytes is None:
            return None
        if self.dst_mem + ev.slice_write_bytes > self.src_mem + self.dst_mem:
            return None
        return best

    def storage_pct(self, d: int) -> float | None:
        ev = self.evals.get(d)
        if ev is None or ev.slice_write_bytes is None or self.src_mem is None or self.dst_mem is None:
            return None
        fused = self.dst_mem + ev.slice_write_bytes
        return 100.0 * (1.0 - fused / (self.src_mem + self.dst_mem))


def _union_bytes(rels: list[isl.Map], memref: Value) -> int | None:
    u = rels[0]
    for r in rels[1:]:
        u = u.union(r)
    return region_bytes(u.coalesce(), memref)


def evaluate(
    src: Operation,
    dst: Operation,
    slices: dict[int, Slice],
    stores: list[CAccess],
    src_accs: list[CAccess],
    dst_accs: list[CAccess],
) -> Profit:
    """The cost model at every depth with a slice. ``stores`` are the
    producer stores of the intermediate memref (the sibling load for sibling
    fusion). MLIR skips the evaluation when there are several stores; we
    evaluate them together (their write regions' union) and record that
    MLIR would not have (``multi_store``)."""
    pr = Profit()
    sst, dstt = nest_stats(src), nest_stats(dst)
    if sst is None or dstt is None:
        pr.reason = "a loop has a non-constant trip count"
        pr.skipped = True
        return pr
    pr.src_cost = cost(src, sst)
    pr.dst_cost = cost(dst, dstt)
    pr.src_mem = footprint(src_accs)
    pr.dst_mem = footprint(dst_accs)
    stores = [w for w in stores if w.mid == stores[0].mid] if stores else []
    if not stores:
        pr.skipped = True
        pr.reason = "no producer store to evaluate"
        return pr
    pr.multi_store = len(stores) > 1
    if pr.multi_store:
        pr.reason = "several producer stores: evaluated on the union of their write regions (MLIR does not evaluate this case)"
    pr.src_write_bytes = _union_bytes([isl.Map.from_range(w.relation.range()) for w in stores], stores[0].memref)
    stored = {access_memref(a.op) for a in src_accs if a.is_write}
    for d, sl in sorted(slices.items()):
        ev = DepthEval(d)
        pr.evals[d] = ev
        if sl.empty:
            ev.note = sl.reason
            continue
        trips = {lp: lb.trip for lp, lb in sl.bounds.items() if lb.sliced and lb.trip is not None}
        if any(lb.sliced and lb.trip is None for lb in sl.bounds.values()):
            ev.note = "slice trip count unknown"
            continue
        slice_cost = cost(src, sst, trips)
        ins = sl.chain[-1]
        extra: dict[Operation, int] = {}
        if sl.iteration_count == 1:
            for m in stored:
                if m is None:
                    continue
                for u in m.uses:
                    if u.user.name not in READ_OPS or not ins.is_ancestor_of(u.user):
                        continue
                    par = u.user.parent_op
                    if par is not None and par.name == "affine.for":
                        extra[par] = extra.get(par, 0) - 1
        extra[ins] = slice_cost
        fused = cost(dst, dstt, None, extra)
        ev.fused_cost = fused
        total = pr.src_cost + pr.dst_cost
        ev.extra_fraction = fused / total - 1 if total else 0.0
        insts = [sl.instances.get(w.stmt) for w in stores]
        if any(i is None for i in insts):
            ev.note = "slice region unknown"
            continue
        sw = _union_bytes([i.apply_range(w.relation) for i, w in zip(insts, stores)], stores[0].memref)  # type: ignore[union-attr]
        ev.slice_write_bytes = sw
        if sw is None or sw == 0 or pr.src_write_bytes is None:
            ev.note = "slice write region unknown"
            continue
        ev.storage_reduction = pr.src_write_bytes / sw
    return pr


def report_table(pr: Profit, max_depth: int) -> list[str]:
    """Markdown rows, one per depth (deepest first), as the seed prints them."""
    rows = ["| depth | compute | storage | fused nest cost | slice write region |", "|---|---|---|---|---|"]
    for d in range(max_depth, 0, -1):
        ev = pr.evals.get(d)
        if ev is None:
            rows.append(f"| {d} | - | - | - | - |")
            continue
        sp = pr.storage_pct(d)
        frac = "-" if ev.extra_fraction is None else percent(ev.extra_fraction)
        sr = "-" if sp is None else percent(-sp / 100.0)
        fc = "-" if ev.fused_cost is None else str(ev.fused_cost)
        sw = "-" if ev.slice_write_bytes is None else f"{ev.slice_write_bytes} B"
        note = f" ({ev.note})" if ev.note else ""
        rows.append(f"| {d} | {frac} | {sr} | {fc} | {sw}{note} |")
    return rows
