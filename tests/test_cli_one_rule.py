"""Issue #43, items 5 and 9 on the command line: every command follows one
rule for invalid input (status 1, ``check``'s errors on stderr, nothing
written), and ``fuse`` speaks like the other transformations (``-v``, the
exit statuses, the dependence that forbids a fusion). Each test runs the
real CLI (a fresh ``python -m affine_lsp`` process)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from affine_lsp import cli
from tests import oracle

ROOT = Path(__file__).resolve().parents[1]

# mlir-opt: "'arith.addf' op operand #0 must be floating-point-like, but got
# 'memref<10xf32>'" -- an error of the verifier, not of the syntax.
VERIFIER_ERROR = """\
func.func @f(%a: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    %v = affine.load %a[%i] : memref<10xf32>
    affine.store %v, %a[%i] : memref<10xf32>
  }
  %x = arith.addf %a, %a : memref<10xf32>
  return
}
"""

# The second nest overwrites %A after the first read it: fusing them would
# make the first nest's loads read the new values.
ILLEGAL_PAIR = """\
func.func @f(%A: memref<10xf32>, %B: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    %v = affine.load %A[%i] : memref<10xf32>
    affine.store %v, %B[%i] : memref<10xf32>
  }
  affine.for %j = 0 to 10 {
    %w = affine.load %B[9 - %j] : memref<10xf32>
    affine.store %w, %A[%j] : memref<10xf32>
  }
  return
}
"""


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), AFFINE_LSP_PREFORK="0")
    return subprocess.run([sys.executable, "-m", "affine_lsp", *argv], capture_output=True, text=True, env=env, timeout=300)


def _commands_with_file_argument() -> list[str]:
    parser, _ = cli.build_parser("*")
    sub = next(a for a in parser._actions if a.dest == "command")
    return [name for name, p in sub.choices.items() if name not in ("check", "serve") and any(a.dest in ("file", "files") for a in p._actions)]  # type: ignore[union-attr]


# What each command needs besides the file to have work to do.
EXTRA = {"plot": ["--loop", "2"], "time": ["--func", "f"], "tile": ["--all"], "parallelize": ["--all"]}


@pytest.fixture(scope="module")
def invalid(tmp_path_factory: pytest.TempPathFactory) -> Path:
    p = tmp_path_factory.mktemp("one_rule") / "invalid.mlir"
    p.write_text(VERIFIER_ERROR)
    return p


@pytest.fixture(scope="module")
def check_errors(invalid: Path) -> list[str]:
    p = run("check", str(invalid), "-q")
    assert p.returncode == 1
    errors = [ln for ln in p.stdout.splitlines() if ": error: " in ln]
    assert errors == [f"{invalid}:6:8: error: 'arith.addf' op operand #0 must be floating-point-like, but got 'memref<10xf32>'"]
    return errors


@pytest.mark.skipif(not oracle.available(), reason="mlir-opt is not installed")
def test_mlir_opt_rejects_the_input_with_the_same_message() -> None:
    status, diags, _ = oracle.run(VERIFIER_ERROR)
    assert status != 0
    assert [(d.line, d.col, d.message) for d in diags if d.severity == "error"] == [
        (6, 8, "'arith.addf' op operand #0 must be floating-point-like, but got 'memref<10xf32>'")
    ]


@pytest.mark.parametrize("cmd", _commands_with_file_argument())
def test_every_command_refuses_an_input_check_says_has_errors(cmd: str, invalid: Path, check_errors: list[str], tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    p = run(cmd, str(invalid), *EXTRA.get(cmd, []), "-o", str(out))
    assert p.returncode == 1, (cmd, p.stderr)
    assert [ln for ln in p.stderr.splitlines() if ": error: " in ln] == check_errors, (cmd, p.stderr)
    assert not out.exists(), cmd  # nothing written
    p = run(cmd, str(invalid), *EXTRA.get(cmd, []))
    assert (p.returncode, p.stdout) == (1, ""), (cmd, p.stdout)


def test_deps_prints_nothing_for_an_invalid_file_and_goes_on(invalid: Path, tmp_path: Path) -> None:
    good = tmp_path / "good.mlir"
    good.write_text(ILLEGAL_PAIR)
    p = run("deps", str(invalid), str(good))
    assert p.returncode == 1
    assert str(invalid) not in p.stdout and str(good) in p.stdout


# ------------------------------------------------------------------- fuse


@pytest.fixture(scope="module")
def illegal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    p = tmp_path_factory.mktemp("fuse") / "illegal.mlir"
    p.write_text(ILLEGAL_PAIR)
    return p


WHY = "the load of %A at line 3 would read other values: fusing reverses the write-after-read dependence between it and the store to %A at line 8"


def test_fuse_accepts_verbose_like_every_transformation(illegal: Path) -> None:
    p = run("fuse", str(illegal), "--all", "-v")
    assert p.returncode == 0, p.stderr
    assert p.stdout == ILLEGAL_PAIR
    assert f"{illegal}:2:3: remark: not fused: no legal fusion: producer-consumer with the nest at line 6: {WHY}" in p.stderr
    assert f"{illegal}:6:3: remark: not fused: no legal fusion: producer-consumer with the nest at line 2: {WHY}" in p.stderr
    p = run("vectorize", str(illegal), "--all", "-v")  # the same option set
    assert p.returncode == 0


def test_fuse_loop_without_a_legal_fusion_names_the_dependence_and_fails(illegal: Path) -> None:
    p = run("fuse", str(illegal), "--loop", "6")
    assert p.returncode == 1
    assert p.stderr.splitlines() == [f"{illegal}:6:3: error: cannot fuse this loop: no legal fusion: producer-consumer with the nest at line 2: {WHY}"]
    assert p.stdout == ILLEGAL_PAIR
    p = run("fuse", str(illegal), "--loop", "3")
    assert p.returncode == 1 and f"{illegal}:3:1: error: no affine.for starts on this line" in p.stderr


def test_fuse_report_gives_an_illegal_pair_no_prediction(illegal: Path) -> None:
    p = run("fuse", str(illegal), "--report", "--loop", "2")
    assert p.returncode == 0, p.stderr
    assert "Predicted:" not in p.stdout
    assert f"Not legal at any depth, so no prediction: {WHY}." in p.stdout


# ------------------------------------------------------------ parallelize


def test_parallelize_all_applies_no_rewrite_without_a_prediction(illegal: Path) -> None:
    p = run("parallelize", str(illegal), "--all")
    assert (p.returncode, p.stdout, p.stderr) == (0, ILLEGAL_PAIR, "")
    p = run("parallelize", str(illegal), "--all", "-v")
    assert p.stdout == ILLEGAL_PAIR
    assert p.stderr.count("remark: not parallelized: no prediction (affine.parallel runs sequentially unless lowered to threads)") == 2
    assert "(--force parallelizes it)" in p.stderr
    p = run("parallelize", str(illegal), "--all", "--force")
    assert p.returncode == 0 and p.stdout.count("affine.parallel") == 2 and p.stderr.count("remark: parallelized") == 2
    p = run("parallelize", str(illegal), "--loop", "2")  # a loop asked for by name is rewritten
    assert p.returncode == 0 and p.stdout.count("affine.parallel") == 1


# --------------------------------------------------------------- optimize

TWO_NESTS = """\
func.func @producer_consumer(%in: memref<64xf32>, %out: memref<64xf32>) {
  %tmp = memref.alloc() : memref<64xf32>
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 64 {
    %v = affine.load %in[%i] : memref<64xf32>
    %d = arith.mulf %v, %two : f32
    affine.store %d, %tmp[%i] : memref<64xf32>
  }
  affine.for %j = 0 to 64 {
    %t = affine.load %tmp[%j] : memref<64xf32>
    affine.store %t, %out[%j] : memref<64xf32>
  }
  memref.dealloc %tmp : memref<64xf32>
  return
}

