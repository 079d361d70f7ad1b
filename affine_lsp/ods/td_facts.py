"""The facts of a user's ops from their ``llvm-tblgen --dump-json`` records,
and making the op registry know them.

PLACEHOLDER (branch h3-dialects-load): the branch h3-dialects-facts writes
the real module with the same three functions (traits, memory effects,
operand type constraints, summaries; the registry, op traits, verifier and
dependence engine told). This one keeps each op's name and summary and
makes its dialect known (no "unregistered dialect" error); its ops are
known by name only, so nothing is checked against them and their effects
are unknown (conservative). :mod:`affine_lsp.ods.user_dialects` calls only
these three functions.
"""

from __future__ import annotations

import threading

from affine_lsp.ods.td_records import FormatRecords

_LOCK = threading.Lock()
_ADDED: dict[str, int] = {}  # dialect -> how many registered sets name it


def facts_of(d: dict) -> dict[str, dict]:
    """``{op name: {"summary": ...}}`` for every op record of one dump
    (JSON-serialisable, cached with the formats)."""
    rec = FormatRecords(d)
    out: dict[str, dict] = {}
    for n in d.get("!instanceof", {}).get("Op", []):
        r = d.get(n, {})
        if not isinstance(r.get("opDialect"), dict):
            continue
        name = rec.op_name(r)
        if name is not None:
            summary = r.get("summary")
            out[name] = {"summary": summary if isinstance(summary, str) else ""}
    return out


def _refresh_registry() -> None:
    from affine_lsp.ir import op_registry

    for fn in (op_registry.dialects, op_registry.lookup, op_registry.op_names):
        fn.cache_clear()
    from affine_lsp.verify import registry

    registry._UNREGISTERED.clear()


def register(facts: dict[str, dict]) -> list[str]:
    """Make the ops of ``facts`` known (their dialects registered); the
    names registered (an upstream op keeps its own facts)."""
    from affine_lsp.ir import op_registry

    data = op_registry._data()["dialects"]
    added: list[str] = []
    with _LOCK:
        for name, f in facts.items():
            dialect, _, short = name.partition(".")
            if not short or (op_registry.is_upstream_dialect(dialect) and dialect not in _ADDED):
                continue
            ops = data.setdefault(dialect, {})
            if short in ops:
                continue
            ops[short] = {"s": str(f.get("summary", ""))}
            _ADDED[dialect] = _ADDED.get(dialect, 0) + 1
            added.append(name)
        _refresh_registry()
    return added


def unregister(names: list[str]) -> None:
    """Forget the ops :func:`register` registered."""
    from affine_lsp.ir import op_registry

    data = op_registry._data()["dialects"]
    with _LOCK:
        for name in names:
            dialect, _, short = name.partition(".")
            if dialect not in _ADDED or data.get(dialect, {}).pop(short, None) is None:
                continue
            _ADDED[dialect] -= 1
            if _ADDED[dialect] == 0:
                del _ADDED[dialect]
                if not data.get(dialect):
                    data.pop(dialect, None)
        _refresh_registry()
