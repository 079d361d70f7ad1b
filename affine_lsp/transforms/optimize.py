"""Optimize loop nest: polyhedral scheduling, tiling and code generation.

One action for a top-level loop nest, or for all the top-level nests of a
function together (so that fusion and distribution are part of the choice):

1. the statements, their domains and the exact dependences between their
   instances (:mod:`.optimize_model`, from the one dependence engine);
2. a new schedule from isl's scheduler, its permutable bands reordered so
   that the innermost loop is unit-stride and parallel, and tiled
   (:mod:`.optimize_schedule`);
3. legality proved a second time: every dependence, composed with the final
   schedule, goes forward (:func:`.optimize_schedule.violations`);
4. isl's AST printed back as ``affine.for`` / ``affine.if`` /
   ``affine.apply`` (:mod:`.optimize_codegen`), the output re-parsed and
   re-verified by the safety net (``checked``);
5. with ``parallel``, the outermost parallel loops of the result become
   ``affine.parallel`` (:mod:`.parallelize`, which checks them again on the
   output's own dependences).

A schedule predicted to gain nothing is not emitted: the nest is left alone
with the reason (:class:`~affine_lsp.transforms.profitability.Prediction`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

import islpy as isl

from affine_lsp.analysis import dependences_of_function
from affine_lsp.analysis.isl_support import CTX, BudgetExceeded, IslFailure, limited
from affine_lsp.analysis.polyhedral import scope_of
from affine_lsp.ir.core import Operation
from affine_lsp.transforms import optimize_parallel, optimize_stencil
from affine_lsp.transforms.catalog import OptionError
from affine_lsp.transforms.edits import TextEdit, Transform, UnsafeTransform
from affine_lsp.transforms.optimize_codegen import Codegen
from affine_lsp.transforms.optimize_compose import Budget, Composition, best_composition, summary
from affine_lsp.transforms.optimize_model import NestModel, Refused, build_model
from affine_lsp.transforms.optimize_schedule import Schedule, compute, is_identity, stride_counts, strided_made_unit, violations
from affine_lsp.transforms.profitability import Prediction
from affine_lsp.transforms.rewrite import LoopOutcome, NameGen, apply_sequentially, checked_in_section, function_context, function_text, line_indent

if TYPE_CHECKING:
    from argparse import Namespace

DEFAULT_TILE: int | None = None  # automatic: 32, where the reused data does not fit in cache
BUDGET = 20_000_000
STRIDED_TO_UNIT_SPEEDUP = 4.0
"""Predicted speedup of a statement whose innermost loop walked an array
across cache lines and now walks every access unit-stride or invariant (a
group's schedule: this on the share of the group's work such statements
run, the rest unchanged; the kernels it is set from: docs/performance.md,
"Figures behind the code")."""
MIN_PREDICTED_SPEEDUP = 1.1
"""The smallest predicted speedup worth a rewrite: below it the nest is left
alone. A smaller gain is within the noise of the measurements the models
are calibrated on (the runtime benchmark's original against itself varies
by up to 7%), so the model cannot tell it from a loss."""
BUDGET_S = 2.0
"""Seconds the composition of one group of nests may take by default
(``--budget``): past it, the best candidate built so far is the answer
(:class:`.optimize_compose.Budget`). isl's scheduler has its own bound,
:data:`.optimize_schedule.SCHEDULE_TIMEOUT_S`."""
MAX_STATEMENTS = 40
"""isl's scheduler is not bounded by the operation budget: larger groups are left alone."""
MAX_DEPTH = 16
"""The deepest nest given to the scheduler: isl's work on a schedule grows
quickly with its dimensions (a 150-deep nest took minutes within the
budget); real kernels nest a few loops."""


class Base(NamedTuple):
    """What the compositions start from: the new schedule or the original order."""

    region: str  # the replacement of the nests' text
    speed: float  # its predicted speedup
    prediction: Prediction | None  # the schedule's (None: the original order)
    devectorized: float = 1.0
    """How much slower than the original the statements a register tile
    takes out of LLVM's vectorization run until the composition vectorizes
    them again (:func:`_devectorized`): the composition's vectorization
    predicts its gain over the scalar tile, not over the original."""


