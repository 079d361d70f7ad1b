"""Issue #31, big documents: work a request does on one function of a large
document does not re-parse the document's other functions, and gives the
same answer as on the whole text."""

from __future__ import annotations

import asyncio
import io
import logging
import threading
from typing import Any

from lsprotocol import types

from affine_lsp.source.document import Document
from affine_lsp.transforms import rewrite
from affine_lsp.transforms.optimize import nest_groups, plan_optimize
from affine_lsp.transforms.rewrite import function_context
from bench.content import generate_kind
from bench.generate import generate
from tests.test_server_support import in_process_server


def _plan_key(plan):  # type: ignore[no-untyped-def]
    return (plan.reason, plan.new_text, plan.explain, repr(plan.prediction))


def test_optimize_in_the_function_context_plans_as_on_the_whole_text() -> None:
    # "Optimize loop nest" composes unroll-and-jam and vectorization on a
    # text that each step parses again: the function with its environment,
    # not the whole document (a 20,000-line one took 7-28 s per loop).
    text = generate_kind("all", 300)
    doc = Document(text)
    groups = [g for s in doc.sections for f in s.functions() for g in nest_groups(f)]
    assert len(groups) >= 12
    oks = 0
    for g in groups[:12]:
        ctx, shift = function_context(doc, g[0].span.start, g[-1].span.end)
        assert len(ctx) < len(text) // 4  # the function and its environment only
        assert ctx[g[0].span.start - shift : g[-1].span.end - shift] == text[g[0].span.start : g[-1].span.end]
        whole = plan_optimize(text, g)
        scoped = plan_optimize(text, g, context=(ctx, shift))
        assert _plan_key(scoped) == _plan_key(whole)
        oks += whole.ok
    assert oks >= 2  # rewrites compared, not only refusals


def test_function_context_falls_back_on_the_section_or_the_text() -> None:
    one = "func.func @f(%m: memref<4xf32>) {\n  affine.for %i = 0 to 4 {\n    %v = affine.load %m[%i] : memref<4xf32>\n  }\n  return\n}\n"
    doc = Document(one)
    assert function_context(doc, one.index("affine.for"), one.index("return")) == (one, 0)
    two = "#m = affine_map<(d0) -> (d0)>\n" + one + "// -----\n" + one.replace("@f", "@g")
    doc = Document(two)
    at = two.index("affine.for", two.index("@g"))
    ctx, shift = function_context(doc, at, at + 10)
    sec = doc.sections[1]
    assert (ctx, shift) == (two[sec.start : sec.end], sec.start) and ctx.startswith("func.func @g")
    # (a section of one function: its own text; a function beside others: the
    # scope of the safety net, rewrite._function_scope)
    three = one + one.replace("@f", "@g") + one.replace("@f", "@h")
    doc = Document(three)
    at = three.index("affine.for", three.index("@g"))
    ctx, shift = function_context(doc, at, at + 10)
    assert "@g" in ctx and "@f" not in ctx and "@h" not in ctx
    assert (ctx, shift) == rewrite._function_scope(doc, doc.section_at(at), at, at + 10, [])


# ---------------------------------------------------------------- the server


_server = in_process_server


def _hold(submit: Any) -> threading.Event:
    """Occupy a worker until the returned event is set."""
    running, release = threading.Event(), threading.Event()

    def job() -> None:
        running.set()
        release.wait(120)

    submit(job)
    assert running.wait(30)
    return release


