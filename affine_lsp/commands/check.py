"""``affine-lsp check``: diagnostics in mlir-opt's format."""

from __future__ import annotations

import argparse
import gc
import sys

from affine_lsp import diagnostics
from affine_lsp.syntax.document import Document, gc_paused


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="MLIR files ('-' for standard input)")
    p.add_argument("--split-input-file", action="store_true", help="accepted for mlir-opt compatibility; '// -----' sections are always independent")
    p.add_argument("--allow-unregistered-dialect", action="store_true", help="accepted for mlir-opt compatibility; unknown dialects are never errors")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--no-warnings", action="store_true", help="print errors only")
    p.add_argument(
        "--verify-diagnostics",
        dest="verify_diagnostics",
        action="store_const",
        const="all",
        default=None,
        help="check the diagnostics against the file's expected-* annotations as mlir-opt -verify-diagnostics does "
        "(exit status 0 when they agree; '--verify-diagnostics=only-expected' ignores unexpected diagnostics)",
    )
    p.add_argument(
        "--test-memref-dependence-check",
        action="store_true",
        help="with --verify-diagnostics: the remarks of mlir-opt's -test-memref-dependence-check take part (see 'affine-lsp deps')",
    )
    for mode in ("all", "only-expected"):  # mlir-opt's spellings, matched as whole options
        p.add_argument(f"--verify-diagnostics={mode}", dest="verify_diagnostics", action="store_const", const=mode, help=argparse.SUPPRESS)
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
    """Decode as UTF-8; invalid bytes become U+FFFD (reported by the parser)."""
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
        if getattr(args, "verify_diagnostics", None):
            return _verify_file(path, doc, args, all_json)
        notes = diagnostics.collect(doc, unknown_op_mode="off" if args.no_unknown_op_notes else "once")
        if args.no_warnings:
            notes = [n for n in notes if n.severity == "error"]
        if args.format == "json":
            all_json.extend(diagnostics.to_json(path, doc, notes))
        elif notes:
            print(diagnostics.format_text(path, doc, notes))
    return 1 if any(n.severity == "error" for n in notes) else 0


def _verify_file(path: str, doc: Document, args: argparse.Namespace, all_json: list[dict]) -> int:
    """``--verify-diagnostics``: the diagnostics mlir-opt would emit matched
    against the file's ``expected-*`` annotations; mlir-opt's messages for
    what disagrees. The exit status: 1 when mlir-opt's would be non-zero."""
    from affine_lsp.verify import expected, verify_document

    emitted = expected.mlir_opt_diagnostics(doc, doc.notes(), verify_document(doc, strict=False))
    if args.test_memref_dependence_check:
        from affine_lsp.commands.deps import _remarks

        emitted += expected.remark_diagnostics(doc, _remarks(doc, True, None))
    result = expected.verify(expected.parse_annotations(doc.text, doc), emitted, only_expected=args.verify_diagnostics == "only-expected")
    messages = result.messages()
    if args.format == "json":
        for line, col, msg in messages:
            pos = {"line": max(0, line - 1), "character": max(0, col - 1)}
            all_json.append({"file": path, "severity": "error", "message": msg, "code": "verify-diagnostics", "range": {"start": pos, "end": pos}})
    else:
        for line, col, msg in messages:
            print(f"{path}:{line}:{col}: error: {msg}" if line else f"{path}: error: {msg}")
    return 0 if result.ok else 1