@dataclass
class OptimizePlan:
    roots: list[Operation]
    reason: str | None = None  # why the nest is left alone
    new_text: str = ""  # the replacement of roots[0].start .. roots[-1].end
    explain: list[str] = field(default_factory=list)
    prediction: Prediction | None = None

    @property
    def ok(self) -> bool:
        return self.reason is None

    def edits(self) -> list[TextEdit]:
        return [TextEdit(self.roots[0].span.start, self.roots[-1].span.end, self.new_text)]


def top_level_loops(func: Operation) -> list[Operation]:
    """The ``affine.for`` ops directly in the function's body."""
    if not func.regions or not func.regions[0].blocks:
        return []
    return [op for op in func.regions[0].blocks[0].operations if op.name == "affine.for"]


def nest_groups(func: Operation) -> list[list[Operation]]:
    """Runs of consecutive top-level nests (constants may sit between them):
    what one function-level optimization reschedules together."""
    if not func.regions or not func.regions[0].blocks:
        return []
    groups: list[list[Operation]] = []
    cur: list[Operation] = []
    for op in func.regions[0].blocks[0].operations:
        if op.name == "affine.for":
            cur.append(op)
        elif op.name == "arith.constant" and cur:
            continue
        elif cur:
            groups.append(cur)
            cur = []
    if cur:
        groups.append(cur)
    return groups


def _between_constants(roots: Sequence[Operation]) -> list[Operation]:
    if len(roots) < 2:
        return []
    block = roots[0].parent
    assert block is not None
    ops = block.operations
    lo, hi = ops.index(roots[0]), ops.index(roots[-1])
    return [op for op in ops[lo:hi] if op.name == "arith.constant"]


def _predict(model: NestModel, sched: Schedule) -> Prediction:
    """A rule-of-thumb model, stated in the prediction's reason: the share of
    accesses that are unit-stride or invariant along the innermost loop
    (LLVM vectorizes such loops), and tiling of a band with reuse."""
    before, after = sched.unit_before, sched.unit_after
    tiled = [b for b in sched.bands if b.tiled]
    vec = any(b.vector is not None for b in sched.bands)
    if sched.vector_before and not vec:
        return Prediction(
            False,
            "the original innermost loop vectorizes, the new one would not",
            f"{len(sched.vector_before)} original innermost loop(s) are parallel and unit-stride (LLVM vectorizes them); no innermost loop of the new schedule is",
            speedup=0.8,
        )
    speed = 1.0
    why: list[str] = []
    if sched.made_unit:
        # a strided statement costs STRIDED_TO_UNIT_SPEEDUP times its unit-stride
        # self; the group's other statements are unchanged
        speed = 1.0 + _work_share(model, sched.made_unit) * (STRIDED_TO_UNIT_SPEEDUP - 1.0)
        why.append(f"the innermost loop of {', '.join(sched.made_unit)} no longer walks across cache lines (every access unit-stride or invariant)")
    elif after > before + 1e-9:
        speed *= 1.0 + 2.0 * (after - before)
        why.append(f"{after:.0%} of the accesses unit-stride or invariant along the innermost loop (was {before:.0%})")
    elif after < before - 1e-9 and any(b.register for b in sched.bands):
        why.append("register tile: the reduction member innermost (its written elements stay in registers), the vector member around it")
    elif after < before - 1e-9:
        speed *= 1.0 - (before - after)
        why.append(f"only {after:.0%} of the accesses unit-stride or invariant along the innermost loop (was {before:.0%})")
    if tiled:
        speed *= 1.3
        why.append("tiled " + ", ".join("x".join(map(str, b.tiled or [])) for b in tiled) + " for reuse in cache")
    if any(b.vector is not None and b.coincident[b.vector] for b in sched.bands):
        why.append("innermost loop parallel and unit-stride (vectorizable)")
    elif vec:
        why.append("time-tiled: innermost point loops unit-stride, one per statement, dependences forward (vectorizable)")
    par_tiles = [b for b in sched.bands if b.parallel_tile is not None]
    if par_tiles and sched.same_order:  # --parallel: the original order but for the threads' tiles, whose gain is not in this sequential model
        speed *= optimize_parallel.PARALLEL_TILE_PREFERENCE
        why.append(f"--parallel: {len(par_tiles)} band(s) with the tile loop of a parallel member outermost (one task per tile)")
    if speed <= 1.0 + 1e-9:
        return Prediction(
            False, "the original order is as good", "; ".join(why) or "the scheduler keeps the original order and nothing is worth tiling", speedup=speed
        )
    summary = "tiled" if tiled else "reordered"
    if vec:
        summary += ", vectorizable innermost loop"
    return Prediction(True, summary, "; ".join(why), speedup=speed)


