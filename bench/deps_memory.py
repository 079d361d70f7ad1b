"""Peak memory (RSS) of ``affine-lsp deps`` and ``affine-lsp check`` against
the number of functions of the file (issue #44: it must grow linearly).

Each run is a fresh ``python -m affine_lsp`` process on a file of N
generated functions (``bench/generate.py``); its peak RSS is the child's
``ru_maxrss``, its time the wall clock. Run::

    python bench/deps_memory.py [--command deps] [--functions 1000,3000,5000] [--repeats 1]

Prints, per size, the median peak RSS and time over the repeats and the RSS
above the interpreter's baseline (``python -m affine_lsp --version``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.generate import generate_functions

ROOT = Path(__file__).resolve().parents[1]


def measure(argv: list[str]) -> tuple[float, float, int]:
    """Peak RSS in MB, wall time in s and exit status of one child."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), AFFINE_LSP_PREFORK="0")
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child: nothing else of this process counts in its ru_maxrss
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.execve(sys.executable, [sys.executable, "-m", "affine_lsp", *argv], env)
    _, status, usage = os.wait4(pid, 0)
    return usage.ru_maxrss / 1024, time.perf_counter() - t0, os.waitstatus_to_exitcode(status)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--command", default="deps", help="deps, check, ... (any command taking one file)")
    ap.add_argument("--functions", default="1000,3000,5000")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--extra", default="", help="more arguments for the command, space-separated")
    args = ap.parse_args()
    base = statistics.median(measure(["--version"])[0] for _ in range(3))
    print(f"baseline (--version): {base:.0f} MB")
    with tempfile.TemporaryDirectory() as d:
        for n in (int(x) for x in args.functions.split(",")):
            path = Path(d) / f"f{n}.mlir"
            path.write_text(generate_functions(n))
            runs = [measure([args.command, str(path), *args.extra.split()]) for _ in range(args.repeats)]
            rss = statistics.median(r[0] for r in runs)
            secs = statistics.median(r[1] for r in runs)
            print(f"{args.command} {n:>6} functions: peak RSS {rss:7.0f} MB ({rss - base:7.0f} above baseline), {secs:6.1f} s, exit {runs[0][2]}")


if __name__ == "__main__":
    main()
