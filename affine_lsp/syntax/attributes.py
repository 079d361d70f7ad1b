"""Reduce actions of the builtin attributes (dictionaries, integers, floats, strings, arrays,
dense and strided attributes, symbol references, locations), as MLIR's ``AttributeParser``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affine_lsp.ir.attributes import (
    ArrayAttr,
    Attribute,
    BoolAttr,
    DenseArrayAttr,
    DictAttr,
    FloatAttr,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from affine_lsp.ir.core import Span
from affine_lsp.ir.types import (
    FloatType,
    Type,
)
from affine_lsp.syntax.lexer import token_like
from affine_lsp.syntax.nodes import (
    AliasRef,
)
from affine_lsp.syntax.opkit import (
    TOKEN_TYPES,
    dense_text,
    end_of,
    hex_float,
    start_of,
    strided_text,
    unquote,
)

if TYPE_CHECKING:
    from lark import Token


class AttributeParser:
    """Mixed into :class:`~affine_lsp.syntax.parser.ChunkTransformer`; ``self`` is the parse's own state."""

    def signed_int(self, c: list) -> tuple[int, Span]:
        tok = c[-1]
        v = int(str(tok))
        start = tok.start_pos
        if len(c) == 2 or (c[0] is not tok and type(c[0]) in TOKEN_TYPES):
            v = -v
            start = c[0].start_pos  # at the minus sign, where MLIR reports the attribute
        return v, Span(start, tok.end_pos, self.anchor)

    def signed_float(self, c: list) -> tuple[float, str, Span]:
        tok = c[-1]
        neg = len(c) == 2
        text = ("-" if neg else "") + str(tok)
        return float(text), text, Span(tok.start_pos, tok.end_pos, self.anchor)

    def enum_kw(self, c: list) -> Token:
        """An enum keyword; written as a string, the keyword it holds (at
        the string's range)."""
        tok: Token = c[0]
        if tok.type == "STRING":
            return token_like("BARE_ID", unquote(str(tok)), tok)
        return tok

    def attr_dict(self, c: list) -> DictAttr:
        entries = {}
        for x in c:
            if isinstance(x, tuple):
                entries[x[0]] = x[1]
        return DictAttr(entries, self.span_of(c[0], c[-1]))

    def attr_entry(self, c: list) -> tuple[str, Attribute]:
        key = str(c[0])
        if c[0].type == "STRING":
            key = unquote(key)
        if len(c) == 1:
            return key, UnitAttr(self.sp(c[0]))
        return key, c[1]

    def _typed(self, c: list) -> Type | None:
        return c[-1] if len(c) >= 2 and isinstance(c[-1], Type) else None

    def int_attr(self, c: list) -> Attribute:
        v, sp = c[0]
        return IntegerAttr(v, self._typed(c), sp)

    def float_attr(self, c: list) -> Attribute:
        v, text, sp = c[0]
        return FloatAttr(v, text, self._typed(c), sp)

    def hex_attr(self, c: list) -> Attribute:
        t = self._typed(c)
        if isinstance(t, FloatType):
            return FloatAttr(hex_float(int(str(c[0]), 16), t.kind), str(c[0]), t, self.sp(c[0]))
        return IntegerAttr(int(str(c[0]), 16), t, self.sp(c[0]))

    def string_attr(self, c: list) -> Attribute:
        a = StringAttr(unquote(str(c[0])), str(c[0]), self.sp(c[0]))
        t = self._typed(c)
        if t is not None:
            return OpaqueAttr(str(c[0]), t, self.sp(c[0]))
        return a

    def true_attr(self, c: list) -> Attribute:
        return BoolAttr(True, self.sp(c[0]))

    def false_attr(self, c: list) -> Attribute:
        return BoolAttr(False, self.sp(c[0]))

    def unit_attr(self, c: list) -> Attribute:
        return UnitAttr(self.sp(c[0]))

    def array_attr(self, c: list) -> Attribute:
        return ArrayAttr(
            [x for x in c if isinstance(x, Attribute)],
            self.span_of(c[0], c[-1]) if c and type(c[0]) in TOKEN_TYPES else Span(start_of(c[-1]) - 1, end_of(c[-1]), self.anchor),
        )

    def type_attr(self, c: list) -> Attribute:
        return TypeAttr(c[0])

    def symbol_ref_attr(self, c: list) -> Attribute:
        return SymbolRefAttr(str(c[0]), self.sp(c[0]))

    def alias_attr(self, c: list) -> Attribute:
        return AliasRef(str(c[0]), "any", self.sp(c[0]), self._typed(c))

    def dialect_attr(self, c: list) -> Attribute:
        return OpaqueAttr(str(c[0]), self._typed(c), self.sp(c[0]))

    def dense_attr(self, c: list) -> Attribute:
        body = next((x for x in c if isinstance(x, tuple) and x and x[0] == "dense"), None)
        text = "dense<" + (body[1] if body else "") + ">"
        t = self._typed(c)
        return OpaqueAttr(text, t, self.span_of(c[0], c[-1]))

    def dense_body(self, c: list) -> tuple[str, str]:
        return ("dense", dense_text(c[0]))

    def dense_list(self, c: list) -> list:
        return [x for x in c if not (type(x) in TOKEN_TYPES and x.type in ("RSQB",))]

    def dense_complex(self, c: list) -> tuple:
        return ("complex", c[1], c[2])

    def dense_resource_attr(self, c: list) -> Attribute:
        name = next(x for x in c if type(x) in TOKEN_TYPES and x.type == "BARE_ID")
        return OpaqueAttr(f"dense_resource<{name}>", self._typed(c), self.span_of(c[0], c[-1]))

    def dense_array_attr(self, c: list) -> Attribute:
        t: Type = c[1]  # (c: ARRAY_KW, the type, [COLON, the items], RANGLE)
        items = next((x for x in c if isinstance(x, list)), [])
        return DenseArrayAttr(t, items, self.span_of(c[0], c[-1]))

    def dense_array_items(self, c: list) -> list:
        out = []
        for x in c:
            if (isinstance(x, tuple) and len(x) == 2) or isinstance(x, tuple):
                out.append(x[0])
            elif type(x) in TOKEN_TYPES:
                out.append(1 if str(x) == "true" else 0)
        return out

    def strided_attr(self, c: list) -> Attribute:
        return OpaqueAttr(strided_text(c), None, self.span_of(c[0], c[-1]))

    def mixed_strided(self, c: list) -> list:
        return c

    def loc_attr(self, c: list) -> Attribute:
        return OpaqueAttr(str(c[0]), None, self.sp(c[0]))
