"""The shipped ODS formats of MLIR 22.1.8's upstream ops
(``affine_lsp/data/formats_22.1.8.json``, written by
``scripts/gen_op_formats.py``, which documents its fields), loaded once."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path

from affine_lsp.ods.format_ast import Format, FormatError, parse_format

VERSION = "22.1.8"
DATA = Path(__file__).resolve().parent.parent / "data" / f"formats_{VERSION}.json"


@dataclass(frozen=True, slots=True)
class OpFormat:
    """What the interpreter needs of one op (see the generator's docstring)."""

    name: str
    format: Format
    operands: tuple[tuple[str, str, str, str], ...]
    results: tuple[tuple[str, str, str, str], ...]
    attrs: tuple[tuple[str, str, int], ...]
    regions: tuple[tuple[str, int], ...]
    successors: tuple[tuple[str, int], ...]
    rules: tuple[tuple, ...]
    segments: str


_LOCK = threading.Lock()
_RAW: dict[str, dict] | None = None
_CACHE: dict[str, OpFormat | None] = {}


def _raw() -> dict[str, dict]:
    global _RAW
    if _RAW is None:
        with _LOCK:
            if _RAW is None:
                try:
                    _RAW = json.loads(DATA.read_text())["ops"]
                except (OSError, ValueError, KeyError):
                    _RAW = {}
    return _RAW


def op_format_from_data(name: str, d: dict) -> OpFormat | None:
    """An :class:`OpFormat` from one generator record (None when its format
    does not parse)."""
    try:
        fmt = parse_format(d["f"])
    except FormatError:
        return None
    return OpFormat(
        name,
        fmt,
        tuple(tuple(x) for x in d.get("o", ())),
        tuple(tuple(x) for x in d.get("r", ())),
        tuple(tuple(x) for x in d.get("a", ())),
        tuple(tuple(x) for x in d.get("g", ())),
        tuple(tuple(x) for x in d.get("s", ())),
        tuple(tuple(x) for x in d.get("ti", ())),
        d.get("seg", ""),
    )


def has_format(name: str) -> bool:
    return name in _raw()


def names() -> list[str]:
    return list(_raw())


def lookup(name: str) -> OpFormat | None:
    """The format of the upstream op ``name``, or None when it has none."""
    if name in _CACHE:
        return _CACHE[name]
    d = _raw().get(name)
    f = op_format_from_data(name, d) if d is not None else None
    _CACHE[name] = f
    return f
