"""The C compilers as anchors: every kernel of ``bench/kernels`` timed as our
MLIR original, as ``optimize --all``'s output (both as ``bench/runtime.py``
times them), and as C (``bench/mlir_to_c.py``: the same loops, sizes, data,
clocks and checksums) built with gcc -O3, gcc Graphite, clang -O3 and Polly;
for gemm also numpy's dgemm (OpenBLAS, one thread). Every output's checksums
are checked against the MLIR original's.

Run::

    python bench/anchors.py [--kernels gemm,atax] [--repeat 3] [--rounds 3] [--clock cpu|wall]
                            [--json FILE] [--markdown FILE] [--write-docs]

Without ``--json``/``--markdown``/``--write-docs`` the table is printed and
nothing is written; ``--write-docs`` writes ``docs/anchors.json`` and
``docs/anchors.md``.

Method: each round runs every variant of a kernel once in turn (one process
each, ``--repeat`` timed calls after a warm-up call); a variant's time is the
median of all its calls over the rounds. The MLIR original is timed twice
(``original``, ``original again``): the largest deviation of their ratio over
the kernels is the noise, and a ratio of ``optimize --all`` over the best C
build within it counts as a tie. A compiler that is not installed (or whose
option does not work) is skipped with a message.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from affine_lsp import harness, toolchain  # noqa: E402
from affine_lsp.atomic_write import write_atomic  # noqa: E402
from bench import common, mlir_to_c, runtime  # noqa: E402

DOCS_JSON = ROOT / "docs" / "anchors.json"
DOCS_MD = ROOT / "docs" / "anchors.md"


@dataclass(frozen=True)
class Compiler:
    name: str
    argv: tuple[str, ...]  # the command before the source file
    probe: tuple[str, ...] = ()  # options that must work (else the build is skipped)


COMPILERS: tuple[Compiler, ...] = (
    Compiler("gcc -O3", ("gcc", "-O3", "-march=native")),
    Compiler("gcc graphite", ("gcc", "-O3", "-march=native", "-floop-nest-optimize"), ("-fgraphite-identity",)),
    Compiler("clang -O3", ("clang-16", "-O3", "-march=native")),
    Compiler("polly", ("clang-16", "-O3", "-march=native", "-mllvm", "-polly", "-mllvm", "-polly-vectorizer=stripmine"), ("-mllvm", "-polly")),
)
MLIR_VARIANTS = ("original", "original again", "optimize --all")
NUMPY = "numpy dgemm"
OURS = "optimize --all"


def available(c: Compiler) -> str | None:
    """Why ``c`` cannot build (None: it can): not installed, or its options fail."""
    exe = shutil.which(c.argv[0])
    if exe is None:
        return f"{c.argv[0]} is not installed (Debian: apt-get install -y {c.argv[0]})"
    with tempfile.TemporaryDirectory(prefix="anchors-") as d:
        src = Path(d) / "probe.c"
        src.write_text("int main(void) { double a[64]; for (int i = 0; i < 64; i++) a[i] = i; return (int)a[3] - 3; }\n")
        p = subprocess.run([*c.argv, *c.probe, str(src), "-o", str(Path(d) / "probe")], capture_output=True, text=True)
        if p.returncode != 0:
            return f"{' '.join([*c.argv, *c.probe])} does not work: {p.stderr.strip()[:300]}"
    return None


@dataclass
class Run:
    """One variant of one kernel: how to run it, its times and values."""

    name: str
    argv: list[str] | None = None  # a built program (C, numpy)
    outcome: common.Outcome | None = None  # an MLIR variant
    status: str = common.OK
    detail: str = ""
    times: list[float] = field(default_factory=list)
    cpu_times: list[float] = field(default_factory=list)
    measurement: harness.Measurement | None = None
    env: dict[str, str] | None = None
    source: Path | None = None  # a C build's source file

    def median(self, clock: str) -> float:
        if self.outcome is not None:
            return self.outcome.median(clock)
        return harness.median(self.cpu_times if clock == "cpu" else self.times)


def build_c(kernel: str, source: str, c: Compiler, workdir: Path) -> tuple[list[str] | None, str]:
    exe = workdir / f"{kernel}-{c.name.replace(' ', '_')}"
    src = workdir / f"{kernel}.c"
    if not src.exists():
        write_atomic(src, source.encode(), fsync=False)
    p = subprocess.run([*c.argv, str(src), "-o", str(exe), "-lm"], capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        return None, f"{c.name} failed: {p.stderr.strip()[-1000:]}"
    return [str(exe)], ""


NUMPY_GEMM = r"""
import struct, sys, time
import numpy as np
ni, nj, nk, repeat, mark = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
def init(shape, k):
    ix = np.indices(shape, dtype=np.int64)
    h = (k + 1) * 13 + sum(ix[d] * (d + k + 2) for d in range(len(shape)))
    h = h % 101
    if len(shape) >= 2:
        h = (h + ix[0] * ix[-1]) % 101
    return (h.astype(np.float64) + 1.0) / 102.0
