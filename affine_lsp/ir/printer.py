"""Printing IR back to MLIR text that mlir-opt accepts.

Known ops are printed in their custom syntax, from the IR alone (maps,
operands, types, regions); ops the grammar does not know (``op.known`` is
False) are opaque to us and are printed from their source text, which the
printer is given. Values keep their names; the printer never renames.
"""

from __future__ import annotations

from collections.abc import Sequence

from affine_lsp.ir.affine_expr import AffineExpr, AffineMap
from affine_lsp.ir.affine_ops import ForView, IfView, ParallelView
from affine_lsp.ir.attributes import (
    AffineMapAttr,
    ArrayAttr,
    Attribute,
    BoolAttr,
    DenseArrayAttr,
    DictAttr,
    IntegerAttr,
    IntegerSetAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from affine_lsp.ir.core import Block, Operation, Region, Value
from affine_lsp.ir.types import FunctionType, Type

_INT64_MIN = -(2**63)


def _t(t: Type | None) -> str:
    return str(t) if t is not None else "none"


def _vs(vs: Sequence[Value]) -> str:
    return ", ".join(v.name for v in vs)


def _attr_dict(attrs: dict[str, Attribute], skip: Sequence[str] = ()) -> str:
    items = []
    for k, a in attrs.items():
        if k.startswith("__") or k in skip:
            continue
        key = k if _is_bare(k) else '"' + k + '"'
        items.append(key if isinstance(a, UnitAttr) else f"{key} = {print_attr(a)}")
    return " {" + ", ".join(items) + "}" if items else ""


def _is_bare(k: str) -> bool:
    return bool(k) and (k[0].isalpha() or k[0] == "_") and all(c.isalnum() or c in "_$." for c in k)


def print_attr(a: Attribute) -> str:
    if isinstance(a, AffineMapAttr):
        return a.alias or a.map.to_attr_str()
    if isinstance(a, IntegerSetAttr):
        return a.alias or a.set.to_attr_str()
    if isinstance(a, ArrayAttr):
        return "[" + ", ".join(print_attr(e) for e in a.elements) + "]"
    if isinstance(a, DictAttr):
        return "{" + ", ".join(k if isinstance(v, UnitAttr) else f"{k} = {print_attr(v)}" for k, v in a.entries.items()) + "}"
    if isinstance(a, StringAttr) and a.spelling.startswith("@"):  # a symbol's name (`sym_name`), written `@name`
        return '"' + a.value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(a, TypeAttr | IntegerAttr | StringAttr | BoolAttr | UnitAttr | SymbolRefAttr | DenseArrayAttr | OpaqueAttr):
        return str(a)
    return str(a)


def _map_use(m: AffineMapAttr | None, operands: Sequence[Value]) -> str:
    """``#map(%d0, %d1)[%s0]`` or an inline map with its operands."""
    assert m is not None
    nd = m.map.num_dims
    ref = m.alias or m.map.to_attr_str()
    s = f"{ref}({_vs(operands[:nd])})"
    if m.map.num_symbols:
        s += f"[{_vs(operands[nd:])}]"
    return s


def _subscripts(m: AffineMap, operands: Sequence[Value]) -> str:
    """``[%i + 1, symbol(%n)]`` from a map and its operands."""
    nd = m.num_dims
    dims = [o.name for o in operands[:nd]]
    syms = [f"symbol({o.name})" for o in operands[nd:]]
    return "[" + ", ".join(_expr_with_names(e, dims, syms) for e in m.results) + "]"


def _expr_with_names(e: AffineExpr, dims: Sequence[str], syms: Sequence[str]) -> str:
    return e.to_str(list(dims), list(syms))


def bound_text(m: AffineMapAttr, operands: Sequence[Value], kw: str) -> str:
    mp = m.map
    if mp.num_results == 1 and m.alias is None:
        e = mp.results[0]
        if e.is_constant() and mp.num_dims == 0 and mp.num_symbols == 0:
            return str(e.value)  # type: ignore[attr-defined]
        if mp.num_dims == 0 and mp.num_symbols == 1 and str(e) == "s0":
            return operands[0].name
    prefix = f"{kw} " if mp.num_results > 1 else ""
    return prefix + _map_use(m, operands)


class Printer:
    def __init__(self, source: str | None = None, indent: str = "  ") -> None:
        self.source = source
        self.indent = indent
        self.lines: list[str] = []

    # ------------------------------------------------------------ structure
    def print_op(self, op: Operation, level: int = 0) -> str:
        self.lines = []
        self._op(op, level)
        return "\n".join(self.lines)

    def _emit(self, level: int, text: str) -> None:
        self.lines.append(self.indent * level + text)

    def _results(self, op: Operation) -> str:
        if not op.results or op.results[0].name.startswith("<unnamed"):
            return ""
        names: list[str] = []
        groups: dict[str, int] = {}
        for r in op.results:
            base = r.name.split("#", 1)[0]
            if "#" in r.name:
                if base not in groups:
                    groups[base] = 0
                    names.append(base)
                groups[base] += 1
            else:
                names.append(base)
        return ", ".join(f"{n}:{groups[n]}" if n in groups else n for n in names) + " = "

    def _region(self, region: Region, level: int, header: str, print_entry_args: bool = False, suffix: str = "") -> None:
        """Emit ``header {``, the blocks, and ``}`` + suffix."""
        self._emit(level, header + " {")
        for i, blk in enumerate(region.blocks):
            self._block(blk, level, label=i > 0 or print_entry_args)
        self._emit(level, "}" + suffix)

    def _block(self, blk: Block, level: int, label: bool) -> None:
        if label:
            args = ", ".join(f"{a.name}: {_t(a.type)}" for a in blk.arguments)
            name = blk.label or "^bb0"
            self._emit(level, f"{name}({args}):" if blk.arguments else f"{name}:")
        for o in blk.operations:
            if _implicit_terminator(o):
                continue
            self._op(o, level + 1)

    def _source_text(self, op: Operation) -> str | None:
        if self.source is None:
            return None
        return self.source[op.span.start : op.span.end]

    # ------------------------------------------------------------ ops
    def _op(self, op: Operation, level: int) -> None:
        if not op.known:
            text = self._source_text(op)
            if text is None:
                raise ValueError(f"cannot print op '{op.name}' of unknown syntax without its source text")
            for i, line in enumerate(text.splitlines()):
                self._emit(level if i == 0 else 0, line)
            return
        fn = getattr(self, "_p_" + op.name.replace(".", "_"), None)
        if fn is None and op.custom and not op.regions and (op.dialect in _AS_WRITTEN_DIALECTS or op.name in _AS_WRITTEN_OPS):
            text = self._source_text(op)
            if text is not None:
                for i, line in enumerate(text.splitlines()):
                    self._emit(level if i == 0 else 0, line)
                return
        if fn is None or not op.custom:
            self._generic(op, level)
            return
        fn(op, level, self._results(op))

    def _generic(self, op: Operation, level: int) -> None:
        res = self._results(op)
        head = f'{res}"{op.name}"({_vs(op.operands)})'
        if op.successors:
            head += "[" + ", ".join(b.label or "^bb?" for b in op.successors) + "]"
        ftype = FunctionType([o.type for o in op.operands if o.type is not None], [r.type for r in op.results if r.type is not None])
        attrs = dict(op.attributes)
        if op.operand_segments is not None and "operandSegmentSizes" not in attrs:
            from affine_lsp.ir.types import IntegerType

            attrs["operandSegmentSizes"] = DenseArrayAttr(IntegerType(32), list(op.operand_segments))
        tail = _attr_dict(attrs) + f" : {ftype}"
        if not op.regions:
            self._emit(level, head + tail)
            return
        self._emit(level, head + " ({")
        implicit = _IMPLICIT_TERMINATORS.get(op.name)
        for ri, region in enumerate(op.regions):
            for bi, blk in enumerate(region.blocks):
                self._block(blk, level, label=bool(blk.arguments) or bi > 0)
            if implicit is not None and region.blocks and not (region.blocks[-1].operations and region.blocks[-1].operations[-1].name == implicit[0]):
                for line in implicit[1]:  # the terminator the custom syntax leaves implicit
                    self._emit(level + 1, line)
            if ri + 1 < len(op.regions):
                self._emit(level, "}, {")
        self._emit(level, "})" + tail)

    def _simple(self, op: Operation, level: int, res: str, body: str) -> None:
        self._emit(level, f"{res}{op.name}{body}")

    # func
    def _p_func_func(self, op: Operation, level: int, res: str) -> None:
        name = op.attributes["sym_name"]
        vis = op.attributes.get("sym_visibility")
        ft = op.attributes["function_type"]
        assert isinstance(ft, TypeAttr) and isinstance(ft.type, FunctionType)
        ftype = ft.type
        vis_s = f"{vis.value} " if isinstance(vis, StringAttr) else ""
        body = op.regions[0] if op.regions and op.regions[0].blocks else None
        if body is not None:
            args = ", ".join(f"{a.name}: {_t(a.type)}" for a in body.blocks[0].arguments)
        else:
            args = ", ".join(_t(t) for t in ftype.inputs)
        results = ""
        if ftype.results:
            rs = ", ".join(_t(t) for t in ftype.results)
            results = f" -> {rs}" if len(ftype.results) == 1 and not isinstance(ftype.results[0], FunctionType) else f" -> ({rs})"
        extra = _attr_dict(op.attributes, skip=("sym_name", "sym_visibility", "function_type", "arg_attrs", "res_attrs"))
        head = f"func.func {vis_s}@{_sym(str(name.value) if isinstance(name, StringAttr) else str(name))}({args}){results}"
        if extra:
            head += " attributes" + extra
        if body is None:
            self._emit(level, head)
            return
        self._region(body, level, head)

    def _p_func_return(self, op: Operation, level: int, res: str) -> None:
        if op.operands:
            self._emit(level, f"return {_vs(op.operands)} : {', '.join(_t(o.type) for o in op.operands)}")
        else:
            self._emit(level, "return")

    def _p_func_call(self, op: Operation, level: int, res: str) -> None:
        callee = op.attributes["callee"]
        ftype = FunctionType([o.type for o in op.operands if o.type], [r.type for r in op.results if r.type])
        self._emit(level, f"{res}call {callee}({_vs(op.operands)}){_attr_dict(op.attributes, ('callee',))} : {ftype}")

    # affine
    def _p_affine_apply(self, op: Operation, level: int, res: str) -> None:
        m = op.attributes["map"]
        assert isinstance(m, AffineMapAttr)
        self._simple(op, level, res, " " + _map_use(m, op.operands))

    _p_affine_min = _p_affine_apply
    _p_affine_max = _p_affine_apply

    def _p_affine_for(self, op: Operation, level: int, res: str) -> None:
        f = ForView(op)
        lb_attr, ub_attr = op.attributes["lower_bound"], op.attributes["upper_bound"]
        assert isinstance(lb_attr, AffineMapAttr) and isinstance(ub_attr, AffineMapAttr)
        iv = f.iv
        head = f"{res}affine.for {iv.name if iv else '%iv'} = {bound_text(lb_attr, f.lower.operands, 'max')} to {bound_text(ub_attr, f.upper.operands, 'min')}"
        if f.step != 1:
            head += f" step {f.step}"
        if f.inits:
            pairs = ", ".join(f"{a.name} = {i.name}" for a, i in zip(f.iter_args, f.inits, strict=False))
            types = ", ".join(_t(r.type) for r in op.results)
            head += f" iter_args({pairs}) -> ({types})"
        self._region(op.regions[0], level, head, suffix=_attr_dict(op.attributes, ("lower_bound", "upper_bound", "step")))

    def _p_affine_if(self, op: Operation, level: int, res: str) -> None:
        v = IfView(op)
        cond = op.attributes["condition"]
        assert isinstance(cond, IntegerSetAttr) and v.condition is not None
        nd = v.condition.num_dims
        ref = cond.alias or cond.set.to_attr_str()
        use = f"{ref}({_vs(op.operands[:nd])})"
        if v.condition.num_symbols:
            use += f"[{_vs(op.operands[nd:])}]"
        head = f"{res}affine.if {use}"
        if op.results:
            head += " -> (" + ", ".join(_t(r.type) for r in op.results) + ")"
        extra = _attr_dict(op.attributes, ("condition",))
        has_else = len(op.regions) > 1 and op.regions[1].blocks and (op.regions[1].blocks[0].operations or op.results)
        self._region(op.regions[0], level, head, suffix="" if has_else else extra)
        if has_else:
            self.lines[-1] = self.lines[-1] + " else {"
            for blk in op.regions[1].blocks:
                self._block(blk, level, label=False)
            self._emit(level, "}" + extra)

    def _access(self, op: Operation, level: int, res: str, lead: Sequence[Value], memref: Value, idx: Sequence[Value], types: str) -> None:
        m = op.attributes["map"]
        assert isinstance(m, AffineMapAttr)
        pre = ", ".join(v.name for v in [*lead, memref])
        self._simple(op, level, res, f" {pre}{_subscripts(m.map, idx)}{_attr_dict(op.attributes, ('map',))} : {types}")

    def _p_affine_load(self, op: Operation, level: int, res: str) -> None:
        self._access(op, level, res, [], op.operands[0], op.operands[1:], _t(op.operands[0].type))

    def _p_affine_store(self, op: Operation, level: int, res: str) -> None:
        self._access(op, level, res, [op.operands[0]], op.operands[1], op.operands[2:], _t(op.operands[1].type))

    def _p_affine_vector_load(self, op: Operation, level: int, res: str) -> None:
        self._access(op, level, res, [], op.operands[0], op.operands[1:], f"{_t(op.operands[0].type)}, {_t(op.results[0].type)}")

    def _p_affine_vector_store(self, op: Operation, level: int, res: str) -> None:
        self._access(op, level, res, [op.operands[0]], op.operands[1], op.operands[2:], f"{_t(op.operands[1].type)}, {_t(op.operands[0].type)}")

    def _p_affine_yield(self, op: Operation, level: int, res: str) -> None:
        if op.operands:
            self._emit(level, f"affine.yield {_vs(op.operands)} : {', '.join(_t(o.type) for o in op.operands)}")
        else:
            self._emit(level, "affine.yield")

    def _p_affine_parallel(self, op: Operation, level: int, res: str) -> None:
        v = ParallelView(op)

        def bounds(m: AffineMap | None, groups: list[int], operands: list[Value], fn: str) -> str:
            if m is None:
                return "()"
            nd = m.num_dims
            dims = [o.name for o in operands[:nd]]
            syms = [f"symbol({o.name})" for o in operands[nd:]]
            out, pos = [], 0
            for g in groups:
                es = [_expr_with_names(e, dims, syms) for e in m.results[pos : pos + g]]
                out.append(es[0] if g == 1 else f"{fn}({', '.join(es)})")
                pos += g
            return "(" + ", ".join(out) + ")"

        head = f"{res}affine.parallel ({_vs(v.ivs)}) = {bounds(v.lower_map, v.lower_groups, v.lower_operands, 'max')}"
        head += f" to {bounds(v.upper_map, v.upper_groups, v.upper_operands, 'min')}"
        if any(s != 1 for s in v.steps):
            head += " step (" + ", ".join(str(s) for s in v.steps) + ")"
        if v.reductions:
            head += " reduce (" + ", ".join(f'"{r}"' for r in v.reductions) + ")"
        if op.results:
            head += " -> (" + ", ".join(_t(r.type) for r in op.results) + ")"
        skip = ("lowerBoundsMap", "lowerBoundsGroups", "upperBoundsMap", "upperBoundsGroups", "steps", "reductions")
        self._region(op.regions[0], level, head, suffix=_attr_dict(op.attributes, skip))

    def _p_affine_prefetch(self, op: Operation, level: int, res: str) -> None:
        m = op.attributes["map"]
        assert isinstance(m, AffineMapAttr)
        w = op.attributes.get("isWrite")
        loc = op.attributes.get("localityHint")
        dc = op.attributes.get("isDataCache")
        rw = "write" if isinstance(w, BoolAttr) and w.value else "read"
        cache = "data" if isinstance(dc, BoolAttr) and dc.value else "instr"
        hint = loc.value if isinstance(loc, IntegerAttr) else 3
        extra = _attr_dict(op.attributes, ("map", "isWrite", "localityHint", "isDataCache"))
        self._simple(
            op, level, res, f" {op.operands[0].name}{_subscripts(m.map, op.operands[1:])}, {rw}, locality<{hint}>, {cache}{extra} : {_t(op.operands[0].type)}"
        )

    def _p_affine_dma_start(self, op: Operation, level: int, res: str) -> None:
        segs = op.operand_segments or ()
        parts = []
        types = []
        for i, key in enumerate(("src_map", "dst_map", "tag_map")):
            ops = op.segment(i)
            m = op.attributes[key]
            assert isinstance(m, AffineMapAttr)
            parts.append(f"{ops[0].name}{_subscripts(m.map, ops[1:])}")
            types.append(_t(ops[0].type))
        rest = op.segment(3) if len(segs) > 3 else []
        body = ", ".join(parts + [v.name for v in rest])
        extra = _attr_dict(op.attributes, ("src_map", "dst_map", "tag_map"))
        self._simple(op, level, res, f" {body}{extra} : {', '.join(types)}")

    def _p_affine_dma_wait(self, op: Operation, level: int, res: str) -> None:
        m = op.attributes["tag_map"]
        assert isinstance(m, AffineMapAttr)
        tag, idx, num = op.operands[0], op.operands[1:-1], op.operands[-1]
        extra = _attr_dict(op.attributes, ("tag_map",))
        self._simple(op, level, res, f" {tag.name}{_subscripts(m.map, idx)}, {num.name}{extra} : {_t(tag.type)}")

    def _mixed(self, static: Attribute | None, dyn: Sequence[Value]) -> str:
        vals = static.values if isinstance(static, DenseArrayAttr) else []
        it = iter(dyn)
        out = [next(it).name if v == _INT64_MIN else str(v) for v in vals]
        return ", ".join(out)

    def _p_affine_delinearize_index(self, op: Operation, level: int, res: str) -> None:
        basis = self._mixed(op.attributes.get("static_basis"), op.operands[1:])
        extra = _attr_dict(op.attributes, ("static_basis",))
        self._simple(op, level, res, f" {op.operands[0].name} into ({basis}){extra} : {', '.join(_t(r.type) for r in op.results)}")

    def _p_affine_linearize_index(self, op: Operation, level: int, res: str) -> None:
        segs = op.operand_segments or (len(op.operands), 0)
        ins = op.operands[: segs[0]]
        basis = self._mixed(op.attributes.get("static_basis"), op.operands[segs[0] :])
        dis = "disjoint " if "disjoint" in op.attributes else ""
        extra = _attr_dict(op.attributes, ("static_basis", "disjoint"))
        self._simple(op, level, res, f" {dis}[{_vs(ins)}] by ({basis}){extra} : {_t(op.results[0].type)}")

    # arith / math
    def _p_arith_constant(self, op: Operation, level: int, res: str) -> None:
        a = op.attributes["value"]
        text = print_attr(a)
        if isinstance(a, IntegerAttr | OpaqueAttr) and a.type is None and op.results and op.results[0].type is not None:
            text += f" : {op.results[0].type}"
        self._simple(op, level, res, " " + text)

    def _unary_or_binary(self, op: Operation, level: int, res: str) -> None:
        flags = arith_flags_text(op)
        self._simple(op, level, res, f" {_vs(op.operands)}{flags}{_attr_dict(op.attributes, ('fastmath', 'overflowFlags'))} : {_t(op.results[0].type)}")

    def _cmp(self, op: Operation, level: int, res: str) -> None:
        pred = op.attributes["predicate"]
        pv = pred.value if isinstance(pred, StringAttr) else str(pred)
        flags = arith_flags_text(op)
        self._simple(op, level, res, f" {pv}, {_vs(op.operands)}{flags}{_attr_dict(op.attributes, ('predicate', 'fastmath'))} : {_t(op.operands[0].type)}")

    def _cast(self, op: Operation, level: int, res: str) -> None:
        flags = arith_flags_text(op)
        self._simple(
            op,
            level,
            res,
            f" {_vs(op.operands)}{flags}{_attr_dict(op.attributes, ('fastmath', 'overflowFlags'))} : {_t(op.operands[0].type)} to {_t(op.results[0].type)}",
        )

    def _p_arith_select(self, op: Operation, level: int, res: str) -> None:
        cond_t = op.operands[0].type
        t = _t(op.results[0].type)
        ty = t if cond_t is None or str(cond_t) == "i1" else f"{cond_t}, {t}"
        self._simple(op, level, res, f" {_vs(op.operands)}{_attr_dict(op.attributes)} : {ty}")

    # memref
    def _p_memref_alloc(self, op: Operation, level: int, res: str) -> None:
        segs = op.operand_segments or (len(op.operands), 0)
        dyn, syms = op.operands[: segs[0]], op.operands[segs[0] :]
        s = f"({_vs(dyn)})"
        if syms:
            s += f"[{_vs(syms)}]"
        self._simple(op, level, res, f"{s}{_attr_dict(op.attributes)} : {_t(op.results[0].type)}")

    _p_memref_alloca = _p_memref_alloc

    def _p_memref_dealloc(self, op: Operation, level: int, res: str) -> None:
        self._simple(op, level, res, f" {op.operands[0].name}{_attr_dict(op.attributes)} : {_t(op.operands[0].type)}")

    def _p_memref_dim(self, op: Operation, level: int, res: str) -> None:
        self._simple(op, level, res, f" {_vs(op.operands)}{_attr_dict(op.attributes)} : {_t(op.operands[0].type)}")

    _p_tensor_dim = _p_memref_dim

    def _p_memref_load(self, op: Operation, level: int, res: str) -> None:
        self._simple(op, level, res, f" {op.operands[0].name}[{_vs(op.operands[1:])}]{_attr_dict(op.attributes)} : {_t(op.operands[0].type)}")

    _p_tensor_extract = _p_memref_load

    def _p_memref_store(self, op: Operation, level: int, res: str) -> None:
        self._simple(
            op, level, res, f" {op.operands[0].name}, {op.operands[1].name}[{_vs(op.operands[2:])}]{_attr_dict(op.attributes)} : {_t(op.operands[1].type)}"
        )

    def _p_memref_cast(self, op: Operation, level: int, res: str) -> None:
        self._cast(op, level, res)

    def _p_memref_copy(self, op: Operation, level: int, res: str) -> None:
        self._simple(op, level, res, f" {_vs(op.operands)}{_attr_dict(op.attributes)} : {_t(op.operands[0].type)} to {_t(op.operands[1].type)}")

    def _p_memref_get_global(self, op: Operation, level: int, res: str) -> None:
        self._simple(op, level, res, f" {op.attributes['name']} : {_t(op.results[0].type)}")

    def _p_memref_alloca_scope(self, op: Operation, level: int, res: str) -> None:
        head = f"{res}memref.alloca_scope"
        if op.results:
            head += " -> (" + ", ".join(_t(r.type) for r in op.results) + ")"
        self._region(op.regions[0], level, head, suffix=_attr_dict(op.attributes))

    def _offsets(self, op: Operation, keys: Sequence[str]) -> list[str]:
        segs = op.operand_segments or ()
        out = []
        pos = 1
        for i, key in enumerate(keys):
            n = segs[i + 1] if i + 1 < len(segs) else 0
            out.append("[" + self._mixed(op.attributes.get(key), op.operands[pos : pos + n]) + "]")
            pos += n
        return out

    def _p_memref_subview(self, op: Operation, level: int, res: str) -> None:
        o, sz, st = self._offsets(op, ("static_offsets", "static_sizes", "static_strides"))
        extra = _attr_dict(op.attributes, ("static_offsets", "static_sizes", "static_strides"))
        self._simple(op, level, res, f" {op.operands[0].name}{o}{sz}{st}{extra} : {_t(op.operands[0].type)} to {_t(op.results[0].type)}")

    def _p_memref_reinterpret_cast(self, op: Operation, level: int, res: str) -> None:
        o, sz, st = self._offsets(op, ("static_offsets", "static_sizes", "static_strides"))
        extra = _attr_dict(op.attributes, ("static_offsets", "static_sizes", "static_strides"))
        self._simple(
            op, level, res, f" {op.operands[0].name} to offset: {o}, sizes: {sz}, strides: {st}{extra} : {_t(op.operands[0].type)} to {_t(op.results[0].type)}"
        )

    def _p_memref_view(self, op: Operation, level: int, res: str) -> None:
        src, off, sizes = op.operands[0], op.operands[1], op.operands[2:]
        self._simple(op, level, res, f" {src.name}[{off.name}][{_vs(sizes)}]{_attr_dict(op.attributes)} : {_t(src.type)} to {_t(op.results[0].type)}")

    def _p_memref_global(self, op: Operation, level: int, res: str) -> None:
        vis = op.attributes.get("sym_visibility")
        name = op.attributes.get("sym_name")
        t = op.attributes.get("type")
        init = op.attributes.get("initial_value")
        const = "constant " if "constant" in op.attributes else ""
        head = f"memref.global {vis.spelling + ' ' if isinstance(vis, StringAttr) else ''}{const}"
        head += f"{name.spelling if isinstance(name, StringAttr) else name} : {t}"
        if init is not None:
            head += f" = {print_attr(init)}"
        head += _attr_dict(op.attributes, ("sym_visibility", "sym_name", "type", "initial_value", "constant"))
        self._emit(level, head)

    # vector
    def _p_vector_transfer_read(self, op: Operation, level: int, res: str) -> None:
        segs = op.operand_segments or (1, len(op.operands) - 2, 1, 0)
        src = op.operands[0]
        idx = op.operands[1 : 1 + segs[1]]
        rest = op.operands[1 + segs[1] :]
        self._simple(op, level, res, f" {src.name}[{_vs(idx)}], {_vs(rest)}{_attr_dict(op.attributes)} : {_t(src.type)}, {_t(op.results[0].type)}")

    def _p_vector_transfer_write(self, op: Operation, level: int, res: str) -> None:
        segs = op.operand_segments or (1, 1, len(op.operands) - 2, 0)
        vec, dst = op.operands[0], op.operands[1]
        idx = op.operands[2 : 2 + segs[2]]
        mask = op.operands[2 + segs[2] :]
        m = f", {_vs(mask)}" if mask else ""
        self._simple(op, level, res, f" {vec.name}, {dst.name}[{_vs(idx)}]{m}{_attr_dict(op.attributes)} : {_t(vec.type)}, {_t(dst.type)}")

    def _p_vector_broadcast(self, op: Operation, level: int, res: str) -> None:
        self._cast(op, level, res)

    _p_vector_shape_cast = _p_vector_broadcast

    def _p_vector_reduction(self, op: Operation, level: int, res: str) -> None:
        kind = op.attributes["kind"]
        k = str(kind)
        if k.startswith("#vector.kind<"):
            k = k[len("#vector.kind<") : -1]
        flags = arith_flags_text(op)
        self._simple(
            op,
            level,
            res,
            f" <{k}>, {_vs(op.operands)}{flags}{_attr_dict(op.attributes, ('kind', 'fastmath'))} : {_t(op.operands[0].type)} into {_t(op.results[0].type)}",
        )

    def _p_vector_splat(self, op: Operation, level: int, res: str) -> None:
        self._simple(op, level, res, f" {op.operands[0].name}{_attr_dict(op.attributes)} : {_t(op.results[0].type)}")

    def _p_vector_load(self, op: Operation, level: int, res: str) -> None:
        self._simple(
            op, level, res, f" {op.operands[0].name}[{_vs(op.operands[1:])}]{_attr_dict(op.attributes)} : {_t(op.operands[0].type)}, {_t(op.results[0].type)}"
        )

    def _p_vector_store(self, op: Operation, level: int, res: str) -> None:
        self._simple(
            op,
            level,
            res,
            f" {op.operands[0].name}, {op.operands[1].name}[{_vs(op.operands[2:])}]{_attr_dict(op.attributes)} : {_t(op.operands[1].type)}, {_t(op.operands[0].type)}",
        )

    def _p_vector_create_mask(self, op: Operation, level: int, res: str) -> None:
        self._simple(op, level, res, f" {_vs(op.operands)}{_attr_dict(op.attributes)} : {_t(op.results[0].type)}")

    def _p_vector_print(self, op: Operation, level: int, res: str) -> None:
        if op.operands:
            self._simple(op, level, res, f" {op.operands[0].name} : {_t(op.operands[0].type)}")
        else:
            s = op.attributes.get("stringLiteral")
            self._simple(op, level, res, f" str {s}")

    def _p_vector_fma(self, op: Operation, level: int, res: str) -> None:
        self._simple(op, level, res, f" {_vs(op.operands)}{_attr_dict(op.attributes)} : {_t(op.results[0].type)}")

    # scf
    def _p_scf_for(self, op: Operation, level: int, res: str) -> None:
        body = op.regions[0].blocks[0]
        iv = body.arguments[0]
        lb, ub, st = op.operands[:3]
        head = f"{res}scf.for {iv.name} = {lb.name} to {ub.name} step {st.name}"
        inits = op.operands[3:]
        if inits:
            pairs = ", ".join(f"{a.name} = {i.name}" for a, i in zip(body.arguments[1:], inits, strict=False))
            head += f" iter_args({pairs}) -> ({', '.join(_t(r.type) for r in op.results)})"
        if iv.type is not None and str(iv.type) != "index":
            head += f" : {iv.type}"
        self._region(op.regions[0], level, head, suffix=_attr_dict(op.attributes))

    def _p_scf_if(self, op: Operation, level: int, res: str) -> None:
        head = f"{res}scf.if {op.operands[0].name}"
        if op.results:
            head += " -> (" + ", ".join(_t(r.type) for r in op.results) + ")"
        has_else = len(op.regions) > 1 and op.regions[1].blocks and (op.regions[1].blocks[0].operations or op.results)
        self._region(op.regions[0], level, head, suffix="" if has_else else _attr_dict(op.attributes))
        if has_else:
            self.lines[-1] = self.lines[-1] + " else {"
            for blk in op.regions[1].blocks:
                self._block(blk, level, label=False)
            self._emit(level, "}" + _attr_dict(op.attributes))

    def _p_scf_yield(self, op: Operation, level: int, res: str) -> None:
        if op.operands:
            self._emit(level, f"scf.yield {_vs(op.operands)} : {', '.join(_t(o.type) for o in op.operands)}")
        else:
            self._emit(level, "scf.yield")

    # misc
    def _p_ub_poison(self, op: Operation, level: int, res: str) -> None:
        self._simple(op, level, res, f"{_attr_dict(op.attributes)} : {_t(op.results[0].type)}")

    def _p_tensor_empty(self, op: Operation, level: int, res: str) -> None:
        self._simple(op, level, res, f"({_vs(op.operands)}){_attr_dict(op.attributes)} : {_t(op.results[0].type)}")

    # linalg
    def _p_linalg_generic(self, op: Operation, level: int, res: str) -> None:
        """Custom syntax: its generic form wants the iterator types as enum
        attributes (``#linalg.iterator_type<parallel>``), written as strings."""
        attrs: dict[str, Attribute] = {}
        trait = op.attributes.get("__trait")  # `linalg.generic #trait`, resolved
        if isinstance(trait, DictAttr):
            attrs.update(trait.entries)
        attrs.update(op.attributes)
        n_in = op.operand_segments[0] if op.operand_segments else 0
        head = f"{res}linalg.generic" + (_attr_dict(attrs, skip=("operandSegmentSizes",)) or " {}")
        for kw, vals in (("ins", op.operands[:n_in]), ("outs", op.operands[n_in:])):
            if vals:
                head += f" {kw}({_vs(vals)} : {', '.join(_t(v.type) for v in vals)})"
        suffix = " -> " + ", ".join(_t(r.type) for r in op.results) if op.results else ""
        self._region(op.regions[0], level, head, print_entry_args=True, suffix=suffix)

    def _p_cf_br(self, op: Operation, level: int, res: str) -> None:
        self._generic(op, level)

    _p_cf_cond_br = _p_cf_br


# Dialects whose ops, when they have no region of ours, are printed as
# written: their generic form spells out what the custom syntax implies
# (the implicit body of linalg's named ops, default-valued enum properties
# of llvm and gpu ops), and their text is all there is to them.
_AS_WRITTEN_DIALECTS = frozenset({"linalg", "llvm", "gpu"})
_AS_WRITTEN_OPS = frozenset({"vector.contract"})  # iterator types written as strings
# Terminators that an op's custom syntax may leave out: (name, generic text).
_IMPLICIT_TERMINATORS = {"scf.forall": ("scf.forall.in_parallel", ['"scf.forall.in_parallel"() ({', "^bb0:", "}) : () -> ()"])}

_UNARY_BINARY = [
    "arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.divui", "arith.ceildivsi", "arith.ceildivui",
    "arith.floordivsi", "arith.remsi", "arith.remui", "arith.andi", "arith.ori", "arith.xori", "arith.shli",
    "arith.shrsi", "arith.shrui", "arith.maxsi", "arith.maxui", "arith.minsi", "arith.minui", "arith.addf",
    "arith.subf", "arith.mulf", "arith.divf", "arith.remf", "arith.maximumf", "arith.minimumf", "arith.maxnumf",
    "arith.minnumf", "arith.negf", "math.powf", "math.atan2", "math.copysign", "math.fma", "math.exp", "math.exp2",
    "math.expm1", "math.log", "math.log2", "math.log10", "math.log1p", "math.sqrt", "math.rsqrt", "math.sin",
    "math.cos", "math.tan", "math.tanh", "math.absf", "math.absi", "math.ceil", "math.floor", "math.round", "math.erf",
]  # fmt: skip
for _name in _UNARY_BINARY:
    setattr(Printer, "_p_" + _name.replace(".", "_"), Printer._unary_or_binary)
for _name in ("arith.cmpi", "arith.cmpf"):
    setattr(Printer, "_p_" + _name.replace(".", "_"), Printer._cmp)
for _name in (
    "arith.index_cast", "arith.index_castui", "arith.sitofp", "arith.uitofp", "arith.fptosi", "arith.fptoui",
    "arith.extsi", "arith.extui", "arith.trunci", "arith.extf", "arith.truncf", "arith.bitcast",
):  # fmt: skip
    setattr(Printer, "_p_" + _name.replace(".", "_"), Printer._cast)


def arith_flags_text(op: Operation) -> str:
    out = ""
    for key in ("overflowFlags", "fastmath"):
        a = op.attributes.get(key)
        if isinstance(a, OpaqueAttr):
            s = a.spelling
            inner = s[s.index("<") :] if "<" in s else ""
            out += f" {'overflow' if key == 'overflowFlags' else 'fastmath'}{inner}"
    return out


def _sym(name: str) -> str:
    return name if _is_bare(name) or name.replace("-", "").replace(".", "").isalnum() else '"' + name + '"'


def _implicit_terminator(op: Operation) -> bool:
    """affine.for/if/parallel print without an empty affine.yield."""
    parent = op.parent_op
    return op.name == "affine.yield" and not op.operands and parent is not None and parent.name in ("affine.for", "affine.if", "affine.parallel")


def print_op(op: Operation, source: str | None = None, level: int = 0) -> str:
    return Printer(source).print_op(op, level)


def print_section(section: object, source: str | None = None) -> str:
    """Print a whole section (aliases first, then the top-level ops)."""
    from affine_lsp.source.document import Section

    assert isinstance(section, Section)
    out = []
    for name, d in section.aliases.attrs.items():
        v = d.value
        if isinstance(v, AffineMapAttr):
            out.append(f"{name} = {v.map.to_attr_str()}")
        elif isinstance(v, IntegerSetAttr):
            out.append(f"{name} = {v.set.to_attr_str()}")
        elif v is not None and source is not None:
            out.append(source[d.span.start : d.span.end])
    for name, d in section.aliases.types.items():
        out.append(f"{name} = {d.value}")
    p = Printer(source)
    for op in section.top_level_ops():
        if op.name == "builtin.module" and op.regions:
            name = op.attributes.get("sym_name")
            attrs = _attr_dict(op.attributes, skip=("sym_name",))
            out.append("module" + (f" @{name.value}" if isinstance(name, StringAttr) else "") + (f" attributes{attrs}" if attrs else "") + " {")
            for inner in op.regions[0].blocks[0].operations:
                out.append(p.print_op(inner, 1))
            out.append("}")
        else:
            out.append(p.print_op(op))
    return "\n".join(out) + "\n"
