"""Tiling and interchange without running anything: legality from the exact
distance sets, skew factors, the shapes of the generated loops, and the
``affine-lsp tile`` / ``affine-lsp interchange`` command lines."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from affine_lsp.source.document import Document
from affine_lsp.transforms.band import band_dependences, find_skew, perfect_band, permutability_violation
from affine_lsp.transforms.interchange import interchange_document, interchange_reason, locality
from affine_lsp.transforms.tile import plan_tile, tile_document

KERNELS = Path(__file__).parent / "data" / "tile" / "kernels.mlir"


def first_loops() -> dict[str, tuple[int, object]]:
    """Per kernel, the line and op of its first loop."""
    doc = Document(KERNELS.read_text())
    out = {}
    for sec in doc.sections:
        for f in sec.functions():
            op = next(o for o in f.walk() if o.name == "affine.for")
            out[str(f.attributes["sym_name"].value)] = (doc.lines.line_of(op.span.start) + 1, op)  # type: ignore[attr-defined]
    return out


def test_permutability_and_skews_come_from_the_distances() -> None:
    loops = first_loops()
    for k in ("matmul", "matmul_sym", "transpose", "copy_colmajor", "column_sums", "steps", "fixed_trip"):
        assert plan_tile(loops[k][1], (4,)).ok, k  # type: ignore[arg-type]
    for k in ("seidel_1d", "seidel_2d", "wavefront"):
        plan = plan_tile(loops[k][1], (4,))  # type: ignore[arg-type]
        assert not plan.ok and "not fully permutable" in (plan.reason or "")
    skews = {k: find_skew(band_dependences(perfect_band(loops[k][1]))) for k in ("seidel_1d", "seidel_2d", "wavefront")}  # type: ignore[arg-type]
    assert skews["seidel_1d"] == [[0, 0], [1, 0]]
    assert skews["seidel_2d"] == [[0, 0, 0], [1, 0, 0], [2, 1, 0]]  # PolyBench seidel-2d: (t, t + i, 2t + i + j)
    assert skews["wavefront"] == [[0, 0], [1, 0]]
    for k, s in skews.items():
        assert permutability_violation(band_dependences(perfect_band(loops[k][1])), s) is None  # type: ignore[arg-type]
    # the triangular nest: only the outer loop is tiled, the interchange is refused for its bounds
    tri = loops["triangular"][1]
    assert len(plan_tile(tri, (4,)).band) == 1  # type: ignore[arg-type]
    why = interchange_reason(perfect_band(tri), [1, 0])  # type: ignore[arg-type]
    assert why is not None and "use %i" in why


def test_interchange_legality_is_lexicographic() -> None:
    loops = first_loops()
    band = perfect_band(loops["seidel_2d"][1])  # type: ignore[arg-type]
    # (0, 1, -1) forbids (t, j, i); (1, -1, *) forbids moving %i or %j outside %t
    assert "(0, 1, -1) along (%t, %i, %j) would be reversed" in (interchange_reason(band, [0, 2, 1]) or "")
    for order in ([1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]):
        assert "would be reversed" in (interchange_reason(band, order) or ""), order
    mm = perfect_band(loops["matmul"][1])  # type: ignore[arg-type]
    for order in ([0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]):
        assert interchange_reason(mm, order) is None, order  # the reduction's distance (0, 0, +) stays positive
    wave = perfect_band(loops["wavefront"][1])  # type: ignore[arg-type]
    assert "(1, -1)" in (interchange_reason(wave, [1, 0]) or "")
    loc = locality(perfect_band(loops["matmul"][1]))  # type: ignore[arg-type]
    assert loc.total == 4 and loc.good == [1, 4, 3]  # %i, %j, %k


def test_generated_shapes() -> None:
    src = KERNELS.read_text()
    line = first_loops()["matmul_sym"][0]
    new, outcomes = tile_document(src, (4, 8), [line])
    assert [o.message for o in outcomes if o.line == line] == ["tiled 3 loop(s) by 4x8x8"]
    # symbolic upper bounds stay symbols of the intra-tile min
    assert "affine.for %i = affine_map<(d0) -> (d0)>(%i_t) to min affine_map<(d0)[s0] -> (s0, d0 + 4)>(%i_t)[%n]" in new
    line = first_loops()["fixed_trip"][0]
    new, _ = tile_document(src, (32,), [line])
    # the whole trip count (5, 7) fits in one tile: no min, as MLIR
    assert "to affine_map<(d0) -> (d0 + 5)>(%i_t)" in new and "to affine_map<(d0) -> (d0 + 7)>(%j_t)" in new
    line = first_loops()["steps"][0]
    new, _ = tile_document(src, (4,), [line])
    assert "step 8 {" in new and "step 12 {" in new and "step 2 {" in new and "step 3 {" in new
    line = first_loops()["seidel_1d"][0]
    new, outcomes = tile_document(src, (4,), [line], skew=True)
    assert outcomes[-1].done if outcomes[-1].line == line else any(o.done and o.line == line for o in outcomes)
    assert "%i = affine.apply affine_map<(d0, d1) -> (-d0 + d1)>(%t, %i_s)" in new


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "affine_lsp", *args], capture_output=True, text=True, timeout=300)


def test_command_lines(tmp_path: Path) -> None:
    loops = first_loops()
    seidel = str(loops["seidel_1d"][0])
    p = cli("tile", str(KERNELS), "--loop", seidel, "--sizes", "4,4")
    assert p.returncode == 1
    assert f"{KERNELS}:{seidel}:3: error: cannot tile this loop: the band is not fully permutable: " in p.stderr and "negative along %i" in p.stderr
    assert p.stdout == KERNELS.read_text()  # nothing changed
    p = cli("tile", str(KERNELS), "--loop", seidel, "--sizes", "4", "--skew")
    assert p.returncode == 0 and "remark: skewed and tiled 2 loop(s) by 4x4 (skew %i → %i + %t)" in p.stderr
    out = tmp_path / "out.mlir"
    p = cli("tile", str(KERNELS), "--all", "-v", "--sizes", "4", "-o", str(out))
    # these kernels' data fit in any L2 cache: --all predicts nothing to gain
    assert p.returncode == 0 and out.read_text() == KERNELS.read_text()
    assert "remark: not tiled: predicted not profitable: the nest's data (" in p.stderr
    p = cli("tile", str(KERNELS), "--all", "--force", "--sizes", "4", "-o", str(out))
    assert p.returncode == 0 and out.read_text().count("step 4") >= 10
    assert cli("tile", str(KERNELS), "--sizes", "0").returncode == 2  # a usage error
    matmul = str(loops["matmul"][0])
    p = cli("interchange", str(KERNELS), "--loop", matmul, "--order", "2,0,1")
    assert p.returncode == 0 and "remark: interchanged to order 2,0,1" in p.stderr
    text = p.stdout
    body = text[text.index("func.func @matmul(") :]
    assert body.index("affine.for %k") < body.index("affine.for %i") < body.index("affine.for %j")
    wave = str(loops["wavefront"][0])
    p = cli("interchange", str(KERNELS), "--loop", wave, "--order", "1,0")
    assert p.returncode == 1 and "would be reversed" in p.stderr
    _, outcomes = interchange_document(KERNELS.read_text())
    assert {o.line for o in outcomes if o.done} == {int(matmul), loops["matmul_sym"][0], loops["copy_colmajor"][0]}
    why = next(o.message for o in outcomes if o.line == loops["colmajor_dep"][0])
    assert why.startswith("a better loop order for locality (%i, %j) is not legal: WAR dependence") and "(1, -1)" in why, why


def test_tile_sizes_setting() -> None:
    from affine_lsp.server.settings import Settings

    s = Settings()
    assert s.tile_sizes == (32,)
    assert s.merged({"affineLsp": {"transforms": {"tileSizes": [8, 4]}}}).tile_sizes == (8, 4)
    assert s.merged({"transforms.tileSizes": "16x8"}).tile_sizes == (16, 8)
    assert s.merged({"transforms": {"tileSizes": [0, 4]}}).tile_sizes == (32,)  # invalid: ignored
    assert s.merged({"transforms": {"tileSizes": "big"}}).tile_sizes == (32,)