def _devectorized(model: NestModel, sched: Schedule) -> float:
    """The slowdown of the new schedule's statements that LLVM vectorized in
    the original order (their innermost loop parallel and unit-stride) and
    that a register tile puts around a scalar reduction loop instead: on
    their share of the work, the outer-loop vectorization the composition
    would give them back (:data:`.vectorize_profit.OUTER_SPEEDUP`)."""
    from affine_lsp.transforms.vectorize_profit import OUTER_SPEEDUP

    before = {id(loop) for loop in sched.vector_before}
    names = [st.name for st in model.statements if st.name in sched.vector_unit and id(st.block.parent_op) in before]
    return 1.0 + _work_share(model, names) * (OUTER_SPEEDUP - 1.0) if names else 1.0


def _work_share(model: NestModel, names: Sequence[str]) -> float:
    """The share of the group's work that the statements ``names`` run
    (each statement: its ops times the trips of the loops around it, by
    :mod:`.parallel_work`'s estimate)."""
    from affine_lsp.transforms.parallel_work import executions

    work = {st.name: len(st.ops) * executions(st.ops[0]) for st in model.statements if st.ops}
    total = sum(work.values())
    return sum(work.get(n, 0.0) for n in names) / total if total > 0 else 1.0


class TooLarge(Refused):
    """The nest is larger than the scheduler is given (:data:`MAX_DEPTH`
    loops, :data:`MAX_STATEMENTS` statements): it is left alone, not even
    composed in its original order."""


