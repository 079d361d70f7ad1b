"""The Markdown injection grammar (``mlir`` fenced code blocks highlighted
with the MLIR grammar): its grammar test, run with ``vscode-tmgrammar-test``
against the repository's stand-in Markdown grammar (``npm run
test:grammar:markdown``) and, when the real-editor test's code-server is
installed, against VS Code's own Markdown grammar."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

EXT = Path(__file__).resolve().parents[1] / "vscode-extension"
TOOL = EXT / "node_modules" / ".bin" / "vscode-tmgrammar-test"
CACHE = Path(os.environ.get("AFFINE_LSP_E2E_CACHE") or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "affine-lsp-e2e")
VSCODE_MARKDOWN = CACHE / "node_modules" / "code-server" / "lib" / "vscode" / "extensions" / "markdown-basics" / "syntaxes" / "markdown.tmLanguage.json"

needs_tool = pytest.mark.skipif(not TOOL.is_file(), reason="cd vscode-extension && npm ci (vscode-tmgrammar-test)")


def test_the_injection_is_registered_for_markdown() -> None:
    pkg = json.loads((EXT / "package.json").read_text())
    (g,) = [g for g in pkg["contributes"]["grammars"] if g.get("injectTo")]
    assert g["injectTo"] == ["text.html.markdown"]
    assert g["embeddedLanguages"] == {"meta.embedded.block.mlir": "mlir"}
    grammar = json.loads((EXT / g["path"]).read_text())
    assert grammar["scopeName"] == g["scopeName"] and grammar["injectionSelector"] == "L:text.html.markdown"


def _run(host: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(TOOL), "-g", str(host), "test/grammar-markdown/*.md"], cwd=EXT, capture_output=True, text=True, timeout=300)


@needs_tool
def test_markdown_grammar_test_with_the_stand_in_host() -> None:
    p = _run(EXT / "test" / "grammar-markdown" / "markdown-host.tmLanguage.json")
    assert p.returncode == 0 and "run successfuly" in p.stdout, p.stdout + p.stderr


@needs_tool
@pytest.mark.skipif(not VSCODE_MARKDOWN.is_file(), reason="VS Code's Markdown grammar (code-server of the real-editor test) is not installed")
def test_markdown_grammar_test_with_vscode_markdown() -> None:
    p = _run(VSCODE_MARKDOWN)
    assert p.returncode == 0 and "run successfuly" in p.stdout, p.stdout + p.stderr
