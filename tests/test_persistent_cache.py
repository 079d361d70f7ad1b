"""The persistent diagnostics cache (affine_lsp/server/runtime/persist.py): a file
reopened, in the same server or after a restart, shows its complete
diagnostics at once, exactly those a computation gives; an entry is never
used for another text, URI, setting or version of the code; the cache
stays within its size bound and survives corrupt entries.

The server runs as a real subprocess with a real LSP client (pytest-lsp);
the rest of the suite runs with the cache off (tests/conftest.py).
"""

from __future__ import annotations

import asyncio
import os
import zlib
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import LanguageClient

from affine_lsp.server.runtime import persist
from tests.test_server_support import SERVER_CMD, make_client, open_doc, server_env, start, wait_for

TEXT = """func.func @oob(%A: memref<10xf32>) {
  affine.for %i = 0 to 11 {
    %v = affine.load %A[%i] : memref<10xf32>
    affine.store %v, %A[%i] : memref<10xf32>
  }
  return
}

func.func @bad(%n: index) {
  %c = arith.constant 1 : i32
  %d = arith.addi %c, %n : i32
  return
}

func.func @carried(%B: memref<64xf32>) {
  affine.for %i = 1 to 64 {
    %v = affine.load %B[%i - 1] : memref<64xf32>
    affine.store %v, %B[%i] : memref<64xf32>
  }
  return
}
"""
URI = "file:///tmp/affine-lsp-test/persist.mlir"


def _json(diags: list[types.Diagnostic]) -> list:
    conv = default_converter()
    return [conv.unstructure(d) for d in diags]


async def _session(cache: Path | str, pull: bool = False, init: dict | None = None) -> LanguageClient:
    client = make_client()
    await client.start_io(*SERVER_CMD, env=server_env(AFFINE_LSP_CACHE_DIR=str(cache)))
    await start(client, init_options=init or {}, pull=pull, trace=types.TraceValue.Messages)
    return client


async def _stop(client: LanguageClient) -> None:
    await client.shutdown_session()


def _traces(client: LanguageClient, what: str) -> list[str]:
    return [m for m in client.trace_log if what in m]  # type: ignore[attr-defined]


async def _complete(client: LanguageClient, version: int = 1) -> list[types.Diagnostic]:
    """The diagnostics published once the analysis of ``version`` is complete."""
    await wait_for(lambda: _traces(client, f"v{version}: analysis complete"), 60, "the complete analysis")
    await asyncio.sleep(0.2)
    pubs = [p for p in client.diag_log if p.uri == URI and p.version == version]  # type: ignore[attr-defined]
    return list(pubs[-1].diagnostics)


def _entries(cache: Path) -> list[Path]:
    return sorted((cache / "diagnostics").rglob("*.json.z")) if (cache / "diagnostics").is_dir() else []


async def _fresh_complete(tmp: Path, text: str) -> list:
    """What a server with an empty cache publishes for ``text`` when complete."""
    client = await _session(tmp / "fresh-cache")
    try:
        open_doc(client, URI, text)
        return _json(await _complete(client))
    finally:
        await _stop(client)


@pytest.mark.asyncio(loop_scope="function")
async def test_reopen_after_restart_shows_the_complete_diagnostics_at_once(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = await _session(cache)
    try:
        open_doc(first, URI, TEXT)
        computed = await _complete(first)
        assert any(d.severity == types.DiagnosticSeverity.Error for d in computed)
        assert any(d.severity == types.DiagnosticSeverity.Warning for d in computed)  # from the analysis
        await wait_for(lambda: _entries(cache), 10, "the cache entry")
    finally:
        await _stop(first)

    second = await _session(cache)
    try:
        open_doc(second, URI, TEXT)
        await wait_for(lambda: [p for p in second.diag_log if p.uri == URI], 10, "the first publish")  # type: ignore[attr-defined]
        pubs = [p for p in second.diag_log if p.uri == URI]  # type: ignore[attr-defined]
        # (the first publish may come before the server loads, from the same cache: server/runtime/early_open.py)
        await wait_for(lambda: _traces(second, "v1: from the cache"), 10, "the server's trace of the cached diagnostics")
        # The first publish is the complete set, analysis warnings included.
        assert _json(list(pubs[0].diagnostics)) == _json(computed)
        await wait_for(lambda: _traces(second, "v1: analysis complete"), 60, "the analysis behind the cached diagnostics")
        await asyncio.sleep(0.3)
        later = [p for p in second.diag_log if p.uri == URI]  # type: ignore[attr-defined]
        # The computation behind it found the same: nothing else was published.
        assert all(_json(list(p.diagnostics)) == _json(computed) for p in later)

        # An edit after a cached open gives what a fresh open of the edited text gives.
        edited = TEXT.replace("to 11", "to 10")
        second.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(start=types.Position(line=1, character=23), end=types.Position(line=1, character=25)), text="10"
                    )
                ],
            )
        )
        after_edit = _json(await _complete(second, 2))
    finally:
        await _stop(second)
    assert after_edit == await _fresh_complete(tmp_path, edited)
    assert after_edit != _json(computed)  # the out-of-bounds warning is gone