def plan_optimize(
    text: str,
    roots: Sequence[Operation],
    tile: int | None = DEFAULT_TILE,
    force: bool = False,
    parallel: bool = False,
    compose: bool = True,
    context: tuple[str, int] | None = None,
    budget: float | None = BUDGET_S,
) -> OptimizePlan:
    """How to rewrite the nests ``roots`` (consecutive top-level nests of one
    function), or why they are left alone. With ``compose``, unroll-and-jam
    and vectorization follow, on the new schedule or on the original order,
    whichever composition is predicted fastest (:mod:`.optimize_compose`).

    ``context``: the text the steps that re-parse a text (hoisting, the
    compositions, ``parallel``) run on instead of ``text``, and the shift of
    its offsets (``text`` offset = its offset + shift), e.g. the function with
    its environment (:func:`.rewrite.function_context`): the same answer as on
    the whole text, without re-parsing a large file's other functions.

    ``budget``: seconds the compositions may take (None: no bound); past
    it, the best one built so far, said in the explanation."""
    roots = list(roots)
    ctext, shift = context if context is not None else (text, 0)
    plan = OptimizePlan(roots)
    func = scope_of(roots[0])
    if func is None:
        plan.reason = "the nest is not in a function"
        return plan
    start, end = roots[0].span.start, roots[-1].span.end
    bases: list[Base] = []
    pred: Prediction | None = None
    time_tiles_only = False  # the schedule is made of time-tiled bands only (stencils)
    try:
        engine = dependences_of_function(func)
        with limited(BUDGET):
            model = build_model(roots, engine)
            if len(model.statements) > MAX_STATEMENTS:
                raise TooLarge(f"{len(model.statements)} statements: more than the scheduler is given ({MAX_STATEMENTS})")
            depth = max((len(st.ivs) for st in model.statements), default=0)
            if depth > MAX_DEPTH:
                raise TooLarge(f"{depth} nested loops: more than the scheduler is given ({MAX_DEPTH})")
            model.constants = _between_constants(roots) + model.constants
            best: tuple[Schedule, Prediction] | None = None
            for fuse in (False, True):
                sched = compute(model, tile, fuse, parallel=parallel)
                bad = violations(model, sched.schedule)
                if not bad.is_empty():
                    raise Refused(f"internal error: the new schedule breaks dependences: {bad}")
                pred = _prediction(model, sched)
                if best is None or (pred.speedup or 0.0) > (best[1].speedup or 0.0) + 1e-9:
                    best = (sched, pred)
            assert best is not None
            sched, pred = best
            plan.explain = _explain(model, sched)
            plan.prediction = pred
            if pred.profitable or force:
                generated = _hoist_invariants(ctext, start - shift, end - shift, _generate(text, model, sched))
                bases.append(Base(generated, pred.speedup or 1.0, pred, _devectorized(model, sched)))
            time_tiles_only = optimize_stencil.only_time_bands(sched.bands)
    except TooLarge as e:  # the compositions walk every loop of the nest with every other: not beyond the same bounds
        plan.reason = str(e)
        return plan
    except Refused as e:
        plan.reason = str(e)
    except BudgetExceeded:
        plan.reason = "the polyhedral computation exceeded its budget"
    except IslFailure as e:
        plan.reason = f"isl failed: {e}"
    except Exception as e:  # a bug of ours leaves the nest alone with a message, never a crash
        plan.reason = f"internal error: {type(e).__name__}: {e}"
    if plan.reason is not None and not compose:
        return plan
    try:
        if not force or plan.reason is not None:  # the original order, composed: when the schedule gains nothing, or less, or is refused
            bases.append(Base(text[start:end], 1.0, None))
        clock = Budget(budget)
        schedule_kept = _choose(plan, ctext, shift, bases, pred, compose, clock, force)
        if clock.skipped:
            plan.explain.append(f"budget: {budget:g} s spent; {clock.skipped} candidate composition(s) not tried (the best of those tried is kept)")
        if plan.ok and parallel and schedule_kept and time_tiles_only:
            plan.explain.append("--parallel: no loop outside the time tiles is parallel (left sequential: its point loops are too short for threads)")
        elif plan.ok and parallel:
            plan.new_text = _parallelize_outermost(ctext, start - shift, end - shift, plan.new_text, plan.explain)
    except Exception as e:  # a bug of ours leaves the nest alone with a message, never a crash
        plan.reason = f"internal error: {type(e).__name__}: {e}"
    return plan


def _choose(
    plan: OptimizePlan,
    text: str,
    shift: int,
    bases: Sequence[Base],
    pred: Prediction | None,
    compose: bool,
    budget: Budget,
    force: bool = False,
) -> bool:
    """Fill ``plan`` with the base (the new schedule, the original order) and
    the composition predicted fastest, or say why the nests are left alone.
    ``plan.reason`` set on entry: the scheduler refused the nests (only the
    original order is composed). ``text``: the text the compositions run on,
    whose offset + ``shift`` is the roots' offset. True when the new schedule
    is kept."""
    start, end = plan.roots[0].span.start - shift, plan.roots[-1].span.end - shift
    refused = plan.reason
    if not compose:
        chosen = (Composition(bases[0].region), bases[0].speed, bases[0].prediction) if bases and bases[0].prediction is not None else None
    else:
        chosen = _best_base(text, start, end, bases, budget)
    if chosen is None or (chosen[2] is None and not chosen[0].steps):
        if refused is None:
            if pred is not None and pred.unchanged:
                plan.reason = f"left alone: already optimal, schedule unchanged ({pred.reason})"
            else:
                plan.reason = f"left alone: {pred.reason or pred.summary}" if pred is not None else "left alone"
        if compose and chosen is not None:
            plan.explain += _declined(chosen[0])
        return False
    comp, speed, sched_pred = chosen
    if speed < MIN_PREDICTED_SPEEDUP and not force:
        plan.reason = f"left alone: the best rewrite is predicted ~{speed:.2f}x, below {MIN_PREDICTED_SPEEDUP:g}x (not told from noise)"
        if compose:
            plan.explain += comp.explain() + _declined(comp)
        return False
    plan.reason = None
    if compose:
        plan.explain.append("schedule: " + (f"none ({refused})" if refused is not None else _kept(sched_pred, pred)))
        plan.explain += comp.explain() + _declined(comp)
    plan.prediction = _composed_prediction(sched_pred, comp, speed) if compose else pred
    plan.new_text = comp.region
    return sched_pred is not None


