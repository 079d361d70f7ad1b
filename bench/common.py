"""What the benchmarks that time whole programs share (``bench/runtime.py``,
``bench/anchors.py``, ``bench/parallel.py``): the kernels of ``bench/kernels``
and their selection, the statuses of an outcome, the program's harness and
its lowering (:mod:`affine_lsp.toolchain`, sequential or through a parallel
runtime), one timed run with ``mlir-runner`` and its values, geomeans."""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from affine_lsp import harness, toolchain  # noqa: E402

KERNELS = ROOT / "bench" / "kernels"

SLOWDOWN_BUDGET = 10  # a run may take this many times the original's calls (+20 s), else it is a timeout

# Statuses of a variant on a kernel.
OK, UNCHANGED, WRONG, REJECTED, CRASH, FAILED, TIMEOUT = "ok", "unchanged", "wrong", "rejected", "crash", "failed", "timeout"


@dataclass
class Outcome:
    kernel: str
    variant: str
    status: str = OK
    detail: str = ""
    text: str | None = field(default=None, repr=False)
    lowered: str | None = field(default=None, repr=False)
    transform_seconds: float | None = None
    times: list[float] = field(default_factory=list)
    cpu_times: list[float] = field(default_factory=list)
    measurement: harness.Measurement | None = field(default=None, repr=False)
    predictions: list[dict[str, object]] = field(default_factory=list)
    speedup: float | None = None
    speedup_bound: float | None = None  # timeouts: below this
    budget: float | None = None  # seconds a run may take
    threads: int = 0  # worker threads of affine.parallel loops (0: lowered sequentially)
    parallel_lib: Path | None = None  # the runtime library the threads need (toolchain.parallel_runtime)

    def median(self, clock: str) -> float:
        """The median time of a call; a threaded variant's is always wall time
        (its CPU time adds up the threads' time)."""
        return harness.median(self.cpu_times if clock == "cpu" and not self.threads else self.times)


def kernel_names(kernels_dir: Path) -> list[str]:
    """The kernels of ``kernels_dir``: its ``*.mlir`` files' stems, sorted."""
    return sorted(p.stem for p in Path(kernels_dir).glob("*.mlir"))


def select_kernels(kernels_dir: Path, spec: str | None) -> list[str]:
    """The kernels a ``--kernels a,b`` option names, in its order (every
    kernel when ``spec`` is empty); ValueError naming the unknown ones."""
    kernels = kernel_names(kernels_dir)
    if not spec:
        return kernels
    wanted = [k.strip() for k in spec.split(",") if k.strip()]
    unknown = [k for k in wanted if k not in kernels]
    if unknown:
        raise ValueError(f"unknown kernels: {', '.join(unknown)} (have: {', '.join(kernels)})")
    return wanted


def env() -> dict[str, str]:
    """The environment of a subprocess running this checkout's ``affine_lsp``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def prepare(out: Outcome, tc: toolchain.Toolchain, sig: harness.Signature, repeat: int) -> None:
    """Add the harness and lower (rejected: mlir-opt refuses the program)."""
    if out.status != OK or out.text is None:
        return
    try:
        new_sig = harness.signature_of(out.text, sig.name)
        if new_sig.inputs != sig.inputs:
            out.status, out.detail = FAILED, "the signature of @kernel changed"
            return
        program = harness.build(out.text, new_sig, repeat, sig.written)
        rt = toolchain.parallel_runtime(tc) if out.threads else None
        if out.threads and rt is None:
            out.status, out.detail = (
                FAILED,
                f"no OpenMP runtime ({toolchain.OPENMP_HINT}) and no {toolchain.ASYNC_RUNTIME_LIB} beside the runner-utils libraries",
            )
            return
        if rt is None:
            out.lowered = toolchain.lower(tc, program, toolchain.VECTOR_LOWERING, timeout=900)
            return
        try:
            out.lowered = toolchain.lower(tc, program, rt.lowering(out.threads), timeout=900)
        except toolchain.CompileError as e:
            fallback = toolchain.parallel_runtime(tc, prefer="async")
            if rt.kind != "openmp" or fallback is None or fallback.kind != "async" or "crashed" in str(e):
                raise
            # The OpenMP lowering refused the program (an alloca in a parallel
            # body): the async runtime runs it, and the outcome says so.
            out.lowered = toolchain.lower(tc, program, fallback.lowering(out.threads), timeout=900)
            out.detail = f"lowered through {fallback.describe()}: the OpenMP lowering refused it: {str(e).splitlines()[-1][:300]}"
            rt = fallback
        out.parallel_lib = rt.lib
    except harness.HarnessError as e:
        out.status, out.detail = FAILED, str(e)
    except toolchain.CompileError as e:
        out.status = CRASH if "crashed" in str(e) else REJECTED
        out.detail = str(e)[-2000:]


def time_round(out: Outcome, tc: toolchain.Toolchain, sig: harness.Signature, repeat: int, budget: float) -> None:
    if out.status != OK or out.lowered is None:
        return
    try:
        stdout = toolchain.run(tc, out.lowered, harness.ENTRY, timeout=budget, extra_libs=(out.parallel_lib,) if out.parallel_lib else ())
        m = harness.parse_output(stdout, sig, repeat, sig.written)
    except toolchain.RunError as e:
        if "did not finish" in str(e):
            out.budget = budget
            out.status, out.detail = TIMEOUT, f"a run of {repeat + 1} calls took more than {budget:.0f} s"
        else:
            out.status, out.detail = CRASH, str(e)[-2000:]
        return
    except harness.HarnessError as e:
        out.status, out.detail = FAILED, str(e)
        return
    out.times.extend(m.times)
    out.cpu_times.extend(m.cpu_times)
    if out.measurement is None:
        out.measurement = m


def geomean(xs: Sequence[float]) -> float:
    xs = [x for x in xs if x > 0 and math.isfinite(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else math.nan


def fmt(x: float | None, suffix: str = "") -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.2f}{suffix}"


def find_toolchain(mlir_bin: str | None) -> toolchain.Toolchain | None:
    """The MLIR toolchain a benchmark runs (``--mlir-bin`` or the one
    :func:`affine_lsp.toolchain.find` finds); None, with the reason on
    stderr, when there is none."""
    try:
        return toolchain.find(mlir_bin)
    except toolchain.ToolchainError as e:
        print(f"error: {e}", file=sys.stderr)
        return None


def log(msg: str) -> None:
    """A benchmark's progress line, on stderr at once."""
    print(msg, file=sys.stderr, flush=True)
