"""Pieces shared by the reduce actions of every op family.

The transformer (:class:`affine_lsp.syntax.parser.ChunkTransformer`) is
assembled from one mixin per grammar file (``syntax/ops/<dialect>.py`` for
``grammar/<dialect>.lark``, ``types.py``, ``attributes.py``,
``affine_map.py``); the marker types and named records the reduce actions
pass between them, and the helpers and constants they all use, live here.
Nothing here holds the state of a parse (that is the transformer's).
"""

from __future__ import annotations

import os
import re
import struct
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from affine_lsp.ir.affine_expr import AffineExpr
from affine_lsp.ir.attributes import (
    AffineMapAttr,
    Attribute,
)
from affine_lsp.ir.core import Anchor, Span
from affine_lsp.ir.types import (
    INDEX,
    FloatType,
    IntegerType,
    MemRefType,
    OpaqueType,
    TensorType,
    Type,
    VectorType,
)
from affine_lsp.syntax.lexer import Tok
from affine_lsp.syntax.nodes import (
    BlockSyn,
    RegionSyn,
)

TOKEN_TYPES: set[type] = {Tok}
"""The types of the tokens a reduce action may be given (``type(x) in
TOKEN_TYPES``): ours (:class:`~affine_lsp.syntax.lexer.Tok`, what our driver
makes), and lark's and lark-cython's once lark's parser is loaded
(:mod:`.lexer_lark` registers them): a start that parses only valid text
never imports lark. One set, changed in place, so that every module that
imported it sees the types added later."""


def register_token_types(*types: type) -> None:
    """Tokens of ``types`` may reach the reduce actions from now on."""
    TOKEN_TYPES.update(types)


class LoopBound(NamedTuple):
    """One bound of an ``affine.for`` (rules ``bound_map``, ``bound_ssa``,
    ``bound_const``): the map attribute, the map's dimension and symbol
    operands (name, span), the bound's span, and ``max``/``min`` when
    written."""

    map: AffineMapAttr
    dims: list
    syms: list
    span: Span
    keyword: str | None


class LoopStep(NamedTuple):
    """``step N`` of an ``affine.for``."""

    value: int
    span: Span


class IterArgs(NamedTuple):
    """``iter_args(%a = %init, ...) -> (types)`` of a loop: the pairs
    (name, span, init, init span) and the result types."""

    pairs: list
    types: list


class ParallelBounds(NamedTuple):
    """The lower or upper bounds of an ``affine.parallel`` (rule
    ``par_bounds``): one map for all the loops, its operands (dims, then
    symbols), how many results each loop's group has, and the dim count."""

    map: AffineMapAttr
    operands: list
    groups: list[int]
    num_dims: int


class ParallelSteps(NamedTuple):
    """``step (a, b, ...)`` of an ``affine.parallel``: (value, span) pairs."""

    steps: list


class ParallelReductions(NamedTuple):
    """``reduce ("addf", ...)`` of an ``affine.parallel``: the kind tokens."""

    kinds: list


class Ops(list):
    """Marker list type for ``operand_list`` results: [(name, Span)]."""


class Mixed(list):
    """``mixed_list``: items are (name, Span) for SSA values or int."""


def is_tok(x: Any, type_: str | None = None) -> bool:
    """Whether ``x`` is a token (of type ``type_`` when given)."""
    return type(x) in TOKEN_TYPES and (type_ is None or x.type == type_)


def set_entry_args(region: RegionSyn, args: list, anchor: Anchor) -> None:
    """Define ``args`` (name, span, type) as the entry block's arguments of
    ``region`` (the region arguments an op's custom syntax names outside
    the region), unless the entry block is labelled."""
    if not region.blocks:
        region.blocks.append(BlockSyn(None, Span(region.span.rel_start, region.span.rel_start, anchor), [], []))
    blk = region.blocks[0]
    if blk.label is None:
        blk.args = [(n, s, t) for n, s, t in args if n is not None]


_STRING_ESCAPE_RE = re.compile(r'\\(["\\nt]|[0-9a-fA-F]{2})')
_SIMPLE_ESCAPES = {'"': b'"', "\\": b"\\", "n": b"\n", "t": b"\t"}


