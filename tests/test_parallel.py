"""A large document checked on two processes (affine_lsp.parallel) gives
exactly what one process gives.

The split is forced on every file (``MIN_CHARS = 0``): the corpus in
../shared, the test data, and broken variants whose errors fall in the
child's share (syntax, parse-class and verifier errors, an error that stops
a nested module's checks, out-of-bounds warnings). A child that fails,
dies or answers nonsense leaves the answer unchanged (one process then)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from affine_lsp import parallel
from affine_lsp.commands import check
from affine_lsp.source.document import Document
from tests.corpus import SHARED

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(not parallel.available(), reason="the split needs fork (Linux)")


def _files() -> list[Path]:
    out = sorted((SHARED / "corpus").rglob("*.mlir")) if (SHARED / "corpus").is_dir() else []
    return out + sorted((ROOT / "tests" / "data").rglob("*.mlir"))


def _report(path: str, text: str, split: bool, fmt: str = "json") -> check.FileReport:
    return check.check_path(path, check.Options(format=fmt, split=split), text)


@pytest.fixture
def forced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MIN_CHARS", 0)


def _same(path: str, text: str) -> bool:
    """Asserts the two reports are equal; True when the split happened."""
    one = _report(path, text, split=False)
    two = _report(path, text, split=True)
    assert (two.status, two.errors, two.warnings, two.items) == (one.status, one.errors, one.warnings, one.items), path
    return parallel.plan(Document(text)) is not None


def test_corpus_and_test_data_unchanged(forced: None) -> None:
    files = _files()
    assert files
    split = sum(_same(str(f), f.read_text(errors="replace")) for f in files)
    # Most files have two functions or more: the split really ran on them.
    assert split >= min(10, len(files) // 3), (split, len(files))


KERNEL = """func.func @k{n}(%A: memref<16x16xf32>, %B: memref<16x16xf32>) {{
  affine.for %i = 0 to 16 {{
    affine.for %j = 0 to 16 {{
      %v = affine.load %A[%i, %j] : memref<16x16xf32>
      affine.store %v, %B[%i, %j] : memref<16x16xf32>
    }}
  }}
  return
}}
"""


def _doc(n: int = 8, nested: bool = False) -> str:
    body = "#m = affine_map<(d0) -> (d0 + 1)>\n" + "".join(KERNEL.format(n=k) for k in range(n))
    return f"module {{\n{body}}}\n" if nested else body


BREAKS = {
    "syntax error": ("%v = affine.load %A[%i, %j]", "%v = affine.load %A[%i, %j"),
    "verifier error": ("affine.store %v, %B[%i, %j] : memref<16x16xf32>", "affine.store %v, %B[%i] : memref<16x16xf32>"),
    "parse-class error": ("affine.for %j = 0 to 16 {", "affine.for %j = 0 to affine_map<(d0) -> (d0, 4)>(%i) {"),
    "undefined value": ("affine.store %v, %B", "affine.store %w, %B"),
    "out of bounds": ("affine.store %v, %B[%i, %j]", "affine.store %v, %B[%i, %j + 1]"),
    "unknown op": ("return", "foo.bar\n  return"),
    "alias use": ("%v = affine.load %A[%i, %j]", "%v = affine.load %A[#m(%i), %j]"),
}


@pytest.mark.parametrize("nested", [False, True], ids=["top", "module"])
@pytest.mark.parametrize("what", sorted(BREAKS))
@pytest.mark.parametrize("where", ["first", "last", "both"])
def test_errors_in_either_share(forced: None, what: str, where: str, nested: bool) -> None:
    old, new = BREAKS[what]
    text = _doc(nested=nested)
    funcs = [m.start() for m in re.finditer(r"func\.func", text)]
    targets = {"first": [funcs[0]], "last": [funcs[-1]], "both": [funcs[0], funcs[-1]]}[where]
    for at in sorted(targets, reverse=True):
        k = text.index(old, at)
        text = text[:k] + new + text[k + len(old) :]
    assert _same("f.mlir", text)
    assert _report("f.mlir", text, split=True, fmt="text").output  # something to report


def test_text_and_sarif_formats(forced: None) -> None:
    text = _doc().replace("%B[%i, %j]", "%B[%i]", 1)
    for fmt in ("text", "sarif", "github"):
        one, two = _report("f.mlir", text, False, fmt), _report("f.mlir", text, True, fmt)
        assert (one.output, one.items) == (two.output, two.items)


def test_not_split_when_not_worth_it_or_not_independent(monkeypatch: pytest.MonkeyPatch) -> None:
    assert parallel.plan(Document(_doc())) is None  # small
    monkeypatch.setattr(parallel, "MIN_CHARS", 0)
    assert parallel.plan(Document(_doc())) is not None
    assert parallel.plan(Document(KERNEL.format(n=0))) is None  # one function
    # A value at the top of the module: its type may be learned from any item.
    assert parallel.plan(Document('%x = "test.op"() : () -> i32\n' + _doc())) is None
    # ... but only in its own section (`// -----`): the other sections' functions are split.
    text = '%x = "test.op"() : () -> i32\n' + _doc() + "// -----\n" + _doc()
    owned = parallel.plan(Document(text))
    assert owned is not None
    first_section_end = text.index("// -----")
    assert all(Document(text).chunks[i].start > first_section_end for i in owned)
    k = text.rindex("%B[%i, %j]")  # a verifier error in the child's share, and one in the parent's
    broken = text[:k] + "%B[%i]" + text[k + len("%B[%i, %j]") :]
    assert _same("f.mlir", broken.replace("%B[%i, %j]", "%B[%i]", 1))


def _child_fails(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    real = parallel.compute_items

    def broken(doc: Document, owned: list[int], analyses: bool) -> dict:
        if how == "raises":
            raise RuntimeError("boom")
        if how == "dies":
            os._exit(3)
        if how == "nonsense":
            return {owned[0]: "not a result"}  # type: ignore[dict-item]
        return real(doc, owned, analyses)

    monkeypatch.setattr(parallel, "compute_items", broken)


@pytest.mark.parametrize("how", ["raises", "dies", "nonsense"])
def test_a_failing_child_changes_nothing(forced: None, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    text = _doc().replace("%B[%i, %j]", "%B[%i]")
    one = _report("f.mlir", text, split=False)
    _child_fails(monkeypatch, how)
    doc = Document(text)
    assert parallel.collect(doc) is None  # fell back
    two = _report("f.mlir", text, split=True)
    assert (two.status, two.errors, two.items) == (one.status, one.errors, one.items)
    assert one.errors == 8


def test_a_child_past_its_time_is_killed(forced: None, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    def slow(doc: Document, owned: list[int], analyses: bool) -> dict:
        time.sleep(60)
        return {}

    monkeypatch.setattr(parallel, "compute_items", slow)
    monkeypatch.setattr(parallel, "CHILD_TIMEOUT_S", 0.5)
    t = time.monotonic()
    child = parallel.Child(Document(_doc()), [1], analyses=False)
    assert child.result(timeout=0.5) is None and child.error == "timed out"
    assert time.monotonic() - t < 10
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)  # reaped


# ---------------------------------------------------------------- more processes


def _first_publish(text: str, parallel_open: bool) -> list[dict]:
    import dataclasses

    from affine_lsp.server.runtime.early_open import fast_phase
    from affine_lsp.server.settings import Settings

    return fast_phase("file:///f.mlir", text, dataclasses.replace(Settings(), parallel_open=parallel_open))


def test_shares_of_more_processes(forced: None) -> None:
    doc = Document(_doc(n=9))
    funcs = [i for i, c in enumerate(doc.chunks) if c.text.lstrip().startswith("func.func")]
    shares = parallel.plan_shares(doc, 3)
    assert shares is not None and len(shares) == 2
    # Consecutive functions, the first third kept here, the others a third each.
    assert shares[0] + shares[1] == funcs[3:]
    assert len(shares[0]) == len(shares[1]) == 3
    assert parallel.plan_shares(doc, 2) == [parallel.plan(doc)]
    assert parallel.plan_shares(Document(KERNEL.format(n=0)), 4) is None


@pytest.mark.parametrize("processes", ["3", "4"])
@pytest.mark.parametrize("what", ["none", "verifier error", "syntax error", "undefined value", "parse-class error"])
def test_the_first_publish_on_more_processes_is_one_process_s(forced: None, monkeypatch: pytest.MonkeyPatch, what: str, processes: str) -> None:
    text = _doc(n=9, nested=what == "verifier error")
    if what != "none":
        old, new = BREAKS[what]
        funcs = [m.start() for m in re.finditer(r"func\.func", text)]
        for at in sorted([funcs[1], funcs[4], funcs[-1]], reverse=True):  # one in each share
            k = text.index(old, at)
            text = text[:k] + new + text[k + len(old) :]
    one = _first_publish(text, parallel_open=False)
    assert (what == "none") == (not one)
    monkeypatch.setenv("AFFINE_LSP_SPLIT_PROCESSES", processes)
    forks = []
    real = parallel.Child.__init__

    def counting(self: parallel.Child, *args: object, **kwargs: object) -> None:
        forks.append(1)
        real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(parallel.Child, "__init__", counting)
    assert _first_publish(text, parallel_open=True) == one
    assert len(forks) == int(processes) - 1


def test_a_failing_child_of_several_changes_nothing(forced: None, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _doc(n=9).replace("%B[%i, %j]", "%B[%i]")
    one = _first_publish(text, parallel_open=False)
    monkeypatch.setenv("AFFINE_LSP_SPLIT_PROCESSES", "3")
    _child_fails(monkeypatch, "dies")
    assert _first_publish(text, parallel_open=True) == one
    assert len(one) == 9


# ---------------------------------------------------------------- the server


async def _server_session(text: str, uri: str, parallel_open: bool, pull: bool = False) -> dict:
    """Opens ``text`` in a real server (split forced on small files) and
    returns what the client saw: the first diagnostics, the complete ones, a
    hover in the child's share and the document symbols."""
    import asyncio

    from lsprotocol import types

    from tests.test_server_support import SERVER_CMD, make_client, open_doc, pos, server_env, start, wait_for

    client = make_client()
    await client.start_io(*SERVER_CMD, env=server_env(AFFINE_LSP_SPLIT_MIN_CHARS="0"))
    try:
        await start(client, init_options={"performance": {"parallelOpen": parallel_open}}, pull=pull, trace=types.TraceValue.Messages)
        open_doc(client, uri, text)
        first: list = []
        if pull:
            rep = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri)))
            first = list(rep.items)
        await wait_for(lambda: [m for m in client.trace_log if "v1: analysis complete" in m], 60, "the analysis")  # type: ignore[attr-defined]
        await asyncio.sleep(0.3)
        pubs = [p for p in client.diag_log if p.uri == uri]  # type: ignore[attr-defined]
        if not pull:
            first = list(pubs[0].diagnostics)
        last_fn = text.rindex("affine.load")
        hover = await client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=pos(text, "affine.load", text[:last_fn].count("affine.load")))
        )
        symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri)))
        if pull:
            rep = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri)))
            complete = list(rep.items)
        else:
            complete = list(pubs[-1].diagnostics)
        split = [m for m in client.trace_log if "v1: fast phase (two processes, child " in m]  # type: ignore[attr-defined]
        return {
            "first": first,
            "complete": complete,
            "hover": hover.contents.value if hover else None,
            "symbols": [(s.name, s.range) for s in symbols or []],
            "split": bool(split),
        }
    finally:
        await client.shutdown_session()


