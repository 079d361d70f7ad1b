"""The server on the upstream MLIR test files (skipped when the shared corpus
is absent): its diagnostics contain every error ``affine-lsp check`` reports
(same engine; the server's verifier is non-strict so it may report more), and
symbols, folding, semantic tokens and a hover on every op name answer without
a server error."""

from __future__ import annotations

import re

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp import diagnostics
from affine_lsp.source.document import Document
from tests.test_server_support import UPSTREAM, config, diagnostics_for, no_server_errors, open_doc, start

FILES = sorted(p for p in UPSTREAM.glob("*.mlir") if ".ref." not in p.name) if UPSTREAM.is_dir() else []

if not FILES:
    pytest.skip(f"upstream corpus not available at {UPSTREAM}", allow_module_level=True)

pytestmark = pytest.mark.asyncio(loop_scope="module")

OP_RE = re.compile(r"\b(affine\.[a-z_]+|func\.func|arith\.[a-z_]+|memref\.[a-z_]+)\b")


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    # The raw diagnostics, as `check` prints them: not matched against the
    # files' expected-* annotations (tests/test_server_expected.py does that).
    await start(lsp_client, init_options={"diagnostics": {"debounceMs": 0, "verifyDiagnostics": "never"}})
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
async def test_corpus_file(client: LanguageClient, path):
    text = path.read_text()
    uri = path.as_uri()
    open_doc(client, uri, text)
    diags = await diagnostics_for(client, uri, 1, timeout=120)
    got = {(d.range.start.line, d.range.start.character, d.message) for d in diags}
    doc = Document(text)
    expected = {(*doc.lines.position(n.span.start), n.message) for n in diagnostics.collect(doc) if n.severity == "error"}
    assert expected <= got, sorted(expected - got)[:5]
    ident = types.TextDocumentIdentifier(uri=uri)
    syms = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=ident))
    assert syms
    await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=ident))
    toks = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=ident))
    assert len(toks.data) % 5 == 0 and toks.data
    lines = text.split("\n")
    hovered = 0
    for ln, line in enumerate(lines):
        if line.lstrip().startswith("//"):
            continue
        for m in OP_RE.finditer(line):
            await client.text_document_hover_async(types.HoverParams(text_document=ident, position=types.Position(line=ln, character=m.start() + 1)))
            hovered += 1
            if hovered >= 150:
                break
        if hovered >= 150:
            break
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=ident))
