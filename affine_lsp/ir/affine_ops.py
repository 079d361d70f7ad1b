"""Typed views over the affine ops of the IR.

The IR stores affine ops in MLIR's generic shape (a map attribute plus a flat
operand list, dims first then symbols). These views give the verifier, the
analyses and the transforms named access to the parts, computed on demand
from the op (no state of their own, so they can never go stale).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from affine_lsp.ir.affine_expr import AffineDimExpr, AffineMap, IntegerSet
from affine_lsp.ir.attributes import AffineMapAttr, ArrayAttr, BoolAttr, IntegerAttr, IntegerSetAttr, OpaqueAttr, StringAttr
from affine_lsp.ir.core import Block, BlockArgument, Operation, OpResult, Span, Value
from affine_lsp.ir.types import MemRefType, VectorType

LOAD_OPS = frozenset({"affine.load", "affine.vector_load"})
STORE_OPS = frozenset({"affine.store", "affine.vector_store"})
ACCESS_OPS = LOAD_OPS | STORE_OPS
LOOP_OPS = frozenset({"affine.for", "affine.parallel"})


def _map(op: Operation, key: str) -> AffineMap | None:
    a = op.attributes.get(key)
    return a.map if isinstance(a, AffineMapAttr) else None


def _int(op: Operation, key: str, default: int = 0) -> int:
    a = op.attributes.get(key)
    return a.value if isinstance(a, IntegerAttr) else default


def nest_is_well_formed(loop: Operation) -> bool:
    """Every ``affine.for`` in ``loop`` and around it has both bound maps and
    a positive step (a loop the parser only half read, a generic op with
    other attributes, or ``step 0`` the verifier rejects: nothing to
    transform or reason about)."""
    return all(ForView(op).has_bounds and ForView(op).step > 0 for op in (*loop.walk(), *loop.ancestors()) if op.name == "affine.for")


@dataclass(frozen=True, slots=True)
class Bound:
    """One loop bound: ``map`` applied to ``operands`` (dims then symbols)."""

    map: AffineMap
    operands: tuple[Value, ...]
    operand_spans: tuple[Span, ...]
    span: Span | None
    keyword: str | None  # "max"/"min" when written

    @property
    def num_dims(self) -> int:
        return self.map.num_dims

    @property
    def dim_operands(self) -> tuple[Value, ...]:
        return self.operands[: self.map.num_dims]

    @property
    def symbol_operands(self) -> tuple[Value, ...]:
        return self.operands[self.map.num_dims :]

    def constant(self) -> int | None:
        """The value when the bound is a single constant."""
        if self.map.num_results == 1:
            e = self.map.results[0].simplify()
            if e.is_constant():
                return e.value  # type: ignore[attr-defined]
        return None


class ForView:
    """``affine.for``: operands = lb operands, ub operands, iter_args inits."""

    __slots__ = ("op",)

    def __init__(self, op: Operation) -> None:
        assert op.name == "affine.for"
        self.op = op

    def _bound(self, idx: int, key: str, kw_key: str) -> Bound:
        m = _map(self.op, key)
        attr = self.op.attributes.get(key)
        kw = self.op.attributes.get(kw_key)
        assert m is not None
        return Bound(
            m,
            tuple(self.op.segment(idx)),
            tuple(self.op.segment_spans(idx)),
            attr.span if attr is not None else None,
            kw.value if isinstance(kw, StringAttr) else None,
        )

    @property
    def has_bounds(self) -> bool:
        """Both bound maps are there (an op the parser only half read, or a
        generic op with other attributes, may lack them)."""
        return _map(self.op, "lower_bound") is not None and _map(self.op, "upper_bound") is not None

    @property
    def lower(self) -> Bound:
        return self._bound(0, "lower_bound", "__lb_kw")

    @property
    def upper(self) -> Bound:
        return self._bound(1, "upper_bound", "__ub_kw")

    @property
    def step(self) -> int:
        return _int(self.op, "step", 1)

    @property
    def inits(self) -> list[Value]:
        return self.op.segment(2) if self.op.operand_segments else []

    @property
    def body(self) -> Block | None:
        if not self.op.regions or not self.op.regions[0].blocks:
            return None
        return self.op.regions[0].blocks[0]

    @property
    def iv(self) -> BlockArgument | None:
        b = self.body
        return b.arguments[0] if b is not None and b.arguments else None

    @property
    def iter_args(self) -> list[BlockArgument]:
        b = self.body
        return b.arguments[1:] if b is not None else []

    @property
    def results(self) -> list[OpResult]:
        return self.op.results

    def constant_trip_count(self) -> int | None:
        lb, ub = self.lower.constant(), self.upper.constant()
        if lb is None or ub is None or self.step <= 0:
            return None
        return max(0, -(-(ub - lb) // self.step))


@dataclass(frozen=True, slots=True)
class Access:
    """An affine memory access (load/store and vector variants)."""

    op: Operation
    memref: Value
    map: AffineMap
    indices: tuple[Value, ...]  # the map operands, dims then symbols
    is_write: bool
    value: Value | None  # the stored value

    @property
    def num_dims(self) -> int:
        return self.map.num_dims


def access_of(op: Operation) -> Access | None:
    """The access of an affine.load/store/vector_load/vector_store."""
    m = _map(op, "map")
    if op.name in LOAD_OPS and m is not None and op.operands:
        return Access(op, op.operands[0], m, tuple(op.operands[1:]), False, None)
    if op.name in STORE_OPS and m is not None and len(op.operands) >= 2:
        return Access(op, op.operands[1], m, tuple(op.operands[2:]), True, op.operands[0])
    return None


TRANSFER_OPS = frozenset({"vector.transfer_read", "vector.transfer_write"})


@dataclass(frozen=True, slots=True)
class Transfer:
    """What a ``vector.transfer_read``/``transfer_write`` on a memref touches:
    the box starting at ``indices`` whose extent along memref dimension
    ``d`` is ``extents[d]`` (1 for a dimension no vector dimension runs
    along, ``permutation_map``'s results otherwise; a broadcast result, the
    constant 0, touches one element), clamped to ``[0, size)`` along the
    dimensions in ``clamped`` (a vector dimension not ``in_bounds``: MLIR
    masks its elements outside the memref). ``masked``: a mask operand
    selects a subset of the box (the box over-approximates it)."""

    op: Operation
    memref: Value
    indices: tuple[Value, ...]
    extents: tuple[int, ...]
    clamped: frozenset[int]
    masked: bool
    is_write: bool


def transfer_of(op: Operation) -> Transfer | None:
    """The :class:`Transfer` of a transfer on a memref; None for any other
    op, a transfer on a tensor, or an unreadable one (a non-dimension,
    non-zero result of ``permutation_map``, a scalable vector, a vector
    dimension along no memref dimension)."""
    if op.name not in TRANSFER_OPS:
        return None
    is_write = op.name == "vector.transfer_write"
    segs = op.operand_segments
    ops = list(op.operands)
    if is_write:
        if len(ops) < 2:
            return None
        vt, memref = ops[0].type, ops[1]
        n = segs[2] if segs is not None and len(segs) > 2 else None
        start = 2
    else:
        if not ops or not op.results:
            return None
        vt, memref = op.results[0].type, ops[0]
        n = segs[1] if segs is not None and len(segs) > 1 else None
        start = 1
    mt = memref.type
    if not isinstance(mt, MemRefType) or not isinstance(vt, VectorType) or any(vt.scalable):
        return None
    rank = len(mt.shape)
    if n is None:
        n = rank
    if n != rank or len(ops) < start + n:
        return None
    indices = tuple(ops[start : start + n])
    rest = ops[start + n :]
    masked = len(rest) > (0 if is_write else 1)
    shape = [int(s) for s in vt.shape]
    pm = _map(op, "permutation_map")
    if pm is None:
        if len(shape) > rank:
            return None
        results: list[int | None] = list(range(rank - len(shape), rank))
    else:
        if pm.num_dims != rank or pm.num_results != len(shape):
            return None
        results = []
        for e in pm.results:
            if isinstance(e, AffineDimExpr):
                results.append(e.position)
            elif e.is_constant() and e.value == 0:  # type: ignore[attr-defined]
                results.append(None)
            else:
                return None
    ib = op.attributes.get("in_bounds")
    flags = [isinstance(b, BoolAttr) and b.value for b in ib.elements] if isinstance(ib, ArrayAttr) else [False] * len(shape)
    if len(flags) != len(shape):
        return None
    extents = [1] * rank
    clamped: set[int] = set()
    for k, d in enumerate(results):
        if d is None:
            continue  # a broadcast dimension reads one element
        if extents[d] != 1 or shape[k] <= 0:
            return None
        extents[d] = shape[k]
        if not flags[k]:
            clamped.add(d)
    return Transfer(op, memref, indices, tuple(extents), frozenset(clamped), masked, is_write)


class IfView:
    __slots__ = ("op",)

    def __init__(self, op: Operation) -> None:
        assert op.name == "affine.if"
        self.op = op

    @property
    def condition(self) -> IntegerSet | None:
        a = self.op.attributes.get("condition")
        return a.set if isinstance(a, IntegerSetAttr) else None

    @property
    def operands(self) -> list[Value]:
        return list(self.op.operands)

    @property
    def then_block(self) -> Block | None:
        r = self.op.regions[0] if self.op.regions else None
        return r.blocks[0] if r is not None and r.blocks else None

    @property
    def else_block(self) -> Block | None:
        r = self.op.regions[1] if len(self.op.regions) > 1 else None
        return r.blocks[0] if r is not None and r.blocks else None


def _dense_ints(a: OpaqueAttr) -> list[int]:
    """The integers of a 1-D ``dense<...>`` attribute kept as text (a list,
    or a splat repeated to its type's size); [] for anything else."""
    s = a.spelling.strip()
    if not (s.startswith("dense<") and s.endswith(">")):
        return []
    body = s[len("dense<") : -1].strip()
    try:
        if body.startswith("["):
            inner = body.strip("[]").strip()
            return [int(x) for x in inner.split(",")] if inner else []
        m = re.fullmatch(r"\s*(?:tensor|vector)<(\d+)x\w+>\s*", str(a.type)) if a.type is not None else None
        return [int(body)] * int(m.group(1)) if m else []
    except ValueError:
        return []


class ParallelView:
    __slots__ = ("op",)

    def __init__(self, op: Operation) -> None:
        assert op.name == "affine.parallel"
        self.op = op

    def _groups(self, key: str) -> list[int]:
        a = self.op.attributes.get(key)
        if isinstance(a, OpaqueAttr):  # the generic form's (and bytecode's) `dense<[1, 2]> : tensor<2xi32>`
            return _dense_ints(a)
        return [e.value for e in a.elements if isinstance(e, IntegerAttr)] if isinstance(a, ArrayAttr) else []

    @property
    def lower_map(self) -> AffineMap | None:
        return _map(self.op, "lowerBoundsMap")

    @property
    def upper_map(self) -> AffineMap | None:
        return _map(self.op, "upperBoundsMap")

    @property
    def lower_groups(self) -> list[int]:
        return self._groups("lowerBoundsGroups")

    @property
    def upper_groups(self) -> list[int]:
        return self._groups("upperBoundsGroups")

    @property
    def lower_operands(self) -> list[Value]:
        return self.op.segment(0) if self.op.operand_segments else []

    @property
    def upper_operands(self) -> list[Value]:
        return self.op.segment(1) if self.op.operand_segments else []

    @property
    def steps(self) -> list[int]:
        return self._groups("steps")

    @property
    def reductions(self) -> list[str]:
        a = self.op.attributes.get("reductions")
        return [e.value for e in a.elements if isinstance(e, StringAttr)] if isinstance(a, ArrayAttr) else []

    @property
    def body(self) -> Block | None:
        if not self.op.regions or not self.op.regions[0].blocks:
            return None
        return self.op.regions[0].blocks[0]

    @property
    def ivs(self) -> list[BlockArgument]:
        b = self.body
        return list(b.arguments) if b is not None else []

    def group_bounds(self, upper: bool) -> list[AffineMap]:
        """One map per loop dimension (several results mean max/min)."""
        m = self.upper_map if upper else self.lower_map
        groups = self.upper_groups if upper else self.lower_groups
        out = []
        pos = 0
        if m is None:
            return out
        for g in groups:
            out.append(m.sub_map(list(range(pos, pos + g))))
            pos += g
        return out


def enclosing_loops(op: Operation) -> list[Operation]:
    """affine.for/affine.parallel ops around ``op``, outermost first."""
    return [a for a in op.ancestors() if a.name in LOOP_OPS][::-1]


def walk_accesses(root: Operation) -> Iterator[Access]:
    for op in root.walk():
        a = access_of(op)
        if a is not None:
            yield a
