"""The server's access to the verifier and the analyses, with caching.

The server never decides anything itself: dimension/symbol validity comes
from :mod:`affine_lsp.verify.dimsym`, verifier diagnostics from
:func:`affine_lsp.verify.verify_document`, dependences, loop summaries and
access relations from :mod:`affine_lsp.analysis`. This module only

* imports them lazily (a missing package disables its features instead of
  breaking the server);
* caches the analysis of each function per document, keyed by the function's
  ``Operation`` object: the document model builds a new op when the text of
  a function (or its section's alias environment) changes, so an unchanged
  function keeps its results across edits and a changed one is re-analysed;
* runs each function's analysis at most once at a time (a hover waiting for
  a function the background analysis is working on waits for that result);
* verifies incrementally (:meth:`Engine.verify`): only the top-level items
  whose IR changed are verified again;
* sends the value-based dataflow, one long isl computation that would hold
  the interpreter lock, to a worker process (:mod:`.flowproc`).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

from affine_lsp.diagnostics import analysis_scopes
from affine_lsp.ir import op_traits
from affine_lsp.ir.core import ROOT_ANCHOR, Anchor, Operation, Span, Value
from affine_lsp.source.document import Document
from affine_lsp.syntax.nodes import Note

if TYPE_CHECKING:
    from affine_lsp.server.settings import Settings
    from affine_lsp.server.state import DocumentState

log = logging.getLogger("affine_lsp.server.analysis_engine")


def functions_of(doc: Document) -> list[Operation]:
    """The analysis scopes (functions) of every section, each once, in text
    order: :func:`affine_lsp.diagnostics.analysis_scopes`, what ``check``
    analyses."""
    return analysis_scopes(doc)


def verify_items(m: ModuleType, doc: Document, entries: dict[int, Any], foreign: dict[int, list[Any]] | None = None) -> tuple[list[Note], int]:
    """The verifier notes of ``doc`` by ``m`` (:mod:`affine_lsp.verify`), the
    results of the items whose op is in ``entries`` (a document's
    ``verify_cache``, updated) reused; (the notes, how many items were
    verified). :meth:`Engine.verify` and the early first publish
    (:mod:`.early_open`) verify through it."""
    text, line_of = doc.text, doc.lines.line_of
    cache = _VerifyCache(entries, line_of)
    out: list[Note] = []
    for section in doc.sections:
        try:
            out.extend(m.verify_section(section, text, line_of, strict=False, cache=cache, foreign=(foreign or {}).get(section.index, ())))
        except Exception as e:  # pragma: no cover - defensive, as verify_document
            log.exception("verifier failed")
            out.append(Note("info", f"internal verifier error: {e!r}", Span(section.start, section.start), "internal"))
    cache.forget_others()
    return out, cache.computed


def flow_map(result: list[tuple[int, int, int, list[tuple[int | None, int | None]]]] | None) -> dict[tuple[int, int, int], tuple] | None:
    """The dataflow worker's answer (``(source, destination, depth,
    distances)`` per value-carrying dependence) as the analyses keep it:
    distances by ``(source, destination, depth)``; None when it failed."""
    return {(s, d, depth): tuple(dist) for s, d, depth, dist in result} if result is not None else None


@dataclass(eq=False)
class FunctionAnalysis:
    """The analysis of one function op under one settings key."""

    func: Operation
    key: tuple
    notes: list[Note] = field(default_factory=list)
    deps: Any = None  # affine_lsp.analysis.FunctionDeps
    skipped: str | None = None  # why the analysis did not run
    warmed: bool = False  # loop summaries computed (see Engine.warm)
    flows: dict[tuple[int, int, int], tuple[tuple[int | None, int | None], ...]] | None = None  # value-carrying RAWs -> value-based distance (see flowproc)
    flows_future: Any = None  # the request to the dataflow worker
    flows_failed: bool = False
    timed_out: bool = False  # a computation ran past analysis.timeBudgetMs (not retried)
    evicted: bool = False  # ``deps`` dropped to bound memory; recomputed when asked for

    @property
    def ready(self) -> bool:
        """Everything hovers ask for is computed."""
        return self.warmed and (self.flows is not None or self.flows_failed)

    @property
    def settled(self) -> bool:
        """Nothing is left for the background analysis to do: its loop
        summaries are computed and its value flows are known, will never be
        (``flows_failed``), or are asked for (``flows_future``: the dataflow
        worker's answer sets ``flows``; only hovers and commands read them,
        and they ask for them themselves meanwhile)."""
        return self.warmed and (self.flows is not None or self.flows_failed or self.flows_future is not None)


DEPS_KEPT = 64
"""Functions per document whose dependence model (isl sets and maps, pair
results, loop summaries; their size: docs/performance.md) stays in memory, the most recently
used ones. The diagnostics and value flows of every function are kept; the
model of another function is computed again when a hover or an inlay hint
asks for it (as for a function the background analysis has not reached)."""


class Engine:
    def __init__(self) -> None:
        self.generation = 0
        self.verified_items = 0  # top-level items verified (not reused) so far: tests, benchmarks
        self._lock = threading.Lock()
        self._inflight: dict[int, threading.Event] = {}
        from affine_lsp.server.runtime.flowproc import FlowWorker

        self.flow_worker = FlowWorker()

    # ------------------------------------------------------------ modules
    # Imported when first needed (the fast phase imports no isl), by plain imports.
    @property
    def verify_mod(self) -> ModuleType:
        import affine_lsp.verify

        return affine_lsp.verify

    @property
    def analysis_mod(self) -> ModuleType:
        import affine_lsp.analysis

        return affine_lsp.analysis

    @property
    def dimsym_mod(self) -> ModuleType:
        import affine_lsp.verify.dimsym

        return affine_lsp.verify.dimsym

    # ------------------------------------------------------------ verifier
    def verify(self, doc: Document, st: DocumentState | None = None, foreign: dict[int, list[Any]] | None = None) -> list[Note]:
        """Verifier diagnostics (non-strict: a top-level item that does not
        parse is skipped, the others are verified).

        With ``st``, incremental: the verifier checks every op isolated from
        above on its own, so the results of a top-level item whose IR did not
        change (the same op object: the document builds a new one when the
        item's text or its environment changes) are reused from
        ``st.verify_cache`` (see :class:`affine_lsp.verify.verifier.ItemCache`);
        only new items are verified, whatever else changed in the section
        (items added, removed, broken, renamed). The rest of a section's
        verification (aliases, module-level checks, items without regions) is
        done again every time. ``foreign``: per section index, the results of
        the items verified in another process (see :mod:`affine_lsp.parallel`)."""
        m = self.verify_mod
        if st is None:
            return list(m.verify_document(doc, strict=False))
        out, computed = verify_items(m, doc, st.verify_cache, foreign)
        self.verified_items += computed
        return out

    def classify(self, value: Value, user: Operation, line_of: Callable[[int], int] | None = None) -> Any:
        """``dimsym.classify`` (None when it fails)."""
        try:
            return self.dimsym_mod.classify(value, user, line_of)
        except Exception:
            log.exception("dimsym.classify failed")
            return None

    # ------------------------------------------------------------ analysis cache
    def key(self, settings: Settings) -> tuple:
        return (self.generation, settings.isl_max_operations)

    def clear(self) -> None:
        """Forget every cached analysis (the budget settings changed)."""
        self.generation += 1

    def cached(self, st: DocumentState, funcs: list[Operation], settings: Settings) -> dict[int, FunctionAnalysis]:
        """The cached analyses of ``funcs``; forgets those of other functions."""
        key = self.key(settings)
        cache: dict[int, FunctionAnalysis] = st.fn_cache
        live = {id(f): f for f in funcs}
        with self._lock:
            dropped = self._drop_locked(st, [k for k, fa in cache.items() if live.get(k) is not fa.func or fa.key != key])
            out = dict(cache)
        if dropped:
            self.flow_worker.purge_cancelled()
        return out

    def forget(self, st: DocumentState, keys: Iterable[int]) -> None:
        """Drop ``st``'s analyses of the functions ``keys`` (ids of ops an
        edit replaced: server/runtime/reclaim.py), and their value flows still queued."""
        with self._lock:
            dropped = self._drop_locked(st, keys)
        if dropped:
            self.flow_worker.purge_cancelled()

    @staticmethod
    def _drop_locked(st: DocumentState, keys: Iterable[int]) -> bool:
        """Pop the analyses ``keys`` of ``st`` (lock held); whether a queued
        value-flow request was cancelled (the caller purges the queue)."""
        dropped = False
        for k in keys:
            fa = st.fn_cache.pop(k, None)
            if fa is None:
                continue
            st.deps_lru.pop(k, None)
            fut = fa.flows_future
            if fut is not None and fut.cancel():  # still queued: never computed (it would keep the old IR alive until then)
                dropped = True
        return dropped

    def analyse_function(
        self,
        st: DocumentState,
        func: Operation,
        settings: Settings,
        cancelled: Callable[[], bool] | None = None,
    ) -> FunctionAnalysis | None:
        """The analysis of ``func`` (cached; computed at most once at a time)."""
        key = self.key(settings)
        fid = id(func)
        while True:
            with self._lock:
                fa = st.fn_cache.get(fid)
                if fa is not None and fa.key == key and fa.func is func and (fa.skipped is None or fa.timed_out) and not fa.evicted:
                    self._touch(st, fid)
                    return fa
                ev = self._inflight.get(fid)
                if ev is None:
                    ev = threading.Event()
                    self._inflight[fid] = ev
                    break
            ev.wait(timeout=1.0)
            if cancelled is not None and cancelled():
                return None
        try:
            if fa is not None and fa.evicted and fa.key == key and fa.func is func:
                self._revive(fa, settings)
            else:
                fa = self._compute(func, key, settings)
            with self._lock:
                st.fn_cache[fid] = fa
                self._touch(st, fid)
            return fa
        finally:
            with self._lock:
                self._inflight.pop(fid, None)
            ev.set()

    def _touch(self, st: DocumentState, fid: int) -> None:
        """``fid``'s model was just used: the least recently used models past
        :data:`DEPS_KEPT` are dropped (their notes and flows are kept).
        Called with the lock held."""
        lru = st.deps_lru
        lru.pop(fid, None)
        lru[fid] = None
        while len(lru) > DEPS_KEPT:
            old = next(iter(lru))
            del lru[old]
            fa = st.fn_cache.get(old)
            if fa is not None and fa.deps is not None:
                fa.deps = None
                fa.evicted = True
                self.analysis_mod.forget_dependences(fa.func)

    def _revive(self, fa: FunctionAnalysis, settings: Settings) -> None:
        """Compute again the dependence model of an evicted analysis (its
        notes are those of the first computation: the same function op)."""
        m = self.analysis_mod
        with _time_limit(m, settings.time_budget_s):
            try:
                fa.deps = m.dependences_of_function(fa.func, settings.isl_max_operations)
            except Exception as e:
                if not _timed_out(m, e):
                    log.exception("dependence analysis failed")
                fa.deps = None
                fa.skipped = (
                    "the dependence analysis of this function ran past its time budget"
                    if _timed_out(m, e)
                    else f"dependence analysis failed: {type(e).__name__}"
                )
                fa.timed_out = _timed_out(m, e)
        fa.evicted = False

    def _compute(self, func: Operation, key: tuple, settings: Settings) -> FunctionAnalysis:
        m = self.analysis_mod
        fa = FunctionAnalysis(func, key)
        budget = settings.isl_max_operations
        # The whole analysis of the function (model and diagnostics) under
        # analysis.timeBudgetMs: past it, the function gets an info note and
        # no dependences (hovers say why).
        with _time_limit(m, settings.time_budget_s):
            try:
                fa.deps = m.dependences_of_function(func, budget)
            except Exception as e:
                if _timed_out(m, e):
                    return self._over_budget(fa, m, func, e)
                log.exception("dependence analysis failed")
                fa.notes.append(Note("info", f"dependence analysis failed: {type(e).__name__}: {e}", func.name_span, "deps-internal"))
                return fa
            try:
                fa.notes.extend(anchored(n, func.span.anchor) for n in m.analyze_function(func, budget))
            except Exception as e:
                if _timed_out(m, e):
                    return self._over_budget(fa, m, func, e)
                log.exception("analysis diagnostics failed")
                fa.notes.append(Note("info", f"dependence analysis failed: {type(e).__name__}: {e}", func.name_span, "deps-internal"))
        over = next((n for n in fa.notes if n.code == "deps-time"), None)
        if over is not None:
            fa.deps = None
            fa.skipped = over.message
            fa.timed_out = True
        return fa

    @staticmethod
    def _over_budget(fa: FunctionAnalysis, m: ModuleType, func: Operation, e: BaseException) -> FunctionAnalysis:
        note = m.time_budget_note(func, getattr(e, "seconds", 0.0))
        fa.notes = [anchored(note, func.span.anchor)]
        fa.deps = None
        fa.skipped = note.message
        fa.timed_out = True
        return fa

    def warm(self, fa: FunctionAnalysis, source: tuple[str, str] | None, settings: Settings, cancelled: Callable[[], bool] | None = None) -> None:
        """Compute in advance what hovers and inlay hints ask for: the loop
        summaries (here) and the value-based dataflow (in the worker process
        of :mod:`.flowproc`, from ``source`` = (alias definitions, function
        text); the dataflow is one long isl call that would freeze this
        process)."""
        deps = fa.deps  # read once: a hover may make the engine drop it meanwhile (DEPS_KEPT)
        if deps is None:
            if fa.evicted:  # its model was dropped: summaries are computed again on demand
                fa.warmed = True
                self.request_flows(fa, source, settings)
            else:  # nothing to warm (skipped, failed): never ask again
                fa.warmed = fa.flows_failed = True
            return
        if not fa.warmed:
            try:
                with _time_limit(self.analysis_mod, settings.time_budget_s):
                    for op in fa.func.walk():
                        if cancelled is not None and cancelled():
                            return
                        if op.name in ("affine.for", "affine.parallel"):
                            deps.loop_summary(op)
                fa.warmed = True
            except Exception as e:
                if not _timed_out(self.analysis_mod, e):
                    log.exception("analysis warm-up failed")
                # Loop summaries past the time budget: hovers say so instead of retrying.
                fa.warmed = fa.timed_out = True
        self.request_flows(fa, source, settings)

    def request_flows(self, fa: FunctionAnalysis, source: tuple[str, str] | None, settings: Settings, urgent: bool = False) -> Future | None:
        """Ask the dataflow worker for ``fa``'s value-carrying dependences
        (once); the future of the request, or None."""
        with self._lock:
            if fa.flows_future is not None:
                if urgent and not fa.flows_future.done():  # asked for in the background: now a request waits
                    self.flow_worker.expedite(fa.flows_future)
                return fa.flows_future
            if fa.flows is not None or fa.flows_failed:
                return None
            if source is None or self.flow_worker.broken:
                # Nothing will ever answer (a function inside another
                # top-level item has no text of its own to send; the worker
                # died): never asked again, never left "to analyse".
                fa.flows_failed = True
                return None

            def done(result: list[tuple[int, int, int, list[tuple[int | None, int | None]]]] | None) -> None:
                fa.flows = flow_map(result)
                fa.flows_failed = result is None

            fa.flows_future = self.flow_worker.submit(source[0], source[1], settings.isl_max_operations, done, urgent, settings.time_budget_s)
            if fa.flows_future is None:  # the worker is stopped or broken
                fa.flows_failed = True
            return fa.flows_future

    def flows_pending(self, st: DocumentState) -> int:
        """How many functions of ``st`` wait for the dataflow worker's answer."""
        with self._lock:
            return sum(1 for fa in st.fn_cache.values() if fa.flows_future is not None and not fa.flows_future.done())


