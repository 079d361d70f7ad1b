"""Reduce actions of ``grammar/scf.lark``: scf.while, scf.condition,
scf.execute_region, scf.index_switch, scf.forall, scf.forall.in_parallel,
each built in MLIR's generic shape (the shape ``mlir-opt
--mlir-print-op-generic`` prints)."""

from __future__ import annotations

from typing import Any

from affine_lsp.ir.attributes import (
    DenseArrayAttr,
    DictAttr,
    UnitAttr,
)
from affine_lsp.ir.core import Span
from affine_lsp.ir.types import (
    INDEX,
    FunctionType,
    IntegerType,
    Type,
)
from affine_lsp.syntax.nodes import (
    OpSyn,
    RegionSyn,
)
from affine_lsp.syntax.opkit import (
    I1,
    TOKEN_TYPES,
    IterArgs,
    Mixed,
    Ops,
    is_tok,
    set_entry_args,
)

I64 = IntegerType(64)
DYNAMIC = -(2**63)  # ShapedType::kDynamic in static_* arrays


class ScfOps:
    """Mixed into :class:`~affine_lsp.syntax.parser.ChunkTransformer`."""

    def scf_for(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "scf.for")
        ids = [x for x in c[1:] if type(x) in TOKEN_TYPES and x.type == "SSA_ID"]
        iv, lb, ub, st = ids[:4]
        iv_type: Type = INDEX
        iter_names: list = []
        inits: list = []
        res_types: list = []
        for x in c[1:]:
            if isinstance(x, IterArgs):
                for a, asp, init, isp in x.pairs:
                    iter_names.append((a, asp))
                    inits.append((init, isp))
                res_types = x.types
            elif isinstance(x, Type):
                iv_type = x
            elif isinstance(x, RegionSyn):
                set_entry_args(x, [(str(iv), self.sp(iv), iv_type)] + [(n, s, t) for (n, s), t in zip(iter_names, res_types, strict=False)], self.anchor)
                op.regions = [x]
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        op.operands = [(str(t), self.sp(t)) for t in (lb, ub, st)] + inits
        op.operand_types = [iv_type] * 3 + list(res_types)
        op.result_types = list(res_types)
        return op

    def scf_if(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "scf.if")
        op.operands = [(str(c[1]), self.sp(c[1]))]
        op.operand_types = [I1]
        op.result_types = []
        for x in c[2:]:
            if isinstance(x, list):
                op.result_types = x
            elif isinstance(x, RegionSyn):
                op.regions.append(x)
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        if len(op.regions) == 1:
            op.regions.append(RegionSyn(Span(op.span.rel_end, op.span.rel_end, self.anchor), []))
        return op

    def scf_yield(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "scf.yield")
        self._simple_operands(op, c[1:])
        op.result_types = []
        return op

    def scf_parallel(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "scf.parallel")
        lists = [x for x in c if isinstance(x, Ops)]
        ivs = lists[0]
        rest = lists[1:]
        op.operands = [o for lst in rest for o in lst]
        op.segments = tuple(len(lst) for lst in rest) + ((0,) if len(rest) == 3 else ())
        op.result_types = []
        for x in c:
            if isinstance(x, list) and not isinstance(x, Ops):
                op.result_types = x
            elif isinstance(x, RegionSyn):
                set_entry_args(x, [(n, s, INDEX) for n, s in ivs], self.anchor)
                op.regions = [x]
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        return op

    def scf_reduce(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "scf.reduce")
        for x in c[1:]:
            if isinstance(x, Ops):
                op.operands = list(x)
            elif isinstance(x, list) and x and isinstance(x[0], RegionSyn):
                op.regions = x
            elif isinstance(x, list):
                op.operand_types = x
        op.result_types = []
        return op

    def reduce_regions(self, c: list) -> list[RegionSyn]:
        return c

    def scf_reduce_return(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "scf.reduce.return")
        op.operands = [(str(c[1]), self.sp(c[1]))]
        op.operand_types = [c[-1]]
        op.result_types = []
        return op

    def scf_while(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "scf.while")
        inits: list = []
        ftype: FunctionType | None = None
        for x in c[1:]:
            if isinstance(x, tuple) and x[0] == "inits":
                inits = x[1]
            elif isinstance(x, FunctionType):
                ftype = x
            elif isinstance(x, RegionSyn):
                op.regions.append(x)
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        ins = list(ftype.inputs) if ftype is not None else []
        op.operands = [(init, isp) for _, _, init, isp in inits]
        op.operand_types = ins
        op.result_types = list(ftype.results) if ftype is not None else []
        if op.regions:  # the `before` region's arguments are the assigned names
            set_entry_args(op.regions[0], [(a, asp, t) for (a, asp, _, _), t in zip(inits, ins, strict=False)], self.anchor)
        return op

    def while_inits(self: Any, c: list) -> tuple:
        return ("inits", [x for x in c if isinstance(x, tuple)])

    def scf_condition(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "scf.condition")
        op.operands = [(str(c[2]), self.sp(c[2]))]
        types: list[Type | None] = [I1]
        for x in c[4:]:
            if isinstance(x, Ops):
                op.operands.extend(x)
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
            elif isinstance(x, list):
                types.extend(x)
        op.operand_types = types
        op.result_types = []
        return op

    def scf_execute_region(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "scf.execute_region")
        op.result_types = []
        for x in c[1:]:
            if is_tok(x, "NO_INLINE_KW"):
                op.attrs["no_inline"] = UnitAttr(self.sp(x))
            elif isinstance(x, RegionSyn):
                op.regions = [x]
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
            elif isinstance(x, list):
                op.result_types = list(x)
        return op

    def scf_index_switch(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "scf.index_switch")
        op.operands = [(str(c[1]), self.sp(c[1]))]
        op.operand_types = [INDEX]
        op.result_types = []
        cases: list[int] = []
        case_regions: list[RegionSyn] = []
        for x in c[2:]:
            if isinstance(x, tuple) and x[0] == "case":
                cases.append(x[1])
                case_regions.append(x[2])
            elif isinstance(x, RegionSyn):  # `default`
                op.regions = [x] + case_regions
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
            elif isinstance(x, list):
                op.result_types = list(x)
        op.attrs["cases"] = DenseArrayAttr(I64, cases)
        return op

    def switch_case(self: Any, c: list) -> tuple:
        return ("case", c[0][0], c[1])

    def scf_forall(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "scf.forall")
        ivs: Ops = c[2]
        rng = c[4]
        n = len(ivs)
        lb, ub, step = rng[1] or Mixed([0] * n), rng[2], rng[3] or Mixed([1] * n)
        dyn = [self._mixed(op, lst, key) for key, lst in (("staticLowerBound", lb), ("staticUpperBound", ub), ("staticStep", step))]
        shared: list = []
        res_types: list = []
        for x in c[5:]:
            if isinstance(x, tuple) and x[0] == "shared":
                shared, res_types = x[1], list(x[2])
            elif isinstance(x, RegionSyn):
                op.regions = [x]
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        outs = [(init, isp) for _, _, init, isp in shared]
        op.operands = dyn[0] + dyn[1] + dyn[2] + outs
        op.segments = (len(dyn[0]), len(dyn[1]), len(dyn[2]), len(outs))
        op.operand_types = [INDEX] * (len(op.operands) - len(outs)) + res_types
        op.result_types = res_types
        if op.regions:
            args = [(name, sp, INDEX) for name, sp in ivs] + [(a, asp, t) for (a, asp, _, _), t in zip(shared, res_types, strict=False)]
            set_entry_args(op.regions[0], args, self.anchor)
        return op

    def forall_in(self: Any, c: list) -> tuple:
        return ("range", None, c[1], None)

    def forall_bounds(self: Any, c: list) -> tuple:
        lists = [x for x in c if isinstance(x, Mixed)]
        return ("range", lists[0], lists[1], lists[2])

    def shared_outs(self: Any, c: list) -> tuple:
        return ("shared", [x for x in c if isinstance(x, tuple)], c[-1])

    def scf_in_parallel(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "scf.forall.in_parallel")
        op.regions = [c[1]]
        if len(c) > 2 and isinstance(c[2], DictAttr):
            op.attrs.update(c[2].entries)
        op.result_types = []
        return op
