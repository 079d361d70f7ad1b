"""Reduce actions of ``grammar/transform.lark`` (the named sequence that holds a transform
script, and its yield)."""

from __future__ import annotations

from typing import Any

from affine_lsp.syntax.nodes import OpSyn


class TransformOps:
    """Reduce actions of ``grammar/transform.lark``."""

    def transform_named_sequence(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "transform.named_sequence")
        self._function_parts(op, c[1:])
        return op

    def transform_yield(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "transform.yield")
        self._simple_operands(op, c[1:])
        op.result_types = []
        return op
