"""First-request latency of the language server on the runtime benchmark's kernels.

Editors ask for code actions on every cursor move, and the first request on
a loop is the one a user waits for (a repeated one is cached). For each
kernel of ``bench/kernels`` (those ``bench/runtime.py`` times), a new server
(``affine-lsp serve``, a push client that supports ``codeAction/resolve``
for ``edit``) opens the file, the client waits for its diagnostics and for
``--settle`` quiet seconds (the analysis after opening is done), then sends,
one after the other and each answered before the next:

* ``documentSymbol`` and ``inlayHint`` (the whole file);
* ``hover`` on the header of the innermost loop of the last nest;
* ``codeAction`` on the header of every loop, outer and inner, in text
  order; while the first one (the outermost loop of the first nest) runs, a
  ``hover`` on an ``affine.load`` is sent ``--hover-delay`` seconds after it
  (``hover during codeAction``: its latency from its own send);
* ``codeAction/resolve`` of the first enabled action of each answer that
  came without its edit (``resolve``).

Then **edit -> diagnostics** on a file of ``--edit-lines`` lines (the
kernels one after the other, renamed): single-character edits of a loop
bound in the middle of the file (``N`` <-> ``N-1``: the file stays valid),
each followed at once by a ``codeAction`` at the cursor (what an editor
sends, the cursor being on that loop's header) and by waiting for the
diagnostics of that version; ``--pause`` seconds between two edits.

With ``--base`` (a second source tree), each kernel is measured on both
trees in turn, interleaved, ``--repeat`` times. Per tree and request kind:
the median and p95 over kernels and loops of each repetition, and the
median of those over repetitions with their range (the noise).

Usage::

    python bench/first_request.py                          # this tree
    python bench/first_request.py --kernels 2mm,covariance --repeat 3
    python bench/first_request.py --base /tmp/base --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from lsp_latency import Server  # noqa: E402

KERNELS = ROOT / "bench" / "kernels"
URI = "file:///tmp/affine-first-request/kernel.mlir"
CAPABILITIES: dict[str, Any] = {
    "window": {"workDoneProgress": False},
    "textDocument": {
        "publishDiagnostics": {"versionSupport": True},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "codeAction": {
            "codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "refactor", "refactor.rewrite"]}},
            "resolveSupport": {"properties": ["edit"]},
            "dataSupport": True,
            "disabledSupport": True,
        },
        "inlayHint": {},
    },
}
_FOR = re.compile(r"\baffine\.for\b")
_BOUND = re.compile(r"affine\.for %\w+ = 0 to (\d+) \{")


def pct(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (nearest rank)."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))] if s else float("nan")


def loop_headers(text: str) -> list[tuple[int, int, int]]:
    """(line, column of ``affine.for``, how many loops enclose it) of every loop, in text order."""
    out = []
    depth = 0
    open_loops: list[int] = []  # the brace depth inside each enclosing loop
    for n, line in enumerate(text.split("\n")):
        m = _FOR.search(line)
        if m is not None:
            out.append((n, m.start(), len(open_loops)))
        depth += line.count("{") - line.count("}")
        if m is not None and line.rstrip().endswith("{"):
            open_loops.append(depth)
        while open_loops and depth < open_loops[-1]:
            open_loops.pop()
    return out


def last_innermost(loops: list[tuple[int, int, int]]) -> tuple[int, int]:
    """The innermost loop of the last nest."""
    for i in range(len(loops) - 1, -1, -1):
        if i == len(loops) - 1 or loops[i + 1][2] <= loops[i][2]:
            return loops[i][0], loops[i][1]
    return loops[-1][0], loops[-1][1]


def first_load(text: str) -> tuple[int, int]:
    for n, line in enumerate(text.split("\n")):
        c = line.find("affine.load")
        if c >= 0:
            return n, c + 2
    raise ValueError("no affine.load")


def pos(line: int, col: int) -> dict[str, int]:
    return {"line": line, "character": col}


def initialize(srv: Server) -> None:
    params = {"processId": os.getpid(), "rootUri": None, "capabilities": CAPABILITIES, "initializationOptions": None, "trace": "messages"}
    i = srv.request("initialize", params)
    srv.wait(lambda m: m.get("id") == i, 120)
    srv.notify("initialized", {})
    srv.ready("affine-lsp")


def open_file(srv: Server, text: str, settle: float) -> None:
    srv.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "mlir", "version": 1, "text": text}})
    srv.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics", 120)
    srv.drain(settle, 60)


def timed(srv: Server, method: str, params: dict[str, Any], timeout: float = 120) -> tuple[float, dict[str, Any]]:
    t0 = time.perf_counter()
    i = srv.request(method, params)
    t, msg = srv.wait(lambda m: m.get("id") == i, timeout)
    return (t - t0) * 1000, msg


def code_action_params(line: int, col: int) -> dict[str, Any]:
    p = pos(line, col + 3)
    return {"textDocument": {"uri": URI}, "range": {"start": p, "end": p}, "context": {"diagnostics": []}}


def kernel_session(root: str, text: str, args: argparse.Namespace) -> dict[str, list[float]]:
    """One server on one kernel: latency (ms) per request kind."""
    srv = Server(
        "affine-lsp",
        [sys.executable, "-m", "affine_lsp", "serve"],
        dict(os.environ, PYTHONPATH=root, AFFINE_LSP_CACHE_DIR=tempfile.mkdtemp(prefix="affine-lsp-fr-")),
    )
    out: dict[str, list[float]] = {}
    try:
        initialize(srv)
        open_file(srv, text, args.settle)
        doc = {"textDocument": {"uri": URI}}
        out["documentSymbol"] = [timed(srv, "textDocument/documentSymbol", doc)[0]]
        n_lines = text.count("\n") + 1
        out["inlayHint"] = [timed(srv, "textDocument/inlayHint", {**doc, "range": {"start": pos(0, 0), "end": pos(n_lines, 0)}})[0]]
        loops = loop_headers(text)
        hl, hc = last_innermost(loops)
        out["hover on a loop"] = [timed(srv, "textDocument/hover", {**doc, "position": pos(hl, hc + 3)})[0]]
        ca: list[float] = []
        outer: list[float] = []
        resolve: list[float] = []
        for k, (line, col, depth) in enumerate(loops):
            t0 = time.perf_counter()
            i = srv.request("textDocument/codeAction", code_action_params(line, col))
            hover_ms = None
            if k == 0:
                time.sleep(args.hover_delay)
                ll, lc = first_load(text)
                th = time.perf_counter()
                j = srv.request("textDocument/hover", {**doc, "position": pos(ll, lc)})
                got: dict[int, float] = {}
                while len(got) < 2:
                    t, msg = srv.wait(lambda m, ids=(i, j), got=got: m.get("id") in ids and m.get("id") not in got, 120)
                    got[msg["id"]] = t
                    if msg["id"] == i:
                        answer = msg
                hover_ms = (got[j] - th) * 1000
                t_ca = got[i]
            else:
                t_ca, answer = srv.wait(lambda m, i=i: m.get("id") == i, 120)
            ms = (t_ca - t0) * 1000
            ca.append(ms)
            if depth == 0:
                outer.append(ms)
            if hover_ms is not None:
                out["hover during codeAction"] = [hover_ms]
            actions = answer.get("result") or []
            pending = [a for a in actions if not a.get("disabled") and "edit" not in a and "command" not in a and a.get("data") is not None]
            if pending:
                resolve.append(timed(srv, "codeAction/resolve", pending[0])[0])
        out["codeAction (every loop)"] = ca
        out["codeAction (outer loops)"] = outer
        if resolve:
            out["codeAction/resolve"] = resolve
    finally:
        srv.stop()
    return out


def edit_file(lines: int) -> str:
    """The kernels one after the other (each function renamed) until ``lines`` lines."""
    parts: list[str] = []
    n = 0
    while n < lines:
        for f in sorted(KERNELS.glob("*.mlir")):
            body = f.read_text().replace("@kernel", "@" + re.sub(r"\W", "_", f.stem) + f"_{len(parts)}")
            parts.append(body)
            n += body.count("\n")
            if n >= lines:
                break
    return "".join(parts)


def edit_session(root: str, text: str, args: argparse.Namespace) -> list[float]:
    """edit -> diagnostics (ms) with a codeAction at the cursor after each edit."""
    srv = Server(
        "affine-lsp",
        [sys.executable, "-m", "affine_lsp", "serve"],
        dict(os.environ, PYTHONPATH=root, AFFINE_LSP_CACHE_DIR=tempfile.mkdtemp(prefix="affine-lsp-fr-")),
    )
    lines = text.split("\n")
    mid = len(lines) // 2
    site = next((k, m) for k in range(mid, len(lines)) if (m := _BOUND.search(lines[k])) is not None)
    line, m = site
    col = m.start(1) + len(m.group(1)) - 1
    digit = m.group(1)[-1]
    other = str((int(digit) - 1) % 10) if digit != "0" else "1"
    out: list[float] = []
    try:
        initialize(srv)
        open_file(srv, text, args.settle)
        version = 1
        for e in range(args.edits):
            version += 1
            new = other if e % 2 == 0 else digit
            t0 = time.perf_counter()
            change = {"range": {"start": pos(line, col), "end": pos(line, col + 1)}, "text": new}
            srv.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": version}, "contentChanges": [change]})
            srv.request("textDocument/codeAction", code_action_params(line, m.start() - 0))
            v = version
            t, _ = srv.wait(lambda msg, v=v: msg.get("method") == "textDocument/publishDiagnostics" and msg["params"].get("version") == v, 120)
            out.append((t - t0) * 1000)
            time.sleep(args.pause)
    finally:
        srv.stop()
    return out


def summarize(per_rep: list[dict[str, list[float]]]) -> dict[str, dict[str, Any]]:
    kinds: list[str] = []
    for r in per_rep:
        kinds += [k for k in r if k not in kinds]
    out = {}
    for k in kinds:
        p50s = [statistics.median(r[k]) for r in per_rep if r.get(k)]
        p95s = [pct(r[k], 0.95) for r in per_rep if r.get(k)]
        out[k] = {
            "n": sum(len(r.get(k, [])) for r in per_rep) // max(1, len(per_rep)),
            "median_ms": statistics.median(p50s),
            "median_range_ms": [min(p50s), max(p50s)],
            "p95_ms": statistics.median(p95s),
            "p95_range_ms": [min(p95s), max(p95s)],
            "max_ms": max(max(r[k]) for r in per_rep if r.get(k)),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--kernels", help="comma-separated kernel names (default: every file in bench/kernels)")
    p.add_argument("--base", help="a second source tree, measured in turn with this one")
    p.add_argument("--new", default=str(ROOT), help="the source tree measured (default: this one)")
    p.add_argument("--repeat", type=int, default=3, help="repetitions (each kernel, each tree, interleaved)")
    p.add_argument("--settle", type=float, default=0.5, help="quiet seconds after the diagnostics of the opened file")
    p.add_argument("--hover-delay", type=float, default=0.05, help="seconds between the first codeAction and the hover sent during it")
    p.add_argument("--edit-lines", type=int, default=300, help="lines of the edited file (0: no edit measurement)")
    p.add_argument("--edits", type=int, default=30, help="edits per repetition")
    p.add_argument("--pause", type=float, default=0.15, help="seconds between two edits")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = p.parse_args(argv)
    roots = {"new": str(Path(args.new).resolve())}
    if args.base:
        roots = {"base": str(Path(args.base).resolve()), **roots}
    for name, r in roots.items():
        if not (Path(r) / "affine_lsp" / "__init__.py").is_file():
            p.error(f"{name}: {r} holds no affine_lsp package")
    os.chdir(tempfile.gettempdir())  # (python -m puts the working directory first on the path)
    names = args.kernels.split(",") if args.kernels else sorted(f.stem for f in KERNELS.glob("*.mlir"))
    texts = {k: (KERNELS / f"{k}.mlir").read_text() for k in names}
    reps: dict[str, list[dict[str, list[float]]]] = {t: [] for t in roots}
    per_kernel: dict[str, dict[str, dict[str, list[float]]]] = {t: {} for t in roots}
    for rep in range(args.repeat):
        acc: dict[str, dict[str, list[float]]] = {t: {} for t in roots}
        for k in names:
            order = list(roots) if rep % 2 == 0 else list(reversed(roots))
            for tree in order:
                res = kernel_session(roots[tree], texts[k], args)
                for kind, xs in res.items():
                    acc[tree].setdefault(kind, []).extend(xs)
                    per_kernel[tree].setdefault(k, {}).setdefault(kind, []).extend(xs)
                print(f"rep {rep} {tree:<4} {k:<15} " + " ".join(f"{kind}={max(xs, default=-1):.0f}" for kind, xs in res.items()), file=sys.stderr, flush=True)
        if args.edit_lines:
            text = edit_file(args.edit_lines)
            order = list(roots) if rep % 2 == 0 else list(reversed(roots))
            for tree in order:
                xs = edit_session(roots[tree], text, args)
                acc[tree]["edit -> diagnostics"] = xs
                print(
                    f"rep {rep} {tree:<4} edit -> diagnostics ({text.count(chr(10))} lines) p50={statistics.median(xs):.0f} p95={pct(xs, 0.95):.0f}",
                    file=sys.stderr,
                    flush=True,
                )
        for t in roots:
            reps[t].append(acc[t])
    results = {t: summarize(reps[t]) for t in roots}
    for t, res in results.items():
        print(f"== {t}: {roots[t]} ({len(names)} kernels, {args.repeat} repetitions)")
        print(f"{'request':<26} {'n':>4} {'median ms':>10} {'(range)':>15} {'p95 ms':>9} {'(range)':>15} {'max ms':>8}")
        for kind, s in res.items():
            lo, hi = s["median_range_ms"]
            plo, phi = s["p95_range_ms"]
            print(
                f"{kind:<26} {s['n']:>4} {s['median_ms']:>10.1f} {f'{lo:.0f}-{hi:.0f}':>15} {s['p95_ms']:>9.1f} {f'{plo:.0f}-{phi:.0f}':>15} {s['max_ms']:>8.0f}"
            )
    if args.json:
        Path(args.json).write_text(json.dumps({"args": vars(args), "roots": roots, "summary": results, "per_kernel": per_kernel}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
