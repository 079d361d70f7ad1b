"""Hoist loop-invariant code out of an ``affine.for``.

MLIR's ``-affine-loop-invariant-code-motion``
(``AffineLoopInvariantCodeMotion.cpp``): an op of the loop body moves before
the loop when it does not depend on the loop -- every operand is defined
outside the loop (or by an op already hoisted), recursively for the ops
nested in an ``affine.if`` / ``affine.for`` being hoisted -- and its memory
effects allow it:

* ops without memory effects (``arith``, ``math``, ``index``, ``affine.apply``,
  ``memref.dim``, views ...) always;
* an ``affine.load`` when nothing in the loop writes its memref;
* an ``affine.store`` when nothing else in the loop touches its memref
  (storing the same value to the same element on every iteration), and --
  unlike MLIR, which would then write memory the original never writes --
  only when the loop provably runs at least once (constant trip count).

Unlike MLIR, an op whose memory effects are unknown (an unregistered op, a
call, a dialect we do not model) is never moved, and no load or store is
moved out of a loop that contains one. ``--all`` hoists out of every loop,
innermost first, so code moves out of as many loops as it can.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from affine_lsp.ir import op_traits
from affine_lsp.ir.affine_ops import ForView
from affine_lsp.ir.core import Operation, Value
from affine_lsp.ir.types import MemRefType
from affine_lsp.transforms.edits import TextEdit, Transform, UnsafeTransform, delete_op
from affine_lsp.transforms.profitability import remark
from affine_lsp.transforms.rewrite import LoopOutcome, NameGen, apply_sequentially, checked_in_section, function_text, line_indent, loops_on_lines
from affine_lsp.transforms.unroll import base_name, body_ops, defined_values, ops_text, rename_text

if TYPE_CHECKING:
    from argparse import Namespace

_STRUCTURE = frozenset({"affine.for", "affine.if", "affine.yield"})


def memref_root(v: Value) -> Value:
    """The memref ``v`` is a view of (itself when it is not a view)."""
    for _ in range(64):
        owner = v.defining_op
        if owner is None or not op_traits.view_source(owner):
            return v
        v = owner.operands[0]
    return v


def effect_free(op: Operation) -> bool:
    """``op`` (not its regions) has no memory effect at all."""
    return op.known and not op.regions and op_traits.is_memory_effect_free(op.name)


@dataclass
class HoistPlan:
    loop: Operation
    ops: list[Operation] = field(default_factory=list)  # top-level body ops to move, in order
    skipped: list[str] = field(default_factory=list)  # why some candidates stay

    @property
    def reason(self) -> str | None:
        if self.ops:
            return None
        return "nothing in the loop is invariant" + (f" ({self.skipped[0]})" if self.skipped else "")


def plan_hoist(loop: Operation) -> HoistPlan:
    """Which ops of ``loop``'s body are loop-invariant and can move before it."""
    from affine_lsp.analysis.summary import unknown_effects
    from affine_lsp.verify import known_traits

    plan = HoistPlan(loop)
    if loop.name != "affine.for" or ForView(loop).body is None:
        plan.skipped.append("not an affine.for with a body")
        return plan
    inside = [o for o in loop.walk() if o is not loop]
    unknown = next((o for o in inside if unknown_effects(o) and o.name not in _STRUCTURE), None)
    f = ForView(loop)
    tc = f.constant_trip_count()
    runs = tc is not None and tc >= 1
    hoisted: set[int] = set()
    inside_ids = {id(o) for o in inside}

    def outside(v: Value, subtree: set[int]) -> bool:
        owner = v.defining_op
        if owner is None:
            blk = v.parent_block
            owner = blk.parent_op if blk is not None else None
            if owner is loop:
                return False
        if owner is None:
            return True
        return id(owner) not in inside_ids or id(owner) in hoisted or id(owner) in subtree

    def accessors(mem: Value) -> list[Operation]:
        """The ops of the loop on ``mem`` or on a view of the same memref
        (casts, subviews ... alias it)."""
        root = memref_root(mem)
        out = []
        for o in inside:
            if effect_free(o):
                continue  # a view or cast: its uses are what matters
            if any(isinstance(v.type, MemRefType) and memref_root(v) is root for v in o.operands):
                out.append(o)
        return out

    def why_not(top: Operation) -> str | None:
        subtree = {id(o) for o in top.walk()}
        for o in top.walk():
            for v in o.operands:
                if not outside(v, subtree):
                    return f"'{o.name}' uses {v.name}, defined in the loop"
            if o.name in _STRUCTURE or effect_free(o):
                continue
            load, store = op_traits.is_affine_read(o.name), op_traits.is_affine_write(o.name)
            if load or store:
                if unknown is not None:
                    return f"the loop contains '{unknown.name}', whose memory effects are unknown"
                mem = o.operands[0] if load else o.operands[1]
                others = [u for u in accessors(mem) if u is not o]
                if load and any(op_traits.writes_memory(u.name) is not False or not op_traits.reads_memory(u.name) for u in others):
                    return f"{mem.name} is written in the loop"
                if store:
                    if others:
                        return f"{mem.name} is accessed elsewhere in the loop"
                    if not runs:
                        return "a store would move out of a loop that may run zero times"
                continue
            return f"'{o.name}' has memory effects" if o.known else f"'{o.name}' has unknown memory effects"
        return None

    for top in body_ops(loop):
        # A terminator is structure, not code: one left mid-body by a broken
        # edit (affine.terminator typed there) stays where it is.
        why = f"'{top.name}' is a terminator" if known_traits.is_terminator(top) is True else why_not(top)
        if why is None:
            plan.ops.append(top)
            hoisted.update(id(o) for o in top.walk())
        else:
            plan.skipped.append(why)
    return plan


