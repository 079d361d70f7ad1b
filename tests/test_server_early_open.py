"""The first opened file's first diagnostics, published before pygls and the
server load (``server/runtime/early_open.py``, issue #34), through a real
``affine-lsp serve`` process.

A probe wraps the server's standard output and notes, for each
``publishDiagnostics`` written, whether pygls, lsprotocol, islpy and lark
were loaded then and whether the cyclic collector was on; the client sees
the publishes in the same order.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.test_server_startup import OOB_AND_VERIFIER_ERROR, OUT_OF_BOUNDS, VERIFIER_ERROR, _Client
from tests.test_server_support import serve_probe

ROOT = Path(__file__).resolve().parent.parent

# A syntax error, a verifier error and an out-of-bounds access (isl: later).
THREE_KINDS = (
    OOB_AND_VERIFIER_ERROR
    + """
func.func @broken() {
  %x = arith.constant 1 :
  return
}
"""
)
UNKNOWN_OP = """func.func @f(%a: i32) {
  %0 = mydialect.thing %a : i32
  return
}
"""

# Runs `affine-lsp serve`, noting (on standard error) which modules are
# loaded when a publishDiagnostics is written on its standard output.
# Which modules are loaded, and whether the cyclic collector is on (the
# early publish is written before it is turned back on: a full collection
# of the document just built would delay it).
_PROBE = serve_probe(
    b'"textDocument/publishDiagnostics"',
    "PUBLISH",
    '{"collector": __import__("gc").isenabled(), **{name: name in sys.modules for name in ("pygls", "lsprotocol", "islpy", "lark")}}',
)

URI = "file:///tmp/affine-lsp-test/early-open.mlir"


class Session:
    """A probed ``affine-lsp serve`` and its client."""

    def __init__(self, tmp_path: Path, extra_env: dict[str, str] | None = None) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), AFFINE_LSP_CACHE_DIR=str(tmp_path / "cache"))
        env["TMPDIR"] = str(tmp_path)  # (the cached answers to initialize)
        env.update(extra_env or {})
        self.err = open(tmp_path / "stderr", "wb+")  # noqa: SIM115
        self.proc = subprocess.Popen([sys.executable, "-c", _PROBE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err, env=env, cwd=str(tmp_path))
        self.client = _Client(self.proc)

    def initialize(self, capabilities: dict[str, Any], options: Any = None) -> None:
        params: dict[str, Any] = {"processId": os.getpid(), "rootUri": None, "capabilities": capabilities}
        if options is not None:
            params["initializationOptions"] = options
        i = self.client.request("initialize", params)
        self.client.wait(lambda m: m.get("id") == i)

    def initialized(self, capabilities: dict[str, Any], options: Any = None) -> None:
        """``initialize`` answered, then ``initialized``."""
        self.initialize(capabilities, options)
        self.client.notify("initialized", {})

    def start(self, capabilities: dict[str, Any], text: str) -> None:
        """Initialized, then ``text`` opened (at :data:`URI`)."""
        self.initialized(capabilities)
        self.open(text)

    def open(self, text: str, uri: str = URI, language: str = "mlir", version: int = 1) -> None:
        self.client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language, "version": version, "text": text}})

    def wait_publish(self, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        return self.client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and pred(m["params"]))

    def request(self, method: str, params: Any) -> dict[str, Any]:
        n = self.client.request(method, params)
        return self.client.wait(lambda m: m.get("id") == n)

    def publishes(self) -> list[tuple[dict[str, Any], dict[str, bool]]]:
        """(params, probe) of every publish so far, in order."""
        with self.client.cv:
            params = [m["params"] for m in self.client.messages if m.get("method") == "textDocument/publishDiagnostics"]
        self.err.seek(0)
        probes = [json.loads(line.split(" ", 1)[1]) for line in self.err.read().decode(errors="replace").splitlines() if line.startswith("PUBLISH ")]
        assert len(probes) >= len(params), (probes, params)
        return list(zip(params, probes, strict=False))

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.request("shutdown", None)
                self.client.notify("exit", None)
                self.proc.wait(20)
            except (AssertionError, OSError, subprocess.TimeoutExpired):
                pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.err.close()


def _warm(tmp_path: Path, capabilities: dict[str, Any], options: Any = None) -> None:
    """A first start with this client stores the answer to initialize the
    next start gives early (then the early publish can follow it)."""
    s = Session(tmp_path)
    try:
        s.initialize(capabilities, options)
    finally:
        s.close()


def _messages(diags: list[dict[str, Any]]) -> list[str]:
    return [d["message"] for d in diags]


def test_the_first_publish_comes_before_pygls_and_equals_the_servers(tmp_path: Path) -> None:
    """The early publish (pygls, lsprotocol and islpy not loaded) carries the
    syntax and verifier errors of version 1, not the out-of-bounds warning;
    the server's own publish of version 1 is the same (JSON); the warning
    follows; hover and an edit work afterwards."""
    caps = {"textDocument": {"publishDiagnostics": {"versionSupport": True}}}
    _warm(tmp_path, caps)
    s = Session(tmp_path)
    try:
        s.start(caps, THREE_KINDS)
        s.wait_publish(lambda p: any(d["message"] == OUT_OF_BOUNDS for d in p["diagnostics"]))
        (early, probe), (server, server_probe), *later = s.publishes()
        assert probe == {"collector": False, "pygls": False, "lsprotocol": False, "islpy": False, "lark": True}  # (lark reports the syntax error)
        assert server_probe["pygls"] is True
        assert early["uri"] == URI and early["version"] == 1
        messages = _messages(early["diagnostics"])
        assert VERIFIER_ERROR in messages and OUT_OF_BOUNDS not in messages
        assert any(d["range"]["start"]["line"] in (13, 14) and d["severity"] == 1 for d in early["diagnostics"]), early  # the syntax error
        assert server == early  # the server's first publish: the same diagnostics, no flicker
        assert later and OUT_OF_BOUNDS in _messages(later[-1][0]["diagnostics"])
        # The session goes on: hover, then an edit fixing @bad.
        hover = s.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": {"line": 2, "character": 10}})
        assert "error" not in hover and hover["result"] is not None
        s.client.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": URI, "version": 2},
                "contentChanges": [{"range": {"start": {"line": 10, "character": 2}, "end": {"line": 10, "character": 17}}, "text": "return"}],
            },
        )
        fixed = s.wait_publish(lambda p: p.get("version") == 2)["params"]
        assert VERIFIER_ERROR not in _messages(fixed["diagnostics"])
    finally:
        s.close()


def test_a_pull_client_gets_no_early_push(tmp_path: Path) -> None:
    caps = {"textDocument": {"diagnostic": {"dynamicRegistration": False}}}
    _warm(tmp_path, caps)
    s = Session(tmp_path)
    try:
        s.start(caps, THREE_KINDS)
        report = s.request("textDocument/diagnostic", {"textDocument": {"uri": URI}})
        assert VERIFIER_ERROR in _messages(report["result"]["items"])
        assert s.publishes() == []
    finally:
        s.close()


def _first_two(tmp_path: Path, options: Any, text: str, config: Any = None) -> tuple[list[tuple[dict[str, Any], dict[str, bool]]], Session]:
    caps: dict[str, Any] = {}
    _warm(tmp_path, caps, options)
    s = Session(tmp_path)
    s.initialized(caps, options)
    if config is not None:
        s.client.notify("workspace/didChangeConfiguration", {"settings": config})
    s.open(text)
    s.client.wait(lambda m: len([x for x in s.client.messages if x.get("method") == "textDocument/publishDiagnostics"]) >= 2)
    return s.publishes()[:2], s


def test_settings_from_initialization_options_hold_in_the_early_publish(tmp_path: Path) -> None:
    """``diagnostics.unknownOps``: the unknown-op remark is in the early
    publish by default and not with ``off`` (initializationOptions, or
    didChangeConfiguration before the didOpen); the unregistered dialect's
    error is, unless ``diagnostics.allowUnregisteredDialect``; the server
    agrees each time."""
    for options, config, shown, error in (
        (None, None, True, True),
        ({"diagnostics": {"unknownOps": "off"}}, None, False, True),
        (None, {"affineLsp": {"diagnostics": {"unknownOps": "off"}}}, False, True),
        ({"diagnostics": {"allowUnregisteredDialect": True}}, None, True, False),
    ):
        [(early, probe), (server, _)], s = _first_two(tmp_path, options, UNKNOWN_OP, config)
        try:
            assert probe["pygls"] is False
            assert server == early
            messages = _messages(early["diagnostics"])
            assert any("custom syntax of 'mydialect.thing'" in m for m in messages) is shown, early
            assert any("Dialect `mydialect' not found" in m for m in messages) is error, early
        finally:
            s.close()


def test_verify_diagnostics_mode_is_left_to_the_server(tmp_path: Path) -> None:
    """``diagnostics.verifyDiagnostics: always``: the expected-* matching is
    the server's; no early publish (the first comes once pygls is loaded)."""
    [(_, probe), _], s = _first_two(tmp_path, {"diagnostics": {"verifyDiagnostics": "always"}}, THREE_KINDS)
    try:
        assert probe["pygls"] is True
    finally:
        s.close()


