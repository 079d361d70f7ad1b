"""Shared helpers of the language-server tests (no tests here).

The server runs as a real subprocess (``python -m affine_lsp serve``) driven
by pytest-lsp's client over stdio, with the debug text mirror on: after
every change the server checks that its Document equals pygls' own copy of
the text and reports a mismatch as an error message (asserted absent).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features
from pytest_lsp.client import publish_diagnostics as _default_publish

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "server"
SHARED = Path(__file__).resolve().parents[2] / "shared"
UPSTREAM = SHARED / "corpus" / "upstream"

SERVER_CMD = [sys.executable, "-m", "affine_lsp", "serve", "--log-level", "warning"]


def server_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["AFFINE_LSP_DEBUG_MIRROR"] = "1"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


def make_client() -> LanguageClient:
    """pytest-lsp's test client, also keeping every publishDiagnostics."""
    client = LanguageClient(converter_factory=default_converter)
    client.diag_log = []  # type: ignore[attr-defined]

    def on_publish(c: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        c.diag_log.append(params)  # type: ignore[attr-defined]
        _default_publish(c, params)

    client.inlay_refreshes = 0  # type: ignore[attr-defined]
    client.trace_log = []  # type: ignore[attr-defined]

    def on_log_trace(c: LanguageClient, params: types.LogTraceParams) -> None:
        c.trace_log.append(params.message)  # type: ignore[attr-defined]

    def on_inlay_refresh(c: LanguageClient, params: None) -> None:
        c.inlay_refreshes += 1  # type: ignore[attr-defined]

    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_publish
    features[types.WORKSPACE_INLAY_HINT_REFRESH] = on_inlay_refresh
    features[types.LOG_TRACE] = on_log_trace
    register_lsp_features(client, features)
    return client


def config(**env: str) -> ClientServerConfig:
    return ClientServerConfig(server_command=SERVER_CMD, client_factory=make_client, server_env=server_env(**env))


def capabilities(pull: bool = False, snippets: bool = True, progress: bool = True, configuration: bool = True) -> types.ClientCapabilities:
    td = types.TextDocumentClientCapabilities(
        synchronization=types.TextDocumentSyncClientCapabilities(did_save=True),
        hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText]),
        completion=types.CompletionClientCapabilities(completion_item=types.ClientCompletionItemOptions(snippet_support=snippets)),
        document_symbol=types.DocumentSymbolClientCapabilities(hierarchical_document_symbol_support=True),
        rename=types.RenameClientCapabilities(prepare_support=True),
        publish_diagnostics=types.PublishDiagnosticsClientCapabilities(related_information=True, version_support=True),
        code_action=types.CodeActionClientCapabilities(
            code_action_literal_support=types.ClientCodeActionLiteralOptions(
                code_action_kind=types.ClientCodeActionKindOptions(value_set=[types.CodeActionKind.QuickFix])
            )
        ),
        semantic_tokens=types.SemanticTokensClientCapabilities(
            requests=types.ClientSemanticTokensRequestOptions(range=True, full=True),
            token_types=[],
            token_modifiers=[],
            formats=[types.TokenFormat.Relative],
        ),
        inlay_hint=types.InlayHintClientCapabilities(),
        folding_range=types.FoldingRangeClientCapabilities(),
        diagnostic=types.DiagnosticClientCapabilities(related_document_support=False) if pull else None,
    )
    ws = types.WorkspaceClientCapabilities(
        configuration=configuration,
        diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True) if pull else None,
        inlay_hint=types.InlayHintWorkspaceClientCapabilities(refresh_support=True),
    )
    return types.ClientCapabilities(
        text_document=td,
        workspace=ws,
        window=types.WindowClientCapabilities(work_done_progress=progress),
    )