def hoist_edits(text: str, plan: HoistPlan) -> list[TextEdit]:
    """Move ``plan.ops`` before the loop. A moved result whose name is also
    defined elsewhere in the function (sibling regions may reuse names; the
    enclosing block may not) gets a fresh name, and its uses follow."""
    from collections import Counter

    from affine_lsp.analysis.polyhedral import scope_of

    loop = plan.loop
    scope = scope_of(loop) or loop
    counts = Counter(base_name(v) for v in defined_values([scope]) if v.defining_op is not scope)
    names = NameGen.from_text(function_text(text, loop))
    mapping: dict[str, str] = {}
    for op in plan.ops:
        for r in op.results:
            b = base_name(r)
            if counts[b] > 1 and b not in mapping:
                mapping[b] = names.fresh(b.lstrip("%") + "_h")
    lind = line_indent(text, loop.span.start)
    moved = "".join(ops_text(text, [op], mapping, lind)[len(lind) :] + "\n" + lind for op in plan.ops)
    edits = [TextEdit(loop.span.start, loop.span.start, moved)] + [delete_op(text, op) for op in plan.ops]
    if mapping:
        spans = [(op.span.start, op.span.end) for op in plan.ops]
        for op in plan.ops:
            for r in op.results:
                if base_name(r) not in mapping:
                    continue
                for u in r.uses:
                    if not any(a <= u.span.start < b for a, b in spans):
                        edits.append(TextEdit(u.span.start, u.span.end, rename_text(text[u.span.start : u.span.end], mapping)))
    return edits


def _title(n: int) -> str:
    return f"Hoist {n} loop-invariant op{'s' if n != 1 else ''} out of the loop"


def hoist_candidates(doc: object, loop_op: Operation) -> list[Transform]:
    from affine_lsp.source.document import Document

    assert isinstance(doc, Document)
    if loop_op.name != "affine.for":
        return []
    plan = plan_hoist(loop_op)
    if not plan.ops:
        return []  # nothing to offer (the hover says why)
    title = _title(len(plan.ops))
    try:
        edits = hoist_edits(doc.text, plan)
        checked_in_section(doc, edits)
    except UnsafeTransform as e:
        why = f"the rewritten code does not verify: {e}"
        return [Transform("hoist", f"Hoist loop-invariant code: {why}", [], why, {"disabled": why})]
    except Exception as e:  # never take the server down with a code action
        why = f"internal error: {type(e).__name__}: {e}"
        return [Transform("hoist", f"Hoist loop-invariant code: {why}", [], why, {"disabled": why})]
    return [Transform("hoist", title, edits, "Moves: " + ", ".join(f"'{o.name}'" for o in plan.ops), {"loop": loop_op.span.start})]


def hoist_document(text: str, lines: Sequence[int] | None = None) -> tuple[str, list[LoopOutcome]]:
    """Hoist invariant code out of every loop (innermost first), or only out
    of the loops starting on ``lines`` (1-based)."""
    from affine_lsp.source.document import Document

    doc = Document(text)
    chosen = [op for op, _line in loops_on_lines(doc, lines=lines)]
    counts: dict[int, int] = {}

    def rewrite(cur: str, op: Operation) -> list[TextEdit] | str:
        plan = plan_hoist(op)
        if not plan.ops:
            return plan.reason or "nothing to hoist"
        counts[op.span.start] = len(plan.ops)
        return hoist_edits(cur, plan)

    new, done = apply_sequentially(text, [op.span.start for op in chosen], ["affine.for"], rewrite)
    outcomes = []
    for op in chosen:
        why = done.get(op.span.start)
        n = counts.get(op.span.start, 0)
        outcomes.append(
            LoopOutcome(
                op.span.start,
                doc.lines.line_of(op.span.start) + 1,
                why is None,
                why or f"hoisted {n} op{'s' if n != 1 else ''}",
                remark(None, "LLVM -O3 hoists loop-invariant code too"),
            )
        )
    return new, outcomes


def hoist_verdicts(loop: Operation) -> list:
    from affine_lsp.transforms.loop_verdicts import Verdict

    if loop.name != "affine.for":
        return []
    plan = plan_hoist(loop)
    if plan.ops:
        return [Verdict.of(f"hoist invariant code ({len(plan.ops)} op{'s' if len(plan.ops) != 1 else ''})", None)]
    return [Verdict.of("hoist invariant code", plan.reason or "nothing to hoist")]  # nothing to move: not applicable


def hoist_rewrite(args: Namespace) -> Callable[[str, Sequence[int] | None], tuple[str, list[LoopOutcome]]]:
    """``affine-lsp hoist``: like ``mlir-opt -affine-loop-invariant-code-motion``,
    out of every loop (``--all``; innermost first) or the ones on ``--loop``."""
    return hoist_document
