"""Malformed traffic never kills the server: unknown methods, bad params,
unopened documents, out-of-range positions, malformed JSON, cancellation;
and the TCP transport."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from bench.generate import generate
from tests.test_server_support import DATA, RawClient, config, diagnostics_for, no_server_errors, open_doc, open_file, server_env, start

KERNELS = (DATA / "kernels.mlir").read_text()
NOWHERE = types.TextDocumentIdentifier(uri="file:///not/open.mlir")
FAR = types.Position(line=10**6, character=10**6)


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    await start(lsp_client)
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_unknown_methods(client: LanguageClient):
    with pytest.raises(Exception, match="Method Not Found"):
        await client.protocol.send_request_async("affine/noSuchMethod", {"x": 1})
    # notifications with unknown methods or bad params are ignored
    client.protocol.notify("affine/unknownNotification", {"a": 1})
    client.protocol.notify("$/unknownNotification", None)
    # ... and the server still answers
    uri, _ = open_file(client, "kernels.mlir")
    await diagnostics_for(client, uri, 1)
    h = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=10, character=4))
    )
    assert h is not None


@pytest.mark.asyncio(loop_scope="module")
async def test_unopened_documents_get_empty_answers(client: LanguageClient):
    p = types.Position(line=0, character=0)
    rng = types.Range(start=p, end=p)
    assert await client.text_document_hover_async(types.HoverParams(text_document=NOWHERE, position=p)) is None
    assert await client.text_document_definition_async(types.DefinitionParams(text_document=NOWHERE, position=p)) is None
    assert not await client.text_document_references_async(
        types.ReferenceParams(text_document=NOWHERE, position=p, context=types.ReferenceContext(include_declaration=True))
    )
    assert not await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=NOWHERE))
    assert not await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=NOWHERE))
    toks = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=NOWHERE))
    assert len(toks.data) == 0
    comp = await client.text_document_completion_async(types.CompletionParams(text_document=NOWHERE, position=p))
    assert len(comp.items) == 0
    assert not await client.text_document_inlay_hint_async(types.InlayHintParams(text_document=NOWHERE, range=rng))
    assert not await client.text_document_code_action_async(
        types.CodeActionParams(text_document=NOWHERE, range=rng, context=types.CodeActionContext(diagnostics=[]))
    )
    assert await client.text_document_rename_async(types.RenameParams(text_document=NOWHERE, position=p, new_name="%x")) is None
    # changes and saves of unopened documents are ignored
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=NOWHERE.uri, version=3),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text="garbage")],
        )
    )
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=NOWHERE))
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=NOWHERE))


@pytest.mark.asyncio(loop_scope="module")
async def test_out_of_range_positions(client: LanguageClient):
    uri, _ = open_file(client, "kernels.mlir")
    ident = types.TextDocumentIdentifier(uri=uri)
    await client.text_document_hover_async(types.HoverParams(text_document=ident, position=FAR))
    await client.text_document_definition_async(types.DefinitionParams(text_document=ident, position=FAR))
    await client.text_document_completion_async(types.CompletionParams(text_document=ident, position=FAR))
    await client.text_document_prepare_rename_async(types.PrepareRenameParams(text_document=ident, position=FAR))
    await client.text_document_inlay_hint_async(types.InlayHintParams(text_document=ident, range=types.Range(start=FAR, end=FAR)))
    await client.text_document_semantic_tokens_range_async(types.SemanticTokensRangeParams(text_document=ident, range=types.Range(start=FAR, end=FAR)))
    await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="affine-lsp.showDependences", arguments=[{"uri": uri, "position": {"line": 10**6, "character": 5}}])
    )
    # an edit whose range lies past the end is clamped (and mirrored identically)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangePartial(range=types.Range(start=FAR, end=FAR), text="\n// appended\n")],
        )
    )
    await diagnostics_for(client, uri, 2)


@pytest.mark.asyncio(loop_scope="module")
async def test_cancel_request(client: LanguageClient):
    uri, _ = open_file(client, "kernels.mlir")
    ident = types.TextDocumentIdentifier(uri=uri)
    # Requests that take a while (semantic tokens of 20k lines), so that the
    # later ones are still queued when their cancellation arrives.
    big = "file:///cancel/big.mlir"
    open_doc(client, big, generate(20_000))
    big_ident = types.TextDocumentIdentifier(uri=big)
    futures = []
    for k in range(20):
        msg_id = f"cancel-me-{k}"
        fut = client.protocol.send_request(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, types.SemanticTokensParams(text_document=big_ident), msg_id=msg_id)
        client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=msg_id))
        futures.append(fut)
    outcomes = []
    for fut in futures:
        try:
            await asyncio.wait_for(asyncio.wrap_future(fut), 30)
            outcomes.append("result")
        except Exception as e:
            assert "cancel" in str(e).lower(), e
            outcomes.append("cancelled")
    assert "cancelled" in outcomes
    # still alive
    h = await client.text_document_hover_async(types.HoverParams(text_document=ident, position=types.Position(line=10, character=4)))
    assert h is not None


def test_malformed_json_and_headers():
    c = RawClient()
    try:
        c.initialize()
        c.send_bytes(b"{this is not json")
        # requests with unreadable params get InvalidParams (pygls alone would not answer)
        for params in ({"position": {"line": -1}}, {"textDocument": {"uri": "file:///x.mlir"}}, {"textDocument": 5, "position": "here"}, None):
            i = c.request("textDocument/hover", params)
            assert c.response(i)["error"]["code"] == -32602
        i = c.request("textDocument/definition", [1, 2])
        assert c.response(i)["error"]["code"] == -32602
        c.send_bytes(b"[1, 2, 3]")
        c.send_bytes(b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": 42}}')
        uri = (DATA / "broken.mlir").as_uri()
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": (DATA / "broken.mlir").read_text()}})
        msg = c.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)
        assert len(msg["params"]["diagnostics"]) == 1
        i = c.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        assert len(c.response(i)["result"]) == 4
        assert c.close() == 0
    finally:
        if c.proc.poll() is None:
            c.proc.kill()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_tcp_transport(tmp_path: Path) -> None:
    port = _free_port()
    token = "a-token-for-this-test-0123456789"
    (tmp_path / "token").write_text(token)
    (tmp_path / "token").chmod(0o600)
    cmd = [sys.executable, "-m", "affine_lsp", "serve", "--tcp", f"127.0.0.1:{port}", "--token-file", str(tmp_path / "token")]
    proc = subprocess.Popen(cmd, env=server_env(), stderr=subprocess.DEVNULL)
    try:
        sock = None
        for _ in range(200):
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=30)
                break
            except OSError:
                time.sleep(0.05)
        assert sock is not None, "server did not listen"
        body = b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": null, "rootUri": null, "capabilities": {}}}'
        sock.sendall(b"affine-lsp-token: %s\r\n" % token.encode() + b"Content-Length: %d\r\n\r\n" % len(body) + body)
        data = b""
        while b"serverInfo" not in data:
            chunk = sock.recv(65536)
            assert chunk, "connection closed"
            data += chunk
        assert b'"affine-lsp"' in data and b'"change": 2' in data
        sock.close()
    finally:
        proc.kill()
        proc.wait(10)


def test_serve_rejects_bad_tcp_address():
    r = subprocess.run(
        [sys.executable, "-m", "affine_lsp", "serve", "--tcp", "localhost:notaport"], env=server_env(), capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 2 and "invalid port" in r.stderr
