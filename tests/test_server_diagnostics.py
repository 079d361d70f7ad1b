"""Diagnostics end to end: debounce and stale versions, save, close, related
information, ``// -----`` sections, per-function analysis caching,
``$/progress``, pull diagnostics and settings."""

from __future__ import annotations

import asyncio
import importlib.util

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.test_server_support import (
    DATA,
    change,
    config,
    diagnostics_for,
    hover_text,
    no_server_errors,
    offset,
    open_doc,
    open_file,
    pos,
    start,
    wait_for,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")
HAS_ANALYSIS = importlib.util.find_spec("affine_lsp.analysis") is not None
needs_analysis = pytest.mark.skipif(not HAS_ANALYSIS, reason="affine_lsp.analysis not available")

DEBOUNCE_MS = 200


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    await start(lsp_client, init_options={"diagnostics": {"debounceMs": DEBOUNCE_MS}})
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


def publishes(client: LanguageClient, uri: str) -> list[types.PublishDiagnosticsParams]:
    return [p for p in client.diag_log if p.uri == uri]  # type: ignore[attr-defined]


async def test_keystrokes_publish_in_order_and_end_with_the_latest_version(client: LanguageClient):
    uri = "file:///tmp/affine-lsp-test/debounce.mlir"
    text = (DATA / "kernels.mlir").read_text()
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, 1)
    n = len(publishes(client, uri))
    for v in range(2, 8):  # six keystrokes in a comment
        change(client, uri, v, types.Position(line=0, character=3 + v), types.Position(line=0, character=3 + v), "x")
    await diagnostics_for(client, uri, 7)
    await asyncio.sleep(DEBOUNCE_MS / 1000 + 0.3)
    later = [p.version for p in publishes(client, uri)[n:]]
    # never an older version after a newer one, and the latest last
    assert later == sorted(later) and later[-1] == 7, later


async def test_save_and_close(client: LanguageClient):
    uri, _text = open_file(client, "broken.mlir")
    await diagnostics_for(client, uri, 1)
    n = len(publishes(client, uri))
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    await wait_for(lambda: len(publishes(client, uri)) > n, 10, "diagnostics after save")
    assert len(publishes(client, uri)[-1].diagnostics) == 1
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    await wait_for(lambda: len(publishes(client, uri)[-1].diagnostics) == 0, 10, "cleared diagnostics")
    # requests on the closed document get empty answers
    h = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=4, character=6))
    )
    assert h is None


async def test_related_information_code_and_source(client: LanguageClient):
    uri = "file:///tmp/affine-lsp-test/redefinition.mlir"
    text = "func.func @f() {\n  %x = arith.constant 0 : index\n  %x = arith.constant 1 : index\n  return\n}\n"
    open_doc(client, uri, text)
    diags = await diagnostics_for(client, uri, 1)
    (d,) = [d for d in diags if d.severity == types.DiagnosticSeverity.Error]
    assert d.code == "redefinition" and d.source == "affine-lsp"
    assert d.message == "redefinition of SSA value '%x'"
    assert d.range.start == types.Position(line=2, character=2)
    (rel,) = d.related_information
    assert rel.message == "previously defined here" and rel.location.uri == uri
    assert rel.location.range.start == types.Position(line=1, character=2)


async def test_sections_are_independent(client: LanguageClient):
    uri, text = open_file(client, "split.mlir")
    diags = await diagnostics_for(client, uri, 1)
    errors = [d for d in diags if d.severity == types.DiagnosticSeverity.Error]
    assert [(d.range.start.line, d.message) for d in errors] == [(pos(text, "%undefined").line, "use of undeclared SSA value name")]

    async def hover(needle: str, nth: int) -> str:
        h = await client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos(text, needle, nth=nth, delta=1))
        )
        return hover_text(h)

    assert "d0 * 2" in await hover("#map(%i)", 0)
    assert "d0 + 3" in await hover("#map(%i)", 1)
    loc = await client.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos(text, "#map(%i)", nth=1, delta=1))
    )
    assert loc[0].range.start == pos(text, "#map =", nth=1)
    syms = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    assert [s.name for s in syms] == ["section 1", "section 2", "section 3"]
    assert [c.name for c in syms[1].children] == ["#map", "@second"]


