"""Every LSP method the server answers, in one table: method → (handler,
schedule).

A :class:`Route` names its handler and where it runs (:class:`Schedule`):

* ``EVENT_LOOP``: on the event loop (the session's own routes, and the
  handlers that await work elsewhere without holding a thread);
* ``LANE``: on the document's request lane (server/runtime/lanes.py), a thread of
  its own; ``$/cancelRequest`` abandons the answer (:func:`in_lane`);
* ``ON_DEMAND``: as ``LANE``, with a time budget: the handler's waits for
  the on-demand analyses (``snap.wait``) share ``budget`` seconds, after
  which it answers with what it has (:func:`within_budget`).

A feature's handler is ``handler(snap, params)`` (for a command, ``params``
is its argument list) over a :class:`~affine_lsp.server.snapshot.Snapshot`,
never the server; a session route's (``session=True``: initialize, the
settings, the document lifecycle, the diagnostic pull) receives the session.
The code actions' providers, kinds and resolvers are here too
(:data:`CODE_ACTIONS`). :func:`install` registers the table with pygls, in
any order.

To add a request: see docs/architecture.md, "How to add an LSP request".
"""

from __future__ import annotations

import asyncio
import enum
import functools
import inspect
from collections.abc import Callable
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any, TypeVar

from lsprotocol import types

from affine_lsp.server import (
    bytecode_view,
    code_actions,
    completion,
    document_symbols,
    expected_checks,
    folding,
    hover,
    inlay_hints,
    lifecycle,
    memory_stats,
    navigation,
    semantic_tokens,
    show_dependences,
    signature_help,
    timing_lens,
    transform_actions,
    upgrade_action,
    views,
)
from affine_lsp.server.session import Session
from affine_lsp.server.snapshot import Snapshot
from affine_lsp.server.state import DocumentState

T = TypeVar("T")


class Schedule(enum.Enum):
    EVENT_LOOP = "event loop"
    LANE = "document lane"
    ON_DEMAND = "on demand, with a time budget"


def text_document_uri(params: Any) -> str:
    return str(params.text_document.uri)


def _none(uri: str) -> None:
    return None


def _empty_list(uri: str) -> list[Any]:
    return []


def _not_open(uri: str) -> Any:
    raise navigation.RequestFailed(f"document not open: {uri}")


@dataclass(frozen=True)
class Route:
    """One method: its handler, schedule and registration options."""

    method: str
    handler: Callable[..., Any]
    schedule: Schedule
    options: Any = None
    command: bool = False  # a workspace/executeCommand command (``params``: its arguments)
    uri: Callable[[Any], str] | None = text_document_uri  # the document the request is about (None: no document)
    missing: Callable[[str], Any] = _none  # the answer when that document is not open
    budget: float | None = None  # ON_DEMAND: the seconds its on-demand analyses may take
    session: bool = False  # the handler receives the session (its own routes), not a snapshot


CODE_ACTIONS = code_actions.Providers(
    kinds=(types.CodeActionKind.QuickFix, transform_actions.KIND, expected_checks.SOURCE_KIND, types.CodeActionKind.SourceFixAll),
    providers=(transform_actions.provider, expected_checks.provider, upgrade_action.provider),
    resolvers={transform_actions.RESOLVER: transform_actions.resolve},
)

E, L, D = Schedule.EVENT_LOOP, Schedule.LANE, Schedule.ON_DEMAND

