"""Dependence hovers, inlay hints, ``affine-lsp.showDependences`` and the
analysis diagnostics, end to end (needs ``affine_lsp.analysis`` and
``affine_lsp.verify``)."""

from __future__ import annotations

import asyncio
import importlib.util

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.test_server_support import DATA, config, diagnostics_for, hover_text, no_server_errors, open_file, pos, start, uri_of

if importlib.util.find_spec("affine_lsp.analysis") is None or importlib.util.find_spec("affine_lsp.verify") is None:
    pytest.skip("the analysis/verify packages are not available", allow_module_level=True)

pytestmark = pytest.mark.asyncio(loop_scope="module")

KERNELS = (DATA / "kernels.mlir").read_text()
K = uri_of("kernels.mlir")


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    await start(lsp_client)
    open_file(lsp_client, "kernels.mlir")
    open_file(lsp_client, "analysis.mlir")
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


async def hover(client: LanguageClient, needle: str, delta: int = 0, nth: int = 0, uri: str = K, text: str = KERNELS) -> str:
    """The hover text, once the function's analysis is available (a hover
    does not wait long for it: it says so and the next one has it)."""
    for _ in range(200):
        h = await client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos(text, needle, nth=nth, delta=delta))
        )
        got = hover_text(h)
        if "still running" not in got and "not analysed yet" not in got:
            return got
        await asyncio.sleep(0.05)
    raise AssertionError("the analysis never finished")


async def test_hover_access_dependences(client: LanguageClient):
    text = await hover(client, "affine.load %A[%i, %j - 1]")
    assert "access function: `%A[%i, %j - 1]`" in text
    assert "{ S0[i, j] -> A[i, -1 + j] : 0 <= i <= 63 and 0 < j <= 63 }" in text
    # one RAW from the store, distance 1 along %j, value-based, carried by the inner loop
    store_line = pos(KERNELS, "affine.store %a").line + 1
    j_line = pos(KERNELS, "affine.for %j = 1").line + 1
    row = next(line for line in text.splitlines() if "RAW" in line)
    assert f"← `affine.store` (line {store_line})" in row
    assert "| 2 |" in row and "`[0, 0][1, 1]`" in row and "`(0, 1)`" in row
    assert "value-based" in row and f"`affine.for %j` (line {j_line})" in row


async def test_hover_store_memory_and_value_based(client: LanguageClient):
    text = await hover(client, "affine.store %s")
    rows = [line for line in text.splitlines() if line.startswith("| ") and "on `%B`" in line]
    kinds = {r.split("|")[2].strip().split()[0] for r in rows}
    assert kinds == {"RAW", "WAR", "WAW"}
    assert any("WAR" in r and "memory-based" in r for r in rows)
    assert any("RAW" in r and "value-based" in r for r in rows)
    # a RAW carried by %t whose values are always overwritten first is memory-based only
    assert any("RAW" in r and "memory-based" in r and "affine.for %t" in r for r in rows)
    assert any("↺ itself" in r and "WAW" in r for r in rows)


async def test_hover_loops(client: LanguageClient):
    text = await hover(client, "affine.for %i = 0 to 64 {")
    assert "trip count: 64 (exact)" in text
    assert "**parallel**: yes" in text and "**vectorizable**: yes" in text
    text = await hover(client, "affine.for %j = 1")
    assert "trip count: 63 (exact)" in text
    assert "**parallel**: no — RAW carried by loop #2" in text
    assert "**vectorizable**: no" in text
    assert "**Carried dependences** (1)" in text
    text = await hover(client, "affine.for %t")
    assert "`%T` (symbolic)" in text
    assert "**parallel**: no" in text
    text = await hover(client, "affine.for %i = 0 to min")
    assert "trip count:" in text and "ceildiv 2" in text


