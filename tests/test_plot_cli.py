"""``affine-lsp plot`` (the iteration space as SVG) and ``affine-lsp deps
--format dot``, run as the user runs them (a subprocess of the CLI)."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.test_iteration_space import BANDED, SEED_SIMPLE, SEED_SKEWED

if importlib.util.find_spec("affine_lsp.analysis") is None:
    pytest.skip("the analysis package is not available", allow_module_level=True)

SVG = "{http://www.w3.org/2000/svg}"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "affine_lsp", *args], capture_output=True, text=True, timeout=120)


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def plot(tmp_path: Path, path: str, *args: str) -> tuple[ET.Element, dict]:
    out = tmp_path / "out.svg"
    r = cli("plot", path, *args, "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stderr == "", r.stderr  # no islpy warning when the arrows are capped (issue #33)
    j = cli("plot", path, *args, "--format", "json")
    assert j.returncode == 0, j.stderr
    return ET.parse(out).getroot(), json.loads(j.stdout)


def classes(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(SVG + tag) if cls in (e.get("class") or "").split()]


def texts(root: ET.Element) -> list[str]:
    return [e.text or "" for e in root.iter(SVG + "text")]


@pytest.mark.parametrize(
    ("text", "line", "ivs", "npoints", "narrows"), [(SEED_SIMPLE, 4, ("%arg0", "%arg1"), 81, 63), (SEED_SKEWED, 5, ("%i0", "%i1"), 70, None)]
)
def test_plot_seed_nests(tmp_path: Path, text: str, line: int, ivs: tuple[str, str], npoints: int, narrows: int | None):
    root, data = plot(tmp_path, write(tmp_path, "k.mlir", text), "--loop", str(line))
    assert root.tag == SVG + "svg"
    assert len(classes(root, "circle", "point")) == len(data["points"]) == npoints
    arrows = classes(root, "path", "arrow")
    assert len(arrows) == len(data["arrows"]) > 0
    if narrows is not None:
        assert len(arrows) == narrows
    assert {a.get("data-kind") for a in arrows} == {a["kind"] for a in data["arrows"]}
    # the axes are labelled with the IVs; the legend names the kinds and the dependences
    labels = [e.text for e in classes(root, "text", "axis-label")]
    assert labels == list(ivs)
    all_text = "\n".join(texts(root))
    assert "RAW: read after write" in all_text and "WAR: write after read" in all_text
    for d in data["dependences"]:
        assert d["distance"] in all_text
    assert len(classes(root, "line", "constraint")) == len(data["constraints"]) == 4


def test_plot_symbolic_nest_dims_params_fixed(tmp_path: Path):
    path = write(tmp_path, "banded.mlir", BANDED)
    _, data = plot(tmp_path, path, "--loop", "3", "--params", "N=6")
    assert data["loop"]["iv"] == "%j" and data["dims"] == ["%j", "%k"]  # the loop and the next by default
    root, data = plot(tmp_path, path, "--loop", "3", "--params", "N=6", "--dims", "i,j")
    assert data["dims"] == ["%i", "%j"]
    assert len(classes(root, "circle", "point")) == len(data["points"])
    assert len(classes(root, "path", "arrow")) == len(data["arrows"])
    assert len(classes(root, "line", "if")) == 1  # the affine.if condition, dashed
    assert "%N = 6" in "\n".join(texts(root)) and "%k projected" in "\n".join(texts(root))
    root, data = plot(tmp_path, path, "--loop", "2", "--dims", "k,j", "--params", "N=5", "--fixed", "i=3")
    assert [e.text for e in classes(root, "text", "axis-label")] == ["%k", "%j"]
    assert data["fixed"] == {"%i": 3}
    assert len(classes(root, "circle", "point")) == len(data["points"]) == 3 * 5  # j in [0, 4]


def test_plot_errors(tmp_path: Path):
    path = write(tmp_path, "k.mlir", SEED_SIMPLE)
    r = cli("plot", path, "--loop", "2", "-o", str(tmp_path / "x.svg"))
    assert r.returncode == 1 and "no affine loop" in r.stderr
    r = cli("plot", path, "--loop", "4", "--dims", "x,y")
    assert r.returncode == 1 and "no loop %x" in r.stderr
    r = cli("plot", path, "--loop", "4", "--params", "N")
    assert r.returncode != 0 and "NAME=INT" in r.stderr


def test_deps_dot(tmp_path: Path):
    path = write(tmp_path, "k.mlir", SEED_SKEWED + BANDED)
    r = cli("deps", "--format", "dot", path)
    assert r.returncode == 0, r.stderr
    dot = r.stdout
    assert dot.startswith("digraph ") and dot.rstrip().endswith("}")
    assert dot.count("{") == dot.count("}")
    nodes = set(re.findall(r"^\s*(\w+) \[label=", dot, re.M))
    edges = re.findall(r"^\s*(\w+) -> (\w+) \[label=\"([^\"]*)\"", dot, re.M)
    assert len(nodes) == 5 and len(re.findall(r"subgraph cluster_f\d+ \{", dot)) == 2
    assert all(s in nodes and d in nodes for s, d, _ in edges)
    # the same edges as the JSON remarks (every depth with a dependence)
    j = json.loads(cli("deps", "--format", "json", path).stdout)
    assert len(edges) == sum(1 for x in j if x["result"] != "false")
    labels = [lab for _, _, lab in edges]
    assert "RAW d=1 [1, 7][-1, 3]\\ncarried by %i0" in labels
    assert "WAR d=1 [2, 2][-4, -4]\\ncarried by %i0" in labels


# A seidel-2d nest (9 points, in place) with a second store: every kind of
# dependence, more than 2,000 arrows in the view.
SEIDEL_ALL_KINDS = """\
func.func @seidel_2d(%A: memref<40x40xf32>) {
  %ninth = arith.constant 0.111 : f32
  affine.for %i = 1 to 15 {
    affine.for %j = 1 to 15 {
      %a0 = affine.load %A[%i - 1, %j - 1] : memref<40x40xf32>
      %a1 = affine.load %A[%i - 1, %j] : memref<40x40xf32>
      %a2 = affine.load %A[%i - 1, %j + 1] : memref<40x40xf32>
      %a3 = affine.load %A[%i, %j - 1] : memref<40x40xf32>
      %a4 = affine.load %A[%i, %j] : memref<40x40xf32>
      %a5 = affine.load %A[%i, %j + 1] : memref<40x40xf32>
      %a6 = affine.load %A[%i + 1, %j - 1] : memref<40x40xf32>
      %a7 = affine.load %A[%i + 1, %j] : memref<40x40xf32>
      %a8 = affine.load %A[%i + 1, %j + 1] : memref<40x40xf32>
      %s1 = arith.addf %a0, %a1 : f32
      %s2 = arith.addf %s1, %a2 : f32
      %s3 = arith.addf %s2, %a3 : f32
      %s4 = arith.addf %s3, %a4 : f32
      %s5 = arith.addf %s4, %a5 : f32
      %s6 = arith.addf %s5, %a6 : f32
      %s7 = arith.addf %s6, %a7 : f32
      %s8 = arith.addf %s7, %a8 : f32
      %r = arith.mulf %s8, %ninth : f32
      affine.store %r, %A[%i, %j] : memref<40x40xf32>
      affine.store %a4, %A[%i, %j - 1] : memref<40x40xf32>
    }
  }
  return
}
"""

# jacobi-1d in place, skewed by the time loop, with a long function name
# and many dependences: the arrows are capped, every kind keeps its share.
JACOBI_SKEWED = """\
func.func @jacobi_1d_skewed_in_place_with_a_rather_long_name_for_the_title(%A: memref<64xf32>) {
  %third = arith.constant 0.333333 : f32
  affine.for %t = 0 to 30 {
    affine.for %i = affine_map<(d0) -> (d0 + 1)>(%t) to affine_map<(d0) -> (d0 + 61)>(%t) {
      %a = affine.load %A[%i - %t - 1] : memref<64xf32>
      %b = affine.load %A[%i - %t] : memref<64xf32>
      %c = affine.load %A[%i - %t + 1] : memref<64xf32>
      %s = arith.addf %a, %b : f32
      %u = arith.addf %s, %c : f32
      %v = arith.mulf %u, %third : f32
      affine.store %v, %A[%i - %t] : memref<64xf32>
    }
  }
  return
}
"""

CHAR_EM = 0.62  # the documented upper estimate of a character's advance (plot_svg.CHAR_WIDTH)


def text_boxes(root: ET.Element) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The extent of every text of the picture, computed from its
    attributes (a rotated text's box turns with it)."""
    base = float(root.get("font-size", "12"))
    out = []
    for e in root.iter(SVG + "text"):
        text = e.text or ""
        size = float(e.get("font-size", base))
        w = len(text) * size * CHAR_EM * (1.08 if e.get("font-weight") == "bold" else 1.0)
        x, y = float(e.get("x", "0")), float(e.get("y", "0"))
        anchor = e.get("text-anchor", "start")
        x0 = x - (w / 2 if anchor == "middle" else w if anchor == "end" else 0.0)
        box = (x0, y - 0.8 * size, x0 + w, y + 0.25 * size)
        if (e.get("transform") or "").startswith("rotate(-90"):
            box = (x - 0.8 * size, y - w / 2, x + 0.25 * size, y + w / 2)
        out.append((text, box))
    return out


