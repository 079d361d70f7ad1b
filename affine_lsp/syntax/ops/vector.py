"""Reduce actions of ``grammar/vector.lark``: vector.contract, transpose,
bitcast, from_elements, extract/insert_strided_slice, shuffle,
outerproduct, step; in MLIR's generic shape."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from affine_lsp.ir.attributes import (
    DenseArrayAttr,
    DictAttr,
    OpaqueAttr,
    StringAttr,
)
from affine_lsp.ir.types import (
    INDEX,
    IntegerType,
    TensorType,
    VectorType,
)
from affine_lsp.syntax.nodes import (
    OpSyn,
)
from affine_lsp.syntax.opkit import (
    TOKEN_TYPES,
    Mixed,
    Ops,
    unquote,
)

I64 = IntegerType(64)


if TYPE_CHECKING:
    from lark import Token


class VectorOps:
    """Mixed into :class:`~affine_lsp.syntax.parser.ChunkTransformer`."""

    def vector_transfer_read(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.transfer_read")
        ids = [x for x in c[1:] if type(x) in TOKEN_TYPES and x.type == "SSA_ID"]
        idx = next((x for x in c if isinstance(x, Ops)), Ops())
        op.operands = [(str(ids[0]), self.sp(ids[0]))] + list(idx) + [(str(x), self.sp(x)) for x in ids[1:]]
        op.segments = (1, len(idx), 1, len(ids) - 2)
        self._trailing(op, c[2:])
        types = op.operand_types or []
        src_t = types[0] if types else None
        elem = getattr(src_t, "element", None)
        op.operand_types = [src_t] + [INDEX] * len(idx) + [elem] + ([None] * (len(ids) - 2))
        op.result_types = types[1:2]
        return op

    def vector_transfer_write(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.transfer_write")
        ids = [x for x in c[1:] if type(x) in TOKEN_TYPES and x.type == "SSA_ID"]
        idx = next((x for x in c if isinstance(x, Ops)), Ops())
        op.operands = [(str(ids[0]), self.sp(ids[0])), (str(ids[1]), self.sp(ids[1]))] + list(idx)
        op.operands += [(str(x), self.sp(x)) for x in ids[2:]]
        op.segments = (1, 1, len(idx), len(ids) - 2)
        self._trailing(op, c[3:])
        types = op.operand_types or []
        vec_t = types[0] if types else None
        dst_t = types[1] if len(types) > 1 else None
        op.operand_types = [vec_t, dst_t] + [INDEX] * len(idx) + [None] * (len(ids) - 2)
        op.result_types = [dst_t] if isinstance(dst_t, TensorType) else []
        return op

    def vector_broadcast(self, c: list) -> OpSyn:
        return self._cast_like(c, "vector.broadcast")

    def vector_shape_cast(self, c: list) -> OpSyn:
        return self._cast_like(c, "vector.shape_cast")

    def vector_reduction(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.reduction")
        kind: Token = c[1]
        op.attrs["kind"] = OpaqueAttr(f"#vector.kind<{kind}>", None, self.sp(kind))
        ids = [x for x in c[2:] if type(x) in TOKEN_TYPES and x.type == "SSA_ID"]
        op.operands = [(str(x), self.sp(x)) for x in ids]
        self._flags(op, c)
        self._trailing(op, c[2:])
        types = op.operand_types or []
        vec_t = types[0] if types else None
        res_t = types[1] if len(types) > 1 else None
        op.operand_types = [vec_t] + [res_t] * (len(ids) - 1)
        op.result_types = [res_t]
        return op

    def vector_splat(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.splat")
        op.operands = [(str(c[1]), self.sp(c[1]))]
        self._trailing(op, c[2:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [getattr(t, "element", None)]
        op.result_types = [t]
        return op

    def vector_load(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.load")
        self._indexed(op, c, 1)
        self._trailing(op, c[2:])
        types = op.operand_types or []
        op.operand_types = types[:1] + [INDEX] * (len(op.operands) - 1)
        op.result_types = types[1:2]
        return op

    def vector_store(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.store")
        self._indexed(op, c, 2)
        self._trailing(op, c[3:])
        types = op.operand_types or []
        op.operand_types = types[1:2] + types[:1] + [INDEX] * (len(op.operands) - 2)
        op.result_types = []
        return op

    def vector_create_mask(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.create_mask")
        op.operands = list(c[1])
        self._trailing(op, c[2:])
        op.result_types = list(op.operand_types or [])[:1]
        op.operand_types = [INDEX] * len(op.operands)
        return op

    def vector_constant_mask(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.constant_mask")
        mixed = next(x for x in c if isinstance(x, Mixed))
        op.attrs["mask_dim_sizes"] = DenseArrayAttr(IntegerType(64), [x for x in mixed if isinstance(x, int)])
        self._trailing(op, c[2:])
        op.result_types = list(op.operand_types or [])[:1]
        op.operand_types = []
        return op

    def vector_maskedload(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.maskedload")
        ids = [x for x in c[1:] if type(x) in TOKEN_TYPES and x.type == "SSA_ID"]
        idx = next((x for x in c if isinstance(x, Ops)), Ops())
        op.operands = [(str(ids[0]), self.sp(ids[0]))] + list(idx) + [(str(x), self.sp(x)) for x in ids[1:]]
        self._trailing(op, c[2:])
        types = op.operand_types or []
        op.operand_types = types[:1] + [INDEX] * len(idx) + types[1:3]
        op.result_types = types[3:4]
        return op

    def vector_maskedstore(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.maskedstore")
        ids = [x for x in c[1:] if type(x) in TOKEN_TYPES and x.type == "SSA_ID"]
        idx = next((x for x in c if isinstance(x, Ops)), Ops())
        op.operands = [(str(ids[0]), self.sp(ids[0]))] + list(idx) + [(str(x), self.sp(x)) for x in ids[1:]]
        self._trailing(op, c[2:])
        types = op.operand_types or []
        op.operand_types = types[:1] + [INDEX] * len(idx) + types[1:3]
        op.result_types = []
        return op

    def vector_extract(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.extract")
        mixed = next(x for x in c if isinstance(x, Mixed))
        dyn = self._mixed(op, mixed, "static_position")
        op.operands = [(str(c[1]), self.sp(c[1]))] + dyn
        self._trailing(op, c[2:])
        types = op.operand_types or []
        op.operand_types = types[1:2] + [INDEX] * len(dyn)
        op.result_types = types[:1]
        return op

    def vector_insert(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.insert")
        mixed = next(x for x in c if isinstance(x, Mixed))
        dyn = self._mixed(op, mixed, "static_position")
        op.operands = [(str(c[1]), self.sp(c[1])), (str(c[2]), self.sp(c[2]))] + dyn
        self._trailing(op, c[3:])
        types = op.operand_types or []
        op.operand_types = types[:2] + [INDEX] * len(dyn)
        op.result_types = types[1:2]
        return op

    def vector_print(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.print")
        if len(c) > 1 and type(c[1]) in TOKEN_TYPES and c[1].type == "SSA_ID":
            op.operands = [(str(c[1]), self.sp(c[1]))]
            self._trailing(op, c[2:])
        elif len(c) > 1:  # `vector.print` alone prints a newline
            op.attrs["stringLiteral"] = StringAttr(unquote(str(c[-1])), str(c[-1]), self.sp(c[-1]))
        op.result_types = []
        return op

    def vector_fma(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.fma")
        op.operands = [(str(x), self.sp(x)) for x in c[1:4]]
        self._trailing(op, c[4:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [t, t, t]
        op.result_types = [t]
        return op

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
