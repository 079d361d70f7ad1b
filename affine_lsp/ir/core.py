"""The IR: operations, values, blocks and regions with source ranges.

The model mirrors MLIR's generic operation form: every op has a name, a flat
operand list, results, attributes, successors and regions. Affine ops keep
their maps as attributes (``map``, ``lower_bound``, ...) and their flat
operand list exactly as MLIR orders it (dims first, then symbols), so the
verifier and the analyses can follow MLIR's C++ code closely. Typed views over
the affine ops live in :mod:`affine_lsp.ir.affine_ops`.

Every object carries a :class:`Span` (absolute character offsets into the
document text), so any answer can point back at the source.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from affine_lsp.ir.attributes import Attribute
    from affine_lsp.ir.types import Type


class Anchor:
    """The current absolute offset of a chunk of text.

    Spans are stored relative to the anchor of the chunk they were parsed
    from; when an edit elsewhere moves the chunk, only ``offset`` changes and
    every span (syntax and IR) of that chunk follows without being rebuilt.
    """

    __slots__ = ("offset",)

    def __init__(self, offset: int = 0) -> None:
        self.offset = offset

    def __repr__(self) -> str:
        return f"<Anchor {self.offset}>"


ROOT_ANCHOR = Anchor(0)


_OFFSETS: list[int] = list(range(32768))
"""One int object per offset below 32768, shared by every span: offsets
are relative to a chunk, mostly past 256 (the ints Python shares itself),
and each one computed is an object of its own (what that costs: docs/performance.md,
"Figures behind the code")."""


class Span:
    """A half-open range ``[start, end)`` of absolute character offsets."""

    __slots__ = ("rel_start", "rel_end", "anchor")

    def __init__(self, start: int, end: int, anchor: Anchor = ROOT_ANCHOR) -> None:
        # (literal bounds: compiled, they are compared without a call)
        self.rel_start = _OFFSETS[start] if 0 <= start < 32768 else start
        self.rel_end = _OFFSETS[end] if 0 <= end < 32768 else end
        self.anchor = anchor

    @property
    def start(self) -> int:
        return self.anchor.offset + self.rel_start

    @property
    def end(self) -> int:
        return self.anchor.offset + self.rel_end

    def __len__(self) -> int:
        return self.rel_end - self.rel_start

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Span) and other.start == self.start and other.end == self.end

    def __hash__(self) -> int:
        return hash((self.start, self.end))

    def __repr__(self) -> str:
        return f"Span({self.start}, {self.end})"

    def contains(self, offset: int) -> bool:
        s = self.start
        return s <= offset < s + (self.rel_end - self.rel_start) or (offset == s and self.rel_end == self.rel_start)

    def text(self, source: str) -> str:
        return source[self.start : self.end]


NO_SPAN = Span(0, 0)


@dataclass(eq=False, slots=True)
class Use:
    """One use of a value as an operand of ``user`` at ``span``."""

    value: Value
    user: Operation
    index: int
    span: Span


@dataclass(eq=False, slots=True)
class Value:
    """An SSA value. ``name`` is the textual name (``%arg0``, ``%0#1``)."""

    name: str
    type: Type | None
    span: Span  # where the value is defined (the name at its definition)
    uses: list[Use] = field(default_factory=list)
    type_from: Span | None = field(default=None, repr=False)  # the use the type was learned from (untyped results of unknown ops)

    @property
    def defining_op(self) -> Operation | None:
        return None

    @property
    def parent_block(self) -> Block | None:
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


@dataclass(eq=False, repr=False, slots=True)
class OpResult(Value):
    owner: Operation | None = None
    index: int = 0

    @property
    def defining_op(self) -> Operation | None:
        return self.owner

    @property
    def parent_block(self) -> Block | None:
        return self.owner.parent if self.owner else None


@dataclass(eq=False, repr=False, slots=True)
class BlockArgument(Value):
    owner: Block | None = None
    index: int = 0

    @property
    def parent_block(self) -> Block | None:
        return self.owner


@dataclass(eq=False, slots=True)
class Operation:
    """An operation. ``name`` is the full op name, e.g. ``affine.for``.

    ``operand_segments`` partitions ``operands`` for ops with several operand
    groups (MLIR's ``operandSegmentSizes``); ``None`` for a single group.
    ``custom`` is False when the op was written in the generic form.
    ``known`` is False for ops whose dialect the parser does not know (their
    custom syntax was skipped and only results/operands/regions recovered).
    """

    name: str
    span: Span
    name_span: Span
    operands: list[Value] = field(default_factory=list)
    operand_spans: list[Span] = field(default_factory=list)
    results: list[OpResult] = field(default_factory=list)
    attributes: dict[str, Attribute] = field(default_factory=dict)
    regions: list[Region] = field(default_factory=list)
    # ``successors`` and ``unresolved`` are empty for almost every op: they
    # start as the shared empty tuple and become a list at their first entry
    # (see add_successor, add_unresolved; the saving: docs/performance.md).
    successors: list[Block] | tuple[()] = ()
    operand_segments: tuple[int, ...] | None = None
    custom: bool = True
    known: bool = True
    parent: Block | None = None
    # Names of operands that could not be resolved to definitions
    # (reported by the verifier as "use of undeclared SSA value name").
    unresolved: list[tuple[str, Span]] | tuple[()] = ()
    # What analyses and transforms derive from the op and keep with it (see
    # memo_of): it dies with the op, which the document model rebuilds when
    # its text changes.
    memo: _Memo | None = field(default=None, repr=False)

    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0] if "." in self.name else ""

    def add_successor(self, block: Block) -> None:
        if not self.successors:
            self.successors = []
        self.successors.append(block)  # type: ignore[union-attr]

    def add_unresolved(self, name: str, span: Span) -> None:
        if not self.unresolved:
            self.unresolved = []
        self.unresolved.append((name, span))  # type: ignore[union-attr]

    @property
    def parent_op(self) -> Operation | None:
        blk = self.parent
        if blk is None or blk.parent is None:
            return None
        return blk.parent.parent

    def segment(self, i: int) -> list[Value]:
        """Operands of segment ``i`` (the whole list when unsegmented)."""
        if self.operand_segments is None:
            if i != 0:
                raise IndexError(i)
            return list(self.operands)
        start = sum(self.operand_segments[:i])
        return self.operands[start : start + self.operand_segments[i]]

    def segment_spans(self, i: int) -> list[Span]:
        if self.operand_segments is None:
            return list(self.operand_spans)
        start = sum(self.operand_segments[:i])
        return self.operand_spans[start : start + self.operand_segments[i]]

    def walk(self) -> Iterator[Operation]:
        """Pre-order walk of this op and every op nested in its regions."""
        yield self
        for region in self.regions:
            for block in region.blocks:
                for op in block.operations:
                    yield from op.walk()

    def ancestors(self) -> Iterator[Operation]:
        """Enclosing ops, innermost first."""
        op = self.parent_op
        while op is not None:
            yield op
            op = op.parent_op

    def is_ancestor_of(self, other: Operation) -> bool:
        return any(a is self for a in other.ancestors())

    def __repr__(self) -> str:
        return f"<Operation {self.name} @{self.span.start}>"


