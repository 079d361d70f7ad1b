"""Per-loop summaries and races in ``affine.parallel``.

A loop *carries* a dependence when some pair of its accesses depends at the
loop's depth (MLIR's ``checkMemrefAccessDependence`` at depth = the loop's
nesting level, like ``isLoopMemoryParallel``). A loop is **parallel** when it
carries no memory dependence (memrefs allocated inside the loop excluded, as
in MLIR), has no loop-carried SSA value (``iter_args``), and contains no op
with unknown memory effects. It is **vectorizable** along its IV when it
carries no memory dependence (reductions through ``iter_args`` are left to
the vectorizer; ``min_distance`` is the smallest carried distance, an upper
bound on a legal vector width when every carried dependence is a forward
one).

An ``affine.parallel`` whose iterations carry a dependence is *racy*: reported
as a warning (mlir-opt accepts such IR; e.g. every iteration storing the same
value to the same element) that names two conflicting iterations and the
element, an example isl picks from the dependence relation; ``unknown``
dependences, which cannot be ruled out, as info.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from affine_lsp.analysis.dependences import FunctionDeps

from dataclasses import dataclass

import islpy as isl

from affine_lsp.analysis.dependences import DEPENDENCE, UNKNOWN, DepResult
from affine_lsp.analysis.isl_support import DT, BudgetExceeded, IslFailure, limited, val
from affine_lsp.analysis.polyhedral import AccessModel
from affine_lsp.ir import op_traits
from affine_lsp.ir.affine_ops import ForView
from affine_lsp.ir.core import Operation, OpResult, Value
from affine_lsp.syntax.nodes import Note


@dataclass(eq=False)
class LoopSummary:
    loop: Operation
    depths: list[int]  # the loop's IV depths
    carried: list[DepResult]  # dependences (status dependence or unknown) carried by the loop
    parallel: bool
    vectorizable: bool
    reasons: list[str]  # why not parallel / what is uncertain
    min_distance: int | None  # smallest carried distance at the loop's level

    @property
    def proven(self) -> bool:
        """No carried dependence is merely "unknown"."""
        return all(r.status == DEPENDENCE for r in self.carried)

    def describe(self) -> str:
        if self.parallel:
            return "parallel: no loop-carried dependence"
        parts = [r.describe() for r in self.carried[:3]]
        parts += self.reasons[:3]
        return "not parallel: " + "; ".join(parts)

    def to_json(self) -> dict:
        return {
            "loop": self.loop.name,
            "depths": self.depths,
            "parallel": self.parallel,
            "vectorizable": self.vectorizable,
            "min_distance": self.min_distance,
            "reasons": self.reasons,
            "carried": [{"src": r.src.index if r.src else None, "dst": r.dst.index if r.dst else None, **r.to_json()} for r in self.carried],
        }


def unknown_effects(op: Operation) -> bool:
    """``op`` (not its regions) may touch memory in a way we do not model
    (:func:`affine_lsp.ir.op_traits.has_unmodeled_effects`)."""
    return op_traits.has_unmodeled_effects(op)


def locally_defined(v: Value | None, loop: Operation) -> bool:
    """MLIR's ``isLocallyDefined``: allocated (or a view of a memref
    allocated) inside ``loop``."""
    seen = 0
    while v is not None and seen < 64:
        seen += 1
        owner = v.defining_op if isinstance(v, OpResult) else None
        if owner is None:
            return False
        if owner.known and op_traits.allocates(owner.name):
            return loop.is_ancestor_of(owner)
        if op_traits.view_source(owner):
            v = owner.operands[0]
            continue
        return False
    return False


def _relevant(fd: FunctionDeps, loop: Operation) -> list[AccessModel]:
    return [a for a in fd.accesses_in(loop) if not locally_defined(a.memref, loop)]


def summarize_loop(fd: FunctionDeps, loop: Operation) -> LoopSummary:
    reasons: list[str] = []
    if loop.name not in ("affine.for", "affine.parallel"):
        return LoopSummary(loop, [], [], False, False, [f"'{loop.name}' is not an affine loop"], None)
    depths = fd.loop_depths(loop)
    accs = _relevant(fd, loop)
    # (an op whose memref operands are accesses of unknown extent is in ``accs``)
    effects = [o for o in loop.walk() if o is not loop and unknown_effects(o) and not op_traits.unknown_extent_accesses(o)]
    if effects:
        reasons.append(f"'{effects[0].name}' may access memory")
    if loop.name == "affine.for" and ForView(loop).inits:
        reasons.append("loop-carried SSA values (iter_args)")
    if not fd.within_limit(accs):
        reasons.append("too many access pairs to analyse")
        return LoopSummary(loop, depths, [], False, False, reasons, None)
    carried = fd.carried_by(loop, accs)
    if any(r.status == UNKNOWN for r in carried):
        reasons.append("some dependences could not be ruled out")
    min_dist: int | None = None
    for r in carried:
        if r.status == DEPENDENCE and r.components and r.depth - 1 < len(r.components):
            lb = r.components[r.depth - 1][0]
            if lb is not None and (min_dist is None or lb < min_dist):
                min_dist = lb
    no_mem = not carried
    parallel = no_mem and not reasons
    vectorizable = no_mem and not effects
    return LoopSummary(loop, depths, carried, parallel, vectorizable, reasons, min_dist)


def race_notes(fd: FunctionDeps) -> list[Note]:
    """An error per racy ``affine.parallel`` (info when only "unknown")."""
    notes: list[Note] = []
    parallels = [op for op in fd.scope.walk() if op.name == "affine.parallel"]
    for par in parallels:
        accs = _relevant(fd, par)
        if len(accs) == 0 or not any(a.is_write for a in accs):
            continue
        if not fd.within_limit(accs):
            continue
        carried = fd.carried_by(par, accs)
        if not carried:
            continue
        sure = [r for r in carried if r.status == DEPENDENCE]
        shown = sure or carried
        first = shown[0]
        assert first.src is not None and first.dst is not None
        related: list = []
        for r in shown[:8]:
            if r.src is None or r.dst is None:
                continue
            related.append((r.src.op.name_span, f"{r.kind} source: {r.src.describe()}"))
            related.append((r.dst.op.name_span, f"{r.kind} destination: {r.dst.describe()} (distance {r.mlir_str()})"))
        if sure:
            dependence = f"{first.kind} dependence from {first.src.describe()} to {first.dst.describe()} across iterations (distance {first.mlir_str()})"
            example = race_example(fd, first, par)
            msg = f"'affine.parallel' op iterations race: {example or dependence}"
            if example:
                related.insert(0, (par.name_span, dependence))
            notes.append(Note("warning", msg, par.name_span, "racy-parallel", {"related": related, "pairs": len(shown)}))
        else:
            msg = (
                f"could not prove that 'affine.parallel' iterations are independent: {first.src.describe()} and "
                f"{first.dst.describe()} ({first.reason or 'unknown'})"
            )
            notes.append(Note("info", msg, par.name_span, "racy-parallel-unknown", {"related": related}))
    return notes


def race_example(fd: FunctionDeps, r: DepResult, par: Operation) -> str | None:
    """Two iterations of ``par`` that conflict in ``r`` and the element they
    both touch, e.g. ``iterations (%i = 0) and (%i = 1) both write %A[0]``
    (the lexicographically first pair of the dependence relation); None
    without a relation."""
    src, dst, rel = r.src, r.dst, r.relation
    if src is None or dst is None or rel is None or src.relation is None or dst.relation is None:
        return None
    depths = fd.loop_depths(par)
    try:
        with limited(fd.budget):
            # The lexicographically first pair: the first source iteration
            # and the first one it conflicts with.
            pt = rel.wrap().lexmin().sample_point()
            if pt.is_void():
                return None
            n = src.num_loops
            src_iv = [pt.get_coordinate_val(DT.set, k).to_python() for k in range(n)]
            dst_iv = [pt.get_coordinate_val(DT.set, n + k).to_python() for k in range(dst.num_loops)]
            space = rel.get_space()
            params = {space.get_dim_name(DT.param, k): pt.get_coordinate_val(DT.param, k).to_python() for k in range(space.dim(DT.param))}
            elements = _touched(src.relation, src_iv, params).intersect(_touched(dst.relation, dst_iv, params))
            ept = elements.sample_point()
            if ept.is_void():
                return None
            elem = [ept.get_coordinate_val(DT.set, k).to_python() for k in range(elements.dim(DT.set))]
    except (BudgetExceeded, IslFailure, isl.Error, ValueError, IndexError):
        return None
    names = [src.ivs[d - 1].name for d in depths if d - 1 < len(src.ivs)]
    a = ", ".join(f"{nm} = {src_iv[d - 1]}" for nm, d in zip(names, depths))
    b = ", ".join(f"{nm} = {dst_iv[d - 1]}" for nm, d in zip(names, depths))
    mem = src.memref.name if src.memref is not None else "?"
    where = f"{mem}[{', '.join(map(str, elem))}]"
    shown = [f"{fd.model.param_desc[p]} = {v}" for p, v in params.items() if p in fd.model.param_desc]
    with_params = f" (with {', '.join(shown)})" if shown else ""
    if src.is_write and dst.is_write:
        return f"iterations ({a}) and ({b}) both write {where}{with_params}"
    verb = ("writes", "reads") if src.is_write else ("reads", "writes")
    return f"iteration ({a}) {verb[0]} {where}, which iteration ({b}) {verb[1]}{with_params}"


def _touched(relation: isl.Map, ivs: list[int], params: dict[str, int]) -> isl.Set:
    """The elements ``relation`` touches at the iteration ``ivs`` for the parameter values ``params``."""
    m = relation
    for k, v in enumerate(ivs):
        m = m.fix_val(DT.in_, k, val(v))
    space = m.get_space()
    for k in range(space.dim(DT.param)):
        name = space.get_dim_name(DT.param, k)
        if name in params:
            m = m.fix_val(DT.param, k, val(params[name]))
    return m.range().reset_tuple_id()
