"""The ``unroll``, ``unroll-jam``, ``hoist`` and ``scalar-replace`` commands:
the transformed file on standard output, a remark per rewrite, and an
error saying why for a requested loop that cannot be transformed; plus the
rewrites' shapes (cleanup loops, ``max`` lower bounds, threaded
``iter_args``) checked on small inputs, each accepted by mlir-opt."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from affine_lsp.source.document import Document
from affine_lsp.transforms.hoist import plan_hoist
from affine_lsp.transforms.unroll import unroll_document, unroll_reason
from affine_lsp.transforms.unroll_jam import unroll_jam_document
from tests import oracle

KERNELS = Path(__file__).parent / "data" / "loop_toolbox" / "kernels.mlir"

needs_opt = pytest.mark.skipif(not oracle.available(), reason="mlir-opt is not installed")


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "affine_lsp", *args], capture_output=True, text=True, timeout=300)


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_cli_commands() -> None:
    text = KERNELS.read_text()
    skew = line_of(text, "affine.for %i = 1 to 11 {")
    p = cli("unroll-jam", str(KERNELS), "--loop", str(skew))
    assert p.returncode == 1 and p.stdout == text
    assert f"kernels.mlir:{skew}:3: error: cannot unroll and jam this loop: unroll-and-jam by 2 would reverse the RAW dependence" in p.stderr
    p = cli("unroll-jam", str(KERNELS), "--factor", "3", "-v")
    assert p.returncode == 0 and "remark: unrolled and jammed by 3" in p.stderr and "remark: not unrolled and jammed:" in p.stderr
    p = cli("unroll", str(KERNELS), "--loop", str(line_of(text, "affine.for %t = 0 to 5")), "--full")
    assert p.returncode == 0 and "remark: fully unrolled" in p.stderr
    p = cli("unroll", str(KERNELS), "--loop", str(line_of(text, "affine.for %i = 1 to %n")), "--full")
    assert p.returncode == 1 and "cannot unroll this loop: the trip count is not a constant" in p.stderr
    p = cli("unroll", str(KERNELS), "--factor", "1")
    assert p.returncode == 2 and "--factor must be at least 2" in p.stderr  # a usage error
    p = cli("hoist", str(KERNELS), "--all")
    assert p.returncode == 0 and "remark: hoisted 4 ops" in p.stderr
    p = cli("hoist", str(KERNELS), "--loop", str(line_of(text, "affine.for %k = 2 to 27")))
    assert p.returncode == 1 and "cannot hoist this loop: nothing in the loop is invariant" in p.stderr
    p = cli("scalar-replace", str(KERNELS))
    assert p.returncode == 0 and p.stderr.count("remark: load") >= 3


SYMBOLIC = """func.func @f(%A: memref<?xf32>, %lo: index, %n: index) -> f32 {
  %z = arith.constant 0.0 : f32
  %r = affine.for %i = affine_map<()[s0] -> (s0 + 1)>()[%lo] to %n step 2 iter_args(%acc = %z) -> (f32) {
    %a = affine.load %A[%i] : memref<?xf32>
    %s = arith.addf %acc, %a : f32
    affine.yield %s : f32
  }
  return %r : f32
}
"""


@needs_opt
def test_unroll_symbolic_bounds_step_and_iter_args() -> None:
    new, outcomes = unroll_document(SYMBOLIC, None, 3)
    assert [o.message for o in outcomes] == ["unrolled by 3"]
    # the main loop stops at lb + (tc floordiv 3) * 6, the cleanup loop starts at max(lb, that)
    split = "s0 + (((-s0 + s1 - 1) ceildiv 2) floordiv 3) * 6 + 1"
    assert f"to affine_map<()[s0, s1] -> ({split})>()[%lo, %n] step 6 iter_args(%acc = %z)" in new
    assert f"%r = affine.for %i_c = max affine_map<()[s0, s1] -> (s0 + 1, {split})>()[%lo, %n] to %n step 2" in new
    assert "iter_args(%acc_c = %r_unrolled)" in new and "affine.yield %s_u2 : f32" in new
    oracle.opt(new)


MINMAX = """func.func @g(%A: memref<40xf32>, %n: index) {
  affine.for %ii = 0 to 32 step 8 {
    affine.for %i = affine_map<(d0) -> (d0)>(%ii) to min affine_map<(d0)[s0] -> (d0 + 8, s0)>(%ii)[%n] {
      %a = affine.load %A[%i] : memref<40xf32>
      affine.store %a, %A[%i + 1] : memref<40xf32>
    }
  }
  return
}
"""


def test_min_bound_refused_like_mlir_and_hoisting_reasons() -> None:
    doc = Document(MINMAX)
    inner = [op for s in doc.sections for op in s.module.walk() if op.name == "affine.for"][1]
    # MLIR gives up on min bounds whose trip count may not be a multiple; the copies are guarded instead
    assert unroll_reason(inner, 2) is None
    new, _ = unroll_document(MINMAX, [3], 2)
    assert "step 2 {" in new and "affine.if affine_set<(d0, d1)[s0] : (-d0 + d1 + 6 >= 0, -d0 + s0 - 2 >= 0)>(%i, %ii)[%n] {" in new
    if oracle.available():
        oracle.opt(new)
    assert unroll_reason(inner, None) == "the trip count is not a constant"
    # unroll-and-jam has no guarded form: refused as MLIR does
    nest = """func.func @j(%O: memref<?x?xindex>, %M: index, %K: index) {
  affine.for %i = 0 to min affine_map<()[s0] -> (s0, 1024)>()[%M] {
    affine.for %j = 0 to %K {
      affine.store %j, %O[%i, %j] : memref<?x?xindex>
    }
  }
  return
}
"""
    new, outcomes = unroll_jam_document(nest, None, 2)
    assert new == nest and "max/min bounds" in outcomes[0].message
    plan = plan_hoist(inner)
    assert not plan.ops and plan.reason is not None and "defined in the loop" in plan.reason


def test_unknown_effects_never_move_and_block_unroll_jam() -> None:
    text = """func.func @h(%A: memref<10x10xf32>, %B: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 10 {
      %b = affine.load %B[0] : memref<10xf32>
      "test.sink"(%b) : (f32) -> ()
      affine.store %b, %A[%i, %j] : memref<10x10xf32>
    }
  }
  return
}
"""
    doc = Document(text)
    inner = [op for s in doc.sections for op in s.module.walk() if op.name == "affine.for"][1]
    plan = plan_hoist(inner)
    assert not plan.ops and "whose memory effects are unknown" in (plan.reason or "")
    new, outcomes = unroll_jam_document(text, None, 2)
    assert new == text and "may have side effects" in outcomes[0].message
