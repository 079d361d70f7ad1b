"""Reduce actions of the ub dialect (``ub.poison``)."""

from __future__ import annotations

from affine_lsp.syntax.nodes import (
    OpSyn,
)


class UbOps:
    """Mixed into :class:`~affine_lsp.syntax.parser.ChunkTransformer`; ``self`` is the parse's own state."""

    def ub_poison(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "ub.poison")
        self._trailing(op, c[1:])
        op.result_types = list(op.operand_types or [])[:1]
        op.operand_types = []
        return op
