"""End-to-end tests of the language features over stdio (pytest-lsp)."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.test_server_support import (
    DATA,
    apply_edits,
    change,
    config,
    diagnostics_for,
    hover_text,
    no_server_errors,
    open_doc,
    open_file,
    pos,
    start,
    text_of,
    uri_of,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    lsp_client.init_result = await start(lsp_client)  # type: ignore[attr-defined]
    for name in ("kernels.mlir", "broken.mlir", "fixes.mlir"):
        open_file(lsp_client, name)
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


KERNELS = (DATA / "kernels.mlir").read_text()
BROKEN = (DATA / "broken.mlir").read_text()
K = uri_of("kernels.mlir")
B = uri_of("broken.mlir")


async def hover(client: LanguageClient, uri: str, p: types.Position) -> types.Hover | None:
    return await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=p))


# ---------------------------------------------------------------- initialize
async def test_capabilities(client: LanguageClient):
    caps = client.init_result.capabilities  # type: ignore[attr-defined]
    sync = caps.text_document_sync
    assert isinstance(sync, types.TextDocumentSyncOptions)
    assert sync.change == types.TextDocumentSyncKind.Incremental
    assert sync.save
    assert caps.position_encoding == types.PositionEncodingKind.Utf16
    assert caps.hover_provider and caps.definition_provider and caps.references_provider
    assert caps.rename_provider and caps.document_symbol_provider and caps.folding_range_provider
    assert caps.inlay_hint_provider and caps.code_action_provider and caps.completion_provider
    assert caps.diagnostic_provider is not None
    legend = caps.semantic_tokens_provider.legend
    assert {"dimension", "symbol"} <= set(legend.token_modifiers)
    assert "affine-lsp.showDependences" in caps.execute_command_provider.commands
    assert client.init_result.server_info.name == "affine-lsp"  # type: ignore[attr-defined]


# ---------------------------------------------------------------- diagnostics
async def test_diagnostics_on_open(client: LanguageClient):
    diags = await diagnostics_for(client, K, 1)
    assert [d for d in diags if d.severity == types.DiagnosticSeverity.Error] == []
    diags = await diagnostics_for(client, B, 1)
    errors = [d for d in diags if d.severity == types.DiagnosticSeverity.Error]
    assert len(errors) == 1, diags
    e = errors[0]
    assert e.source == "affine-lsp" and e.code == "syntax"
    assert e.range.start.line == 12  # the broken load, and nothing else


async def test_broken_function_does_not_take_the_file_down(client: LanguageClient):
    await diagnostics_for(client, B, 1)
    h = await hover(client, B, pos(BROKEN, "%w =", delta=1))
    assert "f32" in hover_text(h)
    h = await hover(client, B, pos(BROKEN, "affine.load"))
    assert "access function" in hover_text(h)
    h = await hover(client, B, pos(BROKEN, "#map(%j)", delta=1))
    assert "%j + 1" in hover_text(h)
    syms = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=B)))
    names = [s.name for s in syms]
    assert names == ["#map", "@good_before", "@broken", "@good_after"]
    broken = syms[2]
    assert broken.detail == "(does not parse)"
    d = await client.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=B), position=pos(BROKEN, "#map(%j)", delta=1))
    )
    assert d and d[0].range.start.line == 0


# ---------------------------------------------------------------- hover
async def test_hover_value_dimension_and_symbol(client: LanguageClient):
    # %N bound as the symbol of the inline min bound
    text = hover_text(await hover(client, K, pos(KERNELS, "[%N] step", delta=2)))
    assert "`%N` : `index`" in text.replace("**", "")
    assert "argument #1 of `@maps`" in text
    assert "bound to `s0` (symbol)" in text
    assert "valid symbol: ✓ yes" in text
    # %i bound as a dimension of #map inside the loop
    text = hover_text(await hover(client, K, pos(KERNELS, "#map(%i, %c3)", delta=6)))
    assert "induction variable of `affine.for %i`" in text
    assert "bound to `d0` (dimension)" in text
    assert "valid dimension: ✓ yes" in text
    assert "valid symbol: ✗ no" in text


async def test_hover_map_use_inlined_simplified_folded(client: LanguageClient):
    text = hover_text(await hover(client, K, pos(KERNELS, "#map(%c3, %c5)")))
    assert "affine_map<(d0, d1) -> (d0 + d1)>" in text
    assert "with the operands: `%c3 + %c5`" in text
    assert "value: **8**" in text
    assert "| d0 | `%c3` = 3 | dimension |" in text
    # the inline min bound of the loop, with a constant operand folded
    text = hover_text(await hover(client, K, pos(KERNELS, "affine_map<(d0)[s0] -> (d0 + 8, s0)>", delta=3)))
    assert "upper bound of `affine.for %i`" in text
    assert "min(%c3 + 8, %N)" in text
    assert "min(11, %N)" in text
    assert "| s0 | `%N` | symbol | ✓ valid symbol" in text


async def test_hover_map_definition_and_set(client: LanguageClient):
    text = hover_text(await hover(client, K, pos(KERNELS, "#map =", delta=1)))
    assert "2 dimensions, 0 symbols, 1 result" in text
    assert "2 uses in this section" in text
    text = hover_text(await hover(client, K, pos(KERNELS, "#set(%i)", delta=1)))
    assert "condition of `affine.if`" in text
    assert "%i - %N >= 0" in text


async def test_hover_op_and_type(client: LanguageClient):
    text = hover_text(await hover(client, K, pos(KERNELS, "arith.addf")))
    assert "arith.addf" in text and "f32" in text
    text = hover_text(await hover(client, K, pos(KERNELS, "func.func @copy", delta=12)))
    assert "@copy" in text and "2 affine loops" in text
    text = hover_text(await hover(client, K, pos(KERNELS, "memref<64x64xf32>", delta=2)))
    assert "memref<64x64xf32>" in text
    h = await hover(client, K, types.Position(line=1, character=3))  # in a comment
    assert h is None


# ---------------------------------------------------------------- navigation
async def definition(client: LanguageClient, p: types.Position) -> types.Location:
    got = await client.text_document_definition_async(types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=K), position=p))
    assert got, f"no definition at {p}"
    return got[0]


async def test_definition(client: LanguageClient):
    loc = await definition(client, pos(KERNELS, "affine.store %a", delta=14))
    assert text_of(KERNELS, loc.range) == "%a" and loc.range.start == pos(KERNELS, "%a = affine.load")
    loc = await definition(client, pos(KERNELS, "#map(%c3", delta=2))
    assert loc.range.start == types.Position(line=2, character=0) and text_of(KERNELS, loc.range) == "#map"
    loc = await definition(client, pos(KERNELS, ": !T", delta=3))
    assert text_of(KERNELS, loc.range) == "!T" and loc.range.start.line == 4
    loc = await definition(client, pos(KERNELS, "call @recurrence", delta=7))
    assert loc.range.start == pos(KERNELS, "@recurrence(")
    loc = await definition(client, pos(KERNELS, "cf.br ^bb1", delta=7))
    assert loc.range.start == pos(KERNELS, "^bb1:")


async def test_references_and_highlight(client: LanguageClient):
    refs = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=K),
            position=pos(KERNELS, "#map ="),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    assert sorted(r.range.start.line for r in refs) == [2, pos(KERNELS, "#map(%c3").line, pos(KERNELS, "#map(%i").line]
    refs = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=K),
            position=pos(KERNELS, "affine.for %j = 1", delta=11),
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    assert len(refs) == 2 and all(text_of(KERNELS, r.range) == "%j" for r in refs)
    hl = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(text_document=types.TextDocumentIdentifier(uri=K), position=pos(KERNELS, "%c4 = ", delta=1))
    )
    assert hl and hl[0].kind == types.DocumentHighlightKind.Write


async def test_rename(client: LanguageClient):
    p = pos(KERNELS, "%a = affine.load", delta=1)
    prep = await client.text_document_prepare_rename_async(types.PrepareRenameParams(text_document=types.TextDocumentIdentifier(uri=K), position=p))
    assert prep is not None and prep.placeholder == "%a"
    edit = await client.text_document_rename_async(types.RenameParams(text_document=types.TextDocumentIdentifier(uri=K), position=p, new_name="%val"))
    new = apply_edits(KERNELS, list(edit.changes[K]))
    assert "%val = affine.load %A[%i, %j - 1]" in new and "affine.store %val, %A[%i, %j]" in new
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=types.TextDocumentIdentifier(uri=K), position=pos(KERNELS, "#map ="), new_name="shift")
    )
    new = apply_edits(KERNELS, list(edit.changes[K]))
    assert new.count("#shift") == 3 and "#map " not in new and "#map(" not in new
    # invalid / clashing names are refused, op names cannot be renamed
    with pytest.raises(Exception, match="already defined"):
        await client.text_document_rename_async(types.RenameParams(text_document=types.TextDocumentIdentifier(uri=K), position=p, new_name="%c0"))
    with pytest.raises(Exception, match="not a valid"):
        await client.text_document_rename_async(types.RenameParams(text_document=types.TextDocumentIdentifier(uri=K), position=p, new_name="%a b"))
    prep = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=types.TextDocumentIdentifier(uri=K), position=pos(KERNELS, "arith.addf", delta=2))
    )
    assert prep is None


# ---------------------------------------------------------------- outline
async def test_document_symbols(client: LanguageClient):
    syms = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=K)))
    names = [s.name for s in syms]
    assert names == ["#map", "#set", "!T", "@recurrence", "@copy", "@maps", "@stencil", "@caller"]
    rec = syms[3]
    assert rec.kind == types.SymbolKind.Function and rec.detail == "(!T, index) -> ()"
    (outer,) = rec.children
    assert outer.name == "affine.for %i" and outer.detail == "0 to 64"
    (inner,) = outer.children
    assert inner.name == "affine.for %j" and inner.detail == "1 to 64"
    maps = syms[5]
    loop = maps.children[0]
    assert loop.detail == "0 to min(%c3 + 8, %N)"
    assert loop.children[0].name == "affine.if"


async def test_folding_ranges(client: LanguageClient):
    folds = await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=types.TextDocumentIdentifier(uri=K)))
    kinds = {(f.start_line, f.end_line, f.kind) for f in folds}
    assert (0, 1, types.FoldingRangeKind.Comment) in kinds
    assert (2, 4, types.FoldingRangeKind.Imports) in kinds
    func_line = pos(KERNELS, "func.func @recurrence").line
    ret_line = pos(KERNELS, "return").line
    assert any(f.start_line == func_line and f.end_line == ret_line for f in folds)
    loop_line = pos(KERNELS, "affine.for %j = 1").line
    assert any(f.start_line == loop_line and f.end_line == loop_line + 2 for f in folds)


# ---------------------------------------------------------------- semantic tokens
def decode(data: list[int], legend: types.SemanticTokensLegend, text: str) -> dict[tuple[int, int], tuple[str, str, set[str]]]:
    out = {}
    line = col = 0
    lines = text.split("\n")
    for i in range(0, len(data), 5):
        dl, dc, n, t, m = data[i : i + 5]
        line += dl
        col = col + dc if dl == 0 else dc
        mods = {legend.token_modifiers[k] for k in range(len(legend.token_modifiers)) if m & (1 << k)}
        out[(line, col)] = (lines[line][col : col + n], legend.token_types[t], mods)
    return out


async def test_semantic_tokens(client: LanguageClient):
    legend = client.init_result.capabilities.semantic_tokens_provider.legend  # type: ignore[attr-defined]
    res = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=K)))
    toks = decode(list(res.data), legend, KERNELS)

    def at(needle: str, delta: int = 0, nth: int = 0) -> tuple[str, str, set[str]]:
        p = pos(KERNELS, needle, nth=nth, delta=delta)
        return toks[(p.line, p.character)]

    assert at("affine.for %i") == ("affine.for", "function", {"defaultLibrary"})
    assert at("[%N] step", delta=1) == ("%N", "variable", {"readonly", "symbol"})
    assert at("affine_map<(d0)[s0] -> (d0 + 8, s0)>(%c3)", delta=37)[2] == {"readonly", "symbol"}  # %c3 is a valid symbol
    assert at("#map(%i, %c3)", delta=5) == ("%i", "parameter", {"dimension"})
    assert at("(d0, d1) -> (d0 + d1)", delta=13) == ("d0", "parameter", {"dimension"})
    assert at("- s0 >= 0", delta=2) == ("s0", "variable", {"readonly", "symbol"})
    assert at("#map(%c3")[1] == "macro"
    assert at("#map =") == ("#map", "macro", {"declaration"})
    assert at("memref<64x64xf32>)") == ("memref<64x64xf32>", "type", set())
    assert at("to 64 {", nth=0)[1] == "keyword"
    assert at("step 2", nth=0) == ("step", "keyword", set())
    assert at("^bb1:") == ("^bb1", "label", {"declaration"})
    assert at("@recurrence(") == ("@recurrence", "function", {"declaration"})
    assert at("%a = affine", delta=0) == ("%a", "variable", {"declaration"})
    # a range request returns only the tokens of the range
    line = pos(KERNELS, "func.func @copy").line
    rng = types.Range(start=types.Position(line=line, character=0), end=types.Position(line=line + 3, character=0))
    part = await client.text_document_semantic_tokens_range_async(types.SemanticTokensRangeParams(text_document=types.TextDocumentIdentifier(uri=K), range=rng))
    assert 0 < len(part.data) < len(res.data)


# ---------------------------------------------------------------- completion
async def complete(client: LanguageClient, uri: str, p: types.Position) -> dict[str, types.CompletionItem]:
    res = await client.text_document_completion_async(types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=p))
    items = res.items if isinstance(res, types.CompletionList) else res
    return {i.label: i for i in items}


async def test_completion_values_aliases_ops_types(client: LanguageClient):
    # SSA values visible after "%a = ..." inside the inner loop of @recurrence
    items = await complete(client, K, pos(KERNELS, "affine.store %a", delta=14))
    assert {"%a", "%i", "%j", "%A", "%N", "%c0", "%c4"} <= set(items)
    assert "%v" not in items  # defined in another function
    assert items["%i"].detail == "index" and items["%A"].detail == "memref<64x64xf32>"
    items = await complete(client, K, pos(KERNELS, "affine.store %v", delta=14))
    assert items["%v"].detail == "f32"
    # aliases
    items = await complete(client, K, pos(KERNELS, "#map(%c3", delta=1))
    assert {"#map", "#set"} <= set(items)
    items = await complete(client, K, pos(KERNELS, ": !T\n", delta=3))
    assert "!T" in items
    # op names with snippets at the start of a statement
    items = await complete(client, K, pos(KERNELS, "affine.store %a", delta=6))
    assert items["affine.for"].insert_text_format == types.InsertTextFormat.Snippet
    assert "${1:%i}" in items["affine.for"].text_edit.new_text
    assert "arith.addf" in items and "memref.alloc" in items
    # types after ':'
    items = await complete(client, K, pos(KERNELS, ": f32", delta=2))
    assert {"index", "f32", "memref", "!T"} <= set(items)
    # functions and blocks
    items = await complete(client, K, pos(KERNELS, "call @recurrence", delta=6))
    assert {"@recurrence", "@copy", "@caller"} <= set(items)
    items = await complete(client, K, pos(KERNELS, "cf.br ^bb1", delta=7))
    assert "^bb1" in items


async def test_completion_in_a_function_that_does_not_parse(client: LanguageClient):
    # The user breaks a function that parsed; its last good IR still gives the values.
    uri = "file:///tmp/affine-lsp-test/typing.mlir"
    text = (DATA / "kernels.mlir").read_text()
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, 1)
    p = pos(text, "affine.store %a, %A[%i, %j] : !T")
    change(client, uri, 2, p, p, "%z = affine.load %")
    p2 = types.Position(line=p.line, character=p.character + len("%z = affine.load %"))
    d = await diagnostics_for(client, uri, 2)
    assert any(x.severity == types.DiagnosticSeverity.Error for x in d)
    items = await complete(client, uri, p2)
    assert {"%A", "%i", "%j", "%a"} <= set(items)


async def test_completion_in_a_document_opened_with_the_line_being_typed(client: LanguageClient):
    """A document whose function never parsed (opened with an incomplete
    line): the values come from the function without that line."""
    uri = "file:///tmp/affine-lsp-test/opened-broken.mlir"
    text = (
        "func.func @f(%A: memref<8x16xf32>, %n: index) {\n"
        "  affine.for %i = 0 to 8 {\n"
        "    %v = affine.load %A[%i, 0] : memref<8x16xf32>\n"
        "    %w = arith.addf %v, %\n"
        "  }\n"
        "  return\n"
        "}\n"
    )
    open_doc(client, uri, text)
    d = await diagnostics_for(client, uri, 1)
    assert any(x.severity == types.DiagnosticSeverity.Error for x in d)
    p = pos(text, "%v, %", delta=5)
    items = await complete(client, uri, p)
    assert {"%A", "%n", "%i", "%v"} <= set(items)
    assert items["%A"].detail == "memref<8x16xf32>" and items["%v"].detail == "f32"
    assert "%w" not in items  # defined on the line being typed


async def test_the_memory_op_snippets_use_the_memref_in_scope(client: LanguageClient):
    """The affine.load/store snippets name a memref of the function with its
    own type and the loops' variables, not an invented ``memref<128xf32>``."""
    items = await complete(client, K, pos(KERNELS, "affine.store %a", delta=6))
    load, store = items["affine.load"].text_edit.new_text, items["affine.store"].text_edit.new_text
    assert "128" not in load + store
    assert load == "affine.load ${1:%A}[${2:%i}, ${3:%j}] : memref<64x64xf32>", load
    assert store.startswith("affine.store ${4:%v}, ${1:%A}[${2:%i}, ${3:%j}] : memref<64x64xf32>"), store
    # With no memref in scope the type is a placeholder to fill in, not a type.
    uri = "file:///tmp/affine-lsp-test/no-memref.mlir"
    text = "func.func @g() {\n  \n  return\n}\n"
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, 1)
    items = await complete(client, uri, types.Position(line=1, character=2))
    assert items["affine.load"].text_edit.new_text == "affine.load ${1:%A}[${2:%i}] : ${3:memref type}"


