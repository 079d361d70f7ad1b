"""Reduce actions of ``grammar/linalg.lark``: linalg.generic, the named
structured ops (fill, matmul, ...), map, reduce, transpose, broadcast,
yield and index. Operands are ``ins`` then ``outs`` (two segments); the
results are the ``-> types`` written, or for map/reduce/transpose/broadcast
the ``outs`` that are tensors; the region arguments written after ``outs``
(map, reduce) are defined in the region."""

from __future__ import annotations

from typing import Any

from affine_lsp.ir.attributes import DenseArrayAttr, DictAttr, IntegerAttr
from affine_lsp.ir.types import INDEX, IntegerType, TensorType, Type, UnrankedTensorType
from affine_lsp.syntax.nodes import AliasRef, OpSyn, RegionSyn
from affine_lsp.syntax.opkit import Ops, is_tok, set_entry_args

I64 = IntegerType(64)


class LinalgOps:
    """Mixed into :class:`~affine_lsp.syntax.parser.ChunkTransformer`."""

    def _structured(self: Any, op: OpSyn, items: list, segmented: bool = True) -> list[Type | None]:
        """ins/outs, attribute dictionaries, `-> types`, region arguments and
        region of a structured op; returns the types of the ``outs``.
        ``segmented``: the op has ``operandSegmentSizes`` (generic and named
        ops; map, reduce, transpose and broadcast have not)."""
        groups: dict[str, tuple[list, list]] = {"ins": ([], []), "outs": ([], [])}
        region_args: list | None = None
        op.result_types = []
        for x in items:
            if isinstance(x, tuple) and x[0] in groups:
                groups[x[0]] = (x[1], x[2])  # (operands, types, span)
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
            elif isinstance(x, RegionSyn):
                op.regions = [x]
            elif isinstance(x, tuple) and x[0] == "nattr":
                op.attrs[x[1]] = x[2]
            elif isinstance(x, list) and x and isinstance(x[0], tuple):
                region_args = x
            elif isinstance(x, list) and not isinstance(x, Ops):
                op.result_types = list(x)
        ins, outs = groups["ins"], groups["outs"]
        op.operands = list(ins[0]) + list(outs[0])
        op.operand_types = list(ins[1]) + list(outs[1])
        op.segments = (len(ins[0]), len(outs[0])) if segmented else None
        if region_args is not None and op.regions:
            set_entry_args(op.regions[0], region_args, self.anchor)
        return list(outs[1])

    def linalg_ins(self: Any, c: list) -> tuple:
        ops = next((x for x in c if isinstance(x, Ops)), [])
        types = next((x for x in c if isinstance(x, list) and not isinstance(x, Ops)), [])
        return ("ins", ops, types, self.span_of(c[0], c[-1]))

    def linalg_outs(self: Any, c: list) -> tuple:
        return ("outs",) + self.linalg_ins(c)[1:]

    def linalg_generic(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "linalg.generic")
        if is_tok(c[1], "HASH_ID"):  # a trait alias: `linalg.generic #trait ins(...)`
            op.attrs["__trait"] = AliasRef(str(c[1]), "any", self.sp(c[1]))
        self._structured(op, c[1:])
        return op

    def linalg_named(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c)
        self._structured(op, c[1:])
        return op

    def linalg_named_attr(self: Any, c: list) -> tuple:
        return ("nattr", str(c[0]), c[1])

    def _tensor_results(self: Any, op: OpSyn, outs: list) -> None:
        op.result_types = [t for t in outs if isinstance(t, TensorType | UnrankedTensorType)]

    def linalg_map(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "linalg.map")
        self._tensor_results(op, self._structured(op, c[1:], segmented=False))
        return op

    def linalg_short(self: Any, c: list) -> tuple:
        return ("short", str(c[1]))

    def linalg_reduce(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "linalg.reduce")
        dims = next(x for x in c if isinstance(x, tuple) and x[0] == "ints")
        op.attrs["dimensions"] = DenseArrayAttr(I64, dims[1])
        self._tensor_results(op, self._structured(op, c[1:], segmented=False))
        return op

    def linalg_dims_op(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c)
        key = next(x for x in c if is_tok(x, "DIMENSIONS_KW") or is_tok(x, "PERMUTATION_KW"))
        dims = next(x for x in c if isinstance(x, tuple) and x[0] == "ints")
        op.attrs[str(key)] = DenseArrayAttr(I64, dims[1])
        self._tensor_results(op, self._structured(op, c[1:], segmented=False))
        return op

    def int_list(self: Any, c: list) -> tuple:
        return ("ints", [x[0] for x in c if isinstance(x, tuple)], self.span_of(c[0], c[-1]))

    def linalg_yield(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "linalg.yield")
        self._simple_operands(op, c[1:])
        op.result_types = []
        return op

    def linalg_index(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "linalg.index")
        op.attrs["dim"] = IntegerAttr(int(str(c[1])), I64, self.sp(c[1]))
        if isinstance(c[2], DictAttr):
            op.attrs.update(c[2].entries)
        op.result_types = [INDEX]
        return op
