"""Tiling and interchange are proven by execution: kernels run before and after.

``tests/data/tile/kernels.mlir`` holds PolyBench-style kernels (matmul with
constant and symbolic bounds, transposes, column-major copies, steps and
max/min bounds, jacobi-1d/2d, in-place Gauss-Seidel stencils in 1-D and 2-D
(seidel-2d), a wavefront, a triangular nest, a symbolic band with a known
trip count); ``tests/data/vectorize/kernels.mlir`` the vectorizer's kernels.

Every variant -- ``--all`` tiling with several sizes, with and without
skewing, tiling of the inner bands one by one, of every band at every
level at once (nested tilings), interchange for locality,
every legal explicit permutation -- runs in **one** ``mlir-runner`` process
per kernel file (the functions of each variant renamed, filled with the
same data as the original), and must print what the original printed. Every
output is accepted by mlir-opt 22.1.8.

The transformations we refuse are applied anyway (``unchecked``) in the
same run: each of them must change what its kernel computes -- the proof
that the refusals are needed, not just cautious.
"""

from __future__ import annotations

import re
from itertools import permutations
from pathlib import Path

import pytest

from affine_lsp.source.document import Document
from affine_lsp.transforms.band import perfect_band
from affine_lsp.transforms.interchange import interchange_document, interchange_reason, order_reason
from affine_lsp.transforms.tile import plan_tile, tile_document
from tests import oracle
from tests.test_vectorize_harness import KERNELS, differences, kernels_of, needs_runner, per_kernel, run

pytestmark = [needs_runner, pytest.mark.oracle]

TILE_KERNELS = Path(__file__).parent / "data" / "tile" / "kernels.mlir"


def rename(text: str, suffix: str) -> str:
    return re.sub(r"(func\.func @)([A-Za-z0-9_]+)", lambda m: f"{m.group(1)}{m.group(2)}__{suffix}", text)


def run_variants(source: str, variants: dict[str, str]) -> dict[str, dict[str, str]]:
    """Run the original and every variant in one process; per variant, the
    printed numbers of each kernel (as the harness prints them)."""
    base = [k.name for k in kernels_of(source)]
    parts = [source] + [rename(v, name) for name, v in variants.items()]
    text = "\n".join(parts)
    kernels = kernels_of(text)
    seeds = [base.index(k.name.split("__")[0]) for k in kernels]
    got = per_kernel(run(text, kernels, seeds))
    out: dict[str, dict[str, str]] = {"": {}}
    for name, nums in got.items():
        kernel, _, variant = name.partition("__")
        out.setdefault(variant, {})[kernel] = f"kernel {kernel}\n" + " ".join(nums)
    return out


def output_of(results: dict[str, str], kernels: list[str] | None = None) -> str:
    return "\n".join(v for k, v in sorted(results.items()) if kernels is None or k in kernels)


def loops_by_kernel(text: str) -> dict[str, list[tuple[int, object]]]:
    doc = Document(text)
    out: dict[str, list[tuple[int, object]]] = {}
    for sec in doc.sections:
        for f in sec.functions():
            name = str(f.attributes["sym_name"].value)  # type: ignore[attr-defined]
            out[name] = [(doc.lines.line_of(op.span.start) + 1, op) for op in f.walk() if op.name == "affine.for"]
    return out


def top_level(op: object) -> bool:
    return not any(a.name in ("affine.for", "affine.parallel") for a in op.ancestors())  # type: ignore[attr-defined]


def assert_accepted(text: str) -> None:
    status, diags, stderr = oracle.run(text)
    assert status == 0 and not [d for d in diags if d.severity == "error"], stderr


