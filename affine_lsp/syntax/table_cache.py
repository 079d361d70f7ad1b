"""A compact on-disk form of lark's LALR table.

lark caches a parser's tables in a temporary file (``cache=``), but its
format writes one small dictionary per table entry (``{"@": rule id}``)
and a token number per key: the grammar's ~225k entries load as objects
that live only until lark has turned them into its own table, a peak in
every process that parses (the server and its dataflow worker) several
times the size of the built table (docs/performance.md).

:func:`compact_tables` makes lark write and read the table in a shared
form instead while our parser is built: each distinct entry (shift to a
state, reduce by a rule) is one tuple that every state refers to, and the
keys are the terminal names, so pickle stores and loads each once. The
cache file has a name of its own (:func:`cache_path`: the format, the user,
the grammar's text, lark's and Python's versions), so a file in lark's own
format is never read with this one, and lark still checks the grammar's
hash stored inside it.
"""

from __future__ import annotations

import contextlib
import getpass
import hashlib
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lark
from lark.grammar import Rule
from lark.parsers.lalr_analysis import ParseTableBase, Reduce, Shift
from lark.utils import FS

from affine_lsp.atomic_write import atomic_open

FORMAT = "affine-lsp-table-1"


def cache_path(grammar_texts: list[str], options: str = "") -> str:
    """The cache file of a grammar: one per grammar text, lark options
    (``options``, which include the grammar's path: lark hashes them into
    the file too, and a file whose hash differs is built again and
    overwritten, so two checkouts sharing one file would rebuild it in
    turn), lark and Python version."""
    h = hashlib.sha256(FORMAT.encode())
    h.update(f"lark {lark.__version__} python {sys.version_info[:2]}".encode())
    h.update(b"\0" + options.encode())
    for t in grammar_texts:
        h.update(b"\0" + t.encode())
    try:
        user = getpass.getuser()
    except Exception:
        user = "user"
    return str(Path(tempfile.gettempdir()) / f".affine_lsp_lark_{user}_{h.hexdigest()[:32]}.tmp")


def _serialize(self: ParseTableBase, memo: Any) -> dict[str, Any]:
    shared: dict[tuple[int, Any], tuple[int, Any]] = {}
    names: dict[str, str] = {}
    states: dict[Any, dict[str, Any]] = {}
    for state, actions in self.states.items():
        row: dict[str, Any] = {}
        for token, (action, arg) in actions.items():
            if action is Reduce:
                ref = arg.serialize(memo)
                if not (isinstance(ref, dict) and len(ref) == 1 and "@" in ref):
                    row[names.setdefault(token, token)] = (1, ref)  # not memoized: lark's form
                    continue
                key: tuple[int, Any] = (1, ref["@"])
            else:
                key = (0, arg)
            row[names.setdefault(token, token)] = shared.setdefault(key, key)
        states[state] = row
    return {"format": FORMAT, "states": states, "start_states": self.start_states, "end_states": self.end_states}


_lark_deserialize = ParseTableBase.deserialize.__func__  # type: ignore[attr-defined]


def _deserialize(cls: type, data: dict[str, Any], memo: dict[int, Any]) -> Any:
    if data.get("format") != FORMAT:
        return _lark_deserialize(cls, data, memo)
    shared: dict[tuple[int, Any], tuple[Any, Any]] = {}

    def entry(t: tuple[int, Any]) -> tuple[Any, Any]:
        action, arg = t
        if action == 1 and not isinstance(arg, int):
            return (Reduce, Rule.deserialize(arg, memo))
        got = shared.get(t)
        if got is None:
            got = shared[t] = (Reduce, memo[arg]) if action == 1 else (Shift, arg)
        return got

    # The rows just loaded become lark's rows, their entries replaced in
    # place: building new ones would hold two tables at once (a peak that
    # stays resident: docs/performance.md).
    states = data["states"]
    for row in states.values():
        for token, t in row.items():
            row[token] = entry(t)
    return cls(states, data["start_states"], data["end_states"])


def _open(name: str, mode: str = "r", **kwargs: Any) -> Any:
    # Written under a temporary name and moved to its name when closed
    # without error: no process ever reads a half-written table.
    if "w" in mode:
        return atomic_open(name, mode, new_mode=0o600, **kwargs)
    return open(name, mode, **kwargs)


@contextlib.contextmanager
def compact_tables() -> Iterator[None]:
    """While active, lark writes and reads LALR tables in the compact form
    (reading lark's own form still works), and writes its cache files
    atomically."""
    saved = ParseTableBase.__dict__["serialize"], ParseTableBase.__dict__["deserialize"], FS.__dict__["open"]
    ParseTableBase.serialize = _serialize  # type: ignore[method-assign,assignment]
    ParseTableBase.deserialize = classmethod(_deserialize)  # type: ignore[method-assign,assignment]
    FS.open = staticmethod(_open)  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        ParseTableBase.serialize, ParseTableBase.deserialize, FS.open = saved  # type: ignore[method-assign]


__all__ = ["FORMAT", "cache_path", "compact_tables"]
