"""``affine-lsp parallelize``: ``affine.for`` -> ``affine.parallel``.

Like ``mlir-opt -affine-parallelize="parallel-reductions=1"``: every loop
without a carried dependence (``--all``, the default), or only the
``affine.for`` starting on ``--loop LINE``, becomes an ``affine.parallel``,
with ``reduce`` for its recognised reductions. The rewritten text goes to
standard output (or ``-o``); one remark per parallelized loop goes to
standard error.
"""

from __future__ import annotations

import argparse

from affine_lsp.commands.vectorize import add_common_arguments, run_transform


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_common_arguments(p, "parallelize")
    p.add_argument("--max-nested", type=int, default=None, metavar="N", help="at most N nested affine.parallel ops (like max-nested)")


def run(args: argparse.Namespace) -> int:
    from affine_lsp.transforms.parallelize import parallelize_document

    return run_transform(args, "parallelize", lambda text, lines: parallelize_document(text, lines, args.max_nested))
