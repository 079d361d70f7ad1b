"""The bugs the edit-stream fuzzer found, one test each (minimised from the
fuzzer's reproductions), in process where the bug is in the document model
and through the real server where it is in the server."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp.syntax.chunks import scan_chunks
from affine_lsp.syntax.document import Document
from tests.fuzzing import ErrorOracle, apply_text_edits
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
