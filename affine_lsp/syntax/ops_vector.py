"""Reduce actions of ``grammar/vector.lark``: vector.contract, transpose,
bitcast, from_elements, extract/insert_strided_slice, shuffle,
outerproduct, step; in MLIR's generic shape."""

from __future__ import annotations

from typing import Any

from affine_lsp.ir.attributes import DenseArrayAttr, DictAttr
from affine_lsp.ir.types import IntegerType, VectorType
from affine_lsp.syntax.nodes import OpSyn
from affine_lsp.syntax.opkit import Mixed

I64 = IntegerType(64)


class VectorOps:
    """Mixed into :class:`~affine_lsp.syntax.parser.ChunkTransformer`."""

    def vector_contract(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.contract")
        op.operands = list(c[2])
        self._trailing(op, c[1:])
        types = op.operand_types or []
        # `: lhs, rhs into acc`: the accumulator has the result's type.
        op.operand_types = types[:2] + types[2:3] + [None] * (len(op.operands) - 3)
        op.result_types = types[2:3]
        return op

    def vector_transpose(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.transpose")
        op.operands = [(str(c[1]), self.sp(c[1]))]
        perm = next(x for x in c if isinstance(x, Mixed))
        op.attrs["permutation"] = DenseArrayAttr(I64, [x for x in perm if isinstance(x, int)])
        self._trailing(op, c[2:])
        types = op.operand_types or []
        op.operand_types = types[:1]
        op.result_types = types[1:2]
        return op

    def vector_to_op(self: Any, c: list) -> OpSyn:
        return self._cast_like(c, str(c[0]))

    def vector_strided_slice(self: Any, c: list) -> OpSyn:
        return self._cast_like(c, "vector.extract_strided_slice")

    def vector_insert_strided(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.insert_strided_slice")
        op.operands = [(str(c[1]), self.sp(c[1])), (str(c[2]), self.sp(c[2]))]
        self._trailing(op, c[3:])
        types = op.operand_types or []
        op.operand_types = types[:2]
        op.result_types = types[1:2]
        return op

    def vector_from_elements(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.from_elements")
        op.operands = list(c[1])
        self._trailing(op, c[2:])
        t = (op.operand_types or [None])[0]
        op.result_types = [t]
        op.operand_types = [getattr(t, "element", None)] * len(op.operands)
        return op

    def vector_shuffle(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.shuffle")
        op.operands = [(str(c[1]), self.sp(c[1])), (str(c[2]), self.sp(c[2]))]
        mask = next(x for x in c if isinstance(x, Mixed))
        idx = [x for x in mask if isinstance(x, int)]
        op.attrs["mask"] = DenseArrayAttr(I64, idx)
        self._trailing(op, c[3:])
        types = op.operand_types or []
        v1 = types[0] if types else None
        op.operand_types = types[:2]
        # The result: len(mask) elements (the leading dimension), the rest of v1's shape.
        if isinstance(v1, VectorType):
            op.result_types = [VectorType([len(idx), *v1.shape[1:]], v1.element)]
        else:
            op.result_types = [VectorType([len(idx)], v1) if v1 is not None else None]
        return op

    def vector_outerproduct(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.outerproduct")
        op.operands = list(c[1])
        for x in c[2:]:
            if isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        self._trailing(op, c[2:])
        lhs, rhs = (op.operand_types or [None, None])[:2]
        elem = getattr(lhs, "element", None)
        if isinstance(lhs, VectorType) and isinstance(rhs, VectorType):
            res = VectorType([lhs.shape[0], rhs.shape[0]], elem)
        else:  # an AXPY: vector times scalar
            res = lhs
        op.operand_types = [lhs, rhs] + [res] * (len(op.operands) - 2)
        op.result_types = [res]
        return op

    def vector_step(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.step")
        self._trailing(op, c[1:])
        op.result_types = list(op.operand_types or [])[:1]
        op.operand_types = []
        return op
