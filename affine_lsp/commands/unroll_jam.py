"""``affine-lsp unroll-jam``: unroll-and-jam outer ``affine.for`` loops.

Like ``mlir-opt -affine-loop-unroll-jam="unroll-jam-factor=N"``, but only
where no dependence is reversed (checked exactly; MLIR does not check):
every loop with inner loops whose copies share a load (``--all``, the
default; outermost first; ``--force``: also the others), or
only the ``affine.for`` starting on ``--loop LINE``. The rewritten text goes
to standard output (or ``-o``); a refused loop is reported on standard error
with the dependence that forbids it.
"""

from __future__ import annotations

import argparse

from affine_lsp.commands import frontend
from affine_lsp.commands.vectorize import add_common_arguments, run_transform


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_common_arguments(p, "unroll-and-jam")
    p.add_argument("--factor", type=int, default=2, metavar="N", help="unroll-jam factor (default 2)")
    p.add_argument("--force", action="store_true", help="with --all, also the loops predicted unprofitable (no load shared between the copies)")


def run(args: argparse.Namespace) -> int:
    from affine_lsp.transforms.unroll_jam import unroll_jam_document

    if args.factor < 2:
        raise frontend.UsageError("--factor must be at least 2")
    return run_transform(args, "unroll and jam", lambda text, lines: unroll_jam_document(text, lines, args.factor, profitable_only=not args.force))
