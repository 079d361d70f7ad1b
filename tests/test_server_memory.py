"""A closed document's memory is given back (issue #31): the server's
garbage-collection policy (``server/runtime/memory.py``).

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
import re
import uuid
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import LanguageClient

from affine_lsp.gc_pause import gc_paused
from affine_lsp.ir.core import Operation
from affine_lsp.ir.release import break_cycles
from affine_lsp.server.analysis_engine import Engine, functions_of
from affine_lsp.server.runtime.memory import BIG_BUILD, CollectionPolicy, SlowCollectionLog, collect_young_and_freeze, freeze_if_big, full_collection
from affine_lsp.server.runtime.reclaim import Reclaimer
from affine_lsp.server.settings import Settings
from affine_lsp.server.state import DocumentState
from affine_lsp.source.document import Document, item_syntax
from bench.content import CONSTANT
from bench.generate import generate
from tests.test_server_support import change, code_actions_at, config, diagnostics_for, no_server_errors, open_doc, pos, start

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


async def _stats(client: LanguageClient, count: bool = False, census: bool = False) -> dict[str, Any]:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="affine-lsp.memoryStats", arguments=[{"count": count, "census": census}])
    )


def _close(client: LanguageClient, uri: str) -> None:
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))


async def _answers(client: LanguageClient, uri: str, text: str) -> list[Any]:
    """What the server answers about ``uri`` (hover, inlay hints, symbols,
    semantic tokens, code actions), as JSON-like data."""
    ident = types.TextDocumentIdentifier(uri=uri)
    at = pos(text, "affine.load")
    end = types.Position(line=text.count("\n"), character=0)
    got = [
        await client.text_document_hover_async(types.HoverParams(text_document=ident, position=at)),
        await client.text_document_inlay_hint_async(
            types.InlayHintParams(text_document=ident, range=types.Range(start=types.Position(line=0, character=0), end=end))
        ),
        await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=ident)),
        await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=ident)),
        await code_actions_at(client, uri, at),
    ]
    return [default_converter().unstructure(g) for g in got]


async def _settled_answers(client: LanguageClient, uri: str, text: str) -> list[Any]:
    """The answers once the analysis is done (two rounds in a row agree)."""
    last = await _answers(client, uri, text)
    for _ in range(100):
        await asyncio.sleep(0.1)
        now = await _answers(client, uri, text)
        if now == last:
            return now
        last = now
    raise AssertionError("the answers did not settle")


@pytest.mark.asyncio(loop_scope="module")
async def test_closing_a_large_document_gives_its_ir_back(client: LanguageClient):
    small = "file:///mem/small.mlir"
    open_doc(client, small, SMALL)
    await diagnostics_for(client, small, 1)
    small_answers = await _settled_answers(client, small, SMALL)
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
        # Edits and requests: analyses, memos, caches of several versions.
        for v in range(2, 5):
            # An edit that rebuilds a function (its text stays the same).
            at = pos(BIG, "affine.load", nth=40 * v)
            change(client, uri, v, at, types.Position(line=at.line, character=at.character + 1), "a")
            await diagnostics_for(client, uri, v, timeout=120)
            await _answers(client, uri, BIG)
        opened = await _stats(client)
        assert opened["frozen_objects"] > before["frozen_objects"] + 10_000  # the big document's IR, frozen
        _close(client, uri)
        # No request asks for it: the reclaimer frees it, without a collection.
        closed = None
        for _ in range(600):
            closed = await _stats(client)
            if closed["reclaimed_documents"] > opened["reclaimed_documents"]:
                break
            await asyncio.sleep(0.05)
        assert closed is not None and closed["reclaimed_documents"] == opened["reclaimed_documents"] + 1, closed
        assert closed["reclaimed_operations"] > 10_000 and closed["reclaim_fallbacks"] == 0, closed
        assert closed["full_collections"] == opened["full_collections"], closed
        assert closed["generation2_collections"] == opened["generation2_collections"], (opened, closed)
        assert closed["frozen_objects"] < before["frozen_objects"] + (opened["frozen_objects"] - before["frozen_objects"]) // 10, (before, opened, closed)
        assert await _answers(client, small, SMALL) == small_answers  # the other document is untouched
    after = await _stats(client, count=True)
    for _ in range(50):  # (a request the dataflow worker is computing holds its function until it is done)
        if after["operations"] == before["operations"]:
            break
        await asyncio.sleep(0.2)
        after = await _stats(client, count=True)
    assert after["operations"] == before["operations"], (before, after)
    assert after["documents"] == 1
    census = (await _stats(client, census=True))["census"]  # (no collection: garbage included)
    counts = list(census.values())
    assert 0 < len(counts) <= 25 and counts == sorted(counts, reverse=True) and "dict" in census
    # A new document with the small one's text answers as it did.
    uri = "file:///mem/again.mlir"
    open_doc(client, uri, SMALL)
    await diagnostics_for(client, uri, 1)
    again = await _settled_answers(client, uri, SMALL)
    assert again[:4] == small_answers[:4]
    _close(client, uri)
    _close(client, small)


def _edit(client: LanguageClient, uri: str, version: int, text: str, start: int, end: int, new: str) -> str:
    """Replace ``text[start:end]`` by ``new`` in the server's copy too."""
    lines = text[:start].split("\n"), text[:end].split("\n")
    change(
        client,
        uri,
        version,
        types.Position(line=len(lines[0]) - 1, character=len(lines[0][-1])),
        types.Position(line=len(lines[1]) - 1, character=len(lines[1][-1])),
        new,
    )
    return text[:start] + new + text[end:]


