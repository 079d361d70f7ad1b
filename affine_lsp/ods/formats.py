"""The shipped ODS formats of MLIR 22.1.8's upstream ops
(``affine_lsp/data/formats_22.1.8.json``, written by
``scripts/gen_op_formats.py``, which documents its fields), loaded once."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path

from affine_lsp import forking
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


def _renew_lock() -> None:
    global _LOCK
    _LOCK = threading.Lock()


forking.renewed_in_child(f"{__name__}._LOCK", _renew_lock)
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


_EXTRA: dict[str, dict] = {}


def add_formats(ops: dict[str, dict]) -> list[str]:
    """Make the ops of ``ops`` (``{name: data}``, as
    :func:`affine_lsp.ods.td_records.formats_of` gives them for a user's
    ``.td`` records) parse from their formats; an upstream op keeps its
    shipped format. The names added."""
    raw = _raw()
    added = []
    with _LOCK:
        for name, d in ops.items():
            if name not in raw:
                _EXTRA[name] = d
                _CACHE.pop(name, None)
                added.append(name)
    return added


def remove_formats(names: list[str]) -> None:
    """Forget ops :func:`add_formats` added (a user's dialect unloaded)."""
    with _LOCK:
        for name in names:
            if _EXTRA.pop(name, None) is not None:
                _CACHE.pop(name, None)


def has_format(name: str) -> bool:
    return name in _raw() or name in _EXTRA


def names() -> list[str]:
    """The upstream ops with a shipped format."""
    return list(_raw())


def lookup(name: str) -> OpFormat | None:
    """The format of the upstream op ``name``, or None when it has none."""
    if name in _CACHE:
        return _CACHE[name]
    d = _raw().get(name) or _EXTRA.get(name)
    f = op_format_from_data(name, d) if d is not None else None
    _CACHE[name] = f
    return f