func.func @carried(%a: memref<100xf32>) {
  %one = arith.constant 1.0 : f32
  affine.for %i = 2 to 100 {
    %x = affine.load %a[%i - 2] : memref<100xf32>
    %y = arith.addf %x, %one : f32
    affine.store %y, %a[%i] : memref<100xf32>
  }
  return
}
"""


def test_optimize_without_flags_says_what_it_did_with_every_nest(tmp_path: Path) -> None:
    f = tmp_path / "two.mlir"
    f.write_text(TWO_NESTS)
    p = run("optimize", str(f))
    assert p.returncode == 0
    lines = p.stderr.splitlines()
    # one line per nest optimized as a whole: the group of @producer_consumer, the loop of @carried
    assert [ln.split(": remark: ")[0] for ln in lines] == [f"{f}:4:3", f"{f}:19:3"], p.stderr
    assert all(": remark: optimized" in ln or ": remark: not optimized: left alone: " in ln for ln in lines), p.stderr
    assert p.stdout == TWO_NESTS or any(": remark: optimized" in ln for ln in lines)
    help_text = run("optimize", "--help").stdout
    assert "Without a selection (--loop LINE, --func NAME), every loop nest of the file is considered, as with --all." in help_text


# ------------------------------------------------- plot, check, upgrade

BIG = """\
func.func @f(%A: memref<2000x2000xf32>) {
  affine.for %i = 1 to 2000 {
    affine.for %j = 0 to 2000 {
      %v = affine.load %A[%i - 1, %j] : memref<2000x2000xf32>
      affine.store %v, %A[%i, %j] : memref<2000x2000xf32>
    }
  }
  return
}
"""


def test_plot_legend_of_a_domain_too_large_to_count(tmp_path: Path) -> None:
    f = tmp_path / "big.mlir"
    f.write_text(BIG)
    p = run("plot", str(f), "--loop", "2")
    assert p.returncode == 0, p.stderr
    assert "None" not in p.stdout
    assert ">iteration (2500 drawn of more than 2500)<" in p.stdout


def test_the_exit_table_says_where_check_prints(invalid: Path) -> None:
    p = run("check", str(invalid))
    assert p.returncode == 1 and ": error: " in p.stdout and ": error: " not in p.stderr  # check's output
    assert "'check' prints them on stdout" in run("--help").stdout
    assert "`check` itself prints its\ndiagnostics on **stdout**" in (ROOT / "docs" / "cli.md").read_text()


def test_check_json_says_which_positions_are_1_based(invalid: Path) -> None:
    import json

    p = run("check", "-q", "--format", "json", str(invalid))
    [item] = json.loads(p.stdout)
    assert (item["line"], item["column"]) == (6, 8)  # as mlir-opt prints: 6:8
    assert item["range"]["start"] == {"line": 5, "character": 7}  # the LSP's 0-based Range


def test_upgrade_in_place_keeps_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    legacy = b"func @f() {\n  // caf\xe9 \xff (Latin-1)\n  return\n}\n"
    f = tmp_path / "latin1.mlir"
    f.write_bytes(legacy)
    p = subprocess.run([sys.executable, "-m", "affine_lsp", "upgrade", str(f)], capture_output=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=300)
    assert p.returncode == 0, p.stderr
    assert b"// caf\xe9 \xff (Latin-1)" in p.stdout and b"func.func @f()" in p.stdout
    p = run("upgrade", "--in-place", str(f))
    assert p.returncode == 0, p.stderr
    assert f.read_bytes() == legacy.replace(b"func @f", b"func.func @f").replace(b"  return", b"  func.return")


# ------------------------------------------------------------------- time

needs_runner = pytest.mark.skipif(not oracle.runner_available(), reason="mlir-runner is not installed")


@needs_runner
def test_time_gives_a_function_of_nanoseconds_a_real_figure(tmp_path: Path) -> None:
    import json

    f = tmp_path / "two.mlir"
    f.write_text(TWO_NESTS)
    p = run("time", str(f), "--func", "carried", "--repeat", "3", "--format", "json")
    assert p.returncode == 0, p.stderr
    rep = json.loads(p.stdout)["original"]
    # calibrated: many calls per sample, so the median is not the clock's resolution
    assert rep["calls_per_sample"] > 1 and rep["median"] > 0 and all(t > 0 for t in rep["times"])
    p = run("time", str(f), "--func", "producer_consumer", "--repeat", "2")
    assert p.returncode == 0, p.stderr
    line = next(ln for ln in p.stdout.splitlines() if ln.startswith("original:"))
    assert " samples of " in line and "median 0.0 ms" not in line, line


@needs_runner
def test_time_says_the_generated_harness_failed_and_where(tmp_path: Path) -> None:
    f = tmp_path / "clash.mlir"
    f.write_text("func.func private @clock() -> i32\n\nfunc.func @g(%A: memref<4xf32>) {\n  return\n}\n")
    p = run("time", str(f), "--func", "g")
    assert p.returncode == 1
    assert "the harness affine-lsp generated around @g was rejected" in p.stdout
    assert "<generated harness>:" in p.stdout and "<input>" not in p.stdout


def test_harness_diagnostics_are_moved_to_the_users_lines() -> None:
    from affine_lsp import harness
    from affine_lsp.source.document import LineIndex

    text = TWO_NESTS
    sig = harness.signature_of(text, "producer_consumer")
    program = harness.build(text, sig, 2)
    # a line of @carried, after the harness in the program
    needle = "%y = arith.addf %x, %one : f32"
    pl, pc = LineIndex(program).position(program.index(needle))
    ul, uc = LineIndex(text).position(text.index(needle))
    assert pl > ul  # the harness moved it
    msg = f"mlir-opt rejected the program:\n<input>:{pl + 1}:{pc + 1}: error: something"
    assert harness.user_positions(msg, text, sig, program) == f"mlir-opt rejected the program:\n<input>:{ul + 1}:{uc + 1}: error: something"
