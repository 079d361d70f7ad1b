"""Collecting and printing diagnostics for whole documents.

Every producer (parser, IR builder, verifier, analyses) emits
:class:`~affine_lsp.syntax.nodes.Note` objects; this module gathers them for
a document and prints them the way mlir-opt does (``FILE:LINE:COL: error: MSG``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable

from affine_lsp.ir import op_registry
from affine_lsp.ir.core import Span
from affine_lsp.syntax.document import Document
from affine_lsp.syntax.errors import UNKNOWN_OP_CODE
from affine_lsp.syntax.nodes import Note


def _checkers() -> list[Callable[[Document], list[Note]]]:
    """The document-level checks of the later layers: the verifier and the
    analyses (imported when first needed)."""
    from affine_lsp.analysis import analyze_document
    from affine_lsp.verify import verify_document

    return [verify_document, analyze_document]


UNKNOWN_OP_MODES = ("once", "off")
"""How ops whose custom syntax affine-lsp does not know are reported: ``once``
(a remark at the first occurrence of each op name in the document, saying how
many more there are) or ``off`` (not at all)."""


_SKIPPED_NAME = re.compile(r"custom syntax of '([^']+)'")


def _unknown_upstream(note: Note) -> bool:
    """Whether the remark is about an op of an upstream dialect that MLIR
    22.1.8 does not have: the verifier reports it as mlir-opt's error
    instead (:mod:`affine_lsp.verify.op_structure`)."""
    m = _SKIPPED_NAME.match(note.message)
    if m is None:
        return False
    return op_registry.is_unknown_upstream(m.group(1))


def unknown_ops(notes: Iterable[Note], mode: str = "once") -> list[Note]:
    """``notes`` with the unknown-op remarks reduced to one per op name per
    document (the first occurrence by position; the parser reports every
    occurrence), or dropped when ``mode`` is ``off``. Works on the notes of the
    whole document, so an incremental update gives what a fresh open gives."""
    out: list[Note] = []
    first: dict[str, int] = {}
    counts: dict[str, int] = {}
    unknown: list[Note] = []
    for n in notes:
        if n.code == UNKNOWN_OP_CODE:
            if not _unknown_upstream(n):
                unknown.append(n)
        else:
            out.append(n)
    if mode == "off" or not unknown:
        return out
    unknown.sort(key=lambda n: n.span.start)
    keep: list[Note] = []
    for n in unknown:
        counts[n.message] = counts.get(n.message, 0) + 1
        if n.message not in first:
            first[n.message] = len(keep)
            keep.append(n)
    for i, n in enumerate(keep):
        more = counts[n.message] - 1
        if more:
            keep[i] = Note(n.severity, f"{n.message} (and {more} more occurrence{'s' if more > 1 else ''} in this document)", n.span, n.code, n.data)
    out.extend(keep)
    return out


def collect(doc: Document, checks: bool = True, unknown_op_mode: str = "once") -> list[Note]:
    """All diagnostics of ``doc`` sorted by position."""
    notes = unknown_ops(doc.notes(), unknown_op_mode)
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
    """``check --format json``: ``line``/``column`` 1-based as mlir-opt
    prints them (and ``deps --format json``); ``range`` 0-based, in UTF-16
    code units, as the LSP's ``Range`` (the server publishes the same)."""
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
            "line": sl + 1,
            "column": sc + 1,
            "range": {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}},
        }
        related = (n.data or {}).get("related")
        if related:
            item["related"] = [{"message": m, "line": lines.position(s.start)[0], "character": lines.position(s.start)[1]} for s, m in related]
        fix = {k: _plain(v) for k, v in (n.data or {}).items() if k != "related"}
        if fix:
            item["data"] = fix
        out.append(item)
    return out


def _plain(value: object) -> object:
    """``value`` with every Span as its offsets (``{"start", "end"}``), for JSON."""
    if isinstance(value, Span):
        return {"start": value.start, "end": value.end}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def dumps(items: list[dict]) -> str:
    return json.dumps(items, indent=2)
