""" "Optimize loop nest" without execution: what is refused and why, what the
schedule and the explanation say, the second legality proof, the CLI."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from affine_lsp.analysis import dependences_of_function
from affine_lsp.analysis.isl_support import limited
from affine_lsp.source.document import Document
from affine_lsp.transforms.optimize import nest_groups, optimize_document, plan_optimize, top_level_loops
from affine_lsp.transforms.optimize_model import build_model
from affine_lsp.transforms.optimize_schedule import compute, violations

MATMUL = """func.func @matmul(%A: memref<64x48xf32>, %B: memref<48x40xf32>, %C: memref<64x40xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 40 {
      affine.for %k = 0 to 48 {
        %a = affine.load %A[%i, %k] : memref<64x48xf32>
        %b = affine.load %B[%k, %j] : memref<48x40xf32>
        %c = affine.load %C[%i, %j] : memref<64x40xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<64x40xf32>
      }
    }
  }
  return
}
"""


def plan_of(text: str, **kw):  # type: ignore[no-untyped-def]
    doc = Document(text)
    f = next(iter(doc.sections[0].functions()))
    return plan_optimize(text, top_level_loops(f), **kw)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (
            "%x = affine.load %I[%i] : memref<8xindex>\n    %v = memref.load %A[%x] : memref<8xf32>\n    affine.store %v, %A[%i] : memref<8xf32>",
            "'memref.load' is not an affine access",
        ),
        ("func.call @g(%A) : (memref<8xf32>) -> ()", "calls a function"),
        ('%v = affine.load %A[%i] : memref<8xf32>\n    "test.op"(%v) : (f32) -> ()', "may have memory effects"),
    ],
)
def test_nests_the_scheduler_cannot_handle_are_refused_with_the_reason(body: str, reason: str) -> None:
    text = f"""func.func private @g(memref<8xf32>)
