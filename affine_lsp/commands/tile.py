"""``affine-lsp tile``: tile perfect loop bands with rectangular tiles.

Like ``mlir-opt -affine-loop-tile="tile-sizes=..."``, but only where it is
legal: with ``--loop LINE`` the hyper-rectangular perfect band starting on
that line is tiled (an error says which dependence forbids it); otherwise
(``--all``, the default) every outermost band is tiled as deep as it is
fully permutable, unless its data already fits in half the L2 cache (the
remark of each tiled band gives the predicted effect). ``--skew`` skews a band first when only a skew makes it
permutable (stencils). The rewritten text goes to standard output (or
``-o``); one remark per tiled band goes to standard error.
"""

from __future__ import annotations

import argparse

from affine_lsp.commands import frontend
from affine_lsp.commands.vectorize import add_common_arguments, run_transform


def parse_ints(text: str) -> list[int]:
    return [int(x) for x in text.replace("x", ",").split(",") if x.strip()]


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_common_arguments(p, "tile")
    p.add_argument(
        "--sizes",
        default="32",
        metavar="N,N,...",
        help="tile sizes, outermost first; the last one repeats (default 32); 'auto': per band, the largest square tiles whose footprint fits in the L1 data cache",
    )
    p.add_argument("--force", action="store_true", help="with --all, also tile the bands predicted unprofitable (data already in cache)")
    p.add_argument("--skew", action="store_true", help="skew a band that is not fully permutable when a skew makes it so, then tile it")


def run(args: argparse.Namespace) -> int:
    from affine_lsp.transforms.tile import tile_document

    sizes: list[int] | None = None
    if args.sizes.strip() != "auto":
        try:
            sizes = parse_ints(args.sizes)
        except ValueError:
            sizes = []
        if not sizes or any(s < 1 for s in sizes):
            raise frontend.UsageError("--sizes must be positive integers, e.g. 32,32, or auto")
    return run_transform(args, "tile", lambda text, lines: tile_document(text, sizes, lines, skew=args.skew, profitable_only=not args.force))
