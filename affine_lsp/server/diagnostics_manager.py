"""Diagnostics: scheduling, computation in two phases, push and pull.

After a change the document's diagnostics are computed in two phases:

1. *Fast phase* (parse worker, document lock held), at once, no debounce:
   apply the queued edits, re-parse the changed chunks, rebuild the IR of
   the changed items, verify the items whose IR is new (see
   :meth:`.engine.Engine.verify`); analysis notes of functions whose IR did
   not change come from the per-function cache. Published at once (push
   clients) or answered to the pending ``textDocument/diagnostic`` (pull
   clients); both wait for the same computation. A burst of changes does
   not queue work: the changes are queued and applied together by the next
   computation, one computation per document is pending at most, and a
   computation whose version is no longer the latest when it starts returns
   without doing anything (a newer change cancels it).
2. *Analysis phase* (analysis worker, no document lock), deferred until the
   edits have paused for ``diagnostics.debounceMs`` (after opening, for
   ``OPEN_ANALYSIS_DELAY_S``; after saving or a settings change, for
   ``ANALYSIS_IDLE_S``): the dependence analysis of
   the functions without results, the edited one first, each query under the isl
   operation budget (``analysis.islMaxOperations``), each function under the
   time budget ``analysis.timeBudgetMs`` (past it the function gets an info
   note, "dependence analysis skipped"), in slices of at most that budget
   separated by idle pauses, with ``$/progress`` when it is long. Each slice
   is merged with the fast phase's notes and published (or, for pull clients,
   announced with ``workspace/diagnostic/refresh``) if the document did not
   change meanwhile; a change cancels the pending phase and stops a running
   one between two functions, and holds the background requests to the
   dataflow worker process for ``diagnostics.debounceMs`` too.

A client that supports pull diagnostics (``textDocument/diagnostic``) gets
them by pull only, others by ``textDocument/publishDiagnostics``: never both,
so no editor shows them twice. With ``$/setTrace`` (or ``trace`` at
initialization) other than ``off``, each computation is reported by a
``$/logTrace`` ("diagnostics <uri> vN: fast phase", "... analysis", "...
analysis complete").
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from affine_lsp import diagnostics, parallel
from affine_lsp.ir.core import Operation
from affine_lsp.server import analysis_engine as engine_mod
from affine_lsp.server import expected_checks
from affine_lsp.server.analysis_engine import FunctionAnalysis, function_sources, functions_of
from affine_lsp.server.analysis_progress import PROGRESS_AFTER_S, PROGRESS_MIN_FUNCTIONS, AnalysisProgress, function_label
from affine_lsp.server.convert import to_diagnostic
from affine_lsp.server.gc_schedule import CollectionSchedule
from affine_lsp.server.runtime.memory import CollectionPolicy, collect_young_and_freeze, freeze
from affine_lsp.server.runtime.reclaim import Reclaimer, shared_workers
from affine_lsp.server.session import ServerCancelled
from affine_lsp.server.state import DiagnosticsResult, DocumentState
from affine_lsp.source.document import Document
from affine_lsp.syntax.nodes import Note

if TYPE_CHECKING:
    from affine_lsp.server.session import Session

log = logging.getLogger("affine_lsp.server.diagnostics_manager")

_Progress = AnalysisProgress  # (its former name, which tests still import)

ANALYSIS_IDLE_S = 0.5
"""The analysis phase after saving or a settings change starts this long
after the fast phase (after a change: ``diagnostics.debounceMs``; after
opening: ``OPEN_ANALYSIS_DELAY_S``), and pauses this long between two
slices of ``analysis.timeBudgetMs``."""
OPEN_ANALYSIS_DELAY_S = 0.1
"""The analysis phase after opening starts this long after the fast phase:
nothing has been typed yet, and the requests an editor sends with the open
(symbols, folding, semantic tokens) are answered first. (Once it runs, it
waits between two functions for any request or fast phase.)"""
PRELOADED_DEFER_S = 0.05
"""How long the build of an opened document waits when its diagnostics came
from the persistent cache."""
PULL_WAIT_S = 1.0
PULL_WAIT_MIN_CHARS = 200_000
"""A pull on a document of at least this many characters waits at most
PULL_WAIT_S for the fast phase of its version (the first build of a
20,000-line document takes seconds); past it the answer is the LSP's
``ServerCancelled`` with ``retriggerRequest`` (the client asks again) and,
once the fast phase is done, ``workspace/diagnostic/refresh``. Nothing
that is not this version's diagnostics is ever answered."""


