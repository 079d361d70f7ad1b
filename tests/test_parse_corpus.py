"""The foundation's yardstick: the whole public corpus parses.

Every chunk of every corpus file that MLIR 22.1.8 accepts (the tests and the
reference passes' outputs) gets zero errors from ``affine-lsp check
--split-input-file``; chunks mlir-opt rejects for syntax get an error on the
line mlir-opt names.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from affine_lsp import diagnostics
from affine_lsp.cli import main
from affine_lsp.source.document import Document
from tests.corpus import chunk_statuses, corpus_files, invalid_sections, needs_corpus, reference_run_allows_unregistered

pytestmark = needs_corpus

FILES = corpus_files()


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_accepted_chunks_have_no_errors(path: Path) -> None:
    text = path.read_text()
    doc = Document(text, uri=str(path))
    notes = diagnostics.collect(doc, allow_unregistered=reference_run_allows_unregistered(path))
    invalid = invalid_sections(path)
    assert len(doc.sections) >= max(invalid, default=0) + 1
    offending = []
    for n in notes:
        if n.severity != "error":
            continue
        sec = doc.section_at(n.span.start)
        if sec.index in invalid:
            continue
        line, col = doc.lines.position(n.span.start)
        offending.append(f"{path.name}:{line + 1}:{col + 1}: {n.message}")
    assert offending == []


# Messages of the verifier ("'op' op ...") are the verifier issue's business;
# the rest are syntax errors, which the parser must place on the same line.
# An op of a dialect mlir-opt does not register ("Dialect `test' not found
# for custom op ...") is compared in test_mlir_wording.py and above.
_VERIFIER_MSG = re.compile(r"^'[\w.]+' op |^Dialect `\w+' not found for custom op")


def _syntax_rejections() -> list[tuple[Path, int, int, str]]:
    out = []
    for path in FILES:
        for c in chunk_statuses(path):
            if not c.valid and c.error is not None and not _VERIFIER_MSG.match(c.error):
                assert c.error_line is not None
                out.append((path, c.index, c.error_line, c.error))
    return out


SYNTAX = _syntax_rejections()


def test_there_are_syntax_rejections_to_check() -> None:
    assert len(SYNTAX) >= 10


def test_unknown_dialect_custom_op_is_mlir_opts_error() -> None:
    """An op of an unregistered dialect in a custom form: mlir-opt's error
    at the first one of the section (mlir-opt gives it even with
    -allow-unregistered-dialect, which ops.mlir's RUN line passes: affine-lsp
    follows the flag, so the RUN line is taken out here); the remark that
    its syntax was skipped, once per op name."""
    path = next(p for p in FILES if p.name == "ops.mlir")
    doc = Document(path.read_text().replace("-allow-unregistered-dialect", "-no-flag"))
    sec = doc.sections[3]
    notes = [n for n in diagnostics.collect(doc) if sec.start <= n.span.start < sec.end]
    mentions = [(n.severity, doc.lines.position(n.span.start), n.message) for n in notes if "test.affine_scope" in n.message]
    assert mentions == [
        ("error", (121, 2), "Dialect `test' not found for custom op 'test.affine_scope' "),
        (
            "remark",
            (121, 2),
            "custom syntax of 'test.affine_scope' is not known to affine-lsp; the op was skipped "
            "(its results, operands and regions are kept) (and 1 more occurrence in this document)",
        ),
    ]
    # Its regions are still parsed: the affine.for inside is in the IR.
    assert any(op.name == "affine.for" for op in sec.module.walk())


@pytest.mark.parametrize("path,index,line,message", SYNTAX, ids=[f"{p.name}#{i}" for p, i, _, _ in SYNTAX])
def test_syntax_error_on_the_line_mlir_opt_names(path: Path, index: int, line: int, message: str) -> None:
    doc = Document(path.read_text())
    sec = doc.sections[index]
    lines = [
        doc.lines.position(n.span.start)[0] + 1
        for n in diagnostics.collect(doc)
        if n.severity == "error" and sec.start <= n.span.start < max(sec.end, sec.start + 1)
    ]
    assert line in lines, f"mlir-opt: L{line}: {message}; ours on lines {lines}"


def test_cli_reports_no_errors_on_a_valid_file(capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in FILES if p.name == "loop-fusion.mlir")
    assert main(["check", "--split-input-file", str(path)]) == 0
    out = capsys.readouterr().out
    assert ": error:" not in out


def test_cli_exit_status_and_format_on_invalid_file(capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in FILES if p.name == "invalid.mlir")
    assert main(["check", "--split-input-file", "--allow-unregistered-dialect", str(path)]) == 1
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert re.match(rf"^{re.escape(str(path))}:\d+:\d+: error: .+", first), first
