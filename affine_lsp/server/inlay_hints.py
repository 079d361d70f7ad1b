"""``textDocument/inlayHint``: the loop hints of
:func:`affine_lsp.ide.loop_hints.loop_hints`, over the analyses of the
server, converted by server/convert.py.

A request waits at most :data:`INLAY_WAIT_S` for analyses: a loop whose
summary is not ready by then gets no hint this time (the background analysis
goes on, and the server asks the client to refresh its hints when it is
done)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from affine_lsp.ide.loop_hints import loop_hints
from affine_lsp.ir.core import Operation
from affine_lsp.server.analysis_engine import run_within_budget, scope_of
from affine_lsp.server.convert import inlay_hints as inlay_hints_of
from affine_lsp.server.convert import offset_of

if TYPE_CHECKING:
    from affine_lsp.server.snapshot import Snapshot

INLAY_WAIT_S = 0.5
"""How long one inlay-hint request may spend on (or wait for) analyses."""


def answer(snap: Snapshot, params: types.InlayHintParams) -> list[types.InlayHint]:
    return inlay_hints(snap, params.range)


def inlay_hints(snap: Snapshot, rng: types.Range) -> list[types.InlayHint]:
    """The loop hints of ``rng`` (the analyses they need waited for at most
    ``snap.budget`` in all)."""
    if not snap.settings.analysis_enabled:
        return []
    deadline = time.monotonic() + (INLAY_WAIT_S if snap.budget is None else snap.budget)
    with snap.st.locked() as doc:
        lo, hi = offset_of(doc.lines, rng.start), offset_of(doc.lines, rng.end)
        return inlay_hints_of(doc.lines, loop_hints(doc, lo, hi, _summaries(snap, deadline)))


def _summaries(snap: Snapshot, deadline: float) -> Callable[[Operation], Any]:
    """``summary_of(loop)`` for :func:`~affine_lsp.ide.loop_hints.loop_hints`:
    the loop's summary if its function's analysis is ready by ``deadline``
    (each function waited for once), else None."""
    st, settings = snap.st, snap.settings
    analyses: dict[int, Any] = {}

    def summary_of(loop: Operation) -> Any:
        func = scope_of(loop)
        if func is None:
            return None
        if id(func) not in analyses:
            done, fa = snap.wait(snap.analysis.analyse_function, st, func, settings, budget=deadline - time.monotonic())
            analyses[id(func)] = fa if done else None
        fa = analyses[id(func)]
        deps = fa.deps if fa is not None else None  # read once (see engine.DEPS_KEPT)
        if fa is None or deps is None or fa.timed_out:
            return None
        try:
            ok, summary = run_within_budget(snap.analysis, max(0.001, deadline - time.monotonic()), deps.loop_summary, loop)
        except Exception:
            return None
        return summary if ok else None

    return summary_of
