"""Value-based dataflow: which write each read takes its value from.

Memory-based dependences (:mod:`.dependences`) say that two instances touch
the same element in order; value-based dataflow keeps, for every read
instance, only the *last* write before it (isl's ``compute_flow`` with the
function's schedule), and the read instances that have no such write: they
read values from before the function ("live-in").

The schedule is the usual 2d+1 form derived from the IR: at each nesting
level the position of the enclosing op (counting the ops of every block of
every region of its parent) followed by the IVs of that op when it is an
``affine.for``/``affine.parallel``; ``affine.parallel`` iterations are ordered
lexicographically like a sequential nest (a racy ``affine.parallel`` is
reported separately). Writes whose model is exact are *must* sources, the
others *may* sources; a read's flow is exact when every access to its memref
is modelled exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from affine_lsp.analysis.dependences import FunctionDeps

from dataclasses import dataclass, field

import islpy as isl

from affine_lsp.analysis.isl_support import CTX, DEFAULT_BUDGET, DT, BudgetExceeded, IslFailure, limited, val_bound
from affine_lsp.analysis.polyhedral import AccessModel
from affine_lsp.ir.core import Block, Operation


@dataclass(eq=False)
class FlowEdge:
    """Values written by ``write`` and read by ``read``: ``relation`` maps each
    write instance to the read instances that get their value from it."""

    write: AccessModel
    read: AccessModel
    relation: isl.Map
    exact: bool

    @property
    def num_common(self) -> int:
        n = 0
        for a, b in zip(self.write.ivs, self.read.ivs):
            if a is not b:
                break
            n += 1
        return n

    def components(self) -> list[tuple[int | None, int | None]]:
        """Exact ``[lb, ub]`` of ``read IV - write IV`` per common loop."""
        c = self.num_common
        out: list[tuple[int | None, int | None]] = []
        try:
            with limited(0):
                w = self.relation.wrap()
                ls = isl.LocalSpace.from_space(w.get_space())
                n = self.write.num_loops
                for k in range(c):
                    aff = isl.Aff.var_on_domain(ls, DT.set, n + k).sub(isl.Aff.var_on_domain(ls, DT.set, k))
                    out.append((val_bound(w.min_val(aff))[1], val_bound(w.max_val(aff))[1]))
        except (BudgetExceeded, IslFailure):
            return []
        return out

    def distance_str(self) -> str:
        return "".join(f"[{'-inf' if lb is None else lb}, {'+inf' if ub is None else ub}]" for lb, ub in self.components())

    def to_json(self) -> dict:
        return {
            "write": self.write.index,
            "read": self.read.index,
            "exact": self.exact,
            "relation": str(self.relation),
            "components": [[lb, ub] for lb, ub in self.components()],
        }


@dataclass(eq=False)
class ReadFlow:
    """Where the values of one read come from."""

    read: AccessModel
    sources: list[FlowEdge] = field(default_factory=list)
    live_in: isl.Set | None = None  # read instances that may see a value from before the function
    exact: bool = True

    @property
    def reads_live_in(self) -> bool:
        return self.live_in is not None and not self.live_in.is_empty()

    def to_json(self) -> dict:
        return {
            "read": self.read.index,
            "exact": self.exact,
            "sources": [e.to_json() for e in self.sources],
            "live_in": str(self.live_in) if self.reads_live_in else None,
        }


@dataclass(eq=False)
class Dataflow:
    flows: dict[int, ReadFlow] = field(default_factory=dict)
    failed: str | None = None

    def flow_into(self, read: AccessModel) -> ReadFlow | None:
        return self.flows.get(read.index)

    def uses_of(self, write: AccessModel) -> list[FlowEdge]:
        return [e for f in self.flows.values() for e in f.sources if e.write is write]


Distance = list[tuple[int | None, int | None]]


def last_writer_distance(flow: Dataflow, dep: Any) -> Distance | None:
    """The value-based distance of the RAW dependence ``dep`` (a
    :class:`~.dependences.DepResult`): ``[lb, ub]`` of ``read IV - write IV``
    per common loop over the pairs of ``dep`` in which the write is the
    read's last writer (the read takes its value from it). None when no read
    of ``dep`` takes its value from ``dep``'s write (``dep`` is
    memory-based only); ``[]`` when it does but the distance is not known.

    The memory-based distance (``dep.components``) covers every earlier
    write of the element: an accumulator ``s += A[i]`` has the memory-based
    RAW distance ``[1, n-1]`` and the value-based distance ``[1, 1]``."""
    rf = flow.flow_into(dep.dst)
    if rf is None:
        return None
    rel = dep.relation
    for e in rf.sources:
        if e.write is not dep.src:
            continue
        try:
            with limited(DEFAULT_BUDGET):
                pairs = e.relation if rel is None else e.relation.intersect(rel)
                if pairs.is_empty():
                    continue
        except (BudgetExceeded, IslFailure):
            return []
        return FlowEdge(e.write, e.read, pairs, e.exact).components()
    return None


def _block_offsets(op_or_none: Operation | None, scope_blocks: list[Block]) -> dict[Block, int]:
    blocks = scope_blocks if op_or_none is None else [b for r in op_or_none.regions for b in r.blocks]
    out: dict[Block, int] = {}
    n = 0
    for b in blocks:
        out[b] = n
        n += len(b.operations)
    return out


def schedule_items(fd: FunctionDeps, acc: AccessModel) -> list[int | str]:
    """The 2d+1 schedule of ``acc``: ints (positions) and ``"x<k>"`` (IV k)."""
    model = fd.model
    scope_blocks = [b for r in fd.scope.regions for b in r.blocks]
    iv_pos = {v: k for k, v in enumerate(acc.ivs)}
    items: list[int | str] = []
    for n, (block, op) in enumerate(acc.path):
        parent = block.parent_op
        offsets = _block_offsets(None if parent is fd.scope else parent, scope_blocks)
        items.append(offsets.get(block, 0) + model.position(block, op))
        if n < len(acc.path) - 1:
            if op.name == "affine.for" and op.regions and op.regions[0].blocks and op.regions[0].blocks[0].arguments:
                iv = op.regions[0].blocks[0].arguments[0]
                if iv in iv_pos:
                    items.append(f"x{iv_pos[iv]}")
            elif op.name == "affine.parallel" and op.regions and op.regions[0].blocks:
                for iv in op.regions[0].blocks[0].arguments:
                    if iv in iv_pos:
                        items.append(f"x{iv_pos[iv]}")
    return items


def compute_dataflow(fd: FunctionDeps) -> Dataflow:
    accs = [a for a in fd.accesses if a.relation is not None]
    reads = [a for a in accs if not a.is_write]
    writes = [a for a in accs if a.is_write]
    out = Dataflow()
    if not reads:
        return out
    inexact_mems = {a.memref for a in fd.accesses if not a.exact or a.relation is None}
    scheds = {a.index: schedule_items(fd, a) for a in accs}
    length = max(len(s) for s in scheds.values())
    by_stmt = {a.stmt: a for a in accs}
    try:
        with limited(fd.budget * max(1, len(accs))):
            sched = None
            for a in accs:
                items = [str(x) for x in scheds[a.index]] + ["0"] * (length - len(scheds[a.index]))
                names = _dim_names(a)
                items = [names[int(x[1:])] if x.startswith("x") else x for x in items]
                m = isl.UnionMap.from_map(isl.Map.read_from_str(CTX, f"{{ {a.stmt}[{', '.join(names)}] -> [{', '.join(items)}] }}"))
                sched = m if sched is None else sched.union(m)
            sinks = _union([a.relation for a in reads])
            must = _union([a.relation for a in writes if a.exact])
            may = _union([a.relation for a in writes if not a.exact])
            info = isl.UnionAccessInfo.from_sink(sinks if sinks is not None else _empty())
            info = info.set_must_source(must if must is not None else _empty())
            info = info.set_may_source(may if may is not None else _empty())
            info = info.set_schedule_map(sched)
            flow = info.compute_flow()
            may_dep = flow.get_may_dependence()
            no_source = flow.get_may_no_source()
            for r in reads:
                out.flows[r.index] = ReadFlow(r, exact=r.memref not in inexact_mems)
            for m in _maps(may_dep):
                w = by_stmt.get(m.get_tuple_name(DT.in_))
                r = by_stmt.get(m.get_tuple_name(DT.out))
                if w is None or r is None or r.index not in out.flows:
                    continue
                rf = out.flows[r.index]
                rf.sources.append(FlowEdge(w, r, m.coalesce().drop_unused_params(), rf.exact))
            for m in _maps(no_source):
                r = by_stmt.get(m.get_tuple_name(DT.in_))
                if r is None or r.index not in out.flows:
                    continue
                rf = out.flows[r.index]
                dom = m.domain()
                rf.live_in = dom if rf.live_in is None else rf.live_in.union(dom)
            for rf in out.flows.values():
                rf.sources.sort(key=lambda e: e.write.index)
                if rf.live_in is not None:
                    rf.live_in = rf.live_in.coalesce().drop_unused_params()
    except BudgetExceeded:
        out.failed = "budget exceeded"
        fd._budget_note(fd.scope, "computing the value-based dataflow")
    except IslFailure as e:
        out.failed = f"isl failure: {e}"
    return out


def _empty() -> isl.UnionMap:
    return isl.UnionMap.empty(isl.Space.params_alloc(CTX, 0))


def _union(maps: list[isl.Map]) -> isl.UnionMap | None:
    u: isl.UnionMap | None = None
    for m in maps:
        um = isl.UnionMap.from_map(m)
        u = um if u is None else u.union(um)
    return u


def _dim_names(a: AccessModel) -> list[str]:
    if a.domain is not None:
        names = [a.domain.get_dim_name(DT.set, k) for k in range(a.num_loops)]
        if all(names) and len(set(names)) == len(names):
            return names  # type: ignore[return-value]
    return [f"x{k}" for k in range(a.num_loops)]


def _maps(u: isl.UnionMap) -> list[isl.Map]:
    out: list[isl.Map] = []
    u.foreach_map(out.append)
    return out