def test_a_pull_on_a_big_document_being_built_is_cancelled_for_a_retrigger_then_refreshed(monkeypatch: Any) -> None:
    """A pull waits at most PULL_WAIT_S for the fast phase of a large
    document (here: any document, and its fast phase held on an event):
    then it is answered ServerCancelled with ``retriggerRequest`` (never
    diagnostics of another version), the client is asked to pull again
    once the fast phase is done, and the next pull gets that version's
    diagnostics, the same as the fast phase computed."""
    from affine_lsp.server import diagnostics_manager as diag_mod
    from affine_lsp.server.server import ServerCancelled

    monkeypatch.setattr(diag_mod, "PULL_WAIT_MIN_CHARS", 0)
    monkeypatch.setattr(diag_mod, "PULL_WAIT_S", 0.2)
    text = generate(300) + "func.func @bad() {\n  %x = arith.addf %nope, %nope : f32\n  return\n}\n"

    async def run(server: Any) -> None:
        loop = asyncio.get_running_loop()
        refreshed = asyncio.Event()
        server.client.pull_diagnostics = server.client.diagnostic_refresh = True
        server.workspace_diagnostic_refresh = lambda _params: loop.call_soon_threadsafe(refreshed.set)
        st = server.documents.open("file:///latency/big.mlir", text, 1, "mlir")
        release = _hold(server.lanes(st).submit_fast)
        try:
            first = await asyncio.wait_for(server.diagnostics.pull(st, None), 60)
            assert not refreshed.is_set()
        finally:
            release.set()
        assert isinstance(first, ServerCancelled) and first.data == {"retriggerRequest": True}
        await asyncio.wait_for(refreshed.wait(), 120)
        second = await server.diagnostics.pull(st, None)
        assert isinstance(second, types.RelatedFullDocumentDiagnosticReport)
        fast = await server.diagnostics.fast(st, 1)
        assert second.items == fast.result.diagnostics
        assert "use of undeclared SSA value name" in [d.message for d in second.items]

    with _server() as server:
        asyncio.run(run(server))


def test_a_small_document_pull_waits_for_its_fast_phase(monkeypatch: Any) -> None:
    from affine_lsp.server import diagnostics_manager as diag_mod

    monkeypatch.setattr(diag_mod, "PULL_WAIT_S", 0.0)  # (not applied below PULL_WAIT_MIN_CHARS)
    text = "func.func @bad() {\n  %x = arith.addf %nope, %nope : f32\n  return\n}\n"

    async def run(server: Any) -> None:
        st = server.documents.open("file:///latency/small.mlir", text, 1, "mlir")
        rep = await asyncio.wait_for(server.diagnostics.pull(st, None), 120)
        assert isinstance(rep, types.RelatedFullDocumentDiagnosticReport)
        assert "use of undeclared SSA value name" in [d.message for d in rep.items]

    with _server() as server:
        asyncio.run(run(server))


def test_server_cancelled_is_sent_as_the_lsp_error_without_an_error_log(caplog: Any) -> None:
    from affine_lsp.server.server import ServerCancelled

    with _server() as server:
        sent: list[Any] = []
        server.protocol._send_data = sent.append  # type: ignore[method-assign]
        with caplog.at_level(logging.WARNING):
            server.protocol._send_response(7, ServerCancelled("being computed", {"retriggerRequest": True}))
        assert len(sent) == 1 and sent[0].id == 7
        err = sent[0].error
        assert err.code == types.LSPErrorCodes.ServerCancelled == -32802
        assert err.data == {"retriggerRequest": True} and err.message == "being computed"
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


# ---------------------------------------------------------------- reuse of unchanged functions

_USES_ZERO = """func.func @{name}(%m: memref<8xf32>) {{
  %0 = arith.constant 0 : index
  %v = affine.load %m[%0] : memref<8xf32>
  affine.store %v, %m[%0] : memref<8xf32>
  return
}}
"""
_NO_ZERO = """func.func @{name}(%m: memref<8xf32>) {{
  affine.for %i = 0 to 8 {{
    %w = affine.load %m[%i] : memref<8xf32>
    affine.store %w, %m[%i] : memref<8xf32>
  }}
  return
}}
"""


def _all_notes(doc: Document) -> list[tuple[str, int, int, str, str | None]]:
    from affine_lsp import diagnostics

    return sorted((n.severity, n.span.start, n.span.end, n.message, n.code) for n in diagnostics.collect(doc))


