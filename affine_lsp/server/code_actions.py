"""``textDocument/codeAction``: the quick fixes the parser, verifier and
analyses attach to their diagnostics (``data["fix"]`` with explicit edits,
``data["replacement"]`` for the diagnostic's own range), and the actions of
the providers the route table lists (:data:`affine_lsp.server.routes.CODE_ACTIONS`).

A provider, ``provider(snap, doc, start, end)``, returns code actions for
the offsets ``[start, end]`` (called with the document lock held), or a
:class:`Deferred`: a computation running elsewhere, which the answer waits
for after the lock is released (on the event loop, holding no thread), at
most its ``wait_s``, then asks for its actions (``finish(done)``). An action
may be completed by ``codeAction/resolve``: its ``data`` names one of the
resolvers (``data["resolver"]``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from affine_lsp.server.convert import note_fixes, range_from_json
from affine_lsp.source.document import Document

if TYPE_CHECKING:
    from affine_lsp.server.snapshot import Snapshot

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


Provider = Callable[["Snapshot", Document, int, int], "list[types.CodeAction] | Deferred"]
Resolver = Callable[["Snapshot", types.CodeAction], Awaitable[types.CodeAction]]


@dataclass(frozen=True)
class Providers:
    """The code actions the server offers: their kinds (announced at
    ``initialize``), providers (asked in this order) and resolvers (by the
    ``data["resolver"]`` of an action)."""

    kinds: tuple[str, ...]
    providers: tuple[Provider, ...]
    resolvers: Mapping[str, Resolver] = field(default_factory=dict)


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


def code_actions(snap: Snapshot, params: types.CodeActionParams, actions: Providers) -> list[types.CodeAction]:
    """The actions (the deferred ones waited for on this thread)."""
    out, later = collect(snap, params, actions)
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


async def answer(snap: Snapshot, params: types.CodeActionParams, actions: Providers) -> list[types.CodeAction]:
    """The actions of a request: collected on the document's request lane,
    the deferred ones awaited here, on the event loop (no lock, no thread)."""
    out, later = await snap.in_lane(collect, snap, params, actions)
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


def collect(snap: Snapshot, params: types.CodeActionParams, actions: Providers) -> tuple[list[types.CodeAction], list[Deferred]]:
    """The actions ready now, and the deferred ones (under the document's lock)."""
    st = snap.st
    snap.fast_diagnostics()  # the diagnostics describe the current text (fast phase only)
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
        for provider in actions.providers:
            try:
                got = provider(snap, doc, lo, hi)
            except Exception:
                log.exception("code action provider failed")
                continue
            if isinstance(got, Deferred):
                later.append(got)
            else:
                out.extend(got)
        return out, later


async def resolve(snap: Snapshot, action: types.CodeAction, actions: Providers) -> types.CodeAction:
    """``codeAction/resolve``: the action completed by its resolver."""
    data = action.data if isinstance(action.data, dict) else {}
    resolver = actions.resolvers.get(str(data.get("resolver", "")))
    if resolver is None:
        return action  # (complete already: nothing to add)
    try:
        return await resolver(snap, action)
    except Exception:
        log.exception("codeAction/resolve failed")
        return action
