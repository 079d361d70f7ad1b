"""Run time of ``affine-lsp optimize`` outputs against their originals.

For each kernel file (one ``func.func @kernel`` taking static memrefs of
f64/f32): the original and the optimized text are lowered with mlir-opt
(``-lower-affine -convert-scf-to-cf -convert-to-llvm``: an
``affine.parallel`` of a ``--parallel`` output runs sequentially, as the
reference toolchain ships no OpenMP runtime) and run with ``mlir-runner -O3``
in one process each; the driver fills every memref with the same pattern,
calls the kernel once to warm up, then times ``--reps`` calls with
``rtclock`` and prints the best one and a checksum of every memref. The
checksums of the original and the optimized kernel must agree (relative
1e-9), else the kernel is reported as WRONG.

    python bench/optimize_speed.py KERNEL.mlir... [--tile N] [--parallel] [--reps 3] [--rounds 3]

With ``--pipeline``, the output of that mlir-opt pipeline is timed instead
(a failure of mlir-opt counts as 1.0x, the original kept).

Rounds are interleaved (original, optimized, original, ...) and the median
of the per-round bests is reported, with the geometric mean of the
speedups.
"""

from __future__ import annotations

import argparse
import math
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from affine_lsp.ir.types import MemRefType
from affine_lsp.syntax.document import Document
from tests import oracle

LOWER = ("-lower-affine", "-convert-scf-to-cf", "-convert-to-llvm", "-reconcile-unrealized-casts")


def driver(text: str, reps: int) -> str:
    doc = Document(text)
    f = next(f for s in doc.sections for f in s.functions() if str(f.attributes["sym_name"].value) == "kernel")  # type: ignore[attr-defined]
    args = [a.type for a in f.regions[0].blocks[0].arguments]
    lines = [text, "func.func private @rtclock() -> f64", "func.func @main() {"]
    names = []
    for k, t in enumerate(args):
        assert isinstance(t, MemRefType)
        n = f"%a{k}"
        names.append(n)
        lines.append(f"  {n} = memref.alloc() : {t}")
        ivs = [f"%f{k}_{d}" for d in range(len(t.shape))]
        for d, size in enumerate(t.shape):
            lines.append("  " + "  " * d + f"affine.for {ivs[d]} = 0 to {size} {{")
        ind = "  " * (len(t.shape) + 1)
        dims = ", ".join(f"d{d}" for d in range(len(t.shape)))
        lin = " + ".join(f"d{d} * {7 + 3 * d + k}" for d in range(len(t.shape)))
        lines.append(f"{ind}%l{k} = affine.apply affine_map<({dims}) -> (({lin}) mod 97)>({', '.join(ivs)})")
        lines.append(f"{ind}%i{k} = arith.index_cast %l{k} : index to i64")
        lines.append(f"{ind}%v{k} = arith.sitofp %i{k} : i64 to {t.element}")
        lines.append(f"{ind}%s{k} = arith.constant 0.01 : {t.element}")
        lines.append(f"{ind}%w{k} = arith.mulf %v{k}, %s{k} : {t.element}")
        lines.append(f"{ind}affine.store %w{k}, {n}[{', '.join(ivs)}] : {t}")
        for d in range(len(t.shape) - 1, -1, -1):
            lines.append("  " + "  " * d + "}")
    sig = ", ".join(str(t) for t in args)
    call = f"  func.call @kernel({', '.join(names)}) : ({sig}) -> ()"
    lines.append(call)
    lines.append("  %best0 = arith.constant 1.0e30 : f64")
    lines.append(f"  %best = affine.for %r = 0 to {reps} iter_args(%b = %best0) -> (f64) {{")
    lines.append("    %t0 = func.call @rtclock() : () -> f64")
    lines.append("  " + call)
    lines.append("    %t1 = func.call @rtclock() : () -> f64")
    lines.append("    %dt = arith.subf %t1, %t0 : f64")
    lines.append("    %m = arith.minimumf %b, %dt : f64")
    lines.append("    affine.yield %m : f64")
    lines.append("  }")
    lines.append("  vector.print %best : f64")
    for k, t in enumerate(args):
        assert isinstance(t, MemRefType)
        n = names[k]
        ivs = [f"%g{k}_{d}" for d in range(len(t.shape))]
        lines.append(f"  %z{k} = arith.constant 0.0 : {t.element}")
        head = f"  %sum{k} = "
        for d, size in enumerate(t.shape):
            acc = f"%z{k}" if d == 0 else f"%acc{k}_{d - 1}"
            prefix = head if d == 0 else "  " + "  " * d + f"%in{k}_{d} = "
            lines.append(f"{prefix}affine.for {ivs[d]} = 0 to {size} iter_args(%acc{k}_{d} = {acc}) -> ({t.element}) {{")
        ind = "  " * (len(t.shape) + 1)
        lines.append(f"{ind}%e{k} = affine.load {n}[{', '.join(ivs)}] : {t}")
        lines.append(f"{ind}%n{k} = arith.addf %acc{k}_{len(t.shape) - 1}, %e{k} : {t.element}")
        lines.append(f"{ind}affine.yield %n{k} : {t.element}")
        for d in range(len(t.shape) - 1, 0, -1):
            lines.append("  " + "  " * d + "}")
            lines.append("  " + "  " * d + f"affine.yield %in{k}_{d} : {t.element}")
        lines.append("  }")
        lines.append(f"  vector.print %sum{k} : {t.element}")
    lines.append("  return")
    lines.append("}")
    return "\n".join(lines) + "\n"


