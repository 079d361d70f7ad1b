"""From the IR to isl: iteration domains and access relations.

For every affine memory access of a function (``affine.load``/``store``,
``vector_load``/``vector_store``, ``affine.prefetch`` as a read, and the
source (read) / destination (write) of ``affine.dma_start``) this module builds,
as MLIR's ``FlatAffineValueConstraints`` / loopy do, but exactly:

* the **iteration domain**: one set dimension per enclosing ``affine.for`` IV
  and per ``affine.parallel`` IV (outermost first), with

  - loop bounds: every result of a ``max`` lower bound map is a lower bound and
    every result of a ``min`` upper bound map an upper bound (so multi-result
    maps, symbolic bounds and bounds on outer IVs are exact);
  - steps: ``iv = lb + step * k, k >= 0`` as ``(iv - max(lbs)) mod step = 0``
    (isl keeps the existential variable);
  - ``affine.if`` conditions: the set in the then branch, its complement (a
    union) in the else branch;
  - ``affine.parallel`` bound groups (max of a lower group, min of an upper
    group) and per-dimension steps;

* the **access relation** ``S<k>[ivs] -> <memref>[indices]``: the access map
  composed with the ``affine.apply`` chains of its operands, ``mod``,
  ``floordiv`` and ``ceildiv`` by constants handled natively by isl, results of
  ``affine.min``/``affine.max`` as exact piecewise expressions, ``arith``
  constants folded, ``memref.dim`` folded for static sizes; vector accesses
  touch the vector's contiguous range along the trailing memref dimensions; a
  DMA touches its ``num_elements`` consecutive elements (row-major).

Values that are neither IVs nor computable from them become isl parameters
when they are invariant in the function (function arguments, values defined
outside every loop); sizes of dynamic memref dimensions are parameters
``>= 0``. Anything else (semi-affine products, values computed inside loops by
non-affine ops, non-constant divisors) is *unanalysable*: the subscript is left
unconstrained (any element), which over-approximates, and the access is marked
(``failures``) so that dependence answers involving it are "unknown" unless
the over-approximation already proves independence. Non-affine control flow
around an access (``scf.if``, ``scf.for`` ...) is ignored the way MLIR ignores
it, and recorded in ``approximations``.
"""

from __future__ import annotations

import itertools
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TypeVar

import islpy as isl

from affine_lsp import forking
from affine_lsp.analysis.isl_support import CTX, DT, BudgetExceeded, IslFailure, limited, param_id, val
from affine_lsp.ir import op_traits
from affine_lsp.ir.affine_expr import AffineExpr, AffineExprKind, AffineMap, IntegerSet
from affine_lsp.ir.affine_ops import ForView, IfView, ParallelView, Transfer, transfer_of
from affine_lsp.ir.attributes import AffineMapAttr, BoolAttr, IntegerAttr
from affine_lsp.ir.core import Block, BlockArgument, Operation, OpResult, Value
from affine_lsp.ir.types import MemRefType, VectorType

_NON_LOOPING_REGION_OPS = frozenset({"affine.if", "scf.if", "scf.execute_region", "scf.index_switch"})
_CONDITIONAL_OPS = frozenset({"scf.if", "scf.index_switch"})

_ADD = AffineExprKind.ADD
_MUL = AffineExprKind.MUL
_MOD = AffineExprKind.MOD
_FLOORDIV = AffineExprKind.FLOORDIV
_CEILDIV = AffineExprKind.CEILDIV
_CONSTANT = AffineExprKind.CONSTANT
_DIM = AffineExprKind.DIM
_SYMBOL = AffineExprKind.SYMBOL


class Unanalysable(Exception):
    """A value or expression the polyhedral model cannot represent exactly.

    The model remembers these as values (``Level.memo``, lazily resolved
    operands): what it stores or raises again is a copy never raised yet
    (:meth:`again`). A raised exception keeps its traceback, whose frames
    hold the store: a reference cycle through the IR, left for the cyclic
    collector."""

    def again(self) -> Unanalysable:
        """A new exception with the same message (no traceback)."""
        return Unanalysable(*self.args)


scope_of = op_traits.analysis_scope_of
"""The nearest enclosing op that starts an analysis scope (a function, or a
module for its top level): :func:`affine_lsp.ir.op_traits.analysis_scope_of`."""


def _scope_ops(scope: Operation) -> Iterator[Operation]:
    """The ops nested in ``scope`` whose :func:`scope_of` is ``scope``, in
    walk order (pre-order): the walk does not enter nested scopes instead of
    asking every op for its ancestors."""
    if not op_traits.is_analysis_scope(scope):
        return
    stack: list[Operation] = []
    for region in reversed(scope.regions):
        for block in reversed(region.blocks):
            stack.extend(reversed(block.operations))
    while stack:
        op = stack.pop()
        yield op
        if not op_traits.is_analysis_scope(op):
            for region in reversed(op.regions):
                for block in reversed(region.blocks):
                    stack.extend(reversed(block.operations))


def access_roles(op: Operation) -> list[tuple[str, bool]]:
    """``(role, is_write)`` of each memory access performed by ``op``."""
    n = op.name
    if n in ("affine.load", "affine.vector_load"):
        return [("read", False)]
    if n in ("affine.store", "affine.vector_store"):
        return [("write", True)]
    if n == "affine.prefetch":
        return [("prefetch", False)]
    if n == "affine.dma_start":
        return [("dma_src", False), ("dma_dst", True)]
    if n in ("vector.transfer_read", "vector.transfer_write"):
        # a transfer on a memref: the box of ``transfer_of``; one it cannot
        # read (a permutation_map it does not know), any element of the
        # memref; on a tensor, no access
        w = n == "vector.transfer_write"
        if transfer_of(op) is not None:
            return [("write" if w else "read", w)]
        base = 1 if w else 0
        return [(f"{WHOLE}{base}", w)] if base < len(op.operands) and isinstance(op.operands[base].type, MemRefType) else []
    if n.startswith("affine."):
        return []
    return [(f"{WHOLE}{i}", w) for i, w in op_traits.unknown_extent_accesses(op)]


WHOLE = "whole:"
"""The role of an access of unknown extent (``whole:<operand index>``): a
user's op that reads or writes a memref operand
(:func:`affine_lsp.ir.op_traits.unknown_extent_accesses`) may touch any of
its elements."""


