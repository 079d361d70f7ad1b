"""The language server on the ops of the dialect families (over stdio,
pytest-lsp): tests/data/families.mlir gets no diagnostic, and hover, go to
definition, document symbols, folding, semantic tokens and inlay hints
answer on it without a server error."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.test_server_support import config, diagnostics_for, hover_text, no_server_errors, open_doc, pos, start

pytestmark = pytest.mark.asyncio(loop_scope="module")

FAMILIES = Path(__file__).parent / "data" / "families.mlir"
TEXT = FAMILIES.read_text()
URI = FAMILIES.as_uri()
DOC = types.TextDocumentIdentifier(uri=URI)


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    await start(lsp_client)
    open_doc(lsp_client, URI, TEXT)
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


async def test_no_diagnostics(client: LanguageClient) -> None:
    assert await diagnostics_for(client, URI, 1) == []


async def test_region_arguments_resolve_for_navigation(client: LanguageClient) -> None:
    """A use of gpu.launch's `%tx` inside its body goes to `%tx` in `threads(...)`."""
    use = pos(TEXT, "%w[%tx]", delta=3)
    got = await client.text_document_definition_async(types.DefinitionParams(text_document=DOC, position=use))
    locs = got if isinstance(got, list) else [got]
    assert [(loc.range.start.line, loc.range.start.character) for loc in locs] == [(pos(TEXT, "threads(%tx").line, pos(TEXT, "threads(%tx").character + 8)]  # type: ignore[union-attr]
    assert "%tx" in hover_text(await client.text_document_hover_async(types.HoverParams(text_document=DOC, position=use)))


async def test_every_feature_answers(client: LanguageClient) -> None:
    for needle in ("scf.while", "gpu.launch", "linalg.generic", "llvm.getelementptr", "tensor.extract_slice", "vector.contract", "%bx"):
        await client.text_document_hover_async(types.HoverParams(text_document=DOC, position=pos(TEXT, needle, delta=1)))
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=DOC))
    assert symbols
    folds = await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=DOC))
    assert folds and any(pos(TEXT, "gpu.launch async").line <= f.start_line <= pos(TEXT, "private(%p").line for f in folds)
    tokens = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=DOC))
    assert tokens is not None and tokens.data
    end = types.Position(line=TEXT.count("\n"), character=0)
    await client.text_document_inlay_hint_async(types.InlayHintParams(text_document=DOC, range=types.Range(start=types.Position(line=0, character=0), end=end)))
    no_server_errors(client)
