"""The polyhedral dependence engine (islpy): one module, one API, exact answers.

Layout
------
* :mod:`.polyhedral` -- IR -> isl: iteration domains and access relations of
  every affine access (``affine.load/store``, ``vector_load/vector_store``,
  ``affine.prefetch`` as a read, ``affine.dma_start`` source read and
  destination write).
* :mod:`.dependences` -- memory-based dependences with MLIR's semantics
  (``checkMemrefAccessDependence``) and exact distance bounds.
* :mod:`.dataflow` -- value-based dataflow (isl ``compute_flow``): which write
  each read takes its value from, which reads see values from before the
  function.
* :mod:`.summary` -- per-loop summaries (carried dependences, parallel,
  vectorizable) and races in ``affine.parallel``.
* :mod:`.bounds_check` -- out-of-bounds accesses (MLIR's
  ``-memref-bound-check`` wording).
* :mod:`.remarks` -- the remarks of MLIR's ``-test-memref-dependence-check``.
* :mod:`.bruteforce` -- an independent enumerator of access instances, the
  reference the tests prove exactness against.

Public API
----------
``dependences_of_function(func_op, budget=DEFAULT_BUDGET) -> FunctionDeps``
    The cached dependence engine of one function (any scope op). Cached per
    function ``Operation`` object (stored on the op, so it dies with it; the
    document model rebuilds the op when its text or its section's alias
    environment changes, so a changed function is never served stale
    results) and budget.

``FunctionDeps``
    ``.accesses`` (:class:`AccessModel`, walk order), ``.access(op, role)``,
    ``.check(src, dst, depth) -> DepResult``, ``.pairs`` (every candidate pair
    at every depth, :class:`PairDeps`), ``.for_access(op)`` (dependences
    involving ``op``), ``.carried_by(loop_op)``, ``.loop_summary(loop_op) ->
    LoopSummary``, ``.dataflow() -> Dataflow``, ``.notes`` (info notes: budget
    exceeded, pair limit).

``check_dependence(src_op, dst_op, depth, budget=...) -> DepResult``
    MLIR's ``checkMemrefAccessDependence`` for two ops (the first access role
    of each; pass ``src_role``/``dst_role`` for ``affine.dma_start``).
    ``DepResult.status`` is ``none`` / ``dependence`` / ``unknown``;
    ``.kind`` RAW/WAR/WAW; ``.components`` the exact ``[lb, ub]`` per common
    loop (``None`` = infinite); ``.mlir_str()`` the pass's printing;
    ``.relation`` the isl dependence relation; ``.distance_set_str()`` the
    exact distance set (strided, parametric, unions).

``loop_summary(loop_op) -> LoopSummary``
    Carried dependences, ``parallel``, ``vectorizable`` for an ``affine.for``
    or ``affine.parallel``.

``access_relation_str(op, role=None) -> str``
    The isl access relation of an access op, e.g.
    ``{ S0[i, j] -> A[i, j + 1] : 0 <= i <= 9 and 0 <= j <= 9 }``.

``analyze_function(func_op, budget=...) -> list[Note]``
    The same diagnostics for one function under a given budget.

``time_limit(seconds)``
    A context manager bounding everything above in time (per thread): past
    the deadline the next isl query raises ``TimeBudgetExceeded``;
    ``analyze_function`` turns it into an info note ("dependence analysis
    skipped: ... time budget ...").

``analyze_document(doc) -> list[Note]``
    Diagnostics for :mod:`affine_lsp.diagnostics`: out-of-bounds warnings,
    racy ``affine.parallel`` errors, budget / limit info notes. Total: never
    raises.

Every isl computation runs under an operation limit reset per query; when
it trips, the answer is ``unknown`` (conservative) plus an info note.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from affine_lsp import forking
from affine_lsp.analysis import bounds_check as _bounds_check  # noqa: F401  (imported eagerly: no first-use cost)
from affine_lsp.analysis import dataflow as _dataflow  # noqa: F401
from affine_lsp.analysis import summary as _summary  # noqa: F401
from affine_lsp.analysis.dependences import (
    DEFAULT_MAX_PAIRS,
    DEPENDENCE,
    NONE,
    UNKNOWN,
    DepResult,
    FunctionDeps,
    PairDeps,
    dependence_kind,
    num_common_loops,
)
from affine_lsp.analysis.isl_support import DEFAULT_BUDGET, TimeBudgetExceeded, time_limit
from affine_lsp.analysis.polyhedral import AccessModel, scope_of
from affine_lsp.ir import op_traits
from affine_lsp.ir.core import Operation, memo_if_any, memo_of
from affine_lsp.syntax.nodes import Note

if TYPE_CHECKING:
    from affine_lsp.analysis.summary import LoopSummary
    from affine_lsp.source.document import Document

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_MAX_PAIRS",
    "DEPENDENCE",
    "NONE",
    "UNKNOWN",
    "AccessModel",
    "DepResult",
    "FunctionDeps",
    "PairDeps",
    "TimeBudgetExceeded",
    "access_relation_str",
    "analyze_document",
    "analyze_function",
    "check_dependence",
    "dependence_kind",
    "dependences_of_function",
    "forget_dependences",
    "loop_summary",
    "num_common_loops",
    "time_budget_note",
    "time_limit",
]

CACHE_ATTR = "_affine_lsp_function_deps"
CACHE_LOCK = forking.held_across_fork(threading.RLock(), f"{__name__}.CACHE_LOCK", order=2)


class _DepsCache(dict):
    """The engines of one function op, stored in its memo. Copies of the op
    (``copy``/``deepcopy``/pickling, e.g. by a transform cloning IR) never
    inherit them: the owner check below and the copy hooks start afresh."""

    def __init__(self, owner: Operation | None = None) -> None:
        super().__init__()
        self.owner = owner

    def __copy__(self) -> _DepsCache:
        return _DepsCache()

    def __deepcopy__(self, memo: dict) -> _DepsCache:
        return _DepsCache()

    def __reduce__(self) -> tuple:
        return (_DepsCache, ())


def forget_dependences(func_op: Operation) -> None:
    """Drop the cached dependence engines of ``func_op`` (to bound memory;
    :func:`dependences_of_function` builds a new one when asked)."""
    with CACHE_LOCK:
        memo = memo_if_any(func_op)
        if memo is not None:
            memo.pop(CACHE_ATTR, None)


def dependences_of_function(func_op: Operation, budget: int = DEFAULT_BUDGET, max_pairs: int = DEFAULT_MAX_PAIRS) -> FunctionDeps:
    """The (cached) dependence engine of ``func_op``.

    The cache lives on the op itself, so it dies with the op: a function
    whose text changed is rebuilt by the document model and gets a fresh
    engine, and no global table keeps old IR alive.
    """
    key = (budget, max_pairs)
    with CACHE_LOCK:
        store = memo_of(func_op)
        per = store.get(CACHE_ATTR)
        if not isinstance(per, _DepsCache) or per.owner is not func_op:
            per = store[CACHE_ATTR] = _DepsCache(func_op)
        fd = per.get(key)
    if fd is not None:
        return fd
    # Built without holding the cache lock: building takes isl's lock, and a
    # caller may already hold isl's lock when it asks for the cache (fusion
    # analyses do), so holding both here in the other order deadlocks. Two
    # threads may build the same engine at once; the first one stored wins.
    built = FunctionDeps(func_op, budget, max_pairs)
    with CACHE_LOCK:
        return per.setdefault(key, built)


def _cached_deps(func_op: Operation, budget: int, max_pairs: int = DEFAULT_MAX_PAIRS) -> FunctionDeps | None:
    """The engine :func:`dependences_of_function` cached for ``func_op``, if any."""
    with CACHE_LOCK:
        memo = memo_if_any(func_op)
        per = memo.get(CACHE_ATTR) if memo is not None else None
        if isinstance(per, _DepsCache) and per.owner is func_op:
            return per.get((budget, max_pairs))
    return None


def deps_for(op: Operation, budget: int) -> FunctionDeps | None:
    scope = scope_of(op)
    return dependences_of_function(scope, budget) if scope is not None else None


def check_dependence(
    src_op: Operation,
    dst_op: Operation,
    depth: int,
    budget: int = DEFAULT_BUDGET,
    src_role: str | None = None,
    dst_role: str | None = None,
) -> DepResult:
    """The dependence from ``src_op`` to ``dst_op`` at ``depth`` (MLIR's
    semantics; exact bounds). Ops in different functions never depend."""
    fs, fd = deps_for(src_op, budget), deps_for(dst_op, budget)
    if fs is None or fd is None or fs is not fd:
        return DepResult(None, None, depth, 0, NONE, reason="different functions")
    a, b = fs.access(src_op, src_role), fs.access(dst_op, dst_role)
    if a is None or b is None:
        return DepResult(a, b, depth, 0, NONE, reason="not an affine memory access")
    return fs.check(a, b, depth)


def loop_summary(loop_op: Operation, budget: int = DEFAULT_BUDGET) -> LoopSummary:
    """The summary of an ``affine.for`` / ``affine.parallel``."""
    fd = deps_for(loop_op, budget)
    if fd is None:
        from affine_lsp.analysis.summary import LoopSummary

        return LoopSummary(loop_op, [], [], False, False, ["not inside a function"], None)
    return fd.loop_summary(loop_op)


def access_in_bounds(op: Operation, role: str | None = None, budget: int = DEFAULT_BUDGET) -> bool:
    """Whether every element the access ``op`` touches provably lies inside
    its memref (:func:`~affine_lsp.analysis.bounds_check.provably_in_bounds`)."""
    from affine_lsp.analysis.bounds_check import provably_in_bounds

    fd = deps_for(op, budget)
    a = fd.access(op, role) if fd is not None else None
    return a is not None and provably_in_bounds(fd, a)  # type: ignore[arg-type]


def access_relation_str(op: Operation, role: str | None = None, budget: int = DEFAULT_BUDGET) -> str:
    """The isl access relation of ``op`` (``<unknown>`` when not modelled)."""
    fd = deps_for(op, budget)
    a = fd.access(op, role) if fd is not None else None
    return a.relation_str() if a is not None else "<unknown>"


def analyze_document(doc: Document) -> list[Note]:
    """Out-of-bounds warnings, racy ``affine.parallel`` warnings and info notes
    (budget exceeded, pair limit) of every analysis scope of ``doc``
    (:func:`affine_lsp.ir.op_traits.analysis_scopes`, each once, as the
    language server analyses them). Never raises."""
    notes: list[Note] = []
    try:
        scopes = op_traits.analysis_scopes(op for section in doc.sections for op in section.item_ops())
    except Exception:
        return notes
    for scope in scopes:
        notes.extend(analyze_function(scope, keep=False))
    return notes


def analyze_function(scope: Operation, budget: int = DEFAULT_BUDGET, *, keep: bool = True) -> list[Note]:
    """The diagnostics :func:`analyze_document` reports for one function
    (scope op), with the dependence engine of ``budget``. The language server
    analyses functions one at a time and keeps the results of the unchanged
    ones across edits. ``keep=False``: an engine built for this call is not
    cached on the op (a whole-document check needs each one once; keeping
    them all costs memory). Never raises."""
    from affine_lsp.analysis.bounds_check import bounds_notes
    from affine_lsp.analysis.summary import race_notes

    try:
        fd = dependences_of_function(scope, budget) if keep else _cached_deps(scope, budget) or FunctionDeps(scope, budget, DEFAULT_MAX_PAIRS)
        notes = [*bounds_notes(fd), *race_notes(fd), *fd.notes]
    except TimeBudgetExceeded as e:  # under isl_support.time_limit
        return [time_budget_note(scope, e.seconds)]
    except Exception as e:  # keep the language server alive on any IR
        return [Note("info", f"dependence analysis failed: {type(e).__name__}: {e}", scope.name_span, "deps-internal")]
    return _dedupe(notes)


def time_budget_note(scope: Operation, seconds: float) -> Note:
    """The info note of a function whose analysis ran out of time."""
    ms = round(seconds * 1000)
    return Note(
        "info",
        f"dependence analysis skipped: it needs more than the time budget of {ms} ms (affineLsp.analysis.timeBudgetMs)",
        scope.name_span,
        "deps-time",
    )


def _dedupe(notes: list[Note]) -> list[Note]:
    seen: set[tuple] = set()
    out = []
    for n in notes:
        key = (n.severity, n.message, n.span.start, n.span.end)
        if key not in seen:
            seen.add(key)
            out.append(n)
    return out
