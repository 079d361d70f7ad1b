"""The server's garbage-collection and memory policy.

The IR of a big document is hundreds of thousands of long-lived objects
with parent links (cycles). A collection of the oldest generation walks
every object it tracks while holding the interpreter lock, so it stalls
every thread of the process, a request on a small document included
(0.25 s for one 20,000-line document on a loaded machine). Hence:

* every fast phase ends with :func:`freeze` (``gc.freeze``: O(1), the
  objects move to the permanent generation, which no collection walks), so
  the collector's own collections only ever walk what was allocated since
  (never a rebuilt document's IR at a random moment on a request path);
* frozen objects that became garbage (a closed or replaced document, the IR
  of edited-away functions) are reclaimed by one full collection
  (:func:`full_collection`: unfreeze, collect, freeze, give the freed
  memory back to the system), which :class:`CollectionPolicy` asks for
  when a document was closed or the frozen objects grew past a bound since
  the last one, and which the server runs at a quiet moment on its parse
  worker (see ``DiagnosticsManager.collect_garbage``);
* :class:`SlowCollectionLog` writes every collection longer than
  :data:`SLOW_GC_S` to the server's log (generation, duration, objects).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("affine_lsp.server.memory")

SLOW_GC_S = 0.1
"""Collections longer than this are logged (a warning)."""

GROWTH = 0.5
"""A full collection is due when the frozen objects grew by this fraction
of those alive after the last one ..."""

MIN_GROWTH = 100_000
"""... and by at least this many objects (about 10 MB of IR)."""

OBJECTS_PER_CHAR = 0.3
"""About how many objects the server keeps per character of an open
document (its chunks, IR, caches: 0.2-0.3 measured on 20,000-line texts),
the frozen garbage a close leaves."""


def freeze() -> None:
    """Move every object tracked by the collector to the permanent
    generation (O(1)): collections stop walking the IR just built."""
    gc.freeze()


@dataclass
class CollectionPolicy:
    """When a full collection is worth its pause (it walks every live
    object): when the frozen garbage may exceed ``growth`` of the objects
    alive after the last one (and ``min_growth``), as CPython's own rule for
    its oldest generation. The frozen garbage is estimated as what was
    frozen since (edits leave the IR of replaced functions behind) plus the
    objects of the documents closed since (``OBJECTS_PER_CHAR`` of their
    text): closing a 20,000-line document makes one due, closing a small
    one does not."""

    growth: float = GROWTH
    min_growth: int = MIN_GROWTH
    live_after_last: int = 0  # objects alive after the last full collection
    closed_objects: int = 0  # estimated objects of the documents closed since

    def document_closed(self, chars: int) -> None:
        self.closed_objects += int(OBJECTS_PER_CHAR * chars)

    def garbage(self, frozen: int) -> int:
        """The estimated frozen garbage, given the frozen objects now."""
        return max(0, frozen - self.live_after_last) + self.closed_objects

    def due(self, frozen: int) -> bool:
        return self.garbage(frozen) > max(self.min_growth, self.growth * self.live_after_last)

    def collected(self, live: int) -> None:
        self.live_after_last = live
        self.closed_objects = 0


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
_FULL_LOCK = threading.Lock()


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
            "gc: collection of generation %d took %.0f ms on %s (%d unreachable, %d frozen objects not walked)",
            info.get("generation", -1),
            1000 * dt,
            threading.current_thread().name,
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
    """The serving process's policy: what a build of IR makes (the pause of
    the collector ends, ``gc_paused``) is frozen, wherever it was built (a
    request may build the sections of an edited document before its fast
    phase does), and slow collections are logged. Not in other processes
    (the CLI, tests: their IR is collected as usual)."""
    from affine_lsp.syntax.document import gc_paused

    gc_paused.on_resume = freeze
    server.gc_log.install()