def unquote(s: str) -> str:
    """The value of an MLIR string literal (or ``s`` itself when it is not
    quoted), as MLIR's ``Token::getStringValue`` reads it: ``\\"``,
    ``\\\\``, ``\\n``, ``\\t`` and two hex digits (a byte) are the only
    escapes; the bytes are UTF-8 (an invalid sequence reads as U+FFFD) and
    any other backslash is kept as written (the lexer reports it)."""
    if len(s) >= 2 and s[0] == '"' and s[-1] == '"':
        body = s[1:-1]
        if "\\" not in body:
            return body
        out = bytearray()
        pos = 0
        for m in _STRING_ESCAPE_RE.finditer(body):
            out += body[pos : m.start()].encode("utf-8", "surrogatepass")
            e = m.group(1)
            out += _SIMPLE_ESCAPES[e] if e in _SIMPLE_ESCAPES else bytes((int(e, 16),))
            pos = m.end()
        out += body[pos:].encode("utf-8", "surrogatepass")
        return out.decode("utf-8", "replace")
    return s


PARSER_DEBUG = bool(os.environ.get("AFFINE_LSP_DEBUG_PARSER"))
SHAPED_RE = re.compile(
    r"(memref|vector|tensor)<[ \t]*(((\d+|\?|\[\d+\])[ \t]*x[ \t]*)*)([su]?i\d+|bf16|f16|tf32|f32|f64|f80|f128|index)[ \t]*(,[ \t]*\d+[ \t]*)?>"
)
SHAPED_CACHE: dict[str, tuple] = {}
# Deeper affine expressions are refused with a diagnostic (every algorithm on
# expressions is recursive); real maps are a handful of levels deep.
MAX_EXPR_DEPTH = 300
_SSA_NAME_RE = re.compile(r"%[A-Za-z0-9_$.\-]+(?:#[0-9]+)?")
RESULT_RE = re.compile(r"%[A-Za-z0-9_$.\-]+(?::([0-9]+))?")
I1 = IntegerType(1)
I32 = IntegerType(32)


ROUNDING_MODES = {"to_nearest_even": 0, "downward": 1, "upward": 2, "toward_zero": 3, "to_nearest_away": 4}


class Decls:
    """The ``(d0, d1)`` list of a map: how many, and where."""

    __slots__ = ("count", "span")

    def __init__(self, count: int, span: Span) -> None:
        self.count = count
        self.span = span


class DimSym(tuple):
    """(dims, symbols) operand lists of a map use, with the span of both."""

    span: Span

    def __new__(cls, parts: tuple, span: Span) -> DimSym:
        obj = super().__new__(cls, parts)
        obj.span = span
        return obj


class TypeList(list):
    """A parenthesised list of types that remembers its span."""

    def __init__(self, items: list, span: Span) -> None:
        super().__init__(items)
        self.span = span


class ArgsHolder(Attribute):
    """Internal: function argument names (name, span, type) for the builder."""

    __slots__ = ("args",)

    def __init__(self, args: list) -> None:
        super().__init__()
        self.args = args

    def __str__(self) -> str:
        return "<args>"


class SyntaxIssue(Exception):
    def __init__(self, message: str, span: Span) -> None:
        super().__init__(message)
        self.message = message
        self.span = span


def start_of(x: Any) -> int:
    if type(x) in TOKEN_TYPES:
        return x.start_pos
    sp = getattr(x, "span", None)
    if isinstance(sp, Span):
        return sp.rel_start
    if isinstance(x, Span):
        return x.rel_start
    if isinstance(x, tuple | list):
        for y in x:
            try:
                return start_of(y)
            except TypeError:
                continue
    raise TypeError(f"no position for {x!r}")


def end_of(x: Any) -> int:
    if type(x) in TOKEN_TYPES:
        return x.end_pos
    sp = getattr(x, "span", None)
    if isinstance(sp, Span):
        return sp.rel_end
    if isinstance(x, Span):
        return x.rel_end
    if isinstance(x, tuple | list):
        for y in reversed(x):
            try:
                return end_of(y)
            except TypeError:
                continue
    raise TypeError(f"no position for {x!r}")


