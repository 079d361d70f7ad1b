"""Perfect loop bands and their dependence distances, for tiling and
interchange.

A *band* is a chain of ``affine.for`` ops, each the only op (besides the
terminator) of the previous one's body. Its legality questions are all
answered from the exact distance sets of the one dependence engine
(:meth:`~affine_lsp.analysis.dependences.DepResult.distance_set`), restricted
to the band's dimensions, for every dependence not already carried by a loop
outside the band (those are satisfied whatever the band does):

* **fully permutable** (tiling is legal): no distance vector has a negative
  component in any band dimension;
* **permutation** (interchange is legal): no distance vector becomes
  lexicographically negative once its components are permuted;
* **skewing** ``y_k = j_k + sum_m f[k][m] j_m`` makes the band permutable:
  ``x_k + sum_m f[k][m] x_m >= 0`` on every distance vector ``x``.

Every test is an isl query on the exact (parametric, strided) sets, not on
direction-vector approximations; an access the engine cannot model, or an op
with unknown memory effects, makes the answer "not legal" with that reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product

import islpy as isl

from affine_lsp.analysis.isl_support import DEFAULT_BUDGET, DT, BudgetExceeded, IslFailure, limited, val_bound
from affine_lsp.ir.affine_ops import ForView
from affine_lsp.ir.core import Operation, Value, memo_of
from affine_lsp.transforms.verdict import Kind, Why, illegal, kind_of, not_applicable, unproven


def body_ops(loop: Operation) -> list[Operation]:
    """The ops of a loop's body, without an ``affine.yield`` terminator."""
    b = ForView(loop).body
    if b is None:
        return []
    return [op for op in b.operations if op.name != "affine.yield"]


def perfect_band(loop: Operation, max_depth: int | None = None) -> list[Operation]:
    """The largest perfect band starting at ``loop`` (loops with
    ``iter_args`` end it: their results are used by the enclosing body)."""
    band = [loop]
    while max_depth is None or len(band) < max_depth:
        ops = body_ops(band[-1])
        if len(ops) != 1 or ops[0].name != "affine.for" or ForView(ops[0]).inits:
            break
        band.append(ops[0])
    return band


def band_ivs(band: Sequence[Operation]) -> list[Value]:
    out = []
    for lp in band:
        iv = ForView(lp).iv
        assert iv is not None
        out.append(iv)
    return out


def structural_reason(band: Sequence[Operation]) -> str | None:
    """Why the band cannot be reordered at all (iter_args, memory effects
    the engine does not see), or None."""
    from affine_lsp.transforms.parallelize import memory_effect_reason

    for lp in band:
        f = ForView(lp)
        if f.body is None or f.iv is None:
            return not_applicable("the loop has no body")
        if f.inits:
            return not_applicable(f"the loop at {f.iv.name} carries iter_args")
    why = memory_effect_reason(band[0])
    return unproven(why) if why is not None else None


def bound_dependencies(band: Sequence[Operation]) -> list[set[int]]:
    """Per band loop, the positions of the band loops its bounds use."""
    ivs = band_ivs(band)
    out = []
    for lp in band:
        f = ForView(lp)
        used = {k for k, iv in enumerate(ivs) for v in (*f.lower.operands, *f.upper.operands) if v is iv}
        out.append(used)
    return out


@dataclass
class BandDep:
    """One dependence that a reordering of the band could violate: its
    exact distance set over the band dimensions (``None``: the engine could
    not give one) and how to say it."""

    text: str
    distances: isl.Set | None
    components: list[tuple[int | None, int | None]] = field(default_factory=list)


@dataclass
class BandDeps:
    band: list[Operation]
    deps: list[BandDep]
    reason: str | None = None  # the band cannot be analysed at all

    @property
    def depth(self) -> int:
        return len(self.band)


def _fmt_interval(lo: int | None, hi: int | None) -> str:
    if lo is not None and lo == hi:
        return str(lo)
    return f"[{'-inf' if lo is None else lo}, {'+inf' if hi is None else hi}]"


def band_dependences(band: Sequence[Operation]) -> BandDeps:
    """The dependences between accesses of the band not carried by a loop
    outside it, with their distance sets over the band dimensions (cached
    per outermost loop op and depth: the document model rebuilds an op
    whose text changes)."""
    per_loop = memo_of(band[0]).setdefault("band_deps", {})
    got = per_loop.get(len(band))
    if got is None or got.band != list(band):
        got = _band_dependences(band)
        per_loop[len(band)] = got
    return got


