"""``affine-lsp scalar-replace``: store-to-load forwarding and redundant-load
elimination, like ``mlir-opt -affine-scalrep``, decided on exact dependences.

Every function (``--all``, the default), or only the loads inside the
``affine.for`` starting on ``--loop LINE``. The rewritten text goes to
standard output (or ``-o``); one remark per replaced load on standard error.
"""

from __future__ import annotations

import argparse

from affine_lsp.commands.vectorize import add_common_arguments, run_transform


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_common_arguments(p, "scalar-replace")


def run(args: argparse.Namespace) -> int:
    from affine_lsp.transforms.scalrep import scalrep_document

    return run_transform(args, "scalar-replace", scalrep_document)
