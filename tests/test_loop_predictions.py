"""The predictions of tiling, interchange and unroll-and-jam (issue #29):
footprints against the machine's caches, unit-stride accesses innermost,
loads shared between unrolled copies; ``--all`` applies only what is
predicted profitable, ``--force`` the rest, and every remark carries the
prediction."""

from __future__ import annotations

from pathlib import Path

from affine_lsp.cli import main as cli_main
from affine_lsp.source.document import Document
from affine_lsp.transforms.band import perfect_band
from affine_lsp.transforms.interchange import interchange_candidates
from affine_lsp.transforms.loop_models import footprint_bytes, forms_under, loop_spans, shared_loads, suggest_sizes, tile_prediction, unroll_jam_prediction
from affine_lsp.transforms.machine import caches
from affine_lsp.transforms.tile import tile_candidates
from affine_lsp.transforms.unroll_jam import unroll_jam_candidates

# mvt: x1 = A y1 (row-wise), then x2 = A^T y2 (column-wise: %j innermost
# walks a column of A)
MVT = """func.func @mvt(%A: memref<2000x2000xf32>, %x1: memref<2000xf32>, %x2: memref<2000xf32>, %y1: memref<2000xf32>, %y2: memref<2000xf32>) {
  affine.for %i = 0 to 2000 {
    affine.for %j = 0 to 2000 {
      %a = affine.load %A[%i, %j] : memref<2000x2000xf32>
      %y = affine.load %y1[%j] : memref<2000xf32>
      %x = affine.load %x1[%i] : memref<2000xf32>
      %p = arith.mulf %a, %y : f32
      %s = arith.addf %x, %p : f32
      affine.store %s, %x1[%i] : memref<2000xf32>
    }
  }
  affine.for %i = 0 to 2000 {
    affine.for %j = 0 to 2000 {
      %a = affine.load %A[%j, %i] : memref<2000x2000xf32>
      %y = affine.load %y2[%j] : memref<2000xf32>
      %x = affine.load %x2[%i] : memref<2000xf32>
      %p = arith.mulf %a, %y : f32
      %s = arith.addf %x, %p : f32
      affine.store %s, %x2[%i] : memref<2000xf32>
    }
  }
  return
}
"""

# an elementwise copy: unrolled copies share no load; its data (2 KiB) fit in any cache
SMALL_COPY = """func.func @copy(%A: memref<16x16xf32>, %B: memref<16x16xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%i, %j] : memref<16x16xf32>
      affine.store %a, %B[%i, %j] : memref<16x16xf32>
    }
  }
  return
}
"""


# column sums: the inner loop walks down a column (across cache lines);
# unrolling %j makes the copies read adjacent elements of each line
COLUMN_SUMS = """func.func @colsum(%A: memref<64x64xf32>, %s: memref<64xf32>) {
  affine.for %j = 0 to 64 {
    affine.for %i = 0 to 64 {
      %a = affine.load %A[%i, %j] : memref<64x64xf32>
      %t = affine.load %s[%j] : memref<64xf32>
      %u = arith.addf %t, %a : f32
      affine.store %u, %s[%j] : memref<64xf32>
    }
  }
  return
}
"""


def _top_loops(text: str):
    doc = Document(text)
    func = next(iter(doc.sections[0].functions()))
    return doc, [op for op in func.regions[0].blocks[0].operations if op.name == "affine.for"]


def test_footprint_of_the_whole_nest_and_of_a_tile():
    _, loops = _top_loops(MVT)
    forms = forms_under(loops[0])
    spans = loop_spans(loops[0])
    assert spans is not None
    # A (2000x2000 floats) + y1 + x1
    assert footprint_bytes(forms, spans) == 4 * (2000 * 2000 + 2000 + 2000)
    iv_i, iv_j = list(spans)
    assert footprint_bytes(forms, {iv_i: (32, 1), iv_j: (32, 1)}) == 4 * (32 * 32 + 32 + 32)


def test_tiling_predicted_from_the_footprint():
    _, loops = _top_loops(MVT)
    band = perfect_band(loops[0])
    p = tile_prediction(band, [32, 32])
    assert p is not None and p.profitable
    assert p.summary == "a 32x32 tile touches 4 KiB (fits in L1) of the nest's 15.3 MiB"
    sizes = suggest_sizes(band)
    assert sizes is not None and len(sizes) == 2 and sizes[0] == sizes[1]
    assert footprint_bytes(forms_under(loops[0]), {lp: (sizes[0], 1) for lp in loop_spans(loops[0]) or {}}) <= caches().l1  # type: ignore[operator]
    _, small = _top_loops(SMALL_COPY)
    q = tile_prediction(perfect_band(small[0]), [4, 4])
    assert q is not None and not q.profitable and "already fits in L2" in q.summary
    one = tile_prediction([small[0]], [4])
    assert one is not None and not one.profitable and "strip-mining keeps the execution order" in one.summary


