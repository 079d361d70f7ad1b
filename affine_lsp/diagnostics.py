"""Collecting and printing diagnostics for whole documents.

Every producer (parser, IR builder, verifier, analyses) emits
:class:`~affine_lsp.syntax.nodes.Note` objects; this module gathers them for
a document and prints them the way mlir-opt does (``FILE:LINE:COL: error: MSG``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from affine_lsp.ir import op_registry, op_traits
from affine_lsp.ir.core import Operation, Span
from affine_lsp.source.document import Document
from affine_lsp.syntax.errors import UNKNOWN_OP_CODE
from affine_lsp.syntax.nodes import Note

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


def verifier_notes(doc: Document) -> list[Note]:
    """The verifier's diagnostics of ``doc`` under the one rule ``check`` and
    the language server follow: every top-level item is checked on its own.
    An item with a parse error reports that error (the first of the item,
    as mlir-opt's parser) and is not verified; every other item is verified
    (MLIR's parse-class checks, then at most one verifier error per op
    isolated from above), also when another item of its section does not
    parse. mlir-opt 22.1.8 stops a whole ``// -----`` section at its first
    parse error: its first error is always among these, and nothing a fix of
    that error would reveal is hidden meanwhile. (``check
    --verify-diagnostics`` and the editor's ``expected-*`` matching report
    what mlir-opt itself emits: :func:`affine_lsp.verify.expected.mlir_opt_diagnostics`.)
    The server verifies incrementally with the same rule
    (``server/analysis_engine.py``, ``verify_items``)."""
    from affine_lsp.verify import verify_document

    return verify_document(doc, strict=False)


def analysis_scopes(doc: Document) -> list[Operation]:
    """The analysis scopes of ``doc`` (functions, and modules whose top level
    holds affine ops), each once, in text order: what ``check`` and the
    server analyse (:func:`affine_lsp.ir.op_traits.analysis_scopes`)."""
    return op_traits.analysis_scopes(op for section in doc.sections for op in section.item_ops())


def unregistered_dialects(doc: Document, allow: bool = False) -> list[Note]:
    """mlir-opt's errors at ops of dialects MLIR 22.1.8 does not register
    (:meth:`Document.unregistered_dialect_notes`), the first of each
    ``// -----`` section (mlir-opt stops there); none when ``allow``
    (``--allow-unregistered-dialect``, the setting
    ``affineLsp.diagnostics.allowUnregisteredDialect``) or a lit ``RUN:``
    line of the document passes ``-allow-unregistered-dialect``. (mlir-opt
    rejects an op of such a dialect in a custom form even then, as it cannot
    parse it; affine-lsp reads its operands, results and regions, and says
    once per name that it skipped its syntax.)"""
    found = doc.unregistered_dialect_notes()
    if not found:
        return []
    from affine_lsp.verify.expected import run_line_allows_unregistered

    if allow or run_line_allows_unregistered(doc.text):
        return []
    first: dict[int, Note] = {}
    for n in sorted(found, key=lambda n: n.span.start):
        first.setdefault(doc.section_at(n.span.start).index, n)
    return list(first.values())


def layer_notes(
    doc: Document, parse_notes: Iterable[Note], verify_notes: Iterable[Note], unknown_op_mode: str = "once", allow_unregistered: bool = False
) -> list[Note]:
    """The diagnostics of the parser and the verifier, before the analyses':
    the parse notes with the unknown-op remarks reduced (:func:`unknown_ops`)
    and the unregistered dialects' errors as mlir-opt reports them
    (:func:`unregistered_dialects`), then the verifier's (:func:`verifier_notes`)."""
    notes = unknown_ops(parse_notes, unknown_op_mode)
    notes.extend(unregistered_dialects(doc, allow_unregistered))
    notes.extend(verify_notes)
    return notes


def assemble(base: Iterable[Note], analyses: Iterable[Iterable[Note]]) -> list[Note]:
    """A document's diagnostics list: ``base`` (:func:`layer_notes`, which
    the server may have matched against ``expected-*`` annotations) and the
    notes of each of its analysis scopes (:func:`analysis_scopes`, once
    each), sorted by :func:`sort_key`. The one function ``check`` (text,
    JSON, SARIF, GitHub; :func:`collect`) and the language server (push and
    pull, every phase) turn a document's notes into what they report with;
    ``tests/test_surfaces_agree.py`` checks that they agree."""
    notes = list(base)
    for found in analyses:
        notes.extend(found)
    notes.sort(key=sort_key)
    return notes


def collect(doc: Document, checks: bool = True, unknown_op_mode: str = "once", allow_unregistered: bool = False) -> list[Note]:
    """All diagnostics of ``doc`` sorted by position (what ``check`` prints)."""
    if not checks:
        return assemble(layer_notes(doc, doc.notes(), (), unknown_op_mode, allow_unregistered), ())
    from affine_lsp.analysis import analyze_function

    base = layer_notes(doc, doc.notes(), verifier_notes(doc), unknown_op_mode, allow_unregistered)
    return assemble(base, (analyze_function(scope, keep=False) for scope in analysis_scopes(doc)))


SEVERITY_ORDER = {"error": 0, "warning": 1, "remark": 2, "info": 3, "note": 4}


def sort_key(n: Note) -> tuple[int, int]:
    """The order of the diagnostics, on every surface: by place, errors first."""
    return (n.span.start, SEVERITY_ORDER.get(n.severity, 9))


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