def build_variants(source: str) -> tuple[dict[str, str], dict[str, list[str]]]:
    """The legal variants, and the unchecked ones with the kernels whose
    transformation was refused (each must change its kernel's output)."""
    legal: dict[str, str] = {}
    refused: dict[str, list[str]] = {}
    for name, sizes, skew in (("t4", (4,), False), ("t352", (3, 5, 2), True), ("t32", (32,), False), ("t2s", (2,), True)):
        new, outcomes = tile_document(source, sizes, skew=skew)
        assert any(o.done for o in outcomes)
        legal[name] = new
    loops = loops_by_kernel(source)
    # the bands inside other loops (jacobi-2d's), tiled one by one
    chosen: list = []
    for ls in loops.values():
        for _line, op in ls:
            plan = plan_tile(op, (4,))  # type: ignore[arg-type]
            if not top_level(op) and plan.ok and len(plan.band) >= 2 and not any(c.is_ancestor_of(op) for c in chosen):
                chosen.append(op)
    inner = [line for ls in loops.values() for line, op in ls if op in chosen]
    if inner:
        new, outcomes = tile_document(source, (4, 3), inner)
        assert all(o.done for o in outcomes if o.line in inner), outcomes
        legal["inner"] = new
    # every loop asked for: each band tiled, nested ones inside tiled ones too
    every = [line for ls in loops.values() for line, _ in ls]
    new, outcomes = tile_document(source, (3,), every)
    assert any(o.done for o in outcomes)
    legal["every"] = new
    new, outcomes = interchange_document(source)
    legal["loc"] = new
    # every legal permutation of every band, round by round
    perms: dict[str, list[tuple[int, list[int]]]] = {}
    bad_tile: list[tuple[str, int]] = []
    bad_perm: dict[str, tuple[int, list[int]]] = {}
    for kernel, ls in loops.items():
        for line, op in ls:
            if not top_level(op):
                continue
            band = perfect_band(op)  # type: ignore[arg-type]
            if not plan_tile(op, (4,)).ok and "not fully permutable" in (plan_tile(op, (4,)).reason or ""):  # type: ignore[arg-type]
                bad_tile.append((kernel, line))
            for order in permutations(range(len(band))):
                if list(order) == list(range(len(band))) or order_reason(band, order) is not None:
                    continue
                if interchange_reason(band, order) is None:
                    perms.setdefault(kernel, []).append((line, list(order)))
                elif kernel not in bad_perm:
                    bad_perm[kernel] = (line, list(order))
    rounds = max((len(v) for v in perms.values()), default=0)
    for r in range(rounds):
        text = source
        for kernel in perms:
            if len(perms[kernel]) > r:
                line, order = perms[kernel][r]
                text, outcomes = interchange_document(text, [line], order)
                assert all(o.done for o in outcomes if o.line == line), outcomes
        legal[f"perm{r}"] = text
    if bad_tile:
        new, outcomes = tile_document(source, (4,), [ln for _, ln in bad_tile], unchecked=True)
        assert all(o.done for o in outcomes), outcomes
        legal_free = {k for k, _ in bad_tile}
        refused["tile_unchecked"] = sorted(legal_free)
        legal["tile_unchecked"] = new
    if bad_perm:
        text = source
        for _kernel, (line, order) in bad_perm.items():
            text, outcomes = interchange_document(text, [line], order, unchecked=True)
            assert all(o.done for o in outcomes), outcomes
        refused["perm_unchecked"] = sorted(bad_perm)
        legal["perm_unchecked"] = text
    return legal, refused


@pytest.mark.parametrize("path", [TILE_KERNELS, KERNELS], ids=["tile-kernels", "vectorize-kernels"])
def test_tiled_and_interchanged_kernels_compute_the_same(path: Path) -> None:
    source = path.read_text()
    variants, refused = build_variants(source)
    for text in variants.values():
        assert_accepted(text)
    results = run_variants(source, variants)
    reference = results[""]
    assert len(reference) == len(kernels_of(source))
    for name in variants:
        got = results.get(name, {})
        if name in refused:
            for kernel in refused[name]:
                diff = differences(output_of(reference, [kernel]), output_of(got, [kernel]))
                assert diff, f"{name}: the refused transformation of @{kernel} computes the same result"
            same = [k for k in reference if k not in refused[name]]
            assert not differences(output_of(reference, same), output_of(got, same)), name
        else:
            bad = differences(output_of(reference), output_of(got))
            assert not bad, f"variant {name}: {bad}"
    if path == TILE_KERNELS:
        # the shapes the kernels exist for
        assert refused["tile_unchecked"] == ["colmajor_dep", "seidel_1d", "seidel_2d", "wavefront"]
        assert {"colmajor_dep", "seidel_1d", "seidel_2d", "wavefront"} <= set(refused["perm_unchecked"])
        assert "skew" in variants["t352"] or "affine.apply" in variants["t352"]
        assert "min affine_map" in variants["t4"] and "step 4" in variants["t4"]


def test_mlir_opt_tiles_the_refused_kernels_anyway_and_changes_their_results() -> None:
    """MLIR 22.1.8's ``-affine-loop-tile`` only warns on the bands we refuse
    (in-place stencils, the wavefront, the column-major dependence) and
    tiles them: the results change -- why the refusal matters."""
    source = TILE_KERNELS.read_text()
    doc = Document(source)
    refused = ["colmajor_dep", "seidel_1d", "seidel_2d", "wavefront"]
    funcs = {str(f.attributes["sym_name"].value): source[f.span.start : f.span.end] for s in doc.sections for f in s.functions()}  # type: ignore[attr-defined]
    text = "\n\n".join(funcs[k] for k in refused)
    kernels = kernels_of(text)
    reference = run(text, kernels)
    theirs = oracle.opt(text, "-affine-loop-tile=tile-size=4")
    assert theirs.count("step 4") >= 2 * len(refused)  # every band tiled, two loops or more
    bad = differences(reference, run(theirs, kernels))
    assert sorted(bad) == refused
