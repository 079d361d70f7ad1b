"""Unroll, unroll-and-jam, hoisting and scalar replacement through the real
server (pytest-lsp): the code actions on a loop header (disabled with the
forbidding dependence when illegal) give programs that parse and verify,
and the loop hover lists which of them are legal."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp import diagnostics
from affine_lsp.source.document import Document
from tests.test_server_support import apply_edits, code_actions_at, config, pos, serving

pytestmark = pytest.mark.asyncio(loop_scope="module")

TEXT = """func.func @skewed(%A: memref<12x12xi32>) {
  affine.for %i = 1 to 11 {
    affine.for %j = 0 to 11 {
      %a = affine.load %A[%i - 1, %j + 1] : memref<12x12xi32>
      affine.store %a, %A[%i, %j] : memref<12x12xi32>
    }
  }
  return
}

func.func @forward(%A: memref<12x12xi32>, %S: memref<2xi32>) {
  affine.for %i = 1 to 12 {
    affine.for %j = 1 to 12 {
      %s = affine.load %S[0] : memref<2xi32>
      %a = affine.load %A[%i - 1, %j - 1] : memref<12x12xi32>
      %b = arith.addi %a, %s : i32
      affine.store %b, %A[%i, %j] : memref<12x12xi32>
      %c = affine.load %A[%i, %j] : memref<12x12xi32>
      %d = arith.muli %c, %c : i32
      affine.store %d, %A[%i, %j] : memref<12x12xi32>
    }
  }
  return
}

func.func @small(%B: memref<8xf32>) -> f32 {
  %z = arith.constant 0.0 : f32
  %r = affine.for %k = 0 to 6 iter_args(%acc = %z) -> (f32) {
    %b = affine.load %B[%k] : memref<8xf32>
    %s = arith.addf %acc, %b : f32
    affine.yield %s : f32
  }
  return %r : f32
}
"""
URI = "file:///toolbox.mlir"


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    async for _ in serving(lsp_client, URI, TEXT):
        yield


async def actions(client: LanguageClient, p: types.Position) -> dict[str, types.CodeAction]:
    return {a.title: a for a in await code_actions_at(client, URI, p)}


def errors(text: str) -> list[str]:
    return [n.message for n in diagnostics.collect(Document(text)) if n.severity == "error"]


def applied(a: types.CodeAction) -> str:
    assert a.disabled is None and a.edit is not None and a.edit.changes is not None, a
    new = apply_edits(TEXT, a.edit.changes[URI])
    assert errors(new) == [], new
    return new


async def hover(client: LanguageClient, p: types.Position) -> str:
    h = await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=URI), position=p))
    assert h is not None and isinstance(h.contents, types.MarkupContent)
    return h.contents.value


async def test_unroll_and_jam_refused_with_the_dependence(client: LanguageClient):
    got = await actions(client, pos(TEXT, "affine.for %i = 1 to 11", delta=3))
    jam = [a for t, a in got.items() if t.startswith("Unroll and jam loop by 2")]
    assert len(jam) == 1 and jam[0].disabled is not None
    assert "would reverse the RAW dependence" in jam[0].disabled.reason
    # plain unrolling never reorders anything: offered
    new = applied(got["Unroll loop by 4"])
    assert "step 4" in new and "affine.apply affine_map<(d0) -> (d0 + 3)>(%i)" in new


async def test_unroll_and_jam_hoist_and_scalar_replacement_applied(client: LanguageClient):
    outer = await actions(client, pos(TEXT, "affine.for %i = 1 to 12", delta=3))
    new = applied(next(a for t, a in outer.items() if t.startswith("Unroll and jam loop by 2")))  # the title ends with the prediction
    fwd = new[new.index("@forward") : new.index("@small")]
    assert "affine.for %i = 1 to 11 step 2" in fwd and fwd.count("affine.for %j = 1 to 12") == 1  # jammed
    assert "affine.for %i_c = 11 to 12" in fwd  # the cleanup iteration
    inner = await actions(client, pos(TEXT, "affine.for %j = 1 to 12", delta=3))
    hoisted = applied(inner["Hoist 1 loop-invariant op out of the loop"])
    assert hoisted.index("affine.load %S[0]") < hoisted.index("affine.for %j = 1 to 12")
    rep = [a for t, a in inner.items() if t.startswith("Scalar-replace 1 load")]
    assert rep, list(inner)
    replaced = applied(rep[0])
    assert "%c = affine.load" not in replaced and "arith.muli %b, %b" in replaced


async def test_full_unroll_with_iter_args(client: LanguageClient):
    got = await actions(client, pos(TEXT, "affine.for %k", delta=3))
    new = applied(got["Fully unroll loop"])
    assert "affine.for %k" not in new and "return %s_u5 : f32" in new


async def test_hover_lists_the_transformations(client: LanguageClient):
    text = await hover(client, pos(TEXT, "affine.for %i = 1 to 11", delta=3))
    assert "**Transformations**" in text
    assert "- unroll by 4: legal" in text
    assert "- unroll and jam by 2: not legal — unroll-and-jam by 2 would reverse the RAW dependence" in text
    text = await hover(client, pos(TEXT, "affine.for %j = 1 to 12", delta=3))
    assert "- hoist invariant code (1 op): legal" in text
    assert "- scalar replacement (1 load): legal" in text
    assert "- full unroll: legal" in text
