"""Reduce actions of the memref dialect: alloc, load, store, subview, view, cast, copy,
global, alloca_scope (``grammar/mlir.lark``) and those of ``grammar/memref.lark``
(reshapes, realloc, atomic_rmw, rank, extract_strided_metadata, DMA, ...); in MLIR's
generic shape."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from affine_lsp.ir import op_traits
from affine_lsp.ir.attributes import (
    AffineMapAttr,
    ArrayAttr,
    Attribute,
    DictAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
)
from affine_lsp.ir.types import (
    INDEX,
    FunctionType,
    IntegerType,
    MemRefType,
    Type,
)
from affine_lsp.syntax.nodes import (
    OpSyn,
    RegionSyn,
)
from affine_lsp.syntax.opkit import (
    TOKEN_TYPES,
    Mixed,
    Ops,
    is_tok,
    unquote,
)

I64 = IntegerType(64)


class MemrefOps:
    """Mixed into :class:`~affine_lsp.syntax.parser.ChunkTransformer`; ``self`` is the parse's own state."""

    def memref_alloc(self, c: list) -> OpSyn:
        op = self._op(c[0], c, str(c[0]))
        dyn: list = []
        syms: list = []
        seen_sym = False
        for x in c[1:]:
            if type(x) in TOKEN_TYPES and x.type == "LSQB_SYM":
                seen_sym = True
            elif isinstance(x, Ops):
                if seen_sym:
                    syms = list(x)
                else:
                    dyn = list(x)
        op.operands = dyn + syms
        op.segments = (len(dyn), len(syms))
        self._trailing(op, c[1:])
        op.result_types = list(op.operand_types or [])[:1]
        op.operand_types = None
        return op

    def _one_operand_no_result(self, c: list, name: str) -> OpSyn:
        """``NAME %x {attrs} : type`` (a dealloc, a yield of one value)."""
        op = self._op(c[0], c, name)
        op.operands = [(str(c[1]), self.sp(c[1]))]
        self._trailing(op, c[2:])
        op.result_types = []
        return op

    def _dict_and_signature(self, op: OpSyn, rest: Sequence[Any]) -> None:
        """The attribute dictionary and the trailing function type of ``op``."""
        for x in rest:
            if isinstance(x, DictAttr):
                op.attrs.update(x.entries)
            elif isinstance(x, FunctionType):
                op.operand_types = list(x.inputs)
                op.result_types = list(x.results)

    def memref_dealloc(self, c: list) -> OpSyn:
        return self._one_operand_no_result(c, "memref.dealloc")

    def memref_dim(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.dim")
        op.operands = [(str(c[1]), self.sp(c[1])), (str(c[2]), self.sp(c[2]))]
        self._trailing(op, c[3:])
        op.operand_types = (op.operand_types or [])[:1] + [INDEX]
        op.result_types = [INDEX]
        return op

    def _indexed(self, op: OpSyn, c: list, lead: int) -> None:
        """Ops of the form ``name %a(, %b)* [%i, ...] ...``; ``lead`` SSA ids
        before the bracket."""
        op.operands = [(str(x), self.sp(x)) for x in c[1 : 1 + lead]]
        for x in c[1 + lead :]:
            if isinstance(x, Ops):
                op.operands.extend(x)
                break

    def memref_load(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.load")
        self._indexed(op, c, 1)
        self._trailing(op, c[2:])
        t = op.operand_types[0] if op.operand_types else None
        op.result_types = [t.element if isinstance(t, MemRefType) else None]
        op.operand_types = [t] + [INDEX] * (len(op.operands) - 1)
        return op

    def memref_store(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.store")
        self._indexed(op, c, 2)
        self._trailing(op, c[3:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [t.element if isinstance(t, MemRefType) else None, t] + [INDEX] * (len(op.operands) - 2)
        op.result_types = []
        return op

    def _cast_like(self, c: list, name: str, nops: int = 1) -> OpSyn:
        op = self._op(c[0], c, name)
        op.operands = [(str(x), self.sp(x)) for x in c[1 : 1 + nops]]
        self._trailing(op, c[1 + nops :])
        types = op.operand_types or []
        op.operand_types = types[:1]
        op.result_types = types[1:2]
        return op

    def memref_cast(self, c: list) -> OpSyn:
        return self._cast_like(c, "memref.cast")

    def memref_copy(self, c: list) -> OpSyn:
        op = self._cast_like(c, "memref.copy", 2)
        op.operand_types = (op.operand_types or []) + (op.result_types or [])
        op.result_types = []
        return op

    def static_list(self, c: list) -> Mixed:
        return next((x for x in c if isinstance(x, Mixed)), Mixed())

    def _offsets_sizes_strides(self, c: list, name: str) -> OpSyn:
        """memref.subview / memref.reinterpret_cast: a source and three
        mixed static/dynamic lists, then ``: type to type``."""
        op = self._op(c[0], c, name)
        lists = [x for x in c if isinstance(x, Mixed)]
        dyn_all = []
        segs = [1]
        for key, lst in zip(("static_offsets", "static_sizes", "static_strides"), lists, strict=False):
            dyn = self._mixed(op, lst, key)
            dyn_all.extend(dyn)
            segs.append(len(dyn))
        op.operands = [(str(c[1]), self.sp(c[1]))] + dyn_all
        op.segments = tuple(segs)
        self._trailing(op, c[2:])
        types = op.operand_types or []
        op.operand_types = types[:1]
        op.result_types = types[1:2]
        return op

    def memref_subview(self, c: list) -> OpSyn:
        return self._offsets_sizes_strides(c, "memref.subview")

    def memref_view(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.view")
        ids = [(str(c[1]), self.sp(c[1])), (str(c[2]), self.sp(c[2]))]
        sizes = next((x for x in c[3:] if isinstance(x, Ops)), Ops())
        op.operands = ids + list(sizes)
        op.segments = (1, 1, len(sizes))
        self._trailing(op, c[3:])
        types = op.operand_types or []
        op.operand_types = types[:1]
        op.result_types = types[1:2]
        return op

    def memref_reinterpret(self, c: list) -> OpSyn:
        return self._offsets_sizes_strides(c, "memref.reinterpret_cast")

    def memref_global(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.global")
        for x in c[1:]:
            if type(x) in TOKEN_TYPES and x.type == "SYMBOL_REF":
                op.attrs["sym_name"] = StringAttr(str(x)[1:], str(x), self.sp(x))
            elif type(x) in TOKEN_TYPES and x.type == "STRING":
                op.attrs["sym_visibility"] = StringAttr(unquote(str(x)), str(x), self.sp(x))
            elif isinstance(x, Type):
                op.attrs["type"] = TypeAttr(x)
            elif isinstance(x, DictAttr) and "type" in op.attrs:
                op.attrs.update(x.entries)
            elif isinstance(x, Attribute):
                op.attrs["initial_value"] = x
        op.result_types = []
        return op

    def memref_get_global(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.get_global")
        op.attrs["name"] = SymbolRefAttr(str(c[1]), self.sp(c[1]))
        op.result_types = [c[-1]]
        return op

    def memref_alloca_scope(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.alloca_scope")
        op.result_types = []
        for x in c[1:]:
            if isinstance(x, list):
                op.result_types = x
            elif isinstance(x, RegionSyn):
                op.regions = [x]
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        return op

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
        kinds = op_traits.atomic_rmw_kinds()  # arith::AtomicRMWKind: a keyword's position is its value
        if kind in kinds:
            op.attrs["kind"] = IntegerAttr(kinds.index(kind), I64, self.sp(c[1]))
        else:
            self.note(
                "error",
                "custom op 'memref.atomic_rmw' expected string or keyword containing one of the following enum values"
                f" for attribute 'kind' [{', '.join(sorted(kinds))}]",
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
