"""The user's dialects in the editor (issue #45), through a real LSP client:
a document under a project file (``affine-lsp.toml``) is parsed with the
dialect its ``.td`` file defines (the same diagnostics as ``check``), hover
shows the op's summary, the ``affineLsp.dialects`` settings name a dialect
for every document, and a ``.td`` that does not process is one error
message with llvm-tblgen's words."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp.ods import tblgen
from tests.test_server_support import config, diagnostics_for, hover_text, open_doc, pos, start, wait_for

pytestmark = [
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.skipif(
        tblgen.find_tblgen() is None or tblgen.mlir_include() is None,
        reason='llvm-tblgen or MLIR\'s .td include tree is not installed (pip install "affine-lsp[dialects]")',
    ),
]

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "data" / "dialects" / "toy"
WORK = Path(tempfile.mkdtemp(prefix="affine-lsp-dialects-"))
PROJECT = WORK / "project"
BROKEN = WORK / "broken"
LOOSE = WORK / "loose"  # no project file: the settings name the dialect
ERRORS = """func.func @f(%m: memref<4xf32>, %i: index) {
  %y = toy.scale %nope by 2.0 : f32
  toy.store %y, %m[%i] : memref<4xf32>
  toy.print %y label 3 : f32
  return
}
"""


def _layout() -> None:
    shutil.copytree(TOY, PROJECT / "toy")
    (PROJECT / "src").mkdir()
    shutil.copy(TOY / "toy.mlir", PROJECT / "src" / "toy.mlir")
    (PROJECT / "src" / "errors.mlir").write_text(ERRORS)
    (PROJECT / "affine-lsp.toml").write_text('td = ["toy/ToyOps.td"]\ninclude = ["toy/include"]\n')
    BROKEN.mkdir()
    (BROKEN / "Bad.td").write_text('include "mlir/IR/OpBase.td"\ndef Bad : Dialect {\n  let name = "bad"\n}\n')
    (BROKEN / "affine-lsp.toml").write_text('td = ["Bad.td"]\n')
    (BROKEN / "bad.mlir").write_text("func.func @f(%x: f32) {\n  bad.thing %x : f32\n  return\n}\n")
    LOOSE.mkdir()
    shutil.copy(TOY / "toy.mlir", LOOSE / "toy.mlir")


_layout()


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    await start(lsp_client)
    yield
    await lsp_client.shutdown_session()
    shutil.rmtree(WORK, ignore_errors=True)


def _check_json(path: Path) -> list[tuple[int, str, str]]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-m", "affine_lsp", "check", "--format", "json", str(path)], capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode in (0, 1), p.stderr
    return sorted((d["line"] - 1, d["severity"], d["message"]) for d in json.loads(p.stdout))


SEVERITY = {types.DiagnosticSeverity.Error: "error", types.DiagnosticSeverity.Warning: "warning", types.DiagnosticSeverity.Information: "remark"}


def _mine(d: list[types.Diagnostic]) -> list[tuple[int, str, str]]:
    return sorted((x.range.start.line, SEVERITY.get(x.severity, "note"), x.message) for x in d if x.severity != types.DiagnosticSeverity.Hint)  # type: ignore[arg-type]


async def _open(client: LanguageClient, path: Path) -> tuple[str, str, list[types.Diagnostic]]:
    uri, text = path.as_uri(), path.read_text()
    open_doc(client, uri, text)
    return uri, text, await diagnostics_for(client, uri, 1)


async def test_a_document_under_the_project_file_has_check_s_diagnostics(client: LanguageClient):
    _uri, _text, d = await _open(client, PROJECT / "src" / "toy.mlir")
    assert _mine(d) == [] == _check_json(PROJECT / "src" / "toy.mlir")  # no skip remark, no error
    _uri, _text, d = await _open(client, PROJECT / "src" / "errors.mlir")
    wanted = _check_json(PROJECT / "src" / "errors.mlir")
    assert [m for _l, s, m in wanted if s == "error"] == ["use of undeclared SSA value name"]  # (the first error of the function: mlir-opt's)
    assert _mine(d) == wanted


async def test_hover_shows_the_op(client: LanguageClient):
    uri, text, _d = await _open(client, PROJECT / "src" / "toy.mlir")
    h = await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos(text, "toy.scale", delta=2)))
    got = hover_text(h)
    assert "multiplies a value by a constant factor" in got
    # the op's .td file and the line of its record
    assert f"defined in `{PROJECT / 'toy' / 'ToyOps.td'}:8`" in got


async def test_a_broken_td_is_one_error_message(client: LanguageClient):
    _uri, _text, d = await _open(client, BROKEN / "bad.mlir")
    shown = await wait_for(lambda: [m.message for m in client.messages if m.type == types.MessageType.Error and "Bad.td" in m.message], what="the message")
    assert len(shown) == 1
    assert shown[0].startswith(f"affine-lsp: {BROKEN / 'Bad.td'}: error: llvm-tblgen: {BROKEN / 'Bad.td'}:4:1: error: expected ';'"), shown
    assert any("custom syntax of 'bad.thing' is not known" in x.message for x in d)  # the document is still served


async def test_the_settings_name_a_dialect_for_every_document(client: LanguageClient):
    for name in ("toy.mlir", "errors.mlir"):  # the project's documents closed: its dialect is unloaded
        client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=(PROJECT / "src" / name).as_uri())))
    uri, _text, d = await _open(client, LOOSE / "toy.mlir")
    assert any(x.message.startswith("custom syntax of 'toy.") for x in d)
    n = len(client.diag_log)  # type: ignore[attr-defined]
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"affineLsp": {"dialects": {"td": [str(TOY / "ToyOps.td")], "include": [str(TOY / "include")]}}})
    )
    d = await diagnostics_for(client, uri, n_after=n, pred=lambda ds: not any("toy." in x.message for x in ds))
    assert _mine(d) == []
