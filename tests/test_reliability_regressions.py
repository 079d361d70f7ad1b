"""The bugs the edit-stream fuzzer found, one test each (minimised from the
fuzzer's reproductions), in process where the bug is in the document model
and through the real server where it is in the server."""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp.server.state import apply_change
from affine_lsp.source.document import Document, LineIndex
from affine_lsp.syntax.chunks import scan_chunks
from tests.fuzzing import DAMAGED, ErrorOracle, _norm, apply_text_edits, deep_nest, lsp_range, to_offset, to_position
from tests.test_reliability_hostile import _accesses
from tests.test_server_support import change, config, diagnostics_for, hover_text, no_server_errors, open_doc, pos, start


def _chunks(doc: Document) -> list[tuple[int, int, str, int, int]]:
    return [(c.start, c.end, c.kind, c.level, c.section) for c in doc.chunks]


def _notes(doc: Document) -> list[tuple[str, str, int, int]]:
    return sorted((n.severity, n.message, n.span.start, n.span.end) for n in doc.notes())


def _edit_matches_fresh(text: str, start: int, end: int, new: str) -> Document:
    doc = Document(text)
    _ = doc.sections
    doc.apply_edit(start, end, new)
    fresh = Document(doc.text)
    assert _chunks(doc) == _chunks(fresh)
    assert _notes(doc) == _notes(fresh)
    return doc


# ---------------------------------------------------------------- document model
def test_split_marker_typed_before_a_reused_chunk_renumbers_the_sections() -> None:
    """The chunk after an inserted ``// -----`` keeps its parse (same text)
    and must move to the new section with everything after it (the reuse
    relabelled it before the shift of the sections after it was computed)."""
    text = "// header\n#m = affine_map<(d0) -> (d0)>\n\nfunc.func @f() {\n  return\n}\n// -----\nfunc.func @g() {\n  return\n}\n"
    doc = _edit_matches_fresh(text, 10, 10, "// -----\n")
    assert [c.section for c in doc.chunks] == [1, 1, 1, 2, 2]


def test_module_header_on_several_lines_does_not_overlap_the_next_item() -> None:
    text = "module attributes {fz.attr = 1 : i32}\n  affine.for %i = 0 to 8 {\n  }\n"
    spans = scan_chunks(text)
    assert all(a.end <= b.start for a, b in itertools.pairwise(spans)), spans
    multi = "module attributes {\n  a = 1 : i32\n} {\n  func.func @f() {\n    return\n  }\n}\n"
    assert [c.kind for c in scan_chunks(multi)] == ["module_open", "item", "module_close"]


def test_whether_a_line_opens_a_module_never_depends_on_later_items() -> None:
    """``module`` then ops: not a module header, whatever ``{`` comes later
    (the header's lookahead made the chunks depend on distant text, so an
    incremental edit and a fresh parse disagreed)."""
    text = "module \n    %alloc = memref.alloc() : memref<16xf32>\n      affine.store %2, %alloc[%arg1 + 8] : memref<16xf32>\n"
    at = text.index("      affine.store")
    _edit_matches_fresh(text, at, at, "affine.for %fz = 0 to 8 {\n")
    assert scan_chunks("module\n{\n}\n")[0].kind == "module_open"


def test_an_item_moved_out_of_its_module_is_rebuilt() -> None:
    """An unbalanced ``]`` typed in a loop closes the module early: the item
    after it is now outside the module and must not see its values."""
    text = (
        "module {\n    %alloc = memref.alloc() : memref<16xf32>\n    affine.for %i = 0 to 8 {\n"
        "        %v = affine.load %alloc[%i] : memref<16xf32>\n    }\n"
        "    %0 = affine.load %alloc[%c, %c] : memref<16xf32>\n}\n"
    )
    at = text.index("%alloc[%i]") + len("%alloc")
    doc = _edit_matches_fresh(text, at, at + 1, "")
    assert any(m == "use of undeclared SSA value name" and doc.text[s:e] == "%alloc" for _sev, m, s, e in _notes(doc))


