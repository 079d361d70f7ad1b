"""Timing a function before and after a transformation: what ``affine-lsp
time`` and the editor's "Time this function" report.

:func:`apply_command` runs an affine-lsp transformation command line (``"tile
--sizes 32,32"``) in-process on a text, as the CLI would; :func:`time_function`
compiles and runs the original and the transformed function with the
harness of :mod:`affine_lsp.harness` and compares their values.
"""

from __future__ import annotations

import contextlib
import io
import os
import shlex
import tempfile
import time
from dataclasses import dataclass, field

from affine_lsp import harness, toolchain
from affine_lsp.atomic_write import write_atomic

# Commands that do not rewrite a program.
NOT_TRANSFORMS = frozenset({"check", "deps", "plot", "print", "serve", "time"})


class TransformError(Exception):
    """The ``--after`` command is not a transformation, or failed."""


def apply_command(text: str, command_line: str) -> tuple[str, str]:
    """``(transformed text, what the command printed on stderr)`` of the
    affine-lsp subcommand ``command_line`` (without the file) run on
    ``text`` in this process; TransformError when it is not a
    transformation or fails."""
    from affine_lsp import cli

    try:
        words = shlex.split(command_line)
    except ValueError as e:
        raise TransformError(f"cannot read the command {command_line!r}: {e}") from None
    if not words:
        raise TransformError("the command is empty: give a transformation such as 'tile --sizes 32,32'")
    if words[0] in ("affine-lsp", "affine_lsp"):
        words = words[1:]
    transforms = sorted(n for n in cli.SUBCOMMANDS if n not in NOT_TRANSFORMS)
    if not words or words[0] not in transforms:
        got = words[0] if words else ""
        raise TransformError(f"{got!r} is not a transformation command; use one of: {', '.join(transforms)}")
    with tempfile.TemporaryDirectory(prefix="affine-lsp-") as d:
        src = os.path.join(d, "input.mlir")
        out = os.path.join(d, "output.mlir")
        write_atomic(src, text.encode("utf-8"), fsync=False)  # a scratch file: no need to reach the disk
        err = io.StringIO()
        stdout = io.StringIO()
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(stdout):
                status = cli.main([*words, src, "-o", out])
        except SystemExit as e:  # argparse: a bad option
            msg = err.getvalue().strip().splitlines()
            raise TransformError(f"affine-lsp {command_line}: {msg[-1] if msg else f'exit status {e.code}'}") from None
        remarks = err.getvalue().replace(src, "<input>")
        if status != 0:
            raise TransformError(f"affine-lsp {command_line} failed (exit status {status}):\n{remarks.strip()}")
        if not os.path.exists(out):
            raise TransformError(f"affine-lsp {command_line} wrote no output")
        with open(out, encoding="utf-8") as f:
            return f.read(), remarks


@dataclass
class Run:
    label: str
    measurement: harness.Measurement | None = None
    error: str | None = None  # compile or run failure


@dataclass
class TimingReport:
    function: str
    toolchain: str
    original: Run
    after: Run | None = None
    command: str | None = None
    unchanged: bool = False
    remarks: str = ""
    disagreements: list[str] = field(default_factory=list)

    @property
    def speedup(self) -> float | None:
        a = self.after.measurement if self.after else None
        o = self.original.measurement
        if a is None or o is None or a.median <= 0:
            return None
        return o.median / a.median

    @property
    def cpu_speedup(self) -> float | None:
        """The speedup in the process's CPU time (robust to other processes)."""
        a = self.after.measurement if self.after else None
        o = self.original.measurement
        if a is None or o is None or a.cpu_median <= 0:
            return None
        return o.cpu_median / a.cpu_median

    @property
    def agree(self) -> bool | None:
        if self.after is None or self.after.measurement is None or self.original.measurement is None:
            return None
        return not self.disagreements

    def ok(self) -> bool:
        """No failure and the values agree."""
        if self.original.error or (self.after is not None and self.after.error):
            return False
        return self.agree is not False

    def summary(self) -> str:
        """One line for a notification."""
        o = self.original.measurement
        if o is None:
            return f"@{self.function}: the original failed: {_first_line(self.original.error)}"
        head = f"@{self.function}: original {_ms(o.median)}"
        if self.after is None:
            return head
        a = self.after.measurement
        if a is None:
            return f"{head}; after '{self.command}' failed: {_first_line(self.after.error)}"
        verdict = "values agree" if self.agree else "values DISAGREE"
        same = " (unchanged)" if self.unchanged else ""
        return f"{head}, after '{self.command}'{same} {_ms(a.median)}: {self.speedup:.2f}x, {verdict}"

    def text(self) -> str:
        """The report of ``affine-lsp time``."""
        lines = [f"@{self.function} ({self.toolchain})"]
        runs = [self.original] + ([self.after] if self.after else [])
        width = max(len(r.label) for r in runs) + 1
        for r in runs:
            m = r.measurement
            if m is None:
                lines.append(f"{r.label + ':':{width}} failed: {r.error}")
            else:
                samples = f"{len(m.times)} calls" if m.batch == 1 else f"{len(m.times)} samples of {m.batch} calls"
                lines.append(
                    f"{r.label + ':':{width}} median {_ms(m.median)} per call over {samples} "
                    f"(min {_ms(min(m.times))}, max {_ms(max(m.times))}; CPU time median {_ms(m.cpu_median)})"
                )
        if self.after is not None and self.unchanged:
            lines.append(f"(the transformation left @{self.function} unchanged)")
        if self.speedup is not None:
            cpu = f" ({self.cpu_speedup:.2f}x in CPU time)" if self.cpu_speedup is not None else ""
            lines.append(f"speedup: {self.speedup:.2f}x{cpu}")
        if self.agree is True:
            o = self.original.measurement
            assert o is not None
            n = len(o.checks)
            tol = ", ".join(sorted({f"{t:g}" for t in o.rtols})) or "-"
            what = f"{n} written array{'s' if n != 1 else ''}" + (f", {len(o.results)} results" if o.results else "")
            lines.append(f"values agree ({what}; checksums within {tol} relative)")
        elif self.agree is False:
            lines.append("values DISAGREE: " + "; ".join(self.disagreements))
        return "\n".join(lines) + "\n"

    def as_json(self) -> dict[str, object]:
        def run_json(r: Run | None) -> dict[str, object] | None:
            if r is None:
                return None
            m = r.measurement
            return {
                "label": r.label,
                "error": r.error,
                "times": list(m.times) if m else None,
                "cpu_times": list(m.cpu_times) if m else None,
                "median": m.median if m else None,
                "calls_per_sample": m.batch if m else None,
            }

        return {
            "function": self.function,
            "toolchain": self.toolchain,
            "command": self.command,
            "original": run_json(self.original),
            "after": run_json(self.after),
            "unchanged": self.unchanged,
            "speedup": self.speedup,
            "cpu_speedup": self.cpu_speedup,
            "agree": self.agree,
            "disagreements": self.disagreements,
        }


