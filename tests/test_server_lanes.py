"""A small document's answers do not queue behind a big one (issue #31).

Each open document has its own worker threads (``server/runtime/lanes.py``): the
fast phase (diagnostics of a new edit) and the requests of a small document
are answered while a big document's fast phase, its requests and its
background analysis are all held on events, and a hover that needs an
analysis held behind the isl lock says that it is not complete instead of
waiting. In-process server, real handlers; the holds are released at the
end of each test (nothing here measures time: "answered while held" means
the answer came before the holds were released).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any

from lsprotocol import types

from bench.generate import generate
from tests.test_server_support import in_process_server

SMALL = """func.func @small(%A: memref<64xf32>) {
  affine.for %i = 0 to 64 {
    %v = affine.load %A[%i] : memref<64xf32>
    affine.store %v, %A[%i] : memref<64xf32>
  }
  return
}
"""
LOOP = types.Position(line=1, character=4)  # on "affine.for"


_server = in_process_server


def _hold(submit: Any, holds: list[threading.Event]) -> threading.Event:
    """Occupy a worker with a job that waits for a release; returns the
    event set once the job runs."""
    running, release = threading.Event(), threading.Event()
    holds.append(release)

    def job() -> None:
        running.set()
        release.wait(120)

    submit(job)
    return running


def _hold_lock(lock: Any, holds: list[threading.Event]) -> None:
    held, release = threading.Event(), threading.Event()
    holds.append(release)

    def hold() -> None:
        with lock:
            held.set()
            release.wait(120)

    threading.Thread(target=hold, daemon=True).start()
    assert held.wait(30)


async def _answered_while_held(aw: Any, holds: list[threading.Event]) -> Any:
    """``aw``'s result; fails if it only came once the holds were released."""
    try:
        return await asyncio.wait_for(aw, 60)
    finally:
        released_before = not any(h.is_set() for h in holds)
        for h in holds:
            h.set()
        assert released_before


def test_a_small_document_is_answered_while_a_big_one_holds_its_workers_and_the_isl_lock() -> None:
    from affine_lsp.analysis.isl_support import LOCK
    from affine_lsp.server.document_symbols import document_symbols
    from affine_lsp.server.folding import folding_ranges
    from affine_lsp.server.hover import HOVER_ANALYSIS_WAIT_S, compute_hover
    from affine_lsp.server.routes import in_lane, snapshot

    async def run(server: Any) -> None:
        big = server.documents.open("file:///lanes/big.mlir", generate(3000), 1, "mlir")
        small = server.documents.open("file:///lanes/small.mlir", SMALL, 1, "mlir")
        holds: list[threading.Event] = []
        try:
            # The big document: its fast phase, both its request threads, its
            # lock, the background analysis and the isl lock all busy.
            assert _hold(server.lanes(big).submit_fast, holds).wait(30)
            lanes = server.lanes(big)
            assert _hold(lanes.submit_request, holds).wait(30) and _hold(lanes.submit_request, holds).wait(30)
            _hold_lock(big.lock, holds)
            assert _hold(server.analysis_pool.submit, holds).wait(30)
            _hold_lock(LOCK, holds)
            # An edit of the small document (with a new error) and requests about it.
            pos = types.Position(line=5, character=0)
            change = types.TextDocumentContentChangePartial(range=types.Range(start=pos, end=pos), text="  %x = arith.addf %nope, %nope : f32\n")
            small.queue_changes(2, [change])

            async def answers() -> tuple[Any, ...]:
                fast = await server.diagnostics.fast(small, 2)
                folds = await in_lane(server, folding_ranges, small)
                symbols = await in_lane(server, document_symbols, small)
                hover = await in_lane(server, compute_hover, snapshot(server, small, HOVER_ANALYSIS_WAIT_S), LOOP)
                return fast, folds, symbols, hover

            fast, folds, symbols, hover = await _answered_while_held(answers(), holds)
        finally:
            for h in holds:
                h.set()
        messages = [d.message for d in fast.result.diagnostics]
        assert "use of undeclared SSA value name" in messages, messages
        assert not fast.result.complete  # the dependence analysis is still to come
        assert folds and symbols and [s.name for s in symbols] == ["@small"]
        assert hover is not None
        text = hover.contents.value
        # The loop's analysis waits behind the isl lock: the hover says so.
        assert "trip count: 64" in text and "still running" in text, text
        # Released: the same hover, complete now, as the fresh computation of the same text.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.diagnostics.fast(big, 1), 120)
        after = await in_lane(server, compute_hover, snapshot(server, small, HOVER_ANALYSIS_WAIT_S), LOOP)
        fresh = server.documents.open("file:///lanes/fresh.mlir", small.document_unsafe.text, 2, "mlir")
        await server.diagnostics.fast(fresh, 2)
        again = await in_lane(server, compute_hover, snapshot(server, fresh, HOVER_ANALYSIS_WAIT_S), LOOP)
        for _ in range(100):  # until neither says that its analysis is pending
            if not any(m in h.contents.value for h in (after, again) for m in ("still running", "not analysed yet")):
                break
            await asyncio.sleep(0.2)
            after = await in_lane(server, compute_hover, snapshot(server, small, HOVER_ANALYSIS_WAIT_S), LOOP)
            again = await in_lane(server, compute_hover, snapshot(server, fresh, HOVER_ANALYSIS_WAIT_S), LOOP)
        assert after.contents.value == again.contents.value

    with _server() as server:
        asyncio.run(run(server))


