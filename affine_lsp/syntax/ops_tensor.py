"""Reduce actions of ``grammar/tensor.lark`` and ``grammar/memref.lark``
(the tensor and memref ops beyond those of mlir.lark): slices, reshapes,
from_elements, generate, yield, cast, realloc, atomic_rmw, rank,
extract_strided_metadata, alloca_scope.return; in MLIR's generic shape."""

from __future__ import annotations

from typing import Any

from affine_lsp.ir.attributes import AffineMapAttr, ArrayAttr, DictAttr, IntegerAttr, UnitAttr
from affine_lsp.ir.types import INDEX, IntegerType, Type
from affine_lsp.syntax.nodes import OpSyn, RegionSyn
from affine_lsp.syntax.opkit import Mixed, Ops, is_tok

I64 = IntegerType(64)
# arith::AtomicRMWKind (MLIR 22.1.8, as mlir-opt prints it), the `kind` of memref.atomic_rmw.
ATOMIC_RMW_KIND = {
    "addf": 0, "addi": 1, "andi": 2, "assign": 3, "maximumf": 4, "maxnumf": 5, "maxs": 6, "maxu": 7,
    "minimumf": 8, "minnumf": 9, "mins": 10, "minu": 11, "mulf": 12, "muli": 13, "ori": 14, "xori": 15,
}  # fmt: skip