@pytest.mark.asyncio(loop_scope="function")
@pytest.mark.parametrize("pull", [False, True], ids=["push", "pull"])
async def test_server_opens_on_two_processes_with_the_same_answers(pull: bool) -> None:
    # Errors in both shares: a syntax error, a verifier error, an out-of-bounds warning.
    text = _doc(12)
    funcs = [m.start() for m in re.finditer(r"func\.func", text)]
    for at, (old, new) in sorted(
        [
            (funcs[1], BREAKS["verifier error"]),
            (funcs[-2], BREAKS["out of bounds"]),
            (funcs[-1], BREAKS["verifier error"]),
            (funcs[-3], BREAKS["syntax error"]),
        ],
        reverse=True,
    ):
        k = text.index(old, at)
        text = text[:k] + new + text[k + len(old) :]
    uri = "file:///tmp/affine-lsp-test/parallel-open.mlir"
    two = await _server_session(text, uri, parallel_open=True, pull=pull)
    one = await _server_session(text, uri, parallel_open=False, pull=pull)
    assert two["split"] and not one["split"]
    assert two["first"] == one["first"]
    assert two["complete"] == one["complete"]
    assert {d.severity for d in two["first"]} >= {1}
    assert len([d for d in two["complete"] if d.severity == 1]) == 3  # two verifier errors, one syntax error
    assert two["hover"] == one["hover"] and two["hover"]  # a function of the child's share has its IR
    assert two["symbols"] == one["symbols"] and len(two["symbols"]) == 13  # the alias and 12 functions
