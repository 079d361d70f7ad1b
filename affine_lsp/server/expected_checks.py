"""``expected-*`` annotations in the editor (see :mod:`affine_lsp.verify.expected`).

Diagnostics: when the document runs with ``-verify-diagnostics`` (setting
``diagnostics.verifyDiagnostics``: ``auto``, a lit ``RUN:`` line with the
option; ``always``; ``never``), its diagnostics are matched against its
annotations as mlir-opt does:

* a diagnostic an annotation matches becomes an *information* saying which
  annotation matched it (with the annotation as related information);
* an annotation nothing produced is a *warning* on it, worded as mlir-opt
  (``expected error "..." was not produced``); a broken ``-re`` annotation and
  a near miss (``'warning' diagnostic emitted when expecting a 'error'``) are
  errors on it;
* a diagnostic no annotation matches stays as it is (an error), but one an
  annotation of another kind would match (a near miss) becomes an
  information, the error being on that annotation as mlir-opt reports it;
  a note
  mlir-opt would attach to an error that no annotation expects is an error
  ``unexpected note: ...`` at its place;
* when the ``RUN:`` line runs ``-test-memref-dependence-check`` too, the
  pass's remarks take part (affine-lsp computes them, see ``affine-lsp
  deps``): an expected one is a hint, an unexpected one an error
  ``unexpected remark: ...``;
* an error mlir-opt never reaches (it stops at the first parse error of a
  section) becomes an information saying so; affine-lsp's own warnings,
  remarks and information are left alone (mlir-opt never emits them).

Code actions: "Add expected-error check" on each diagnostic mlir-opt would
emit that no annotation matches (quick fix, on a line of its own above with
``@+N``, or at the end of the line), with the checks for the notes mlir-opt
attaches to it; and a source action adding them for every such diagnostic
of the section.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from lsprotocol import types

from affine_lsp.ir.core import Operation, Span
from affine_lsp.server.expected_view import View
from affine_lsp.server.settings import Settings
from affine_lsp.server.state import DocumentState
from affine_lsp.source.document import Document
from affine_lsp.syntax.nodes import Note
from affine_lsp.verify import expected as X

if TYPE_CHECKING:
    from affine_lsp.server.snapshot import Snapshot

log = logging.getLogger(__name__)

SOURCE_KIND = "source.addExpectedChecks"


def mode_of(text: str, setting: str) -> str | None:
    """``all``/``only-expected`` when the document is to be verified, else None."""
    if setting == "never":
        return None
    found = X.run_line_mode(text)
    if setting == "always":
        return found or "all"
    return found


def apply(
    st: DocumentState,
    doc: Document,
    parse_notes: list[Note],
    verify_notes: list[Note],
    notes: list[Note],
    settings: Settings,
    remarks: list[object] | None = None,
) -> list[Note]:
    """``notes`` as shown in ``-verify-diagnostics`` mode (unchanged
    otherwise); remembers the view of this version for the code actions.

    When the ``RUN:`` line also runs ``-test-memref-dependence-check``
    (:func:`remarks_needed`), its remarks take part, as in mlir-opt:
    ``remarks``, computed by :func:`dependence_remarks` off the fast phase
    (they need isl). Without them (the fast phase) the ``expected-remark``
    annotations are left out of the matching until they come: none is
    reported as "not produced" meanwhile."""
    mode = mode_of(doc.text, settings.verify_diagnostics)
    if mode is None:
        st.expected_view = View(doc.version, None, None, (doc, parse_notes, verify_notes))
        return notes
    try:
        emitted = X.mlir_opt_diagnostics(doc, parse_notes, verify_notes)
        annotations = X.parse_annotations(doc.text, doc)
        needs = settings.analysis_enabled and X.DEPENDENCE_PASS in X.run_line_passes(doc.text)
        if needs:
            if remarks is None:
                annotations = dataclasses.replace(annotations, expectations=tuple(e for e in annotations.expectations if e.kind != "remark"))
            else:
                emitted += X.remark_diagnostics(doc, remarks)
        result = X.verify(annotations, emitted, mode == "only-expected")
    except Exception:  # pragma: no cover - defensive: never lose the diagnostics
        log.exception("expected-* matching failed")
        return notes
    st.expected_view = View(doc.version, emitted, result, needs_remarks=needs)
    return _shown(emitted, result, notes)


def remarks_needed(st: DocumentState, doc_version: int) -> bool:
    """Whether the diagnostics of ``doc_version`` (as :func:`apply` saw it)
    include the remarks of ``-test-memref-dependence-check`` (its ``RUN:``
    line runs the pass with ``-verify-diagnostics``, the analysis is on)."""
    view = st.expected_view
    return view is not None and view.doc_version == doc_version and view.needs_remarks


def dependence_remarks(modules: list[Operation], settings: Settings, cancelled: Callable[[], bool] | None = None) -> list[object] | None:
    """The remarks of ``-test-memref-dependence-check`` on each section's
    module op (:func:`affine_lsp.ide.section_remarks.section_remarks`, under the
    ``isl_ops`` setting); None when ``cancelled`` says so between two
    sections."""
    from affine_lsp.ide.section_remarks import section_remarks

    return section_remarks(modules, settings.isl_ops, cancelled)  # type: ignore[return-value]


def _ann_span(e: X.Expectation | X.AnnotationError) -> Span:
    return Span(e.start, e.end)


def _shown(emitted: list[X.Emitted], res: X.Verification, notes: list[Note]) -> list[Note]:
    exps = res.annotations.expectations
    main: dict[int, int] = {id(d.note): k for k, d in enumerate(emitted) if d.related < 0 and d.note is not None}
    out: list[Note] = []
    for n in notes:
        k = main.get(id(n))
        if k is None:
            if n.severity == "error":
                msg = f"{n.message} (not emitted by mlir-opt -verify-diagnostics: its parser stops at the first error of the section)"
                out.append(Note("info", msg, n.span, n.code, n.data))
            else:
                out.append(n)
            continue
        hit = res.matched.get(k)
        if hit is None:
            near = res.near_misses.get(k)
            if near is None:
                out.append(n)  # unexpected: it stays as it is
            else:  # mlir-opt reports it at the annotation of the other kind (an error there)
                e = exps[near]
                msg = f"{n.message} (a near miss: '{e.spelling}' on line {e.ann_line} expects a {e.kind})"
                out.append(Note("info", msg, n.span, n.code, n.data))
            continue
        e = exps[hit]
        data = dict(n.data or {})
        data["related"] = [(_ann_span(e), f"matched by this {e.spelling}"), *list(data.get("related") or [])]
        data["expected"] = {"line": e.ann_line, "annotation": e.spelling}
        out.append(Note("info", f"{n.message} (expected: matched by '{e.spelling}' on line {e.ann_line})", n.span, n.code, data))
    for k, d in enumerate(emitted):
        if d.note is None and k in res.matched:
            # A remark of a pass affine-lsp reproduces: a hint, when expected.
            e = exps[res.matched[k]]
            data = {"related": [(_ann_span(e), f"matched by this {e.spelling}")], "expected": {"line": e.ann_line, "annotation": e.spelling}}
            out.append(
                Note("note", f"{d.message} (expected: matched by '{e.spelling}' on line {e.ann_line})", Span(d.start, d.start + 1), "expected-matched", data)
            )
    if not res.only_expected:
        for k, d in enumerate(emitted):
            if (d.related >= 0 or d.note is None) and k not in res.matched and k not in res.near_misses:
                out.append(Note("error", f"unexpected {d.severity}: {d.message}", Span(d.start, d.start + 1), "expected-unexpected"))
        seen: set[int] = set()
        for k, i in res.near_misses.items():
            if i in seen:
                continue
            seen.add(i)
            e = exps[i]
            msg = f"'{emitted[k].severity}' diagnostic emitted when expecting a '{e.kind}'"
            out.append(
                Note("error", msg, _ann_span(e), "expected-near-miss", {"related": [(Span(emitted[k].start, emitted[k].start + 1), emitted[k].message)]})
            )
    for i in res.missing:
        e = exps[i]
        out.append(Note("warning", X.not_produced(e), _ann_span(e), "expected-not-produced"))
    for a in res.annotations.errors:
        out.append(Note("error", a.message, _ann_span(a), "expected-invalid"))
    out.sort(key=lambda n: n.span.start)
    return out


# ---------------------------------------------------------------- code actions


def _open_items(view: View) -> list[int]:
    """Indices of the emitted diagnostics no annotation matches."""
    matched = view.result.matched if view.result is not None else {}
    return [k for k in range(len(view.emitted)) if k not in matched]


def _group(view: View, main: int, open_items: set[int]) -> list[X.Emitted]:
    """The error ``view.emitted[main]`` and its notes no annotation matches."""
    d = view.emitted[main]
    return [d] + [e for j, e in enumerate(view.emitted) if e.note is d.note and e.related >= 0 and j in open_items]


def _edit(doc: Document, uri: str, edits: list[tuple[int, int, str]]) -> types.WorkspaceEdit:
    lines = doc.lines
    out = []
    for s, t, new in edits:
        sl, sc = lines.position(s)
        el, ec = lines.position(t)
        out.append(types.TextEdit(range=types.Range(start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec)), new_text=new))
    return types.WorkspaceEdit(changes={uri: out})


def _line_at(text: str, offset: int) -> str:
    """The line (ending at ``\n``) that holds ``offset``."""
    end = text.find("\n", offset)
    return text[text.rfind("\n", 0, offset) + 1 : end if end >= 0 else len(text)]


def _diagnostic(st: DocumentState, d: X.Emitted) -> types.Diagnostic | None:
    """The published diagnostic ``d`` stands for."""
    last = st.last
    if last is None:
        return None
    for n, diag in zip(last.notes, last.diagnostics):
        if d.related < 0 and n is d.note:
            return diag
        if (d.related >= 0 or d.note is None) and n.code == "expected-unexpected" and n.span.start == d.start:
            return diag
    return None


def provider(snap: Snapshot, doc: Document, lo: int, hi: int) -> list[types.CodeAction]:
    st = snap.st
    view = st.expected_view
    if view is None or view.doc_version != doc.version:
        return []
    text = doc.text
    open_items = set(_open_items(view))
    out: list[types.CodeAction] = []
    section = doc.section_at(lo)
    mains = {id(d.note): k for k, d in enumerate(view.emitted) if d.related < 0 and d.note is not None}
    offered: set[int] = set()
    for k, d in enumerate(view.emitted):
        if k not in open_items:
            continue
        if d.note is None:  # a remark of a pass
            if not (lo <= d.start + 1 and d.start <= hi):
                continue
            group, eol = [d], d
        elif d.related >= 0:
            if not (lo <= d.start + 1 and d.start <= hi):
                continue
            main = mains.get(id(d.note))
            # A note alone when the error it belongs to is expected already, else with it.
            if main in offered:
                continue
            group = [d] if main not in open_items else _group(view, main, open_items)
            eol = None
        else:
            span = d.note.span
            if span.end < lo or span.start > hi:
                continue
            group = _group(view, k, open_items)
            eol = d
            offered.add(k)
        head = group[0]
        diag = _diagnostic(st, d)
        title = f"Add expected-{head.severity} check" + (f" and {len(group) - 1} note{'s' if len(group) > 2 else ''}" if len(group) > 1 else "")
        out.append(
            types.CodeAction(
                title=title,
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[diag] if diag is not None else None,
                edit=_edit(doc, st.uri, X.insertion_edits(text, group, doc=doc)),
            )
        )
        if eol is not None and eol.line and "expected-" not in _line_at(text, eol.start) and _ends_outside_string(_line_at(text, eol.start)):
            out.append(
                types.CodeAction(
                    title=f"{title} (at the end of the line)",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diag] if diag is not None else None,
                    edit=_edit(doc, st.uri, X.insertion_edits(text, group, end_of_line=eol, doc=doc)),
                )
            )
    in_section = [view.emitted[k] for k in sorted(open_items) if section.start <= view.emitted[k].start < section.end]
    if in_section:
        n = len(in_section)
        out.append(
            types.CodeAction(
                title=f"Add the {n} missing expected-… check{'s' if n != 1 else ''} of this section",
                kind=SOURCE_KIND,
                edit=_edit(doc, st.uri, X.insertion_edits(text, in_section, doc=doc)),
            )
        )
    return out


def _ends_outside_string(line: str) -> bool:
    """Whether a comment appended to ``line`` would be a comment: the line
    does not end inside a string literal (an unterminated ``"`` would make
    the annotation part of the string)."""
    in_string = escaped = False
    for i, ch in enumerate(line):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif line.startswith("//", i):
            return True
    return not in_string
