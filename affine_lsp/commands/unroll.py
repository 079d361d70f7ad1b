"""``affine-lsp unroll``: unroll ``affine.for`` loops.

Like ``mlir-opt -affine-loop-unroll="unroll-factor=N"`` (or
``unroll-full``): every innermost loop (``--all``, the default), or only the
``affine.for`` starting on ``--loop LINE``, is unrolled by ``--factor``
(with a cleanup loop when the trip count may not be a multiple), or fully
with ``--full`` (constant trip counts up to 16). The rewritten text goes to
standard output (or ``-o``); one remark per unrolled loop goes to standard
error, and an error says why a requested loop cannot be unrolled.
"""

from __future__ import annotations

import argparse

from affine_lsp.commands import frontend
from affine_lsp.commands.vectorize import add_common_arguments, run_transform


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_common_arguments(p, "unroll")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--factor", type=int, default=4, metavar="N", help="unroll factor (default 4)")
    g.add_argument("--full", action="store_true", help="unroll completely (constant trip counts up to 16)")


def run(args: argparse.Namespace) -> int:
    from affine_lsp.transforms.unroll import unroll_document

    if not args.full and args.factor < 2:
        raise frontend.UsageError("--factor must be at least 2")
    factor = None if args.full else args.factor
    return run_transform(args, "unroll", lambda text, lines: unroll_document(text, lines, factor))
