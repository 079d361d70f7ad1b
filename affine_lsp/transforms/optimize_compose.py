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
are compared by their predicted speedups (a step's is the largest
prediction among the loops it rewrites; a composition's the product of its
steps'); ties go to the shorter composition. The loops a model declines are
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

    @property
    def speedup(self) -> float:
        return max((p.speedup or 1.0 for _, p in self.loops), default=1.0)

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


def _iv_name(loop: Operation) -> str:
    iv = ForView(loop).iv
    return iv.name if iv is not None else "the loop"


def _region_loops(full: str, start: int, stop: int) -> tuple[object, list[Operation]]:
    """The document of ``full`` and its ``affine.for`` ops starting in
    ``[start, stop)``, in walk order (outer first)."""
    from affine_lsp.syntax.document import Document

    doc = Document(full)
    loops = [op for s in doc.sections for op in s.module.walk() if op.name == "affine.for" and start <= op.span.start < stop]
    return doc, loops


def _line(doc: object, op: Operation) -> int:
    return doc.lines.line_of(op.span.start) + 1  # type: ignore[attr-defined]


def _vectorize(full: str, start: int, stop: int) -> tuple[str, Step | None, list[str]]:
    """The loops of ``[start, stop)`` that ``vectorize --all`` picks,
    vectorized; the step, and the loops declined with the reason."""
    from affine_lsp.transforms.vectorize import select_loops, vectorize_document
    from affine_lsp.transforms.vectorize_analysis import Rejected, analyze
    from affine_lsp.transforms.vectorize_profit import predict

    doc, loops = _region_loops(full, start, stop)
    inside = set(loops)
    picked: list[tuple[int, str, Prediction]] = []
    declined: list[str] = []
    for sec in doc.sections:  # type: ignore[attr-defined]
        chosen, why = select_loops(sec.module, VECTOR_WIDTH)
        for lp in chosen:
            if lp in inside:
                try:
                    picked.append((_line(doc, lp), _iv_name(lp), predict(analyze(lp, VECTOR_WIDTH))))
                except Rejected as e:  # select_loops analysed it already: not expected
                    declined.append(f"vectorize {_iv_name(lp)}: {e.reason}")
        declined.extend(f"vectorize {_iv_name(lp)}: {reason}" for lp, reason in why.items() if lp in inside)
    if not picked:
        return full, None, declined
    new, outcomes = vectorize_document(full, VECTOR_WIDTH, [ln for ln, _, _ in picked])
    done = {o.line for o in outcomes if o.done}
    declined.extend(f"vectorize: {o.message}" for o in outcomes if not o.done and o.line in {ln for ln, _, _ in picked})
    step = Step(f"vectorize (VF {VECTOR_WIDTH})", [(iv, p) for ln, iv, p in picked if ln in done])
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
    step = Step(f"unroll-and-jam by {UNROLL_JAM_FACTOR}", [(iv, p) for ln, iv, p in picked if ln in done])
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


def compositions(text: str, start: int, end: int, region: str) -> list[Composition]:
    """The candidate compositions on ``region`` (the replacement of
    ``text[start:end]``): none, vectorize, unroll-and-jam, unroll-and-jam
    then vectorize (the last only when unroll-and-jam applies)."""
    base = Composition(region)
    vec = _then(text, start, end, base, _vectorize)
    uj = _then(text, start, end, base, _unroll_jam)
    out = [base, vec, uj]
    if uj.steps:
        out.append(_then(text, start, end, uj, _vectorize))
    return out


def best_composition(text: str, start: int, end: int, region: str) -> Composition:
    """The composition predicted fastest (ties: the first, i.e. the fewest
    steps). Its ``declined`` lists what the models declined on the base."""
    cands = compositions(text, start, end, region)
    best = cands[0]
    for c in cands[1:]:
        if c.speedup > best.speedup + 1e-9:
            best = c
    if not best.steps:
        best = Composition(best.region, [], [d for c in cands for d in c.declined])
    return best


def summary(steps: list[Step]) -> str:
    """A few words for the action's title: ``unroll-and-jam x4, vectorized``."""
    words = {"unroll-and-jam": f"unroll-and-jam x{UNROLL_JAM_FACTOR}", "vectorize": "vectorized"}
    return ", ".join(words[s.name.split(" ")[0]] for s in steps)
