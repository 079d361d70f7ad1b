"""Go to definition, find references, document highlight and rename, as
plain data over a :class:`Document` (spans; the server converts them,
server/convert.py).

Entities: SSA values (uses recorded by the IR), block labels, ``#``/``!``
aliases and symbols (``@f`` of ``func.func``, used by ``func.call``). Values
and blocks are scoped by the IR; aliases and symbols by their ``// -----``
section.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

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
from affine_lsp.source.document import Chunk, Document, Section

NAME_RE = {
    "%": re.compile(r"%([0-9]+|[A-Za-z_$.\-][A-Za-z0-9_$.\-]*)"),
    "^": re.compile(r"\^([0-9]+|[A-Za-z_$.\-][A-Za-z0-9_$.\-]*)"),
    "#": re.compile(r"#[A-Za-z_$.\-][A-Za-z0-9_$.\-]*"),
    "!": re.compile(r"![A-Za-z_$.\-][A-Za-z0-9_$.\-]*"),
    "@": re.compile(r"@[A-Za-z_$.\-][A-Za-z0-9_$.\-]*"),
}


class RenameRefused(Exception):
    """A rename that cannot be done, with the reason the user is told."""


@dataclass(eq=False)
class Target:
    kind: str  # value | block | alias | symbol
    name: str
    definition: Span | None
    references: list[Span] = field(default_factory=list)  # uses (not the definition)
    value: Value | None = None
    block: Block | None = None


@dataclass(frozen=True)
class Highlights:
    """The spans of a document highlight: where the entity is written
    (its definition) and read (its uses)."""

    write: Span | None
    reads: list[Span]


def chunk_at(doc: Document, offset: int) -> tuple[Section, Chunk | None]:
    """The section at ``offset`` and its chunk there (None: between chunks)."""
    section = doc.section_at(offset)
    chunks = section.chunks
    if not chunks:
        return section, None
    starts = [c.start for c in chunks]
    i = bisect.bisect_right(starts, offset) - 1
    if i < 0:
        return section, chunks[0] if chunks[0].start <= offset < chunks[0].end else None
    c = chunks[i]
    if c.start <= offset <= c.end:
        return section, c
    return section, None


def _find(doc: Document, offset: int) -> tuple[Section, Chunk, Occ] | None:
    section, chunk = chunk_at(doc, offset)
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


def target_at(doc: Document, offset: int) -> Target | None:
    """The entity whose name is at ``offset`` (None: no name there)."""
    found = _find(doc, offset)
    return resolve(*found) if found is not None else None


def definition_at(doc: Document, offset: int) -> Span | None:
    t = target_at(doc, offset)
    return t.definition if t is not None else None


def references_at(doc: Document, offset: int, include_declaration: bool) -> list[Span] | None:
    t = target_at(doc, offset)
    if t is None:
        return None
    return unique(([t.definition] if include_declaration and t.definition is not None else []) + t.references)


def highlights_at(doc: Document, offset: int) -> Highlights | None:
    t = target_at(doc, offset)
    return Highlights(t.definition, unique(t.references)) if t is not None else None


def unique(spans: list[Span]) -> list[Span]:
    seen: set[tuple[int, int]] = set()
    out = []
    for s in spans:
        key = (s.start, s.end)
        if key not in seen:
            seen.add(key)
            out.append(s)
    return out


# ---------------------------------------------------------------- rename
def _rename_spans(section: Section, t: Target) -> tuple[str, list[Span]]:
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
        return base, unique(spans)
    return t.name, unique(([t.definition] if t.definition is not None else []) + t.references)


def _base_span(doc: Document, span: Span, name: str) -> Span | None:
    s = span.start
    if doc.text[s : s + len(name)] != name:
        return None
    nxt = doc.text[s + len(name) : s + len(name) + 1]
    if nxt and (nxt.isalnum() or nxt in "_$.-"):
        return None
    return Span(s, s + len(name))


def rename_placeholder(doc: Document, offset: int) -> tuple[Span, str] | None:
    """The span of the name at ``offset`` that a rename replaces, and the name."""
    found = _find(doc, offset)
    if found is None:
        return None
    section, _chunk, occ = found
    t = resolve(*found)
    if t is None:
        return None
    name, _spans = _rename_spans(section, t)
    sp = _base_span(doc, occ.span, name)
    return None if sp is None else (sp, name)


def rename_edits(doc: Document, offset: int, new_name: str) -> tuple[list[Span], str] | None:
    """The spans to replace, and the new name (with its sigil), to rename
    the entity at ``offset`` to ``new_name``; None: no name there. Raises
    :class:`RenameRefused` when the rename cannot be done."""
    found = _find(doc, offset)
    if found is None:
        return None
    section, chunk, occ = found
    t = resolve(section, chunk, occ)
    if t is None:
        raise RenameRefused("nothing to rename here (SSA values, block labels, aliases and symbols can be renamed)")
    old, spans = _rename_spans(section, t)
    sigil = old[0]
    new = new_name.strip()
    if new and new[0] != sigil:
        new = sigil + new
    rx = NAME_RE.get(sigil)
    if rx is None or not rx.fullmatch(new):
        raise RenameRefused(f"'{new_name}' is not a valid {t.kind} name")
    if new == old:
        return [], new
    _check_conflict(section, t, new)
    return [bs for s in spans if (bs := _base_span(doc, s, old)) is not None], new


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
                        raise RenameRefused(f"'{new}' is already defined in this function")
                for region in op.regions:
                    for b in region.blocks:
                        if any(a.name == new for a in b.arguments):
                            raise RenameRefused(f"'{new}' is already defined in this function")
    elif t.kind == "alias":
        table = section.aliases.types if new.startswith("!") else section.aliases.attrs
        if new in table:
            raise RenameRefused(f"alias '{new}' already exists")
    elif t.kind == "symbol":
        if find_symbol(section, new) is not None:
            raise RenameRefused(f"symbol '{new}' already exists")
    elif t.kind == "block" and t.block is not None and t.block.parent is not None:
        if any(b.label == new for b in t.block.parent.blocks):
            raise RenameRefused(f"block '{new}' already exists in this region")
