"""Malformed LSP traffic beyond ``tests/test_server_robustness.py``: text a
client can send that is not valid Unicode (lone UTF-16 surrogates as JSON
escapes), settings of the wrong shape, unknown commands, reversed and
out-of-order changes, reopening a document, requests after shutdown. Every
request gets a result or a proper LSP error, and the server keeps serving."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.test_server_support import RawClient, server_env

SURROGATES = "func.func @f() {\n  %x = arith.constant 0 : index \ud800 junk\n  return\n}\n// \udfff comment\nfunc.func @g(%A: memref<4xf32>) {\n  return\n}\n"


@pytest.fixture
def raw(tmp_path: Path) -> Iterator[RawClient]:
    log = tmp_path / "server.log"
    c = RawClient(env=server_env(AFFINE_LSP_DEBUG_MIRROR="0", AFFINE_LSP_LOG_FILE=str(log)))
    c.log = log  # type: ignore[attr-defined]
    c.initialize()
    yield c
    try:
        assert c.close() == 0
    finally:
        if c.proc.poll() is None:
            c.proc.kill()
    errors = [line for line in log.read_text().splitlines() if " ERROR " in line] if log.exists() else []
    # pygls logs an error for each request answered with an error response; nothing else may fail
    assert all("Exception occurred for message" in e for e in errors), errors


def send_json(c: RawClient, msg: dict[str, Any]) -> None:
    c.send_bytes(json.dumps(msg).encode())  # json.dumps keeps lone surrogates as \\udXXX escapes


def open_text(c: RawClient, uri: str, text: str, version: int = 1) -> None:
    send_json(
        c,
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "mlir", "version": version, "text": text}}},
    )


def diagnostics(c: RawClient, uri: str, version: int | None = None) -> list[dict[str, Any]]:
    msg = c.wait(
        lambda m: (
            m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri and (version is None or m["params"].get("version") == version)
        ),
        30,
    )
    return msg["params"]["diagnostics"]


def request(c: RawClient, method: str, params: Any) -> dict[str, Any]:
    return c.response(c.request(method, params), 30)


def change(c: RawClient, uri: str, version: int, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
    rng = {"start": {"line": start[0], "character": start[1]}, "end": {"line": end[0], "character": end[1]}}
    send_json(
        c,
        {
            "jsonrpc": "2.0",
            "method": "textDocument/didChange",
            "params": {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"range": rng, "text": text}]},
        },
    )


def test_lone_surrogates_from_the_client(raw: RawClient) -> None:
    """A lone UTF-16 surrogate cannot be encoded: it used to make every
    diagnostics run fail (nothing was ever published for the document). It
    reads as U+FFFD (one UTF-16 unit for one: positions are unchanged)."""
    uri = "file:///protocol/surrogates.mlir"
    open_text(raw, uri, SURROGATES)
    diags = diagnostics(raw, uri, 1)
    msgs = [d["message"] for d in diags]
    assert "invalid UTF-8 (replaced by U+FFFD) in the source text" in msgs
    assert diags[0]["range"]["start"] == {"line": 1, "character": 32}
    for ch in (31, 32, 33, 60):
        assert "result" in request(raw, "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 1, "character": ch}})
    for method in ("textDocument/semanticTokens/full", "textDocument/documentSymbol", "textDocument/foldingRange"):
        assert "result" in request(raw, method, {"textDocument": {"uri": uri}})
    assert "result" in request(raw, "textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 33}})
    # a change that inserts one, and positions after it on the same line
    change(raw, uri, 2, (6, 2), (6, 2), "\udc00 x")
    assert len(diagnostics(raw, uri, 2)) >= 2
    change(raw, uri, 3, (6, 2), (6, 5), "")  # removes it again: same positions as the client counts them
    assert not any(d["range"]["start"]["line"] == 6 for d in diagnostics(raw, uri, 3))
    h = request(raw, "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 5, "character": 14}})
    assert "%A" in h["result"]["contents"]["value"]


def test_settings_of_the_wrong_shape_are_ignored(raw: RawClient) -> None:
    uri = "file:///protocol/settings.mlir"
    open_text(raw, uri, "func.func @f(%A: memref<4xf32>) {\n  affine.for %i = 0 to 8 {\n    %v = affine.load %A[%i] : memref<4xf32>\n  }\n  return\n}\n")
    diagnostics(raw, uri, 1)
    for settings in (
        {"affineLsp": {"analysis": {"islMaxOperations": "lots", "timeBudgetMs": -5, "enabled": "yes"}, "diagnostics": {"debounceMs": None}}},
        {"affineLsp": ["junk"]},
        ["junk"],
        "junk",
        None,
        {"affineLsp": {"analysis.enabled": 3, "vectorize": {"defaultWidth": 0}}},
    ):
        raw.notify("workspace/didChangeConfiguration", {"settings": settings})
    change(raw, uri, 2, (0, 0), (0, 0), "// edited\n")
    diags = diagnostics(raw, uri, 2)
    h = request(raw, "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 6}})
    assert "affine.load" in h["result"]["contents"]["value"] or "%v" in h["result"]["contents"]["value"]
    assert all(d["range"]["start"]["line"] >= 1 for d in diags)


def test_unknown_commands_and_bad_command_arguments(raw: RawClient) -> None:
    r = request(raw, "workspace/executeCommand", {"command": "affine-lsp.nope", "arguments": []})
    assert r["error"]["code"] == -32602
    for args in ([], [None], [{"uri": 5}], [{"uri": "file:///x.mlir", "position": {"line": "a"}}], "junk"):
        r = request(raw, "workspace/executeCommand", {"command": "affine-lsp.showDependences", "arguments": args})
        assert "error" in r and r["error"]["code"] != -32603, r


def test_reversed_out_of_order_and_reopened_documents(raw: RawClient) -> None:
    uri = "file:///protocol/changes.mlir"
    text = "func.func @f() {\n  return\n}\n"
    open_text(raw, uri, text)
    diagnostics(raw, uri, 1)
    change(raw, uri, 2, (1, 8), (1, 2), "")  # a range whose end comes before its start: "return" deleted
    assert [d["message"] for d in diagnostics(raw, uri, 2)] == ["custom op 'func.func' expected non-empty function body"]
    change(raw, uri, 1, (0, 0), (0, 0), "// older version number\n")
    diagnostics(raw, uri, 1)
    # reopening replaces the text
    open_text(raw, uri, "func.func @g() {\n  %x = junk\n}\n", version=7)
    assert diagnostics(raw, uri, 7)
    syms = request(raw, "textDocument/documentSymbol", {"textDocument": {"uri": uri}})["result"]
    assert [s["name"] for s in syms] == ["@g"]
    # close, then traffic about the closed document
    raw.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    change(raw, uri, 8, (0, 0), (0, 0), "x")
    assert request(raw, "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})["result"] is None
    raw.notify("$/cancelRequest", {"id": 424242})
    raw.notify("$/setTrace", {"value": "verbose"})


def test_requests_after_shutdown_are_refused() -> None:
    c = RawClient(env=server_env(AFFINE_LSP_DEBUG_MIRROR="0"))
    try:
        c.initialize()
        assert request(c, "shutdown", None)["result"] is None
        r = request(c, "textDocument/hover", {"textDocument": {"uri": "file:///x.mlir"}, "position": {"line": 0, "character": 0}})
        assert "error" in r
        c.notify("exit", None)
        assert c.proc.wait(10) == 0
    finally:
        if c.proc.poll() is None:
            c.proc.kill()


def test_valid_text_replaces_lone_surrogates_and_keeps_ascii_as_is() -> None:
    from affine_lsp.server.state import valid_text

    ascii_text = "func.func @f() {\n  return\n}\n"
    assert valid_text(ascii_text) is ascii_text  # no scan, no copy
    assert valid_text("a\ud800b\udfff") == "a\ufffdb\ufffd"
    assert valid_text("é \U0001f600") == "é \U0001f600"  # a real pair stays
