"""Time tiling of stencils by "Optimize loop nest", proven by execution.

``tests/data/optimize/stencils.mlir`` holds the stencils of the runtime
benchmark (jacobi-1d, jacobi-2d, heat-3d, fdtd-2d, seidel-2d) and
floyd-warshall at small sizes, large enough that automatic mode time-tiles
the first four. Every output is accepted by mlir-opt 22.1.8 and computes,
under mlir-runner, what the original computes (the same printed values),
in automatic mode and with small explicit tiles (many partial tiles).

floyd-warshall is left alone: its exact dependences forbid any reordering
of the k loop. MLIR's ``affine-loop-tile`` tiles k anyway; on a graph with
negative cycles its output computes other values (the last test), which is
why optimize does not match it there.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from affine_lsp.analysis import dependences_of_function
from affine_lsp.analysis.isl_support import limited
from affine_lsp.source.document import Document
from affine_lsp.transforms import optimize_stencil
from affine_lsp.transforms.optimize import BUDGET, nest_groups, optimize_document, plan_optimize
from affine_lsp.transforms.optimize_model import build_model
from affine_lsp.transforms.optimize_schedule import violations
from tests import oracle
from tests.test_optimize_exec import _variants
from tests.test_tile_exec import run_variants
from tests.test_vectorize_harness import needs_runner

STENCILS = Path(__file__).parent / "data" / "optimize" / "stencils.mlir"
TIME_TILED = ("jacobi_1d", "jacobi_2d", "heat_3d", "fdtd_2d")


def _functions(text: str) -> dict[str, object]:
    doc = Document(text)
    return {str(f.attributes["sym_name"].value): f for s in doc.sections for f in s.functions()}  # type: ignore[attr-defined]


def _model(text: str, name: str):  # type: ignore[no-untyped-def]
    f = _functions(text)[name]
    group = nest_groups(f)[0]  # type: ignore[arg-type]
    with limited(BUDGET):
        return build_model(group, dependences_of_function(f))  # type: ignore[arg-type]


def _innermost_loops(func: object) -> list[object]:
    return [op for op in func.walk() if op.name == "affine.for" and not any(o.name == "affine.for" for o in op.walk() if o is not op)]  # type: ignore[attr-defined]


def test_automatic_mode_time_tiles_the_stencils_with_one_point_loop_per_statement() -> None:
    source = STENCILS.read_text()
    # The schedule alone (the composition may unroll-and-jam a point loop
    # after it: that is test_optimize_compose's business).
    new, outcomes, explains = optimize_document(source, compose=False)
    done = {o.line for o in outcomes if o.done}
    funcs = _functions(source)
    doc = Document(source)
    for name in TIME_TILED:
        line = doc.lines.line_of(nest_groups(funcs[name])[0][0].span.start) + 1  # type: ignore[arg-type]
        assert line in done, f"{name} is not optimized"
        explain = next(e for ln, e, _ in explains if ln == line)
        assert any("tiled" in x and "one point loop per statement" in x for x in explain), explain
    out = _functions(new)
    for name in TIME_TILED:
        inner = _innermost_loops(out[name])
        assert inner
        for loop in inner:  # distributed: each innermost point loop holds one statement (one store)
            assert sum(op.name == "affine.store" for op in loop.walk()) == 1, name  # type: ignore[attr-defined]


def test_time_skewed_schedule_of_a_time_loop_around_sweeps() -> None:
    source = STENCILS.read_text()
    model = _model(source, "heat_3d")
    sched = optimize_stencil.time_skewed_schedule(model)
    assert sched is not None
    band = str(sched.get_root().child(0).band_get_partial_schedule())
    assert "S0[t, i, j, k] -> [(2t + i)]" in band and "S1[t, i, j, k] -> [(1 + 2t + i)]" in band, band
    assert violations(model, sched).is_empty()
    # seidel-2d updates in place: no uniform skew makes its band permutable (isl's scheduler skews it)
    assert optimize_stencil.time_skewed_schedule(_model(source, "seidel_2d")) is None
    # floyd-warshall's accesses depend on its outer loop: it is no time loop
    assert optimize_stencil.time_skewed_schedule(_model(source, "floyd_warshall")) is None


def test_a_recurrence_along_the_point_loop_is_not_time_tiled_as_vectorizable() -> None:
    text = """func.func @gs(%A: memref<4000xf64>) {
  affine.for %t = 0 to 40 {
    affine.for %i = 1 to 3999 {
      %a = affine.load %A[%i - 1] : memref<4000xf64>
      %b = affine.load %A[%i] : memref<4000xf64>
      %s = arith.addf %a, %b : f64
      affine.store %s, %A[%i] : memref<4000xf64>
    }
  }
  return
}
"""
    _, _, explains = optimize_document(text)
    assert not any("one point loop per statement" in x for _, e, _ in explains for x in e), explains


def test_parallel_leaves_a_time_tiled_schedule_sequential_with_the_reason() -> None:
    source = STENCILS.read_text()
    new, outcomes, explains = optimize_document(source, funcs=["jacobi_2d"], parallel=True)
    assert any(o.done for o in outcomes)
    assert "affine.parallel" not in new  # only the tiles' innermost point loops are parallel: too short for threads
    assert any("--parallel: no loop outside the time tiles is parallel" in x for _, e, _ in explains for x in e), explains


def test_floyd_warshall_is_left_alone_with_the_reason() -> None:
    source = STENCILS.read_text()
    f = _functions(source)["floyd_warshall"]
    # The schedule alone keeps the original order ...
    plan = plan_optimize(source, nest_groups(f)[0], compose=False)  # type: ignore[arg-type]
    assert not plan.ok
    assert "keeps the original order" in (plan.reason or "")
    assert any("S0[k, i, j] -> [k]" in x for x in plan.explain), plan.explain
    # ... and the composition on that order never touches the k loop (every
    # step k reads row k, which step k+1 rewrites), nor gains by
    # unroll-and-jam of i (its copies' path[k][j] may be the row a copy
    # stores): the nest is left alone.
    composed = plan_optimize(source, nest_groups(f)[0])  # type: ignore[arg-type]
    assert not composed.ok and "left alone" in (composed.reason or "")
    assert any(x.startswith("declined: unroll-and-jam %k") for x in composed.explain), composed.explain


@needs_runner
@pytest.mark.oracle
@pytest.mark.parametrize("options", [{}, {"tile": 4}, {"tile": 5, "force": True}], ids=["auto", "tile4", "tile5-forced"])
def test_time_tiled_stencils_compute_the_same_values(options: dict) -> None:  # type: ignore[type-arg]
    source = STENCILS.read_text()
    variants, outcomes = _variants(source, [options])  # every output accepted by mlir-opt
    assert sum(o.done for o in outcomes[0]) >= len(TIME_TILED) + (1 if options else 0)  # seidel-2d too, with small tiles
    results = run_variants(source, variants)
    base = results[""]
    assert set(base) == set(_functions(source))
    for name, got in results.items():
        assert got == base, f"variant {name} computes other values"


FW8 = """func.func @kernel(%path: memref<8x8xf64>) {
  affine.for %k = 0 to 8 {
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 8 {
        %ij = affine.load %path[%i, %j] : memref<8x8xf64>
        %ik = affine.load %path[%i, %k] : memref<8x8xf64>
        %kj = affine.load %path[%k, %j] : memref<8x8xf64>
        %s = arith.addf %ik, %kj : f64
        %lt = arith.cmpf olt, %ij, %s : f64
        %m = arith.select %lt, %ij, %s : f64
        affine.store %m, %path[%i, %j] : memref<8x8xf64>
      }
    }
  }
  return
}
"""

FW_MAIN = """func.func private @printMemrefF64(memref<*xf64>)
func.func @main() {
  %p = memref.alloc() : memref<8x8xf64>
  %three = arith.constant 3.0 : f64
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %a = affine.apply affine_map<(i, j) -> ((i * 7 + j * 3) mod 11)>(%i, %j)
      %ai = arith.index_cast %a : index to i64
      %f = arith.sitofp %ai : i64 to f64
      %v = arith.subf %f, %three : f64
      affine.store %v, %p[%i, %j] : memref<8x8xf64>
    }
  }
  call @kernel(%p) : (memref<8x8xf64>) -> ()
  %u = memref.cast %p : memref<8x8xf64> to memref<*xf64>
  call @printMemrefF64(%u) : (memref<*xf64>) -> ()
  return
}
"""


@needs_runner
@pytest.mark.oracle
def _printed_values(out: str) -> str:
    """What printMemrefF64 printed, without the buffer's address."""
    return re.sub(r"base@ = 0x[0-9a-f]+", "base@", out)