@pytest.mark.asyncio(loop_scope="module")
async def test_edits_free_the_ir_they_replace_without_a_collection(client: LanguageClient):
    """The IR an edit replaces is freed by the reclaimer while the document
    stays open (server/runtime/reclaim.py): after edits of every kind (a function
    built again, broken and mended, deleted; an alias changed, which builds
    again the functions that use it), with requests in between, no IR
    operation is left for a collection to find, none ran, and the answers
    are those of a fresh open of the same text."""
    uri = "file:///mem/edited.mlir"
    text = RUN + generate(4000)
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, 1, timeout=120)
    await _answers(client, uri, text)
    before = await _stats(client, count=True)  # (a collection: the garbage of the start-up is gone)
    assert len(_functions(text)) > 40 and "#map_shift = affine_map<(d0) -> (d0 + 1)>" in text

    def word(needle: str, function: int, new: str) -> Callable[[str], tuple[int, int, str]]:
        def at(t: str) -> tuple[int, int, str]:
            i = t.index(needle, _functions(t)[function])
            return i, i + len(needle), new

        return at

    steps = [
        word("affine.load", 10, " affine.load"),  # built again
        word("affine.load", 20, "affine.lod"),  # broken: last_good keeps it
        word("affine.lod", 20, "affine.load"),  # mended
        lambda t: (_functions(t)[30], _functions(t)[31], ""),  # deleted
        lambda t: (t.index("(d0 + 1)>"), t.index("(d0 + 1)>") + 9, "(d0 + 2)>"),  # the alias: the functions using it are built again
    ]
    for version, step in enumerate(steps, start=2):
        text = _edit(client, uri, version, text, *step(text))
        await diagnostics_for(client, uri, version, timeout=120)
        await _answers(client, uri, text)
    await _answers(client, uri, text)
    # The reclaimer has freed what the edits replaced: no IR operation is
    # garbage (the census counts what the collector tracks, garbage
    # included; a full collection then finds as many alive).
    for _ in range(100):
        stats = await _stats(client, census=True)
        if stats["retired_operations"] > 0 and not await _pending_retired(client, stats):
            break
        await asyncio.sleep(0.1)
    after = await _stats(client, count=True)
    assert stats["census"]["Operation"] == after["operations"], (stats, after)
    assert stats["retired_operations"] > 0 and stats["retire_fallbacks"] == 0, stats
    assert stats["full_collections"] == before["full_collections"] and stats["generation2_collections"] - before["generation2_collections"] < 50, (
        before,
        stats,
    )
    fresh = "file:///mem/fresh.mlir"
    open_doc(client, fresh, text)
    await diagnostics_for(client, fresh, 1, timeout=120)
    for _ in range(300):  # (until both analyses are complete: an answer may be partial until then)
        edited, opened = await _answers(client, uri, text), await _answers(client, fresh, text)
        if edited[:4] == opened[:4]:
            break
        await asyncio.sleep(0.2)
    assert edited[:4] == opened[:4]
    _close(client, fresh)
    _close(client, uri)


