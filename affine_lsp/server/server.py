"""The affine-lsp language server: the session (its pools, documents,
settings, client capabilities) and pygls' protocol hardened against
malformed traffic. What it answers is the route table (:mod:`.routes`),
whose handlers see a :class:`~affine_lsp.server.snapshot.Snapshot`, never
this class; answers are computed in worker threads from the one
Document/IR (:mod:`.state`), never on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from affine_lsp import __version__
from affine_lsp.server.analysis_engine import Engine
from affine_lsp.server.runtime.lanes import DocumentLanes, TrackedPool
from affine_lsp.server.session import ClientCapabilities, ServerCancelled
from affine_lsp.server.settings import SECTION, Settings
from affine_lsp.server.state import DocumentState, Workspace
from affine_lsp.server.writer import QueuedWriter

log = logging.getLogger("affine_lsp.server")


class _BadRequest:
    """A request whose params could not be read (answered with InvalidParams)."""

    jsonrpc = "2.0"

    def __init__(self, msg_id: Any, method: str, error: JsonRpcException) -> None:
        self.id = msg_id
        self.method = method
        self.error = error


def _without_traceback(error: Any) -> Any:
    """``error`` (a ResponseError) without the Python traceback pygls puts
    in the ``data`` of an internal error: an answer carries a message, the
    traceback is in the log (pygls logged the exception)."""
    data = getattr(error, "data", None)
    if isinstance(data, dict) and "traceback" in data:
        rest = {k: v for k, v in data.items() if k != "traceback"}
        return types.ResponseError(code=error.code, message=error.message, data=rest or None)
    return error


class AffineProtocol(LanguageServerProtocol):
    """pygls' protocol with four changes:

    * a request with unreadable params gets an ``InvalidParams`` error
      response (pygls would drop it and leave the client waiting);
    * so does a request after ``shutdown`` (``InvalidRequest``, as the LSP
      says; pygls drops it too);
    * the Document of :mod:`.state` is the single copy of the text: pygls'
      workspace copy is only kept (and cross-checked) in debug mode;
    * positions are always UTF-16 (the engine's LineIndex);
    * a handler may answer :class:`ServerCancelled` (an error response);
    * no error response carries a Python traceback (it goes to the log);
    * the client's ``exit`` sets the status of ``affine-lsp serve``;
    * standard output is written by a thread (:mod:`.writer`);
    * the client's answer to a request of ours that was cancelled is dropped.
    """

    _server: AffineLanguageServer

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if isinstance(data, dict) and "id" in data and isinstance(data.get("method"), str):
                return _BadRequest(data["id"], data["method"], exc)
            raise

    def handle_message(self, message: Any) -> None:
        if isinstance(message, _BadRequest):
            err = JsonRpcInvalidParams(message=f"invalid params for {message.method}")
            self._send_response(message.id, None, err.to_response_error())
            return
        if self._shutdown and getattr(message, "id", None) is not None and getattr(message, "method", types.EXIT) != types.EXIT:
            # The LSP: requests after shutdown fail with InvalidRequest (pygls drops them: the client would wait forever).
            self._send_response(message.id, None, JsonRpcInvalidRequest(message="the server is shutting down").to_response_error())
            return
        super().handle_message(message)

    def _handle_response(self, msg_id: Any, result: Any | None = None, error: Any = None) -> None:
        # The client's answer to a request of ours whose waiter was cancelled
        # meanwhile (a newer edit cancelled the analysis awaiting its
        # window/workDoneProgress/create): nobody wants it; pygls would raise
        # InvalidStateError setting the cancelled future's result.
        future = self._request_futures.get(msg_id)
        if future is not None and future.cancelled():
            self._request_futures.pop(msg_id, None)
            log.debug("answer to the cancelled request %s dropped", msg_id)
            return
        super()._handle_response(msg_id, result, error)

    def set_writer(self, writer: Any, include_headers: bool = True) -> None:
        # Standard output is written by a thread of its own (server/writer.py):
        # a client slow to read never blocks the event loop.
        if isinstance(writer, StdoutWriter):
            writer = QueuedWriter(writer)
        super().set_writer(writer, include_headers)

    def _send_response(self, msg_id: Any, result: Any | None = None, error: Any = None) -> None:
        if error is not None:
            error = _without_traceback(error)
        if isinstance(result, ServerCancelled):
            result, error = None, types.ResponseError(code=types.LSPErrorCodes.ServerCancelled, message=result.message, data=result.data)
        early = self._server.early
        if early is not None:
            if early.takes(msg_id):
                return  # answered before the server was loaded (see early_initialize)
            if error is None and msg_id == early.request_id:
                try:
                    early.store(msg_id, json.dumps(result, default=self._serialize_message))
                except Exception:  # the cache is an optimisation only
                    log.exception("storing the answer to initialize failed")
        super()._send_response(msg_id, result, error)

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args: Any) -> Generator[Any, Any, None]:
        self._server.exit_code = 0 if self._shutdown else 1  # (what affine-lsp serve returns)
        yield from super().lsp_exit(*args)

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams) -> Generator[Any, Any, types.InitializeResult]:
        # The engine counts columns in UTF-16 code units, the LSP default.
        if params.capabilities.general is not None:
            params.capabilities.general.position_encodings = None
        if params.trace is not None:
            self.trace = params.trace  # $/logTrace from the start (see diagnostics)
        result = yield from super().lsp_initialize(params)
        return result

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams) -> Generator[Any, Any, None]:
        if self._server.debug_mirror:
            self.workspace.put_text_document(params.text_document)
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Generator[Any, Any, None]:
        if self._server.debug_mirror:
            try:
                for change in params.content_changes:
                    self.workspace.update_text_document(params.text_document, change)
            except Exception:  # the mirror is a debugging aid only
                log.exception("debug mirror: update failed")
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> Generator[Any, Any, None]:
        if self._server.debug_mirror:
            self.workspace.remove_text_document(params.text_document.uri)
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None


class AffineLanguageServer(LanguageServer):
    def __init__(self, debug_mirror: bool = False) -> None:
        super().__init__(
            "affine-lsp",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=AffineProtocol,
            max_workers=4,
        )
        self.debug_mirror = debug_mirror or os.environ.get("AFFINE_LSP_DEBUG_MIRROR") == "1"
        self.documents = Workspace()
        self.settings = Settings()
        self.engine = Engine()
        # Workers: start-up and housekeeping, heavy analyses, requests about
        # no document; each document has its own (server/runtime/lanes.py).
        self.parse_pool = TrackedPool(1, thread_name_prefix="affine-parse")
        self.ready: Future[Any] | None = None  # the start-up work on the parse worker (every lane's first task waits for it)
        self.analysis_pool = TrackedPool(1, thread_name_prefix="affine-analysis")
        self.request_pool = TrackedPool(2, thread_name_prefix="affine-request")
        # Analyses a request needs now (not queued behind the background analysis).
        self.ondemand_pool = TrackedPool(1, thread_name_prefix="affine-ondemand")
        self.interactive = 0  # requests / fast phases running (see busy())
        self._busy_lock = threading.Lock()
        # Fork the dataflow worker after initialize (affine-lsp serve sets it; tests start it on demand).
        self.prefork = False
        self.exit_code: int | None = None  # set by the client's exit notification
        self.early: Any = None  # early_initialize.Early: initialize read (and maybe answered) before the server was loaded
        self.client = ClientCapabilities()  # what the client can do (set at initialize)
        self.on_settings_changed: list[Callable[[Settings, Settings], None]] = []
        from affine_lsp.server import diagnostics_manager as _diag

        self.diagnostics = _diag.DiagnosticsManager(self)
        from affine_lsp.server.dialects import DocumentDialects

        self.dialects = DocumentDialects(self)
        from affine_lsp.server.runtime.memory import SlowCollectionLog

        self.gc_log = SlowCollectionLog()  # every collection over 0.1 s in the log, once serving (server/runtime/memory.py)
        from affine_lsp.server.runtime.persist import DiagnosticsCache, default_directory

        self.disk_cache = DiagnosticsCache(default_directory(), self.settings.cache_max_size_mb * 1024 * 1024)

    # ------------------------------------------------------------ helpers
    def doc(self, uri: str) -> DocumentState | None:
        return self.documents.get(uri)

    def lanes(self, st: DocumentState) -> DocumentLanes:
        """The worker threads of ``st`` (see server/runtime/lanes.py)."""
        if st.lanes is None:
            st.lanes = DocumentLanes(self.request_pool, self.ondemand_pool, self.ready)
        return st.lanes

    def interactive_begin(self) -> None:
        """Interactive work starts (the background analysis yields to it
        between two functions)."""
        with self._busy_lock:
            self.interactive += 1

    def interactive_end(self) -> None:
        with self._busy_lock:
            self.interactive -= 1

    @contextmanager
    def busy(self) -> Iterator[None]:
        """Mark interactive work (see :meth:`interactive_begin`)."""
        self.interactive_begin()
        try:
            yield
        finally:
            self.interactive_end()

    def apply_settings(self, raw: Any) -> None:
        old = self.settings
        problems: list[str] = []
        new = old.merged(raw, problems)
        for text in problems:
            log.warning("settings: %s", text)
            with contextlib.suppress(Exception):  # (no client attached: a test's server)
                self.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=f"affine-lsp: {text}"))
        if new == old:
            return
        self.settings = new
        log.info("settings: %s", new)
        self.disk_cache.max_bytes = new.cache_max_size_mb * 1024 * 1024 if new.cache_enabled else 0
        for cb in list(self.on_settings_changed):
            try:
                cb(old, new)
            except Exception:
                log.exception("settings callback failed")

    async def pull_configuration(self) -> None:
        if not self.client.configuration:
            return
        try:
            result = await self.workspace_configuration_async(types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)]))
        except Exception as e:  # the client may not answer; keep what we have
            log.info("workspace/configuration failed: %s", e)
            return
        if result:
            self.apply_settings(result[0])

    def check_mirror(self, st: DocumentState) -> None:
        """Debug mode: the Document must hold exactly pygls' copy of the text."""
        try:
            mirror = self.workspace.get_text_document(st.uri).source
        except Exception:
            return
        with st.locked() as doc:
            if doc.text != mirror:
                st.mirror_text = mirror
                log.error("document text diverged from the client's text for %s", st.uri)
                raise AssertionError(f"text mirror mismatch for {st.uri}")

    def prefork_worker(self) -> bool:
        """Load the parser tables, the verifier and the analyses, then fork
        the dataflow worker, which shares them (see
        :meth:`~affine_lsp.server.runtime.flowproc.FlowWorker.prefork`). Run on the
        parse worker once ``initialize`` is answered, before the first
        document is built (``affine-lsp serve``: ``prefork`` is set), beside
        the threads already running. False when the worker will be started
        at its first request instead."""
        self.warm_up()
        return self.engine.flow_worker.prefork(beside_threads=True)

    def warm_up(self) -> None:
        _warm_up(self.engine)

    def start_io(self, stdin: Any = None, stdout: Any = None) -> None:
        """Serve over ``stdin``/``stdout`` (standard input and output) as
        pygls does, but with the reader of :mod:`.framing`, which recovers
        from a bad frame at the next header."""
        import sys
        from threading import Event

        from affine_lsp.server import framing

        self._stop_event = stop = Event()
        source = stdin or sys.stdin.buffer
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        read_some = getattr(source, "read1", None) or source.read

        async def read() -> bytes:
            return await asyncio.get_running_loop().run_in_executor(self.thread_pool, read_some, framing.CHUNK)

        try:
            asyncio.run(framing.run(stop, read, self.protocol, self.report_server_error))
        except BrokenPipeError:
            log.error("Connection to the client is lost! Shutting down the server.")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    def shutdown(self) -> None:
        for pool in (self.parse_pool, self.analysis_pool, self.request_pool, self.ondemand_pool):
            pool.shutdown(wait=False, cancel_futures=True)
        for st in list(self.documents.docs.values()):
            st.close()
        self.engine.flow_worker.shutdown()
        super().shutdown()


def _warm_up(engine: Engine | None = None) -> None:
    """Load the parser tables and the verifier before the first document
    needs them (the analyses, islpy, load when the first analysis phase
    asks for them, or before the dataflow worker is forked)."""
    try:
        from affine_lsp.source.document import Document

        doc = Document("func.func @warm_up() {\n  return\n}\n")
        doc.sections  # noqa: B018
        if engine is not None:
            engine.verify(doc)
    except Exception:
        log.exception("parser warm-up failed")


def create_server(debug_mirror: bool = False) -> AffineLanguageServer:
    """A new server with every route of the table registered (server/routes.py)."""
    from affine_lsp.server import routes

    server = AffineLanguageServer(debug_mirror=debug_mirror)
    routes.install(server)
    return server