@lru_cache(maxsize=4096)
def subscript_layout(text: str) -> tuple[tuple[tuple[int, int, int, str | None], ...], int]:
    """The SSA names of a SIMPLE_SUBSCRIPTS token ``[%i, %j, %i]``: per use,
    its offsets in the token, its dimension position (by first appearance)
    and, at its first use, the name (an operand); and the number of dims."""
    dims: dict[str, int] = {}
    uses = []
    for m in _SSA_NAME_RE.finditer(text, 1):
        name = m.group()
        pos = dims.get(name)
        if pos is None:  # first use: an operand
            pos = dims[name] = len(dims)
            uses.append((m.start(), m.end(), pos, name))
        else:
            uses.append((m.start(), m.end(), pos, None))
    return tuple(uses), len(dims)


def set_span(e: AffineExpr, sp: Span) -> AffineExpr:
    e.span = sp
    return e


def make_shaped(kind: str, shape: list, scal: list, elem: Type, memspace: str | None) -> Type:
    if kind == "memref":
        return MemRefType(shape, elem, None, None, memspace)
    if kind == "vector":
        return VectorType([d or 0 for d in shape], elem, scal)
    return TensorType(shape, elem, memspace)


def scalar_from_text(s: str) -> Type:
    if s == "index":
        return INDEX
    m = re.fullmatch(r"([su]?)i([0-9]+)", s)
    if m:
        return IntegerType(int(m.group(2)), m.group(1))
    if re.fullmatch(r"bf16|f16|tf32|f32|f64|f80|f128", s):
        return FloatType(s)
    return OpaqueType(s)


def dense_text(x: Any) -> str:
    if type(x) in TOKEN_TYPES:
        return str(x)
    if isinstance(x, list):
        return "[" + ", ".join(dense_text(y) for y in x) + "]"
    if isinstance(x, tuple) and x and x[0] == "complex":
        return f"({dense_text(x[1])}, {dense_text(x[2])})"
    if isinstance(x, tuple) and len(x) == 2:
        return str(x[0])
    if isinstance(x, tuple) and len(x) == 3:
        return x[1]
    return str(x)


def strided_text(c: list) -> str:
    def one(x: Any) -> str:
        return str(x[0]) if isinstance(x, tuple) else "?"

    items = next((x for x in c if isinstance(x, list)), [])
    strides = ", ".join(one(x) for x in items)
    # The offset, if any, follows the `]` of the strides.
    after = False
    offset = ""
    for x in c:
        if type(x) in TOKEN_TYPES and x.type == "RSQB":
            after = True
        elif after and (isinstance(x, tuple) or (type(x) in TOKEN_TYPES and x.type == "QMARK")):
            offset = ", offset: " + one(x)
    return f"strided<[{strides}]{offset}>"


def hex_float(bits: int, kind: str) -> float:
    """The value of a float written as its bit pattern (``0x7F800000 : f32``
    is +inf); NaN for formats Python cannot decode (f80, f128, f8...)."""
    fmt = {"f16": ("<H", "<e"), "f32": ("<I", "<f"), "f64": ("<Q", "<d")}.get(kind)
    try:
        if fmt is not None:
            return float(struct.unpack(fmt[1], struct.pack(fmt[0], bits))[0])
        if kind == "bf16":
            return float(struct.unpack("<f", struct.pack("<I", bits << 16))[0])
    except struct.error:  # more bits than the format has
        pass
    return float("nan")


SOUP_EQ = "="  # an `=` inside the brackets of a soup (grammar rule soup_eq)


def collect_soup(items: Sequence[Any], names: list, regions: list, anchor: Anchor, defs: list) -> None:
    """The SSA names (``names``; ``defs`` for those followed by ``=``
    inside brackets) and the regions of an unknown op's soup."""
    for i, x in enumerate(items):
        if type(x) in TOKEN_TYPES:
            if x.type == "SSA_ID":
                sp = Span(x.start_pos, x.end_pos, anchor)
                nxt = items[i + 1] if i + 1 < len(items) else None
                if nxt is SOUP_EQ:
                    defs.append((str(x), sp, None))
                else:
                    names.append((str(x), sp))
        elif isinstance(x, RegionSyn):
            regions.append(x)
        elif isinstance(x, list) and x and x[0] == "soup":
            collect_soup(x[1], names, regions, anchor, defs)
