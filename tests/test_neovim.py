"""A second real editor: Neovim's built-in LSP client (0.7+) drives
``python -m affine_lsp serve`` headless, as a user's setup does.

The session (tests/data/neovim/session.lua) opens examples/e2e/fusion.mlir,
waits for its error diagnostic (``vim.diagnostic.get``), hovers the access
``%a[%k - 2]`` for its dependences, requests the code actions on a loop header
(``textDocument/codeAction``, what ``vim.lsp.buf.code_action`` sends), applies
"Fuse loops here" (``vim.lsp.util.apply_workspace_edit``) and reads the buffer
back. Skipped only when ``nvim`` is not installed (scripts/setup-e2e.sh
installs Debian's ``neovim``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "e2e" / "fusion.mlir"
SESSION = ROOT / "tests" / "data" / "neovim" / "session.lua"
NVIM = shutil.which("nvim")

pytestmark = pytest.mark.skipif(NVIM is None, reason="nvim is not installed (Debian: apt-get install neovim; scripts/setup-e2e.sh installs it)")


def _cli_errors(path: Path) -> list[dict[str, Any]]:
    """The file's errors as the CLI reports them (same engine as the server)."""
    p = subprocess.run(
        [sys.executable, "-m", "affine_lsp", "check", "-q", "--format", "json", str(path)], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert p.returncode in (0, 1), p.stderr
    return [d for d in json.loads(p.stdout) if d["severity"] == "error"]


def _line_of(text: str, needle: str) -> int:
    return next(k for k, line in enumerate(text.splitlines()) if needle in line)


def _function(text: str, name: str) -> str:
    m = re.search(rf"^func\.func @{name}\b.*?^\}}", text, re.S | re.M)
    assert m, f"no func.func @{name} in\n{text}"
    return m.group(0)


def _table(markdown: str) -> list[dict[str, str]]:
    """The rows of the (first) Markdown table in a hover, by column header."""
    rows = [line.strip().strip("|").split("|") for line in markdown.splitlines() if line.strip().startswith("|")]
    assert len(rows) >= 3, markdown
    head = [c.strip() for c in rows[0]]
    return [dict(zip(head, (c.strip() for c in r))) for r in rows[2:]]


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    d = tmp_path_factory.mktemp("neovim")
    f = d / "fusion.mlir"
    shutil.copyfile(EXAMPLE, f)
    report = d / "report.json"
    env = dict(
        os.environ,
        AFFINE_NVIM_FILE=str(f),
        AFFINE_NVIM_CMD=json.dumps([sys.executable, "-m", "affine_lsp", "serve"]),
        AFFINE_NVIM_HOVER="affine.load %a[%k - 2]",
        AFFINE_NVIM_FUSE="affine.for %i",
        AFFINE_NVIM_FUSE_DELTA="3",
        AFFINE_NVIM_ERROR="%undefined",
        AFFINE_NVIM_OUT=str(report),
        XDG_CONFIG_HOME=str(d / "config"),
        XDG_DATA_HOME=str(d / "data"),
        XDG_STATE_HOME=str(d / "state"),
        XDG_CACHE_HOME=str(d / "cache"),
    )
    assert NVIM is not None
    p = subprocess.run(
        [NVIM, "--headless", "--clean", "-u", "NONE", "-i", "NONE", "-c", f"luafile {SESSION}"],
        env=env,
        cwd=d,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert report.is_file(), f"nvim wrote no report (exit {p.returncode}):\n{p.stdout}\n{p.stderr}"
    got = json.loads(report.read_text())
    assert got.get("ok"), f"the Neovim session failed after steps {got.get('steps')}:\n{got.get('error')}"
    got["source"] = f.read_text()  # nvim never wrote the file: the example as it was
    return got


def test_error_diagnostic_in_neovim(session: dict[str, Any]) -> None:
    source = session["source"]
    assert session["nvim"]["major"] > 0 or session["nvim"]["minor"] >= 7, session["nvim"]
    cli = _cli_errors(EXAMPLE)
    assert len(cli) == 1, cli
    errors = [d for d in session["diagnostics"] if d["severity"] == 1]  # vim.diagnostic.severity.ERROR
    assert len(errors) == 1, session["diagnostics"]
    assert errors[0]["lnum"] == _line_of(source, "%undefined") == cli[0]["range"]["start"]["line"]
    assert errors[0]["col"] == cli[0]["range"]["start"]["character"]
    assert errors[0]["message"] == cli[0]["message"]
    assert errors[0]["source"] == "affine-lsp"


def test_hover_shows_the_dependence_distance(session: dict[str, Any]) -> None:
    source = session["source"]
    assert session["hover_position"] == {"line": _line_of(source, "affine.load %a[%k - 2]"), "character": 9}
    hover = session["hover"]
    assert "access function: `%a[%k - 2]`" in hover, hover
    # The load reads a[k - 2], which the store to a[k] wrote two iterations
    # earlier: a read-after-write dependence of distance 2 carried by %k.
    raw = [r for r in _table(hover) if r.get("kind", "").startswith("RAW") and "affine.store" in r.get("with", "")]
    assert len(raw) == 1, hover
    numbers = re.findall(r"-?\d+", raw[0]["memory-based distance"])
    assert numbers and set(numbers) == {"2"}, raw[0]
    assert raw[0]["direction"] == "`(2)`", raw[0]
    assert "affine.for %k" in raw[0]["carried by"], raw[0]
    store_line = _line_of(source, "affine.store %y, %a[%k]") + 1
    assert f"(line {store_line})" in raw[0]["with"], raw[0]


def test_fuse_loops_code_action_applied_in_the_buffer(session: dict[str, Any], tmp_path: Path) -> None:
    source, after = session["source"], session["after"]
    assert any(t.startswith("Fuse loops here") for t in session["actions"]), session["actions"]
    assert session["applied"].startswith("Fuse loops here (producer-consumer"), session["applied"]
    assert not session.get("applied_disabled"), session
    assert session["modified"] is True
    assert after != source
    fused = _function(after, "fuse")
    # One loop nest where there were two; the producer's computation comes
    # before the consumer's store inside it.
    assert _function(source, "fuse").count("affine.for") == 2
    assert fused.count("affine.for") == 1, fused
    assert re.search(r"affine\.for %\w+ = 0 to 64", fused), fused
    load_in = fused.find("affine.load %in[")
    mul = fused.find("arith.mulf")
    store_out = re.search(r"affine\.store [^\n]*%out\[", fused)
    assert 0 <= load_in < mul and store_out and store_out.start() > mul, fused
    # The rest of the buffer is untouched.
    assert after[: after.index("func.func @fuse")] == source[: source.index("func.func @fuse")]
    assert after[after.index("func.func @carried") :] == source[source.index("func.func @carried") :]
    # The fused text is valid: the CLI finds only the deliberate error in it ...
    f = tmp_path / "fused.mlir"
    f.write_text(after)
    assert [e["message"] for e in _cli_errors(f)] == [e["message"] for e in _cli_errors(EXAMPLE)]
    # ... and so does the server, which got the edit from Neovim.
    line = _line_of(after, "%undefined")
    assert session["error_line_after"] == line != _line_of(source, "%undefined")
    assert session["diagnostics_after"] == [{"lnum": line, "message": _cli_errors(EXAMPLE)[0]["message"]}]
