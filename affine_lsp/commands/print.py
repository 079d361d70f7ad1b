"""``affine-lsp print``: the textual form of an MLIR file.

A bytecode file (``.mlirbc``, as ``mlir-opt --emit-bytecode`` writes it) is
decoded to MLIR's generic syntax (see :mod:`affine_lsp.bytecode`); a text
file is printed back unchanged. Exit status 1 when the file cannot be read
or decoded (``FILE: error: invalid MLIR bytecode: ...`` on standard error).
"""

from __future__ import annotations

import argparse
import sys

from affine_lsp.commands.check import read_source_or_report


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="an MLIR bytecode or text file ('-' for standard input)")
    p.add_argument("-o", "--output", metavar="OUT", help="write the text here instead of standard output")


def run(args: argparse.Namespace) -> int:
    text = read_source_or_report(args.file)
    if text is None:
        return 1
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0
