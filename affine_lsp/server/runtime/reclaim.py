"""Freeing a closed document's IR, and the IR edits replaced, without a
full garbage collection.

The IR of a document is cyclic (parent links, value uses, op memos), and
frozen (server/runtime/memory.py): before this module, only a full collection freed
a closed document's IR, and that collection stops every thread for as long
as it walks and frees the objects (seconds for a closed large document:
docs/measurements.md). Instead, :class:`Reclaimer` (one background
thread) breaks the cycles of a closed document's own IR in slices of
:data:`affine_lsp.ir.release.SLICE_OPS` operations, letting other threads run between two slices
(``time.sleep(0)``); reference counting then frees each slice as it goes.

What it touches belongs to the closed document only: the operations,
regions, blocks and values reached from its sections and chunks (and its
``last_good`` functions: IR of its older versions). No cache shared between
documents holds such objects (the isl caches of analysis/polyhedral.py are
keyed by names, positions and affine maps; ``source.document._recent`` holds
parse results by chunk id, not chunks, and its entries of the closed
document are dropped here); types, attributes and affine maps, which may be shared, are never
modified. It starts only once nothing can read the document any more: its
lanes have stopped, and every shared worker that may still run work for it
(the analysis worker, the on-demand and request pools) has done every task
submitted before the document was closed (``lanes.TrackedPool`` marks). If that
does not happen within :data:`IDLE_WAIT_S`, nothing is touched and the full
collection frees the document as before (``on_fallback``).

The IR an edit replaced (``Document.retired``: the ops of chunks the edit
removed or built again, the module ops of the sections built again) is
freed the same way while the document stays open (:meth:`Reclaimer.retire`,
after every fast phase): once every thread that may read the document (its
lanes, the shared pools) has done every task submitted before the IR was
retired, under the document's lock, the retired ops that are
still in use are left alone (a chunk's current IR; ``last_good``, which
keeps a function of an older version: it is retired again when dropped),
the caches that hold retired functions drop them (their analyses, queued
value flows, verifier results), and the links are cut. A module op built
again (a *shell*) only loses its own links: its blocks list ops a newer
build reuses. Every new reader takes the document's current IR under its
lock, and the caches that outlive a version check the identity of the op
they are asked for (``fn_cache``, ``verify_cache``, the semantic tokens'
cache, ``source.document._recent``) or its version (``transform_actions``),
so a cut op is never handed out.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from affine_lsp.ir.core import Operation
from affine_lsp.ir.release import break_cycles
from affine_lsp.server.runtime.lanes import TrackedPool
from affine_lsp.source.document import Retired

if TYPE_CHECKING:
    from affine_lsp.server.analysis_engine import Engine
    from affine_lsp.server.state import DocumentState

log = logging.getLogger("affine_lsp.server.runtime.reclaim")

POLL_S = 0.02
"""How often the reclaimer looks whether the workers are done."""

IDLE_WAIT_S = 30.0
"""How long the reclaimer waits for the workers to finish a closed
document's work before it leaves the document to the full collection."""


def break_shell(module: Operation) -> None:
    """Cut a module op's own links (its regions and blocks), not those of
    the ops its blocks list: a newer build of the document uses them."""
    for region in module.regions:
        for block in region.blocks:
            block.operations = []
            block.arguments = []
            block.parent = None
        region.blocks = []
        region.parent = None
    module.regions = []
    module.parent = None
    memo = module.memo
    if memo is not None:
        if memo.owner is module:
            memo.clear()
        module.memo = None


def document_roots(st: DocumentState) -> list[Operation]:
    """The IR a closed document owns: its sections' modules, its chunks'
    ops, the functions of older versions it kept (``last_good``). Call with
    the document's lock held."""
    roots: list[Operation] = list(st.last_good.values())
    doc = st._doc
    if doc is not None:
        if doc.retired is not None:  # (not taken yet: retired and closed before its next fast phase)
            roots.extend(doc.retired.items)
            roots.extend(doc.retired.shells)
        for c in doc.chunks:
            if c.ir_op is not None:
                roots.append(c.ir_op)
        for s in doc._sections or ():
            roots.append(s.module)
    return roots


def in_use(st: DocumentState) -> set[int]:
    """The ids of the top-level ops ``st`` still uses: its chunks' IR and
    the functions ``last_good`` keeps (call with its lock held)."""
    used = {id(op) for op in st.last_good.values()}
    doc = st._doc
    if doc is not None:
        used.update(id(c.ir_op) for c in doc.chunks if c.ir_op is not None)
    return used


