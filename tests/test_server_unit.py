"""Unit tests of the server's building blocks (no subprocess)."""

from __future__ import annotations

import random

import pytest
from lsprotocol import types
from pygls.workspace import TextDocument

from affine_lsp.server.engine import Engine, functions_of
from affine_lsp.server.semantic_tokens import _paint, encode
from affine_lsp.server.settings import Settings
from affine_lsp.server.state import DocumentState
from affine_lsp.syntax.document import Document, LineIndex
from tests.test_server_support import DATA, UPSTREAM

ALPHABET = "ab %\n\u00e9\U0001d538{}"


def test_line_index_edited_matches_a_fresh_index():
    rnd = random.Random(7)
    for _ in range(2000):
        d = Document("".join(rnd.choice(ALPHABET) for _ in range(rnd.randint(0, 40))))
        _ = d.lines
        for _ in range(4):
            s = rnd.randint(0, len(d.text))
            e = rnd.randint(s, len(d.text))
            d.apply_edit(s, e, "".join(rnd.choice("x\n\U0001d538") for _ in range(rnd.randint(0, 5))))
            assert d.lines.starts == LineIndex(d.text).starts


def _random_change(rnd: random.Random, text: str) -> types.TextDocumentContentChangePartial:
    lines = text.split("\n")

    def p() -> types.Position:
        ln = rnd.randint(0, len(lines) - 1)
        units = len(lines[ln].encode("utf-16-le")) // 2
        return types.Position(line=ln, character=rnd.randint(0, units))

    a, b = p(), p()
    if (b.line, b.character) < (a.line, a.character):
        a, b = b, a
    new = "".join(rnd.choice(ALPHABET) for _ in range(rnd.randint(0, 6)))
    return types.TextDocumentContentChangePartial(range=types.Range(start=a, end=b), text=new)


def test_document_state_edits_match_pygls_text_document():
    """The Document fed with LSP changes holds exactly pygls' text (UTF-16 columns)."""
    rnd = random.Random(11)
    for _ in range(1000):
        text = "".join(rnd.choice(ALPHABET) for _ in range(rnd.randint(0, 60)))
        st = DocumentState("file:///t.mlir", text, 1)
        ref = TextDocument("file:///t.mlir", text, sync_kind=types.TextDocumentSyncKind.Incremental)
        for v in range(2, 8):
            ch = _random_change(rnd, ref.source)
            ref.apply_change(ch)
            st.queue_changes(v, [ch])
            with st.locked() as doc:
                assert doc.text == ref.source


def test_changes_queued_while_a_worker_reads_are_applied_in_order():
    import threading

    st = DocumentState("file:///t.mlir", "abc\n", 1)
    holding, release = threading.Event(), threading.Event()

    def worker() -> None:
        with st.locked():
            holding.set()
            release.wait(10)

    t = threading.Thread(target=worker)
    t.start()
    holding.wait(10)
    zero = types.Position(line=0, character=0)
    st.queue_changes(2, [types.TextDocumentContentChangePartial(range=types.Range(start=zero, end=types.Position(line=0, character=1)), text="X")])
    st.queue_changes(3, [types.TextDocumentContentChangeWholeDocument(text="whole\n")])
    st.queue_changes(
        4,
        [
            types.TextDocumentContentChangePartial(
                range=types.Range(start=types.Position(line=0, character=5), end=types.Position(line=0, character=5)), text="!"
            )
        ],
    )
    assert st.document_unsafe.text == "abc\n"  # the worker holds the document: nothing applied, nobody waited
    release.set()
    t.join()
    with st.locked() as doc:
        assert doc.text == "whole!\n"
    assert st.version == 4


def test_settings_merge():
    s = Settings()
    assert s.merged({"analysis": {"enabled": False, "islMaxOperations": 5}}).analysis_enabled is False
    assert s.merged({"affineLsp": {"diagnostics": {"debounceMs": 0}}}).debounce_ms == 0
    assert s.merged({"analysis.timeBudgetMs": 10}).time_budget_ms == 10
    bad = s.merged({"analysis": {"enabled": "yes", "timeBudgetMs": -1}, "vectorize": {"defaultWidth": True}, "diagnostics": None})
    assert bad == s
    assert s.merged(None) == s and s.merged([1, 2]) == s
    assert Settings(time_budget_ms=0).time_budget_s is None and Settings(isl_max_operations=0).isl_ops is None


def test_paint_resolves_overlaps_by_priority():
    text = "memref<4xf32, #map> x\n"
    # a type token covering the alias, the alias wins and the type keeps its other parts
    raw = [(0, 19, 4, 0, 5), (14, 18, 3, 0, 1)]
    assert _paint(raw, text) == [(0, 14, 4, 0), (14, 18, 3, 0), (18, 19, 4, 0)]
    assert encode([(0, 2, 3, 1, 0), (0, 7, 2, 0, 1), (2, 1, 1, 2, 0)]) == [0, 2, 3, 1, 0, 0, 5, 2, 0, 1, 2, 1, 1, 2, 0]


def _files() -> list:
    files = sorted(DATA.glob("*.mlir"))
    if UPSTREAM.is_dir():
        files += sorted(UPSTREAM.glob("*.mlir"))
    return files


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_incremental_verification_equals_full_verification(path):
    verify = pytest.importorskip("affine_lsp.verify")
    text = path.read_text()
    st = DocumentState("file:///t.mlir", text, 1)
    engine = Engine()
    rnd = random.Random(path.name)
    with st.locked() as doc:
        for step in range(4):
            got = sorted((n.span.start, n.message) for n in engine.verify(doc, st))
            want = sorted((n.span.start, n.message) for n in verify.verify_document(doc, strict=False))
            assert got == want, f"step {step}"
            # edit inside a random function (or append a comment)
            funcs = functions_of(doc)
            if funcs and step % 2 == 0:
                f = rnd.choice(funcs)
                doc.apply_edit(f.span.end - 1, f.span.end - 1, "\n  %zz_unused = arith.constant 7 : index\n")
            else:
                doc.apply_edit(len(doc.text), len(doc.text), "\n// edited\n")


def test_completion_of_ten_thousand_aliases_is_bounded_and_follows_the_prefix():
    from affine_lsp.server import completion

    names = [f"#map{k}" for k in range(10000)]
    got, incomplete = completion._bounded(names, "#map999")
    assert got == ["#map999", "#map9990", "#map9991", "#map9992", "#map9993", "#map9994", "#map9995", "#map9996", "#map9997", "#map9998", "#map9999"]
    assert incomplete  # the client asks again as the user types
    got, incomplete = completion._bounded(names, "#")
    assert len(got) == completion.MAX_ITEMS and incomplete
    small = names[:50]
    assert completion._bounded(small, "#map4") == (small, False)  # small tables: everything, the client filters
