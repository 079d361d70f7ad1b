"""What the parts of the server see of the session (the running server).

:class:`Session` is the interface the diagnostics orchestration, the route
table and the snapshots use; :class:`~affine_lsp.server.server.AffineLanguageServer`
is its one implementation (only :mod:`.server` and :mod:`.routes` import
it). :class:`ClientCapabilities` is what the client said it can do at
``initialize``; :class:`ServerCancelled` is an answer meaning "not ready,
ask again".
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from lsprotocol import types

if TYPE_CHECKING:
    from affine_lsp.server.analysis_engine import Engine
    from affine_lsp.server.runtime.lanes import DocumentLanes, TrackedPool
    from affine_lsp.server.settings import Settings
    from affine_lsp.server.state import DocumentState, Workspace


class ServerCancelled:
    """A handler's answer meaning "not ready, ask again": sent as the LSP
    3.17 error ``ServerCancelled`` (-32802) with ``data`` (for a diagnostic
    pull, ``{"retriggerRequest": true}``), without the error log pygls
    writes for an exception raised by a handler."""

    def __init__(self, message: str, data: Any = None) -> None:
        self.message = message
        self.data = data


def _capability(obj: Any, *path: str) -> Any:
    for p in path:
        if obj is None:
            return None
        obj = getattr(obj, p, None)
    return obj


@dataclass
class ClientCapabilities:
    """What the client can do (read from ``initialize``)."""

    pull_diagnostics: bool = False
    diagnostic_refresh: bool = False
    inlay_refresh: bool = False
    semantic_refresh: bool = False
    work_done_progress: bool = False
    configuration: bool = False
    snippets: bool = False
    markdown: bool = True  # hovers in Markdown
    completion_markdown: bool = False
    resolves_edits: bool = False  # codeAction/resolve fills in an action's edit
    command_links: frozenset[str] = field(default_factory=frozenset)  # client commands its hovers may link to (initializationOptions.commandLinks)

    @classmethod
    def of(cls, caps: types.ClientCapabilities | None, options: Any) -> ClientCapabilities:
        doc_fmt = _capability(caps, "text_document", "completion", "completion_item", "documentation_format")
        fmt = _capability(caps, "text_document", "hover", "content_format")
        ca = _capability(caps, "text_document", "code_action")
        rs = getattr(ca, "resolve_support", None)
        links = options.get("commandLinks") if isinstance(options, dict) else None
        return cls(
            pull_diagnostics=_capability(caps, "text_document", "diagnostic") is not None,
            diagnostic_refresh=bool(_capability(caps, "workspace", "diagnostics", "refresh_support")),
            inlay_refresh=bool(_capability(caps, "workspace", "inlay_hint", "refresh_support")),
            semantic_refresh=bool(_capability(caps, "workspace", "semantic_tokens", "refresh_support")),
            work_done_progress=bool(_capability(caps, "window", "work_done_progress")),
            configuration=bool(_capability(caps, "workspace", "configuration")),
            snippets=bool(_capability(caps, "text_document", "completion", "completion_item", "snippet_support")),
            markdown=fmt is None or types.MarkupKind.Markdown in fmt,
            completion_markdown=bool(doc_fmt) and types.MarkupKind.Markdown in doc_fmt,
            resolves_edits=bool(rs is not None and "edit" in (rs.properties or []) and getattr(ca, "data_support", None) is not False),
            command_links=frozenset(x for x in links if isinstance(x, str)) if isinstance(links, list) else frozenset(),
        )


class Session(Protocol):
    """The running server, as its parts see it."""

    settings: Settings
    engine: Engine
    documents: Workspace
    client: ClientCapabilities
    interactive: int
    diagnostics: Any  # the DiagnosticsManager (server/diagnostics_manager.py)
    dialects: Any  # the user's dialects of each open document (server/dialects.py)
    disk_cache: Any
    gc_log: Any
    parse_pool: TrackedPool
    analysis_pool: TrackedPool
    request_pool: TrackedPool
    ondemand_pool: TrackedPool
    ready: Any
    prefork: bool
    debug_mirror: bool
    protocol: Any
    work_done_progress: Any
    on_settings_changed: list[Callable[[Settings, Settings], None]]

    def doc(self, uri: str) -> DocumentState | None: ...

    def lanes(self, st: DocumentState) -> DocumentLanes: ...

    def busy(self) -> AbstractContextManager[None]: ...

    def interactive_begin(self) -> None: ...

    def interactive_end(self) -> None: ...

    def apply_settings(self, raw: Any) -> None: ...

    async def pull_configuration(self) -> None: ...

    def check_mirror(self, st: DocumentState) -> None: ...

    def warm_up(self) -> None: ...

    def prefork_worker(self) -> bool: ...

    def feature(self, method: str, options: Any = None) -> Callable[[Callable[..., Any]], Any]: ...

    def command(self, name: str) -> Callable[[Callable[..., Any]], Any]: ...

    def window_show_message(self, params: types.ShowMessageParams) -> None: ...

    def log_trace(self, params: types.LogTraceParams) -> None: ...

    def text_document_publish_diagnostics(self, params: types.PublishDiagnosticsParams) -> None: ...

    def workspace_diagnostic_refresh(self, params: None) -> Any: ...

    def workspace_inlay_hint_refresh(self, params: None) -> Any: ...

    def workspace_semantic_tokens_refresh(self, params: None) -> Any: ...
