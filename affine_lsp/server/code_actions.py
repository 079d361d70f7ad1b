"""``textDocument/codeAction``: the quick fixes the parser, verifier and
analyses attach to their diagnostics (``data["fix"]`` with explicit edits,
``data["replacement"]`` for the diagnostic's own range).

Other features (e.g. loop transformations) add actions by appending a
provider to :data:`PROVIDERS`: ``provider(ls, st, doc, start, end)`` returns
code actions for the offsets ``[start, end]`` (called with the document
lock held).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from affine_lsp.server.convert import note_fixes, range_from_json
from affine_lsp.server.state import DocumentState
from affine_lsp.syntax.document import Document

if TYPE_CHECKING:
    from affine_lsp.server.server import AffineLanguageServer

Provider = Callable[["AffineLanguageServer", DocumentState, Document, int, int], list[types.CodeAction]]
PROVIDERS: list[Provider] = []
CODE_ACTION_KINDS: list[str] = [types.CodeActionKind.QuickFix]  # extended by providers before the server starts


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


def code_actions(ls: AffineLanguageServer, st: DocumentState, params: types.CodeActionParams) -> list[types.CodeAction]:
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
        for provider in PROVIDERS:
            try:
                out.extend(provider(ls, st, doc, lo, hi))
            except Exception:
                import logging

                logging.getLogger(__name__).exception("code action provider failed")
        return out


def register(server: AffineLanguageServer) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=list(CODE_ACTION_KINDS), resolve_provider=False),
    )
    async def code_action(ls: AffineLanguageServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        st = ls.doc(params.text_document.uri)
        if st is None:
            return None
        return await ls.in_thread(code_actions, ls, st, params)
