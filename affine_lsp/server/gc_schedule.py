"""When the server runs a full garbage collection (the policy itself,
what is due and why, is server/runtime/memory.py's): asked after fast
phases (at most every :data:`GC_CHECK_S`), after every
:data:`GC_CHECK_EVERY` completed analysis phases and after a close; run
at the next quiet moment, on the parse worker."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable
from concurrent.futures import Executor

from affine_lsp.server.runtime.memory import CollectionPolicy, full_collection

log = logging.getLogger("affine_lsp.server.diagnostics_manager")

GC_QUIET_S = 0.3
"""A full garbage collection (server/runtime/memory.py) waits for this long without
interactive work (requests, fast phases) ..."""
GC_MAX_WAIT_S = 10.0
"""... but no longer than this after it was found due."""
GC_CHECK_EVERY = 10
"""Completed analysis phases between two checks of the garbage policy
(besides every close): the check counts the frozen objects, which takes
time in proportion to them (docs/measurements.md)."""
GC_CHECK_S = 2.0
"""... and after fast phases, at most this often (the count of frozen
objects it needs walks them)."""


class CollectionSchedule:
    """The full collections of one server: ``busy()`` says whether
    interactive work (a request, a fast phase) runs; ``pool()`` is the
    executor a collection runs on (the parse worker)."""

    def __init__(self, busy: Callable[[], bool], pool: Callable[[], Executor]) -> None:
        self.policy = CollectionPolicy()
        self.full_collections = 0  # run by the policy (tests, the memory command)
        self._busy = busy
        self._pool = pool
        self._task: asyncio.Task[None] | None = None
        self._checked = 0.0  # when after_fast_phase last asked the policy
        self._phases = 0

    def after_fast_phase(self) -> None:
        """After a fast phase, at most every GC_CHECK_S: the IR an edit
        replaced is frozen garbage, and a document edited without pause never
        completes an analysis phase (the other time the policy is asked)."""
        now = time.monotonic()
        if now - self._checked >= GC_CHECK_S:
            self._checked = now
            self.collect()

    def after_analysis_phase(self) -> None:
        self._phases += 1
        if self._phases % GC_CHECK_EVERY == 0:
            self.collect()

    def collect(self) -> None:
        """Run one full collection at the next quiet moment if the policy
        says one is due (event loop; a no-op when one is already waiting)."""
        if self._task is not None and not self._task.done():
            return
        if not self.policy.due(gc.get_freeze_count()):
            return
        self._task = asyncio.ensure_future(self._collect_when_quiet())

    async def _collect_when_quiet(self) -> None:
        """Wait for GC_QUIET_S without interactive work (at most
        GC_MAX_WAIT_S), then collect on the parse worker: the collection
        holds the interpreter lock for its whole length, so it should not
        start while a request runs."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + GC_MAX_WAIT_S
        quiet_since = loop.time()
        while loop.time() < deadline:
            await asyncio.sleep(0.05)
            if self._busy():
                quiet_since = loop.time()
            elif loop.time() - quiet_since >= GC_QUIET_S:
                break
        if not self.policy.due(gc.get_freeze_count()):
            return
        try:
            report = await loop.run_in_executor(self._pool(), full_collection)
        except RuntimeError:  # the pool is shut down (exit)
            return
        self.policy.collected(report.live)
        self.full_collections += 1
        log.info(
            "gc: full collection in %.0f ms: %d unreachable, %d objects alive (frozen)%s",
            1000 * report.seconds,
            report.collected,
            report.live,
            ", heap trimmed" if report.trimmed else "",
        )