class TensorOps:
    """Mixed into :class:`~affine_lsp.syntax.parser.ChunkTransformer`."""

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

    # ---- memref
    def memref_reshape(self: Any, c: list) -> OpSyn:
        return self._reshape(c)

    def _reshape(self: Any, c: list) -> OpSyn:
        """memref/tensor .expand_shape/.collapse_shape: the source, the
        reassociation, the expanded shape (mixed static/dynamic)."""
        op = self._op(c[0], c)
        op.operands = [(str(c[1]), self.sp(c[1]))]
        op.attrs["reassociation"] = c[2]
        shape = next((x for x in c[3:] if isinstance(x, Mixed)), None)
        if shape is not None:
            op.operands += self._mixed(op, shape, "static_output_shape")
        self._trailing(op, c[3:])
        types = op.operand_types or []
        op.operand_types = types[:1] + [INDEX] * (len(op.operands) - 1)
        op.result_types = types[1:2]
        return op

    def reassociation(self: Any, c: list) -> ArrayAttr:
        return ArrayAttr([x for x in c if isinstance(x, ArrayAttr)], self.span_of(c[0], c[-1]))

    def reassociation_group(self: Any, c: list) -> ArrayAttr:
        return ArrayAttr([IntegerAttr(int(str(x)), None, self.sp(x)) for x in c if is_tok(x, "INT")], self.span_of(c[0], c[-1]))

    def memref_realloc(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.realloc")
        op.operands = [(str(x), self.sp(x)) for x in c[1:] if is_tok(x, "SSA_ID")]
        self._trailing(op, c[2:])
        types = op.operand_types or []
        op.operand_types = types[:1] + [INDEX] * (len(op.operands) - 1)
        op.result_types = types[1:2]
        return op

    def memref_atomic_rmw(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.atomic_rmw")
        kind = str(c[1])
        if kind in ATOMIC_RMW_KIND:
            op.attrs["kind"] = IntegerAttr(ATOMIC_RMW_KIND[kind], I64, self.sp(c[1]))
        else:
            self.note(
                "error",
                "custom op 'memref.atomic_rmw' expected string or keyword containing one of the following enum values"
                f" for attribute 'kind' [{', '.join(sorted(ATOMIC_RMW_KIND))}]",
                self.sp(c[1]),
                "syntax",
            )
        op.operands = [(str(c[2]), self.sp(c[2])), (str(c[3]), self.sp(c[3]))]
        op.operands += next((x for x in c[4:] if isinstance(x, Ops)), [])
        self._trailing(op, c[4:])
        types: list[Type | None] = list(op.operand_types or [])
        op.operand_types = types[:2] + [INDEX] * (len(op.operands) - 2)
        op.result_types = types[2:3]
        return op

    def memref_alloca_scope_return(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.alloca_scope.return")
        self._simple_operands(op, c[1:])
        op.result_types = []
        return op

    def memref_rank(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.rank")
        op.operands = [(str(c[1]), self.sp(c[1]))]
        self._trailing(op, c[2:])
        op.result_types = [INDEX]
        return op

    def memref_extract_metadata(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.extract_strided_metadata")
        op.operands = [(str(c[1]), self.sp(c[1]))]
        for x in c[2:]:
            if isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        op.operand_types = [next(x for x in c[2:] if isinstance(x, Type))]
        op.result_types = list(c[-1])
        return op

    def memref_extract_pointer(self: Any, c: list) -> OpSyn:
        op = self._cast_like(c, "memref.extract_aligned_pointer_as_index")
        return op

    def memref_reshape_dynamic(self: Any, c: list) -> OpSyn:
        """``memref.reshape %src(%shape) : (memref<..>, memref<..>) -> memref<..>``"""
        op = self._op(c[0], c, "memref.reshape")
        op.operands = [(str(c[1]), self.sp(c[1])), (str(c[3]), self.sp(c[3]))]
        self._dict_and_signature(op, c[5:])
        return op

    def memref_transpose(self: Any, c: list) -> OpSyn:
        """``memref.transpose %m (i, j) -> (j, i) : T to T``: the map is the
        ``permutation`` attribute."""
        op = self._op(c[0], c, "memref.transpose")
        op.operands = [(str(c[1]), self.sp(c[1]))]
        m = c[2]
        op.attrs["permutation"] = AffineMapAttr(m, None, m.span)
        self._trailing(op, c[3:])
        types = op.operand_types or []
        op.operand_types = types[:1]
        op.result_types = types[1:2]
        return op

    def memref_generic_atomic_rmw(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.generic_atomic_rmw")
        op.operands = [(str(c[1]), self.sp(c[1]))] + list(next((x for x in c if isinstance(x, Ops)), []))
        t = next(x for x in c if isinstance(x, Type))
        op.operand_types = [t] + [INDEX] * (len(op.operands) - 1)
        op.result_types = [getattr(t, "element", None)]
        for x in c:
            if isinstance(x, RegionSyn):
                op.regions = [x]
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        return op

    def memref_atomic_yield(self: Any, c: list) -> OpSyn:
        return self._one_operand_no_result(c, "memref.atomic_yield")

    def dma_indices(self: Any, c: list) -> Ops:
        return next((x for x in c if isinstance(x, Ops)), Ops())

    def memref_dma_start(self: Any, c: list) -> OpSyn:
        """Operands in MLIR's order: source and its indices, destination and
        its indices, the element count, the tag and its indices, then the
        stride and the elements per stride when given."""
        op = self._op(c[0], c, "memref.dma_start")
        types = [x for x in c if isinstance(x, Type)]
        src_t, dst_t, tag_t = (types + [None, None, None])[:3]
        ssa = iter(x for x in c[1:] if is_tok(x, "SSA_ID"))
        lists = iter(x for x in c if isinstance(x, Ops))
        operands: list = []
        kinds: list = []
        for t in (src_t, dst_t):
            operands.append(self._ssa(next(ssa)))
            idx = next(lists)
            operands += idx
            kinds += [t] + [INDEX] * len(idx)
        operands.append(self._ssa(next(ssa)))
        kinds.append(INDEX)
        operands.append(self._ssa(next(ssa)))
        idx = next(lists)
        operands += idx
        kinds += [tag_t] + [INDEX] * len(idx)
        for x in ssa:  # stride, elements per stride
            operands.append(self._ssa(x))
            kinds.append(INDEX)
        op.operands = operands
        op.operand_types = kinds
        op.result_types = []
        for x in c:
            if isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        return op

    def memref_dma_wait(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.dma_wait")
        idx = next(x for x in c if isinstance(x, Ops))
        op.operands = [self._ssa(c[1])] + list(idx) + [self._ssa(c[3])]
        t = next(x for x in c if isinstance(x, Type))
        op.operand_types = [t] + [INDEX] * (len(idx) + 1)
        op.result_types = []
        for x in c:
            if isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        return op

    def _ssa(self: Any, tok: Any) -> tuple:
        return (str(tok), self.sp(tok))


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
