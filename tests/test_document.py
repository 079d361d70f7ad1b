"""The chunked document model: recovery, sections, incremental re-parsing."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from affine_lsp.source.document import Document, LineIndex
from tests.corpus import UPSTREAM

GOOD = """func.func @good{n}(%A: memref<10xf32>) {{
  affine.for %i = 0 to 10 {{
    %v = affine.load %A[%i] : memref<10xf32>
    affine.store %v, %A[%i] : memref<10xf32>
  }}
  return
}}
"""

BROKEN = [
    "func.func @bad1(%A: memref<10xf32>) {\n  affine.for %i = 0 to 10 {\n    %v = affine.load %A[%i : memref<10xf32>\n  }\n  return\n}\n",
    "func.func @bad2() {\n  affine.for %i = 0 too 10 {\n  }\n  return\n}\n",
    "func.func @bad3() {\n  %x = arith.constant : index\n  return\n}\n",
]


def errors(doc: Document) -> list[tuple[int, str]]:
    return [(doc.lines.position(n.span.start)[0], n.message) for n in doc.notes() if n.severity == "error"]


def fingerprint(doc: Document) -> list[tuple[str, int, int, str]]:
    return sorted((n.severity, n.span.start, n.span.end, n.message) for n in doc.notes())


def test_three_broken_functions_give_three_errors_and_the_rest_survives() -> None:
    text = GOOD.format(n=0) + BROKEN[0] + GOOD.format(n=1) + BROKEN[1] + BROKEN[2] + GOOD.format(n=2)
    doc = Document(text)
    errs = errors(doc)
    assert len(errs) == 3, errs
    lines = [line for line, _ in errs]
    assert lines == [9, 21, 26]
    names = [op.attributes["sym_name"].value for op in doc.sections[0].functions()]  # type: ignore[attr-defined]
    assert names == ["good0", "good1", "good2"]


def test_split_sections_are_independent_and_positions_are_file_positions() -> None:
    text = "#m = affine_map<(d0) -> (d0 + 1)>\n" + GOOD.format(n=0) + "// -----\n" + "func.func @f(%i: index) {\n  %0 = affine.apply #m(%i)\n  return\n}\n"
    doc = Document(text)
    assert len(doc.sections) == 2
    errs = errors(doc)
    # #m is defined in the first section only.
    assert errs == [(10, "undefined symbol alias id 'm'")]


def test_modules_nest_functions_and_each_function_is_a_chunk() -> None:
    text = "module @outer attributes {foo = 1} {\n" + GOOD.format(n=0) + "  module {\n" + GOOD.format(n=1) + "  }\n}\n"
    doc = Document(text)
    assert [c.kind for c in doc.chunks] == ["module_open", "item", "module_open", "item", "module_close", "module_close"]
    assert errors(doc) == []
    top = list(doc.sections[0].top_level_ops())
    assert [op.name for op in top] == ["builtin.module"]
    inner = [op.name for op in top[0].regions[0].blocks[0].operations]
    assert inner == ["func.func", "builtin.module"]


def test_one_character_edit_reparses_one_chunk_and_matches_a_fresh_parse() -> None:
    text = "".join(GOOD.format(n=i) for i in range(50))
    doc = Document(text)
    doc.parse_all()
    pos = text.index("affine.load", text.index("@good20"))
    doc.apply_edit(pos, pos, "x")  # breaks the op name
    assert doc.reparsed == 1
    assert fingerprint(doc) == fingerprint(Document(doc.text))
    doc.apply_edit(pos, pos + 1, "")  # and back
    assert doc.reparsed == 1
    assert errors(doc) == []
    assert fingerprint(doc) == fingerprint(Document(doc.text))


def test_untouched_chunks_keep_their_parse_and_move() -> None:
    text = "".join(GOOD.format(n=i) for i in range(5))
    doc = Document(text)
    doc.parse_all()
    last = doc.chunks[-1]
    parse = last.parse
    old_start = last.start
    doc.apply_edit(0, 0, "// a comment line\n")
    assert doc.chunks[-1] is last and last.parse is parse
    assert last.start == old_start + len("// a comment line\n")
    fn = list(doc.sections[0].functions())[-1]
    assert doc.text[fn.span.start : fn.span.start + 9] == "func.func"


def test_deleting_a_closing_brace_does_not_swallow_the_file() -> None:
    text = "".join(GOOD.format(n=i) for i in range(4))
    doc = Document(text)
    close = text.index("  }\n", text.index("@good1"))
    doc.apply_edit(close, close + 4, "")
    errs = errors(doc)
    assert len(errs) == 1
    assert len(list(doc.sections[0].functions())) == 3
    assert fingerprint(doc) == fingerprint(Document(doc.text))


def test_line_index_uses_utf16_columns() -> None:
    li = LineIndex("a\n// é😀x\nb")
    off = li.text.index("x")
    assert li.position(off) == (1, 6)  # "// " + é (1 unit) + 😀 (2 units)
    assert li.offset(1, 6) == off
    assert li.offset(99, 0) == len(li.text)


_FRAGMENTS = ["}", "{", "\n", "affine.for %z = 0 to 4 {\n", "%q = arith.constant 1 : index\n", "// -----\n", "(", "#", "func.func @n() {\n", " ", "x"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_edits_keep_incremental_state_equal_to_a_fresh_parse(data: st.DataObject) -> None:
    base = (UPSTREAM / "loop-fusion.mlir").read_text()[:6000] if UPSTREAM.is_dir() else "".join(GOOD.format(n=i) for i in range(8))
    doc = Document(base)
    doc.parse_all()
    for _ in range(data.draw(st.integers(1, 6))):
        n = len(doc.text)
        start = data.draw(st.integers(0, n))
        end = data.draw(st.integers(start, min(n, start + 40)))
        new = data.draw(st.sampled_from(_FRAGMENTS) | st.text(alphabet="%{}()[]<>:=, \nabc019", max_size=12))
        doc.apply_edit(start, end, new)
        fresh = Document(doc.text)
        assert "".join(c.kind for c in doc.chunks) == "".join(c.kind for c in fresh.chunks)
        assert [(c.start, c.end) for c in doc.chunks] == [(c.start, c.end) for c in fresh.chunks]
        assert fingerprint(doc) == fingerprint(fresh)


def test_nesting_limit_counts_real_depth_not_bracket_totals() -> None:
    """`max_depth` of a chunk is a cheap bound; only real nesting beyond the
    limit is refused (with the real depth in the message)."""
    flat = 'func.func @f() {\n  %0 = "t.op"() {a = [' + ", ".join(["[1]"] * 300) + "]} : () -> ()\n  return\n}\n"
    assert [n.message for n in Document(flat).notes() if n.code == "too-deep"] == []
    deep = 'func.func @g() {\n  %0 = "t.op"() {a = ' + "[" * 250 + "1" + "]" * 250 + "} : () -> ()\n  return\n}\n"
    msgs = [n.message for n in Document(deep).notes() if n.code == "too-deep"]
    assert msgs == ["nesting too deep to analyse: 252 levels of brackets (the limit is 200)"]


def test_a_split_marker_glued_to_a_module_brace_is_not_a_split_after_an_edit() -> None:
    """Found by a fuzz run: `}// -----` (a module's closing brace with the
    marker glued to it) is no split marker for a fresh scan (mlir-opt splits
    on whole `// -----` lines), but an edit further down rescanned from the
    end of the `}` chunk, mid-line, and took the rest of the line for a
    marker: the incremental chunks had one more section than a fresh open."""
    text = "module {\n  func.func @a() {\n    return\n  }\n}// -----\nmodule {\n  func.func @b() {\n    return\n  }\n\n  func.func @c() {\n    return\n  }\n}\n"
    doc = Document(text)
    doc.parse_all()
    assert [c.kind for c in doc.chunks].count("split") == 0
    at = text.index("  }\n\n  func.func @c")
    doc.apply_edit(at, at + 4, "")  # unbalance @b: the rescan starts at the first module's `}`
    fresh = Document(doc.text)
    assert [(c.kind, c.start, c.end, c.section) for c in doc.chunks] == [(c.kind, c.start, c.end, c.section) for c in fresh.chunks]
    assert [c.kind for c in doc.chunks].count("split") == 0


def test_two_module_braces_on_one_line_close_two_modules() -> None:
    """`}}` closes both modules (the rest of a module's closing line is
    scanned like a line of its own, as a rescan after that chunk reads it);
    the function after them is at top level, in a fresh scan and after an
    edit inside the inner module."""
    text = "module {\n  module {\n    func.func @a() {\n      return\n    }\n  }}\nfunc.func @z() {\n  return\n}\n"
    doc = Document(text)
    assert [(c.kind, c.level) for c in doc.chunks] == [
        ("module_open", 0),
        ("module_open", 1),
        ("item", 2),
        ("module_close", 2),
        ("module_close", 1),
        ("item", 0),
    ]
    assert errors(doc) == []
    at = text.index("return")
    doc.apply_edit(at, at, "  ")
    fresh = Document(doc.text)
    assert [(c.kind, c.start, c.end, c.level) for c in doc.chunks] == [(c.kind, c.start, c.end, c.level) for c in fresh.chunks]
    assert [n.message for n in Document("module {\n}}\n").notes()] == ["unexpected '}' at top level"]


def _all_notes(doc: Document) -> list[tuple[str, int, int, str, str]]:
    from affine_lsp import diagnostics

    return [(n.severity, n.span.start, n.span.end, n.message, n.code) for n in diagnostics.collect(doc)]


def test_released_syntax_changes_no_diagnostic_and_edits_after_it_match_a_fresh_parse() -> None:
    """``affine-lsp check`` frees the syntax records once the IR is built
    (Document.release_syntax): the diagnostics of every corpus file stay the
    same, and a released document that is edited (its chunks parsed again)
    still agrees with a fresh parse."""
    texts = [p.read_text() for p in sorted(UPSTREAM.glob("*.mlir"))]
    texts.append(GOOD.format(n=0) + BROKEN[0] + "%top = arith.constant 1 : index\n" + GOOD.format(n=1) + BROKEN[2])
    for text in texts:
        released = Document(text)
        released.release_syntax()
        assert any(c.released for c in released.chunks) or not any(c.kind == "item" for c in released.chunks)
        assert _all_notes(released) == _all_notes(Document(text))
    text = texts[-1]
    doc = Document(text)
    doc.release_syntax()
    for old, new in (("0 to 10", "0 to 11"), ("%top = arith.constant 1", "%top2 = arith.constant 1"), ("%A[%i]", "%A[%i")):
        pos = doc.text.index(old)
        doc.apply_edit(pos, pos + len(old), new)
        assert _all_notes(doc) == _all_notes(Document(doc.text))


def test_a_top_level_value_rebuilt_for_an_alias_keeps_its_uses() -> None:
    """Fuzz finding: editing an alias rebuilt the item defining a top-level
    value (it names the alias) but kept the item using the value (it does
    not), which then used the old value object: the new one had no uses."""
    text = '#m = affine_map<(d0) -> (d0 + 3)>\n%x = "test.def"() {m = #m} : () -> index\n"test.use"(%x) : (index) -> ()\n'
    doc = Document(text)
    _ = doc.sections
    at = text.index("3)")
    doc.apply_edit(at, at + 1, "4")

    def uses(d: Document) -> list[tuple[str, int]]:
        return [(r.name, len(r.uses)) for s in d.sections for op in s.module.walk() for r in op.results]

    assert uses(doc) == uses(Document(doc.text)) == [("%x", 1)]


def test_released_functions_are_parsed_one_at_a_time() -> None:
    """A function defines no alias, module or top-level value: the section
    build parses it just before building its IR, so with the syntax released
    (``affine-lsp check``, the open's child process) one function's syntax
    records are alive at a time, and the diagnostics are those of a build
    that parses everything first."""
    from affine_lsp.source import document as document_mod
    from affine_lsp.syntax.nodes import OpSyn

    text = "#m = affine_map<(d0) -> (d0 + 1)>\n" + "".join(GOOD.format(n=k) for k in range(6)) + BROKEN[0] + "module {\n" + GOOD.format(n=9) + "}\n"
    doc = Document(text)
    doc._release = True
    alive: list[int] = []
    parse = document_mod.Chunk.ensure_parsed

    def counting(c: document_mod.Chunk) -> object:
        res = parse(c)
        alive.append(sum(1 for x in doc.chunks if x.parse is not None and isinstance(x.parse.item, OpSyn) and x.parse.item.name == "func.func"))
        return res

    document_mod.Chunk.ensure_parsed = counting  # type: ignore[method-assign]
    try:
        _ = doc.sections
    finally:
        document_mod.Chunk.ensure_parsed = parse  # type: ignore[method-assign]
    assert len(alive) >= 8 and max(alive) == 1
    assert sum(1 for c in doc.chunks if c.released) == 7
    assert _all_notes(doc) == _all_notes(Document(text))


def test_an_edit_after_release_parses_only_the_edited_function() -> None:
    """The server keeps no function's syntax records (``Document(release=True)``):
    an edit in one function parses that function again, and no other (their
    IR is reused without their records); the diagnostics are a fresh
    parse's; and ``item_syntax`` gives a released function's records as a
    document that keeps them has them (what go-to-definition, references,
    hover and semantic tokens read)."""
    from affine_lsp.ide.occurrences import chunk_occurrences
    from affine_lsp.source import document as document_mod

    text = "#m = affine_map<(d0) -> (d0 + 1)>\n" + "".join(GOOD.format(n=k) for k in range(6)) + BROKEN[0]
    doc = Document(text, release=True)
    _ = doc.sections
    funcs = [c for c in doc.chunks if c.kind == "item" and c.text.startswith("func.func @good")]
    assert len(funcs) == 6 and all(c.released and c.parse is not None and c.parse.item is None for c in funcs)
    parsed: list[str] = []
    parse = document_mod.parse_chunk

    def counting(text: str, anchor: object) -> object:
        parsed.append(text.split("(", 1)[0])
        return parse(text, anchor)  # type: ignore[arg-type]

    document_mod.parse_chunk = counting  # type: ignore[assignment]
    try:
        at = doc.text.index("0 to 10", doc.text.index("@good3"))
        doc.apply_edit(at, at + len("0 to 10"), "0 to 11")
        _ = doc.sections
    finally:
        document_mod.parse_chunk = parse
    assert parsed == ["func.func @good3"]
    assert _all_notes(doc) == _all_notes(Document(doc.text))
    kept = Document(doc.text)

    def occs(d: Document) -> list[list[tuple[str, int, int, str]]]:
        _ = d.sections
        return [[(o.kind, o.span.start, o.span.end, o.name) for o in chunk_occurrences(c)] for c in d.chunks]

    assert any(c.released for c in doc.chunks) and not any(c.released for c in kept.chunks)
    assert occs(doc) == occs(kept) and sum(map(len, occs(doc))) > 50