def _ms(seconds: float) -> str:
    """A time as ms (1 ms and more), us or ns, three significant digits
    below 10 ms."""
    if seconds >= 0.01:
        return f"{seconds * 1000:.1f} ms"
    if seconds >= 0.001:
        return f"{seconds * 1000:.2f} ms"
    if seconds >= 1e-6:
        return f"{seconds * 1e6:.3g} us"
    return f"{seconds * 1e9:.3g} ns"


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0] if text and text.strip() else "unknown error"


AFTER_TIMEOUT_MIN = 60.0
"""The least time limit of a program after the first (seconds)."""
AFTER_TIMEOUT_FACTOR = 10.0
"""A program after the first may take this many times the first one's
compile-and-run time (calibrated batches last about a sample's target, a
transformed program may be slower)."""


def measure_run(
    tc: toolchain.Toolchain,
    text: str,
    func: str | None,
    repeat: int,
    label: str,
    written: tuple[int, ...] | None = None,
    batch: int = 1,
    timeout: float = 600,
) -> Run:
    """One program timed: a Run with its measurement, or the error."""
    try:
        return Run(label, harness.measure(tc, text, func, repeat, written=written, batch=batch, timeout=timeout))
    except (toolchain.CompileError, toolchain.RunError, harness.HarnessError) as e:
        return Run(label, error=str(e))


def time_function(
    text: str,
    func: str | None = None,
    after: str | None = None,
    repeat: int = 5,
    tc: toolchain.Toolchain | None = None,
    *,
    mlir_bin: str | None = None,
    setting: str | None = None,
) -> TimingReport:
    """Time ``@func`` of ``text``, and after the transformation ``after``.

    Raises HarnessError (the function cannot be timed), TransformError (a
    bad ``after`` command) and ToolchainError (no toolchain: ``tc``, else
    found from ``mlir_bin``/``setting``), in that order, before running
    anything; compile and run failures are in the report."""
    sig = harness.signature_of(text, func)
    new_text, remarks = (None, "")
    if after is not None:
        new_text, remarks = apply_command(text, after)
        new_sig = harness.signature_of(new_text, sig.name)
        if new_sig.inputs != sig.inputs or new_sig.results != sig.results:
            raise TransformError(f"affine-lsp {after} changed the signature of @{sig.name}")
    if tc is None:
        tc = toolchain.find(mlir_bin, setting=setting)
    written = tuple(sorted(set(sig.written)))
    started = time.monotonic()
    report = TimingReport(sig.name, tc.describe(), measure_run(tc, text, sig.name, repeat, "original", written))
    # The programs after the first get a time limit scaled to it: the
    # calibrated ones run about as long, a transformed one may be slower.
    scaled = min(600.0, max(AFTER_TIMEOUT_MIN, AFTER_TIMEOUT_FACTOR * (time.monotonic() - started)))
    # Calibration: a function of microseconds is timed in batches of calls
    # (each sample >= harness.CALIBRATION_TARGET), the same batch for both
    # programs, so that its figure is not the clock's resolution.
    batch = 1
    for _ in range(3):  # a first batch may still be short: one call costs less than a clock reading
        m = report.original.measurement
        if m is None or harness.calls_per_sample(m) == batch:
            break
        batch = harness.calls_per_sample(m)
        report.original = measure_run(tc, text, sig.name, repeat, "original", written, batch, scaled)
    if after is not None and new_text is not None:
        report.command = after
        report.remarks = remarks
        report.unchanged = _function_text(new_text, sig.name) == _function_text(text, sig.name)
        report.after = measure_run(tc, new_text, sig.name, repeat, f"after '{after}'", written, batch, scaled)
        o, a = report.original.measurement, report.after.measurement
        if o is not None and a is not None:
            report.disagreements = harness.compare(o, a)
    return report


def _function_text(text: str, name: str) -> str:
    sig = harness.signature_of(text, name)
    return text[sig.section_start : sig.section_end]
