"""Syntax records produced by the parser, before name resolution.

Every op, custom or generic, is normalised by the parser into an
:class:`OpSyn` in MLIR's generic shape (name, flat operands with segments,
attributes, result types, regions, successors). The IR builder
(:mod:`affine_lsp.ir.builder`) turns these into IR by resolving SSA names,
block labels and aliases. Spans are relative to the chunk's anchor.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from affine_lsp.ir.attributes import Attribute
from affine_lsp.ir.core import Span
from affine_lsp.ir.types import OpaqueType, Type


class AliasType(OpaqueType):
    """A use of a type alias ``!name``; the builder resolves it."""

    __slots__ = ("name", "span")

    def __init__(self, name: str, span: Span) -> None:
        super().__init__(name)
        self.name = name
        self.span = span


class AliasRef(Attribute):
    """A use of an attribute alias ``#name``; ``kind`` is what the context
    expects: ``map``, ``set`` or ``any``. Resolved by the builder."""

    __slots__ = ("name", "kind", "type")

    def __init__(self, name: str, kind: str, span: Span, type: Type | None = None) -> None:
        super().__init__(span)
        self.name = name
        self.kind = kind
        self.type = type

    def __str__(self) -> str:
        return self.name


@dataclass(eq=False, slots=True)
class SuccSyn:
    label: str
    span: Span
    operands: list[tuple[str, Span]] = field(default_factory=list)
    types: list[Type] = field(default_factory=list)


@dataclass(eq=False, slots=True)
class BlockSyn:
    label: str | None
    span: Span
    args: list[tuple[str, Span, Type | None]] = field(default_factory=list)
    ops: list[OpSyn] = field(default_factory=list)


@dataclass(eq=False, slots=True)
class RegionSyn:
    span: Span
    blocks: list[BlockSyn] = field(default_factory=list)


@dataclass(eq=False, slots=True)
class OpSyn:
    name: str
    name_span: Span
    span: Span
    results: list[tuple[str, int, Span]] = field(default_factory=list)
    operands: list[tuple[str, Span]] = field(default_factory=list)
    segments: tuple[int, ...] | None = None
    attrs: dict[str, Attribute] = field(default_factory=dict)
    operand_types: list[Type | None] | None = None
    result_types: list[Type | None] | None = None
    regions: list[RegionSyn] = field(default_factory=list)
    successors: list[SuccSyn] = field(default_factory=list)
    custom: bool = True
    known: bool = True
    # Spans of the type annotations as written, for diagnostics that point at them.
    type_spans: list[Span] = field(default_factory=list)


@dataclass(eq=False, slots=True)
class AliasDefSyn:
    """``#name = attr`` or ``!name = type`` at top level."""

    name: str
    name_span: Span
    span: Span
    value: Attribute | Type | None
    legacy: bool = False


@dataclass(eq=False, slots=True)
class ModuleOpenSyn:
    span: Span
    name: str | None
    attrs: dict[str, Attribute]


@dataclass(eq=False, slots=True)
class ModuleCloseSyn:
    span: Span


@dataclass(eq=False, slots=True)
class Note:
    """A diagnostic produced while parsing (severity: error|warning|info)."""

    severity: str
    message: str
    span: Span
    code: str = ""
    data: dict | None = None


Item = OpSyn | AliasDefSyn | ModuleOpenSyn | ModuleCloseSyn
