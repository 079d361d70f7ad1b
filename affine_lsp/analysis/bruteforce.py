"""Brute-force enumeration of access instances: the reference for exactness.

Independent of isl and of :mod:`.polyhedral`: it *executes* the loop nest
(evaluating bound maps, steps, ``affine.if`` conditions and subscripts with
:meth:`AffineMap.evaluate`) and lists every instance of an access with the
elements it touches. :func:`brute_dependence` then enumerates all instance
pairs to give the exact answer of a dependence query, which the tests
compare with the engine's (and with MLIR's expected remarks, to prove that
where they differ ours is the exact one).

Symbols (function arguments, top-level values, dynamic memref sizes) must
be bound by name (``{"%N": 5}``); the domain must be finite.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TypeVar

from affine_lsp.analysis.polyhedral import access_roles, scope_of
from affine_lsp.ir.affine_expr import AffineDimExpr
from affine_lsp.ir.affine_ops import ForView, IfView, ParallelView
from affine_lsp.ir.attributes import AffineMapAttr, ArrayAttr, BoolAttr, IntegerAttr
from affine_lsp.ir.core import Operation, OpResult, Value
from affine_lsp.ir.types import MemRefType, VectorType

_T = TypeVar("_T")


class BruteForceError(Exception):
    """The access cannot be enumerated (unbound symbol, too many instances...)."""


@dataclass(frozen=True)
class Instance:
    ivs: tuple[int, ...]
    elements: frozenset[tuple[int, ...]]


def _eval(v: Value, env: dict[Value, int], symbols: Mapping[str, int], depth: int = 0) -> int:
    if depth > 200:
        raise BruteForceError("definition chain too deep")
    if v in env:
        return env[v]
    owner = v.defining_op if isinstance(v, OpResult) else None
    if owner is not None:
        n = owner.name
        ops = owner.operands
        if n in ("arith.constant", "index.constant"):
            a = owner.attributes.get("value")
            if isinstance(a, IntegerAttr) and not isinstance(a, BoolAttr):
                return a.value
        elif n in ("affine.apply", "affine.min", "affine.max"):
            a = owner.attributes.get("map")
            if isinstance(a, AffineMapAttr):
                vals = [_eval(o, env, symbols, depth + 1) for o in ops]
                res = a.map.evaluate(vals[: a.map.num_dims], vals[a.map.num_dims :])
                if n == "affine.apply":
                    return res[0]
                return min(res) if n == "affine.min" else max(res)
        elif n == "memref.dim" and len(ops) == 2:
            t = ops[0].type
            r = _eval(ops[1], env, symbols, depth + 1)
            if isinstance(t, MemRefType) and 0 <= r < len(t.shape) and t.shape[r] is not None:
                return int(t.shape[r])  # type: ignore[arg-type]
        elif n in ("arith.addi", "arith.subi", "arith.muli") and len(ops) == 2:
            x, y = _eval(ops[0], env, symbols, depth + 1), _eval(ops[1], env, symbols, depth + 1)
            return x + y if n == "arith.addi" else x - y if n == "arith.subi" else x * y
        elif n in ("arith.index_cast", "arith.index_castui") and len(ops) == 1:
            return _eval(ops[0], env, symbols, depth + 1)
    if v.name in symbols:
        return symbols[v.name]
    raise BruteForceError(f"no value for {v.name}")


def _chain(op: Operation) -> list[tuple[Operation, int]]:
    """(enclosing op, index of the region holding ``op``), outermost first."""
    scope = scope_of(op)
    out: list[tuple[Operation, int]] = []
    cur = op
    while True:
        blk = cur.parent
        if blk is None or blk.parent is None:
            break
        parent = blk.parent.parent
        if parent is None or parent is scope:
            break
        ridx = next(i for i, r in enumerate(parent.regions) if r is blk.parent)
        out.append((parent, ridx))
        cur = parent
    out.reverse()
    return out


def _elements(op: Operation, role: str, env: dict[Value, int], symbols: Mapping[str, int]) -> frozenset[tuple[int, ...]]:
    n = op.name
    ops = list(op.operands)
    if n == "affine.dma_start":
        grp = op.segment(0) if role == "dma_src" else op.segment(1)
        key = "src_map" if role == "dma_src" else "dst_map"
        m = op.attributes[key].map  # type: ignore[attr-defined]
        memref, idx = grp[0], grp[1:]
        count = _eval(op.segment(3)[0], env, symbols)
        vals = [_eval(o, env, symbols) for o in idx]
        base = m.evaluate(vals[: m.num_dims], vals[m.num_dims :])
        shape = list(memref.type.shape)  # type: ignore[union-attr]
        strides = [1] * len(shape)
        for k in range(len(shape) - 2, -1, -1):
            strides[k] = strides[k + 1] * shape[k + 1]
        lin = sum(b * s for b, s in zip(base, strides))
        out = []
        for q in range(lin, lin + count):
            e = []
            rest = q
            for k in range(len(shape)):
                e.append(rest // strides[k])
                rest -= e[-1] * strides[k]
            out.append(tuple(e))
        return frozenset(out)
    if n in ("vector.transfer_read", "vector.transfer_write"):
        return _transfer_elements(op, env, symbols)
    if n in ("affine.load", "affine.vector_load", "affine.prefetch"):
        idx = ops[1:]
    else:
        idx = ops[2:]
    m = op.attributes["map"].map  # type: ignore[attr-defined]
    vals = [_eval(o, env, symbols) for o in idx]
    base = tuple(m.evaluate(vals[: m.num_dims], vals[m.num_dims :]))
    shape: list[int] = []
    if n == "affine.vector_load" and op.results and isinstance(op.results[0].type, VectorType):
        shape = list(op.results[0].type.shape)
    elif n == "affine.vector_store" and isinstance(ops[0].type, VectorType):
        shape = list(ops[0].type.shape)
    elems = [base]
    first = len(base) - len(shape)
    for k, s in enumerate(shape):
        elems = [e[: first + k] + (e[first + k] + t,) + e[first + k + 1 :] for e in elems for t in range(s)]
    return frozenset(elems)


def _transfer_elements(op: Operation, env: dict[Value, int], symbols: Mapping[str, int]) -> frozenset[tuple[int, ...]]:
    """The elements a transfer touches, vector element by vector element:
    element ``v`` of the vector is the memref's element at the indices plus
    ``v[r]`` along the dimension of ``permutation_map``'s result ``r`` (none
    for a broadcast result), left out when it lies outside the memref along
    a dimension that is not ``in_bounds``; a mask is not evaluated (every
    element counted)."""
    w = op.name == "vector.transfer_write"
    memref = op.operands[1 if w else 0]
    vt = op.operands[0].type if w else op.results[0].type
    mt = memref.type
    if not isinstance(mt, MemRefType) or not isinstance(vt, VectorType):
        raise BruteForceError("a transfer on a tensor touches no memory")
    rank = len(mt.shape)
    idx = [_eval(o, env, symbols) for o in op.operands[(2 if w else 1) : (2 if w else 1) + rank]]
    a = op.attributes.get("permutation_map")
    pm = a.map if isinstance(a, AffineMapAttr) else None
    vshape = list(vt.shape)
    dims = [e.position if isinstance(e, AffineDimExpr) else None for e in pm.results] if pm is not None else list(range(rank - len(vshape), rank))
    ib = op.attributes.get("in_bounds")
    inb = [isinstance(b, BoolAttr) and b.value for b in ib.elements] if isinstance(ib, ArrayAttr) else [False] * len(vshape)
    out: set[tuple[int, ...]] = set()
    vecs: list[tuple[int, ...]] = [()]
    for s in vshape:
        vecs = [v + (t,) for v in vecs for t in range(s)]
    for v in vecs:
        e = list(idx)
        inside = True
        for r, d in enumerate(dims):
            if d is None:
                continue
            e[d] += v[r]
            size = mt.shape[d]
            if not inb[r] and size is not None and not 0 <= e[d] < size:
                inside = False
        if inside:
            out.add(tuple(e))
    return frozenset(out)


def instances(op: Operation, role: str | None = None, symbols: Mapping[str, int] | None = None, limit: int = 200_000) -> list[Instance]:
    """Every execution of the access of ``op`` (first role unless ``role``)."""
    syms = dict(symbols or {})
    roles = access_roles(op)
    if not roles:
        raise BruteForceError(f"{op.name} is not an affine access")
    role = role or roles[0][0]
    chain = _chain(op)
    out: list[Instance] = []
    ivs_order: list[Value] = []

    def rec(level: int, env: dict[Value, int], ivvals: tuple[int, ...]) -> None:
        if len(out) > limit:
            raise BruteForceError("too many instances")
        if level == len(chain):
            out.append(Instance(ivvals, _elements(op, role, env, syms)))
            return
        parent, ridx = chain[level]
        if parent.name == "affine.for":
            v = ForView(parent)
            lo, up = v.lower, v.upper
            lvals = [_eval(o, env, syms) for o in lo.operands]
            uvals = [_eval(o, env, syms) for o in up.operands]
            lb = max(lo.map.evaluate(lvals[: lo.map.num_dims], lvals[lo.map.num_dims :]))
            ub = min(up.map.evaluate(uvals[: up.map.num_dims], uvals[up.map.num_dims :]))
            iv = v.iv
            assert iv is not None
            for x in range(lb, ub, v.step):
                env[iv] = x
                rec(level + 1, env, (*ivvals, x))
            env.pop(iv, None)
        elif parent.name == "affine.parallel":
            p = ParallelView(parent)
            lops = [_eval(o, env, syms) for o in p.lower_operands]
            uops = [_eval(o, env, syms) for o in p.upper_operands]
            los = p.group_bounds(False)
            ups = p.group_bounds(True)
            steps = p.steps
            ivs = p.ivs

            def prec(k: int, vals: tuple[int, ...]) -> None:
                if k == len(ivs):
                    rec(level + 1, env, (*ivvals, *vals))
                    return
                lm, um = los[k], ups[k]
                lb = max(lm.evaluate(lops[: lm.num_dims], lops[lm.num_dims :]))
                ub = min(um.evaluate(uops[: um.num_dims], uops[um.num_dims :]))
                for x in range(lb, ub, steps[k] if k < len(steps) else 1):
                    env[ivs[k]] = x
                    prec(k + 1, (*vals, x))
                env.pop(ivs[k], None)

            prec(0, ())
        elif parent.name == "affine.if":
            iv_ = IfView(parent)
            cond = iv_.condition
            assert cond is not None
            vals = [_eval(o, env, syms) for o in iv_.operands]
            holds = cond.contains(vals[: cond.num_dims], vals[cond.num_dims :])
            if holds == (ridx == 0):
                rec(level + 1, env, ivvals)
        else:
            rec(level + 1, env, ivvals)

    del ivs_order
    rec(0, {}, ())
    return out


def _order_path(op: Operation) -> list[tuple[object, int]]:
    scope = scope_of(op)
    out: list[tuple[object, int]] = []
    cur = op
    while cur is not scope and cur.parent is not None:
        blk = cur.parent
        out.append((blk, next(i for i, o in enumerate(blk.operations) if o is cur)))
        if blk.parent is None or blk.parent.parent is None:
            break
        cur = blk.parent.parent
    out.reverse()
    return out


def textually_before(a: Operation, b: Operation) -> bool:
    """``a``'s ancestor precedes ``b``'s in their closest common block."""
    pa, pb = _order_path(a), _order_path(b)
    common = -1
    for i in range(min(len(pa), len(pb))):
        if pa[i][0] is pb[i][0]:
            common = i
        else:
            break
    if common < 0:
        return False
    return pa[common][1] < pb[common][1]


def loop_ivs(op: Operation) -> list[Value]:
    out: list[Value] = []
    for parent, _ in _chain(op):
        if parent.name == "affine.for":
            iv = ForView(parent).iv
            if iv is not None:
                out.append(iv)
        elif parent.name == "affine.parallel":
            out.extend(ParallelView(parent).ivs)
    return out


def memref_of(op: Operation, role: str) -> Value | None:
    n = op.name
    if n == "affine.dma_start":
        grp = op.segment(0) if role == "dma_src" else op.segment(1)
        return grp[0] if grp else None
    if n in ("affine.store", "affine.vector_store", "vector.transfer_write"):
        return op.operands[1] if len(op.operands) > 1 else None
    return op.operands[0] if op.operands else None


def _cached(cache: dict, kind: str, op: Operation, role: str, make: Callable[[], _T]) -> _T:
    key = (kind, id(op), role)
    got = cache.get(key)
    if got is None:
        got = make()
        cache[key] = got
    return got


def _dependent_pairs(
    src: Operation,
    dst: Operation,
    depth: int,
    symbols: Mapping[str, int] | None,
    src_role: str | None,
    dst_role: str | None,
    cache: dict | None,
    limit: int,
) -> tuple[int, Iterator[tuple[tuple[int, ...], tuple[int, ...]]]]:
    """``(number of common loops, iterator over dependent (src ivs, dst ivs))``."""
    rs = dict(access_roles(src))
    rd = dict(access_roles(dst))
    src_role = src_role or next(iter(rs))
    dst_role = dst_role or next(iter(rd))
    a_ivs, b_ivs = loop_ivs(src), loop_ivs(dst)
    c = 0
    for x, y in zip(a_ivs, b_ivs):
        if x is not y:
            break
        c += 1
    if not rs[src_role] and not rd[dst_role]:
        return c, iter(())
    if memref_of(src, src_role) is not memref_of(dst, dst_role):
        return c, iter(())
    if depth == c + 1 and (src is dst or not textually_before(src, dst)):
        return c, iter(())
    if cache is None:
        cache = {}
    si = _cached(cache, "inst", src, src_role, lambda: instances(src, src_role, symbols, limit))
    di = _cached(cache, "inst", dst, dst_role, lambda: instances(dst, dst_role, symbols, limit))

    def index() -> dict[tuple[int, ...], list[tuple[int, ...]]]:
        out: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        for inst in di:
            for e in inst.elements:
                out.setdefault(e, []).append(inst.ivs)
        return out

    by_elem = _cached(cache, "index", dst, dst_role, index)

    def gen() -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
        for s in si:
            cands: set[tuple[int, ...]] = set()
            for e in s.elements:
                cands.update(by_elem.get(e, ()))
            for d in cands:
                if depth <= c:
                    if s.ivs[: depth - 1] != d[: depth - 1] or not d[depth - 1] > s.ivs[depth - 1]:
                        continue
                elif s.ivs[:c] != d[:c]:
                    continue
                yield s.ivs, d

    return c, gen()


def brute_dependence(
    src: Operation,
    dst: Operation,
    depth: int,
    symbols: Mapping[str, int] | None = None,
    src_role: str | None = None,
    dst_role: str | None = None,
    cache: dict | None = None,
    limit: int = 200_000,
) -> list[tuple[int, int]] | None:
    """None when no instance pair depends at ``depth``; otherwise the exact
    ``(min, max)`` of ``dst IV - src IV`` for every common loop. ``cache``
    (any dict) memoises the enumerations across calls with the same symbols."""
    c, pairs = _dependent_pairs(src, dst, depth, symbols, src_role, dst_role, cache, limit)
    lo: list[int | None] = [None] * c
    hi: list[int | None] = [None] * c
    found = False
    for s, d in pairs:
        found = True
        for k in range(c):
            diff = d[k] - s[k]
            if lo[k] is None or diff < lo[k]:  # type: ignore[operator]
                lo[k] = diff
            if hi[k] is None or diff > hi[k]:  # type: ignore[operator]
                hi[k] = diff
    if not found:
        return None
    return [(lo[k], hi[k]) for k in range(c)]  # type: ignore[misc]


def brute_distances(
    src: Operation,
    dst: Operation,
    depth: int,
    symbols: Mapping[str, int] | None = None,
    src_role: str | None = None,
    dst_role: str | None = None,
) -> set[tuple[int, ...]]:
    """The exact set of distance vectors (``dst IVs - src IVs`` over the common loops)."""
    c, pairs = _dependent_pairs(src, dst, depth, symbols, src_role, dst_role, None, 200_000)
    return {tuple(d[k] - s[k] for k in range(c)) for s, d in pairs}


def brute_pairs(
    src: Operation,
    dst: Operation,
    depth: int,
    symbols: Mapping[str, int] | None = None,
    src_role: str | None = None,
    dst_role: str | None = None,
) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The exact set of dependent instance pairs ``(src IVs, dst IVs)`` at ``depth``."""
    _, pairs = _dependent_pairs(src, dst, depth, symbols, src_role, dst_role, None, 200_000)
    return set(pairs)