# ---------------------------------------------------------------- code actions
async def test_quick_fix_code_action(client: LanguageClient):
    uri = uri_of("fixes.mlir")
    text = (DATA / "fixes.mlir").read_text()
    diags = await diagnostics_for(client, uri, 1)
    legacy = [d for d in diags if d.code == "legacy-func"]
    assert legacy, diags
    assert legacy[0].data and legacy[0].data.get("fixes")
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=legacy[0].range,
            context=types.CodeActionContext(diagnostics=legacy),
        )
    )
    titles = [a.title for a in actions]
    assert "Replace with 'func.func'" in titles
    act = actions[titles.index("Replace with 'func.func'")]
    assert act.kind == types.CodeActionKind.QuickFix
    new = apply_edits(text, list(act.edit.changes[uri]))
    assert "func.func @legacy_func" in new


# ---------------------------------------------------------------- editing
async def test_incremental_edits_update_diagnostics(client: LanguageClient):
    uri = "file:///tmp/affine-lsp-test/edit.mlir"
    text = (DATA / "broken.mlir").read_text()
    open_doc(client, uri, text)
    d = await diagnostics_for(client, uri, 1)
    assert any(x.severity == types.DiagnosticSeverity.Error for x in d)
    # fix the broken load: insert "]" after "%i"
    p = pos(text, "%A[%i :", delta=5)
    change(client, uri, 2, p, p, "]")
    d = await diagnostics_for(client, uri, 2)
    assert not [x for x in d if x.severity == types.DiagnosticSeverity.Error]
    # break another function with a multi-line edit, then type a non-ASCII comment before it
    fixed = text[: text.index("%A[%i :") + 5] + "]" + text[text.index("%A[%i :") + 5 :]
    p1 = pos(fixed, "%w = affine.load %B[%j]")
    change(client, uri, 3, p1, types.Position(line=p1.line, character=p1.character + 16), "%w = \n  affine.load")
    d = await diagnostics_for(client, uri, 3)
    assert d == [] or not [x for x in d if x.severity == types.DiagnosticSeverity.Error]
    # UTF-16 columns: an edit after a non-BMP character on the same line
    # (the debug mirror checks the text after every change)
    change(client, uri, 4, types.Position(line=0, character=0), types.Position(line=0, character=0), "// na\u00efve \U0001d538 comment\n")
    change(client, uri, 5, types.Position(line=0, character=11), types.Position(line=0, character=12), "X")
    d = await diagnostics_for(client, uri, 5)
    h = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=p1.line + 1, character=p1.character + 1))
    )
    assert h is not None and "`%w`" in hover_text(h)
    no_server_errors(client)


async def test_verifier_fix_code_action_follows_edits(client: LanguageClient):
    """A verifier quick fix (explicit edits), still right after an edit above it moved the function."""
    uri = "file:///tmp/affine-lsp-test/fixes.mlir"
    text = (DATA / "fixes.mlir").read_text()
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, 1)
    change(client, uri, 2, types.Position(line=0, character=0), types.Position(line=0, character=0), "// one more line\n")
    text = "// one more line\n" + text
    diags = await diagnostics_for(client, uri, 2)
    (d,) = [d for d in diags if "requires 'max' prefix" in d.message]
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(text_document=types.TextDocumentIdentifier(uri=uri), range=d.range, context=types.CodeActionContext(diagnostics=[d]))
    )
    (act,) = [a for a in actions if a.title == "Add the 'max' prefix"]
    assert act.is_preferred
    new = apply_edits(text, list(act.edit.changes[uri]))
    assert "affine.for %i = max affine_map<(d0) -> (d0, 0)>(%N) to 8 {" in new
