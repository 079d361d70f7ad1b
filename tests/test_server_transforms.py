"""The loop-transformation code actions through the real server (pytest-lsp):
offered on a loop header, disabled with a reason when illegal, and their
edits give a program that parses and verifies."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp import diagnostics
from affine_lsp.source.document import Document
from tests.test_server_support import apply_edits, code_actions_at, config, pos, serving

pytestmark = pytest.mark.asyncio(loop_scope="module")

TEXT = """func.func @pc(%in: memref<64xf32>, %out: memref<64xf32>) {
  %tmp = memref.alloc() : memref<64xf32>
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 64 {
    %v = affine.load %in[%i] : memref<64xf32>
    %d = arith.mulf %v, %two : f32
    affine.store %d, %tmp[%i] : memref<64xf32>
  }
  affine.for %j = 0 to 64 {
    %t = affine.load %tmp[%j] : memref<64xf32>
    affine.store %t, %out[%j] : memref<64xf32>
  }
  memref.dealloc %tmp : memref<64xf32>
  return
}

func.func @carried(%a: memref<100xf32>) {
  %one = arith.constant 1.0 : f32
  affine.for %k = 2 to 100 {
    %x = affine.load %a[%k - 2] : memref<100xf32>
    %y = arith.addf %x, %one : f32
    affine.store %y, %a[%k] : memref<100xf32>
  }
  return
}
"""
URI = "file:///transforms.mlir"


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    async for _ in serving(lsp_client, URI, TEXT):
        yield


async def actions(client: LanguageClient, p: types.Position, end: types.Position | None = None) -> list[types.CodeAction]:
    return await code_actions_at(client, URI, p, end)


def errors(text: str) -> list[str]:
    return [n.message for n in diagnostics.collect(Document(text)) if n.severity == "error"]


async def test_fuse_vectorize_parallelize_on_a_loop_header(client: LanguageClient):
    got = await actions(client, pos(TEXT, "affine.for %i", delta=3))
    titles = [a.title for a in got]
    fuse = [a for a in got if a.title.startswith("Fuse loops here (producer-consumer")]
    assert fuse, titles
    assert any(t.startswith("Vectorize loop (VF=8)") for t in titles)
    assert "Parallelize loop" in titles
    fused = apply_edits(TEXT, fuse[0].edit.changes[URI])  # type: ignore[union-attr, index]
    assert errors(fused) == []
    pc = fused[: fused.index("func.func @carried")]
    assert pc.count("affine.for") == 1  # the two nests became one
    assert fused[fused.index("func.func @carried") :] == TEXT[TEXT.index("func.func @carried") :]  # untouched text kept
    for a in got:
        if a.edit is not None:
            assert errors(apply_edits(TEXT, a.edit.changes[URI])) == [], a.title  # type: ignore[index]


async def test_illegal_transforms_are_disabled_with_the_reason(client: LanguageClient):
    got = await actions(client, pos(TEXT, "affine.for %k", delta=3))
    assert not any(a.title.startswith("Fuse loops here") for a in got)
    vec = [a for a in got if a.title.startswith("Vectorize loop")]
    par = [a for a in got if a.title.startswith("Parallelize loop")]
    assert vec and par
    for a in vec + par:
        assert a.disabled is not None and a.edit is None
        assert "RAW dependence carried by the loop" in a.disabled.reason and "distance [2, 2]" in a.disabled.reason


async def test_nothing_off_a_loop_header(client: LanguageClient):
    assert await actions(client, pos(TEXT, "arith.mulf")) == []


async def test_selecting_two_nests_offers_their_fusion(client: LanguageClient):
    start_ = pos(TEXT, "affine.for %i")
    end = pos(TEXT, "  memref.dealloc")
    got = await actions(client, start_, end)
    assert [a.title for a in got if a.title.startswith("Fuse loops here")] != []


async def test_loop_hover_lists_fusion_profitability_at_every_depth(client: LanguageClient):
    h = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=URI), position=pos(TEXT, "affine.for %i", delta=3))
    )
    assert h is not None
    text = h.contents.value if isinstance(h.contents, types.MarkupContent) else str(h.contents)
    assert "Fusion producer-consumer" in text and "| depth | compute | storage |" in text
    assert "MLIR's cost model picks depth 1" in text
