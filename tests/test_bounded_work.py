"""Bounded work of the CLI (issue #44, items 4 and 5): ``deps`` memory grows
linearly with the number of functions (each function's analysis released
once printed), and ``deps``/``optimize --timeout S`` end at the deadline
with what was finished, naming what was not.

The memory figures are the child's peak RSS (``ru_maxrss`` of
``RUSAGE_CHILDREN`` in an intermediate process); the deadline tests measure
the wall time only against a generous bound (the mechanism is a deadline:
without it these inputs run for minutes)."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from affine_lsp.commands import frontend
from tests import oracle

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT), AFFINE_LSP_PREFORK="0")
CLI = [sys.executable, "-m", "affine_lsp"]

# Runs argv[2:] with an address-space limit of argv[1] bytes (today's main
# would otherwise take the machine's memory) and prints its exit status and
# peak RSS in kB.
MEASURE = """
import resource, subprocess, sys
limit = int(sys.argv[1])
def cap():
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
p = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=cap)
sys.stderr.write(p.stderr.decode(errors="replace")[-2000:])
print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""
GB = 1 << 30


def _peak_kb(argv: list[str]) -> tuple[int, int, str]:
    p = subprocess.run([sys.executable, "-c", MEASURE, str(3 * GB), *argv], capture_output=True, text=True, env=ENV, timeout=900)
    rc, kb = p.stdout.split()
    return int(rc), int(kb), p.stderr


def _functions(n: int) -> str:
    """``n`` functions, each a loop-carried dependence (two accesses)."""
    f = """func.func @f{k}(%A: memref<64xf32>) {{
  affine.for %i = 1 to 64 {{
    %v = affine.load %A[%i - 1] : memref<64xf32>
    affine.store %v, %A[%i] : memref<64xf32>
  }}
  return
}}
"""
    return "\n".join(f.format(k=k) for k in range(n))


def test_deps_memory_is_linear_in_the_functions(tmp_path: Path) -> None:
    rc, base, err = _peak_kb([*CLI, "--version"])
    assert rc == 0, err
    above: dict[int, int] = {}
    for n in (1000, 3000, 5000):
        path = tmp_path / f"f{n}.mlir"
        path.write_text(_functions(n))
        rc, kb, err = _peak_kb([*CLI, "deps", str(path), "--timeout", "0"])
        assert rc == 0, (n, err)
        above[n] = kb - base
        if n == 5000:
            assert kb < GB // 1024, f"deps on {n} functions: peak RSS {kb // 1024} MB"
    assert above[3000] < 3.5 * above[1000], above


def _pathological(hard: int, seed: int = 1) -> str:
    """One 2-deep nest: two simple accesses of %B, then ``hard`` accesses of
    %A whose subscripts mix mod and floordiv by large primes (each pair takes
    isl minutes), then a second function."""
    rnd = random.Random(seed)
    primes = [97, 89, 83, 79, 73, 71, 67, 61, 59, 53]
    lines = [
        "func.func @f(%A: memref<1000x1000xf32>, %B: memref<100x100xf32>, %N: index, %M: index) {",
        "  %cst = arith.constant 0.0 : f32",
        "  affine.for %i = 0 to %N {",
        "    affine.for %j = 0 to %M {",
        "      %b0 = affine.load %B[%i, %j] : memref<100x100xf32>",
        "      affine.store %b0, %B[%i, %j + 1] : memref<100x100xf32>",
    ]
    for k in range(hard):
        a, b, c = rnd.randint(11, 99), rnd.randint(11, 99), rnd.randint(1, 500)
        m1, m2 = rnd.choice(primes), rnd.choice(primes)
        sub = (
            f"((%i * {a} + %j * {b} + {c}) mod {m1}) * 7 + (%i * {b}) mod {m2} + (%j floordiv {m1}) mod {m2}, "
            f"((%i * {b} + {c}) floordiv {m2} + %j * {a}) mod {m1} + ((%i + %j) * {c}) mod {m2}"
        )
        if k % 2:
            lines.append(f"      %v{k} = affine.load %A[{sub}] : memref<1000x1000xf32>")
        else:
            lines.append(f"      affine.store %cst, %A[{sub}] : memref<1000x1000xf32>")
    lines += ["    }", "  }", "  return", "}", ""]
    lines += ["func.func @g(%C: memref<8xf32>) {", "  affine.for %i = 1 to 8 {", "    %c = affine.load %C[%i - 1] : memref<8xf32>"]
    lines += ["    affine.store %c, %C[%i] : memref<8xf32>", "  }", "  return", "}"]
    return "\n".join(lines) + "\n"


