"""``textDocument/codeAction``: the quick fixes the parser, verifier and
analyses attach to their diagnostics (``data["fix"]`` with explicit edits,
``data["replacement"]`` for the diagnostic's own range).

Other features (e.g. loop transformations) add actions by appending a
provider to :data:`PROVIDERS`: ``provider(ls, st, doc, start, end)`` returns
code actions for the offsets ``[start, end]`` (called with the document
lock held), or a :class:`Deferred`: a computation running elsewhere, which
the answer waits for after the lock is released (on the event loop, holding
no thread), at most its ``wait_s``, then asks for its actions
(``finish(done)``). An action may be completed by ``codeAction/resolve``:
its ``data`` names one of :data:`RESOLVERS` (``data["resolver"]``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from affine_lsp.server.convert import note_fixes, range_from_json
from affine_lsp.server.state import DocumentState
from affine_lsp.syntax.document import Document

if TYPE_CHECKING:
    from affine_lsp.server.server import AffineLanguageServer

log = logging.getLogger(__name__)


class Deferred:
    """Actions computed elsewhere: the answer waits for ``future`` at most
    ``wait_s`` seconds (None: until it is done), without the document's
    lock and without a thread, then takes ``finish(done)``."""

    __slots__ = ("finish", "future", "wait_s")

    def __init__(self, future: Future[Any], finish: Callable[[bool], list[types.CodeAction]], wait_s: float | None) -> None:
        self.future = future
        self.finish = finish
        self.wait_s = wait_s


Provider = Callable[["AffineLanguageServer", DocumentState, Document, int, int], "list[types.CodeAction] | Deferred"]
PROVIDERS: list[Provider] = []
CODE_ACTION_KINDS: list[str] = [types.CodeActionKind.QuickFix]  # extended by providers before the server starts
Resolver = Callable[["AffineLanguageServer", types.CodeAction], Awaitable[types.CodeAction]]
RESOLVERS: dict[str, Resolver] = {}
"""``codeAction/resolve`` handlers, by the ``data["resolver"]`` of the action."""


def _action(title: str, uri: str, edits: list[dict[str, Any]], diag: types.Diagnostic | None, preferred: bool) -> types.CodeAction | None:
    text_edits = []
    for e in edits:
        r = range_from_json(e.get("range"))
        if r is None:
            return None
        text_edits.append(types.TextEdit(range=r, new_text=str(e.get("newText", ""))))
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diag] if diag is not None else None,
        edit=types.WorkspaceEdit(changes={uri: text_edits}),
        is_preferred=preferred or None,
    )


def client_resolves_edits(ls: AffineLanguageServer) -> bool:
    """Whether the client can fill in an action's ``edit`` by
    ``codeAction/resolve`` (``codeAction.resolveSupport.properties``)."""
    caps = getattr(ls.protocol, "client_capabilities", None)  # (none before initialize)
    td = getattr(caps, "text_document", None)
    ca = getattr(td, "code_action", None)
    rs = getattr(ca, "resolve_support", None)
    return bool(rs is not None and "edit" in (rs.properties or []) and getattr(ca, "data_support", None) is not False)


def code_actions(ls: AffineLanguageServer, st: DocumentState, params: types.CodeActionParams) -> list[types.CodeAction]:
    """The actions (the deferred ones waited for on this thread)."""
    out, later = collect(ls, st, params)
    for d in later:
        try:
            d.future.result(timeout=d.wait_s)
            done = True
        except FutureTimeout:
            done = False
        except BaseException:
            done = d.future.done()
        out.extend(_finished(d, done))
    return out


def _finished(d: Deferred, done: bool) -> list[types.CodeAction]:
    try:
        return d.finish(done)
    except Exception:
        log.exception("code action provider failed")
        return []


async def answer(ls: AffineLanguageServer, st: DocumentState, params: types.CodeActionParams) -> list[types.CodeAction]:
    """The actions of a request: collected on the document's request lane,
    the deferred ones awaited here, on the event loop (no lock, no thread)."""
    out, later = await ls.in_thread(collect, ls, st, params)
    for d in later:
        wrapped = asyncio.wrap_future(d.future)
        try:
            await asyncio.wait_for(asyncio.shield(wrapped), d.wait_s)
        except asyncio.CancelledError:
            if not d.future.cancelled():
                raise  # (the request was cancelled)
        except Exception:  # past its wait, or its computation failed: its finish says what it has
            pass
        out.extend(_finished(d, d.future.done()))
    return out


def collect(ls: AffineLanguageServer, st: DocumentState, params: types.CodeActionParams) -> tuple[list[types.CodeAction], list[Deferred]]:
    """The actions ready now, and the deferred ones (under the document's lock)."""
    # Make sure the diagnostics describe the current text (fast phase only).
    last = st.last
    if last is None or last.version != st.version:
        ls.diagnostics._fast(st, st.version)
    only = params.context.only
    want_quickfix = not only or any(str(k) == "quickfix" or str(k).startswith("quickfix.") for k in only)
    with st.locked() as doc:
        lines = doc.lines
        lo = lines.offset(params.range.start.line, params.range.start.character)
        hi = lines.offset(params.range.end.line, params.range.end.character)
        out: list[types.CodeAction] = []
        last = st.last
        if want_quickfix and last is not None and last.doc_version == doc.version:
            for note, diag in zip(last.notes, last.diagnostics):
                s, e = note.span.start, note.span.end
                if e < lo or s > hi:
                    continue
                fixes = note_fixes(note, lines)
                for fix in fixes:
                    a = _action(fix["title"], st.uri, fix["edits"], diag, len(fixes) == 1)
                    if a is not None:
                        out.append(a)
        elif want_quickfix:
            # Fall back on the data the client kept with its diagnostics.
            for diag in params.context.diagnostics:
                data = diag.data if isinstance(diag.data, dict) else {}
                fixes = data.get("fixes") or []
                for fix in fixes:
                    a = _action(str(fix.get("title", "Apply fix")), st.uri, fix.get("edits") or [], diag, len(fixes) == 1)
                    if a is not None:
                        out.append(a)
        later: list[Deferred] = []
        for provider in PROVIDERS:
            try:
                got = provider(ls, st, doc, lo, hi)
            except Exception:
                log.exception("code action provider failed")
                continue
            if isinstance(got, Deferred):
                later.append(got)
            else:
                out.extend(got)
        return out, later


def register(server: AffineLanguageServer) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=list(CODE_ACTION_KINDS), resolve_provider=True),
    )
    async def code_action(ls: AffineLanguageServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        st = ls.doc(params.text_document.uri)
        if st is None:
            return None
        return await answer(ls, st, params)

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def code_action_resolve(ls: AffineLanguageServer, action: types.CodeAction) -> types.CodeAction:
        data = action.data if isinstance(action.data, dict) else {}
        resolver = RESOLVERS.get(str(data.get("resolver", "")))
        if resolver is None:
            return action  # (complete already: nothing to add)
        try:
            return await resolver(ls, action)
        except Exception:
            log.exception("codeAction/resolve failed")
            return action
