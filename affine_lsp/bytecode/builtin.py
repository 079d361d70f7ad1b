"""The builtin dialect's binary encodings of attributes and types
(``mlir/include/mlir/IR/BuiltinDialectBytecode.td``), decoded to MLIR text.

Each custom entry starts with a varint code: the position of the kind in
the td file's ``BuiltinDialectAttributes`` / ``BuiltinDialectTypes`` lists.
Attributes and types without a binary encoding (affine maps, integer sets,
strided layouts, other float types, other dialects' ones) are stored as
text and need no decoding.
"""

from __future__ import annotations

import re
import struct
from typing import TYPE_CHECKING

from affine_lsp.bytecode.cursor import Cursor
from affine_lsp.bytecode.errors import BytecodeError
from affine_lsp.bytecode.model import Attr

if TYPE_CHECKING:
    from affine_lsp.bytecode.reader import BytecodeFile

DYNAMIC = -(2**63)  # ShapedType::kDynamic

_BARE_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*\Z")
_SYMBOL_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*\Z")
_IDENTITY_MAP = re.compile(r"affine_map<\(([^()]*)\) -> \(([^()]*)\)>\Z")

ATTRIBUTE_KINDS = (
    "ArrayAttr",
    "DictionaryAttr",
    "StringAttr",
    "StringAttrWithType",
    "FlatSymbolRefAttr",
    "SymbolRefAttr",
    "TypeAttr",
    "UnitAttr",
    "IntegerAttr",
    "FloatAttr",
    "CallSiteLoc",
    "FileLineColLoc",
    "FusedLoc",
    "FusedLocWithMetadata",
    "NameLoc",
    "UnknownLoc",
    "DenseResourceElementsAttr",
    "DenseArrayAttr",
    "DenseIntOrFPElementsAttr",
    "DenseStringElementsAttr",
    "SparseElementsAttr",
    "DistinctAttr",
    "FileLineColRange",
)

_FLOAT_TYPES = {3: "bf16", 4: "f16", 5: "f32", 6: "f64", 7: "f80", 8: "f128"}
_FLOAT_WIDTH = {"bf16": 16, "f16": 16, "f32": 32, "f64": 64, "f80": 80, "f128": 128, "tf32": 19}


# ---------------------------------------------------------------- spelling helpers


def escape_string(raw: bytes) -> str:
    """A string literal as MLIR prints it."""
    out = ['"']
    for b in raw:
        c = chr(b)
        if c == "\\":
            out.append("\\\\")
        elif c == '"':
            out.append('\\"')
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif 0x20 <= b < 0x7F:
            out.append(c)
        else:
            out.append(f"\\{b:02X}")
    out.append('"')
    return "".join(out)


def attr_name(name: str) -> str:
    """An attribute dictionary key: bare when it can be."""
    return name if _BARE_ID.match(name) else escape_string(name.encode())


def symbol_name(raw: bytes) -> str:
    name = raw.decode("utf-8", "replace")
    return "@" + (name if _SYMBOL_ID.match(name) else escape_string(raw))


def is_identity_map(text: str) -> bool:
    m = _IDENTITY_MAP.match(text)
    if not m:
        return False
    dims = [d.strip() for d in m.group(1).split(",") if d.strip()]
    results = [r.strip() for r in m.group(2).split(",") if r.strip()]
    return dims == results and all(d == f"d{k}" for k, d in enumerate(dims))


def asm_attribute(text: str) -> Attr:
    """An attribute the writer stored as text."""
    return Attr(text, unit=text == "unit", identity_layout=is_identity_map(text))


def int_width(t: str) -> int | None:
    """The bit width of an integer or index type, else None."""
    if t == "index":
        return 64
    m = re.match(r"[su]?i(\d+)\Z", t)
    return int(m.group(1)) if m else None


def format_int(value: int, t: str) -> str:
    """An APInt of type ``t`` as MLIR prints it (i1 as a boolean)."""
    width = int_width(t) or 64
    value &= (1 << width) - 1 if width else 0
    if t == "i1":
        return "true" if value else "false"
    if not t.startswith("ui") and width and value >> (width - 1):
        value -= 1 << width
    return str(value)


def format_float(bits: int, t: str) -> str:
    """A float of type ``t`` from its bits: decimal when it reads back
    exactly (f32, f64), else MLIR's hexadecimal form."""
    if t in ("f32", "f64"):
        fmt, width = ("<f", 4) if t == "f32" else ("<d", 8)
        bits &= (1 << (8 * width)) - 1
        value = struct.unpack(fmt, bits.to_bytes(width, "little"))[0]
        if value == value and value not in (float("inf"), float("-inf")):
            for digits in range(1, 18):
                text = f"{value:.{digits}g}"
                if struct.unpack(fmt, struct.pack(fmt, float(text)))[0] == value and (value != 0 or text.startswith("-") == (bits >> (width * 8 - 1) == 1)):
                    if "e" in text:
                        mant, exp = text.split("e")
                        if "." not in mant:
                            mant += ".0"
                        return f"{mant}e{exp}"
                    return text if ("." in text or "n" in text) else text + ".0"
    width = _FLOAT_WIDTH.get(t)
    digits = (width + 3) // 4 if width else max(1, (bits.bit_length() + 3) // 4)
    return f"0x{bits:0{digits}X}"


