"""``textDocument/hover``: the Markdown of :func:`affine_lsp.ide.hover_text.hover_at`
over the server's analyses (:func:`hover_context`), converted by
server/convert.py; during the first build of a large document, from the
item under the cursor alone (:func:`_opening_window`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from lsprotocol import types

from affine_lsp.ide.hover_text import HoverBuilder, HoverContext, hover_at
from affine_lsp.ir.core import Operation
from affine_lsp.server.analysis_engine import flow_map, function_source, run_within_budget, scope_of
from affine_lsp.server.convert import hover as to_hover
from affine_lsp.server.convert import offset_of
from affine_lsp.server.state import DocumentState
from affine_lsp.source.document import Document, LineIndex, Section

if TYPE_CHECKING:
    from affine_lsp.server.snapshot import Snapshot

T = TypeVar("T")

HOVER_ANALYSIS_WAIT_S = 0.035
"""How long a hover waits for the dependence analysis of its function; past
that it answers without it (the analysis goes on, the next hover has it)."""

PENDING = "the dependence analysis of this function is still running; hover again in a moment"
COMMAND_ANALYSIS_WAIT_S = 0.75
"""How long a command (``affine-lsp.showDependences``) waits for the analysis
and the dataflow worker: a request on a small document is answered within
1 s (issue #31); past it the answer says the analysis is still running."""
FLOWS_MARGIN_S = 0.3
OVER_BUDGET = "dependence analysis skipped: this function needs more than the time budget of {ms} ms (`affineLsp.analysis.timeBudgetMs`)"


def hover_context(snap: Snapshot, doc: Document, wait: float | None = HOVER_ANALYSIS_WAIT_S, wait_flows: bool = False) -> HoverContext:
    """The :class:`~affine_lsp.ide.hover_text.HoverContext` of a request: its
    analyses waited for at most ``wait`` seconds (None: without a bound;
    commands also wait for the dataflow worker, ``wait_flows``)."""
    deadline = time.monotonic() + wait if wait is not None else None
    engine, settings, st = snap.analysis, snap.settings, snap.st
    flows_too = wait_flows or wait is None

    def with_deps(op: Operation, compute: Callable[[Any], T], flows_known: Callable[[Any], None]) -> tuple[T | None, str | None]:
        if not settings.analysis_enabled:
            return None, "dependence analysis is disabled (`affineLsp.analysis.enabled`)"
        func = scope_of(op)
        if func is None:
            return None, "not inside a function"

        def job() -> tuple[T | None, str | None]:
            fa = engine.analyse_function(st, func, settings)
            deps = fa.deps if fa is not None else None  # read once: the engine may drop it meanwhile (DEPS_KEPT)
            if fa is None or deps is None:
                return None, (fa.skipped if fa is not None and fa.skipped else "the analysis failed")
            if fa.timed_out:
                return None, OVER_BUDGET.format(ms=settings.time_budget_ms)
            flows_known(fa.flows)
            if fa.flows is None:
                fut = engine.request_flows(fa, function_source(doc, func), settings, urgent=True)
                if flows_too:  # a command: wait for the dataflow worker
                    left = 60.0 if deadline is None else deadline - time.monotonic() - FLOWS_MARGIN_S
                    flows_known(_wait_flows(fut, fa, timeout=max(0.0, left)))
            ok, res = run_within_budget(engine, settings.time_budget_s, compute, deps)
            if not ok:
                fa.timed_out = True
                return None, OVER_BUDGET.format(ms=settings.time_budget_ms)
            return res, None

        if deadline is None:
            return job()
        done, res = snap.wait(job, budget=deadline - time.monotonic())
        if not done or res is None:
            return None, PENDING
        return res

    def wait_for(fn: Callable[..., Any], *args: Any, budget: float) -> tuple[bool, Any]:
        return snap.wait(fn, *args, budget=budget)

    return HoverContext(st.uri, snap.client.command_links, deadline, engine.classify, with_deps, wait_for)


def hover_builder(snap: Snapshot, doc: Document, section: Section, wait: float | None = HOVER_ANALYSIS_WAIT_S, wait_flows: bool = False) -> HoverBuilder:
    """The hover's Markdown pieces for a command (``showDependences``, the views)."""
    return HoverBuilder(hover_context(snap, doc, wait, wait_flows), doc, section)


def answer(snap: Snapshot, params: types.HoverParams) -> types.Hover | None:
    return compute_hover(snap, params.position)


OPENING_WAIT_S = 0.3
"""How long a hover waits for a document whose first build holds its lock
before it reads the function under the cursor alone (:func:`_opening_window`)."""

OPENING_NOTE = "*(read from this function and the file's aliases alone: the file is still being opened)*"


def compute_hover(snap: Snapshot, pos: types.Position) -> types.Hover | None:
    """The hover at ``pos`` (its analyses wait at most ``snap.budget``);
    during the first build of the document, from the item under ``pos``
    alone (:func:`_opening_window`)."""
    st = snap.st
    while not st.lock.acquire(timeout=OPENING_WAIT_S):
        if st.last is not None:  # not a first build: wait for the lock
            st.lock.acquire()
            break
        window = _opening_window(st, pos)
        if window is not None:
            got = _hover_on(snap.for_state(window), pos)
            if got is not None and isinstance(got.contents, types.MarkupContent):
                got.contents.value += "\n\n" + OPENING_NOTE
            return got
    try:
        return _hover_on(snap, pos)
    finally:
        st.lock.release()


def _opening_window(st: DocumentState, pos: types.Position) -> DocumentState | None:
    """While the first build of a large document holds its lock: a document
    of its own holding the top-level item under ``pos`` and the section's
    alias definitions, all other text blanked to its line breaks (and the
    indentation of its last line), so that lines and columns are the same;
    None when the text is not settled (changes queued) or no item is there.
    Reads the chunks without the lock: they are replaced, never changed, and
    the text is immutable."""
    doc = st.document_if_built()
    if doc is None:
        return None
    text, chunks = doc.text, list(doc.chunks)
    offset = LineIndex(text).offset(pos.line, pos.character)  # (of this text: the document's own index is built under the lock)
    target = next((c for c in chunks if c.kind == "item" and c.anchor.offset <= offset <= c.anchor.offset + c.length), None)
    if target is None:
        return None
    kept = [c for c in chunks if c is target or (c.section == target.section and c.kind == "item" and c.text.lstrip()[:1] in ("#", "!"))]
    parts, at = [], 0
    for c in kept:
        gap = text[at : c.anchor.offset]
        parts.append("\n" * gap.count("\n") + " " * len(gap.rsplit("\n", 1)[-1]))
        parts.append(text[c.anchor.offset : c.anchor.offset + c.length])
        at = c.anchor.offset + c.length
    return DocumentState(st.uri, "".join(parts), st.version, st.language_id)


def _hover_on(snap: Snapshot, pos: types.Position) -> types.Hover | None:
    with snap.st.locked() as doc:
        ctx = hover_context(snap, doc, HOVER_ANALYSIS_WAIT_S if snap.budget is None else snap.budget)
        return to_hover(doc.lines, hover_at(ctx, doc, offset_of(doc.lines, pos)), snap.client.markdown)


def _wait_flows(fut: Any, fa: Any, timeout: float = 60.0) -> Any:
    """The value-carrying dependences once the worker answers (commands)."""
    if fut is None:
        return fa.flows
    try:
        got = fut.result(timeout=timeout)
    except Exception:
        return None
    return flow_map(got)  # as the future's own callback keeps it on ``fa`` (which may not have run yet)
