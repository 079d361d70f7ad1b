"""``textDocument/signatureHelp`` through a real client: the callee's
signature while a ``func.call``'s operands are written, with the operand the
cursor is on; nothing outside a call or for an unknown callee."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp.ide.signature import signature_at
from affine_lsp.source.document import Document
from tests.test_server_support import config, no_server_errors, open_doc, pos, start

pytestmark = pytest.mark.asyncio(loop_scope="module")

TEXT = """func.func @g(%a: memref<8xf32>, %i: index) -> f32 {
  %v = affine.load %a[%i] : memref<8xf32>
  return %v : f32
}
func.func @f(%a: memref<8xf32>, %c: index) -> f32 {
  %r = func.call @g(%a, %c) : (memref<8xf32>, index) -> f32
  %s = func.call @nowhere(%a) : (memref<8xf32>) -> f32
  return %r : f32
}
"""
URI = "file:///signature/calls.mlir"


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    lsp_client.init_result = await start(lsp_client)  # type: ignore[attr-defined]
    open_doc(lsp_client, URI, TEXT)
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


async def _help(client: LanguageClient, p: types.Position) -> types.SignatureHelp | None:
    return await client.text_document_signature_help_async(types.SignatureHelpParams(text_document=types.TextDocumentIdentifier(uri=URI), position=p))


async def test_the_capability_is_announced(client: LanguageClient):
    caps = client.init_result.capabilities  # type: ignore[attr-defined]
    assert caps.signature_help_provider is not None and "(" in (caps.signature_help_provider.trigger_characters or [])


async def test_the_callee_signature_and_the_active_operand(client: LanguageClient):
    first = await _help(client, pos(TEXT, "%a, %c)", delta=1))
    assert first is not None and first.signatures[0].label == "@g(memref<8xf32>, index) -> f32"
    assert first.active_parameter == 0
    label = first.signatures[0].label
    assert [label[s:e] for s, e in (p.label for p in first.signatures[0].parameters or [])] == ["memref<8xf32>", "index"]
    second = await _help(client, pos(TEXT, "%c) :", delta=1))
    assert second is not None and second.active_parameter == 1


async def test_nothing_outside_a_call_or_for_an_unknown_callee(client: LanguageClient):
    assert await _help(client, pos(TEXT, "affine.load")) is None
    assert await _help(client, pos(TEXT, "%a) : (memref<8xf32>) -> f32", delta=1)) is None


async def test_the_answer_is_plain_data() -> None:
    doc = Document(TEXT)
    sig = signature_at(doc, TEXT.index("%c) :"))
    assert sig is not None and sig.active == 1 and sig.label.startswith("@g(")