async def start(
    client: LanguageClient, init_options: dict[str, Any] | None = None, pull: bool = False, trace: types.TraceValue | None = None, **caps: Any
) -> types.InitializeResult:
    return await client.initialize_session(
        types.InitializeParams(capabilities=capabilities(pull=pull, **caps), initialization_options=init_options, trace=trace)
    )


def uri_of(name: str) -> str:
    return (DATA / name).as_uri()


def open_doc(client: LanguageClient, uri: str, text: str, version: int = 1) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="mlir", version=version, text=text))
    )


def open_file(client: LanguageClient, name: str) -> tuple[str, str]:
    text = (DATA / name).read_text()
    uri = uri_of(name)
    open_doc(client, uri, text)
    return uri, text


def pos(text: str, needle: str, nth: int = 0, delta: int = 0) -> types.Position:
    """The position of the ``nth`` occurrence of ``needle`` (plus ``delta`` chars)."""
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    i += delta
    line = text.count("\n", 0, i)
    col = i - (text.rfind("\n", 0, i) + 1)
    return types.Position(line=line, character=col)


def offset(text: str, p: types.Position) -> int:
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[: p.line]) + p.character


def text_of(text: str, r: types.Range) -> str:
    return text[offset(text, r.start) : offset(text, r.end)]


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    for e in sorted(edits, key=lambda e: offset(text, e.range.start), reverse=True):
        text = text[: offset(text, e.range.start)] + e.new_text + text[offset(text, e.range.end) :]
    return text


def change(client: LanguageClient, uri: str, version: int, start: types.Position, end: types.Position, new_text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(range=types.Range(start=start, end=end), text=new_text)],
        )
    )


async def wait_for(pred: Callable[[], Any], timeout: float = 30.0, what: str = "condition") -> Any:
    end = time.monotonic() + timeout
    while True:
        got = pred()
        if got:
            return got
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def diagnostics_for(
    client: LanguageClient,
    uri: str,
    version: int | None = None,
    timeout: float = 30.0,
    n_after: int = 0,
    pred: Callable[[list[types.Diagnostic]], bool] | None = None,
) -> list[types.Diagnostic]:
    """The latest published diagnostics of ``uri`` (for ``version``), waiting for them."""

    def check() -> list[types.Diagnostic] | None:
        log = [p for p in client.diag_log[n_after:] if p.uri == uri and (version is None or p.version == version)]  # type: ignore[attr-defined]
        if not log:
            return None
        d = list(log[-1].diagnostics)
        if pred is not None and not pred(d):
            return None
        return d if d else [None]  # type: ignore[list-item]

    got = await wait_for(check, timeout, f"diagnostics of {uri} v{version}")
    return [d for d in got if d is not None]


async def code_actions_at(client: LanguageClient, uri: str, start: types.Position, end: types.Position | None = None) -> list[types.CodeAction]:
    """The code actions the server offers for ``[start, end]`` (a caret when
    ``end`` is None), commands left out."""
    res = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=start, end=end or start),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    return [a for a in res or [] if isinstance(a, types.CodeAction)]


async def serving(client: LanguageClient, uri: str, text: str, init_options: dict[str, Any] | None = None) -> AsyncIterator[None]:
    """The body of a fixture that serves one document: start the server,
    open ``text`` at ``uri`` and wait for its first diagnostics; after the
    tests, check that the server showed or logged no error and shut it
    down (``async for _ in serving(...): yield``)."""
    await start(client, init_options=init_options)
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, 1)
    yield
    no_server_errors(client)
    await client.shutdown_session()


_SERVE_PROBE = """
import io, json, sys

class Probe(io.RawIOBase):
    def __init__(self, raw):
        self.raw = raw
    def writable(self):
        return True
    def write(self, data):
        data = bytes(data)  # (a memoryview)
        if TRIGGER in data:
            sys.stderr.write(LABEL + " " + json.dumps(probe()) + "\\n")
            sys.stderr.flush()
        self.raw.write(data)
        return len(data)
    def flush(self):
        self.raw.flush()

sys.stdout = io.TextIOWrapper(io.BufferedWriter(Probe(sys.stdout.buffer)), write_through=True)
from affine_lsp.cli import main
sys.exit(main(["serve"]))
"""