def test_a_full_semantic_tokens_answer_past_its_wait_says_it_is_partial_and_is_completed(monkeypatch: Any) -> None:
    """Past ``FULL_WAIT_S`` (here at once) a full request answers with the
    cached chunks' tokens and ``resultId`` PARTIAL; the rest is computed in
    the background, the client is asked to refresh, and the next answer is
    the complete one (the same as without a wait)."""
    from affine_lsp.server import semantic_tokens as sem
    from affine_lsp.server.routes import in_lane, snapshot

    text = generate(200)

    async def run(server: Any) -> None:
        st = server.documents.open("file:///lanes/tokens.mlir", text, 1, "mlir")
        await server.diagnostics.fast(st, 1)
        whole = await in_lane(server, sem.tokens_for, snapshot(server, st), None)  # (FULL_WAIT_S as shipped: a small file, complete)
        assert whole.result_id is None and whole.data
        st.token_cache.clear()
        monkeypatch.setattr(sem, "FULL_WAIT_S", -1.0)
        refreshed = asyncio.Event()
        loop = asyncio.get_running_loop()
        partial = await in_lane(server, sem.tokens_for, snapshot(server, st), None, lambda: loop.call_soon_threadsafe(refreshed.set))
        assert partial.result_id == sem.PARTIAL and len(partial.data) < len(whole.data)
        await asyncio.wait_for(refreshed.wait(), 60)
        again = await in_lane(server, sem.tokens_for, snapshot(server, st), None)
        assert again.result_id is None and again.data == whole.data

    with _server() as server:
        asyncio.run(run(server))


def test_completing_the_tokens_lets_an_on_demand_analysis_queued_behind_it_run(monkeypatch: Any) -> None:
    """The completion of a document's tokens runs on its on-demand lane;
    an analysis a hover waits for, queued on the same lane meanwhile, counts
    as interactive work: the completion yields the lane to it (it used to
    wait for the interactive work to end, which waited behind it: neither
    ran until the document was closed, nor did the background analysis of
    any document, which yields to interactive work)."""
    from affine_lsp.server import semantic_tokens as sem
    from affine_lsp.server.routes import in_lane, snapshot, within_budget

    text = generate(3000)

    async def run(server: Any) -> None:
        st = server.documents.open("file:///lanes/tokens-busy.mlir", text, 1, "mlir")
        await server.diagnostics.fast(st, 1)
        monkeypatch.setattr(sem, "FULL_WAIT_S", -1.0)
        refreshed = asyncio.Event()
        loop = asyncio.get_running_loop()
        partial = await in_lane(server, sem.tokens_for, snapshot(server, st), None, lambda: loop.call_soon_threadsafe(refreshed.set))
        assert partial.result_id == sem.PARTIAL and st.tokens_warming  # the completion is queued or running
        ok, got = await asyncio.to_thread(within_budget, server, lambda: "analysed", budget=30.0, doc=st)
        assert ok and got == "analysed"
        assert server.interactive == 0
        await asyncio.wait_for(refreshed.wait(), 60)
        whole = await in_lane(server, sem.tokens_for, snapshot(server, st), None)
        assert whole.result_id is None and len(whole.data) > len(partial.data)

    with _server() as server:
        asyncio.run(run(server))