def _band_dependences(band: Sequence[Operation]) -> BandDeps:
    from affine_lsp.analysis import dependences_of_function
    from affine_lsp.analysis.dependences import NONE, UNKNOWN
    from affine_lsp.analysis.polyhedral import scope_of

    band = list(band)
    why = structural_reason(band)
    if why is not None:
        return BandDeps(band, [], why)
    scope = scope_of(band[0])
    if scope is None:
        return BandDeps(band, [], not_applicable("the loop is not inside a function"))
    fd = dependences_of_function(scope)
    inner = fd.accesses_in(band[0])
    if not fd.within_limit(inner):
        return BandDeps(band, [], unproven("too many access pairs to analyse"))
    for a in inner:
        if not a.analysable:
            return BandDeps(band, [], unproven(f"{a.describe()} cannot be analysed ({'; '.join(a.failures) or 'budget exceeded'})"))
    iv0 = ForView(band[0]).iv
    n = len(band)
    names = [ForView(lp).iv.name for lp in band]  # type: ignore[union-attr]
    deps: list[BandDep] = []
    for s, d in fd.candidate_pairs(inner):
        d0 = next((i for i, v in enumerate(s.ivs) if v is iv0), None)
        if d0 is None:
            continue
        for depth in range(d0 + 1, d0 + n + 1):
            r = fd.check(s, d, depth)
            if r.status == NONE:
                continue
            head = f"{r.kind} dependence from {s.describe()} to {d.describe()}"
            if r.status == UNKNOWN:
                deps.append(BandDep(f"cannot rule out a {head} ({r.reason or 'not analysable'})", None))
                continue
            comps = r.components[d0 : d0 + n]
            dist = "(" + ", ".join(_fmt_interval(lo, hi) for lo, hi in comps) + ")"
            text = f"{head} with distance {dist} along ({', '.join(names)})"
            ds = r.distance_set()
            if ds is not None:
                try:
                    with limited(DEFAULT_BUDGET):
                        c = ds.dim(DT.set)
                        ds = ds.project_out(DT.set, d0 + n, c - d0 - n).project_out(DT.set, 0, d0)
                except (BudgetExceeded, IslFailure):
                    ds = None
            deps.append(BandDep(text, ds, list(comps)))
    return BandDeps(band, deps)


def _aff(s: isl.Set, coeffs: Sequence[int]) -> isl.Aff:
    ls = isl.LocalSpace.from_space(s.get_space())
    aff = isl.Aff.zero_on_domain(ls)
    for k, c in enumerate(coeffs):
        if c:
            aff = aff.add(isl.Aff.var_on_domain(ls, DT.set, k).scale_val(isl.Val.int_from_si(s.get_ctx(), c)))
    return aff


def may_be_negative(s: isl.Set | None, coeffs: Sequence[int]) -> bool:
    """Some vector ``x`` of ``s`` has ``sum coeffs[k] * x[k] < 0`` (True when
    unknown)."""
    if s is None:
        return True
    try:
        with limited(DEFAULT_BUDGET):
            empty, lo = val_bound(s.min_val(_aff(s, coeffs)))
    except (BudgetExceeded, IslFailure):
        return True
    return not empty and (lo is None or lo < 0)


def lex_negative_after(s: isl.Set | None, order: Sequence[int]) -> bool:
    """Some vector of ``s``, with its components taken in ``order``, is
    lexicographically negative (True when unknown)."""
    if s is None:
        return True
    try:
        with limited(DEFAULT_BUDGET):
            cur = s
            for p in order:
                if not cur.upper_bound_val(DT.set, p, isl.Val.int_from_si(cur.get_ctx(), -1)).is_empty():
                    return True
                cur = cur.fix_val(DT.set, p, isl.Val.int_from_si(cur.get_ctx(), 0))
                if cur.is_empty():
                    return False
    except (BudgetExceeded, IslFailure):
        return True
    return False


def permutability_violation(bd: BandDeps, skew: Sequence[Sequence[int]] | None = None) -> str | None:
    """The first dependence with a negative component in a band dimension
    (after ``skew``, a strictly lower triangular matrix of factors), or the
    reason the band cannot be analysed; None when the band is fully
    permutable. The reason is a :class:`~.verdict.Why`: a dependence that
    forbids, or one that cannot be ruled out."""
    if bd.reason is not None:
        return Why(bd.reason, kind_of(bd.reason, Kind.UNPROVEN))
    n = bd.depth
    names = [ForView(lp).iv.name for lp in bd.band]  # type: ignore[union-attr]
    for dep in bd.deps:
        if dep.distances is None:
            return unproven(dep.text)
        for k in range(n):
            coeffs = [0] * n
            coeffs[k] = 1
            if skew is not None:
                for m in range(k):
                    coeffs[m] = skew[k][m]
            if may_be_negative(dep.distances, coeffs):
                where = f"along {names[k]}" if skew is None or not any(skew[k]) else f"along skewed {names[k]}"
                return illegal(f"{dep.text}: negative {where}")
    return None


def permutation_violation(bd: BandDeps, order: Sequence[int]) -> str | None:
    """The first dependence that ``order`` (new position -> old loop)
    would reverse, or None when the permutation is legal (a
    :class:`~.verdict.Why`, like :func:`permutability_violation`)."""
    if bd.reason is not None:
        return Why(bd.reason, kind_of(bd.reason, Kind.UNPROVEN))
    for dep in bd.deps:
        if dep.distances is None:
            return unproven(dep.text)
        if lex_negative_after(dep.distances, order):
            return illegal(f"{dep.text} would be reversed")
    return None


MAX_SKEW = 3
MAX_SKEW_QUERIES = 2_000
"""At most this many isl queries in the search for skew factors."""


def find_skew(bd: BandDeps) -> list[list[int]] | None:
    """Non-negative skew factors making the band fully permutable (row k:
    the factors of the outer dimensions added to dimension k), the smallest
    per row; None when none up to :data:`MAX_SKEW` works or the band cannot
    be analysed."""
    if bd.reason is not None or any(d.distances is None for d in bd.deps):
        return None
    n = bd.depth
    skew = [[0] * n for _ in range(n)]
    budget = MAX_SKEW_QUERIES
    for k in range(n):
        cands = sorted(product(range(MAX_SKEW + 1), repeat=k), key=lambda f: (sum(f), f[::-1]))
        for f in cands:
            coeffs = [*f, 1] + [0] * (n - k - 1)
            ok = True
            for d in bd.deps:
                budget -= 1
                if budget < 0:
                    return None  # give up rather than keep the editor waiting
                if may_be_negative(d.distances, coeffs):
                    ok = False
                    break
            if ok:
                skew[k][:k] = list(f)
                break
        else:
            return None
    return skew
