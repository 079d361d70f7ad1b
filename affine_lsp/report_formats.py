"""Diagnostics in the formats CI systems read: SARIF 2.1.0 and GitHub
Actions workflow commands (``affine-lsp check --format sarif|github``).

Positions: SARIF lines and columns are 1-based, columns in UTF-16 code units
(SARIF's default ``columnKind``, the unit of :class:`LineIndex`), and a
region's ``endColumn`` is the column just past its end. GitHub's ``col`` and
``endColumn`` are 1-based too, ``endColumn`` being the last column covered.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from affine_lsp.diagnostic_codes import describe
from affine_lsp.source.document import Document, LineIndex
from affine_lsp.syntax.nodes import Note

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SARIF_VERSION = "2.1.0"

_SARIF_LEVEL = {"error": "error", "warning": "warning"}  # remark, info, note -> "note"
_GITHUB_COMMAND = {"error": "error", "warning": "warning"}  # the others -> "notice"


def rule_id(code: str) -> str:
    return code or "diagnostic"


# ---------------------------------------------------------------------- SARIF
def artifact_uri(path: str) -> str:
    """A file's SARIF ``artifactLocation.uri``: relative paths stay relative
    (GitHub resolves them against the repository root), absolute ones
    become ``file://`` URIs."""
    p = Path(path)
    if p.is_absolute():
        return p.as_uri()
    return urllib.parse.quote(p.as_posix())


def _region(lines: LineIndex, start: int, end: int) -> dict[str, int]:
    sl, sc = lines.position(start)
    el, ec = lines.position(max(start, end))
    return {"startLine": sl + 1, "startColumn": sc + 1, "endLine": el + 1, "endColumn": ec + 1}


def _lsp_region(r: dict[str, Any]) -> dict[str, int]:
    s, e = r["start"], r["end"]
    return {"startLine": s["line"] + 1, "startColumn": s["character"] + 1, "endLine": e["line"] + 1, "endColumn": e["character"] + 1}


def sarif_results(path: str, doc: Document, notes: Iterable[Note]) -> list[dict[str, Any]]:
    """The SARIF ``result`` objects of one file's diagnostics (``ruleIndex``
    is filled in by :func:`sarif_log`)."""
    from affine_lsp.ide.fixes import note_fixes  # the quick fixes the editor offers

    lines = doc.lines
    uri = artifact_uri(path)
    out = []
    for n in notes:
        location = {"physicalLocation": {"artifactLocation": {"uri": uri}, "region": _region(lines, n.span.start, n.span.end)}}
        result: dict[str, Any] = {
            "ruleId": rule_id(n.code),
            "level": _SARIF_LEVEL.get(n.severity, "note"),
            "message": {"text": n.message},
            "locations": [location],
        }
        if n.severity not in _SARIF_LEVEL:
            result["properties"] = {"severity": n.severity}
        related = (n.data or {}).get("related") or []
        if related:
            result["relatedLocations"] = [
                {
                    "id": k,
                    "message": {"text": msg},
                    "physicalLocation": {"artifactLocation": {"uri": uri}, "region": _region(lines, span.start, span.end)},
                }
                for k, (span, msg) in enumerate(related, start=1)
            ]
        fixes = note_fixes(n, lines)
        if fixes:
            result["fixes"] = [
                {
                    "description": {"text": fix["title"]},
                    "artifactChanges": [
                        {
                            "artifactLocation": {"uri": uri},
                            "replacements": [{"deletedRegion": _lsp_region(e["range"]), "insertedContent": {"text": e["newText"]}} for e in fix["edits"]],
                        }
                    ],
                }
                for fix in fixes
            ]
        out.append(result)
    return out


def sarif_log(results: list[dict[str, Any]], version: str) -> dict[str, Any]:
    """A SARIF 2.1.0 log of one run: ``results`` of every file, and a rule
    for each diagnostic code among them (sorted by id)."""
    ids = sorted({r["ruleId"] for r in results})
    index = {rid: k for k, rid in enumerate(ids)}
    rules = []
    for rid in ids:
        short, help_text = describe("" if rid == "diagnostic" else rid)
        rules.append(
            {
                "id": rid,
                "name": "".join(w.capitalize() for w in rid.split("-")),
                "shortDescription": {"text": short},
                "fullDescription": {"text": help_text},
                "help": {"text": help_text},
            }
        )
    for r in results:
        r["ruleIndex"] = index[r["ruleId"]]
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {"driver": {"name": "affine-lsp", "version": version, "rules": rules}},
                "columnKind": "utf16CodeUnits",
                "results": results,
            }
        ],
    }


# ---------------------------------------------------------------------- GitHub
def github_escape_data(s: str) -> str:
    """A workflow command's message, escaped as the Actions toolkit does."""
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_escape_property(s: str) -> str:
    """A workflow command's property value (also ``:`` and ``,``)."""
    return github_escape_data(s).replace(":", "%3A").replace(",", "%2C")


def github_annotations(path: str, doc: Document, notes: Iterable[Note]) -> list[str]:
    """One ``::error|warning|notice file=..,line=..::message`` line per
    diagnostic; related locations are extra lines of the message."""
    lines = doc.lines
    out = []
    for n in notes:
        sl, sc = lines.position(n.span.start)
        el, ec = lines.position(max(n.span.start, n.span.end))
        props = {
            "file": path,
            "line": str(sl + 1),
            "col": str(sc + 1),
            "endLine": str(el + 1),
            "endColumn": str(max(ec, sc + 1) if el == sl else max(ec, 1)),
            "title": rule_id(n.code),
        }
        message = n.message
        for span, msg in (n.data or {}).get("related") or []:
            rl, rc = lines.position(span.start)
            message += f"\n{path}:{rl + 1}:{rc + 1}: note: {msg}"
        command = _GITHUB_COMMAND.get(n.severity, "notice")
        out.append(f"::{command} " + ",".join(f"{k}={github_escape_property(v)}" for k, v in props.items()) + "::" + github_escape_data(message))
    return out
