"""The editor's explanations are the engines' facts (issue 43, item 4), over
a real LSP client: the accumulator's hover labels the dependence engine's
memory-based distance and the dataflow engine's value-based (last-writer)
distance apart, each equal to what the engine computes; the loop hover says
"not offered" for a size threshold and "not applicable" where there is
nothing to rewrite, never "not legal"."""

from __future__ import annotations

import asyncio
import importlib.util

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp.analysis import dependences_of_function
from affine_lsp.analysis.dataflow import last_writer_distance
from affine_lsp.ide.describe import components_str
from affine_lsp.source.document import Document
from tests.test_server_support import DATA, config, hover_text, no_server_errors, open_file, pos, start, uri_of

if importlib.util.find_spec("affine_lsp.analysis") is None:
    pytest.skip("the analysis package is not available", allow_module_level=True)

pytestmark = pytest.mark.asyncio(loop_scope="module")

NAME = "explanations.mlir"
TEXT = (DATA / NAME).read_text()
URI = uri_of(NAME)


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    await start(lsp_client)
    open_file(lsp_client, NAME)
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


async def hover(client: LanguageClient, needle: str, done: str) -> str:
    """The hover on ``needle`` once it has ``done`` (the analysis and the
    value flows are computed in the background)."""
    got = ""
    for _ in range(400):
        h = await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=URI), position=pos(TEXT, needle)))
        got = hover_text(h)
        if done in got and "not analysed yet" not in got and "still running" not in got:
            return got
        await asyncio.sleep(0.05)
    raise AssertionError(f"the hover never had {done!r}: {got}")


def _engines() -> tuple[str, str]:
    """The accumulator's carried RAW: its memory-based distance (the
    dependence engine) and its value-based one (the dataflow engine)."""
    doc = Document(TEXT)
    func = next(iter(doc.sections[0].functions()))
    fd = dependences_of_function(func)
    [dep] = [r for p in fd.pairs for r in p.results if r.kind == "RAW" and r.has_dependence and r.is_carried]
    value = last_writer_distance(fd.dataflow(), dep)
    assert value is not None
    return components_str(dep.components), components_str(value)


async def test_the_accumulator_hover_labels_both_distances_as_the_engines_compute_them(client: LanguageClient):
    memory, value = _engines()
    assert memory != value  # [1, 9] and [1, 1]: the test tells them apart
    text = await hover(client, "affine.load %s[0]", "value-based `")
    header = next(line for line in text.splitlines() if line.startswith("| with"))
    assert "memory-based distance" in header and "value flow" in header
    row = next(line for line in text.splitlines() if "RAW on `%s`" in line and "(line" in line and "affine.for %i" in line)
    cells = [c.strip() for c in row.strip("|").split("|")]
    cols = [c.strip() for c in header.strip("|").split("|")]
    got = dict(zip(cols, cells))
    assert got["memory-based distance"] == f"`{memory}`"
    assert got["value flow"] == f"value-based `{value}`"
    for line in text.splitlines():  # a WAR / WAW is never called value-based
        if line.startswith("| ") and ("WAR on" in line or "WAW on" in line):
            assert "value-based" not in line and "memory-based only" in line, line


async def test_the_loop_hover_says_not_offered_and_not_applicable_not_not_legal(client: LanguageClient):
    text = await hover(client, "affine.for %i = 0 to 99", "**Transformations**")
    lines = {line.split(":", 1)[0]: line for line in text.splitlines() if line.startswith("- ")}
    assert lines["- full unroll"] == "- full unroll: not offered — trip count 99 > 16, the largest unrolled fully"
    assert lines["- scalar replacement"].startswith("- scalar replacement: not applicable — ")
    assert "not legal" not in text
