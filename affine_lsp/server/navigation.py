"""Go to definition, find references, document highlight and rename: the
handlers (the answers are :mod:`affine_lsp.ide.name_targets`'s, converted by
server/convert.py), and :class:`RequestFailed`, a refusal the user is told."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from affine_lsp.ide import name_targets as nav
from affine_lsp.server.convert import highlights, locations, offset_of, span_range

if TYPE_CHECKING:
    from affine_lsp.server.snapshot import Snapshot


class RequestFailed(JsonRpcException):
    """A request the server refuses for a reason the user is told (a rename
    onto a name in use, a command's bad arguments): an answer, not a fault."""

    CODE = -32803
    MESSAGE = "Request failed"


class _RefusalsAreNotFaults(logging.Filter):
    """pygls logs every error response as an ERROR with a traceback; a
    :class:`RequestFailed` is logged as one INFO line instead (and not at
    all below INFO), so that a refused rename is no fault in the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not isinstance(exc, RequestFailed):
            return True
        record.msg, record.args, record.exc_info, record.exc_text = "request refused: %s", (exc.message,), None, None
        record.levelno, record.levelname = logging.INFO, "INFO"
        return logging.getLogger("affine_lsp.server").isEnabledFor(logging.INFO)


logging.getLogger("pygls.protocol.json_rpc").addFilter(_RefusalsAreNotFaults())


def definition_answer(snap: Snapshot, params: types.DefinitionParams) -> list[types.Location] | None:
    with snap.st.locked() as doc:
        span = nav.definition_at(doc, offset_of(doc.lines, params.position))
        return None if span is None else locations(snap.st.uri, doc.lines, [span])


def references_answer(snap: Snapshot, params: types.ReferenceParams) -> list[types.Location] | None:
    with snap.st.locked() as doc:
        spans = nav.references_at(doc, offset_of(doc.lines, params.position), params.context.include_declaration)
        return None if spans is None else locations(snap.st.uri, doc.lines, spans)


def highlights_answer(snap: Snapshot, params: types.DocumentHighlightParams) -> list[types.DocumentHighlight] | None:
    with snap.st.locked() as doc:
        return highlights(doc.lines, nav.highlights_at(doc, offset_of(doc.lines, params.position)))


def prepare_rename_answer(snap: Snapshot, params: types.PrepareRenameParams) -> types.PrepareRenamePlaceholder | None:
    with snap.st.locked() as doc:
        got = nav.rename_placeholder(doc, offset_of(doc.lines, params.position))
        return None if got is None else types.PrepareRenamePlaceholder(range=span_range(doc.lines, got[0]), placeholder=got[1])


def rename_answer(snap: Snapshot, params: types.RenameParams) -> types.WorkspaceEdit | None:
    with snap.st.locked() as doc:
        try:
            got = nav.rename_edits(doc, offset_of(doc.lines, params.position), params.new_name)
        except nav.RenameRefused as e:
            raise RequestFailed(str(e)) from None
        if got is None:
            return None
        spans, new = got
        return types.WorkspaceEdit(changes={snap.st.uri: [types.TextEdit(range=span_range(doc.lines, s), new_text=new) for s in spans]})
