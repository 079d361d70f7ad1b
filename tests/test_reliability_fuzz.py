"""Edit-stream fuzzing, bounded for the normal suite (``bench/fuzz.py`` runs
the same machinery for as long as wanted; see ``tests/fuzzing.py``).

* through the real server (stdio, pytest-lsp's client): random edit
  sequences on corpus files and generated programs, requests at random
  positions in between; no crash, every request answered within 2 s,
  diagnostics for the latest version, incremental state == fresh open, and
  no code action or rename whose edit breaks the program;
* in process, faster: the same edit streams on a ``Document``, whose chunks
  and notes must equal those of a fresh parse after every edit.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest
from lsprotocol import types

from affine_lsp.server.state import apply_change
from affine_lsp.source.document import Document
from tests.fuzzing import Edit, EditGenerator, FuzzStats, corpus_available, edit_range, fuzz, seed_texts

SEED = 20261122
SERVER_SECONDS = 25.0


def _report(stats: FuzzStats) -> str:
    return stats.format() + "\n" + "\n".join(stats.failures[:10])


HANG_S = 30.0
"""An answer later than this is a hang, not a slow answer."""


def _check(stats: FuzzStats) -> None:
    assert stats.steps > 10 and stats.requests > 100 and stats.comparisons > 2, _report(stats)
    assert stats.crashes == 0, _report(stats)
    # Every request answered, none stuck: latency itself is bench/fuzz.py's
    # figure (its "late" count, > 2 s or > 1 s on a small document), not a
    # timed assertion of the suite, whose machines are shared and loaded.
    assert stats.unanswered == 0 and stats.max_latency_s < HANG_S, _report(stats)
    assert stats.missing_diagnostics == 0, _report(stats)
    assert stats.mismatches == 0, _report(stats)
    assert stats.invalid_transform_outputs == 0, _report(stats)


def test_server_edit_stream_generated_programs(tmp_path: Path) -> None:
    """Generated programs and the server test data (no corpus needed)."""
    stats = asyncio.run(fuzz(SERVER_SECONDS, SEED, corpus=False, artifacts=tmp_path / "failures", log_dir=tmp_path))
    _check(stats)


@pytest.mark.skipif(not corpus_available(), reason="the upstream corpus (shared/corpus/upstream) is not present")
def test_server_edit_stream_corpus(tmp_path: Path) -> None:
    """The upstream corpus files too."""
    stats = asyncio.run(fuzz(SERVER_SECONDS, SEED + 1, corpus=True, artifacts=tmp_path / "failures", log_dir=tmp_path))
    _check(stats)


def _signature(doc: Document) -> tuple[list[tuple[int, int, str, int, int]], list[tuple[str, str, int, int]], list[tuple[str, int, str, int]]]:
    """Chunks, notes, and every value of the IR with its type and number of uses."""
    chunks = [(c.start, c.end, c.kind, c.level, c.section) for c in doc.chunks]
    notes = sorted((n.severity, n.message, n.span.start, n.span.end) for n in doc.notes())
    values = []
    for section in doc.sections:
        for op in section.module.walk():
            vals = list(op.results) + [a for r in op.regions for b in r.blocks for a in b.arguments]
            values += [(v.name, v.span.start, str(v.type), len(v.uses)) for v in vals]
    return chunks, notes, values


def test_document_edit_stream_matches_fresh_parse() -> None:
    """Chunks, parse and IR notes of an incrementally edited Document equal a
    fresh parse of the same text after every action (sections are built at
    random moments in between, as the server does)."""
    rnd = random.Random(SEED)
    seeds = seed_texts(corpus=corpus_available())
    gen = EditGenerator(rnd, [t for _, t in seeds], 30_000)
    end = time.monotonic() + 10.0
    actions = 0
    while time.monotonic() < end:
        name, text = rnd.choice(seeds)
        if len(text) > 30_000:
            continue
        doc = Document(text)
        _ = doc.sections, doc.lines
        history: list[list[Edit]] = []
        trace: list[tuple[int, int, str]] = []
        for _step in range(40):
            action = gen.action(doc.text, history)
            inverse: list[Edit] = []
            if action.full_text is not None:
                inverse.append(Edit(0, len(action.full_text), doc.text))
                doc.set_text(action.full_text)
                trace.append((0, -1, "<full text>"))
            for note in action.notifications:
                for e in note:
                    # As the server gets it: an LSP range (the client's
                    # UTF-16 positions) read with the document's LineIndex.
                    model = doc.text
                    s, t, rng = edit_range(model, e)
                    inverse.append(Edit(s, s + len(e.new), model[s:t]))
                    apply_change(doc, types.TextDocumentContentChangePartial(range=rng, text=e.new))
                    trace.append((s, t, e.new))
                    assert doc.text == model[:s] + e.new + model[t:], f"{name}: the edit {trace[-1]} landed elsewhere ({rng})"
                    if rnd.random() < 0.3:
                        _ = doc.sections
            if action.kind == "undo":
                del history[-len(action.notifications) :]
            else:
                history.append(inverse[::-1])
            actions += 1
            fresh = Document(doc.text)
            assert _signature(doc) == _signature(fresh), f"{name}: incremental != fresh after {action.kind}; edits {trace[-6:]}"
            assert doc.lines.starts == fresh.lines.starts, f"{name}: line starts differ after {action.kind}; edits {trace[-6:]}"
    assert actions > 50