ROUTES: tuple[Route, ...] = (
    # The session's own routes (server/lifecycle.py).
    Route(types.INITIALIZE, lifecycle.on_initialize, E, uri=None, session=True),
    Route(types.INITIALIZED, lifecycle.on_initialized, E, uri=None, session=True),
    Route(types.WORKSPACE_DID_CHANGE_CONFIGURATION, lifecycle.on_configuration, E, uri=None, session=True),
    Route(types.TEXT_DOCUMENT_DID_OPEN, lifecycle.did_open, E, uri=None, session=True),
    Route(types.TEXT_DOCUMENT_DID_CHANGE, lifecycle.did_change, E, uri=None, session=True),
    Route(types.TEXT_DOCUMENT_DID_SAVE, lifecycle.did_save, E, uri=None, session=True),
    Route(types.TEXT_DOCUMENT_DID_CLOSE, lifecycle.did_close, E, uri=None, session=True),
    Route(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        lifecycle.document_diagnostic,
        E,
        types.DiagnosticOptions(identifier="affine-lsp", inter_file_dependencies=False, workspace_diagnostics=False),
        uri=None,
        session=True,
    ),
    Route(memory_stats.MEMORY_STATS, memory_stats.memory_stats_command, E, command=True, uri=None, session=True),
    # Features.
    Route(types.TEXT_DOCUMENT_HOVER, hover.answer, D, budget=hover.HOVER_ANALYSIS_WAIT_S),
    Route(
        types.TEXT_DOCUMENT_INLAY_HINT,
        inlay_hints.answer,
        D,
        types.InlayHintOptions(resolve_provider=False),
        missing=_empty_list,
        budget=inlay_hints.INLAY_WAIT_S,
    ),
    Route(
        types.TEXT_DOCUMENT_COMPLETION,
        completion.answer,
        L,
        types.CompletionOptions(trigger_characters=completion.TRIGGERS, resolve_provider=False),
        missing=lambda uri: types.CompletionList(is_incomplete=False, items=[]),
    ),
    Route(types.TEXT_DOCUMENT_DEFINITION, navigation.definition_answer, L),
    Route(types.TEXT_DOCUMENT_REFERENCES, navigation.references_answer, L),
    Route(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT, navigation.highlights_answer, L),
    Route(types.TEXT_DOCUMENT_PREPARE_RENAME, navigation.prepare_rename_answer, L),
    Route(types.TEXT_DOCUMENT_RENAME, navigation.rename_answer, L),
    Route(types.TEXT_DOCUMENT_SIGNATURE_HELP, signature_help.answer, L, types.SignatureHelpOptions(trigger_characters=signature_help.TRIGGERS)),
    Route(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, document_symbols.answer, L, missing=_empty_list),
    Route(types.TEXT_DOCUMENT_FOLDING_RANGE, folding.answer, L, missing=_empty_list),
    Route(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, semantic_tokens.full_answer, L, semantic_tokens.LEGEND, missing=lambda uri: types.SemanticTokens(data=[])),
    Route(
        types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, semantic_tokens.range_answer, L, semantic_tokens.LEGEND, missing=lambda uri: types.SemanticTokens(data=[])
    ),
    Route(
        types.TEXT_DOCUMENT_CODE_ACTION,
        functools.partial(code_actions.answer, actions=CODE_ACTIONS),
        E,
        types.CodeActionOptions(code_action_kinds=list(CODE_ACTIONS.kinds), resolve_provider=True),
    ),
    Route(types.CODE_ACTION_RESOLVE, functools.partial(code_actions.resolve, actions=CODE_ACTIONS), E, uri=None),
    Route(types.TEXT_DOCUMENT_CODE_LENS, timing_lens.lenses, L, missing=_empty_list),
    # Commands (workspace/executeCommand).
    Route(
        show_dependences.SHOW_DEPENDENCES,
        show_dependences.show_dependences,
        D,
        command=True,
        uri=show_dependences.document_of,
        missing=_not_open,
        budget=hover.COMMAND_ANALYSIS_WAIT_S,
    ),
    Route(
        views.ITERATION_SPACE,
        views.iteration_space_answer,
        D,
        command=True,
        uri=views.iteration_space_document,
        missing=_not_open,
        budget=views.VIEW_ANALYSIS_WAIT_S,
    ),
    Route(
        views.DEPENDENCE_GRAPH,
        views.dependence_graph_answer,
        D,
        command=True,
        uri=views.dependence_graph_document,
        missing=_not_open,
        budget=views.VIEW_ANALYSIS_WAIT_S,
    ),
    Route(bytecode_view.DECODE_BYTECODE, bytecode_view.decode_command, E, command=True, uri=None),
    Route(timing_lens.TIME_FUNCTION, timing_lens.time_function_command, E, command=True, uri=None),
    Route(upgrade_action.NOTICE_COMMAND, upgrade_action.notice_command, E, command=True, uri=None),
)


# ------------------------------------------------------------ schedules


async def in_lane(session: Session, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` on the request lane of the document among ``args`` (a
    DocumentState or a Snapshot; else the shared request pool); cancelling
    the awaiting request (``$/cancelRequest``) abandons the result."""
    st = next((a.state if isinstance(a, Snapshot) else a for a in args if isinstance(a, (DocumentState, Snapshot))), None)

    def run() -> T:
        with session.busy():
            return fn(*args)

    if st is None:
        return await asyncio.get_running_loop().run_in_executor(session.request_pool, run)
    return await asyncio.wrap_future(session.lanes(st).submit_request(run))


def within_budget(session: Session, fn: Callable[..., T], *args: Any, budget: float, doc: DocumentState | None = None) -> tuple[bool, T | None]:
    """Run ``fn`` on the on-demand analysis lane of ``doc`` (or of the
    document among ``args``; else the shared one) and wait at most
    ``budget`` seconds: ``(True, result)``, or ``(False, None)`` while it
    keeps running (its results are cached by the analysis for next time)."""
    session.interactive_begin()
    st = doc if doc is not None else next((a for a in args if isinstance(a, DocumentState)), None)
    fut = session.ondemand_pool.submit(fn, *args) if st is None else session.lanes(st).submit_ondemand(lambda: fn(*args))
    fut.add_done_callback(lambda _f: session.interactive_end())
    try:
        return True, fut.result(timeout=max(0.0, budget))
    except FutureTimeout:
        return False, None


def snapshot(session: Session, st: DocumentState | None, budget: float | None = None) -> Snapshot:
    """The snapshot a handler of a request about ``st`` sees."""
    return Snapshot(session, st, functools.partial(within_budget, session), functools.partial(in_lane, session), budget)


def _handler(session: Session, route: Route) -> Callable[..., Any]:
    """The function pygls calls for ``route``."""
    if route.session:
        if route.command:

            async def on_session_command(ls: Any, *args: Any) -> Any:
                return await _maybe_await(route.handler(session, args))

            return on_session_command
        if inspect.iscoroutinefunction(route.handler):

            async def on_session_async(ls: Any, params: Any) -> Any:
                return await route.handler(session, params)

            return on_session_async

        def on_session(ls: Any, params: Any) -> Any:
            return route.handler(session, params)

        return on_session

    async def on_request(ls: Any, *args: Any) -> Any:
        params: Any = args if route.command else args[0]
        st = None
        if route.uri is not None:
            uri = route.uri(params)
            st = session.doc(uri)
            if st is None:
                return route.missing(uri)
        snap = snapshot(session, st, route.budget)
        if route.schedule is Schedule.EVENT_LOOP:
            return await _maybe_await(route.handler(snap, params))
        return await in_lane(session, route.handler, snap, params)

    return on_request


async def _maybe_await(result: Any) -> Any:
    return await result if inspect.isawaitable(result) else result


def install(server: Session) -> None:
    """Register every route of :data:`ROUTES` with pygls."""
    for route in ROUTES:
        fn = _handler(server, route)
        if route.command:
            server.command(route.method)(fn)
        else:
            server.feature(route.method, route.options)(fn)
    server.on_settings_changed.append(functools.partial(lifecycle.settings_changed, server))
