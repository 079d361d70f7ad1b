"""Races in ``affine.parallel`` are warnings naming two conflicting
iterations (issue #14, item 5): mlir-opt accepts such IR, so they are never
errors, and ``affine-lsp check`` exits 0 on them."""

from __future__ import annotations

from pathlib import Path

import pytest

from affine_lsp.cli import main
from tests import oracle

RACY = """func.func @same_element(%A: memref<100xf32>, %N: index) {
  %c1 = arith.constant 1.0 : f32
  affine.parallel (%i) = (0) to (10) {
    affine.store %c1, %A[0] : memref<100xf32>
  }
  affine.parallel (%i) = (0) to (%N) {
    affine.store %c1, %A[%N floordiv 2] : memref<100xf32>
  }
  affine.parallel (%i) = (0) to (10) {
    %v = affine.load %A[%i] : memref<100xf32>
    affine.store %v, %A[%i + 2] : memref<100xf32>
  }
  return
}
"""


def test_racy_parallel_is_a_warning_with_an_example_pair(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "racy.mlir"
    f.write_text(RACY)
    assert main(["check", str(f)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert not any(": error: " in ln for ln in out)
    assert [ln for ln in out if "race" in ln and ": note: " not in ln] == [
        f"{f}:3:3: warning: 'affine.parallel' op iterations race: iterations (%i = 0) and (%i = 1) both write %A[0]",
        f"{f}:6:3: warning: 'affine.parallel' op iterations race: iterations (%i = 0) and (%i = 1) both write %A[1] (with %N = 2)",
        f"{f}:9:3: warning: 'affine.parallel' op iterations race: iteration (%i = 0) writes %A[2], which iteration (%i = 2) reads",
    ]
    assert f"{f}:3:3: note: WAW dependence from 'affine.store' on %A to 'affine.store' on %A across iterations (distance [1, 9])" in out


@pytest.mark.skipif(not oracle.available(), reason="mlir-opt 22.1.8 not available")
def test_mlir_opt_accepts_the_racy_ir() -> None:
    assert oracle.errors(RACY) == []