def _time_limit(m: ModuleType | None, seconds: float | None) -> Any:
    """The analysis package's ``time_limit(seconds)`` (a no-op without it)."""
    fn = getattr(m, "time_limit", None) if m is not None else None
    return fn(seconds) if fn is not None else contextlib.nullcontext()


def _timed_out(m: ModuleType | None, e: BaseException) -> bool:
    exc = getattr(m, "TimeBudgetExceeded", None) if m is not None else None
    return exc is not None and isinstance(e, exc)


def run_within_budget(engine: Engine, seconds: float | None, fn: Callable[..., Any], *args: Any) -> tuple[bool, Any]:
    """``(True, fn(*args))`` under the analysis time limit of ``seconds``, or
    ``(False, None)`` when it ran out of time."""
    m = engine.analysis_mod
    try:
        with _time_limit(m, seconds):
            return True, fn(*args)
    except Exception as e:
        if _timed_out(m, e):
            return False, None
        raise


def function_sources(doc: Document, funcs: list[Operation]) -> dict[int, tuple[str, str]]:
    """For each function of ``funcs`` (by id): (the alias definitions of its
    section, the text of the top-level item holding it), what :mod:`.flowproc`
    re-parses. One pass over the document."""
    from affine_lsp.syntax.nodes import AliasDefSyn

    wanted = {id(f) for f in funcs}
    out: dict[int, tuple[str, str]] = {}
    if not wanted:
        return out
    for section in doc.sections:
        prefix: str | None = None
        for c in section.chunks:
            op = c.ir_op
            if op is None or id(op) not in wanted:
                continue
            if prefix is None:
                prefix = "\n".join(x.text for x in section.chunks if x.parse is not None and isinstance(x.parse.item, AliasDefSyn)) + "\n"
            out[id(op)] = (prefix, c.text)
    return out


