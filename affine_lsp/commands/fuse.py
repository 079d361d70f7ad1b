"""``affine-lsp fuse``: legal, profitable loop fusion; prints the transformed file.

``--all`` (the default without ``--loop``) fuses greedily like ``mlir-opt
-affine-loop-fusion``: mode ``greedy`` is producer-consumer fusion (producers
with a single consumer first), then sibling fusion, then producer-consumer
fusion again; ``producer`` and ``sibling`` run one kind only; ``--maximal``
skips the cost model (deepest legal depth), like ``{maximal}``. Every
``// -----`` section is processed on its own and the sections are re-joined
with their markers. ``--loop LINE`` applies the best fusion involving the
``affine.for`` written on that line (1-based) and nothing else; a loop
with no legal fusion is an error naming why (the access whose values would
change), status 1, as for every transformation. ``--report``
prints the cost model at every depth and the predicted effect for the
loop(s) instead.

Only fusions predicted profitable are applied (no recomputation beyond the
cost model's tolerance, see ``transforms/fusion_predict.py``); ``--force``
applies a legal fusion anyway. One remark per fusion goes to standard error
with its predicted effect; ``-v`` also lists the loop nests left alone,
and why. The options, statuses and messages are those of every
transformation (``commands/transformation.py``).

Every fusion is validated on the generated code (value-based dataflow with
isl) and re-verified; a fusion that cannot be proven legal is not done.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from affine_lsp.commands import frontend, transformation
from affine_lsp.source.document import Document
from affine_lsp.transforms.edits import apply_edits
from affine_lsp.transforms.fusion import MODES, FusionResult, fuse_all, fusion_candidates, fusion_refusals, fusion_report
from affine_lsp.transforms.profitability import rank, remark
from affine_lsp.transforms.rewrite import LoopOutcome, loops_on_lines


def add_arguments(p: argparse.ArgumentParser) -> None:
    transformation.add_common_arguments(p, "fuse")
    p.add_argument("--mode", choices=MODES, default="greedy", help="greedy (producer-consumer then sibling), producer or sibling")
    p.add_argument("--maximal", action="store_true", help="ignore the cost model: fuse at the deepest legal depth")
    p.add_argument("--report", action="store_true", help="print the fusion cost model, the legality and the predicted effect (Markdown) instead of the file")
    p.add_argument("--force", action="store_true", help="also apply legal fusions predicted unprofitable (e.g. ones that recompute the producer)")


def _line(doc: Document, op: object) -> int:
    return doc.lines.position(op.span.start)[0] + 1  # type: ignore[attr-defined]


def _done(res: FusionResult) -> tuple[str, str]:
    """The remark of an applied fusion: what it did, its prediction."""
    what = res.title().removeprefix("Fuse loops here").strip(" ()")
    return f"fused ({what})", remark(res.prediction)


def _why_not(doc: Document, loop: object) -> str:
    """Why ``loop`` is not fused: its best legal fusion is predicted
    unprofitable, or no fusion is legal (the refusal of each pair)."""
    cands = sorted(fusion_candidates(doc, loop, include_unprofitable=True), key=lambda t: rank(t.prediction))  # type: ignore[arg-type]
    if cands:
        best = cands[0]
        return f"{best.title} is {remark(best.prediction)} (--force applies it)"
    refusals = fusion_refusals(doc, loop)  # type: ignore[arg-type]
    if not refusals:
        return "no other loop nest of its block to fuse with"
    return "no legal fusion: " + "; ".join(f"{kind} with the nest at line {_line(doc, dst if src is loop else src)}: {why}" for kind, src, dst, why in refusals)


def _nest_roots(doc: Document) -> list[object]:
    """The outermost ``affine.for`` of each nest (what ``--all`` fuses)."""
    return [op for op, _ in loops_on_lines(doc) if op.parent_op is None or op.parent_op.name != "affine.for"]


def _rewrite(args: argparse.Namespace) -> transformation.Rewrite:
    def rewrite(text: str, lines: Sequence[int] | None) -> tuple[str, list[LoopOutcome]]:
        doc = Document(text, uri=args.file)
        outcomes: list[LoopOutcome] = []
        if lines is None:
            applied: list[tuple[int, FusionResult]] = []
            new = fuse_all(text, args.mode, args.maximal, args.force, applied)
            for line, res in applied:
                what, pred = _done(res)
                start = doc.lines.offset(line - 1, 0)
                start += len(text[start:]) - len(text[start:].lstrip(" \t"))
                outcomes.append(LoopOutcome(start, line, True, what, pred))
            if args.verbose:
                # The nests whose text the fusions left as written.
                for lp in _nest_roots(doc):
                    if text[lp.span.start : lp.span.end] in new:  # type: ignore[attr-defined]
                        outcomes.append(LoopOutcome(lp.span.start, _line(doc, lp), False, _why_not(doc, lp)))  # type: ignore[attr-defined]
            return new, outcomes
        edits: list[object] = []
        edited: list[tuple[int, int]] = []
        for lp, line in loops_on_lines(doc, lines=lines):
            cands = sorted(fusion_candidates(doc, lp, include_unprofitable=True), key=lambda t: rank(t.prediction))
            best = cands[0] if cands else None
            if best is None or (not args.force and best.prediction is not None and not best.prediction.profitable):
                outcomes.append(LoopOutcome(lp.span.start, line, False, _why_not(doc, lp)))
                continue
            lo, hi = min(e.start for e in best.edits), max(e.end for e in best.edits)
            if any(lo < b and a < hi for a, b in edited):
                outcomes.append(LoopOutcome(lp.span.start, line, False, "its fusion overlaps one of another --loop; fuse one pair at a time"))
                continue
            edited.append((lo, hi))
            edits.extend(best.edits)
            what = best.title.removeprefix("Fuse loops here").strip(" ()")
            outcomes.append(LoopOutcome(lp.span.start, line, True, f"fused ({what})", remark(best.prediction)))
        return (apply_edits(text, edits) if edits else text), outcomes  # type: ignore[arg-type]

    return rewrite


def run(args: argparse.Namespace) -> int:
    if not args.report:
        return transformation.run_transform(args, "fuse", _rewrite(args))
    text = frontend.read_input(args.file)
    doc = Document(text, uri=args.file)
    if frontend.report_errors(args.file, doc, args.allow_unregistered_dialect):
        return frontend.EXIT_ERRORS
    lines = None if args.all or not args.loop else sorted(set(args.loop))
    status = frontend.EXIT_OK
    loops = [lp for lp, _ in loops_on_lines(doc, lines=lines)]
    for ln in sorted(set(lines or ()) - {_line(doc, lp) for lp in loops}):
        print(f"{args.file}:{ln}:1: error: no affine.for starts on this line", file=sys.stderr)
        status = frontend.EXIT_ERRORS
    parts = []
    seen: set[str] = set()
    for lp in loops:
        rep = fusion_report(lp, doc, check_legality=True)
        if rep and rep not in seen:
            seen.add(rep)
            parts.append(f"## affine.for at line {_line(doc, lp)}\n\n{rep}")
    sys.stdout.write("\n".join(parts) if parts else "No fusion candidate.\n")
    return status
