"""The server's garbage-collection and memory policy.

The IR of a big document is hundreds of thousands of long-lived objects
with parent links (cycles). A collection of the oldest generation walks
every object it tracks while holding the interpreter lock, so it stalls
every thread of the process, a request on a small document included
(docs/measurements.md). Hence:

* every fast phase ends with :func:`collect_young_and_freeze`, and a large
  build of IR elsewhere (a request may build an edited document before its
  fast phase does) with :func:`freeze_if_big` (``gc.freeze``: O(1), the
  objects move to the permanent generation, which no collection walks), so
  the collector's own collections only ever walk what was allocated since
  (never a document's IR at a random moment on a request path). The young
  generations are collected first: the garbage other threads made since
  (a code action's copies of the text) would be frozen with the IR, and
  only a full collection frees frozen garbage;
* frozen objects that became garbage (a closed or replaced document, the IR
  of edited-away functions) are freed without a collection by the
  reclaimer (server/runtime/reclaim.py), which cuts their links once no thread may
  read them; what it leaves (work that ran too long, garbage of other
  kinds) is reclaimed by one full collection (:func:`full_collection`:
  unfreeze, collect, freeze, give the freed memory back to the system),
  which :class:`CollectionPolicy` asks for when the frozen objects grew
  past a bound since the last one, and which the server runs at a quiet
  moment on its parse worker (see server/gc_schedule.py);
* :class:`SlowCollectionLog` writes every collection longer than
  :data:`SLOW_GC_S` to the server's log (generation, duration, objects).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from affine_lsp import forking

log = logging.getLogger("affine_lsp.server.runtime.memory")

SLOW_GC_S = 0.1
"""Collections longer than this are logged (a warning)."""

GROWTH = 1.0
"""A full collection is due when the estimated frozen garbage reaches this
fraction of the objects alive after the last one ..."""

MIN_GROWTH = 100_000
"""... and by at least this many objects (what that is in IR: docs/performance.md)."""

OBJECTS_PER_CHAR = 0.3
"""About how many objects the IR of a document is per character of its
text (docs/performance.md): the frozen garbage its close
leaves when it was closed before its first build was measured."""


BIG_BUILD = 20_000
"""Tracked objects a build leaves (net of those it freed) past which it
is frozen at once (:func:`freeze_if_big`): about 1,500 lines of IR."""


def freeze() -> None:
    """Move every object tracked by the collector to the permanent
    generation (O(1)): collections stop walking the IR just built.
    (``gc.get_freeze_count()`` is not O(1): it walks the frozen objects.)"""
    gc.freeze()


def collect_young_and_freeze() -> None:
    """Collect the two young generations (what was allocated lately: cheap),
    then :func:`freeze`."""
    gc.collect(1)
    gc.freeze()


def freeze_if_big() -> None:
    """:func:`freeze` after a build that left :data:`BIG_BUILD` objects or
    more (the collector was paused: its count of new objects is the build's)."""
    if gc.get_count()[0] >= BIG_BUILD:
        gc.freeze()


@dataclass
class CollectionPolicy:
    """When a full collection is worth its pause (it walks every live
    object, and writes to every page of the heap: the forked dataflow
    worker then owns its copy of the pages it shared): when the frozen
    garbage may exceed ``growth`` of the objects alive after the last one
    (and ``min_growth``), as CPython's own rule for its oldest generation.
    The frozen garbage is estimated from the frozen objects: those of a
    document's first build are alive until it is closed, the growth beyond
    them is garbage (the IR of the functions an edit rebuilt replaces as
    much). Opening documents never makes a collection due, closing a
    20,000-line one does. ``live_after_last`` starts as the objects frozen
    before the first document (``started``)."""

    growth: float = GROWTH
    min_growth: int = MIN_GROWTH
    live_after_last: int | None = None  # objects alive (frozen) after the last full collection
    closed: int = 0  # objects of the documents closed since that were alive then
    sizes: dict[int, int] = field(default_factory=dict)  # objects of each open document's builds (by key)
    fresh: set[int] = field(default_factory=set)  # the documents first built since the last full collection

    def started(self, frozen: int) -> None:
        """The objects frozen before the first document was built."""
        if self.live_after_last is None:
            self.live_after_last = frozen

    def built(self, key: int, objects: int) -> None:
        """The first build of document ``key`` (or its completion after a
        partial one) froze ``objects`` objects: they are alive."""
        self.sizes[key] = self.sizes.get(key, 0) + max(0, objects)
        self.fresh.add(key)

    def document_closed(self, key: int, chars: int) -> None:
        """Document ``key`` (``chars`` long) was closed: its objects are garbage."""
        size = self.sizes.pop(key, None)
        if key in self.fresh:
            self.fresh.discard(key)  # (its objects now count as growth)
        else:
            self.closed += size if size is not None else int(OBJECTS_PER_CHAR * chars)

    def document_freed(self, key: int) -> None:
        """Document ``key``'s objects were freed without a collection
        (server/runtime/reclaim.py): they are neither alive nor garbage any more."""
        size = self.sizes.pop(key, 0)
        if key in self.fresh:
            self.fresh.discard(key)
        elif self.live_after_last is not None:
            self.live_after_last = max(0, self.live_after_last - size)

    def garbage(self, frozen: int) -> int:
        """The estimated frozen garbage when ``frozen`` objects are frozen:
        what grew beyond the first builds of the documents opened since the
        last full collection (the IR of the functions edits rebuilt replaces
        as much that is garbage now), and the documents closed since."""
        new_live = sum(self.sizes[k] for k in self.fresh)
        return max(0, frozen - (self.live_after_last or 0) - new_live) + self.closed

    def due(self, frozen: int) -> bool:
        return self.garbage(frozen) > max(self.min_growth, self.growth * (self.live_after_last or 0))

    def collected(self, live: int) -> None:
        self.live_after_last = live
        self.closed = 0
        self.fresh.clear()


@dataclass
class CollectionReport:
    seconds: float
    collected: int  # unreachable objects found
    live: int  # objects frozen afterwards
    trimmed: bool


def _malloc_trim() -> Any:
    """glibc's ``malloc_trim``, or None elsewhere."""
    name = ctypes.util.find_library("c")
    if not name:
        return None
    try:
        fn = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_size_t]
    fn.restype = ctypes.c_int
    return fn