def _best_base(text: str, start: int, end: int, bases: Sequence[Base], budget: Budget) -> tuple[Composition, float, Prediction | None] | None:
    """Over the bases (the new schedule, the original order), the composition
    predicted fastest, with its total predicted speedup (within ``budget``:
    a base reached past it is taken as it is)."""
    best: tuple[Composition, float, Prediction | None] | None = None
    for base in bases:
        comp = best_composition(text, start, end, base.region, budget)
        total = base.speed * comp.speedup / base.devectorized
        if best is None or total > best[1] + 1e-9:
            best = (comp, total, base.prediction)
    return best


def _kept(sched_pred: Prediction | None, pred: Prediction | None) -> str:
    if sched_pred is not None:
        return "the new one"
    if pred is None:
        return "the original order"
    if pred.profitable:
        return "the original order (the new one is predicted slower once composed)"
    return f"the original order (the new one: {pred.summary})"


def _declined(comp: Composition) -> list[str]:
    seen: list[str] = []
    for d in comp.declined:
        if d not in seen:
            seen.append(d)
    return [f"declined: {d}" for d in seen]


def _composed_prediction(sched_pred: Prediction | None, comp: Composition, speed: float) -> Prediction:
    """The prediction of the schedule (if kept) followed by the composition."""
    words = ([sched_pred.summary] if sched_pred is not None else []) + ([summary(comp.steps)] if comp.steps else [])
    why = ([sched_pred.reason] if sched_pred is not None and sched_pred.reason else []) + [s.describe() for s in comp.steps]
    return Prediction(True, ", ".join(words), "; ".join(why), speedup=speed)


def _vector_loops(model: NestModel) -> list[Operation]:
    """The original innermost loops that LLVM vectorizes: no dependence
    carried, every access unit-stride or invariant along them."""
    from affine_lsp.transforms.optimize_schedule import unit_stride_loop

    out: list[Operation] = []
    for st in model.statements:
        loop = st.block.parent_op
        if loop is None or loop in out or any(op.name == "affine.for" for op in st.block.operations):
            continue
        if model.engine.carried_by(loop):
            continue
        if unit_stride_loop(model, st):
            out.append(loop)
    return out


def _prediction(model: NestModel, sched: Schedule) -> Prediction:
    same = is_identity(model, sched.schedule)
    sched.unit_before, sched.unit_after = stride_counts(model, sched.schedule)
    sched.vector_before = _vector_loops(model)
    sched.made_unit = strided_made_unit(model, sched.schedule, sched.vector_unit)
    if same and not any(b.tiled for b in sched.bands):
        return Prediction(False, "schedule unchanged", "isl's scheduler keeps the original order and no band is worth tiling", speedup=1.0, unchanged=True)
    return _predict(model, sched)


