"""The first diagnostics of the first opened file, before the server loads.

Once :mod:`.early_initialize` has answered ``initialize`` from its cache,
``affine-lsp serve`` (stdio) keeps reading with the standard library: the
``initialized``, ``$/setTrace`` and ``workspace/didChangeConfiguration``
notifications, then the first ``textDocument/didOpen``. For an MLIR
document it loads only what the server's fast phase needs (the parser
tables, the document model, the verifier: no lsprotocol, no pygls, no
islpy), computes the diagnostics the server's first fast phase computes
(the parse and name notes, the unknown-op remarks as ``diagnostics.
unknownOps`` says, the verifier's, sorted and converted by the same
functions, :func:`.engine.verify_items` and :mod:`.lsp_json`) and writes
them as a ``textDocument/publishDiagnostics`` of the document's version;
or, when the persistent cache (:mod:`.persist`) holds the complete
diagnostics of that text, those, as the server does. Then pygls and the
server load and read every byte again (:class:`.early_initialize.Replay`):
the server opens the document and publishes the same diagnostics, then
those of the analysis.

Nothing is published early for a client that pulls its diagnostics
(``textDocument.diagnostic`` capability), a document that is not MLIR
(language id ``mlir`` or a ``.mlir`` URI), larger than :data:`MAX_TEXT`
or with a NUL character, a document matched against its ``expected-*``
annotations (``-verify-diagnostics``: its notes need the server's
matching), a request or any other message before the ``didOpen`` or a
malformed one, or when nothing arrives for :data:`WAIT_S` after the
answer to ``initialize``: the server then does everything as without this
module. ``AFFINE_LSP_EARLY_OPEN=0`` turns it off.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import re
import select
from typing import Any, BinaryIO

from affine_lsp.server.runtime.early_initialize import read_body

log = logging.getLogger("affine_lsp.server.runtime.early_open")

WAIT_S = 0.5
"""How long to wait for each message after the answer to ``initialize``."""
MAX_MESSAGES = 8
MAX_BODY = 1 << 26  # a larger message is left to pygls
MAX_TEXT = 1 << 25  # (32 MB) a larger document is left to the server
SECTION = "affineLsp"  # (settings.SECTION, without importing the settings before they are needed)


class FdReader:
    """Reads a file descriptor with ``os.read``, keeping every byte read
    (:attr:`data`, replayed to pygls): ``readline``/``read`` as a binary
    stream, and :meth:`wait` for the next bytes with a timeout."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.data = bytearray()
        self.pos = 0
        self.eof = False

    def _fill(self) -> bool:
        if self.eof:
            return False
        chunk = os.read(self.fd, 1 << 16)
        if not chunk:
            self.eof = True
            return False
        self.data += chunk
        return True

    def wait(self, timeout: float) -> bool:
        """Whether bytes are there to read within ``timeout`` seconds."""
        if self.pos < len(self.data):
            return True
        if self.eof:
            return False
        try:
            ready, _, _ = select.select([self.fd], [], [], timeout)
        except (OSError, ValueError):
            return False
        return bool(ready)

    def readline(self, size: int = -1) -> bytes:
        while True:
            nl = self.data.find(b"\n", self.pos)
            if nl >= 0 or not self._fill():
                break
        end = len(self.data) if nl < 0 else nl + 1
        line = bytes(self.data[self.pos : end])
        self.pos = end
        return line

    def read(self, size: int = -1) -> bytes:
        while (size < 0 or len(self.data) - self.pos < size) and self._fill():
            pass
        end = len(self.data) if size < 0 else min(len(self.data), self.pos + size)
        out = bytes(self.data[self.pos : end])
        self.pos = end
        return out


def read_message(reader: FdReader) -> dict[str, Any] | None:
    """The next LSP message, or None (end of input, malformed, too large)."""
    return read_body(reader.readline, reader.read, MAX_BODY)


def _is_mlir(td: dict[str, Any]) -> bool:
    return td.get("languageId") == "mlir" or str(td.get("uri", "")).lower().endswith(".mlir")


