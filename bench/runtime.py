"""Runtime benchmark: every kernel of ``bench/kernels`` compiled and timed as a
whole program, before and after affine-lsp's transformations and MLIR's own
passes, with every output's values checked against the original's.

Run::

    python bench/runtime.py [--kernels gemm,2mm] [--variants tile,mlir-tile] [--repeat 3] [--rounds 2]
                            [--clock wall|cpu] [--json docs/runtime.json] [--markdown docs/runtime.md]

Method (also written at the top of the Markdown it generates):

1. Each variant of a kernel is produced first (two at a time): affine-lsp's
   through its CLI in a subprocess, as a user runs it
   (``python -m affine_lsp tile FILE``), MLIR's with ``mlir-opt
   --pass-pipeline=builtin.module(func.func(PASSES))``.
   A variant whose output equals its input (for MLIR's passes: mlir-opt's
   print of the input without a pass) is *unchanged* (speedup 1 by
   definition, not timed).
2. Each program gets the harness of :mod:`affine_lsp.harness` (a generated
   main: deterministic initialisation before each call, one warm-up call,
   ``--repeat`` timed calls of ``@kernel`` through a wrapper LLVM cannot
   inline, checksums of the arrays it writes), is lowered once with the
   lowering of :mod:`affine_lsp.toolchain` (mlir-opt rejecting it: *rejected*)
   and run with ``mlir-runner -O3``.
3. Timing runs are interleaved: ``--rounds`` rounds, each running every
   timed variant of the kernel once in turn (one process, ``--repeat``
   calls); a variant's time is the median of all its calls. The original
   is timed twice, as two variants: their ratio is the noise.
4. A variant whose checksums differ from the first original's beyond the
   harness's tolerance is *wrong*; a run that does not finish within its
   budget is a *timeout* (its speedup is below the bound shown).

Speedup = original's median / variant's median. Geomeans are over all kernels
(unchanged = 1) and over the kernels a variant changed; a timeout counts with
its bound (the geomean is then shown as a bound, "≤"); wrong, rejected,
crashed and failed outputs are left out of both and counted.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from affine_lsp import harness, toolchain  # noqa: E402
from bench import common  # noqa: E402
from bench.common import (  # noqa: E402
    CRASH,
    FAILED,
    KERNELS,
    OK,
    REJECTED,
    SLOWDOWN_BUDGET,
    TIMEOUT,
    UNCHANGED,
    WRONG,
    Outcome,
    env,
    fmt,
    geomean,
    prepare,
    select_kernels,
    time_round,
)

SUPER_VECTORIZE = "affine-super-vectorize{virtual-vector-size=8 vectorize-reductions}"


@dataclass(frozen=True)
class Variant:
    name: str
    kind: str  # "original", "affine-lsp" (a CLI command line), "mlir" (passes run on each func.func)
    args: tuple[str, ...] = ()
    requires: str | None = None  # an affine-lsp subcommand that must exist
    threads: bool = False  # run affine.parallel loops on every core (timed by the wall clock)


# The variants: one line each.
VARIANTS: tuple[Variant, ...] = (
    Variant("original", "original"),
    Variant("original again", "original"),
    Variant("fuse --all", "affine-lsp", ("fuse", "--all")),
    Variant("vectorize --all", "affine-lsp", ("vectorize", "--all")),
    Variant("tile", "affine-lsp", ("tile",)),
    Variant("tile --skew", "affine-lsp", ("tile", "--skew")),
    Variant("interchange", "affine-lsp", ("interchange",)),
    Variant("unroll-jam --factor 4", "affine-lsp", ("unroll-jam", "--factor", "4")),
    Variant("optimize --all", "affine-lsp", ("optimize", "--all"), requires="optimize"),
    Variant("optimize --all --parallel", "affine-lsp", ("optimize", "--all", "--parallel"), requires="optimize", threads=True),
    Variant("mlir fusion", "mlir", ("affine-loop-fusion",)),
    Variant("mlir tile", "mlir", ("affine-loop-tile",)),
    Variant("mlir super-vectorize", "mlir", (SUPER_VECTORIZE,)),
    Variant("mlir unroll-jam", "mlir", ("affine-loop-unroll-jam",)),
    Variant(
        "mlir pipeline",
        "mlir",
        ("affine-loop-fusion", "affine-loop-tile", "affine-scalrep", "affine-loop-invariant-code-motion", SUPER_VECTORIZE),
    ),
)


def available_subcommands() -> set[str]:
    from affine_lsp import cli

    out = set()
    for name, (mod, _) in cli.SUBCOMMANDS.items():
        try:
            __import__(mod)
        except ModuleNotFoundError:
            continue
        out.add(name)
    return out


def _help_text(command: str) -> str:
    p = subprocess.run([sys.executable, "-m", "affine_lsp", command, "--help"], capture_output=True, text=True, env=env(), timeout=120)
    return p.stdout


# ------------------------------------------------------------ predictions

_PRED_SPEEDUP = re.compile(r"~\s*(\d+(?:\.\d+)?)x")
_PRED_LINE = re.compile(r"predict|profitable|faster|slower", re.IGNORECASE)


def parse_predictions(stderr: str) -> list[dict[str, object]]:
    """The predictions a transformation printed (Prediction.title_suffix /
    markdown: "Predicted: faster, ~1.80x, ...", "(~1.8x faster: ...)", "(not
    profitable: ...)"), one per remark line that carries one."""
    out: list[dict[str, object]] = []
    for line in stderr.splitlines():
        if not _PRED_LINE.search(line) or line.strip().startswith("declined:"):
            continue  # a rewrite the composition declined is not applied: it predicts nothing of the output
        m = _PRED_SPEEDUP.search(line)
        unprofitable = "not profitable" in line.lower()
        if m is None and not unprofitable:
            continue
        out.append({"speedup": float(m.group(1)) if m else None, "profitable": not unprofitable, "line": line.strip()})
    remarks = [p for p in out if ": remark: " in str(p["line"])]
    # --explain repeats each remark's prediction in its block: the remarks,
    # one per rewritten group, are the predictions when there are any.
    return remarks or out


