"""The worker threads of one open document (its *lanes*).

Work on a document never queues behind work on another one: each document
has its own thread for its fast phases and merges (in order, one at a
time, as before on the one parse worker) and its own two threads for its
requests. A 20,000-line document being built, or a request that waits for
its lock, holds only its own lanes; a request on a small document beside it
starts at once (it shares the interpreter with them, not a queue).

What stays shared: the parse worker runs the start-up (parser tables,
verifier, the dataflow worker's fork: every lane's first task waits for
it, see :meth:`DocumentLanes.submit_fast`) and the rare full garbage
collection; the analysis worker runs the background analysis of every
document, one function at a time, yielding to interactive work between two
functions; the on-demand worker runs the analyses a hover or an inlay hint
waits for, each wait bounded (the answer says when it is not complete).
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

_numbers = itertools.count(1)


class DocumentLanes:
    """A document's fast-phase thread and request threads (created on first use)."""

    REQUEST_THREADS = 2

    def __init__(self, fallback: ThreadPoolExecutor, ready: Future[Any] | None = None) -> None:
        n = next(_numbers)
        self._ready = ready
        self._fallback = fallback
        self.fast = ThreadPoolExecutor(1, thread_name_prefix=f"affine-doc{n}-parse")
        self._requests = ThreadPoolExecutor(self.REQUEST_THREADS, thread_name_prefix=f"affine-doc{n}-request")
        self.closed = False

    def submit_fast(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        """Run ``fn(*args)`` on the document's fast-phase thread, after the
        server's start-up work (``ready``) is done."""
        ready = self._ready
        job: Callable[[], T] = lambda: fn(*args)  # noqa: E731
        if ready is not None and not ready.done():

            def job() -> T:
                with contextlib.suppress(BaseException):  # (the start-up logged it; the document is built all the same)
                    ready.result()
                return fn(*args)

        return self._submit(self.fast, job)

    def submit_request(self, fn: Callable[[], T]) -> Future[T]:
        """Run ``fn()`` on one of the document's request threads."""
        return self._submit(self._requests, fn)

    def _submit(self, pool: ThreadPoolExecutor, fn: Callable[[], T]) -> Future[T]:
        if not self.closed:
            with contextlib.suppress(RuntimeError):  # shut down meanwhile
                return pool.submit(fn)
        # A request that reached a document just closed: the shared pool.
        return self._fallback.submit(fn)

    def shutdown(self) -> None:
        """Stop the threads once their current work is done (the document is closed)."""
        self.closed = True
        self.fast.shutdown(wait=False)
        self._requests.shutdown(wait=False)