async def test_inlay_hints(client: LanguageClient):
    n = KERNELS.count("\n")
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=K),
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=n, character=0)),
        )
    )
    by_line = {h.position.line: h.label for h in hints}
    lines = KERNELS.split("\n")
    i_line = pos(KERNELS, "affine.for %i = 0 to 64 {").line
    j_line = pos(KERNELS, "affine.for %j = 1").line
    assert by_line[i_line] == "parallel"
    assert by_line[j_line] == "carries RAW %A d=1"
    assert by_line[pos(KERNELS, "affine.for %i = 1 to 65").line].startswith("carries RAW %B d=1")
    for h in hints:
        assert h.position.character == len(lines[h.position.line])  # after the header
    # only the requested range
    part = await client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=K),
            range=types.Range(start=types.Position(line=j_line, character=0), end=types.Position(line=j_line + 1, character=0)),
        )
    )
    assert [h.label for h in part] == ["carries RAW %A d=1"]


async def show(client: LanguageClient, args: list) -> str:
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(command="affine-lsp.showDependences", arguments=args))


async def test_show_dependences_command(client: LanguageClient):
    p = pos(KERNELS, "affine.store %s", delta=3)
    md = await show(client, [{"uri": K, "position": {"line": p.line, "character": p.character}}])
    assert md.startswith("### Dependences of `affine.store`")
    assert "WAR on `%B`" in md and "memory-based" in md
    p = pos(KERNELS, "%s = arith.addf")
    md = await show(client, [{"uri": K, "position": {"line": p.line, "character": p.character}}])
    assert md.startswith("### `affine.for %i`") and "**Carried dependences**" in md
    p = pos(KERNELS, "call @recurrence")
    md = await show(client, [{"uri": K, "position": {"line": p.line, "character": p.character}}])
    assert "has no affine loops" in md
    p = pos(KERNELS, "%c0 = arith.constant")
    md = await show(client, [{"uri": K, "position": {"line": p.line, "character": p.character}}])
    assert "### Loops of `@recurrence`" in md and "| `affine.for %j`" in md
    with pytest.raises(Exception, match="expects"):
        await show(client, ["nonsense"])
    with pytest.raises(Exception, match="not open"):
        await show(client, [{"uri": "file:///nowhere.mlir", "position": {"line": 0, "character": 0}}])


async def test_analysis_diagnostics(client: LanguageClient):
    uri = uri_of("analysis.mlir")
    diags = await diagnostics_for(client, uri, 1, pred=lambda d: any("race" in x.message for x in d))
    race = next(d for d in diags if "race" in d.message)
    # A warning since issue #14 (mlir-opt accepts racy IR), naming two iterations;
    # the dependence itself is the first related information, at the loop.
    assert race.severity == types.DiagnosticSeverity.Warning and race.source == "affine-lsp"
    assert race.range.start.line == 2
    rel = race.related_information or []
    assert [r.location.range.start.line for r in rel] == [2, 3, 4]
    assert rel[0].message.endswith("across iterations (distance [1, 1])")
    assert race.message == "'affine.parallel' op iterations race: iteration (%i = 0) reads %A[1], which iteration (%i = 1) writes"
    assert all(r.location.uri == uri for r in rel)
    oob = next(d for d in diags if "out of upper bound" in d.message)
    assert oob.severity == types.DiagnosticSeverity.Warning and oob.range.start.line == 11
    assert oob.code


async def test_hover_vector_accesses_and_parallel_loops(client: LanguageClient):
    uri = uri_of("analysis.mlir")
    text = (DATA / "analysis.mlir").read_text()
    h = await hover(client, "affine.vector_load", uri=uri, text=text)
    assert "**affine.vector_load** reads `%A`" in h and "access function: `%A[%i]`" in h
    assert "{ S0[i] -> A[y0] : (i) mod 8 = 0 and 0 <= i <= 63 and i <= y0 <= 7 + i }" in h
    h = await hover(client, "affine.vector_store", uri=uri, text=text)
    assert "writes `%B`" in h and "**No dependences**" in h
    h = await hover(client, "affine.for %i = 0 to 64 step 8", uri=uri, text=text)
    assert "trip count: 8 (exact)" in h and "**parallel**: yes" in h
    h = await hover(client, "affine.parallel", uri=uri, text=text)
    assert "trip count: 99" in h
    assert "**parallel**: no — WAR carried by loop #1" in h
    assert "| `%v = affine.load` (line 4) → `affine.store` (line 5) | WAR on `%A` | 1 | `[1, 1]` |" in h