def test_a_type_learned_from_another_item_is_learned_again() -> None:
    """An untyped result of an unknown op takes its type from its first typed
    use; when that use (another item) changes type, the value must not keep
    the old one (a false "expects different type than prior uses")."""
    text = '%x = test.foo\n"test.use"(%x) : (i32) -> ()\nfunc.func @f() {\n  return\n}\n'
    at = text.index("i32")
    doc = _edit_matches_fresh(text, at, at + 3, "f32")
    assert not any("expects different type" in m for _s, m, _a, _b in _notes(doc))


def test_the_users_of_a_top_level_value_an_edit_took_away_are_built_again() -> None:
    """Top-level values in a chain (ops between a ``// -----`` typed inside
    a function and its end are such items): deleting ``%5 =``, or the whole
    line, must build again the item using ``%5`` and, in turn, those using
    the values that item defines anew; one kept the old value object (a
    false "operand #0 does not dominate this use" where a fresh open has none;
    found by the 20-minute fuzz)."""
    from affine_lsp.verify import verify_document

    text = '%0 = "test.def"() : () -> f32\n%5 = arith.addf %0, %0 : f32\n%6 = arith.addf %5, %0 : f32\n%7 = arith.addf %6, %0 : f32\n%8 = arith.addf %7, %0 : f32\n'
    for old in ("%5 = ", "%5 = arith.addf %0, %0 : f32\n"):
        at = text.index(old)
        doc = _edit_matches_fresh(text, at, at + len(old), "")
        fresh = Document(doc.text)
        got = sorted((n.message, n.span.start) for n in verify_document(doc, strict=False))
        assert got == sorted((n.message, n.span.start) for n in verify_document(fresh, strict=False))
        assert not any("dominate" in m for m, _ in got)


def test_uses_of_a_top_level_value_follow_edits_of_its_users() -> None:
    """A reused item's top-level value kept the uses registered by items
    since edited away (a hover said "2 uses" where a fresh parse has none)."""
    text = '%v = "test.def"() : () -> f32\n"test.use"(%v) : (f32) -> ()\n"test.use"(%v) : (f32) -> ()\n'
    doc = Document(text)
    _ = doc.sections
    at = text.index('"test.use"')
    doc.apply_edit(at, len(text), "")
    (v,) = doc.sections[0].module.regions[0].blocks[0].operations[0].results
    assert v.uses == []


def test_an_item_in_a_module_is_rebuilt_when_a_value_around_the_module_goes() -> None:
    """A use in a nested module of a value defined around it is an error
    that says so ("defined outside the isolated region"): once that value is
    deleted, the reused item kept saying it (its key named only the values of
    its own module)."""
    text = "%c = arith.constant 1.0 : f32\nmodule {\n  %9 = arith.mulf %c, %c : f32\n}\n"
    before = Document(text)
    assert any("outside the isolated region" in m for _s, m, _a, _b in _notes(before))
    doc = _edit_matches_fresh(text, 0, text.index("module"), "")
    assert any(m == "use of undeclared SSA value name" for _s, m, _a, _b in _notes(doc))


def _operand_def_lines(doc: Document, needle: str) -> list[int]:
    """The line of the definition of each operand of the op written at ``needle``."""
    at = doc.text.index(needle)
    return [doc.lines.line_of(v.span.start) for s in doc.sections for op in s.module.walk() if op.name_span.start == at for v in op.operands]


def test_a_reused_redefinition_does_not_replace_the_first_definition() -> None:
    """A top-level value defined twice (the second is an error) names the
    first definition; a rebuilt item after a reused redefinition bound to the
    second (a hover named the wrong line)."""
    text = "%4 = arith.constant 1.0 : f32\n%4 = arith.constant 2.0 : f32\naffine.for %i = 0 to 4 {\n  %8 = arith.addf %4, %4 : f32\n}\n"
    at = text.index("to 4") + 3
    doc = _edit_matches_fresh(text, at, at + 1, "5")
    assert _operand_def_lines(doc, "arith.addf") == _operand_def_lines(Document(doc.text), "arith.addf") == [0, 0]


