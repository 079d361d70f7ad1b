"""``affine-lsp fuse``: legal, profitable loop fusion; prints the transformed file.

``--all`` (the default without ``--loop``) fuses greedily like ``mlir-opt
-affine-loop-fusion``: mode ``greedy`` is producer-consumer fusion (producers
with a single consumer first), then sibling fusion, then producer-consumer
fusion again; ``producer`` and ``sibling`` run one kind only; ``--maximal``
skips the cost model (deepest legal depth), like ``{maximal}``. Every
``// -----`` section is processed on its own and the sections are re-joined
with their markers. ``--loop LINE`` applies the best fusion involving the
``affine.for`` written on that line (1-based) and nothing else. ``--report``
prints the cost model at every depth and the predicted effect for the
loop(s) instead.

Only fusions predicted profitable are applied (no recomputation beyond the
cost model's tolerance, see ``transforms/fusion_predict.py``); ``--force``
applies a legal fusion anyway. One remark per fusion goes to standard error
with its predicted effect.

Every fusion is validated on the generated code (value-based dataflow with
isl) and re-verified; a fusion that cannot be proven legal is not done.
"""

from __future__ import annotations

import argparse
import sys

from affine_lsp.commands import frontend
from affine_lsp.syntax.document import Document
from affine_lsp.transforms.edits import apply_edits
from affine_lsp.transforms.fusion import MODES, FusionResult, fuse_all, fusion_candidates, fusion_report
from affine_lsp.transforms.profitability import rank


def add_arguments(p: argparse.ArgumentParser) -> None:
    frontend.add_input(p)
    p.add_argument("--loop", type=int, metavar="LINE", help="fuse the affine.for on this line (1-based) with its best partner")
    p.add_argument("--all", action="store_true", help="fuse greedily everywhere (the default without --loop)")
    p.add_argument("--mode", choices=MODES, default="greedy", help="greedy (producer-consumer then sibling), producer or sibling")
    p.add_argument("--maximal", action="store_true", help="ignore the cost model: fuse at the deepest legal depth")
    p.add_argument("--report", action="store_true", help="print the fusion cost model and the predicted effect (Markdown) instead of the file")
    p.add_argument("--force", action="store_true", help="also apply legal fusions predicted unprofitable (e.g. ones that recompute the producer)")
    frontend.add_output(p, "the fused text")


def _loop_at(doc: Document, line: int) -> object | None:
    for s in doc.sections:
        for op in s.module.walk():
            if op.name == "affine.for" and doc.lines.position(op.span.start)[0] + 1 == line:
                return op
    return None


def _loops(doc: Document) -> list[object]:
    return [op for s in doc.sections for op in s.module.walk() if op.name == "affine.for"]


def run(args: argparse.Namespace) -> int:
    text = frontend.read_input(args.file)
    doc = Document(text, uri=args.file)
    if frontend.report_errors(args.file, doc):
        return frontend.EXIT_ERRORS
    if args.report:
        loops = [_loop_at(doc, args.loop)] if args.loop is not None else _loops(doc)
        parts = []
        seen: set[str] = set()
        for lp in loops:
            if lp is None:
                continue
            rep = fusion_report(lp, doc)  # type: ignore[arg-type]
            if rep and rep not in seen:
                seen.add(rep)
                line = doc.lines.position(lp.span.start)[0] + 1  # type: ignore[attr-defined]
                parts.append(f"## affine.for at line {line}\n\n{rep}")
        out = "\n".join(parts) if parts else "No fusion candidate.\n"
    elif args.loop is not None and not args.all:
        lp = _loop_at(doc, args.loop)
        if lp is None:
            print(f"{args.file}:{args.loop}: error: no affine.for on this line", file=sys.stderr)
            return 1
        cands = sorted(fusion_candidates(doc, lp, include_unprofitable=True), key=lambda t: rank(t.prediction))  # type: ignore[arg-type]
        if cands and not args.force and cands[0].prediction is not None and not cands[0].prediction.profitable:
            print(f"{args.file}:{args.loop}: note: not fused: {cands[0].title}{cands[0].prediction.title_suffix()} (--force applies it)", file=sys.stderr)
            out = text
        elif not cands:
            print(f"{args.file}:{args.loop}: note: no legal fusion for this loop", file=sys.stderr)
            out = text
        else:
            pred = cands[0].prediction
            print(f"{args.file}:{args.loop}: remark: {cands[0].title}{pred.title_suffix() if pred else ''}", file=sys.stderr)
            out = apply_edits(text, cands[0].edits)
    else:
        applied: list[tuple[int, FusionResult]] = []
        out = fuse_all(text, args.mode, args.maximal, args.force, applied)
        for line, res in applied:
            print(f"{args.file}:{line}: remark: {res.title()}{res.prediction.title_suffix()}", file=sys.stderr)
    sys.stdout.write(out)
    return 0
