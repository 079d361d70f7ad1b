"""Reduce actions of the affine dialect's ops (``affine.for``, ``affine.if``, loads and stores,
``affine.parallel``, ``affine.apply``/``min``/``max``, DMA, ``delinearize_index``...): the
affine section of ``grammar/mlir.lark``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from affine_lsp.ir import op_traits
from affine_lsp.ir.affine_expr import AffineDimExpr, AffineExpr, AffineMap, constant, symbol
from affine_lsp.ir.attributes import (
    AffineMapAttr,
    ArrayAttr,
    BoolAttr,
    DenseArrayAttr,
    DictAttr,
    IntegerAttr,
    StringAttr,
    UnitAttr,
)
from affine_lsp.ir.core import Span
from affine_lsp.ir.types import (
    INDEX,
    IntegerType,
    MemRefType,
    Type,
)
from affine_lsp.syntax.errors import BAD_STEP_MESSAGE
from affine_lsp.syntax.nodes import (
    OpSyn,
    RegionSyn,
)
from affine_lsp.syntax.opkit import (
    TOKEN_TYPES,
    DimSym,
    IterArgs,
    LoopBound,
    LoopStep,
    Mixed,
    Ops,
    ParallelBounds,
    ParallelReductions,
    ParallelSteps,
    SyntaxIssue,
    set_entry_args,
    start_of,
    subscript_layout,
    unquote,
)

if TYPE_CHECKING:
    from lark import Token


class AffineOps:
    """Mixed into :class:`~affine_lsp.syntax.parser.ChunkTransformer`; ``self`` is the parse's own state."""

    def affine_apply(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.apply")
        op.attrs["map"] = c[1]
        self._dim_sym(op, c[2])
        op.result_types = [INDEX]
        return op

    def affine_minmax(self, c: list) -> OpSyn:
        op = self._op(c[0], c)
        op.attrs["map"] = c[1]
        self._dim_sym(op, c[2])
        op.result_types = [INDEX]
        return op

    def _dim_sym(self, op: OpSyn, ds: tuple[list, list | None]) -> None:
        dims, syms = ds
        op.operands = list(dims) + list(syms or [])
        op.attrs.setdefault("__num_dim_operands", IntegerAttr(len(dims)))

    def dim_sym_operands(self, c: list) -> tuple[list, list | None]:
        return DimSym(self._dim_sym_lists(c), self.span_of(c[0], c[-1]))

    def _dim_sym_lists(self, c: list) -> tuple[list, list | None]:
        dims: list = []
        syms: list | None = None
        seen_sym = False
        for x in c:
            if type(x) in TOKEN_TYPES:
                if x.type == "LSQB_SYM":
                    seen_sym = True
                    syms = []
            elif isinstance(x, Ops):
                if seen_sym:
                    syms = list(x)
                else:
                    dims = list(x)
        return dims, syms

    def bound_map(self, c: list) -> LoopBound:
        kw = None
        if type(c[0]) in TOKEN_TYPES and c[0].type in ("MAX_KW", "MIN_KW"):
            kw = str(c[0])
            c = c[1:]
        dims, syms = c[1]
        return LoopBound(c[0], dims, syms or [], c[0].span, kw)

    def bound_ssa(self, c: list) -> LoopBound:
        tok = c[0]
        m = AffineMap.trusted(0, 1, [symbol(0)])
        return LoopBound(AffineMapAttr(m, None, self.sp(tok)), [], [(str(tok), self.sp(tok))], self.sp(tok), None)

    def bound_const(self, c: list) -> LoopBound:
        v, sp = c[0]
        m = AffineMap.trusted(0, 0, [constant(v)])
        return LoopBound(AffineMapAttr(m, None, sp), [], [], sp, None)

    def for_step(self, c: list) -> LoopStep:
        v, sp = c[0]
        if v < 0:  # MLIR 22.1.8 rejects negative steps only (`step 0` parses and verifies)
            raise SyntaxIssue(BAD_STEP_MESSAGE, sp)
        return LoopStep(v, sp)

    def iter_args(self, c: list) -> IterArgs:
        pairs = [x for x in c if isinstance(x, tuple)]
        types = next(x for x in c if isinstance(x, list))
        return IterArgs(pairs, types)

    def iter_arg(self, c: list) -> tuple[str, Span, str, Span]:
        return (str(c[0]), self.sp(c[0]), str(c[1]), self.sp(c[1]))

    def affine_for(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.for")
        iv: Token = c[1]
        if "#" in str(iv):
            raise SyntaxIssue("result number not allowed in argument list", self.sp(iv))
        lb: LoopBound = c[2]
        ub: LoopBound = c[3]
        step = 1
        step_span = None
        inits: list = []
        iter_names: list[tuple[str, Span]] = []
        res_types: list = []
        region: RegionSyn | None = None
        for x in c[4:]:
            if isinstance(x, LoopStep):
                step, step_span = x.value, x.span
            elif isinstance(x, IterArgs):
                for a, asp, init, isp in x.pairs:
                    iter_names.append((a, asp))
                    inits.append((init, isp))
                res_types = x.types
            elif isinstance(x, RegionSyn):
                region = x
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        if len(iter_names) != len(res_types):
            raise SyntaxIssue("custom op 'affine.for' mismatch between the number of loop-carried values and results", op.name_span)
        lb_dims, ub_dims = lb.dims, ub.dims
        lb_ops = lb_dims + lb.syms
        ub_ops = ub_dims + ub.syms
        attrs = op.attrs
        attrs["lower_bound"] = lb.map
        attrs["upper_bound"] = ub.map
        attrs["step"] = IntegerAttr(step, INDEX, step_span or op.name_span)
        attrs["__lb_num_dims"] = IntegerAttr(len(lb_dims))
        attrs["__ub_num_dims"] = IntegerAttr(len(ub_dims))
        if lb.keyword:
            attrs["__lb_kw"] = StringAttr(lb.keyword, lb.keyword)
        if ub.keyword:
            attrs["__ub_kw"] = StringAttr(ub.keyword, ub.keyword)
        op.operands = lb_ops + ub_ops + inits
        op.segments = (len(lb_ops), len(ub_ops), len(inits))
        op.result_types = list(res_types)
        if region is not None:
            args = [(str(iv), self.sp(iv), INDEX)]
            if iter_names:
                args += [(n, s, t) for (n, s), t in zip(iter_names, res_types + [None] * len(iter_names), strict=False)]
            set_entry_args(region, args, self.anchor)
            op.regions = [region]
        return op

    def affine_if(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.if")
        op.attrs["condition"] = c[1]
        self._dim_sym(op, c[2])
        op.result_types = []
        for x in c[3:]:
            if isinstance(x, list):
                op.result_types = x
            elif isinstance(x, RegionSyn):
                op.regions.append(x)
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        if len(op.regions) == 1:
            # MLIR always has an else region (possibly empty).
            op.regions.append(RegionSyn(Span(op.span.rel_end, op.span.rel_end, self.anchor), []))
        return op

    def subscripts(self, c: list) -> tuple[AffineMapAttr, list, int]:
        if len(c) == 1 and c[0].type == "SIMPLE_SUBSCRIPTS":
            return self._simple_subscripts(c[0])
        exprs = [x for x in c if isinstance(x, AffineExpr)]
        nd = len(self._ssa_dims)
        ns = len(self._ssa_syms)
        start = c[0] if c and isinstance(c[0], AffineExpr) else None
        end_tok = c[-1]
        sp = Span(start_of(start) if start is not None else end_tok.start_pos - 1, end_tok.end_pos, self.anchor)
        m = AffineMap.trusted(nd, ns, exprs, sp)
        operands = self._ssa_operands + self._ssa_sym_operands
        self._reset_ssa()
        return AffineMapAttr(m, None, sp), operands, nd

    def _simple_subscripts(self, tok: Any) -> tuple[AffineMapAttr, list, int]:
        """``[%i, %j, %i]``: what ``ssa_dim`` and ``subscripts`` build for
        it through the general grammar, in one step."""
        anchor = self.anchor
        base = tok.start_pos
        uses, nd = subscript_layout(str(tok))
        operands: list[tuple[str, Span]] = []
        exprs: list[AffineExpr] = []
        for start, end, pos, first_use in uses:
            s = Span(base + start, base + end, anchor)
            if first_use is not None:
                operands.append((first_use, s))
            exprs.append(AffineDimExpr(pos, s))
        sp = Span(base + uses[0][0], tok.end_pos, anchor)
        return AffineMapAttr(AffineMap.trusted(nd, 0, exprs, sp), None, sp), operands, nd

    def _access(self, op: OpSyn, memref: Token, subs: tuple, value: Token | None = None) -> None:
        amap, operands, nd = subs
        op.attrs["map"] = amap
        ops = []
        if value is not None:
            ops.append((str(value), self.sp(value)))
        ops.append((str(memref), self.sp(memref)))
        op.operands = ops + operands
        op.attrs["__num_dim_operands"] = IntegerAttr(nd)

    def affine_load(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.load")
        self._access(op, c[1], c[2])
        self._trailing(op, c[3:])
        t = op.operand_types[0] if op.operand_types else None
        op.result_types = [t.element if isinstance(t, MemRefType) else None]
        op.operand_types = [t] + [INDEX] * (len(op.operands) - 1)
        return op

    def _trailing(self, op: OpSyn, rest: Sequence[Any]) -> None:
        """Attr dicts and the types after ``:`` of a custom op."""
        types: list[Type] = []
        for x in rest:
            if isinstance(x, DictAttr):
                op.attrs.update(x.entries)
            elif isinstance(x, Type):
                types.append(x)
        op.operand_types = types  # type: ignore[assignment]

    def affine_store(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.store")
        self._access(op, c[2], c[3], value=c[1])
        self._trailing(op, c[4:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [t.element if isinstance(t, MemRefType) else None, t] + [INDEX] * (len(op.operands) - 2)
        op.result_types = []
        return op

    def affine_vector_load(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.vector_load")
        self._access(op, c[1], c[2])
        self._trailing(op, c[3:])
        types = op.operand_types or []
        op.result_types = [types[1] if len(types) > 1 else None]
        op.operand_types = types[:1] + [INDEX] * (len(op.operands) - 1)
        return op

    def affine_vector_store(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.vector_store")
        self._access(op, c[2], c[3], value=c[1])
        self._trailing(op, c[4:])
        types = op.operand_types or []
        # MLIR prints `: memref-type, vector-type`; the value has the vector type.
        op.operand_types = [types[1] if len(types) > 1 else None] + types[:1] + [INDEX] * (len(op.operands) - 2)
        op.result_types = []
        return op

    def affine_yield(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.yield")
        self._simple_operands(op, c[1:])
        op.result_types = []
        return op

    def _simple_operands(self, op: OpSyn, rest: Sequence[Any]) -> None:
        for x in rest:
            if isinstance(x, Ops):
                op.operands = list(x)
            elif isinstance(x, list) and x and isinstance(x[0], Type):
                op.operand_types = list(x)

    def affine_terminator(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.yield")
        op.result_types = []
        self.note(
            "warning",
            "'affine.terminator' is legacy syntax; the modern form is 'affine.yield'",
            op.name_span,
            code="legacy-terminator",
            data={"replacement": "affine.yield"},
        )
        return op

    def par_bounds(self, c: list) -> ParallelBounds:
        groups: list[int] = []
        exprs: list[AffineExpr] = []
        for x in c:
            if isinstance(x, list):
                groups.append(len(x))
                exprs.extend(x)
        first, last = c[0], c[-1]
        sp = self.span_of(first, last)
        m = AffineMap.trusted(len(self._ssa_dims), len(self._ssa_syms), exprs, sp)
        operands = self._ssa_operands + self._ssa_sym_operands
        nd = len(self._ssa_dims)
        self._reset_ssa()
        return ParallelBounds(AffineMapAttr(m, None, sp), operands, groups, nd)

    def par_bound_single(self, c: list) -> list[AffineExpr]:
        return [c[0]]

    def par_bound_group(self, c: list) -> list[AffineExpr]:
        return [x for x in c if isinstance(x, AffineExpr)]

    def par_steps(self, c: list) -> ParallelSteps:
        return ParallelSteps([x for x in c if isinstance(x, tuple)])

    def par_reduce(self, c: list) -> ParallelReductions:
        kinds = [x for x in c if type(x) in TOKEN_TYPES and x.type == "STRING"]
        for k in kinds:
            if unquote(str(k)) not in op_traits.atomic_rmw_kinds():
                raise SyntaxIssue(f"custom op 'affine.parallel' invalid reduction value: {k}", self.sp(k))
        return ParallelReductions(kinds)

    def affine_parallel(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.parallel")
        ivs: Ops = next((x for x in c if isinstance(x, Ops)), Ops())
        lbs, ubs = (x for x in c if isinstance(x, ParallelBounds))
        steps = [1] * len(ivs)
        region = None
        for x in c:
            if isinstance(x, ParallelSteps):
                steps = [v for v, _ in x.steps]
                op.attrs["steps"] = ArrayAttr([IntegerAttr(v, None, s) for v, s in x.steps])
            elif isinstance(x, ParallelReductions):
                op.attrs["reductions"] = ArrayAttr([StringAttr(unquote(str(t)), str(t), self.sp(t)) for t in x.kinds])
            elif isinstance(x, list) and not isinstance(x, Ops):
                op.result_types = x
            elif isinstance(x, RegionSyn):
                region = x
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        if "steps" not in op.attrs:
            op.attrs["steps"] = ArrayAttr([IntegerAttr(v) for v in steps])
        if "reductions" not in op.attrs:
            op.attrs["reductions"] = ArrayAttr([])
        if op.result_types is None:
            op.result_types = []
        op.attrs["lowerBoundsMap"] = lbs.map
        op.attrs["lowerBoundsGroups"] = ArrayAttr([IntegerAttr(g) for g in lbs.groups])
        op.attrs["upperBoundsMap"] = ubs.map
        op.attrs["upperBoundsGroups"] = ArrayAttr([IntegerAttr(g) for g in ubs.groups])
        op.attrs["__lb_num_dims"] = IntegerAttr(lbs.num_dims)
        op.attrs["__ub_num_dims"] = IntegerAttr(ubs.num_dims)
        op.operands = list(lbs.operands) + list(ubs.operands)
        op.segments = (len(lbs.operands), len(ubs.operands))
        if region is not None:
            set_entry_args(region, [(n, s, INDEX) for n, s in ivs], self.anchor)
            op.regions = [region]
        return op

    def affine_prefetch(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.prefetch")
        self._access(op, c[1], c[2])
        words = [x for x in c[3:] if type(x) in TOKEN_TYPES and x.type == "BARE_ID"]
        ints = [x for x in c[3:] if type(x) in TOKEN_TYPES and x.type == "INT"]
        rw, _loc_kw, cache = words[0], words[1], words[2]
        op.attrs["isWrite"] = BoolAttr(str(rw) == "write", self.sp(rw))
        op.attrs["localityHint"] = IntegerAttr(int(str(ints[0])), IntegerType(32), self.sp(ints[0]))
        op.attrs["isDataCache"] = BoolAttr(str(cache) == "data", self.sp(cache))
        op.attrs["__rw_word"] = StringAttr(str(rw), str(rw), self.sp(rw))
        op.attrs["__cache_word"] = StringAttr(str(cache), str(cache), self.sp(cache))
        self._trailing(op, c[3:])
        op.result_types = []
        return op

    def affine_dma_start(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.dma_start")
        subs = [x for x in c if isinstance(x, tuple) and len(x) == 3 and isinstance(x[0], AffineMapAttr)]
        ids = [x for x in c if type(x) in TOKEN_TYPES and x.type == "SSA_ID"]
        src, dst, tag = ids[0], ids[1], ids[2]
        rest = ids[3:]
        operands: list[tuple[str, Span]] = []
        segs = []
        for name, (amap, sub_ops, nd), key in ((src, subs[0], "src"), (dst, subs[1], "dst"), (tag, subs[2], "tag")):
            operands.append((str(name), self.sp(name)))
            operands.extend(sub_ops)
            op.attrs[f"{key}_map"] = amap
            op.attrs[f"__{key}_num_dims"] = IntegerAttr(nd)
            segs.append(1 + len(sub_ops))
        operands.extend((str(t), self.sp(t)) for t in rest)
        segs.append(len(rest))
        op.operands = operands
        op.segments = tuple(segs)
        self._trailing(op, c[1:])
        # `: src-type, dst-type, tag-type`; map operands and sizes are index.
        types = list(op.operand_types or [])
        if len(types) != 3:
            raise SyntaxIssue("custom op 'affine.dma_start' expected three types", op.name_span)
        declared: list[Type | None] = []
        for t, n in zip(types, segs[:3], strict=False):
            declared.append(t)
            declared.extend([INDEX] * (n - 1))
        declared.extend([INDEX] * len(rest))
        op.operand_types = declared
        op.result_types = []
        return op

    def affine_dma_wait(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.dma_wait")
        self._access(op, c[1], c[2])
        num: Token = c[3]
        op.operands.append((str(num), self.sp(num)))
        op.attrs["tag_map"] = op.attrs.pop("map")
        self._trailing(op, c[4:])
        op.result_types = []
        return op

    def mixed_list(self, c: list) -> Mixed:
        out = Mixed()
        for x in c:
            if type(x) in TOKEN_TYPES:
                out.append((str(x), self.sp(x)))
            else:
                out.append(x[0])
        return out

    def _mixed(self, op: OpSyn, mixed: Mixed, key: str) -> list[tuple[str, Span]]:
        static = []
        dyn = []
        for x in mixed:
            if isinstance(x, tuple):
                static.append(None)
                dyn.append(x)
            else:
                static.append(x)
        op.attrs[key] = DenseArrayAttr(IntegerType(64), [(-(2**63) if v is None else v) for v in static])
        return dyn

    def affine_delinearize(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.delinearize_index")
        idx: Token = c[1]
        mixed = next((x for x in c if isinstance(x, Mixed)), Mixed())
        dyn = self._mixed(op, mixed, "static_basis")
        op.operands = [(str(idx), self.sp(idx))] + dyn
        op.segments = (1, len(dyn))
        types = next((x for x in c if isinstance(x, list) and not isinstance(x, Mixed | Ops)), [])
        for x in c:
            if isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        op.result_types = list(types)
        op.operand_types = None
        return op

    def affine_linearize(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.linearize_index")
        if type(c[1]) in TOKEN_TYPES and c[1].type == "DISJOINT_KW":
            op.attrs["disjoint"] = UnitAttr(self.sp(c[1]))
        ins: Ops = next(x for x in c if isinstance(x, Ops))
        mixed = next((x for x in c if isinstance(x, Mixed)), Mixed())
        dyn = self._mixed(op, mixed, "static_basis")
        op.operands = list(ins) + dyn
        op.segments = (len(ins), len(dyn))
        for x in c:
            if isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        op.result_types = [x for x in c if isinstance(x, Type)][-1:]
        return op
