"""``affine-lsp hoist``: hoist loop-invariant code out of ``affine.for`` loops.

Like ``mlir-opt -affine-loop-invariant-code-motion``, but an op whose memory
effects are unknown is never moved, and a store only leaves a loop that runs
at least once: out of every loop (``--all``, the default; innermost first),
or only out of the ``affine.for`` starting on ``--loop LINE``. The rewritten
text goes to standard output (or ``-o``); remarks on standard error.
"""

from __future__ import annotations

import argparse

from affine_lsp.commands.vectorize import add_common_arguments, run_transform


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_common_arguments(p, "hoist")


def run(args: argparse.Namespace) -> int:
    from affine_lsp.transforms.hoist import hoist_document

    return run_transform(args, "hoist", hoist_document)
