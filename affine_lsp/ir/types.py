"""MLIR types. Structural equality by printed form; ``str()`` prints MLIR syntax."""

from __future__ import annotations

from collections.abc import Sequence

from affine_lsp.ir.affine_expr import AffineMap


class Type:
    """Base class. Subclasses override ``__str__``; equality is by text."""

    __slots__ = ("_text", "span")

    def __init__(self) -> None:
        self._text: str | None = None
        self.span: object | None = None  # source range when parsed; not part of equality

    def text(self) -> str:
        if self._text is None:
            self._text = self._print()
        return self._text

    def _print(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.text()}>"

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return isinstance(other, Type) and other.text() == self.text()

    def __hash__(self) -> int:
        return hash(self.text())

    @property
    def is_index(self) -> bool:
        return False

    @property
    def is_integer_like(self) -> bool:
        return False

    @property
    def is_float(self) -> bool:
        return False


class IndexType(Type):
    __slots__ = ()

    def _print(self) -> str:
        return "index"

    @property
    def is_index(self) -> bool:
        return True

    @property
    def is_integer_like(self) -> bool:
        return True


class IntegerType(Type):
    __slots__ = ("width", "signedness")

    def __init__(self, width: int, signedness: str = "") -> None:
        self._text = None  # Type.__init__, inlined (built per parsed type)
        self.span = None
        self.width = width
        self.signedness = signedness  # "", "s" or "u"

    def _print(self) -> str:
        return f"{self.signedness}i{self.width}"

    @property
    def is_integer_like(self) -> bool:
        return True


class FloatType(Type):
    __slots__ = ("kind",)

    WIDTHS = {"bf16": 16, "f16": 16, "tf32": 19, "f32": 32, "f64": 64, "f80": 80, "f128": 128}

    def __init__(self, kind: str) -> None:
        self._text = None  # Type.__init__, inlined (built per parsed type)
        self.span = None
        self.kind = kind

    def _print(self) -> str:
        return self.kind

    @property
    def width(self) -> int:
        return self.WIDTHS.get(self.kind, 8)

    @property
    def is_float(self) -> bool:
        return True


class NoneType(Type):
    __slots__ = ()

    def _print(self) -> str:
        return "none"


class ComplexType(Type):
    __slots__ = ("element",)

    def __init__(self, element: Type) -> None:
        super().__init__()
        self.element = element

    def _print(self) -> str:
        return f"complex<{self.element}>"


class TupleType(Type):
    __slots__ = ("elements",)

    def __init__(self, elements: Sequence[Type]) -> None:
        super().__init__()
        self.elements = tuple(elements)

    def _print(self) -> str:
        return "tuple<" + ", ".join(str(t) for t in self.elements) + ">"


class FunctionType(Type):
    __slots__ = ("inputs", "results")

    def __init__(self, inputs: Sequence[Type], results: Sequence[Type]) -> None:
        super().__init__()
        self.inputs = tuple(inputs)
        self.results = tuple(results)

    def _print(self) -> str:
        ins = "(" + ", ".join(str(t) for t in self.inputs) + ")"
        if len(self.results) == 1 and not isinstance(self.results[0], FunctionType):
            return f"{ins} -> {self.results[0]}"
        return f"{ins} -> (" + ", ".join(str(t) for t in self.results) + ")"


def _shape_str(shape: Sequence[int | None], scalable: Sequence[bool] | None = None) -> str:
    parts = []
    for i, d in enumerate(shape):
        s = "?" if d is None else str(d)
        if scalable and scalable[i]:
            s = f"[{s}]"
        parts.append(s + "x")
    return "".join(parts)


class ShapedType(Type):
    __slots__ = ("shape", "element")

    def __init__(self, shape: Sequence[int | None], element: Type) -> None:
        self._text = None  # Type.__init__, inlined (built per parsed type)
        self.span = None
        self.shape: tuple[int | None, ...] = tuple(shape)
        self.element = element

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def has_static_shape(self) -> bool:
        return all(d is not None for d in self.shape)

    def num_elements(self) -> int | None:
        n = 1
        for d in self.shape:
            if d is None:
                return None
            n *= d
        return n


class VectorType(ShapedType):
    __slots__ = ("scalable",)

    def __init__(self, shape: Sequence[int], element: Type, scalable: Sequence[bool] | None = None) -> None:
        super().__init__(shape, element)
        self.scalable = tuple(scalable) if scalable else tuple(False for _ in shape)

    def _print(self) -> str:
        return f"vector<{_shape_str(self.shape, self.scalable)}{self.element}>"


class TensorType(ShapedType):
    __slots__ = ("encoding",)

    def __init__(self, shape: Sequence[int | None], element: Type, encoding: str | None = None) -> None:
        super().__init__(shape, element)
        self.encoding = encoding

    def _print(self) -> str:
        enc = f", {self.encoding}" if self.encoding else ""
        return f"tensor<{_shape_str(self.shape)}{self.element}{enc}>"


class UnrankedTensorType(Type):
    __slots__ = ("element",)

    def __init__(self, element: Type) -> None:
        super().__init__()
        self.element = element

    def _print(self) -> str:
        return f"tensor<*x{self.element}>"


class MemRefType(ShapedType):
    """A ranked memref. ``layout`` is an AffineMap, or the layout's text
    (``strided<[1], offset: ?>``, an alias ``#map``), or None (identity)."""

    __slots__ = ("layout", "layout_text", "memory_space", "_alias_refs")

    def __init__(
        self,
        shape: Sequence[int | None],
        element: Type,
        layout: AffineMap | None = None,
        layout_text: str | None = None,
        memory_space: str | None = None,
    ) -> None:
        super().__init__(shape, element)
        self.layout = layout
        self.layout_text = layout_text
        self.memory_space = memory_space
        self._alias_refs: list | None = None  # `#alias` layout uses, resolved by the IR builder

    @property
    def has_identity_layout(self) -> bool:
        if self.layout_text is None and self.layout is None:
            return True
        return self.layout is not None and self.layout.is_identity()

    def _print(self) -> str:
        parts = [f"{_shape_str(self.shape)}{self.element}"]
        if self.layout is not None:
            if not self.layout.is_identity():
                parts.append(self.layout.to_attr_str())
        elif self.layout_text is not None:
            parts.append(self.layout_text)
        if self.memory_space is not None:
            parts.append(self.memory_space)
        return "memref<" + ", ".join(parts) + ">"


class UnrankedMemRefType(Type):
    __slots__ = ("element", "memory_space")

    def __init__(self, element: Type, memory_space: str | None = None) -> None:
        super().__init__()
        self.element = element
        self.memory_space = memory_space

    def _print(self) -> str:
        ms = f", {self.memory_space}" if self.memory_space else ""
        return f"memref<*x{self.element}{ms}>"


class OpaqueType(Type):
    """A dialect type (``!llvm.ptr``, ``!d.t<...>``) or anything we keep as text."""

    __slots__ = ("spelling",)

    def __init__(self, spelling: str) -> None:
        super().__init__()
        self.spelling = spelling

    def _print(self) -> str:
        return self.spelling

    @property
    def dialect(self) -> str:
        s = self.spelling.lstrip("!")
        return s.split(".", 1)[0] if "." in s else ""


INDEX = IndexType()
I1 = IntegerType(1)
I32 = IntegerType(32)
I64 = IntegerType(64)
F32 = FloatType("f32")
F64 = FloatType("f64")
NONE = NoneType()
