"""Reduce actions of ``grammar/bufferization.lark`` (to_tensor, to_buffer, alloc_tensor,
materialize_in_destination); in MLIR's generic shape."""

from __future__ import annotations

from typing import Any

from affine_lsp.ir.attributes import UnitAttr
from affine_lsp.ir.types import INDEX
from affine_lsp.syntax.nodes import OpSyn
from affine_lsp.syntax.opkit import Ops, is_tok


class BufferizationOps:
    """Reduce actions of ``grammar/bufferization.lark``."""

    def _flagged(self: Any, op: OpSyn, items: list) -> None:
        for x in items:
            if is_tok(x, "BUFFER_FLAG_KW") or is_tok(x, "READ_ONLY_KW"):
                op.attrs[str(x)] = UnitAttr(self.sp(x))

    def bufferization_to_tensor(self: Any, c: list) -> OpSyn:
        op = self._cast_like(c, "bufferization.to_tensor")
        self._flagged(op, c)
        return op

    def bufferization_to_buffer(self: Any, c: list) -> OpSyn:
        op = self._cast_like(c, "bufferization.to_buffer")
        self._flagged(op, c)
        return op

    def bufferization_alloc_tensor(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "bufferization.alloc_tensor")
        dyn = list(next((x for x in c if isinstance(x, Ops)), []))
        copy = [x[1] for x in c if isinstance(x, tuple) and x[0] == "copy"]
        hint = [x[1] for x in c if isinstance(x, tuple) and x[0] == "size_hint"]
        op.operands = dyn + copy + hint
        op.segments = (len(dyn), len(copy), len(hint))
        self._trailing(op, c[1:])
        t = (op.operand_types or [None])[0]
        op.result_types = [t]
        op.operand_types = [INDEX] * len(dyn) + [t] * len(copy) + [INDEX] * len(hint)
        return op

    def alloc_copy(self: Any, c: list) -> tuple:
        return ("copy", (str(c[1]), self.sp(c[1])), self.span_of(c[0], c[-1]))

    def alloc_size_hint(self: Any, c: list) -> tuple:
        return ("size_hint", (str(c[0]), self.sp(c[0])), self.sp(c[0]))

    def bufferization_materialize(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "bufferization.materialize_in_destination")
        ids = [x for x in c[1:] if is_tok(x, "SSA_ID")]
        op.operands = [(str(x), self.sp(x)) for x in ids]
        self._flagged(op, c)
        self._dict_and_signature(op, c)
        return op
