"""Real files where affine code sits among other dialects (GPU outlining,
linalg, vector, scf, lowering tests; ``shared/corpus/realworld``, skipped when
absent): no error on any ``// -----`` section that MLIR 22.1.8's mlir-opt
accepts, in the CLI and in the editor, and no cascade: an op whose custom
syntax affine-lsp does not know is reported at most once per op name."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp import diagnostics
from affine_lsp.source.document import Document
from tests.corpus import needs_realworld, realworld_files, realworld_valid_lines
from tests.test_server_support import config, diagnostics_for, no_server_errors, open_doc, start

FILES = realworld_files()
IDS = [p.name for p in FILES]


def _in(ranges: list[tuple[int, int]], line: int) -> bool:
    return any(a <= line < b for a, b in ranges)


@needs_realworld
@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_check_reports_no_error_on_valid_sections(path: Path) -> None:
    doc = Document(path.read_text(), uri=str(path))
    ranges = realworld_valid_lines(path)
    bad = []
    for n in diagnostics.collect(doc):
        line = doc.lines.line_of(n.span.start)
        if n.severity == "error" and _in(ranges, line):
            bad.append(f"{path.name}:{line + 1}: {n.message}")
    assert not bad, "\n".join(bad)


@needs_realworld
@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_unknown_ops_reported_once_per_name(path: Path) -> None:
    doc = Document(path.read_text(), uri=str(path))
    per_name = Counter(n.message.split("'")[1] for n in diagnostics.collect(doc) if n.code == "unknown-op")
    assert all(k == 1 for k in per_name.values()), per_name.most_common(5)


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    await start(lsp_client, init_options={"diagnostics": {"debounceMs": 0}})
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


@needs_realworld
@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("path", FILES, ids=IDS)
async def test_editor_shows_no_error_on_valid_sections(client: LanguageClient, path: Path) -> None:
    text = path.read_text()
    uri = path.as_uri()
    open_doc(client, uri, text)
    diags = await diagnostics_for(client, uri, 1, timeout=120)
    ranges = realworld_valid_lines(path)
    bad = [
        f"{path.name}:{d.range.start.line + 1}: {d.message}" for d in diags if d.severity == types.DiagnosticSeverity.Error and _in(ranges, d.range.start.line)
    ]
    assert not bad, "\n".join(bad)