def test_a_lone_carriage_return_ends_a_line() -> None:
    """The LSP ends lines at "\\n", "\\r\\n" and a lone "\\r" (random bytes
    pasted into a line bring one): positions after it are on the next line.
    The server counted "\\n" only, so every edit after a pasted "\\r" landed
    on another line than the client meant and the incremental document
    drifted away from the client's text (the fuzzer's cases (a)-(c))."""
    text = "ab\rcd\r\nef\ng\U0001f600h\r"
    lines = LineIndex(text)
    assert lines.starts == [0, 3, 7, 10, 14]
    assert [lines.position(i) for i in (3, 4, 7, 12, 13)] == [(1, 0), (1, 1), (2, 0), (3, 3), (3, 4)]
    # a column past the end of a line means its end, before "\\r\\n" (not between)
    assert lines.offset(1, 99) == 5 and lines.offset(0, 99) == 2 and lines.offset(3, 2) == 12
    for off in range(len(text) + 1):
        if text[off - 1 : off + 1] != "\r\n":
            p = to_position(text, off)
            assert lines.position(off) == (p.line, p.character)
            assert lines.offset(p.line, p.character) == off == to_offset(text, p)
    # an edit at an LSP position after the "\\r" goes where the client put it
    doc = Document('func.func @f() {\n  %x = "t.a"() : () -> i32 \x8e\r junk\n  return\n}\n')
    at = doc.text.index("junk")
    apply_change(doc, types.TextDocumentContentChangePartial(range=lsp_range(doc.text, at, at + 4), text="}"))
    assert doc.text == 'func.func @f() {\n  %x = "t.a"() : () -> i32 \x8e\r }\n  return\n}\n'


def test_line_index_follows_edits_that_make_and_break_crlf_pairs() -> None:
    """An edit next to a "\\r" may join it with a "\\n" into one line break
    or split such a pair: the incrementally updated line starts equal a
    fresh index of the text."""
    rnd = random.Random(14)
    alphabet = "ab\r\n\U0001f600 "
    for _ in range(20_000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 12)))
        s = rnd.randint(0, len(text))
        e = rnd.randint(s, len(text))
        new = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 4)))
        after = text[:s] + new + text[e:]
        assert LineIndex(text).edited(s, e, new, after).starts == LineIndex(after).starts, (text, s, e, new)


# ---------------------------------------------------------------- through the server
pytestmark_server = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await start(lsp_client, init_options={"diagnostics": {"debounceMs": 50}})
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


def ident(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


REPEATED = (
    "func.func @f(%A: memref<9x9xf32>, %N: index) {\n  %idx1 = arith.constant 1 : index\n  affine.for %i = 0 to 9 {\n"
    "    %v = affine.load %A[%idx1, %idx1] : memref<9x9xf32>\n    affine.store %v, %A[%i, %i] : memref<9x9xf32>\n"
    "    %w = affine.load %A[symbol(%N), symbol(%N) + %i] : memref<9x9xf32>\n  }\n  return\n}\n"
)


@pytestmark_server
@pytest.mark.parametrize(
    ("needle", "old", "count", "second"),
    [("%idx1 = arith", "%idx1", 3, "%idx1] :"), ("%i = 0", "%i", 4, "%i] : memref<9x9xf32>\n    %w"), ("%N: index", "%N", 3, "%N) + %i")],
)
async def test_rename_an_operand_written_twice_in_one_subscript(client: LanguageClient, needle: str, old: str, count: int, second: str) -> None:
    """``%A[%idx1, %idx1]`` is one map operand written twice: the rename must
    change both (it changed the first only, leaving a use of an undefined
    value), and references list both."""
    uri = f"file:///regressions/rename-{old[1:]}.mlir"
    open_doc(client, uri, REPEATED)
    await diagnostics_for(client, uri, 1)
    p = pos(REPEATED, needle)
    refs = await client.text_document_references_async(
        types.ReferenceParams(text_document=ident(uri), position=p, context=types.ReferenceContext(include_declaration=True))
    )
    assert len(refs) == count
    edit = await client.text_document_rename_async(types.RenameParams(text_document=ident(uri), position=p, new_name="%renamed"))
    new = apply_text_edits(REPEATED, edit.changes[uri])
    assert new.count("%renamed") == count
    assert ErrorOracle().new_errors(REPEATED, new, rename=(old, "%renamed")) == []
    # the second occurrence hovers as the value, not as a map dimension
    h = await client.text_document_hover_async(types.HoverParams(text_document=ident(uri), position=pos(REPEATED, second)))
    assert old in hover_text(h)


@pytestmark_server
async def test_verifier_notes_naming_lines_follow_edits_above(client: LanguageClient) -> None:
    """A verifier note is reused while its function is unchanged; one whose
    text names lines ("defined by arith.addi at line 3") must be recomputed
    when the function moves to other lines."""
    uri = "file:///regressions/lines.mlir"
    text = (
        "func.func @f(%A: memref<100xf32>) {\n  affine.for %x = 0 to 7 {\n    %y = arith.addi %x, %x : index\n"
        "    affine.for %i = 0 to %y {\n    }\n  }\n  return\n}\n"
    )
    open_doc(client, uri, text)
    d1 = await diagnostics_for(client, uri, 1, pred=lambda d: bool(d))
    assert d1[0].related_information[0].message == "%y is defined by arith.addi at line 3, not at the top level of func.func @f at line 1"
    change(client, uri, 2, types.Position(line=0, character=0), types.Position(line=0, character=0), "// one\n// two\n")
    d2 = await diagnostics_for(client, uri, 2, pred=lambda d: bool(d))
    assert d2[0].range.start.line == d1[0].range.start.line + 2
    assert d2[0].related_information[0].message == "%y is defined by arith.addi at line 5, not at the top level of func.func @f at line 3"


@pytestmark_server
async def test_sections_after_a_typed_split_marker(client: LanguageClient) -> None:
    uri = "file:///regressions/split.mlir"
    text = "// header\n#m = affine_map<(d0) -> (d0)>\n\nfunc.func @f() {\n  return\n}\n// -----\nfunc.func @g() {\n  return\n}\n"
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, 1)
    change(client, uri, 2, types.Position(line=1, character=0), types.Position(line=1, character=0), "// -----\n")
    await diagnostics_for(client, uri, 2)
    syms = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=ident(uri)))
    fresh = "file:///regressions/split-fresh.mlir"
    open_doc(client, fresh, text[:10] + "// -----\n" + text[10:])
    await diagnostics_for(client, fresh, 1)
    expected = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=ident(fresh)))
    assert syms == expected
    assert [s.name for s in syms] == ["section 1", "section 2", "section 3"]