def test_mlir_loop_tile_of_floyd_warshall_reorders_its_k_loop_and_changes_values() -> None:
    """Edges of negative weight (negative cycles): the k loop's order
    matters, as its exact dependences say; MLIR's tiling of k computes
    other values; optimize keeps the k loop's order."""
    found = oracle.mlir_opt()
    assert found is not None
    exe, env = found
    p = subprocess.run(
        [str(exe), "--pass-pipeline=builtin.module(func.func(affine-loop-tile{tile-size=2}))"], input=FW8, env=env, capture_output=True, text=True, timeout=60
    )
    assert p.returncode == 0, p.stderr
    tiled = p.stdout.rstrip()
    assert tiled.endswith("}") and "step 2" in tiled
    original = _printed_values(oracle.execute(FW8 + FW_MAIN))
    mlir_tiled = _printed_values(oracle.execute(tiled[:-1] + FW_MAIN + "}\n"))
    assert original != mlir_tiled
    # optimize keeps the k loop's order: its schedule alone leaves the nest as
    # it is, and what it composes (unroll-and-jam of i) computes the original's values.
    alone, outcomes, _ = optimize_document(FW8, compose=False)
    assert alone == FW8 and not any(o.done for o in outcomes)
    new, _, _ = optimize_document(FW8)
    assert _printed_values(oracle.execute(new + FW_MAIN)) == original
