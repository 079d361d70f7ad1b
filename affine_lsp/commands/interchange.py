"""``affine-lsp interchange``: permute the loops of perfect bands.

With ``--loop LINE --order 1,0`` the perfect band starting on LINE is
permuted (``--order`` lists the original loop positions, outermost first);
an error says which dependence the permutation would reverse. Without
``--order`` (and with ``--all``, the default) bands are interchanged for
locality: the loop along which most accesses are unit-stride or invariant
goes innermost, wherever that is legal. The rewritten text goes to standard
output (or ``-o``); one remark per interchanged band goes to standard error.
"""

from __future__ import annotations

import argparse

from affine_lsp.commands import frontend
from affine_lsp.commands.tile import parse_ints
from affine_lsp.commands.vectorize import add_common_arguments, run_transform


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_common_arguments(p, "interchange")
    p.add_argument("--order", default=None, metavar="P,P,...", help="with --loop: the new loop order as original positions, outermost first (e.g. 1,0)")


def run(args: argparse.Namespace) -> int:
    from affine_lsp.transforms.interchange import interchange_document

    order = None
    if args.order is not None:
        try:
            order = parse_ints(args.order)
        except ValueError:
            order = []
        if not order or not args.loop:
            raise frontend.UsageError("--order needs --loop and a list like 1,0")
    return run_transform(args, "interchange", lambda text, lines: interchange_document(text, lines, order))