@pytestmark_server
async def test_inlay_hints_and_commands_do_not_wait_for_a_slow_analysis(client: LanguageClient) -> None:
    """Inlay hints computed every loop summary in the request (seconds on a
    function with hundreds of accesses) and ``showDependences`` waited up to
    60 s for the dataflow worker: both now answer within 2 s."""
    uri = "file:///regressions/slow.mlir"
    text = _accesses(240)
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, 1)
    n = text.count("\n")
    whole = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=n, character=0))
    for _ in range(3):
        t0 = time.monotonic()
        await client.text_document_inlay_hint_async(types.InlayHintParams(text_document=ident(uri), range=whole))
        assert time.monotonic() - t0 < 2.0
        p = pos(text, "affine.for %j")
        t0 = time.monotonic()
        md = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="affine-lsp.showDependences", arguments=[{"uri": uri, "position": {"line": p.line, "character": p.character}}])
        )
        assert time.monotonic() - t0 < 2.0
        assert md.startswith("### `affine.for %j`")
        await asyncio.sleep(0.2)


def test_rename_in_a_broken_item_may_unmask_its_other_errors() -> None:
    """Found by a 20-minute fuzz run: renaming a value in an item that had a
    redefinition error removes it, and the verifier then reaches the item
    and reports what was wrong with it all along. That is not the rename's
    error; a rename that breaks a clean item still is."""
    broken = "func.func @f(%a: index) {\n  %a = arith.constant 0 : index\n  affine.for %i = 0 to 10 {\n    func.return\n  }\n  return\n}\n"
    renamed = broken.replace("@f(%a:", "@f(%q:")
    oracle = ErrorOracle()
    assert [m for m, _ in oracle.keys(broken)] == ["redefinition of SSA value '%a'"]
    assert [m for m, _ in oracle.keys(renamed)] == ["'func.return' op expects parent op 'func.func'"]
    assert oracle.new_errors(broken, renamed, rename=("%a", "%q")) == []
    clean = "func.func @g(%a: index) {\n  %b = arith.addi %a, %a : index\n  return\n}\n"
    assert oracle.new_errors(clean, clean.replace("%b =", "%a ="), rename=("%b", "%a")) == [
        ("redefinition of SSA value '%b'", "%b = arith.addi %b, %b : index")
    ]