def test_a_split_marker_typed_inside_a_function_rebuilds_only_the_functions_naming_what_it_leaves_at_top_level() -> None:
    """``// -----`` typed inside a function leaves the rest of its body at
    the top of the next section: ``%0 = arith.constant`` becomes a value of
    that module, and so does ``%v``. The functions after it that write
    ``%0`` or ``%v`` are built again
    (their IR depends on it: an outer name clashes); the others keep their
    IR (the same op objects, not parsed again); the diagnostics are those of
    a fresh open of the text."""
    text = _USES_ZERO.format(name="cut") + "".join((_NO_ZERO if k % 2 else _USES_ZERO).format(name=f"f{k}") for k in range(8))
    doc = Document(text, release=True)
    doc.release_syntax()
    before = {str(op.attributes["sym_name"].value): op for op in doc.sections[0].functions()}  # type: ignore[attr-defined]
    at = text.index("  %0 = arith.constant")
    doc.apply_edit(at, at, "// -----\n")
    after = {str(op.attributes["sym_name"].value): op for s in doc.sections for op in s.functions()}  # type: ignore[attr-defined]
    assert len(doc.sections) == 2
    rebuilt = sorted(name for name, op in after.items() if before.get(name) is not op)
    assert rebuilt == ["f0", "f2", "f4", "f6"], rebuilt
    fresh = Document(doc.text)
    assert _all_notes(doc) == _all_notes(fresh)
    # (Their IR did change: each now redefines the module's %0 and %v.)
    assert [n[3] for n in _all_notes(doc)].count("redefinition of SSA value '%0'") == 4
    # Undone: the same again, as a fresh open.
    doc.apply_edit(at, at + len("// -----\n"), "")
    assert len(doc.sections) == 1 and _all_notes(doc) == _all_notes(Document(text))


# ---------------------------------------------------------------- standard output


def test_the_event_loop_never_waits_for_a_client_slow_to_read() -> None:
    """pygls writes each message on the event loop; a client that does not
    read (a full pipe) blocked it, and every request of every document
    with it. The QueuedWriter returns at once and a thread writes the
    messages, in order; closing waits until they are written."""
    from affine_lsp.server.writer import QueuedWriter

    written: list[bytes] = []
    reading = threading.Event()
    closed = threading.Event()

    class SlowPipe:
        def write(self, data: bytes) -> None:
            reading.wait(60)  # the client reads only once the event is set
            written.append(data)

        def close(self) -> None:
            closed.set()

    w = QueuedWriter(SlowPipe())
    for k in range(50):
        w.write(b"message %d" % k)  # (returns while the pipe is full)
    assert written == []
    reading.set()
    w.drain()
    assert written == [b"message %d" % k for k in range(50)]
    w.write(b"after the end")  # dropped, never raises
    w.close()
    assert closed.is_set() and written[-1] == b"message 49"


def test_a_broken_pipe_drops_the_messages_without_raising() -> None:
    from affine_lsp.server.writer import QueuedWriter

    class Gone:
        def write(self, data: bytes) -> None:
            raise BrokenPipeError(32, "Broken pipe")

        def close(self) -> None:
            pass

    w = QueuedWriter(Gone())
    w.write(b"a")
    w.write(b"b")
    w.drain()
    w.write(b"c")


def test_the_server_writes_standard_output_from_a_thread() -> None:
    from pygls.io_ import StdoutWriter

    from affine_lsp.server.writer import QueuedWriter

    with _server() as server:
        sink = io.BytesIO()
        server.protocol.set_writer(StdoutWriter(sink))
        assert isinstance(server.protocol.writer, QueuedWriter)
        server.protocol.notify("window/logMessage", types.LogMessageParams(type=types.MessageType.Info, message="hello"))
        server.protocol.writer.drain()
        assert b'"hello"' in sink.getvalue() and sink.getvalue().startswith(b"Content-Length: ")


def test_the_answer_to_a_cancelled_request_of_ours_is_dropped(caplog: Any) -> None:
    """A newer edit cancels the analysis awaiting its
    ``window/workDoneProgress/create``; the client's answer comes after:
    dropped, not an InvalidStateError logged as a server error."""
    from concurrent.futures import Future

    with _server() as server:
        fut: Future[Any] = Future()
        fut.cancel()
        server.protocol._request_futures["7"] = fut
        with caplog.at_level(logging.WARNING):
            server.protocol._handle_response("7", None)
        assert "7" not in server.protocol._request_futures
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
