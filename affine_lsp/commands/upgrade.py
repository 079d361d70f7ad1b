"""``affine-lsp upgrade``: a file in MLIR's pre-2022 syntax in the current one.

The upgraded text goes to standard output (``--in-place``: back to the
file); what cannot be upgraded mechanically is reported on standard error,
one ``FILE:LINE: warning: ...`` line each, and left as written. Exit status:
0, or 1 when something was left as written, or when the upgraded text still
has errors (those are reported, nothing is written); 2 and 3 as for every
command. A file (``--in-place`` or ``-o``) is written only by an upgrade
that is complete (status 0), as a failed transformation leaves its target
alone; a partial upgrade still goes to standard output.
"""

from __future__ import annotations

import argparse
import re
import sys

from affine_lsp.commands import frontend

_ESCAPED = re.compile("[\udc80-\udcff]")
"""A byte that is not UTF-8, as ``surrogateescape`` reads it."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    frontend.add_input(p)
    p.add_argument("--in-place", action="store_true", help="rewrite FILE instead of printing the upgraded text")
    frontend.add_output(p, "the upgraded text")


def run(args: argparse.Namespace) -> int:
    from affine_lsp.transforms.legacy_upgrade import upgrade_text

    if args.in_place and (args.file == "-" or args.output != "-"):
        raise frontend.UsageError("--in-place rewrites a named FILE; it takes no '-' and no -o")
    # Bytes that are not UTF-8 (a Latin-1 comment) are kept as they are:
    # read with surrogateescape, written back the same way.
    text = frontend.read_input(args.file, keep_bytes=True)
    result = upgrade_text(text)
    for p in result.problems:
        print(f"{args.file}:{p.line}: warning: {p.message}", file=sys.stderr)
    if not result.problems:
        from affine_lsp.source.document import Document

        # What is still wrong after the upgrade is not legacy syntax: the
        # input has errors (reported at their place in the upgraded text).
        # (the checks see U+FFFD for each such byte, at the same offsets)
        if frontend.report_errors(args.file, Document(_ESCAPED.sub("\ufffd", result.text), uri=args.file), args.allow_unregistered_dialect):
            return frontend.EXIT_ERRORS
    to_file = args.in_place or args.output != "-"
    if result.problems and to_file:
        target = args.file if args.in_place else args.output
        print(f"{target}: note: not written: {len(result.problems)} construct(s) could not be upgraded", file=sys.stderr)
        return frontend.EXIT_ERRORS
    if args.in_place:
        if result.text != text:
            frontend.check_writable(args.file)
            frontend.write_file(args.file, result.text.encode("utf-8", errors="surrogateescape"))
    elif _ESCAPED.search(result.text):
        sys.stdout.flush()
        sys.stdout.buffer.write(result.text.encode("utf-8", errors="surrogateescape"))  # type: ignore[attr-defined]
    else:
        sys.stdout.write(result.text)
    return 1 if result.problems else 0