def test_deps_timeout_prints_the_finished_pairs_and_names_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "hard.mlir"
    path.write_text(_pathological(18))
    t0 = time.monotonic()
    p = subprocess.run([*CLI, "deps", str(path), "--timeout", "5"], capture_output=True, text=True, env=ENV, timeout=300)
    elapsed = time.monotonic() - t0
    assert elapsed < 20, elapsed  # without the deadline: minutes
    assert p.returncode == frontend.EXIT_ERRORS, p.stderr
    m = re.fullmatch(
        rf"{re.escape(str(path))}: error: deps: timed out after 5 s; @f: (\d+) of 400 pairs analysed; not reached: @g \(1 function\(s\)\); results for the others are omitted\n",
        p.stderr,
    )
    assert m is not None, p.stderr
    assert int(m.group(1)) > 0
    # What was printed is what the analysis of those pairs says: the pairs of
    # the two accesses of %B (numbers 0 and 1) as for a file holding only
    # them (the pairs with %A are in different memrefs: no dependence).
    only_b = tmp_path / "only_b.mlir"
    only_b.write_text(_pathological(0).split("\nfunc.func @g")[0] + "\n")
    q = subprocess.run([*CLI, "deps", str(only_b)], capture_output=True, text=True, env=ENV, timeout=300)
    assert q.returncode == 0 and q.stdout.strip(), q.stderr
    assert p.stdout.replace(str(path), "X") == q.stdout.replace(str(only_b), "X")


@pytest.mark.parametrize("extra", [[], ["--all-pairs"], ["--format", "json"], ["--flow"]])
def test_deps_output_is_the_same_with_a_deadline(tmp_path: Path, extra: list[str]) -> None:
    path = tmp_path / "f.mlir"
    path.write_text(_functions(3) + "\n// -----\n" + _functions(2))
    outs = []
    for timeout in ("0", "60"):
        p = subprocess.run([*CLI, "deps", str(path), *extra, "--timeout", timeout], capture_output=True, text=True, env=ENV, timeout=300)
        assert p.returncode == 0 and p.stderr == "", p.stderr
        outs.append(p.stdout)
    assert outs[0] == outs[1] and "dependence from" in outs[0]


def _deep_nest(depth: int = 12, stmts: int = 30) -> str:
    ivs = [f"%i{k}" for k in range(depth)]
    out = ["func.func @deep(%A: memref<64x64xf32>, %B: memref<64x64xf32>) {"]
    out += ["  " * (k + 1) + f"affine.for {iv} = 0 to 4 {{" for k, iv in enumerate(ivs)]
    ind = "  " * (depth + 1)
    for s in range(stmts):
        a, b, c, d = ivs[s % depth], ivs[(s * 7 + 3) % depth], ivs[(s * 5 + 1) % depth], ivs[(s * 3 + 2) % depth]
        out.append(f"{ind}%v{s} = affine.load %A[{a} + {b} * 2, {c} + {s % 5}] : memref<64x64xf32>")
        out.append(f"{ind}affine.store %v{s}, %B[{d} * 3 + {a}, {b} + {c}] : memref<64x64xf32>")
    out += ["  " * (k + 1) + "}" for k in reversed(range(depth))]
    return "\n".join([*out, "  return", "}"]) + "\n"


def test_optimize_timeout_ends_and_leaves_the_output_alone(tmp_path: Path) -> None:
    path = tmp_path / "deep.mlir"
    path.write_text(_deep_nest())
    out = tmp_path / "out.mlir"
    out.write_text("// the previous contents\n")
    t0 = time.monotonic()
    p = subprocess.run([*CLI, "optimize", str(path), "--timeout", "5", "-o", str(out)], capture_output=True, text=True, env=ENV, timeout=300)
    elapsed = time.monotonic() - t0
    assert elapsed < 20, elapsed  # without the deadline: minutes
    assert p.returncode == frontend.EXIT_ERRORS
    assert p.stderr == f"{path}: error: optimize: timed out after 5 s; nothing was rewritten (the nests on line(s) 2 were not finished)\n"
    assert out.read_text() == "// the previous contents\n"