def function_source(doc: Document, func: Operation) -> tuple[str, str] | None:
    return function_sources(doc, [func]).get(id(func))


def _anchor_span(span: Any, anchor: Anchor) -> Any:
    if isinstance(span, Span) and span.anchor is ROOT_ANCHOR and anchor is not ROOT_ANCHOR:
        return Span(span.start - anchor.offset, span.end - anchor.offset, anchor)
    return span


def anchored(note: Note, anchor: Anchor) -> Note:
    """``note`` with its absolute spans re-expressed relative to ``anchor``
    (the chunk the note belongs to), so that a cached note follows its chunk
    when edits elsewhere move it. Spans already anchored are kept."""
    data = note.data
    if data:
        data = dict(data)
        rel = data.get("related")
        if isinstance(rel, list):
            data["related"] = [(_anchor_span(r[0], anchor), *r[1:]) if isinstance(r, tuple | list) and r else r for r in rel]
        fix = data.get("fix")
        fixes = fix if isinstance(fix, list) else [fix] if isinstance(fix, dict) else []
        new_fixes = []
        for f in fixes:
            if isinstance(f, dict) and isinstance(f.get("edits"), list):
                edits = []
                for e in f["edits"]:
                    if isinstance(e, dict):
                        e = dict(e)
                        for k in ("start", "end"):
                            if isinstance(e.get(k), int):
                                e[k] = Span(e[k] - anchor.offset, e[k] - anchor.offset, anchor) if anchor is not ROOT_ANCHOR else e[k]
                            else:
                                e[k] = _anchor_span(e.get(k), anchor)
                        if "span" in e:
                            e["span"] = _anchor_span(e["span"], anchor)
                    edits.append(e)
                f = {**f, "edits": edits}
            new_fixes.append(f)
        if isinstance(fix, list):
            data["fix"] = new_fixes
        elif isinstance(fix, dict):
            data["fix"] = new_fixes[0]
    span = _anchor_span(note.span, anchor)
    if span is note.span and data == note.data:
        return note
    return Note(note.severity, note.message, span, note.code, data)


