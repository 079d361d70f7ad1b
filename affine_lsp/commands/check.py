"""``affine-lsp check``: diagnostics in mlir-opt's format, JSON, SARIF 2.1.0
or GitHub Actions annotations, for files and directory trees."""

from __future__ import annotations

import argparse
import dataclasses
import gc
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from affine_lsp import diagnostics, parallel
from affine_lsp.commands import frontend
from affine_lsp.commands.frontend import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, InputError, read_input
from affine_lsp.gc_pause import gc_paused
from affine_lsp.source.document import Document

if TYPE_CHECKING:
    from concurrent.futures import Future

FORMATS = ("text", "json", "sarif", "github")

EXIT_STATUS_HELP = frontend.EXIT_STATUS_HELP


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.epilog = (
        "Directories are searched recursively for *.mlir files (hidden directories are skipped).\n"
        "A summary line 'N files, E errors, W warnings' ends the run on stderr."
    )
    frontend.add_input(p, many=True)
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: mlir-opt's 'FILE:LINE:COL: error: MSG'; json: a list of diagnostics; sarif: a SARIF 2.1.0 log; "
        "github: GitHub Actions workflow commands (annotations)",
    )
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
    p.add_argument("-j", "--jobs", type=_jobs, default=None, metavar="N", help="check N files at a time in worker processes (default: the number of cores)")
    p.add_argument("-q", "--quiet", action="store_true", help="no summary line and no progress bar")
    # No default: check analyses no pairs of accesses, and each isl query
    # is bounded by its operation budget. With a timeout the files are
    # checked one at a time, each in a child process (commands/bounded.py).
    frontend.add_timeout(p, None)
    frontend.add_output(p, "the diagnostics")


