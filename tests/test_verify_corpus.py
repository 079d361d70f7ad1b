"""The verifier reports no error on any chunk of the public corpus that
mlir-opt 22.1.8 accepts (STATUS.json ``valid``), in every file of
``shared/corpus/upstream`` including the saved reference outputs."""

from __future__ import annotations

from pathlib import Path

import pytest

from affine_lsp import diagnostics
from affine_lsp.source.document import Document
from affine_lsp.verify import verify_document
from tests.corpus import chunk_statuses, corpus_files, needs_corpus, reference_run_allows_unregistered

FILES = corpus_files()


def _valid_line_ranges(path: Path, doc: Document) -> list[tuple[int, int]]:
    """0-based [first, last) line ranges of the chunks mlir-opt accepts."""
    statuses = chunk_statuses(path)
    nlines = len(doc.lines.starts)
    if not statuses:  # reference outputs printed by mlir-opt: valid throughout
        return [(0, nlines)]
    out = []
    for i, c in enumerate(statuses):
        end = statuses[i + 1].first_line - 1 if i + 1 < len(statuses) else nlines
        if c.valid:
            out.append((c.first_line - 1, end))
    return out


@needs_corpus
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lenient"])
def test_no_verifier_error_on_valid_chunks(path: Path, strict: bool) -> None:
    doc = Document(path.read_text(), uri=str(path))
    ranges = _valid_line_ranges(path, doc)
    bad = []
    for n in verify_document(doc, strict=strict):
        line = doc.lines.line_of(n.span.start)
        if n.severity in ("error", "info") and any(a <= line < b for a, b in ranges):
            bad.append(f"{path.name}:{line + 1}: {n.severity}: {n.message}")
    assert not bad, "\n".join(bad)


@needs_corpus
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_check_reports_no_error_on_valid_chunks(path: Path) -> None:
    """The whole ``check`` pipeline (parser, builder, verifier, analyses)."""
    doc = Document(path.read_text(), uri=str(path))
    ranges = _valid_line_ranges(path, doc)
    bad = []
    for n in diagnostics.collect(doc, allow_unregistered=reference_run_allows_unregistered(path)):
        line = doc.lines.line_of(n.span.start)
        if n.severity == "error" and any(a <= line < b for a, b in ranges):
            bad.append(f"{path.name}:{line + 1}: {n.message}")
    assert not bad, "\n".join(bad)