def test_code_actions_carry_the_predictions():
    doc, loops = _top_loops(MVT)
    tiles = tile_candidates(doc, loops[1], (32,))
    assert tiles[0].prediction is not None and tiles[0].prediction.profitable
    inter = [t for t in interchange_candidates(doc, loops[1]) if t.title.startswith("Interchange for locality")]
    assert len(inter) == 1
    p = inter[0].prediction
    assert p is not None and p.profitable and p.summary == "4/4 accesses unit-stride or invariant along %i innermost (was 3/4)"
    swap_first = [t for t in interchange_candidates(doc, loops[0]) if t.title.startswith("Interchange loops")]
    assert swap_first and swap_first[0].prediction is not None and not swap_first[0].prediction.profitable
    assert "worse locality" in swap_first[0].prediction.summary
    jam = unroll_jam_candidates(doc, loops[0], 4)
    assert jam[0].prediction is not None and jam[0].prediction.profitable
    # y1[j] is loaded by every copy of the i loop's body: 3 of the 4*3 loads are shared
    assert shared_loads(loops[0], 4) == (3, 12)
    assert jam[0].prediction.summary == "the 4 copies share 3 of 12 loads (register reuse)"
    _, small = _top_loops(SMALL_COPY)
    p2 = unroll_jam_prediction(small[0], 4)
    assert not p2.profitable and p2.summary == "no load is shared between the copies: no register reuse"


def test_unroll_and_jam_along_cache_lines_is_profitable():
    _, loops = _top_loops(COLUMN_SUMS)
    assert shared_loads(loops[0], 4) == (0, 8)
    p = unroll_jam_prediction(loops[0], 4)
    assert p.profitable and p.summary == "the 4 copies read adjacent elements: 2 load(s) share cache lines"


def test_cli_all_applies_only_what_is_predicted_profitable(tmp_path: Path, capsys):
    src = tmp_path / "copy.mlir"
    src.write_text(SMALL_COPY)
    out = tmp_path / "out.mlir"
    assert cli_main(["unroll-jam", "--factor", "4", "-v", str(src), "-o", str(out)]) == 0
    assert out.read_text() == SMALL_COPY
    assert "remark: not unrolled and jammed: predicted not profitable: no load is shared between the copies" in capsys.readouterr().err
    assert cli_main(["unroll-jam", "--factor", "4", "--force", str(src), "-o", str(out)]) == 0
    assert "step 4" in out.read_text()
    assert "remark: unrolled and jammed by 4; predicted not profitable: no load is shared" in capsys.readouterr().err
    assert cli_main(["tile", "-v", str(src), "-o", str(out)]) == 0
    assert out.read_text() == SMALL_COPY
    assert "remark: not tiled: predicted not profitable: the nest's data (2 KiB) already fits in L2" in capsys.readouterr().err
    assert cli_main(["tile", "--force", str(src), "-o", str(out)]) == 0
    assert "step 32" in out.read_text()
    assert "remark: tiled 2 loop(s) by 32x32; predicted not profitable: the nest's data (2 KiB)" in capsys.readouterr().err


def test_cli_remarks_on_rewritten_loops_carry_the_prediction(tmp_path: Path, capsys):
    src = tmp_path / "mvt.mlir"
    src.write_text(MVT)
    out = tmp_path / "out.mlir"
    assert cli_main(["interchange", str(src), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"{src}:12:3: remark: interchanged to order 1,0; predicted: 4/4 accesses unit-stride or invariant along %i innermost (was 3/4)" in err
    assert cli_main(["tile", "--sizes", "auto", str(src), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.count("remark: tiled 2 loop(s) by ") == 2 and err.count("; predicted: a ") == 2
    assert cli_main(["unroll-jam", "--factor", "4", str(src), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.count("remark: unrolled and jammed by 4; predicted: the 4 copies share 3 of 12 loads (register reuse)") == 2
    assert cli_main(["unroll", "--factor", "2", "--loop", "3", str(src), "-o", str(out)]) == 0
    assert "remark: unrolled by 2; no prediction (LLVM -O3 unrolls loops itself)" in capsys.readouterr().err
