"""No request waits for the loop transformations of a code action (issue #43).

The actions of a loop are computed on the document's transforms lane, from a
copy of the text, without the document's lock: a hover and the diagnostics
of an edit are answered while that computation is held on an event; a
client that resolves edits lazily gets the menu first (entries without an
edit) and ``codeAction/resolve`` fills in the edit; a client without
``resolveSupport`` gets the complete answer. In-process server, real
handlers; nothing here measures time ("answered while held" means the
answer came before the hold was released).
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from lsprotocol import types

from affine_lsp.server import transform_actions
from affine_lsp.source.document import Document
from affine_lsp.transforms.edits import apply_edits
from tests.test_server_support import in_process_server

TEXT = """func.func @k(%A: memref<64x64xf32>, %B: memref<64x64xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %v = affine.load %A[%i, %j] : memref<64x64xf32>
      affine.store %v, %B[%i, %j] : memref<64x64xf32>
    }
  }
  return
}
"""
OUTER = types.Position(line=1, character=4)  # on the outer "affine.for"
INNER = types.Position(line=2, character=6)
LOAD = types.Position(line=3, character=12)  # on "affine.load"

_server = in_process_server


def _params(uri: str, p: types.Position) -> types.CodeActionParams:
    return types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=types.Range(start=p, end=p), context=types.CodeActionContext(diagnostics=[])
    )


def _resolving_client(server: Any) -> None:
    from affine_lsp.server.session import ClientCapabilities

    server.protocol.client_capabilities = types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            code_action=types.CodeActionClientCapabilities(data_support=True, resolve_support=types.ClientCodeActionResolveOptions(properties=["edit"]))
        )
    )
    server.client = ClientCapabilities.of(server.protocol.client_capabilities, None)


def _held_transformations(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """Every transformation's computation waits for ``release`` (``running`` set once one waits)."""
    running, release = threading.Event(), threading.Event()
    real = transform_actions._actions_of

    def held(*args: Any) -> Any:
        running.set()
        release.wait(120)
        return real(*args)

    monkeypatch.setattr(transform_actions, "_actions_of", held)
    return running, release


def _expected(uri: str, p: types.Position) -> dict[str, str | None]:
    """Title -> edited text (None when disabled) of a fresh computation."""
    doc = Document(TEXT, uri=uri)
    at = doc.lines.offset(p.line, p.character)
    out: dict[str, str | None] = {}
    for t in transform_actions.transforms_for(doc, transform_actions.loops_at(doc, at, at), 8):
        a = transform_actions._lsp_action(doc, uri, t)
        out[a.title] = None if a.edit is None else _edited(uri, a)
    return out


def _edited(uri: str, a: types.CodeAction) -> str:
    doc = Document(TEXT)
    assert a.edit is not None and a.edit.changes is not None
    from affine_lsp.transforms.edits import TextEdit

    edits = [
        TextEdit(doc.lines.offset(e.range.start.line, e.range.start.character), doc.lines.offset(e.range.end.line, e.range.end.character), e.new_text)
        for e in a.edit.changes[uri]
    ]
    return apply_edits(TEXT, edits)


def test_a_hover_and_an_edit_are_answered_while_a_code_action_computation_is_held(monkeypatch: pytest.MonkeyPatch) -> None:
    from affine_lsp.server.code_actions import answer
    from affine_lsp.server.hover import HOVER_ANALYSIS_WAIT_S, compute_hover
    from affine_lsp.server.routes import CODE_ACTIONS, in_lane, snapshot

    running, release = _held_transformations(monkeypatch)

    async def run(server: Any) -> None:
        st = server.documents.open("file:///first/held.mlir", TEXT, 1, "mlir")
        await server.diagnostics.fast(st, 1)
        try:
            # A client without resolveSupport: the answer waits for the computation.
            pending = asyncio.ensure_future(answer(snapshot(server, st), _params(st.uri, OUTER), CODE_ACTIONS))
            assert await asyncio.to_thread(running.wait, 60)
            hover = await asyncio.wait_for(in_lane(server, compute_hover, snapshot(server, st, HOVER_ANALYSIS_WAIT_S), LOAD), 60)
            assert not pending.done() and not release.is_set()
        finally:
            release.set()
        assert hover is not None and "affine.load" in hover.contents.value
        got = await asyncio.wait_for(pending, 120)
        expected = _expected(st.uri, OUTER)
        assert {a.title: (None if a.edit is None else _edited(st.uri, a)) for a in got} == expected
        # An edit while the actions of another loop are being computed.
        release.clear()
        running.clear()
        pending = asyncio.ensure_future(answer(snapshot(server, st), _params(st.uri, INNER), CODE_ACTIONS))
        try:
            assert await asyncio.to_thread(running.wait, 60)
            p = types.Position(line=7, character=0)
            st.queue_changes(2, [types.TextDocumentContentChangePartial(range=types.Range(start=p, end=p), text="  %x = arith.addf %nope, %nope : f32\n")])
            fast = await asyncio.wait_for(server.diagnostics.fast(st, 2), 60)
            assert not release.is_set()
        finally:
            release.set()
        assert "use of undeclared SSA value name" in [d.message for d in fast.result.diagnostics]
        assert await asyncio.wait_for(pending, 120) == []  # (computed for a version edited away meanwhile: dropped)

    with _server() as server:
        asyncio.run(run(server))


