"""Parser benchmark: cold parse speed and incremental re-parse after an edit.

    python bench/parse.py [--repeat N] [--quick]

Measures, on generated affine files of 10k and 50k lines (bench/generate.py):
* cold parse speed (lines/s, median of N runs) for each parser configuration:
  lark's pure-Python LALR or lark-cython, with lark's contextual lexer or our
  context-aware lexer (affine_lsp/syntax/lexer.py), building syntax records
  with a transformer inside the parser (what affine-lsp does) or building
  lark trees (the transformer's cost is the difference); lark-rust is tried
  too and reported if it fails; ``driver/...`` is what affine-lsp runs: lark's
  tables, our lexer and compiled reduce actions, run by our own LALR loop
  (affine_lsp/syntax/driver.py) instead of lark-cython's;
* the time to re-parse after a one-character edit inside one function of the
  50k-line file (``Document.apply_edit`` + parsing the changed chunks), and
  the time to rebuild that section's IR afterwards.

Times are CPU times of this process (time.process_time) and medians: the
machines are shared, so compare the configurations of one run (ratios). Figures go to stdout as a table and to
bench/results/parse.json.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from affine_lsp.gc_pause import gc_paused  # noqa: E402
from affine_lsp.ir.core import Anchor  # noqa: E402
from affine_lsp.source.document import Document  # noqa: E402
from affine_lsp.syntax import parser as P  # noqa: E402
from affine_lsp.syntax.engines import build_tables, grammar_path, grammar_text  # noqa: E402
from bench.generate import generate  # noqa: E402


def median_time(fn: Callable[[], object], repeat: int) -> float:
    """Median CPU time of ``fn()``. The cyclic garbage collector is paused
    while it runs, as ``Document`` pauses it around bulk parsing, and the
    previous run's garbage is collected outside the timing, so every
    configuration is measured on the same footing."""
    times = []
    for _ in range(repeat):
        gc.collect()
        with gc_paused:
            t = time.process_time()
            result = fn()
            times.append(time.process_time() - t)
        del result
    gc.collect()
    return statistics.median(times)


def chunk_texts(text: str) -> list[str]:
    return [c.text for c in Document(text).chunks if c.kind == "item"]


def config_parser(engine: str, lexer: str, transformer: bool, fast: bool = True) -> Callable[[str], object]:
    from lark import Lark

    if engine == "driver":  # our LALR loop over the tables (what affine-lsp runs)
        driver = build_tables(P.ChunkTransformer, lexer="fast", engine="cython", compiled=True, driver="ours").driver
        assert driver is not None

        def drive(text: str) -> object:
            return driver.parse(text, P.ChunkTransformer(Anchor(0)))  # each parse its own state, as parse_chunk

        return drive
    if transformer:
        tables = build_tables(P.ChunkTransformer, lexer=lexer, engine=engine, compiled=fast, driver="lark")
        if lexer == "fast" and not fast:
            tables.lark.parser.lexer.simple_subscripts = None  # type: ignore[union-attr]

        def parse(text: str) -> object:
            return tables.lark_parse(text, P.ChunkTransformer(Anchor(0)))

        return parse
    kwargs: dict = dict(parser="lalr", start="start")
    cython = engine == "cython"
    if cython:
        import lark_cython

        kwargs["_plugins"] = lark_cython.plugins
    if engine == "rust":
        import lark_rust

        kwargs["_plugins"] = lark_rust.plugins
    from affine_lsp.syntax.lexer_lark import lexer_class

    kwargs["lexer"] = lexer_class(cython) if lexer == "fast" else lexer
    lark = Lark(grammar_text(), source_path=str(grammar_path()), **kwargs)
    if lexer == "fast":
        lark.parser.lexer.bind(lark.parser.parser._parse_table.states)
    return lark.parse


def one_time(fn: Callable[[], object]) -> float:
    """CPU time of one ``fn()``, GC paused as in :func:`median_time`."""
    gc.collect()
    with gc_paused:
        t = time.process_time()
        result = fn()
        dt = time.process_time() - t
    del result
    return dt


def bench_cold(texts: list[str], nlines: int, repeat: int) -> dict[str, float]:
    """Every configuration, interleaved round by round (the machine's speed
    drifts), medians; ratios are to plain lark (pure-Python LALR, lark's
    contextual lexer, a parse tree)."""
    out: dict[str, float] = {}
    configs = [
        ("python", "basic", False, False),
        ("python", "contextual", False, False),
        ("python", "contextual", True, False),
        ("python", "fast", True, True),
        ("cython", "basic", False, False),
        ("cython", "contextual", False, False),
        ("cython", "contextual", True, False),
        ("cython", "fast", False, False),
        ("cython", "fast", True, False),
        ("cython", "fast", True, True),
        ("driver", "fast", True, True),
        ("rust", "contextual", False, False),
    ]
    runs: dict[str, Callable[[], object]] = {}
    for engine, lexer, transformer, fast in configs:
        name = f"{engine}/{lexer}/{'transformer' if transformer else 'tree'}" + ("/fast-paths" if fast else "")
        try:
            parse = config_parser(engine, lexer, transformer, fast)
            for x in texts:  # warm up, and find the configurations that fail
                parse(x)
        except Exception as e:  # lark-rust 0.2.1 fails on this grammar
            try:
                why = str(e)
            except Exception:  # lark-cython's errors cannot always print themselves
                why = f"at {getattr(e, 'token', '?')!r}"
            print(f"  {name:40s} failed: {type(e).__name__}: {why.splitlines()[0][:80] if why else ''}")
            out[name] = float("nan")
            continue
        runs[name] = lambda parse=parse: [parse(x) for x in texts]
    whole = "\n\n".join(texts)

    def document() -> Document:
        d = Document(whole)
        d.parse_all()
        return d

    runs["affine-lsp Document (chunk + parse)"] = document
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, fn in runs.items():
            times[name].append(one_time(fn))
    plain = times.get("python/contextual/tree") or next(iter(times.values()))
    base = nlines / statistics.median(plain)
    for name, ts in times.items():
        t = statistics.median(ts)
        out[name] = nlines / t
        print(f"  {name:40s} {nlines / t:10.0f} lines/s  ({t * 1000:.0f} ms)  {nlines / t / base:4.2f}x plain lark")
    return out


def bench_document(text: str, repeat: int) -> dict[str, float]:
    """Cold Document (chunk + parse) and incremental edits on it."""
    nlines = text.count("\n") + 1

    def cold_document() -> Document:
        d = Document(text)
        d.parse_all()
        return d

    cold = median_time(cold_document, repeat)
    doc = Document(text)
    doc.parse_all()
    _ = doc.sections
    # As the server does once a document is built: its objects are frozen
    # for the collector, so no timed edit pays for a young collection
    # walking the build's millions of new objects (0.3-0.7 s, landing in
    # whichever edit crosses the collector's threshold).
    gc.collect()
    gc.freeze()
    target = text.index("affine.load", len(text) // 2)
    edit_times, ir_times, reparsed = [], [], []
    for k in range(max(repeat * 4, 20)):
        pos = target + (k % 3)
        t = time.process_time()
        doc.apply_edit(pos, pos, "x")
        for c in doc.chunks:
            c.ensure_parsed()
        t1 = time.process_time()
        _ = doc.sections
        t2 = time.process_time()
        reparsed.append(doc.reparsed)
        edit_times.append(t1 - t)
        ir_times.append(t2 - t1)
        doc.apply_edit(pos, pos + 1, "")
        for c in doc.chunks:
            c.ensure_parsed()
        _ = doc.sections
    gc.unfreeze()
    return {
        "lines": nlines,
        "cold_document_lines_per_s": nlines / cold,
        "cold_document_ms": cold * 1000,
        "edit_reparse_ms_p50": statistics.median(edit_times) * 1000,
        "edit_reparse_ms_max": max(edit_times) * 1000,
        "edit_ir_rebuild_ms_p50": statistics.median(ir_times) * 1000,
        "chunks_reparsed_per_edit": statistics.median(reparsed),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="only the default configuration")
    args = ap.parse_args()
    results: dict[str, object] = {}
    P.get_parser()
    import affine_lsp
    import affine_lsp.verify.verifier  # (the whole hot path, for the count below)

    compiled = affine_lsp.compiled_modules()
    results["compiled_modules"] = compiled
    print(f"{len(compiled)} compiled modules (setup.py; AFFINE_LSP_PURE_PYTHON=1: none)")
    for n in (10_000, 50_000):
        text = generate(n)
        nlines = text.count("\n") + 1
        print(f"{nlines} lines")
        if not args.quick and n == 10_000:
            results[f"cold_{n}"] = bench_cold(chunk_texts(text), nlines, args.repeat)
        doc = bench_document(text, args.repeat if n == 10_000 else max(3, args.repeat // 2))
        results[f"document_{n}"] = doc
        print(
            f"  affine-lsp Document: cold {doc['cold_document_lines_per_s']:.0f} lines/s ({doc['cold_document_ms']:.0f} ms); "
            f"one-character edit: re-parse p50 {doc['edit_reparse_ms_p50']:.2f} ms (max {doc['edit_reparse_ms_max']:.2f} ms, "
            f"{doc['chunks_reparsed_per_edit']:.0f} chunk), IR rebuild p50 {doc['edit_ir_rebuild_ms_p50']:.2f} ms"
        )
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "parse.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
