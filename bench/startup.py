"""Start-up of ``affine-lsp``, each command a fresh process, beside ``mlir-opt``.

    python bench/startup.py [--rounds N] [--write docs/startup.md]

Runs, round after round (interleaved: the machine is shared and its speed
drifts), each as a fresh process with this checkout first on ``PYTHONPATH``:

* ``python -c pass`` (the interpreter alone, with the site packages);
* ``affine-lsp --version``, ``affine-lsp --help``;
* ``affine-lsp check FILE`` on a 20-line affine file (one loop nest, no
  error: parse, verify, bounds check);
* ``mlir-opt FILE`` on the same file (parse and verify; found as the tests
  find it, tests/oracle.py), when it is installed.

It prints the median wall time and the median CPU time (user + system of
the child, from ``wait4``) of each, and which of affine-lsp's heavy modules
each command imported. ``--write PATH`` also writes the method and the
figures as Markdown.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

FILE_20 = """\
func.func @smooth(%A: memref<64xf32>, %B: memref<64xf32>) {
  %third = arith.constant 0.333333 : f32
  affine.for %i = 1 to 63 {
    %a = affine.load %A[%i - 1] : memref<64xf32>
    %b = affine.load %A[%i] : memref<64xf32>
    %c = affine.load %A[%i + 1] : memref<64xf32>
    %s = arith.addf %a, %b : f32
    %u = arith.addf %s, %c : f32
    %v = arith.mulf %u, %third : f32
    affine.store %v, %B[%i] : memref<64xf32>
  }
  return
}
func.func @copy(%A: memref<64xf32>, %B: memref<64xf32>) {
  affine.for %i = 0 to 64 {
    %v = affine.load %B[%i] : memref<64xf32>
    affine.store %v, %A[%i] : memref<64xf32>
  }
  return
}
"""

HEAVY = ("islpy", "lark", "pygls", "affine_lsp.analysis", "affine_lsp.syntax.parser", "affine_lsp.transforms")


def run_once(argv: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system) and the exit status."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, proc.returncode


def heavy_imports(args: list[str], env: dict[str, str]) -> list[str]:
    """The heavy modules a command imports (run in-process by a child)."""
    code = (
        "import sys, contextlib, io\n"
        "from affine_lsp import cli\n"
        f"sys.argv = ['affine-lsp', *{args!r}]\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    cli.main()\n"
        f"print(' '.join(sorted(h for h in {HEAVY!r} if h in sys.modules)))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    return r.stdout.split()


BREAKDOWN = """
import time
t0 = time.process_time()
import affine_lsp.source.document, affine_lsp.verify.verifier
t1 = time.process_time()
import affine_lsp.diagnostics, affine_lsp.commands.check
t2 = time.process_time()
from affine_lsp.syntax.parser import shared_tables
shared_tables()
t3 = time.process_time()
from affine_lsp.source.document import Document
notes = affine_lsp.diagnostics.collect(Document(open(PATH).read(), uri=PATH))
t4 = time.process_time()
print(t1 - t0, t2 - t1, t3 - t2, t4 - t3)
"""
PHASES = (
    "import the syntax, IR and verifier",
    "import the diagnostics and the check command",
    "build the parser (the driver's table from its cache)",
    "check the file (analyses included)",
)


def breakdown(path: Path, env: dict[str, str], rounds: int) -> list[float]:
    """Median CPU seconds of each phase of ``check`` in a fresh process."""
    runs = []
    for _ in range(rounds):
        r = subprocess.run([sys.executable, "-c", BREAKDOWN.replace("PATH", repr(str(path)))], env=env, capture_output=True, text=True, timeout=120)
        runs.append([float(x) for x in r.stdout.split()])
    return [statistics.median(run[k] for run in runs) for k in range(len(PHASES))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--write", metavar="PATH", help="also write the method and figures as Markdown")
    args = ap.parse_args()

    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    # As a user runs it: Python caches the compiled bytecode of every module
    # (__pycache__, written by the warm-up run); PYTHONDONTWRITEBYTECODE
    # would make every start compile the sources again.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    tmp = Path(tempfile.mkdtemp(prefix="affine-lsp-startup-"))
    src = tmp / "small.mlir"
    src.write_text(FILE_20)
    assert FILE_20.count("\n") == 20
    py = sys.executable
    cases: dict[str, tuple[list[str], list[str] | None]] = {
        "python -c pass": ([py, "-c", "pass"], None),
        "affine-lsp --version": ([py, "-m", "affine_lsp", "--version"], ["--version"]),
        "affine-lsp --help": ([py, "-m", "affine_lsp", "--help"], ["--help"]),
        "affine-lsp check FILE": ([py, "-m", "affine_lsp", "check", "-q", str(src)], ["check", "-q", str(src)]),
    }
    sys.path.insert(0, str(ROOT))
    from tests import oracle

    found = oracle.mlir_opt()
    mlir_env = env
    if found is not None:
        exe, mlir_env = found
        cases["mlir-opt FILE"] = ([str(exe), str(src)], None)
    # warm up (the parser's table cache, the page cache), then interleave
    for argv, _ in cases.values():
        run_once(argv, mlir_env if argv[0] != py else env)
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in cases}
    for _ in range(args.rounds):
        for name, (argv, _) in cases.items():
            wall, cpu, status = run_once(argv, mlir_env if argv[0] != py else env)
            if status != 0:
                print(f"{name}: exit status {status}", file=sys.stderr)
                return 1
            times[name].append((wall, cpu))
    rows = []
    for name, (_, cli_args) in cases.items():
        wall = statistics.median(w for w, _ in times[name])
        cpu = statistics.median(c for _, c in times[name])
        spread = max(w for w, _ in times[name]) - min(w for w, _ in times[name])
        heavy = ", ".join(heavy_imports(cli_args, env)) if cli_args else ""
        rows.append((name, wall, cpu, spread, heavy))
    phases = breakdown(src, env, max(3, args.rounds // 2))
    parts = "\n".join(f"| {name} | {t:.3f} |" for name, t in zip(PHASES, phases))
    split = f"| phase of `check FILE` (in a fresh process) | median CPU (s) |\n|---|---:|\n{parts}"
    print(split)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    header = "| command | median wall (s) | median CPU (s) | wall spread (s) | heavy modules imported |"
    lines = [header, "|---|---:|---:|---:|---|"]
    for name, wall, cpu, spread, heavy in rows:
        lines.append(f"| `{name}` | {wall:.3f} | {cpu:.3f} | {spread:.3f} | {heavy or '-'} |")
    table = "\n".join(lines)
    print(table)
    print(
        f"{args.rounds} rounds, interleaved; load average {load:.1f} on {os.cpu_count()} cores; {platform.python_implementation()} {platform.python_version()}"
    )
    if args.write:
        doc = f"""# Start-up of affine-lsp

