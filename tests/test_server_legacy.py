"""The editor on files in MLIR's pre-2022 syntax (issue 20), over stdio
with a real LSP client (pytest-lsp): mlir-opt's error and the legacy note,
the code action "Upgrade to current MLIR syntax", the hover on old op names."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Union

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp.transforms.legacy_upgrade import upgrade_text
from tests.test_server_support import SERVER_CMD, apply_edits, diagnostics_for, hover_text, make_client, no_server_errors, open_doc, pos, server_env, start

pytestmark = pytest.mark.asyncio(loop_scope="module")

LEGACY = Path(__file__).parent / "data" / "legacy"
LICM = (LEGACY / "licm.mlir").read_text()
PROBLEMS = (LEGACY / "problems.mlir").read_text()
U_LICM = "file:///tmp/affine-lsp-test/legacy/licm.mlir"
U_PROBLEMS = "file:///tmp/affine-lsp-test/legacy/problems.mlir"


def _client() -> LanguageClient:
    """The test client, reading a code action that carries a command as a
    CodeAction (lsprotocol's converter tries Command first and takes the
    action's title for a command's: VS Code tells them apart by the type
    of ``command``, as here)."""
    client = make_client()
    conv = client.protocol._converter

    def either(obj: object, _t: object) -> types.Command | types.CodeAction:
        if isinstance(obj, dict) and not isinstance(obj.get("command"), str):
            return conv.structure(obj, types.CodeAction)
        return conv.structure(obj, types.Command)

    conv.register_structure_hook(Union[types.Command, types.CodeAction], either)  # noqa: UP007 - the type lsprotocol's responses name
    return client


@pytest_lsp.fixture(scope="module", config=pytest_lsp.ClientServerConfig(server_command=SERVER_CMD, client_factory=_client, server_env=server_env()))
async def client(lsp_client: LanguageClient):
    lsp_client.init_result = await start(lsp_client)  # type: ignore[attr-defined]
    open_doc(lsp_client, U_LICM, LICM)
    open_doc(lsp_client, U_PROBLEMS, PROBLEMS)
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


async def actions(client: LanguageClient, uri: str, rng: types.Range, diags: list[types.Diagnostic], only: list[str] | None = None) -> list[types.CodeAction]:
    got = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=rng,
            context=types.CodeActionContext(diagnostics=diags, only=only),
        )
    )
    return [a for a in got or [] if isinstance(a, types.CodeAction)]


async def test_diagnostics_are_mlir_opts_plus_one_note(client: LanguageClient):
    diags = await diagnostics_for(client, U_LICM, 1)
    errors = [d for d in diags if d.severity == types.DiagnosticSeverity.Error]
    first = min(errors, key=lambda d: (d.range.start.line, d.range.start.character))
    assert (first.range.start.line, first.range.start.character) == (2, 0)
    assert first.message == "custom op 'func' is unknown (tried 'builtin.func' as well)"
    notes = [d for d in diags if d.code == "legacy-syntax"]
    assert len(notes) == 1 and notes[0].severity == types.DiagnosticSeverity.Information
    assert "pre-2022 syntax" in notes[0].message


async def test_upgrade_code_action_rewrites_the_document(client: LanguageClient):
    diags = await diagnostics_for(client, U_LICM, 1)
    on_error = [d for d in diags if d.code == "legacy-syntax" or d.range.start.line == 2]
    got = await actions(client, U_LICM, on_error[0].range, on_error)
    up = [a for a in got if a.title == "Upgrade to current MLIR syntax"]
    assert len(up) == 1, [a.title for a in got]
    assert up[0].kind == types.CodeActionKind.QuickFix and up[0].diagnostics
    new = apply_edits(LICM, list(up[0].edit.changes[U_LICM]))  # type: ignore[union-attr]
    assert new == upgrade_text(LICM).text
    assert "func.func @nested_loops_both_having_invariant_code" in new and "arith.addf" in new and "memref.dealloc" in new
    # Away from the diagnostics, as a source action (the editor's "Fix All").
    p = pos(LICM, "affine.store")
    fix_all = await actions(client, U_LICM, types.Range(start=p, end=p), [], only=[types.CodeActionKind.SourceFixAll])
    up = [a for a in fix_all if a.title == "Upgrade to current MLIR syntax"]
    assert len(up) == 1 and up[0].kind == types.CodeActionKind.SourceFixAll


async def test_what_is_left_as_written_is_reported(client: LanguageClient):
    await diagnostics_for(client, U_PROBLEMS, 1)
    p = pos(PROBLEMS, "func @f")
    got = await actions(client, U_PROBLEMS, types.Range(start=p, end=p), [])
    up = [a for a in got if a.title.startswith("Upgrade to current MLIR syntax")]
    assert len(up) == 1
    assert up[0].title == "Upgrade to current MLIR syntax (3 left as written: lines 6, 8, 12)"
    assert up[0].command is not None
    n = len(client.messages)
    await client.workspace_execute_command_async(types.ExecuteCommandParams(command=up[0].command.command, arguments=up[0].command.arguments))
    for _ in range(100):
        if len(client.messages) > n:
            break
        await asyncio.sleep(0.05)
    shown = client.messages[n:]
    assert shown and shown[0].type == types.MessageType.Warning
    assert "line 6: 'maxf' became arith.maximumf or arith.maxnumf" in shown[0].message and "line 12" in shown[0].message


async def test_no_upgrade_action_on_current_syntax(client: LanguageClient):
    uri = "file:///tmp/affine-lsp-test/legacy/modern.mlir"
    text = (LEGACY / "licm.modern.mlir").read_text()
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, 1)
    p = pos(text, "arith.addf")
    got = await actions(client, uri, types.Range(start=p, end=p), [])
    assert not [a for a in got if a.title.startswith("Upgrade")]
    h = await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=p))
    assert h is None or "pre-2022" not in hover_text(h)


@pytest.mark.parametrize(
    ("needle", "expected"),
    [
        ("addf", "`arith.addf`"),
        ("alloc", "`memref.alloc`"),
        ("dealloc", "`memref.dealloc`"),
        ("func @invariant", "`func.func`"),
        ("constant", "`arith.constant`"),
    ],
)
async def test_hover_on_a_legacy_op_names_its_current_name(client: LanguageClient, needle: str, expected: str):
    h = await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=U_LICM), position=pos(LICM, needle, delta=1)))
    text = hover_text(h)
    assert "pre-2022 MLIR syntax" in text and expected in text
    assert h is not None and h.range is not None
    line = LICM.splitlines()[h.range.start.line]
    assert line[h.range.start.character : h.range.end.character] == needle.split()[0]