def predicted_speedup(preds: Sequence[dict[str, object]]) -> float | None:
    """One number per variant and kernel: the geomean of the predicted
    speedups of the rewrites applied (an unprofitable one counts 1: --all
    skips it)."""
    xs = [float(p["speedup"]) if p["profitable"] and p["speedup"] else 1.0 for p in preds if p["speedup"] is not None or not p["profitable"]]  # type: ignore[arg-type]
    return geomean(xs) if xs else None


# ------------------------------------------------------------ producing variants


def produce(kernel: str, text: str, v: Variant, tc: toolchain.Toolchain, baseline: str | None, explain: dict[str, bool], kernels_dir: Path) -> Outcome:
    out = Outcome(kernel, v.name, threads=(os.cpu_count() or 1) if v.threads else 0)
    t0 = time.perf_counter()
    if v.kind == "original":
        out.text = text
        return out
    path = kernels_dir / f"{kernel}.mlir"
    if v.kind == "affine-lsp":
        args = list(v.args)
        if explain.get(args[0]):
            args.append("--explain")
        try:
            p = subprocess.run([sys.executable, "-m", "affine_lsp", *args, str(path)], capture_output=True, text=True, env=env(), timeout=900)
        except subprocess.TimeoutExpired:
            out.status, out.detail = FAILED, "the transformation did not finish within 900 s"
            return out
        out.transform_seconds = time.perf_counter() - t0
        out.predictions = parse_predictions(p.stderr)
        if p.returncode != 0:
            out.status = CRASH if "Traceback" in p.stderr else FAILED
            out.detail = p.stderr.strip()[-2000:]
            return out
        out.text = p.stdout
        if out.text == text:
            out.status = UNCHANGED
        return out
    try:
        out.text = toolchain.opt(tc, text, [mlir_pipeline(v.args)], timeout=900)
    except toolchain.CompileError as e:
        out.status = CRASH if "crashed" in str(e) or "PLEASE submit a bug report" in str(e) else FAILED
        out.detail = str(e)[-2000:]
        return out
    out.transform_seconds = time.perf_counter() - t0
    if baseline is not None and out.text == baseline:
        out.status = UNCHANGED
    return out


def mlir_pipeline(passes: Sequence[str]) -> str:
    """The mlir-opt option running ``passes`` on every function."""
    return f"--pass-pipeline=builtin.module(func.func({','.join(passes)}))"


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    def ranks(v: Sequence[float]) -> list[float]:
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return r

    if len(xs) < 3:
        return math.nan
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    sy = math.sqrt(sum((b - my) ** 2 for b in ry))
    return cov / (sx * sy) if sx and sy else math.nan


# ------------------------------------------------------------ the run


