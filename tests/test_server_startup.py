"""The server's start and its first diagnostics (issue #34), and a fast phase
that never waits for the analysis (issue #31).

* ``affine-lsp serve`` answers ``initialize`` before it loads islpy, the
  analyses or the parser tables (checked in the server process at the
  moment the answer is written), then forks the dataflow worker beside its
  threads, on its parse worker;
* the first publish of an opened file carries what syntax, names and op
  verifiers find; the out-of-bounds warning (isl) follows in a later one;
* the fast phase of an edit does not wait for the isl lock another thread
  holds, even in a ``-verify-diagnostics`` file whose ``RUN:`` line runs
  ``-test-memref-dependence-check`` (its remarks come with the analysis).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest
from lsprotocol import types

from tests.test_server_support import read_messages, serve_probe

ROOT = Path(__file__).resolve().parent.parent

OOB_AND_VERIFIER_ERROR = """func.func @oob(%A: memref<64xf32>) {
  affine.for %i = 0 to 65 {
    %0 = affine.load %A[%i] : memref<64xf32>
  }
  return
}

func.func @bad() {
  %c = arith.constant 1 : i32
  return %c : i32
}
"""
VERIFIER_ERROR = "'func.return' op has 1 operands, but enclosing function (@bad) returns 0"
OUT_OF_BOUNDS = "'affine.load' op memref out of upper bound access along dimension #1"

# Runs `affine-lsp serve`, noting (on standard error) which modules are
# loaded when an answer to initialize is written on its standard output,
# whoever writes it (early_initialize before the server loads, or pygls).
_PROBE = serve_probe(
    b'"capabilities"',
    "PROBE",
    '{"islpy": "islpy" in sys.modules, "analysis": "affine_lsp.analysis" in sys.modules, '
    '"tables": getattr(sys.modules.get("affine_lsp.syntax.parser"), "_TABLES", None) is not None}',
)


class _Client:
    """A minimal LSP client over the server's standard streams."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.messages: list[dict[str, Any]] = []
        self.cv = threading.Condition()
        threading.Thread(target=self._read, args=(proc.stdout,), daemon=True).start()
        self.next_id = 0

    def _read(self, out: IO[bytes]) -> None:
        for msg in read_messages(out):
            if "id" in msg and "method" in msg:  # a request of the server: answered
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
            with self.cv:
                self.messages.append(msg)
                self.cv.notify_all()

    def send(self, msg: dict[str, Any]) -> None:
        body = json.dumps(msg).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def request(self, method: str, params: Any) -> int:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait(self, pred: Any, timeout: float = 60.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        with self.cv:
            while True:
                for m in self.messages:
                    if pred(m):
                        return m
                left = end - time.monotonic()
                assert left > 0, f"no such message within {timeout} s: {[m.get('method', m.get('id')) for m in self.messages]}"
                self.cv.wait(left)

    def publishes(self, uri: str) -> list[list[dict[str, Any]]]:
        with self.cv:
            return [m["params"]["diagnostics"] for m in self.messages if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            out += [int(x) for x in (task / "children").read_text().split()]
    return out


def _probe_session(tmp_path: Path, early: bool, cache: str = "cache") -> tuple[dict[str, bool], list[list[dict[str, Any]]], list[int], str | None, str]:
    """`serve` with the probe: initialize, open OOB_AND_VERIFIER_ERROR, wait
    for the out-of-bounds warning: (the probe, the publishes, the server's
    children, the first child's standard input, the server's log).
    ``cache``: the persistent cache's folder under ``tmp_path``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), AFFINE_LSP_CACHE_DIR=str(tmp_path / cache))
    env["TMPDIR"] = str(tmp_path)  # (where early_initialize keeps its answers)
    env["AFFINE_LSP_EARLY_INITIALIZE"] = "1" if early else "0"
    env.pop("AFFINE_LSP_PREFORK", None)
    with open(tmp_path / "stderr", "wb+") as err:
        proc = subprocess.Popen([sys.executable, "-c", _PROBE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, env=env, cwd=str(tmp_path))
        try:
            client = _Client(proc)
            i = client.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {}})
            client.wait(lambda m: m.get("id") == i)
            client.notify("initialized", {})
            uri = "file:///tmp/affine-lsp-test/startup.mlir"
            client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": OOB_AND_VERIFIER_ERROR}})
            client.wait(
                lambda m: m.get("method") == "textDocument/publishDiagnostics" and any(d["message"] == OUT_OF_BOUNDS for d in m["params"]["diagnostics"])
            )
            publishes = client.publishes(uri)
            kids = _children(proc.pid)
            stdin = os.readlink(f"/proc/{kids[0]}/fd/0") if len(kids) == 1 else None
        finally:
            proc.kill()
            proc.wait()
        err.seek(0)
        log = err.read().decode(errors="replace")
    probes = [json.loads(line.split(" ", 1)[1]) for line in log.splitlines() if line.startswith("PROBE ")]
    assert len(probes) == 1, log  # one answer to initialize
    return probes[0], publishes, kids, stdin, log


@pytest.mark.parametrize("early", [False, True], ids=["pygls-answers", "answered-early"])
def test_serve_answers_initialize_before_loading_the_analyses_and_shows_the_verifier_error_first(tmp_path: Path, early: bool) -> None:
    if early:  # a first start stores the answer the second one gives early
        # (Its diagnostics go to a cache of their own: the second start is a
        # cold open, whose first publish has only what needs no isl.)
        _probe_session(tmp_path, True, cache="cache-first-start")
        assert list(tmp_path.glob(".affine_lsp_initialize_*.json"))
    probe, (first, *later), kids, stdin, log = _probe_session(tmp_path, early)
    assert probe == {"islpy": False, "analysis": False, "tables": False}, log
    assert [d["message"] for d in first] == [VERIFIER_ERROR]
    assert any(d["message"] == OUT_OF_BOUNDS for d in later[-1]) and any(d["message"] == VERIFIER_ERROR for d in later[-1])
    # The dataflow worker was forked (the server's one child, reading nothing of the LSP stream).
    assert len(kids) == 1 and stdin == os.devnull, (kids, log)


DEPENDENCE_RUN = """// RUN: mlir-opt %s -test-memref-dependence-check -split-input-file -verify-diagnostics
func.func @store_load(%A: memref<10xf32>) {
  %cf = arith.constant 7.0 : f32
  affine.for %i = 0 to 10 {
    affine.store %cf, %A[%i] : memref<10xf32>
    // expected-remark@above {{dependence from 0 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 2 = true}}
    %v = affine.load %A[%i] : memref<10xf32>
    // expected-remark@above {{dependence from 1 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 2 = false}}
  }
  return
}
"""


@contextlib.contextmanager
def _server_and_state(text: str) -> Iterator[tuple[Any, Any]]:
    """A server in this process (no streams) with ``text`` open as version 1."""
    from affine_lsp.server import create_server

    server = create_server()
    try:
        yield server, server.documents.open("file:///tmp/affine-lsp-test/lock.mlir", text, 1, "mlir")
    finally:
        server.engine.flow_worker.shutdown()
        for pool in (server.parse_pool, server.analysis_pool, server.request_pool, server.ondemand_pool):
            pool.shutdown(wait=False, cancel_futures=True)


def _edit(st: Any, version: int, line: int, text: str) -> None:
    pos = types.Position(line=line, character=0)
    st.queue_changes(version, [types.TextDocumentContentChangePartial(range=types.Range(start=pos, end=pos), text=text)])


@contextlib.contextmanager
def _isl_lock_held_elsewhere() -> Iterator[None]:
    """Another thread holds the isl lock for the duration of the block."""
    from affine_lsp.analysis.isl_support import LOCK

    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with LOCK:
            held.set()
            release.wait(60)

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    assert held.wait(10)
    try:
        yield
    finally:
        release.set()
        holder.join(10)


def _fast_while_isl_is_locked(server: Any, st: Any, version: int) -> Any:
    """The fast phase of ``version`` run while another thread holds the isl
    lock; its result (the test fails if it waits for the lock)."""
    out: list[Any] = []
    with _isl_lock_held_elsewhere():
        runner = threading.Thread(target=lambda: out.append(server.diagnostics.fast_now(st, version)), daemon=True)
        runner.start()
        runner.join(20)
        assert out, "the fast phase waited for the isl lock"
    return out[0]


def test_the_fast_phase_of_an_edit_does_not_wait_for_the_isl_lock() -> None:
    """Analysed functions (cached), a new edit with an error, isl busy in
    another thread: the edit's diagnostics come all the same."""
    with _server_and_state(OOB_AND_VERIFIER_ERROR) as (server, st):
        first = server.diagnostics.fast_now(st, 1)
        assert first is not None and first.missing
        for f in first.missing:  # as the analysis phase does
            server.engine.analyse_function(st, f, server.settings)
        _edit(st, 2, 10, "  %x = arith.addf %c, %c : f32\n")
        fast = _fast_while_isl_is_locked(server, st, 2)
    messages = [d.message for d in fast.result.diagnostics]
    assert OUT_OF_BOUNDS in messages  # from the cached analysis of @oob
    assert any("'arith.addf' op" in m or "%c" in m for m in messages if m not in (OUT_OF_BOUNDS, VERIFIER_ERROR)), messages


def test_dependence_remarks_wait_for_the_analysis_phase_not_the_fast_phase() -> None:
    """A ``-verify-diagnostics`` file running ``-test-memref-dependence-check``:
    the fast phase (isl locked elsewhere) reports no expected remark as
    missing; the analysis phase matches them all, as the CLI does."""
    with _server_and_state(DEPENDENCE_RUN) as (server, st):
        fast = _fast_while_isl_is_locked(server, st, 1)
        assert fast.remark_modules is not None and fast.remarks is None and not fast.result.complete
        assert [d.message for d in fast.result.diagnostics if d.severity in (types.DiagnosticSeverity.Error, types.DiagnosticSeverity.Warning)] == []
        assert not any(d.code == "expected-matched" for d in fast.result.diagnostics)
        # The analysis phase (its thread's work, then the merge).
        from affine_lsp.server.diagnostics_manager import _Progress

        left = server.diagnostics._analyse_sync(st, fast, list(fast.missing), _Progress(server, 1))
        assert left == [] and fast.remarks
        final = server.diagnostics._merge(st, fast)
        assert final is not None and final.complete
        matched = [d for d in final.diagnostics if d.code == "expected-matched"]
        assert len(matched) == 8
        assert [d.message for d in final.diagnostics if d.severity in (types.DiagnosticSeverity.Error, types.DiagnosticSeverity.Warning)] == []


def _serve(tmp_path: Path, extra_env: dict[str, str] | None = None) -> tuple[subprocess.Popen[bytes], _Client]:
    env = dict(
        os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), AFFINE_LSP_CACHE_DIR=str(tmp_path / "cache"), TMPDIR=str(tmp_path)
    )
    env.update(extra_env or {})
    proc = subprocess.Popen([sys.executable, "-m", "affine_lsp", "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    return proc, _Client(proc)


def _session(tmp_path: Path, capabilities: dict[str, Any], extra_env: dict[str, str] | None = None) -> tuple[dict[str, Any], list[str]]:
    """Start a server, initialize, open a file with an error: (the answer to
    initialize, the messages of the diagnostics, every publish the same)."""
    proc, client = _serve(tmp_path, extra_env)
    try:
        i = client.request(
            "initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": capabilities, "initializationOptions": {"analysis": {"enabled": False}}}
        )
        answer = client.wait(lambda m: m.get("id") == i)
        client.notify("initialized", {})
        uri = "file:///tmp/affine-lsp-test/early.mlir"
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": OOB_AND_VERIFIER_ERROR}})
        client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        # The settings of the initialize pygls handled (analysis off) hold: no bound warning ever.
        h = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 9, "character": 3}})
        client.wait(lambda m: m.get("id") == h)
        n = client.request("shutdown", None)
        client.wait(lambda m: m.get("id") == n)
        client.notify("exit", None)
        proc.wait(20)
        answers = [m for m in client.messages if m.get("id") == i]
        assert len(answers) == 1, answers  # one answer, never two
        publishes = client.publishes(uri)
        # (an early publish, when initialize was answered early, is the same as the server's)
        assert all(p == publishes[0] for p in publishes), publishes
        return answer, [d["message"] for d in publishes[-1]]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_initialize_is_answered_from_the_cache_as_pygls_answers_it(tmp_path: Path) -> None:
    """The first start with a client stores pygls' answer; the next one
    answers with it before loading the server, handles the same initialize
    (its settings hold) and answers it once; another client's capabilities
    are another entry; with the cache off, pygls answers as before."""
    caps = {"textDocument": {"publishDiagnostics": {"versionSupport": True}, "rename": {"prepareSupport": True}}}
    first, diags1 = _session(tmp_path, caps)
    stored = sorted(tmp_path.glob(".affine_lsp_initialize_*.json"))
    assert len(stored) == 1
    second, diags2 = _session(tmp_path, caps)
    assert second == first and diags2 == diags1 == [VERIFIER_ERROR]
    other = {"textDocument": {"rename": {"prepareSupport": False}}}
    third, _ = _session(tmp_path, other)
    assert len(sorted(tmp_path.glob(".affine_lsp_initialize_*.json"))) == 2
    assert third["result"]["capabilities"]["renameProvider"] != first["result"]["capabilities"]["renameProvider"]
    off, _ = _session(tmp_path, caps, {"AFFINE_LSP_EARLY_INITIALIZE": "0"})
    assert off == first


