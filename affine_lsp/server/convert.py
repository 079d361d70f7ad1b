"""Conversions between the engine's offsets/Notes and LSP structures.

Positions are UTF-16 based (the LSP default; the server always negotiates
UTF-16) and computed with the document's :class:`LineIndex`.
"""

from __future__ import annotations

import json
from typing import Any

from lsprotocol import types

from affine_lsp.ir.core import Span
from affine_lsp.syntax.document import LineIndex
from affine_lsp.syntax.nodes import Note

SOURCE = "affine-lsp"

_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "remark": types.DiagnosticSeverity.Information,
    "info": types.DiagnosticSeverity.Information,
    "note": types.DiagnosticSeverity.Hint,
}


def position(lines: LineIndex, offset: int) -> types.Position:
    line, col = lines.position(offset)
    return types.Position(line=line, character=col)


def range_of(lines: LineIndex, start: int, end: int) -> types.Range:
    return types.Range(start=position(lines, start), end=position(lines, max(start, end)))


def span_range(lines: LineIndex, span: Span) -> types.Range:
    return range_of(lines, span.start, span.end)


def offset_of(lines: LineIndex, pos: types.Position) -> int:
    return lines.offset(pos.line, pos.character)


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def note_fixes(note: Note, lines: LineIndex) -> list[dict[str, Any]]:
    """The quick fixes a Note carries, as LSP-ready dicts
    ``{"title", "edits": [{"range", "newText"}]}`` (ranges as JSON)."""
    data = note.data or {}
    out: list[dict[str, Any]] = []
    fixes = data.get("fix")
    if isinstance(fixes, dict):
        fixes = [fixes]
    if isinstance(fixes, list):
        for fix in fixes:
            if not isinstance(fix, dict):
                continue
            edits = []
            for e in fix.get("edits") or []:
                start, end = _edit_bounds(e)
                if start is None or end is None:
                    continue
                text = e.get("new_text", e.get("newText", ""))
                edits.append({"range": _range_json(range_of(lines, start, end)), "newText": str(text)})
            if edits:
                out.append({"title": str(fix.get("title") or "Apply fix"), "edits": edits})
    repl = data.get("replacement")
    if isinstance(repl, str):
        out.append(
            {
                "title": f"Replace with '{repl}'" if len(repl) <= 60 else "Apply suggested replacement",
                "edits": [{"range": _range_json(span_range(lines, note.span)), "newText": repl}],
            }
        )
    return out


def _edit_bounds(e: Any) -> tuple[int | None, int | None]:
    if not isinstance(e, dict):
        return None, None
    if isinstance(e.get("span"), Span):
        return e["span"].start, e["span"].end
    s, t = e.get("start"), e.get("end")
    if isinstance(s, Span):
        s = s.start
    if isinstance(t, Span):
        t = t.start if t.rel_start == t.rel_end else t.end
    if isinstance(s, int) and isinstance(t, int):
        return s, t
    return None, None


def _range_json(r: types.Range) -> dict[str, Any]:
    return {
        "start": {"line": r.start.line, "character": r.start.character},
        "end": {"line": r.end.line, "character": r.end.character},
    }


def range_from_json(d: Any) -> types.Range | None:
    try:
        return types.Range(
            start=types.Position(line=int(d["start"]["line"]), character=int(d["start"]["character"])),
            end=types.Position(line=int(d["end"]["line"]), character=int(d["end"]["character"])),
        )
    except (KeyError, TypeError, ValueError):
        return None


def to_diagnostic(note: Note, lines: LineIndex, uri: str) -> types.Diagnostic:
    data = note.data or {}
    related = []
    for item in data.get("related") or []:
        try:
            rspan, rmsg = item
        except (TypeError, ValueError):
            continue
        if isinstance(rspan, Span):
            related.append(types.DiagnosticRelatedInformation(location=types.Location(uri=uri, range=span_range(lines, rspan)), message=str(rmsg)))
    extra: dict[str, Any] = {k: v for k, v in data.items() if k not in ("related", "fix", "replacement") and _jsonable(v)}
    fixes = note_fixes(note, lines)
    if fixes:
        extra["fixes"] = fixes
    if isinstance(data.get("replacement"), str):
        extra["replacement"] = data["replacement"]
    tags = None
    if note.code in ("unused", "dead-code"):
        tags = [types.DiagnosticTag.Unnecessary]
    elif note.code.startswith("legacy") or note.code == "deprecated":
        tags = [types.DiagnosticTag.Deprecated]
    return types.Diagnostic(
        range=span_range(lines, note.span),
        message=note.message,
        severity=_SEVERITY.get(note.severity, types.DiagnosticSeverity.Error),
        code=note.code or None,
        source=SOURCE,
        related_information=related or None,
        data=extra or None,
        tags=tags,
    )