def _functions(text: str) -> list[int]:
    """Where the text's functions start."""
    return [m.start() for m in re.finditer(r"^func\.func", text, re.M)]


async def _pending_retired(client: LanguageClient, stats: dict[str, Any]) -> bool:
    """Whether the reclaimer still has retired IR to free (its count moves)."""
    await asyncio.sleep(0.3)
    return (await _stats(client))["retired_operations"] != stats["retired_operations"]


def _live_operations_uncollected() -> int:
    """IR operations that exist, garbage included (no collection runs)."""
    gc.unfreeze()
    try:
        return sum(isinstance(o, Operation) for o in gc.get_objects())
    finally:
        gc.freeze()


def test_reclaimer_frees_a_closed_documents_ir_without_a_collection():
    engine, settings = Engine(), Settings()
    text = generate(2000)
    other = DocumentState("file:///other.mlir", SMALL, 1)
    with other.locked() as doc:
        other_notes = [n.message for n in engine.verify(doc, other)]
        other_ops = [op.name for s in doc.sections for op in s.module.walk()]
    gc.collect()
    base = _live_operations_uncollected()
    st = DocumentState("file:///big.mlir", text, 1)
    with st.locked() as doc:
        engine.verify(doc, st)
        for f in functions_of(doc):
            engine.analyse_function(st, f, settings)
        st.remember_good_ops(doc)
        built = sum(1 for s in doc.sections for _ in s.module.walk())
    del doc, f
    assert _live_operations_uncollected() - base >= built > 1000
    st.close()
    freed: list[int] = []
    reclaimer = Reclaimer(on_done=lambda _st, n: freed.append(n), on_fallback=lambda _st: freed.append(-1))
    gc.disable()
    try:
        generation2 = gc.get_stats()[2]["collections"]
        reclaimer.submit(st)
        del st
        assert reclaimer.wait_idle(60)
        assert freed and freed[0] >= built and reclaimer.fallbacks == 0
        assert _live_operations_uncollected() == base  # freed by reference counting
        assert gc.get_stats()[2]["collections"] == generation2
    finally:
        gc.enable()
        reclaimer.stop()
    # The other document is untouched.
    with other.locked() as doc:
        assert [n.message for n in engine.verify(doc, other)] == other_notes
        assert [op.name for s in doc.sections for op in s.module.walk()] == other_ops


def test_the_safety_net_of_a_transformation_leaves_no_garbage_ir():
    """``edits.checked`` parses and verifies the text before and after a
    transformation in scratch documents: their IR is freed when it returns
    (by reference counting: nothing is left for a collection, which in the
    server would find it frozen)."""
    from affine_lsp.transforms.edits import TextEdit, checked

    text = generate(300)
    at = text.index("affine.load")
    gc.collect()
    gc.disable()
    try:
        base = _live_operations_uncollected()
        new = checked(text, [TextEdit(at, at, " ")])
        assert new != text
        assert _live_operations_uncollected() == base
    finally:
        gc.enable()


MATMULS = (
    CONSTANT[0]
    .format(name="two")
    .replace(
        "  return\n",
        """  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %c = affine.load %C[%i, %j] : memref<64x64xf32>
      %d = arith.addf %c, %c : f32
      affine.store %d, %A[%i, %j] : memref<64x64xf32>
    }
  }
  return
""",
    )
)
"""A matrix product (bench/content.py) and a second nest reading its result."""


