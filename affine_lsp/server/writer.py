"""The server's messages are written to standard output by a thread of
their own, in order.

pygls writes each message on the event loop (``StdoutWriter.write``: a
blocking ``write`` and ``flush``). When the client is slow to read (it is
busy, say, with the 2,000 diagnostics of a 20,000-line file just sent) the
pipe fills up and the write blocks the event loop: no request of any
document is read or answered meanwhile (small documents' requests too).
Here ``write`` only queues the bytes; one thread writes
them. ``close`` (the ``exit`` notification) waits until the queue is
written, as does the interpreter's exit (both at most DRAIN_TIMEOUT_S).
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import queue
import threading
from typing import Any

log = logging.getLogger(__name__)

DRAIN_TIMEOUT_S = 5.0


class QueuedWriter:
    """pygls' writer interface (``write``, ``close``) over a blocking writer
    (``inner``), whose writes a thread makes, in order."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self._queue: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._broken = False
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="affine-stdout", daemon=True)
        self._thread.start()
        atexit.register(self.drain)

    def write(self, data: bytes) -> None:
        if not self._broken and not self._closed:
            self._queue.put(data)

    def _run(self) -> None:
        while True:
            data = self._queue.get()
            if data is None:
                return
            try:
                self._inner.write(data)
            except (OSError, ValueError) as e:  # the client is gone (its end of the pipe closed)
                self._broken = True
                log.info("writing to the client failed (%s): the following messages are dropped", e)
                return

    def drain(self, timeout: float = DRAIN_TIMEOUT_S) -> None:
        """Write what is queued (waiting at most ``timeout``) and stop the thread."""
        if not self._closed:
            self._closed = True
            self._queue.put(None)
        self._thread.join(timeout)

    def close(self) -> None:
        """Drain (the ``exit`` notification: the answers before it are
        written; at most DRAIN_TIMEOUT_S), then close the stream."""
        self.drain()
        with contextlib.suppress(OSError, ValueError):
            self._inner.close()
