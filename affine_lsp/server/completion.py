"""``textDocument/completion``: the candidates of
:func:`affine_lsp.ide.completion_candidates.completions_at`, converted by
server/convert.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from affine_lsp.ide.completion_candidates import TRIGGERS, completions_at
from affine_lsp.server.convert import completion_list, offset_of

if TYPE_CHECKING:
    from affine_lsp.server.snapshot import Snapshot

__all__ = ["TRIGGERS", "answer", "complete"]


def answer(snap: Snapshot, params: types.CompletionParams) -> types.CompletionList:
    return complete(snap, params.position)


def complete(snap: Snapshot, pos: types.Position) -> types.CompletionList:
    snippets = snap.client.snippets
    with snap.st.locked() as doc:
        got = completions_at(doc, offset_of(doc.lines, pos), snap.st.last_good, snippets)
        return completion_list(doc.lines, got, snippets, snap.client.completion_markdown)
