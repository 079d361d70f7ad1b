"""The project file that names a project's dialects, found upward from a
document: ``affine-lsp.toml`` or a ``pyproject.toml`` with a
``[tool.affine-lsp]`` table, the nearest one (a ``pyproject.toml`` without
the table is passed over)::

    td = ["include/MyDialect/MyOps.td"]   # paths relative to the file
    include = ["include"]
    irdl = ["dialects/cmath.irdl.mlir"]   # IRDL files, as --irdl-file

The CLI (every command that reads MLIR) and the server read it the same way.
It names no program: ``llvm-tblgen`` is found (:mod:`affine_lsp.ods.tblgen`)
or named by a flag or a user setting, never by a file of the project.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

from affine_lsp import forking
from affine_lsp.ods.dialect_set import DialectSet, Problem

PROJECT_FILE = "affine-lsp.toml"
PYPROJECT = "pyproject.toml"


@dataclass(frozen=True)
class ProjectDialects:
    """A project file's dialects, or why it could not be read."""

    path: str
    dialects: DialectSet
    problem: Problem | None = None


_LOCK = threading.Lock()


def _renew_lock() -> None:
    global _LOCK
    _LOCK = threading.Lock()


forking.renewed_in_child(f"{__name__}._LOCK", _renew_lock)  # (a child never sees a lock another thread held)
_READ: dict[str, tuple[tuple[int, int], ProjectDialects | None]] = {}


def _stat(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


def _strings(table: dict, key: str, path: str) -> tuple[list[str], Problem | None]:
    v = table.get(key, [])
    if isinstance(v, str):
        v = [v]
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        return [], Problem(path, f"'{key}' must be a list of paths (strings)")
    return v, None


def read(path: str) -> ProjectDialects | None:
    """The dialects of the project file ``path`` (None for a
    ``pyproject.toml`` without ``[tool.affine-lsp]``); read again only when
    the file changed."""
    stamp = _stat(path)
    if stamp is None:
        return None
    with _LOCK:
        got = _READ.get(path)
        if got is not None and got[0] == stamp:
            return got[1]
    result = _parse(path)
    with _LOCK:
        if len(_READ) > 256:
            _READ.clear()
        _READ[path] = (stamp, result)
    return result


def _parse(path: str) -> ProjectDialects | None:
    import tomllib

    empty = DialectSet(())
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as e:
        return ProjectDialects(path, empty, Problem(path, f"cannot read: {e.strerror or e}"))
    except tomllib.TOMLDecodeError as e:
        if os.path.basename(path) == PYPROJECT and "affine-lsp" not in Path(path).read_text(encoding="utf-8", errors="replace"):
            return None  # some other tool's broken file
        return ProjectDialects(path, empty, Problem(path, f"invalid TOML: {e}"))
    table = data
    if os.path.basename(path) == PYPROJECT:
        table = data.get("tool", {}).get("affine-lsp") if isinstance(data.get("tool"), dict) else None
        if not isinstance(table, dict):
            return None
    td, p1 = _strings(table, "td", path)
    include, p2 = _strings(table, "include", path)
    irdl, p3 = _strings(table, "irdl", path)
    base = os.path.dirname(os.path.abspath(path))
    return ProjectDialects(path, DialectSet.of(td, include, base, origin=path, irdl=irdl), p1 or p2 or p3)


def find(start: str) -> ProjectDialects | None:
    """The nearest project file at or above ``start`` (a file's folder, or
    a folder), or None."""
    d = os.path.abspath(start)
    if not os.path.isdir(d):
        d = os.path.dirname(d)
    while True:
        for name in (PROJECT_FILE, PYPROJECT):
            got = read(os.path.join(d, name))
            if got is not None:
                return got
        up = os.path.dirname(d)
        if up == d:
            return None
        d = up
