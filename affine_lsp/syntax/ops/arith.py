"""Reduce actions of the arith and math dialects (constants, binary/unary ops, comparisons,
select, casts, fma, flags and rounding modes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from affine_lsp.ir.attributes import (
    Attribute,
    BoolAttr,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
)
from affine_lsp.ir.core import Span
from affine_lsp.ir.types import (
    TensorType,
    VectorType,
)
from affine_lsp.syntax.nodes import (
    OpSyn,
)
from affine_lsp.syntax.opkit import (
    I1,
    I32,
    ROUNDING_MODES,
    TOKEN_TYPES,
    SyntaxIssue,
)

if TYPE_CHECKING:
    from lark import Token


class ArithOps:
    """Mixed into :class:`~affine_lsp.syntax.parser.ChunkTransformer`; ``self`` is the parse's own state."""

    def arith_constant(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "arith.constant")
        attr: Attribute = c[1]
        op.attrs["value"] = attr
        t = getattr(attr, "type", None)
        if isinstance(attr, BoolAttr):
            t = I1
        # `2.0 : f32`: the attribute's span is the literal; the op ends after its type.
        ts = getattr(t, "span", None)
        if isinstance(ts, Span) and ts.anchor is op.span.anchor and ts.rel_end > op.span.rel_end:
            op.span = Span(op.span.rel_start, ts.rel_end, op.span.anchor)
        op.result_types = [t]
        op.operand_types = []
        return op

    def _flags(self, op: OpSyn, rest: Sequence[Any]) -> None:
        for x in rest:
            if isinstance(x, tuple) and x and x[0] == "flags":
                op.attrs[x[1]] = OpaqueAttr(x[2], None, x[3])

    def op_flags(self, c: list) -> tuple:
        kw = str(c[0])
        words = [str(x) for x in c[1:] if type(x) in TOKEN_TYPES and x.type == "BARE_ID"]
        key = "overflowFlags" if kw == "overflow" else "fastmath"
        return ("flags", key, f"#arith.{kw}<{','.join(words)}>", self.span_of(c[0], c[-1]))

    def arith_binary(self, c: list) -> OpSyn:
        op = self._op(c[0], c)
        op.operands = [(str(c[1]), self.sp(c[1])), (str(c[2]), self.sp(c[2]))]
        self._flags(op, c)
        self._trailing(op, c[3:])
        types = op.operand_types or []
        t = types[0] if types else None
        op.operand_types = [t, types[1] if len(types) > 1 else t]  # `math.fpowi %x, %n : f32, i32`
        op.result_types = [t]
        return op

    def arith_extended(self, c: list) -> OpSyn:
        """``arith.addui_extended %a, %b : i32, i1`` (sum, overflow) and
        ``arith.mul[su]i_extended %a, %b : i32`` (low, high)."""
        op = self._op(c[0], c)
        op.operands = [(str(c[1]), self.sp(c[1])), (str(c[2]), self.sp(c[2]))]
        self._trailing(op, c[3:])
        types = op.operand_types or []
        t = types[0] if types else None
        op.operand_types = [t, t]
        op.result_types = [t, types[1] if len(types) > 1 else t]
        return op

    def math_sincos(self, c: list) -> OpSyn:
        """``%s, %c = math.sincos %x : f32``: two results of the operand's type."""
        op = self._op(c[0], c, "math.sincos")
        op.operands = [(str(c[1]), self.sp(c[1]))]
        self._flags(op, c)
        self._trailing(op, c[2:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [t]
        op.result_types = [t, t]
        return op

    def math_predicate(self, c: list) -> OpSyn:
        """``math.isnan %x : f32`` (an i1, or a vector of i1, per element)."""
        op = self._op(c[0], c)
        op.operands = [(str(c[1]), self.sp(c[1]))]
        self._flags(op, c)
        self._trailing(op, c[2:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [t]
        op.result_types = [VectorType(t.shape, I1, t.scalable) if isinstance(t, VectorType) else I1]
        return op

    def arith_unary(self, c: list) -> OpSyn:
        op = self._op(c[0], c)
        op.operands = [(str(c[1]), self.sp(c[1]))]
        self._flags(op, c)
        self._trailing(op, c[2:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [t]
        op.result_types = [t]
        return op

    def arith_fma(self, c: list) -> OpSyn:
        op = self._op(c[0], c)
        op.operands = [(str(x), self.sp(x)) for x in c[1:4]]
        self._flags(op, c)
        self._trailing(op, c[4:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [t, t, t]
        op.result_types = [t]
        return op

    def arith_cmp(self, c: list) -> OpSyn:
        op = self._op(c[0], c)
        pred: Token = c[1]
        op.attrs["predicate"] = StringAttr(str(pred), str(pred), self.sp(pred))
        op.operands = [(str(c[2]), self.sp(c[2])), (str(c[3]), self.sp(c[3]))]
        self._flags(op, c)
        self._trailing(op, c[4:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [t, t]
        if isinstance(t, VectorType):
            op.result_types = [VectorType(t.shape, I1, t.scalable)]
        elif isinstance(t, TensorType):
            op.result_types = [TensorType(t.shape, I1)]
        else:
            op.result_types = [I1]
        return op

    def arith_select(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "arith.select")
        op.operands = [(str(x), self.sp(x)) for x in c[1:4]]
        self._trailing(op, c[4:])
        types = op.operand_types or []
        if len(types) == 2:
            cond_t, t = types
        else:
            cond_t, t = I1, (types[0] if types else None)
        op.operand_types = [cond_t, t, t]
        op.result_types = [t]
        return op

    def arith_cast(self, c: list) -> OpSyn:
        op = self._op(c[0], c)
        op.operands = [(str(c[1]), self.sp(c[1]))]
        rest = c[2:]
        if rest and type(rest[0]) in TOKEN_TYPES and rest[0].type == "BARE_ID":  # `arith.truncf %x to_nearest_even`
            mode = ROUNDING_MODES.get(str(rest[0]))
            if mode is None:
                raise SyntaxIssue(
                    f"expected one of [to_nearest_even, downward, upward, toward_zero, to_nearest_away] for rounding mode, got: {rest[0]}", self.sp(rest[0])
                )
            op.attrs["roundingmode"] = IntegerAttr(mode, I32, self.sp(rest[0]))  # an I32EnumAttr
            rest = rest[1:]
        self._flags(op, c)
        self._trailing(op, rest)
        types = op.operand_types or []
        op.operand_types = types[:1]
        op.result_types = types[1:2]
        return op