def test_the_code_actions_of_a_loop_leave_no_garbage_ir():
    """Every transformation's code action at a loop (the optimizer's steps,
    fusion's trials, each one's safety net) works in scratch documents
    (source/scratch.py): when the actions are computed, none of their IR
    is left for a collection."""
    from affine_lsp.server.transform_actions import transforms_for

    doc = Document(MATMULS)
    funcs = functions_of(doc)
    loops = [op for op in funcs[0].walk() if op.name == "affine.for"]
    gc.collect()
    gc.disable()
    try:
        base = _live_operations_uncollected()
        for pair in ([loops[0]], [loops[1]], [loops[2]], [loops[0], loops[3]]):
            actions = transforms_for(doc, pair, 8)
            assert any(not t.data.get("disabled") for t in actions)
        assert _live_operations_uncollected() == base
    finally:
        gc.enable()


def test_the_dataflow_workers_scratch_documents_leave_no_garbage_ir():
    """The dataflow worker parses each function it is sent: that IR is
    freed when the answer is computed, not by the worker's collections."""
    from affine_lsp.server.runtime.flowproc import value_flows

    gc.collect()
    gc.disable()
    try:
        base = _live_operations_uncollected()
        flows = value_flows("", MATMULS, 10_000, None)
        assert flows  # the load of C reads the values the first nest stored
        assert _live_operations_uncollected() == base
    finally:
        gc.enable()


INIT_THEN_MAX = """func.func @init_then_max(%in: memref<18x18xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %out = memref.alloc() : memref<8x8xf32>
  affine.parallel (%i, %j) = (0, 0) to (8, 8) {
    affine.store %cst, %out[%i, %j] : memref<8x8xf32>
  }
  affine.parallel (%i, %j) = (0, 0) to (8, 8) {
    affine.for %a = 0 to 3 {
      affine.for %b = 0 to 3 {
        %0 = affine.load %out[%i, %j] : memref<8x8xf32>
        %1 = affine.load %in[%i * 2 + %a, %j * 2 + %b] : memref<18x18xf32>
        %2 = arith.maximumf %0, %1 : f32
        affine.store %2, %out[%i, %j] : memref<8x8xf32>
      }
    }
  }
  return
}
"""

UNANALYSABLE = """func.func @scoped(%arg0: memref<9x9xi32>, %arg1: i1) {
  %idx1 = index.constant 1
  %0 = tensor.empty() : tensor<10xf16>
  memref.alloca_scope {
    %dim = tensor.dim %0, %idx1 : tensor<10xf16>
    %alloc = memref.alloc(%idx1, %idx1) : memref<?x?xf16>
    affine.for %i = 0 to %dim {
      %1 = affine.load %alloc[%idx1, %idx1] : memref<?x?xf16>
      affine.store %1, %alloc[%idx1, %idx1] : memref<?x?xf16>
    }
  }
  return
}
"""


