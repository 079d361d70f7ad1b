"""``affine-lsp optimize``: reschedule, tile and regenerate loop nests.

isl's scheduler on the exact dependences, tiling of the permutable bands
with a unit-stride parallel innermost loop, and code generation back into
``affine.for`` / ``affine.if`` (:mod:`affine_lsp.transforms.optimize`).
With ``--loop LINE`` the top-level nest starting on that line is optimized
alone; with ``--func NAME`` every group of consecutive top-level nests of
that function together (fusion and distribution included); otherwise
(``--all``, the default) those of every function. ``--explain`` prints the
new schedule, the parallel and vector loops and the prediction on standard
error. A nest predicted to gain nothing, or one the scheduler cannot
handle, is left alone with the reason (``-v``). The rewritten text goes to
standard output (or ``-o``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from affine_lsp.commands.vectorize import add_common_arguments, run_transform


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_common_arguments(p, "optimize")
    p.add_argument("--func", action="append", metavar="NAME", help="optimize the top-level nests of function NAME together (repeatable)")
    p.add_argument(
        "--tile",
        type=int,
        default=None,
        metavar="N",
        help="tile the permutable bands with reuse by N (1: no tiling); default: 32, only where the reused data exceeds half the L2 cache",
    )
    p.add_argument("--parallel", action="store_true", help="turn the outermost parallel loops of the result into affine.parallel")
    p.add_argument("--explain", action="store_true", help="print the new schedule, its parallel and vector loops and the prediction on standard error")
    p.add_argument("--force", action="store_true", help="emit the new schedule even when it is predicted to gain nothing")
    p.add_argument("--no-compose", action="store_true", help="the schedule alone: no unroll-and-jam or vectorization of the result")


def run(args: argparse.Namespace) -> int:
    from affine_lsp.transforms.optimize import optimize_document

    if args.tile is not None and args.tile < 1:
        print(f"{args.file}: error: --tile must be a positive integer", file=sys.stderr)
        return 1

    def transform(text: str, lines: Sequence[int] | None):  # type: ignore[no-untyped-def]
        new, outcomes, explains = optimize_document(text, None if args.func else lines, args.func, args.tile, args.parallel, args.force, not args.no_compose)
        if args.explain:
            for line, explain, pred in explains:
                print(f"{args.file}:{line}: nest", file=sys.stderr)
                for e in explain:
                    print("  " + e, file=sys.stderr)
                if pred is not None:
                    print("  " + pred.markdown(), file=sys.stderr)
        return new, outcomes

    return run_transform(args, "optimize", transform)