def run_kernel(kernel: str, text: str, outcomes: list[Outcome], tc: toolchain.Toolchain, repeat: int, rounds: int, clock: str, log) -> None:  # type: ignore[no-untyped-def]
    sig = harness.signature_of(text, "kernel")
    for o in outcomes:
        prepare(o, tc, sig, repeat)
    orig = outcomes[0]
    for r in range(rounds):
        for o in outcomes:
            if o.status != OK:
                continue
            base = orig.median("wall") if orig.times else None
            # A budget that lets a 10x slowdown finish (plus the compilation
            # and the initialisation), and stops a disaster.
            budget = 120.0 if base is None else max(30.0, SLOWDOWN_BUDGET * base * (repeat + 1) + 20)
            time_round(o, tc, sig, repeat, budget)
        log(f"  {kernel}: round {r + 1}/{rounds} done")
    ref = orig.measurement
    for o in outcomes:
        if o.status == UNCHANGED:
            o.speedup = 1.0
            continue
        if o.status == TIMEOUT and orig.times and o.budget:
            o.speedup_bound = orig.median("wall") * (repeat + 1) / o.budget
            continue
        if o.status != OK or o.measurement is None or ref is None:
            continue
        bad = harness.compare(ref, o.measurement)
        if bad:
            o.status, o.detail = WRONG, "; ".join(bad[:3])
            continue
        t0, t1 = orig.median("wall" if o.threads else clock), o.median(clock)
        if t0 > 0 and t1 > 0:
            o.speedup = t0 / t1
        else:
            o.detail = "a call took less than the clock's resolution"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernels", help="comma-separated kernel names (default: every file in bench/kernels)")
    ap.add_argument("--variants", help="comma-separated variant names (default: all; the two originals are always run)")
    ap.add_argument("--repeat", type=int, default=3, help="timed calls per run, after one warm-up call (default 3)")
    ap.add_argument("--rounds", type=int, default=2, help="interleaved rounds of runs per kernel (default 2)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="speedups from wall time (rtclock, default) or the process's CPU time (clock())")
    ap.add_argument("--mlir-bin", help="the bin directory of an MLIR install (default: see affine_lsp/toolchain.py)")
    ap.add_argument("--json", default=str(ROOT / "docs" / "runtime.json"), help="where to write the results (default docs/runtime.json)")
    ap.add_argument("--markdown", default=str(ROOT / "docs" / "runtime.md"), help="where to write the table (default docs/runtime.md)")
    ap.add_argument("--list", action="store_true", help="list the kernels and variants, and exit")
    ap.add_argument("--kernels-dir", default=str(KERNELS), help="where the kernels are (default bench/kernels)")
    ap.add_argument("--from-json", metavar="FILE", help="only write the Markdown of the results in FILE (a previous run's JSON)")
    args = ap.parse_args(argv)
    if args.from_json:
        data = json.loads(Path(args.from_json).read_text())
        for name, entry in data["summary"].items():
            entry.update(variant_summary([r["variants"][name] for r in data["kernels"]]))
        Path(args.markdown).write_text(markdown(data))
        return 0

    kernels_dir = Path(args.kernels_dir)
    kernels = select_kernels(kernels_dir, None)
    have = available_subcommands()
    variants = [v for v in VARIANTS if v.requires is None or v.requires in have]
    if args.list:
        print("kernels: " + ", ".join(kernels))
        print("variants: " + ", ".join(v.name for v in variants))
        return 0
    if args.kernels:
        try:
            kernels = select_kernels(kernels_dir, args.kernels)
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    if args.variants:
        wanted = [k.strip() for k in args.variants.split(",") if k.strip()]
        names = {v.name for v in variants}
        unknown = [k for k in wanted if k not in names]
        if unknown:
            print(f"error: unknown variants: {', '.join(unknown)} (have: {', '.join(sorted(names))})", file=sys.stderr)
            return 2
        variants = [v for v in variants if v.kind == "original" or v.name in wanted]
    if args.repeat < 1 or args.rounds < 1:
        print("error: --repeat and --rounds must be at least 1", file=sys.stderr)
        return 2
    tc = common.find_toolchain(args.mlir_bin)
    if tc is None:
        return 2

    log = common.log

    started = time.time()
    load_start = os.getloadavg()[0]
    commands = {v.args[0] for v in variants if v.kind == "affine-lsp"}
    explain = {c: "--explain" in _help_text(c) for c in commands}
    log(f"{tc.describe()}; {len(kernels)} kernels x {len(variants)} variants; producing the variants")
    texts = {k: (kernels_dir / f"{k}.mlir").read_text() for k in kernels}
    baselines: dict[str, str | None] = {}
    for k in kernels:
        try:
            baselines[k] = toolchain.opt(tc, texts[k], [])
        except toolchain.CompileError:
            baselines[k] = None
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {(k, v.name): pool.submit(produce, k, texts[k], v, tc, baselines[k], explain, kernels_dir) for k in kernels for v in variants}
        results = {key: f.result() for key, f in futures.items()}
    log(f"variants produced in {time.time() - started:.0f} s; timing")
    per_kernel: dict[str, list[Outcome]] = {}
    for k in kernels:
        outs = [results[(k, v.name)] for v in variants]
        t = time.time()
        run_kernel(k, texts[k], outs, tc, args.repeat, args.rounds, args.clock, log)
        per_kernel[k] = outs
        log(f"{k}: " + ", ".join(f"{o.variant}={_cell(o)}" for o in outs) + f" ({time.time() - t:.0f} s)")
    elapsed = time.time() - started
    data = summarize(per_kernel, variants, args, tc, elapsed)
    data["load_average"] = [load_start, os.getloadavg()[0]]
    data["command"] = "python bench/runtime.py " + " ".join(shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv))
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(data, indent=1) + "\n")
    Path(args.markdown).write_text(markdown(data))
    log(f"wrote {args.json} and {args.markdown} ({elapsed / 60:.1f} min)")
    return 0


