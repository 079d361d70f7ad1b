"""Error messages are mlir-opt's text, exactly.

For every section of the upstream corpus that MLIR 22.1.8 rejects,
STATUS.json records mlir-opt's first error (``L<line>:<col>: <message>``).
Wherever affine-lsp reports an error on that line, the first such error has
exactly mlir-opt's message. Extra detail (the token found) is related
information, printed by the CLI as a ``note:`` line.

Sections not compared, and why: ``ops.mlir`` #3 is rejected by mlir-opt only
because the ``test`` dialect is not registered without
``--allow-unregistered-dialect``; affine-lsp always allows unknown dialects
(the CLI accepts that flag for compatibility) and reports the op as a
``remark`` (see ``test_unknown_ops.py``), so it has no error on that line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from affine_lsp import diagnostics
from affine_lsp.cli import main
from affine_lsp.source.document import Document
from tests import oracle
from tests.corpus import chunk_statuses, corpus_files, needs_corpus

pytestmark = needs_corpus

NOT_COMPARED = {
    ("ops.mlir", 3): "an op of an unregistered dialect in a custom form: mlir-opt rejects it even with -allow-unregistered-dialect "
    "(on ops.mlir's RUN line); affine-lsp follows the flag (tests/test_parse_corpus.py checks the error without it)"
}


def _first_errors() -> list[tuple[Path, int, int, str, str | None]]:
    """(file, section, line, mlir-opt's message, ours on that line or None)."""
    out = []
    for path in corpus_files():
        statuses = [c for c in chunk_statuses(path) if not c.valid and c.error is not None]
        if not statuses:
            continue
        doc = Document(path.read_text())
        notes = diagnostics.collect(doc)
        for c in statuses:
            sec = doc.sections[c.index]
            ours = [
                n.message
                for n in notes
                if n.severity == "error" and sec.start <= n.span.start < max(sec.end, sec.start + 1) and doc.lines.position(n.span.start)[0] + 1 == c.error_line
            ]
            assert c.error_line is not None and c.error is not None
            out.append((path, c.index, c.error_line, c.error, ours[0] if ours else None))
    return out


FIRST_ERRORS = _first_errors()


def test_the_corpus_has_rejected_sections_to_compare() -> None:
    compared = [x for x in FIRST_ERRORS if x[4] is not None]
    assert len(compared) >= 40


@pytest.mark.parametrize("path,index,line,theirs,ours", FIRST_ERRORS, ids=[f"{p.name}#{i}" for p, i, *_ in FIRST_ERRORS])
def test_error_message_equals_mlir_opt(path: Path, index: int, line: int, theirs: str, ours: str | None) -> None:
    if (path.name, index) in NOT_COMPARED:
        assert ours is None, f"{path.name}#{index} now has an error on L{line}: compare it ({ours!r})"
        return
    assert ours is not None, f"mlir-opt: L{line}: {theirs}; affine-lsp has no error on that line"
    assert ours == theirs


@pytest.mark.parametrize(
    "source,message,found",
    [
        ("affine.for %i = 1 too 10 {\n  }", "custom op 'affine.for' expected 'to' between bounds", "found 'too'"),
        ("affine.for %i = 1 to 10 step -1 {\n  }", "custom op 'affine.for' expected step to be representable as a positive signed integer", None),
        ("affine.store %v, %A : memref<4xf32>", "expected '[' in affine map", "found ':'"),
        ("affine.for %i = 1 to %n step %s {\n  }", "expected attribute value", "found '%s'"),
    ],
)
def test_cli_prints_mlir_opt_message_and_the_token_found_as_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, message: str, found: str | None
) -> None:
    f = tmp_path / "t.mlir"
    text = f"func.func @f(%A: memref<4xf32>, %v: f32, %n: index, %s: index) {{\n  {source}\n  return\n}}\n"
    f.write_text(text)
    assert main(["check", str(f)]) == 1
    lines = capsys.readouterr().out.splitlines()
    errors = [ln.split(": error: ", 1) for ln in lines if ": error: " in ln]
    assert errors[0][1] == message
    if oracle.available():
        theirs = oracle.errors(text)[0]
        assert (f"{f}:{theirs.line}:{theirs.col}", theirs.message) == (errors[0][0], message)
    notes = [ln.split(": note: ", 1)[1] for ln in lines if ": note: " in ln]
    if found is None:
        assert notes == []
    else:
        assert notes[0] == found