def test_the_upgrade_action_waits_a_moment_then_says_it_is_still_being_computed() -> None:
    """The upgrade of a legacy file parses every item (seconds on a
    20,000-line file): while it runs on the document's on-demand thread
    (held here) the action is offered disabled, saying so; once done, the
    next request offers its edit (the same as the CLI's upgrade)."""
    from pathlib import Path

    from affine_lsp.server.code_actions import code_actions
    from affine_lsp.server.routes import CODE_ACTIONS, in_lane, snapshot
    from affine_lsp.server.upgrade_action import TITLE
    from affine_lsp.transforms.legacy_upgrade import upgrade_text

    text = (Path(__file__).parent / "data" / "legacy" / "licm.mlir").read_text()

    async def run(server: Any) -> None:
        st = server.documents.open("file:///lanes/legacy.mlir", text, 1, "mlir")
        await server.diagnostics.fast(st, 1)
        params = types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=st.uri),
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
            context=types.CodeActionContext(diagnostics=[]),
        )
        holds: list[threading.Event] = []
        assert _hold(server.lanes(st).submit_ondemand, holds).wait(30)
        try:
            first = await in_lane(server, code_actions, snapshot(server, st), params, CODE_ACTIONS)
        finally:
            for h in holds:
                h.set()
        upgrade = [a for a in first if a.title.startswith(TITLE)]
        assert len(upgrade) == 1 and upgrade[0].disabled is not None and "still being computed" in upgrade[0].disabled.reason
        assert upgrade[0].edit is None
        for _ in range(100):
            later = [a for a in await in_lane(server, code_actions, snapshot(server, st), params, CODE_ACTIONS) if a.title.startswith(TITLE)]
            if later and later[0].disabled is None:
                break
            await asyncio.sleep(0.1)
        assert later[0].edit is not None
        (edit,) = later[0].edit.changes[st.uri]
        assert edit.new_text == upgrade_text(text).text != text

    with _server() as server:
        asyncio.run(run(server))


def test_a_hover_during_the_first_build_of_a_document_reads_its_function_alone() -> None:
    """While the first build of a document holds its lock (a 100,000-function
    file takes minutes), a hover is answered from the function under the
    cursor and the file's aliases, on the same lines and columns, and says
    so; once the build is done, the same hover without the note."""
    from affine_lsp.server.hover import HOVER_ANALYSIS_WAIT_S, OPENING_NOTE, compute_hover
    from affine_lsp.server.routes import in_lane, snapshot

    funcs = [SMALL.replace("@small", f"@f{k}").replace("affine.load %A[%i]", "affine.load %A[%i + 0]" if k % 2 else "affine.load %A[%i]") for k in range(40)]
    text = "#id = affine_map<(d0) -> (d0)>\nmodule {\n" + "".join(funcs) + "}\n"
    line = 2 + 7 * 25 + 1  # the loop of @f25
    pos = types.Position(line=line, character=4)
    assert text.split("\n")[line].startswith("  affine.for")

    async def run(server: Any) -> None:
        st = server.documents.open("file:///lanes/opening.mlir", text, 1, "mlir")
        assert st.document_unsafe is not None  # chunked, not built (as a first build has it)
        holds: list[threading.Event] = []
        try:
            _hold_lock(st.lock, holds)
            during = await _answered_while_held(in_lane(server, compute_hover, snapshot(server, st, HOVER_ANALYSIS_WAIT_S), pos), holds)
        finally:
            for h in holds:
                h.set()
        await server.diagnostics.fast(st, 1)
        after = await in_lane(server, compute_hover, snapshot(server, st, HOVER_ANALYSIS_WAIT_S), pos)
        assert during is not None and after is not None
        assert during.contents.value.endswith("\n\n" + OPENING_NOTE)
        assert OPENING_NOTE not in after.contents.value
        assert "trip count: 64" in during.contents.value
        assert during.range == after.range

    with _server() as server:
        asyncio.run(run(server))
