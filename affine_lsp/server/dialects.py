"""The user's dialects of each open document: its project file's
(``affine-lsp.toml`` or ``[tool.affine-lsp]``, found upward from the
document, :mod:`affine_lsp.ods.project_file`) and the settings'
``affineLsp.dialects.td``/``include`` (relative paths: to the document's
workspace folder), loaded (:mod:`affine_lsp.ods.user_dialects`, cached per
content hash) before the document is first parsed and held while it is
open.

A ``.td`` file that does not process is reported once per set as a
``window/showMessage`` error with llvm-tblgen's message (and in the log):
the problem is the project's, not one document's, and a message reaches
the user whichever document is open. Its ops stay skipped, with the usual
remark. When the settings change, the documents whose set changed are
opened again (parsed with the new set).
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

from affine_lsp.ods import project_file
from affine_lsp.ods.dialect_set import DialectSet, Problem

if TYPE_CHECKING:
    from affine_lsp.server.settings import Settings

log = logging.getLogger("affine_lsp.server.dialects")


def uri_path(uri: str) -> str | None:
    """The file system path of a ``file:`` URI (None for another scheme)."""
    u = urlparse(uri)
    if u.scheme != "file":
        return None
    return unquote(u.path)


def dialect_set(uri: str, settings: Settings, folders: list[str] | None = None) -> tuple[DialectSet, list[Problem]]:
    """The dialects of the document ``uri``: its project file's, then the
    settings' (``folders``: the workspace folders' paths, for relative
    paths); and the project file's problem."""
    folders = folders or []
    path = uri_path(uri)
    td: list[str] = []
    include: list[str] = []
    irdl: list[str] = []
    problems: list[Problem] = []
    if path is not None:
        found = project_file.find(path)
        if found is not None:
            if found.problem is not None:
                problems.append(found.problem)
            td.extend(found.dialects.td)
            include.extend(found.dialects.include)
            irdl.extend(found.dialects.irdl)
    if settings.dialects_td or settings.dialects_include:
        base = next((f for f in folders if path is not None and (path + os.sep).startswith(f.rstrip(os.sep) + os.sep)), folders[0] if folders else "")
        extra = DialectSet.of(list(settings.dialects_td), list(settings.dialects_include), base)
        if extra.td and not base and not all(os.path.isabs(p) for p in settings.dialects_td):
            problems.append(Problem("affineLsp.dialects.td", "a relative path needs a workspace folder; use an absolute path"))
        td.extend(extra.td)
        include.extend(extra.include)
    exe = settings.dialects_tblgen if settings.workspace_trusted else ""
    return DialectSet.of(td, include, tblgen=exe, origin=uri, irdl=irdl), problems


_EARLY: dict[str, DialectSet] = {}
"""The sets loaded for the first diagnostics (server/early_open.py), by
document: the server's open takes them over."""


def load_early(uri: str, settings: Settings) -> bool:
    """Load the dialects of ``uri`` for the first diagnostics, before the
    server is up; False when they have a problem (left to the server to
    report)."""
    ds, problems = dialect_set(uri, settings)
    if problems:
        return False
    if not ds:
        return True
    from affine_lsp.ods import user_dialects

    got = user_dialects.load(ds)
    _EARLY[uri] = ds
    return not got.problems


class DocumentDialects:
    """The set each open document holds (see the module's docstring)."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self.held: dict[str, DialectSet] = {}
        self._reported: set[tuple[DialectSet, Problem]] = set()
        self._lock = threading.Lock()
        server.on_settings_changed.append(self._settings_changed)

    def _folders(self) -> list[str]:
        out: list[str] = []
        with contextlib.suppress(Exception):  # (no workspace yet: a test's server)
            for f in self.server.workspace.folders.values():
                p = uri_path(f.uri)
                if p:
                    out.append(p)
            root = self.server.workspace.root_path
            if root and root not in out:
                out.append(root)
        return out

    def opened(self, uri: str) -> None:
        """Load and hold the dialects of ``uri`` (before its first parse)."""
        from affine_lsp.ods import user_dialects

        try:
            ds, problems = dialect_set(uri, self.server.settings, self._folders())
            got = user_dialects.load(ds) if ds else None
        except Exception:  # never lose the document over its dialects
            log.exception("loading the dialects of %s failed", uri)
            return
        with self._lock:
            old = self.held.pop(uri, None)
            if got is not None:
                self.held[uri] = ds
        for prev in (old, _EARLY.pop(uri, None)):
            if prev is not None:
                user_dialects.release(prev)
        self._report(ds, problems + (got.problems if got is not None else []))

    def closed(self, uri: str) -> None:
        with self._lock:
            ds = self.held.pop(uri, None)
        if ds is not None:
            from affine_lsp.ods import user_dialects

            user_dialects.release(ds)

    def _report(self, ds: DialectSet, problems: list[Problem]) -> None:
        for p in problems:
            with self._lock:
                if (ds, p) in self._reported:
                    continue
                self._reported.add((ds, p))
            log.warning("dialects: %s", p.line())
            from lsprotocol import types

            with contextlib.suppress(Exception):  # (no client attached: a test's server)
                self.server.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=f"affine-lsp: {p.line()}"))

    def _settings_changed(self, old: Settings, new: Settings) -> None:
        if (old.dialects_td, old.dialects_include, old.dialects_tblgen) == (new.dialects_td, new.dialects_include, new.dialects_tblgen):
            return
        folders = self._folders()
        for uri, st in list(self.server.documents.docs.items()):
            if st.closed:
                continue
            try:
                ds, _ = dialect_set(uri, new, folders)
            except Exception:
                log.exception("resolving the dialects of %s failed", uri)
                continue
            with self._lock:
                same = self.held.get(uri, DialectSet(())) == ds
            if not same:
                self._reopen(st)

    def _reopen(self, st: Any) -> None:
        """Open ``st``'s document again with its current text (its parse
        depends on the dialects), as a second ``didOpen`` would."""
        with st.locked() as doc:
            text = doc.text
        self.opened(st.uri)
        ls = self.server
        new = ls.documents.open(st.uri, text, st.version, st.language_id)
        ls.diagnostics.document_replaced(st)
        ls.diagnostics.document_opened(new, text)