def test_documents_and_messages_it_does_not_handle_fall_back(tmp_path: Path) -> None:
    """A non-MLIR document, a binary one, a malformed message or a request
    before the didOpen: nothing early, the server does everything (the
    document's diagnostics still come, hover answers)."""
    caps: dict[str, Any] = {}
    _warm(tmp_path, caps)
    cases: list[tuple[str, Callable[[Session], None]]] = [
        ("python", lambda s: s.open("print('hi')\n", uri="file:///tmp/affine-lsp-test/x.py", language="python")),
        ("binary", lambda s: s.open("func.func @f() {\0\x01\x02}\n")),
        ("malformed", lambda s: (s.proc.stdin.write(b"Content-Length: 5\r\n\r\n{bad}"), s.proc.stdin.flush(), s.open(THREE_KINDS))),  # type: ignore[union-attr]
        (
            "request",
            lambda s: (s.client.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}), s.open(THREE_KINDS)),
        ),
    ]
    for name, act in cases:
        s = Session(tmp_path)
        try:
            s.initialized(caps)
            act(s)
            s.wait_publish(lambda p: True)
            (first, probe), *_ = s.publishes()
            assert probe["pygls"] is True, name
            if name in ("malformed", "request"):
                s.wait_publish(lambda p: VERIFIER_ERROR in _messages(p["diagnostics"]))
            hover = s.request("textDocument/hover", {"textDocument": {"uri": first["uri"]}, "position": {"line": 0, "character": 0}})
            assert "result" in hover, (name, hover)
        finally:
            s.close()


