"""What a request handler sees: a :class:`Snapshot`, never the server.

A snapshot is made by the route table (:mod:`.routes`) for each request:
the document the request is about (its state, read under its lock with
``snap.state.locked()``), the settings and the client's capabilities of
the moment, the analysis facade (:class:`~affine_lsp.server.analysis_engine.Engine`),
and ``wait(fn, *args, budget=s)``: ``fn`` run on the document's on-demand
lane, waited for at most ``budget`` seconds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from lsprotocol import types

from affine_lsp.server.session import ClientCapabilities, Session

if TYPE_CHECKING:
    from affine_lsp.server.analysis_engine import Engine
    from affine_lsp.server.runtime.lanes import DocumentLanes
    from affine_lsp.server.settings import Settings
    from affine_lsp.server.state import DocumentState

T = TypeVar("T")

Wait = Callable[..., "tuple[bool, Any]"]
"""``wait(fn, *args, budget=s, doc=st)``: see :func:`affine_lsp.server.routes.within_budget`."""
InLane = Callable[..., Any]
"""``await in_lane(fn, *args)``: see :func:`affine_lsp.server.routes.in_lane`."""


class Snapshot:
    """One request's view of the server (see the module's docstring)."""

    __slots__ = ("_in_lane", "_loop", "_session", "_wait", "analysis", "budget", "client", "settings", "state")

    def __init__(self, session: Session, state: DocumentState | None, wait: Wait, in_lane: InLane, budget: float | None = None) -> None:
        self._session = session
        self._wait = wait
        self._in_lane = in_lane
        try:
            self._loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:  # (made outside the event loop: a test's)
            self._loop = None
        self.state = state
        self.budget = budget
        """The seconds this request's on-demand analyses may take (an
        ``ON_DEMAND`` route's budget; None: no budget)."""
        self.settings: Settings = session.settings
        self.client: ClientCapabilities = session.client
        self.analysis: Engine = session.engine

    # ------------------------------------------------------------ the document
    @property
    def st(self) -> DocumentState:
        """The document (a snapshot for a request about one)."""
        assert self.state is not None
        return self.state

    def document(self, uri: str) -> Snapshot | None:
        """The snapshot of the open document ``uri`` (None: not open)."""
        st = self._session.doc(uri)
        return None if st is None else Snapshot(self._session, st, self._wait, self._in_lane, self.budget)

    def for_state(self, state: DocumentState) -> Snapshot:
        """The same view of another document state (a scratch document of
        this request's own, e.g. the hover's window during a first build)."""
        return Snapshot(self._session, state, self._wait, self._in_lane, self.budget)

    def open_uris(self) -> list[str]:
        return list(self._session.documents.docs)

    # ------------------------------------------------------------ scheduling
    def wait(self, fn: Callable[..., T], *args: Any, budget: float) -> tuple[bool, T | None]:
        """``fn(*args)`` on the document's on-demand lane, waited for at most
        ``budget`` seconds: ``(True, result)`` or ``(False, None)`` while it
        keeps running (its results are cached for next time)."""
        return self._wait(fn, *args, budget=budget, doc=self.state)

    async def in_lane(self, fn: Callable[..., T], *args: Any) -> T:
        """``await`` ``fn(*args)`` run on the document's request lane (for a
        handler on the event loop)."""
        result: T = await self._in_lane(fn, *args)
        return result

    def lanes(self) -> DocumentLanes:
        """The document's worker threads (work that goes on after the answer)."""
        return self._session.lanes(self.st)

    def interactive(self) -> bool:
        """Whether requests or fast phases are running (background work waits)."""
        return self._session.interactive > 0

    def fast_diagnostics(self) -> None:
        """The diagnostics of the fast phase for the document's current
        version (computed now, on this thread, unless they are there)."""
        st = self.st
        last = st.last
        if last is None or last.version != st.version:
            self._session.diagnostics.fast_now(st, st.version)

    def fast_phase_running(self) -> bool:
        return bool(self._session.diagnostics.fast_phase_running())

    # ------------------------------------------------------------ the client
    def show_message(self, kind: types.MessageType, message: str) -> None:
        self._session.window_show_message(types.ShowMessageParams(type=kind, message=message))

    @property
    def progress(self) -> Any:
        """pygls' work-done progress (create_async, begin, end, tokens)."""
        return self._session.work_done_progress

    def workspace_roots(self) -> list[str]:
        """The URIs of the client's workspace folders and root."""
        ws = self._session.protocol.workspace
        roots = list(ws.folders)
        if ws.root_uri:
            roots.append(ws.root_uri)
        return roots

    def semantic_tokens_refresher(self) -> Callable[[], None]:
        """A function, callable from any thread, asking the client to ask
        again for the semantic tokens (nothing if it cannot)."""
        loop = self._loop
        if not self.client.semantic_refresh or loop is None:
            return lambda: None
        session = self._session
        return lambda: loop.call_soon_threadsafe(session.workspace_semantic_tokens_refresh, None)