def _cyclic_garbage(fn: Callable[[], object]) -> Counter[str]:
    """The objects ``fn`` leaves in reference cycles (freed only by the
    cyclic collector), by type; ``fn`` runs once before, so that what its
    first call imports is not counted."""
    fn()
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        fn()
        gc.collect()
        return Counter(type(o).__name__ for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


@pytest.mark.parametrize("text", [MATMULS, INIT_THEN_MAX, UNANALYSABLE], ids=["matmuls", "lazy-relations", "unanalysable"])
def test_the_dependence_analysis_leaves_no_cycles(text: str):
    """The dependence engine's results compute their relation lazily
    without a reference to the engine, and an operand the model cannot
    represent is remembered without its traceback: dropping a function's
    analysis frees it by reference counting. (Before, each was a cycle: a
    worker process collecting them stopped for up to 1.3 s in a fuzz run.)"""
    from affine_lsp.server.runtime.flowproc import value_flows

    flows: list[object] = []
    assert _cyclic_garbage(lambda: flows.append(value_flows("", text, 10_000, None))) == Counter()
    assert flows[-1]  # (each has a value-carrying dependence)


def test_last_good_functions_do_not_keep_older_versions():
    """``last_good`` (completion in a function that does not parse) forgets
    the names no item has any more: an old function op keeps, by its parent
    links, the whole IR of the version it was built in."""
    text = generate(1500)
    gc.collect()
    base = _live_operations_collected()
    st = DocumentState("file:///a.mlir", text, 1)
    kept: list[set[str]] = []
    for version, new in enumerate([text, text.replace("affine.for", "affine.fr", 3), text.replace("@", "@x")], start=1):
        if version > 1:
            st.queue_changes(version, [types.TextDocumentContentChangeWholeDocument(text=new)])
        with st.locked() as doc:
            st.remember_good_ops(doc)
            built = sum(1 for s in doc.sections for _ in s.module.walk())
        del doc
        kept.append(set(st.last_good))
    assert kept[1] == kept[0] and len(kept[0]) > 10  # a function that does not parse keeps its last good version
    assert kept[2] == {"x" + name for name in kept[0]}  # the old names are forgotten
    assert _live_operations_collected() - base == built  # one version of the IR, not two


def test_reparsed_syntax_cache_does_not_keep_a_documents_ir():
    """``item_syntax`` caches the parse of a released function by chunk,
    without keeping the chunk (its IR would keep its version's whole IR)."""
    gc.collect()
    base = _live_operations_collected()
    doc = Document(generate(300), release=True)
    assert doc.sections
    released = [c for c in doc.chunks if c.released]
    assert released and item_syntax(released[0]) is not None
    assert item_syntax(released[0]) is item_syntax(released[0])  # (cached)
    assert _live_operations_collected() > base
    del doc, released
    assert _live_operations_collected() == base


def _live_operations_collected() -> int:
    gc.collect()
    return sum(isinstance(o, Operation) for o in gc.get_objects())


def test_break_cycles_cuts_every_link_of_the_ir():
    st = DocumentState("file:///a.mlir", SMALL, 1)
    with st.locked() as doc:
        module = doc.sections[0].module
        ops = list(module.walk())
    assert break_cycles([module]) == len(ops) == 5
    for op in ops:
        assert op.parent is None and not op.regions and not op.results and not op.operands and op.memo is None


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
    p.collected(live=10_000)
    p.built(key=4, objects=40_000)
    p.document_freed(key=4)  # freed without a collection (server/runtime/reclaim.py): neither alive nor garbage
    assert p.garbage(frozen=10_000) == 0 and not p.due(frozen=10_000)
    p.built(key=5, objects=40_000)
    p.collected(live=50_000)
    p.document_freed(key=5)
    assert p.live_after_last == 10_000 and p.garbage(frozen=10_000) == 0


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


def test_a_fast_phase_freezes_what_survives_the_young_collections():
    """After an edit's fast phase the young generations are collected, then
    what is left frozen: garbage made meanwhile is freed, not frozen."""
    gc.collect()
    try:
        kept = [_Cycle() for _ in range(100)]
        garbage = [_Cycle() for _ in range(1000)]
        del garbage
        collect_young_and_freeze()
        assert sum(isinstance(o, _Cycle) for o in gc.get_objects()) == 0  # frozen
        gc.unfreeze()
        assert sum(isinstance(o, _Cycle) for o in gc.get_objects()) == len(kept)  # and the garbage is gone
    finally:
        gc.unfreeze()


def test_only_a_large_build_is_frozen_when_the_collector_resumes():
    gc.collect()
    try:
        with gc_paused:
            small = [_Cycle() for _ in range(100)]
        assert gc.get_freeze_count() == 0 and small
        gc.collect()
        gc_paused.on_resume = freeze_if_big
        with gc_paused:
            small = [_Cycle() for _ in range(100)]
        assert gc.get_freeze_count() == 0
        with gc_paused:
            big = [_Cycle() for _ in range(BIG_BUILD)]
        assert gc.get_freeze_count() >= len(big)
    finally:
        gc_paused.on_resume = None
        gc.unfreeze()


def test_slow_collections_are_logged(caplog):
    log = SlowCollectionLog(threshold=0.0)
    log.install()
    try:
        with caplog.at_level("WARNING", logger="affine_lsp.server.runtime.memory"):
            gc.collect()
    finally:
        log.uninstall()
    assert log.slow >= 1 and log not in gc.callbacks
    assert any("gc: collection of generation 2 took" in r.getMessage() for r in caplog.records)
