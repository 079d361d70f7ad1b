"""``affine-lsp upgrade``: a file in MLIR's pre-2022 syntax in the current one.

The upgraded text goes to standard output (``--in-place``: back to the
file); what cannot be upgraded mechanically is reported on standard error,
one ``FILE:LINE: warning: ...`` line each, and left as written. Exit status:
0, or 1 when something was left as written (or the file cannot be read).
"""

from __future__ import annotations

import argparse
import sys

from affine_lsp.commands.check import read_source_or_report


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="MLIR file ('-' for standard input)")
    p.add_argument("--in-place", action="store_true", help="rewrite FILE instead of printing the upgraded text")


def run(args: argparse.Namespace) -> int:
    from affine_lsp.transforms.upgrade import upgrade_text

    text = read_source_or_report(args.file)
    if text is None:
        return 1
    result = upgrade_text(text)
    for p in result.problems:
        print(f"{args.file}:{p.line}: warning: {p.message}", file=sys.stderr)
    if args.in_place and args.file != "-":
        if result.text != text:
            with open(args.file, "w", encoding="utf-8", newline="") as f:
                f.write(result.text)
    else:
        sys.stdout.write(result.text)
    return 1 if result.problems else 0