# ---------------------------------------------------------------- readers


def _ap_int(cur: Cursor, width: int) -> int:
    """``readAPIntWithKnownWidth``."""
    if width <= 8:
        return cur.byte()
    if width <= 64:
        return cur.signed_varint() & ((1 << 64) - 1)
    words = [cur.signed_varint() & ((1 << 64) - 1) for _ in range(cur.count())]
    return sum(w << (64 * k) for k, w in enumerate(words))


def _list(cur: Cursor, fn):  # type: ignore[no-untyped-def]
    return [fn() for _ in range(cur.count())]


def _shape(cur: Cursor) -> list[int]:
    return [cur.signed_varint() for _ in range(cur.count())]


def _dims(shape: list[int]) -> str:
    return "".join(("?" if d == DYNAMIC else str(d)) + "x" for d in shape)


def _string_attr(rd: BytecodeFile, cur: Cursor) -> bytes:
    """A reference to a StringAttr, as its raw bytes."""
    a = rd.attr_ref(cur)
    if not a.text.startswith('"'):
        raise cur.error(f"expected a string attribute, got {a.text}")
    raw = getattr(a, "_raw", None)
    return raw if raw is not None else a.text[1:-1].encode()


def element_type_of(shaped: str) -> str:
    """The element type of a builtin shaped type spelling."""
    inner = shaped[shaped.index("<") + 1 : -1]
    depth = 0
    parts = []
    cur = ""
    for ch in inner:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        cur += ch
    parts.append(cur)
    head = parts[0].strip()
    # Dimensions are `N x` / `? x` / `[N] x` prefixes.
    m = re.match(r"((?:\*|\??\d*|\[\d+\])x)*", head)
    return head[m.end() :] if m else head


def shape_of(shaped: str) -> list[int] | None:
    """The static shape of a ranked shaped type spelling (None when dynamic or unranked)."""
    inner = shaped[shaped.index("<") + 1 : -1]
    m = re.match(r"((?:\d+x)*)", inner)
    dims = [int(d) for d in m.group(1).split("x") if d] if m else []
    rest = inner[m.end() :] if m else inner
    if rest.startswith(("?", "*", "[")):
        return None
    return dims


def _dense_elements(t: str, raw: bytes) -> str:
    """``dense<...> : t`` from the raw buffer of a DenseIntOrFPElementsAttr."""
    if not t.endswith(">") or "<" not in t:
        raise BytecodeError(f"dense elements of non-shaped type {t}")
    elem = element_type_of(t)
    shape = shape_of(t)
    width = int_width(elem)
    is_float = elem in ("f32", "f64")
    if shape is not None and elem != "i1" and (width in (8, 16, 32, 64) or is_float):
        size = (width or (32 if elem == "f32" else 64)) // 8
        count = 1
        for d in shape:
            count *= d
        if len(raw) % size == 0 and len(raw) // size in (1, count):
            vals = [int.from_bytes(raw[k : k + size], "little") for k in range(0, len(raw), size)]
            if is_float:
                words = [format_float(v, elem) for v in vals]
            else:
                words = [format_int(v, elem) for v in vals]
            if (len(vals) == 1 and count != 1) or not shape:
                return f"dense<{words[0]}> : {t}"
            return f"dense<{_nest(words, shape)}> : {t}"
    return f'dense<"0x{raw.hex().upper()}"> : {t}'


def _nest(words: list[str], shape: list[int]) -> str:
    if not shape:
        return words[0]
    if len(shape) == 1:
        return "[" + ", ".join(words) + "]"
    step = len(words) // shape[0] if shape[0] else 0
    return "[" + ", ".join(_nest(words[k * step : (k + 1) * step], shape[1:]) for k in range(shape[0])) + "]"