def test_a_first_message_that_is_not_initialize_is_left_to_pygls(tmp_path: Path) -> None:
    """Garbage, a notification or a request other than initialize first:
    pygls reads the same bytes and answers as it always did."""
    from affine_lsp.server.runtime.early_initialize import Replay, read_first

    for raw in (
        b"Content-Length: 5\r\n\r\n{bad}",
        b'Content-Length: 40\r\n\r\n{"jsonrpc":"2.0","method":"initialized"}',
        b"garbage\r\n\r\n",
        b"Content-Length: 999\r\n\r\n{}",
        b"",
    ):
        import io

        stream = io.BytesIO(raw + b"Content-Length: 2\r\n\r\n{}")
        early = read_first(stream)
        assert early.message is None
        again = Replay(early.prefix, stream)
        assert again.read(-1) == raw + b"Content-Length: 2\r\n\r\n{}"
    proc, client = _serve(tmp_path)
    try:
        client.notify("$/setTrace", {"value": "off"})  # a notification first: pygls answers initialize
        j = client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        assert "capabilities" in client.wait(lambda m: m.get("id") == j)["result"]
    finally:
        proc.kill()
        proc.wait()


def test_replay_gives_back_every_byte_in_order() -> None:
    import io
    import random

    from affine_lsp.server.runtime.early_initialize import Replay, read_first

    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}).encode()
    rest = b"Content-Length: 3\r\n\r\n{x}\nline two\n" * 5
    rnd = random.Random(3)
    for _ in range(200):
        stream = io.BytesIO(b"Content-Length: %d\r\n\r\n" % len(body) + body + rest)
        early = read_first(stream)
        assert early.message is not None and early.request_id == 1
        r = Replay(early.prefix, stream)
        out = b""
        while True:
            chunk = r.readline() if rnd.random() < 0.5 else r.read(rnd.randint(1, 9))
            if not chunk:
                break
            out += chunk
        assert out == early.prefix + rest


