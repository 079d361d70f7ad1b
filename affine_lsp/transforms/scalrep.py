"""Scalar replacement: store-to-load forwarding and redundant-load elimination.

What MLIR's ``-affine-scalrep`` (``affineScalarReplace`` in
``mlir/lib/Dialect/Affine/Utils/Utils.cpp``) does to loads, decided on the
exact dependence engine:

* **forwarding**: an ``affine.load`` whose element was written, in the same
  iteration of every loop around the store, by a dominating
  ``affine.store`` -- the two accesses touch the same element for every
  instance (checked on the access relations, so ``affine.apply`` chains and
  different-looking but equal subscripts count) -- and that no other write
  can reach in between (no dependence from a write executed between the
  store and the load, at any depth inside the store's loops), takes the
  stored value instead;
* **redundant loads**: the same with a dominating load of the same element
  as the source: the second load takes the first one's value.

* **dead stores**: a store overwritten, in the same iteration, by a later
  store of the same block before any read can see it (MLIR's
  ``findUnusedStore``) is removed.

MLIR also erases allocations that are only stored to; that is not done
here. Ops with unknown memory effects between the source and the load,
and writes to the memref by non-affine ops, block the replacement.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from affine_lsp.ir.core import Block, Operation, Value, memo_of
from affine_lsp.transforms.edits import TextEdit, Transform, UnsafeTransform, delete_op
from affine_lsp.transforms.profitability import remark
from affine_lsp.transforms.rewrite import LoopOutcome, apply_sequentially, checked_in_section, is_unnamed, loops_on_lines

if TYPE_CHECKING:
    from argparse import Namespace

_LOADS = frozenset({"affine.load", "affine.vector_load"})
_STORES = frozenset({"affine.store", "affine.vector_store"})


@dataclass
class Replacement:
    load: Operation
    source: Operation  # the store or the earlier load
    value: Value  # what the load's uses take instead

    @property
    def kind(self) -> str:
        return "forwarded from a store" if self.source.name in _STORES else "redundant (same element loaded before)"


def _top_in(op: Operation, blk: Block) -> Operation | None:
    cur: Operation | None = op
    while cur is not None and cur.parent is not blk:
        cur = cur.parent_op
    return cur


def _dominates(src: Operation, load: Operation) -> bool:
    blk = src.parent
    if blk is None:
        return False
    top = _top_in(load, blk)
    if top is None or top is src:
        return False
    ops = blk.operations
    return ops.index(src) < ops.index(top)


def _window(src: Operation, load: Operation) -> list[Operation]:
    """Every op that may run between ``src`` and ``load`` in one iteration
    of ``src``'s loops: after ``src`` in its block, up to the op holding
    ``load`` (its whole subtree: later iterations of inner loops too)."""
    blk = src.parent
    assert blk is not None
    top = _top_in(load, blk)
    ops = blk.operations
    out: list[Operation] = []
    for o in ops[ops.index(src) + 1 : ops.index(top) + 1]:  # type: ignore[arg-type]
        out.extend(o.walk())
    return out


def _memref_of(op: Operation) -> Value:
    return op.operands[0] if op.name in _LOADS else op.operands[1]


def _same_element(fd: object, src: Operation, load: Operation) -> bool:
    """For every instance of ``load``, ``src`` in the same iteration of its
    loops accesses the same element (exact on the access relations)."""
    import islpy as isl

    from affine_lsp.analysis.isl_support import DEFAULT_BUDGET, DT, BudgetExceeded, IslFailure, limited

    a, b = fd.access(src), fd.access(load)  # type: ignore[attr-defined]
    if a is None or b is None or a.relation is None or b.relation is None:
        return False
    # exact subscripts are what matters: a domain over-approximated (an op
    # under scf.if) only makes the equality below a stronger requirement
    if not (a.analysable and b.analysable and all(a.exact_indices) and all(b.exact_indices)):
        return False
    c = len(a.ivs)
    if tuple(b.ivs[:c]) != tuple(a.ivs):
        return False
    try:
        with limited(DEFAULT_BUDGET):
            rl, rs = b.relation, a.relation
            nl = rl.dim(DT.in_)
            sp = rl.get_space()
            params = [sp.get_dim_name(DT.param, i) for i in range(rl.dim(DT.param))]
            ins = [f"i{k}" for k in range(nl)]
            tl = rl.get_tuple_name(DT.in_) if rl.has_tuple_name(DT.in_) else ""
            ts = rs.get_tuple_name(DT.in_) if rs.has_tuple_name(DT.in_) else ""
            proj = isl.Map(f"[{', '.join(params)}] -> {{ {tl}[{', '.join(ins)}] -> {ts}[{', '.join(ins[:c])}] }}", context=rl.get_ctx())
            proj = proj.align_params(rs.get_space()).intersect_domain(rl.domain())
            rs2 = rs.align_params(proj.get_space())
            comp = proj.apply_range(rs2)
            rl2 = rl.align_params(comp.get_space())
            return bool(comp.is_equal(rl2))  # same footprint (vectors of the same type: the same lanes)
    except (BudgetExceeded, IslFailure, isl.Error):
        return False


def _blocked(fd: object, src: Operation, load: Operation) -> bool:
    """A write may run between ``src`` and ``load`` on the loaded element."""
    from affine_lsp.analysis.dependences import NONE, num_common_loops
    from affine_lsp.analysis.summary import unknown_effects

    mem = _memref_of(load)
    b = fd.access(load)  # type: ignore[attr-defined]
    a = fd.access(src)  # type: ignore[attr-defined]
    c = len(a.ivs)
    for w in _window(src, load):
        if w is load:
            continue
        if unknown_effects(w) and w.name not in ("affine.for", "affine.if", "affine.yield"):
            return True
        if w.name in _STORES and _memref_of(w) is mem:
            acc = fd.access(w)  # type: ignore[attr-defined]
            if acc is None:
                return True
            n = num_common_loops(acc, b)
            for depth in range(c + 1, n + 2):
                if fd.check(acc, b, depth).status != NONE:  # type: ignore[attr-defined]
                    return True
        elif w.name not in _LOADS and mem in w.operands and w.name not in ("affine.prefetch",):
            return True  # a non-affine op on the memref (memref.store, a call ...)
    return False


MAX_CANDIDATES = 8
"""Per load, at most this many earlier accesses of its memref are tried as its source."""

_PLAN_ATTR = "_affine_lsp_scalrep_plan"


def plan_scalrep(func_op: Operation, fd: object | None = None) -> list[Replacement]:
    """The loads of ``func_op`` (a function) that can take an SSA value
    (cached on the op; ``fd``: its dependence engine, built when not given)."""
    from affine_lsp.analysis import dependences_of_function
    from affine_lsp.ir import op_traits

    if not op_traits.is_analysis_scope(func_op) or not func_op.regions:
        return []
    store = memo_of(func_op)
    got = store.get(_PLAN_ATTR)
    if got is not None and got[0] is func_op:
        return got[1]
    if fd is None:
        fd = dependences_of_function(func_op)
    out = _plan(func_op, fd)
    store[_PLAN_ATTR] = (func_op, out)
    return out


def _plan(func_op: Operation, fd: object) -> list[Replacement]:
    out: list[Replacement] = []
    replaced: dict[int, Value] = {}
    accesses = [o for o in func_op.walk() if o.name in _LOADS or o.name in _STORES]
    for i, load in enumerate(accesses):
        if load.name not in _LOADS or not load.results or is_unnamed(load.results[0]):
            continue
        mem = _memref_of(load)
        ltype = load.results[0].type
        tried = 0
        for src in reversed(accesses[:i]):
            if _memref_of(src) is not mem or not _dominates(src, load):
                continue
            tried += 1
            if tried > MAX_CANDIDATES:
                break
            stype = src.operands[0].type if src.name in _STORES else src.results[0].type
            if str(stype) != str(ltype):
                continue
            if not _same_element(fd, src, load) or _blocked(fd, src, load):
                continue
            if src.name in _STORES:
                value = src.operands[0]
            else:
                if is_unnamed(src.results[0]):
                    continue
                value = replaced.get(id(src), src.results[0])
            out.append(Replacement(load, src, value))
            replaced[id(load)] = value
            break
    return out


def dead_stores(func_op: Operation, fd: object | None = None) -> list[Operation]:
    """Stores overwritten before anything reads them (MLIR's
    ``findUnusedStore``): a later store in the same block writes the same
    element in the same iteration, and no read between the two (at any
    depth inside their loops, by the dependence engine) can see the first."""
    from affine_lsp.analysis import dependences_of_function
    from affine_lsp.analysis.dependences import NONE, num_common_loops
    from affine_lsp.analysis.summary import unknown_effects
    from affine_lsp.ir import op_traits

    if not op_traits.is_analysis_scope(func_op) or not func_op.regions:
        return []
    if fd is None:
        fd = dependences_of_function(func_op)
    out: list[Operation] = []
    for s1 in func_op.walk():
        if s1.name not in _STORES or s1.parent is None:
            continue
        mem = _memref_of(s1)
        a = fd.access(s1)  # type: ignore[attr-defined]
        if a is None:
            continue
        ops = s1.parent.operations
        later = ops[ops.index(s1) + 1 :]
        for k, s2 in enumerate(later):
            if s2.name not in _STORES or _memref_of(s2) is not mem or str(s2.operands[0].type) != str(s1.operands[0].type):
                continue
            if not _same_element(fd, s1, s2):
                continue
            window = [w for o in later[:k] for w in o.walk()]
            c = len(a.ivs)
            seen = False
            for w in window:
                if unknown_effects(w) and w.name not in ("affine.for", "affine.if", "affine.yield"):
                    seen = True
                elif w.name in _LOADS and _memref_of(w) is mem:
                    r = fd.access(w)  # type: ignore[attr-defined]
                    n = num_common_loops(a, r) if r is not None else 0
                    seen = r is None or any(fd.check(a, r, d).status != NONE for d in range(c + 1, n + 2))  # type: ignore[attr-defined]
                elif w.name not in _LOADS and w.name not in _STORES and mem in w.operands:
                    seen = True
                if seen:
                    break
            if not seen:
                out.append(s1)
            break  # the first later store of the element decides
    return out


def scalrep_edits(text: str, reps: Sequence[Replacement], dead: Sequence[Operation] = ()) -> list[TextEdit]:
    gone = {id(r.load) for r in reps}
    edits = [delete_op(text, st) for st in dead]
    for r in reps:
        edits.append(delete_op(text, r.load))
        for u in r.load.results[0].uses:
            if id(u.user) in gone:
                continue
            edits.append(TextEdit(u.span.start, u.span.end, r.value.name))
    return edits


def _functions(doc: object) -> list[Operation]:
    return [f for s in doc.sections for f in s.functions()]  # type: ignore[attr-defined]


def scalrep_candidates(doc: object, loop_op: Operation) -> list[Transform]:
    """ "Scalar-replace N loads in this loop" when loads of the loop (and
    stores overwritten before being read) can go."""
    from affine_lsp.analysis.polyhedral import scope_of
    from affine_lsp.source.document import Document

    assert isinstance(doc, Document)
    scope = scope_of(loop_op)
    if scope is None or loop_op.name != "affine.for":
        return []
    reps = [r for r in plan_scalrep(scope) if loop_op.is_ancestor_of(r.load)]
    dead = [st for st in dead_stores(scope) if loop_op.is_ancestor_of(st)]
    if not reps and not dead:
        return []
    parts = []
    if reps:
        parts.append(f"Scalar-replace {len(reps)} load{'s' if len(reps) != 1 else ''} in this loop")
    if dead:
        parts.append(
            f"remove {len(dead)} dead store{'s' if len(dead) != 1 else ''}"
            if reps
            else f"Remove {len(dead)} dead store{'s' if len(dead) != 1 else ''} in this loop"
        )
    title = ", ".join(parts)
    try:
        edits = scalrep_edits(doc.text, reps, dead)
        checked_in_section(doc, edits)
    except (UnsafeTransform, ValueError) as e:
        why = f"the rewritten code does not verify: {e}"
        return [Transform("scalar-replace", f"Scalar-replace loads: {why}", [], why, {"disabled": why})]
    details = [r.kind for r in reps] + ["store overwritten before being read"] * len(dead)
    return [Transform("scalar-replace", title, edits, "; ".join(details), {"loop": loop_op.span.start})]


def scalrep_document(text: str, lines: Sequence[int] | None = None) -> tuple[str, list[LoopOutcome]]:
    """Scalar-replace the loads of every function and remove its dead
    stores (or only inside the loops starting on ``lines``); one outcome
    per replaced load or removed store."""
    from affine_lsp.source.document import Document

    doc = Document(text)
    funcs = _functions(doc)
    plans: dict[int, tuple[set[int], set[int]]] = {}
    outcomes: list[LoopOutcome] = []
    for f in funcs:
        reps = plan_scalrep(f)
        dead = dead_stores(f)
        if lines is not None:
            loops = [op for op, _line in loops_on_lines(doc, f, lines)]
            reps = [r for r in reps if any(lp.is_ancestor_of(r.load) for lp in loops)]
            dead = [st for st in dead if any(lp.is_ancestor_of(st) for lp in loops)]
        if reps or dead:
            plans[f.span.start] = ({r.load.span.start for r in reps}, {st.span.start for st in dead})
        for r in reps:
            outcomes.append(
                LoopOutcome(
                    r.load.span.start,
                    doc.lines.line_of(r.load.span.start) + 1,
                    True,
                    f"load {r.kind}",
                    remark(None, "LLVM -O3 forwards some of these loads too"),
                )
            )
        for st in dead:
            outcomes.append(LoopOutcome(st.span.start, doc.lines.line_of(st.span.start) + 1, True, "store overwritten before being read: removed"))
    if lines is not None:
        touched = [o.offset for o in outcomes]
        for op, ln in (x for f in funcs for x in loops_on_lines(doc, f, lines)):
            if not any(op.span.start <= t < op.span.end for t in touched):
                outcomes.append(LoopOutcome(op.span.start, ln, False, "no load in the loop can be replaced"))

    def rewrite(cur: str, op: Operation) -> list[TextEdit] | str:
        loads, stores = plans.get(op.span.start, (set(), set()))
        reps = [r for r in plan_scalrep(op) if r.load.span.start in loads]
        dead = [st for st in dead_stores(op) if st.span.start in stores]
        return scalrep_edits(cur, reps, dead) if reps or dead else "nothing to replace"

    new, done = apply_sequentially(text, list(plans), ["func.func"], rewrite)
    for k, why in done.items():
        if why is not None:
            f = next(f for f in funcs if f.span.start == k)
            outcomes = [LoopOutcome(o.offset, o.line, False, why) if f.span.start <= o.offset < f.span.end else o for o in outcomes]
    outcomes.sort(key=lambda o: o.offset)
    return new, outcomes


def scalrep_verdicts(loop: Operation) -> list:
    from affine_lsp.analysis.polyhedral import scope_of
    from affine_lsp.transforms.loop_verdicts import Verdict
    from affine_lsp.transforms.unroll_jam import ready_deps

    scope = scope_of(loop)
    if loop.name != "affine.for" or scope is None:
        return []
    fd = ready_deps(scope)
    if fd is None:
        return []  # the analysis has not run yet: no verdict rather than a wait
    n = sum(1 for r in plan_scalrep(scope, fd) if loop.is_ancestor_of(r.load))
    if n:
        return [Verdict.of(f"scalar replacement ({n} load{'s' if n != 1 else ''})", None)]
    return [Verdict.of("scalar replacement", "no load in the loop reads a value already in an SSA value")]  # nothing to replace: not applicable


def scalrep_rewrite(args: Namespace) -> Callable[[str, Sequence[int] | None], tuple[str, list[LoopOutcome]]]:
    """``affine-lsp scalar-replace``: like ``mlir-opt -affine-scalrep``, in every
    function (``--all``) or the loads inside the loops on ``--loop``."""
    return scalrep_document
