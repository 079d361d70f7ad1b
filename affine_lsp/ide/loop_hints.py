"""The loop hints: after each ``affine.for``/``affine.parallel`` header,
what the dependence analysis says about the loop (``parallel``, or the
dependence it carries and its distance: ``carries RAW %A d=2``), as plain
data (the server converts it, server/convert.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from affine_lsp.ide import describe as D
from affine_lsp.ir.core import Operation
from affine_lsp.source.document import Document

LOOP_OPS = frozenset({"affine.for", "affine.parallel"})


@dataclass(frozen=True)
class LoopHint:
    offset: int  # the end of the loop header's line
    label: str
    tooltip: str


def loop_hints(doc: Document, lo: int, hi: int, summary_of: Callable[[Operation], Any]) -> list[LoopHint]:
    """The hints of the loops whose body opens in ``[lo, hi]``;
    ``summary_of(loop)`` is the loop's dependence summary
    (``loop_summary`` of its function's dependences), or
    None when it is not known (that loop gets no hint)."""
    lines = doc.lines
    out: list[LoopHint] = []
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
                summary = summary_of(loop)
                label = D.loop_hint(summary) if summary is not None else None
                if label:
                    out.append(LoopHint(lines.line_end(lines.line_of(brace)), label, summary.describe()))
    return out
