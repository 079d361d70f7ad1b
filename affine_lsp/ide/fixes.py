"""The quick fixes a :class:`Note` carries, as JSON edits with LSP ranges
(UTF-16 positions from the document's :class:`LineIndex`): what the
server's code actions offer (``server/lsp_json.py``, ``server/convert.py``)
and the ``fixes`` of ``check --format sarif`` (``report_formats.py``).
"""

from __future__ import annotations

from typing import Any

from affine_lsp.ir.core import Span
from affine_lsp.source.document import LineIndex
from affine_lsp.syntax.nodes import Note


def range_json(lines: LineIndex, start: int, end: int) -> dict[str, Any]:
    sl, sc = lines.position(start)
    el, ec = lines.position(max(start, end))
    return {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}


def edit_bounds(e: Any) -> tuple[int | None, int | None]:
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
                start, end = edit_bounds(e)
                if start is None or end is None:
                    continue
                text = e.get("new_text", e.get("newText", ""))
                edits.append({"range": range_json(lines, start, end), "newText": str(text)})
            if edits:
                out.append({"title": str(fix.get("title") or "Apply fix"), "edits": edits})
    repl = data.get("replacement")
    if isinstance(repl, str):
        out.append(
            {
                "title": f"Replace with '{repl}'" if len(repl) <= 60 else "Apply suggested replacement",
                "edits": [{"range": range_json(lines, note.span.start, note.span.end), "newText": repl}],
            }
        )
    return out
