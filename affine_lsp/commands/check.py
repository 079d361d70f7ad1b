"""``affine-lsp check``: diagnostics in mlir-opt's format."""

from __future__ import annotations

import argparse
import gc
import sys

from affine_lsp import diagnostics
from affine_lsp.bytecode import decode_bytecode, is_bytecode
from affine_lsp.syntax.document import Document, gc_paused


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="MLIR files ('-' for standard input)")
    p.add_argument("--split-input-file", action="store_true", help="accepted for mlir-opt compatibility; '// -----' sections are always independent")
    p.add_argument("--allow-unregistered-dialect", action="store_true", help="accepted for mlir-opt compatibility; unknown dialects are never errors")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--no-warnings", action="store_true", help="print errors only")
    p.add_argument(
        "--no-unknown-op-notes",
        action="store_true",
        help="do not report ops whose custom syntax affine-lsp does not know (by default: one remark per op name per file)",
    )


def read_source(path: str) -> str:
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    return decode(data)


def decode(data: bytes) -> str:
    """Decode as UTF-8; invalid bytes become U+FFFD (reported by the parser).
    MLIR bytecode (``ML\\xefR``) becomes its textual form (the generic
    syntax); a file that cannot be decoded raises ``BytecodeError`` (an
    ``OSError``, reported as ``FILE: error: invalid MLIR bytecode: ...``)."""
    if is_bytecode(data):
        return decode_bytecode(data)
    return data.decode("utf-8", errors="replace")


def run(args: argparse.Namespace) -> int:
    status = 0
    all_json: list[dict] = []
    for k, path in enumerate(args.files):
        if k:
            gc.collect()  # the previous file's IR (also when the collector is disabled)
        status = max(status, _check_file(path, args, all_json))
    if args.format == "json":
        print(diagnostics.dumps(all_json))
    return status


def _check_file(path: str, args: argparse.Namespace, all_json: list[dict]) -> int:
    """Check one file: print its diagnostics (text) or add them to
    ``all_json``. The exit status: 1 when it has errors."""
    try:
        text = read_source(path)
    except OSError as e:
        print(f"{path}: error: {e.strerror}", file=sys.stderr)
        return 1
    # The cyclic garbage collector is paused while the file is checked and
    # its diagnostics printed: the IR of a large file is millions of
    # long-lived objects that each full collection would walk again (half
    # of the time of a 50k-line file), and the checks make no cyclic
    # garbage worth collecting meanwhile.
    with gc_paused:
        doc = Document(text, uri=path)
        doc.release_syntax()
        notes = diagnostics.collect(doc, unknown_op_mode="off" if args.no_unknown_op_notes else "once")
        if args.no_warnings:
            notes = [n for n in notes if n.severity == "error"]
        if args.format == "json":
            all_json.extend(diagnostics.to_json(path, doc, notes))
        elif notes:
            print(diagnostics.format_text(path, doc, notes))
    return 1 if any(n.severity == "error" for n in notes) else 0
