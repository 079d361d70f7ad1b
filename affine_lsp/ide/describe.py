"""Human descriptions of IR objects and analysis results (Markdown).

Shared by hover, inlay hints, completion and the ``showDependences`` command.
Facts come from the IR (:mod:`affine_lsp.ir`), the affine expression model
(:mod:`affine_lsp.ir.affine_expr`: printing, substitution, simplification),
:mod:`affine_lsp.verify.dimsym` and :mod:`affine_lsp.analysis`, through the
:class:`~affine_lsp.server.analysis_engine.Engine`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from affine_lsp.ide.occurrences import MapUse
from affine_lsp.ide.symbols import func_name
from affine_lsp.ir.affine_expr import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap, AffineSymbolExpr, IntegerSet
from affine_lsp.ir.affine_ops import ForView, ParallelView
from affine_lsp.ir.attributes import IntegerAttr, StringAttr
from affine_lsp.ir.core import BlockArgument, Operation, OpResult, Value

LineOf = Callable[[int], int]  # offset -> 0-based line


def code(text: str) -> str:
    """Inline Markdown code (backticks inside are handled)."""
    text = str(text)
    if "`" not in text:
        return f"`{text}`"
    return f"`` {text} ``"


def op_title(op: Operation) -> str:
    """``affine.for %i``, ``func.func @f``, ``affine.load``."""
    name = op.name
    if name in ("func.func", "gpu.func"):
        return f"{name} {func_name(op)}"
    if name in ("affine.for", "affine.parallel") and op.regions and op.regions[0].blocks:
        args = op.regions[0].blocks[0].arguments
        n = 1 if name == "affine.for" else len(args)
        if args:
            return f"{name} " + ", ".join(a.name for a in args[:n])
    if op.results and not op.results[0].name.startswith("<"):
        return f"{op.results[0].name.split('#')[0]} = {name}"
    return name


def op_ref(op: Operation, line_of: LineOf) -> str:
    return f"{code(op_title(op))} (line {line_of(op.name_span.start) + 1})"


def constant_value(v: Value) -> int | None:
    """The integer value of a value defined by ``arith.constant``."""
    if isinstance(v, OpResult) and v.owner is not None and v.owner.name == "arith.constant":
        a = v.owner.attributes.get("value")
        if isinstance(a, IntegerAttr):
            return a.value
    return None


def value_origin(v: Value, line_of: LineOf) -> str:
    """Where and how ``v`` is defined."""
    if isinstance(v, BlockArgument):
        blk = v.owner
        op = blk.parent_op if blk is not None else None
        if op is not None and op.name in ("affine.for", "affine.parallel", "scf.for", "scf.parallel", "scf.forall"):
            if op.name == "affine.for" and v.index > 0:
                return f"iteration argument #{v.index - 1} of {op_ref(op, line_of)}"
            return f"induction variable of {op_ref(op, line_of)}"
        if op is not None and op.name in ("func.func", "gpu.func") and blk is not None and blk.parent is not None and blk is blk.parent.blocks[0]:
            return f"argument #{v.index} of {code(func_name(op))} (line {line_of(v.span.start) + 1})"
        label = blk.label if blk is not None and blk.label else "the entry block"
        return f"argument #{v.index} of block {code(label)} (line {line_of(v.span.start) + 1})"
    if isinstance(v, OpResult) and v.owner is not None:
        op = v.owner
        which = f"result #{v.index} of " if len(op.results) > 1 else "result of "
        extra = ""
        c = constant_value(v)
        if c is not None:
            extra = f" = {c}"
        return f"{which}{code(op.name)}{extra} (line {line_of(op.name_span.start) + 1})"
    return "undefined (no definition in scope)"


# ---------------------------------------------------------------- maps with operands
@dataclass(slots=True)
class InlinedMap:
    header: str  # what the map is
    map_text: str  # the map as written / resolved (affine_map<...> or affine_set<...>)
    inlined: str  # results with the operand names
    simplified: str | None  # when different from inlined
    folded: str | None  # with constant operands substituted (and simplified)
    value: str | None  # the result when every operand is constant
    rows: list[tuple[str, str, str, str]]  # (id, operand, bound as, validity + reason)


def _names(mu: MapUse) -> tuple[list[str], list[str]]:
    names = [v.name for v in mu.operands]
    nd = mu.num_dims
    return names[:nd], names[nd:]


def _join(results: Sequence[str], keyword: str | None) -> str:
    if len(results) == 1:
        return results[0]
    inner = ", ".join(results)
    return f"{keyword}({inner})" if keyword else f"({inner})"


def _set_text(s: IntegerSet, dn: Sequence[str] | None, sn: Sequence[str] | None) -> list[str]:
    return [f"{e.to_str(dn, sn)} {'==' if s.is_eq(i) else '>='} 0" for i, e in enumerate(s.constraints)]


def map_keyword(mu: MapUse) -> str | None:
    """``max``/``min`` for multi-result bounds and affine.max/min, else None."""
    if mu.op.name == "affine.for":
        kw = mu.op.attributes.get("__lb_kw" if mu.key == "lower_bound" else "__ub_kw")
        return kw.value if isinstance(kw, StringAttr) else ("max" if mu.key == "lower_bound" else "min")
    if mu.op.name in ("affine.min", "affine.max"):
        return mu.op.name.split(".")[1]
    if mu.op.name == "affine.parallel":
        return "max" if mu.key == "lowerBoundsMap" else "min"
    return None


def map_text(mu: MapUse) -> str:
    """The results with the operand names, as written (cheap: no simplification)."""
    dn, sn = _names(mu)
    if mu.map is not None:
        return _join([e.to_str(dn, sn) for e in mu.map.results], map_keyword(mu))
    if mu.set is not None:
        return " and ".join(_set_text(mu.set, dn, sn)) or "true"
    return "?"


def inline_map(mu: MapUse, classify: Callable[[Value, Operation], Any] | None, line_of: LineOf) -> InlinedMap | None:
    keyword = map_keyword(mu)
    dn, sn = _names(mu)
    alias = getattr(mu.attr, "alias", None)
    header = f"{mu.label} of {code(op_title(mu.op))}" + (f" — {code(alias)}" if alias else "")
    consts = [constant_value(v) for v in mu.operands]
    nd = mu.num_dims
    dim_repl: list[AffineExpr] = [AffineConstantExpr(c) if c is not None else AffineDimExpr(i) for i, c in enumerate(consts[:nd])]
    sym_repl: list[AffineExpr] = [AffineConstantExpr(c) if c is not None else AffineSymbolExpr(j) for j, c in enumerate(consts[nd:])]
    any_const = any(c is not None for c in consts)
    all_const = bool(consts) and all(c is not None for c in consts)
    if mu.map is not None:
        m = mu.map
        map_text = m.to_attr_str()
        inlined = _join([e.to_str(dn, sn) for e in m.results], keyword)
        simp = m.simplify()
        simplified = _join([e.to_str(dn, sn) for e in simp.results], keyword)
        folded = None
        value = None
        if any_const:
            fm = AffineMap(m.num_dims, m.num_symbols, [e.replace(dim_repl, sym_repl) for e in m.results]).simplify()
            folded = _join([e.to_str(dn, sn) for e in fm.results], keyword)
        if all_const or (m.num_inputs == 0 and m.num_results):
            try:
                vals = m.evaluate([c or 0 for c in consts[:nd]], [c or 0 for c in consts[nd:]])
                if keyword == "max" and vals:
                    value = str(max(vals))
                elif keyword == "min" and vals:
                    value = str(min(vals))
                else:
                    value = ", ".join(str(x) for x in vals)
            except (ZeroDivisionError, ValueError, IndexError):
                value = None
    elif mu.set is not None:
        s = mu.set
        map_text = s.to_attr_str()
        inlined = " and ".join(_set_text(s, dn, sn)) or "true"
        simp_set = s.simplify()
        simplified = " and ".join(_set_text(simp_set, dn, sn)) or "true"
        folded = None
        value = None
        if any_const:
            fs = IntegerSet(s.num_dims, s.num_symbols, [e.replace(dim_repl, sym_repl) for e in s.constraints], s.eq_flags).simplify()
            folded = " and ".join(_set_text(fs, dn, sn)) or "true"
        if all_const:
            try:
                value = "true" if s.contains([c or 0 for c in consts[:nd]], [c or 0 for c in consts[nd:]]) else "false"
            except (ZeroDivisionError, ValueError, IndexError):
                value = None
    else:
        return None
    rows = []
    for k, v in enumerate(mu.operands):
        is_dim = k < nd
        ident = f"d{k}" if is_dim else f"s{k - nd}"
        role = "dimension" if is_dim else "symbol"
        validity = ""
        info = classify(v, mu.op) if classify is not None else None
        if info is not None:
            ok = info.is_dim if is_dim else info.is_symbol
            mark = "✓ valid" if ok else ("? unknown" if not getattr(info, "certain", True) else "✗ not a valid")
            reason = (getattr(info, "dim_reason", "") if is_dim else getattr(info, "symbol_reason", "")) or info.reason
            validity = f"{mark} {role}" + (f": {reason}" if reason else "")
        c = consts[k]
        operand = code(v.name) + (f" = {c}" if c is not None else "")
        rows.append((ident, operand, role, validity))
    return InlinedMap(
        header,
        map_text,
        inlined,
        simplified if simplified != inlined else None,
        folded if folded not in (None, inlined, simplified) else None,
        value,
        rows,
    )


def render_inlined(im: InlinedMap) -> list[str]:
    out = [f"**{im.header}**", "", "```mlir", im.map_text, "```", f"with the operands: {code(im.inlined)}"]
    if im.simplified:
        out.append(f"simplified: {code(im.simplified)}")
    if im.folded:
        out.append(f"with the constant operands: {code(im.folded)}")
    if im.value is not None:
        out.append(f"value: **{im.value}**")
    if im.rows:
        out += ["", "| | operand | bound as | validity |", "|---|---|---|---|"]
        for ident, operand, role, validity in im.rows:
            out.append(f"| {ident} | {operand} | {role} | {validity or '—'} |")
    return out


# ---------------------------------------------------------------- loops
def _bound_expr(m: AffineMap, operands: Sequence[Value], keyword: str | None) -> tuple[str, list[int] | None]:
    nd = m.num_dims
    names = [v.name for v in operands]
    res = [e.to_str(names[:nd], names[nd:]) for e in m.simplify().results]
    text = _join(res, keyword) if len(res) > 1 else (res[0] if res else "?")
    consts = [constant_value(v) for v in operands]
    if all(c is not None for c in consts):
        try:
            return text, m.evaluate([c or 0 for c in consts[:nd]], [c or 0 for c in consts[nd:]])
        except (ZeroDivisionError, ValueError, IndexError):
            return text, None
    return text, None


def _difference(lo: AffineMap, lo_ops: Sequence[Value], up: AffineMap, up_ops: Sequence[Value], step: int) -> str | None:
    """``(up - lo) ceildiv step`` of two single-result bounds as one simplified
    expression over their operands (each operand value once)."""
    if lo.num_results != 1 or up.num_results != 1:
        return None
    dims: list[Value] = []
    syms: list[Value] = []

    def slot(v: Value, table: list[Value]) -> int:
        for i, x in enumerate(table):
            if x is v:
                return i
        table.append(v)
        return len(table) - 1

    def move(m: AffineMap, ops: Sequence[Value]) -> AffineExpr:
        nd = m.num_dims
        d_repl: list[AffineExpr] = [AffineDimExpr(slot(v, dims)) for v in ops[:nd]]
        s_repl: list[AffineExpr] = [AffineSymbolExpr(slot(v, syms)) for v in ops[nd:]]
        return m.results[0].replace(d_repl, s_repl)

    lo_e, up_e = move(lo, lo_ops), move(up, up_ops)
    diff = up_e - lo_e
    if step != 1:
        diff = diff.ceildiv(step)
    m = AffineMap(len(dims), len(syms), [diff]).simplify()
    return m.results[0].to_str([v.name for v in dims], [v.name for v in syms])


def trip_count(op: Operation) -> str:
    """Exact (a number) or symbolic trip count of an affine loop."""
    if op.name == "affine.for":
        v = ForView(op)
        try:
            lo, up, step = v.lower, v.upper, v.step
        except (AssertionError, KeyError):
            return "unknown"
        if step <= 0:
            return "unknown (the step is not positive)"
        exact = v.constant_trip_count()
        if exact is not None:
            return f"{exact} (exact)"
        lt, lv = _bound_expr(lo.map, lo.operands, "max")
        ut, uv = _bound_expr(up.map, up.operands, "min")
        if lv is not None and uv is not None and lv and uv:
            n = max(0, -(-(min(uv) - max(lv)) // step))
            return f"{n} (exact, constant operands)"
        expr = _difference(lo.map, lo.operands, up.map, up.operands, step)
        if expr is None:
            expr = ut if lt == "0" else f"{_paren(ut)} - {_paren(lt)}"
            expr = f"{_paren(expr)} ceildiv {step}" if step != 1 else expr
        return f"{code(expr)} (symbolic)"
    if op.name == "affine.parallel":
        pv = ParallelView(op)
        lows, ups, steps = pv.group_bounds(False), pv.group_bounds(True), pv.steps
        lo_ops, up_ops = pv.lower_operands, pv.upper_operands
        parts = []
        for k, (lm, um) in enumerate(zip(lows, ups)):
            step = steps[k] if k < len(steps) else 1
            if step <= 0:
                parts.append("unknown (the step is not positive)")
                continue
            lt, lv = _bound_expr(lm, lo_ops, "max")
            ut, uv = _bound_expr(um, up_ops, "min")
            if lv and uv:
                parts.append(str(max(0, -(-(min(uv) - max(lv)) // step))))
            else:
                expr = _difference(lm, lo_ops, um, up_ops, step)
                if expr is None:
                    expr = ut if lt == "0" else f"{_paren(ut)} - {_paren(lt)}"
                    expr = f"{_paren(expr)} ceildiv {step}" if step != 1 else expr
                parts.append(code(expr))
        return " \u00d7 ".join(parts) if parts else "unknown"  # multiplication sign
    return "unknown"


def _paren(t: str) -> str:
    simple = t.replace("%", "").replace("_", "").isalnum()
    call = t.endswith(")") and t.startswith(("min(", "max(")) and t.count("(") == 1
    return t if simple or call else f"({t})"


# ---------------------------------------------------------------- dependences
def components_str(comps: Sequence[tuple[int | None, int | None]]) -> str:
    return "".join(f"[{'-inf' if lb is None else lb}, {'+inf' if ub is None else ub}]" for lb, ub in comps)


def direction_str(comps: Sequence[tuple[int | None, int | None]]) -> str:
    out = []
    for lb, ub in comps:
        if lb is not None and ub is not None and lb == ub:
            out.append(str(lb))
        elif lb is not None and lb > 0:
            out.append("<")
        elif ub is not None and ub < 0:
            out.append(">")
        elif lb is not None and lb >= 0:
            out.append("<=")
        elif ub is not None and ub <= 0:
            out.append(">=")
        else:
            out.append("*")
    return "(" + ", ".join(out) + ")"


def carrying_loop(dep: Any) -> Operation | None:
    """The loop carrying ``dep`` (None when loop-independent)."""
    if not getattr(dep, "is_carried", False) or dep.src is None:
        return None
    loops = dep.src.loops
    k = dep.depth - 1
    return loops[k] if 0 <= k < len(loops) else None


def value_distance(fd: Any, dep: Any, compute: bool = False, flows: Any = None) -> list[tuple[int | None, int | None]] | bool | None:
    """The value-based (last-writer) distance of a RAW dependence at its
    depth (:func:`~affine_lsp.analysis.dataflow.last_writer_distance`):
    ``[lb, ub]`` per common loop, ``[]`` when values flow but the distance is
    not known, False when no value flows along it (memory-based only), None
    when unknown or not a RAW.

    ``flows`` maps ``(src index, dst index, depth)`` of each value-carrying
    dependence to its value-based distance, as the dataflow worker process
    computes them (see :mod:`.flowproc`; a set of those triples: distances
    unknown); with ``compute`` the dataflow is computed here (a long isl
    call holding the interpreter: only in that worker or a command)."""
    if getattr(dep, "kind", None) != "RAW" or dep.src is None or dep.dst is None:
        return None
    if flows is not None:
        key = (dep.src.index, dep.dst.index, dep.depth)
        if key not in flows:
            return False
        return [tuple(c) for c in flows[key]] if isinstance(flows, dict) else []  # type: ignore[misc]
    if not compute or fd is None:
        return None
    try:
        flow = fd.dataflow()
    except Exception:
        return None
    if getattr(flow, "failed", None) or flow.flow_into(dep.dst) is None:
        return None
    from affine_lsp.analysis.dataflow import last_writer_distance

    got = last_writer_distance(flow, dep)
    return False if got is None else got


def value_based(fd: Any, dep: Any, compute: bool = False, flows: Any = None) -> bool | None:
    """Whether a RAW dependence carries values at its depth (isl dataflow:
    some read instance gets its value from a write instance of this
    dependence); None when unknown or not a RAW (see :func:`value_distance`)."""
    got = value_distance(fd, dep, compute, flows)
    return None if got is None else got is not False


_KIND_ORDER = {"RAW": 0, "WAW": 1, "WAR": 2}


def main_dependence(carried: Sequence[Any]) -> Any:
    """The dependence to name first: proven before unknown, RAW before WAW
    before WAR, then the smallest distance at the carrying loop."""

    def key(d: Any) -> tuple[int, int, int]:
        comps = list(getattr(d, "components", []) or [])
        k = d.depth - 1
        lb = comps[k][0] if 0 <= k < len(comps) and comps[k][0] is not None else 1 << 30
        return (0 if d.status == "dependence" else 1, _KIND_ORDER.get(d.kind or "", 3), abs(lb))

    return min(carried, key=key)


def memref_name(dep: Any) -> str:
    acc = dep.src or dep.dst
    mem = getattr(acc, "memref", None)
    return mem.name if mem is not None else "?"


def dep_row(dep: Any, this: Operation | None, line_of: LineOf, flows: Any = None, fd: Any = None) -> list[str]:
    """Cells: other op, kind, depth, distance, direction vector, memory- or
    value-based, carrying loop. ``flows``: see :func:`value_based` (None:
    not known yet); ``fd``: compute the dataflow here instead."""
    src_op = dep.src.op if dep.src is not None else None
    dst_op = dep.dst.op if dep.dst is not None else None
    if this is not None and src_op is this and dst_op is this:
        arrow, other = "↺", "itself"
    elif this is not None and src_op is this:
        arrow, other = "→", op_ref(dst_op, line_of) if dst_op is not None else "?"
    elif this is not None and dst_op is this:
        arrow, other = "←", op_ref(src_op, line_of) if src_op is not None else "?"
    else:
        arrow = ""
        other = f"{op_ref(src_op, line_of) if src_op else '?'} → {op_ref(dst_op, line_of) if dst_op else '?'}"
    comps = list(getattr(dep, "components", []) or [])
    dist = components_str(comps) if comps else ("—" if not dep.is_carried else "?")
    dirv = direction_str(comps) if comps else "—"
    known = flows is not None or fd is not None
    vd = value_distance(fd, dep, compute=fd is not None, flows=flows)
    # The distance column is the memory-based distance (every earlier write
    # of the element); a RAW along which a read gets its value from the
    # write (isl dataflow: its last writer) also has a value-based distance,
    # named as such. Every other dependence (and a RAW whose values are
    # always overwritten first) is memory-based only.
    if vd is None or vd is False:
        based = "memory-based only"
    else:
        based = "value-based " + code(components_str(vd) if vd else "?")
    if dep.kind == "RAW" and not known:
        based = "memory-based (value flow not analysed yet)"
    if dep.status == "unknown":
        based = "may depend (unknown)"
    loop = carrying_loop(dep)
    carried = op_ref(loop, line_of) if loop is not None else "loop-independent"
    return [f"{arrow} {other}".strip(), f"{dep.kind or '?'} on {code(memref_name(dep))}", str(dep.depth), code(dist), code(dirv), based, carried]


DEP_HEADER = ["with", "kind", "depth", "memory-based distance", "direction", "value flow", "carried by"]


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in rows:
        out.append("| " + " | ".join(c.replace("|", "\\|") for c in r) + " |")
    return out


def loop_hint(summary: Any) -> str:
    """The inlay hint text after a loop header."""
    if summary is None:
        return ""
    if summary.parallel:
        return "parallel" + ("" if summary.vectorizable else " (not vectorizable)")
    carried = list(summary.carried)
    if carried:
        d = main_dependence(carried)
        comps = list(getattr(d, "components", []) or [])
        k = d.depth - 1
        dist = ""
        if 0 <= k < len(comps):
            lb, ub = comps[k]
            dist = f" d={lb}" if lb is not None and lb == ub else f" d∈[{'-inf' if lb is None else lb}, {'+inf' if ub is None else ub}]"
        more = f" (+{len(carried) - 1})" if len(carried) > 1 else ""
        may = "may carry" if d.status == "unknown" else "carries"
        return f"{may} {d.kind or 'dep'} {memref_name(d)}{dist}{more}"
    if summary.reasons:
        return "sequential: " + summary.reasons[0]
    return "sequential"
