"""``affine-lsp print``: the textual form of an MLIR file.

A bytecode file (``.mlirbc``, as ``mlir-opt --emit-bytecode`` writes it) is
decoded to MLIR's generic syntax (see :mod:`affine_lsp.bytecode`); a text
file is printed back unchanged. Like every command, a file that cannot be
read or decoded is status 2 (``FILE: error: invalid MLIR bytecode: ...``)
and a file with syntax errors status 1 (the errors on standard error,
nothing printed).
"""

from __future__ import annotations

import argparse
import sys

from affine_lsp.commands import frontend


def add_arguments(p: argparse.ArgumentParser) -> None:
    frontend.add_input(p, what="MLIR bytecode or text file")
    frontend.add_output(p, "the text")


def run(args: argparse.Namespace) -> int:
    from affine_lsp.source.document import Document

    text = frontend.read_input(args.file)
    if frontend.report_errors(args.file, Document(text, uri=args.file), args.allow_unregistered_dialect):
        return frontend.EXIT_ERRORS
    sys.stdout.write(text)
    return frontend.EXIT_OK
