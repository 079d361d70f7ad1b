"""Edit → diagnostics of two affine-lsp trees, side by side.

For comparing a change with the code before it on a shared machine:
``--base`` and ``--new`` are two source trees (e.g. ``git archive COMMIT |
tar -x -C /tmp/base``). For each size, one server of each tree is started
(push client, as ``bench/lsp_latency.py``) on the same generated file,
opened and left to finish its analysis; then the two get single-character
edits in turn (a loop bound ``64`` <-> ``63`` in the middle of the file, an
edit of one server, then one of the other, ``--pause`` seconds apart), each
followed by waiting for the diagnostics of that version. Per edit it takes
the wall time from ``didChange`` to its ``publishDiagnostics`` and the CPU
time the server process used meanwhile (the sum over its threads of
``/proc/<pid>/task/<tid>/schedstat``, nanoseconds: the CPU of the edit's
own work, whatever else the machine runs). Prints the median, p95 and the
medians of each ``--rounds`` slice, per tree.

``--in-process``: instead, the CPU time of the fast phase alone (what runs
between a change and its publish: apply the change, re-parse, rebuild,
verify, gather the notes), in a fresh process of each tree that opens the
file with the server's own objects and edits it ``--edits`` times;
``--rounds`` processes per tree, interleaved, and the median of each
process's median. No client, no pipes, no other thread: the figure the
least disturbed by a loaded machine."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from first_squiggle_ab import add_tree_arguments, source_trees
from generate import generate
from lsp_latency import Server, edit_site

ROOT = Path(__file__).resolve().parent.parent


def cpu_ns(pid: int) -> int:
    """CPU time of every live thread of ``pid``, in nanoseconds."""
    total = 0
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass  # a thread that ended meanwhile
    return total


class Session:
    """One server of one tree with the generated file open."""

    def __init__(self, name: str, root: str, text: str, uri: str, args: argparse.Namespace) -> None:
        env = dict(os.environ, PYTHONPATH=root, AFFINE_LSP_CACHE_DIR="off")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        self.name = name
        self.uri = uri
        self.srv = Server(name, [sys.executable, "-m", "affine_lsp", "serve"], env)
        self.srv.initialize(None, trace="messages")
        self.srv.ready("affine-lsp")
        self.version = 1
        self.srv.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": text}})
        done = f"diagnostics {uri} v1: analysis complete"
        with contextlib.suppress(TimeoutError):  # not complete: edits start all the same once quiet
            self.srv.wait(lambda m: m.get("method") == "$/logTrace" and m["params"]["message"] == done, args.timeout, requests=True)
        self.srv.drain(args.settle, args.settle + 120)
        self.wall_ms: list[float] = []
        self.cpu_ms: list[float] = []

    def edit(self, line: int, col: int, ch: str, timeout: float) -> None:
        self.version += 1
        v = self.version
        change = {"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col + 1}}, "text": ch}
        pid = self.srv.proc.pid
        c0 = cpu_ns(pid)
        t0 = time.perf_counter()
        self.srv.notify("textDocument/didChange", {"textDocument": {"uri": self.uri, "version": v}, "contentChanges": [change]})

        def published(m: dict[str, Any]) -> bool:
            return m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == self.uri and m["params"].get("version") in (None, v)

        t1, _ = self.srv.wait(published, timeout)
        c1 = cpu_ns(pid)
        self.wall_ms.append((t1 - t0) * 1000)
        self.cpu_ms.append((c1 - c0) / 1e6)


_IN_PROCESS = """
import gc, json, sys, time
from generate import generate
from lsp_latency import edit_site
from lsprotocol import types
from affine_lsp.server.server import create_server