def _cell(o: Outcome) -> str:
    if o.status == UNCHANGED:
        return "="
    if o.status == OK and o.speedup is not None:
        return f"{o.speedup:.2f}"
    if o.status == TIMEOUT and o.speedup_bound is not None:
        return f"timeout (<{o.speedup_bound:.2f})"
    return o.status


def summarize(per_kernel: dict[str, list[Outcome]], variants: Sequence[Variant], args: argparse.Namespace, tc: toolchain.Toolchain, elapsed: float) -> dict:  # type: ignore[type-arg]
    rows = []
    for k, outs in per_kernel.items():
        orig = outs[0]
        rows.append(
            {
                "kernel": k,
                "original_ms": orig.median(args.clock) * 1000 if orig.times else None,
                "original_wall_ms": orig.median("wall") * 1000 if orig.times else None,
                "original_cpu_ms": orig.median("cpu") * 1000 if orig.cpu_times else None,
                "variants": {
                    o.variant: {
                        "status": o.status,
                        "cell": _cell(o),
                        "speedup": o.speedup,
                        "speedup_bound": o.speedup_bound,
                        "median_ms": o.median(args.clock) * 1000 if (o.times if args.clock == "wall" or o.threads else o.cpu_times) else None,
                        "threads": o.threads,
                        "times": o.times,
                        "cpu_times": o.cpu_times,
                        "transform_seconds": o.transform_seconds,
                        "predictions": o.predictions,
                        "predicted_speedup": predicted_speedup(o.predictions),
                        "detail": o.detail,
                    }
                    for o in outs
                },
            }
        )
    summary = {}
    pred_pairs: list[tuple[float, float]] = []
    for v in variants:
        cells = [r["variants"][v.name] for r in rows]
        summary[v.name] = {
            "kind": v.kind,
            "command": {"original": "", "affine-lsp": "affine-lsp " + " ".join(v.args) + " FILE", "mlir": "mlir-opt FILE " + mlir_pipeline(v.args)}[v.kind],
            "note": f"affine.parallel loops on {os.cpu_count() or 1} threads of {_parallel_runtime_name(tc)}; speedup from wall times" if v.threads else "",
            **variant_summary(cells),
        }
        for c in cells:
            if c["predicted_speedup"] is not None and c["speedup"] is not None:
                pred_pairs.append((c["predicted_speedup"], c["speedup"]))
    noise = [r["variants"][variants[1].name]["speedup"] for r in rows if r["variants"][variants[1].name]["speedup"] is not None]
    return {
        "toolchain": tc.describe(),
        "clock": args.clock,
        "repeat": args.repeat,
        "rounds": args.rounds,
        "minutes": elapsed / 60,
        "kernels": rows,
        "summary": summary,
        "noise": {
            "ratios": noise,
            "geomean": geomean(noise) if noise else None,
            "max_deviation": max((abs(math.log(x)) for x in noise), default=None),
        },
        "predictions": {
            "pairs": len(pred_pairs),
            "spearman_rho": spearman([p for p, _ in pred_pairs], [m for _, m in pred_pairs]) if len(pred_pairs) >= 3 else None,
            "overpredicted": overpredicted(rows, variants),
        },
    }


