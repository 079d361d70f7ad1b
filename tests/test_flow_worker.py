"""The dataflow worker process (affine_lsp.server.runtime.flowproc): a plain child
process answering over pipes, with no multiprocessing helper process."""

from __future__ import annotations

import os
import time
from concurrent.futures import Future

from affine_lsp.server.runtime.flowproc import FlowWorker, value_flows

STENCIL = """func.func @f(%A: memref<64xf32>) {
  affine.for %t = 0 to 4 {
    affine.for %i = 1 to 63 {
      %a = affine.load %A[%i - 1] : memref<64xf32>
      affine.store %a, %A[%i] : memref<64xf32>
    }
  }
  return
}
"""


def _children() -> list[int]:
    out: list[int] = []
    for task in os.listdir(f"/proc/{os.getpid()}/task"):
        try:
            with open(f"/proc/{os.getpid()}/task/{task}/children") as f:
                out += [int(x) for x in f.read().split()]
        except OSError:
            pass
    return out


def test_the_worker_answers_as_the_analysis_in_process_and_leaves_no_process() -> None:
    before = set(_children())
    worker = FlowWorker()
    got: list[object] = []
    fut = worker.submit("\n", STENCIL, 100_000, got.append, urgent=True, seconds=10.0)
    assert isinstance(fut, Future)
    result = fut.result(timeout=60)
    expected = value_flows("\n", STENCIL, 100_000, 10.0)
    assert result == expected == got[0] and expected  # the stencil's RAW carries values
    # one child: the worker (no resource tracker beside it)
    assert len(set(_children()) - before) == 1
    worker.shutdown()
    deadline = time.monotonic() + 10
    while set(_children()) - before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not set(_children()) - before


def test_a_dead_worker_disables_the_value_flows_without_hanging() -> None:
    worker = FlowWorker()
    first = worker.submit("\n", STENCIL, 100_000, lambda r: None, urgent=True, seconds=10.0)
    assert first is not None and first.result(timeout=60)
    assert worker._proc is not None
    worker._proc.proc.kill()
    worker._proc.proc.wait()
    second = worker.submit("\n", STENCIL, 100_000, lambda r: None, urgent=True, seconds=10.0)
    assert second is not None and second.result(timeout=30) is None
    assert worker.broken and worker.submit("\n", STENCIL, 100_000, lambda r: None) is None
    worker.shutdown()


_PREFORK = """
import json, os, sys
from affine_lsp.server.runtime.flowproc import FlowWorker, value_flows
from tests.test_flow_worker import STENCIL, _children

worker = FlowWorker()
forked = worker.prefork()
pid = worker._proc.pid
fut = worker.submit("\\n", STENCIL, 100_000, lambda r: None, urgent=True, seconds=10.0)
got = fut.result(timeout=60)
stdin = os.readlink(f"/proc/{pid}/fd/0")  # (set up once it answers)
nice = os.getpriority(os.PRIO_PROCESS, pid) - os.getpriority(os.PRIO_PROCESS, 0)
alive = _children()
worker.shutdown()
print(json.dumps({"forked": forked, "pid": pid, "stdin": stdin, "nice": nice, "got": got,
                  "expected": value_flows("\\n", STENCIL, 100_000, 10.0), "alive": alive, "after": _children()}))
"""


def test_the_server_forks_the_worker_before_its_threads_start() -> None:
    """What ``affine-lsp serve`` does (a fresh interpreter, one thread): the
    worker is forked at once, answers as the analysis in process, does not
    read the server's standard input (LSP), runs at a lower priority than
    the server, and is gone after shutdown."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from affine_lsp.server.runtime.flowproc import WORKER_NICENESS

    root = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", _PREFORK], capture_output=True, text=True, timeout=120, cwd=root, env=env, stdin=subprocess.PIPE)
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["forked"] is True
    assert r["stdin"] == os.devnull
    assert r["nice"] == min(WORKER_NICENESS, 19 - os.getpriority(os.PRIO_PROCESS, 0))
    assert r["got"] == r["expected"] and r["expected"]  # the stencil's RAW carries values
    assert r["alive"] == [r["pid"]]  # the worker is the one child
    assert r["after"] == []


def test_a_worker_is_not_forked_beside_running_threads() -> None:
    """A fork would copy the locks other threads hold: with a second thread
    running, the worker is a new interpreter started at its first request."""
    import threading

    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        worker = FlowWorker()
        assert worker.prefork() is False and worker._proc is None
        fut = worker.submit("\n", STENCIL, 100_000, lambda r: None, urgent=True, seconds=10.0)
        assert fut is not None and fut.result(timeout=60) == value_flows("\n", STENCIL, 100_000, 10.0)
        worker.shutdown()
    finally:
        stop.set()
        t.join()
