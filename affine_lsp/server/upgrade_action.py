"""The code action "Upgrade to current MLIR syntax" (issue 20).

Offered on documents in MLIR's pre-2022 syntax (those with the
``legacy-syntax`` note): one edit replacing the whole document with
:func:`affine_lsp.transforms.legacy_upgrade.upgrade_text`'s output. Its kind is
``quickfix`` when the request's range touches a diagnostic of the legacy
syntax (the light bulb on mlir-opt's error), ``source.fixAll`` elsewhere
(the editor's "Fix All" / source actions: the upgrade fixes every error of
that kind in the document at once). What the upgrade leaves as written is
named in the title and, through the action's command
(``affine-lsp.upgradeNotice``), shown to the user with its lines once the
edit is applied.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from affine_lsp.server.code_actions import Deferred
from affine_lsp.server.snapshot import Snapshot
from affine_lsp.server.state import DocumentState
from affine_lsp.source.document import Document, LineIndex
from affine_lsp.syntax.legacy import LEGACY_CODE

TITLE = "Upgrade to current MLIR syntax"
UPGRADE_WAIT_S = 0.5
"""How long a code-action request waits for the upgrade of the document's
version; past it the action is offered disabled ("still being computed") and
the next request has it."""
NOTICE_COMMAND = "affine-lsp.upgradeNotice"


def _legacy_diagnostics(st: DocumentState, doc: Document, lo: int, hi: int) -> tuple[bool, list[types.Diagnostic]]:
    """(the document is in the legacy syntax, its legacy diagnostics touching [lo, hi])."""
    last = st.last
    if last is None or last.doc_version != doc.version:
        notes = doc.notes()
        return any(n.code == LEGACY_CODE for n in notes), []
    legacy = False
    touching: list[types.Diagnostic] = []
    for note, diag in zip(last.notes, last.diagnostics):
        is_legacy = note.code == LEGACY_CODE or bool((note.data or {}).get("legacy"))
        legacy = legacy or note.code == LEGACY_CODE
        if is_legacy and not (note.span.end < lo or note.span.start > hi):
            touching.append(diag)
    return legacy, touching


def notice_text(problems: list[Any]) -> str:
    lines = ", ".join(f"line {p.line}: {p.message}" for p in problems)
    return f"{TITLE}: {len(problems)} construct{'s' if len(problems) != 1 else ''} left as written ({lines})"


def provider(snap: Snapshot, doc: Document, lo: int, hi: int) -> list[types.CodeAction] | Deferred:
    st = snap.st
    legacy, touching = _legacy_diagnostics(st, doc, lo, hi)
    if not legacy:
        return []
    from affine_lsp.transforms.legacy_upgrade import upgrade_text

    cached = st.upgrade_action
    if cached is not None and cached[0] == doc.version:
        fut = cached[1]
    else:
        # The upgrade parses every item (seconds on a 20,000-line file): on
        # the document's on-demand thread, without the lock (it reads a copy
        # of the text), waited for UPGRADE_WAIT_S at most, after the lock is
        # released (code_actions.Deferred).
        fut = snap.lanes().submit_ondemand(lambda text=doc.text: upgrade_text(text))
        st.upgrade_action = (doc.version, fut)
    text = doc.text
    return Deferred(
        fut,
        lambda done: _actions(st.uri, text, fut.result() if done and not fut.cancelled() and fut.exception() is None else None, touching, done),
        UPGRADE_WAIT_S,
    )


def _actions(uri: str, text: str, result: Any, touching: list[types.Diagnostic], done: bool) -> list[types.CodeAction]:
    if not done or result is None:
        reason = "the upgrade of this file is still being computed; ask again in a moment" if not done else "the upgrade of this file failed"
        return [types.CodeAction(title=TITLE, kind=types.CodeActionKind.SourceFixAll, disabled=types.CodeActionDisabled(reason=reason))]
    if result.text == text:
        return []
    el, ec = LineIndex(text).position(len(text))
    edit = types.TextEdit(range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=el, character=ec)), new_text=result.text)
    title = TITLE
    command = None
    if result.problems:
        title += f" ({len(result.problems)} left as written: line{'s' if len(result.problems) > 1 else ''} {', '.join(str(p.line) for p in result.problems)})"
        command = types.Command(title=TITLE, command=NOTICE_COMMAND, arguments=[notice_text(result.problems)])
    return [
        types.CodeAction(
            title=title,
            kind=types.CodeActionKind.QuickFix if touching else types.CodeActionKind.SourceFixAll,
            diagnostics=touching or None,
            edit=types.WorkspaceEdit(changes={uri: [edit]}),
            command=command,
            is_preferred=True if touching else None,
        )
    ]


def notice_command(snap: Snapshot, args: tuple[Any, ...]) -> None:
    message = str(args[0]) if args else TITLE
    snap.show_message(types.MessageType.Warning, message)