@pytest.mark.asyncio(loop_scope="function")
async def test_pull_clients_get_the_cached_diagnostics(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = await _session(cache)
    try:
        open_doc(first, URI, TEXT)
        computed = _json(await _complete(first))
        first.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=URI)))
        await wait_for(lambda: _entries(cache), 10, "the cache entry")
    finally:
        await _stop(first)
    second = await _session(cache, pull=True)
    try:
        open_doc(second, URI, TEXT)
        report = await second.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=URI)))
        assert _json(list(report.items)) == computed
    finally:
        await _stop(second)


@pytest.mark.asyncio(loop_scope="function")
async def test_entries_are_not_shared_across_texts_uris_or_settings(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = await _session(cache)
    try:
        open_doc(first, URI, TEXT)
        await _complete(first)
        await wait_for(lambda: _entries(cache), 10, "the cache entry")
    finally:
        await _stop(first)
    variants = [
        (URI, TEXT + "\n// another comment\n", None),
        ("file:///tmp/affine-lsp-test/other.mlir", TEXT, None),
        (URI, TEXT, {"analysis": {"enabled": False}}),
    ]
    for uri, text, init in variants:
        client = await _session(cache, init=init)
        try:
            open_doc(client, uri, text)
            await wait_for(lambda c=client, u=uri: [p for p in c.diag_log if p.uri == u], 30, "diagnostics")  # type: ignore[attr-defined]
            await asyncio.sleep(0.3)
            assert not _traces(client, "from the cache"), (uri, init)
        finally:
            await _stop(client)


def test_cache_is_bounded_and_survives_corrupt_entries(tmp_path: Path) -> None:
    c = persist.DiagnosticsCache(tmp_path, max_bytes=20_000)
    keys = [c.key(URI, f"text {i}" * 50, "settings") for i in range(40)]
    payload = [{"range": {"start": {"line": i, "character": 0}, "end": {"line": i, "character": 1}}, "message": os.urandom(300).hex()} for i in range(3)]
    for k in keys:
        assert c.put(k, payload)
    total = sum(p.stat().st_size for p in _entries(tmp_path))
    assert total <= 20_000
    assert c.get(keys[-1]) == payload  # the most recent entry is kept
    assert c.get(keys[0]) is None  # the oldest were deleted
    # A corrupt entry is a miss, and is removed.
    path = c._path(keys[-1])
    path.write_bytes(b"not zlib")
    assert c.get(keys[-1]) is None and not path.exists()
    # An entry under the wrong key (e.g. a hash collision or a renamed file) is a miss.
    other = c._path(keys[-2])
    other.parent.mkdir(parents=True, exist_ok=True)
    other.write_bytes(zlib.compress(b'{"key": "something else", "diagnostics": []}'))
    assert c.get(keys[-2]) is None
    # An unwritable directory is only a miss.
    ro = persist.DiagnosticsCache(tmp_path / "file-not-dir", max_bytes=1 << 20)
    (tmp_path / "file-not-dir").write_text("x")
    assert not ro.put(keys[0], payload) and ro.get(keys[0]) is None


def test_the_key_covers_the_code_fingerprint(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    c = persist.DiagnosticsCache(tmp_path)
    k1 = c.key(URI, TEXT, "s")
    assert c.key(URI, TEXT, "s") == k1
    # Another version of the package or of the grammar: another fingerprint, another key.
    monkeypatch.setattr(persist, "_fingerprint", None)
    pkg = tmp_path / "pkg" / "affine_lsp"
    pkg.mkdir(parents=True)
    (pkg / "mod.py").write_text("x = 1\n")
    monkeypatch.setattr(persist, "_ROOT", pkg)
    k2 = c.key(URI, TEXT, "s")
    assert k2 != k1
    monkeypatch.setattr(persist, "_fingerprint", None)
    (pkg / "mod.py").write_text("x = 22\n")  # edited: another size
    assert c.key(URI, TEXT, "s") != k2
    monkeypatch.setattr(persist, "_fingerprint", None)
    grammar = tmp_path / "pkg" / "grammar"
    grammar.mkdir()
    (grammar / "g.lark").write_text("start: A\n")
    k3 = c.key(URI, TEXT, "s")
    monkeypatch.setattr(persist, "_fingerprint", None)
    (grammar / "g.lark").write_text("start: A B\n")
    assert c.key(URI, TEXT, "s") != k3