def _explain(model: NestModel, sched: Schedule) -> list[str]:
    out = [
        f"{len(model.statements)} statement(s), {len(model.roots)} nest(s); "
        + ("fused where legal" if sched.fused else "distributed (one loop nest per dependence component)")
    ]
    for st in model.statements:
        ivs = ", ".join(iv.name for iv in st.ivs)
        first = st.ops[0].name if st.ops else "?"
        out.append(f"  {st.name}({ivs}): {len(st.ops)} op(s) from '{first}'")
    for k, b in enumerate(sched.bands):
        line = f"band {k}: {b.maps}"
        if b.tiled:
            line += f", tiled {'x'.join(map(str, b.tiled))}"
        if b.register:
            line += f"; register tile: point loops in the order of members {', '.join(map(str, b.register))}"
        if b.parallel_tile is not None:
            line += f"; --parallel: the tile loop of member {b.parallel_tile} (parallel) outermost, one task per tile"
        par = [j for j, c in enumerate(b.coincident) if c]
        if par:
            line += f"; parallel member(s) {', '.join(map(str, par))}"
        if b.vector is not None:
            how = "unit-stride, parallel" if b.coincident[b.vector] else "unit-stride; inside a tile, one point loop per statement, its dependences forward"
            line += f"; vector loop: member {b.vector} ({how})"
        out.append(line)
    return out


def _generate(text: str, model: NestModel, sched: Schedule) -> str:
    roots = model.roots
    ind = line_indent(text, roots[0].span.start)
    freed: set[str] = set()
    for r in roots:
        for op in r.walk():
            if op.name == "arith.constant":
                continue
            for res in op.results:
                freed.add(res.name.split("#", 1)[0])
            for region in op.regions:
                for block in region.blocks:
                    freed.update(a.name for a in block.arguments)
    names = NameGen(set(NameGen.from_text(function_text(text, roots[0])).taken) - freed)
    params = {p: v.name for p, v in model.params.items()}
    ctx_set = isl.Set.universe(isl.Space.params_alloc(CTX, 0))
    build = isl.AstBuild.from_context(ctx_set)
    ast = build.node_from_schedule(sched.schedule)
    lines: list[str] = []
    for c in model.constants:
        lines.append(ind + text[c.span.start : c.span.end])
    lines.append(Codegen(text, model, names, params).generate(ast, ind))
    return "\n".join(lines)[len(ind) :]


def optimize_transform(doc: object, roots: Sequence[Operation], tile: int | None = DEFAULT_TILE) -> Transform:
    """The code action "Optimize loop nest" for ``roots`` (disabled, with
    the reason, when they are left alone)."""
    from affine_lsp.source.document import Document

    assert isinstance(doc, Document)
    title = "Optimize loop nest" if len(roots) == 1 else f"Optimize loop nests ({len(roots)} nests)"
    try:
        plan = plan_optimize(doc.text, roots, tile, context=function_context(doc, roots[0].span.start, roots[-1].span.end))
        if plan.ok:
            checked_in_section(doc, plan.edits())
    except UnsafeTransform as e:
        plan.reason = f"the optimized nest does not verify: {e}"
    except Exception as e:  # never take the language server down with a code action
        plan = OptimizePlan(list(roots), reason=f"internal error: {type(e).__name__}: {e}")
    details = "\n".join(["```", *plan.explain, "```"]) if plan.explain else ""
    if not plan.ok:
        return Transform(
            "optimize",
            f"{title}: {plan.reason}",
            [],
            (details + "\n\n" if details else "") + f"Left alone: {plan.reason}",
            {"disabled": plan.reason},
            plan.prediction,
        )
    pred = plan.prediction
    if pred is not None:
        details += "\n\n" + pred.markdown()
    return Transform("optimize", title, plan.edits(), details, {"loop": roots[0].span.start}, pred)


def optimize_candidates(doc: object, loop: Operation, tile: int | None = DEFAULT_TILE) -> list[Transform]:
    """Code actions on a top-level ``affine.for``: "Optimize loop nest" (this
    nest alone) and, when the function has several consecutive top-level
    nests around it, "Optimize loop nests (N nests)" (all of them together:
    fusion and distribution are part of the choice)."""
    func = scope_of(loop)
    if loop.name != "affine.for" or func is None or loop.parent is not (func.regions[0].blocks[0] if func.regions and func.regions[0].blocks else None):
        return []
    out = [optimize_transform(doc, [loop], tile)]
    for g in nest_groups(func):
        if loop in g and len(g) > 1:
            out.append(optimize_transform(doc, g, tile))
    return out


