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