def assert_readable(root: ET.Element, data: dict) -> None:
    width, height = float(root.get("width", "0")), float(root.get("height", "0"))
    assert 0 < width < 1000 and 0 < height < 1000, (width, height)
    boxes = text_boxes(root)
    for text, (x0, y0, x1, y1) in boxes:
        assert min(x0, y0) >= 0 and x1 <= width and y1 <= height, f"{text!r} leaves the picture"
    for k, (ta, a) in enumerate(boxes):
        for tb, b in boxes[k + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], f"{ta!r} overlaps {tb!r}"
    # the legend's counts are the JSON's, for every kind
    counts = {e.get("data-kind"): e for e in classes(root, "text", "kind-count")}
    assert set(counts) == {"RAW", "WAR", "WAW"}
    for kind, e in counts.items():
        assert int(e.get("data-dependences")) == sum(1 for d in data["dependences"] if d["kind"] == kind)
        assert int(e.get("data-arrows")) == sum(1 for a in data["arrows"] if a["kind"] == kind)
        assert f"{e.get('data-dependences')} dependence" in (e.text or "") and f"{e.get('data-arrows')} arrow" in (e.text or "")
    # every arrow of the JSON is drawn, alone or in its group, or counted
    # with the vectors not drawn; every kind is visible
    single = classes(root, "path", "arrow")
    groups = classes(root, "path", "arrow-group")
    drawn: dict[str, int] = {}
    for g in groups:
        drawn[g.get("data-kind")] = drawn.get(g.get("data-kind"), 0) + int(g.get("data-count"))
    for a in single:
        drawn[a.get("data-kind")] = drawn.get(a.get("data-kind"), 0) + 1
    for g in classes(root, "g", "arrows-not-drawn"):  # the rarer vectors, counted per kind
        drawn[g.get("data-kind")] = drawn.get(g.get("data-kind"), 0) + int(g.get("data-count"))
    assert drawn == {k: n for k in ("RAW", "WAR", "WAW") if (n := sum(1 for a in data["arrows"] if a["kind"] == k))}


