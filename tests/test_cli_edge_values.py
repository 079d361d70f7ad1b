"""The smaller findings of issue #44 (item 7) in the CLI: ``plot
--max-points`` out of range, loop bounds near 2^63, the generic form (and
MLIR bytecode) of ``affine.parallel``, and an alias definition in error.
Each gets a clear diagnostic, never a traceback or a false error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from affine_lsp.commands import frontend
from tests import oracle

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT), AFFINE_LSP_PREFORK="0")
CLI = [sys.executable, "-m", "affine_lsp"]


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *argv], capture_output=True, text=True, env=ENV, timeout=300)


BIG_NEST = """func.func @f(%A: memref<10000x10000xf32>) {
  affine.for %i = 0 to 10000 {
    affine.for %j = 0 to 10000 {
      %v = affine.load %A[%i, %j] : memref<10000x10000xf32>
    }
  }
  return
}
"""


@pytest.mark.parametrize("value", ["100000000", "-1", "0", "x"])
def test_plot_max_points_out_of_range_is_a_usage_error(tmp_path: Path, value: str) -> None:
    path = tmp_path / "f.mlir"
    path.write_text(BIG_NEST)
    p = _run("plot", str(path), "--max-points", value)
    assert p.returncode == frontend.EXIT_USAGE
    assert "argument --max-points:" in p.stderr and "Traceback" not in p.stderr


def test_plot_past_the_operation_budget_says_so(tmp_path: Path) -> None:
    # Enumerating 100,000 points of a 10^8 box trips isl's budget inside
    # the point callback: one line, no traceback of islpy's.
    path = tmp_path / "f.mlir"
    path.write_text(BIG_NEST)
    p = _run("plot", str(path), "--max-points", "100000")
    assert p.returncode == frontend.EXIT_ERRORS
    assert p.stderr == f"{path}:2: error: dependence analysis budget exceeded (2000000 isl operations) while drawing the domain\n"


def test_plot_of_a_loop_from_minus_two_to_the_63(tmp_path: Path) -> None:
    # The sampling grid through the first point (-2^63) was an isl syntax
    # error ("x - -9223372036854775808"); now the picture of its 2^63
    # points is sampled until isl's budget says no more.
    path = tmp_path / "f.mlir"
    path.write_text(
        "func.func @f(%A: memref<?xf32>) {\n  affine.for %i = -9223372036854775808 to 10 {\n    %v = affine.load %A[%i] : memref<?xf32>\n  }\n  return\n}\n"
    )
    p = _run("plot", str(path), "--format", "json")
    assert "syntax error" not in p.stderr and "Traceback" not in p.stderr, p.stderr
    if p.returncode == 0:
        assert json.loads(p.stdout)["sampled"] is True
    else:
        assert p.returncode == frontend.EXIT_ERRORS
        assert p.stderr == f"{path}:2: error: dependence analysis budget exceeded (2000000 isl operations) while drawing the domain\n"


RACY_PARALLEL = """func.func @f(%A: memref<10xf32>) {
  affine.parallel (%i) = (0) to (10) {
    %v = affine.load %A[0] : memref<10xf32>
    affine.store %v, %A[%i] : memref<10xf32>
  }
  return
}
"""


@pytest.mark.skipif(not oracle.available(), reason="the MLIR reference toolchain is not installed")
def test_affine_parallel_in_bytecode_and_generic_form_gets_the_race_warning(tmp_path: Path) -> None:
    text = tmp_path / "par.mlir"
    text.write_text(RACY_PARALLEL)
    found = oracle.mlir_opt()
    assert found is not None
    exe, env = found
    bc = tmp_path / "par.mlirbc"
    subprocess.run([str(exe), str(text), "--emit-bytecode", "-o", str(bc)], env=env, check=True, timeout=120)
    generic = tmp_path / "generic.mlir"
    subprocess.run([str(exe), str(text), "--mlir-print-op-generic", "-o", str(generic)], env=env, check=True, timeout=120)
    assert "lowerBoundsGroups = dense<" in generic.read_text()
    for path in (text, bc, generic):
        p = _run("check", str(path))
        assert "malformed affine.parallel bounds" not in p.stdout, (path, p.stdout)
        warnings = [ln for ln in p.stdout.splitlines() if ": warning: " in ln]
        assert len(warnings) == 1 and "'affine.parallel' op iterations race: iteration (" in warnings[0], (path, p.stdout)
        assert warnings[0].endswith("[0], which iteration (" + warnings[0].split("iteration (")[1].split(" =")[0] + " = 1) reads"), (path, p.stdout)


@pytest.mark.parametrize(
    "alias",
    [
        "#m = affine_map<(d0) -> (d0 +)>",  # a syntax error
        "#m = affine_map<(d0) -> (" + " + ".join(f"d0 * {k + 1}" for k in range(10000)) + ")>",  # past the nesting limit
    ],
    ids=["syntax-error", "10000-terms"],
)
def test_an_alias_in_error_has_no_follow_on_undefined_error(tmp_path: Path, alias: str) -> None:
    path = tmp_path / "f.mlir"
    path.write_text(alias + "\nfunc.func @f() {\n  affine.for %i = 0 to 10 {\n    %x = affine.apply #m(%i)\n  }\n  return\n}\n")
    p = _run("check", str(path))
    assert p.returncode == frontend.EXIT_ERRORS
    errors = [ln for ln in p.stdout.splitlines() if ": error: " in ln]
    assert len(errors) == 1 and errors[0].startswith(f"{path}:1:"), p.stdout
    assert "undefined symbol alias" not in p.stdout
    # A name that is defined nowhere still is an error.
    path.write_text("func.func @f() {\n  affine.for %i = 0 to 10 {\n    %x = affine.apply #m(%i)\n  }\n  return\n}\n")
    assert "undefined symbol alias id 'm'" in _run("check", str(path)).stdout