def serve_probe(trigger: bytes, label: str, probe: str) -> str:
    """The code of a process (``python -c``) that runs ``affine-lsp serve``
    and, each time it writes a message holding ``trigger`` on its standard
    output (whoever writes it), writes ``LABEL {json}`` on its standard
    error: the value of the expression ``probe`` (over ``sys``) then, e.g.
    which modules are loaded."""
    return f"TRIGGER = {trigger!r}\nLABEL = {label!r}\n\n\ndef probe():\n    import sys\n\n    return {probe}\n" + _SERVE_PROBE


def no_server_errors(client: LanguageClient) -> None:
    errors = [m.message for m in client.messages if m.type == types.MessageType.Error]
    errors += [m.message for m in client.log_messages if m.type == types.MessageType.Error]
    assert not errors, errors


def hover_text(h: types.Hover | None) -> str:
    assert h is not None, "no hover"
    c = h.contents
    return c.value if isinstance(c, types.MarkupContent) else str(c)


def read_messages(out: Any) -> Iterator[dict[str, Any]]:
    """The LSP messages a server writes on ``out`` (a binary stream), as
    dicts, until it closes."""
    import json

    while True:
        length = 0
        while True:
            line = out.readline()
            if not line:
                return
            line = line.strip()
            if not line:
                break
            k, _, v = line.partition(b":")
            if k.lower() == b"content-length":
                length = int(v)
        yield json.loads(out.read(length))


class RawClient:
    """A minimal synchronous LSP client over a subprocess's stdio, for
    traffic pytest-lsp cannot produce (malformed JSON, raw params)."""

    def __init__(self, cmd: list[str] | None = None, env: dict[str, str] | None = None) -> None:
        import json
        import queue
        import subprocess
        import threading

        self._json = json
        self.proc = subprocess.Popen(cmd or SERVER_CMD, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env or server_env())
        self.queue: queue.Queue[dict[str, Any]] = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for msg in read_messages(self.proc.stdout):
            self.queue.put(msg)

    def send_bytes(self, body: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def send(self, msg: dict[str, Any]) -> None:
        self.send_bytes(self._json.dumps(msg).encode())

    def request(self, method: str, params: Any) -> int:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 30.0) -> dict[str, Any]:
        import queue

        end = time.monotonic() + timeout
        while True:
            try:
                msg = self.queue.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                raise AssertionError("timed out waiting for a message") from None
            if "id" in msg and "method" in msg:  # a request from the server
                result: Any = None
                if msg["method"] == "workspace/configuration":
                    result = [None for _ in msg["params"]["items"]]
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
                continue
            if pred(msg):
                return msg

    def response(self, msg_id: int, timeout: float = 30.0) -> dict[str, Any]:
        return self.wait(lambda m: m.get("id") == msg_id and "method" not in m, timeout)

    def initialize(self) -> dict[str, Any]:
        i = self.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        r = self.response(i)
        self.notify("initialized", {})
        return r

    def close(self) -> int:
        try:
            i = self.request("shutdown", None)
            self.response(i, 10)
            self.notify("exit", None)
            return self.proc.wait(10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


@contextlib.contextmanager
def in_process_server() -> Iterator[Any]:
    """A server made in this process (no client, no event loop: its
    handlers' helpers are called directly), its threads and worker stopped
    and its documents closed afterwards."""
    from affine_lsp.server import create_server

    server = create_server()
    try:
        yield server
    finally:
        server.engine.flow_worker.shutdown()
        for pool in (server.parse_pool, server.analysis_pool, server.request_pool, server.ondemand_pool):
            pool.shutdown(wait=False, cancel_futures=True)
        for st in list(server.documents.docs.values()):
            st.close()
