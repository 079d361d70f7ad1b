"""What the background analysis leaves "to analyse" once it is complete.

A function whose value flows are asked for and not answered yet (the
dataflow worker of ``server/runtime/flowproc.py`` computes them in the background,
one function at a time) is not left to analyse: an edit re-queues only the
function it changed, and the analysis phase does not walk the others again
at every pause of the typing. The flows still arrive and are what a fresh
open computes. A hover that waits for flows asked for in the background gets them
first. A function whose flows can never come (no text of its own to
send, a worker that is gone) is not left to analyse either."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import time
from collections.abc import Iterator
from typing import Any

import pytest
from lsprotocol import types

from affine_lsp.server.analysis_engine import functions_of
from affine_lsp.server.inlay_hints import INLAY_WAIT_S, inlay_hints
from affine_lsp.server.routes import snapshot
from tests.test_server_support import in_process_server

pytestmark = pytest.mark.skipif(importlib.util.find_spec("islpy") is None, reason="islpy not available")

URI = "file:///settled/doc.mlir"

_FUNC = """func.func @{name}(%A: memref<100xf32>, %B: memref<100xf32>) {{
  affine.for %i = 1 to {n} {{
    %a = affine.load %A[%i - 1] : memref<100xf32>
    %b = affine.load %B[%i + 40] : memref<100xf32>
    %s = arith.addf %a, %b : f32
    affine.store %s, %A[%i] : memref<100xf32>
  }}
  affine.for %j = 0 to 50 {{
    %c = affine.load %A[%j] : memref<100xf32>
    affine.store %c, %B[%j] : memref<100xf32>
  }}
  return
}}
"""

TEXT = "".join(_FUNC.format(name=f"f{k}", n=64 + k) for k in range(6))
NESTED = "gpu.module @g {\n" + "".join("  " + line for line in _FUNC.format(name="nested", n=40).splitlines(True)) + "}\n"


@contextlib.contextmanager
def _server() -> Iterator[Any]:
    with in_process_server() as server:
        server.client.pull_diagnostics = True  # (nothing to publish to: no client)
        server.client.diagnostic_refresh = server.client.inlay_refresh = False
        yield server


def _replace(text: str, old: str, new: str) -> types.TextDocumentContentChangePartial:
    at = text.index(old)
    line = text.count("\n", 0, at)
    col = at - (text.rfind("\n", 0, at) + 1)
    rng = types.Range(start=types.Position(line=line, character=col), end=types.Position(line=line, character=col + len(old)))
    return types.TextDocumentContentChangePartial(range=rng, text=new)


def _analyses(server: Any, st: Any) -> dict[str, Any]:
    from affine_lsp.ir.op_traits import symbol_name

    with st.locked() as doc:
        funcs = functions_of(doc)
    cache = server.engine.cached(st, funcs, server.settings)
    return {symbol_name(f): cache.get(id(f)) for f in funcs}


def _wait_flows(server: Any, st: Any, timeout: float = 120.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        fas = _analyses(server, st)
        if all(fa is not None and fa.ready for fa in fas.values()):
            return {name: fa.flows for name, fa in fas.items()}
        assert time.monotonic() < end, "the value flows never arrived"
        time.sleep(0.05)


def _answers(server: Any, st: Any) -> tuple[list[Any], list[Any]]:
    """The merged diagnostics and the inlay hints of the whole document."""
    with st.locked() as doc:
        n_lines = doc.text.count("\n")
    rng = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=n_lines, character=0))
    hints = inlay_hints(snapshot(server, st, INLAY_WAIT_S), rng)
    last = st.last
    return [(d.range, d.severity, d.message) for d in last.diagnostics], [(h.position, h.label) for h in hints]


async def _open_and_settle(server: Any, uri: str, text: str) -> Any:
    st = server.documents.open(uri, text, 1, "mlir")
    await server.diagnostics._run(st, 1, 0.0)
    assert st.last is not None and st.last.version == 1 and st.last.complete
    return st


def test_pending_flows_leave_nothing_to_analyse_and_an_edit_requeues_only_its_function() -> None:
    async def run(server: Any) -> None:
        worker = server.engine.flow_worker
        worker.hold(3600)  # the value flows stay pending (asked for, not answered)
        st = await _open_and_settle(server, URI, TEXT)
        fas = _analyses(server, st)
        assert len(fas) == 6
        for name, fa in fas.items():
            assert fa is not None and fa.warmed, name
            assert fa.flows is None and fa.flows_future is not None and not fa.flows_future.done(), name

        # The same text again (a change undone): nothing to analyse.
        st.queue_changes(2, [_replace(TEXT, "to 66", "to 66")])
        fast = await server.diagnostics.fast(st, 2)
        assert fast is not None and fast.missing == [] and not fast.pending
        assert fast.result.complete

        # An edit of @f2: only @f2 is to analyse.
        edited = TEXT.replace("to 66", "to 67")
        st.queue_changes(3, [_replace(TEXT, "to 66", "to 67")])
        fast = await server.diagnostics.fast(st, 3)
        assert fast is not None
        from affine_lsp.ir.op_traits import symbol_name

        assert [symbol_name(f) for f in fast.missing] == ["f2"]
        await server.diagnostics._analyse(st, fast)
        assert st.last.version == 3 and st.last.complete
        st.queue_changes(4, [_replace(edited, "to 67", "to 67")])
        fast = await server.diagnostics.fast(st, 4)
        assert fast is not None and fast.missing == [] and fast.result.complete

        # A hover (urgent) on a function whose flows wait in the background
        # gets them first, while the others still wait.
        fas = _analyses(server, st)
        fut = server.engine.request_flows(fas["f4"], None, server.settings, urgent=True)
        assert fut is fas["f4"].flows_future
        await asyncio.wrap_future(fut)
        assert fas["f4"].flows is not None
        assert [name for name, fa in fas.items() if fa.flows is None] == ["f0", "f1", "f2", "f3", "f5"]

        # The flows are delivered once the worker goes on; then the edited
        # document answers as a fresh open of its text.
        worker.resume()
        flows = await asyncio.to_thread(_wait_flows, server, st)
        mine = _answers(server, st)
        fresh = await _open_and_settle(server, "file:///settled/fresh.mlir", edited)
        fresh_flows = await asyncio.to_thread(_wait_flows, server, fresh)
        assert flows == fresh_flows
        assert any(flows.values())  # (the loops carry values: the comparison is not of empty sets)
        assert mine == _answers(server, fresh)
        assert any("out of upper bound" in d[2] for d in mine[0]) and mine[1]

    with _server() as server:
        asyncio.run(run(server))


def test_flows_that_can_never_come_leave_nothing_to_analyse() -> None:
    """A function inside another top-level item has no text of its own to
    send to the worker; with the worker gone, no function has: neither is
    left to analyse once the analysis is complete."""

    async def run(server: Any, broken: bool) -> None:
        if broken:
            server.engine.flow_worker.shutdown()
        text = TEXT + NESTED
        st = await _open_and_settle(server, URI, text)
        st.queue_changes(2, [_replace(text, "to 66", "to 66")])
        fast = await server.diagnostics.fast(st, 2)
        assert fast is not None and fast.missing == [] and fast.result.complete
        fas = _analyses(server, st)
        assert fas["nested"].warmed and fas["nested"].flows_failed  # (hovers do not ask again either)
        if broken:
            assert all(fa.flows_failed for fa in fas.values())

    for broken in (False, True):
        with _server() as server:
            asyncio.run(run(server, broken))
