"""The dataflow worker process (affine_lsp.server.flowproc): a plain child
process answering over pipes, with no multiprocessing helper process."""

from __future__ import annotations

import os
import time
from concurrent.futures import Future

from affine_lsp.server.flowproc import FlowWorker, value_flows

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
