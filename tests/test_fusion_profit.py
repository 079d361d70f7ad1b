"""Fusion's profitability (issue #29): fusion never multiplies the work.

* A 2mm-style chain (the first matrix product feeds the second one's ``k``
  loop): the only fusion that saves storage recomputes the producer for
  every ``j``; the cost model declines it, ``fuse --all`` leaves the file
  alone, ``--force`` applies it (and the result still computes the same
  values), and the prediction says how much more work it is.
* A producer-consumer pair with no recomputation is still fused, its
  prediction is profitable, and the fused program prints the same values
  as the original (mlir-runner).
* The cache sizes the models use come from sysfs, with defaults.
"""

from __future__ import annotations

import pytest

from affine_lsp.cli import main as cli_main
from affine_lsp.source.document import Document
from affine_lsp.transforms.fusion import PRODUCER_CONSUMER, _depth_order, analyze_pair, fuse_all, fusion_candidates
from affine_lsp.transforms.fusion_predict import predict
from affine_lsp.transforms.machine import DEFAULTS, parse_size, read_caches
from tests import oracle
from tests.test_fusion_harness import observable_program, run, top_level_nests

needs_runner = pytest.mark.skipif(not oracle.runner_available(), reason="mlir-runner is not installed")

# tmp = A * B (initialised, then accumulated: two producer stores), then
# D = D + tmp * C: tmp[i][k] is read in the consumer's innermost loop.
TWO_MM = """func.func @two_mm(%tmp: memref<8x6xf32>, %A: memref<8x5xf32>, %B: memref<5x6xf32>, %C: memref<6x7xf32>, %D: memref<8x7xf32>) {
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 6 {
      affine.store %z, %tmp[%i, %j] : memref<8x6xf32>
      affine.for %k = 0 to 5 {
        %a = affine.load %A[%i, %k] : memref<8x5xf32>
        %b = affine.load %B[%k, %j] : memref<5x6xf32>
        %t = affine.load %tmp[%i, %j] : memref<8x6xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %t, %p : f32
        affine.store %s, %tmp[%i, %j] : memref<8x6xf32>
      }
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 7 {
      affine.for %k = 0 to 6 {
        %t = affine.load %tmp[%i, %k] : memref<8x6xf32>
        %c = affine.load %C[%k, %j] : memref<6x7xf32>
        %x = affine.load %D[%i, %j] : memref<8x7xf32>
        %p = arith.mulf %t, %c : f32
        %s = arith.addf %x, %p : f32
        affine.store %s, %D[%i, %j] : memref<8x7xf32>
      }
    }
  }
  return
}
"""

# tmp = 2 * A elementwise, C = tmp + B: fused, tmp becomes one element.
PRODUCER_CONSUMER_PAIR = """func.func @pc(%A: memref<16x12xf32>, %B: memref<16x12xf32>, %C: memref<16x12xf32>) {
  %c2 = arith.constant 2.0 : f32
  %tmp = memref.alloc() : memref<16x12xf32>
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 12 {
      %a = affine.load %A[%i, %j] : memref<16x12xf32>
      %m = arith.mulf %a, %c2 : f32
      affine.store %m, %tmp[%i, %j] : memref<16x12xf32>
    }
  }
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 12 {
      %t = affine.load %tmp[%i, %j] : memref<16x12xf32>
      %b = affine.load %B[%i, %j] : memref<16x12xf32>
      %s = arith.addf %t, %b : f32
      affine.store %s, %C[%i, %j] : memref<16x12xf32>
    }
  }
  memref.dealloc %tmp : memref<16x12xf32>
  return
}
"""


def _pair(text: str):
    doc = Document(text)
    func = next(iter(doc.sections[0].functions()))
    nests = [op for op in func.regions[0].blocks[0].operations if op.name == "affine.for"]
    return doc, nests, analyze_pair(PRODUCER_CONSUMER, nests[0], nests[1])


def test_cost_model_declines_the_2mm_inner_depth_fusion():
    _, _, pa = _pair(TWO_MM)
    assert pa.ok and pa.profit is not None
    assert pa.max_depth == 3
    # only depth 1 is within the tolerance: the i rows of tmp are made just
    # before the consumer's row i reads them (no recomputation)
    assert list(_depth_order(pa, False, False)) == [1]
    shallow = predict(pa.kind, pa.profit, 1, pa.memrefs)
    assert shallow.profitable and shallow.work_ratio == 1.0
    deep = predict(pa.kind, pa.profit, 3, pa.memrefs)
    assert not deep.profitable
    # the producer (8*6*5 multiply-adds) runs once per j of the consumer (7)
    assert deep.work_ratio is not None and deep.work_ratio > 3
    assert "recomputes the producer 7.0x per element" in deep.summary
    applied: list = []
    fused = fuse_all(TWO_MM, applied=applied)
    assert [(line, res.depth, res.prediction.profitable) for line, res in applied] == [(16, 1, True)]
    # the inner pair left in the fused nest is not fused (depth 2 there = 3)
    assert fuse_all(fused) == fused
    _, inner = _inner_pair(fused)
    assert list(_depth_order(inner, False, False)) == []


