"""``textDocument/documentSymbol``: the outline of
:func:`affine_lsp.ide.outline.symbols_of`, converted by
server/convert.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from affine_lsp.ide.outline import symbols_of
from affine_lsp.server.convert import document_symbols as to_lsp
from affine_lsp.server.state import DocumentState

if TYPE_CHECKING:
    from affine_lsp.server.snapshot import Snapshot


def document_symbols(st: DocumentState) -> list[types.DocumentSymbol]:
    with st.locked() as doc:
        return to_lsp(doc.lines, symbols_of(doc))


def answer(snap: Snapshot, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    return document_symbols(snap.st)
