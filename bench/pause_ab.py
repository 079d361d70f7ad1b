"""Edit → analysis complete of two affine-lsp trees, side by side.

What a pause in the typing costs once a document's analysis is complete:
for each size, one server of each tree (``--base``, ``--new``: source
trees, as ``bench/edit_ab.py``) opens the same generated file and finishes
its analysis; then the two get single-character edits in turn (``64`` <->
``63`` in a loop bound in the middle of the file), each followed by waiting
for the ``$/logTrace`` "analysis complete" of that version (the analysis
phase runs after ``diagnostics.debounceMs``, 500 ms by default). Per edit:
the server's CPU time from ``didChange`` to that trace (every thread of the
server process, ``/proc/<pid>/task/<tid>/schedstat``: the fast phase and
the analysis phase, not the dataflow worker process) and the wall time; and
how many functions the analysis phase took (its trace's ``verbose``).
Prints the medians per tree."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from edit_ab import cpu_ns
from first_squiggle_ab import add_tree_arguments, source_trees
from generate import generate
from lsp_latency import Server, edit_site


class Session:
    def __init__(self, name: str, root: str, text: str, uri: str, timeout: float) -> None:
        env = dict(os.environ, PYTHONPATH=root, AFFINE_LSP_CACHE_DIR="off")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        self.name, self.uri, self.version = name, uri, 1
        self.srv = Server(name, [sys.executable, "-m", "affine_lsp", "serve"], env)
        self.srv.initialize(None, trace="verbose")
        self.srv.ready("affine-lsp")
        self.srv.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": text}})
        self.srv.wait(
            lambda m: m.get("method") == "$/logTrace" and m["params"]["message"] == f"diagnostics {uri} v1: analysis complete", timeout, requests=True
        )
        self.srv.drain(2.0, 30)
        self.cpu_ms: list[float] = []
        self.wall_ms: list[float] = []
        self.analysed: list[str] = []

    def edit(self, line: int, col: int, ch: str, timeout: float) -> None:
        self.version += 1
        prefix = f"diagnostics {self.uri} v{self.version}: "
        change = {"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col + 1}}, "text": ch}
        pid = self.srv.proc.pid
        c0, t0 = cpu_ns(pid), time.perf_counter()
        self.srv.notify("textDocument/didChange", {"textDocument": {"uri": self.uri, "version": self.version}, "contentChanges": [change]})

        def complete(m: dict[str, Any]) -> bool:
            if m.get("method") != "$/logTrace":
                return False
            msg = m["params"]["message"]
            if msg == prefix + "analysis":
                self.analysed.append(str(m["params"].get("verbose")))
            return msg == prefix + "analysis complete"

        t1, _ = self.srv.wait(complete, timeout, requests=True)
        self.cpu_ms.append((cpu_ns(pid) - c0) / 1e6)
        self.wall_ms.append((t1 - t0) * 1000)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_tree_arguments(p, "edited")
    p.add_argument("--sizes", nargs="+", type=int, default=[10000, 50000])
    p.add_argument("--edits", type=int, default=20, help="edits per server and size")
    p.add_argument("--pause", type=float, default=0.3, help="pause after each analysis complete (s)")
    p.add_argument("--timeout", type=float, default=600.0)
    args = p.parse_args(argv)
    roots = source_trees(p, args)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {args.edits} edits per tree and size, interleaved")
    print("| lines | tree | CPU edit → analysis complete, p50 / mean (ms) | wall p50 (ms) | functions analysed per pause (first, last) |")
    print("|---:|---|---:|---:|---|")
    for n in args.sizes:
        text = generate(n)
        line, col = edit_site(text)
        sessions = [Session(name, root, text, f"file:///tmp/pause_ab/{name}_{n}.mlir", args.timeout) for name, root in roots.items()]
        try:
            for k in range(args.edits):
                for s in sessions if k % 2 == 0 else sessions[::-1]:
                    s.edit(line, col, "3" if k % 2 == 0 else "4", args.timeout)
                    time.sleep(args.pause)
            for s in sessions:
                first, last = (s.analysed[0], s.analysed[-1]) if s.analysed else ("-", "-")
                print(
                    f"| {n} | {s.name} | {statistics.median(s.cpu_ms):.1f} / {statistics.mean(s.cpu_ms):.1f} | {statistics.median(s.wall_ms):.0f} | {first}, {last} |",
                    flush=True,
                )
        finally:
            for s in sessions:
                s.srv.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