_FORK_BESIDE_BUSY_THREADS = """
import json, threading
from affine_lsp.analysis import dependences_of_function
from affine_lsp.analysis.isl_support import LOCK
from affine_lsp.server.analysis_engine import functions_of
from affine_lsp.server.runtime.flowproc import FlowWorker, value_flows
from affine_lsp.source.document import Document
from tests.test_flow_worker import STENCIL

stop = threading.Event()

def busy():  # an analysis thread taking and leaving the isl lock all the time
    while not stop.is_set():
        doc = Document(STENCIL)
        with LOCK:
            dependences_of_function(functions_of(doc)[0], 100_000).pairs

threads = [threading.Thread(target=busy) for _ in range(2)]
for t in threads:
    t.start()
worker = FlowWorker()
refused = worker.prefork()  # threads running: not without beside_threads
forked = worker.prefork(beside_threads=True)
got = [worker.submit("\\n", STENCIL, 100_000, lambda r: None, urgent=True, seconds=20.0).result(timeout=60) for _ in range(3)]
stop.set()
for t in threads:
    t.join()
worker.shutdown()
print(json.dumps({"refused": refused, "forked": forked, "got": got, "expected": value_flows("\\n", STENCIL, 100_000, 20.0)}))
"""


def test_the_worker_forked_beside_threads_busy_with_isl_answers() -> None:
    """The server forks the worker after initialize, with pygls' and its own
    threads running (the analysis may hold the isl lock): the fork holds the
    locks the worker takes, so the worker neither deadlocks nor differs."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run(
        [sys.executable, "-c", _FORK_BESIDE_BUSY_THREADS], capture_output=True, text=True, timeout=300, cwd=str(ROOT), env=env, stdin=subprocess.DEVNULL
    )
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["refused"] is False and r["forked"] is True
    assert r["got"] == [r["expected"]] * 3 and r["expected"]


def test_the_first_pull_answer_carries_the_verifier_error_not_the_isl_warnings() -> None:
    """A pull client's first ``textDocument/diagnostic`` answer is the fast
    phase's (syntax, names, verifiers), given while isl is locked elsewhere;
    the out-of-bounds warning comes with the analysis (then a refresh)."""
    import asyncio

    with _server_and_state(OOB_AND_VERIFIER_ERROR) as (server, st):
        server.client.pull_diagnostics = True

        async def first_pull() -> Any:
            return await server.diagnostics.pull(st, None)

        with _isl_lock_held_elsewhere():
            report = asyncio.run(asyncio.wait_for(first_pull(), 20))
        assert [d.message for d in report.items] == [VERIFIER_ERROR]
