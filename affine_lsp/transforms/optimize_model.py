"""The polyhedral model of a group of loop nests for "Optimize loop nest".

A **statement** is a run of ops of one loop body between nested loops (an
imperfect nest gives several); its domain is the iteration set of its
enclosing loops (the isl set named ``S<k>``), its accesses the access
relations of its loads and stores, as :mod:`affine_lsp.analysis.polyhedral`
builds them. The **dependences** between statement instances (RAW, WAR,
WAW) come from the one dependence engine
(:class:`~affine_lsp.analysis.dependences.FunctionDeps`): the relation of
every access pair at every depth, renamed to statement tuples.

Ops that only compute values (``arith.constant``, and ``affine.apply`` /
``affine.min`` / ``affine.max`` of IVs and constants) are not statements:
constants are hoisted in front of the new code, the index computations are
copied into every statement that uses them.

A nest the scheduler cannot handle is refused with the reason
(:class:`Refused`): iter_args or results on a loop, ``affine.parallel``
inside, an ``affine.if`` around loops, an op with unknown memory effects
or a call, a non-affine access or bound, a value computed in one statement
and used in another.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import islpy as isl

from affine_lsp.analysis.dependences import NONE, UNKNOWN, FunctionDeps
from affine_lsp.analysis.isl_support import DT
from affine_lsp.analysis.polyhedral import AccessModel
from affine_lsp.ir import op_traits
from affine_lsp.ir.affine_ops import ForView
from affine_lsp.ir.core import Block, BlockArgument, Operation, Value

_LOOPS = frozenset({"affine.for", "affine.parallel"})
_INDEX_OPS = frozenset({"affine.apply", "affine.min", "affine.max"})
_ALLOWED_PREFIXES = ("arith.", "math.")
_ALLOWED = frozenset({"affine.load", "affine.store", "affine.if", "affine.yield", "affine.vector_load", "affine.vector_store"})


class Refused(Exception):
    """The nest cannot be rescheduled; the message says why."""


@dataclass(eq=False)
class Statement:
    name: str  # S0, S1, ... (the isl tuple name)
    ops: list[Operation]  # in program order
    block: Block
    ivs: tuple[Value, ...]
    iv_names: tuple[str, ...]  # the isl names of the IVs
    domain: isl.Set
    accesses: list[AccessModel] = field(default_factory=list)
    index_ops: list[Operation] = field(default_factory=list)  # affine.apply ... copied in front of the ops
    position: tuple[int, ...] = ()  # the original 2d+1 schedule's constant parts


@dataclass
class NestModel:
    """Statements, constants to hoist and dependences of a group of top-level nests."""

    roots: list[Operation]
    statements: list[Statement]
    constants: list[Operation]
    deps: isl.UnionMap  # validity: every dependence between statement instances
    original: isl.UnionMap  # the original schedule (2d+1 form)
    params: dict[str, Value]
    engine: FunctionDeps
    dep_memrefs: list[tuple[str, str, Value]] = field(default_factory=list)  # (source, target statement, memref) of each dependence


def _check_op(op: Operation) -> None:
    for inner in op.walk():
        n = inner.name
        if n in _LOOPS:
            raise Refused(f"'{op.name}' holds a loop: only loops directly nested in loops can be rescheduled")
        if n in ("func.call", "func.call_indirect") or n.endswith(".call"):
            raise Refused(f"the nest calls a function ('{n}'): its memory effects are unknown")
        if not (n in _ALLOWED or n.startswith(_ALLOWED_PREFIXES) or n in _INDEX_OPS or _computes_only(inner)):
            if n.startswith("memref.") and n in ("memref.load", "memref.store"):
                raise Refused(f"'{n}' is not an affine access: its subscripts cannot be modelled")
            if op_traits.unknown_extent_accesses(inner):
                raise Refused(f"'{n}' touches memrefs with an unknown extent: the scheduler needs exact accesses")
            raise Refused(f"'{n}' may have memory effects the dependence analysis does not model")


def _computes_only(op: Operation) -> bool:
    """An op that only computes values (no region, free of memory effects:
    ``Pure`` or ``NoMemoryEffect`` in its ODS, upstream or the user's): a
    part of its statement like an ``arith`` op."""
    return op.known and not op.regions and op_traits.is_memory_effect_free(op.name)


class _Builder:
    def __init__(self, roots: Sequence[Operation], engine: FunctionDeps) -> None:
        self.roots = list(roots)
        self.engine = engine
        self.statements: list[Statement] = []
        self.constants: list[Operation] = []
        self.index_ops: set[Operation] = set()
        self.inside: set[Operation] = set()
        self.orig_parts: list[isl.Map] = []

    def build(self) -> None:
        for r in self.roots:
            for op in r.walk():
                self.inside.add(op)
        for k, root in enumerate(self.roots):
            self._loop(root, (k,))

    def _loop(self, loop: Operation, pos: tuple[int, ...]) -> None:
        if loop.name == "affine.parallel":
            raise Refused("the nest holds an affine.parallel: only affine.for nests are rescheduled")
        f = ForView(loop)
        if f.inits or loop.results:
            raise Refused(f"the loop at {f.iv.name if f.iv else '?'} carries values (iter_args): the scheduler only reorders memory effects")
        body = f.body
        assert body is not None
        run: list[Operation] = []
        k = 0
        for op in body.operations:
            if op.name == "affine.yield" and not op.operands:
                continue
            if op.name == "affine.for" or op.name == "affine.parallel":
                if run:
                    self._statement(body, run, (*pos, k))
                    k += 1
                    run = []
                self._loop(op, (*pos, k))
                k += 1
                continue
            _check_op(op)
            if op.name == "arith.constant":
                self.constants.append(op)
            elif op.name in _INDEX_OPS:
                self.index_ops.add(op)
            else:
                run.append(op)
        if run:
            self._statement(body, run, (*pos, k))

    def _statement(self, block: Block, ops: list[Operation], pos: tuple[int, ...]) -> None:
        model = self.engine.model
        dom, ivs, iv_names, failures = model.block_domain(block)
        if failures:
            raise Refused(f"the bounds of a loop are not affine: {failures[0]}")
        name = f"S{len(self.statements)}"
        dom = model._with_facts(dom).set_tuple_name(name)
        st = Statement(name, list(ops), block, ivs, iv_names, dom, position=pos)
        mine = set()
        for op in ops:
            for inner in op.walk():
                mine.add(inner)
                for acc in self.engine.accesses_of(inner):
                    if not acc.analysable or acc.relation is None:
                        why = "; ".join(acc.failures) or "its subscripts cannot be modelled"
                        raise Refused(f"{acc.describe()} is not an affine access: {why}")
                    st.accesses.append(acc)
        # values: defined in the statement, an IV, a hoisted constant, an
        # index computation (copied), or defined outside the nests
        needed: list[Operation] = []
        for op in ops:
            for inner in op.walk():
                for v in inner.operands:
                    self._use(v, st, mine, needed)
            for r in op.results:
                for u in r.uses:
                    if u.user not in mine:
                        raise Refused(f"{r.name} is computed in one statement and used in another: the scheduler cannot reorder them")
        st.index_ops = sorted(set(needed), key=lambda o: o.span.start)
        self.statements.append(st)

    def _use(self, v: Value, st: Statement, mine: set[Operation], needed: list[Operation]) -> None:
        if isinstance(v, BlockArgument):
            if any(v is iv for iv in st.ivs):
                return
            owner = v.owner.parent_op if v.owner is not None else None
            if owner is not None and owner in self.inside and owner.name != "affine.for":
                return  # a block argument of a region inside the statement
            if owner is None or owner not in self.inside:
                return
            raise Refused(f"{v.name} is not available to every statement")
        d = v.defining_op
        if d is None or d not in self.inside or d in mine:
            return
        if d.name == "arith.constant":
            return
        if d in self.index_ops:
            if d not in needed:
                needed.append(d)
                for w in d.operands:
                    self._use(w, st, mine, needed)
            return
        raise Refused(f"{v.name} is computed in one statement and used in another: the scheduler cannot reorder them")


def _dependences(b: _Builder, on: list[tuple[str, str, Value]]) -> isl.UnionMap:
    engine = b.engine
    stmt_of: dict[int, Statement] = {}
    for st in b.statements:
        for a in st.accesses:
            stmt_of[a.index] = st
    accs = [a for st in b.statements for a in st.accesses]
    if not engine.within_limit(accs):
        raise Refused("too many access pairs for an exact dependence analysis")
    deps: isl.UnionMap | None = None
    for src, dst in engine.candidate_pairs(accs):
        pair = engine.pair(src, dst)
        for r in pair.results:
            if r.status == NONE:
                continue
            if r.status == UNKNOWN:
                raise Refused(f"a dependence from {src.describe()} to {dst.describe()} is not known exactly: {r.reason or 'unknown'}")
            rel = r.relation
            if rel is None:
                raise Refused(f"the dependence from {src.describe()} to {dst.describe()} has no relation")
            s, d = stmt_of[src.index], stmt_of[dst.index]
            rel = rel.set_tuple_name(DT.in_, s.name).set_tuple_name(DT.out, d.name)
            if s is d:
                rel = rel.subtract(isl.Map.identity(rel.get_space()))  # same instance: the statement's own order
            if rel.is_empty():
                continue
            assert src.memref is not None
            on.append((s.name, d.name, src.memref))
            u = isl.UnionMap.from_map(rel)
            deps = u if deps is None else deps.union(u)
    if deps is None:
        sp = b.statements[0].domain.get_space().params()
        deps = isl.UnionMap.empty(sp)
    return deps.coalesce()


def _original_schedule(statements: Sequence[Statement]) -> isl.UnionMap:
    """``S[ivs] -> [p0, iv0, p1, iv1, ..., pn]`` (the 2d+1 form), padded to one width."""
    width = max(2 * len(st.ivs) + 1 for st in statements)
    out: isl.UnionMap | None = None
    for st in statements:
        outs = []
        for k, iv in enumerate(st.iv_names):
            outs.append(str(st.position[k]))
            outs.append(iv)
        outs.append(str(st.position[len(st.ivs)] if len(st.position) > len(st.ivs) else 0))
        outs += ["0"] * (width - len(outs))
        params = st.domain.get_space().get_var_names(DT.param)
        text = f"[{', '.join(params)}] -> {{ {st.name}[{', '.join(st.iv_names)}] -> [{', '.join(outs)}] }}"
        m = isl.Map.read_from_str(st.domain.get_ctx(), text).intersect_domain(st.domain)
        u = isl.UnionMap.from_map(m)
        out = u if out is None else out.union(u)
    assert out is not None
    return out


def build_model(roots: Sequence[Operation], engine: FunctionDeps) -> NestModel:
    """The statements and dependences of ``roots`` (top-level ``affine.for``
    nests of one function, in order). Call inside :func:`limited`. Raises
    :class:`Refused`."""
    b = _Builder(roots, engine)
    b.build()
    if not b.statements:
        raise Refused("the nest has no statement with memory effects")
    on: list[tuple[str, str, Value]] = []
    deps = _dependences(b, on)
    params: dict[str, Value] = {}
    for st in b.statements:
        for p in st.domain.get_space().get_var_names(DT.param):
            v = engine.model.param_values.get(p)
            if v is not None:
                params[p] = v
    return NestModel(list(roots), b.statements, b.constants, deps, _original_schedule(b.statements), params, engine, on)
