"""Memory-based dependences between affine accesses, with MLIR's semantics.

:meth:`FunctionDeps.check` follows ``checkMemrefAccessDependence``
(``mlir/lib/Dialect/Affine/Analysis/AffineAnalysis.cpp``):

* accesses to different memref values never depend, nor do two reads;
* at depth ``d <= common`` (the number of loops around both accesses) the
  outer ``d - 1`` common IVs are equal and the ``d``-th is strictly larger for
  the destination: a dependence *carried* by that loop;
* at depth ``common + 1`` all common IVs are equal and the source op must
  precede the destination op in the closest block containing both
  (``srcAppearsBeforeDstInAncestralBlock``); otherwise there is none;
* the answer carries, for every common loop, the **exact** ``[lb, ub]`` of
  ``dst IV - src IV`` over all dependent instance pairs and all parameter
  values (None for an infinite bound). MLIR's Fourier-Motzkin projection can
  be looser (strides, ``mod``/``floordiv``, non-unit coefficients); isl's
  integer optimisation is exact.

Each query runs under an isl operation limit; when it trips, the answer is
``unknown`` (a conservative "may depend") and an info :class:`Note` is
recorded in :attr:`FunctionDeps.notes`.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from affine_lsp.analysis.dataflow import Dataflow
    from affine_lsp.analysis.summary import LoopSummary

from collections.abc import Callable
from dataclasses import dataclass, field

import islpy as isl

from affine_lsp.analysis.isl_support import DEFAULT_BUDGET, DT, BudgetExceeded, IslFailure, limited, val_bound
from affine_lsp.analysis.polyhedral import AccessModel, FunctionModel
from affine_lsp.ir.core import Operation
from affine_lsp.syntax.nodes import Note

DEFAULT_MAX_PAIRS = 50_000
"""Bulk analyses (all pairs, loop summaries, races) give up above this many candidate access pairs."""

NONE = "none"
DEPENDENCE = "dependence"
UNKNOWN = "unknown"


def dependence_kind(src: AccessModel, dst: AccessModel) -> str | None:
    """RAW, WAR, WAW, or None for read-after-read."""
    if src.is_write and dst.is_write:
        return "WAW"
    if src.is_write:
        return "RAW"
    if dst.is_write:
        return "WAR"
    return None


def num_common_loops(src: AccessModel, dst: AccessModel) -> int:
    """MLIR's ``getNumCommonSurroundingLoops`` (affine.for and affine.parallel IVs)."""
    n = 0
    for a, b in zip(src.ivs, dst.ivs):
        if a is not b:
            break
        n += 1
    return n


