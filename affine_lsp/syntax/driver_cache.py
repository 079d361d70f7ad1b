"""The driver's own table, cached: what a start reads instead of lark's.

Building lark's parser from its table cache and then the driver's form
of the table (:func:`.driver.flatten`) walks the ~200k entries of the LALR
table three times at every start (docs/performance.md). What the driver and our
lexer need of it is small: the flattened rows (13k entries), each rule's
:data:`~affine_lsp.syntax.reductions.RuleSpec`, the lexer's vocabulary
and each state's accepted symbols. :func:`store` writes them with
``marshal`` next to lark's cache file (the temporary directory), under a
name of their own derived from :func:`cache_key`, atomically (a temporary
file moved to its name); :func:`load` reads them back, or returns None
when the file is missing, unreadable, corrupt, of another format or of
another key (the caller then builds lark's parser and the driver from it,
and stores them again).

The key covers everything the stored data is a function of: the text of
every grammar file, affine-lsp's version, this module's format, the
source of the modules that compute it (driver, lexer, reductions), lark's
version (its ``__init__.py``, read without importing it) and Python's. The name of the file is the key's hash, and the
key is stored inside too and compared on load.
"""

from __future__ import annotations

import getpass
import hashlib
import importlib.util
import marshal
import sys
import tempfile
from pathlib import Path
from typing import Any

from affine_lsp.atomic_write import write_atomic
from affine_lsp.syntax.driver import FlatTable

FORMAT = "affine-lsp-driver-1"
_SOURCES = ("driver.py", "lexer.py", "reductions.py", "driver_cache.py")


def cache_key(grammar_texts: list[str]) -> str:
    """The key of the driver's table for these grammar texts."""
    from affine_lsp import __version__

    h = hashlib.sha256(FORMAT.encode())
    h.update(f"\0affine-lsp {__version__}\0python {sys.version_info[:2]}\0".encode())
    h.update(_lark_version())
    here = Path(__file__).resolve().parent
    for name in _SOURCES:
        try:
            h.update(b"\0" + (here / name).read_bytes())
        except OSError:  # (an install without the sources: the version decides)
            h.update(b"\0" + name.encode())
    for t in grammar_texts:
        h.update(b"\0" + t.encode())
    return h.hexdigest()


def _lark_version() -> bytes:
    """lark's ``__init__.py``, which holds its version, read without
    importing lark (a start that parses valid text never does)."""
    try:
        spec = importlib.util.find_spec("lark")
        if spec is not None and spec.origin:
            return Path(spec.origin).read_bytes()
    except (ImportError, OSError, ValueError):
        pass
    return b"lark ?"


def cache_file(key: str) -> Path:
    """Where the driver's table of ``key`` is kept (beside lark's own cache)."""
    try:
        user = getpass.getuser()
    except Exception:
        user = "user"
    return Path(tempfile.gettempdir()) / f".affine_lsp_driver_{user}_{key[:32]}.marshal"


class Cached:
    """What :func:`load` returns: the driver's table and the lexer's data."""

    __slots__ = ("flat", "keywords", "punct", "subscripts", "accepts")

    def __init__(self, flat: FlatTable, keywords: dict, punct: dict, subscripts: str | None, accepts: list[frozenset[str]]) -> None:
        self.flat = flat
        self.keywords = keywords
        self.punct = punct
        self.subscripts = subscripts
        self.accepts = accepts


def _plain(x: Any) -> Any:
    """``x`` with every ``str`` subclass (lark's Token names) a plain str
    (marshal stores only exact types); shared objects stay shared."""
    memo: dict[int, Any] = {}

    def conv(v: Any) -> Any:
        got = memo.get(id(v))
        if got is not None:
            return got
        if type(v) is str or v is None or type(v) in (int, bool):
            return v
        if isinstance(v, str):
            out: Any = str(v)
        elif isinstance(v, dict):
            out = {conv(k): conv(w) for k, w in v.items()}
        elif isinstance(v, frozenset):
            out = frozenset(conv(w) for w in v)
        elif isinstance(v, list):
            out = [conv(w) for w in v]
        elif isinstance(v, tuple):
            out = tuple(conv(w) for w in v)
        else:
            raise TypeError(f"cannot store {type(v).__name__}")
        memo[id(v)] = out
        return out

    return conv(x)


def store(key: str, flat: FlatTable, vocabulary: tuple[dict, dict, str | None], accepts: dict[int, frozenset[str]], path: Path | None = None) -> bool:
    """Write the driver's table of ``key``; whether it was written (a
    directory that cannot be written is no error: the next start builds it
    again)."""
    path = path or cache_file(key)
    keywords, punct, subscripts = vocabulary
    data = _plain(
        {
            "format": FORMAT,
            "key": key,
            "flat": tuple(flat),
            "keywords": keywords,
            "punct": punct,
            "subscripts": subscripts,
            "accepts": [accepts[s] for s in range(len(flat.actions))],
        }
    )
    try:
        blob = marshal.dumps(data)
    except ValueError:
        return False
    try:
        write_atomic(path, blob, new_mode=0o600)
        return True
    except OSError:
        return False


def load(key: str, path: Path | None = None) -> Cached | None:
    """The driver's table of ``key`` as stored, or None (missing, unreadable,
    corrupt, another format or key: built again by the caller)."""
    path = path or cache_file(key)
    try:
        data = marshal.loads(path.read_bytes())
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != key:
            return None
        flat = FlatTable(*data["flat"])
        accepts = data["accepts"]
        n = len(flat.actions)
        if not (len(flat.defaults) == n == len(accepts) and len(flat.specs) == len(flat.origins) and 0 <= flat.start < n and 0 <= flat.end < n):
            return None
        if not all(o in flat.gotos for o in flat.origins):
            return None
        return Cached(flat, data["keywords"], data["punct"], data["subscripts"], accepts)
    except Exception:  # (EOFError, ValueError, TypeError from a corrupt or truncated file, OSError)
        return None


__all__ = ["FORMAT", "Cached", "cache_file", "cache_key", "load", "store"]
