"""Freeing a closed document's IR without a full garbage collection.

The IR of a document is cyclic (parent links, value uses, op memos), and
frozen (server/memory.py): before this module, only a full collection freed
a closed document's IR, and that collection stops every thread for as long
as it walks and frees the objects (1.3-4.1 s for a closed 20,000-line
document on a loaded machine). Instead, :class:`Reclaimer` (one background
thread) breaks the cycles of a closed document's own IR in slices of
:data:`SLICE_OPS` operations, letting other threads run between two slices
(``time.sleep(0)``); reference counting then frees each slice as it goes.

What it touches belongs to the closed document only: the operations,
regions, blocks and values reached from its sections and chunks (and its
``last_good`` functions: IR of its older versions). No cache shared between
documents holds such objects (the isl caches of analysis/polyhedral.py are
keyed by names, positions and affine maps; ``syntax.document._recent`` holds
parse results by chunk id, not chunks, and its entries of the closed
document are dropped here); types, attributes and affine maps, which may be shared, are never
modified. It starts only once nothing can read the document any more: its
lanes have stopped, and every shared worker that may still run work for it
(the analysis worker, the on-demand and request pools) has finished what it
was running when the document was closed (a barrier task on each). If that
does not happen within :data:`IDLE_WAIT_S`, nothing is touched and the full
collection frees the document as before (``on_fallback``).
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TYPE_CHECKING, Any

from affine_lsp.ir.core import Operation

if TYPE_CHECKING:
    from affine_lsp.server.state import DocumentState

log = logging.getLogger("affine_lsp.server.reclaim")

SLICE_OPS = 2000
"""Operations whose links are cut between two yields to other threads."""

IDLE_WAIT_S = 30.0
"""How long the reclaimer waits for the workers to finish a closed
document's work before it leaves the document to the full collection."""


def break_cycles(roots: Iterable[Operation], slice_ops: int = SLICE_OPS, pause: Callable[[], None] = lambda: time.sleep(0)) -> int:
    """Cut every link of the IR under ``roots`` that makes a cycle (parent
    links, region/block/op lists, value uses and owners, successors, memos),
    top down, calling ``pause`` after every ``slice_ops`` operations; returns
    the number of operations visited. Each op is visited once (an op reached
    twice, e.g. a function kept by ``last_good`` that is also in the current
    module, has its lists emptied the first time)."""
    stack: list[Operation] = list(roots)
    seen: set[int] = set()
    n = 0
    while stack:
        op = stack.pop()
        if id(op) in seen:
            continue
        seen.add(id(op))
        n += 1
        for region in op.regions:
            for block in region.blocks:
                stack.extend(block.operations)
                for arg in block.arguments:
                    arg.uses = []
                    arg.owner = None
                block.operations = []
                block.arguments = []
                block.parent = None
            region.blocks = []
            region.parent = None
        for res in op.results:
            res.uses = []
            res.owner = None
        # (New empty containers rather than emptied ones: nothing outside
        # the document is changed, even a container it would share.)
        op.regions = []
        op.results = []
        op.operands = []
        op.operand_spans = []
        op.attributes = {}
        op.successors = ()
        op.unresolved = ()
        op.parent = None
        memo = op.memo
        if memo is not None:
            if memo.owner is op:  # (a copy's memo is not its own: see ir.core.memo_of)
                memo.clear()
            op.memo = None
        if n % slice_ops == 0:
            pause()
    return n


def document_roots(st: DocumentState) -> list[Operation]:
    """The IR a closed document owns: its sections' modules, its chunks'
    ops, the functions of older versions it kept (``last_good``). Call with
    the document's lock held."""
    roots: list[Operation] = list(st.last_good.values())
    doc = st._doc
    if doc is not None:
        for c in doc.chunks:
            if c.ir_op is not None:
                roots.append(c.ir_op)
        for s in doc._sections or ():
            roots.append(s.module)
    return roots


def forget_document(st: DocumentState, flow_worker: Any = None) -> None:
    """Drop what the closed document holds besides its IR (its analysis
    caches, results, Document; call with its lock held), so that nothing
    cyclic that refers to its IR is left; its requests still queued for the
    dataflow worker (``flow_worker``) are cancelled."""
    from affine_lsp.syntax import document as document_mod

    doc = st._doc
    if doc is not None:
        chunk_ids = {id(c) for c in doc.chunks}
        with document_mod._recent_lock:
            for key in [k for k in document_mod._recent if k in chunk_ids]:
                del document_mod._recent[key]
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
    st.expected_view = None
    st.upgrade_action = None