@needs_analysis
async def test_unchanged_functions_keep_their_analysis(client: LanguageClient):
    uri = "file:///tmp/affine-lsp-test/incremental.mlir"
    text = (DATA / "analysis.mlir").read_text()
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, 1, pred=lambda d: any("race" in x.message for x in d))
    n = len(publishes(client, uri))
    # edit @fine: its IR is rebuilt; @racy's analysis must come from the cache,
    # i.e. already be in the first publish of the new version
    p = pos(text, "%v = affine.load %A[%i] : memref<10xf32>")
    change(client, uri, 2, p, p, "%w = affine.load %A[%i] : memref<10xf32>\n    ")
    await diagnostics_for(client, uri, 2)
    first = next(x for x in publishes(client, uri)[n:] if x.version == 2)
    assert any("race" in d.message for d in first.diagnostics)
    assert any("out of upper bound" in d.message for d in first.diagnostics)


@needs_analysis
async def test_progress_for_long_analyses(client: LanguageClient):
    body = (DATA / "kernels.mlir").read_text()
    funcs = body[body.index("// A recurrence") : body.index("func.func @caller")]
    text = "\n".join(funcs.replace("@", f"@v{k}_") for k in range(4))
    uri = "file:///tmp/affine-lsp-test/progress.mlir"
    before = set(client.progress_reports)
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, 1)

    def ended() -> bool:
        for token in set(client.progress_reports) - before:
            kinds = [type(v).__name__ for v in client.progress_reports[token]]
            if kinds and kinds[0] == "WorkDoneProgressBegin" and kinds[-1] == "WorkDoneProgressEnd":
                return True
        return False

    await wait_for(ended, 60, "a begin ... end progress")
    token = next(iter(set(client.progress_reports) - before))
    begin = client.progress_reports[token][0]
    assert "dependence analysis" in begin.title


# ---------------------------------------------------------------- pull diagnostics
@pytest_lsp.fixture(scope="module", config=config())
async def pull_client(lsp_client: LanguageClient):
    await start(lsp_client, pull=True)
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


async def test_pull_diagnostics(pull_client: LanguageClient):
    client = pull_client
    uri, text = open_file(client, "broken.mlir")
    ident = types.TextDocumentIdentifier(uri=uri)
    rep = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=ident))
    assert rep.kind == "full"
    assert [d.range.start.line for d in rep.items if d.severity == types.DiagnosticSeverity.Error] == [12]
    assert all(d.source == "affine-lsp" for d in rep.items)
    # once the analysis (deferred) has been merged, the same result is "unchanged"
    for _ in range(20):
        await asyncio.sleep(0.3)
        rep = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=ident))
        again = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=ident, previous_result_id=rep.result_id))
        if again.kind == "unchanged":
            break
    assert again.kind == "unchanged" and again.result_id == rep.result_id
    # fix the error: the next pull has no error
    p = pos(text, "%A[%i :", delta=5)
    change(client, uri, 2, p, p, "]")
    rep2 = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=ident, previous_result_id=rep.result_id))
    assert rep2.kind == "full" and not [d for d in rep2.items if d.severity == types.DiagnosticSeverity.Error]
    # a pull client never gets pushed diagnostics (no duplicates in the editor)
    assert [p for p in client.diag_log if p.uri == uri] == []  # type: ignore[attr-defined]
    # unknown documents: an empty report
    rep3 = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri="file:///not/open.mlir")))
    assert rep3.kind == "full" and len(rep3.items) == 0


@needs_analysis
async def test_pull_refresh_after_analysis(pull_client: LanguageClient):
    client = pull_client
    uri, _ = open_file(client, "analysis.mlir")
    ident = types.TextDocumentIdentifier(uri=uri)
    # The first pull has the syntax and verifier diagnostics; the analysis
    # follows and the server asks the client to pull again.
    for _ in range(100):
        n = client.diagnostic_refresh_count
        rep = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=ident))
        if any("race" in d.message for d in rep.items):
            break
        await wait_for(lambda n=n: client.diagnostic_refresh_count > n, 30, "workspace/diagnostic/refresh")
    assert any("race" in d.message for d in rep.items)
    assert client.diagnostic_refresh_count > 0


