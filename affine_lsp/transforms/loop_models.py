"""What tiling, interchange and unroll-and-jam are predicted to do to speed
(:class:`Prediction`), from footprints and reuse.

Every access under a nest is read as one linear form per subscript of the
loop IVs (:func:`forms_under`); values that are not IVs of the nest count
as constants. From the forms:

* **footprint** (:func:`footprint_bytes`): per memref, the bounding box of
  the elements the accesses touch when each loop spans a given number of
  iterations (per subscript ``1 + sum |coefficient| * (span - 1)``, the
  largest over the memref's accesses, clipped to the dimension), times the
  element size. Loops whose trip count is not constant: no prediction.
* **tiling**: the nest's footprint against the L2 cache
  (:mod:`.machine`): when it fits in half of it (the other half for
  conflicts and for what is not reused), tiling has nothing to keep in cache
  (not profitable); otherwise the tile's footprint (the band loops spanning
  the tile sizes, the inner loops their whole trip counts) says which cache
  level holds a tile. :func:`suggest_sizes` picks square tile sizes whose
  footprint fits in the L1 data cache.
* **interchange**: the number of accesses that are unit-stride or invariant
  along the innermost loop (:func:`.interchange.locality`), before and after.
* **unroll-and-jam**: the loads the ``factor`` copies of the inner loops'
  body share (same memref, same linear part, same constants once the copy's
  offset is added): each shared load is one register reused instead of a
  load; or loads the copies make to adjacent elements of one cache line
  (the unrolled loop's IV unit-stride in the last subscript, the inner
  loop's IV not there). Neither: not profitable.

No model here gives a speedup figure: they count bytes and loads, and have
no basis for a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from affine_lsp.ir.affine_expr import linearize
from affine_lsp.ir.affine_ops import Access, ForView, access_of
from affine_lsp.ir.core import Operation, Value
from affine_lsp.ir.types import MemRefType
from affine_lsp.transforms.band import band_ivs
from affine_lsp.transforms.fusion_ir import element_size
from affine_lsp.transforms.machine import caches, human_bytes
from affine_lsp.transforms.profitability import Prediction


@dataclass(frozen=True)
class Form:
    """One access; per subscript ``(coefficients by value, constant)`` or
    None when the subscript is not linear."""

    access: Access
    rows: tuple[tuple[tuple[tuple[Value, int], ...], int] | None, ...]

    def coefficient(self, row: int, v: Value) -> int:
        r = self.rows[row]
        if r is None:
            return 0
        return sum(c for u, c in r[0] if u is v)


def forms_under(root: Operation) -> list[Form]:
    out: list[Form] = []
    for op in root.walk():
        acc = access_of(op)
        if acc is None:
            continue
        rows: list[tuple[tuple[tuple[Value, int], ...], int] | None] = []
        for e in acc.map.results:
            lin = linearize(e, acc.map.num_dims)
            if lin is None:
                rows.append(None)
                continue
            coeffs, const = lin
            rows.append((tuple((acc.indices[col], c) for col, c in sorted(coeffs.items()) if c and col < len(acc.indices)), const))
        out.append(Form(acc, tuple(rows)))
    return out


def loop_spans(root: Operation) -> dict[Value, tuple[int, int]] | None:
    """Per loop IV under ``root`` (itself included): (trip count, step);
    None when a trip count is not constant."""
    out: dict[Value, tuple[int, int]] = {}
    for op in root.walk():
        if op.name != "affine.for":
            continue
        fv = ForView(op)
        t = fv.constant_trip_count() if fv.has_bounds else None
        iv = fv.iv
        if t is None or iv is None:
            return None
        out[iv] = (t, fv.step)
    return out


def footprint_bytes(forms: Sequence[Form], iterations: dict[Value, tuple[int, int]]) -> int | None:
    """Bytes of the bounding boxes the accesses touch when each IV of
    ``iterations`` runs ``count`` iterations of its ``step`` (the others are
    fixed). None when an element size is unknown."""
    boxes: dict[int, tuple[Value, list[int]]] = {}
    for f in forms:
        m = f.access.memref
        t = m.type
        shape = list(t.shape) if isinstance(t, MemRefType) else []
        ext: list[int] = []
        for k, r in enumerate(f.rows):
            dim = shape[k] if k < len(shape) else None
            if r is None:
                n = dim if isinstance(dim, int) else 1
            else:
                n = 1
                for v, c in r[0]:
                    if v in iterations:
                        count, step = iterations[v]
                        n += abs(c) * step * max(0, count - 1)
                if isinstance(dim, int):
                    n = min(n, dim)
            ext.append(n)
        got = boxes.get(id(m))
        if got is None:
            boxes[id(m)] = (m, ext)
        else:
            got[1][:] = [max(a, b) for a, b in zip(got[1], ext)]
    total = 0
    for m, ext in boxes.values():
        es = element_size(m.type)
        if es is None:
            return None
        n = es
        for e in ext:
            n *= e
        total += n
    return total


def memref_bytes(forms: Sequence[Form]) -> int | None:
    """Bytes of the memrefs the accesses use (None: a shape or an element
    size is not static)."""
    seen: dict[int, Value] = {id(f.access.memref): f.access.memref for f in forms}
    total = 0
    for m in seen.values():
        t = m.type
        es = element_size(t)
        n = t.num_elements() if isinstance(t, MemRefType) else None
        if es is None or n is None:
            return None
        total += es * n
    return total


# ------------------------------------------------------------------ tiling


def _tile_iterations(band: Sequence[Operation], sizes: Sequence[int], spans: dict[Value, tuple[int, int]]) -> dict[Value, tuple[int, int]]:
    its = dict(spans)
    for lp, s in zip(band, sizes):
        iv = ForView(lp).iv
        if iv is not None and iv in its:
            trip, step = its[iv]
            its[iv] = (min(trip, s), step)
    return its


def tile_prediction(band: Sequence[Operation], sizes: Sequence[int]) -> Prediction | None:
    """The predicted effect of tiling ``band`` by ``sizes`` (None: no
    prediction, a trip count is not constant)."""
    root = band[0]
    if len(band) == 1:
        return Prediction(
            False,
            "one loop: strip-mining keeps the execution order",
            "Tiling a single loop only strip-mines it: every access happens in the same order, no reuse is brought closer.",
        )
    spans = loop_spans(root)
    forms = forms_under(root)
    c = caches()
    if spans is None:
        # symbolic trip counts: the memrefs' sizes still bound the data
        bound = memref_bytes(forms)
        if bound is not None and bound <= c.l2 // 2:
            return Prediction(
                False,
                f"the nest's data (at most {human_bytes(bound)}) already fits in L2: nothing to keep in cache",
                f"The memrefs the nest accesses hold {human_bytes(bound)}, at most half the L2 cache ({human_bytes(c.l2)}, {c.source}): tiling only adds loop overhead.",
            )
        return None
    whole = footprint_bytes(forms, spans)
    tile = footprint_bytes(forms, _tile_iterations(band, sizes, spans))
    if whole is None or tile is None:
        return None
    dims = "x".join(str(s) for s in sizes)
    if whole <= c.l2 // 2:
        return Prediction(
            False,
            f"the nest's data ({human_bytes(whole)}) already fits in L2: nothing to keep in cache",
            f"The nest touches {human_bytes(whole)}, at most half the L2 cache ({human_bytes(c.l2)}, {c.source}): tiling only adds loop overhead.",
        )
    lvl = c.level_holding(tile)
    if lvl is None or lvl == 3:
        where = "L3" if lvl == 3 else "no cache"
        return Prediction(
            False,
            f"a {dims} tile touches {human_bytes(tile)}: more than L2, its reuse is not kept",
            f"A {dims} tile touches {human_bytes(tile)} (fits in {where}); the L2 cache holds {human_bytes(c.l2)} ({c.source}). Smaller tiles: {'x'.join(map(str, suggest_sizes(band) or []))}.",
        )
    return Prediction(
        True,
        f"a {dims} tile touches {human_bytes(tile)} (fits in L{lvl}) of the nest's {human_bytes(whole)}",
        f"The nest touches {human_bytes(whole)}, more than the L2 cache ({human_bytes(c.l2)}, {c.source}); a {dims} tile touches {human_bytes(tile)}, which L{lvl} holds while the tile is reused.",
    )


def suggest_sizes(band: Sequence[Operation], candidates: Sequence[int] = (256, 128, 64, 32, 16, 8)) -> list[int] | None:
    """The largest square tile sizes whose footprint fits in the L1 data
    cache; None when a trip count is not constant."""
    spans = loop_spans(band[0])
    if spans is None:
        return None
    forms = forms_under(band[0])
    budget = caches().l1
    for s in candidates:
        fp = footprint_bytes(forms, _tile_iterations(band, [s] * len(band), spans))
        if fp is not None and fp <= budget:
            return [s] * len(band)
    return [candidates[-1]] * len(band)


# ------------------------------------------------------------- interchange


def interchange_prediction(band: Sequence[Operation], order: Sequence[int]) -> Prediction:

    loc = locality(band)
    n = len(band)
    before, after = loc.good[n - 1], loc.good[order[-1]]
    ivs = [ForView(lp).iv for lp in band]
    name = ivs[order[-1]].name if ivs[order[-1]] is not None else "?"  # type: ignore[union-attr]
    what = f"{after}/{loc.total} accesses unit-stride or invariant along {name} innermost (was {before}/{loc.total})"
    if after > before:
        return Prediction(
            True,
            what,
            f"Innermost, {name} makes {after} of the {loc.total} accesses unit-stride or invariant instead of {before}: more of each cache line is used.",
        )
    if after == before:
        return Prediction(False, f"no locality gain: {what}", "The new innermost loop makes as many accesses unit-stride or invariant as the old one.")
    return Prediction(False, f"worse locality: {what}", "The new innermost loop makes fewer accesses unit-stride or invariant: more cache lines per iteration.")


# ---------------------------------------------------------- unroll and jam


def shared_loads(loop: Operation, factor: int) -> tuple[int, int]:
    """``(loads shared between the copies, loads)`` per iteration of the
    jammed inner loops once ``loop`` is unrolled by ``factor`` (the loads
    counted once per distinct element of a copy: a load repeated within one
    copy is no reuse unroll-and-jam creates)."""
    fv = ForView(loop)
    iv, step = fv.iv, fv.step
    one: set[tuple] = set()  # distinct elements loaded by one copy
    all_copies: set[tuple] = set()
    body = fv.body
    inner = [op for op in (body.operations if body else []) if op.name == "affine.for"]
    for nest in inner:
        for f in forms_under(nest):
            if f.access.is_write:
                continue
            if any(r is None for r in f.rows):
                one.add(("nl", id(f), 0))
                all_copies.update(("nl", id(f), u) for u in range(factor))
                continue
            linear = tuple(tuple((id(v), c) for v, c in r[0]) for r in f.rows if r is not None)
            for u in range(factor):
                consts = tuple(r[1] + f.coefficient(k, iv) * u * step for k, r in enumerate(f.rows) if r is not None)  # type: ignore[arg-type]
                key = (id(f.access.memref), linear, consts)
                all_copies.add(key)
                if u == 0:
                    one.add(key)
    total = factor * len(one)
    return total - len(all_copies), total


def invariant_shared_loads(loop: Operation, factor: int) -> int:
    """The loads of :func:`shared_loads` that every copy makes of the same
    element (no subscript moves with ``loop``: ``B[k][j]`` of a matrix
    product unrolled along ``i``), counted as in :func:`shared_loads`
    (``factor - 1`` per distinct element). A stencil's copies share
    neighbours instead (``A[i+1][j]`` of one copy is ``A[i][j]`` of the
    next): those loads hit L1 anyway, and LLVM's vector loop keeps them.
    A load of a memref that the jammed loops also store to is shared only
    when each such store's subscripts differ from the load's by nonzero
    constants (LLVM then proves them apart: seidel-2d's neighbours);
    otherwise a copy's store may overwrite the element (floyd-warshall's
    ``path[k][j]`` beside the store to ``path[i][j]``, ``i`` possibly ``k``),
    so LLVM loads it again after every store, or the copies accumulate into
    that very element one after the other (trmm's ``B[i][j]`` with the
    reduction loop unrolled), a chain rather than a reuse."""
    fv = ForView(loop)
    iv = fv.iv
    body = fv.body
    seen: set[tuple] = set()
    for nest in [op for op in (body.operations if body else []) if op.name == "affine.for"]:
        forms = list(forms_under(nest))
        stores: dict[int, list[Form]] = {}
        for f in forms:
            if f.access.is_write:
                stores.setdefault(id(f.access.memref), []).append(f)
        for f in forms:
            if f.access.is_write or any(r is None for r in f.rows):
                continue
            if any(not _constant_apart(f, st) or f.rows == st.rows for st in stores.get(id(f.access.memref), [])):
                continue  # may be overwritten by a copy, or is the element the copies accumulate into (a chain, not a reuse)
            if any(f.coefficient(k, iv) for k in range(len(f.rows))):  # type: ignore[arg-type]
                continue
            seen.add((id(f.access.memref), tuple((tuple((id(v), c) for v, c in r[0]), r[1]) for r in f.rows if r is not None)))
    return (factor - 1) * len(seen)


def _constant_apart(a: Form, b: Form) -> bool:
    """The two accesses' subscripts differ by constants only (the same
    terms in every row)."""
    if len(a.rows) != len(b.rows):
        return False
    for ra, rb in zip(a.rows, b.rows, strict=True):
        if ra is None or rb is None:
            return False
        if sorted((id(v), c) for v, c in ra[0]) != sorted((id(v), c) for v, c in rb[0]):
            return False
    return True


def line_sharing_loads(loop: Operation) -> int:
    """Loads of the jammed inner loops that walk across cache lines (their
    innermost loop's IV is not in the last subscript) while ``loop``'s IV
    is, with unit stride: the unrolled copies read adjacent elements, one
    cache line serving several copies."""
    fv = ForView(loop)
    iv, step = fv.iv, fv.step
    body = fv.body
    n = 0
    for nest in [op for op in (body.operations if body else []) if op.name == "affine.for"]:
        for f in forms_under(nest):
            if f.access.is_write or not f.rows or any(r is None for r in f.rows):
                continue
            last = len(f.rows) - 1
            if abs(f.coefficient(last, iv) * step) != 1 or any(f.coefficient(k, iv) for k in range(last)):  # type: ignore[arg-type]
                continue
            inner = f.access.op.parent_op
            inner_iv = ForView(inner).iv if inner is not None and inner.name == "affine.for" else None
            if inner_iv is not None and inner_iv is not iv and f.coefficient(last, inner_iv) == 0:
                n += 1
    return n


SHARED_LOAD_GAIN = 2.0
"""Unroll-and-jam's predicted speedup is ``1 + SHARED_LOAD_GAIN x`` the share
of loads served from registers because every copy loads the same element
(:func:`invariant_shared_loads`; a stencil's shifted neighbours do not
count). The figures it is set from: docs/performance.md, "Figures behind
the code"."""

LINE_SHARING_SPEEDUP = 1.15
"""Unroll-and-jam's predicted speedup when the copies share cache lines only
(docs/performance.md)."""


def unroll_jam_prediction(loop: Operation, factor: int) -> Prediction:
    saved, total = shared_loads(loop, factor)
    if total == 0:
        return Prediction(False, "no load in the inner loops: nothing to reuse", "The jammed inner loops load nothing: the copies share no register.")
    lines = line_sharing_loads(loop)
    if saved == 0 and lines:
        return Prediction(
            True,
            f"the {factor} copies read adjacent elements: {lines} load(s) share cache lines",
            f"{lines} load(s) of the inner loops walk across cache lines while the unrolled loop walks along them: the {factor} copies read the same lines.",
            speedup=LINE_SHARING_SPEEDUP,
        )
    if saved == 0:
        return Prediction(
            False,
            "no load is shared between the copies: no register reuse",
            f"The {factor} copies of the inner loops' body load {total} different elements per iteration.",
        )
    return Prediction(
        True,
        f"the {factor} copies share {saved} of {total} loads (register reuse)",
        f"Per iteration of the jammed inner loops, {total} loads become {total - saved} distinct elements: {saved} loads are served from registers.",
        speedup=1.0 + SHARED_LOAD_GAIN * min(saved, invariant_shared_loads(loop, factor)) / total,
    )


@dataclass
class Locality:
    """Per band loop, how many accesses of the body are unit-stride or
    invariant along it (out of ``total``)."""

    good: list[int]
    total: int


def locality(band: Sequence[Operation]) -> Locality:
    ivs = band_ivs(band)
    good = [0] * len(band)
    total = 0
    for op in band[-1].walk():
        acc = access_of(op)
        if acc is None:
            continue
        total += 1
        m = acc.map
        forms = [linearize(e, m.num_dims) for e in m.results]
        for k, iv in enumerate(ivs):
            coeffs = []
            ok = True
            for f in forms:
                if f is None:
                    if any(v is iv for v in acc.indices):
                        ok = False
                    coeffs.append(0)
                    continue
                coeffs.append(sum(c for pos, c in f[0].items() if acc.indices[pos] is iv))
            if not ok:
                continue
            if all(c == 0 for c in coeffs) or (all(c == 0 for c in coeffs[:-1]) and abs(coeffs[-1]) == 1):
                good[k] += 1
    return Locality(good, total)