def _dense_array(elem: str, size: int, raw: bytes) -> str:
    if size > len(raw) * 8:
        raise BytecodeError(f"a dense array of {size} elements in {len(raw)} bytes")
    if size == 0:
        return f"array<{elem}>"
    width = int_width(elem)
    if elem == "i1":
        words = ["true" if b else "false" for b in raw[:size]]
    elif width:
        n = max(1, width // 8)
        words = [format_int(int.from_bytes(raw[k * n : (k + 1) * n], "little"), elem) for k in range(size)]
    elif elem in _FLOAT_WIDTH:
        n = (_FLOAT_WIDTH[elem] + 7) // 8
        words = [format_float(int.from_bytes(raw[k * n : (k + 1) * n], "little"), elem) for k in range(size)]
    else:
        raise BytecodeError(f"cannot print a dense array of {elem}")
    return f"array<{elem}: {', '.join(words)}>"


def read_attribute(rd: BytecodeFile, cur: Cursor) -> Attr:
    code = cur.varint()
    kind = ATTRIBUTE_KINDS[code] if code < len(ATTRIBUTE_KINDS) else None
    if kind == "ArrayAttr":
        return Attr("[" + ", ".join(a.short or a.text for a in _list(cur, lambda: rd.attr_ref(cur))) + "]")
    if kind == "DictionaryAttr":
        items = []
        for _ in range(cur.count()):
            name = _string_attr(rd, cur).decode("utf-8", "replace")
            items.append((name, rd.attr_ref(cur)))
        return Attr(dict_text(items), items=items)
    if kind == "StringAttr":
        raw = rd.string_bytes(cur)
        a = Attr(escape_string(raw))
        a._raw = raw  # type: ignore[attr-defined]
        return a
    if kind == "StringAttrWithType":
        raw = rd.string_bytes(cur)
        return Attr(f"{escape_string(raw)} : {rd.type_ref(cur)}")
    if kind == "FlatSymbolRefAttr":
        return Attr(symbol_name(_string_attr(rd, cur)))
    if kind == "SymbolRefAttr":
        root = symbol_name(_string_attr(rd, cur))
        nested = _list(cur, lambda: rd.attr_ref(cur).text)
        return Attr("::".join([root, *nested]))
    if kind == "TypeAttr":
        return Attr(rd.type_ref(cur))
    if kind == "UnitAttr":
        return Attr("unit", unit=True)
    if kind == "IntegerAttr":
        t = rd.type_ref(cur)
        width = int_width(t)
        if width is None:
            raise cur.error(f"an integer attribute of non-integer type {t}")
        value = format_int(_ap_int(cur, width), t)
        if t == "i1":
            return Attr(value)
        return Attr(f"{value} : {t}", short=value if t == "i64" else None)
    if kind == "FloatAttr":
        t = rd.type_ref(cur)
        width = _FLOAT_WIDTH.get(t)
        if width is None:
            m = re.match(r"f(\d+)", t)
            width = int(m.group(1)) if m else 64
        return Attr(f"{format_float(_ap_int(cur, width), t)} : {t}")
    if kind in LOCATION_KINDS:
        inner = _location(rd, cur, kind)
        return Attr(f"loc({inner})", location=inner)
    if kind == "DenseResourceElementsAttr":
        t = rd.type_ref(cur)
        h = cur.varint()
        if h >= len(rd.resources):
            raise cur.error(f"invalid resource handle {h}")
        return Attr(f"dense_resource<{rd.resources[h].key}> : {t}")
    if kind == "DenseArrayAttr":
        elem = rd.type_ref(cur)
        size = cur.varint()
        return Attr(_dense_array(elem, size, cur.blob()))
    if kind == "DenseIntOrFPElementsAttr":
        t = rd.type_ref(cur)
        return Attr(_dense_elements(t, cur.blob()))
    if kind == "DenseStringElementsAttr":
        t = rd.type_ref(cur)
        splat = cur.varint()
        if splat:
            return Attr(f"dense<{escape_string(rd.string_bytes(cur))}> : {t}")
        if not t.endswith(">") or "<" not in t:
            raise cur.error(f"dense strings of non-shaped type {t}")
        shape = shape_of(t) or []
        n = _count(shape)
        if n > cur.remaining():
            raise cur.error(f"{n} strings in {cur.remaining()} bytes")
        words = [escape_string(rd.string_bytes(cur)) for _ in range(n)]
        return Attr(f"dense<{_nest(words, shape) if shape else words[0]}> : {t}")
    if kind == "SparseElementsAttr":
        t = rd.type_ref(cur)
        indices = _dense_body(rd.attr_ref(cur).text)
        values = _dense_body(rd.attr_ref(cur).text)
        return Attr(f"sparse<{indices}, {values}> : {t}")
    if kind == "DistinctAttr":
        inner = rd.attr_ref(cur)
        n = getattr(rd, "_distinct", 0)
        rd._distinct = n + 1  # type: ignore[attr-defined]
        return Attr(f"distinct[{n}]<{inner.text}>")
    raise cur.error(f"unknown builtin attribute code {code}")


LOCATION_KINDS = ("CallSiteLoc", "FileLineColLoc", "FusedLoc", "FusedLocWithMetadata", "NameLoc", "UnknownLoc", "FileLineColRange")


def _location(rd: BytecodeFile, cur: Cursor, kind: str) -> str:
    """The spelling of a location inside ``loc(...)``."""
    if kind == "UnknownLoc":
        return "unknown"
    if kind == "CallSiteLoc":
        callee = rd.location_ref(cur)
        return f"callsite({callee} at {rd.location_ref(cur)})"
    if kind == "FileLineColLoc":
        name = escape_string(_string_attr(rd, cur))
        line = cur.varint()
        return f"{name}:{line}:{cur.varint()}"
    if kind == "FileLineColRange":
        name = escape_string(_string_attr(rd, cur))
        parts = [cur.varint() for _ in range(cur.count())]
        if len(parts) == 1:
            return f"{name}:{parts[0]}"
        if len(parts) == 2:
            return f"{name}:{parts[0]}:{parts[1]}"
        if len(parts) == 3:
            return f"{name}:{parts[0]}:{parts[1]} to :{parts[2]}"
        if len(parts) == 4:
            return f"{name}:{parts[0]}:{parts[1]} to {parts[2]}:{parts[3]}"
        raise cur.error(f"a file location range with {len(parts)} numbers")
    if kind == "NameLoc":
        name = escape_string(_string_attr(rd, cur))
        child = rd.location_ref(cur)
        return name if child == "unknown" else f"{name}({child})"
    locs = [rd.location_ref(cur) for _ in range(cur.count())]
    meta = f"<{rd.attr_ref(cur).text}>" if kind == "FusedLocWithMetadata" else ""
    return f"fused{meta}[{', '.join(locs)}]"


def _count(shape: list[int]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _dense_body(text: str) -> str:
    """The ``...`` of ``dense<...> : type``."""
    if not text.startswith("dense<"):
        raise BytecodeError(f"expected a dense elements attribute, got {text}")
    depth = 0
    for k, ch in enumerate(text):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
            if depth == 0:
                return text[6:k]
    return text[6:]


def dict_text(items: list[tuple[str, Attr]]) -> str:
    return "{" + ", ".join(attr_name(k) if v.unit else f"{attr_name(k)} = {v.text}" for k, v in items) + "}"


def read_type(rd: BytecodeFile, cur: Cursor) -> str:
    code = cur.varint()
    if code == 0:
        v = cur.varint()
        width, signedness = v >> 2, v & 3
        return ("i", "si", "ui", "i")[signedness] + str(width)
    if code == 1:
        return "index"
    if code == 2:
        inputs = _list(cur, lambda: rd.type_ref(cur))
        results = _list(cur, lambda: rd.type_ref(cur))
        return function_type(inputs, results)
    if code in _FLOAT_TYPES:
        return _FLOAT_TYPES[code]
    if code == 9:
        return f"complex<{rd.type_ref(cur)}>"
    if code in (10, 11):
        space = rd.attr_ref(cur) if code == 11 else None
        shape = _shape(cur)
        elem = rd.type_ref(cur)
        layout = rd.attr_ref(cur)
        parts = [f"{_dims(shape)}{elem}"]
        if not layout.identity_layout:
            parts.append(layout.text)
        if space is not None:
            parts.append(space.short or space.text)
        return f"memref<{', '.join(parts)}>"
    if code == 12:
        return "none"
    if code in (13, 14):
        encoding = rd.attr_ref(cur) if code == 14 else None
        shape = _shape(cur)
        elem = rd.type_ref(cur)
        return f"tensor<{_dims(shape)}{elem}{', ' + encoding.text if encoding else ''}>"
    if code == 15:
        return f"tuple<{', '.join(_list(cur, lambda: rd.type_ref(cur)))}>"
    if code in (16, 17):
        space = rd.attr_ref(cur) if code == 17 else None
        elem = rd.type_ref(cur)
        return f"memref<*x{elem}{', ' + (space.short or space.text) if space else ''}>"
    if code == 18:
        return f"tensor<*x{rd.type_ref(cur)}>"
    if code == 19:
        shape = _shape(cur)
        return f"vector<{_dims(shape)}{rd.type_ref(cur)}>"
    if code == 20:
        scalable = [bool(cur.byte()) for _ in range(cur.count())]
        shape = _shape(cur)
        elem = rd.type_ref(cur)
        dims = "".join((f"[{d}]" if s else str(d)) + "x" for d, s in zip(shape, scalable + [False] * len(shape), strict=False))
        return f"vector<{dims}{elem}>"
    raise cur.error(f"unknown builtin type code {code}")


def function_type(inputs: list[str], results: list[str]) -> str:
    res = results[0] if len(results) == 1 and not results[0].startswith("(") else "(" + ", ".join(results) + ")"
    return f"({', '.join(inputs)}) -> {res}"
