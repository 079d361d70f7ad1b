"""Bounded analysis, end to end through the real server: the isl operation
budget (``affineLsp.analysis.islMaxOperations``) and the time budget of each
function's analysis (``affineLsp.analysis.timeBudgetMs``) are honoured as
settings; a pathological function gets an info note and blocks neither the
editor nor the other documents; stale analyses give way to newer versions."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.test_reliability_hostile import _accesses
from tests.test_server_support import DATA, config, diagnostics_for, hover_text, no_server_errors, open_doc, pos, start

pytestmark = pytest.mark.asyncio(loop_scope="module")

KERNELS = (DATA / "kernels.mlir").read_text()
RESPONSIVE_S = 2.0
TIME_BUDGET_MS = 400


@pytest_lsp.fixture(scope="module", config=config(AFFINE_LSP_DEBUG_MIRROR="0"))
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await start(lsp_client, configuration=False)
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


def ident(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def configure(client: LanguageClient, **analysis: Any) -> None:
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"affineLsp": {"analysis": analysis}}))


async def hover(client: LanguageClient, uri: str, p: types.Position) -> tuple[str, float]:
    t0 = time.monotonic()
    h = await asyncio.wait_for(client.text_document_hover_async(types.HoverParams(text_document=ident(uri), position=p)), 60)
    return hover_text(h), time.monotonic() - t0


async def settled_hover(client: LanguageClient, uri: str, p: types.Position, timeout: float = 30.0) -> tuple[str, float]:
    """Hover until the analysis is there; (the text, the slowest answer)."""
    worst = 0.0
    end = time.monotonic() + timeout
    while True:
        text, dt = await hover(client, uri, p)
        worst = max(worst, dt)
        if "still running" not in text and "not analysed yet" not in text:
            return text, worst
        assert time.monotonic() < end, "the analysis never finished"
        await asyncio.sleep(0.05)


def close(client: LanguageClient, uri: str) -> None:
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=ident(uri)))


async def test_isl_operation_budget_is_a_setting(client: LanguageClient) -> None:
    uri = "file:///budget/ops.mlir"
    configure(client, islMaxOperations=100)
    open_doc(client, uri, KERNELS)
    diags = await diagnostics_for(client, uri, 1, pred=lambda d: any("budget exceeded" in x.message for x in d))
    notes = [d for d in diags if "budget exceeded" in d.message]
    assert all(d.severity == types.DiagnosticSeverity.Information for d in notes)
    assert notes[0].message.startswith("dependence analysis budget exceeded (100 isl operations) while ")
    assert notes[0].message.endswith("; assuming a dependence")
    # raising the budget recomputes every open document: the notes go away
    n = len(client.diag_log)  # type: ignore[attr-defined]
    configure(client, islMaxOperations=200_000)
    await diagnostics_for(client, uri, 1, n_after=n, pred=lambda d: not any("budget exceeded" in x.message for x in d))
    text, _ = await settled_hover(client, uri, pos(KERNELS, "affine.for %j = 1"))
    assert "**parallel**: no — RAW carried by loop #2" in text
    close(client, uri)


async def test_time_budget_pathological_function(client: LanguageClient) -> None:
    """A function whose analysis needs seconds gets an info note once the
    time budget is spent; meanwhile another document's hovers get their
    dependences and the pathological document's edits get diagnostics."""
    configure(client, timeBudgetMs=TIME_BUDGET_MS)
    small = "file:///budget/small.mlir"
    open_doc(client, small, KERNELS)
    await diagnostics_for(client, small, 1)
    await settled_hover(client, small, pos(KERNELS, "affine.for %j = 1"))

    uri = "file:///budget/pathological.mlir"
    text = _accesses(240, parallel=True)  # about 5 s of race analysis without a budget
    t0 = time.monotonic()
    open_doc(client, uri, text)
    # Other documents: their dependence hovers are answered, and answered with the analysis.
    worst = 0.0
    for needle in ("affine.load %A[%i, %j - 1]", "affine.for %i = 0 to 64 {", "affine.store %s"):
        got, dt = await settled_hover(client, small, pos(KERNELS, needle))
        worst = max(worst, dt)
        assert "**Dependences**" in got or "**parallel**" in got or "dependence" in got.lower()
    assert worst < RESPONSIVE_S
    diags = await diagnostics_for(client, uri, 1, pred=lambda d: any("time budget" in x.message for x in d), timeout=60)
    elapsed = time.monotonic() - t0
    note = next(d for d in diags if "time budget" in d.message)
    assert note.severity == types.DiagnosticSeverity.Information
    assert note.message == f"dependence analysis skipped: it needs more than the time budget of {TIME_BUDGET_MS} ms (affineLsp.analysis.timeBudgetMs)"
    assert note.range.start.line == 0
    assert elapsed < 15, f"the pathological function held the analysis for {elapsed:.1f} s"
    # its hovers say why there are no dependences, at once
    got, dt = await hover(client, uri, pos(text, "affine.parallel"))
    assert dt < RESPONSIVE_S and "time budget" in got
    # editing it: diagnostics of every new version arrive promptly
    for v in range(2, 6):
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=v),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(start=types.Position(line=3, character=0), end=types.Position(line=3, character=0)), text="  "
                    )
                ],
            )
        )
        t1 = time.monotonic()
        await diagnostics_for(client, uri, v, timeout=30)
        assert time.monotonic() - t1 < RESPONSIVE_S + 0.5
    close(client, uri)
    close(client, small)
    configure(client, timeBudgetMs=2000)


def _slowish(k: int, n: int = 40) -> str:
    return _accesses(n, parallel=True).replace("@big", f"@slow{k}")


async def test_stale_analyses_give_way_to_the_latest_version(client: LanguageClient) -> None:
    """Twelve functions of ~0.3 s of analysis each, edited every 0.3 s: no
    diagnostics of an older version arrive after those of a newer one, and
    the latest version is fully analysed in about the time of one analysis
    of the document (not one per edit)."""
    uri = "file:///budget/stale.mlir"
    funcs = [_slowish(k) for k in range(12)]
    text = "\n".join(funcs)
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, 1)
    n = len(client.diag_log)  # type: ignore[attr-defined]
    line = 3
    t0 = time.monotonic()
    for v in range(2, 12):
        # a changed constant offset in one access of the first function, so its analysis is stale
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=v),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(start=types.Position(line=line, character=32), end=types.Position(line=line, character=33)), text=str(v % 10)
                    )
                ],
            )
        )
        await asyncio.sleep(0.3)
    races = await diagnostics_for(client, uri, 11, n_after=n, pred=lambda d: sum("race" in x.message for x in d) == 12, timeout=120)
    elapsed = time.monotonic() - t0
    assert sum("race" in d.message for d in races) == 12
    versions = [p.version for p in client.diag_log[n:] if p.uri == uri]  # type: ignore[attr-defined]
    assert versions == sorted(versions), versions
    assert elapsed < 3 + 12 * 0.3 + 15, f"the latest version took {elapsed:.1f} s"
    close(client, uri)
