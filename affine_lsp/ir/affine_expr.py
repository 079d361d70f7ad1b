"""MLIR affine expressions, affine maps and integer sets.

This is the project's single model of the objects MLIR defines in
``mlir/IR/AffineExpr.h``, ``AffineMap.h`` and ``IntegerSet.h``. It follows the
C++ implementation closely (``mlir/lib/IR/AffineExpr.cpp``, ``AffineMap.cpp``
and ``printAffineExprInternal`` in ``AsmPrinter.cpp``) so that what we compute
and print matches ``mlir-opt``.

Three levels of "simplification" exist, as in MLIR:

* The Python operators (``+ - * // %``, :meth:`AffineExpr.floordiv`,
  :meth:`AffineExpr.ceildiv`, :meth:`AffineExpr.mod`) build **raw** nodes that
  keep the structure as written (so the parser's spans on sub-expressions stay
  meaningful). Only two constants are folded, e.g. ``2 * 3`` -> ``6``.
* :meth:`AffineExpr.canonicalize` and the ``canonical_*`` constructors apply
  the rules MLIR's own ``operator+``/``operator*``/``floorDiv``/``ceilDiv``/
  ``operator%`` apply on construction (``simplifyAdd`` & co.). A canonicalized
  expression is what MLIR holds in memory after *parsing* the same text, and
  prints as ``mlir-opt`` prints a round-tripped map (``(1 + i)`` ->
  ``d0 + 1``).
* :meth:`AffineExpr.simplify` is ``simplifyAffineExpr``: flattening into a
  sum of products with local (div/mod) variables and rebuilding, plus the
  semi-affine rules (``(d0 * s0) floordiv s0`` -> ``d0``).

Both were checked node for node against libMLIR of LLVM 22.1.8 (the
``oracle`` tests do this when the reference toolchain is installed). Known,
deliberate differences: ``simplify`` also merges nested divisions by default
(``fold_nested_divisions``); two unsound semi-affine folds of LLVM 22 are not
reproduced (its "x - x mod s" rule is applied to ``mod`` only, not to
floordiv/ceildiv, and a product is divided through its exactly divisible
factor: ``((s1 floordiv 9) * s1) floordiv s1`` is ``s1 floordiv 9``, not 0);
where MLIR asserts (two semi-affine terms with the same sort key) both terms
are kept. Constants are unbounded Python ints, MLIR's are int64.

Semantics (:meth:`AffineExpr.evaluate`) use exact Python integers: ``floordiv``
rounds towards negative infinity, ``ceildiv`` towards positive infinity and
``mod`` is ``lhs - rhs * floor(lhs / rhs)`` (so in ``[0, rhs)`` for a positive
``rhs``, as in MLIR); a zero divisor raises :class:`ZeroDivisionError`.

All objects are immutable (read-only properties over ``__slots__``) and compare
structurally; the ``span`` slot (a source range set by the parser) is the only
mutable attribute and takes no part in equality, hashing or printing.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterator, Sequence
from typing import final

__all__ = [
    "AffineBinaryExpr",
    "AffineConstantExpr",
    "AffineDimExpr",
    "AffineExpr",
    "AffineExprKind",
    "AffineMap",
    "AffineSymbolExpr",
    "IntegerSet",
    "canonical_add",
    "canonical_binary",
    "canonical_ceildiv",
    "canonical_floordiv",
    "canonical_mod",
    "canonical_mul",
    "constant",
    "dim",
    "from_linear_form",
    "simplify_affine_expr",
    "symbol",
]


class AffineExprKind(enum.Enum):
    """The kind of an affine expression node (MLIR ``AffineExprKind``)."""

    ADD = "add"
    MUL = "mul"
    MOD = "mod"
    FLOORDIV = "floordiv"
    CEILDIV = "ceildiv"
    CONSTANT = "constant"
    DIM = "dim"
    SYMBOL = "symbol"


# Module-level aliases: enum attribute lookups are comparatively slow and these
# are compared (by identity) in every hot path.
_ADD = AffineExprKind.ADD
_MUL = AffineExprKind.MUL
_MOD = AffineExprKind.MOD
_FLOORDIV = AffineExprKind.FLOORDIV
_CEILDIV = AffineExprKind.CEILDIV
_CONSTANT = AffineExprKind.CONSTANT
_DIM = AffineExprKind.DIM
_SYMBOL = AffineExprKind.SYMBOL

_BINARY_KIND_IDS = frozenset(id(k) for k in (_ADD, _MUL, _MOD, _FLOORDIV, _CEILDIV))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class AffineExpr:
    """Base class of affine expression nodes. Immutable; structural ``==``.

    Do not instantiate directly: use :func:`dim`, :func:`symbol`,
    :func:`constant`, the operators, or the node classes.
    """

    __slots__ = ("_hash", "_hd", "span")

    # Declared for type checkers; concrete classes provide them.
    _kind: AffineExprKind
    span: object | None
    _hash: int
    _hd: bool  # "has dim": the expression mentions a dimension identifier

    # ----------------------------------------------------------- identity --
    @property
    def kind(self) -> AffineExprKind:
        return self._kind

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, AffineExpr):
            return NotImplemented
        if self._hash != other._hash:
            return False
        return _struct_eq(self, other)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    def __str__(self) -> str:
        out: list[str] = []
        _print_expr(self, out, False, None, None)
        return "".join(out)

    def to_str(
        self,
        dim_names: Sequence[str] | None = None,
        symbol_names: Sequence[str] | None = None,
    ) -> str:
        """Print like MLIR but name dims/symbols from the given lists.

        A position without a name (list too short) falls back to ``dN``/``sN``.
        """
        out: list[str] = []
        _print_expr(self, out, False, dim_names, symbol_names)
        return "".join(out)

    # ---------------------------------------------------------- operators --
    # These build raw nodes (structure as written); only two constants fold.
    # The operand conversion is inlined: the parser calls these a lot.
    def __add__(self, other: AffineExpr | int) -> AffineExpr:
        if isinstance(other, AffineExpr):
            rhs = other
        elif type(other) is int:
            rhs = AffineConstantExpr(other)
        else:
            return NotImplemented
        if type(self) is AffineConstantExpr and type(rhs) is AffineConstantExpr:
            return AffineConstantExpr(self._value + rhs._value)
        return AffineBinaryExpr(_ADD, self, rhs)

    def __radd__(self, other: int) -> AffineExpr:
        if type(other) is not int:
            return NotImplemented
        return AffineConstantExpr(other).__add__(self)

    def __neg__(self) -> AffineExpr:
        if type(self) is AffineConstantExpr:
            return AffineConstantExpr(-self._value)
        return AffineBinaryExpr(_MUL, self, AffineConstantExpr(-1))

    def __sub__(self, other: AffineExpr | int) -> AffineExpr:
        if isinstance(other, AffineExpr):
            rhs = other.__neg__()
        elif type(other) is int:
            rhs = AffineConstantExpr(-other)
        else:
            return NotImplemented
        return self.__add__(rhs)

    def __rsub__(self, other: int) -> AffineExpr:
        if type(other) is not int:
            return NotImplemented
        return AffineConstantExpr(other).__add__(self.__neg__())

    def __mul__(self, other: AffineExpr | int) -> AffineExpr:
        if isinstance(other, AffineExpr):
            rhs = other
        elif type(other) is int:
            rhs = AffineConstantExpr(other)
        else:
            return NotImplemented
        if type(self) is AffineConstantExpr and type(rhs) is AffineConstantExpr:
            return AffineConstantExpr(self._value * rhs._value)
        return AffineBinaryExpr(_MUL, self, rhs)

    def __rmul__(self, other: int) -> AffineExpr:
        if type(other) is not int:
            return NotImplemented
        return AffineConstantExpr(other).__mul__(self)

    def floordiv(self, other: AffineExpr | int) -> AffineExpr:
        """Raw ``self floordiv other`` (two constants fold unless ``other == 0``)."""
        return _raw_div(_FLOORDIV, self, _as_expr(other))

    def ceildiv(self, other: AffineExpr | int) -> AffineExpr:
        """Raw ``self ceildiv other`` (two constants fold unless ``other == 0``)."""
        return _raw_div(_CEILDIV, self, _as_expr(other))

    def mod(self, other: AffineExpr | int) -> AffineExpr:
        """Raw ``self mod other`` (two constants fold if ``other >= 1``)."""
        return _raw_div(_MOD, self, _as_expr(other))

    def __floordiv__(self, other: AffineExpr | int) -> AffineExpr:
        rhs = _as_expr_or_none(other)
        if rhs is None:
            return NotImplemented
        return _raw_div(_FLOORDIV, self, rhs)

    def __mod__(self, other: AffineExpr | int) -> AffineExpr:
        rhs = _as_expr_or_none(other)
        if rhs is None:
            return NotImplemented
        return _raw_div(_MOD, self, rhs)

    # ------------------------------------------------------------ queries --
    def evaluate(self, dims: Sequence[int], symbols: Sequence[int]) -> int:
        """Value at the given point (exact; ZeroDivisionError on ``x / 0``)."""
        raise NotImplementedError

    def is_constant(self) -> bool:
        return False

    def is_symbolic_or_constant(self) -> bool:
        """True when no dimension occurs (MLIR ``isSymbolicOrConstant``)."""
        return not self._hd

    def is_pure_affine(self) -> bool:
        """MLIR ``isPureAffine``: mul needs a constant operand; div/mod a constant rhs."""
        raise NotImplementedError

    def uses_dim(self, pos: int) -> bool:
        """MLIR ``isFunctionOfDim``."""
        if not self._hd:
            return False
        return any(type(e) is AffineDimExpr and e._pos == pos for e in self.walk())

    def uses_symbol(self, pos: int) -> bool:
        """MLIR ``isFunctionOfSymbol``."""
        return any(type(e) is AffineSymbolExpr and e._pos == pos for e in self.walk())

    def max_dim(self) -> int:
        """Largest dimension position used, -1 if none."""
        if not self._hd:
            return -1
        best = -1
        for e in self.walk():
            if type(e) is AffineDimExpr and e._pos > best:
                best = e._pos
        return best

    def max_symbol(self) -> int:
        """Largest symbol position used, -1 if none."""
        best = -1
        for e in self.walk():
            if type(e) is AffineSymbolExpr and e._pos > best:
                best = e._pos
        return best

    def walk(self) -> Iterator[AffineExpr]:
        """Pre-order traversal (node, then lhs subtree, then rhs subtree)."""
        stack: list[AffineExpr] = [self]
        pop = stack.pop
        push = stack.append
        while stack:
            e = pop()
            yield e
            if type(e) is AffineBinaryExpr:
                push(e._rhs)
                push(e._lhs)

    def largest_known_divisor(self) -> int:
        """MLIR ``getLargestKnownDivisor`` (non-negative; 0 only for the constant 0)."""
        raise NotImplementedError

    # ------------------------------------------------------- transformers --
    def replace(
        self,
        dims: Sequence[AffineExpr],
        symbols: Sequence[AffineExpr],
        *,
        canonicalize: bool = True,
    ) -> AffineExpr:
        """Substitute ``dims[i]`` for ``d<i>`` and ``symbols[j]`` for ``s<j>``.

        MLIR ``replaceDimsAndSymbols``: positions beyond the lists are kept,
        unchanged subtrees are returned as they are (same objects, spans kept)
        and rebuilt nodes go through MLIR's construction-time canonicalization
        (``canonicalize=False`` rebuilds raw nodes instead, keeping the
        original nodes' spans).
        """
        raise NotImplementedError

    def compose(self, map: AffineMap) -> AffineExpr:
        """MLIR ``AffineExpr::compose``: replace dims by ``map``'s results."""
        return self.replace(map.results, ())

    def shift(
        self,
        num_dims_shift: int,
        num_syms_shift: int,
        dim_offset: int = 0,
        sym_offset: int = 0,
    ) -> AffineExpr:
        """Renumber: ``d<i>`` -> ``d<i+num_dims_shift>`` for ``i >= dim_offset``,
        ``s<j>`` -> ``s<j+num_syms_shift>`` for ``j >= sym_offset``.

        (MLIR ``shiftDims``/``shiftSymbols``.) The structure is kept and
        rebuilt nodes keep the spans of the nodes they replace.
        """
        if num_dims_shift == 0 and num_syms_shift == 0:
            return self
        return self._shift(num_dims_shift, num_syms_shift, dim_offset, sym_offset)

    def _shift(self, nds: int, nss: int, doff: int, soff: int) -> AffineExpr:
        raise NotImplementedError

    def canonicalize(self) -> AffineExpr:
        """Rebuild bottom-up with MLIR's construction-time rules.

        The result is what MLIR would hold after parsing this expression
        (e.g. ``2 * d0 + 1 + 3`` -> ``d0 * 2 + 4``). Returns ``self`` when
        nothing changes.
        """
        return self

    def simplify(self, *, fold_nested_divisions: bool = True) -> AffineExpr:
        """MLIR ``simplifyAffineExpr`` (after :meth:`canonicalize`).

        With ``fold_nested_divisions`` (the default) nested divisions by
        positive constants are merged as well: ``(d0 floordiv 2) floordiv 3``
        -> ``d0 floordiv 6`` (same for ``ceildiv``). MLIR itself keeps
        ``(d0 floordiv 2) floordiv 3``; pass ``False`` to reproduce
        ``mlir-opt`` output exactly.
        """
        return simplify_affine_expr(
            self,
            self.max_dim() + 1,
            self.max_symbol() + 1,
            fold_nested_divisions=fold_nested_divisions,
        )

    def linear_form(self, num_dims: int, num_symbols: int) -> tuple[list[int], list[int], int] | None:
        """``(dim coeffs, symbol coeffs, constant)`` of the simplified
        expression, or None when it is not linear (it keeps a floordiv,
        ceildiv, mod, or a product of non-constants).

        Raises ValueError if a position is outside ``num_dims``/``num_symbols``.
        """
        if self.max_dim() >= num_dims or self.max_symbol() >= num_symbols:
            raise ValueError(f"{self} uses identifiers beyond {num_dims} dims / {num_symbols} symbols")
        flat = linearize(self.simplify(), num_dims)
        if flat is None:
            return None
        coeffs, const = flat
        dims_c = [0] * num_dims
        syms_c = [0] * num_symbols
        for key, c in coeffs.items():
            if key < num_dims:
                dims_c[key] = c
            else:
                syms_c[key - num_dims] = c
        return dims_c, syms_c, const

    def __reduce__(self) -> tuple[object, ...]:
        raise NotImplementedError


@final
class AffineDimExpr(AffineExpr):
    """Dimension identifier ``d<position>``."""

    __slots__ = ("_pos",)
    _kind = _DIM

    def __init__(self, position: int, span: object | None = None) -> None:
        if position < 0:
            raise ValueError(f"negative dimension position {position}")
        self._pos = position
        self.span = span
        self._hash = hash((1, position))
        self._hd = True

    @property
    def position(self) -> int:
        return self._pos

    def evaluate(self, dims: Sequence[int], symbols: Sequence[int]) -> int:
        return dims[self._pos]

    def is_pure_affine(self) -> bool:
        return True

    def largest_known_divisor(self) -> int:
        return 1

    def replace(
        self,
        dims: Sequence[AffineExpr],
        symbols: Sequence[AffineExpr],
        *,
        canonicalize: bool = True,
    ) -> AffineExpr:
        if self._pos < len(dims):
            return dims[self._pos]
        return self

    def _shift(self, nds: int, nss: int, doff: int, soff: int) -> AffineExpr:
        if nds and self._pos >= doff:
            return AffineDimExpr(self._pos + nds, self.span)
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (AffineDimExpr, (self._pos, self.span))


@final
class AffineSymbolExpr(AffineExpr):
    """Symbol identifier ``s<position>``."""

    __slots__ = ("_pos",)
    _kind = _SYMBOL

    def __init__(self, position: int, span: object | None = None) -> None:
        if position < 0:
            raise ValueError(f"negative symbol position {position}")
        self._pos = position
        self.span = span
        self._hash = hash((2, position))
        self._hd = False

    @property
    def position(self) -> int:
        return self._pos

    def evaluate(self, dims: Sequence[int], symbols: Sequence[int]) -> int:
        return symbols[self._pos]

    def is_pure_affine(self) -> bool:
        return True

    def largest_known_divisor(self) -> int:
        return 1

    def replace(
        self,
        dims: Sequence[AffineExpr],
        symbols: Sequence[AffineExpr],
        *,
        canonicalize: bool = True,
    ) -> AffineExpr:
        if self._pos < len(symbols):
            return symbols[self._pos]
        return self

    def _shift(self, nds: int, nss: int, doff: int, soff: int) -> AffineExpr:
        if nss and self._pos >= soff:
            return AffineSymbolExpr(self._pos + nss, self.span)
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (AffineSymbolExpr, (self._pos, self.span))


@final
class AffineConstantExpr(AffineExpr):
    """Integer constant (arbitrary precision)."""

    __slots__ = ("_value",)
    _kind = _CONSTANT

    def __init__(self, value: int, span: object | None = None) -> None:
        self._value = value
        self.span = span
        self._hash = hash((3, value))
        self._hd = False

    @property
    def value(self) -> int:
        return self._value

    def is_constant(self) -> bool:
        return True

    def evaluate(self, dims: Sequence[int], symbols: Sequence[int]) -> int:
        return self._value

    def is_pure_affine(self) -> bool:
        return True

    def largest_known_divisor(self) -> int:
        return abs(self._value)

    def replace(
        self,
        dims: Sequence[AffineExpr],
        symbols: Sequence[AffineExpr],
        *,
        canonicalize: bool = True,
    ) -> AffineExpr:
        return self

    def _shift(self, nds: int, nss: int, doff: int, soff: int) -> AffineExpr:
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (AffineConstantExpr, (self._value, self.span))


@final
class AffineBinaryExpr(AffineExpr):
    """``lhs <op> rhs`` for op in ADD, MUL, MOD, FLOORDIV, CEILDIV.

    Subtraction is ``lhs + rhs * -1`` and negation ``x * -1``, as in MLIR.
    The constructor builds a raw node; see :func:`canonical_binary` for the
    canonicalizing equivalent.
    """

    __slots__ = ("_kind", "_lhs", "_rhs")

    def __init__(
        self,
        kind: AffineExprKind,
        lhs: AffineExpr,
        rhs: AffineExpr,
        span: object | None = None,
    ) -> None:
        if id(kind) not in _BINARY_KIND_IDS:
            raise ValueError(f"not a binary affine expression kind: {kind}")
        self._kind = kind
        self._lhs = lhs
        self._rhs = rhs
        self.span = span
        self._hash = hash((id(kind), lhs._hash, rhs._hash))
        self._hd = lhs._hd or rhs._hd

    @property
    def lhs(self) -> AffineExpr:
        return self._lhs

    @property
    def rhs(self) -> AffineExpr:
        return self._rhs

    def evaluate(self, dims: Sequence[int], symbols: Sequence[int]) -> int:
        lv = self._lhs.evaluate(dims, symbols)
        rv = self._rhs.evaluate(dims, symbols)
        k = self._kind
        if k is _ADD:
            return lv + rv
        if k is _MUL:
            return lv * rv
        if k is _FLOORDIV:
            return lv // rv
        if k is _CEILDIV:
            return -((-lv) // rv)
        return lv % rv

    def is_pure_affine(self) -> bool:
        k = self._kind
        lhs = self._lhs
        rhs = self._rhs
        if k is _ADD:
            return lhs.is_pure_affine() and rhs.is_pure_affine()
        if k is _MUL:
            return lhs.is_pure_affine() and rhs.is_pure_affine() and (type(lhs) is AffineConstantExpr or type(rhs) is AffineConstantExpr)
        return type(rhs) is AffineConstantExpr and lhs.is_pure_affine()

    def largest_known_divisor(self) -> int:
        k = self._kind
        if k is _MUL:
            return self._lhs.largest_known_divisor() * self._rhs.largest_known_divisor()
        if k is _ADD or k is _MOD:
            return math.gcd(self._lhs.largest_known_divisor(), self._rhs.largest_known_divisor())
        # FLOORDIV / CEILDIV: a constant rhs dividing the lhs divisor.
        rhs = self._rhs
        if type(rhs) is AffineConstantExpr and rhs._value != 0:
            lhs_div = self._lhs.largest_known_divisor()
            if lhs_div % rhs._value == 0:
                return abs(lhs_div // rhs._value)
        return 1

    def replace(
        self,
        dims: Sequence[AffineExpr],
        symbols: Sequence[AffineExpr],
        *,
        canonicalize: bool = True,
    ) -> AffineExpr:
        lhs = self._lhs
        rhs = self._rhs
        new_lhs = lhs.replace(dims, symbols, canonicalize=canonicalize)
        new_rhs = rhs.replace(dims, symbols, canonicalize=canonicalize)
        if (new_lhs is lhs or new_lhs == lhs) and (new_rhs is rhs or new_rhs == rhs):
            return self
        if canonicalize:
            return canonical_binary(self._kind, new_lhs, new_rhs)
        return AffineBinaryExpr(self._kind, new_lhs, new_rhs, self.span)

    def _shift(self, nds: int, nss: int, doff: int, soff: int) -> AffineExpr:
        lhs = self._lhs._shift(nds, nss, doff, soff)
        rhs = self._rhs._shift(nds, nss, doff, soff)
        if lhs is self._lhs and rhs is self._rhs:
            return self
        return AffineBinaryExpr(self._kind, lhs, rhs, self.span)

    def canonicalize(self) -> AffineExpr:
        lhs = self._lhs.canonicalize()
        rhs = self._rhs.canonicalize()
        simplified = _SIMPLIFIERS[id(self._kind)](lhs, rhs)
        if simplified is not None:
            return simplified
        if lhs is self._lhs and rhs is self._rhs:
            return self
        return AffineBinaryExpr(self._kind, lhs, rhs, self.span)

    def __reduce__(self) -> tuple[object, ...]:
        return (AffineBinaryExpr, (self._kind, self._lhs, self._rhs, self.span))


# ------------------------------------------------------------------ builders --


def dim(pos: int, span: object | None = None) -> AffineExpr:
    """``d<pos>``."""
    return AffineDimExpr(pos, span)


def symbol(pos: int, span: object | None = None) -> AffineExpr:
    """``s<pos>``."""
    return AffineSymbolExpr(pos, span)


def constant(v: int, span: object | None = None) -> AffineExpr:
    """Integer constant ``v``."""
    return AffineConstantExpr(v, span)


def _as_expr_or_none(value: object) -> AffineExpr | None:
    if isinstance(value, AffineExpr):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return AffineConstantExpr(value)
    return None


def _as_expr(value: object) -> AffineExpr:
    e = _as_expr_or_none(value)
    if e is None:
        raise TypeError(f"expected an AffineExpr or int, got {type(value).__name__}")
    return e


def _raw_div(kind: AffineExprKind, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    # Fold two constants exactly when MLIR does: floordiv/ceildiv by a non-zero
    # constant, mod by a positive one. Anything else (x floordiv 0, 7 mod -2)
    # stays visible to the verifier.
    if type(lhs) is AffineConstantExpr and type(rhs) is AffineConstantExpr:
        lv = lhs._value
        rv = rhs._value
        if kind is _MOD:
            if rv >= 1:
                return AffineConstantExpr(lv % rv)
        elif rv != 0:
            if kind is _FLOORDIV:
                return AffineConstantExpr(lv // rv)
            return AffineConstantExpr(-((-lv) // rv))
    return AffineBinaryExpr(kind, lhs, rhs)


def from_linear_form(dim_coeffs: Sequence[int], symbol_coeffs: Sequence[int], const: int) -> AffineExpr:
    """Build the canonical expression ``sum(c_i * d_i) + sum(k_j * s_j) + const``.

    This is MLIR ``getAffineExprFromFlatForm`` without local variables, so the
    result prints exactly as MLIR prints such an expression.
    """
    expr: AffineExpr = AffineConstantExpr(0)
    for i, c in enumerate(dim_coeffs):
        if c:
            expr = canonical_add(expr, canonical_mul(AffineDimExpr(i), AffineConstantExpr(c)))
    for j, c in enumerate(symbol_coeffs):
        if c:
            expr = canonical_add(expr, canonical_mul(AffineSymbolExpr(j), AffineConstantExpr(c)))
    if const:
        expr = canonical_add(expr, AffineConstantExpr(const))
    return expr


# ----------------------------------------------------------------- equality --


def _struct_eq(a: AffineExpr, b: AffineExpr) -> bool:
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x is y:
            continue
        if type(x) is not type(y) or x._hash != y._hash:
            return False
        if type(x) is AffineBinaryExpr and type(y) is AffineBinaryExpr:
            if x._kind is not y._kind:
                return False
            stack.append((x._lhs, y._lhs))
            stack.append((x._rhs, y._rhs))
        elif type(x) is AffineConstantExpr and type(y) is AffineConstantExpr:
            if x._value != y._value:
                return False
        elif (type(x) is AffineDimExpr and type(y) is AffineDimExpr) or (type(x) is AffineSymbolExpr and type(y) is AffineSymbolExpr):
            if x._pos != y._pos:
                return False
    return True


# ----------------------------------------------------------------- printing --


def _print_expr(
    e: AffineExpr,
    out: list[str],
    strong: bool,
    dim_names: Sequence[str] | None,
    sym_names: Sequence[str] | None,
) -> None:
    """MLIR ``printAffineExprInternal`` (``strong`` = BindingStrength::Strong)."""
    if type(e) is AffineDimExpr:
        pos = e._pos
        if dim_names is not None and pos < len(dim_names):
            out.append(dim_names[pos])
        else:
            out.append(f"d{pos}")
        return
    if type(e) is AffineSymbolExpr:
        pos = e._pos
        if sym_names is not None and pos < len(sym_names):
            out.append(sym_names[pos])
        else:
            out.append(f"s{pos}")
        return
    if type(e) is AffineConstantExpr:
        out.append(str(e._value))
        return
    assert isinstance(e, AffineBinaryExpr)
    kind = e._kind
    lhs = e._lhs
    rhs = e._rhs

    # Tightly binding binary operators.
    if kind is not _ADD:
        if strong:
            out.append("(")
        if kind is _MUL and type(rhs) is AffineConstantExpr and rhs._value == -1:
            out.append("-")
            _print_expr(lhs, out, True, dim_names, sym_names)
        else:
            _print_expr(lhs, out, True, dim_names, sym_names)
            if kind is _MUL:
                out.append(" * ")
            elif kind is _FLOORDIV:
                out.append(" floordiv ")
            elif kind is _CEILDIV:
                out.append(" ceildiv ")
            else:
                out.append(" mod ")
            _print_expr(rhs, out, True, dim_names, sym_names)
        if strong:
            out.append(")")
        return

    # Pretty forms of addition.
    if strong:
        out.append("(")
    if type(rhs) is AffineBinaryExpr and rhs._kind is _MUL:
        rrhs = rhs._rhs
        if type(rrhs) is AffineConstantExpr:
            if rrhs._value == -1:
                # a + b * -1  ->  a - b
                _print_expr(lhs, out, False, dim_names, sym_names)
                out.append(" - ")
                rl = rhs._lhs
                rl_is_add = type(rl) is AffineBinaryExpr and rl._kind is _ADD
                _print_expr(rl, out, rl_is_add, dim_names, sym_names)
                if strong:
                    out.append(")")
                return
            if rrhs._value < -1:
                # a + b * -c  ->  a - b * c
                _print_expr(lhs, out, False, dim_names, sym_names)
                out.append(" - ")
                _print_expr(rhs._lhs, out, True, dim_names, sym_names)
                out.append(f" * {-rrhs._value}")
                if strong:
                    out.append(")")
                return
    if type(rhs) is AffineConstantExpr and rhs._value < 0:
        # a + -c  ->  a - c
        _print_expr(lhs, out, False, dim_names, sym_names)
        out.append(f" - {-rhs._value}")
        if strong:
            out.append(")")
        return
    _print_expr(lhs, out, False, dim_names, sym_names)
    out.append(" + ")
    _print_expr(rhs, out, False, dim_names, sym_names)
    if strong:
        out.append(")")


# ------------------------------------------ construction-time canonicalization --
# Ports of simplifyAdd / simplifyMul / simplifyFloorDiv / simplifyCeilDiv /
# simplifyMod from mlir/lib/IR/AffineExpr.cpp. Each returns None when MLIR's
# returns nullptr (no simplification: a plain node is built). The rules are
# those of LLVM 22 (checked node for node against libMLIR 22.1.8), which adds
# to the older published sources: ordering of two dim/symbol leaves, folding
# of floordiv/ceildiv by negative constants, a positive divisor for the
# "e - (e floordiv c) * c -> e mod c" rule, and its retry on the last summand.


def _simplify_add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr | None:
    rc = rhs if type(rhs) is AffineConstantExpr else None
    if type(lhs) is AffineConstantExpr:
        if rc is not None:
            return AffineConstantExpr(lhs._value + rc._value)
        return canonical_add(rhs, lhs)

    # Only the RHS may be a constant; a lone symbolic operand goes right.
    if not lhs._hd and rhs._hd:
        return canonical_add(rhs, lhs)

    # d1 + d0  ->  d0 + d1 (same for two symbols).
    if _leaf_out_of_order(lhs, rhs):
        return canonical_add(rhs, lhs)

    if rc is not None and rc._value == 0:
        return lhs

    lbin = lhs if type(lhs) is AffineBinaryExpr else None
    # (d0 + 2) + 3  ->  d0 + 5
    if lbin is not None and rc is not None and lbin._kind is _ADD and type(lbin._rhs) is AffineConstantExpr:
        return canonical_add(lbin._lhs, AffineConstantExpr(lbin._rhs._value + rc._value))

    # c1 * e + c2 * e  ->  (c1 + c2) * e
    if lbin is not None and lbin._kind is _MUL and type(lbin._rhs) is AffineConstantExpr:
        l_coeff = lbin._rhs._value
        first = lbin._lhs
    else:
        l_coeff = 1
        first = lhs
    rbin = rhs if type(rhs) is AffineBinaryExpr else None
    if rbin is not None and rbin._kind is _MUL and type(rbin._rhs) is AffineConstantExpr:
        r_coeff = rbin._rhs._value
        second = rbin._lhs
    else:
        r_coeff = 1
        second = rhs
    if first == second:
        return canonical_mul(first, AffineConstantExpr(l_coeff + r_coeff))

    # (d0 + 2) + d1  ->  (d0 + d1) + 2
    if lbin is not None and lbin._kind is _ADD and type(lbin._rhs) is AffineConstantExpr:
        return canonical_add(canonical_add(lbin._lhs, rhs), lbin._rhs)

    # e - q * (e floordiv q)  ->  e mod q
    if rbin is None:
        return None
    lrhs = rbin._lhs
    rrhs = rbin._rhs
    if type(rrhs) is AffineConstantExpr and rrhs._value == -1 and type(lrhs) is AffineBinaryExpr and lrhs._kind is _MUL:
        llrhs = lrhs._lhs
        rlrhs = lrhs._rhs
        if type(llrhs) is not AffineBinaryExpr or llrhs._kind is not _FLOORDIV:
            return None
        if llrhs._rhs == rlrhs and lhs == llrhs._lhs:
            return canonical_mod(lhs, rlrhs)
    # e + (e floordiv c) * -c  ->  e mod c  (c a positive constant)
    if rbin._kind is not _MUL or type(lrhs) is not AffineBinaryExpr or lrhs._kind is not _FLOORDIV:
        return None
    divisor = lrhs._rhs
    if type(divisor) is AffineConstantExpr and divisor._value > 0 and type(rrhs) is AffineConstantExpr and rrhs._value == -divisor._value and lhs == lrhs._lhs:
        return canonical_mod(lhs, divisor)
    # (x + y) + (e floordiv c) * k  ->  x + (y + (e floordiv c) * k)  when the
    # inner sum simplifies (e.g. to y mod c).
    if lbin is not None and lbin._kind is _ADD:
        inner = _simplify_add(lbin._rhs, rhs)
        if inner is not None:
            return canonical_add(lbin._lhs, inner)
    return None


def _leaf_out_of_order(lhs: AffineExpr, rhs: AffineExpr) -> bool:
    """Two dims (or two symbols) with the higher position first."""
    if type(lhs) is AffineDimExpr:
        return type(rhs) is AffineDimExpr and rhs._pos < lhs._pos
    if type(lhs) is AffineSymbolExpr:
        return type(rhs) is AffineSymbolExpr and rhs._pos < lhs._pos
    return False


def _simplify_mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr | None:
    rc = rhs if type(rhs) is AffineConstantExpr else None
    if type(lhs) is AffineConstantExpr:
        if rc is not None:
            return AffineConstantExpr(lhs._value * rc._value)
        # The constant operand goes right.
        return canonical_mul(rhs, lhs)

    if lhs._hd and rhs._hd:
        # Not even semi-affine (MLIR asserts); keep the product as written.
        return None

    # The symbolic operand goes right.
    if rhs._hd:
        return canonical_mul(rhs, lhs)

    # s1 * s0  ->  s0 * s1
    if _leaf_out_of_order(lhs, rhs):
        return canonical_mul(rhs, lhs)

    if rc is not None:
        if rc._value == 1:
            return lhs
        if rc._value == 0:
            return rc

    lbin = lhs if type(lhs) is AffineBinaryExpr else None
    if lbin is not None and lbin._kind is _MUL and type(lbin._rhs) is AffineConstantExpr:
        # (d0 * 2) * 3  ->  d0 * 6
        if rc is not None:
            return canonical_mul(lbin._lhs, AffineConstantExpr(lbin._rhs._value * rc._value))
        # (d0 * 2) * s0  ->  (d0 * s0) * 2
        return canonical_mul(canonical_mul(lbin._lhs, rhs), lbin._rhs)
    return None


def _simplify_floordiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr | None:
    if type(rhs) is not AffineConstantExpr:
        return None
    c = rhs._value
    # Division by zero is kept as written (negative divisors fold, as in LLVM >= 19).
    if c == 0:
        return None
    if type(lhs) is AffineConstantExpr:
        return AffineConstantExpr(lhs._value // c)
    if c == 1:
        return lhs
    if type(lhs) is AffineBinaryExpr:
        lk = lhs._kind
        # (e * k) floordiv c  ->  e * (k / c)  when c divides k.
        if lk is _MUL and type(lhs._rhs) is AffineConstantExpr:
            k = lhs._rhs._value
            if k % c == 0:
                return canonical_mul(lhs._lhs, AffineConstantExpr(k // c))
        # (a + b) floordiv c  ->  a floordiv c + b floordiv c  when c | a or c | b.
        if lk is _ADD and (lhs._lhs.largest_known_divisor() % c == 0 or lhs._rhs.largest_known_divisor() % c == 0):
            return canonical_add(canonical_floordiv(lhs._lhs, rhs), canonical_floordiv(lhs._rhs, rhs))
    return None


def _simplify_ceildiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr | None:
    if type(rhs) is not AffineConstantExpr:
        return None
    c = rhs._value
    if c == 0:
        return None
    if type(lhs) is AffineConstantExpr:
        return AffineConstantExpr(-((-lhs._value) // c))
    if c == 1:
        return lhs
    # (e * k) ceildiv c  ->  e * (k / c)  when c divides k.
    if type(lhs) is AffineBinaryExpr and lhs._kind is _MUL and type(lhs._rhs) is AffineConstantExpr:
        k = lhs._rhs._value
        if k % c == 0:
            return canonical_mul(lhs._lhs, AffineConstantExpr(k // c))
    return None


def _simplify_mod(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr | None:
    if type(rhs) is not AffineConstantExpr:
        return None
    c = rhs._value
    # Modulo by zero or a negative number is kept as written.
    if c < 1:
        return None
    if type(lhs) is AffineConstantExpr:
        return AffineConstantExpr(lhs._value % c)
    # A known multiple of c: (i * 128) mod 64 -> 0.
    if lhs.largest_known_divisor() % c == 0:
        return AffineConstantExpr(0)
    if type(lhs) is AffineBinaryExpr:
        lk = lhs._kind
        # (a + b) mod c  ->  b mod c  when c | a  (resp. a mod c when c | b).
        if lk is _ADD:
            if lhs._lhs.largest_known_divisor() % c == 0:
                return canonical_mod(lhs._rhs, rhs)
            if lhs._rhs.largest_known_divisor() % c == 0:
                return canonical_mod(lhs._lhs, rhs)
        # (e mod a) mod b  ->  e mod b  when b divides a.
        elif lk is _MOD:
            inner = lhs._rhs
            if type(inner) is AffineConstantExpr and inner._value >= 1 and inner._value % c == 0:
                return canonical_mod(lhs._lhs, rhs)
    return None


def canonical_add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """``lhs + rhs`` as MLIR's ``AffineExpr::operator+`` builds it."""
    s = _simplify_add(lhs, rhs)
    return s if s is not None else AffineBinaryExpr(_ADD, lhs, rhs)


def canonical_mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """``lhs * rhs`` as MLIR's ``AffineExpr::operator*`` builds it."""
    s = _simplify_mul(lhs, rhs)
    return s if s is not None else AffineBinaryExpr(_MUL, lhs, rhs)


def canonical_floordiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """``lhs floordiv rhs`` as MLIR's ``AffineExpr::floorDiv`` builds it."""
    s = _simplify_floordiv(lhs, rhs)
    return s if s is not None else AffineBinaryExpr(_FLOORDIV, lhs, rhs)


def canonical_ceildiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """``lhs ceildiv rhs`` as MLIR's ``AffineExpr::ceilDiv`` builds it."""
    s = _simplify_ceildiv(lhs, rhs)
    return s if s is not None else AffineBinaryExpr(_CEILDIV, lhs, rhs)


def canonical_mod(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """``lhs mod rhs`` as MLIR's ``AffineExpr::operator%`` builds it."""
    s = _simplify_mod(lhs, rhs)
    return s if s is not None else AffineBinaryExpr(_MOD, lhs, rhs)


# Keyed by id(kind): hashing an Enum member runs Python code.
_SIMPLIFIERS = {
    id(_ADD): _simplify_add,
    id(_MUL): _simplify_mul,
    id(_FLOORDIV): _simplify_floordiv,
    id(_CEILDIV): _simplify_ceildiv,
    id(_MOD): _simplify_mod,
}

_CANONICAL_BUILDERS = {
    id(_ADD): canonical_add,
    id(_MUL): canonical_mul,
    id(_FLOORDIV): canonical_floordiv,
    id(_CEILDIV): canonical_ceildiv,
    id(_MOD): canonical_mod,
}


def canonical_binary(kind: AffineExprKind, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """MLIR ``getAffineBinaryOpExpr``: the canonicalizing constructor for ``kind``."""
    try:
        return _CANONICAL_BUILDERS[id(kind)](lhs, rhs)
    except KeyError:
        raise ValueError(f"not a binary affine expression kind: {kind}") from None


# ------------------------------------------------------ semi-affine rules --
# Ports of isDivisibleBySymbol / symbolicDivide / isModOfModSubtraction /
# simplifySemiAffine.


def _is_divisible_by_symbol(expr: AffineExpr, pos: int, op_kind: AffineExprKind) -> bool:
    if type(expr) is AffineConstantExpr:
        return expr._value == 0
    if type(expr) is AffineSymbolExpr:
        return expr._pos == pos
    if type(expr) is not AffineBinaryExpr:
        return False  # a dimension
    k = expr._kind
    if k is _ADD:
        return _is_divisible_by_symbol(expr._lhs, pos, op_kind) and _is_divisible_by_symbol(expr._rhs, pos, op_kind)
    if k is _MOD:
        return _is_divisible_by_symbol(expr._lhs, pos, _MOD) and _is_divisible_by_symbol(expr._rhs, pos, _MOD)
    if k is _MUL:
        # Under a product the commutation of nested divisions below does not
        # hold ((x floordiv 9) * 5) floordiv s != ((x floordiv s) floordiv 9) * 5),
        # so the operands must be exact multiples (LLVM 22 behaves the same).
        return _is_divisible_by_symbol(expr._lhs, pos, _MUL) or _is_divisible_by_symbol(expr._rhs, pos, _MUL)
    # FLOORDIV / CEILDIV: (a div b) div s == (a div s) div b for the same kind.
    if op_kind is not k:
        return False
    return _is_divisible_by_symbol(expr._lhs, pos, k)


def _symbolic_divide(expr: AffineExpr, pos: int, op_kind: AffineExprKind) -> AffineExpr | None:
    if type(expr) is AffineConstantExpr:
        return AffineConstantExpr(0) if expr._value == 0 else None
    if type(expr) is AffineSymbolExpr:
        return AffineConstantExpr(1) if expr._pos == pos else None
    if type(expr) is not AffineBinaryExpr:
        return None  # a dimension
    k = expr._kind
    if k is _ADD or k is _MOD:
        sub_kind = op_kind if k is _ADD else k
        lhs = _symbolic_divide(expr._lhs, pos, sub_kind)
        rhs = _symbolic_divide(expr._rhs, pos, sub_kind)
        if lhs is None or rhs is None:
            return None
        return canonical_binary(k, lhs, rhs)
    if k is _MUL:
        # Divide the operand that is an exact multiple. (LLVM 22 still picks
        # with the outer division kind here, and so folds
        # ((s1 floordiv 9) * s1) floordiv s1 to 0 instead of s1 floordiv 9.)
        if not _is_divisible_by_symbol(expr._lhs, pos, _MUL):
            rhs = _symbolic_divide(expr._rhs, pos, _MUL)
            return None if rhs is None else canonical_mul(expr._lhs, rhs)
        lhs = _symbolic_divide(expr._lhs, pos, _MUL)
        return None if lhs is None else canonical_mul(lhs, expr._rhs)
    lhs = _symbolic_divide(expr._lhs, pos, k)
    return None if lhs is None else canonical_binary(k, lhs, expr._rhs)


def _summands(expr: AffineExpr, out: list[AffineExpr]) -> None:
    if type(expr) is AffineBinaryExpr and expr._kind is _ADD:
        _summands(expr._lhs, out)
        _summands(expr._rhs, out)
    else:
        out.append(expr)


def _negated(expr: AffineExpr) -> AffineExpr | None:
    if type(expr) is not AffineBinaryExpr or expr._kind is not _MUL:
        return None
    lhs = expr._lhs
    rhs = expr._rhs
    if type(lhs) is AffineConstantExpr and lhs._value == -1:
        return rhs
    if type(rhs) is AffineConstantExpr and rhs._value == -1:
        return lhs
    return None


def _is_mod_of_mod_subtraction(lhs: AffineExpr, rhs: AffineExpr, nd: int, ns: int, fold: bool) -> bool:
    """True when ``lhs`` is ``x - x mod rhs`` (so ``lhs mod rhs == 0``)."""
    summands: list[AffineExpr] = []
    _summands(lhs, summands)
    for i, cur in enumerate(summands):
        inner = _negated(cur)
        if type(inner) is not AffineBinaryExpr or inner._kind is not _MOD:
            continue
        if inner._rhs != rhs:
            continue
        diff: AffineExpr = AffineConstantExpr(0)
        for j, other in enumerate(summands):
            if i != j:
                diff = canonical_add(diff, other)
        diff = canonical_add(diff, canonical_mul(inner._lhs, AffineConstantExpr(-1)))
        diff = simplify_affine_expr(diff, nd, ns, fold_nested_divisions=fold)
        if type(diff) is AffineConstantExpr and diff._value == 0:
            return True
    return False


def _simplify_semi_affine(expr: AffineExpr, nd: int, ns: int, fold: bool) -> AffineExpr:
    if type(expr) is not AffineBinaryExpr:
        return expr
    k = expr._kind
    s_lhs = _simplify_semi_affine(expr._lhs, nd, ns, fold)
    s_rhs = _simplify_semi_affine(expr._rhs, nd, ns, fold)
    if k is _ADD or k is _MUL:
        return canonical_binary(k, s_lhs, s_rhs)
    # MLIR applies this to floordiv/ceildiv too, which is wrong for them
    # ((x - x mod s) floordiv s == x floordiv s, not 0); only mod is sound.
    if k is _MOD and _is_mod_of_mod_subtraction(s_lhs, s_rhs, nd, ns, fold):
        return AffineConstantExpr(0)
    if type(s_rhs) is not AffineSymbolExpr:
        return canonical_binary(k, s_lhs, s_rhs)
    pos = s_rhs._pos
    if not _is_divisible_by_symbol(expr._lhs, pos, k):
        return canonical_binary(k, s_lhs, s_rhs)
    if k is _MOD:
        return AffineConstantExpr(0)
    divided = _symbolic_divide(s_lhs, pos, k)
    return divided if divided is not None else canonical_binary(k, s_lhs, s_rhs)


# ------------------------------------------------------------- flattening --


class _Flattener:
    """Port of MLIR's ``SimpleAffineExprFlattener``.

    Flat vectors are ``[dims..., symbols..., locals..., constant]``; a local
    is an opaque sub-expression (a div/mod by a constant, or a semi-affine
    product/div/mod) kept in ``local_exprs``.
    """

    __slots__ = ("fold", "local_divs", "local_exprs", "nd", "ns", "num_locals", "stack")

    def __init__(self, nd: int, ns: int, fold: bool) -> None:
        self.nd = nd
        self.ns = ns
        self.num_locals = 0
        self.local_exprs: list[AffineExpr] = []
        # For each local: (kind, dividend, divisor) when it is known to be
        # ``dividend floordiv/ceildiv divisor`` for a positive constant divisor.
        self.local_divs: list[tuple[AffineExprKind, list[int], int] | None] = []
        self.stack: list[list[int]] = []
        self.fold = fold

    def _zeros(self) -> list[int]:
        return [0] * (self.nd + self.ns + self.num_locals + 1)

    def visit(self, e: AffineExpr) -> bool:
        """Post-order walk; False when a division by a non-positive constant is met."""
        t = type(e)
        if t is AffineBinaryExpr:
            assert isinstance(e, AffineBinaryExpr)
            if not self.visit(e._lhs) or not self.visit(e._rhs):
                return False
            k = e._kind
            if k is _ADD:
                rhs = self.stack.pop()
                lhs = self.stack[-1]
                for i, v in enumerate(rhs):
                    if v:
                        lhs[i] += v
                return True
            if k is _MUL:
                return self._visit_mul(e)
            if k is _MOD:
                return self._visit_mod(e)
            return self._visit_div(e, k is _CEILDIV)
        vec = self._zeros()
        if type(e) is AffineConstantExpr:
            vec[-1] = e._value
        elif type(e) is AffineDimExpr:
            vec[e._pos] = 1
        elif type(e) is AffineSymbolExpr:
            vec[self.nd + e._pos] = 1
        self.stack.append(vec)
        return True

    def _visit_mul(self, e: AffineBinaryExpr) -> bool:
        rhs = self.stack.pop()
        lhs = self.stack[-1]
        if type(e._rhs) is not AffineConstantExpr:
            a = self.from_flat(lhs)
            b = self.from_flat(rhs)
            self._add_local_semi(canonical_mul(a, b), lhs)
            return True
        c = rhs[-1]
        for i in range(len(lhs)):
            lhs[i] *= c
        return True

    def _visit_mod(self, e: AffineBinaryExpr) -> bool:
        rhs = self.stack.pop()
        lhs = self.stack[-1]
        if type(e._rhs) is not AffineConstantExpr:
            a = self.from_flat(lhs)
            b = self.from_flat(rhs)
            self._add_local_semi(canonical_mod(a, b), lhs)
            return True
        c = rhs[-1]
        if c <= 0:
            return False
        if all(v % c == 0 for v in lhs):
            for i in range(len(lhs)):
                lhs[i] = 0
            return True
        # e mod c  ->  e - c * (e floordiv c), cancelling the gcd in the quotient.
        g = c
        for v in lhs:
            g = math.gcd(g, v)
        dividend = [v // g for v in lhs]
        divisor = c // g
        div_expr = canonical_floordiv(self.from_flat(dividend), AffineConstantExpr(divisor))
        loc = self._find_local(div_expr)
        if loc < 0:
            self._add_local(div_expr, (_FLOORDIV, dividend, divisor))
            loc = self.num_locals - 1
        lhs[self.nd + self.ns + loc] = -c
        return True

    def _visit_div(self, e: AffineBinaryExpr, is_ceil: bool) -> bool:
        rhs = self.stack.pop()
        lhs = self.stack[-1]
        if type(e._rhs) is not AffineConstantExpr:
            a = self.from_flat(lhs)
            b = self.from_flat(rhs)
            div = canonical_ceildiv(a, b) if is_ceil else canonical_floordiv(a, b)
            self._add_local_semi(div, lhs)
            return True
        c = rhs[-1]
        if c <= 0:
            return False
        divisor = self._reduce_by_gcd(lhs, c)
        if divisor == 1:
            return True
        kind = _CEILDIV if is_ceil else _FLOORDIV
        if self.fold:
            divisor = self._fold_nested(lhs, divisor, kind)
            if divisor == 1:
                return True
        a = self.from_flat(lhs)
        b = AffineConstantExpr(divisor)
        div_expr = canonical_ceildiv(a, b) if is_ceil else canonical_floordiv(a, b)
        loc = self._find_local(div_expr)
        if loc < 0:
            self._add_local(div_expr, (kind, list(lhs), divisor))
            loc = self.num_locals - 1
        for i in range(len(lhs)):
            lhs[i] = 0
        lhs[self.nd + self.ns + loc] = 1
        return True

    @staticmethod
    def _reduce_by_gcd(vec: list[int], divisor: int) -> int:
        g = divisor
        for v in vec:
            g = math.gcd(g, v)
        if g != 1:
            for i in range(len(vec)):
                vec[i] //= g
        return divisor // g

    def _fold_nested(self, lhs: list[int], divisor: int, kind: AffineExprKind) -> int:
        """``(q + k) div c`` where ``q = D div a`` (same kind)  ->  ``(D + k*a) div (a*c)``.

        Not done by MLIR; valid for positive ``a`` and ``c``.
        """
        start = self.nd + self.ns
        while True:
            nonzero = [i for i in range(len(lhs) - 1) if lhs[i] != 0]
            if len(nonzero) != 1 or nonzero[0] < start or lhs[nonzero[0]] != 1:
                return divisor
            info = self.local_divs[nonzero[0] - start]
            if info is None or info[0] is not kind:
                return divisor
            _, dividend, inner = info
            new = list(dividend)
            while len(new) < len(lhs):
                new.insert(len(new) - 1, 0)
            new[-1] += lhs[-1] * inner
            lhs[:] = new
            divisor = self._reduce_by_gcd(lhs, divisor * inner)
            if divisor == 1:
                return 1

    def _find_local(self, expr: AffineExpr) -> int:
        for i, e in enumerate(self.local_exprs):
            if e == expr:
                return i
        return -1

    def _add_local(self, expr: AffineExpr, div_info: tuple[AffineExprKind, list[int], int] | None) -> None:
        at = self.nd + self.ns + self.num_locals
        for vec in self.stack:
            vec.insert(at, 0)
        self.local_exprs.append(expr)
        self.local_divs.append(div_info)
        self.num_locals += 1

    def _add_local_semi(self, expr: AffineExpr, result: list[int]) -> None:
        loc = self._find_local(expr)
        if loc < 0:
            self._add_local(expr, None)
            loc = self.num_locals - 1
        for i in range(len(result)):
            result[i] = 0
        result[self.nd + self.ns + loc] = 1

    def from_flat(self, flat: Sequence[int]) -> AffineExpr:
        """MLIR ``getAffineExprFromFlatForm``."""
        nd = self.nd
        nids = nd + self.ns
        expr: AffineExpr = AffineConstantExpr(0)
        for j in range(nids):
            c = flat[j]
            if c:
                ident = AffineDimExpr(j) if j < nd else AffineSymbolExpr(j - nd)
                expr = canonical_add(expr, canonical_mul(ident, AffineConstantExpr(c)))
        for j in range(nids, len(flat) - 1):
            c = flat[j]
            if c:
                term = canonical_mul(self.local_exprs[j - nids], AffineConstantExpr(c))
                expr = canonical_add(expr, term)
        if flat[-1]:
            expr = canonical_add(expr, AffineConstantExpr(flat[-1]))
        return expr

    def semi_from_flat(self, flat: Sequence[int]) -> AffineExpr:
        """MLIR ``getSemiAffineExprFromFlatForm``: terms sorted by position.

        MLIR asserts that no two terms share a sort key; we keep both (in
        insertion order) instead of dropping one.
        """
        nd = self.nd
        ns = self.ns
        nids = nd + ns
        top = max(nd, ns)
        entries: list[tuple[int, int, int, int, AffineExpr]] = []

        def add_entry(key_a: int, key_b: int, coeff: int, e: AffineExpr) -> None:
            entries.append((key_a, key_b, len(entries), coeff, e))

        offset_sym = 0
        offset_dim = -1
        for j in range(nd, nids):
            if flat[j]:
                add_entry(j - nd, top + offset_sym, flat[j], AffineSymbolExpr(j - nd))
                offset_sym += 1
        added = [False] * self.num_locals
        for i, local in enumerate(self.local_exprs):
            coeff = flat[nids + i]
            if coeff == 0 or type(local) is not AffineBinaryExpr:
                continue
            lhs = local._lhs
            rhs = local._rhs
            if type(lhs) is AffineDimExpr:
                if type(rhs) is AffineConstantExpr:
                    add_entry(lhs._pos, offset_dim, coeff, local)
                    offset_dim -= 1
                elif type(rhs) is AffineSymbolExpr:
                    add_entry(lhs._pos, rhs._pos, coeff, local)
                else:
                    continue
            elif type(lhs) is AffineSymbolExpr and (type(rhs) is AffineConstantExpr or type(rhs) is AffineSymbolExpr):
                add_entry(lhs._pos, top + offset_sym, coeff, local)
                offset_sym += 1
            else:
                continue
            added[i] = True
        for j in range(nd):
            if flat[j]:
                add_entry(j, offset_dim, flat[j], AffineDimExpr(j))
                offset_dim -= 1
        entries.sort(key=lambda entry: (entry[0], entry[1], entry[2]))

        expr: AffineExpr = AffineConstantExpr(0)
        for _, _, _, coeff, e in entries:
            expr = canonical_add(expr, canonical_mul(e, AffineConstantExpr(coeff)))
        for j in range(nids, len(flat) - 1):
            c = flat[j]
            if c and not added[j - nids]:
                expr = canonical_add(expr, canonical_mul(self.local_exprs[j - nids], AffineConstantExpr(c)))
        if flat[-1]:
            expr = canonical_add(expr, AffineConstantExpr(flat[-1]))
        return expr


def simplify_affine_expr(
    expr: AffineExpr,
    num_dims: int,
    num_symbols: int,
    *,
    fold_nested_divisions: bool = True,
) -> AffineExpr:
    """MLIR ``simplifyAffineExpr(expr, numDims, numSymbols)``.

    ``expr`` is canonicalized first (MLIR expressions always are). The counts
    are raised to cover the positions ``expr`` uses. See
    :meth:`AffineExpr.simplify` for ``fold_nested_divisions``.
    """
    expr = expr.canonicalize()
    nd = max(num_dims, expr.max_dim() + 1)
    ns = max(num_symbols, expr.max_symbol() + 1)
    fold = fold_nested_divisions
    if not expr.is_pure_affine():
        expr = _simplify_semi_affine(expr, nd, ns, fold)
    flattener = _Flattener(nd, ns, fold)
    if not flattener.visit(expr):
        return expr  # division by a non-positive constant: leave it alone
    flat = flattener.stack[-1]
    if expr.is_pure_affine():
        return flattener.from_flat(flat)
    if expr == flattener.from_flat(flat):
        return expr
    return flattener.semi_from_flat(flat)


def linearize(expr: AffineExpr, nd: int) -> tuple[dict[int, int], int] | None:
    """Coefficients keyed by column (dims, then ``nd + symbol``) and constant."""
    if type(expr) is AffineConstantExpr:
        return {}, expr._value
    if type(expr) is AffineDimExpr:
        return {expr._pos: 1}, 0
    if type(expr) is AffineSymbolExpr:
        return {nd + expr._pos: 1}, 0
    assert type(expr) is AffineBinaryExpr
    k = expr._kind
    if k is not _ADD and k is not _MUL:
        return None
    left = linearize(expr._lhs, nd)
    if left is None:
        return None
    right = linearize(expr._rhs, nd)
    if right is None:
        return None
    if k is _ADD:
        coeffs = dict(left[0])
        for key, c in right[0].items():
            coeffs[key] = coeffs.get(key, 0) + c
        return {key: c for key, c in coeffs.items() if c}, left[1] + right[1]
    if not left[0]:
        scale, (coeffs, const) = left[1], right
    elif not right[0]:
        scale, (coeffs, const) = right[1], left
    else:
        return None
    if scale == 0:
        return {}, 0
    return {key: c * scale for key, c in coeffs.items()}, const * scale


# ---------------------------------------------------------------- AffineMap --


def _check_counts(num_dims: int, num_symbols: int) -> None:
    if not (_is_int(num_dims) and _is_int(num_symbols)) or num_dims < 0 or num_symbols < 0:
        raise ValueError(f"invalid dimension/symbol counts ({num_dims}, {num_symbols})")


def _check_exprs(exprs: tuple[AffineExpr, ...], num_dims: int, num_symbols: int, what: str) -> None:
    for e in exprs:
        if not isinstance(e, AffineExpr):
            raise TypeError(f"{what} must be AffineExpr, got {type(e).__name__}")
        if e.max_dim() >= num_dims or e.max_symbol() >= num_symbols:
            raise ValueError(f"{what} {e} uses identifiers beyond ({num_dims} dims, {num_symbols} symbols)")


def _id_list(prefix: str, count: int, names: Sequence[str] | None) -> str:
    return ", ".join(names[i] if names is not None and i < len(names) else f"{prefix}{i}" for i in range(count))


def _print_ids(
    num_dims: int,
    num_symbols: int,
    dim_names: Sequence[str] | None,
    symbol_names: Sequence[str] | None,
) -> str:
    text = f"({_id_list('d', num_dims, dim_names)})"
    if num_symbols:
        text += f"[{_id_list('s', num_symbols, symbol_names)}]"
    return text


def _check_point(dims: Sequence[int], symbols: Sequence[int], num_dims: int, num_symbols: int) -> None:
    if len(dims) != num_dims or len(symbols) != num_symbols:
        raise ValueError(f"expected {num_dims} dims and {num_symbols} symbols, got {len(dims)} and {len(symbols)}")


@final
class AffineMap:
    """``(d0, ..., dn-1)[s0, ..., sm-1] -> (e0, ..., ek-1)``. Immutable.

    Results may only use dims below ``num_dims`` and symbols below
    ``num_symbols`` (checked: ValueError).
    """

    __slots__ = ("_hash", "_num_dims", "_num_symbols", "_results", "span")

    def __init__(
        self,
        num_dims: int,
        num_symbols: int,
        results: Sequence[AffineExpr],
        span: object | None = None,
    ) -> None:
        _check_counts(num_dims, num_symbols)
        res = tuple(results)
        _check_exprs(res, num_dims, num_symbols, "result")
        self._num_dims = num_dims
        self._num_symbols = num_symbols
        self._results = res
        self._hash = hash((num_dims, num_symbols, res))
        self.span = span

    @classmethod
    def trusted(cls, num_dims: int, num_symbols: int, results: Sequence[AffineExpr], span: object | None = None) -> AffineMap:
        """Construct without checking the results (for the parser, whose
        results only ever use declared dims and symbols)."""
        m = cls.__new__(cls)
        res = tuple(results)
        m._num_dims = num_dims
        m._num_symbols = num_symbols
        m._results = res
        m._hash = hash((num_dims, num_symbols, res))
        m.span = span
        return m

    # ------------------------------------------------------------ factories --
    @staticmethod
    def identity(n: int) -> AffineMap:
        """``(d0, ..., dn-1) -> (d0, ..., dn-1)`` (MLIR getMultiDimIdentityMap)."""
        return AffineMap(n, 0, [AffineDimExpr(i) for i in range(n)])

    @staticmethod
    def constant_map(v: int) -> AffineMap:
        """``() -> (v)``."""
        return AffineMap(0, 0, [AffineConstantExpr(v)])

    @staticmethod
    def empty(num_dims: int = 0, num_symbols: int = 0) -> AffineMap:
        """A map without results."""
        return AffineMap(num_dims, num_symbols, ())

    @staticmethod
    def symbol_identity() -> AffineMap:
        """``()[s0] -> (s0)``: the map of a loop bound written as ``%N``."""
        return AffineMap(0, 1, [AffineSymbolExpr(0)])

    @staticmethod
    def minor_identity(num_dims: int, num_results: int) -> AffineMap:
        """``(d0, ..., dn-1) -> (dn-r, ..., dn-1)`` (MLIR getMinorIdentityMap)."""
        if num_results > num_dims:
            raise ValueError("minor identity needs num_results <= num_dims")
        return AffineMap(num_dims, 0, [AffineDimExpr(i) for i in range(num_dims - num_results, num_dims)])

    @staticmethod
    def permutation(perm: Sequence[int]) -> AffineMap:
        """``(d0, ...) -> (d<perm[0]>, ...)`` (MLIR getPermutationMap)."""
        if sorted(perm) != list(range(len(perm))):
            raise ValueError(f"not a permutation: {list(perm)}")
        return AffineMap(len(perm), 0, [AffineDimExpr(p) for p in perm])

    # ----------------------------------------------------------- accessors --
    @property
    def num_dims(self) -> int:
        return self._num_dims

    @property
    def num_symbols(self) -> int:
        return self._num_symbols

    @property
    def num_inputs(self) -> int:
        return self._num_dims + self._num_symbols

    @property
    def results(self) -> tuple[AffineExpr, ...]:
        return self._results

    @property
    def num_results(self) -> int:
        return len(self._results)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, AffineMap):
            return NotImplemented
        return self._hash == other._hash and self._num_dims == other._num_dims and self._num_symbols == other._num_symbols and self._results == other._results

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[object, ...]:
        return (AffineMap, (self._num_dims, self._num_symbols, self._results, self.span))

    # ------------------------------------------------------------ printing --
    def __str__(self) -> str:
        return self.to_str()

    def __repr__(self) -> str:
        return f"AffineMap({str(self)!r})"

    def to_str(
        self,
        dim_names: Sequence[str] | None = None,
        symbol_names: Sequence[str] | None = None,
    ) -> str:
        """``(d0)[s0] -> (d0 + s0)``, optionally with other identifier names."""
        results = ", ".join(e.to_str(dim_names, symbol_names) for e in self._results)
        ids = _print_ids(self._num_dims, self._num_symbols, dim_names, symbol_names)
        return f"{ids} -> ({results})"

    def to_attr_str(self) -> str:
        """``affine_map<...>``."""
        return f"affine_map<{self}>"

    # ------------------------------------------------------------- queries --
    def evaluate(self, dims: Sequence[int], symbols: Sequence[int]) -> list[int]:
        _check_point(dims, symbols, self._num_dims, self._num_symbols)
        return [e.evaluate(dims, symbols) for e in self._results]

    def is_identity(self) -> bool:
        """MLIR isIdentity: ``num_dims == num_results`` and result i is ``d<i>`` (symbols allowed)."""
        if self._num_dims != len(self._results):
            return False
        return all(type(e) is AffineDimExpr and e._pos == i for i, e in enumerate(self._results))

    def is_symbol_identity(self) -> bool:
        """MLIR isSymbolIdentity: result i is ``s<i>`` and ``num_symbols == num_results``."""
        if self._num_symbols != len(self._results):
            return False
        return all(type(e) is AffineSymbolExpr and e._pos == i for i, e in enumerate(self._results))

    def is_empty(self) -> bool:
        """MLIR isEmpty: no dims, no symbols, no results."""
        return self._num_dims == 0 and self._num_symbols == 0 and not self._results

    def is_single_constant(self) -> bool:
        return len(self._results) == 1 and type(self._results[0]) is AffineConstantExpr

    def single_constant_result(self) -> int:
        result = self._results[0] if len(self._results) == 1 else None
        if type(result) is not AffineConstantExpr:
            raise ValueError(f"{self} is not a single constant map")
        return result._value

    def is_constant(self) -> bool:
        """All results are constants."""
        return all(type(e) is AffineConstantExpr for e in self._results)

    def constant_results(self) -> list[int]:
        values = [e._value for e in self._results if type(e) is AffineConstantExpr]
        if len(values) != len(self._results):
            raise ValueError(f"{self} has non-constant results")
        return values

    def is_projected_permutation(self, allow_zero_in_results: bool = False) -> bool:
        """MLIR isProjectedPermutation."""
        if self._num_symbols > 0 or len(self._results) > self._num_dims:
            return False
        seen = [False] * self._num_dims
        for e in self._results:
            if type(e) is AffineDimExpr:
                if seen[e._pos]:
                    return False
                seen[e._pos] = True
            elif not (allow_zero_in_results and type(e) is AffineConstantExpr and e._value == 0):
                return False
        return True

    def is_permutation(self) -> bool:
        """MLIR isPermutation: a projected permutation with ``num_dims == num_results``."""
        return self._num_dims == len(self._results) and self.is_projected_permutation()

    def is_minor_identity(self) -> bool:
        """MLIR isMinorIdentity (no symbols; trailing dims in order)."""
        n = len(self._results)
        return self._num_symbols == 0 and self._num_dims >= n and self == AffineMap.minor_identity(self._num_dims, n)

    def is_pure_affine(self) -> bool:
        return all(e.is_pure_affine() for e in self._results)

    # --------------------------------------------------------- transforms --
    def simplify(self, *, fold_nested_divisions: bool = True) -> AffineMap:
        """MLIR ``simplifyAffineMap``: every result through ``simplifyAffineExpr``."""
        return AffineMap(
            self._num_dims,
            self._num_symbols,
            [
                simplify_affine_expr(
                    e,
                    self._num_dims,
                    self._num_symbols,
                    fold_nested_divisions=fold_nested_divisions,
                )
                for e in self._results
            ],
            self.span,
        )

    def canonicalize(self) -> AffineMap:
        """Results canonicalized as MLIR's parser would build them."""
        return AffineMap(
            self._num_dims,
            self._num_symbols,
            [e.canonicalize() for e in self._results],
            self.span,
        )

    def replace(
        self,
        dims: Sequence[AffineExpr],
        symbols: Sequence[AffineExpr],
        num_dims: int,
        num_symbols: int,
        *,
        canonicalize: bool = True,
    ) -> AffineMap:
        """MLIR ``replaceDimsAndSymbols`` into a map of the given counts."""
        return AffineMap(
            num_dims,
            num_symbols,
            [e.replace(dims, symbols, canonicalize=canonicalize) for e in self._results],
        )

    def compose(self, other: AffineMap) -> AffineMap:
        """MLIR ``AffineMap::compose``: ``(self . other)(x) = self(other(x))``.

        ``other``'s results feed ``self``'s dims, so ``self.num_dims`` must
        equal ``other.num_results``. The result has ``other.num_dims`` dims
        and ``self.num_symbols + other.num_symbols`` symbols: **self's symbols
        first** (``s0 .. s<k-1>``), then other's, shifted by ``k =
        self.num_symbols``. Evaluate the composition with
        ``symbols = self_symbols + other_symbols``. As in MLIR, the results
        are built with the canonicalizing constructors but not flattened
        (call :meth:`simplify` for that).
        """
        if self._num_dims != len(other._results):
            raise ValueError(f"cannot compose {self} with {other}: {self._num_dims} dims vs {len(other._results)} results")
        nd = other._num_dims
        k = self._num_symbols
        ns = k + other._num_symbols
        new_dims = [AffineDimExpr(i) for i in range(nd)]
        new_syms = [AffineSymbolExpr(k + i) for i in range(other._num_symbols)]
        shifted = other.replace(new_dims, new_syms, nd, ns)
        return AffineMap(nd, ns, [e.replace(shifted._results, ()) for e in self._results])

    def sub_map(self, result_positions: Sequence[int]) -> AffineMap:
        """MLIR getSubMap: the selected results, same dims and symbols."""
        return AffineMap(self._num_dims, self._num_symbols, [self._results[i] for i in result_positions])

    def drop_result(self, pos: int) -> AffineMap:
        return self.sub_map([i for i in range(len(self._results)) if i != pos])


# --------------------------------------------------------------- IntegerSet --


@final
class IntegerSet:
    """Conjunction of constraints ``expr >= 0`` (``eq_flags[i]`` False) or
    ``expr == 0`` (True) over dims and symbols. Immutable.
    """

    __slots__ = ("_constraints", "_eq_flags", "_hash", "_num_dims", "_num_symbols", "span")

    def __init__(
        self,
        num_dims: int,
        num_symbols: int,
        constraints: Sequence[AffineExpr],
        eq_flags: Sequence[bool],
        span: object | None = None,
    ) -> None:
        _check_counts(num_dims, num_symbols)
        cons = tuple(constraints)
        flags = tuple(bool(f) for f in eq_flags)
        if len(cons) != len(flags):
            raise ValueError(f"{len(cons)} constraints but {len(flags)} eq flags")
        _check_exprs(cons, num_dims, num_symbols, "constraint")
        self._num_dims = num_dims
        self._num_symbols = num_symbols
        self._constraints = cons
        self._eq_flags = flags
        self._hash = hash((num_dims, num_symbols, cons, flags))
        self.span = span

    @staticmethod
    def empty_set(num_dims: int = 0, num_symbols: int = 0) -> IntegerSet:
        """MLIR ``getEmptySet``: the single constraint ``1 == 0``."""
        return IntegerSet(num_dims, num_symbols, [AffineConstantExpr(1)], [True])

    @staticmethod
    def universe_set(num_dims: int = 0, num_symbols: int = 0) -> IntegerSet:
        """No constraints: every point is in it (prints ``(d0) : ()``)."""
        return IntegerSet(num_dims, num_symbols, (), ())

    @property
    def num_dims(self) -> int:
        return self._num_dims

    @property
    def num_symbols(self) -> int:
        return self._num_symbols

    @property
    def num_inputs(self) -> int:
        return self._num_dims + self._num_symbols

    @property
    def constraints(self) -> tuple[AffineExpr, ...]:
        return self._constraints

    @property
    def eq_flags(self) -> tuple[bool, ...]:
        return self._eq_flags

    @property
    def num_constraints(self) -> int:
        return len(self._constraints)

    @property
    def num_equalities(self) -> int:
        return sum(self._eq_flags)

    @property
    def num_inequalities(self) -> int:
        return len(self._eq_flags) - sum(self._eq_flags)

    def is_eq(self, i: int) -> bool:
        return self._eq_flags[i]

    def is_empty_integer_set(self) -> bool:
        """MLIR isEmptyIntegerSet: structurally the canonical empty set."""
        return self == IntegerSet.empty_set(self._num_dims, self._num_symbols)

    def is_universe(self) -> bool:
        return not self._constraints

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, IntegerSet):
            return NotImplemented
        return (
            self._hash == other._hash
            and self._num_dims == other._num_dims
            and self._num_symbols == other._num_symbols
            and self._eq_flags == other._eq_flags
            and self._constraints == other._constraints
        )

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[object, ...]:
        return (
            IntegerSet,
            (self._num_dims, self._num_symbols, self._constraints, self._eq_flags, self.span),
        )

    def __str__(self) -> str:
        return self.to_str()

    def __repr__(self) -> str:
        return f"IntegerSet({str(self)!r})"

    def to_str(
        self,
        dim_names: Sequence[str] | None = None,
        symbol_names: Sequence[str] | None = None,
    ) -> str:
        """``(d0)[s0] : (d0 - s0 >= 0, d0 == 0)``, optionally with other names."""
        cons = ", ".join(f"{e.to_str(dim_names, symbol_names)} {'==' if eq else '>='} 0" for e, eq in zip(self._constraints, self._eq_flags))
        ids = _print_ids(self._num_dims, self._num_symbols, dim_names, symbol_names)
        return f"{ids} : ({cons})"

    def to_attr_str(self) -> str:
        """``affine_set<...>``."""
        return f"affine_set<{self}>"

    def contains(self, dims: Sequence[int], symbols: Sequence[int]) -> bool:
        _check_point(dims, symbols, self._num_dims, self._num_symbols)
        for e, eq in zip(self._constraints, self._eq_flags):
            v = e.evaluate(dims, symbols)
            if (v != 0) if eq else (v < 0):
                return False
        return True

    def simplify(self, *, fold_nested_divisions: bool = True) -> IntegerSet:
        """Constraint-local simplification.

        Each expression goes through ``simplifyAffineExpr``; constant
        constraints are dropped when true and turn the whole set into
        :meth:`empty_set` when false; linear constraints are divided by the
        gcd of their coefficients (inequalities round the constant down,
        equalities whose constant is not a multiple make the set empty);
        duplicates are removed. Emptiness or redundancy that needs reasoning
        across constraints is left to the polyhedral layer.
        """
        nd = self._num_dims
        ns = self._num_symbols
        out: list[AffineExpr] = []
        flags: list[bool] = []
        seen: set[tuple[AffineExpr, bool]] = set()
        for e, eq in zip(self._constraints, self._eq_flags):
            s = simplify_affine_expr(e, nd, ns, fold_nested_divisions=fold_nested_divisions)
            if type(s) is AffineConstantExpr:
                v = s._value
                if (v != 0) if eq else (v < 0):
                    empty = IntegerSet.empty_set(nd, ns)
                    empty.span = self.span
                    return empty
                continue
            lin = linearize(s, nd)
            if lin is not None:
                coeffs, const = lin
                g = 0
                for c in coeffs.values():
                    g = math.gcd(g, c)
                if g > 1:
                    if eq and const % g != 0:
                        empty = IntegerSet.empty_set(nd, ns)
                        empty.span = self.span
                        return empty
                    dims_c = [0] * nd
                    syms_c = [0] * ns
                    for key, c in coeffs.items():
                        if key < nd:
                            dims_c[key] = c // g
                        else:
                            syms_c[key - nd] = c // g
                    s = from_linear_form(dims_c, syms_c, const // g)
            entry = (s, eq)
            if entry in seen:
                continue
            seen.add(entry)
            out.append(s)
            flags.append(eq)
        return IntegerSet(nd, ns, out, flags, self.span)

    def canonicalize(self) -> IntegerSet:
        """Constraints canonicalized as MLIR's parser would build them."""
        return IntegerSet(
            self._num_dims,
            self._num_symbols,
            [e.canonicalize() for e in self._constraints],
            self._eq_flags,
            self.span,
        )

    def replace(
        self,
        dims: Sequence[AffineExpr],
        symbols: Sequence[AffineExpr],
        num_dims: int,
        num_symbols: int,
        *,
        canonicalize: bool = True,
    ) -> IntegerSet:
        """MLIR ``replaceDimsAndSymbols`` into a set of the given counts."""
        return IntegerSet(
            num_dims,
            num_symbols,
            [e.replace(dims, symbols, canonicalize=canonicalize) for e in self._constraints],
            self._eq_flags,
        )
