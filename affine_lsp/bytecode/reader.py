"""The reader: sections, strings, dialects, attributes and types (decoded
lazily, on first use), resources, properties and the IR.

Mirrors MLIR 22.1.8's ``mlir/lib/Bytecode/Reader/BytecodeReader.cpp``.
Isolated regions live in nested IR sections (the format's lazy-loading
unit); they are read eagerly, as ``mlir-opt`` does by default.
"""

from __future__ import annotations

from dataclasses import dataclass

from affine_lsp.bytecode import builtin
from affine_lsp.bytecode.cursor import SECTION_NAMES, Cursor
from affine_lsp.bytecode.errors import BytecodeError
from affine_lsp.bytecode.model import Attr, Block, Module, Op, Region, Resource
from affine_lsp.bytecode.properties import decode_properties
from affine_lsp.ir.op_registry import is_upstream_dialect

MAGIC = b"ML\xefR"
MIN_VERSION = 0
MAX_VERSION = 6  # what MLIR 22.1.8 writes (kNativePropertiesODSSegmentSize)

# Version milestones (mlir/Bytecode/Encoding.h).
V_DIALECT_VERSIONING = 1
V_LAZY_LOADING = 2
V_USE_LIST_ORDERING = 3
V_ELIDE_UNKNOWN_BLOCK_ARG_LOC = 4
V_NATIVE_PROPERTIES = 5
V_NATIVE_SEGMENT_SIZES = 6

# The op encoding mask.
HAS_ATTRS = 0x01
HAS_RESULTS = 0x02
HAS_OPERANDS = 0x04
HAS_SUCCESSORS = 0x08
HAS_REGIONS = 0x10
HAS_USE_LIST_ORDERS = 0x20
HAS_PROPERTIES = 0x40

MAX_NESTING = 200


@dataclass
class _Entry:
    dialect: str
    custom: bool
    start: int
    end: int


@dataclass
class _OpName:
    dialect: str
    name: str
    registered: bool | None

    @property
    def full(self) -> str:
        return f"{self.dialect}.{self.name}" if self.name else self.dialect


class _Scope:
    """The values of one isolated-from-above region tree, numbered as the
    writer numbered them: each region reserves its values at the end."""

    __slots__ = ("next_ids", "values")

    def __init__(self) -> None:
        self.values: list[str | None] = []
        self.next_ids: list[int] = []

    def push(self, n: int) -> None:
        self.next_ids.append(len(self.values))
        self.values.extend([None] * n)

    def pop(self, n: int) -> None:
        if n:
            del self.values[len(self.values) - n :]
        self.next_ids.pop()


