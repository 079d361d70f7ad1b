"""Reading the primitives of MLIR bytecode: bytes, varints, strings, sections."""

from __future__ import annotations

from affine_lsp.bytecode.errors import BytecodeError

ALIGNMENT_BYTE = 0xCB
NUM_SECTIONS = 9  # String .. Properties

SECTION_NAMES = {
    0: "String",
    1: "Dialect",
    2: "AttrType",
    3: "AttrTypeOffset",
    4: "IR",
    5: "Resource",
    6: "ResourceOffset",
    7: "DialectVersions",
    8: "Properties",
}


class Cursor:
    """A position in ``data[start:end]``; offsets in errors are file offsets."""

    __slots__ = ("data", "end", "pos", "what")

    def __init__(self, data: bytes, start: int = 0, end: int | None = None, what: str = "file") -> None:
        self.data = data
        self.pos = start
        self.end = len(data) if end is None else end
        self.what = what

    def error(self, message: str) -> BytecodeError:
        return BytecodeError(f"{message} in {self.what}", self.pos)

    def empty(self) -> bool:
        return self.pos >= self.end

    def remaining(self) -> int:
        return self.end - self.pos

    def byte(self) -> int:
        if self.pos >= self.end:
            raise self.error("unexpected end of data (truncated file?) reading a byte")
        b = self.data[self.pos]
        self.pos += 1
        return b

    def bytes(self, n: int) -> bytes:
        if n > self.end - self.pos:
            raise self.error(f"unexpected end of data (truncated file?): {n} bytes needed, {self.end - self.pos} left")
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def varint(self) -> int:
        """A PrefixVarInt: the number of trailing zero bits of the first byte
        is the number of bytes that follow (all zero: 8 bytes follow)."""
        first = self.byte()
        if first & 1:
            return first >> 1
        if first == 0:
            return int.from_bytes(self.bytes(8), "little")
        n = (first & -first).bit_length() - 1  # trailing zeros: 1..7
        rest = self.bytes(n)
        return int.from_bytes(bytes([first]) + rest, "little") >> (n + 1)

    def count(self) -> int:
        """A varint counting items that each take at least one byte of what
        is left (a corrupted count is an error, not a huge allocation)."""
        v = self.varint()
        if v > self.end - self.pos:
            raise self.error(f"a count of {v} exceeds the {self.end - self.pos} bytes left")
        return v

    def signed_varint(self) -> int:
        """A zigzag-encoded varint."""
        v = self.varint()
        return (v >> 1) ^ -(v & 1)

    def varint_flag(self) -> tuple[int, bool]:
        v = self.varint()
        return v >> 1, bool(v & 1)

    def cstring(self) -> bytes:
        nul = self.data.find(b"\0", self.pos, self.end)
        if nul < 0:
            raise self.error("string without its terminating NUL")
        out = self.data[self.pos : nul]
        self.pos = nul + 1
        return out

    def align(self, alignment: int) -> None:
        if alignment <= 0 or alignment & (alignment - 1):
            raise self.error(f"alignment {alignment} is not a power of two")
        while self.pos % alignment:
            b = self.byte()
            if b != ALIGNMENT_BYTE:
                raise self.error(f"expected alignment byte 0xCB, got 0x{b:02X}")

    def section(self) -> tuple[int, Cursor]:
        """A section header and its contents: ``(id, cursor over the data)``."""
        head = self.byte()
        length = self.varint()
        sid = head & 0x7F
        if sid >= NUM_SECTIONS:
            raise self.error(f"invalid section id {sid}")
        if head & 0x80:
            self.align(self.varint())
        if length > self.end - self.pos:
            raise self.error(f"section {SECTION_NAMES[sid]} ({sid}) of {length} bytes runs past the end of the data (truncated file?)")
        sub = Cursor(self.data, self.pos, self.pos + length, f"section {SECTION_NAMES[sid]}")
        self.pos += length
        return sid, sub

    def blob(self) -> bytes:
        return self.bytes(self.varint())
