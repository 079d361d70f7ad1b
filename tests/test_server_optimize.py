""" "Optimize loop nest" through the real server (pytest-lsp): offered on the
header of a top-level nest with its prediction in the title, its edit
verifies and computes the same values (executed when mlir-runner is
installed); on a function's consecutive nests, "Optimize loop nests"
reschedules them together; a nest with a non-affine access or a call is
offered disabled, with the reason."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp import diagnostics
from affine_lsp.source.document import Document
from tests import oracle
from tests.test_server_support import apply_edits, config, serving
from tests.test_tile_exec import run_variants

pytestmark = pytest.mark.asyncio(loop_scope="module")

TEXT = """func.func @matmul(%A: memref<40x50xf32>, %B: memref<50x70xf32>, %C: memref<40x70xf32>) {
  affine.for %i = 0 to 40 {
    affine.for %j = 0 to 70 {
      affine.for %k = 0 to 50 {
        %a = affine.load %A[%i, %k] : memref<40x50xf32>
        %b = affine.load %B[%k, %j] : memref<50x70xf32>
        %c = affine.load %C[%i, %j] : memref<40x70xf32>
        %m = arith.mulf %a, %b : f32
        %s = arith.addf %c, %m : f32
        affine.store %s, %C[%i, %j] : memref<40x70xf32>
      }
    }
  }
  return
}

func.func @two(%A: memref<40x40xf32>, %B: memref<40x40xf32>, %C: memref<40x40xf32>) {
  affine.for %i = 0 to 40 {
    affine.for %j = 0 to 40 {
      %a = affine.load %A[%j, %i] : memref<40x40xf32>
      affine.store %a, %B[%j, %i] : memref<40x40xf32>
    }
  }
  affine.for %i = 0 to 40 {
    affine.for %j = 0 to 40 {
      %b = affine.load %B[%j, %i] : memref<40x40xf32>
      %c = arith.addf %b, %b : f32
      affine.store %c, %C[%j, %i] : memref<40x40xf32>
    }
  }
  return
}

func.func @indirect(%A: memref<40xf32>, %I: memref<40xindex>) {
  affine.for %i = 0 to 40 {
    %x = affine.load %I[%i] : memref<40xindex>
    %v = memref.load %A[%x] : memref<40xf32>
    affine.store %v, %A[%i] : memref<40xf32>
  }
  return
}
"""
URI = "file:///optimize.mlir"


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    async for _ in serving(lsp_client, URI, TEXT):
        yield


async def actions(client: LanguageClient, line: int) -> list[types.CodeAction]:
    p = types.Position(line=line, character=4)
    res = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            range=types.Range(start=p, end=p),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    return [a for a in res or [] if isinstance(a, types.CodeAction) and a.title.startswith("Optimize loop nest")]


def errors(text: str) -> list[str]:
    return [n.message for n in diagnostics.collect(Document(text)) if n.severity == "error"]


def applied(a: types.CodeAction) -> str:
    assert a.edit is not None and a.disabled is None, a.title
    return apply_edits(TEXT, a.edit.changes[URI])  # type: ignore[index]


def executable(text: str) -> str:
    """The functions the execution harness can fill (not @indirect's index memref)."""
    return text[: text.index("func.func @indirect")]


def line_of(text: str, needle: str, nth: int = 0) -> int:
    lines = [k for k, ln in enumerate(text.splitlines()) if needle in ln]
    return lines[nth]


async def test_optimize_matmul_is_offered_with_its_prediction_and_its_edit_verifies(client: LanguageClient):
    acts = await actions(client, 1)
    assert len(acts) == 1
    a = acts[0]
    assert a.title.startswith("Optimize loop nest (~") and "x faster" in a.title, a.title
    assert a.is_preferred
    new = applied(a)
    assert errors(new) == []
    body = new[: new.index("func.func @two")]
    assert "%k = " in body and "%j = " in body  # the original names kept (the matrices fit in cache: not tiled)
    # the intra-tile order puts the unit-stride parallel loop (j) innermost
    assert body.index("affine.for %k =") < body.index("affine.for %j =")
    if oracle.runner_available():
        results = run_variants(executable(TEXT), {"opt": executable(new)})
        assert results["opt"] == results[""]


async def test_optimize_both_nests_of_a_function_together(client: LanguageClient):
    acts = await actions(client, line_of(TEXT, "affine.for %i = 0 to 40 {", 1))
    titles = [a.title for a in acts]
    assert any(t.startswith("Optimize loop nests (2 nests)") for t in titles), titles
    both = next(a for a in acts if a.title.startswith("Optimize loop nests (2 nests)"))
    new = applied(both)
    assert errors(new) == []
    fn = new[new.index("func.func @two") : new.index("func.func @indirect")]
    # column-major accesses: the new innermost loop runs along the rows' elements
    assert "%B[%j, %i]" in fn
    if oracle.runner_available():
        results = run_variants(executable(TEXT), {"opt": executable(new)})
        assert results["opt"] == results[""]


async def test_a_non_affine_access_is_refused_with_its_reason(client: LanguageClient):
    acts = await actions(client, line_of(TEXT, "affine.for %i = 0 to 40 {", 3))
    assert len(acts) == 1
    a = acts[0]
    assert a.disabled is not None and a.edit is None
    assert "'memref.load' is not an affine access" in a.disabled.reason