def build(text: str, reps: int, parallel: bool, work: Path, name: str) -> Path:
    found = oracle.mlir_opt()
    assert found is not None, "mlir-opt is not available"
    exe, env = found
    src = work / f"{name}.mlir"
    low = work / f"{name}.ll.mlir"
    src.write_text(driver(text, reps))
    p = subprocess.run([str(exe), str(src), *LOWER, "-o", str(low)], env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"mlir-opt failed on {name}:\n{p.stderr[:2000]}")
    return low


def run(low: Path, parallel: bool) -> tuple[float, list[float]]:
    found = oracle.mlir_runner()
    assert found is not None
    runner, libs, env = found
    r = subprocess.run(
        [str(runner), str(low), "-O3", "-e", "main", "-entry-point-result=void", "-shared-libs=" + ",".join(libs)],
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    if r.returncode != 0:
        raise RuntimeError(f"mlir-runner failed:\n{r.stderr[:2000]}")
    nums = [float(x) for x in re.findall(r"-?\d+(?:\.\d*)?(?:e[+-]?\d+)?", r.stdout)]
    return nums[0], nums[1:]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kernels", nargs="+")
    ap.add_argument("--tile", type=int, default=None, help="as optimize --tile (default: automatic)")
    ap.add_argument("--parallel", action="store_true")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument(
        "--pipeline", default=None, help="time an mlir-opt pass pipeline instead (e.g. '-affine-loop-tile -affine-super-vectorize=virtual-vector-size=4')"
    )
    args = ap.parse_args()
    from affine_lsp.transforms.optimize import optimize_document

    speedups = []
    print(f"{'kernel':<16} {'original s':>11} {'optimized s':>12} {'speedup':>8}  outcome")
    for path in args.kernels:
        text = Path(path).read_text()
        if args.pipeline:
            try:
                new, note = oracle.opt(text, *args.pipeline.split()), args.pipeline
                m = re.search(r"^module( attributes \{[^\n]*\})? \{\n", new, re.M)
                body = new.rstrip()
                if m is not None and body.endswith("}"):  # the driver's @main goes next to @kernel (aliases kept)
                    new = new[: m.start()] + body[m.end() : -1]
            except RuntimeError as e:
                print(f"{Path(path).stem:<16} mlir-opt failed: {str(e).splitlines()[1][:100] if len(str(e).splitlines()) > 1 else e}", flush=True)
                speedups.append(1.0)
                continue
        else:
            new, outcomes, _ = optimize_document(text, tile=args.tile, parallel=args.parallel)
            note = "; ".join(("done" if o.done else "left alone: " + o.message)[:60] for o in outcomes)
        if new == text:  # left alone: the same code, nothing to time
            speedups.append(1.0)
            print(f"{Path(path).stem:<16} {'-':>11} {'-':>12} {1.0:>7.2f}x  unchanged: {note}", flush=True)
            continue
        with tempfile.TemporaryDirectory() as d:
            work = Path(d)
            lo = build(text, args.reps, False, work, "orig")
            ln = build(new, args.reps, args.parallel, work, "opt")
            t_o, t_n = [], []
            sums_o = sums_n = None
            for _ in range(args.rounds):
                a, sums_o = run(lo, False)
                b, sums_n = run(ln, args.parallel)
                t_o.append(a)
                t_n.append(b)
        ok = (
            sums_o is not None
            and sums_n is not None
            and len(sums_o) == len(sums_n)
            and all(math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9) for x, y in zip(sums_o, sums_n))
        )
        mo, mn = statistics.median(t_o), statistics.median(t_n)
        sp = mo / mn
        speedups.append(sp)
        name = Path(path).stem
        print(f"{name:<16} {mo:>11.4f} {mn:>12.4f} {sp:>7.2f}x  {'' if ok else 'WRONG '}{note}", flush=True)
    geo = math.exp(sum(math.log(s) for s in speedups) / len(speedups))
    print(f"geomean speedup: {geo:.2f}x over {len(speedups)} kernels")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