OVERPREDICTED = (1.5, 1.05)
"""A prediction above 1.5x whose measurement is below 1.05x: a promise the
rewrite did not keep (issue #47's calibration bound)."""


def overpredicted(rows: Sequence[dict], variants: Sequence[Variant]) -> list[str]:  # type: ignore[type-arg]
    """``kernel: variant (predicted ~P, measured M)`` for every cell whose
    prediction exceeds ``OVERPREDICTED[0]`` and whose measured speedup is
    below ``OVERPREDICTED[1]``."""
    out = []
    for r in rows:
        for v in variants:
            c = r["variants"][v.name]
            p, m = c["predicted_speedup"], c["speedup"]
            if p is not None and m is not None and p > OVERPREDICTED[0] and m < OVERPREDICTED[1]:
                out.append(f"{r['kernel']}: {v.name} (predicted ~{p:.2f}x, measured {m:.2f}x)")
    return out


def _parallel_runtime_name(tc: toolchain.Toolchain) -> str:
    rt = toolchain.parallel_runtime(tc)
    return "no parallel runtime" if rt is None else ("the LLVM OpenMP runtime" if rt.kind == "openmp" else "MLIR's async runtime")


def variant_summary(cells: Sequence[dict]) -> dict:  # type: ignore[type-arg]
    """A variant's figures over the kernels: geomeans (a timeout counts
    with its bound, and the geomean is then a bound too), counts."""
    bounds = [c["speedup_bound"] for c in cells if c["status"] == TIMEOUT and c["speedup_bound"]]
    sp_all = [c["speedup"] for c in cells if c["speedup"] is not None] + bounds
    sp_changed = [c["speedup"] for c in cells if c["speedup"] is not None and c["status"] == OK] + bounds
    return {
        "geomean_all": geomean(sp_all) if sp_all else None,
        "geomean_changed": geomean(sp_changed) if sp_changed else None,
        "geomean_is_bound": bool(bounds),
        "changed": sum(1 for c in cells if c["status"] in (OK, WRONG, TIMEOUT)),
        "unchanged": sum(1 for c in cells if c["status"] == UNCHANGED),
        "slower_than_0.9": sum(1 for c in cells if (c["speedup"] is not None and c["speedup"] < 0.9) or c["status"] == TIMEOUT),
        "min": min(sp_changed) if sp_changed else None,
        "max": max(sp_changed) if sp_changed else None,
        **{s: sum(1 for c in cells if c["status"] == s) for s in (WRONG, REJECTED, CRASH, FAILED, TIMEOUT)},
    }


