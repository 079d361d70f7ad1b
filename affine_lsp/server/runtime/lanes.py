"""The worker threads of one open document (its *lanes*).

Work on a document never queues behind work on another one: each document
has its own thread for its fast phases and merges (in order, one at a
time, as before on the one parse worker), its own two threads for its
requests, and its own thread for the analyses its hovers and inlay hints
wait for (each wait bounded; the answer says when it is not complete), and
its own thread for the loop transformations of its code actions (computed on
a copy of the text, without the document's lock: a hover or an edit never
waits for them). A
20,000-line document being built, a request that waits for its lock, or an
on-demand analysis that goes on past its wait holds only that document's
lanes; a request on a small document beside it starts at once (it shares
the interpreter and the isl lock, taken per isl query, not a queue).

What stays shared: the parse worker runs the start-up (parser tables,
verifier, the dataflow worker's fork: every lane's first task waits for
it, see :meth:`DocumentLanes.submit_fast`) and the rare full garbage
collection; the analysis worker runs the background analysis of every
document, one function at a time, yielding to interactive work between two
functions; the dataflow worker process serves every document (a request's
flows go first, ``urgent``).
"""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

_numbers = itertools.count(1)


class TrackedPool(ThreadPoolExecutor):
    """A thread pool that can tell whether every task submitted before a
    moment (:meth:`mark`) is done, run or cancelled (:meth:`done_before`):
    the reclaimer (server/runtime/reclaim.py) waits for the work that may still
    read an older version of a document without taking a thread of the
    pool."""

    def __init__(self, max_workers: int, thread_name_prefix: str = "") -> None:
        super().__init__(max_workers, thread_name_prefix=thread_name_prefix)
        self._seq = itertools.count()
        self._open: set[int] = set()
        self._open_lock = threading.Lock()

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        with self._open_lock:
            n = next(self._seq)
            self._open.add(n)
        try:
            fut = super().submit(fn, *args, **kwargs)
        except BaseException:
            self._done(n)
            raise
        fut.add_done_callback(lambda _f: self._done(n))
        return fut

    def _done(self, n: int) -> None:
        with self._open_lock:
            self._open.discard(n)

    def mark(self) -> int:
        """The moment now: every task submitted so far is before it."""
        with self._open_lock:
            return next(self._seq)

    def done_before(self, mark: int) -> bool:
        """Whether every task submitted before ``mark`` is done."""
        with self._open_lock:
            return not self._open or min(self._open) > mark


class DocumentLanes:
    """A document's fast-phase thread, request threads and on-demand
    analysis thread (each thread started on first use)."""

    REQUEST_THREADS = 2

    def __init__(self, fallback: ThreadPoolExecutor, ondemand_fallback: ThreadPoolExecutor, ready: Future[Any] | None = None) -> None:
        n = next(_numbers)
        self._ready = ready
        self._fallback = fallback
        self._ondemand_fallback = ondemand_fallback
        self.fast = TrackedPool(1, thread_name_prefix=f"affine-doc{n}-parse")
        self._requests = TrackedPool(self.REQUEST_THREADS, thread_name_prefix=f"affine-doc{n}-request")
        self._ondemand = TrackedPool(1, thread_name_prefix=f"affine-doc{n}-ondemand")
        self._transforms = TrackedPool(1, thread_name_prefix=f"affine-doc{n}-transforms")
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

    def submit_ondemand(self, fn: Callable[[], T]) -> Future[T]:
        """Run ``fn()`` on the document's on-demand analysis thread (the
        analyses its hovers and inlay hints wait for, bounded): one that goes
        on past its wait holds this document's thread, not another's."""
        return self._submit(self._ondemand, fn, self._ondemand_fallback)

    def submit_transforms(self, fn: Callable[[], T]) -> Future[T]:
        """Run ``fn()`` on the document's loop-transformation thread (the
        code actions' computations, on a copy of the text, which nothing
        waits for but the code-action requests and resolves that asked for
        them: server/transform_actions.py)."""
        return self._submit(self._transforms, fn)

    def _submit(self, pool: ThreadPoolExecutor, fn: Callable[[], T], fallback: ThreadPoolExecutor | None = None) -> Future[T]:
        if not self.closed:
            with contextlib.suppress(RuntimeError):  # shut down meanwhile
                return pool.submit(fn)
        # Work that reached a document just closed: the shared pool.
        return (fallback or self._fallback).submit(fn)

    def pools(self) -> tuple[TrackedPool, ...]:
        """Its thread pools (the reclaimer waits for them: server/runtime/reclaim.py)."""
        return (self.fast, self._requests, self._ondemand, self._transforms)

    def shutdown(self) -> None:
        """Stop the threads once their current work is done (the document is closed)."""
        self.closed = True
        self.fast.shutdown(wait=False)
        self._requests.shutdown(wait=False)
        self._ondemand.shutdown(wait=False)
        self._transforms.shutdown(wait=False, cancel_futures=True)