def test_a_client_that_resolves_edits_gets_the_menu_first_and_the_edit_by_resolve(monkeypatch: pytest.MonkeyPatch) -> None:
    from affine_lsp.server.code_actions import answer
    from affine_lsp.server.routes import CODE_ACTIONS, snapshot
    from affine_lsp.transforms.catalog import TRANSFORMATIONS

    _running, release = _held_transformations(monkeypatch)

    async def run(server: Any) -> None:
        _resolving_client(server)
        st = server.documents.open("file:///first/menu.mlir", TEXT, 1, "mlir")
        await server.diagnostics.fast(st, 1)
        try:
            first = await asyncio.wait_for(answer(snapshot(server, st), _params(st.uri, OUTER), CODE_ACTIONS), 60)
            assert not release.is_set()  # (the job is queued or held in its first transformation: nothing is done)
        finally:
            release.set()
        menus = [t.menu for t in TRANSFORMATIONS if t.actions is not None]
        assert [a.title for a in first] == menus  # every transformation, none computed yet
        assert all(a.edit is None and a.disabled is None and isinstance(a.data, dict) for a in first)
        expected = _expected(st.uri, OUTER)
        parallel = next(a for a in first if a.title == "Parallelize loop")
        resolved = await asyncio.wait_for(transform_actions.resolve(snapshot(server, None), parallel), 120)
        assert resolved.edit is not None and resolved.title in expected
        assert _edited(st.uri, resolved) == expected[resolved.title]
        # Once computed (the job may still run the transformations after the
        # one resolved), the next request has every action, with its edit.
        for job in list(st.transform_actions.values()):
            await asyncio.wait_for(asyncio.wrap_future(job.future), 120)
        again = await asyncio.wait_for(answer(snapshot(server, st), _params(st.uri, OUTER), CODE_ACTIONS), 60)
        assert {a.title: (None if a.edit is None else _edited(st.uri, a)) for a in again} == expected
        assert all(a.data is None for a in again)

    with _server() as server:
        asyncio.run(run(server))


ILLEGAL_FUSION = """func.func @f(%A: memref<64xf32>, %B: memref<64xf32>) {
  affine.for %i = 0 to 63 {
    %v = affine.load %A[%i] : memref<64xf32>
    affine.store %v, %B[%i] : memref<64xf32>
  }
  affine.for %j = 0 to 63 {
    %w = affine.load %B[%j] : memref<64xf32>
    affine.store %w, %A[%j + 1] : memref<64xf32>
  }
  return
}
"""
VECTORIZABLE = """func.func @v(%A: memref<1024xf32>, %B: memref<1024xf32>) {
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 1024 {
    %v = affine.load %A[%i] : memref<1024xf32>
    %d = arith.mulf %v, %two : f32
    affine.store %d, %B[%i] : memref<1024xf32>
  }
  return
}
"""


def _actions(server: Any, uri: str, text: str, p: types.Position) -> list[types.CodeAction]:
    from affine_lsp.server.code_actions import code_actions
    from affine_lsp.server.routes import CODE_ACTIONS, in_lane, snapshot

    async def run() -> list[types.CodeAction]:
        st = server.documents.open(uri, text, 1, "mlir")
        await server.diagnostics.fast(st, 1)
        return await in_lane(server, code_actions, snapshot(server, st), _params(uri, p), CODE_ACTIONS)

    return asyncio.run(run())


