"""Parallel code against sequential: ``optimize --all --parallel`` run by the
LLVM OpenMP runtime with 1 and 2 threads against ``optimize --all`` run
sequentially, on the kernels of ``bench/kernels``, every output's values
checked against the original's.

Run::

    python bench/parallel.py [--kernels gemm,atax] [--threads 1,2] [--repeat 3] [--rounds 3] [--json FILE]

Method: both outputs are produced by the CLI (``bench/runtime.py``'s
variants); a kernel whose ``--parallel`` output has no ``affine.parallel`` is
reported as such and not timed (it is the sequential output). Each program
gets the harness of ``affine_lsp/harness.py``; the sequential output is
lowered as ``bench/runtime.py`` lowers it, the parallel one through MLIR's
OpenMP dialect with ``num-threads=N`` (``toolchain.openmp_lowering``) and run
with ``OMP_NUM_THREADS=N``. Each round runs the sequential output, the
parallel output with each thread count, and the sequential output again
(the noise) once in turn; a time is the median of all calls (wall time: a
parallel run's CPU time adds up its threads). The original runs once, for
the values. Speedup = sequential median / variant median; the geomean is
over the kernels with a parallel loop whose values agree.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shlex
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from affine_lsp import harness, toolchain  # noqa: E402
from affine_lsp.atomic_write import write_atomic  # noqa: E402
from bench import common, runtime  # noqa: E402

SEQUENTIAL = "optimize --all"
PARALLEL = "optimize --all --parallel"
AGAIN = "optimize --all again"
NO_PARALLEL_LOOP = "no parallel loop"


def _variant(name: str) -> runtime.Variant:
    return next(v for v in runtime.VARIANTS if v.name == name)


def _with_threads(tc: toolchain.Toolchain, threads: int) -> toolchain.Toolchain:
    """``tc`` whose runs see ``OMP_NUM_THREADS=threads``."""
    return dataclasses.replace(tc, env={**tc.env, "OMP_NUM_THREADS": str(threads)})


def run_kernel(kernel: str, seq: common.Outcome, par: common.Outcome, tc: toolchain.Toolchain, threads: Sequence[int], args: argparse.Namespace, log) -> dict:  # type: ignore[no-untyped-def, type-arg]
    text = (Path(args.kernels_dir) / f"{kernel}.mlir").read_text()
    sig = harness.signature_of(text, "kernel")
    row: dict = {"kernel": kernel, "variants": {}}  # type: ignore[type-arg]
    if par.status == common.OK and par.text is not None and "affine.parallel" not in par.text:
        row["status"] = NO_PARALLEL_LOOP
        return row
    orig = common.Outcome(kernel, "original", text=text)
    again = common.Outcome(kernel, AGAIN, status=seq.status, detail=seq.detail, text=seq.text)
    seq = dataclasses.replace(seq, status=common.OK if seq.status == common.UNCHANGED else seq.status)
    again.status = seq.status
    runs: list[tuple[str, common.Outcome, toolchain.Toolchain]] = [(SEQUENTIAL, seq, tc)]
    for n in threads:
        o = common.Outcome(kernel, f"{PARALLEL} x{n}", status=par.status, detail=par.detail, text=par.text, threads=n)
        runs.append((o.variant, o, _with_threads(tc, n)))
    runs.append((AGAIN, again, tc))
    for o in (orig, *(o for _, o, _ in runs)):
        common.prepare(o, tc, sig, args.repeat)
    common.time_round(orig, tc, sig, 0, 600)
    for r in range(args.rounds):
        for _, o, t in runs:
            base = seq.median("wall") if seq.times else None
            budget = 300.0 if base is None else max(60.0, common.SLOWDOWN_BUDGET * base * (args.repeat + 1) + 30)
            common.time_round(o, t, sig, args.repeat, budget)
        log(f"  {kernel}: round {r + 1}/{args.rounds} done")
    base = seq.median("wall") if seq.status == common.OK and seq.times else None
    for name, o, _ in runs:
        if o.status == common.OK and o.measurement is not None and orig.measurement is not None:
            bad = harness.compare(orig.measurement, o.measurement)
            if bad:
                o.status, o.detail = common.WRONG, "; ".join(bad[:3])
        med = o.median("wall") if o.status == common.OK and o.times else None
        row["variants"][name] = {
            "status": o.status,
            "detail": o.detail,
            "median_ms": med * 1000 if med else None,
            "speedup": base / med if base and med else None,
            "times": o.times,
            "threads": o.threads,
            "detail_lowering": o.detail if o.parallel_lib is not None and o.detail else "",
        }
    row["status"] = common.OK
    return row


def summarize(rows: list[dict], threads: Sequence[int]) -> dict:  # type: ignore[type-arg]
    timed = [r for r in rows if r["status"] == common.OK]
    out: dict = {"kernels_with_parallel_loop": len(timed), "no_parallel_loop": [r["kernel"] for r in rows if r["status"] == NO_PARALLEL_LOOP]}  # type: ignore[type-arg]
    for n in threads:
        name = f"{PARALLEL} x{n}"
        sp = [(r["variants"][name]["speedup"], r["kernel"]) for r in timed if r["variants"][name]["status"] == common.OK and r["variants"][name]["speedup"]]
        out[name] = {
            "geomean": common.geomean([s for s, _ in sp]) if sp else None,
            "worst": min(sp) if sp else None,
            "best": max(sp) if sp else None,
            "wrong": [r["kernel"] for r in timed if r["variants"][name]["status"] == common.WRONG],
            "failed": [f"{r['kernel']}: {r['variants'][name]['status']}" for r in timed if r["variants"][name]["status"] not in (common.OK, common.WRONG)],
        }
    noise = [r["variants"][AGAIN]["speedup"] for r in timed if r["variants"][AGAIN]["speedup"]]
    out["noise"] = {"min": min(noise) if noise else None, "max": max(noise) if noise else None}
    return out


def table(data: dict) -> str:  # type: ignore[type-arg]
    threads = data["threads"]
    names = [f"{PARALLEL} x{n}" for n in threads]
    lines = [
        "| kernel | sequential ms | " + " | ".join(f"{n} thread(s)" for n in threads) + " | sequential again |",
        "|---|---:|" + "---:|" * (len(threads) + 1),
    ]
    for r in data["kernels"]:
        if r["status"] != common.OK:
            lines.append(f"| {r['kernel']} | {r['status']} |" + " |" * (len(threads) + 1))
            continue
        v = r["variants"]

        def cell(c: dict) -> str:  # type: ignore[type-arg]
            return common.fmt(c["speedup"]) if c["status"] == common.OK else c["status"]

        lines.append(f"| {r['kernel']} | {common.fmt(v[SEQUENTIAL]['median_ms'])} | " + " | ".join(cell(v[n]) for n in names) + f" | {cell(v[AGAIN])} |")
    s = data["summary"]
    lines.append("")
    for n in names:
        worst = s[n]["worst"]
        lines.append(
            f"{n}: geomean {common.fmt(s[n]['geomean'])} over {s['kernels_with_parallel_loop']} kernels with a parallel loop; "
            f"worst {common.fmt(worst[0]) if worst else '-'} ({worst[1] if worst else '-'}); wrong: {', '.join(s[n]['wrong']) or 'none'}; "
            f"failed: {', '.join(s[n]['failed']) or 'none'}."
        )
    lines.append(f"Noise (sequential again / sequential): {common.fmt(s['noise']['min'])}-{common.fmt(s['noise']['max'])}.")
    lines.append(f"No parallel loop: {', '.join(s['no_parallel_loop']) or 'none'}.")
    lines.append(
        f"Load average at the start {data['load_average'][0]:.1f}, at the end {data['load_average'][1]:.1f} ({os.cpu_count()} cores); {data['minutes']:.1f} min."
    )
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernels", help="comma-separated kernel names (default: every file in bench/kernels)")
    ap.add_argument("--threads", default="1,2", help="comma-separated OpenMP thread counts (default 1,2)")
    ap.add_argument("--repeat", type=int, default=3, help="timed calls per run, after one warm-up call (default 3)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds per kernel (default 3)")
    ap.add_argument("--mlir-bin", help="the bin directory of an MLIR install (default: see affine_lsp/toolchain.py)")
    ap.add_argument("--kernels-dir", default=str(common.KERNELS))
    ap.add_argument("--json", help="write the results here")
    args = ap.parse_args(argv)
    try:
        kernels = common.select_kernels(Path(args.kernels_dir), args.kernels)
        threads = [int(x) for x in args.threads.split(",") if x.strip()]
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.repeat < 1 or args.rounds < 1 or not threads or min(threads) < 1:
        print("error: --repeat, --rounds and the thread counts must be at least 1", file=sys.stderr)
        return 2
    tc = common.find_toolchain(args.mlir_bin)
    if tc is None:
        return 2
    if toolchain.openmp_runtime(tc) is None:
        print(f"error: no LLVM OpenMP runtime: {toolchain.OPENMP_HINT}", file=sys.stderr)
        return 2

    log = common.log

    started, load0 = time.time(), os.getloadavg()[0]
    kd = Path(args.kernels_dir)
    texts = {k: (kd / f"{k}.mlir").read_text() for k in kernels}
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {(k, name): pool.submit(runtime.produce, k, texts[k], _variant(name), tc, None, {}, kd) for k in kernels for name in (SEQUENTIAL, PARALLEL)}
        produced = {key: f.result() for key, f in futures.items()}
    log(f"outputs produced in {time.time() - started:.0f} s; timing")
    rows = []
    for k in kernels:
        t = time.time()
        row = run_kernel(k, produced[(k, SEQUENTIAL)], produced[(k, PARALLEL)], tc, threads, args, log)
        row["optimize_seconds"] = {name: produced[(k, name)].transform_seconds for name in (SEQUENTIAL, PARALLEL)}
        rows.append(row)
        cells = ", ".join(f"{n}={common.fmt(c['speedup']) if c['status'] == common.OK else c['status']}" for n, c in row["variants"].items())
        log(f"{k}: {row['status'] if row['status'] != common.OK else cells} ({time.time() - t:.0f} s)")
    data = {
        "command": "python bench/parallel.py " + " ".join(shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv)),
        "toolchain": tc.describe(),
        "openmp": str(toolchain.openmp_runtime(tc)),
        "threads": threads,
        "repeat": args.repeat,
        "rounds": args.rounds,
        "kernels": rows,
        "summary": summarize(rows, threads),
        "load_average": [load0, os.getloadavg()[0]],
        "minutes": (time.time() - started) / 60,
    }
    print(table(data))
    if args.json:
        write_atomic(Path(args.json), (json.dumps(data, indent=1) + "\n").encode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
