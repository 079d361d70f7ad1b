"""``workspace/executeCommand``.

``affine-lsp.showDependences`` with arguments ``[{"uri": ..., "position":
{"line": ..., "character": ...}}]`` returns Markdown: the dependences of the
memory access under the cursor, or of the innermost loop around it (with
its summary), or an overview of the function's loops.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from affine_lsp.ide import describe as D
from affine_lsp.ide.hover_text import HoverBuilder
from affine_lsp.ide.occurrences import innermost_op
from affine_lsp.ide.symbols import func_name
from affine_lsp.ir.affine_ops import ACCESS_OPS, LOOP_OPS
from affine_lsp.ir.core import Operation
from affine_lsp.server.analysis_engine import scope_of
from affine_lsp.server.hover import COMMAND_ANALYSIS_WAIT_S, hover_builder
from affine_lsp.server.snapshot import Snapshot

SHOW_DEPENDENCES = "affine-lsp.showDependences"


def _parse_args(args: tuple[Any, ...]) -> tuple[str, types.Position]:
    arg = args[0] if args else None
    if isinstance(arg, list) and arg:
        arg = arg[0]
    if not isinstance(arg, dict):
        raise JsonRpcInvalidParams(message=f"{SHOW_DEPENDENCES} expects [{{uri, position}}]")
    uri = arg.get("uri")
    pos = arg.get("position") or {}
    try:
        line, ch = int(pos["line"]), int(pos["character"])
    except (KeyError, TypeError, ValueError, OverflowError):
        raise JsonRpcInvalidParams(message=f"{SHOW_DEPENDENCES}: invalid position {pos!r}") from None
    if not isinstance(uri, str):
        raise JsonRpcInvalidParams(message=f"{SHOW_DEPENDENCES}: missing uri")
    return uri, types.Position(line=max(0, line), character=max(0, ch))


def document_of(args: tuple[Any, ...]) -> str:
    """The document a ``showDependences`` is about."""
    return _parse_args(args)[0]


def show_dependences(snap: Snapshot, args: tuple[Any, ...]) -> str:
    """The Markdown of ``showDependences`` (its analyses wait at most ``snap.budget``)."""
    _uri, pos = _parse_args(args)
    st = snap.st
    with st.locked() as doc:
        lines = doc.lines
        offset = lines.offset(pos.line, pos.character)
        section, chunk = st.chunk_at(doc, offset)
        op = innermost_op(chunk, offset) if chunk is not None else None
        where = f"line {pos.line + 1}, column {pos.character + 1}"
        if op is None:
            if chunk is not None and chunk.kind == "item" and chunk.ir_op is None and chunk.text.strip():
                return f"_The top-level item at {where} does not parse; fix the syntax errors first._"
            return f"_No affine loop or memory access at {where}._"
        b = hover_builder(snap, doc, section, wait=COMMAND_ANALYSIS_WAIT_S if snap.budget is None else snap.budget, wait_flows=True)
        if op.name in ACCESS_OPS:
            return "\n".join([f"### Dependences of {D.code(D.op_title(op))} (line {lines.line_of(op.name_span.start) + 1})", "", *b.access(op)])
        loop: Operation | None = op if op.name in LOOP_OPS else next((a for a in op.ancestors() if a.name in LOOP_OPS), None)
        if loop is not None:
            return "\n".join([f"### {D.code(D.op_title(loop))} (line {lines.line_of(loop.name_span.start) + 1})", "", *b.loop(loop)])
        func = scope_of(op)
        if func is None:
            return f"_No affine loop or memory access at {where}._"
        return _function_overview(b, func)


def _function_overview(b: HoverBuilder, func: Operation) -> str:
    out = [f"### Loops of {D.code(func_name(func))}", ""]
    loops = [o for o in func.walk() if o.name in LOOP_OPS]
    if not loops:
        return "\n".join([*out, "_This function has no affine loops._"])

    def compute(fd: Any) -> list[list[str]]:
        rows = []
        for lp in loops:
            s = fd.loop_summary(lp)
            rows.append([D.op_ref(lp, b.line_of), "yes" if s.parallel else "no", "yes" if s.vectorizable else "no", D.loop_hint(s)])
        return rows

    rows, why = b.with_deps(func, compute)
    if rows is None:
        return "\n".join([*out, f"_{why}_"])
    out += D.table(["loop", "parallel", "vectorizable", "summary"], rows)
    return "\n".join(out)