def _ident(name: str) -> str:
    """An isl-friendly identifier for an SSA name (never ``S<n>``, the
    statement tuple names)."""
    s = re.sub(r"[^A-Za-z0-9_]", "_", name.lstrip("%"))
    if not s or not (s[0].isalpha() or s[0] == "_"):
        s = "v" + s
    if re.fullmatch(r"S\d+", s):
        s = "v" + s
    return s


SEMI_LOCK = forking.held_across_fork(threading.Lock(), f"{__name__}.SEMI_LOCK", order=0)

_SetOrMap = TypeVar("_SetOrMap", isl.Set, isl.Map)

# A resolved affine value: its piecewise expression over the level's space and,
# when it is a known integer, that integer.
Term = tuple[isl.PwAff, int | None]


@dataclass(eq=False)
class Level:
    """What is known in one block: the enclosing IVs, their domain, and how
    the values visible there translate to isl."""

    block: Block | None
    ivs: tuple[Value, ...]
    loops: tuple[Operation, ...]  # the loop op of each IV (an affine.parallel repeats)
    space: isl.Space
    domain: isl.Set
    failures: tuple[str, ...] = ()
    approximations: tuple[str, ...] = ()
    iv_pos: dict[Value, int] = field(default_factory=dict)
    iv_names: tuple[str, ...] = ()
    memo: dict[Value, Term | Unanalysable] = field(default_factory=dict)
    # The id of what ``domain`` is a function of, when it is built only from
    # loops whose bounds use outer IVs and function arguments (then it is the
    # same in every function with such a nest): see _DOMAIN_CACHE.
    key: int | None = None


# Domains of loop nests, by Level.key (see FunctionModel._loop_key): the
# same isl set, built by the same isl calls, recurs in many functions
# (``affine.for %i = 0 to 64``). isl objects are values (every operation
# returns a new one), so sharing one is safe. Each entry has an id, the
# Level.key of the levels it serves: the keys of nested levels and accesses
# hold that int, not the whole chain (comparing the affine maps of the chain
# at every look-up cost more than the look-up saved).
_DOMAIN_CACHE: dict[tuple, tuple[int, isl.Set]] = {}
_DOMAIN_CACHE_MAX = 4096
# Access relations and domains (before the parameter facts are added), by
# the level's key, the access map (maps compare by value), its operands, the
# statement and memref names and the rank; with an id (AccessModel.key).
# Only accesses modelled without a failure are cached.
_ACCESS_CACHE: dict[tuple, tuple[int, isl.Map, isl.Set, tuple[bool, ...]]] = {}
_ACCESS_CACHE_MAX = 16384
_IDS = itertools.count(1)  # 0: the root level


@dataclass(eq=False)
class AccessModel:
    """One memory access (an op may perform two: ``affine.dma_start``)."""

    index: int  # position among the function's accesses (walk order)
    op: Operation
    role: str  # read | write | prefetch | dma_src | dma_dst
    is_write: bool
    memref: Value | None
    stmt: str  # isl tuple name of the statement, "S<index>"
    memref_name: str  # isl tuple name of the memref
    ivs: tuple[Value, ...]
    loops: tuple[Operation, ...]
    rank: int
    domain: isl.Set | None = None
    relation: isl.Map | None = None
    failures: list[str] = field(default_factory=list)
    approximations: list[str] = field(default_factory=list)
    exact_indices: list[bool] = field(default_factory=list)
    budget_exceeded: bool = False
    path: tuple[tuple[Block, Operation], ...] = ()
    key: int | None = None  # the id of what relation and domain are a function of (see _ACCESS_CACHE)

    @property
    def exact(self) -> bool:
        """The relation is exactly the set of elements the op touches."""
        return not self.failures and not self.approximations and not self.budget_exceeded

    @property
    def analysable(self) -> bool:
        """MLIR's analysis would not fail on this access (approximations of
        non-affine control flow aside)."""
        return not self.failures and not self.budget_exceeded

    @property
    def num_loops(self) -> int:
        return len(self.ivs)

    @property
    def name(self) -> str:
        return self.op.name

    def describe(self) -> str:
        mem = self.memref.name if self.memref is not None else "?"
        if self.role.startswith(WHOLE):
            return f"'{self.op.name}' ({'writes' if self.is_write else 'reads'} {mem}, unknown extent)"
        if self.role in ("dma_src", "dma_dst"):
            return f"'{self.op.name}' ({'source' if self.role == 'dma_src' else 'destination'} {mem})"
        return f"'{self.op.name}' on {mem}"

    def relation_str(self) -> str:
        return str(self.relation) if self.relation is not None else "<unknown>"


