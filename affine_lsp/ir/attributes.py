"""MLIR attributes with source spans. ``str()`` prints MLIR syntax."""

from __future__ import annotations

from collections.abc import Sequence

from affine_lsp.ir.affine_expr import AffineMap, IntegerSet
from affine_lsp.ir.core import NO_SPAN, Span
from affine_lsp.ir.types import Type


class Attribute:
    """Subclasses set ``span`` themselves (what ``__init__`` here does):
    the parser builds several attributes per op."""

    __slots__ = ("span",)

    def __init__(self, span: Span = NO_SPAN) -> None:
        self.span = span

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self}>"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and str(other) == str(self)

    def __hash__(self) -> int:
        return hash(str(self))


class UnitAttr(Attribute):
    __slots__ = ()

    def __str__(self) -> str:
        return "unit"


class BoolAttr(Attribute):
    __slots__ = ("value",)

    def __init__(self, value: bool, span: Span = NO_SPAN) -> None:
        self.span = span  # Attribute.__init__, without the call (built per parsed op)
        self.value = value

    def __str__(self) -> str:
        return "true" if self.value else "false"


class IntegerAttr(Attribute):
    __slots__ = ("value", "type")

    def __init__(self, value: int, type: Type | None = None, span: Span = NO_SPAN) -> None:
        self.span = span  # Attribute.__init__, without the call (built per parsed op)
        self.value = value
        self.type = type

    def __str__(self) -> str:
        return f"{self.value} : {self.type}" if self.type is not None else str(self.value)


class FloatAttr(Attribute):
    __slots__ = ("value", "spelling", "type")

    def __init__(self, value: float, spelling: str, type: Type | None = None, span: Span = NO_SPAN) -> None:
        self.span = span  # Attribute.__init__, without the call (built per parsed op)
        self.value = value
        self.spelling = spelling
        self.type = type

    def __str__(self) -> str:
        return f"{self.spelling} : {self.type}" if self.type is not None else self.spelling


class StringAttr(Attribute):
    __slots__ = ("value", "spelling")

    def __init__(self, value: str, spelling: str, span: Span = NO_SPAN) -> None:
        self.span = span  # Attribute.__init__, without the call (built per parsed op)
        self.value = value
        self.spelling = spelling  # with quotes and escapes as written

    def __str__(self) -> str:
        return self.spelling


class TypeAttr(Attribute):
    __slots__ = ("type",)

    def __init__(self, type: Type, span: Span = NO_SPAN) -> None:
        self.span = span  # Attribute.__init__, without the call (built per parsed op)
        self.type = type

    def __str__(self) -> str:
        return str(self.type)


class ArrayAttr(Attribute):
    __slots__ = ("elements",)

    def __init__(self, elements: Sequence[Attribute], span: Span = NO_SPAN) -> None:
        self.span = span  # Attribute.__init__, without the call (built per parsed op)
        self.elements = list(elements)

    def __str__(self) -> str:
        return "[" + ", ".join(str(e) for e in self.elements) + "]"


class DenseArrayAttr(Attribute):
    """``array<i64: 1, 2>``."""

    __slots__ = ("element_type", "values")

    def __init__(self, element_type: Type, values: Sequence[int | float], span: Span = NO_SPAN) -> None:
        self.span = span  # Attribute.__init__, without the call (built per parsed op)
        self.element_type = element_type
        self.values = list(values)

    def __str__(self) -> str:
        if not self.values:
            return f"array<{self.element_type}>"
        return f"array<{self.element_type}: " + ", ".join(str(v) for v in self.values) + ">"


class DictAttr(Attribute):
    __slots__ = ("entries",)

    def __init__(self, entries: dict[str, Attribute], span: Span = NO_SPAN) -> None:
        self.span = span  # Attribute.__init__, without the call (built per parsed op)
        self.entries = entries

    def __str__(self) -> str:
        return "{" + ", ".join(_entry_str(k, v) for k, v in self.entries.items()) + "}"


def _entry_str(key: str, value: Attribute) -> str:
    return key if isinstance(value, UnitAttr) else f"{key} = {value}"


class AffineMapAttr(Attribute):
    """An affine map, inline or through an alias (``alias`` is ``#map``)."""

    __slots__ = ("map", "alias")

    def __init__(self, map: AffineMap, alias: str | None = None, span: Span = NO_SPAN) -> None:
        self.span = span  # Attribute.__init__, without the call (built per parsed op)
        self.map = map
        self.alias = alias

    def __str__(self) -> str:
        return self.map.to_attr_str()


class IntegerSetAttr(Attribute):
    __slots__ = ("set", "alias")

    def __init__(self, set: IntegerSet, alias: str | None = None, span: Span = NO_SPAN) -> None:
        self.span = span  # Attribute.__init__, without the call (built per parsed op)
        self.set = set
        self.alias = alias

    def __str__(self) -> str:
        return self.set.to_attr_str()


class SymbolRefAttr(Attribute):
    __slots__ = ("spelling",)

    def __init__(self, spelling: str, span: Span = NO_SPAN) -> None:
        self.span = span  # Attribute.__init__, without the call (built per parsed op)
        self.spelling = spelling  # "@f" or "@a::@b"

    @property
    def root(self) -> str:
        return self.spelling.split("::", 1)[0][1:].strip('"')

    def __str__(self) -> str:
        return self.spelling


class OpaqueAttr(Attribute):
    """Anything kept as its text: ``dense<...>``, ``#d.a<...>``, ``loc(...)``,
    an alias we could not resolve, ..."""

    __slots__ = ("spelling", "type")

    def __init__(self, spelling: str, type: Type | None = None, span: Span = NO_SPAN) -> None:
        self.span = span  # Attribute.__init__, without the call (built per parsed op)
        self.spelling = spelling
        self.type = type

    def __str__(self) -> str:
        return f"{self.spelling} : {self.type}" if self.type is not None else self.spelling
