"""Unit tests of the server's building blocks (no subprocess)."""

from __future__ import annotations

import random

import pytest
from lsprotocol import types
from pygls.workspace import TextDocument

from affine_lsp.server.analysis_engine import Engine, functions_of
from affine_lsp.server.semantic_tokens import _paint, encode
from affine_lsp.server.settings import Settings
from affine_lsp.server.state import DocumentState
from affine_lsp.source.document import Document, LineIndex
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
    from affine_lsp.ide import completion_candidates as completion

    names = [f"#map{k}" for k in range(10000)]
    got, incomplete = completion._bounded(names, "#map999")
    assert got == ["#map999", "#map9990", "#map9991", "#map9992", "#map9993", "#map9994", "#map9995", "#map9996", "#map9997", "#map9998", "#map9999"]
    assert incomplete  # the client asks again as the user types
    got, incomplete = completion._bounded(names, "#")
    assert len(got) == completion.MAX_ITEMS and incomplete
    small = names[:50]
    assert completion._bounded(small, "#map4") == (small, False)  # small tables: everything, the client filters


def _all_notes(doc: Document, notes: list) -> list[tuple]:
    """Every parse, IR and verifier note, comparable across documents."""
    out = []
    for n in list(doc.notes()) + list(notes):
        rel = tuple((r[0].start, r[0].end, r[1]) for r in (n.data or {}).get("related", []) if isinstance(r, tuple | list) and len(r) > 1)
        out.append((n.span.start, n.span.end, n.severity, n.message, rel))
    return sorted(out)


def _item_chunks(doc: Document) -> list:
    return [c for c in doc.chunks if c.kind == "item" and c.parse is not None and c.parse.item is not None]


def _structural_edit(rnd: random.Random, doc: Document, step: int) -> tuple[str, int, int, str]:
    """A random edit of the kinds that change a section's items or symbols:
    (kind, start, end, new text)."""
    text = doc.text
    items = _item_chunks(doc)
    funcs = [c for c in items if c.text.lstrip().startswith("func.func")]
    aliases = [c for c in items if c.text.lstrip().startswith(("#", "!"))]
    kind = rnd.choice(["inside", "add", "add_bad", "remove", "break", "rename", "call", "alias_edit", "alias_add", "alias_remove", "append"])
    if kind == "inside" and funcs:
        c = rnd.choice(funcs)
        return kind, c.end - 1, c.end - 1, f"\n  %zz_unused{step} = arith.constant 7 : index\n"
    if kind in ("add", "add_bad"):
        at = rnd.choice(items).end if items else len(text)
        body = "  return %a : index" if kind == "add" else "  %c = arith.constant 1 : i32\n  return %c : i32"
        return kind, at, at, f"\nfunc.func @added{step}(%a: index) -> index {{\n{body}\n}}\n"
    if kind == "remove" and items:
        c = rnd.choice(items)
        return kind, c.start, c.end, ""
    if kind == "break" and funcs:
        c = rnd.choice(funcs)
        brace = text.find("{", c.start, c.end)
        if brace >= 0 and rnd.random() < 0.5:
            return kind, brace + 1, brace + 1, "\n  %broken = = =\n"
        return kind, c.end - 1, c.end, ""  # drop the closing brace: it swallows what follows
    if kind == "rename" and funcs:
        c = rnd.choice(funcs)
        at = text.find("@", c.start, c.end)
        if at >= 0:
            return kind, at + 1, at + 1, f"r{step}_"
    if kind == "call" and len(funcs) >= 2:
        caller, callee = rnd.sample(funcs, 2)
        at = text.find("@", callee.start, callee.end)
        brace = text.find("{", caller.start, caller.end)
        if at >= 0 and brace >= 0:
            name = text[at:].split("(", 1)[0].split()[0]
            return kind, brace + 1, brace + 1, f"\n  func.call {name}() : () -> ()\n"
    if kind == "alias_edit" and aliases:
        c = rnd.choice(aliases)
        at = c.text.find("d0")
        if at >= 0:
            return kind, c.start + at, c.start + at + 2, "d0 + 1"
    if kind == "alias_add":
        at = aliases[0].start if aliases else 0
        return kind, at, at, f"#zz_map{step} = affine_map<(d0) -> (d0 * 2)>\n"
    if kind == "alias_remove" and aliases:
        c = rnd.choice(aliases)
        return kind, c.start, c.end, ""
    return "append", len(text), len(text), "\n// edited\n"


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_incremental_diagnostics_equal_a_fresh_open_after_structural_edits(path):
    """Parse, IR and verifier notes after edits that add, remove, break and
    rename functions, add calls between them and change aliases equal those
    of a fresh open of the same text; edits are undone sometimes (a broken
    item repaired). The verification stays incremental: an edit verifies at
    most the items it built anew."""
    verify = pytest.importorskip("affine_lsp.verify")
    text = path.read_text()
    st = DocumentState("file:///t.mlir", text, 1)
    engine = Engine()
    rnd = random.Random("structural-" + path.name)
    undo: list[tuple[int, int, str]] = []
    with st.locked() as doc:
        got = _all_notes(doc, engine.verify(doc, st))
        for step in range(24):
            before = {id(c.ir_op) for c in doc.chunks if c.ir_op is not None}
            # items whose messages name a line are verified again when they move
            line_bound = {k for k, v in st.verify_cache.items() if any(r[2] for r in v[2].values())}
            if undo and rnd.random() < 0.25:
                kind, (s, e, new) = "undo", undo.pop()
            else:
                kind, s, e, new = _structural_edit(rnd, doc, step)
                undo.append((s, s + len(new), doc.text[s:e]))
            doc.apply_edit(s, e, new)
            n0 = engine.verified_items
            got = _all_notes(doc, engine.verify(doc, st))
            fresh = Document(doc.text)
            want = _all_notes(fresh, verify.verify_document(fresh, strict=False))
            assert got == want, f"step {step} ({kind} {s}-{e} {new!r})"
            built = sum(1 for c in doc.chunks if c.kind == "item" and c.ir_op is not None and c.ir_op.regions and id(c.ir_op) not in before)
            moved = sum(1 for c in doc.chunks if c.ir_op is not None and id(c.ir_op) in line_bound)
            assert engine.verified_items - n0 <= built + moved, f"step {step} ({kind}): verified {engine.verified_items - n0} items, {built} built anew"