def publish_first(initialize: dict[str, Any], reader: FdReader, out: BinaryIO) -> bool:
    """After the answer to ``initialize`` (the request's message): read the
    next messages from ``reader`` until the first ``didOpen`` and publish
    its first diagnostics on ``out``; whether they were published. Never
    raises: anything unexpected leaves everything to the server."""
    try:
        params = initialize.get("params") or {}
        caps = params.get("capabilities")
        text_caps = caps.get("textDocument") if isinstance(caps, dict) else None
        if isinstance(text_caps, dict) and text_caps.get("diagnostic") is not None:
            return False  # a pull client: no push, ever
        from affine_lsp.server.settings import Settings

        options = params.get("initializationOptions")
        settings = Settings().merged(options) if options is not None else Settings()
        for _ in range(MAX_MESSAGES):
            if not reader.wait(WAIT_S):
                return False
            msg = read_message(reader)
            if msg is None or "id" in msg:
                return False  # malformed, or a request: the server answers
            method = msg.get("method")
            if method in ("initialized", "$/setTrace"):
                continue
            if method == "workspace/didChangeConfiguration":
                raw = (msg.get("params") or {}).get("settings")
                if isinstance(raw, dict) and SECTION in raw:
                    settings = settings.merged(raw[SECTION])
                continue
            if method != "textDocument/didOpen":
                return False
            td = (msg.get("params") or {}).get("textDocument")
            if not isinstance(td, dict):
                return False
            # The collector stays off until the publish is written: the
            # first allocation after turning it back on would run a full
            # collection of the document just built (docs/performance.md).
            from affine_lsp.gc_pause import gc_paused

            with gc_paused:
                diagnostics = first_diagnostics(td, settings)
                if diagnostics is None:
                    return False
                write_publish(out, td["uri"], td["version"], diagnostics)
            # The document built here (cyclic IR, gc was off) is freed now,
            # not after the server forks its dataflow worker (which would
            # keep the pages the collection writes to).
            del diagnostics
            gc.collect()
            return True
    except Exception:
        log.exception("early first diagnostics failed (the server computes them)")
    return False


def first_diagnostics(td: dict[str, Any], settings: Any) -> list[dict[str, Any]] | None:
    """The first diagnostics the server publishes for the opened document
    ``td`` (``TextDocumentItem`` JSON) with ``settings``, or None when they
    are left to the server."""
    uri, text, version = td.get("uri"), td.get("text"), td.get("version")
    if not isinstance(uri, str) or not isinstance(text, str) or not isinstance(version, int) or isinstance(version, bool):
        return None
    if not _is_mlir(td) or len(text) > MAX_TEXT or "\0" in text:
        return None
    if not text.isascii():  # lone surrogates read as U+FFFD, as the server's document reads them (state.valid_text; lsprotocol not imported yet)
        text = re.sub("[\ud800-\udfff]", "\ufffd", text)
    from affine_lsp.server.dialects import load_early

    if not load_early(uri, settings):
        return None  # a dialect that does not load: the server reports it (server/dialects.py)
    if settings.cache_enabled and settings.cache_max_size_mb > 0:
        from affine_lsp.server.runtime.persist import DiagnosticsCache, default_directory

        cache = DiagnosticsCache(default_directory(), settings.cache_max_size_mb * 1024 * 1024)
        if cache.enabled:
            cached = cache.get(cache.key(uri, text, settings.results_key()))
            if cached is not None:
                return cached  # the complete diagnostics, as the server shows them at once
    from affine_lsp.verify import expected

    if settings.verify_diagnostics == "always" or (settings.verify_diagnostics == "auto" and expected.run_line_mode(text) is not None):
        return None  # -verify-diagnostics: matched by the server (expected_checks)
    return fast_phase(uri, text, settings)


def fast_phase(uri: str, text: str, settings: Any) -> list[dict[str, Any]]:
    """What the server's first fast phase of ``text`` publishes (outside
    ``-verify-diagnostics`` mode, before any analysis result exists)."""
    from affine_lsp import diagnostics, parallel, verify
    from affine_lsp.gc_pause import gc_paused
    from affine_lsp.server.analysis_engine import verify_items
    from affine_lsp.server.lsp_json import diagnostic_json
    from affine_lsp.source.document import Document

    with gc_paused:  # as the server's first build: millions of objects that all survive
        doc = Document(text, uri=uri, release=True)
        entries: dict[int, Any] = {}  # (the verifier results per item, as a document's verify_cache)
        # A large document on two processes, as the server opens it.
        split = parallel.split_open(doc, lambda: verify_items(verify, doc, entries), what=uri) if settings.parallel_open else None
        parse_notes = doc.notes()
        verify_notes = verify_items(verify, doc, entries, split[1] if split else None)[0]
        notes = diagnostics.assemble(diagnostics.layer_notes(doc, parse_notes, verify_notes, settings.unknown_ops, settings.allow_unregistered_dialect), ())
        return [diagnostic_json(n, doc.lines, uri) for n in notes]


def write_publish(out: BinaryIO, uri: str, version: int, diagnostics: list[dict[str, Any]]) -> None:
    msg = {"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": {"uri": uri, "version": version, "diagnostics": diagnostics}}
    body = json.dumps(msg).encode()
    out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    out.flush()


def reader_for(stream: BinaryIO) -> FdReader | None:
    """An :class:`FdReader` on ``stream``'s descriptor (nothing read from
    ``stream`` yet), or None where it is turned off or cannot be."""
    if os.name != "posix" or os.environ.get("AFFINE_LSP_EARLY_OPEN", "1") == "0":
        return None
    try:
        return FdReader(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return None