_TRIM = _malloc_trim()
_FULL_LOCK = forking.not_held_across_fork(threading.Lock(), f"{__name__}._FULL_LOCK", "full collections run in the server only")


def full_collection() -> CollectionReport:
    """Collect every generation, frozen objects included, freeze the
    survivors again, and return the freed heap to the system (glibc)."""
    with _FULL_LOCK:
        t0 = time.perf_counter()
        gc.unfreeze()
        n = gc.collect()
        gc.freeze()
        trimmed = bool(_TRIM is not None and _TRIM(0))
        return CollectionReport(time.perf_counter() - t0, n, gc.get_freeze_count(), trimmed)


class SlowCollectionLog:
    """Logs every garbage collection longer than ``threshold`` seconds
    (``gc.callbacks``), and counts them (``slow``, ``longest``)."""

    def __init__(self, threshold: float = SLOW_GC_S) -> None:
        self.threshold = threshold
        self.slow = 0
        self.longest = 0.0
        self._t0: dict[int, float] = {}  # per thread: a collection runs on the thread that triggered it

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        tid = threading.get_ident()
        if phase == "start":
            self._t0[tid] = time.perf_counter()
            return
        t0 = self._t0.pop(tid, None)
        if t0 is None:
            return
        dt = time.perf_counter() - t0
        if dt < self.threshold:
            return
        self.slow += 1
        self.longest = max(self.longest, dt)
        log.warning(
            "gc: collection of generation %d took %.0f ms on %s of process %d (%d unreachable, %d frozen objects not walked)",
            info.get("generation", -1),
            1000 * dt,
            threading.current_thread().name,
            os.getpid(),  # (the dataflow worker, forked, logs here too)
            info.get("collected", 0),
            gc.get_freeze_count(),
        )

    def install(self) -> None:
        if self not in gc.callbacks:
            gc.callbacks.append(self)

    def uninstall(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)


def resident_mb() -> float:
    """The process's resident set (Linux; 0 elsewhere)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


def live_operations() -> int:
    """IR operations alive after a full collection (unfreezes, walks every
    object once, freezes again: a debugging aid, not for a request path)."""
    from affine_lsp.ir.core import Operation

    with _FULL_LOCK:
        gc.unfreeze()
        gc.collect()
        n = sum(1 for o in gc.get_objects() if isinstance(o, Operation))
        gc.freeze()
    return n


def install(server: Any) -> None:
    """The serving process's policy: what a large build of IR makes (the
    pause of the collector ends, ``gc_paused``) is frozen, wherever it was
    built (a request may build the sections of an edited document before
    its fast phase does), and slow collections are logged. Not in other processes
    (the CLI, tests: their IR is collected as usual)."""
    from affine_lsp.gc_pause import gc_paused

    gc_paused.on_resume = freeze_if_big
    server.gc_log.install()


def object_census(top: int = 25) -> dict[str, int]:
    """The ``top`` most numerous types among the objects the collector
    tracks, frozen or not, garbage not collected yet included (no collection
    runs: unfreeze, count, freeze; a debugging aid)."""
    import collections

    with _FULL_LOCK:
        gc.unfreeze()
        try:
            counts = collections.Counter(type(o).__name__ for o in gc.get_objects())
        finally:
            gc.freeze()
    return dict(counts.most_common(top))