class Reclaimer:
    """One background thread freeing closed documents' IR (see the module doc).

    ``barriers`` are the shared single-purpose pools whose running work may
    still read a closed document (each gets one task per thread that waits
    for the others: the pool has then finished what it ran before).
    ``flow_worker``: the dataflow worker (its queued requests for the
    document are dropped). ``on_done(st, ops)`` is called (on the reclaimer's thread) after a
    document was freed, ``on_fallback(st)`` when it was left to the full
    collection."""

    def __init__(
        self,
        barriers: Iterable[tuple[ThreadPoolExecutor, int]] = (),
        on_done: Callable[[DocumentState, int], None] | None = None,
        on_fallback: Callable[[DocumentState], None] | None = None,
        idle_wait_s: float = IDLE_WAIT_S,
        flow_worker: Any = None,
    ) -> None:
        self.flow_worker = flow_worker
        self.barriers = list(barriers)
        self.on_done = on_done
        self.on_fallback = on_fallback
        self.idle_wait_s = idle_wait_s
        self.freed_documents = 0
        self.freed_ops = 0
        self.fallbacks = 0
        self._queue: queue.Queue[DocumentState | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._idle = threading.Event()
        self._idle.set()

    def submit(self, st: DocumentState) -> None:
        """Free ``st``'s IR once nothing runs for it any more (``st`` is closed)."""
        self._idle.clear()
        self._queue.put(st)
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
            st = self._queue.get()
            if st is None:
                return
            try:
                self._reclaim(st)
            except Exception:
                log.exception("freeing the IR of %s failed", st.uri)
                self.fallbacks += 1
                if self.on_fallback is not None:
                    self.on_fallback(st)
            finally:
                del st  # (not kept until the next document)
                if self._queue.empty():
                    self._idle.set()

    def _wait_for_workers(self, st: DocumentState) -> bool:
        deadline = time.monotonic() + self.idle_wait_s
        lanes = st.lanes
        if lanes is not None:
            done = threading.Event()

            def join() -> None:
                for pool in lanes.pools():
                    pool.shutdown(wait=True)
                done.set()

            threading.Thread(target=join, name="affine-reclaim-join", daemon=True).start()
            if not done.wait(max(0.0, deadline - time.monotonic())):
                return False
        for pool, threads in self.barriers:
            barrier = threading.Barrier(threads + 1)

            def meet(barrier: threading.Barrier = barrier) -> None:
                with contextlib.suppress(threading.BrokenBarrierError):
                    barrier.wait(max(0.0, deadline - time.monotonic()))

            try:
                futures = [pool.submit(meet) for _ in range(threads)]
            except RuntimeError:  # shut down (exit)
                return False
            try:
                barrier.wait(max(0.0, deadline - time.monotonic()))
            except threading.BrokenBarrierError:
                barrier.abort()
                return False
            for f in futures:
                try:
                    f.result(timeout=max(0.0, deadline - time.monotonic()))
                except FutureTimeout:
                    return False
        return True

    def _reclaim(self, st: DocumentState) -> None:
        if not self._wait_for_workers(st):
            log.info("%s: its workers did not finish within %.0f s: left to the full collection", st.uri, self.idle_wait_s)
            self.fallbacks += 1
            if self.on_fallback is not None:
                self.on_fallback(st)
            return
        t0 = time.perf_counter()
        with st.lock:
            roots = document_roots(st)
            forget_document(st, self.flow_worker)
        lock = st.lock

        def pause() -> None:
            lock.release()
            time.sleep(0)
            lock.acquire()

        # Under the document's lock, released between two slices (a late
        # reader finds an empty document, never a half-cut one).
        with lock:
            n = break_cycles(roots, pause=pause)
        del roots
        self.freed_documents += 1
        self.freed_ops += n
        log.info("%s: %d operations freed without a collection in %.0f ms", st.uri, n, 1000 * (time.perf_counter() - t0))
        if self.on_done is not None:
            self.on_done(st, n)


def shared_workers(server: Any) -> list[tuple[ThreadPoolExecutor, int]]:
    """The server's shared pools that may run a closed document's work (its
    background analysis; its lanes' work submitted after the close), with
    their number of threads (those the server has: a test's stand-in may
    have none)."""
    pools = ((getattr(server, "analysis_pool", None), 1), (getattr(server, "ondemand_pool", None), 1), (getattr(server, "request_pool", None), 2))
    return [(pool, n) for pool, n in pools if pool is not None]