def test_rewriting_the_op_a_message_quotes_is_not_a_new_error() -> None:
    """Found by a fuzz run: in a function without a terminator, whose last op
    is a loop, "Vectorize loop" rewrote that loop and so respelled the
    pre-existing "block with no terminator, has <op>" (MLIR quotes the op).
    Same error, not a new one; a rewrite that removes the terminator still
    counts."""
    before = "func.func @f(%M: index) {\n  affine.for %i = 0 to %M {\n  }\n}\n"
    after = before.replace("to %M {", "to %M step 4 {")
    oracle = ErrorOracle()
    assert [m for m, _ in oracle.keys(before)] == ["block with no terminator, has affine.for %i = 0 to %M {"]
    assert [m for m, _ in oracle.keys(after)] == ["block with no terminator, has affine.for %i = 0 to %M step 4 {"]
    assert oracle.new_errors(before, after) == []
    whole = before.replace("  }\n}\n", "  }\n  return\n}\n")
    assert list(oracle.keys(whole)) == []
    assert oracle.new_errors(whole, after) == [("block with no terminator, has affine.for %i = 0 to %M step 4 {", "affine.for %i = 0 to %M step 4 {")]


# A parse error in another function: mlir-opt (and the strict verifier) then
# reports nothing else in the section, the server still verifies @f.
_BROKEN_NEIGHBOUR = "func.func @broken(%A: memref<4xf32>) {\n  %v = affine.load %A[ : memref<4xf32>\n  return\n}\n"


def _offered(text: str, needle: str) -> dict[str, str]:
    """The loop transforms offered on the loop header at ``needle``: enabled
    title -> edited text; disabled title -> the reason."""
    from affine_lsp.server.transform_actions import loops_at, transforms_for
    from affine_lsp.transforms.edits import apply_edits

    doc = Document(text)
    at = text.index(needle) + 3
    return {t.title: t.data["disabled"] if t.data.get("disabled") else apply_edits(text, t.edits) for t in transforms_for(doc, loops_at(doc, at, at), 8)}


def test_a_misplaced_terminator_is_never_copied_or_hoisted() -> None:
    """Found by a fuzz run (seed 67): in a loop body holding a legacy
    ``affine.terminator`` (an affine.yield) mid-block, "Fully unroll loop"
    copied it into the function body four times and "Hoist" moved it there
    (mlir-opt: "'affine.yield' op must be the last operation in the parent
    block", then "only terminates affine.if/for/parallel regions"). The
    safety net missed it because another function of the section did not
    parse and it verified strictly, as mlir-opt does: nothing at all. Now
    unrolling is refused, hoisting leaves the terminator, and the safety
    net sees what the server shows."""
    body = (
        "func.func @f(%A: memref<4xf32>, %x: f32) {\n  affine.for %j = 0 to 4 {\n    affine.terminator\n"
        "    %c = arith.constant 0 : index\n    affine.store %x, %A[%j] : memref<4xf32>\n  }\n  return\n}\n"
    )
    oracle = ErrorOracle()
    for text in (body, _BROKEN_NEIGHBOUR + body):
        got = _offered(text, "affine.for %j")
        assert got["Unroll loop by 4: the loop body has a misplaced terminator ('affine.yield')"]
        assert got["Fully unroll loop: the loop body has a misplaced terminator ('affine.yield')"]
        hoisted = got["Hoist 1 loop-invariant op out of the loop"]
        assert "  %c = arith.constant 0 : index\n  affine.for %j = 0 to 4 {\n    affine.terminator\n    affine.store" in hoisted
        for title, after in got.items():
            if after.startswith("func.func"):
                assert oracle.new_errors(text, after) == [], title


def test_the_safety_net_sees_verifier_errors_beside_a_parse_error() -> None:
    """``checked()`` withholds an edit that breaks a function even when
    another function of the section does not parse."""
    from affine_lsp.transforms.edits import TextEdit, UnsafeTransform, checked

    text = _BROKEN_NEIGHBOUR + "func.func @f(%x: index) {\n  %y = arith.addi %x, %x : index\n  return\n}\n"
    at = text.index("return\n}\n", len(_BROKEN_NEIGHBOUR))
    with pytest.raises(UnsafeTransform, match="block with no terminator"):
        checked(text, [TextEdit(at, at + len("return\n"), "")])


