"""``textDocument/signatureHelp``: the callee's signature in a ``func.call``
(the answer is :func:`affine_lsp.ide.signature.signature_at`)."""

from __future__ import annotations

from lsprotocol import types

from affine_lsp.ide.signature import signature_at
from affine_lsp.server.convert import offset_of, signature_help
from affine_lsp.server.snapshot import Snapshot

TRIGGERS = ["(", ","]


def answer(snap: Snapshot, params: types.SignatureHelpParams) -> types.SignatureHelp | None:
    with snap.st.locked() as doc:
        return signature_help(signature_at(doc, offset_of(doc.lines, params.position)))
