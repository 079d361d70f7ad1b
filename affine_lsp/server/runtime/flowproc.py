"""Value-based dataflow in a worker process.

isl's dataflow computation (``compute_flow``, behind
``FunctionDeps.dataflow()``) is one long call that keeps Python's global
interpreter lock: run in a thread of the server it would freeze the event
loop and every request for as long (see docs/measurements.md). So the server
asks a separate process: it sends the function's text (with its section's
alias definitions), the process parses it with the same engine, runs the
analysis package's dataflow and answers which RAW dependences carry values,
as ``(source access index, destination access index, depth)`` triples (the
access indices are the analysis' walk order, identical for identical text).

Requests and answers are pickled over two pipes. The server forks the
process when it starts (:meth:`FlowWorker.prefork`, from ``affine-lsp
serve`` before any thread runs, with the parser tables and the analysis
modules loaded and frozen for the garbage collector): the worker then
shares their pages with the server (copy-on-write) and its own memory is
what it allocates and what either process writes to afterwards (far less
than a fresh interpreter loading the same modules: docs/measurements.md). Elsewhere (tests, no ``fork``) the worker is a
plain child (``python -c``) started at the first request. A
``multiprocessing`` pool would start a second process too, its resource
tracker (memory for a lock nobody shares).
"""

from __future__ import annotations

import contextlib
import gc
import heapq
import itertools
import logging
import os
import pickle
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import IO, Any

from affine_lsp import forking
from affine_lsp.source.scratch import scratch_documents

log = logging.getLogger("affine_lsp.server.runtime.flowproc")

Triple = tuple[int, int, int, list[tuple[int | None, int | None]]]
"""A value-carrying RAW: source and destination access indices, depth, and its value-based distance."""


def _init() -> None:  # pragma: no cover - runs in the worker process
    try:
        from affine_lsp.source.document import Document

        _ = Document("func.func @warm_up() {\n  return\n}\n").sections
    except Exception:
        pass


WORKER_NICENESS = 10
"""How much lower than the server's the worker's scheduling priority is:
it computes value flows in the background, and the server, the editor and
the open's child come first on a machine with few cores."""


def _serve(inp: IO[bytes] | None = None, out: IO[bytes] | None = None) -> None:  # pragma: no cover - runs in the worker process
    """The worker's loop: a request is ``(prefix, func_text, budget,
    seconds)``, its answer what :func:`value_flows` returns; each one a
    pickle after its length (8 bytes, little-endian). Ends at end of input.
    ``inp``/``out``: the pipes (default: standard input and output)."""
    with contextlib.suppress(AttributeError, OSError):  # (no os.nice on Windows)
        os.nice(WORKER_NICENESS)
    if inp is None or out is None:
        inp, out = sys.stdin.buffer, sys.stdout.buffer
        sys.stdout = sys.stderr  # nothing printed may reach the answers
        _init()
    while True:
        try:
            request = _read(inp)
        except EOFError:
            return
        try:
            result = value_flows(*request)
        except Exception:
            result = None
        _write(out, result)


def preload() -> None:
    """Import what :func:`value_flows` runs and build the parser tables,
    so that a worker forked afterwards shares them."""
    from affine_lsp.analysis import dependences_of_function  # noqa: F401
    from affine_lsp.diagnostics import analysis_scopes  # noqa: F401
    from affine_lsp.ide.describe import value_distance  # noqa: F401

    _init()