func.func @f(%A: memref<8xf32>, %I: memref<8xindex>) {{
  affine.for %i = 0 to 8 {{
    {body}
  }}
  return
}}
"""
    doc = Document(text)
    f = next(g for g in doc.sections[0].functions() if str(g.attributes["sym_name"].value) == "f")  # type: ignore[attr-defined]
    plan = plan_optimize(text, top_level_loops(f))
    assert not plan.ok and reason in (plan.reason or ""), plan.reason


def test_iter_args_and_values_crossing_statements_are_refused() -> None:
    iter_args = """func.func @f(%A: memref<8x128xf32>, %S: memref<8xf32>) {
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 {
    %r = affine.for %j = 0 to 128 iter_args(%acc = %z) -> (f32) {
      %v = affine.load %A[%i, %j] : memref<8x128xf32>
      %n = arith.addf %acc, %v : f32
      affine.yield %n : f32
    }
    affine.store %r, %S[%i] : memref<8xf32>
  }
  return
}
"""
    plan = plan_of(iter_args, compose=False)
    assert not plan.ok and "iter_args" in (plan.reason or "")
    # the scheduler refuses the nest; the composition still vectorizes the
    # float reduction of the original order (vectorize proves its legality;
    # 128 iterations: a reduction of 16 vectors, predicted its full gain)
    plan = plan_of(iter_args)
    assert plan.ok, plan.reason
    explain = "\n".join(plan.explain)
    assert "schedule: none (" in explain and "iter_args" in explain
    assert "composed: vectorize (VF 8) of %j: float reduction" in explain
    assert plan.prediction is not None and plan.prediction.profitable and "vector<8xf32>" in plan.new_text
    crossing = """func.func @f(%A: memref<8x8xf32>, %S: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %s = affine.load %S[%i] : memref<8xf32>
    affine.for %j = 0 to 8 {
      affine.store %s, %A[%i, %j] : memref<8x8xf32>
    }
  }
  return
}
"""
    plan = plan_of(crossing)
    assert not plan.ok and "%s is computed in one statement and used in another" in (plan.reason or "")


def test_matmul_is_interchanged_tiled_and_explained() -> None:
    plan = plan_of(MATMUL, tile=8)
    assert plan.ok, plan.reason
    assert plan.prediction is not None and plan.prediction.profitable and (plan.prediction.speedup or 0) > 1
    explain = "\n".join(plan.explain)
    assert "S0[i, j, k] -> [i, k, j]" in explain
    # a register tile: the reduction member k as long as the vector member j, sized to divide its extent
    assert re.search(r"tiled 8x\d+x32; register tile: point loops in the order of members 0, 2, 1", explain), explain
    assert "vector loop: member 2" in explain
    # the new nest: tile loops, then point loops i, j, k (k innermost) with the original names
    new = plan.new_text
    assert new.index("affine.for %i_t") < new.index("affine.for %i =") < new.index("affine.for %j =") < new.index("affine.for %k =")


def test_the_second_legality_proof_catches_a_wrong_schedule() -> None:
    """The check the pipeline runs on every schedule it emits rejects one
    that reverses a dependence (here: the reduction loop k run backwards)."""
    import islpy as isl

    doc = Document(MATMUL)
    f = next(iter(doc.sections[0].functions()))
    with limited(10**8):
        model = build_model(top_level_loops(f), dependences_of_function(f))
        good = compute(model, 8)
        assert violations(model, good.schedule).is_empty()
        dom = model.statements[0].domain
        rev = isl.UnionMap.from_map(isl.Map.read_from_str(dom.get_ctx(), "{ S0[i, j, k] -> [i, j, -k] }").intersect_domain(dom))
        bad = isl.Schedule.from_domain(isl.UnionSet.from_set(dom)).insert_partial_schedule(isl.MultiUnionPwAff.from_union_map(rev))
        assert not violations(model, bad).is_empty()


def test_a_nest_already_in_the_best_order_is_left_alone() -> None:
    text = """func.func @copy(%A: memref<8x8xf32>, %B: memref<8x8xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %v = affine.load %A[%i, %j] : memref<8x8xf32>
      affine.store %v, %B[%i, %j] : memref<8x8xf32>
    }
  }
  return
}
"""
    new, outcomes, _ = optimize_document(text)
    assert new == text
    assert len(outcomes) == 1 and not outcomes[0].done and "left alone" in outcomes[0].message


FLOYD_WARSHALL = """func.func @fw(%path: memref<700x700xf64>) {
  affine.for %k = 0 to 700 {
    affine.for %i = 0 to 700 {
      affine.for %j = 0 to 700 {
        %ij = affine.load %path[%i, %j] : memref<700x700xf64>
        %ik = affine.load %path[%i, %k] : memref<700x700xf64>
        %kj = affine.load %path[%k, %j] : memref<700x700xf64>
        %s = arith.addf %ik, %kj : f64
        %lt = arith.cmpf olt, %ij, %s : f64
        %m = arith.select %lt, %ij, %s : f64
        affine.store %m, %path[%i, %j] : memref<700x700xf64>
      }
    }
  }
  return
}
"""


def test_a_band_whose_reuse_is_already_in_l1_is_not_tiled() -> None:
    """floyd-warshall: the row ``path[k][*]`` is reused along ``i`` from L1
    without tiling (a few KB between two uses), so tiling ``(i, j)`` would
    only cut the vector loop short (measured 0.65x); a matrix product whose
    reuse distance is a whole matrix is still tiled. (The schedule alone:
    the composition may still unroll-and-jam the nest.)"""
    fw = FLOYD_WARSHALL
    new, outcomes, _ = optimize_document(fw, compose=False)
    assert new == fw
    assert len(outcomes) == 1 and not outcomes[0].done and "left alone" in outcomes[0].message
    big = MATMUL
    for a, b in (("64", "1024"), ("48", "768"), ("40", "640")):
        big = big.replace(a, b)
    plan = plan_of(big, tile=None)
    assert plan.ok, plan.reason
    assert re.search(r"tiled 32x\d+x128", "\n".join(plan.explain))


def test_nest_groups_are_runs_of_top_level_nests() -> None:
    text = """func.func @f(%A: memref<8xf32>) {
  affine.for %i = 0 to 8 {
  }
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to 8 {
  }
  %m = memref.alloc() : memref<8xf32>
  affine.for %i = 0 to 8 {
  }
  return
}
"""
    f = next(iter(Document(text).sections[0].functions()))
    assert [len(g) for g in nest_groups(f)] == [2, 1]


def test_cli_optimize_explain_and_errors(tmp_path) -> None:  # type: ignore[no-untyped-def]
    src = tmp_path / "mm.mlir"
    src.write_text(MATMUL)
    p = subprocess.run([sys.executable, "-m", "affine_lsp", "optimize", str(src), "--explain", "--tile", "8"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "affine.for %i_t = 0 to 64 step 8" in p.stdout
    assert re.search(r"band 0: S0\[i, j, k\] -> \[i, k, j\], tiled 8x\d+x32", p.stderr), p.stderr
    assert "remark: optimized 1 nest(s)" in p.stderr
    p = subprocess.run([sys.executable, "-m", "affine_lsp", "optimize", str(src), "--tile", "0"], capture_output=True, text=True)
    assert p.returncode == 1 and "--tile must be a positive integer" in p.stderr
    p = subprocess.run([sys.executable, "-m", "affine_lsp", "optimize", str(src), "--loop", "1"], capture_output=True, text=True)
    assert p.returncode == 1 and "no affine.for starts on this line" in p.stderr
    # --parallel on the schedule alone: the composed register tile's vector
    # transfers are not modelled by the dependence engine, so parallelize
    # (which proves each loop on the output) leaves that output sequential
    p = subprocess.run(
        [sys.executable, "-m", "affine_lsp", "optimize", str(src), "--parallel", "--func", "matmul", "--tile", "8", "--no-compose"],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0 and "affine.parallel (%i_t)" in p.stdout
    p = subprocess.run([sys.executable, "-m", "affine_lsp", "optimize", str(src), "--budget", "0"], capture_output=True, text=True)
    assert p.returncode == 1 and "--budget must be a positive number of seconds" in p.stderr


DEEP = """  func.func @deep(%alloc: memref<1x1x1x1x16x10xf32, 2>, %alloc_0: memref<2x2x3x3x16x10xf32, 2>, %alloc_1: memref<3x3x3x3x16x10xf32, 2>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1_2 = arith.constant 1 : index
    %cst = arith.constant 0.000000e+00 : f32
    affine.for %arg0 = 0 to 3 {
      affine.for %arg1 = 0 to 3 {
        affine.for %arg2 = 0 to 2 {
          affine.for %arg3 = 0 to 2 {
            affine.for %arg4 = 0 to 3 {
              affine.for %arg5 = 0 to 3 {
                affine.for %arg6 = 0 to 16 {
                  affine.for %arg7 = 0 to 10 {
                    %0 = affine.load %alloc_0[%arg2, %arg3, %arg0, %arg1, %arg6, %arg7] : memref<2x2x3x3x16x10xf32, 2>
                  }
                }
                affine.for %arg6 = 0 to 16 {
                  affine.for %arg7 = 0 to 10 {
                    affine.store %cst, %alloc[0, 0, 0, 0, %arg6, %arg7] : memref<1x1x1x1x16x10xf32, 2>
                  }
                }
                affine.for %arg6 = 0 to 2 {
                  affine.for %arg7 = 0 to 2 {
                    affine.for %arg8 = 0 to 16 {
                      affine.for %arg9 = 0 to 10 {
                        %0 = affine.load %alloc_0[%arg6, %arg7, %arg4, %arg5, %arg8, %arg9] : memref<2x2x3x3x16x10xf32, 2>
                      }
                    }
                    affine.for %arg8 = 0 to 16 {
                      affine.for %arg9 = 0 to 10 {
                        %0 = affine.load %alloc[0, 0, 0, 0, %arg8, %arg9] : memref<1x1x1x1x16x10xf32, 2>
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    return
  }
"""


def test_a_scheduler_that_runs_too_long_is_stopped_with_the_reason(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """isl's scheduler ignores the operation budget on deep nests (this one,
    from MLIR's loop-fusion tests, runs for minutes): it runs in a child
    process, stopped after SCHEDULE_TIMEOUT_S."""
    from affine_lsp.transforms import optimize_schedule

    monkeypatch.setattr(optimize_schedule, "SCHEDULE_TIMEOUT_S", 1.0)
    plan = plan_of(DEEP)
    assert not plan.ok and "did not finish within 1 s" in (plan.reason or ""), plan.reason
