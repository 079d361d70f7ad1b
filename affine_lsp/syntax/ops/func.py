"""Reduce actions of the func dialect (``func.func``, ``func.return``, ``func.call``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from affine_lsp.ir.attributes import (
    ArrayAttr,
    DictAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
)
from affine_lsp.ir.types import (
    FunctionType,
    Type,
)
from affine_lsp.syntax.nodes import (
    OpSyn,
    RegionSyn,
)
from affine_lsp.syntax.opkit import (
    TOKEN_TYPES,
    ArgsHolder,
    Ops,
    set_entry_args,
    unquote,
)

if TYPE_CHECKING:
    from lark import Token


class FuncOps:
    """Mixed into :class:`~affine_lsp.syntax.parser.ChunkTransformer`; ``self`` is the parse's own state."""

    def func_op(self, c: list) -> OpSyn:
        kw: Token = c[0]
        op = self._op(kw, c, "func.func")
        if str(kw) == "func":
            self.note(
                "warning",
                "'func' is legacy syntax; the modern form is 'func.func'",
                self.sp(kw),
                code="legacy-func",
                data={"replacement": "func.func"},
            )
        self._function_parts(op, c[1:])
        return op

    def _function_parts(self, op: OpSyn, items: Sequence[Any], extra_args: Sequence[tuple] = ()) -> None:
        """The parts of a function-like op (func.func, gpu.func, llvm.func,
        transform.named_sequence): visibility, name, signature, attributes
        and body, whose entry block gets the arguments (then ``extra_args``)."""
        for x in items:
            if type(x) in TOKEN_TYPES and x.type == "VISIBILITY":
                op.attrs["sym_visibility"] = StringAttr(str(x), f'"{x}"', self.sp(x))
            elif type(x) in TOKEN_TYPES and x.type == "SYMBOL_REF":
                op.attrs["sym_name"] = StringAttr(unquote(str(x)[1:]), str(x), self.sp(x))
            elif isinstance(x, tuple) and x[0] == "sig":
                _, args, results, arg_attrs, res_attrs, _sp = x
                op.attrs["function_type"] = TypeAttr(FunctionType([t for _, _, t in args], results))
                op.attrs["__args"] = ArgsHolder(args)
                if any(arg_attrs):
                    op.attrs["arg_attrs"] = ArrayAttr([a or DictAttr({}) for a in arg_attrs])
                if any(res_attrs):
                    op.attrs["res_attrs"] = ArrayAttr([a or DictAttr({}) for a in res_attrs])
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
            elif isinstance(x, RegionSyn):
                args = op.attrs["__args"].args  # type: ignore[attr-defined]
                if (x.blocks and x.blocks[0].label is None) or not x.blocks:
                    set_entry_args(x, list(args) + list(extra_args), self.anchor)
                op.regions = [x]
        if not op.regions:
            op.regions = []
        op.result_types = []

    def func_signature(self, c: list) -> tuple:
        args: list = []
        arg_attrs: list = []
        results: list[Type] = []
        res_attrs: list = []
        for x in c:
            if isinstance(x, tuple) and x[0] == "args":
                for name, sp, t, a in x[1]:
                    args.append((name, sp, t))
                    arg_attrs.append(a)
            elif isinstance(x, tuple) and x[0] == "results":
                for t, a in x[1]:
                    results.append(t)
                    res_attrs.append(a)
        # The span gives `()` a position when there are no args and no results.
        return ("sig", args, results, arg_attrs, res_attrs, self.span_of(c[0], c[-1]))

    def func_args(self, c: list) -> tuple[str, list]:
        return ("args", c)

    def named_arg(self, c: list) -> tuple:
        attrs = next((x for x in c if isinstance(x, DictAttr)), None)
        return (str(c[0]), self.sp(c[0]), c[2], attrs)

    def anon_arg(self, c: list) -> tuple:
        attrs = next((x for x in c[1:] if isinstance(x, DictAttr)), None)
        return (None, None, c[0], attrs)

    def func_results(self, c: list) -> tuple[str, list]:
        items = [x for x in c if type(x) not in TOKEN_TYPES]
        out = []
        for x in items:
            if isinstance(x, tuple):
                out.append(x)
            else:
                out.append((x, None))
        return ("results", out, self.span_of(c[0], c[-1]))  # the span: `-> ()` has no type to take it from

    def func_result(self, c: list) -> tuple:
        return (c[0], c[1] if len(c) > 1 else None)

    def func_return(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "func.return")
        self._simple_operands(op, c[1:])
        op.result_types = []
        return op

    def func_call(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "func.call")
        op.attrs["callee"] = SymbolRefAttr(str(c[1]), self.sp(c[1]))
        for x in c[2:]:
            if isinstance(x, Ops):
                op.operands = list(x)
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
            elif isinstance(x, FunctionType):
                op.operand_types = list(x.inputs)
                op.result_types = list(x.results)
        return op
