"""Go to definition, find references, document highlight and rename.

Entities: SSA values (uses recorded by the IR), block labels, ``#``/``!``
aliases and symbols (``@f`` of ``func.func``, used by ``func.call``). Values
and blocks are scoped by the IR; aliases and symbols by their ``// -----``
section.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from affine_lsp.ide.occurrences import (
    Occ,
    block_label_span,
    chunk_occurrences,
    find_alias_def,
    find_symbol,
    occurrence_at,
    section_occurrences,
)
from affine_lsp.ir.builder import UndefinedValue
from affine_lsp.ir.core import Block, OpResult, Span, Value
from affine_lsp.server.convert import offset_of, span_range
from affine_lsp.server.state import DocumentState
from affine_lsp.syntax.document import Chunk, Document, Section

if TYPE_CHECKING:
    from affine_lsp.server.snapshot import Snapshot


class RequestFailed(JsonRpcException):
    """A request the server refuses for a reason the user is told (a rename
    onto a name in use, a command's bad arguments): an answer, not a fault."""

    CODE = -32803
    MESSAGE = "Request failed"


class _RefusalsAreNotFaults(logging.Filter):
    """pygls logs every error response as an ERROR with a traceback; a
    :class:`RequestFailed` is logged as one INFO line instead (and not at
    all below INFO), so that a refused rename is no fault in the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not isinstance(exc, RequestFailed):
            return True
        record.msg, record.args, record.exc_info, record.exc_text = "request refused: %s", (exc.message,), None, None
        record.levelno, record.levelname = logging.INFO, "INFO"
        return logging.getLogger("affine_lsp.server").isEnabledFor(logging.INFO)


logging.getLogger("pygls.protocol.json_rpc").addFilter(_RefusalsAreNotFaults())


NAME_RE = {
    "%": re.compile(r"%([0-9]+|[A-Za-z_$.\-][A-Za-z0-9_$.\-]*)"),
    "^": re.compile(r"\^([0-9]+|[A-Za-z_$.\-][A-Za-z0-9_$.\-]*)"),
    "#": re.compile(r"#[A-Za-z_$.\-][A-Za-z0-9_$.\-]*"),
    "!": re.compile(r"![A-Za-z_$.\-][A-Za-z0-9_$.\-]*"),
    "@": re.compile(r"@[A-Za-z_$.\-][A-Za-z0-9_$.\-]*"),
}


@dataclass(eq=False)
class Target:
    kind: str  # value | block | alias | symbol
    name: str
    definition: Span | None
    references: list[Span] = field(default_factory=list)  # uses (not the definition)
    value: Value | None = None
    block: Block | None = None


def _find(doc: Document, st: DocumentState, pos: types.Position) -> tuple[Section, Chunk, Occ] | None:
    offset = offset_of(doc.lines, pos)
    section, chunk = st.chunk_at(doc, offset)
    if chunk is None:
        return None
    occ = occurrence_at(chunk_occurrences(chunk), offset)
    if occ is None:
        return None
    return section, chunk, occ


def resolve(section: Section, chunk: Chunk, occ: Occ) -> Target | None:
    k = occ.kind
    if k in ("value-def", "value-use") and occ.value is not None and not isinstance(occ.value, UndefinedValue):
        v = occ.value
        return Target("value", v.name, v.span, value_references(section, v), value=v)
    if k in ("block-def", "block-ref"):
        blk = occ.block
        if blk is None:
            return None
        refs = [o.span for o in chunk_occurrences(chunk) if o.kind == "block-ref" and o.block is blk]
        return Target("block", occ.name, block_label_span(blk), refs, block=blk)
    if k in ("alias-def", "alias-use"):
        d = find_alias_def(section, occ.name)
        refs = [o.span for o in section_occurrences(section, frozenset({"alias-use"}), occ.name)]
        return Target("alias", occ.name, d.name_span if d is not None else None, refs)
    if k in ("symbol-def", "symbol-ref"):
        op = find_symbol(section, occ.name)
        d = op.attributes.get("sym_name") if op is not None else None
        refs = [o.span for o in section_occurrences(section, frozenset({"symbol-ref"}), occ.name)]
        return Target("symbol", occ.name, getattr(d, "span", None), refs)
    return None


def value_references(section: Section, v: Value) -> list[Span]:
    """Where ``v`` is used: its uses, and the places an operand written in
    place is repeated (``%A[%i, %i]`` is one use of ``%i`` written twice)."""
    refs = [u.span for u in v.uses]
    anchors = {id(u.span.anchor) for u in v.uses}
    for c in section.chunks:
        if id(c.anchor) in anchors:
            refs += [o.span for o in chunk_occurrences(c) if o.kind == "value-use" and o.value is v]
    return refs


def _loc(uri: str, doc: Document, span: Span) -> types.Location:
    return types.Location(uri=uri, range=span_range(doc.lines, span))


def definition(st: DocumentState, pos: types.Position) -> list[types.Location] | None:
    with st.locked() as doc:
        found = _find(doc, st, pos)
        if found is None:
            return None
        t = resolve(*found)
        if t is None or t.definition is None:
            return None
        return [_loc(st.uri, doc, t.definition)]


def references(st: DocumentState, pos: types.Position, include_decl: bool) -> list[types.Location] | None:
    with st.locked() as doc:
        found = _find(doc, st, pos)
        if found is None:
            return None
        t = resolve(*found)
        if t is None:
            return None
        spans = ([t.definition] if include_decl and t.definition is not None else []) + t.references
        return [_loc(st.uri, doc, s) for s in _unique(spans)]


def highlights(st: DocumentState, pos: types.Position) -> list[types.DocumentHighlight] | None:
    with st.locked() as doc:
        found = _find(doc, st, pos)
        if found is None:
            return None
        t = resolve(*found)
        if t is None:
            return None
        out = []
        if t.definition is not None:
            out.append(types.DocumentHighlight(range=span_range(doc.lines, t.definition), kind=types.DocumentHighlightKind.Write))
        out += [types.DocumentHighlight(range=span_range(doc.lines, s), kind=types.DocumentHighlightKind.Read) for s in _unique(t.references)]
        return out


def _unique(spans: list[Span]) -> list[Span]:
    seen: set[tuple[int, int]] = set()
    out = []
    for s in spans:
        key = (s.start, s.end)
        if key not in seen:
            seen.add(key)
            out.append(s)
    return out


# ---------------------------------------------------------------- rename
def _rename_spans(doc: Document, section: Section, t: Target) -> tuple[str, list[Span]]:
    """The name to replace and every span (definition first) where it is written."""
    if t.kind == "value" and t.value is not None:
        v = t.value
        base = v.name.split("#")[0]
        values: list[Value] = [v]
        if isinstance(v, OpResult) and v.owner is not None and "#" in v.name:
            values = [r for r in v.owner.results if r.name.split("#")[0] == base]
        spans = []
        for x in values:
            spans.append(x.span)
            spans += value_references(section, x)
        return base, _unique(spans)
    return t.name, _unique(([t.definition] if t.definition is not None else []) + t.references)


def _base_span(doc: Document, span: Span, name: str) -> Span | None:
    s = span.start
    if doc.text[s : s + len(name)] != name:
        return None
    nxt = doc.text[s + len(name) : s + len(name) + 1]
    if nxt and (nxt.isalnum() or nxt in "_$.-"):
        return None
    return Span(s, s + len(name))


def prepare_rename(st: DocumentState, pos: types.Position) -> types.PrepareRenamePlaceholder | None:
    with st.locked() as doc:
        found = _find(doc, st, pos)
        if found is None:
            return None
        section, _chunk, occ = found
        t = resolve(*found)
        if t is None:
            return None
        name, _spans = _rename_spans(doc, section, t)
        sp = _base_span(doc, occ.span, name)
        if sp is None:
            return None
        return types.PrepareRenamePlaceholder(range=span_range(doc.lines, sp), placeholder=name)


def rename(st: DocumentState, pos: types.Position, new_name: str) -> types.WorkspaceEdit | None:
    with st.locked() as doc:
        found = _find(doc, st, pos)
        if found is None:
            return None
        section, chunk, _occ = found
        t = resolve(section, chunk, _occ)
        if t is None:
            raise RequestFailed("nothing to rename here (SSA values, block labels, aliases and symbols can be renamed)")
        old, spans = _rename_spans(doc, section, t)
        sigil = old[0]
        new = new_name.strip()
        if new and new[0] != sigil:
            new = sigil + new
        rx = NAME_RE.get(sigil)
        if rx is None or not rx.fullmatch(new):
            raise RequestFailed(f"'{new_name}' is not a valid {t.kind} name")
        if new == old:
            return types.WorkspaceEdit(changes={st.uri: []})
        _check_conflict(section, t, new)
        edits = []
        for s in spans:
            bs = _base_span(doc, s, old)
            if bs is not None:
                edits.append(types.TextEdit(range=span_range(doc.lines, bs), new_text=new))
        return types.WorkspaceEdit(changes={st.uri: edits})


def _check_conflict(section: Section, t: Target, new: str) -> None:
    if t.kind == "value" and t.value is not None:
        # Any value of the same isolated region with that name would clash.
        from affine_lsp.ir.op_traits import enclosing_function as function_of

        v = t.value
        blk = v.parent_block
        anchor = v.defining_op or (blk.parent_op if blk is not None else None)
        scope = function_of(anchor) if anchor is not None else None
        if scope is not None:
            for op in scope.walk():
                for r in op.results:
                    if r.name.split("#")[0] == new:
                        raise RequestFailed(f"'{new}' is already defined in this function")
                for region in op.regions:
                    for b in region.blocks:
                        if any(a.name == new for a in b.arguments):
                            raise RequestFailed(f"'{new}' is already defined in this function")
    elif t.kind == "alias":
        table = section.aliases.types if new.startswith("!") else section.aliases.attrs
        if new in table:
            raise RequestFailed(f"alias '{new}' already exists")
    elif t.kind == "symbol":
        if find_symbol(section, new) is not None:
            raise RequestFailed(f"symbol '{new}' already exists")
    elif t.kind == "block" and t.block is not None and t.block.parent is not None:
        if any(b.label == new for b in t.block.parent.blocks):
            raise RequestFailed(f"block '{new}' already exists in this region")


# ------------------------------------------------------------ handlers


def definition_answer(snap: Snapshot, params: types.DefinitionParams) -> list[types.Location] | None:
    return definition(snap.st, params.position)


def references_answer(snap: Snapshot, params: types.ReferenceParams) -> list[types.Location] | None:
    return references(snap.st, params.position, params.context.include_declaration)


def highlights_answer(snap: Snapshot, params: types.DocumentHighlightParams) -> list[types.DocumentHighlight] | None:
    return highlights(snap.st, params.position)


def prepare_rename_answer(snap: Snapshot, params: types.PrepareRenameParams) -> types.PrepareRenamePlaceholder | None:
    return prepare_rename(snap.st, params.position)


def rename_answer(snap: Snapshot, params: types.RenameParams) -> types.WorkspaceEdit | None:
    return rename(snap.st, params.position, params.new_name)