def test_verification_after_an_edit_in_one_function_verifies_only_that_function():
    """Edits in one function, adding, removing, renaming or breaking one,
    editing an alias do not verify the rest of the section again (only the
    alias' users)."""
    funcs = "\n".join(
        f"func.func @f{i}(%m: memref<8xf32>) {{\n  affine.for %i = 0 to 8 {{\n    %v = affine.load %m[%i] : memref<8xf32>\n  }}\n  return\n}}"
        for i in range(30)
    )
    user = "func.func @user(%n: index) {\n  %x = affine.apply #id(%n)\n  return\n}\n"
    st = DocumentState("file:///t.mlir", "#id = affine_map<(d0) -> (d0)>\n#other = affine_map<(d0) -> (d0)>\n" + funcs + "\n" + user, 1)
    engine = Engine()
    with st.locked() as doc:
        engine.verify(doc, st)
        assert engine.verified_items == 31

        def edit(old: str, new: str) -> int:
            at = doc.text.index(old)
            doc.apply_edit(at, at + len(old), new)
            n = engine.verified_items
            notes = engine.verify(doc, st)
            fresh = Document(doc.text)
            assert _all_notes(doc, notes) == _all_notes(fresh, engine.verify(fresh))
            return engine.verified_items - n

        assert edit("@f5(%m: memref<8xf32>) {\n  affine.for %i = 0 to 8", "@f5(%m: memref<8xf32>) {\n  affine.for %i = 0 to 7") == 1
        assert edit("func.func @f7(", "func.func @g7(") == 1  # renamed: a new op
        assert edit("func.func @f9(%m: memref<8xf32>) {\n", "func.func @f9(%m: memref<8xf32>) {\n  %x = = \n") == 0  # broken: skipped
        assert edit("func.func @f11(", "func.func @new() {\n  return\n}\nfunc.func @f11(") == 1  # added
        assert edit("func.func @f12(%m: memref<8xf32>) {\n  affine.for %i = 0 to 8 {\n    %v = affine.load %m[%i] : memref<8xf32>\n  }\n  return\n}\n", "") == 0
        assert edit("  %x = = \n", "") == 1  # repaired
        assert edit("#id = affine_map<(d0) -> (d0)>", "#id = affine_map<(d0) -> (d0 + 1)>") == 1  # its one user
        assert edit("#other = affine_map<(d0) -> (d0)>\n", "") == 0  # used by nobody


def test_every_server_setting_is_contributed_by_the_extension() -> None:
    """The VS Code extension lists every setting the server reads (with its
    default), so users find them in the Settings editor."""
    import dataclasses
    import json
    from pathlib import Path

    from affine_lsp.server.settings import Settings

    pkg = json.loads((Path(__file__).resolve().parents[1] / "vscode-extension" / "package.json").read_text())
    props = pkg["contributes"]["configuration"]
    props = props if isinstance(props, dict) else {k: v for part in props for k, v in part.get("properties", {}).items()}
    props = props.get("properties", props)
    defaults = Settings()
    for path, field, _typ, _limits in Settings._KEYS:  # type: ignore[attr-defined]
        key = "affineLsp." + ".".join(path)
        assert key in props, key
        want = getattr(defaults, field)
        if isinstance(want, tuple):
            want = list(want)
        got = props[key].get("default")
        assert got == want or (isinstance(want, list) and got in (want, ",".join(map(str, want)), "x".join(map(str, want)))), (key, got, want)
    assert {f.name for f in dataclasses.fields(Settings)} >= {f for _p, f, _t, _l in Settings._KEYS}  # type: ignore[attr-defined]
