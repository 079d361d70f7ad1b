"""``affine-lsp vectorize``: super-vectorize affine loops (1-D, with reductions).

Like ``mlir-opt -affine-super-vectorize="virtual-vector-size=N
vectorize-reductions"``, without its miscompiles: a trip count that is not a
multiple of ``N`` gets a scalar remainder loop, transfers proven in bounds
are marked ``in_bounds``, and strided accesses are refused. With
``--loop LINE`` only the ``affine.for`` starting on that line is vectorized
(an error says why when it cannot be; a remark says when it is predicted not
to help); otherwise (``--all``, the default) every section gets the loops
:func:`~affine_lsp.transforms.vectorize.select_loops` picks among those
predicted to make the code faster (``--force``: among all legal ones; ``-v``
lists the others with the reason). The rewritten text goes to standard output (or ``-o``); one remark
per vectorized loop goes to standard error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from affine_lsp.commands import frontend
from affine_lsp.syntax.document import Document
from affine_lsp.transforms.rewrite import LoopOutcome

_PAST = {"unroll": "unrolled", "unroll-and-jam": "unrolled and jammed", "unroll and jam": "unrolled and jammed", "hoist": "hoisted"}


def past(verb: str) -> str:
    """``vectorized``, ``unrolled``, ... (the verb's past participle)."""
    return _PAST.get(verb, verb + "d")


def add_common_arguments(p: argparse.ArgumentParser, verb: str) -> None:
    frontend.add_input(p)
    p.add_argument("--loop", type=int, action="append", metavar="LINE", help=f"{verb} the affine.for starting on LINE (1-based; repeatable)")
    p.add_argument("--all", action="store_true", help=f"{verb} every loop the strategy picks (the default without --loop)")
    p.add_argument("-v", "--verbose", action="store_true", help=f"also report the loops that were not {past(verb)}, and why")
    frontend.add_output(p, "the rewritten text")


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_common_arguments(p, "vectorize")
    p.add_argument("--vf", type=int, default=8, metavar="N", help="vector width (default 8)")
    p.add_argument("--no-reductions", action="store_true", help="do not vectorize loops carrying reductions (iter_args)")
    p.add_argument("--force", action="store_true", help="with --all, also vectorize the loops predicted not to make the code faster")
    p.add_argument(
        "--fastest-only", action="store_true", help="with --all, only loops running along the fastest-varying memref dimension (test-fastest-varying=0)"
    )


def run_transform(args: argparse.Namespace, verb: str, transform: Callable[[str, Sequence[int] | None], tuple[str, list[LoopOutcome]]]) -> int:
    """Read ``args.file``, run ``transform(text, lines)`` (lines: None for
    ``--all``), report the outcomes on standard error, write the text."""
    text = frontend.read_input(args.file)
    doc = Document(text, uri=args.file)
    if frontend.report_errors(args.file, doc):
        return frontend.EXIT_ERRORS
    status = 0
    lines = None if args.all or not args.loop else sorted(set(args.loop))
    if lines is not None:
        starts = {doc.lines.line_of(op.span.start) + 1 for s in doc.sections for op in s.module.walk() if op.name == "affine.for"}
        for ln in lines:
            if ln not in starts:
                print(f"{args.file}:{ln}:1: error: no affine.for starts on this line", file=sys.stderr)
                status = 1
    new, outcomes = transform(text, lines)
    for o in outcomes:
        col = doc.lines.position(o.offset)[1] + 1
        if o.done:
            print(f"{args.file}:{o.line}:{col}: remark: {o.message}" + (f"; {o.prediction}" if o.prediction else ""), file=sys.stderr)
        elif lines is not None:
            print(f"{args.file}:{o.line}:{col}: error: cannot {verb} this loop: {o.message}", file=sys.stderr)
            status = 1
        elif args.verbose:
            print(f"{args.file}:{o.line}:{col}: remark: not {past(verb)}: {o.message}", file=sys.stderr)
    sys.stdout.write(new)
    return status


def run(args: argparse.Namespace) -> int:
    from affine_lsp.transforms.vectorize import vectorize_document

    if args.vf < 2:
        raise frontend.UsageError("--vf must be at least 2")
    return run_transform(
        args, "vectorize", lambda text, lines: vectorize_document(text, args.vf, lines, not args.no_reductions, 0 if args.fastest_only else 1, args.force)
    )