def put(tag, v):
    print(mark, tag, struct.unpack('<q', struct.pack('<d', float(v)))[0])
alpha, beta = 1.5, 1.2
t = np.empty((ni, nj))
for rep in range(repeat + 1):
    C, A, B = init((ni, nj), 2), init((ni, nk), 3), init((nk, nj), 4)
    k0, t0 = time.process_time(), time.time()
    np.dot(A, B, out=t)
    C *= beta
    t *= alpha
    C += t
    t1, k1 = time.time(), time.process_time()
    put('t', t1 - t0)
    put('k', k1 - k0)
w = (np.arange(ni * nj, dtype=np.int64).reshape(ni, nj) % 97 + 1).astype(np.float64)
put('c2.0', C.sum()); put('c2.1', (C * w).sum()); put('c2.2', np.abs(C).sum())
"""


def numpy_run(sig: harness.Signature, repeat: int) -> Run:
    """numpy's dgemm on gemm's arrays (C := alpha*A*B + beta*C), one OpenBLAS thread."""
    r = Run(NUMPY)
    try:
        import numpy  # noqa: F401
    except ImportError:
        r.status, r.detail = common.FAILED, "numpy is not installed (pip install numpy)"
        return r
    c, a, _ = (t for t in sig.inputs if hasattr(t, "shape"))
    ni, nj = c.shape  # type: ignore[attr-defined]
    nk = a.shape[1]  # type: ignore[attr-defined]
    r.argv = [sys.executable, "-c", NUMPY_GEMM, str(ni), str(nj), str(nk), str(repeat), harness.MARK]
    r.env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    return r


def run_program(r: Run, sig: harness.Signature, repeat: int, budget: float) -> None:
    if r.status != common.OK or r.argv is None:
        return
    try:
        p = subprocess.run(r.argv, capture_output=True, text=True, timeout=budget, env=r.env)
    except subprocess.TimeoutExpired:
        r.status, r.detail = common.TIMEOUT, f"a run took more than {budget:.0f} s"
        return
    if p.returncode != 0:
        r.status, r.detail = common.CRASH, f"exit status {p.returncode}: {p.stderr.strip()[-500:]}"
        return
    try:
        m = harness.parse_output(p.stdout, sig, repeat)
    except harness.HarnessError as e:
        r.status, r.detail = common.FAILED, str(e)
        return
    r.times.extend(m.times)
    r.cpu_times.extend(m.cpu_times)
    r.measurement = r.measurement or m


def _contraction_check(r: Run, sig: harness.Signature, ref: harness.Measurement, repeat: int) -> str:
    """For a gcc build whose values differ: the same build with
    ``-ffp-contract=off`` run once (gcc contracts ``a*b+c`` into FMAs by
    default in GNU C, clang only within an expression, MLIR never), and
    whether its values then agree."""
    if not r.name.startswith("gcc"):
        return ""
    if r.argv is None or r.source is None:
        return ""
    c = next(c for c in COMPILERS if c.name == r.name)
    out = Path(r.argv[0] + "-nofma")
    p = subprocess.run([*c.argv, "-ffp-contract=off", str(r.source), "-o", str(out), "-lm"], capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        return ""
    probe = Run(r.name, argv=[str(out)])
    run_program(probe, sig, repeat, 600)
    if probe.measurement is None:
        return ""
    agree = not harness.compare(ref, probe.measurement)
    return " (with -ffp-contract=off: " + ("the values agree: the difference is gcc's FMA contraction)" if agree else "the values still differ)")


def gemm_flops(sig: harness.Signature) -> float:
    c, a, _ = (t for t in sig.inputs if hasattr(t, "shape"))
    return 2.0 * c.shape[0] * c.shape[1] * a.shape[1]  # type: ignore[attr-defined]


def run_kernel(kernel: str, text: str, tc: toolchain.Toolchain, compilers: Sequence[Compiler], args: argparse.Namespace, workdir: Path, log) -> dict:  # type: ignore[no-untyped-def, type-arg]
    sig = harness.signature_of(text, "kernel")
    runs: list[Run] = []
    explain = {"optimize": True}
    unchanged = False  # optimize --all left the kernel as it is
    for name in MLIR_VARIANTS:
        v = next(v for v in runtime.VARIANTS if v.name == name)
        o = runtime.produce(kernel, text, v, tc, None, explain, Path(args.kernels_dir))
        if o.status == common.UNCHANGED:  # timed all the same: it is the figure compared
            o.status = common.OK
            unchanged = unchanged or name == OURS
        common.prepare(o, tc, sig, args.repeat)
        runs.append(Run(name, outcome=o, status=o.status, detail=o.detail))
    try:
        source, _ = mlir_to_c.translate(text, args.repeat, source=f"bench/kernels/{kernel}.mlir")
    except mlir_to_c.Untranslatable as e:
        source = None
        log(f"  {kernel}: no C version: {e}")
    for c in compilers:
        r = Run(c.name, source=workdir / f"{kernel}.c")
        if source is None:
            r.status, r.detail = common.FAILED, "no C version"
        else:
            r.argv, err = build_c(kernel, source, c, workdir)
            if r.argv is None:
                r.status, r.detail = common.REJECTED, err
        runs.append(r)
    if kernel == "gemm":
        runs.append(numpy_run(sig, args.repeat))
    for rnd in range(args.rounds):
        for r in runs:
            base = runs[0].median("wall") if runs[0].outcome and runs[0].outcome.times else None
            # runtime.py's budget (a 10x slowdown finishes), with room for
            # mlir-runner's JIT compilation on a busy machine.
            budget = 300.0 if base is None or math.isnan(base) else max(120.0, common.SLOWDOWN_BUDGET * base * (args.repeat + 1) + 60)
            if r.outcome is not None:
                common.time_round(r.outcome, tc, sig, args.repeat, budget)
                r.status, r.detail, r.measurement = r.outcome.status, r.outcome.detail, r.outcome.measurement
            else:
                run_program(r, sig, args.repeat, budget)
        log(f"  {kernel}: round {rnd + 1}/{args.rounds} done")
    if unchanged:
        # The output is the original program: its time is the median of all
        # the runs of that program (the two originals' and its own), not of
        # its own runs alone, whose spread is the noise.
        pooled = [r.outcome for r in runs if r.name in MLIR_VARIANTS and r.outcome is not None and r.outcome.status == common.OK]
        ours = next(r.outcome for r in runs if r.name == OURS)
        if ours is not None and len(pooled) == len(MLIR_VARIANTS):
            ours.times = [t for o in pooled for t in o.times]
            ours.cpu_times = [t for o in pooled for t in o.cpu_times]
            ours.detail = "unchanged: the original program, timed in all three runs"
    ref = runs[0].measurement
    cells: dict[str, dict] = {}  # type: ignore[type-arg]
    for r in runs:
        if r.status == common.OK and r.measurement is not None and ref is not None and r is not runs[0]:
            bad = harness.compare(ref, r.measurement)
            if bad:
                r.status, r.detail = common.WRONG, "; ".join(bad[:3]) + _contraction_check(r, sig, ref, args.repeat)
        med = r.median(args.clock) if r.status == common.OK else math.nan
        cells[r.name] = {
            "status": r.status,
            "detail": r.detail,
            "median_ms": med * 1000 if math.isfinite(med) else None,
            "times": r.outcome.times if r.outcome else r.times,
            "cpu_times": r.outcome.cpu_times if r.outcome else r.cpu_times,
        }
    c_names = [c.name for c in compilers]
    c_ok = [(cells[n]["median_ms"], n) for n in c_names if cells[n]["status"] == common.OK and cells[n]["median_ms"]]
    best_ms, best = min(c_ok) if c_ok else (None, None)
    ours, orig, again = cells[OURS]["median_ms"], cells["original"]["median_ms"], cells["original again"]["median_ms"]
    row = {
        "kernel": kernel,
        "variants": cells,
        "best_c": best,
        "best_c_ms": best_ms,
        "ours_over_best_c": ours / best_ms if ours and best_ms else None,
        "ours_over_original": ours / orig if ours and orig else None,
        "noise": again / orig if again and orig else None,
    }
    if kernel == "gemm":
        flops = gemm_flops(sig)
        for n in (OURS, NUMPY, "original", *c_names):
            ms = cells.get(n, {}).get("median_ms")
            cells.get(n, {})["gflops"] = flops / (ms / 1000) / 1e9 if ms else None
    return row


def summarize(
    rows: list[dict],
    compilers: Sequence[Compiler],
    skipped: dict[str, str],
    args: argparse.Namespace,
    tc: toolchain.Toolchain,
    elapsed: float,
    loads: Sequence[float],
) -> dict:  # type: ignore[type-arg]
    ratios = [r["ours_over_best_c"] for r in rows if r["ours_over_best_c"]]
    noise = [r["noise"] for r in rows if r["noise"]]
    dev = max((abs(math.log(x)) for x in noise), default=0.0)
    for r in rows:
        x = r["ours_over_best_c"]
        r["verdict"] = None if x is None else ("tie" if abs(math.log(x)) <= dev else ("faster" if x < 1 else "slower"))
    return {
        "toolchain": tc.describe(),
        "compilers": {c.name: " ".join(c.argv) for c in compilers},
        "skipped": skipped,
        "clock": args.clock,
        "repeat": args.repeat,
        "rounds": args.rounds,
        "minutes": elapsed / 60,
        "load_average": list(loads),
        "command": "python bench/anchors.py " + " ".join(shlex.quote(a) for a in sys.argv[1:]),
        "kernels": rows,
        "geomean_ours_over_best_c": common.geomean(ratios) if ratios else None,
        "noise": {"ratios": noise, "max_deviation": math.exp(dev) if noise else None},
        "slower": [r["kernel"] for r in rows if r["verdict"] == "slower"],
        "wrong": [f"{r['kernel']}: {n}" for r in rows for n, c in r["variants"].items() if c["status"] == common.WRONG],
    }


def _ms(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def markdown(data: dict) -> str:  # type: ignore[type-arg]
    names = [*MLIR_VARIANTS, *data["compilers"]]
    clock = "CPU time of the process (clock())" if data["clock"] == "cpu" else "wall time (rtclock)"
    lines = [
        "# Anchors: the optimizer against C compilers",
        "",
        "Generated by `python bench/anchors.py --write-docs` (do not edit: rerun it). Toolchain: " + data["toolchain"] + ".",
        "",
        "## Method",
        "",
        "* Kernels: `bench/kernels/*.mlir`. Their C versions are generated from the MLIR by `bench/mlir_to_c.py`: the same loops in the same order, "
        "the same sizes, the harness of `affine_lsp/harness.py` written in C (the same initialisation, `rtclock()`/`clock()` around each call, "
        "the same checksums); the C kernel is `noinline` and takes its arrays as `double A[N][M]` without `restrict`, as PolyBench/C declares them.",
        "* MLIR: `original` and `optimize --all` (`affine-lsp optimize --all FILE`) as `bench/runtime.py` times them (`mlir-runner -O3`, one thread).",
        "* C builds: " + "; ".join(f"{n}: `{cmd} FILE.c -lm`" for n, cmd in data["compilers"].items()) + ".",
        *(f"* Skipped: {n}: {why}." for n, why in data["skipped"].items()),
        f"* Runs are interleaved: {data['rounds']} rounds, each running every variant of a kernel once in turn, {data['repeat']} timed calls after "
        f"a warm-up call per run; a time is the median of all calls, of the {clock}.",
        "* Values: every output's checksums are compared with the MLIR original's (harness tolerance, 1e-9 of the sum of |x| for f64). "
        "A gcc build whose values differ is rebuilt with `-ffp-contract=off` and run once more: gcc contracts `a*b+c` into FMAs by default "
        "(GNU C), clang only within one expression, MLIR's lowering never; the failure says whether the values then agree.",
        "* Noise: the MLIR original is timed twice; the largest deviation of `original again / original` over the kernels is the noise, "
        "and `optimize --all` over the best C build within it is a tie. A kernel `optimize --all` leaves unchanged is the original program: "
        "its time is the median of the calls of all three runs of that program.",
        f"* This run: `{data['command']}`, {len(data['kernels'])} kernels, {data['minutes']:.1f} minutes; 1-minute load average "
        f"{data['load_average'][0]:.1f} at the start, {data['load_average'][1]:.1f} at the end (2 cores).",
        "",
        "## Times (ms per call) and `optimize --all` over the best C build",
        "",
        "| kernel | " + " | ".join(names) + " | best C | ours / best C | ours / original | verdict |",
        "|---|" + "---:|" * (len(names) + 3) + "---|",
    ]
    for r in data["kernels"]:
        cells = [(_ms(r["variants"][n]["median_ms"]) if r["variants"][n]["status"] == common.OK else r["variants"][n]["status"]) for n in names]
        lines.append(
            f"| {r['kernel']} | "
            + " | ".join(cells)
            + f" | {r['best_c'] or '-'} | {common.fmt(r['ours_over_best_c'])} | {common.fmt(r['ours_over_original'])} | {r['verdict'] or '-'} |"
        )
    lines += [
        "",
        f"Geomean of ours / best C: {common.fmt(data['geomean_ours_over_best_c'])} (below 1: ours faster). "
        f"Noise (largest deviation of the original's two timings): {common.fmt(data['noise']['max_deviation'], 'x')}. "
        f"Slower than the best C build beyond the noise: {', '.join(data['slower']) or 'none'}. "
        f"Wrong values: {', '.join(data['wrong']) or 'none'}.",
    ]
    gemm = next((r for r in data["kernels"] if r["kernel"] == "gemm"), None)
    if gemm is not None:
        g = {n: c.get("gflops") for n, c in gemm["variants"].items() if c.get("gflops")}
        lines += [
            "",
            "## gemm in GFLOP/s (2·NI·NJ·NK per call)",
            "",
            "| " + " | ".join(g) + " |",
            "|" + "---:|" * len(g),
            "| " + " | ".join(f"{x:.2f}" for x in g.values()) + " |",
        ]
        if g.get(OURS) and g.get(NUMPY):
            lines.append("")
            lines.append(
                f"`optimize --all` reaches {100 * g[OURS] / g[NUMPY]:.0f}% of numpy's dgemm "
                "(OpenBLAS, `OPENBLAS_NUM_THREADS=1`, `np.dot(A, B, out=T)` then `C = beta*C + alpha*T`, timed in the same rounds)."
            )
    fails = [
        f"* {r['kernel']}, {n}: {c['status']}: {c['detail'].splitlines()[0] if c['detail'] else ''}"
        for r in data["kernels"]
        for n, c in r["variants"].items()
        if c["status"] not in (common.OK,)
    ]
    if fails:
        lines += ["", "## Failures", "", *fails]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernels", help="comma-separated kernel names (default: every file in bench/kernels)")
    ap.add_argument("--repeat", type=int, default=3, help="timed calls per run, after one warm-up call (default 3)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds per kernel (default 3)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="cpu", help="times from the process's CPU time (clock(), default) or wall time")
    ap.add_argument("--mlir-bin", help="directory holding mlir-opt and mlir-runner")
    ap.add_argument("--kernels-dir", default=str(common.KERNELS))
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--markdown", help="write the table here")
    ap.add_argument("--write-docs", action="store_true", help=f"write {DOCS_JSON.relative_to(ROOT)} and {DOCS_MD.relative_to(ROOT)}")
    ap.add_argument("--from-json", metavar="FILE", help="only write the Markdown of the results in FILE (a previous run's JSON) to --markdown")
    args = ap.parse_args(argv)
    if args.from_json:
        md = markdown(json.loads(Path(args.from_json).read_text()))
        if args.markdown:
            write_atomic(Path(args.markdown), md.encode())
        else:
            print(md)
        return 0
    if args.repeat < 1 or args.rounds < 1:
        print("error: --repeat and --rounds must be at least 1", file=sys.stderr)
        return 2
    try:
        kernels = common.select_kernels(Path(args.kernels_dir), args.kernels)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    tc = common.find_toolchain(args.mlir_bin)
    if tc is None:
        return 2

    log = common.log

    compilers, skipped = [], {}
    for c in COMPILERS:
        why = available(c)
        if why is None:
            compilers.append(c)
        else:
            skipped[c.name] = why
            log(f"skipping {c.name}: {why}")
    started, load0 = time.time(), os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory(prefix="anchors-") as d:
        for k in kernels:
            t = time.time()
            row = run_kernel(k, (Path(args.kernels_dir) / f"{k}.mlir").read_text(), tc, compilers, args, Path(d), log)
            rows.append(row)
            log(
                f"{k}: "
                + ", ".join(f"{n}={_ms(c['median_ms'])}" if c["status"] == common.OK else f"{n}={c['status']}" for n, c in row["variants"].items())
                + f"; ours/best C={common.fmt(row['ours_over_best_c'])} ({time.time() - t:.0f} s)"
            )
    data = summarize(rows, compilers, skipped, args, tc, time.time() - started, (load0, os.getloadavg()[0]))
    md = markdown(data)
    outputs = [(args.json, None), (args.markdown, md)]
    if args.write_docs:
        outputs += [(str(DOCS_JSON), None), (str(DOCS_MD), md)]
    wrote = []
    for path, text in outputs:
        if path:
            write_atomic(Path(path), (text if text is not None else json.dumps(data, indent=1) + "\n").encode())
            wrote.append(path)
    if not wrote:
        print(md)
    else:
        log("wrote " + ", ".join(wrote))
    return 0


if __name__ == "__main__":
    sys.exit(main())