def _write(f: IO[bytes], obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    f.write(len(data).to_bytes(8, "little") + data)
    f.flush()


def _read(f: IO[bytes]) -> Any:
    """The next message (EOFError at end of input, or where the writer died
    mid-message)."""
    head = f.read(8)
    n = int.from_bytes(head, "little")
    data = f.read(n) if len(head) == 8 else b""
    if len(head) < 8 or len(data) < n:
        raise EOFError("end of input")
    return pickle.loads(data)


class _Channel:
    """The server's end of the worker: a request pipe and an answer pipe."""

    stdin: IO[bytes]
    stdout: IO[bytes]

    def call(self, *request: Any) -> list[Triple] | None:
        """The worker's answer; EOFError when it died."""
        _write(self.stdin, request)
        try:
            result: list[Triple] | None = _read(self.stdout)
        except EOFError:
            raise EOFError(f"the process ended ({self.status()})") from None
        return result

    def status(self) -> str:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError


class _Process(_Channel):
    """The worker as a new interpreter with this process's module path,
    running :func:`_serve` on its standard input and output."""

    def __init__(self) -> None:
        code = f"import sys; sys.path[:] = {sys.path!r}; from affine_lsp.server.runtime.flowproc import _serve; _serve()"
        self.proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdin, self.stdout = self.proc.stdin, self.proc.stdout
        self.pid = self.proc.pid

    def status(self) -> str:
        return f"exit status {self.proc.poll()}"

    def stop(self) -> None:
        """End of input: the worker leaves (killed if it does not at once)."""
        try:
            self.stdin.close()
            self.proc.wait(1.0)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(1.0)


class _Forked(_Channel):
    """The worker as a fork of this process (see :meth:`FlowWorker.prefork`),
    running :func:`_serve` on two pipes; its standard input is ``/dev/null``
    and its standard output goes to standard error (the server's standard
    streams may carry LSP)."""

    def __init__(self) -> None:
        """Forked holding the locks the worker's analysis takes (registered
        in :mod:`affine_lsp.forking`, which makes them anew in the child)."""
        req_r, req_w = os.pipe()
        ans_r, ans_w = os.pipe()

        def child() -> None:  # pragma: no cover - the worker process
            os.close(req_w)
            os.close(ans_r)
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            os.close(null)
            os.dup2(2, 1)
            sys.stdout = sys.stderr
            _serve(os.fdopen(req_r, "rb"), os.fdopen(ans_w, "wb"))

        pid = forking.fork(child, hold_locks=True)
        os.close(req_r)
        os.close(ans_w)
        self.pid = pid
        self.stdin = os.fdopen(req_w, "wb")
        self.stdout = os.fdopen(ans_r, "rb")
        self._exit: int | None = None

    def _reap(self, block: bool) -> bool:
        if self._exit is not None:
            return True
        try:
            pid, status = os.waitpid(self.pid, 0 if block else os.WNOHANG)
        except ChildProcessError:
            self._exit = -1
            return True
        if pid == 0:
            return False
        self._exit = os.waitstatus_to_exitcode(status)
        return True

    def status(self) -> str:
        return f"exit status {self._exit}" if self._reap(False) else "still running"

    def stop(self) -> None:
        """End of input: the worker leaves (killed if it does not within 1 s)."""
        with contextlib.suppress(OSError):
            self.stdin.close()
        deadline = time.monotonic() + 1.0
        while not self._reap(False) and time.monotonic() < deadline:
            time.sleep(0.01)
        if not self._reap(False):
            with contextlib.suppress(OSError):
                os.kill(self.pid, 9)
            self._reap(True)
        with contextlib.suppress(OSError):
            self.stdout.close()


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


@scratch_documents()
def _value_flows(prefix: str, func_text: str, budget: int) -> list[Triple] | None:  # pragma: no cover - worker process
    from affine_lsp.analysis import dependences_of_function
    from affine_lsp.diagnostics import analysis_scopes as functions_of
    from affine_lsp.ide.describe import value_distance
    from affine_lsp.source.document import Document

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
            vd = value_distance(fd, r, compute=True) if r.has_dependence else None
            if vd is not None and vd is not False:
                out.append((r.src.index, r.dst.index, r.depth, vd))
    return out


class FlowWorker:
    """One worker process fed by a priority queue: requests for what a hover
    or a command waits for (``urgent``, latest first) go before the
    background ones (oldest first)."""

    def __init__(self) -> None:
        self._proc: _Channel | None = None
        self._heap: list[tuple[int, int, str, str, int, float | None, Future, Callable[[list[Triple] | None], None]]] = []
        self._cv = threading.Condition()
        self._seq = itertools.count()
        self._thread: threading.Thread | None = None
        self._stopped = False
        self.broken = False
        self._hold_until = 0.0  # time.monotonic() before which background requests wait (see hold)

    def prefork(self, beside_threads: bool = False) -> bool:
        """Fork the worker now, sharing this process's modules and parser
        tables (see the module's docstring); False (the worker will be a
        new interpreter, started at the first request) where there is no
        ``fork``, or where another thread runs (a fork would copy the locks
        it holds) unless ``beside_threads``: then the fork is made holding
        every lock the worker takes (:func:`affine_lsp.forking.held_across_fork`), so that none is
        held by a thread that does not exist in the worker. The server
        forks it so, on its parse worker, once ``initialize`` is answered
        and before it builds its first document (whose pages the worker
        would otherwise share, and own once the server writes to them)."""
        if not forking.available() or (threading.active_count() > 1 and not beside_threads):
            return False
        with self._cv:
            if self._proc is not None or self._stopped:
                return False
            preload()
            if not beside_threads:
                # (The server's first document waits for this fork: the
                # garbage of the imports is left to the freeze, which is sooner.)
                gc.collect()
            gc.freeze()  # the collector then writes to none of the shared pages
            try:
                self._proc = _Forked()
            except OSError as e:
                log.warning("could not fork the dataflow worker (%s)", e)
                return False
        return True

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

    def purge_cancelled(self) -> int:
        """Drop the queued requests whose future was cancelled (a closed
        document's: server/runtime/reclaim.py), and what their callbacks hold."""
        with self._cv:
            kept = [item for item in self._heap if not item[6].cancelled()]
            n = len(self._heap) - len(kept)
            if n:
                heapq.heapify(kept)
                self._heap = kept
        return n

    def hold(self, seconds: float) -> None:
        """Start no background request for ``seconds`` (the user is typing:
        the worker process would compete with the fast diagnostics for the
        CPU); urgent ones still go."""
        with self._cv:
            self._hold_until = max(self._hold_until, time.monotonic() + seconds)
            self._cv.notify()

    def expedite(self, fut: Future) -> None:
        """Make the background request of ``fut`` urgent (a hover or a
        command now waits for it): it goes before the other background
        requests instead of after them."""
        with self._cv:
            entry = next((e for e in self._heap if e[6] is fut and e[0] == 1), None)
            if entry is None:  # running, answered, or urgent already
                return
            # The background entry stays in the heap; whichever runs first
            # answers, the other is skipped (its future is done).
            heapq.heappush(self._heap, (0, -next(self._seq), *entry[2:]))
            self._cv.notify()

    def resume(self) -> None:
        """Start background requests again now (ends :meth:`hold`)."""
        with self._cv:
            self._hold_until = 0.0
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
            if fut.done():  # cancelled, or answered by its expedited copy
                del done, fut, text
                continue
            result: list[Triple] | None = None
            try:
                with self._cv:
                    if self._stopped:
                        return
                    if self._proc is None:
                        self._proc = _Process()
                    proc = self._proc
                result = proc.call(prefix, text, budget, seconds)
            except (OSError, EOFError, pickle.UnpicklingError, ValueError) as e:
                if not self._stopped:
                    log.warning("dataflow worker process died (%s); value-based dependences disabled", e)
                self.broken = True
            except Exception as e:
                log.info("dataflow worker failed: %s", e)
            try:
                done(result)
            finally:
                if not fut.done():
                    fut.set_result(result)
                # (Not kept while waiting for the next request: the callback
                # holds its function's analysis, hence its document's IR.)
                del done, fut, text, result

    def shutdown(self) -> None:
        with self._cv:
            self._stopped = True
            for item in self._heap:
                item[6].cancel()
            self._heap.clear()
            self._cv.notify_all()
            proc, self._proc = self._proc, None
        if proc is not None:
            proc.stop()
