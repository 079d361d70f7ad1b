"""The server's persistent cache: the complete diagnostics of a document
text, kept on disk so that reopening a file, or restarting the editor, shows
them at once.

An entry is keyed by a hash of everything the diagnostics depend on: the
document's URI (diagnostics carry it in their related locations), its whole
text, the server settings, and the *code fingerprint*: affine-lsp's version
with the size and modification time of every file of the package and of its
grammar, so that an entry is never trusted across versions of affine-lsp or
of the grammar (a development checkout that changes a file invalidates
everything). Entries are written only for complete diagnostics that do not
depend on the machine's speed (no function over its time budget), when a
document is opened, saved or closed; they are read when a document is
opened. Opening then publishes the cached diagnostics right away, and the
document is built and analysed as usual behind them: what that computation
finds is published only if it differs.

Where: ``$AFFINE_LSP_CACHE_DIR`` when set (``off`` disables the cache), else
``$XDG_CACHE_HOME/affine-lsp`` or ``~/.cache/affine-lsp``. Bounded in size
(``cache.maxSizeMb``, default 64 MB): past it the least recently used
entries are deleted. Every failure (unwritable directory, corrupt entry,
full disk) only means a miss.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import threading
import zlib
from pathlib import Path
from typing import Any

from affine_lsp import forking
from affine_lsp.atomic_write import write_atomic

log = logging.getLogger(__name__)

FORMAT = 1
"""Bumped when the layout of an entry changes."""

TIME_DEPENDENT_CODES = frozenset({"deps-time", "deps-internal", "internal"})
"""Diagnostic codes whose presence depends on the machine's speed or on a
failure: results holding them are not cached."""

_ROOT = Path(__file__).resolve().parents[1]  # the affine_lsp package
_fingerprint: str | None = None
_lock = forking.not_held_across_fork(threading.Lock(), f"{__name__}._lock", "the disk cache is written by the server, never by a child")


def code_fingerprint() -> str:
    """affine-lsp's version and the size and mtime of every source and
    grammar file of the package (computed once per process)."""
    global _fingerprint
    with _lock:
        if _fingerprint is None:
            from affine_lsp import __version__

            h = hashlib.sha256(f"affine-lsp {__version__} format {FORMAT}".encode())
            roots = [_ROOT, _ROOT.parent / "grammar"]
            for root in roots:
                if not root.is_dir():
                    continue
                for p in sorted(root.rglob("*")):
                    if p.suffix in (".py", ".lark") and p.is_file():
                        st = p.stat()
                        h.update(f"{p.relative_to(root.parent)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
            _fingerprint = h.hexdigest()
        return _fingerprint


def default_directory() -> Path | None:
    env = os.environ.get("AFFINE_LSP_CACHE_DIR")
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "none") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "affine-lsp"


class DiagnosticsCache:
    """Complete diagnostics per (URI, text, settings, code fingerprint)."""

    def __init__(self, directory: Path | None, max_bytes: int = 64 * 1024 * 1024) -> None:
        self.directory = directory
        self.max_bytes = max_bytes
        self.hits = 0
        self.misses = 0
        self.writes = 0

    @property
    def enabled(self) -> bool:
        return self.directory is not None and self.max_bytes > 0

    def key(self, uri: str, text: str, settings: object) -> str:
        h = hashlib.sha256()
        h.update(code_fingerprint().encode())
        h.update(b"\0")
        h.update(uri.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
        h.update(repr(settings).encode())
        h.update(b"\0")
        h.update(text.encode("utf-8", "surrogatepass"))
        return h.hexdigest()

    def _path(self, key: str) -> Path:
        assert self.directory is not None
        return self.directory / "diagnostics" / key[:2] / f"{key}.json.z"

    def get(self, key: str) -> list[dict[str, Any]] | None:
        """The diagnostics (LSP JSON) stored under ``key``, or None."""
        if not self.enabled:
            return None
        path = self._path(key)
        try:
            data = json.loads(zlib.decompress(path.read_bytes()))
        except FileNotFoundError:
            self.misses += 1
            return None
        except Exception as e:  # corrupt or unreadable: a miss, and the entry goes
            log.info("cache entry %s unreadable (%s): removed", path, e)
            with contextlib.suppress(OSError):
                path.unlink()
            self.misses += 1
            return None
        if not isinstance(data, dict) or data.get("key") != key or not isinstance(data.get("diagnostics"), list):
            self.misses += 1
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: kept longest
        self.hits += 1
        return data["diagnostics"]

    def put(self, key: str, diagnostics: list[dict[str, Any]]) -> bool:
        """Store ``diagnostics`` (atomically: a reader sees the old entry or
        the new one); then keep the directory under its size bound."""
        if not self.enabled:
            return False
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            blob = zlib.compress(json.dumps({"key": key, "diagnostics": diagnostics}, separators=(",", ":")).encode(), 1)
            write_atomic(path, blob, new_mode=0o600)
        except OSError as e:
            log.info("could not write the cache entry %s: %s", path, e)
            return False
        self.writes += 1
        self.prune()
        return True

    def prune(self) -> None:
        """Delete the least recently used entries while the cache is larger
        than its bound."""
        if self.directory is None:
            return
        root = self.directory / "diagnostics"
        entries: list[tuple[float, int, Path]] = []
        total = 0
        try:
            for p in root.rglob("*.json.z"):
                with contextlib.suppress(OSError):
                    st = p.stat()
                    entries.append((st.st_mtime, st.st_size, p))
                    total += st.st_size
        except OSError:
            return
        if total <= self.max_bytes:
            return
        entries.sort()
        for _mtime, size, p in entries:
            if total <= self.max_bytes:
                break
            with contextlib.suppress(OSError):
                p.unlink()
                total -= size

    def clear(self) -> None:
        if self.directory is None:
            return
        root = self.directory / "diagnostics"
        for p in list(root.rglob("*.json.z")) if root.is_dir() else []:
            with contextlib.suppress(OSError):
                p.unlink()


def cacheable(notes: list[Any]) -> bool:
    """Complete diagnostics that any run on any machine would produce."""
    return not any(getattr(n, "code", "") in TIME_DEPENDENT_CODES for n in notes)
