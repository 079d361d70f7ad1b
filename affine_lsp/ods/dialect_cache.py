"""The cache of what a user's ``.td`` file gives (its ops' formats and
facts), so that a second start runs no ``llvm-tblgen``.

One JSON file per ``.td`` file and include path, in
``$XDG_CACHE_HOME/affine-lsp/dialects/`` (``~/.cache`` without it;
``AFFINE_LSP_CACHE_DIR`` moves the whole cache, ``off`` turns it off, as
for the server's diagnostics cache), written atomically
(:mod:`affine_lsp.atomic_write`). An entry holds the SHA-256 of the ``.td``
file and of every file it included (llvm-tblgen's depfile): it is used only
while each of them is byte-identical. A change of the code that derives the
data (``td_records.py``, ``td_facts.py``, :data:`SCHEMA`) changes the
entries' names, so old entries are never read.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

SCHEMA = 1
"""Bumped when the shape of an entry changes."""


def cache_root() -> Path | None:
    """The folder of the entries, or None when caching is off."""
    env = os.environ.get("AFFINE_LSP_CACHE_DIR")
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "none") else Path(env) / "dialects"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "affine-lsp" / "dialects"


_CODE: str | None = None


def _code_version() -> str:
    global _CODE
    if _CODE is None:
        h = hashlib.sha256(str(SCHEMA).encode())
        here = Path(__file__).resolve().parent
        for name in ("td_records.py", "td_facts.py"):
            try:
                h.update((here / name).read_bytes())
            except OSError:
                h.update(name.encode())
        _CODE = h.hexdigest()[:16]
    return _CODE


def file_sha(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.file_digest(f, "sha256").hexdigest()
    except OSError:
        return None


def entry_path(td: str, includes: list[str]) -> Path | None:
    root = cache_root()
    if root is None:
        return None
    key = hashlib.sha256(json.dumps([_code_version(), td, includes]).encode()).hexdigest()[:32]
    return root / f"{key}.json"


def read(td: str, includes: list[str]) -> dict | None:
    """The entry of ``td`` (``{"formats": ..., "facts": ..., "digest": ...}``)
    when every file it was made from is unchanged, else None."""
    path = entry_path(td, includes)
    if path is None:
        return None
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
        files = entry["files"]
        if not isinstance(files, dict) or not isinstance(entry["formats"], dict) or not isinstance(entry["facts"], dict):
            return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    for f, sha in files.items():
        if file_sha(f) != sha:
            return None
    return entry


def write(td: str, includes: list[str], deps: list[str], formats: dict, facts: dict) -> dict:
    """Store what ``td`` gave (a failure to write is no error: the next
    start runs llvm-tblgen again); the entry."""
    files = {f: file_sha(f) for f in [td, *deps]}
    digest = hashlib.sha256(json.dumps(sorted(files.items())).encode()).hexdigest()[:16]
    entry = {"schema": SCHEMA, "td": td, "includes": includes, "files": files, "digest": digest, "formats": formats, "facts": facts}
    path = entry_path(td, includes)
    if path is not None and all(files.values()):
        from affine_lsp.atomic_write import write_atomic

        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, json.dumps(entry, separators=(",", ":")).encode(), fsync=False)
        except OSError:
            pass
    return entry
