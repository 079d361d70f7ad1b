"""Tile / Skew and tile / Interchange through the real server (pytest-lsp):
offered on a loop header with the sizes of ``affineLsp.transforms.tileSizes``,
disabled with the offending dependence when illegal, their edits verify, and
the loop hover lists which of them are legal."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp import diagnostics
from affine_lsp.source.document import Document
from tests.test_server_support import apply_edits, code_actions_at, config, hover_text, pos, serving

pytestmark = pytest.mark.asyncio(loop_scope="module")

TEXT = """func.func @matmul(%A: memref<40x50xf32>, %B: memref<50x30xf32>, %C: memref<40x30xf32>) {
  affine.for %i = 0 to 40 {
    affine.for %j = 0 to 30 {
      affine.for %k = 0 to 50 {
        %a = affine.load %A[%i, %k] : memref<40x50xf32>
        %b = affine.load %B[%k, %j] : memref<50x30xf32>
        %c = affine.load %C[%i, %j] : memref<40x30xf32>
        %m = arith.mulf %a, %b : f32
        %s = arith.addf %c, %m : f32
        affine.store %s, %C[%i, %j] : memref<40x30xf32>
      }
    }
  }
  return
}

func.func @seidel(%A: memref<20xf32>) {
  affine.for %t = 0 to 6 {
    affine.for %i = 1 to 19 {
      %a = affine.load %A[%i - 1] : memref<20xf32>
      %b = affine.load %A[%i + 1] : memref<20xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %A[%i] : memref<20xf32>
    }
  }
  return
}
"""
URI = "file:///tile.mlir"


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    async for _ in serving(lsp_client, URI, TEXT, init_options={"transforms": {"tileSizes": [8, 4]}}):
        yield


async def actions(client: LanguageClient, p: types.Position) -> list[types.CodeAction]:
    return await code_actions_at(client, URI, p)


def errors(text: str) -> list[str]:
    return [n.message for n in diagnostics.collect(Document(text)) if n.severity == "error"]


def applied(a: types.CodeAction) -> str:
    assert a.edit is not None and a.disabled is None, a.title
    return apply_edits(TEXT, a.edit.changes[URI])  # type: ignore[index]


async def test_tile_and_interchange_for_locality_on_matmul(client: LanguageClient):
    got = {a.title: a for a in await actions(client, pos(TEXT, "affine.for %i", delta=3))}
    tile = next((a for t, a in got.items() if t.startswith("Tile loop nest (8x4x4)")), None)  # the title ends with the prediction
    assert tile is not None, list(got)
    tiled = applied(tile)
    assert errors(tiled) == []
    assert "affine.for %i_t = 0 to 40 step 8" in tiled and "affine.for %j_t = 0 to 30 step 4" in tiled
    assert "min affine_map<(d0) -> (30, d0 + 4)>(%j_t)" in tiled  # 30 is not a multiple of 4: partial tiles
    loc = [a for t, a in got.items() if t.startswith("Interchange for locality: %j innermost")]
    assert loc and "4/4 accesses unit-stride or invariant, instead of 3/4" in loc[0].title
    swapped = applied(loc[0])
    assert errors(swapped) == []
    body = swapped[swapped.index("affine.for %i") :]
    assert body.index("affine.for %k") < body.index("affine.for %j")
    assert not any(t.startswith("Skew and tile") for t in got)  # no skew needed
    swapped = applied(next(a for t, a in got.items() if t.startswith("Interchange loops (%j, %i, %k)")))
    assert errors(swapped) == []
    body = swapped[swapped.index("func.func @matmul") :]
    assert body.index("affine.for %j") < body.index("affine.for %i") < body.index("affine.for %k")


async def test_refused_with_the_dependence_and_skew_offered(client: LanguageClient):
    got = {a.title: a for a in await actions(client, pos(TEXT, "affine.for %t", delta=3))}
    tile = [a for t, a in got.items() if t.startswith("Tile loop nest")]
    assert tile and tile[0].disabled is not None and tile[0].edit is None
    reason = tile[0].disabled.reason
    # the load of A[i - 1] at a later %t reads what an earlier %t wrote one element to the right
    assert "WAR dependence from 'affine.load' on %A to 'affine.store' on %A with distance ([1, 5], -1) along (%t, %i): negative along %i" in reason, reason
    skew = [a for t, a in got.items() if t.startswith("Skew and tile loop nest (8x4, skew %i → %i + %t)")]
    assert skew, list(got)
    skewed = applied(skew[0])
    assert errors(skewed) == [] and "affine.apply" in skewed
    swap = [a for t, a in got.items() if t.startswith("Interchange loops (%i, %t)")]
    assert swap and swap[0].disabled is not None and "would be reversed" in swap[0].disabled.reason


async def test_hover_lists_the_legal_transformations(client: LanguageClient):
    h = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=URI), position=pos(TEXT, "affine.for %t", delta=3))
    )
    text = hover_text(h)
    assert "**Transformations**" in text
    assert "- tile (2-loop band): not legal — the band is not fully permutable: WAR dependence" in text
    assert "- skew and tile (%i → %i + %t): legal" in text
    assert "- interchange to (%i, %t): not legal" in text and "would be reversed" in text
    h = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=URI), position=pos(TEXT, "affine.for %i", delta=3))
    )
    text = hover_text(h)
    assert "- tile (3-loop band): legal" in text and "- skew and tile (no skew needed): legal" in text
    assert "- interchange to (%i, %k, %j) (for locality: 4/4 accesses unit-stride or invariant instead of 3/4): legal" in text
