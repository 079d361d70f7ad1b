"""The session's own routes: ``initialize``, the settings, the document
lifecycle (open, change, save, close) and the diagnostic pull.

These handlers change the session (unlike a feature's, which answer from a
:class:`~affine_lsp.server.snapshot.Snapshot`), so they receive it; the
route table (:mod:`.routes`) says which.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from lsprotocol import types

import affine_lsp
from affine_lsp.server.session import ClientCapabilities, Session
from affine_lsp.server.settings import SECTION, Settings

log = logging.getLogger("affine_lsp.server")


def on_initialize(ls: Session, params: types.InitializeParams) -> None:
    ls.client = ClientCapabilities.of(params.capabilities, params.initialization_options)
    if params.initialization_options is not None:
        ls.apply_settings(params.initialization_options)


async def on_initialized(ls: Session, params: types.InitializedParams) -> None:
    # Build the parser tables now, on the parse worker (the first document
    # waits for it anyway), then fork the dataflow worker there, before
    # the first document is built; initialize was answered without them.
    warm = ls.parse_pool.submit(ls.prefork_worker) if ls.prefork else ls.parse_pool.submit(ls.warm_up)
    ls.ready = warm
    loop = asyncio.get_running_loop()

    def ready(_f: object) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed (shut down meanwhile)
            compiled = len(affine_lsp.compiled_modules())
            loop.call_soon_threadsafe(ls.diagnostics.trace, f"server ready (parser tables and verifier loaded, {compiled} compiled modules)")

    warm.add_done_callback(ready)
    await ls.pull_configuration()


async def on_configuration(ls: Session, params: types.DidChangeConfigurationParams) -> None:
    settings = params.settings
    if isinstance(settings, dict) and SECTION in settings:
        ls.apply_settings(settings[SECTION])
    else:
        await ls.pull_configuration()


def did_open(ls: Session, params: types.DidOpenTextDocumentParams) -> None:
    td = params.text_document
    old = ls.documents.docs.get(td.uri)
    ls.dialects.opened(td.uri)  # the user's dialects it uses, before its first parse (server/dialects.py)
    st = ls.documents.open(td.uri, td.text, td.version, td.language_id)
    if old is not None:
        ls.diagnostics.document_replaced(old)
    ls.diagnostics.document_opened(st, td.text)


def did_change(ls: Session, params: types.DidChangeTextDocumentParams) -> None:
    st = ls.doc(params.text_document.uri)
    if st is None:
        log.warning("didChange for a document that is not open: %s", params.text_document.uri)
        return
    st.queue_changes(params.text_document.version, params.content_changes)
    if ls.debug_mirror:
        ls.check_mirror(st)
    ls.diagnostics.document_changed(st)


def did_save(ls: Session, params: types.DidSaveTextDocumentParams) -> None:
    st = ls.doc(params.text_document.uri)
    if st is not None:
        ls.diagnostics.document_saved(st)


def did_close(ls: Session, params: types.DidCloseTextDocumentParams) -> None:
    st = ls.documents.close(params.text_document.uri)
    ls.diagnostics.document_closed(params.text_document.uri, st)
    ls.dialects.closed(params.text_document.uri)


async def document_diagnostic(ls: Session, params: types.DocumentDiagnosticParams) -> Any:
    st = ls.doc(params.text_document.uri)
    if st is None:
        return types.RelatedFullDocumentDiagnosticReport(items=[])
    return await ls.diagnostics.pull(st, params.previous_result_id)


def settings_changed(ls: Session, old: Settings, new: Settings) -> None:
    """What a change of the settings invalidates."""
    if old.analysis_key() != new.analysis_key():
        ls.engine.clear()
        ls.diagnostics.refresh_all()
    elif old.unknown_ops != new.unknown_ops or old.verify_diagnostics != new.verify_diagnostics:
        ls.diagnostics.refresh_all()