MATMUL = """func.func @mm(%A: memref<256x256xf32>, %B: memref<256x256xf32>, %C: memref<256x256xf32>) {
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 256 {
      affine.for %k = 0 to 256 {
        %a = affine.load %A[%i, %k] : memref<256x256xf32>
        %b = affine.load %B[%k, %j] : memref<256x256xf32>
        %c = affine.load %C[%i, %j] : memref<256x256xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<256x256xf32>
      }
    }
  }
  return
}
"""


def test_optimize_gives_the_same_answer_with_a_deadline(tmp_path: Path) -> None:
    path = tmp_path / "mm.mlir"
    path.write_text(MATMUL)
    outs = []
    for timeout in ("0", "120"):
        p = subprocess.run([*CLI, "optimize", str(path), "--timeout", timeout], capture_output=True, text=True, env=ENV, timeout=300)
        outs.append((p.returncode, p.stdout, p.stderr))
    assert outs[0] == outs[1] and outs[0][0] == 0 and outs[0][1]


def test_optimize_timeout_writes_the_nests_it_finished(tmp_path: Path) -> None:
    """A file whose last function optimizes quickly and whose first does not:
    at the deadline the output has the quick one rewritten and the other as
    it was (status 1, the unfinished nest named), a program mlir-opt reads."""
    path = tmp_path / "two.mlir"
    deep = _deep_nest()
    path.write_text(deep + MATMUL)
    out = tmp_path / "out.mlir"
    t0 = time.monotonic()
    p = subprocess.run([*CLI, "optimize", str(path), "--timeout", "5", "-o", str(out)], capture_output=True, text=True, env=ENV, timeout=300)
    elapsed = time.monotonic() - t0
    assert elapsed < 20, elapsed  # without the deadline: minutes
    assert p.returncode == frontend.EXIT_ERRORS, p.stderr
    mm_line = deep.count("\n") + 2
    assert f"{path}:{mm_line}:3: remark: optimized 1 nest(s)" in p.stderr
    assert p.stderr.endswith(
        f"{path}: error: optimize: timed out after 5 s; the nests finished before it are rewritten, the others left as they were"
        " (the nests on line(s) 2 were not finished)\n"
    ), p.stderr
    new = out.read_text()
    assert new.startswith(deep) and new != deep + MATMUL
    check = subprocess.run([*CLI, "check", str(out)], capture_output=True, text=True, env=ENV, timeout=300)
    assert check.returncode == 0, check.stdout
    tool = oracle.mlir_opt()
    if tool is not None:  # (the toolchain is optional: our own check above stands alone)
        got = subprocess.run([str(tool[0]), str(out)], capture_output=True, text=True, env=tool[1], timeout=120)
        assert got.returncode == 0, got.stderr


@pytest.mark.parametrize("value", ["-1", "x", "nan", "inf"])
def test_a_bad_timeout_is_a_usage_error(tmp_path: Path, value: str) -> None:
    path = tmp_path / "f.mlir"
    path.write_text(_functions(1))
    for cmd in ("deps", "optimize"):
        p = subprocess.run([*CLI, cmd, str(path), "--timeout", value], capture_output=True, text=True, env=ENV, timeout=300)
        assert p.returncode == frontend.EXIT_USAGE, (cmd, p.stderr)
        assert "--timeout" in p.stderr and "Traceback" not in p.stderr


def test_check_timeout_names_the_files_not_checked(tmp_path: Path) -> None:
    big = tmp_path / "big.mlir"
    big.write_text(_functions(20000))  # about 20 s to check
    small = tmp_path / "small.mlir"
    small.write_text(_functions(1))
    t0 = time.monotonic()
    p = subprocess.run([*CLI, "check", str(big), str(small), "--timeout", "2"], capture_output=True, text=True, env=ENV, timeout=300)
    assert time.monotonic() - t0 < 15
    assert p.returncode == frontend.EXIT_ERRORS
    assert p.stderr.splitlines() == [
        f"{big}: error: check: timed out after 2 s while checking this file; its diagnostics are omitted",
        f"{small}: error: check: timed out after 2 s; this file was not checked",
        "0 files, 0 errors, 0 warnings",
    ]
    # A deadline that does not pass changes nothing (check has none by default).
    runs = [subprocess.run([*CLI, "check", str(small), *extra], capture_output=True, text=True, env=ENV, timeout=300) for extra in ([], ["--timeout", "60"])]
    assert [(r.returncode, r.stdout, r.stderr) for r in runs[1:]] == [(runs[0].returncode, runs[0].stdout, runs[0].stderr)]
