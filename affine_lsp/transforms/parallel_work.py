"""The work a parallel loop gives its threads: whether an ``affine.for`` is
worth an ``affine.parallel``.

Each entry of a parallel loop forks its iterations onto the threads and joins
them at its end; that costs about the same whatever the loop does, so a loop
pays only when one entry holds enough work to share: its trip count times the
ops of one iteration (inner loops counted with their trip counts). A loop
with fewer than :data:`MIN_TRIPS` iterations has nothing to share (a loop
inside it may); a loop with less than :data:`MIN_WORK_PER_FORK` ops per
entry is left sequential, and so is every loop inside it (each has less work
per entry).

Trip counts are the loops' constant ones; a bound that depends on an outer
loop's induction variable is evaluated at the middle of that loop's range
(the average iteration of a triangular nest); a bound the estimate cannot
evaluate counts :data:`UNKNOWN_TRIPS` iterations.
"""

from __future__ import annotations

from affine_lsp.ir.affine_expr import AffineMap
from affine_lsp.ir.affine_ops import ForView, ParallelView
from affine_lsp.ir.attributes import AffineMapAttr, IntegerAttr
from affine_lsp.ir.core import Block, BlockArgument, Operation, Value

MIN_TRIPS = 2
MIN_WORK_PER_FORK = 1 << 18
"""Ops per entry of a parallel loop below which it is left sequential: a
fork and a join of the OpenMP runtime cost microseconds, thousands of ops,
and much more when the machine is busy (a thread that is not running holds
up the join)."""

UNKNOWN_TRIPS = 64

_FREE = frozenset({"affine.yield", "arith.constant", "scf.yield"})


def _value(v: Value, depth: int = 0) -> float | None:
    """An estimate of ``v``: a constant, an outer loop's middle iteration,
    an affine.apply of such values; None when unknown."""
    if depth > 32:
        return None
    if isinstance(v, BlockArgument):
        block = v.parent_block
        op = block.parent_op if block is not None else None
        if op is not None and op.name == "affine.for" and ForView(op).iv is v:
            f = ForView(op)
            lo = _bound(f.lower.map, f.lower.operands, max, depth + 1)
            hi = _bound(f.upper.map, f.upper.operands, min, depth + 1)
            return None if lo is None or hi is None else (lo + max(lo, hi - 1)) / 2
        return None
    op = v.defining_op
    if op is None:
        return None
    if op.name == "arith.constant":
        a = op.attributes.get("value")
        return float(a.value) if isinstance(a, IntegerAttr) else None
    if op.name == "affine.apply":
        m = op.attributes.get("map")
        return _bound(m.map, op.operands, min, depth + 1) if isinstance(m, AffineMapAttr) else None
    return None


def _bound(m: AffineMap, operands: tuple[Value, ...] | list[Value], pick, depth: int) -> float | None:  # type: ignore[no-untyped-def]
    vals = [_value(v, depth) for v in operands]
    if any(x is None for x in vals):
        return None
    ints = [int(x) for x in vals]  # type: ignore[arg-type]
    try:
        res = [r.evaluate(ints[: m.num_dims], ints[m.num_dims :]) for r in m.results]
    except (ZeroDivisionError, IndexError):
        return None
    return float(pick(res)) if res else None


def trips(op: Operation) -> float:
    """The estimated iterations of one entry of ``op`` (an ``affine.for``,
    or an ``affine.parallel``: the product over its dimensions)."""
    if op.name == "affine.for":
        f = ForView(op)
        n = f.constant_trip_count()
        if n is not None:
            return float(n)
        if not f.has_bounds or f.step <= 0:
            return float(UNKNOWN_TRIPS)
        lo = _bound(f.lower.map, f.lower.operands, max, 0)
        hi = _bound(f.upper.map, f.upper.operands, min, 0)
        return float(UNKNOWN_TRIPS) if lo is None or hi is None else max(0.0, (hi - lo) / f.step)
    if op.name == "affine.parallel":
        p = ParallelView(op)
        lo, hi = p.group_bounds(False), p.group_bounds(True)
        total = 1.0
        for lm, um, step in zip(lo, hi, p.steps, strict=False):
            a = _bound(lm, p.lower_operands, max, 0) if lm is not None else None
            b = _bound(um, p.upper_operands, min, 0) if um is not None else None
            total *= float(UNKNOWN_TRIPS) if a is None or b is None else max(0.0, (b - a) / max(step, 1))
        return total
    return 1.0


def block_work(block: Block) -> float:
    """The ops one execution of ``block`` runs (inner loops times their trips)."""
    total = 0.0
    for op in block.operations:
        if op.name in _FREE:
            continue
        if op.name in ("affine.for", "affine.parallel"):
            body = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
            total += 1.0 + trips(op) * (block_work(body) if body is not None else 0.0)
            continue
        total += 1.0
        branches = [block_work(r.blocks[0]) for r in op.regions if r.blocks]
        if branches:
            total += max(branches)
    return total


def executions(op: Operation) -> float:
    """How many times ``op`` runs: the product of the trips of the loops
    around it."""
    n = 1.0
    parent = op.parent_op
    while parent is not None:
        if parent.name in ("affine.for", "affine.parallel"):
            n *= trips(parent)
        parent = parent.parent_op
    return n


def work_per_entry(loop: Operation) -> float:
    """The ops one entry of ``loop`` runs: its trips times one iteration's."""
    body = loop.regions[0].blocks[0] if loop.regions and loop.regions[0].blocks else None
    return trips(loop) * (block_work(body) if body is not None else 0.0)


def too_little_work(loop: Operation, min_work: float = MIN_WORK_PER_FORK) -> str | None:
    """Why ``loop`` is not worth running on threads (None: it is)."""
    n = trips(loop)
    if n < MIN_TRIPS:
        return f"{n:.0f} iteration(s) per entry: nothing to share between threads"
    w = work_per_entry(loop)
    if w < min_work:
        return (
            f"too little work per fork: ~{w:,.0f} ops per entry of the loop, below {min_work:,.0f} (the threads' fork and join would cost more than they gain)"
        )
    return None