class BytecodeFile:
    """One bytecode buffer being read."""

    def __init__(self, data: bytes) -> None:
        self.data = bytes(data)
        self.version = 0
        self.producer = ""
        self.strings: list[bytes] = []
        self.dialects: list[str] = []
        self.op_names: list[_OpName] = []
        self.attr_entries: list[_Entry] = []
        self.type_entries: list[_Entry] = []
        self.attrs: dict[int, Attr] = {}
        self.types: dict[int, str] = {}
        self.in_progress: set[tuple[str, int]] = set()
        self.resources: list[Resource] = []  # dialect resources, in handle order
        self.external_resources: list[tuple[str, list[Resource]]] = []
        self.properties: list[tuple[int, int]] = []  # (start, end) of each properties blob
        self.value_types: dict[str, str] = {}
        self._next_value = 0
        self._next_block = 0
        self._depth = 0

    # ------------------------------------------------------------ top level

    def read(self) -> Module:
        cur = Cursor(self.data)
        if self.data[:4] != MAGIC:
            raise BytecodeError("not an MLIR bytecode file (the magic number 'ML\\xefR' is missing)", 0)
        cur.pos = 4
        self.version = cur.varint()
        if self.version < MIN_VERSION or self.version > MAX_VERSION:
            raise BytecodeError(f"bytecode version {self.version} is not supported (affine-lsp reads versions {MIN_VERSION} to {MAX_VERSION})", 4)
        self.producer = cur.cstring().decode("utf-8", "replace")
        sections: dict[int, Cursor] = {}
        while not cur.empty():
            sid, sub = cur.section()
            if sid in sections:
                raise BytecodeError(f"duplicate section {SECTION_NAMES[sid]}", sub.pos)
            sections[sid] = sub
        required = [0, 1, 2, 3, 4] + ([8] if self.version >= V_NATIVE_PROPERTIES else [])
        for sid in required:
            if sid not in sections:
                raise BytecodeError(f"missing section {SECTION_NAMES[sid]} ({sid}) (truncated file?)", len(self.data))
        self._read_strings(sections[0])
        if 8 in sections:
            self._read_properties(sections[8])
        self._read_dialects(sections[1])
        if (5 in sections) != (6 in sections):
            raise BytecodeError("the Resource and ResourceOffset sections must come together", len(self.data))
        if 5 in sections:
            self._read_resources(sections[5], sections[6])
        self._read_attr_type_offsets(sections[2], sections[3])
        ops = self._read_ir(sections[4])
        return Module(self.version, self.producer, ops, self.resources, self.external_resources, self.value_types)

    # ------------------------------------------------------------ sections

    def string(self, index: int, cur: Cursor) -> str:
        if index >= len(self.strings):
            raise cur.error(f"invalid string index {index}")
        return self.strings[index].decode("utf-8", "replace")

    def string_bytes(self, cur: Cursor) -> bytes:
        index = cur.varint()
        if index >= len(self.strings):
            raise cur.error(f"invalid string index {index}")
        return self.strings[index]

    def _read_strings(self, cur: Cursor) -> None:
        n = cur.count()
        sizes = [cur.varint() for _ in range(n)]
        end = cur.end
        strings: list[bytes] = []
        for size in sizes:  # sizes come last string first
            if size < 1 or end - size < cur.pos:
                raise cur.error("string size exceeds the available data")
            strings.append(self.data[end - size : end - 1])
            end -= size
        if end != cur.pos:
            raise cur.error("unexpected data between the string sizes and the strings")
        strings.reverse()
        self.strings = strings

    def _read_properties(self, cur: Cursor) -> None:
        if cur.empty():
            return
        n = cur.count()
        for _ in range(n):
            size = cur.varint()
            start = cur.pos
            cur.bytes(size)
            self.properties.append((start, start + size))
        if not cur.empty():
            raise cur.error("trailing data after the properties")

    def _read_dialects(self, cur: Cursor) -> None:
        n = cur.count()
        for _ in range(n):
            if self.version < V_DIALECT_VERSIONING:
                self.dialects.append(self.string(cur.varint(), cur))
                continue
            idx, has_version = cur.varint_flag()
            self.dialects.append(self.string(idx, cur))
            if has_version:
                sid, _ = cur.section()
                if sid != 7:
                    raise cur.error("expected a dialect version section")
        if self.version >= V_ELIDE_UNKNOWN_BLOCK_ARG_LOC:
            cur.varint()  # the number of op names
        while not cur.empty():
            dialect = self._dialect(cur)
            for _ in range(cur.count()):
                if self.version < V_NATIVE_PROPERTIES:
                    self.op_names.append(_OpName(dialect, self.string(cur.varint(), cur), None))
                else:
                    idx, registered = cur.varint_flag()
                    self.op_names.append(_OpName(dialect, self.string(idx, cur), registered))

    def _dialect(self, cur: Cursor) -> str:
        idx = cur.varint()
        if idx >= len(self.dialects):
            raise cur.error(f"invalid dialect index {idx}")
        return self.dialects[idx]

    def _read_resources(self, data: Cursor, offsets: Cursor) -> None:
        for _ in range(offsets.count()):
            key = self.string(offsets.varint(), offsets)
            self.external_resources.append((key, self._resource_group(key, data, offsets)))
        while not offsets.empty():
            dialect = self._dialect(offsets)
            self.resources.extend(self._resource_group(dialect, data, offsets))

    def _resource_group(self, owner: str, data: Cursor, offsets: Cursor) -> list[Resource]:
        out = []
        for _ in range(offsets.count()):
            key = self.string(offsets.varint(), offsets)
            size = offsets.varint()
            kind = offsets.byte()
            start = data.pos
            data.bytes(size)
            entry = Cursor(self.data, start, start + size, f"resource '{key}'")
            value: object = None
            if size:
                if kind == 0:
                    alignment = entry.varint()
                    length = entry.varint()
                    entry.align(alignment)
                    value = (alignment, entry.bytes(length))
                elif kind == 1:
                    value = bool(entry.byte())
                elif kind == 2:
                    value = self.string_bytes(entry)
                else:
                    raise entry.error(f"unknown resource kind {kind}")
            out.append(Resource(owner, key, kind, value))
        return out

    def _read_attr_type_offsets(self, data: Cursor, offsets: Cursor) -> None:
        n_attrs = offsets.count()
        n_types = offsets.count()
        pos = data.pos
        for target, count in ((self.attr_entries, n_attrs), (self.type_entries, n_types)):
            while len(target) < count:
                dialect = self._dialect(offsets)
                for _ in range(offsets.count()):
                    size, custom = offsets.varint_flag()
                    if pos + size > data.end:
                        raise offsets.error("an attribute or type entry runs past the end of the AttrType section")
                    target.append(_Entry(dialect, custom, pos, pos + size))
                    pos += size
        if not offsets.empty():
            raise offsets.error("trailing data in the attribute/type offsets")

    # ------------------------------------------------------------ attributes and types

    def attr(self, index: int, cur: Cursor | None = None) -> Attr:
        got = self.attrs.get(index)
        if got is not None:
            return got
        if index >= len(self.attr_entries):
            raise (cur.error(f"invalid attribute index {index}") if cur else BytecodeError(f"invalid attribute index {index}"))
        got = self._entry(("attribute", index), self.attr_entries[index], builtin.read_attribute, builtin.asm_attribute)
        self.attrs[index] = got
        return got

    def type(self, index: int, cur: Cursor | None = None) -> str:
        got = self.types.get(index)
        if got is not None:
            return got
        if index >= len(self.type_entries):
            raise (cur.error(f"invalid type index {index}") if cur else BytecodeError(f"invalid type index {index}"))
        got = self._entry(("type", index), self.type_entries[index], builtin.read_type, lambda s: s)
        self.types[index] = got
        return got

    def _entry(self, key: tuple[str, int], entry: _Entry, custom_reader, asm):  # type: ignore[no-untyped-def]
        what, index = key
        if key in self.in_progress:
            raise BytecodeError(f"{what} #{index} refers to itself", entry.start)
        self.in_progress.add(key)
        try:
            cur = Cursor(self.data, entry.start, entry.end, f"{what} #{index} (dialect '{entry.dialect}')")
            if not entry.custom:
                text = cur.cstring().decode("utf-8", "replace")
                if entry.dialect != "builtin" and is_upstream_dialect(entry.dialect):
                    bad = _stray_control(text)
                    if bad is not None:  # mlir-opt's lexer stops there ("unexpected character")
                        raise BytecodeError(f"{what} #{index} ({text!r}): unexpected character {text[bad]!r} at column {bad + 1}", entry.start)
                out = asm(text)
            elif entry.dialect == "builtin":
                out = custom_reader(self, cur)
            else:
                raise BytecodeError(
                    f"cannot decode {what} #{index}: the '{entry.dialect}' dialect wrote it in its own binary encoding, which affine-lsp does not know",
                    entry.start,
                )
            if not cur.empty():
                raise cur.error(f"unexpected trailing bytes after the {what}")
            return out
        finally:
            self.in_progress.discard(key)

    def attr_ref(self, cur: Cursor) -> Attr:
        return self.attr(cur.varint(), cur)

    def location_ref(self, cur: Cursor) -> str:
        """A reference to a location attribute (its spelling inside
        ``loc(...)``): an op's, a block argument's, a location's part."""
        a = self.attr_ref(cur)
        if a.location is None:
            raise cur.error(f"expected a location, got {a.text}")
        return a.location

    def type_ref(self, cur: Cursor) -> str:
        return self.type(cur.varint(), cur)

    # ------------------------------------------------------------ IR

    def _fresh_value(self) -> str:
        name = f"%{self._next_value}"
        self._next_value += 1
        return name

    def _read_ir(self, cur: Cursor) -> list[Op]:
        top = Block("")
        scope = _Scope()
        n_ops, has_args = cur.varint_flag()
        if has_args:
            raise cur.error("the top-level block cannot have arguments")
        scope.push(0)
        if n_ops > cur.remaining():
            raise cur.error("more operations than bytes")
        for _ in range(n_ops):
            top.ops.append(self._read_op(cur, scope, [top]))
        return top.ops

    def _define(self, scope: _Scope, types: list[str], cur: Cursor) -> list[str]:
        start = scope.next_ids[-1]
        end = start + len(types)
        if end > len(scope.values):
            raise cur.error(f"value numbers [{start}, {end}) are outside the region's {len(scope.values)} values")
        names = []
        for k, t in zip(range(start, end), types, strict=True):
            name = scope.values[k] or self._fresh_value()  # a forward reference already named it
            scope.values[k] = name
            self.value_types[name] = t
            names.append(name)
        scope.next_ids[-1] = end
        return names

    def _operand(self, scope: _Scope, cur: Cursor) -> str:
        k = cur.varint()
        if k >= len(scope.values):
            raise cur.error(f"invalid value index {k}")
        name = scope.values[k]
        if name is None:  # a forward reference
            name = scope.values[k] = self._fresh_value()
        return name

    def _use_list_orders(self, cur: Cursor, n_values: int) -> None:
        count = cur.count() if n_values > 1 else 1
        for _ in range(count):
            if n_values > 1:
                cur.varint()
            n, _pairs = cur.varint_flag()
            if n > cur.remaining():
                raise cur.error("a use-list order longer than the data")
            for _ in range(n):
                cur.varint()

    def _read_op(self, cur: Cursor, scope: _Scope, blocks: list[Block]) -> Op:
        idx = cur.varint()
        if idx >= len(self.op_names):
            raise cur.error(f"invalid operation name index {idx}")
        opname = self.op_names[idx]
        op = Op(opname.full)
        mask = cur.byte()
        self.location_ref(cur)  # (not printed; decoded as MLIR's reader does, so a bad one is an error)
        if mask & HAS_ATTRS:
            op.attributes = self.attr_ref(cur)
        if mask & HAS_PROPERTIES:
            if opname.registered is None:
                raise cur.error(f"'{op.name}' has properties but the bytecode version {self.version} cannot encode them")
            # Both registered and unregistered ops refer to an entry of the
            # properties section (MLIR's reader tests the optional flag for
            # presence); an unregistered op's entry is one attribute.
            pidx = cur.varint()
            if pidx >= len(self.properties):
                raise cur.error(f"invalid properties index {pidx} of '{op.name}'")
            start, end = self.properties[pidx]
            pcur = Cursor(self.data, start, end, f"the properties of '{op.name}'")
            if opname.registered:
                op.properties = decode_properties(self, op.name, pcur)
            else:
                op.properties = self.attr_ref(pcur)
                if not pcur.empty():
                    raise pcur.error(f"unexpected trailing bytes after the properties of '{op.name}'")
        if mask & HAS_RESULTS:
            op.result_types = [self.type_ref(cur) for _ in range(cur.count())]
        if mask & HAS_OPERANDS:
            op.operands = [self._operand(scope, cur) for _ in range(cur.count())]
        if mask & HAS_SUCCESSORS:
            for _ in range(cur.count()):
                b = cur.varint()
                if b >= len(blocks):
                    raise cur.error(f"invalid successor block index {b} of '{op.name}'")
                op.successors.append(blocks[b].label)
        if self.version >= V_USE_LIST_ORDERING and mask & HAS_USE_LIST_ORDERS:
            self._use_list_orders(cur, len(op.result_types))
        n_regions, isolated = 0, False
        if mask & HAS_REGIONS:
            n_regions, isolated = cur.varint_flag()
        op.results = self._define(scope, op.result_types, cur)
        if n_regions:
            self._depth += 1
            if self._depth > MAX_NESTING:
                raise cur.error(f"regions nested deeper than {MAX_NESTING}")
            if isolated and self.version >= V_LAZY_LOADING:
                sid, sub = cur.section()
                if sid != 4:
                    raise cur.error(f"expected an IR section for the regions of '{op.name}'")
                inner = _Scope()
                op.regions = [self._read_region(sub, inner) for _ in range(n_regions)]
                if not sub.empty():
                    raise sub.error(f"trailing data after the regions of '{op.name}'")
            else:
                inner = _Scope() if isolated else scope
                op.regions = [self._read_region(cur, inner) for _ in range(n_regions)]
            self._depth -= 1
        return op

    def _read_region(self, cur: Cursor, scope: _Scope) -> Region:
        n_blocks = cur.count()
        region = Region()
        if not n_blocks:
            return region
        n_values = cur.varint()
        if n_values > len(self.data):
            raise cur.error(f"a region of {n_values} values in a file of {len(self.data)} bytes")
        scope.push(n_values)
        for _ in range(n_blocks):
            region.blocks.append(Block(f"^bb{self._next_block}"))
            self._next_block += 1
        for block in region.blocks:
            n_ops, has_args = cur.varint_flag()
            if has_args:
                self._read_block_args(cur, scope, block)
                if self.version >= V_USE_LIST_ORDERING and cur.byte():
                    self._use_list_orders(cur, len(block.args))
            if n_ops > cur.remaining():
                raise cur.error("more operations than bytes")
            for _ in range(n_ops):
                block.ops.append(self._read_op(cur, scope, region.blocks))
        scope.pop(n_values)
        return region

    def _read_block_args(self, cur: Cursor, scope: _Scope, block: Block) -> None:
        types = []
        for _ in range(cur.count()):
            if self.version >= V_ELIDE_UNKNOWN_BLOCK_ARG_LOC:
                tidx, has_loc = cur.varint_flag()
                types.append(self.type(tidx, cur))
                if has_loc:
                    self.location_ref(cur)
            else:
                types.append(self.type_ref(cur))
                self.location_ref(cur)
        names = self._define(scope, types, cur)
        block.args = list(zip(names, types, strict=True))


def _stray_control(text: str) -> int | None:
    """The index of the first control character of ``text`` outside a
    string literal (MLIR's lexer takes space, tab, newline and carriage
    return as white space and rejects the others), else None."""
    in_string = False
    k = 0
    while k < len(text):
        c = text[k]
        if in_string:
            if c == "\\":
                k += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif (c < " " and c not in " \t\n\r") or c == "\x7f":
            return k
        k += 1
    return None


def read_bytecode(data: bytes) -> Module:
    """Read a whole bytecode buffer (raises :class:`BytecodeError`)."""
    try:
        return BytecodeFile(data).read()
    except RecursionError:
        raise BytecodeError("attributes or types nested too deeply") from None
