"""Unroll-and-jam and vectorization composed into "Optimize loop nest".

After the new schedule is generated (or on the original nests, when the
scheduler keeps their order or its schedule is predicted to gain less), the
existing transformations run on the nests' text, each with its own legality
proof and profitability model, never a second implementation:

* **unroll-and-jam** by :data:`UNROLL_JAM_FACTOR` (:mod:`.unroll_jam`: the
  exact dependence check; :func:`.loop_models.unroll_jam_prediction`: loads
  shared between the copies), outermost loop first, as ``unroll-jam --all``
  picks;
* **vectorization** by :data:`VECTOR_WIDTH` (:mod:`.vectorize`:
  legality, in-bounds transfers, remainder loops;
  :func:`.vectorize_profit.predict`: what LLVM would not do itself), the
  loops ``vectorize --all`` picks (:func:`.vectorize.select_loops`).

Every step goes through the safety net (``apply_sequentially`` ->
``edits.checked``: re-parsed and re-verified). The candidate compositions of
one base (none, vectorize, unroll-and-jam, unroll-and-jam then vectorize)
are compared by their predicted speedups (a step's is its loops'
predictions weighed by the share of the nests' work each loop runs,
Amdahl's law; a composition's the product of its steps'); ties go to the
shorter composition. The loops a model declines are
kept with its reason for ``--explain``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from affine_lsp.ir.affine_ops import ForView
from affine_lsp.ir.core import Operation
from affine_lsp.transforms.profitability import Prediction

UNROLL_JAM_FACTOR = 4
VECTOR_WIDTH = 8


@dataclass
class Step:
    """One transformation applied to the nests: which loops, and what its
    model predicts for each."""

    name: str  # "unroll-and-jam by 4", "vectorize (VF 8)"
    loops: list[tuple[str, Prediction]]
    shares: list[float] = field(default_factory=list)
    """Per loop, the share of the nests' work it runs (:func:`work_shares`);
    empty: unknown, the step's speedup is then its loops' largest."""

    @property
    def speedup(self) -> float:
        """The step's predicted speedup of the nests: each loop's prediction
        on its share of the work, the rest unchanged (Amdahl's law), so that a
        gain on one nest of four is not taken as the whole group's."""
        if not self.loops:
            return 1.0
        if len(self.shares) != len(self.loops):
            return max((p.speedup or 1.0 for _, p in self.loops), default=1.0)
        return amdahl([(share, p.speedup or 1.0) for (_, p), share in zip(self.loops, self.shares, strict=True)])

    def describe(self) -> str:
        parts = [f"{iv}: {p.summary} (~{p.speedup or 1.0:.2f}x)" for iv, p in self.loops]
        return f"{self.name} of " + "; ".join(parts)


@dataclass
class Composition:
    """The nests' text after some steps (``region``: the replacement of the
    nests in the text they came from)."""

    region: str
    steps: list[Step] = field(default_factory=list)
    declined: list[str] = field(default_factory=list)  # loops a model or a legality check declined, with the reason

    @property
    def speedup(self) -> float:
        out = 1.0
        for s in self.steps:
            out *= s.speedup
        return out

    def explain(self) -> list[str]:
        if not self.steps:
            return ["composed: nothing (no unroll-and-jam or vectorization predicted profitable)"]
        return [f"composed: {s.describe()}" for s in self.steps]


def amdahl(parts: list[tuple[float, float]]) -> float:
    """The speedup of a whole whose disjoint ``parts`` (share of the time,
    speedup) are sped up and whose remainder is not."""
    covered = sum(share for share, _ in parts)
    if covered <= 0.0:
        return 1.0
    scale = 1.0 / covered if covered > 1.0 else 1.0  # estimates that overlap: the shares of the whole
    t = 1.0 - covered * scale + sum(share * scale / max(f, 1e-9) for share, f in parts)
    return 1.0 / t


def work_shares(loops: list[Operation], region_loops: list[Operation]) -> list[float]:
    """Per loop of ``loops``, the share of the work of the nests (the
    outermost loops of ``region_loops``) that it runs, by the work estimate
    of :mod:`.parallel_work` (ops times trip counts); a loop inside another
    of ``loops`` gets no share of its own (the outer one's covers it)."""
    from affine_lsp.transforms.parallel_work import executions, work_per_entry

    roots = [op for op in region_loops if not any(o is not op and o.is_ancestor_of(op) for o in region_loops)]
    total = sum(work_per_entry(r) for r in roots)
    if total <= 0:
        return []
    return [0.0 if any(o is not op and o.is_ancestor_of(op) for o in loops) else executions(op) * work_per_entry(op) / total for op in loops]


def _iv_name(loop: Operation) -> str:
    iv = ForView(loop).iv
    return iv.name if iv is not None else "the loop"


def _region_loops(full: str, start: int, stop: int) -> tuple[object, list[Operation]]:
    """The document of ``full`` and its ``affine.for`` ops starting in
    ``[start, stop)``, in walk order (outer first)."""
    from affine_lsp.source.document import Document

    doc = Document(full)
    loops = [op for s in doc.sections for op in s.module.walk() if op.name == "affine.for" and start <= op.span.start < stop]
    return doc, loops


def _line(doc: object, op: Operation) -> int:
    return doc.lines.line_of(op.span.start) + 1  # type: ignore[attr-defined]


def register_tile_width(element_bits: int = 64) -> int:
    """The vectorization width of a register tile's vector loop (the loop
    around an accumulation, :mod:`.accumulate`): with the unroll-and-jam
    by :data:`UNROLL_JAM_FACTOR` around it, the accumulators take about a
    quarter of the vector registers (two per row with 32 registers of 512
    bits: 8 chains of fused multiply-adds, enough to hide their latency;
    one per row with 16), never less than :data:`VECTOR_WIDTH`."""
    from affine_lsp.transforms.machine import vector_registers

    regs = vector_registers()
    per_row = max(1, regs.count // (4 * UNROLL_JAM_FACTOR))
    return max(VECTOR_WIDTH, per_row * regs.bits // element_bits)


def _accumulates_inside(loop: Operation) -> bool:
    """``loop``'s body holds a loop accumulating scalars in ``iter_args``
    (a register tile's reduction loop, after :mod:`.accumulate`)."""
    from affine_lsp.ir.types import FloatType, IntegerType

    body = ForView(loop).body
    return body is not None and any(
        op.name == "affine.for" and ForView(op).iter_args and all(isinstance(a.type, (FloatType, IntegerType)) for a in ForView(op).iter_args)
        for op in body.operations
    )


def _vectorize(full: str, start: int, stop: int) -> tuple[str, Step | None, list[str]]:
    """The loops of ``[start, stop)`` that ``vectorize --all`` picks,
    vectorized (by :func:`register_tile_width` around an accumulation
    loop, by :data:`VECTOR_WIDTH` otherwise); the step, and the loops
    declined with the reason."""
    from affine_lsp.transforms.vectorize import select_loops, vectorize_document
    from affine_lsp.transforms.vectorize_analysis import Rejected, analyze
    from affine_lsp.transforms.vectorize_profit import predict

    doc, loops = _region_loops(full, start, stop)
    inside = set(loops)
    picked: list[tuple[int, str, Prediction, int]] = []
    picked_ops: dict[int, Operation] = {}
    declined: list[str] = []
    wide = register_tile_width()
    for sec in doc.sections:  # type: ignore[attr-defined]
        chosen, why = select_loops(sec.module, VECTOR_WIDTH)
        for lp in chosen:
            if lp in inside:
                width = VECTOR_WIDTH
                if wide != VECTOR_WIDTH and _accumulates_inside(lp):
                    try:
                        if predict(analyze(lp, wide)).profitable:  # not a remainder loop shorter than the wide vector
                            width = wide
                    except Rejected:
                        pass
                try:
                    picked.append((_line(doc, lp), _iv_name(lp), predict(analyze(lp, width)), width))
                    picked_ops[_line(doc, lp)] = lp
                except Rejected as e:  # select_loops analysed it already: not expected
                    declined.append(f"vectorize {_iv_name(lp)}: {e.reason}")
        declined.extend(f"vectorize {_iv_name(lp)}: {reason}" for lp, reason in why.items() if lp in inside)
    if not picked:
        return full, None, declined
    new = full
    done: set[int] = set()
    for width in sorted({w for *_, w in picked}, reverse=True):  # each width's loops (lines stay valid: vectorize keeps a loop's first line)
        new, outcomes = vectorize_document(new, width, [ln for ln, _, _, w in picked if w == width])
        done |= {o.line for o in outcomes if o.done}
        declined.extend(f"vectorize: {o.message}" for o in outcomes if not o.done and o.line in {ln for ln, _, _, w in picked if w == width})
    widths = {w for *_, w in picked if w != VECTOR_WIDTH}
    name = f"vectorize (VF {VECTOR_WIDTH}" + "".join(f", {w} around accumulations" for w in sorted(widths)) + ")"
    kept = [(ln, iv, p) for ln, iv, p, _ in picked if ln in done]
    step = Step(name, [(iv, p) for _, iv, p in kept], work_shares([picked_ops[ln] for ln, _, _ in kept], loops))
    return (new, step, declined) if step.loops else (full, None, declined)


def _unroll_jam(full: str, start: int, stop: int) -> tuple[str, Step | None, list[str]]:
    """The loops of ``[start, stop)`` that ``unroll-jam --all`` picks
    (outermost first, legal, predicted profitable), unrolled and jammed."""
    from affine_lsp.transforms.loop_models import unroll_jam_prediction
    from affine_lsp.transforms.unroll_jam import jam_reason, jammed_loops, unroll_jam_document

    doc, loops = _region_loops(full, start, stop)
    chosen: list[Operation] = []
    picked: list[tuple[int, str, Prediction]] = []
    declined: list[str] = []
    for op in loops:
        if not jammed_loops(op) or any(c.is_ancestor_of(op) for c in chosen):
            continue
        why = jam_reason(op, UNROLL_JAM_FACTOR)
        if why is not None:
            declined.append(f"unroll-and-jam {_iv_name(op)}: {why}")
            continue
        pred = unroll_jam_prediction(op, UNROLL_JAM_FACTOR)
        if not pred.profitable:
            declined.append(f"unroll-and-jam {_iv_name(op)}: predicted not profitable: {pred.summary}")
            continue
        chosen.append(op)
        picked.append((_line(doc, op), _iv_name(op), pred))
    if not picked:
        return full, None, declined
    new, outcomes = unroll_jam_document(full, [ln for ln, _, _ in picked], UNROLL_JAM_FACTOR)
    done = {o.line for o in outcomes if o.done}
    declined.extend(f"unroll-and-jam: {o.message}" for o in outcomes if not o.done and o.line in {ln for ln, _, _ in picked})
    by_line = {_line(doc, op): op for op in chosen}
    kept = [(ln, iv, p) for ln, iv, p in picked if ln in done]
    step = Step(f"unroll-and-jam by {UNROLL_JAM_FACTOR}", [(iv, p) for _, iv, p in kept], work_shares([by_line[ln] for ln, _, _ in kept], loops))
    return (new, step, declined) if step.loops else (full, None, declined)


ACCUMULATOR_SPEEDUP = 1.3
"""Predicted speedup of a reduction held in registers (:mod:`.accumulate`)
instead of a store and a load per iteration on its critical path, before
vectorization (which then predicts its own vector-accumulator gain)."""


def _accumulate(full: str, start: int, stop: int) -> tuple[str, Step | None, list[str]]:
    """Register accumulators (:mod:`.accumulate`) in the loops of
    ``[start, stop)``: a loop-invariant element loaded and stored by a loop
    and touched by nothing else in it goes to ``iter_args``."""
    from affine_lsp.transforms.accumulate import accumulate_document, plan_accumulate

    _, loops = _region_loops(full, start, stop)
    picked: list[tuple[int, str, Prediction]] = []
    ops_at: dict[int, Operation] = {}
    for op in loops:
        plan = plan_accumulate(op)
        if not plan.pairs:
            continue
        elems = ", ".join(p.load.operands[0].name + "[...]" for p in plan.pairs)
        pred = Prediction(
            True,
            f"{len(plan.pairs)} accumulator(s) in registers ({elems})",
            "the reduction's loop-carried value stays in a register instead of a store and a load per iteration (LLVM cannot promote it: the memrefs may alias for it)",
            speedup=ACCUMULATOR_SPEEDUP,
        )
        picked.append((op.span.start, _iv_name(op), pred))
        ops_at[op.span.start] = op
    if not picked:
        return full, None, []
    new, outcomes = accumulate_document(full, [off for off, _, _ in picked])
    done = {o.offset for o in outcomes if o.done}
    declined = [f"accumulate: {o.message}" for o in outcomes if not o.done]
    kept = [(off, iv, p) for off, iv, p in picked if off in done]
    step = Step("accumulators", [(iv, p) for _, iv, p in kept], work_shares([ops_at[off] for off, _, _ in kept], loops))
    return (new, step, declined) if step.loops else (full, None, declined)


def _then(text: str, start: int, end: int, comp: Composition, step_fn) -> Composition:  # type: ignore[no-untyped-def]
    """``comp`` followed by one more step (``comp`` itself when the step
    applies to nothing)."""
    full = text[:start] + comp.region + text[end:]
    new, step, declined = step_fn(full, start, start + len(comp.region))
    if step is None:
        return Composition(comp.region, list(comp.steps), comp.declined + declined)
    region = new[start : len(new) - (len(text) - end)]
    return Composition(region, [*comp.steps, step], comp.declined + declined)


class Budget:
    """A deadline on the candidate compositions, in CPU seconds of this
    process (``time.process_time()``: the same answer on a loaded machine;
    None: no deadline). Once it has passed, no further candidate is
    built: the answer is the best among those built (each valid: every step
    went through the safety net); ``skipped`` counts the others."""

    def __init__(self, seconds: float | None) -> None:
        import time

        self.seconds = seconds
        self.deadline = None if seconds is None else time.process_time() + seconds
        self.skipped = 0

    def spent(self) -> bool:
        import time

        return self.deadline is not None and time.process_time() > self.deadline


def compositions(text: str, start: int, end: int, region: str, budget: Budget | None = None) -> list[Composition]:
    """The candidate compositions on ``region`` (the replacement of
    ``text[start:end]``): none, vectorize, unroll-and-jam, unroll-and-jam
    then vectorize (the last only when unroll-and-jam applies), each with
    the register accumulators of :mod:`.accumulate` before vectorization
    where there are some (a reduction in ``iter_args`` is one that
    vectorizes with a vector accumulator)."""
    budget = budget or Budget(None)
    base = Composition(region)
    out = [base]
    # (the composition extended, the step): in order, each built from an
    # earlier one; past the budget, the rest are skipped
    plan: list[tuple[str, str, object]] = [  # the longest composition first: it is most often the best
        ("base", "uj", _unroll_jam),
        ("uj", "ujacc", _accumulate),
        ("ujacc", "ujaccvec", _vectorize),
        ("base", "acc", _accumulate),
        ("acc", "accvec", _vectorize),
        ("base", "vec", _vectorize),
        ("uj", "ujvec", _vectorize),
    ]
    built: dict[str, Composition] = {"base": base}
    for k, (src, name, step) in enumerate(plan):
        prev = built.get(src)
        if prev is None or (src != "base" and len(prev.steps) <= len(built.get(_parent(plan, src), base).steps)):
            continue  # the step before did nothing: this candidate would be another's
        if budget.spent():
            budget.skipped = len(plan) - k
            break
        built[name] = _then(text, start, end, prev, step)
        out.append(built[name])
    return out


def _parent(plan: list[tuple[str, str, object]], name: str) -> str:
    return next(src for src, n, _ in plan if n == name)


def best_composition(text: str, start: int, end: int, region: str, budget: Budget | None = None) -> Composition:
    """The composition predicted fastest (ties: the first, i.e. the fewest
    steps). Its ``declined`` lists what the models declined on the base."""
    cands = compositions(text, start, end, region, budget)
    best = cands[0]
    for c in cands[1:]:
        if c.speedup > best.speedup + 1e-9:
            best = c
    if not best.steps:
        best = Composition(best.region, [], [d for c in cands for d in c.declined])
    return best


def summary(steps: list[Step]) -> str:
    """A few words for the action's title: ``unroll-and-jam x4, vectorized``."""
    words = {"unroll-and-jam": "unroll-and-jam", "vectorize": "vectorized", "accumulators": "register accumulators"}
    return ", ".join(words[s.name.split(" ")[0]] for s in steps)
