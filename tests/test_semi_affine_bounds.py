"""Out-of-bounds warnings on semi-affine subscripts (issue #14, item 6).

mlir-opt 22.1.8's release build has no ``-memref-bound-check`` pass, so its
output cannot be compared here. MLIR's ``boundCheckLoadOrStoreOp`` computes
the accessed region with ``MemRefRegion::compute``, whose flattener turns
each semi-affine sub-expression (``d0 * s0``, ``d0 floordiv s0``) into a
local variable without constraints: an index ``d0 * s0`` is unbounded, and
MLIR reports it out of both bounds (its test ``test_semi_affine_access`` in
``memref-bound-check.mlir`` expects exactly these two errors); ``(d0 * s0)
mod 10`` stays within ``[0, 9]``. affine-lsp does the same, as warnings,
with a note that the check is conservative.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp.cli import main
from tests import oracle
from tests.test_server_support import config, diagnostics_for, no_server_errors, open_doc, start

SEMI = """func.func @apply_chain(%n: index) {
  %m = memref.alloc() : memref<16xi32>
  affine.for %i = 0 to 16 {
    %k = affine.apply affine_map<(d0)[s0] -> (d0 * s0)>(%i)[%n]
    %x = affine.load %m[%k] : memref<16xi32>
  }
  return
}
func.func @inline(%A: memref<10x20xf32>, %n: index) {
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 21 {
      %y = affine.load %A[(%i * symbol(%n)) mod 10, %j] : memref<10x20xf32>
      %z = affine.load %A[%i floordiv symbol(%n), 0] : memref<10x20xf32>
      affine.store %z, %A[(%i * symbol(%n)) mod 10, %j floordiv 2] : memref<10x20xf32>
    }
  }
  return
}
"""

NOTE = (
    "the subscript along dimension #1 is semi-affine: like MLIR's bound check, affine analysis treats its semi-affine part as unbounded, "
    "so this check is conservative and the access may be in bounds"
)


def test_semi_affine_subscripts_are_checked_like_mlir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "semi.mlir"
    f.write_text(SEMI)
    assert main(["check", str(f)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{f}:5:10: warning: 'affine.load' op memref out of upper bound access along dimension #1",
        f"{f}:5:10: note: {NOTE}",
        f"{f}:5:10: warning: 'affine.load' op memref out of lower bound access along dimension #1",
        f"{f}:5:10: note: {NOTE}",
        # the mod keeps dimension #1 in bounds; the affine dimension #2 is checked as usual
        f"{f}:12:12: warning: 'affine.load' op memref out of upper bound access along dimension #2",
        f"{f}:12:12: note: for example at %i = 0, %j = 20, its index along dimension #2 is 20",
        f"{f}:13:12: warning: 'affine.load' op memref out of upper bound access along dimension #1",
        f"{f}:13:12: note: {NOTE}",
        f"{f}:13:12: warning: 'affine.load' op memref out of lower bound access along dimension #1",
        f"{f}:13:12: note: {NOTE}",
    ]


@pytest.mark.skipif(not oracle.available(), reason="mlir-opt 22.1.8 not available")
def test_mlir_opt_accepts_the_semi_affine_accesses() -> None:
    assert oracle.errors(SEMI) == []


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    await start(lsp_client, init_options={"diagnostics": {"debounceMs": 0}})
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_server_publishes_semi_affine_bound_warnings(client: LanguageClient) -> None:
    uri = "file:///tmp/affine-lsp-test/semi-affine.mlir"
    open_doc(client, uri, SEMI)
    diags = await diagnostics_for(client, uri, 1, pred=lambda d: any("bound access" in x.message for x in d))
    got = [(d.range.start.line, d.message, d.severity) for d in diags if d.range.start.line == 4]
    warning = types.DiagnosticSeverity.Warning
    assert got == [
        (4, "'affine.load' op memref out of upper bound access along dimension #1", warning),
        (4, "'affine.load' op memref out of lower bound access along dimension #1", warning),
    ]
    related = [r.message for d in diags if d.range.start.line == 4 for r in d.related_information or []]
    assert related == [NOTE, NOTE]