def optimize_document(
    text: str,
    lines: Sequence[int] | None = None,
    funcs: Sequence[str] | None = None,
    tile: int | None = DEFAULT_TILE,
    parallel: bool = False,
    force: bool = False,
    compose: bool = True,
    progress: Callable[[str, list[LoopOutcome]], None] | None = None,
    budget: float | None = BUDGET_S,
) -> tuple[str, list[LoopOutcome], list[tuple[int, list[str], Prediction | None]]]:
    """Optimize the top-level nests starting on ``lines`` (1-based, one nest
    each), or every group of consecutive top-level nests of the functions
    named ``funcs``, or (both None) of every function. Returns the new
    text, one outcome per group, and per group its explanation and
    prediction. Each group is planned once, on the text with the groups
    after it already rewritten (from the last to the first, as
    :func:`.rewrite.apply_sequentially` goes). ``progress(text, outcomes)``
    after each group: a text with the groups finished so far rewritten
    (each checked) and the others as they were, for a partial answer."""
    from affine_lsp.source.document import Document

    doc = Document(text)
    groups: list[list[Operation]] = []
    for sec in doc.sections:
        for f in sec.functions():
            fname = str(f.attributes["sym_name"].value) if "sym_name" in f.attributes else ""  # type: ignore[attr-defined]
            if lines is not None:
                for op in top_level_loops(f):
                    if doc.lines.line_of(op.span.start) + 1 in lines:
                        groups.append([op])
            elif funcs is None or fname in funcs:
                groups.extend(nest_groups(f))
    sizes = {g[0].span.start: len(g) for g in groups}  # offset -> number of roots
    line_of = {off: doc.lines.line_of(off) + 1 for off in sizes}
    planned: dict[int, OptimizePlan] = {}  # the last plan of each group (the rewrite of a failed check redoes it)

    def rewrite(cur: str, op: Operation) -> list[TextEdit] | str:
        block = op.parent
        assert block is not None
        ops = block.operations
        i = ops.index(op)
        roots = [o for o in ops[i:] if o.name == "affine.for"][: sizes[op.span.start]]
        plan = plan_optimize(cur, roots, tile, force, parallel, compose, budget=budget)
        planned[op.span.start] = plan
        return plan.edits() if plan.ok else (plan.reason or "")

    def outcomes_of(done: dict[int, str | None]) -> list[LoopOutcome]:
        out = []
        for off, why in done.items():
            plan = planned.get(off)
            pred = plan.prediction if plan is not None else None
            msg = f"optimized {sizes[off]} nest(s)" + (f": {pred.markdown()}" if pred else "")
            out.append(LoopOutcome(off, line_of[off], why is None, why if why is not None else msg))
        return sorted(out, key=lambda o: o.offset)

    step = None if progress is None else (lambda cur, done: progress(cur, outcomes_of(done)))
    new, done = apply_sequentially(text, list(sizes), ["affine.for"], rewrite, step)
    explains = [(line_of[off], planned[off].explain, planned[off].prediction) for off in sorted(sizes) if off in planned]
    return new, outcomes_of(done), explains


def _in_place(text: str, start: int, end: int, new_text: str, rewrite: Callable[[str, list[int]], str]) -> str:
    """``new_text`` (the replacement of ``text[start:end]``) after
    ``rewrite(full text, lines of its affine.for ops)``, which edits only
    inside them."""
    from affine_lsp.source.document import Document

    full = text[:start] + new_text + text[end:]
    doc = Document(full)
    stop = start + len(new_text)
    lines = sorted(
        {doc.lines.line_of(op.span.start) + 1 for s in doc.sections for op in s.module.walk() if op.name == "affine.for" and start <= op.span.start < stop}
    )
    if not lines:
        return new_text
    out = rewrite(full, lines)
    return out[start : len(out) - (len(text) - end)]


