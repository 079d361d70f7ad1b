"""The pause of the cyclic garbage collector during bulk parsing and IR
building (``with gc_paused:``), owned by the process's runtime: the parser
and the IR build pause it, the server's memory policy
(server/runtime/memory.py) sets what runs when the last pause ends, and the
fork protocol (:mod:`affine_lsp.forking`) resets it in every child."""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable

from affine_lsp import forking


class GcPause:
    """Pause the cyclic garbage collector during bulk parsing and IR
    building: they allocate millions of small objects (with parent links,
    so cycles), and the collector's repeated full scans cost a large part of a
    cold parse of a large file. Re-entrant and thread-safe (a counter)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0
        self._was_enabled = False
        # Called when the last pause ends (the server's memory policy
        # freezes what was built, server/runtime/memory.py); None: nothing.
        self.on_resume: Callable[[], None] | None = None

    def __enter__(self) -> None:
        with self._lock:
            if self._depth == 0:
                self._was_enabled = gc.isenabled()
                gc.disable()
            self._depth += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth == 0:
                if self.on_resume is not None:
                    self.on_resume()
                if self._was_enabled:
                    gc.enable()

    def reset(self) -> None:
        """In a forked child (run by the fork protocol, :mod:`affine_lsp.forking`):
        the lock may have been held by another thread, which does not exist
        there; and the child keeps no memory policy."""
        self._lock = threading.Lock()
        self._depth = 0
        self._was_enabled = False
        self.on_resume = None


gc_paused = GcPause()
forking.renewed_in_child(f"{__name__}.gc_paused._lock", gc_paused.reset)