class _Memo(dict):
    """An op's memo, which knows its op: a copy of the op (``copy.copy``)
    shares the object but not what it holds (see :func:`memo_of`)."""

    __slots__ = ("owner",)

    def __init__(self, owner: Operation) -> None:
        super().__init__()
        self.owner = owner


def memo_of(op: Operation) -> dict[str, Any]:
    """``op``'s memo (created on first use): where analyses and transforms
    keep what they derive from it, so that it dies with the op. A copy of an
    op starts with an empty one."""
    m = op.memo
    if m is None or m.owner is not op:
        m = op.memo = _Memo(op)
    return m


def memo_if_any(op: Operation) -> dict[str, Any] | None:
    """``op``'s memo if it has one (None: nothing derived from it yet)."""
    m = op.memo
    return m if m is not None and m.owner is op else None


@dataclass(eq=False, slots=True)
class Block:
    label: str | None  # ``^bb0`` or None for an entry block without label
    span: Span
    arguments: list[BlockArgument] = field(default_factory=list)
    operations: list[Operation] = field(default_factory=list)
    parent: Region | None = None

    @property
    def parent_op(self) -> Operation | None:
        return self.parent.parent if self.parent else None

    @property
    def terminator(self) -> Operation | None:
        return self.operations[-1] if self.operations else None


@dataclass(eq=False, slots=True)
class Region:
    span: Span
    blocks: list[Block] = field(default_factory=list)
    parent: Operation | None = None

    @property
    def entry(self) -> Block | None:
        return self.blocks[0] if self.blocks else None
