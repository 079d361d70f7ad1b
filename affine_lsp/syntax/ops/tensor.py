"""Reduce actions of the tensor dialect: ``tensor.empty``, ``dim``, ``extract``, ``insert``
(``grammar/mlir.lark``) and those of ``grammar/tensor.lark`` (slices, reshapes,
from_elements, generate, yield, cast, pad); in MLIR's generic shape."""

from __future__ import annotations

from typing import Any

from affine_lsp.ir.attributes import (
    UnitAttr,
)
from affine_lsp.ir.types import (
    INDEX,
)
from affine_lsp.syntax.nodes import (
    OpSyn,
    RegionSyn,
)
from affine_lsp.syntax.opkit import (
    Mixed,
    Ops,
    is_tok,
)


class TensorOps:
    """Mixed into :class:`~affine_lsp.syntax.parser.ChunkTransformer`."""

    def tensor_empty(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "tensor.empty")
        op.operands = list(next((x for x in c if isinstance(x, Ops)), []))
        self._trailing(op, c[1:])
        op.result_types = list(op.operand_types or [])[:1]
        op.operand_types = [INDEX] * len(op.operands)
        return op

    def tensor_dim(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "tensor.dim")
        op.operands = [(str(c[1]), self.sp(c[1])), (str(c[2]), self.sp(c[2]))]
        self._trailing(op, c[3:])
        op.operand_types = (op.operand_types or [])[:1] + [INDEX]
        op.result_types = [INDEX]
        return op

    def tensor_extract(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "tensor.extract")
        self._indexed(op, c, 1)
        self._trailing(op, c[2:])
        t = op.operand_types[0] if op.operand_types else None
        op.result_types = [getattr(t, "element", None)]
        op.operand_types = [t] + [INDEX] * (len(op.operands) - 1)
        return op

    def tensor_insert(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "tensor.insert")
        self._indexed(op, c, 2)
        self._trailing(op, c[3:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [getattr(t, "element", None), t] + [INDEX] * (len(op.operands) - 2)
        op.result_types = [t]
        return op

    # ---- tensor
    def tensor_extract_slice(self: Any, c: list) -> OpSyn:
        op = self._offsets_sizes_strides(c, "tensor.extract_slice")
        return op

    def tensor_insert_slice(self: Any, c: list) -> OpSyn:
        """tensor.insert_slice / tensor.parallel_insert_slice."""
        op = self._op(c[0], c)
        lists = [x for x in c if isinstance(x, Mixed)]
        dyn: list = []
        segs = [1, 1]
        for key, lst in zip(("static_offsets", "static_sizes", "static_strides"), lists, strict=False):
            d = self._mixed(op, lst, key)
            dyn.extend(d)
            segs.append(len(d))
        op.operands = [(str(c[1]), self.sp(c[1])), (str(c[2]), self.sp(c[2]))] + dyn
        op.segments = tuple(segs)
        self._trailing(op, c[3:])
        types = op.operand_types or []
        op.operand_types = types[:2] + [INDEX] * len(dyn)
        op.result_types = types[1:2] if op.name == "tensor.insert_slice" else []
        return op

    def tensor_from_elements(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "tensor.from_elements")
        op.operands = list(next((x for x in c if isinstance(x, Ops)), []))
        self._trailing(op, c[1:])
        t = (op.operand_types or [None])[0]
        op.result_types = [t]
        op.operand_types = [getattr(t, "element", None)] * len(op.operands)
        return op

    def tensor_generate(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "tensor.generate")
        op.operands = list(next((x for x in c if isinstance(x, Ops)), []))
        op.regions = [x for x in c if isinstance(x, RegionSyn)]
        self._trailing(op, c[1:])
        op.result_types = (op.operand_types or [])[:1]
        op.operand_types = [INDEX] * len(op.operands)
        return op

    def tensor_yield(self: Any, c: list) -> OpSyn:
        return self._one_operand_no_result(c, "tensor.yield")

    def tensor_cast(self: Any, c: list) -> OpSyn:
        return self._cast_like(c, "tensor.cast")

    def tensor_pad(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "tensor.pad")
        low, high = [x for x in c if isinstance(x, Mixed)]
        dyn_low = self._mixed(op, low, "static_low")
        dyn_high = self._mixed(op, high, "static_high")
        op.operands = [(str(c[1]), self.sp(c[1]))] + dyn_low + dyn_high
        op.segments = (1, len(dyn_low), len(dyn_high))
        for x in c[2:]:
            if is_tok(x, "NOFOLD_KW"):
                op.attrs["nofold"] = UnitAttr(self.sp(x))
            elif isinstance(x, RegionSyn):
                op.regions = [x]
        self._trailing(op, c[2:])
        types = op.operand_types or []
        op.operand_types = types[:1] + [INDEX] * (len(op.operands) - 1)
        op.result_types = types[1:2]
        return op

    def tensor_reshape(self: Any, c: list) -> OpSyn:
        return self._reshape(c)