def forget_retired(st: DocumentState, items: list[Operation], engine: Engine | None = None) -> None:
    """Drop what ``st``'s caches hold of the retired top-level ``items``:
    the analyses of their functions (and their queued value flows:
    ``engine.forget``), their verifier results, the code actions of older
    versions (call with the document's lock held)."""
    ids = {id(op) for op in items}
    if engine is not None:
        engine.forget(st, [id(f) for op in items for f in op.walk() if f.name == "func.func"])
    for k in [k for k in st.verify_cache if k in ids]:
        del st.verify_cache[k]
    doc = st._doc
    if doc is not None:
        for key in [key for key in st.transform_actions if key[0] != doc.version]:
            del st.transform_actions[key]


def forget_document(st: DocumentState, flow_worker: Any = None) -> None:
    """Drop what the closed document holds besides its IR (its analysis
    caches, results, Document; call with its lock held), so that nothing
    cyclic that refers to its IR is left; its requests still queued for the
    dataflow worker (``flow_worker``) are cancelled."""
    from affine_lsp.source import document as document_mod

    doc = st._doc
    if doc is not None:
        chunk_ids = {id(c) for c in doc.chunks}
        document_mod.forget_reparsed(chunk_ids)
        for c in doc.chunks:
            c.ir_op = None
            c.parse = None
        doc.chunks = []
        doc._sections = None
    st._doc = None  # (a late reader finds an empty document)
    st._initial_text = None
    for fa in st.fn_cache.values():
        fut = fa.flows_future
        if fut is not None:
            fut.cancel()  # (not computed if still queued; its callback refers to the analysis)
            fa.flows_future = None
    st.fn_cache.clear()
    if flow_worker is not None:
        flow_worker.purge_cancelled()
    st.deps_lru.clear()
    st.verify_cache.clear()
    st.token_cache.clear()
    st.transform_actions.clear()
    st.last_good.clear()
    st._good_seen = set()
    st.fast_future = None
    st.last = None
    st.last_published = None
    st.preloaded = None
    st.expected_view = None
    st.upgrade_action = None