# ---------------------------------------------------------------- settings
@pytest_lsp.fixture(scope="module", config=config())
async def settings_client(lsp_client: LanguageClient):
    # initializationOptions enable the analysis, workspace/configuration disables it
    lsp_client.set_configuration({"analysis": {"enabled": False, "timeBudgetMs": 5000}}, section="affineLsp")
    await start(lsp_client, init_options={"analysis": {"enabled": True}})
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


@needs_analysis
async def test_settings_from_configuration_and_changes(settings_client: LanguageClient):
    client = settings_client
    uri, text = open_file(client, "kernels.mlir")
    await diagnostics_for(client, uri, 1)
    p = pos(text, "affine.load %A[%i, %j - 1]")
    ident = types.TextDocumentIdentifier(uri=uri)

    async def hover() -> str:
        return hover_text(await client.text_document_hover_async(types.HoverParams(text_document=ident, position=p)))

    async def hints() -> list[types.InlayHint]:
        rng = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=200, character=0))
        return await client.text_document_inlay_hint_async(types.InlayHintParams(text_document=ident, range=rng))

    await wait_for(lambda: True, 1)
    assert "dependence analysis is disabled" in await hover()
    assert len(await hints()) == 0
    # the user enables it: didChangeConfiguration (pull model) -> workspace/configuration
    client.set_configuration({"analysis": {"enabled": True}}, section="affineLsp")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))

    async def enabled() -> bool:
        return "RAW on `%A`" in await hover()

    for _ in range(100):
        if await enabled():
            break
        await asyncio.sleep(0.05)
    assert await enabled()
    assert any(h.label == "carries RAW %A d=1" for h in await hints())
    # settings pushed in the notification (push model), bad values ignored
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"affineLsp": {"analysis": {"enabled": "yes please"}, "diagnostics": {"debounceMs": -5}}})
    )
    await asyncio.sleep(0.2)
    assert "RAW on `%A`" in await hover()


# ---------------------------------------------------------------- no debounce before the fast diagnostics
HUGE_DEBOUNCE_MS = 10_000_000
RACY_EDIT = "%bad = arith.addi %nowhere, %nowhere : index\n    "


async def _fresh_diagnostics(client: LanguageClient, uri: str, text: str) -> list[tuple]:
    """The first diagnostics of a fresh open of ``text`` (before any analysis)."""
    open_doc(client, uri, text)
    first = await wait_for(lambda: publishes(client, uri), 30, "diagnostics of a fresh open")
    return _key(first[0].diagnostics)


def _key(diags: list[types.Diagnostic]) -> list[tuple]:
    return sorted((d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, d.severity, d.message) for d in diags)


@pytest_lsp.fixture(scope="module", config=config())
async def patient_client(lsp_client: LanguageClient):
    await start(lsp_client, init_options={"diagnostics": {"debounceMs": HUGE_DEBOUNCE_MS}}, trace=types.TraceValue.Messages)
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


def traces(client: LanguageClient, uri: str, version: int) -> list[str]:
    """The server's ``$/logTrace`` messages about computing ``version`` of ``uri``."""
    prefix = f"diagnostics {uri} v{version}: "
    return [m[len(prefix) :] for m in client.trace_log if m.startswith(prefix)]  # type: ignore[attr-defined]


