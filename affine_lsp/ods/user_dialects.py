"""The user's own dialects, from their ``.td`` files, without a rebuild.

A :class:`DialectSet` names ``.td`` files and include folders (from
``--td``/``-I``, a project file, :mod:`affine_lsp.ods.project_file`, or the
editor's settings). :func:`load` gives each ``.td`` file to
``llvm-tblgen --dump-json`` (:mod:`affine_lsp.ods.tblgen`; MLIR's own
include tree is added when ``xtc-mlir-dev`` is installed), derives its ops'
declarative formats (:func:`affine_lsp.ods.td_records.formats_of`) and
facts (:func:`affine_lsp.ods.td_facts.facts_of`), caches both per content
hash (:mod:`affine_lsp.ods.dialect_cache`: a second start runs no
llvm-tblgen), and makes the parser and the registry know the ops
(:func:`affine_lsp.ods.formats.add_formats`,
:func:`affine_lsp.ods.td_facts.register`). A ``.td`` file that does not
process gives one :class:`Problem` with llvm-tblgen's message; nothing
raises.

The loaded sets are one union per process: the parser and the registry
are process-wide, and the server parses on several threads. Each set is
counted by who holds it (:func:`load` / :func:`release`: the server holds a
document's set while the document is open), and its ops are forgotten when
nobody does. Two projects open in one server at once therefore see each
other's ops; where both define an op of the same name, the set loaded first
gives it. (A document of a project with no ``.td`` files still parses
another project's op as that project defines it, and mlir-opt with both
dialects registered would too.)
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass

from affine_lsp import forking
from affine_lsp.ods import dialect_cache, formats, tblgen, td_facts
from affine_lsp.ods.dialect_set import DialectSet, Problem
from affine_lsp.ods.td_records import formats_of

INSTALL_HINT = 'pip install "affine-lsp[dialects]"'
__all__ = ["DialectSet", "Loaded", "Problem", "fingerprint", "load", "loaded", "release", "summary"]


@dataclass
class Loaded:
    """A loaded set: the op names it added to the formats and the
    registry, its problems, how many ``.td`` files llvm-tblgen processed
    for it (0: every one came from the cache), and its digest (the content
    hashes of every file it was made from)."""

    key: DialectSet
    formats: list[str]
    facts: list[str]
    problems: list[Problem]
    tblgen_runs: int
    digest: str
    ops: list[str]
    summaries: dict[str, str]
    holders: int = 0


_LOCK = threading.RLock()


def _renew_lock() -> None:
    global _LOCK
    _LOCK = threading.RLock()


forking.renewed_in_child(f"{__name__}._LOCK", _renew_lock)  # (a child never sees a lock another thread held)
_LOADED: dict[DialectSet, Loaded] = {}


def _includes(ds: DialectSet, td: str) -> list[str]:
    out = list(ds.include)
    mlir = tblgen.mlir_include()
    if mlir is not None and mlir not in out:
        out.append(mlir)
    parent = os.path.dirname(td)
    if parent not in out:
        out.append(parent)
    return out


def _derive(ds: DialectSet, td: str) -> tuple[dict | None, Problem | None, bool]:
    """The cache entry of ``td`` (from the cache or from llvm-tblgen), or
    its problem; whether llvm-tblgen ran."""
    if not os.path.isfile(td):
        return None, Problem(td, "no such .td file" if not os.path.exists(td) else "not a file"), False
    includes = _includes(ds, td)
    entry = dialect_cache.read(td, includes)
    if entry is not None:
        return entry, None, False
    exe = tblgen.find_tblgen(ds.tblgen)
    if exe is None:
        what = f"llvm-tblgen {ds.tblgen!r} is not an executable file" if ds.tblgen else "llvm-tblgen is not installed"
        return None, Problem(td, f"{what}: the ops of this .td file are not known ({INSTALL_HINT} installs it)"), False
    got = tblgen.dump(td, includes, exe)
    if got.records is None:
        msg = got.message
        if tblgen.mlir_include() is None and "mlir/" in msg and "include" in msg.lower():
            msg += f"\n(MLIR's .td include tree is not installed: {INSTALL_HINT}, or pass its mlir/include folder with -I)"
        return None, Problem(td, f"llvm-tblgen: {msg}"), True
    fmts, _ = formats_of(got.records)
    facts = td_facts.facts_of(got.records, td)
    return dialect_cache.write(td, includes, got.deps, fmts, facts), None, True


def load(ds: DialectSet) -> Loaded:
    """Load ``ds`` (once: a set already loaded is shared) and hold it until
    :func:`release`."""
    with _LOCK:
        got = _LOADED.get(ds)
        if got is None:
            got = _load(ds)
            _LOADED[ds] = got
        got.holders += 1
        return got


def _load(ds: DialectSet) -> Loaded:
    ops: dict[str, dict] = {}
    facts: dict[str, dict] = {}
    problems: list[Problem] = []
    runs = 0
    digests: list[str] = []
    for td in ds.td:
        entry, problem, ran = _derive(ds, td)
        runs += ran
        if problem is not None:
            problems.append(problem)
            continue
        assert entry is not None
        digests.append(str(entry.get("digest", "")))
        for k, v in entry["formats"].items():
            ops.setdefault(k, v)
        for k, v in entry["facts"].items():
            facts.setdefault(k, v)
    for path in ds.irdl:
        from affine_lsp.ods.irdl import facts_of_irdl

        got, problem = facts_of_irdl(path)
        if problem is not None:
            problems.append(problem)
            continue
        digests.append(str(dialect_cache.file_sha(path)))
        for k, v in got.items():
            facts.setdefault(k, v)
    held_formats = {n for g in _LOADED.values() for n in g.formats}  # another set's ops stay its own (the first loaded gives them)
    held_facts = {n for g in _LOADED.values() for n in g.facts}
    added = formats.add_formats({k: v for k, v in ops.items() if k not in held_formats})
    registered = td_facts.register({k: v for k, v in facts.items() if k not in held_facts})
    summaries = {k: str(v.get("summary", "")) for k, v in facts.items() if isinstance(v, dict)}
    digest = hashlib.sha256("\0".join(digests).encode()).hexdigest()[:16]
    return Loaded(ds, added, registered, problems, runs, digest, sorted(set(ops) | set(facts)), summaries)


def release(ds: DialectSet) -> None:
    """One holder less; at none, the set's ops are forgotten."""
    with _LOCK:
        got = _LOADED.get(ds)
        if got is None:
            return
        got.holders -= 1
        if got.holders <= 0:
            del _LOADED[ds]
            formats.remove_formats(got.formats)
            td_facts.unregister(got.facts)


def fingerprint() -> str:
    """What the loaded sets are (their digests): part of the key of
    anything cached from a parse (the server's diagnostics cache)."""
    with _LOCK:
        return ",".join(sorted(g.digest for g in _LOADED.values() if g.ops))


def loaded() -> list[Loaded]:
    with _LOCK:
        return list(_LOADED.values())


def summary(op: str) -> str | None:
    """The summary of a user's op (None when no loaded set has it)."""
    with _LOCK:
        for g in _LOADED.values():
            if op in g.summaries:
                return g.summaries[op]
    return None
