"""``textDocument/foldingRange``: op regions (from the IR), top-level items
that do not parse (their chunk), runs of ``//`` comment lines, runs of alias
definitions, and ``// -----`` sections."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from affine_lsp.ir.core import Operation
from affine_lsp.server.state import DocumentState
from affine_lsp.source.document import Document, LineIndex
from affine_lsp.syntax.nodes import AliasDefSyn

if TYPE_CHECKING:
    from affine_lsp.server.snapshot import Snapshot


def _fold(lines: LineIndex, start: int, end: int, kind: str | None = None) -> types.FoldingRange | None:
    a = lines.line_of(start)
    b = lines.line_of(max(start, end))
    # Keep the closing line visible ("}" of a region).
    if b - 1 <= a:
        return None
    return types.FoldingRange(start_line=a, end_line=b - 1, kind=kind)


def _op_folds(lines: LineIndex, op: Operation, out: list[types.FoldingRange]) -> None:
    for region in op.regions:
        f = _fold(lines, region.span.start, region.span.end)
        if f is not None:
            out.append(f)
        for block in region.blocks:
            for child in block.operations:
                if child.regions:
                    _op_folds(lines, child, out)


def folding_ranges_of(doc: Document) -> list[types.FoldingRange]:
    lines = doc.lines
    out: list[types.FoldingRange] = []
    sections = doc.sections
    alias_run: list[int] = []  # first/last line of a run of alias definitions

    def flush_aliases() -> None:
        if len(alias_run) == 2 and alias_run[1] > alias_run[0]:
            out.append(types.FoldingRange(start_line=alias_run[0], end_line=alias_run[1], kind=types.FoldingRangeKind.Imports))
        alias_run.clear()

    for s in sections:
        for c in s.chunks:
            item = c.parse.item if c.parse is not None else None
            if isinstance(item, AliasDefSyn):
                first, last = lines.line_of(item.span.start), lines.line_of(max(item.span.start, item.span.end - 1))
                if alias_run and first <= alias_run[1] + 1:
                    alias_run[1] = last
                else:
                    flush_aliases()
                    alias_run.extend([first, last])
                continue
            if c.kind == "item" and c.text.strip():
                flush_aliases()
            if c.ir_op is not None and c.kind == "item":
                _op_folds(lines, c.ir_op, out)
            elif c.kind == "item" and c.text.strip() and item is None:
                f = _fold(lines, c.start, c.end)
                if f is not None:
                    out.append(f)
        flush_aliases()
        if len(sections) > 1:
            start = s.chunks[0].start if s.chunks else s.start
            end = s.chunks[-1].end if s.chunks else s.end
            a, b = lines.line_of(start), lines.line_of(max(start, end - 1))
            if b > a:
                out.append(types.FoldingRange(start_line=a, end_line=b, kind=types.FoldingRangeKind.Region))
    out.extend(_comment_folds(lines))
    return out


def _comment_folds(lines: LineIndex) -> list[types.FoldingRange]:
    out = []
    run_start = -1
    prev = -2
    text = lines.text
    for i, start in enumerate(lines.starts):
        stripped = text[start : lines.line_end(i)].lstrip()
        is_comment = stripped.startswith("//") and not stripped.startswith("// -----")
        if is_comment:
            if prev != i - 1:
                run_start = i
            prev = i
        elif prev == i - 1 and run_start >= 0:
            if prev > run_start:
                out.append(types.FoldingRange(start_line=run_start, end_line=prev, kind=types.FoldingRangeKind.Comment))
            run_start = -1
    if run_start >= 0 and prev > run_start:
        out.append(types.FoldingRange(start_line=run_start, end_line=prev, kind=types.FoldingRangeKind.Comment))
    return out


def folding_ranges(st: DocumentState) -> list[types.FoldingRange]:
    with st.locked() as doc:
        return folding_ranges_of(doc)


def answer(snap: Snapshot, params: types.FoldingRangeParams) -> list[types.FoldingRange]:
    return folding_ranges(snap.st)