@needs_analysis
async def test_fast_diagnostics_are_pushed_without_waiting_for_the_debounce(patient_client: LanguageClient):
    """debounceMs delays the analysis only: with a debounce of hours, an
    edit's syntax and verifier diagnostics are published, and they are those
    of a fresh open of the same text; the analysis of the edited function
    never runs, the other functions keep theirs."""
    client = patient_client
    uri = "file:///tmp/affine-lsp-test/patient.mlir"
    text = (DATA / "analysis.mlir").read_text()
    open_doc(client, uri, text)
    # after opening, the analysis runs without waiting for the debounce
    await diagnostics_for(client, uri, 1, pred=lambda d: any("race" in x.message for x in d) and any("out of upper bound" in x.message for x in d))
    p = pos(text, "%v = affine.load %A[%i + 1] : memref<100xf32>")
    change(client, uri, 2, p, p, RACY_EDIT)
    diags = await diagnostics_for(client, uri, 2)
    assert [d.message for d in diags if d.severity == types.DiagnosticSeverity.Error] == ["use of undeclared SSA value name"] * 2
    assert not any("race" in d.message for d in diags)  # @racy changed: its analysis is deferred
    assert any("out of upper bound" in d.message for d in diags)  # the other functions keep theirs
    assert traces(client, uri, 2) == ["fast phase"]
    await asyncio.sleep(1.0)
    assert traces(client, uri, 2) == ["fast phase"]  # no analysis: the debounce has not passed
    new_text = text.replace("%v = affine.load %A[%i + 1] : memref<100xf32>", RACY_EDIT + "%v = affine.load %A[%i + 1] : memref<100xf32>", 1)
    fresh = await _fresh_diagnostics(client, "file:///tmp/affine-lsp-test/patient-fresh.mlir", new_text)
    assert [k for k in _key(diags) if "out of upper bound" not in k[-1]] == fresh


async def test_a_burst_of_changes_computes_only_current_versions(patient_client: LanguageClient):
    """Fifty changes sent at once: diagnostics for the last version, equal to
    those of a fresh open; no version is computed twice or after a newer one,
    and versions are published in order. (How many versions are skipped
    depends on how fast the server is against the client: on an idle machine
    a fast phase can finish before the next change arrives.)"""
    client = patient_client
    uri = "file:///tmp/affine-lsp-test/burst.mlir"
    text = (DATA / "kernels.mlir").read_text()
    open_doc(client, uri, text)
    await diagnostics_for(client, uri, 1)
    n = len(publishes(client, uri))
    cur = text
    for v in range(2, 52):  # in three functions, one notification each, without waiting
        p = pos(cur, "return", nth=v % 3)
        change(client, uri, v, p, p, f"%burst{v} = arith.constant {v} : index\n  ")
        i = offset(cur, p)
        cur = cur[:i] + f"%burst{v} = arith.constant {v} : index\n  " + cur[i:]
    final = await diagnostics_for(client, uri, 51)
    versions = [p.version for p in publishes(client, uri)[n:]]
    assert versions == sorted(versions) and versions[-1] == 51, versions
    computed = [v for v in range(2, 52) for m in traces(client, uri, v) if m == "fast phase"]
    assert computed == sorted(set(computed)) and computed[-1] == 51, computed
    assert _key(final) == await _fresh_diagnostics(client, "file:///tmp/affine-lsp-test/burst-fresh.mlir", cur)


@pytest_lsp.fixture(scope="module", config=config())
async def patient_pull_client(lsp_client: LanguageClient):
    await start(lsp_client, init_options={"diagnostics": {"debounceMs": HUGE_DEBOUNCE_MS}}, pull=True, trace=types.TraceValue.Messages)
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


@needs_analysis
async def test_fast_diagnostics_are_pulled_without_waiting_for_the_debounce(patient_pull_client: LanguageClient):
    """The same for a pull client: the pull after a change answers with the
    new version's verifier diagnostics, computed once (the change's run and
    the pull share it); the analysis waits for the debounce."""
    client = patient_pull_client
    uri = "file:///tmp/affine-lsp-test/patient-pull.mlir"
    text = (DATA / "analysis.mlir").read_text()
    open_doc(client, uri, text)
    ident = types.TextDocumentIdentifier(uri=uri)
    await wait_for(lambda: traces(client, uri, 1) == ["fast phase", "analysis", "analysis complete"], 30, "the analysis after opening")
    p = pos(text, "%v = affine.load %A[%i + 1] : memref<100xf32>")
    change(client, uri, 2, p, p, RACY_EDIT)
    rep = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=ident))
    assert [d.message for d in rep.items if d.severity == types.DiagnosticSeverity.Error] == ["use of undeclared SSA value name"] * 2
    assert not any("race" in d.message for d in rep.items)
    await asyncio.sleep(1.0)
    assert traces(client, uri, 2) == ["fast phase"]
