"""The op registry in the editor (issue #32), through a real LSP client:
an unknown op of an upstream dialect is an error with mlir-opt's words and
"Did you mean" quick fixes; op names complete from the registry; hover on an
upstream op gives its summary and operand/result groups."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.test_server_support import apply_edits, config, diagnostics_for, hover_text, no_server_errors, open_doc, pos, start

pytestmark = pytest.mark.asyncio(loop_scope="module")

# One unknown op per function: like mlir-opt's parser, the first one of a
# function is its error (the editor still checks the other functions).
TEXT = """func.func @f(%a: f32) {
  %0 = arith.addff %a, %a : f32
  return
}
func.func @g(%m: memref<4xf32>, %i: index) {
  %1 = memref.lod %m[%i] : memref<4xf32>
  return
}
func.func @h(%a: f32) {
  %2 = "arith.mulff"(%a, %a) : (f32, f32) -> f32
  %3 = arith.mulf %a, %a : f32
  %4 = hls.pipeline %a : f32
  return
}
"""


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    # hls is a dialect of the user's: allowed, as a RUN: line would (tests/test_unregistered_dialect.py: otherwise)
    await start(lsp_client, init_options={"diagnostics": {"allowUnregisteredDialect": True}})
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


async def _diags(client: LanguageClient, uri: str, text: str) -> list[types.Diagnostic]:
    open_doc(client, uri, text)
    return await diagnostics_for(client, uri, 1)


async def test_unknown_upstream_ops_are_errors_and_other_dialects_remarks(client: LanguageClient):
    uri = "file:///tmp/affine-lsp-test/registry-diags.mlir"
    d = await _diags(client, uri, TEXT)
    errors = sorted((x.range.start.line, x.message) for x in d if x.severity == types.DiagnosticSeverity.Error)
    assert errors == [
        (1, "custom op 'arith.addff' is unknown"),
        (5, "custom op 'memref.lod' is unknown"),
        (9, "unregistered operation 'arith.mulff' found in dialect ('arith') that does not allow unknown operations"),
    ]
    others = [x for x in d if x.severity != types.DiagnosticSeverity.Error]
    assert [x.range.start.line for x in others] == [11]  # hls.pipeline: a remark, as before
    assert "hls.pipeline" in others[0].message


async def test_did_you_mean_quick_fix(client: LanguageClient):
    uri = "file:///tmp/affine-lsp-test/registry-fix.mlir"
    d = await _diags(client, uri, TEXT)
    for line, wanted, new_line in [
        (1, "arith.addf", "  %0 = arith.addf %a, %a : f32"),
        (5, "memref.load", "  %1 = memref.load %m[%i] : memref<4xf32>"),
        (9, "arith.mulf", '  %2 = "arith.mulf"(%a, %a) : (f32, f32) -> f32'),
    ]:
        diag = next(x for x in d if x.range.start.line == line and x.severity == types.DiagnosticSeverity.Error)
        actions = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=diag.range,
                context=types.CodeActionContext(diagnostics=[diag]),
            )
        )
        titles = [a.title for a in actions]
        title = f"Did you mean `{wanted}`?"
        assert title in titles, titles
        act = actions[titles.index(title)]
        assert act.kind == types.CodeActionKind.QuickFix
        new = apply_edits(TEXT, list(act.edit.changes[uri]))
        assert new.splitlines()[line] == new_line


async def test_fixed_text_has_no_error(client: LanguageClient):
    uri = "file:///tmp/affine-lsp-test/registry-fixed.mlir"
    fixed = TEXT.replace("addff", "addf").replace("lod", "load").replace("mulff", "mulf")
    d = await _diags(client, uri, fixed)
    assert not [x for x in d if x.severity == types.DiagnosticSeverity.Error]


async def test_completion_of_op_names_from_the_registry(client: LanguageClient):
    uri = "file:///tmp/affine-lsp-test/registry-complete.mlir"
    text = "func.func @f(%a: f32) {\n  %0 = arith.\n  return\n}\n"
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, 1)
    res = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos(text, "arith.", delta=6))
    )
    items = {i.label: i for i in (res.items if isinstance(res, types.CompletionList) else res or [])}
    # Ops the grammar has no custom syntax for are offered too (from the registry).
    assert {"arith.addf", "arith.addui_extended", "arith.scaling_extf", "arith.bitcast"} <= set(items)
    doc = items["arith.addui_extended"].documentation
    text_doc = doc.value if isinstance(doc, types.MarkupContent) else str(doc)
    assert text_doc == "Performs (N+1)-bit addition on zero-extended operands."


async def test_hover_gives_the_registry_summary(client: LanguageClient):
    uri = "file:///tmp/affine-lsp-test/registry-hover.mlir"
    text = TEXT.replace("addff", "addf").replace("lod", "load").replace("mulff", "mulf")
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, 1)
    h = hover_text(
        await client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos(text, "arith.mulf %a", delta=3))
        )
    )
    assert "The `mulf` operation" in h
    assert "operands `lhs`, `rhs`; results `result`" in h
    h = hover_text(
        await client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos(text, "memref.load", delta=3))
        )
    )
    assert "`indices` (variadic)" in h