n, edits = int(sys.argv[1]), int(sys.argv[2])
text = generate(n)
line, col = edit_site(text)
ls = create_server()
st = ls.documents.open("file:///tmp/edit_ab.mlir", text, 1, "mlir")
gc.disable()
ls.diagnostics.fast_now(st, 1)
gc.enable()
gc.freeze()  # as the server does once a document is built
cpu = []
for k in range(5 + edits):
    at = types.Range(start=types.Position(line=line, character=col), end=types.Position(line=line, character=col + 1))
    t0 = time.process_time()
    st.queue_changes(k + 2, [types.TextDocumentContentChangePartial(range=at, text="3" if k % 2 == 0 else "4")])
    assert ls.diagnostics.fast_now(st, k + 2) is not None
    if k >= 5:  # (five edits of warm-up)
        cpu.append(1000 * (time.process_time() - t0))
print(json.dumps(cpu))
"""


def in_process(roots: dict[str, str], args: argparse.Namespace) -> None:
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; fast phase in process, {args.rounds} processes of {args.edits} edits per tree")
    print("| lines | tree | fast phase CPU p50 (ms) | per process (ms) |")
    print("|---:|---|---:|---|")
    for n in args.sizes:
        runs: dict[str, list[float]] = {name: [] for name in roots}
        for _ in range(args.rounds):
            for name, root in roots.items():
                env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, str(ROOT / "bench")]), AFFINE_LSP_CACHE_DIR="off")
                out = subprocess.run([sys.executable, "-c", _IN_PROCESS, str(n), str(args.edits)], env=env, capture_output=True, text=True, check=True)
                runs[name].append(statistics.median(json.loads(out.stdout.strip().splitlines()[-1])))
        for name, meds in runs.items():
            print(f"| {n} | {name} | {statistics.median(meds):.2f} | {' / '.join(f'{m:.2f}' for m in meds)} |", flush=True)


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_tree_arguments(p, "edited")
    p.add_argument("--sizes", nargs="+", type=int, default=[10000, 50000])
    p.add_argument("--edits", type=int, default=60, help="edits per server and size")
    p.add_argument("--rounds", type=int, default=3, help="slices of the edits whose medians are printed too")
    p.add_argument("--pause", type=float, default=0.05, help="pause between two edits (s)")
    p.add_argument("--settle", type=float, default=2.0)
    p.add_argument("--timeout", type=float, default=300.0)
    p.add_argument("--in-process", action="store_true", help="the fast phase's CPU time in process instead (see above)")
    args = p.parse_args(argv)
    roots = source_trees(p, args)
    if args.in_process:
        in_process(roots, args)
        return 0
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {args.edits} edits per tree and size, interleaved")
    print("| lines | tree | edit p50 (ms) | p95 (ms) | CPU/edit p50 (ms) | CPU/edit mean (ms) | p50 per slice (ms) | CPU p50 per slice (ms) |")
    print("|---:|---|---:|---:|---:|---:|---|---|")
    for n in args.sizes:
        text = generate(n)
        line, col = edit_site(text)
        sessions = [Session(name, root, text, f"file:///tmp/edit_ab/{name}_{n}.mlir", args) for name, root in roots.items()]
        try:
            for k in range(args.edits):
                order = sessions if k % 2 == 0 else sessions[::-1]
                ch = "3" if k % 2 == 0 else "4"
                for s in order:
                    s.edit(line, col, ch, args.timeout)
                    time.sleep(args.pause)
            for s in sessions:
                per = max(1, len(s.wall_ms) // args.rounds)
                slices = [s.wall_ms[i : i + per] for i in range(0, len(s.wall_ms), per)]
                cslices = [s.cpu_ms[i : i + per] for i in range(0, len(s.cpu_ms), per)]
                print(
                    f"| {n} | {s.name} | {statistics.median(s.wall_ms):.1f} | {pct(s.wall_ms, 0.95):.1f}"
                    f" | {statistics.median(s.cpu_ms):.1f} | {statistics.mean(s.cpu_ms):.1f}"
                    f" | {' / '.join(f'{statistics.median(x):.1f}' for x in slices)}"
                    f" | {' / '.join(f'{statistics.median(x):.1f}' for x in cslices)} |",
                    flush=True,
                )
        finally:
            for s in sessions:
                s.srv.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
