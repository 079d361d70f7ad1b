"""Collecting and printing diagnostics for whole documents.

Every producer (parser, IR builder, verifier, analyses) emits
:class:`~affine_lsp.syntax.nodes.Note` objects; this module gathers them for
a document and prints them the way mlir-opt does (``FILE:LINE:COL: error: MSG``).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterable

from affine_lsp.syntax.document import Document
from affine_lsp.syntax.nodes import Note

# Later layers register document-level checks here (verifier, analyses);
# each takes a Document and returns Notes.
_CHECKERS: list[str] = ["affine_lsp.verify:verify_document", "affine_lsp.analysis:analyze_document"]


def _checkers() -> list[Callable[[Document], list[Note]]]:
    out = []
    for spec in _CHECKERS:
        modname, fn = spec.split(":")
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError as e:
            if e.name and modname.startswith(e.name):
                continue
            raise
        f = getattr(mod, fn, None)
        if f is not None:
            out.append(f)
    return out


def collect(doc: Document, checks: bool = True) -> list[Note]:
    """All diagnostics of ``doc`` sorted by position."""
    notes = list(doc.notes())
    if checks:
        for f in _checkers():
            notes.extend(f(doc))
    notes.sort(key=lambda n: (n.span.start, _SEVERITY_ORDER.get(n.severity, 9)))
    return notes


_SEVERITY_ORDER = {"error": 0, "warning": 1, "remark": 2, "info": 3, "note": 4}


def format_text(path: str, doc: Document, notes: Iterable[Note]) -> str:
    lines = doc.lines
    out = []
    for n in notes:
        line, col = lines.position(n.span.start)
        out.append(f"{path}:{line + 1}:{col + 1}: {n.severity}: {n.message}")
        for rel_span, rel_msg in (n.data or {}).get("related", []) or []:
            rl, rc = lines.position(rel_span.start)
            out.append(f"{path}:{rl + 1}:{rc + 1}: note: {rel_msg}")
    return "\n".join(out)


def to_json(path: str, doc: Document, notes: Iterable[Note]) -> list[dict]:
    lines = doc.lines
    out = []
    for n in notes:
        sl, sc = lines.position(n.span.start)
        el, ec = lines.position(n.span.end)
        item = {
            "file": path,
            "severity": n.severity,
            "message": n.message,
            "code": n.code,
            "range": {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}},
        }
        related = (n.data or {}).get("related")
        if related:
            item["related"] = [{"message": m, "line": lines.position(s.start)[0], "character": lines.position(s.start)[1]} for s, m in related]
        fix = {k: v for k, v in (n.data or {}).items() if k != "related"}
        if fix:
            item["data"] = fix
        out.append(item)
    return out


def dumps(items: list[dict]) -> str:
    return json.dumps(items, indent=2)