def _jobs(s: str) -> int:
    try:
        n = int(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of jobs, got {s!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1 job, got {n}")
    return n


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


__all__ = ["EXIT_ERRORS", "EXIT_OK", "EXIT_USAGE", "InputError", "read_input"]


@dataclass(frozen=True)
class Options:
    format: str = "text"
    no_warnings: bool = False
    unknown_op_mode: str = "once"
    verify_diagnostics: str | None = None  # "all" | "only-expected" (see _verify_file)
    test_memref_dependence_check: bool = False
    split: bool = False  # a large file on two processes (affine_lsp.parallel)
    allow_unregistered: bool = False  # --allow-unregistered-dialect


@dataclass
class FileReport:
    """One file's result, sent back from a worker process."""

    path: str
    status: int = EXIT_OK
    errors: int = 0
    warnings: int = 0
    output: str = ""  # text and github formats: printed as is
    items: list[dict[str, Any]] = field(default_factory=list)  # json items or SARIF results
    problem: str | None = None  # why the file could not be checked


_files_checked_here = 0


def check_path(path: str, opts: Options, text: str | None = None) -> FileReport:
    """Check one file (``text``: its contents, already read)."""
    global _files_checked_here
    if _files_checked_here:
        gc.collect()  # the previous file's IR (also when the collector is disabled)
    _files_checked_here += 1
    if text is None:
        try:
            text = read_input(path)
        except InputError as e:
            return FileReport(path, EXIT_USAGE, problem=str(e))
    # The cyclic garbage collector is paused while the file is checked and
    # its diagnostics formatted: the IR of a large file is millions of
    # long-lived objects that each full collection would walk again (half
    # of the time of a 50k-line file), and the checks make no cyclic
    # garbage worth collecting meanwhile.
    with gc_paused:
        doc = Document(text, uri=path)
        if opts.verify_diagnostics:
            doc.release_syntax()
            return _verify_file(path, doc, opts)
        # A large file is checked on two processes (see affine_lsp.parallel)
        # when cores are free (one file at a time, -j above 1).
        notes = parallel.collect(doc, opts.unknown_op_mode, opts.allow_unregistered) if opts.split else None
        if notes is None:
            doc.release_syntax()
            notes = diagnostics.collect(doc, unknown_op_mode=opts.unknown_op_mode, allow_unregistered=opts.allow_unregistered)
        if opts.no_warnings:
            notes = [n for n in notes if n.severity == "error"]
        rep = FileReport(path)
        rep.errors = sum(1 for n in notes if n.severity == "error")
        rep.warnings = sum(1 for n in notes if n.severity == "warning")
        rep.status = EXIT_ERRORS if rep.errors else EXIT_OK
        if opts.format == "json":
            rep.items = diagnostics.to_json(path, doc, notes)
        elif opts.format == "sarif":
            from affine_lsp.report_formats import sarif_results

            rep.items = sarif_results(path, doc, notes)
        elif opts.format == "github":
            from affine_lsp.report_formats import github_annotations

            rep.output = "\n".join(github_annotations(path, doc, notes))
        elif notes:
            rep.output = diagnostics.format_text(path, doc, notes)
    return rep


def _verify_file(path: str, doc: Document, opts: Options) -> FileReport:
    """``--verify-diagnostics``: the diagnostics mlir-opt would emit matched
    against the file's ``expected-*`` annotations; mlir-opt's messages for
    what disagrees. The exit status: 1 when mlir-opt's would be non-zero."""
    from affine_lsp.verify import expected, verify_document

    parse_notes = doc.notes() + diagnostics.unregistered_dialects(doc, opts.allow_unregistered)
    emitted = expected.mlir_opt_diagnostics(doc, parse_notes, verify_document(doc, strict=False))
    if opts.test_memref_dependence_check:
        from affine_lsp.ide.section_remarks import section_remarks

        emitted += expected.remark_diagnostics(doc, section_remarks([s.module for s in doc.sections]) or [])
    result = expected.verify(expected.parse_annotations(doc.text, doc), emitted, only_expected=opts.verify_diagnostics == "only-expected")
    messages = result.messages()
    rep = FileReport(path, EXIT_OK if result.ok else EXIT_ERRORS, errors=len(messages))
    if opts.format == "json":
        for line, col, msg in messages:
            pos = {"line": max(0, line - 1), "character": max(0, col - 1)}
            item = {"file": path, "severity": "error", "message": msg, "code": "verify-diagnostics", "line": max(1, line), "column": max(1, col)}
            rep.items.append({**item, "range": {"start": pos, "end": pos}})
    else:
        rep.output = "\n".join(f"{path}:{line}:{col}: error: {msg}" if line else f"{path}: error: {msg}" for line, col, msg in messages)
    return rep


class Progress:
    """A one-line progress bar on ``stream``, drawn only when it is a
    terminal."""

    WIDTH = 30

    def __init__(self, total: int, stream: TextIO, enabled: bool) -> None:
        self.total, self.stream = total, stream
        self.enabled = enabled and total > 1 and _isatty(stream)
        self.done = 0

    def step(self) -> None:
        self.done += 1
        if self.enabled:
            filled = self.WIDTH * self.done // self.total
            self.stream.write(f"\r[{'#' * filled}{'.' * (self.WIDTH - filled)}] {self.done}/{self.total} files")
            self.stream.flush()

    def clear(self) -> None:
        if self.enabled:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _warm_up(opts: Options) -> None:
    """Build the parser and import the checkers once, before the worker
    processes are forked (each would otherwise spend half a second on it)."""
    from affine_lsp.syntax.parser import shared_tables

    shared_tables()
    diagnostics.collect(Document("func.func @f() {\n  return\n}\n"))
    if opts.format == "sarif":
        import affine_lsp.ide.fixes  # noqa: F401


def _read_stdin(targets: list[tuple[str, str | None]]) -> tuple[str | None, list[tuple[str, str | None]]]:
    """Standard input's text when ``-`` is a target (read once), and the
    targets with ``-`` marked unreadable when it cannot be read."""
    if not any(p == "-" and msg is None for p, msg in targets):
        return None, targets
    try:
        return read_input("-"), targets
    except InputError as e:
        return None, [(p, str(e) if p == "-" and msg is None else msg) for p, msg in targets]


def _reports(targets: list[tuple[str, str | None]], opts: Options, jobs: int, progress: Progress) -> Iterator[FileReport]:
    """The reports of ``targets`` in their order (checked ``jobs`` at a time)."""
    stdin_text, targets = _read_stdin(targets)
    todo = [k for k, (_p, msg) in enumerate(targets) if msg is None]
    if jobs <= 1 or len(todo) <= 1:
        opts = dataclasses.replace(opts, split=jobs > 1)
        for path, msg in targets:
            rep = FileReport(path, EXIT_USAGE, problem=msg) if msg is not None else check_path(path, opts, stdin_text if path == "-" else None)
            progress.step()
            yield rep
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    _warm_up(opts)
    ready: dict[int, FileReport] = {k: FileReport(p, EXIT_USAGE, problem=msg) for k, (p, msg) in enumerate(targets) if msg is not None}
    nxt = 0
    # fork: the workers start with the parser and checkers built above (a
    # spawned or forkserver worker would build them again).
    ctx = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    with ProcessPoolExecutor(max_workers=min(jobs, len(todo)), mp_context=ctx) as pool:
        futures: dict[Future[FileReport], int] = {pool.submit(check_path, targets[k][0], opts, stdin_text if targets[k][0] == "-" else None): k for k in todo}
        for _ in range(len(targets) - len(todo)):
            progress.step()
        for fut in as_completed(futures):
            ready[futures[fut]] = fut.result()
            progress.step()
            while nxt in ready:
                yield ready.pop(nxt)
                nxt += 1
    while nxt in ready:
        yield ready.pop(nxt)
        nxt += 1


def _bounded_reports(targets: list[tuple[str, str | None]], opts: Options, timeout: float, progress: Progress) -> Iterator[FileReport]:
    """The reports of ``targets`` in their order, checked one at a time in a
    child process until ``timeout`` seconds have passed; the files not
    finished by then are reported as such (status 1)."""
    import time

    from affine_lsp.commands.bounded import run_bounded

    deadline = time.monotonic() + timeout
    stdin_text, targets = _read_stdin(targets)
    for path, msg in targets:
        left = deadline - time.monotonic()
        if msg is not None:
            rep = FileReport(path, EXIT_USAGE, problem=msg)
        elif left <= 0:
            rep = FileReport(path, EXIT_ERRORS, problem=f"check: timed out after {timeout:g} s; this file was not checked")
        else:
            got: list[FileReport] = []
            text = stdin_text if path == "-" else None
            done = run_bounded(
                lambda send, path=path, text=text: send(check_path(path, opts, text), now=True), left, lambda item, now=False, got=got: got.append(item)
            )
            rep = (
                got[0]
                if done
                else FileReport(path, EXIT_ERRORS, problem=f"check: timed out after {timeout:g} s while checking this file; its diagnostics are omitted")
            )
        progress.step()
        yield rep


def run(args: argparse.Namespace) -> int:
    if args.verify_diagnostics and args.format in ("sarif", "github"):
        raise frontend.UsageError(f"--verify-diagnostics prints mlir-opt's messages as text or json, not {args.format}")
    opts = Options(
        args.format,
        args.no_warnings,
        "off" if args.no_unknown_op_notes else "once",
        args.verify_diagnostics,
        args.test_memref_dependence_check,
        allow_unregistered=args.allow_unregistered_dialect,
    )
    targets = list(frontend.inputs(args.files))
    progress = Progress(len(targets), sys.stderr, not args.quiet)
    status = EXIT_OK
    files = errors = warnings = 0
    items: list[dict[str, Any]] = []
    if args.timeout:
        reports = _bounded_reports(targets, opts, args.timeout, progress)
    else:
        reports = _reports(targets, opts, args.jobs or default_jobs(), progress)
    for rep in reports:
        status = max(status, rep.status)
        if rep.problem is not None:
            progress.clear()
            print(f"{rep.path}: error: {rep.problem}", file=sys.stderr)
            continue
        files += 1
        errors += rep.errors
        warnings += rep.warnings
        items.extend(rep.items)
        if rep.output:
            progress.clear()
            print(rep.output, flush=progress.enabled)
    progress.clear()
    if opts.format == "json":
        print(diagnostics.dumps(items))
    elif opts.format == "sarif":
        import json

        from affine_lsp import __version__
        from affine_lsp.report_formats import sarif_log

        print(json.dumps(sarif_log(items, __version__), indent=2))
    if not args.quiet:
        print(f"{_plural(files, 'file')}, {_plural(errors, 'error')}, {_plural(warnings, 'warning')}", file=sys.stderr)
    return status