def test_a_warm_reopen_publishes_the_cached_complete_diagnostics_early(tmp_path: Path) -> None:
    """The persistent cache holds the complete diagnostics of the text: the
    early publish is those (the out-of-bounds warning included), as the
    server's own first publish is."""
    caps: dict[str, Any] = {}
    _warm(tmp_path, caps)
    s = Session(tmp_path)
    try:
        s.start(caps, THREE_KINDS)
        complete = s.wait_publish(lambda p: OUT_OF_BOUNDS in _messages(p["diagnostics"]))["params"]
        s.client.notify("textDocument/didClose", {"textDocument": {"uri": URI}})  # (stores them, if not yet)
        s.wait_publish(lambda p: p["diagnostics"] == [])
        end = time.monotonic() + 30
        while not list((tmp_path / "cache").glob("diagnostics/*/*.json.z")):  # (written in the background)
            assert time.monotonic() < end, "no cache entry"
            time.sleep(0.05)
    finally:
        s.close()
    s = Session(tmp_path)
    try:
        s.start(caps, THREE_KINDS)
        s.wait_publish(lambda p: True)
        (early, probe), *_ = s.publishes()
        assert probe["pygls"] is False
        assert early == complete
    finally:
        s.close()


def test_the_json_conversion_is_byte_identical_to_lsprotocols() -> None:
    """``lsp_json.diagnostic_json`` (the early path) written as JSON is what
    lsprotocol's converter makes of ``convert.to_diagnostic`` (the server),
    on every note of the corpus files and of this test's texts (related
    information, fixes, tags, data)."""
    from lsprotocol.converters import get_converter

    from affine_lsp.server.convert import to_diagnostic
    from affine_lsp.server.lsp_json import diagnostic_json
    from affine_lsp.source.document import Document
    from affine_lsp.verify import verify_document
    from tests.corpus import corpus_files

    # (tests/data/server/fixes.mlir: diagnostics with quick fixes, in data)
    examples = sorted((Path(__file__).parents[1] / "examples").glob("*.mlir")) + [Path(__file__).parent / "data" / "server" / "fixes.mlir"]
    texts = [THREE_KINDS, UNKNOWN_OP] + [p.read_text(errors="replace") for p in examples + corpus_files()]
    conv = get_converter()
    seen = {"relatedInformation": 0, "data": 0, "tags": 0}
    for text in texts:
        doc = Document(text)
        for note in doc.notes() + list(verify_document(doc, strict=False)):
            early = diagnostic_json(note, doc.lines, URI)
            assert json.dumps(early) == json.dumps(conv.unstructure(to_diagnostic(note, doc.lines, URI)))
            for k in seen:
                seen[k] += k in early
    assert seen["relatedInformation"] and seen["data"]


# A verifier error and an out-of-bounds access, no syntax error.
VALID_SYNTAX = THREE_KINDS[: THREE_KINDS.index("func.func @broken")]


def test_a_file_without_syntax_errors_is_published_without_lark(tmp_path: Path) -> None:
    """Once the driver's table is cached (a first session stored it), the
    early publish of a file that parses is made by our driver alone: lark
    is not even imported; the verifier error is there, the out-of-bounds
    warning follows."""
    caps = {"textDocument": {"publishDiagnostics": {"versionSupport": True}}}
    first = Session(tmp_path)
    try:
        first.initialize(caps)
        first.client.notify("initialized", {})
        first.open(VALID_SYNTAX)
        first.wait_publish(lambda p: any(d["message"] == OUT_OF_BOUNDS for d in p["diagnostics"]))
    finally:
        first.close()
    assert list(tmp_path.glob(".affine_lsp_driver_*.marshal"))
    s = Session(tmp_path)
    try:
        s.initialize(caps)
        s.client.notify("initialized", {})
        s.open(VALID_SYNTAX + "// another text: not in the persistent cache\n")
        s.wait_publish(lambda p: any(d["message"] == OUT_OF_BOUNDS for d in p["diagnostics"]))
        (early, probe), (server, _), *_ = s.publishes()
        assert probe == {"collector": False, "pygls": False, "lsprotocol": False, "islpy": False, "lark": False}
        assert VERIFIER_ERROR in _messages(early["diagnostics"]) and OUT_OF_BOUNDS not in _messages(early["diagnostics"])
        assert server == early
    finally:
        s.close()