@dataclass(eq=False)
class DepResult:
    """The dependence from ``src`` to ``dst`` at ``depth``.

    ``status`` is ``none`` (proven independent), ``dependence`` (exact model,
    dependent instance pairs exist) or ``unknown`` (may depend: an
    unanalysable access, non-affine control flow, or the budget tripped).
    ``components[k]`` is ``(lb, ub)`` of ``dst IV_k - src IV_k`` for each
    common loop (``None`` bounds are infinite); empty when there is no
    dependence. ``relation`` is the dependence relation
    ``S_src[ivs] -> S_dst[ivs]`` (None when unknown without a model).
    """

    src: AccessModel | None
    dst: AccessModel | None
    depth: int
    num_common: int
    status: str
    kind: str | None = None
    components: list[tuple[int | None, int | None]] = field(default_factory=list)
    _relation: isl.Map | None = None
    reason: str = ""
    budget_exceeded: bool = False
    mlir_failure: bool = False
    _make_relation: Callable[[], isl.Map | None] | None = field(default=None, repr=False)

    @property
    def relation(self) -> isl.Map | None:
        """The dependence relation (computed on first use for pairs without
        common loops, whose status is decided on the accessed regions)."""
        if self._relation is None and self._make_relation is not None:
            make, self._make_relation = self._make_relation, None
            try:
                with limited(DEFAULT_BUDGET):
                    self._relation = make()
            except (BudgetExceeded, IslFailure):
                self._relation = None
        return self._relation

    @property
    def has_dependence(self) -> bool:
        """True unless independence is proven (conservative for legality)."""
        return self.status != NONE

    @property
    def is_carried(self) -> bool:
        return self.depth <= self.num_common

    def mlir_str(self) -> str:
        """The result as ``-test-memref-dependence-check`` prints it."""
        if self.status == NONE:
            return "false"
        if self.depth > self.num_common or not self.components:
            return "true"
        return "".join(f"[{_fmt(lb, '-inf')}, {_fmt(ub, '+inf')}]" for lb, ub in self.components)

    def distance_set(self) -> isl.Set | None:
        """The exact set of distance vectors ``dst IVs - src IVs`` over the
        common loops (parametric, strided, a union of pieces: whatever isl
        finds), or None when there is no relation."""
        if self.relation is None or self.status == NONE or self.src is None or self.dst is None:
            return None
        c = self.num_common
        try:
            with limited(DEFAULT_BUDGET):
                r = self.relation
                r = r.project_out(DT.in_, c, r.dim(DT.in_) - c).project_out(DT.out, c, r.dim(DT.out) - c)
                r = r.reset_tuple_id(DT.in_).reset_tuple_id(DT.out)
                d = r.deltas().coalesce()
                for k in range(c):
                    d = d.set_dim_name(DT.set, k, f"d{k}")
                return d
        except (BudgetExceeded, IslFailure):
            return None

    def distance_set_str(self) -> str:
        d = self.distance_set()
        return str(d) if d is not None else "<unknown>"

    def distance_bounds_str(self) -> list[tuple[str, str]]:
        """Per common loop, the parametric ``(min, max)`` of the distance as isl
        piecewise expressions (e.g. ``[N] -> { [(-1 + N)] : N >= 2 }``)."""
        d = self.distance_set()
        if d is None:
            return []
        out = []
        try:
            with limited(DEFAULT_BUDGET):
                for k in range(self.num_common):
                    out.append((str(d.dim_min(k).coalesce()), str(d.dim_max(k).coalesce())))
        except (BudgetExceeded, IslFailure):
            return []
        return out

    def relation_str(self) -> str:
        return str(self.relation) if self.relation is not None else "<unknown>"

    def describe(self) -> str:
        """A one-line human description."""
        if self.src is None or self.dst is None:
            return self.reason or self.status
        where = f"carried by loop #{self.depth}" if self.is_carried else "loop-independent"
        kind = self.kind or "RAR"
        if self.status == NONE:
            return f"no {kind} dependence {where}"
        dist = self.mlir_str() if self.is_carried else "[same iteration]"
        may = "may have" if self.status == UNKNOWN else "has"
        return f"{kind} {where}: {self.src.describe()} {may} a dependence to {self.dst.describe()} {dist}"

    def to_json(self) -> dict:
        out: dict = {
            "depth": self.depth,
            "common_loops": self.num_common,
            "status": self.status,
            "kind": self.kind,
            "result": self.mlir_str(),
            "components": [[lb, ub] for lb, ub in self.components],
        }
        if self.relation is not None and self.status != NONE:
            out["relation"] = str(self.relation)
            out["distances"] = self.distance_set_str()
        if self.reason:
            out["reason"] = self.reason
        if self.budget_exceeded:
            out["budget_exceeded"] = True
        return out


def _fmt(v: int | None, inf: str) -> str:
    return inf if v is None else str(v)


@dataclass(eq=False)
class PairDeps:
    """All depths of one ordered access pair."""

    src: AccessModel
    dst: AccessModel
    num_common: int
    results: list[DepResult]  # results[d - 1] for d in 1..num_common + 1

    @property
    def kind(self) -> str | None:
        return dependence_kind(self.src, self.dst)

    def at(self, depth: int) -> DepResult:
        return self.results[depth - 1]

    @property
    def has_dependence(self) -> bool:
        return any(r.has_dependence for r in self.results)