def test_an_illegal_fusion_is_offered_disabled_naming_the_dependence() -> None:
    with _server() as server:
        for line in (1, 5):  # on either nest
            got = _actions(server, f"file:///first/fuse{line}.mlir", ILLEGAL_FUSION, types.Position(line=line, character=4))
            fuse = [a for a in got if a.title.startswith("Fuse loops here")]
            assert len(fuse) == 1 and fuse[0].edit is None and fuse[0].disabled is not None, [a.title for a in got]
            reason = fuse[0].disabled.reason
            assert (
                "the load of %A at line 3 would read other values: fusing reverses the write-after-read dependence between it and the store to %A at line 8"
                in reason
            ), reason
            assert fuse[0].title == f"Fuse loops here: {reason}"


def test_vectorize_is_offered_once_at_the_width_the_model_picks() -> None:
    from affine_lsp.transforms.profitability import rank
    from affine_lsp.transforms.vectorize import vectorize_candidates

    with _server() as server:
        got = _actions(server, "file:///first/vec.mlir", VECTORIZABLE, types.Position(line=2, character=4))
    vec = [a for a in got if a.title.startswith("Vectorize loop")]
    doc = Document(VECTORIZABLE)
    loop = transform_actions.loops_at(doc, doc.lines.offset(2, 4), doc.lines.offset(2, 4))[0]
    widths = [t for t in vectorize_candidates(doc, loop, 8) if not t.data.get("disabled")]
    assert len(widths) > 1  # (several widths are legal here: the editor shows one)
    best = min(widths, key=lambda t: (rank(t.prediction), -(t.prediction.speedup or 0.0) if t.prediction else 0.0))
    assert len(vec) == 1 and vec[0].edit is not None, [a.title for a in vec]
    assert vec[0].title == transform_actions._lsp_action(doc, "file:///first/vec.mlir", best).title


def test_nothing_predicted_about_1x_is_preferred_or_ranked_with_the_gains() -> None:
    from affine_lsp.transforms.edits import Transform
    from affine_lsp.transforms.profitability import Prediction, change, rank

    doc = Document(TEXT)
    flat = Prediction(True, "the 2 copies share 1 of 6 loads", speedup=1.02)
    fast = Prediction(True, "the 2 copies share 1 of 6 loads", speedup=1.3)
    slow = Prediction(False, "strided transfers")
    a_flat = transform_actions._lsp_action(doc, "file:///x", Transform("unroll-jam", "Unroll and jam loop by 2", [], prediction=flat))
    a_fast = transform_actions._lsp_action(doc, "file:///x", Transform("unroll-jam", "Unroll and jam loop by 2", [], prediction=fast))
    assert a_flat.is_preferred is None and "faster" not in a_flat.title and "no predicted gain" in a_flat.title
    assert a_fast.is_preferred is True and "~1.3x faster" in a_fast.title
    assert rank(fast) < rank(flat) == rank(None) < rank(slow)
    assert change("storage", -0.397) == "storage -40%" and change("compute", 0.0) == "compute +0%"


TRIANGULAR = """func.func @t(%C: memref<800x800xf64>, %A: memref<800x700xf64>) {
  affine.for %i = 0 to 800 {
    affine.for %k = 0 to 700 {
      affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
        %b = affine.load %A[%j, %k] : memref<800x700xf64>
        %c = affine.load %C[%i, %j] : memref<800x800xf64>
        %s = arith.addf %c, %b : f64
        affine.store %s, %C[%i, %j] : memref<800x800xf64>
      }
    }
  }
  return
}
"""


def test_a_tile_action_without_a_model_says_so_in_its_title() -> None:
    with _server() as server:
        got = _actions(server, "file:///first/tri.mlir", TRIANGULAR, types.Position(line=2, character=6))  # the (%k, %j) band
    tile = [a for a in got if a.title.startswith("Tile loop nest (32x32)")]
    assert len(tile) == 1 and tile[0].title.endswith("(no prediction: a trip count of the band is not constant)"), [a.title for a in got]
