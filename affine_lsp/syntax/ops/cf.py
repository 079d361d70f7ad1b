"""Reduce actions of the cf dialect (``cf.br``, ``cf.cond_br``)."""

from __future__ import annotations

from affine_lsp.syntax.nodes import (
    OpSyn,
    SuccSyn,
)
from affine_lsp.syntax.opkit import (
    I1,
)


class CfOps:
    """Mixed into :class:`~affine_lsp.syntax.parser.ChunkTransformer`; ``self`` is the parse's own state."""

    def cf_br(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "cf.br")
        op.successors = [c[1]]
        op.result_types = []
        return op

    def cf_cond_br(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "cf.cond_br")
        op.operands = [(str(c[1]), self.sp(c[1]))]
        op.operand_types = [I1]
        # (`weights([...])` is parsed and not kept: the printer's generic form
        # of cf.cond_br has no operandSegmentSizes, which MLIR then requires.)
        op.successors = [x for x in c[2:] if isinstance(x, SuccSyn)]
        # The condition, then each successor's operands (MLIR's AttrSizedOperandSegments).
        op.segments = (1, *(len(x.operands) for x in op.successors))
        op.result_types = []
        return op

    def branch_weights(self, c: list) -> tuple[str]:
        return ("weights",)