class FunctionDeps:
    """Dependences of one function (any op that starts an analysis scope).

    Built once per function op and cached by :func:`dependences_of_function`;
    every pair/depth answer is memoised.
    """

    def __init__(self, scope: Operation, budget: int = DEFAULT_BUDGET, max_pairs: int = DEFAULT_MAX_PAIRS) -> None:
        self.scope = scope
        self.budget = budget
        self.max_pairs = max_pairs
        self.notes: list[Note] = []
        self._noted: set[tuple] = set()
        self.model = FunctionModel(scope, budget)
        for op, what in self.model.budget_notes:
            self._budget_note(op, what)
        self._pair_rel: dict[tuple[int, int], isl.Map | None] = {}
        self._regions: dict[int, tuple[isl.Set | None, list[tuple[int | None, int | None]]]] = {}
        self._overlap: dict[tuple[int, int], bool] = {}
        self._results: dict[tuple[int, int, int], DepResult] = {}
        self._pairs: list[PairDeps] | None = None
        self._dataflow: Dataflow | None = None
        self._summaries: dict[Operation, LoopSummary] = {}

    # ---------------------------------------------------------------- lookups
    @property
    def accesses(self) -> list[AccessModel]:
        return self.model.accesses

    def access(self, op: Operation, role: str | None = None) -> AccessModel | None:
        accs = self.model.by_op.get(op, [])
        for a in accs:
            if role is None or a.role == role:
                return a
        return None

    def accesses_of(self, op: Operation) -> list[AccessModel]:
        return list(self.model.by_op.get(op, []))

    # ------------------------------------------------------------------ notes
    def _budget_note(self, op: Operation, what: str) -> None:
        key = ("budget", id(op), what)
        if key in self._noted:
            return
        self._noted.add(key)
        self.notes.append(
            Note(
                "info",
                f"dependence analysis budget exceeded ({self.budget} isl operations) while {what}; assuming a dependence",
                op.name_span,
                "deps-budget",
            )
        )

    def _limit_note(self, n: int) -> None:
        key = ("limit",)
        if key in self._noted:
            return
        self._noted.add(key)
        self.notes.append(Note("info", f"dependence analysis skipped: {n} access pairs exceed the limit {self.max_pairs}", self.scope.name_span, "deps-limit"))

    # ------------------------------------------------------------ the check
    def check(self, src: AccessModel, dst: AccessModel, depth: int) -> DepResult:
        """The dependence from ``src`` to ``dst`` at ``depth`` (1-based)."""
        key = (src.index, dst.index, depth)
        got = self._results.get(key)
        if got is None:
            got = self._check(src, dst, depth)
            self._results[key] = got
        return got

    def _check(self, src: AccessModel, dst: AccessModel, depth: int) -> DepResult:
        c = num_common_loops(src, dst)
        kind = dependence_kind(src, dst)
        if src.memref is None or dst.memref is None or src.memref is not dst.memref:
            return DepResult(src, dst, depth, c, NONE, kind, reason="different memrefs")
        if kind is None:
            return DepResult(src, dst, depth, c, NONE, kind, reason="read after read")
        if not 1 <= depth <= c + 1:
            return DepResult(src, dst, depth, c, UNKNOWN, kind, reason=f"depth {depth} outside 1..{c + 1}", mlir_failure=True)
        if depth == c + 1:
            before = self.src_before_dst(src, dst)
            if before is None:
                return DepResult(src, dst, depth, c, UNKNOWN, kind, reason="no common block (unstructured control flow)", mlir_failure=True)
            if not before:
                return DepResult(src, dst, depth, c, NONE, kind, reason="the source does not precede the destination")
        failure = not (src.analysable and dst.analysable)
        exact = src.exact and dst.exact
        if src.budget_exceeded or dst.budget_exceeded:
            return DepResult(src, dst, depth, c, UNKNOWN, kind, reason="budget exceeded while modelling", budget_exceeded=True, mlir_failure=True)
        if src.relation is None or dst.relation is None:
            return DepResult(src, dst, depth, c, UNKNOWN, kind, reason="; ".join(src.failures + dst.failures), mlir_failure=True)
        status = DEPENDENCE if exact else UNKNOWN
        reason = "" if exact else "; ".join(src.failures + src.approximations + dst.failures + dst.approximations)
        try:
            with limited(self.budget):
                if self._disjoint(src, dst):
                    return DepResult(src, dst, depth, c, NONE, kind, reason="no common element")
                if c == 0:
                    # no common loop: a dependence iff some element is touched by both
                    return DepResult(
                        src,
                        dst,
                        depth,
                        c,
                        status,
                        kind,
                        [],
                        None,
                        reason,
                        mlir_failure=failure,
                        _make_relation=functools.partial(_pair_relation, self._pair_rel, src, dst),  # (not self: a result kept by self would make a cycle)
                    )
                rel = self._pair_relation(src, dst)
                if rel is None:
                    return DepResult(src, dst, depth, c, NONE, kind, reason="no common element")
                for k in range(min(depth - 1, c)):
                    rel = rel.equate(DT.in_, k, DT.out, k)
                if depth <= c:
                    rel = rel.order_lt(DT.in_, depth - 1, DT.out, depth - 1)
                if rel.is_empty():
                    return DepResult(src, dst, depth, c, NONE, kind)
                comps = self._components(rel, src.num_loops, c, depth)
        except BudgetExceeded:
            self._budget_note(src.op, f"checking the dependence from {src.describe()} to {dst.describe()} at depth {depth}")
            return DepResult(src, dst, depth, c, UNKNOWN, kind, reason="budget exceeded", budget_exceeded=True, mlir_failure=True)
        except IslFailure as e:
            return DepResult(src, dst, depth, c, UNKNOWN, kind, reason=f"isl failure: {e}", mlir_failure=True)
        return DepResult(src, dst, depth, c, status, kind, comps, rel, reason, mlir_failure=failure)

    def _region(self, acc: AccessModel) -> tuple[isl.Set | None, list[tuple[int | None, int | None]]]:
        """The elements ``acc`` touches (over all parameter values) and their
        bounding box (constant bounds per memref dimension)."""
        got = self._regions.get(acc.index)
        if got is None:
            assert acc.relation is not None
            rng = acc.relation.range()
            box: list[tuple[int | None, int | None]] = []
            if not rng.is_empty():
                ls = isl.LocalSpace.from_space(rng.get_space())
                for r in range(rng.dim(DT.set)):
                    aff = isl.Aff.var_on_domain(ls, DT.set, r)
                    box.append((val_bound(rng.min_val(aff))[1], val_bound(rng.max_val(aff))[1]))
            got = (None if rng.is_empty() else rng, box)
            self._regions[acc.index] = got
        return got

    def _disjoint(self, src: AccessModel, dst: AccessModel) -> bool:
        """No element is touched by both (a box test, then the regions)."""
        rs, bs = self._region(src)
        rd, bd = self._region(dst)
        if rs is None or rd is None:
            return True
        for (a_lo, a_hi), (b_lo, b_hi) in zip(bs, bd):
            if (a_hi is not None and b_lo is not None and a_hi < b_lo) or (b_hi is not None and a_lo is not None and b_hi < a_lo):
                return True
        if num_common_loops(src, dst) == 0:
            key = (min(src.index, dst.index), max(src.index, dst.index))
            got = self._overlap.get(key)
            if got is None:
                got = rs.intersect(rd).is_empty()
                self._overlap[key] = got
            return got
        return False

    def _pair_relation(self, src: AccessModel, dst: AccessModel) -> isl.Map | None:
        return _pair_relation(self._pair_rel, src, dst)

    @staticmethod
    def _components(rel: isl.Map, n_src: int, c: int, depth: int) -> list[tuple[int | None, int | None]]:
        comps: list[tuple[int | None, int | None]] = [(0, 0)] * min(depth - 1, c)
        if depth > c:
            return [(0, 0)] * c
        w = rel.wrap()
        ls = isl.LocalSpace.from_space(w.get_space())
        for k in range(depth - 1, c):
            aff = isl.Aff.var_on_domain(ls, DT.set, n_src + k).sub(isl.Aff.var_on_domain(ls, DT.set, k))
            _, lo = val_bound(w.min_val(aff))
            _, hi = val_bound(w.max_val(aff))
            comps.append((lo, hi))
        return comps

    def src_before_dst(self, src: AccessModel, dst: AccessModel) -> bool | None:
        """MLIR's ``srcAppearsBeforeDstInAncestralBlock``; None when the two
        ops have no common block in the function."""
        ps, pd = src.path, dst.path
        common = -1
        for i in range(min(len(ps), len(pd))):
            if ps[i][0] is pd[i][0]:
                common = i
            else:
                break
        if common < 0:
            return None
        block = ps[common][0]
        a, b = ps[common][1], pd[common][1]
        if a is b:
            return False
        return self.model.position(block, a) < self.model.position(block, b)

    # ------------------------------------------------------------- bulk APIs
    def candidate_pairs(self, accesses: list[AccessModel] | None = None) -> list[tuple[AccessModel, AccessModel]]:
        """Ordered pairs on the same memref with at least one write."""
        accs = self.accesses if accesses is None else accesses
        by_mem: dict[object, list[AccessModel]] = {}
        for a in accs:
            if a.memref is not None:
                by_mem.setdefault(a.memref, []).append(a)
        out = []
        for group in by_mem.values():
            if not any(a.is_write for a in group):
                continue
            for s in group:
                for d in group:
                    if s.is_write or d.is_write:
                        out.append((s, d))
        out.sort(key=lambda p: (p[0].index, p[1].index))
        return out

    def count_candidate_pairs(self, accesses: list[AccessModel] | None = None) -> int:
        accs = self.accesses if accesses is None else accesses
        by_mem: dict[object, list[int]] = {}
        for a in accs:
            if a.memref is not None:
                st = by_mem.setdefault(a.memref, [0, 0])
                st[0] += 1
                st[1] += int(a.is_write)
        total = 0
        for n, w in by_mem.values():
            if w:
                r = n - w
                total += n * n - r * r
        return total

    def within_limit(self, accesses: list[AccessModel] | None = None) -> bool:
        n = self.count_candidate_pairs(accesses)
        if n > self.max_pairs:
            self._limit_note(n)
            return False
        return True

    def pair(self, src: AccessModel, dst: AccessModel) -> PairDeps:
        c = num_common_loops(src, dst)
        return PairDeps(src, dst, c, [self.check(src, dst, d) for d in range(1, c + 2)])

    @property
    def pairs(self) -> list[PairDeps]:
        """Every candidate pair (same memref, at least one write) at every
        depth; empty (with an info note) above the pair limit."""
        if self._pairs is None:
            if not self.within_limit():
                self._pairs = []
            else:
                self._pairs = [self.pair(s, d) for s, d in self.candidate_pairs()]
        return self._pairs

    def for_access(self, op: Operation) -> list[DepResult]:
        """Every dependence (status not ``none``) with ``op`` as source or
        destination, at every depth."""
        mine = self.accesses_of(op)
        if not mine:
            return []
        out: list[DepResult] = []
        seen: set[tuple[int, int]] = set()
        for a in mine:
            others = [b for b in self.accesses if b.memref is a.memref and a.memref is not None]
            for b in others:
                for s, d in ((a, b), (b, a)):
                    if (s.index, d.index) in seen or not (s.is_write or d.is_write):
                        continue
                    seen.add((s.index, d.index))
                    out.extend(r for r in self.pair(s, d).results if r.has_dependence)
        return out

    def loop_depths(self, loop: Operation) -> list[int]:
        """The depths (1-based IV positions) of ``loop``'s IVs in the accesses it encloses."""
        for a in self.accesses:
            if loop in a.loops:
                return [i + 1 for i, lp in enumerate(a.loops) if lp is loop]
        return []

    def accesses_in(self, loop: Operation) -> list[AccessModel]:
        return [a for a in self.accesses if loop in a.loops]

    def carried_by(self, loop: Operation, accesses: list[AccessModel] | None = None) -> list[DepResult]:
        """Dependences (status not ``none``) carried by ``loop`` (any of its
        IVs for an ``affine.parallel``)."""
        inner = self.accesses_in(loop) if accesses is None else accesses
        depths = self.loop_depths(loop)
        if not inner or not depths:
            return []
        out: list[DepResult] = []
        for s, d in self.candidate_pairs(inner):
            for depth in depths:
                r = self.check(s, d, depth)
                if r.has_dependence:
                    out.append(r)
        return out

    def loop_summary(self, loop: Operation) -> LoopSummary:
        from affine_lsp.analysis.summary import summarize_loop

        got = self._summaries.get(loop)
        if got is None:
            got = summarize_loop(self, loop)
            self._summaries[loop] = got
        return got

    def dataflow(self) -> Dataflow:
        from affine_lsp.analysis.dataflow import compute_dataflow

        if self._dataflow is None:
            self._dataflow = compute_dataflow(self)
        return self._dataflow


def _pair_relation(cache: dict[tuple[int, int], isl.Map | None], src: AccessModel, dst: AccessModel) -> isl.Map | None:
    """The pairs of instances of ``src`` and ``dst`` that touch the same
    element (None: none), remembered in ``cache``."""
    key = (src.index, dst.index)
    if key in cache:
        return cache[key]
    assert src.relation is not None and dst.relation is not None
    rel = src.relation.apply_range(dst.relation.reverse())
    if rel.is_empty():
        rel = None
    cache[key] = rel
    return rel