class FunctionModel:
    """The polyhedral model of every access of one function (scope op)."""

    def __init__(self, scope: Operation, budget: int) -> None:
        self.scope = scope
        self.budget = budget
        self._names: dict[Value, str] = {}
        self._iv_names: dict[Value, str] = {}
        self._used_names: set[str] = set()
        self._levels: dict[Block, Level] = {}
        self._param_facts: dict[str, isl.Set] = {}
        self.param_desc: dict[str, str] = {}
        self._dim_params: dict[tuple[Value, int], str] = {}
        self.param_values: dict[str, Value | None] = {}
        self.block_index: dict[Block, dict[Operation, int]] = {}
        self.accesses: list[AccessModel] = []
        self.by_op: dict[Operation, list[AccessModel]] = {}
        self.budget_notes: list[tuple[Operation, str]] = []
        self._semi_terms: list[str] | None = None  # see semi_affine_access
        self._semi_owner = 0
        self._build()

    # ------------------------------------------------------------------ names
    def name_of(self, v: Value, prefix: str = "") -> str:
        n = self._names.get(v)
        if n is None:
            base = prefix + _ident(v.name or "v")
            n = base
            k = 1
            while n in self._used_names:
                n = f"{base}_{k}"
                k += 1
            self._used_names.add(n)
            self._names[v] = n
        return n

    def _fresh(self, base: str) -> str:
        n = base
        k = 1
        while n in self._used_names:
            n = f"{base}_{k}"
            k += 1
        self._used_names.add(n)
        return n

    # ------------------------------------------------------------------ build
    def _build(self) -> None:
        idx = 0
        for op in _scope_ops(self.scope):
            roles = access_roles(op)
            for role, is_write in roles:
                acc = self._make_access(idx, op, role, is_write)
                idx += 1
                self.accesses.append(acc)
                self.by_op.setdefault(op, []).append(acc)
        # The parameter facts are complete now: add those of the parameters
        # each object involves (so printed relations stay readable).
        if self._param_facts:
            try:
                with limited(self.budget):
                    for acc in self.accesses:
                        if acc.relation is not None:
                            acc.relation = self._with_facts(acc.relation)
                        if acc.domain is not None:
                            acc.domain = self._with_facts(acc.domain)
            except (BudgetExceeded, IslFailure):
                pass

    @property
    def has_param_facts(self) -> bool:
        """Facts about parameters (dynamic sizes are >= 0) were added to the
        relations and domains of the accesses."""
        return bool(self._param_facts)

    def _with_facts(self, obj: _SetOrMap) -> _SetOrMap:
        sp = obj.get_space()
        for k in range(sp.dim(DT.param)):
            fact = self._param_facts.get(sp.get_dim_name(DT.param, k))
            if fact is not None:
                obj = obj.intersect_params(fact)
        return obj

    def _make_access(self, idx: int, op: Operation, role: str, is_write: bool) -> AccessModel:
        memref, amap, indices, extent = _access_parts(op, role)
        mtype = memref.type if memref is not None else None
        rank = len(mtype.shape) if isinstance(mtype, MemRefType) else (amap.num_results if amap is not None else 0)
        mname = self.name_of(memref) if memref is not None else self._fresh("unknown_memref")
        acc = AccessModel(idx, op, role, is_write, memref, f"S{idx}", mname, (), (), rank)
        acc.path = self._path(op)
        try:
            with limited(self.budget):
                level = self._level(op.parent)
                acc.ivs, acc.loops = level.ivs, level.loops
                acc.failures.extend(level.failures)
                acc.approximations.extend(level.approximations)
                self._model_access(acc, level, amap, indices, extent)
        except BudgetExceeded:
            acc.budget_exceeded = True
            acc.relation = None
            acc.domain = None
            self.budget_notes.append((op, f"building the polyhedral model of {acc.describe()}"))
        except (IslFailure, RecursionError) as e:
            acc.failures.append(f"isl failure: {e}")
            acc.relation = None
            acc.domain = None
        return acc

    def _path(self, op: Operation) -> tuple[tuple[Block, Operation], ...]:
        out: list[tuple[Block, Operation]] = []
        cur: Operation | None = op
        while cur is not None and cur is not self.scope:
            blk = cur.parent
            if blk is None:
                break
            out.append((blk, cur))
            cur = blk.parent_op
        out.reverse()
        return tuple(out)

    def position(self, block: Block, op: Operation) -> int:
        idx = self.block_index.get(block)
        if idx is None:
            idx = {o: i for i, o in enumerate(block.operations)}
            self.block_index[block] = idx
        return idx.get(op, -1)

    # ------------------------------------------------------------------ levels
    def _root_level(self, block: Block | None) -> Level:
        sp = isl.Space.create_from_names(CTX, set=[])
        return Level(block, (), (), sp, isl.Set.universe(sp), key=0)

    def _level(self, block: Block | None) -> Level:
        if block is None:
            return self._root_level(None)
        lv = self._levels.get(block)
        if lv is not None:
            return lv
        parent_op = block.parent_op
        if parent_op is None or parent_op is self.scope or op_traits.is_analysis_scope(parent_op):
            lv = self._root_level(block)
            region = block.parent
            if region is not None and region.blocks and region.blocks[0] is not block:
                lv.approximations = ("in a non-entry block of the function",)
        else:
            lv = self._child_level(self._level(parent_op.parent), parent_op, block)
        self._levels[block] = lv
        return lv

    def block_domain(self, block: Block) -> tuple[isl.Set, tuple[Value, ...], tuple[str, ...], tuple[str, ...]]:
        """The iteration domain of the ops of ``block`` (a loop body, an
        ``affine.if`` branch...): ``(domain, IVs, their isl names, failures)``.
        Runs isl: call it inside :func:`limited`."""
        lv = self._level(block)
        return lv.domain, lv.ivs, lv.iv_names, lv.failures

    def _iv_name(self, v: Value, taken: list[str]) -> str:
        n = self._iv_names.get(v)
        if n is None:
            base = _ident(v.name or "i")
            n = base
            k = 1
            while n in taken or n in self._used_names:
                n = f"{base}_{k}"
                k += 1
            self._iv_names[v] = n
        return n

    def _extend(self, base: Level, block: Block, new_ivs: list[Value], loop: Operation, with_domain: bool = True) -> Level:
        """The level of a loop body: ``base`` plus ``new_ivs``; its domain is
        ``base``'s extended by the new dimensions (``with_domain=False``:
        left to the caller)."""
        ivs = base.ivs + tuple(new_ivs)
        names = list(base.iv_names)
        for v in new_ivs:
            names.append(self._iv_name(v, names))
        sp = isl.Space.create_from_names(CTX, set=names)
        dom = base.domain
        if with_domain:
            dom = dom.add_dims(DT.set, len(new_ivs))
            for k in range(len(new_ivs)):
                dom = dom.set_dim_name(DT.set, len(base.ivs) + k, names[len(base.ivs) + k])
        lv = Level(block, ivs, base.loops + (loop,) * len(new_ivs), sp, dom, base.failures, base.approximations)
        lv.iv_pos = {v: i for i, v in enumerate(ivs)}
        lv.iv_names = tuple(names)
        return lv

    def _same(self, base: Level, block: Block) -> Level:
        lv = Level(block, base.ivs, base.loops, base.space, base.domain, base.failures, base.approximations)
        lv.iv_pos = dict(base.iv_pos)
        lv.iv_names = base.iv_names
        return lv

    def _child_level(self, base: Level, op: Operation, block: Block) -> Level:
        name = op.name
        region_idx = next((i for i, r in enumerate(op.regions) if r is block.parent), 0)
        is_entry = block.parent is not None and bool(block.parent.blocks) and block.parent.blocks[0] is block
        if name == "affine.for" and region_idx == 0 and is_entry:
            view = ForView(op)
            iv = view.iv
            if iv is None:
                lv = self._same(base, block)
                lv.failures = (*lv.failures, "malformed affine.for (no induction variable)")
                return lv
            lv = self._extend(base, block, [iv], op, with_domain=False)
            key = self._loop_key(base, view, lv.iv_names[-1])
            if key is not None:
                hit = _DOMAIN_CACHE.get(key)
                if hit is not None:
                    lv.key, lv.domain = hit
                    return lv
            lv.domain = base.domain.add_dims(DT.set, 1).set_dim_name(DT.set, len(base.ivs), lv.iv_names[-1])
            failures = lv.failures
            self._add_for_constraints(lv, view, iv)
            if key is not None and lv.failures is failures and len(_DOMAIN_CACHE) < _DOMAIN_CACHE_MAX:
                lv.key = next(_IDS)
                _DOMAIN_CACHE[key] = (lv.key, lv.domain)
            return lv
        if name == "affine.parallel" and region_idx == 0 and is_entry:
            pview = ParallelView(op)
            ivs = pview.ivs
            lv = self._extend(base, block, ivs, op)
            self._add_parallel_constraints(lv, pview, ivs)
            return lv
        if name == "affine.if" and is_entry:
            lv = self._same(base, block)
            self._add_if_constraints(lv, IfView(op), region_idx == 0)
            return lv
        lv = self._same(base, block)
        if name in _NON_LOOPING_REGION_OPS:
            if name in _CONDITIONAL_OPS:
                lv.approximations = (*lv.approximations, f"guarded by non-affine '{name}'")
        elif name.startswith("affine."):
            lv.approximations = (*lv.approximations, f"inside '{name}'")
        else:
            lv.approximations = (*lv.approximations, f"inside non-affine '{name}' (its iterations are not modelled)")
        if not is_entry:
            lv.approximations = (*lv.approximations, "in a non-entry block")
        return lv

    def _loop_key(self, base: Level, view: ForView, iv_name: str) -> tuple | None:
        """What the domain of the body of ``view`` is a function of, when
        ``base``'s domain has a key and each bound operand is an IV of
        ``base`` or a function argument (a parameter): ``base``'s key, the
        IV's isl name, the bound maps, the step and the operands (IV
        positions, parameter names). None otherwise."""
        if base.key is None:
            return None
        op = view.op
        lower, upper = op.attributes.get("lower_bound"), op.attributes.get("upper_bound")
        if not isinstance(lower, AffineMapAttr) or not isinstance(upper, AffineMapAttr):
            return None
        operands: tuple | None = ()
        if op.operands:
            segs = op.operand_segments
            if segs is None or len(segs) < 2:
                return None
            operands = self._operands_key(base, op.operands[: segs[0] + segs[1]])
            if operands is None:
                return None
        return (base.key, base.iv_names, iv_name, lower.map, upper.map, view.step, operands)

    def _operands_key(self, lv: Level, values: list[Value], depth: int = 0) -> tuple | None:
        """What the terms of ``values`` at ``lv`` are a function of, when
        each is an IV of ``lv`` (its position), a function argument (its
        parameter name), an integer constant or an ``affine.apply`` of such
        values (its map and their keys); None otherwise."""
        out: list[object] = []
        for v in values:
            pos = lv.iv_pos.get(v)
            if pos is not None:
                out.append(pos)
                continue
            c = constant_of(v)
            if c is not None:
                out.append(("c", c))
                continue
            if isinstance(v, BlockArgument):
                if self._is_invariant(v):
                    out.append(self.param_name(v))  # as resolving it would
                    continue
                return None
            owner = v.defining_op
            m = owner.attributes.get("map") if owner is not None and owner.name == "affine.apply" else None
            if depth >= 8 or not isinstance(m, AffineMapAttr) or m.map.num_results < 1:
                return None
            sub = self._operands_key(lv, list(owner.operands), depth + 1)  # type: ignore[union-attr]
            if sub is None:
                return None
            out.append(("apply", m.map, sub))
        return tuple(out)

    def _var(self, lv: Level, pos: int) -> isl.PwAff:
        return isl.PwAff.from_aff(isl.Aff.var_on_domain(isl.LocalSpace.from_space(lv.space), DT.set, pos))

    def _const(self, lv: Level, c: int) -> Term:
        return isl.PwAff.from_aff(isl.Aff.val_on_domain_space(lv.space, val(c))), c

    def _param(self, lv: Level, name: str) -> Term:
        pid = param_id(name)
        return isl.PwAff.from_aff(isl.Aff.param_on_domain_space_id(lv.space.add_param_id(pid), pid)), None

    def _add_for_constraints(self, lv: Level, view: ForView, iv: Value) -> None:
        pos = lv.iv_pos[iv]
        x = self._var(lv, pos)
        dom = lv.domain
        label = f"loop {iv.name}"
        lbs: list[isl.PwAff] = []
        lb_ok = True
        try:
            lower = view.lower
            for t in self._map_terms(lv, lower.map, list(lower.operands)):
                if t is None:
                    lb_ok = False
                    continue
                lbs.append(t[0])
                dom = dom.intersect(x.ge_set(t[0]))
        except (Unanalysable, AssertionError) as e:
            lb_ok = False
            lv.failures = (*lv.failures, f"lower bound of {label}: {e}")
        if not lb_ok and not any("lower bound of " + label in f for f in lv.failures):
            lv.failures = (*lv.failures, f"lower bound of {label} is not affine")
        try:
            upper = view.upper
            ub_ok = True
            for t in self._map_terms(lv, upper.map, list(upper.operands)):
                if t is None:
                    ub_ok = False
                    continue
                dom = dom.intersect(x.lt_set(t[0]))
            if not ub_ok:
                lv.failures = (*lv.failures, f"upper bound of {label} is not affine")
        except (Unanalysable, AssertionError) as e:
            lv.failures = (*lv.failures, f"upper bound of {label}: {e}")
        step = view.step
        if step <= 0:
            lv.failures = (*lv.failures, f"{label} has a non-positive step {step}")
        elif step > 1 and lb_ok and lbs:
            lb = lbs[0]
            for other in lbs[1:]:
                lb = lb.max(other)
            dom = dom.intersect(x.sub(lb).mod_val(val(step)).zero_set())
        lv.domain = dom

    def _add_parallel_constraints(self, lv: Level, view: ParallelView, ivs: list[BlockArgument]) -> None:
        dom = lv.domain
        try:
            lower_maps = view.group_bounds(False)
            upper_maps = view.group_bounds(True)
            steps = view.steps
        except Exception as e:  # malformed groups
            lv.failures = (*lv.failures, f"malformed affine.parallel bounds: {e}")
            return
        if len(lower_maps) != len(ivs) or len(upper_maps) != len(ivs):
            lv.failures = (*lv.failures, "malformed affine.parallel bounds")
            lower_maps = lower_maps[: len(ivs)]
            upper_maps = upper_maps[: len(ivs)]
        lops = list(view.lower_operands)
        uops = list(view.upper_operands)
        for k, iv in enumerate(ivs):
            x = self._var(lv, lv.iv_pos[iv])
            lbs: list[isl.PwAff] = []
            lb_ok = True
            if k < len(lower_maps):
                try:
                    for t in self._map_terms(lv, lower_maps[k], lops):
                        if t is None:
                            lb_ok = False
                            continue
                        lbs.append(t[0])
                        dom = dom.intersect(x.ge_set(t[0]))
                except Unanalysable as e:
                    lb_ok = False
                    lv.failures = (*lv.failures, f"lower bound of {iv.name}: {e}")
            if k < len(upper_maps):
                try:
                    for t in self._map_terms(lv, upper_maps[k], uops):
                        if t is None:
                            lv.failures = (*lv.failures, f"upper bound of {iv.name} is not affine")
                            continue
                        dom = dom.intersect(x.lt_set(t[0]))
                except Unanalysable as e:
                    lv.failures = (*lv.failures, f"upper bound of {iv.name}: {e}")
            step = steps[k] if k < len(steps) else 1
            if step <= 0:
                lv.failures = (*lv.failures, f"{iv.name} has a non-positive step {step}")
            elif step > 1 and lb_ok and lbs:
                lb = lbs[0]
                for other in lbs[1:]:
                    lb = lb.max(other)
                dom = dom.intersect(x.sub(lb).mod_val(val(step)).zero_set())
        lv.domain = dom

    def _add_if_constraints(self, lv: Level, view: IfView, then_branch: bool) -> None:
        cond = view.condition
        if cond is None:
            lv.failures = (*lv.failures, "affine.if without a condition")
            return
        cset = isl.Set.universe(lv.space)
        complete = True
        try:
            terms = self._set_terms(lv, cond, view.operands)
        except Unanalysable as e:
            lv.failures = (*lv.failures, f"affine.if condition: {e}")
            return
        for t, is_eq in terms:
            if t is None:
                complete = False
                continue
            cset = cset.intersect(t[0].zero_set() if is_eq else t[0].nonneg_set())
        if not complete:
            lv.failures = (*lv.failures, "affine.if condition is not affine")
            if not then_branch:
                return  # the complement of an over-approximation is not one
        lv.domain = lv.domain.intersect(cset) if then_branch else lv.domain.subtract(cset)

    # --------------------------------------------------------------- accesses
    def _model_access(self, acc: AccessModel, lv: Level, amap: AffineMap | None, indices: list[Value], extent: tuple[str, object] | None) -> None:
        key = None
        # A semi-affine model (its semi-affine parts are parameters) is no
        # access relation: it neither reads nor fills the shared cache.
        if lv.key is not None and amap is not None and extent is None and acc.memref is not None and not self._semi_mode():
            operands = self._operands_key(lv, indices)
            if operands is not None:
                key = (lv.key, amap, operands, acc.stmt, acc.memref_name, acc.rank)
                hit = _ACCESS_CACHE.get(key)
                if hit is not None:
                    acc.key, acc.relation, acc.domain, exact = hit
                    acc.exact_indices = list(exact)
                    return
        failures = len(acc.failures)
        self._model_access_uncached(acc, lv, amap, indices, extent)
        if key is not None and len(acc.failures) == failures and len(_ACCESS_CACHE) < _ACCESS_CACHE_MAX:
            acc.key = next(_IDS)
            _ACCESS_CACHE[key] = (acc.key, acc.relation, acc.domain, tuple(acc.exact_indices))

    def _model_access_uncached(self, acc: AccessModel, lv: Level, amap: AffineMap | None, indices: list[Value], extent: tuple[str, object] | None) -> None:
        if extent is not None and extent[0] == "whole":
            # any element of the memref, in every iteration: an over-approximation
            rel = isl.Map.from_domain_and_range(lv.domain, isl.Set.universe(isl.Space.set_alloc(CTX, 0, acc.rank)))
            acc.relation = rel.set_tuple_name(DT.in_, acc.stmt).set_tuple_name(DT.out, acc.memref_name)
            acc.domain = lv.domain.set_tuple_name(acc.stmt)
            acc.exact_indices = [False] * acc.rank
            acc.approximations.append(f"'{acc.op.name}' may touch any element of {acc.memref.name if acc.memref is not None else 'its memref'}")
            return
        if acc.memref is None:
            acc.failures.append("no memref operand")
        terms: list[Term | None] = []
        if amap is None:
            acc.failures.append("missing access map")
            terms = [None] * acc.rank
        else:
            try:
                terms = self._map_terms(lv, amap, indices)
            except Unanalysable as e:
                acc.failures.append(f"subscript: {e}")
                terms = [None] * amap.num_results
            if len(terms) != acc.rank:
                acc.failures.append(f"the map has {len(terms)} results for a rank-{acc.rank} memref")
                terms = (terms + [None] * acc.rank)[: acc.rank]
        for k, t in enumerate(terms):
            if t is None and not any(f.startswith("subscript") for f in acc.failures):
                acc.failures.append(f"subscript #{k + 1} is not an affine function of the loop IVs and symbols")
        acc.exact_indices = [t is not None for t in terms]
        out_space = isl.Space.set_alloc(CTX, 0, 1)
        rel: isl.Map | None = None
        for t in terms:
            if t is None:
                m = isl.Map.universe(isl.Space.map_from_domain_and_range(lv.space, out_space))
            else:
                m = isl.Map.from_pw_aff(t[0])
            rel = m if rel is None else rel.flat_range_product(m)
        if rel is None:
            rel = isl.Map.from_domain_and_range(isl.Set.universe(lv.space), isl.Set.universe(isl.Space.set_alloc(CTX, 0, 0)))
        if extent is not None:
            rel = self._apply_extent(acc, rel, extent)
        rel = rel.intersect_domain(lv.domain)
        acc.relation = rel.set_tuple_name(DT.in_, acc.stmt).set_tuple_name(DT.out, acc.memref_name)
        acc.domain = lv.domain.set_tuple_name(acc.stmt)

    def _apply_extent(self, acc: AccessModel, rel: isl.Map, extent: tuple[str, object]) -> isl.Map:
        kind, data = extent
        n = acc.rank
        xs = [f"x{k}" for k in range(n)]
        ys = [f"y{k}" for k in range(n)]
        if kind == "vector":
            shape = list(data)  # type: ignore[call-overload]
            if len(shape) > n or any(not isinstance(s, int) or s <= 0 for s in shape):
                acc.failures.append(f"vector shape {shape} does not fit the rank-{n} memref")
                return _universe_range(rel)
            first = n - len(shape)
            cons = [f"{ys[k]} = {xs[k]}" for k in range(first)]
            cons += [f"{xs[k]} <= {ys[k]} < {xs[k]} + {shape[k - first]}" for k in range(first, n)]
            text = "{ [" + ", ".join(xs) + "] -> [" + ", ".join(ys) + "] : " + " and ".join(cons or ["true"]) + " }"
            return rel.apply_range(_cached_map(text))
        if kind == "transfer":
            return self._apply_transfer(acc, rel, data)  # type: ignore[arg-type]
        # DMA: num_elements consecutive elements in row-major order.
        mtype = acc.memref.type if acc.memref is not None else None
        shape = list(mtype.shape) if isinstance(mtype, MemRefType) else []
        count_value, strided = data  # type: ignore[misc]
        count: int | str | None = None
        if isinstance(count_value, Value):
            count = constant_of(count_value)
            if count is None and self._is_invariant(count_value):
                count = self.param_name(count_value)
        if strided:
            acc.failures.append("strided DMA transfers are not modelled")
            return _universe_range(rel)
        if len(shape) != n or any(d is None for d in shape[1:]):
            acc.failures.append("DMA on a memref without static inner dimensions")
            return _universe_range(rel)
        strides = [1] * n
        for k in range(n - 2, -1, -1):
            strides[k] = strides[k + 1] * int(shape[k + 1])  # type: ignore[arg-type]
        lin_x = " + ".join(f"{strides[k]}*{xs[k]}" for k in range(n)) or "0"
        lin_y = " + ".join(f"{strides[k]}*{ys[k]}" for k in range(n)) or "0"
        cons = [f"0 <= {ys[k]} < {shape[k]}" for k in range(1, n)]
        params = ""
        if isinstance(count, int):
            cons.append(f"0 <= ({lin_y}) - ({lin_x}) < {count}")
        elif isinstance(count, str):
            params = f"[{count}] -> "
            cons.append(f"0 <= ({lin_y}) - ({lin_x}) < {count}")
        else:
            acc.failures.append("DMA element count is not a constant or a symbol")
            cons.append(f"({lin_y}) >= ({lin_x})")
        text = params + "{ [" + ", ".join(xs) + "] -> [" + ", ".join(ys) + "] : " + " and ".join(cons) + " }"
        return rel.apply_range(_cached_map(text))

    def _apply_transfer(self, acc: AccessModel, rel: isl.Map, tr: Transfer) -> isl.Map:
        """The box of a vector transfer (``affine_ops.Transfer``): along each
        memref dimension ``[x, x + extent)``, clamped to ``[0, size)`` where
        the vector dimension is not ``in_bounds`` (its elements outside the
        memref are masked off); exact unless a mask operand selects a subset."""
        xs = [f"x{k}" for k in range(acc.rank)]
        ys = [f"y{k}" for k in range(acc.rank)]
        cons: list[str] = []
        params: list[str] = []
        for k, e in enumerate(tr.extents):
            cons.append(f"{ys[k]} = {xs[k]}" if e == 1 else f"{xs[k]} <= {ys[k]} < {xs[k]} + {e}")
            if k in tr.clamped:
                size = self.dim_size(tr.memref, k)
                if isinstance(size, str):
                    params.append(size)
                if size is not None:
                    cons.append(f"0 <= {ys[k]} < {size}")
        if tr.masked:
            acc.approximations.append(f"'{acc.op.name}' has a mask: any element of its box")
        head = f"[{', '.join(params)}] -> " if params else ""
        text = head + "{ [" + ", ".join(xs) + "] -> [" + ", ".join(ys) + "] : " + " and ".join(cons or ["true"]) + " }"
        return rel.apply_range(_cached_map(text))

    def semi_affine_access(self, acc: AccessModel) -> tuple[AccessModel, list[str]] | None:
        """``acc`` modelled the way MLIR's ``MemRefRegion::compute`` sees a
        semi-affine subscript: each semi-affine sub-expression (a product of
        two non-constants, a division by a non-constant) is a fresh variable
        with no constraint (an isl parameter; their names are returned), so
        the access may touch any element its affine part allows. None when
        the access has no semi-affine subscript or something else is not
        modelled. Only for the bound check: the relation is no dependence
        model."""
        if acc.relation is None or acc.approximations or all(acc.exact_indices):
            return None
        memref, amap, indices, extent = _access_parts(acc.op, acc.role)
        copy = AccessModel(acc.index, acc.op, acc.role, acc.is_write, memref, acc.stmt, acc.memref_name, acc.ivs, acc.loops, acc.rank)
        level = self._level(acc.op.parent)
        if level.failures or level.approximations:
            return None
        # The semi-affine mode is this thread's only (other threads may query
        # the model meanwhile) and bypasses the level's memo (not polluted).
        with SEMI_LOCK:
            self._semi_owner = threading.get_ident()
            fresh: list[str] = []
            self._semi_terms = fresh
            try:
                with limited(self.budget):
                    self._model_access(copy, level, amap, indices, extent)
            except (BudgetExceeded, IslFailure, RecursionError):
                return None
            finally:
                self._semi_terms = None
        if not fresh or not copy.exact or copy.relation is None:
            return None
        copy.relation = self._with_facts(copy.relation)
        return copy, fresh

    def _semi_mode(self) -> bool:
        """This thread is modelling an access the semi-affine way (see
        :meth:`semi_affine_access`)."""
        return self._semi_terms is not None and self._semi_owner == threading.get_ident()

    def _semi_term(self, lv: Level, e: AffineExpr) -> Term:
        assert self._semi_terms is not None
        name = self._fresh("semi")
        self._semi_terms.append(name)
        self.param_desc.pop(name, None)
        return self._param(lv, name)

    # ------------------------------------------------------------ expressions
    def _map_terms(self, lv: Level, amap: AffineMap, operands: list[Value]) -> list[Term | None]:
        """One term per result of ``amap``; None for a result that cannot be
        modelled (an unknown operand it uses, a semi-affine operation)."""
        nd, ns = amap.num_dims, amap.num_symbols
        if len(operands) != nd + ns:
            raise Unanalysable(f"{len(operands)} operands for a map with {nd} dims and {ns} symbols")
        ops = [self._resolve_lazy(lv, v) for v in operands]
        out: list[Term | None] = []
        for e in amap.results:
            try:
                out.append(self._expr(lv, e, ops[:nd], ops[nd:]))
            except Unanalysable:
                out.append(None)
            except RecursionError:
                out.append(None)
        return out

    def _set_terms(self, lv: Level, iset: IntegerSet, operands: list[Value]) -> list[tuple[Term | None, bool]]:
        nd, ns = iset.num_dims, iset.num_symbols
        if len(operands) != nd + ns:
            raise Unanalysable(f"{len(operands)} operands for a set with {nd} dims and {ns} symbols")
        ops = [self._resolve_lazy(lv, v) for v in operands]
        out: list[tuple[Term | None, bool]] = []
        for e, is_eq in zip(iset.constraints, iset.eq_flags):
            try:
                out.append((self._expr(lv, e, ops[:nd], ops[nd:]), is_eq))
            except (Unanalysable, RecursionError):
                out.append((None, is_eq))
        return out

    def _resolve_lazy(self, lv: Level, v: Value) -> Term | Unanalysable:
        try:
            return self.resolve(lv, v)
        except Unanalysable as e:
            return e.again()
        except RecursionError:
            return Unanalysable(f"{v.name}: definition chain too deep")

    def _expr(self, lv: Level, e: AffineExpr, dims: list[Term | Unanalysable], syms: list[Term | Unanalysable]) -> Term:
        k = e.kind
        if k is _CONSTANT:
            return self._const(lv, e.value)  # type: ignore[attr-defined]
        if k is _DIM or k is _SYMBOL:
            pos = e.position  # type: ignore[attr-defined]
            src = dims if k is _DIM else syms
            if pos >= len(src):
                raise Unanalysable(f"{e} has no operand")
            t = src[pos]
            if isinstance(t, Unanalysable):
                raise t.again()
            return t
        lhs = self._expr(lv, e.lhs, dims, syms)  # type: ignore[attr-defined]
        rhs = self._expr(lv, e.rhs, dims, syms)  # type: ignore[attr-defined]
        lc, rc = lhs[1], rhs[1]
        if k is _ADD:
            if lc is not None and rc is not None:
                return self._const(lv, lc + rc)
            return lhs[0].add(rhs[0]), None
        if k is _MUL:
            if lc is not None and rc is not None:
                return self._const(lv, lc * rc)
            if rc is not None:
                return lhs[0].scale_val(val(rc)), None
            if lc is not None:
                return rhs[0].scale_val(val(lc)), None
            if self._semi_mode():
                return self._semi_term(lv, e)
            raise Unanalysable(f"semi-affine product '{e}'")
        if rc is None:
            if self._semi_mode():
                return self._semi_term(lv, e)
            raise Unanalysable(f"semi-affine '{e}' (non-constant divisor)")
        if rc == 0:
            raise Unanalysable(f"division by zero in '{e}'")
        if lc is not None:
            if k is _FLOORDIV:
                return self._const(lv, lc // rc)
            if k is _CEILDIV:
                return self._const(lv, -((-lc) // rc))
            return self._const(lv, lc % rc)
        a = lhs[0]
        if k is _FLOORDIV:
            return _floordiv(a, rc), None
        if k is _CEILDIV:
            if rc > 0:
                return a.scale_down_val(val(rc)).ceil(), None
            return a.neg().scale_down_val(val(-rc)).ceil(), None
        # mod: lhs - rhs * floor(lhs / rhs)
        if rc > 0:
            return a.mod_val(val(rc)), None
        return a.sub(_floordiv(a, rc).scale_val(val(rc))), None

    # ----------------------------------------------------------------- values
    def resolve(self, lv: Level, v: Value) -> Term:
        """The isl expression of ``v`` over the IVs of ``lv`` (raises Unanalysable)."""
        if self._semi_mode():
            return self._resolve(lv, v)
        got = lv.memo.get(v)
        if got is not None:
            if isinstance(got, Unanalysable):
                raise got.again()
            return got
        try:
            t = self._resolve(lv, v)
        except Unanalysable as e:
            lv.memo[v] = e.again()
            raise
        lv.memo[v] = t
        return t

    def _resolve(self, lv: Level, v: Value) -> Term:
        pos = lv.iv_pos.get(v)
        if pos is not None:
            return self._var(lv, pos), None
        owner = v.defining_op if isinstance(v, OpResult) else None
        if owner is not None:
            name = owner.name
            if name in ("arith.constant", "index.constant"):
                a = owner.attributes.get("value")
                if isinstance(a, IntegerAttr) and not isinstance(a, BoolAttr):
                    return self._const(lv, a.value)
            elif name == "affine.apply":
                m = owner.attributes.get("map")
                if isinstance(m, AffineMapAttr) and m.map.num_results >= 1:
                    t = self._map_terms(lv, m.map.sub_map([0]) if m.map.num_results > 1 else m.map, list(owner.operands))[0]
                    if t is None:
                        raise Unanalysable(f"{v.name} = affine.apply of a non-affine expression")
                    return t
            elif name in ("affine.min", "affine.max"):
                m = owner.attributes.get("map")
                if isinstance(m, AffineMapAttr) and m.map.num_results >= 1:
                    ts = self._map_terms(lv, m.map, list(owner.operands))
                    if any(t is None for t in ts):
                        raise Unanalysable(f"{v.name} = {name} of a non-affine expression")
                    res = ts[0][0]  # type: ignore[index]
                    consts = [t[1] for t in ts]  # type: ignore[index]
                    if all(c is not None for c in consts):
                        return self._const(lv, (min if name == "affine.min" else max)(consts))  # type: ignore[type-var]
                    for t in ts[1:]:
                        res = res.min(t[0]) if name == "affine.min" else res.max(t[0])  # type: ignore[index]
                    return res, None
            elif name == "memref.dim" and len(owner.operands) == 2:
                idx = self._resolve_lazy(lv, owner.operands[1])
                if not isinstance(idx, Unanalysable) and idx[1] is not None:
                    size = self.dim_size(owner.operands[0], idx[1])
                    if isinstance(size, int):
                        return self._const(lv, size)
                    if isinstance(size, str):
                        return self._param(lv, size)
            elif name in ("arith.addi", "arith.subi", "arith.muli") and len(owner.operands) == 2:
                ra, rb = self._resolve_lazy(lv, owner.operands[0]), self._resolve_lazy(lv, owner.operands[1])
                if isinstance(ra, Unanalysable) or isinstance(rb, Unanalysable):
                    if self._is_invariant(v):
                        return self._param(lv, self.param_name(v))
                    raise (ra if isinstance(ra, Unanalysable) else rb).again()  # type: ignore[union-attr]
                a, b = ra, rb
                if name == "arith.addi":
                    return self._const(lv, a[1] + b[1]) if a[1] is not None and b[1] is not None else (a[0].add(b[0]), None)
                if name == "arith.subi":
                    return self._const(lv, a[1] - b[1]) if a[1] is not None and b[1] is not None else (a[0].sub(b[0]), None)
                if a[1] is not None and b[1] is not None:
                    return self._const(lv, a[1] * b[1])
                if b[1] is not None:
                    return a[0].scale_val(val(b[1])), None
                if a[1] is not None:
                    return b[0].scale_val(val(a[1])), None
            elif name in ("arith.index_cast", "arith.index_castui") and len(owner.operands) == 1:
                r = self._resolve_lazy(lv, owner.operands[0])
                if not isinstance(r, Unanalysable):
                    return r
        if self._is_invariant(v):
            return self._param(lv, self.param_name(v))
        raise Unanalysable(f"{v.name} is not an affine function of the enclosing loop IVs and symbols")

    def param_name(self, v: Value) -> str:
        n = self.name_of(v)
        self.param_values.setdefault(n, v)
        self.param_desc.setdefault(n, v.name)
        return n

    def _is_invariant(self, v: Value) -> bool:
        """Defined once per execution of the function (outside every loop)."""
        if isinstance(v, BlockArgument):
            blk = v.owner
            if blk is None or blk.parent is None:
                return False
            return blk.parent.parent is self.scope and blk.parent.blocks[0] is blk
        owner = v.defining_op
        if owner is None:
            return False
        cur: Operation | None = owner
        while cur is not None and cur is not self.scope:
            blk = cur.parent
            if blk is None or blk.parent is None:
                return False
            if blk.parent.blocks and blk.parent.blocks[0] is not blk:
                return False
            parent = blk.parent.parent
            if parent is None:
                return False
            if parent is self.scope:
                return True
            if parent.name not in _NON_LOOPING_REGION_OPS:
                return False
            cur = parent
        return cur is self.scope

    def dim_size(self, memref: Value, r: int) -> int | str | None:
        """Size of dimension ``r`` of ``memref``: an int, a parameter name
        (``>= 0``), or None when unknown."""
        t = memref.type
        if not isinstance(t, MemRefType) or not 0 <= r < len(t.shape):
            return None
        d = t.shape[r]
        if d is not None:
            return int(d)
        key = (memref, r)
        got = self._dim_params.get(key)
        if got is not None:
            return got
        name: str | None = None
        owner = memref.defining_op if isinstance(memref, OpResult) else None
        if owner is not None and owner.name in ("memref.alloc", "memref.alloca"):
            dyn_pos = sum(1 for s in t.shape[:r] if s is None)
            sizes = owner.segment(0) if owner.operand_segments else list(owner.operands)
            if dyn_pos < len(sizes):
                sz = sizes[dyn_pos]
                c = constant_of(sz)
                if c is not None:
                    return c
                if self._is_invariant(sz) and constant_of(sz) is None and not _is_computed(sz):
                    name = self.param_name(sz)
        if name is None:
            name = self._fresh(f"{self.name_of(memref)}_d{r}")
            self.param_values[name] = None
        pid = param_id(name)
        sp = isl.Space.params_alloc(CTX, 0).add_param_id(pid)
        p = isl.PwAff.from_aff(isl.Aff.param_on_domain_space_id(sp, pid))
        self._param_facts[name] = p.nonneg_set()
        self.param_desc.setdefault(name, f"size of dimension #{r + 1} of {memref.name}")
        self._dim_params[key] = name
        return name


def constant_of(v: Value) -> int | None:
    owner = v.defining_op if isinstance(v, OpResult) else None
    if owner is not None and owner.name in ("arith.constant", "index.constant"):
        a = owner.attributes.get("value")
        if isinstance(a, IntegerAttr) and not isinstance(a, BoolAttr):
            return a.value
    return None


def _is_computed(v: Value) -> bool:
    owner = v.defining_op if isinstance(v, OpResult) else None
    return owner is not None and owner.name in ("affine.apply", "affine.min", "affine.max", "memref.dim")


def _floordiv(a: isl.PwAff, c: int) -> isl.PwAff:
    if c > 0:
        return a.scale_down_val(val(c)).floor()
    return a.neg().scale_down_val(val(-c)).floor()


def _universe_range(rel: isl.Map) -> isl.Map:
    return isl.Map.universe(rel.get_space()).intersect_domain(rel.domain())


_MAP_CACHE: dict[str, isl.Map] = {}


def _cached_map(text: str) -> isl.Map:
    m = _MAP_CACHE.get(text)
    if m is None:
        m = isl.Map.read_from_str(CTX, text)
        if len(_MAP_CACHE) < 4096:
            _MAP_CACHE[text] = m
    return m


def _access_parts(op: Operation, role: str) -> tuple[Value | None, AffineMap | None, list[Value], tuple[str, object] | None]:
    """``(memref, map, map operands, extent)`` of one access of ``op``."""
    n = op.name
    ops = list(op.operands)

    def amap(key: str) -> AffineMap | None:
        a = op.attributes.get(key)
        return a.map if isinstance(a, AffineMapAttr) else None

    if n in ("affine.load", "affine.vector_load", "affine.prefetch"):
        memref = ops[0] if ops else None
        extent = None
        if n == "affine.vector_load":
            rt = op.results[0].type if op.results else None
            extent = ("vector", list(rt.shape)) if isinstance(rt, VectorType) else ("vector", [])
            if not isinstance(rt, VectorType):
                extent = None
        return memref, amap("map"), ops[1:], extent
    if n in ("affine.store", "affine.vector_store"):
        memref = ops[1] if len(ops) > 1 else None
        extent = None
        if n == "affine.vector_store" and ops:
            vt = ops[0].type
            if isinstance(vt, VectorType):
                extent = ("vector", list(vt.shape))
        return memref, amap("map"), ops[2:], extent
    if n == "affine.dma_start":
        segs = op.operand_segments
        if segs is None or len(segs) < 4:
            return None, None, [], None
        if role == "dma_src":
            grp = op.segment(0)
            m = amap("src_map")
        else:
            grp = op.segment(1)
            m = amap("dst_map")
        rest = op.segment(3)
        extent = ("dma", (rest[0] if rest else None, len(rest) > 1))
        return (grp[0] if grp else None), m, grp[1:], extent
    if n in ("vector.transfer_read", "vector.transfer_write"):
        tr = transfer_of(op)
        if tr is None:
            return None, None, [], None
        return tr.memref, AffineMap.identity(len(tr.indices)), list(tr.indices), ("transfer", tr)
    if role.startswith(WHOLE):
        i = int(role[len(WHOLE) :])
        return (ops[i] if i < len(ops) else None), None, [], ("whole", None)
    return None, None, [], None