def test_a_quick_fix_may_unmask_what_its_item_lacked_a_transform_may_not() -> None:
    """Found by a fuzz run (seed 67, the hostile deep-nest document): the
    lower bound of the last loop of a function lacking ``return`` needs the
    'max' prefix. mlir-opt stops there; once the prefix is added (the quick
    fix) it reports "block with no terminator": an error the function had
    all along, not the fix's. Vectorize, Parallelize and Tile also rewrote
    the header and reported that error as theirs: they are withheld (the
    safety net missed it beside a parse error, as above)."""
    fn = (
        "func.func @missing_max(%A: memref<8xf32>, %N: index) {\n  affine.for %i = affine_map<(d0) -> (d0, 0)>(%N) to 8 {\n"
        "    %v = affine.load %A[%i] : memref<8xf32>\n  }\n}\n"
    )
    header = "affine.for %i = max affine_map<(d0) -> (d0, 0)>(%N) to 8 {"
    unmasked = [(f"block with no terminator, has {header}", header)]
    oracle = ErrorOracle()
    for text in (fn, _BROKEN_NEIGHBOUR + fn):
        fixed = text.replace("= affine_map", "= max affine_map")
        assert oracle.new_errors(text, fixed) == unmasked
        assert oracle.new_errors(text, fixed, fix=True) == []
        got = _offered(text, "affine.for %i")
        for title in ("Vectorize loop", "Parallelize loop", "Tile loop nest (32)"):
            assert "block with no terminator" in got[next(t for t in got if t.startswith(title))], title
        assert all(not after.startswith("func.func") for after in got.values()), [t for t, a in got.items() if a.startswith("func.func")]
    # A quick fix that breaks an item without a parse error still counts.
    whole = fn.replace("  }\n}\n", "  }\n  return\n}\n").replace("= affine_map", "= max affine_map")
    assert oracle.keys(whole) == ()
    assert oracle.new_errors(whole, whole.replace("  return\n", ""), fix=True) == unmasked


# ---------------------------------------------------------------- incremental == fresh open (through the server)
async def _features(client: LanguageClient, uri: str) -> tuple[Any, ...]:
    i = ident(uri)
    return (
        await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=i)),
        await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=i)),
        (await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=i))).data,
    )


async def _edit_then_compare(client: LanguageClient, uri: str, text: str, edits: list[tuple[int, int, str]]) -> tuple[str, list[types.Diagnostic]]:
    """Open ``text``, apply ``edits`` (str offsets of the text at the time,
    sent as LSP ranges the way a client following the specification counts
    them), then open the result fresh under another URI: diagnostics,
    folding ranges, symbols and semantic tokens must be the same."""
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, 1)
    for version, (s, e, new) in enumerate(edits, start=2):
        change(client, uri, version, *_range(text, s, e), new)
        text = text[:s] + new + text[e:]
    version = len(edits) + 1
    fresh = uri.replace(".mlir", "-fresh.mlir")
    open_doc(client, fresh, text, version)
    a = await diagnostics_for(client, uri, version)
    b = await diagnostics_for(client, fresh, version)

    def same() -> bool:  # (related information names each document's own URI)
        return _norm(a, uri) == _norm(b, fresh)

    end = time.monotonic() + 10
    while not same() and time.monotonic() < end:  # the analysis phase may still add notes to one of them
        await asyncio.sleep(0.2)
        a = await diagnostics_for(client, uri, version)
        b = await diagnostics_for(client, fresh, version)
    assert same(), (a, b)
    assert await _features(client, uri) == await _features(client, fresh)
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=ident(fresh)))
    return text, a


def _range(text: str, s: int, e: int) -> tuple[types.Position, types.Position]:
    r = lsp_range(text, s, e)
    return r.start, r.end


STRAY = "\x8e\r\U0001f600 \U00010000 junk"  # random bytes (Latin-1) with a lone CR, and astral characters


