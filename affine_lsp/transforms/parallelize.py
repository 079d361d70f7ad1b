"""Parallelize loop: ``affine.for`` without carried dependences -> ``affine.parallel``.

What MLIR's ``-affine-parallelize`` (with ``parallel-reductions``) does, as
text edits on the original buffer:

* legality (``isLoopParallel``): every ``iter_args`` value is a recognised
  reduction (:func:`match_reduction`, MLIR's ``matchReduction`` plus the
  supported kinds of ``getSupportedReduction``), no memref is carried, no op
  in the loop has memory effects we cannot see, and the dependence engine
  finds no dependence carried by the loop (memrefs allocated inside the loop
  are private to an iteration and left out, as in MLIR);
* the rewrite (``affineParallelize``): the loop header becomes
  ``affine.parallel (%iv) = (lb) to (ub) [step (s)] [reduce ("kind", ...)]``,
  the yield yields the reduced values, and each combiner op moves after the
  loop where it combines the initial value with the parallel result (which
  therefore starts from the neutral element).

The body text is left as written (comments and formatting kept): only the
header, the yield, the combiner ops and, for loops with several results,
the uses of those results are edited.

Reductions whose kind ``affine.parallel`` cannot carry in MLIR 22.1.8 (its
verifier accepts ``mins``/``maxs``/``minu``/``maxu`` only on signed/unsigned
integer types, and has no ``xori``/``minnumf``/``maxnumf``; ``addi`` etc.
need an integer, not ``index``, type) are refused with that reason rather
than producing IR that does not verify (MLIR itself would).

The reduction matcher is shared with the vectorizer, which supports every
kind of :data:`REDUCTION_KINDS`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from affine_lsp.ir import op_traits
from affine_lsp.ir.affine_expr import AffineMap
from affine_lsp.ir.affine_ops import ACCESS_OPS, ForView
from affine_lsp.ir.core import BlockArgument, Operation, OpResult, Value
from affine_lsp.ir.types import FloatType, IntegerType, MemRefType, Type, UnrankedMemRefType
from affine_lsp.transforms.edits import TextEdit, Transform, UnsafeTransform, delete_op
from affine_lsp.transforms.profitability import remark
from affine_lsp.transforms.rewrite import (
    LoopOutcome,
    NameGen,
    apply_sequentially,
    checked_in_section,
    detached_value,
    function_text,
    is_unnamed,
    line_indent,
    loops_on_lines,
    print_clone,
    result_base,
)

if TYPE_CHECKING:
    from argparse import Namespace

# ------------------------------------------------------------------ reductions


@dataclass(frozen=True, slots=True)
class ReductionKind:
    op: str  # the combiner op, e.g. "arith.addf"
    parallel: str | None  # affine.parallel's reduce kind (None: not expressible)
    vector: str  # vector.reduction's kind
    float: bool  # a float (True) or an integer (False) reduction


REDUCTION_KINDS: dict[str, ReductionKind] = {
    k.op: k
    for k in (
        ReductionKind("arith.addf", "addf", "add", True),
        ReductionKind("arith.mulf", "mulf", "mul", True),
        ReductionKind("arith.minimumf", "minimumf", "minimumf", True),
        ReductionKind("arith.maximumf", "maximumf", "maximumf", True),
        ReductionKind("arith.minnumf", None, "minnumf", True),
        ReductionKind("arith.maxnumf", None, "maxnumf", True),
        ReductionKind("arith.addi", "addi", "add", False),
        ReductionKind("arith.muli", "muli", "mul", False),
        ReductionKind("arith.andi", "andi", "and", False),
        ReductionKind("arith.ori", "ori", "or", False),
        ReductionKind("arith.xori", None, "xor", False),
        ReductionKind("arith.minsi", "mins", "minsi", False),
        ReductionKind("arith.maxsi", "maxs", "maxsi", False),
        ReductionKind("arith.minui", "minu", "minui", False),
        ReductionKind("arith.maxui", "maxu", "maxui", False),
    )
}


@dataclass(frozen=True, slots=True)
class Reduction:
    """``iter_args`` position ``position`` of ``loop`` reduces ``value`` with
    the single binary op ``combiner`` (MLIR's ``LoopReduction``)."""

    loop: Operation
    position: int
    iter_arg: BlockArgument
    init: Value
    result: OpResult
    combiner: Operation
    value: Value
    kind: ReductionKind

    @property
    def type(self) -> Type | None:
        return self.result.type


def match_reduction(loop: Operation, position: int) -> Reduction | str:
    """The reduction at ``iter_args`` position ``position`` of an
    ``affine.for``, or why it is not one (MLIR's ``matchReduction``: the
    iter_arg has one use, a binary op directly in the loop body whose
    result's only use is the yield at the same position)."""
    f = ForView(loop)
    body = f.body
    iter_args = f.iter_args
    if body is None or position >= len(iter_args):
        return "no such iter_args value"
    arg = iter_args[position]
    if len(arg.uses) != 1:
        return f"{arg.name} is used {len(arg.uses)} times in the body (a reduction uses it once)"
    comb = arg.uses[0].user
    if comb.name == "affine.yield":
        return f"{arg.name} is passed through unchanged"
    if comb.parent is not body:
        return f"{arg.name} is combined inside a nested region"
    if len(comb.operands) != 2 or len(comb.results) != 1:
        return f"'{comb.name}' is not a binary reduction operator"
    kind = REDUCTION_KINDS.get(comb.name)
    if kind is None:
        return f"'{comb.name}' is not a supported reduction operator"
    value = comb.operands[1] if comb.operands[0] is arg else comb.operands[0]
    if value is arg:
        return f"{arg.name} is combined with itself"
    res = comb.results[0]
    term = body.terminator
    if len(res.uses) != 1 or res.uses[0].user is not term or term is None or term.name != "affine.yield":
        return f"the result of '{comb.name}' is used other than by the yield (partial results escape)"
    if res.uses[0].index != position:
        return f"the result of '{comb.name}' is yielded at another position"
    return Reduction(loop, position, arg, f.inits[position], loop.results[position], comb, value, kind)


def loop_reductions(loop: Operation) -> tuple[list[Reduction], list[str]]:
    """Every ``iter_args`` value of ``loop`` as a reduction, and the reasons
    of those that are not (``"%x: why"``)."""
    reds: list[Reduction] = []
    bad: list[str] = []
    for i, arg in enumerate(ForView(loop).iter_args):
        r = match_reduction(loop, i)
        if isinstance(r, str):
            bad.append(f"iter_args {arg.name} is not a recognised reduction: {r}")
        else:
            reds.append(r)
    return reds, bad


def parallel_kind(r: Reduction) -> str | None:
    """``affine.parallel``'s reduce kind for ``r`` when MLIR 22.1.8's
    verifier accepts it on ``r``'s type."""
    k, t = r.kind.parallel, r.type
    if k is None:
        return None
    if r.kind.float:
        return k if isinstance(t, FloatType) else None
    if not isinstance(t, IntegerType):
        return None
    if k in ("mins", "maxs"):
        return k if t.signedness == "s" else None
    if k in ("minu", "maxu"):
        return k if t.signedness == "u" else None
    return k


# ------------------------------------------------------------------ legality

_STRUCTURAL = frozenset({"affine.for", "affine.parallel", "affine.if", "affine.yield", "affine.apply", "affine.min", "affine.max"})


def memory_effect_reason(loop: Operation) -> str | None:
    """Why an op inside ``loop`` may touch memory the dependence engine does
    not model (MLIR: not ``isMemoryEffectFree`` and not an allocation), or
    None. Deallocating a memref allocated inside the loop is private to an
    iteration."""
    from affine_lsp.analysis.summary import locally_defined, unknown_effects

    for op in loop.walk():
        if op is loop or op.name in _STRUCTURAL or op.name in ACCESS_OPS or (op.known and op_traits.allocates(op.name)):
            continue
        if op.name == "memref.dealloc":
            if op.operands and locally_defined(op.operands[0], loop):
                continue
            return f"'{op.name}' frees a memref allocated outside the loop"
        if op.name in ("affine.prefetch", "affine.dma_start", "affine.dma_wait"):
            return f"'{op.name}' has memory effects"
        if unknown_effects(op) and not op_traits.unknown_extent_accesses(op):
            return f"'{op.name}' may have side effects"  # (else: accesses of unknown extent, in the dependences)
    return None


def carried_reasons(loop: Operation, limit: int = 3) -> list[str]:
    """The dependences the dependence engine finds carried by ``loop``."""
    from affine_lsp.analysis import loop_summary

    s = loop_summary(loop)
    out = [describe_dependence(r) for r in s.carried[:limit]]
    if not out and "too many access pairs to analyse" in s.reasons:
        out.append("too many access pairs to analyse")
    return out


def describe_dependence(r: object) -> str:
    from affine_lsp.analysis.dependences import DEPENDENCE, DepResult

    assert isinstance(r, DepResult)
    if r.src is None or r.dst is None:
        return r.reason or "unknown dependence"
    if r.status != DEPENDENCE:
        return f"cannot rule out a dependence from {r.src.describe()} to {r.dst.describe()} ({r.reason or 'not analysable'})"
    return f"{r.kind} dependence carried by the loop from {r.src.describe()} to {r.dst.describe()} (distance {r.mlir_str()})"


@dataclass
class ParallelPlan:
    """How to parallelize one loop (or why not: ``reason``)."""

    loop: Operation
    reductions: list[Reduction] = field(default_factory=list)
    reason: str | None = None

    @property
    def ok(self) -> bool:
        return self.reason is None


def plan_parallel(loop: Operation, check_dependences: bool = True) -> ParallelPlan:
    """MLIR's ``isLoopParallel(loop, &reductions)`` with reasons."""
    if loop.name != "affine.for":
        return ParallelPlan(loop, reason=f"'{loop.name}' is not an affine.for")
    f = ForView(loop)
    if f.body is None or f.iv is None:
        return ParallelPlan(loop, reason="the loop has no body")
    if any(isinstance(r.type, MemRefType | UnrankedMemRefType) for r in loop.results):
        return ParallelPlan(loop, reason="the loop carries a memref (iter_args of memref type serialize it)")
    reds, bad = loop_reductions(loop)
    if bad:
        return ParallelPlan(loop, reason=bad[0])
    for r in reds:
        if parallel_kind(r) is None:
            return ParallelPlan(
                loop,
                reds,
                reason=f"the '{r.combiner.name}' reduction of {r.iter_arg.name} ({r.type}) has no affine.parallel reduction kind",
            )
    why = memory_effect_reason(loop)
    if why is not None:
        return ParallelPlan(loop, reds, reason=why)
    if check_dependences:
        deps = carried_reasons(loop)
        if deps:
            return ParallelPlan(loop, reds, reason=deps[0])
    return ParallelPlan(loop, reds)


# ------------------------------------------------------------------ rewrite


def _bounds(m: AffineMap, operands: Sequence[Value], fn: str) -> str:
    dims = [o.name for o in operands[: m.num_dims]]
    syms = [f"symbol({o.name})" for o in operands[m.num_dims :]]
    es = [e.to_str(dims, syms) for e in m.results]
    return es[0] if len(es) == 1 else f"{fn}({', '.join(es)})"


def parallel_edits(text: str, plan: ParallelPlan) -> list[TextEdit]:
    """The text edits that turn ``plan.loop`` into an ``affine.parallel``."""
    loop = plan.loop
    f = ForView(loop)
    body_region = loop.regions[0]
    names = NameGen.from_text(function_text(text, loop))
    lo, up = f.lower, f.upper
    head = f"affine.parallel ({f.iv.name if f.iv else '%iv'}) = ({_bounds(lo.map, lo.operands, 'max')}) to ({_bounds(up.map, up.operands, 'min')})"
    if f.step != 1:
        head += f" step ({f.step})"
    reds = plan.reductions
    res_prefix = ""
    par_names: list[str] = []
    comb_names: list[str] = []
    renames: dict[Value, str] = {}
    if reds:
        kinds = ", ".join(f'"{parallel_kind(r)}"' for r in reds)
        head += f" reduce ({kinds}) -> ({', '.join(str(r.type) for r in reds)})"
        base = result_base(loop, "red")
        par = names.fresh(base + "_par")
        par_names = [par] if len(reds) == 1 else [f"{par}#{i}" for i in range(len(reds))]
        res_prefix = f"{par} = " if len(reds) == 1 else f"{par}:{len(reds)} = "
        for r in reds:
            name = r.result.name
            if "#" in name or is_unnamed(r.result):
                name = names.fresh(f"{base}_{r.position}")
                renames[r.result] = name
            comb_names.append(name)
    edits = [TextEdit(loop.span.start, body_region.span.start + 1, res_prefix + head + " {")]
    if text[body_region.span.end : loop.span.end].strip():  # attributes after the body: dropped, as MLIR does
        edits.append(TextEdit(body_region.span.end, loop.span.end, ""))
    if reds:
        body = f.body
        assert body is not None and body.terminator is not None
        y = body.terminator
        edits.append(TextEdit(y.span.start, y.span.end, f"affine.yield {', '.join(r.value.name for r in reds)} : {', '.join(str(r.type) for r in reds)}"))
        for r in reds:
            edits.append(delete_op(text, r.combiner))
        ind = line_indent(text, loop.span.start)
        after = []
        for r, pn, cn in zip(reds, par_names, comb_names):
            line = print_clone(r.combiner, [r.init, detached_value(pn, r.type)], [r.type], [cn])
            after.append("\n" + ind + line)
        edits.append(TextEdit(loop.span.end, loop.span.end, "".join(after)))
        for res, new in renames.items():
            for u in res.uses:
                edits.append(TextEdit(u.span.start, u.span.end, new))
    return edits


# ------------------------------------------------------------------ API


def parallelize_candidates(doc: object, loop_op: Operation) -> list[Transform]:
    """Code actions for ``loop_op``: "Parallelize loop", or a disabled action
    whose title ends with the reason it cannot be done ("Parallelize loop:
    <reason>"; the reason alone in ``data["disabled"]``)."""
    from affine_lsp.source.document import Document

    assert isinstance(doc, Document)
    title = "Parallelize loop"
    if loop_op.name != "affine.for":
        return []
    try:
        plan = plan_parallel(loop_op)
        if not plan.ok:
            return [Transform("parallelize", f"{title}: {plan.reason}", [], f"Cannot parallelize: {plan.reason}", {"disabled": plan.reason})]
        edits = parallel_edits(doc.text, plan)
        checked_in_section(doc, edits)
    except UnsafeTransform as e:
        reason = f"the rewritten loop does not verify: {e}"
        return [Transform("parallelize", f"{title}: {reason}", [], reason, {"disabled": reason})]
    except Exception as e:  # never take the language server down with a code action
        reason = f"internal error: {type(e).__name__}: {e}"
        return [Transform("parallelize", f"{title}: {reason}", [], reason, {"disabled": reason})]
    details = "No dependence is carried by the loop"
    if plan.reductions:
        details += "; reductions: " + ", ".join(f"{r.iter_arg.name} ({parallel_kind(r)})" for r in plan.reductions)
    return [Transform("parallelize", title, edits, details + ".", {"loop": loop_op.span.start})]


NO_PREDICTION = "affine.parallel runs sequentially unless lowered to threads"
"""Why a parallelization has no prediction (the CLI's remark)."""


def parallelize_document(
    text: str,
    lines: Sequence[int] | None = None,
    max_nested: int | None = None,
    only_predicted_faster: bool = False,
    min_work: float | None = None,
) -> tuple[str, list[LoopOutcome]]:
    """Parallelize every parallel loop of ``text`` (like ``-affine-parallelize``
    with ``parallel-reductions``), or only the loops starting on ``lines``
    (1-based). Legality is decided on the input, as MLIR does, then the loops
    are rewritten (:func:`~affine_lsp.transforms.rewrite.apply_sequentially`).
    ``only_predicted_faster``: the rule of every ``--all`` of the CLI (only
    rewrites predicted faster): a parallelization has no prediction, so none
    is applied; each legal loop's outcome says so. ``min_work``: a legal
    loop with fewer ops per entry, or fewer than two iterations, is left
    sequential (:func:`.parallel_work.too_little_work`; a loop inside one with
    fewer than two iterations may still be chosen).
    Returns the new text and one outcome per loop considered."""
    from affine_lsp.source.document import Document

    doc = Document(text)
    outcomes: list[LoopOutcome] = []
    chosen: list[Operation] = []
    from affine_lsp.transforms.parallel_work import too_little_work

    def cheap_refusal(op: Operation) -> str | None:
        if max_nested is not None:
            depth = sum(1 for a in op.ancestors() if a.name == "affine.parallel" or a in chosen)
            if depth >= max_nested:
                return f"more than {max_nested} nested parallel loops"
        return too_little_work(op, min_work) if min_work is not None else None

    for op, line in loops_on_lines(doc, lines=lines):
        # With min_work (optimize's use) the cheap refusals come first: a loop
        # inside a chosen one or with too little work is not analysed (the
        # same loops are chosen: a loop with less work than its own refusal's
        # threshold is refused whether or not it is parallel).
        why = cheap_refusal(op) if min_work is not None else None
        if why is not None:
            outcomes.append(LoopOutcome(op.span.start, line, False, why))
            continue
        plan = plan_parallel(op)
        if not plan.ok:
            outcomes.append(LoopOutcome(op.span.start, line, False, plan.reason or ""))
            continue
        why = cheap_refusal(op) if min_work is None else None
        if why is not None:
            outcomes.append(LoopOutcome(op.span.start, line, False, why))
            continue
        if only_predicted_faster:
            outcomes.append(
                LoopOutcome(
                    op.span.start, line, False, f"{remark(None, NO_PREDICTION)}: --all applies only rewrites predicted faster (--force parallelizes it)"
                )
            )
            continue
        chosen.append(op)

    def rewrite(cur: str, op: Operation) -> list[TextEdit] | str:
        plan = plan_parallel(op, check_dependences=False)
        return parallel_edits(cur, plan) if plan.ok else (plan.reason or "")

    new, done = apply_sequentially(text, [op.span.start for op in chosen], ["affine.for"], rewrite)
    for op in chosen:
        why = done.get(op.span.start)
        n = len(ForView(op).inits)
        msg = why if why is not None else "parallelized" + (f" with {n} reduction(s)" if n else "")
        outcomes.append(
            LoopOutcome(
                op.span.start,
                doc.lines.line_of(op.span.start) + 1,
                why is None,
                msg,
                remark(None, NO_PREDICTION),
            )
        )
    outcomes.sort(key=lambda o: o.offset)
    return new, outcomes


def parallelize_rewrite(args: Namespace) -> Callable[[str, Sequence[int] | None], tuple[str, list[LoopOutcome]]]:
    """``affine-lsp parallelize``: like ``mlir-opt
    -affine-parallelize="parallel-reductions=1"``, every loop without a
    carried dependence (``--all``: with ``--force`` only, since none has a
    prediction) or the ones on ``--loop``."""
    return lambda text, lines: parallelize_document(text, lines, args.max_nested, only_predicted_faster=lines is None and not args.force)
