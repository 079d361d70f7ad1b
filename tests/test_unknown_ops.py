"""Ops whose custom syntax affine-lsp does not know (issue #14, item 4).

They are reported once per op name per document, at the first occurrence,
as a remark (``remark:`` in the CLI, as mlir-opt prints remarks; Information
in the editor), saying how many more there are; ``check
--no-unknown-op-notes`` and the server setting ``diagnostics.unknownOps:
"off"`` silence them. The server dedupes over the whole document after every
incremental update, so an edited document shows what a fresh open shows.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp.cli import main
from tests.test_server_support import change, config, diagnostics_for, no_server_errors, open_doc, pos, start

MIXED = """func.func @f(%a: index) {
  %0 = hls.foo %a : index -> index
  hls.bar
  %1 = hls.foo %0 : index -> index
  %2 = affine.apply affine_map<(d0) -> (d0 + 1)>(%1)
  return
}
// -----
func.func @g(%a: index) {
  %0 = hls.foo %a : index -> index
  return
}
"""

FOO = "custom syntax of 'hls.foo' is not known to affine-lsp; the op was skipped (its results, operands and regions are kept)"
BAR = "custom syntax of 'hls.bar' is not known to affine-lsp; the op was skipped (its results, operands and regions are kept)"


def test_cli_reports_each_unknown_op_name_once_as_a_remark(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "mixed.mlir"
    many = "".join(f"  %v{k} = hls.foo %a : index -> index\n" for k in range(300))
    f.write_text(MIXED + f"// -----\nfunc.func @h(%a: index) {{\n{many}  return\n}}\n")
    # (hls is no dialect mlir-opt registers: without the flag, the first op of each section is an error)
    assert main(["check", "--split-input-file", "--allow-unregistered-dialect", str(f)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{f}:2:8: remark: {FOO} (and 302 more occurrences in this document)",
        f"{f}:3:3: remark: {BAR}",
    ]
    assert main(["check", "--no-unknown-op-notes", "--allow-unregistered-dialect", str(f)]) == 0
    assert capsys.readouterr().out == ""


def test_a_dialect_attribute_name_inside_an_unknown_ops_braces(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``{from = 1, hls.layout = [2]}``: a discardable attribute's dotted name
    inside the soup of an unknown op is no new op (it was "expected SSA
    operand"; HEIR's lit tests write ``tensor_ext.layout = ...`` so)."""
    f = tmp_path / "dotted.mlir"
    f.write_text("func.func @f(%a: index) {\n  %0 = hls.foo %a {from = 1, hls.layout = [2], to = (3)} : index -> index\n  return\n}\n")
    assert main(["check", "--allow-unregistered-dialect", "--no-unknown-op-notes", str(f)]) == 0
    assert capsys.readouterr().out == ""


def test_cli_json_severity_and_single_occurrence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "one.mlir"
    f.write_text("func.func @f() {\n  hls.bar\n  return\n}\n")
    assert main(["check", "--format", "json", "--allow-unregistered-dialect", str(f)]) == 0
    import json

    items = json.loads(capsys.readouterr().out)
    assert [(i["severity"], i["message"], i["code"], i["range"]["start"]) for i in items] == [("remark", BAR, "unknown-op", {"line": 1, "character": 2})]


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    await start(lsp_client, init_options={"diagnostics": {"debounceMs": 0}})
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


def _unknown(diags: list[types.Diagnostic]) -> list[tuple[int, int, str, types.DiagnosticSeverity | None]]:
    return [(d.range.start.line, d.range.start.character, d.message, d.severity) for d in diags if d.code == "unknown-op"]


async def _fresh(client: LanguageClient, name: str, text: str) -> list[tuple[int, int, str, types.DiagnosticSeverity | None]]:
    uri = f"file:///tmp/affine-lsp-test/unknown-ops-{name}.mlir"
    open_doc(client, uri, text)
    return _unknown(await diagnostics_for(client, uri, 1))


@pytest.mark.asyncio(loop_scope="module")
async def test_server_reports_once_per_document_and_edits_match_a_fresh_open(client: LanguageClient) -> None:
    uri = "file:///tmp/affine-lsp-test/unknown-ops.mlir"
    text = MIXED
    open_doc(client, uri, text)
    info = types.DiagnosticSeverity.Information
    got = _unknown(await diagnostics_for(client, uri, 1))
    assert got == [(1, 7, f"{FOO} (and 2 more occurrences in this document)", info), (2, 2, BAR, info)]
    # Edits in either section: each result equals a fresh open of the same text.
    edits = [
        # a new first occurrence of hls.bar in the second section: the old one stays first
        (pos(text, "  return", 1), "  hls.bar\n"),
        # a hls.foo before the first one: it becomes the reported occurrence
        (pos(text, "  %0 = hls.foo"), "  hls.foo\n"),
    ]
    version = 1
    for k, (at, new) in enumerate(edits):
        version += 1
        change(client, uri, version, at, at, new)
        lines = text.split("\n")
        lines[at.line] = lines[at.line][: at.character] + new + lines[at.line][at.character :]
        text = "\n".join(lines)
        got = _unknown(await diagnostics_for(client, uri, version))
        assert got == await _fresh(client, f"edit{k}", text)
    assert got == [(1, 2, f"{FOO} (and 3 more occurrences in this document)", info), (3, 2, f"{BAR} (and 1 more occurrence in this document)", info)]
    # Deleting the reported occurrence moves the remark to the next one.
    version += 1
    change(client, uri, version, types.Position(line=1, character=0), types.Position(line=2, character=0), "")
    text = "\n".join(text.split("\n")[:1] + text.split("\n")[2:])
    got = _unknown(await diagnostics_for(client, uri, version))
    assert got == await _fresh(client, "deleted", text)
    assert got[0] == (1, 7, f"{FOO} (and 2 more occurrences in this document)", info)


@pytest.mark.asyncio(loop_scope="module")
async def test_server_setting_silences_unknown_ops(client: LanguageClient) -> None:
    uri = "file:///tmp/affine-lsp-test/unknown-ops-setting.mlir"
    open_doc(client, uri, MIXED)
    assert len(_unknown(await diagnostics_for(client, uri, 1))) == 2
    n = len(client.diag_log)  # type: ignore[attr-defined]
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"affineLsp": {"diagnostics": {"unknownOps": "off"}}}))
    assert _unknown(await diagnostics_for(client, uri, 1, n_after=n)) == []
    # An unknown value is ignored (the previous one is kept).
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"affineLsp": {"diagnostics": {"unknownOps": "always"}}}))
    await asyncio.sleep(0.3)
    assert _unknown(await diagnostics_for(client, uri, 1)) == []
    n = len(client.diag_log)  # type: ignore[attr-defined]
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"affineLsp": {"diagnostics": {"unknownOps": "once"}}}))
    assert len(_unknown(await diagnostics_for(client, uri, 1, n_after=n))) == 2