def _hoist_invariants(text: str, start: int, end: int, new_text: str) -> str:
    """Loop-invariant loads and computations of the new nest moved out of
    their loops (:mod:`.hoist`, MLIR's LICM with exact memory effects): a
    copied statement keeps its loads inside the new innermost loop, and
    LLVM cannot hoist them (it does not know that distinct memrefs do not
    alias)."""
    from affine_lsp.transforms.hoist import hoist_document

    return _in_place(text, start, end, new_text, lambda full, lines: hoist_document(full, lines)[0])


def _parallelize_outermost(text: str, start: int, end: int, new_text: str, explain: list[str] | None = None) -> str:
    """The outermost parallel loop on every path of the new nest made an
    ``affine.parallel`` (legality checked by :mod:`.parallelize` on the
    output itself) when one entry of it holds enough work for the threads
    (:mod:`.parallel_work`; else that loop and those inside it stay
    sequential, and ``explain`` gets the reason)."""
    from affine_lsp.transforms.parallel_work import MIN_WORK_PER_FORK
    from affine_lsp.transforms.parallelize import parallelize_document

    def rewrite(full: str, lines: list[int]) -> str:
        out, outcomes = parallelize_document(full, lines, max_nested=1, min_work=MIN_WORK_PER_FORK)
        if explain is not None:
            from affine_lsp.source.document import LineIndex

            index = LineIndex(full)
            first = index.line_of(start) + 1
            top = {index.line_of(op.span.start) + 1 for op in _outermost_loops(full, start, start + len(new_text))}
            explain.extend(
                f"--parallel: loop at line {o.line - first + 1} of the new nest left sequential: {o.message}"
                for o in outcomes
                if not o.done and ("work per fork" in o.message or "nothing to share" in o.message or (o.line in top and "nested" not in o.message))
            )
        return out

    return _in_place(text, start, end, new_text, rewrite)


def _outermost_loops(text: str, start: int, stop: int) -> list[Operation]:
    """The ``affine.for`` ops between offsets ``start`` and ``stop`` of
    ``text`` with no ``affine.for`` around them there (the new nest's
    outermost loops: the reason each stays sequential goes in the
    explanation)."""
    from affine_lsp.source.document import Document

    doc = Document(text)
    loops = [op for s in doc.sections for op in s.module.walk() if op.name == "affine.for" and start <= op.span.start < stop]
    return [op for op in loops if not any(a.name == "affine.for" and start <= a.span.start for a in op.ancestors())]


def optimize_rewrite(args: Namespace) -> Callable[[str, Sequence[int] | None], tuple[str, list[LoopOutcome]]]:
    """``affine-lsp optimize``: the top-level nest on ``--loop`` alone, every
    group of consecutive top-level nests of ``--func NAME`` together, or
    (``--all``) those of every function; ``--explain`` prints the new
    schedule, the parallel and vector loops and the prediction on standard
    error."""
    import sys

    if args.tile is not None and args.tile < 1:
        raise OptionError("--tile must be a positive integer", status=1)
    if getattr(args, "budget", None) is not None and not args.budget > 0:
        raise OptionError("--budget must be a positive number of seconds", status=1)

    def transform(text: str, lines: Sequence[int] | None, progress: Callable[[str, list[LoopOutcome]], None] | None = None) -> tuple[str, list[LoopOutcome]]:
        budget = BUDGET_S if getattr(args, "budget", None) is None else args.budget
        new, outcomes, explains = optimize_document(
            text, None if args.func else lines, args.func, args.tile, args.parallel, args.force, not args.no_compose, progress, budget
        )
        if args.explain:
            for line, explain, pred in explains:
                print(f"{args.file}:{line}: nest", file=sys.stderr)
                for e in explain:
                    print("  " + e, file=sys.stderr)
                if pred is not None:
                    print("  " + pred.markdown(), file=sys.stderr)
        return new, outcomes

    return transform