class Reclaimer:
    """One background thread freeing closed documents' IR (see the module doc).

    ``barriers``: the shared pools whose work may still read a document
    (the reclaimer waits until they have done every task submitted before).
    ``engine``: the server's (the analyses of retired functions, and the
    requests queued for its dataflow worker, are dropped). ``on_done(st, ops)`` is called (on the reclaimer's thread) after a
    document was freed, ``on_fallback(st)`` when it was left to the full
    collection."""

    def __init__(
        self,
        barriers: Iterable[TrackedPool] = (),
        on_done: Callable[[DocumentState, int], None] | None = None,
        on_fallback: Callable[[DocumentState], None] | None = None,
        idle_wait_s: float = IDLE_WAIT_S,
        engine: Engine | None = None,
    ) -> None:
        self.engine = engine
        self.barriers = list(barriers)
        self.on_done = on_done
        self.on_fallback = on_fallback
        self.idle_wait_s = idle_wait_s
        self.freed_documents = 0
        self.freed_ops = 0
        self.fallbacks = 0
        self.retired_ops = 0  # operations of edited-away IR freed
        self.retired_skipped = 0  # retired top-level ops still in use when their turn came
        self.retire_fallbacks = 0  # batches left to the full collection (the workers were busy too long)
        self._queue: queue.Queue[DocumentState | tuple[DocumentState, Retired] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._idle = threading.Event()
        self._idle.set()

    def submit(self, st: DocumentState) -> None:
        """Free ``st``'s IR once nothing runs for it any more (``st`` is closed)."""
        self._put(st)

    def retire(self, st: DocumentState, retired: Retired) -> None:
        """Free the IR ``st``'s edits replaced (``Document.take_retired``)
        once every thread that may still read it is done."""
        if retired:
            self._put((st, retired))

    def _put(self, item: DocumentState | tuple[DocumentState, Retired]) -> None:
        self._idle.clear()
        self._queue.put(item)
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="affine-reclaim", daemon=True)
            self._thread.start()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Every submitted document is dealt with (tests)."""
        return self._idle.wait(timeout)

    def stop(self) -> None:
        if self._thread is not None:
            self._queue.put(None)

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            # The edits' batches waiting now share one wait for the workers.
            batches: list[tuple[DocumentState, Retired]] = []
            closed: list[DocumentState] = []
            stop = False
            while True:
                if item is None:
                    stop = True
                elif isinstance(item, tuple):
                    batches.append(item)
                else:
                    closed.append(item)
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
            if batches:
                try:
                    self._free_retired(batches)
                except Exception:
                    log.exception("freeing the IR edits replaced failed")
                    self.retire_fallbacks += 1
                del batches
            while closed:
                st = closed.pop(0)
                try:
                    self._reclaim(st)
                except Exception:
                    log.exception("freeing the IR of %s failed", st.uri)
                    self.fallbacks += 1
                    if self.on_fallback is not None:
                        self.on_fallback(st)
                finally:
                    del st  # (not kept until the next document)
            item = None
            if self._queue.empty():
                self._idle.set()
            if stop:
                return

    def _free_retired(self, batches: list[tuple[DocumentState, Retired]]) -> None:
        docs = list({id(st): st for st, _ in batches}.values())
        if not self._wait_for_workers(docs):
            log.debug("the workers did not finish within %.0f s: edited-away IR left to the full collection", self.idle_wait_s)
            self.retire_fallbacks += 1
            return
        t0 = time.perf_counter()
        n = 0
        for st in docs:
            items = [op for s, r in batches if s is st for op in r.items]
            shells = [op for s, r in batches if s is st for op in r.shells]
            with st.lock:
                used = in_use(st)
                free = [op for op in items if id(op) not in used]
                self.retired_skipped += len(items) - len(free)
                forget_retired(st, free, self.engine)
                for shell in shells:
                    if id(shell) not in used:
                        break_shell(shell)
                n += break_cycles(free, pause=_yielding(st.lock))
            del items, shells, free
        self.retired_ops += n
        log.debug("%d edited-away operations freed without a collection in %.0f ms", n, 1000 * (time.perf_counter() - t0))

    def _wait_for_workers(self, docs: list[DocumentState]) -> bool:
        """Whether every thread that may read ``docs`` has finished what it
        ran or was given so far, within :attr:`idle_wait_s`: a closed
        document's lanes have stopped; an open one's pools and the shared
        ones have done every task submitted before now (``TrackedPool``
        marks: no thread of theirs waits)."""
        deadline = time.monotonic() + self.idle_wait_s
        pools = list(self.barriers)
        for st in docs:
            lanes = st.lanes
            if lanes is None:
                continue
            if not lanes.closed:
                pools.extend(lanes.pools())
                continue
            done = threading.Event()

            def join(lanes: Any = lanes, done: threading.Event = done) -> None:
                for pool in lanes.pools():
                    pool.shutdown(wait=True)
                done.set()

            threading.Thread(target=join, name="affine-reclaim-join", daemon=True).start()
            if not done.wait(max(0.0, deadline - time.monotonic())):
                return False
        marks = [(pool, pool.mark()) for pool in pools]
        while not all(pool.done_before(mark) for pool, mark in marks):
            if time.monotonic() > deadline:
                return False
            time.sleep(POLL_S)
        return True

    def _reclaim(self, st: DocumentState) -> None:
        if not self._wait_for_workers([st]):
            log.info("%s: its workers did not finish within %.0f s: left to the full collection", st.uri, self.idle_wait_s)
            self.fallbacks += 1
            if self.on_fallback is not None:
                self.on_fallback(st)
            return
        t0 = time.perf_counter()
        with st.lock:
            roots = document_roots(st)
            forget_document(st, self.engine.flow_worker if self.engine is not None else None)
        # Under the document's lock, released between two slices (a late
        # reader finds an empty document, never a half-cut one).
        with st.lock:
            n = break_cycles(roots, pause=_yielding(st.lock))
        del roots
        self.freed_documents += 1
        self.freed_ops += n
        log.info("%s: %d operations freed without a collection in %.0f ms", st.uri, n, 1000 * (time.perf_counter() - t0))
        if self.on_done is not None:
            self.on_done(st, n)


def _yielding(lock: Any) -> Callable[[], None]:
    """A pause between two slices of cutting: ``lock`` (held) is released
    and other threads run."""

    def pause() -> None:
        lock.release()
        time.sleep(0)
        lock.acquire()

    return pause


def shared_workers(server: Any) -> list[TrackedPool]:
    """The server's shared pools that may run a document's work (its
    background analysis; its lanes' work submitted after a close; those
    the server has: a test's stand-in may have none)."""
    pools = (getattr(server, "analysis_pool", None), getattr(server, "ondemand_pool", None), getattr(server, "request_pool", None))
    return [pool for pool in pools if pool is not None]
