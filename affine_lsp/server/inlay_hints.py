"""``textDocument/inlayHint``: after each ``affine.for``/``affine.parallel``
header, what the dependence analysis says about the loop: ``parallel``, or
the dependence it carries and its distance (``carries RAW %A d=2``).

A request waits at most :data:`INLAY_WAIT_S` for analyses: a loop whose
summary is not ready by then gets no hint this time (the background analysis
goes on, and the server asks the client to refresh its hints when it is
done)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from affine_lsp.ide import describe as D
from affine_lsp.server.analysis_engine import run_within_budget, scope_of
from affine_lsp.server.convert import position

if TYPE_CHECKING:
    from affine_lsp.server.snapshot import Snapshot

LOOP_OPS = frozenset({"affine.for", "affine.parallel"})
INLAY_WAIT_S = 0.5
"""How long one inlay-hint request may spend on (or wait for) analyses."""


def answer(snap: Snapshot, params: types.InlayHintParams) -> list[types.InlayHint]:
    return inlay_hints(snap, params.range)


def inlay_hints(snap: Snapshot, rng: types.Range) -> list[types.InlayHint]:
    """The loop hints of ``rng`` (the analyses they need waited for at most
    ``snap.budget`` in all)."""
    st, settings = snap.st, snap.settings
    if not settings.analysis_enabled:
        return []
    deadline = time.monotonic() + (INLAY_WAIT_S if snap.budget is None else snap.budget)
    analyses: dict[int, Any] = {}
    with st.locked() as doc:
        lines = doc.lines
        lo = lines.offset(rng.start.line, rng.start.character)
        hi = lines.offset(rng.end.line, rng.end.character)
        out: list[types.InlayHint] = []
        for s in doc.sections:
            for op in s.item_ops():  # (each item once: a `module {` chunk's op holds the items)
                if op.span.end < lo or op.span.start > hi:
                    continue
                for loop in op.walk():
                    if loop.name not in LOOP_OPS or not loop.regions:
                        continue
                    brace = loop.regions[0].span.start
                    if not (lo <= brace <= hi):
                        continue
                    func = scope_of(loop)
                    if func is None:
                        continue
                    if id(func) not in analyses:
                        done, fa = snap.wait(snap.analysis.analyse_function, st, func, settings, budget=deadline - time.monotonic())
                        analyses[id(func)] = fa if done else None
                    fa = analyses[id(func)]
                    deps = fa.deps if fa is not None else None  # read once (see engine.DEPS_KEPT)
                    if fa is None or deps is None or fa.timed_out:
                        continue
                    try:
                        ok, summary = run_within_budget(snap.analysis, max(0.001, deadline - time.monotonic()), deps.loop_summary, loop)
                    except Exception:
                        continue
                    if not ok:
                        continue
                    label = D.loop_hint(summary)
                    if not label:
                        continue
                    eol = lines.line_end(lines.line_of(brace))
                    out.append(
                        types.InlayHint(
                            position=position(lines, eol),
                            label=label,
                            padding_left=True,
                            tooltip=types.MarkupContent(kind=types.MarkupKind.PlainText, value=summary.describe()),
                        )
                    )
        return out
