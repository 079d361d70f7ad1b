"""Reduce actions of the builtin types (integer, float, index, shaped, function, tuple,
complex, dialect and alias types), as MLIR's ``TypeParser``; type lists."""

from __future__ import annotations

from typing import Any

from affine_lsp.ir.attributes import (
    AffineMapAttr,
    Attribute,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
)
from affine_lsp.ir.types import (
    ComplexType,
    FloatType,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    NoneType,
    OpaqueType,
    TensorType,
    TupleType,
    Type,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
)
from affine_lsp.syntax.nodes import (
    AliasRef,
    AliasType,
)
from affine_lsp.syntax.opkit import (
    SHAPED_CACHE,
    SHAPED_RE,
    TOKEN_TYPES,
    TypeList,
    make_shaped,
    scalar_from_text,
)


class TypeParser:
    """Mixed into :class:`~affine_lsp.syntax.parser.ChunkTransformer`; ``self`` is the parse's own state."""

    def type_list(self, c: list) -> list[Type]:
        return list(c)

    def result_types(self, c: list) -> list[Type]:
        return TypeList([x for x in c if isinstance(x, Type)], self.span_of(c[0], c[-1]))

    def _ts(self, t: Type, c: list) -> Type:
        t.span = self.span_of(c[0], c[-1])
        return t

    def index_type(self, c: list) -> Type:
        return self._ts(IndexType(), c)

    def int_type(self, c: list) -> Type:
        s = str(c[0])
        sign = s[0] if s[0] in "su" else ""
        return self._ts(IntegerType(int(s[len(sign) + 1 :]), sign), c)

    def float_type(self, c: list) -> Type:
        t = FloatType(str(c[0]))
        t.span = self.sp(c[0])
        return t

    def none_type(self, c: list) -> Type:
        return self._ts(NoneType(), c)

    def complex_type(self, c: list) -> Type:
        return self._ts(ComplexType(c[1]), c)

    def tuple_type(self, c: list) -> Type:
        return self._ts(TupleType([x for x in c if isinstance(x, Type)]), c)

    def dialect_type(self, c: list) -> Type:
        return self._ts(OpaqueType(str(c[0])), c)

    def alias_type(self, c: list) -> Type:
        if "." in str(c[0]):  # `!gpu.async.token`: a dialect type (alias names have no '.')
            return self.dialect_type(c)
        return AliasType(str(c[0]), self.sp(c[0]))

    def _shape(self, tok: Any) -> tuple[list[int | None], list[bool]]:
        if tok is None:
            return [], []
        shape: list[int | None] = []
        scal: list[bool] = []
        for part in str(tok).replace(" ", "").replace("\t", "").split("x")[:-1]:
            if part == "?":
                shape.append(None)
                scal.append(False)
            elif part.startswith("["):
                shape.append(int(part[1:-1]))
                scal.append(True)
            else:
                shape.append(int(part))
                scal.append(False)
        return shape, scal

    def shaped_type(self, c: list) -> Type:
        tok = c[0]
        text = str(tok)
        parts = SHAPED_CACHE.get(text)
        if parts is None:
            m = SHAPED_RE.fullmatch(text)
            assert m is not None
            shape, scal = self._shape(m.group(2) or None)
            elem = scalar_from_text(m.group(5))
            ms = m.group(6)
            kind = m.group(1)
            memspace = ms[1:].strip() if ms else None
            if memspace is not None and int(memspace) == 0:
                memspace = None  # memory space 0 is the default one (MLIR drops it)
            proto = make_shaped(kind, shape, scal, elem, memspace)
            parts = SHAPED_CACHE[text] = (kind, shape, scal, elem, memspace, proto.text())
        kind, shape, scal, elem, ms, printed = parts
        t = make_shaped(kind, shape, scal, elem, ms)
        t._text = printed  # printed once per distinct spelling
        t.span = self.sp(tok)
        return t

    def memref_type(self, c: list) -> Type:
        dims = c[1] if type(c[1]) in TOKEN_TYPES and c[1].type == "DIMS" else None
        rest = c[2:] if dims is not None else c[1:]
        elem = rest[0]
        shape, _ = self._shape(dims)
        layout = None
        layout_text = None
        memspace = None
        for x in rest[1:]:
            if type(x) in TOKEN_TYPES:
                continue
            if isinstance(x, AffineMapAttr):
                layout = x.map
            elif isinstance(x, AliasRef):
                layout_text = x.name
                x.kind = "layout"
                if layout_text is not None and memspace is None and layout is None:
                    pass
            elif isinstance(x, OpaqueAttr) and x.spelling.startswith("strided"):
                layout_text = x.spelling
            elif layout is None and layout_text is None and not isinstance(x, IntegerAttr | OpaqueAttr | StringAttr):
                layout_text = str(x)
            elif not (isinstance(x, IntegerAttr) and x.value == 0):  # memory space 0 is the default one (MLIR drops it)
                memspace = str(x)
        t = MemRefType(shape, elem, layout, layout_text, memspace)
        t.span = self.span_of(c[0], c[-1])
        aliases = [x for x in rest[1:] if isinstance(x, AliasRef)]
        if aliases:
            t._alias_refs = aliases  # type: ignore[attr-defined]
        return t

    def unranked_memref_type(self, c: list) -> Type:
        elem_text = str(c[1])
        elem = scalar_from_text(elem_text[1:]) if elem_text.startswith("x") else OpaqueType(elem_text)
        ms = None
        for x in c[4:]:
            if isinstance(x, Attribute):
                ms = str(x)
        return self._ts(UnrankedMemRefType(elem, ms), c)

    def vector_type(self, c: list) -> Type:
        dims = c[1] if type(c[1]) in TOKEN_TYPES and c[1].type == "DIMS" else None
        elem = c[2] if dims is not None else c[1]
        shape, scal = self._shape(dims)
        return self._ts(VectorType([d or 0 for d in shape], elem, scal), c)

    def tensor_type(self, c: list) -> Type:
        dims = c[1] if type(c[1]) in TOKEN_TYPES and c[1].type == "DIMS" else None
        rest = c[2:] if dims is not None else c[1:]
        shape, _ = self._shape(dims)
        enc = str(rest[1]) if len(rest) > 1 and isinstance(rest[1], Attribute) else None
        return self._ts(TensorType(shape, rest[0], enc), c)

    def unranked_tensor_type(self, c: list) -> Type:
        elem_text = str(c[1])
        return self._ts(UnrankedTensorType(scalar_from_text(elem_text[1:]) if elem_text.startswith("x") else OpaqueType(elem_text)), c)

    def function_type(self, c: list) -> FunctionType:
        ins = []
        i = 1
        while not (type(c[i]) in TOKEN_TYPES and c[i].type == "RP"):
            if isinstance(c[i], Type):
                ins.append(c[i])
            i += 1
        res = c[-1]
        t = FunctionType(ins, res) if isinstance(res, list) else FunctionType(ins, [res])
        t.span = self.span_of(c[0], res)
        return t

    def single_result(self, c: list) -> list[Type]:
        return TypeList([c[1]], self.span_of(c[0], c[-1]))

    def empty_results(self, c: list) -> list[Type]:
        return TypeList([], self.span_of(c[0], c[-1]))

    def multi_results(self, c: list) -> list[Type]:
        return TypeList([x for x in c if isinstance(x, Type)], self.span_of(c[0], c[-1]))
