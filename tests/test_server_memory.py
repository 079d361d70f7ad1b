"""A closed document's memory is given back (issue #31): the server's
garbage-collection policy (``server/memory.py``).

Every fast phase freezes what it built (``gc.freeze``), so the collector's
own collections never walk a document's IR; a closed document's frozen IR
is reclaimed by one full collection that the server runs by itself at the
next quiet moment. A real server process (pytest-lsp): after each open and
close of a large document, without any request asking for it, the server
has run its full collection and the frozen objects are back to their level
before the open; the debugging command ``affine-lsp.memoryStats`` then
counts the live IR operations, back to the count before the first open.
"""

from __future__ import annotations

import asyncio
import gc
import uuid
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp.server.memory import CollectionPolicy, SlowCollectionLog, full_collection
from bench.generate import generate
from tests.test_server_support import config, diagnostics_for, no_server_errors, open_doc, start

# (Each run's texts are new: diagnostics from the persistent cache would
# be published before the document is built.)
RUN = f"// run {uuid.uuid4()}\n"
BIG = RUN + generate(16000)  # (closing it makes a full collection due; a small document's close does not)
SMALL = RUN + "func.func @f(%A: memref<8xf32>) {\n  affine.for %i = 0 to 8 {\n    %v = affine.load %A[%i] : memref<8xf32>\n  }\n  return\n}\n"


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    await start(lsp_client)
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


async def _stats(client: LanguageClient, count: bool = False) -> dict[str, Any]:
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(command="affine-lsp.memoryStats", arguments=[{"count": count}]))


def _close(client: LanguageClient, uri: str) -> None:
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))


@pytest.mark.asyncio(loop_scope="module")
async def test_closing_a_large_document_gives_its_ir_back(client: LanguageClient):
    small = "file:///mem/small.mlir"
    open_doc(client, small, SMALL)
    await diagnostics_for(client, small, 1)
    before = await _stats(client, count=True)
    for _ in range(300):  # (its first diagnostics may come before its build: early_open)
        if before["operations"] > 0:
            break
        await asyncio.sleep(0.1)
        before = await _stats(client, count=True)
    assert before["operations"] > 0  # the small document's IR
    for i in range(2):
        uri = f"file:///mem/big{i}.mlir"
        open_doc(client, uri, BIG)
        await diagnostics_for(client, uri, 1, timeout=120)
        opened = await _stats(client)
        assert opened["frozen_objects"] > before["frozen_objects"] + 10_000  # the big document's IR, frozen
        _close(client, uri)
        # No request asks for it: the server collects by itself once quiet.
        closed = None
        for _ in range(600):
            closed = await _stats(client)
            if closed["full_collections"] > opened["full_collections"] and closed["frozen_objects"] < opened["frozen_objects"]:
                break
            await asyncio.sleep(0.05)
        assert closed is not None and closed["full_collections"] > opened["full_collections"], closed
        assert closed["frozen_objects"] < before["frozen_objects"] + (opened["frozen_objects"] - before["frozen_objects"]) // 10, (before, opened, closed)
    after = await _stats(client, count=True)
    assert after["operations"] == before["operations"], (before, after)
    assert after["documents"] == 1
    _close(client, small)


def test_policy_collects_after_a_large_close_or_enough_garbage():
    p = CollectionPolicy(growth=0.5, min_growth=1000)
    p.started(frozen=10_000)  # imports, parser tables
    p.built(key=1, objects=50_000)  # a document opened: alive, not garbage
    p.built(key=2, objects=500)
    assert p.garbage(frozen=60_500) == 0 and not p.due(frozen=60_500)
    assert not p.due(frozen=65_000)  # edits rebuilt 4,500 objects: less than half the live ones (10,000)
    assert p.due(frozen=65_001 + 500)
    p.document_closed(key=2, chars=1_000)  # a small document closed: its 500 objects are garbage
    assert p.garbage(frozen=60_500) == 500 and not p.due(frozen=60_500)
    p.collected(live=60_000)
    assert not p.due(frozen=60_000)
    p.document_closed(key=1, chars=1_000_000)  # the document opened before: 50,000 objects of garbage
    assert p.garbage(frozen=60_000) == 50_000 and p.due(frozen=60_000)
    p.collected(live=10_000)
    p.document_closed(key=3, chars=20_000)  # never built: its text's estimate
    assert p.garbage(frozen=10_000) == 6_000 and p.due(frozen=10_000)


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_full_collection_frees_frozen_cycles_and_freezes_survivors():
    gc.collect()
    kept = [_Cycle() for _ in range(100)]
    garbage = [_Cycle() for _ in range(1000)]
    gc.freeze()
    try:
        del garbage
        assert sum(isinstance(o, _Cycle) for o in gc.get_objects()) == 0  # frozen: no collection sees them
        report = full_collection()
        assert report.collected >= 1000
        assert report.live > len(kept) and gc.get_freeze_count() > 0
        gc.unfreeze()
        assert sum(isinstance(o, _Cycle) for o in gc.get_objects()) == len(kept)
    finally:
        gc.unfreeze()


def test_slow_collections_are_logged(caplog):
    log = SlowCollectionLog(threshold=0.0)
    log.install()
    try:
        with caplog.at_level("WARNING", logger="affine_lsp.server.memory"):
            gc.collect()
    finally:
        log.uninstall()
    assert log.slow >= 1 and log not in gc.callbacks
    assert any("gc: collection of generation 2 took" in r.getMessage() for r in caplog.records)