def markdown(data: dict) -> str:  # type: ignore[type-arg]
    names = list(data["summary"])
    clock = "wall time (rtclock)" if data["clock"] == "wall" else "CPU time of the process (clock())"
    lines = [
        "# Runtime benchmark",
        "",
        "Generated by `python bench/runtime.py` (do not edit: rerun it). Toolchain: " + data["toolchain"] + ".",
        "",
        "## Method",
        "",
        "* Kernels: `bench/kernels/*.mlir`, PolyBench 4.2 kernels in PolyBench's loop order (f64), sized so that the original runs 50-500 ms per call.",
        "* Variants: affine-lsp's transformations run through its CLI as a user runs them; MLIR's passes run with `mlir-opt`. "
        "A variant whose output equals its input (for MLIR's passes: mlir-opt's print of the input) is *unchanged* (`=`, speedup 1).",
        "* Each program gets the harness of `affine_lsp/harness.py`: a generated main that initialises the arrays deterministically before every call, "
        "calls `@kernel` once to warm up, then times "
        f"{data['repeat']} calls through a wrapper LLVM cannot inline, and prints checksums of the arrays the kernel writes. "
        "Programs are lowered with the pass list of `affine_lsp/toolchain.py` and run with `mlir-runner -O3` (one thread; "
        "the `--parallel` variant's `affine.parallel` loops run on every core through the LLVM OpenMP runtime, `toolchain.openmp_lowering` "
        "(MLIR's async runtime, `toolchain.parallel_lowering`, when no OpenMP runtime is found: `toolchain.parallel_runtime`), "
        "and its speedup is a ratio of wall times, whatever the clock of the others).",
        f"* Runs are interleaved: {data['rounds']} rounds, each running every variant of a kernel once in turn; a time is the median of all calls; "
        f"speedups are ratios of medians of the {clock}.",
        "* Values: each variant's checksums (sum, index-weighted sum, sum of absolute values of each written array) are compared with the original's, "
        "within 1e-9 of the array's sum of absolute values (f64). A mismatch is `wrong`; mlir-opt refusing the output is `rejected`; "
        "a crash of the transformation, mlir-opt or the program is `crash`; a run past its time budget is `timeout` (its speedup is below the bound shown).",
        "* The original is timed twice (`original again`): that column is the noise.",
        "* Geomeans: over all kernels (unchanged = 1) and over the kernels a variant changed; a timeout counts with its bound "
        "(the geomean is then a bound, `≤`); wrong, rejected, crashed and failed outputs are left out and counted below the table.",
        f"* This run: `{data.get('command', 'python bench/runtime.py')}`, {len(data['kernels'])} kernels, {data['minutes']:.1f} minutes"
        + (
            f"; the machine's 1-minute load average was {data['load_average'][0]:.1f} at the start and {data['load_average'][1]:.1f} at the end."
            if data.get("load_average")
            else "."
        ),
        "* One function, before and after one transformation, with the same harness: "
        '`affine-lsp time FILE [--func NAME] [--after "tile --sizes 32,32"] [--repeat N]`; in the editor, the code lens '
        '*Time this function* (setting `affineLsp.toolchain.timeAfter`). The toolchain: `pip install "affine-lsp[run]"`, '
        "`mlir-opt` on PATH, `--mlir-bin DIR`, `AFFINE_LSP_MLIR_BIN` or the setting `affineLsp.toolchain.mlirBin`.",
        "",
        "## Variants",
        "",
        *[f"* `{n}`: `{s['command']}`" + (f" ({s['note']})" if s.get("note") else "") for n, s in data["summary"].items() if s["command"]],
        "",
        "## Speedups (original time / variant time)",
        "",
        "| kernel | original ms | " + " | ".join(n for n in names if n != "original") + " |",
        "|---|---:|" + "---:|" * (len(names) - 1),
    ]
    for r in data["kernels"]:
        cells = [r["variants"][n]["cell"] for n in names if n != "original"]
        lines.append(f"| {r['kernel']} | {fmt(r['original_ms'])} | " + " | ".join(cells) + " |")
    s = data["summary"]

    def row(label: str, key: str, fmt=lambda x: fmt(x)) -> str:  # type: ignore[no-untyped-def]
        return f"| **{label}** | | " + " | ".join(fmt(s[n][key]) for n in names if n != "original") + " |"

    def geo(key: str) -> str:
        return (
            f"| **{key.replace('_', ', ')}** | | "
            + " | ".join(("≤" if s[n].get("geomean_is_bound") and s[n][key] is not None else "") + fmt(s[n][key]) for n in names if n != "original")
            + " |"
        )

    lines += [
        geo("geomean_all").replace("geomean, all", "geomean, all kernels"),
        geo("geomean_changed").replace("geomean, changed", "geomean, kernels changed"),
        row("changed", "changed", str),
        row("slower than 0.9x", "slower_than_0.9", str),
        row("wrong values", WRONG, str),
        row("rejected by mlir-opt", REJECTED, str),
        row("crashes", CRASH, str),
        row("failed", FAILED, str),
        row("timeouts", TIMEOUT, str),
        "",
        f"Noise: the two originals' ratio has geomean {fmt(data['noise']['geomean'])}; "
        f"the largest deviation is {fmt(math.exp(data['noise']['max_deviation']) if data['noise']['max_deviation'] is not None else None, 'x')}.",
        "",
    ]
    p = data["predictions"]
    if p["pairs"]:
        lines.append(
            f"Predictions: {p['pairs']} (kernel, variant) pairs carry a predicted speedup; Spearman's rho between predicted and measured: {fmt(p['spearman_rho'])}."
        )
        over = p.get("overpredicted") or []
        lines.append(f"Predicted above {OVERPREDICTED[0]}x and measured below {OVERPREDICTED[1]}x: " + ("; ".join(over) if over else "none") + ".")
    else:
        lines.append("Predictions: no transformation printed a predicted speedup in this run.")
    details = [
        f"* {r['kernel']}, {n}: {r['variants'][n]['status']}: {r['variants'][n]['detail'].splitlines()[0] if r['variants'][n]['detail'] else ''}"
        for r in data["kernels"]
        for n in names
        if r["variants"][n]["status"] in (WRONG, REJECTED, CRASH, FAILED, TIMEOUT)
    ]
    if details:
        lines += ["", "## Failures", "", *details]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