def test_plot_of_a_2000_arrow_nest_is_readable(tmp_path: Path) -> None:
    root, data = plot(tmp_path, write(tmp_path, "seidel.mlir", SEIDEL_ALL_KINDS))
    assert len(data["arrows"]) >= 2000 and not data["arrowsCapped"]
    assert {d["kind"] for d in data["dependences"]} == {"RAW", "WAR", "WAW"}
    assert_readable(root, data)
    groups = classes(root, "path", "arrow-group")
    assert classes(root, "path", "arrow") == [] and len(groups) < 40  # aggregated per distance vector
    assert {g.get("data-kind") for g in groups} == {"RAW", "WAR", "WAW"}
    vectors = classes(root, "text", "vector")
    assert {v.get("data-kind") for v in vectors} == {"RAW", "WAR", "WAW"}  # each kind keeps rows in the legend
    for v in vectors:
        dx, dy = (int(x) for x in re.search(r"\((-?\d+), (-?\d+)\)", v.text or "").groups())
        assert int(v.get("data-count")) == sum(
            1 for a in data["arrows"] if a["kind"] == v.get("data-kind") and (a["to"][0] - a["from"][0], a["to"][1] - a["from"][1]) == (dx, dy)
        )


def test_plot_of_a_capped_skewed_nest_keeps_every_kind_and_its_title(tmp_path: Path) -> None:
    root, data = plot(tmp_path, write(tmp_path, "jacobi.mlir", JACOBI_SKEWED))
    assert data["arrowsCapped"]
    assert {a["kind"] for a in data["arrows"]} == {d["kind"] for d in data["dependences"]} == {"RAW", "WAR", "WAW"}
    assert_readable(root, data)
    assert {g.get("data-kind") for g in classes(root, "path", "arrow-group")} == {"RAW", "WAR", "WAW"}
    # the capped arrows are spread over the nest, not its first time steps
    sources_t = {a["from"][0] for a in data["arrows"]}
    assert max(sources_t) - min(sources_t) >= 20
    (title,) = [e for e in root.iter(SVG + "text") if e.get("class") == "title"]
    assert title.text.startswith("Iteration space of affine.for %t")
    # small nests: one arrow per dependence instance, as before
    root, data = plot(tmp_path, write(tmp_path, "k.mlir", SEED_SIMPLE), "--loop", "4")
    assert_readable(root, data)


def test_plot_format_follows_the_output_name(tmp_path: Path) -> None:
    path = write(tmp_path, "k.mlir", SEED_SIMPLE)
    out = tmp_path / "p.json"
    assert cli("plot", path, "--loop", "4", "-o", str(out)).returncode == 0
    assert json.loads(out.read_text())["arrows"]
    png = tmp_path / "p.png"
    r = cli("plot", path, "--loop", "4", "-o", str(png))
    if importlib.util.find_spec("cairosvg") is None:
        assert r.returncode == 2 and "PNG needs the cairosvg library" in r.stderr and not png.exists()
    else:
        assert r.returncode == 0 and png.read_bytes().startswith(b"\x89PNG")
    r = cli("plot", path, "--loop", "4", "--format", "json", "-o", str(tmp_path / "p.svg"))
    assert r.returncode == 2 and "--format json" in r.stderr
