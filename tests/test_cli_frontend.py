"""Every CLI command behaves the same on the cases a user trips over (issue
#33): each subcommand of ``cli.SUBCOMMANDS`` that reads a file is run as the
user runs it (a fresh ``python -m affine_lsp`` process) with an output path
in a missing folder, with standard output closed early and on ``/dev/full``,
with standard output not open at all, on a missing, a binary, an invalid
and an empty file. No traceback ever, one
line on stderr for each I/O failure, and the exit status of each case is the
one of the table in ``frontend.EXIT_STATUS_HELP`` (which ``--help`` shows).
A command added to ``cli.SUBCOMMANDS`` is covered without editing this file."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from affine_lsp import cli
from affine_lsp.commands import frontend

ROOT = Path(__file__).resolve().parents[1]

# A loop-carried dependence (deps, plot, the transformations have work) and
# an out-of-bounds read (a warning: `check` prints something, status 0).
VALID = """\
func.func @f(%A: memref<10xf32>, %B: memref<10xf32>) {
  affine.for %i = 1 to 10 {
    %v = affine.load %A[%i - 1] : memref<10xf32>
    affine.store %v, %A[%i] : memref<10xf32>
  }
  affine.for %j = 0 to 10 {
    %w = affine.load %B[%j + 1] : memref<10xf32>
  }
  return
}
"""
INVALID = "func.func @f() {\n  %x = arith.constant : i32\n  return\n}\n"

# The documented status of each case (frontend.EXIT_STATUS_HELP).
EXPECTED = {
    "missing output folder": frontend.EXIT_OUTPUT,
    "stdout closed early": frontend.EXIT_OK,
    "stdout on /dev/full": frontend.EXIT_OUTPUT,
    "stdout not open": frontend.EXIT_OUTPUT,
    "missing file": frontend.EXIT_USAGE,
    "binary file": frontend.EXIT_USAGE,
    "invalid file": frontend.EXIT_ERRORS,
    "empty file": frontend.EXIT_OK,
}
# A command asked for something an empty file lacks: the documented status 1
# ("a loop to plot that is not there").
EMPTY_HAS_NOTHING_TO_DO = {"plot", "time"}
# Commands whose output is the diagnostics themselves.
DIAGNOSTICS_ON_STDOUT = {"check"}


def _file_commands() -> list[str]:
    """The subcommands that read a file (``serve`` talks LSP instead)."""
    parser, _ = cli.build_parser("*")
    sub = next(a for a in parser._actions if a.dest == "command")
    out = []
    for name, p in sub.choices.items():  # type: ignore[union-attr]
        if any(a.dest in ("file", "files") for a in p._actions):
            out.append(name)
    return out


FILE_COMMANDS = _file_commands()


def test_every_command_but_the_server_reads_files_and_writes_output() -> None:
    assert set(cli.SUBCOMMANDS) - set(FILE_COMMANDS) == {"serve"}
    parser, _ = cli.build_parser("*")
    sub = next(a for a in parser._actions if a.dest == "command")
    for name in FILE_COMMANDS:
        p = sub.choices[name]  # type: ignore[index]
        opts = {o for a in p._actions for o in a.option_strings}
        assert {"-o", "--output", "--split-input-file", "--allow-unregistered-dialect"} <= opts, name


def _run(argv: list[str], stdout: object = subprocess.PIPE, close_stdout: bool = False, no_stdout: bool = False) -> tuple[int, str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), AFFINE_LSP_PREFORK="0")
    if no_stdout:
        # `affine-lsp ... >&-`: file descriptor 1 is not open at all
        p = subprocess.run(
            ["sh", "-c", 'exec "$@" >&-', "sh", sys.executable, "-m", "affine_lsp", *argv], stderr=subprocess.PIPE, text=True, env=env, timeout=300
        )
        return p.returncode, "", p.stderr
    if close_stdout:
        # The reader goes away before the command writes (`| head -0`).
        r, w = os.pipe()
        os.close(r)
        try:
            p = subprocess.run([sys.executable, "-m", "affine_lsp", *argv], stdout=w, stderr=subprocess.PIPE, text=True, env=env, timeout=300)
        finally:
            os.close(w)
        return p.returncode, "", p.stderr
    p = subprocess.run([sys.executable, "-m", "affine_lsp", *argv], stdout=stdout, stderr=subprocess.PIPE, text=True, env=env, timeout=300)  # type: ignore[arg-type]
    return p.returncode, p.stdout or "", p.stderr


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("inputs")
    out = {"valid": d / "valid.mlir", "invalid": d / "invalid.mlir", "empty": d / "empty.mlir", "binary": d / "binary.mlir", "missing": d / "missing.mlir"}
    out["valid"].write_text(VALID)
    out["invalid"].write_text(INVALID)
    out["empty"].write_text("")
    out["binary"].write_bytes(b"func.func @f() {\0\x01\x02 return }\n")
    out["folder"] = d / "no-such-folder" / "out.mlir"
    return out


def _cases(cmd: str, f: dict[str, Path]) -> dict[str, tuple[int, str, str]]:
    """Every case of ``cmd``, two processes at a time."""
    full = open("/dev/full", "w")  # noqa: SIM115 - closed below
    jobs = {
        "missing output folder": lambda: _run([cmd, str(f["valid"]), "-o", str(f["folder"])]),
        "stdout closed early": lambda: _run([cmd, str(f["valid"])], close_stdout=True),
        "stdout on /dev/full": lambda: _run([cmd, str(f["valid"])], stdout=full),
        "stdout not open": lambda: _run([cmd, str(f["valid"])], no_stdout=True),
        "missing file": lambda: _run([cmd, str(f["missing"])]),
        "binary file": lambda: _run([cmd, str(f["binary"])]),
        "invalid file": lambda: _run([cmd, str(f["invalid"])]),
        "empty file": lambda: _run([cmd, str(f["empty"])]),
    }
    try:
        with ThreadPoolExecutor(2) as pool:
            futures = {k: pool.submit(job) for k, job in jobs.items()}
            return {k: fut.result() for k, fut in futures.items()}
    finally:
        full.close()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("cmd", FILE_COMMANDS)
def test_failure_cases_are_one_line_and_the_documented_status(cmd: str, files: dict[str, Path]) -> None:
    results = _cases(cmd, files)
    assert not files["folder"].parent.exists()
    for case, (status, _out, err) in results.items():
        expected = EXPECTED[case]
        if case == "empty file" and cmd in EMPTY_HAS_NOTHING_TO_DO:
            expected = frontend.EXIT_ERRORS
        assert "Traceback" not in err and "Exception ignored" not in err and "islpy warning" not in err and "internal error" not in err, (cmd, case, err)
        assert status == expected, (cmd, case, status, err)
        # check prints its summary line; the I/O failures are one line each
        problems = [ln for ln in err.splitlines() if ": error: " in ln]
        if case == "missing output folder":
            assert problems == [f"{files['folder']}: error: cannot write: No such folder: {files['folder'].parent}"], (cmd, err)
        elif case == "stdout on /dev/full":
            assert problems == ["<stdout>: error: cannot write: No space left on device"], (cmd, err)
        elif case == "stdout not open":
            assert problems == ["<stdout>: error: cannot write: standard output is closed"], (cmd, err)
        elif case == "stdout closed early":
            assert problems == [], (cmd, err)
        elif case == "missing file":
            assert problems == [f"{files['missing']}: error: No such file or directory"], (cmd, err)
        elif case == "binary file":
            assert problems == [f"{files['binary']}: error: binary file (it contains NUL bytes), not MLIR text or MLIR bytecode"], (cmd, err)
        elif case == "invalid file":
            # check's output is the diagnostics; the other commands print
            # the errors on stderr and write nothing
            where = _out if cmd in DIAGNOSTICS_ON_STDOUT else err
            errors = [ln for ln in where.splitlines() if ": error: " in ln]
            assert errors and all(ln.startswith(f"{files['invalid']}:2:") for ln in errors), (cmd, _out, err)
            assert cmd in DIAGNOSTICS_ON_STDOUT or _out == "", (cmd, _out)


def test_output_goes_to_the_named_file_and_a_failure_leaves_it_alone(tmp_path: Path, files: dict[str, Path]) -> None:
    out = tmp_path / "out.mlir"
    status, stdout, err = _run(["print", str(files["valid"]), "-o", str(out)])
    assert (status, stdout) == (0, "") and out.read_text() == VALID, err
    out.write_text("kept")
    status, stdout, err = _run(["parallelize", str(files["invalid"]), "-o", str(out)])
    assert status == 1 and out.read_text() == "kept" and "error:" in err


def test_help_shows_the_one_exit_status_table() -> None:
    status, out, _ = _run(["--help"])
    assert status == 0 and frontend.EXIT_STATUS_HELP in out
    for cmd in FILE_COMMANDS[:3]:
        status, out, _ = _run([cmd, "--help"])
        assert status == 0 and frontend.EXIT_STATUS_HELP in out, cmd


def test_option_values_a_command_cannot_use_are_usage_errors(files: dict[str, Path]) -> None:
    for argv in (
        ["vectorize", "--vf", "1"],
        ["unroll", "--factor", "1"],
        ["tile", "--sizes", "0"],
        ["plot", "--params", "N"],
        ["plot", "--format", "json", "-o", "x.svg"],
    ):
        status, _, err = _run([*argv, str(files["valid"])])
        assert status == frontend.EXIT_USAGE and len(err.splitlines()) == 1 and "Traceback" not in err, (argv, err)