def _inner_pair(text: str):
    doc = Document(text)
    func = next(iter(doc.sections[0].functions()))
    outer = next(op for op in func.regions[0].blocks[0].operations if op.name == "affine.for")
    nests = [op for op in outer.regions[0].blocks[0].operations if op.name == "affine.for"]
    assert len(nests) == 2
    return doc, analyze_pair(PRODUCER_CONSUMER, nests[0], nests[1])


def test_producer_consumer_without_recomputation_is_still_fused():
    doc, nests, pa = _pair(PRODUCER_CONSUMER_PAIR)
    assert next(iter(_depth_order(pa, False, False))) == 2
    ts = fusion_candidates(doc, nests[1])
    assert len(ts) == 1
    pred = ts[0].prediction
    assert pred is not None and pred.profitable
    assert pred.summary == "fuses 2 nests; %tmp no longer written to memory; compute +0%"
    assert pred.work_ratio is not None and pred.work_ratio <= 1.0
    fused = fuse_all(PRODUCER_CONSUMER_PAIR)
    assert top_level_nests(fused, "pc") == 1


@needs_runner
def test_fused_pair_computes_the_same_values():
    fused = fuse_all(PRODUCER_CONSUMER_PAIR)
    assert top_level_nests(fused, "pc") == 1
    before, after = observable_program(PRODUCER_CONSUMER_PAIR, "pc"), observable_program(fused, "pc")
    assert before is not None and after is not None
    out = run(before)
    assert "data =" in out
    assert run(after) == out


def test_fuse_all_skips_the_unprofitable_fusion_and_force_applies_it(tmp_path, capsys):
    src = tmp_path / "two_mm.mlir"
    src.write_text(TWO_MM)
    out = tmp_path / "out.mlir"
    assert cli_main(["fuse", "--all", str(src), "-o", str(out)]) == 0
    fused = out.read_text()
    assert top_level_nests(fused, "two_mm") == 1
    err = capsys.readouterr().err
    assert err.count("remark:") == 1
    assert "remark: fused (producer-consumer, depth 1, compute +0%" in err
    assert "not profitable" not in err
    assert cli_main(["fuse", "--all", "--force", str(src), "-o", str(out)]) == 0
    forced = out.read_text()
    assert forced != fused
    err = capsys.readouterr().err
    assert err.count("remark:") == 2
    assert "remark: fused (producer-consumer, depth 2" in err
    assert "predicted not profitable: legal, but recomputes the producer 7.0x per element: ~3.5x more work" in err


@needs_runner
def test_forced_fusion_still_computes_the_same_values():
    forced = fuse_all(TWO_MM, force=True)
    assert forced != fuse_all(TWO_MM)
    before, after = observable_program(TWO_MM, "two_mm"), observable_program(forced, "two_mm")
    assert before is not None and after is not None
    assert run(after) == run(before)


def test_fuse_loop_declines_and_report_shows_the_prediction(tmp_path, capsys):
    fused = fuse_all(TWO_MM)
    src = tmp_path / "two_mm_d1.mlir"
    src.write_text(fused)
    inner_consumer = 1 + fused.splitlines().index("    affine.for %j = 0 to 7 {")
    out = tmp_path / "out.mlir"
    # declined: a --loop that cannot be met is status 1, as for every
    # transformation; the file is written unchanged
    assert cli_main(["fuse", "--loop", str(inner_consumer), str(src), "-o", str(out)]) == 1
    assert out.read_text() == fused
    err = capsys.readouterr().err
    assert f":{inner_consumer}:5: error: cannot fuse this loop: Fuse loops here (producer-consumer, depth 2" in err
    assert "predicted not profitable: legal, but recomputes" in err and "(--force applies it)" in err
    assert cli_main(["fuse", "--report", "--loop", str(inner_consumer), str(src), "-o", str(out)]) == 0
    rep = out.read_text()
    assert "No depth is profitable under MLIR's cost model." in rep
    assert "Legal at depth 2 (validated on the generated code); not fused without --force. Predicted: not profitable" in rep


def test_cache_sizes_from_sysfs_and_defaults(tmp_path):
    for i, (level, kind, size) in enumerate([(1, "Data", "48K"), (1, "Instruction", "32K"), (2, "Unified", "2048K")]):
        d = tmp_path / f"index{i}"
        d.mkdir()
        (d / "level").write_text(f"{level}\n")
        (d / "type").write_text(f"{kind}\n")
        (d / "size").write_text(f"{size}\n")
    c = read_caches(tmp_path)
    assert (c.l1, c.l2, c.l3, c.source) == (48 * 1024, 2 * 1024 * 1024, DEFAULTS[3], "sysfs")
    assert c.level_holding(40 * 1024) == 1 and c.level_holding(100 * 1024) == 2 and c.level_holding(10**9) is None
    d = read_caches(tmp_path / "missing")
    assert (d.l1, d.l2, d.l3, d.source) == (DEFAULTS[1], DEFAULTS[2], DEFAULTS[3], "defaults")
    assert parse_size("1M") == 1024 * 1024 and parse_size("bogus") is None