@pytestmark_server
async def test_op_name_edit_in_a_damaged_function_matches_a_fresh_open(client: LanguageClient) -> None:
    """Case (a): stray bytes (a lone "\\r", an emoji, U+10000) pasted into a
    function, then one character typed inside ``arith.addf``: the server put
    it on the line after the one the client meant (``arith.m0ulf``) and
    warned about an op the client's text does not have."""
    uri = "file:///regressions/op-name.mlir"
    text = DAMAGED.replace(" stray \U0001f600 text", "")
    at = text.index("memref<8xf32>\n") + len("memref<8xf32>")
    text2 = text[:at] + STRAY + text[at:]
    name = text2.index("arith.addf") + len("arith.a")
    final, diags = await _edit_then_compare(client, uri, text, [(at, at, STRAY), (name, name, "0")])
    assert "arith.a0ddf" in final and "arith.mulf" in final
    assert not any("arith.m0ulf" in d.message for d in diags)


@pytestmark_server
async def test_deeply_nested_document_edited_after_a_lone_cr_matches_a_fresh_open(client: LanguageClient) -> None:
    """Case (b): a 4,000-line document of nested regions (too deep to
    analyse: the only diagnostic, the same either way), bytes with a lone
    "\\r" pasted into a line, then a keyword edited further down: the
    semantic tokens (the keywords of the unparsed item) differed."""
    uri = "file:///regressions/deep.mlir"
    text = deep_nest(1998)
    assert text.count("\n") == 4000
    at = text.index("affine.for %i100 ") + len("affine.for %i100")
    text2 = text[:at] + STRAY + text[at:]
    kw = text2.index(" to ", text2.index("affine.for %i150 ")) + 1
    await _edit_then_compare(client, uri, text, [(at, at, STRAY), (kw, kw + 2, "t0")])


@pytestmark_server
async def test_random_bytes_pasted_into_lines_keep_folding_and_symbols(client: LanguageClient) -> None:
    """Case (c): random bytes pasted into a line, then a loop typed on a
    later line: the folding ranges and symbols of the incremental document
    differed from a fresh open."""
    uri = "file:///regressions/bytes.mlir"
    text = (
        "func.func @f(%A: memref<8x8xf32>) {\n  affine.for %i = 0 to 8 {\n    affine.for %j = 0 to 8 {\n"
        "      %v = affine.load %A[%i, %j] : memref<8x8xf32>\n    }\n  }\n  return\n}\n"
        "func.func @g() {\n  return\n}\n"
    )
    noise = "\x9b\x00\xa0\xc3\x07\r\x7f"  # bytes pasted as Latin-1, a lone CR among them
    at = text.index("%j] :") + 2
    text2 = text[:at] + noise + text[at:]
    loop = text2.index("  return\n}\nfunc.func @g")
    final, _ = await _edit_then_compare(client, uri, text, [(at, at, noise), (loop, loop, "  affine.for %k = 0 to 2 {\n  }\n")])
    assert "affine.for %k" in final


def test_a_lone_surrogate_counts_as_one_utf16_code_unit() -> None:
    """A client may send a lone surrogate (JSON's ``\\ud800``): positions
    after it count it as one UTF-16 code unit, as the client does, instead
    of failing to encode it (the early first publish did, compiled)."""
    from affine_lsp.source.document import LineIndex

    lines = LineIndex("ab\ud800cd\n\udfffx\n")
    assert lines.position(4) == (0, 4)
    assert lines.position(8) == (1, 2)
    assert lines.offset(0, 3) == 3


@pytestmark_server
async def test_show_dependences_waits_for_value_flows_with_distances(client: LanguageClient) -> None:
    """Found by a 20-minute fuzz run: ``showDependences`` on a function whose
    value-carrying dependences have distances waited for the dataflow
    worker and made a frozenset of its answer, whose rows hold lists
    (``TypeError: unhashable type: 'list'``). The answer is now kept as the
    analyses keep it, distances by dependence."""
    uri = "file:///regressions/flows.mlir"
    text = (
        "func.func @shift(%A: memref<10xf32>) {\n  affine.for %i = 0 to 10 {\n    %v = affine.load %A[%i] : memref<10xf32>\n"
        "    affine.store %v, %A[%i + 1] : memref<10xf32>\n  }\n  return\n}\n"
    )
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, 1)
    for line in (0, 1, 2):
        md = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="affine-lsp.showDependences", arguments=[{"uri": uri, "position": {"line": line, "character": 0}}])
        )
        assert isinstance(md, str) and md.startswith("### "), md
