"""Notes as LSP diagnostics in JSON form, without lsprotocol.

The one conversion of a :class:`Note` to an LSP ``Diagnostic``: the server
(:func:`.convert.to_diagnostic` builds lsprotocol's object from it) and the
early first publish (:mod:`.early_open`, which runs before lsprotocol and
pygls are loaded and writes the JSON itself) both use it, so both publish
the same diagnostics. Positions are UTF-16 based, from the document's
:class:`LineIndex`. The keys come in lsprotocol's field order and a field
without a value is left out, as lsprotocol's converter writes them.
"""

from __future__ import annotations

import json
from typing import Any

from affine_lsp.ide.fixes import note_fixes, range_json
from affine_lsp.ir.core import Span
from affine_lsp.source.document import LineIndex
from affine_lsp.syntax.nodes import Note

SOURCE = "affine-lsp"

# LSP DiagnosticSeverity and DiagnosticTag.
ERROR, WARNING, INFORMATION, HINT = 1, 2, 3, 4
UNNECESSARY, DEPRECATED = 1, 2

SEVERITY = {"error": ERROR, "warning": WARNING, "remark": INFORMATION, "info": INFORMATION, "note": HINT}


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def diagnostic_json(note: Note, lines: LineIndex, uri: str) -> dict[str, Any]:
    """``note`` as an LSP ``Diagnostic`` (JSON-ready; ``data`` holds the
    note's own values, which JSON writes as it writes them for the server)."""
    data = note.data or {}
    related = []
    for item in data.get("related") or []:
        try:
            rspan, rmsg = item
        except (TypeError, ValueError):
            continue
        if isinstance(rspan, Span):
            related.append({"location": {"uri": uri, "range": range_json(lines, rspan.start, rspan.end)}, "message": str(rmsg)})
    extra: dict[str, Any] = {k: v for k, v in data.items() if k not in ("related", "fix", "replacement") and _jsonable(v)}
    fixes = note_fixes(note, lines)
    if fixes:
        extra["fixes"] = fixes
    if isinstance(data.get("replacement"), str):
        extra["replacement"] = data["replacement"]
    out: dict[str, Any] = {
        "range": range_json(lines, note.span.start, note.span.end),
        "message": note.message,
        "severity": SEVERITY.get(note.severity, ERROR),
    }
    if note.code:
        out["code"] = note.code
    out["source"] = SOURCE
    if note.code in ("unused", "dead-code"):
        out["tags"] = [UNNECESSARY]
    elif note.code.startswith("legacy") or note.code == "deprecated":
        out["tags"] = [DEPRECATED]
    if related:
        out["relatedInformation"] = related
    if extra:
        out["data"] = extra
    return out
