"""``workspace/executeCommand`` for the iteration-space and dependence-graph views.

``affine-lsp.iterationSpace`` with ``[{"uri", "position", "dims"?, "fixed"?,
"params"?, "maxPoints"?}]`` returns the JSON of
:func:`affine_lsp.analysis.iteration_space.iteration_space` for the loop at
(or around) the position, plus ``"uri"`` and ``"version"``;
``affine-lsp.dependenceGraph`` with ``[{"uri", "position"}]`` the JSON of
:func:`~affine_lsp.analysis.iteration_space.dependence_graph` for the
function there. When there is nothing to draw the answer is
``{"error": "..."}`` (no loop there, the loop does not parse, the analysis is
off or over its budget) so that a view can say so and keep its place.
"""

from __future__ import annotations

import functools
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from affine_lsp.ide.occurrences import innermost_op
from affine_lsp.ide.symbols import func_name
from affine_lsp.ir.core import Operation
from affine_lsp.server.analysis_engine import scope_of
from affine_lsp.server.hover import hover_builder
from affine_lsp.server.snapshot import Snapshot
from affine_lsp.server.state import DocumentState

ITERATION_SPACE = "affine-lsp.iterationSpace"
DEPENDENCE_GRAPH = "affine-lsp.dependenceGraph"
VIEW_ANALYSIS_WAIT_S = 5.0
"""How long a view request waits for the dependence analysis of its function."""

MAX_POINTS_LIMIT = 100_000
"""The largest ``maxPoints`` a view may ask for."""

_LOOPS = ("affine.for", "affine.parallel")


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _arg(name: str, args: tuple[Any, ...]) -> dict:
    arg = args[0] if args else None
    if isinstance(arg, list) and arg:
        arg = arg[0]
    if not isinstance(arg, dict) or not isinstance(arg.get("uri"), str):
        raise JsonRpcInvalidParams(message=f"{name} expects [{{uri, position, ...}}]")
    pos = arg.get("position") or {}
    try:
        arg["_pos"] = types.Position(line=max(0, int(pos["line"])), character=max(0, int(pos["character"])))
    except (KeyError, TypeError, ValueError, OverflowError):
        raise JsonRpcInvalidParams(message=f"{name}: invalid position {pos!r}") from None
    return arg


def _view_options(arg: dict) -> None:
    """Check the options of an iteration-space request (InvalidParams with
    what is wrong)."""
    name = ITERATION_SPACE
    mp = arg.get("maxPoints")
    if mp is not None and (not _is_int(mp) or not 1 <= mp <= MAX_POINTS_LIMIT):
        raise JsonRpcInvalidParams(message=f"{name}: maxPoints must be an integer from 1 to {MAX_POINTS_LIMIT}, not {mp!r}")
    dims = arg.get("dims")
    if dims is not None and (not isinstance(dims, list) or len(dims) > 2 or not all(_is_int(d) or isinstance(d, str) for d in dims)):
        raise JsonRpcInvalidParams(message=f"{name}: dims must be a list of one or two loops (names such as '%i' or positions), not {dims!r}")
    fixed = arg.get("fixed")
    if fixed is not None and (not isinstance(fixed, dict) or not all(v is None or _is_int(v) for v in fixed.values())):
        raise JsonRpcInvalidParams(message=f"{name}: fixed must map loop names to integers (or null), not {fixed!r}")
    params = arg.get("params")
    if params is not None and (not isinstance(params, dict) or not all(_is_int(v) for v in params.values())):
        raise JsonRpcInvalidParams(message=f"{name}: params must map parameter names to integers, not {params!r}")


def _op_at(st: DocumentState, doc: Any, pos: types.Position) -> tuple[Any, Operation | None, str | None]:
    offset = doc.lines.offset(pos.line, pos.character)
    section, chunk = st.chunk_at(doc, offset)
    op = innermost_op(chunk, offset) if chunk is not None else None
    where = f"line {pos.line + 1}"
    if op is None:
        if chunk is not None and chunk.kind == "item" and chunk.ir_op is None and chunk.text.strip():
            return section, None, f"The code at {where} does not parse; fix the syntax errors first."
        return section, None, f"No affine loop at {where}."
    return section, op, None


def iteration_space_document(args: tuple[Any, ...]) -> str:
    """The document of an iteration-space request (InvalidParams when its
    arguments are wrong)."""
    arg = _arg(ITERATION_SPACE, args)
    _view_options(arg)
    return str(arg["uri"])


def dependence_graph_document(args: tuple[Any, ...]) -> str:
    return str(_arg(DEPENDENCE_GRAPH, args)["uri"])


def iteration_space_answer(snap: Snapshot, args: tuple[Any, ...]) -> dict:
    from affine_lsp.analysis.iteration_space import lines_range_of

    arg = _arg(ITERATION_SPACE, args)
    st = snap.st
    pos: types.Position = arg["_pos"]
    with st.locked() as doc:
        base = {"uri": st.uri, "version": st.version}
        section, op, why = _op_at(st, doc, pos)
        if op is None:
            return {**base, "error": why}
        loop = op if op.name in _LOOPS else next((a for a in op.ancestors() if a.name in _LOOPS), None)
        if loop is None:
            return {**base, "error": f"No affine loop at line {pos.line + 1}."}
        b = hover_builder(snap, doc, section, wait=VIEW_ANALYSIS_WAIT_S if snap.budget is None else snap.budget)
        res, why = b.with_deps(loop, functools.partial(_iteration_space, loop=loop, range_of=lines_range_of(doc.lines), arg=arg))
        if res is None:
            return {**base, "error": why}
        return {**base, **res}


def _iteration_space(fd: Any, loop: Operation, range_of: Any, arg: dict) -> dict:
    from affine_lsp.analysis.iteration_space import MAX_POINTS, ViewError, iteration_space

    try:
        return iteration_space(fd, loop, range_of, arg.get("dims"), arg.get("fixed"), arg.get("params"), max_points=arg.get("maxPoints") or MAX_POINTS)
    except ViewError as e:
        return {"error": str(e)}


def dependence_graph_answer(snap: Snapshot, args: tuple[Any, ...]) -> dict:
    from affine_lsp.analysis.iteration_space import dependence_graph, lines_range_of

    arg = _arg(DEPENDENCE_GRAPH, args)
    st = snap.st
    pos: types.Position = arg["_pos"]
    with st.locked() as doc:
        base = {"uri": st.uri, "version": st.version}
        section, op, why = _op_at(st, doc, pos)
        if op is None:
            return {**base, "error": why.replace("affine loop", "function") if why else why}
        func = op if op.name == "func.func" else scope_of(op)
        if func is None:
            return {**base, "error": f"No function at line {pos.line + 1}."}
        b = hover_builder(snap, doc, section, wait=VIEW_ANALYSIS_WAIT_S if snap.budget is None else snap.budget)
        range_of = lines_range_of(doc.lines)
        res, why = b.with_deps(func, lambda fd: dependence_graph(fd, range_of))
        if res is None:
            return {**base, "error": why}
        return {**base, "function": func_name(func), **res}
