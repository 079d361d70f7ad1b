"""Value-based dataflow in a worker process.

isl's dataflow computation (``compute_flow``, behind
``FunctionDeps.dataflow()``) is one long call that keeps Python's global
interpreter lock: run in a thread of the server it would freeze the event
loop and every request for as long (100-250 ms on a stencil). So the server
asks a separate process: it sends the function's text (with its section's
alias definitions), the process parses it with the same engine, runs the
analysis package's dataflow and answers which RAW dependences carry values,
as ``(source access index, destination access index, depth)`` triples (the
access indices are the analysis' walk order, identical for identical text).
"""

from __future__ import annotations

import heapq
import itertools
import logging
import multiprocessing
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

log = logging.getLogger("affine_lsp.server.flowproc")

Triple = tuple[int, int, int]


def _init() -> None:  # pragma: no cover - runs in the worker process
    try:
        from affine_lsp.syntax.document import Document

        _ = Document("func.func @warm_up() {\n  return\n}\n").sections
    except Exception:
        pass


def value_flows(prefix: str, func_text: str, budget: int, seconds: float | None = None) -> list[Triple] | None:  # pragma: no cover - worker process
    """The value-carrying RAW dependences of the (last) function of
    ``prefix + func_text``; None when it cannot be analysed (within
    ``seconds``, the time budget)."""
    from affine_lsp.analysis import TimeBudgetExceeded, time_limit

    try:
        with time_limit(seconds):
            return _value_flows(prefix, func_text, budget)
    except TimeBudgetExceeded:
        return None


def _value_flows(prefix: str, func_text: str, budget: int) -> list[Triple] | None:  # pragma: no cover - worker process
    from affine_lsp.analysis import dependences_of_function
    from affine_lsp.server.describe import value_based
    from affine_lsp.server.engine import functions_of
    from affine_lsp.syntax.document import Document

    doc = Document(prefix + func_text)
    funcs = functions_of(doc)
    if not funcs:
        return None
    fd = dependences_of_function(funcs[-1], budget)
    out: list[Triple] = []
    for pair in fd.pairs:
        if pair.kind != "RAW":
            continue
        for r in pair.results:
            if r.has_dependence and value_based(fd, r, compute=True):
                out.append((r.src.index, r.dst.index, r.depth))
    return out


class FlowWorker:
    """One worker process fed by a priority queue: requests for what a hover
    or a command waits for (``urgent``, latest first) go before the
    background ones (oldest first)."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._heap: list[tuple[int, int, str, str, int, float | None, Future, Callable[[list[Triple] | None], None]]] = []
        self._cv = threading.Condition()
        self._seq = itertools.count()
        self._thread: threading.Thread | None = None
        self._stopped = False
        self.broken = False
        self._hold_until = 0.0  # time.monotonic() before which background requests wait (see hold)

    def submit(
        self,
        prefix: str,
        func_text: str,
        budget: int,
        done: Callable[[list[Triple] | None], None],
        urgent: bool = False,
        seconds: float | None = None,
    ) -> Future | None:
        if self.broken or self._stopped:
            return None
        fut: Future = Future()
        n = next(self._seq)
        with self._cv:
            heapq.heappush(self._heap, (0 if urgent else 1, -n if urgent else n, prefix, func_text, budget, seconds, fut, done))
            if self._thread is None:
                self._thread = threading.Thread(target=self._dispatch, name="affine-flow-dispatch", daemon=True)
                self._thread.start()
            self._cv.notify()
        return fut

    def hold(self, seconds: float) -> None:
        """Start no background request for ``seconds`` (the user is typing:
        the worker process would compete with the fast diagnostics for the
        CPU); urgent ones still go."""
        with self._cv:
            self._hold_until = max(self._hold_until, time.monotonic() + seconds)
            self._cv.notify()

    def _dispatch(self) -> None:
        while True:
            with self._cv:
                while not self._stopped:
                    if not self._heap:
                        self._cv.wait()
                        continue
                    wait = self._hold_until - time.monotonic()
                    if self._heap[0][0] == 0 or wait <= 0:
                        break
                    self._cv.wait(wait)
                if self._stopped:
                    return
                _p, _n, prefix, text, budget, seconds, fut, done = heapq.heappop(self._heap)
            if fut.cancelled():
                continue
            result: list[Triple] | None = None
            try:
                if self._pool is None:
                    self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=_init)
                result = self._pool.submit(value_flows, prefix, text, budget, seconds).result()
            except BrokenProcessPool as e:
                log.warning("dataflow worker process died (%s); value-based dependences disabled", e)
                self.broken = True
            except Exception as e:
                log.info("dataflow worker failed: %s", e)
                if self._pool is None:
                    self.broken = True
            try:
                done(result)
            finally:
                if not fut.done():
                    fut.set_result(result)

    def shutdown(self) -> None:
        with self._cv:
            self._stopped = True
            for item in self._heap:
                item[6].cancel()
            self._heap.clear()
            self._cv.notify_all()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