`python bench/startup.py --rounds {args.rounds} --write {args.write}` runs each
command below as a fresh process, round after round (interleaved: the
machine is shared and its speed drifts), after one warm-up run of each (the
parser's table cache and the page cache are warm, as on a user's second
run: Python's bytecode cache, `__pycache__`, is written by the warm-up
run; `PYTHONDONTWRITEBYTECODE` is removed from the children's environment,
as it would make every start compile the sources again). `FILE` is a 20-line affine file (two functions, two loop nests, no
error: `bench/startup.py:FILE_20`); `check` parses it, verifies it and runs
the bounds check. CPU time is the child's user + system time (`wait4`), the
steadier figure on a loaded machine. "Heavy modules imported" lists which
of islpy, lark, pygls, the analyses, the parser and the transformations the
command loads.

{table}

Measured with {platform.python_implementation()} {platform.python_version()} on {os.cpu_count()} cores, load
average {load:.1f} (other work was running: the wall times are indicative,
the CPU times steadier). `--version` and `--help` import no command module
(`cli.build_parser`); `check` imports the parser, the verifier and, for the
bounds check of its loops, islpy. Where the CPU time of `check` goes:

{split}

A start reads the driver's own table (its flattened rows, each rule's
reduce-action recipe, the lexer's vocabulary and accepted symbols) from
one `marshal` file beside lark's table cache
(`syntax/driver_cache.py`); lark's parser is built, from lark's own
table cache, only when a parse needs lark's loop (a syntax error, the
soft-dialect retries), and lark is not even imported before that
(`syntax/lexer_lark.py`; `tests/test_driver_cache.py`). A missing,
corrupt or foreign file, or a new grammar, costs one build from lark's
table (~0.2 s of CPU) and the file is written again.
"""
        Path(args.write).write_text(doc)
        print(f"wrote {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