def _names_lines(notes: list[Note]) -> bool:
    """Whether a note's text (or its related information) names a line number."""
    for n in notes:
        if "line " in n.message:
            return True
        rel = (n.data or {}).get("related")
        if isinstance(rel, list) and any(isinstance(r, tuple | list) and len(r) > 1 and "line " in str(r[1]) for r in rel):
            return True
    return False


class _VerifyCache:
    """The per-item verifier results of one document (``verify_cache``:
    ``id(op)`` -> ``[op, line of the item, {kind: (ok, notes anchored to the
    item, whether a note names a line)}]``) for one verification run."""

    def __init__(self, entries: dict[int, Any], line_of: Callable[[int], int]) -> None:
        self.entries = entries
        self.line_of = line_of
        self.live: set[int] = set()
        self.computed = 0

    def lookup(self, op: Operation, kind: str) -> tuple[bool, list[Note]] | None:
        entry = self.entries.get(id(op))
        if entry is None or entry[0] is not op:
            return None
        hit = entry[2].get(kind)
        if hit is None:
            return None
        # Messages that name a line ("defined by ... at line 12") are stale
        # once the item moved to another line.
        if hit[2] and entry[1] != self.line_of(op.span.start):
            return None
        self.live.add(id(op))
        return hit[0], hit[1]

    def store(self, op: Operation, kind: str, ok: bool, notes: list[Note]) -> None:
        line = self.line_of(op.span.start)
        entry = self.entries.get(id(op))
        if entry is None or entry[0] is not op:
            entry = self.entries[id(op)] = [op, line, {}]
        elif entry[1] != line:  # moved: keep only the results that name no line
            entry[1] = line
            entry[2] = {k: r for k, r in entry[2].items() if not r[2]}
        anchor = op.span.anchor
        entry[2][kind] = (ok, [anchored(n, anchor) for n in notes], _names_lines(notes))
        self.live.add(id(op))
        if kind == "verify":
            self.computed += 1

    def forget_others(self) -> None:
        """Drop the entries of items this run did not see (edited away)."""
        entries, live = self.entries, self.live
        if len(entries) != len(live):
            for k in [k for k in entries if k not in live]:
                del entries[k]


scope_of = op_traits.enclosing_function
