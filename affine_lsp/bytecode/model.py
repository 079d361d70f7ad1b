"""What the reader builds: attributes as their text (with the little
structure printing needs) and the operations of the IR."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Attr:
    """A decoded attribute: ``text`` is its full MLIR spelling."""

    text: str
    unit: bool = False  # UnitAttr: a key alone in an attribute dictionary
    items: list[tuple[str, Attr]] | None = None  # DictionaryAttr entries
    short: str | None = None  # spelling with the type elided (an i64 memory space: `1`)
    identity_layout: bool = False  # an identity affine map (elided in memref types)
    location: str | None = None  # a location: its spelling inside `loc(...)`


@dataclass
class Block:
    label: str
    args: list[tuple[str, str]] = field(default_factory=list)  # (name, type)
    ops: list[Op] = field(default_factory=list)


@dataclass
class Region:
    blocks: list[Block] = field(default_factory=list)


@dataclass
class Op:
    name: str
    results: list[str] = field(default_factory=list)
    result_types: list[str] = field(default_factory=list)
    operands: list[str] = field(default_factory=list)
    successors: list[str] = field(default_factory=list)
    properties: list[tuple[str, Attr]] | Attr | None = None  # ODS properties, or an unregistered op's attribute
    attributes: Attr | None = None
    regions: list[Region] = field(default_factory=list)


@dataclass
class Resource:
    dialect: str
    key: str
    kind: int  # 0 blob, 1 bool, 2 string
    value: object


@dataclass
class Module:
    version: int
    producer: str
    ops: list[Op]  # the top-level operations (normally one builtin.module)
    resources: list[Resource] = field(default_factory=list)
    external_resources: list[tuple[str, list[Resource]]] = field(default_factory=list)
    value_types: dict[str, str] = field(default_factory=dict)  # SSA name -> type
