"""The CPU of the first open's fast phase, stage by stage, on one file.

What ``server/early_open.fast_phase`` (and the server's first fast phase)
does with a document, measured with ``time.process_time`` in this process
after the parser's tables are loaded (what a start costs before is in
``docs/early-open.md``):

* one process (``performance.parallelOpen`` off): chunking
  (``Document(text)``), parse + name resolution (``doc.notes()``), the op
  verifiers (``engine.verify_items``);
* split (``parallel.split_open``, forced on with ``--processes N``): this
  process's CPU until it waits for its children, after, and the children's
  CPU together (``RUSAGE_CHILDREN``).

Each line is one run; run it several times (interleaved with the code to
compare, ``PYTHONPATH`` first) and take medians: the figures are noisy on
a shared machine.

Usage::

    python bench/open_stages.py FILE [--processes N] [--repeat K] [--loop]

(``bench/content.py``'s ``generate_kind(kind, lines)`` writes the files of
the benchmark's kinds of content.)
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import gc
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def one_process(text: str) -> str:
    from affine_lsp import verify
    from affine_lsp.server.analysis_engine import verify_items
    from affine_lsp.source.document import Document

    gc.disable()
    try:
        t0 = time.process_time()
        doc = Document(text, uri="file:///bench.mlir", release=True)
        t1 = time.process_time()
        doc.notes()
        t2 = time.process_time()
        verify_items(verify, doc, {})
        t3 = time.process_time()
    finally:
        gc.enable()
    return f"one process: chunking {t1 - t0:.3f} s, parse + names {t2 - t1:.3f} s, verifiers {t3 - t2:.3f} s, total {t3 - t0:.3f} s"


def loop_only(text: str) -> str:
    """The parse's LALR loop and lexer alone: every chunk of ``text`` parsed
    by the driver as the fast phase parses it, then again with every reduce
    action replaced by one returning None (the loop's shifts, reductions and
    gotos do not depend on the values). The difference is what the reduce
    actions cost; the loop's time is all that a compiled loop could save."""
    from affine_lsp.ir.core import Anchor
    from affine_lsp.source.document import Document
    from affine_lsp.syntax.parser import ChunkTransformer, shared_tables

    texts = [c.text for c in Document(text, uri="file:///bench.mlir", release=True).chunks]
    driver = shared_tables().driver
    if driver is None:
        return "loop only: the driver is off (AFFINE_LSP_DRIVER)"

    def parse_all() -> float:
        t = time.process_time()
        for chunk in texts:
            with contextlib.suppress(Exception):  # (lark's parser would report it: not timed here)
                driver.parse(chunk, ChunkTransformer(Anchor(0)))
        return time.process_time() - t

    def nothing(*_args: object) -> None:
        return None

    gc.disable()
    rules = driver.rules
    try:
        whole = parse_all()
        driver.rules = [(size, nothing, goto, None if stateful is None else False) for size, _, goto, stateful in rules]
        loop = parse_all()
    finally:
        driver.rules = rules
        gc.enable()
    return f"loop only: the parse {whole:.3f} s, of which the LALR loop and lexer {loop:.3f} s ({100 * loop / whole:.0f}%) and the reduce actions {whole - loop:.3f} s"


def split(text: str, processes: int) -> str:
    from affine_lsp import parallel
    from affine_lsp.server.runtime import early_open
    from affine_lsp.server.settings import Settings

    os.environ["AFFINE_LSP_SPLIT_PROCESSES"] = str(processes)
    marks: dict[str, float] = {}
    real = parallel.Child.result

    def result(self: parallel.Child, timeout: float = parallel.CHILD_TIMEOUT_S) -> object:
        marks.setdefault("wait", time.process_time())
        got = real(self, timeout)
        marks["back"] = time.process_time()
        return got

    parallel.Child.result = result  # type: ignore[method-assign]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.process_time()
    early_open.fast_phase("file:///bench.mlir", text, dataclasses.replace(Settings(), parallel_open=True))
    t1 = time.process_time()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    children = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if "wait" not in marks:
        return f"{processes} processes: not split (too small, or not independent functions): {t1 - t0:.3f} s"
    return f"{processes} processes: this one {marks['wait'] - t0:.3f} s until it waits, {t1 - marks['back']:.3f} s after; " + (
        f"its child {children:.3f} s" if processes == 2 else f"its {processes - 1} children {children:.3f} s together"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file")
    p.add_argument("--processes", type=int, default=0, help="also open it split on N processes (N >= 2)")
    p.add_argument("--repeat", type=int, default=1, help="runs, each in a new process")
    p.add_argument("--loop", action="store_true", help="also time the parse's LALR loop and lexer alone (reduce actions as no-ops)")
    args = p.parse_args()
    if os.environ.get("_OPEN_STAGES_CHILD"):
        from affine_lsp.syntax.parser import shared_tables

        text = Path(args.file).read_text()
        shared_tables()
        # (every module the fast phase imports, loaded before the clock starts)
        import affine_lsp.diagnostics
        import affine_lsp.server.lsp_json
        import affine_lsp.verify  # noqa: F401

        if args.loop:
            print(loop_only(text), flush=True)
        else:
            print(one_process(text) if args.processes < 2 else split(text, args.processes), flush=True)
        return
    import subprocess

    env = dict(os.environ, _OPEN_STAGES_CHILD="1")
    for _ in range(args.repeat):
        for n in [0] + ([args.processes] if args.processes >= 2 else []):
            subprocess.run([sys.executable, __file__, args.file, "--processes", str(n)], env=env, check=True)
        if args.loop:
            subprocess.run([sys.executable, __file__, args.file, "--loop"], env=env, check=True)


if __name__ == "__main__":
    main()
