"""Work of a CLI command bounded in time, with the part that was finished.

:func:`run_bounded` runs ``work(send)`` in a forked child process; every
object the child passes to ``send`` reaches ``on_item`` in the parent as it
is produced. At the deadline the child is killed (SIGKILL: an isl call in
progress cannot be interrupted any other way, it holds the interpreter
lock), and the caller reports what it received and names what it did not.
Without a deadline, or where ``fork`` is missing, ``work`` runs in the
process itself.

Commands use it through ``frontend.add_timeout`` (``--timeout S``).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

from affine_lsp import forking

Send = Callable[..., None]
"""``send(obj, now=False)``: ``now`` sends ``obj`` and everything before it
at once (before a step that may take long), otherwise items are sent in
batches."""

_FLUSH_ITEMS = 256
_FLUSH_SECONDS = 0.05


class ChildFailed(RuntimeError):
    """The child raised: ``str(e)`` is its exception, ``TYPE: MESSAGE``."""


def _child(work: Callable[[Send], None], w: int) -> None:
    pending: list[Any] = []
    last = time.monotonic()

    def flush() -> None:
        nonlocal last
        if pending:
            blob = pickle.dumps(pending, protocol=pickle.HIGHEST_PROTOCOL)
            data = len(blob).to_bytes(8, "little") + blob
            while data:
                data = data[os.write(w, data) :]
            pending.clear()
        last = time.monotonic()

    def send(obj: Any, now: bool = False) -> None:
        pending.append(("item", obj))
        if now or len(pending) >= _FLUSH_ITEMS or time.monotonic() - last > _FLUSH_SECONDS:
            flush()

    status = 0
    try:
        work(send)
        pending.append(("done", None))
    except BaseException as e:  # reported by the parent (an internal error)
        pending.append(("error", f"{type(e).__name__}: {e}"))
        status = 1
    with contextlib.suppress(BaseException):
        flush()
    with contextlib.suppress(BaseException):
        sys.stderr.flush()
    os._exit(status)


def run_bounded(work: Callable[[Send], None], timeout: float | None, on_item: Callable[..., None]) -> bool:
    """Run ``work(send)``; each ``send(obj)`` calls ``on_item(obj)`` here
    (``on_item`` takes ``now`` as well, when there is no child).
    True when the work finished, False when ``timeout`` seconds passed
    first (``None`` or ``<= 0``: no limit). Raises :class:`ChildFailed` when
    the work raised."""
    if timeout is None or timeout <= 0 or not forking.available():
        work(on_item)
        return True
    deadline = time.monotonic() + timeout
    for stream in (sys.stdout, sys.stderr):  # nothing buffered is written twice
        with contextlib.suppress(Exception):
            stream.flush()
    r, w = os.pipe()

    def child() -> None:  # pragma: no cover (the child: leaves by os._exit)
        os.close(r)
        _child(work, w)

    pid = forking.fork(child)
    os.close(w)
    buf = bytearray()
    finished = False
    try:
        while not finished:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            ready, _, _ = select.select([r], [], [], left)
            if not ready:
                return False
            chunk = os.read(r, 1 << 20)
            if not chunk:  # the child ended without saying so (killed, out of memory)
                raise ChildFailed("the analysis process ended unexpectedly")
            buf += chunk
            while len(buf) >= 8:
                n = int.from_bytes(buf[:8], "little")
                if len(buf) < 8 + n:
                    break
                frame = pickle.loads(bytes(buf[8 : 8 + n]))
                del buf[: 8 + n]
                for tag, obj in frame:
                    if tag == "item":
                        on_item(obj, False)
                    elif tag == "error":
                        raise ChildFailed(obj)
                    else:
                        finished = True
        return True
    finally:
        os.close(r)
        if not finished:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.waitpid(pid, 0)