@dataclass(eq=False)
class FastResult:
    version: int
    result: DiagnosticsResult
    base_notes: list[Note]  # parse + IR + verifier
    missing: list[Operation] = field(default_factory=list)  # functions without analysis results
    sources: dict[int, tuple[str, str]] = field(default_factory=dict)  # their text (see engine.function_source)
    elapsed_ms: float = 0.0
    # Computed on two processes at the opening of a large document (see
    # _split_open): complete syntax and verifier diagnostics, but the IR of
    # the child's functions is built afterwards.
    partial: bool = False
    child_mb: float = 0.0  # the child's private memory (benchmarks count it)
    # -verify-diagnostics with -test-memref-dependence-check: its remarks need
    # isl, so they come in the analysis phase: the sections' module ops, the
    # notes before expected_checks.apply (parse, verifier, both), then the remarks.
    remark_modules: list[Operation] | None = None
    remark_inputs: tuple[list[Note], list[Note], list[Note]] | None = None
    remarks: list[Any] | None = None

    @property
    def pending(self) -> bool:
        """Work is left for the analysis phase."""
        return bool(self.missing) or (self.remark_modules is not None and self.remarks is None)


class DiagnosticsManager:
    def __init__(self, server: Session) -> None:
        self.server = server
        self.runs = 0  # completed fast phases (tests, benchmarks)
        self.settled_runs = 0  # runs whose analysis phase completed (the typing paused)
        self.gc = CollectionSchedule(lambda: server.interactive > 0 or self._fast_running(), lambda: server.parse_pool)
        self._loop: asyncio.AbstractEventLoop | None = None
        # Frees a closed document's IR on a background thread (server/runtime/reclaim.py).
        self.reclaimer = Reclaimer(shared_workers(server), on_done=self._freed, on_fallback=self._not_freed, engine=server.engine)

    @property
    def gc_policy(self) -> CollectionPolicy:
        return self.gc.policy

    @property
    def full_collections(self) -> int:
        """Full collections run by the policy (tests, the memory command)."""
        return self.gc.full_collections

    def collect_garbage(self) -> None:
        """A full collection at the next quiet moment, if the policy says one is due."""
        self.gc.collect()

    # ------------------------------------------------------------ lifecycle hooks (event loop)
    def document_opened(self, st: DocumentState, text: str | None = None) -> None:
        if text is not None:
            self._preload(st, text)
        st.persist_wanted = st.preloaded is None
        self._schedule(st, OPEN_ANALYSIS_DELAY_S)

    def document_changed(self, st: DocumentState) -> None:
        delay = self.server.settings.debounce_ms / 1000.0
        # The background dataflow (worker process) pauses while typing too.
        self.server.engine.flow_worker.hold(delay)
        self._schedule(st, delay)

    def document_saved(self, st: DocumentState) -> None:
        st.persist_wanted = True
        last = st.last
        if last is not None and last.version == st.version and last.complete:
            self._persist(st, last)
        if last is not None and last.version == st.version:
            # Up to date: publish again (an analysis still running will follow).
            self._publish(st, last, force=True)
        else:
            self._schedule(st, ANALYSIS_IDLE_S)

    def document_closed(self, uri: str, st: DocumentState | None) -> None:
        if st is not None and st.diag_task is not None:
            st.diag_task.cancel()
        if st is not None and st.last is not None and st.last.version == st.version and st.last.complete:
            st.persist_wanted = True
            self._persist(st, st.last)
        if self.server.protocol.writer is not None:
            self.server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        if st is not None:
            self.document_replaced(st)

    def document_replaced(self, st: DocumentState) -> None:
        """``st`` is closed (or replaced by a new open of its URI): its IR
        is frozen (server/runtime/memory.py), and cyclic; the reclaimer frees it
        without a full collection once nothing runs for it any more
        (server/runtime/reclaim.py), else the full collection does."""
        self._loop = asyncio.get_running_loop()
        self.reclaimer.submit(st)

    def _freed(self, st: DocumentState, ops: int) -> None:
        """(Reclaimer thread) ``st``'s IR was freed."""

        def freed() -> None:
            self.gc_policy.document_freed(id(st))
            self.collect_garbage()  # (what edits left, if it grew enough; not before: its objects would count)

        self._on_loop(freed)

    def _not_freed(self, st: DocumentState) -> None:
        """(Reclaimer thread) ``st``'s IR is left to the full collection."""

        def closed() -> None:
            self.gc_policy.document_closed(id(st), st.size())
            self.collect_garbage()

        self._on_loop(closed)

    def _on_loop(self, fn: Callable[..., Any], *args: Any) -> None:
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop is closed (exit)
                loop.call_soon_threadsafe(fn, *args)

    def refresh_all(self) -> None:
        """Recompute every open document (settings changed)."""
        for st in list(self.server.documents.docs.values()):
            st.last = None
            st.fast_future = None
            self._schedule(st, ANALYSIS_IDLE_S)

    # ------------------------------------------------------------ scheduling
    def _schedule(self, st: DocumentState, analysis_delay: float) -> None:
        """Compute the diagnostics of the current version now; the analysis
        follows after ``analysis_delay`` seconds without a newer change."""
        if st.diag_task is not None and not st.diag_task.done():
            st.diag_task.cancel()
        pending = st.fast_future
        if pending is not None and pending[0] != st.version:
            pending[1].cancel()  # not started yet: never runs (a started one finds its version stale)
        st.diag_task = asyncio.ensure_future(self._run(st, st.version, analysis_delay))

    async def _run(self, st: DocumentState, version: int, analysis_delay: float) -> None:
        try:
            t0 = time.perf_counter()
            if st.preloaded is not None and st.preloaded[0] == version:
                # Its diagnostics are shown (from the cache): let the client's
                # first requests (a pull) be answered before the build holds
                # the interpreter.
                await asyncio.sleep(PRELOADED_DEFER_S)
            fast = await self.fast(st, version)
            if fast is None or not st.is_current(version):
                return
            self._publish(st, fast.result)
            self.gc.after_fast_phase()
            if fast.partial:
                # Shown; now the IR of the whole document (the diagnostics stay the same).
                st.fast_future = None
                fast = await self.fast(st, version)
                if fast is None or not st.is_current(version):
                    return
                self._publish(st, fast.result)
            log.debug("%s v%d: diagnostics in %.1f ms (%d functions to analyse)", st.uri, version, 1000 * (time.perf_counter() - t0), len(fast.missing))
            if fast.pending:
                # The heavy phase waits for a pause in the typing: it competes
                # with the fast phase for the interpreter.
                if analysis_delay > 0:
                    await asyncio.sleep(analysis_delay)
                if st.is_current(version):
                    await self._analyse(st, fast)
            await self._housekeeping()
        except asyncio.CancelledError:
            log.debug("%s v%d: diagnostics run cancelled", st.uri, version)
            raise
        except Exception:
            log.exception("diagnostics failed for %s", st.uri)

    def trace(self, message: str, verbose: str | None = None) -> None:
        """``$/logTrace`` when the client asked for traces (event loop only)."""
        proto = self.server.protocol
        trace = getattr(proto, "trace", None)
        if trace in (None, types.TraceValue.Off) or proto.writer is None:
            return
        self.server.log_trace(types.LogTraceParams(message=message, verbose=verbose if trace == types.TraceValue.Verbose else None))

    async def _housekeeping(self) -> None:
        """Keep garbage collections short (server/runtime/memory.py): every fast
        phase freezes what it built, so the collector's own collections
        never walk a document's IR; the frozen garbage (IR of edited-away
        functions) is reclaimed by a full collection when the policy finds
        it grew enough, at a quiet moment."""
        self.settled_runs += 1
        self.gc.after_analysis_phase()

    def fast_phase_running(self) -> bool:
        """Whether a fast phase of any document is pending or running."""
        return self._fast_running()

    def _fast_running(self) -> bool:
        for st in list(self.server.documents.docs.values()):
            pending = st.fast_future
            if pending is not None and not pending[1].done():
                return True
        return False

    # ------------------------------------------------------------ phase 1
    async def fast(self, st: DocumentState, version: int) -> FastResult | None:
        """The fast phase of ``version``: one computation per version, shared
        by the scheduled run and pull requests (cancelling one awaiting
        task does not cancel it for the others)."""
        pending = st.fast_future
        if pending is None or pending[0] != version or (pending[1].cancelled() and st.is_current(version)):
            loop = asyncio.get_running_loop()
            cf = self.server.lanes(st).submit_fast(self.fast_now, st, version)

            def done(f: Any, version: int = version) -> None:
                if not f.cancelled() and f.exception() is None and f.result() is not None:
                    res: FastResult = f.result()
                    with contextlib.suppress(RuntimeError):  # the loop is closed (shutdown)
                        loop.call_soon_threadsafe(
                            self.trace,
                            f"diagnostics {st.uri} v{version}: fast phase" + (f" (two processes, child {res.child_mb:.1f} MB)" if res.partial else ""),
                            f"{res.elapsed_ms:.1f} ms, {len(res.missing)} functions to analyse",
                        )

            cf.add_done_callback(done)
            pending = st.fast_future = (version, cf)
        cf = pending[1]
        try:
            return await asyncio.shield(asyncio.wrap_future(cf))
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if cf.cancelled() and task is not None and not task.cancelling():
                return None  # a newer version cancelled it before it started
            raise

    def fast_now(self, st: DocumentState, version: int) -> FastResult | None:
        if not st.is_current(version):
            return None
        t0 = time.perf_counter()
        first = st.last is None or st.partial_open
        # Building a document allocates millions of objects that all survive:
        # collecting meanwhile is wasted work (they are frozen afterwards).
        # (gc.get_freeze_count() walks the frozen objects, so only around a
        # first build, never after an edit.)
        frozen = 0
        if first:
            gc.disable()
            frozen = gc.get_freeze_count()
            self.gc_policy.started(frozen)
        try:
            with self.server.busy():
                res = self._fast_locked(st, version)
        finally:
            self._retire(st)
            # What this phase built (a new document, or the functions an edit
            # rebuilt) is never walked by the collector's own collections
            # (after a first build, the young generations hold nothing else;
            # frozen before the collector is back on, whose first allocation
            # would otherwise collect them all).
            if first:
                freeze()
                gc.enable()
                self.gc_policy.built(id(st), gc.get_freeze_count() - frozen)
            else:
                collect_young_and_freeze()
        if res is not None:
            res.elapsed_ms = 1000 * (time.perf_counter() - t0)
            log.debug("fast phase v%d: %.1f ms", version, res.elapsed_ms)
        return res

    def _retire(self, st: DocumentState) -> None:
        """Hand the IR the document's edits replaced to the reclaimer
        (server/runtime/reclaim.py): freed once no thread may read it any more."""
        doc = st._doc
        if doc is None:
            return
        with st.lock:  # (the first call starts the document's tracking)
            retired = doc.take_retired()
        self.reclaimer.retire(st, retired)

    def _fast_locked(self, st: DocumentState, version: int) -> FastResult | None:
        engine = self.server.engine
        settings = self.server.settings
        with st.locked() as doc:
            if not st.is_current(version):
                return None
            st.partial_open = False
            split = self._split_open(st, doc) if st.last is None else None
            parse_notes = doc.notes()
            verify_notes: list[Note] = []
            try:
                verify_notes = engine.verify(doc, st, foreign=split[1] if split else None)
            except Exception:
                log.exception("verifier failed")
            before = diagnostics.layer_notes(doc, parse_notes, verify_notes, settings.unknown_ops, settings.allow_unregistered_dialect)
            base = expected_checks.apply(st, doc, parse_notes, verify_notes, list(before), settings)
            remark_modules = [sec.module for sec in doc.sections] if expected_checks.remarks_needed(st, doc.version) else None
            funcs = functions_of(doc)
            if split is None:
                st.remember_good_ops(doc)
            analyses: list[list[Note]] = []
            missing: list[Operation] = []
            complete = True
            if settings.analysis_enabled:
                cache = engine.cached(st, funcs, settings)
                for f in funcs:
                    fa = cache.get(id(f))
                    if fa is None:
                        missing.append(f)
                        complete = False
                    else:
                        analyses.append(fa.notes)
                        if not fa.settled:  # analysed for a hover: warm it in the background
                            missing.append(f)
                # The function being edited first, then the nearest ones.
                at = st.last_edit_offset
                if at is not None:
                    missing.sort(key=lambda f: 0 if f.span.start <= at <= f.span.end else min(abs(f.span.start - at), abs(f.span.end - at)))
            if remark_modules is not None:
                complete = False  # the remarks follow
            notes = diagnostics.assemble(base, analyses)
            diags = [to_diagnostic(n, doc.lines, st.uri) for n in notes]
            result = DiagnosticsResult(version, doc.version, notes, diags, complete=complete)
            sources = function_sources(doc, missing)
            st.last = result
            self.runs += 1
            if split is not None:
                # Whoever holds the document next builds the child's functions.
                parallel.restore(doc, split[0])
                st.partial_open = True
                return FastResult(version, result, base, [], {}, partial=True, child_mb=split[2])
            fast = FastResult(version, result, base, missing, sources)
            if remark_modules is not None:
                fast.remark_modules = remark_modules
                fast.remark_inputs = (parse_notes, verify_notes, before)
            return fast

    def _split_open(self, st: DocumentState, doc: Document) -> tuple[list[int], dict[int, list[Any]], float] | None:
        """At the opening of a large document: the top-level functions of
        its second half are parsed, built and verified in a forked child
        (:mod:`affine_lsp.parallel`) while this thread does the rest; their
        diagnostics are put on placeholder chunks. (owned chunk indices, the
        child's verifier results, its private memory), or None (not split, or the child failed:
        then nothing is left of it)."""
        if not self.server.settings.parallel_open:
            return None
        return parallel.split_open(doc, lambda: self.server.engine.verify(doc, st), what=st.uri)

    # ------------------------------------------------------------ phase 2
    async def _analyse(self, st: DocumentState, fast: FastResult) -> None:
        """Analyse ``fast.missing`` in slices of at most the time budget,
        pausing ANALYSIS_IDLE_S between slices, publishing after each slice,
        until done or the document changes."""
        loop = asyncio.get_running_loop()
        progress = AnalysisProgress(self.server, len(fast.missing))
        token: str | None = None
        started = time.monotonic()
        todo = list(fast.missing)
        self.trace(f"diagnostics {st.uri} v{fast.version}: analysis", f"{len(todo)} functions")
        try:
            if len(todo) >= PROGRESS_MIN_FUNCTIONS:
                token = await progress.begin()
            while (todo or (fast.remark_modules is not None and fast.remarks is None)) and st.is_current(fast.version):
                log.debug("%s v%d: analysing %d functions", st.uri, fast.version, len(todo))
                fut = loop.run_in_executor(self.server.analysis_pool, self._analyse_sync, st, fast, todo, progress)
                while True:
                    done, _ = await asyncio.wait({fut}, timeout=0.1)
                    if done:
                        break
                    if token is None and time.monotonic() - started > PROGRESS_AFTER_S:
                        token = await progress.begin()
                    elif token is not None:
                        progress.report()
                todo = fut.result()
                if not st.is_current(fast.version):
                    return
                final = await asyncio.wrap_future(self.server.lanes(st).submit_fast(self._merge, st, fast))
                if final is None or not st.is_current(fast.version):
                    return
                self._publish(st, final, final=not todo)
                if todo:
                    await asyncio.sleep(ANALYSIS_IDLE_S)
                else:
                    # (the value flows are for hovers only: complete does not wait for them)
                    flows = self.server.engine.flows_pending(st)
                    self.trace(
                        f"diagnostics {st.uri} v{fast.version}: analysis complete", f"value flows of {flows} functions not answered yet" if flows else None
                    )
        finally:
            if token is not None:
                progress.end()
        if self.server.client.inlay_refresh and st.is_current(fast.version):
            self.server.workspace_inlay_hint_refresh(None)

    def _analyse_sync(self, st: DocumentState, fast: FastResult, todo: list[Operation], progress: AnalysisProgress) -> list[Operation]:
        """Analyse (and warm) the functions of ``todo`` in order until done,
        the document changes, or the time budget of this slice is spent;
        returns the functions left (hovers and inlay hints analyse what they
        need on demand meanwhile).

        Each function's value flows are asked for as soon as it is analysed.
        Its loop summaries (kept in its dependence model) are computed then
        too when every function of ``todo`` keeps its model (at most
        engine.DEPS_KEPT); otherwise at the end of the slice, within its time
        budget, for the models still kept (those left go to the next slice):
        those evicted meanwhile would have lost them, and hovers and inlay
        hints compute an evicted function's summaries on demand."""
        engine = self.server.engine
        settings = self.server.settings
        budget = settings.time_budget_s
        deadline = time.monotonic() + budget if budget else None
        cancelled = lambda: not st.is_current(fast.version)  # noqa: E731
        defer = len(todo) > engine_mod.DEPS_KEPT
        deferred: list[tuple[FunctionAnalysis, tuple[str, str] | None]] = []
        left: list[Operation] = []
        for i, f in enumerate(todo):
            # Yield to fast phases and to the analyses hovers wait for.
            self._yield_to_requests(cancelled)
            if cancelled():
                return todo[i:]
            if deadline is not None and time.monotonic() > deadline:
                log.debug("%s v%d: time budget spent, %d functions left", st.uri, fast.version, len(todo) - i)
                left = todo[i:]
                break
            progress.done = min(progress.total, progress.done + 1)  # (a function warmed in the next slice comes twice)
            progress.current = function_label(f)
            fa = engine.analyse_function(st, f, settings, cancelled=cancelled)
            if fa is not None and not cancelled():
                source = fast.sources.get(id(f))
                if defer:
                    if fa.deps is not None:  # (what warm asks for such a function)
                        engine.request_flows(fa, source, settings)
                    deferred.append((fa, source))
                else:
                    engine.warm(fa, source, settings, cancelled)
        if not left and fast.remark_modules is not None and fast.remarks is None and not cancelled():
            # -test-memref-dependence-check's remarks (expected_checks), once
            # every function is analysed (the engine's models are cached).
            try:
                fast.remarks = expected_checks.dependence_remarks(fast.remark_modules, settings, cancelled)
            except Exception:
                log.exception("dependence remarks failed")
                fast.remarks = []
        kept = []
        for fa, source in deferred:
            if fa.deps is None:  # evicted meanwhile (or skipped): nothing to compute
                engine.warm(fa, source, settings, cancelled)
            else:
                kept.append((fa, source))
        for k, (fa, source) in enumerate(kept):
            self._yield_to_requests(cancelled)
            if cancelled():
                return todo  # (the caller drops a stale version's work)
            if deadline is not None and time.monotonic() > deadline:
                # The next slice warms those its own analyses leave kept.
                return left + [f.func for f, _ in kept[k:]]
            engine.warm(fa, source, settings, cancelled)
        return left

    def _yield_to_requests(self, cancelled: Callable[[], bool]) -> None:
        """Wait while fast phases and the analyses hovers wait for run."""
        while self.server.interactive > 0 and not cancelled():
            time.sleep(0.002)

    def _merge(self, st: DocumentState, fast: FastResult) -> DiagnosticsResult | None:
        engine = self.server.engine
        settings = self.server.settings
        with st.locked() as doc:
            if not st.is_current(fast.version):
                return None
            base = fast.base_notes
            complete = True
            if fast.remark_modules is not None:
                if fast.remarks is None:
                    complete = False
                else:
                    parse_notes, verify_notes, before = fast.remark_inputs  # type: ignore[misc]
                    base = expected_checks.apply(st, doc, parse_notes, verify_notes, list(before), settings, remarks=fast.remarks)
            funcs = functions_of(doc)
            cache = engine.cached(st, funcs, settings)
            analyses: list[list[Note]] = []
            for f in funcs:
                fa: FunctionAnalysis | None = cache.get(id(f))
                if fa is None:
                    complete = False
                else:
                    analyses.append(fa.notes)
            notes = diagnostics.assemble(base, analyses)
            diags = [to_diagnostic(n, doc.lines, st.uri) for n in notes]
            result = DiagnosticsResult(fast.version, doc.version, notes, diags, complete=complete)
            st.last = result
            return result

    # ------------------------------------------------------------ persistent cache
    def _preload(self, st: DocumentState, text: str) -> None:
        """Show the cached diagnostics of the opened text at once."""
        cache = self.server.disk_cache
        if not cache.enabled:
            return
        try:
            key = cache.key(st.uri, text, self.server.settings.results_key())
            raw = cache.get(key)
            if raw is None:
                return
            diags = [_converter().structure(d, types.Diagnostic) for d in raw]
        except Exception:
            log.exception("reading the diagnostics cache failed")
            return
        st.preloaded = (st.version, diags)
        self.trace(f"diagnostics {st.uri} v{st.version}: from the cache", f"{len(diags)} diagnostics")
        if not self.server.client.pull_diagnostics and not st.closed:
            st.published_version = st.version
            st.last_published = diags
            self.server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=st.uri, version=st.version, diagnostics=list(diags)))

    def _persist(self, st: DocumentState, result: DiagnosticsResult) -> None:
        """Store ``result`` (complete) in the persistent cache, in the
        background, if it was asked for and does not depend on timing."""
        from affine_lsp.server.runtime.persist import cacheable

        cache = self.server.disk_cache
        if not st.persist_wanted or not cache.enabled or not result.complete or not cacheable(result.notes):
            return
        st.persist_wanted = False
        settings_key = self.server.settings.results_key()

        def write() -> None:
            try:
                with st.locked() as doc:
                    if doc.version != result.doc_version:
                        return  # edited meanwhile: that version will be stored when it is complete
                    text = doc.text
                cache.put(cache.key(st.uri, text, settings_key), [_converter().unstructure(d) for d in result.diagnostics])
            except Exception:
                log.exception("writing the diagnostics cache failed")

        threading.Thread(target=write, name="affine-cache-write", daemon=True).start()

    # ------------------------------------------------------------ output
    def _publish(self, st: DocumentState, result: DiagnosticsResult, force: bool = False, final: bool = False) -> None:
        if st.closed:
            return
        if result.complete:
            self._persist(st, result)
        pre = st.preloaded
        if pre is not None:
            if pre[0] == result.version and not result.complete:
                return  # the cached complete diagnostics stay until this version's are complete
            st.preloaded = None
            if pre[0] == result.version:
                if _differ(pre[1], result.diagnostics):
                    log.warning("%s v%d: the cached diagnostics differ from the computed ones", st.uri, result.version)
                    final = True  # pull clients: ask them to pull again
                elif st.published_version == result.version:
                    st.last_published = result.diagnostics  # the same: not published again
        st.result_counter += 1
        if self.server.client.pull_diagnostics:
            # The client pulls on every change; tell it when the analysis adds more.
            if final and self.server.client.diagnostic_refresh:
                self.server.workspace_diagnostic_refresh(None)
            return
        if not force and st.published_version == result.version and st.last_published == result.diagnostics:
            return
        st.published_version = result.version
        st.last_published = result.diagnostics
        self.server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=st.uri, version=result.version, diagnostics=list(result.diagnostics)))

    async def pull(self, st: DocumentState, previous_result_id: str | None) -> types.DocumentDiagnosticReport | ServerCancelled:
        last = st.last
        pre = st.preloaded
        if pre is not None and pre[0] == st.version and (last is None or last.version != st.version or not last.complete):
            # The cached complete diagnostics of the opened text; a refresh
            # follows when this version's own are complete.
            if st.diag_task is None or st.diag_task.done():
                self._schedule(st, ANALYSIS_IDLE_S)
            result_id = f"cache.{pre[0]}.{len(pre[1])}.{id(pre[1])}"
            if previous_result_id is not None and previous_result_id == result_id:
                return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
            return types.RelatedFullDocumentDiagnosticReport(items=list(pre[1]), result_id=result_id)
        if last is None or last.version != st.version:
            # The fast phase of this version (the one the change scheduled, or
            # a new one); its run defers the analysis.
            if st.diag_task is None or st.diag_task.done():
                self._schedule(st, self.server.settings.debounce_ms / 1000.0)
            bounded = st.size() >= PULL_WAIT_MIN_CHARS
            while True:
                version = st.version
                if bounded:
                    try:
                        fast = await asyncio.wait_for(self.fast(st, version), PULL_WAIT_S)
                    except TimeoutError:
                        self._refresh_when_built(st, version)
                        return ServerCancelled(f"the diagnostics of version {version} are being computed", {"retriggerRequest": True})
                else:
                    fast = await self.fast(st, version)
                if fast is not None:
                    break
                if st.closed:
                    return types.RelatedFullDocumentDiagnosticReport(items=[])
                # A newer change arrived meanwhile: answer for it.
            last = fast.result
            if st.last is not None and st.last.version == last.version:
                last = st.last  # the analysis may have been merged meanwhile
        result_id = f"{last.version}.{len(last.diagnostics)}.{int(last.complete)}.{id(last)}"
        if previous_result_id is not None and previous_result_id == result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        return types.RelatedFullDocumentDiagnosticReport(items=list(last.diagnostics), result_id=result_id)

    def _refresh_when_built(self, st: DocumentState, version: int) -> None:
        """Ask the client to pull again once the fast phase of ``version`` is
        done (a pull was answered ``ServerCancelled`` meanwhile)."""
        pending = st.fast_future
        if pending is None or pending[0] != version or not self.server.client.diagnostic_refresh:
            return
        loop = asyncio.get_running_loop()

        def done(f: Any) -> None:
            if not f.cancelled() and f.exception() is None and f.result() is not None and st.is_current(version):
                with contextlib.suppress(RuntimeError):  # the loop is closed (shutdown)
                    loop.call_soon_threadsafe(self.server.workspace_diagnostic_refresh, None)

        pending[1].add_done_callback(done)


def _differ(a: list[types.Diagnostic], b: list[types.Diagnostic]) -> bool:
    """Compared as the client sees them (JSON): cached ones come from JSON,
    where a tuple in ``data`` became a list."""
    if len(a) != len(b):
        return True
    conv = _converter()
    return any(x != y and conv.unstructure(x) != conv.unstructure(y) for x, y in zip(a, b))


@functools.cache
def _converter() -> Any:
    """lsprotocol's converter, made once: ``get_converter()`` makes a new
    one with all its hooks at every call (about 15,000 objects in cycles,
    which only a full collection frees)."""
    from lsprotocol.converters import get_converter

    return get_converter()
