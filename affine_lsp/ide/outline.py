"""The outline of a document: sections, modules, aliases, functions and
their loop nests (``affine.for``/``affine.parallel``/``affine.if``), as a
hierarchy read off the IR (plain data; the server converts it,
server/convert.py). A function that does not parse still gets an entry
(named from its text), so the outline never loses it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from affine_lsp.ide import describe as D
from affine_lsp.ide.occurrences import map_uses
from affine_lsp.ide.symbols import func_name
from affine_lsp.ir.attributes import StringAttr, TypeAttr
from affine_lsp.ir.core import Operation, Span
from affine_lsp.source.document import Chunk, Document, Section
from affine_lsp.syntax.nodes import AliasDefSyn


@dataclass
class Symbol:
    """One entry of the outline: ``kind`` is one of ``section``, ``module``,
    ``function``, ``loop``, ``symbol`` (another symbol op), ``attribute-alias``,
    ``type-alias``; ``span`` the whole entity, ``selection`` its name."""

    name: str
    kind: str
    span: tuple[int, int]
    selection: tuple[int, int]
    detail: str | None = None
    children: list[Symbol] = field(default_factory=list)


NEST_OPS = frozenset({"affine.for", "affine.parallel", "affine.if", "scf.for", "scf.parallel", "scf.if", "scf.while"})
FUNC_RE = re.compile(r"\bfunc(?:\.func)?\s+(?:(?:private|public|nested)\s+)?(@[\w$.\-]+|@\"[^\"]*\")")


def _sym(name: str, kind: str, span: Span, sel: Span, detail: str | None = None) -> Symbol:
    s, e = span.start, span.end
    ss, se = sel.start, sel.end
    if not (s <= ss and se <= e):
        ss, se = s, min(e, s + 1)
    return Symbol(name or "?", kind, (s, max(s, e)), (ss, max(ss, se)), detail)


def _bounds_detail(op: Operation) -> str | None:
    mus = map_uses(op)
    if op.name == "affine.for" and len(mus) == 2:
        return f"{D.map_text(mus[0])} to {D.map_text(mus[1])}"
    if op.name == "affine.parallel" and len(mus) == 2:
        return f"({D.map_text(mus[0])}) to ({D.map_text(mus[1])})"
    if op.name == "affine.if" and mus:
        return D.map_text(mus[0])
    return None


def _op_symbols(op: Operation) -> list[Symbol]:
    """Symbols of the nests inside ``op`` (its regions), recursively."""
    out: list[Symbol] = []
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                if child.name in NEST_OPS:
                    sym = _sym(D.op_title(child), "loop", child.span, child.name_span, _bounds_detail(child))
                    sym.children = _op_symbols(child)
                    out.append(sym)
                elif child.name in ("func.func", "gpu.func", "builtin.module"):
                    out.append(_top_symbol(child))
                elif child.regions:
                    out.extend(_op_symbols(child))
    return out


def _top_symbol(op: Operation) -> Symbol:
    if op.name in ("func.func", "gpu.func"):
        ft = op.attributes.get("function_type")
        sel = op.attributes.get("sym_name")
        sel_span = sel.span if isinstance(sel, StringAttr) and isinstance(sel.span, Span) else op.name_span
        sym = _sym(func_name(op), "function", op.span, sel_span, str(ft.type) if isinstance(ft, TypeAttr) else None)
        sym.children = _op_symbols(op)
        return sym
    if op.name == "builtin.module":
        nm = op.attributes.get("sym_name")
        name = "module" + (f" @{nm.value}" if isinstance(nm, StringAttr) else "")
        sym = _sym(name, "module", op.span, op.name_span)
        sym.children = _op_symbols(op)
        return sym
    nm = op.attributes.get("sym_name")
    name = f"@{nm.value}" if isinstance(nm, StringAttr) else op.name
    sym = _sym(name, "symbol", op.span, op.name_span, op.name)
    sym.children = _op_symbols(op)
    return sym


def _chunk_symbol(c: Chunk) -> Symbol | None:
    item = c.parse.item if c.parse is not None else None
    if isinstance(item, AliasDefSyn):
        kind = "type-alias" if item.name.startswith("!") else "attribute-alias"
        return _sym(item.name, kind, item.span, item.name_span, str(item.value))
    op = c.ir_op
    if op is not None and c.kind == "item":
        return _top_symbol(op)
    if c.kind == "item" and c.text.strip() and (c.parse is None or item is None):
        m = FUNC_RE.search(c.text)
        if m is not None:
            span = Span(c.start, c.end)
            sel = Span(c.start + m.start(1), c.start + m.end(1))
            return _sym(m.group(1), "function", span, sel, "(does not parse)")
    return None


def _section_symbols(section: Section) -> list[Symbol]:
    out: list[Symbol] = []
    stack: list[Symbol] = []
    for c in section.chunks:
        if c.kind == "module_open" and c.ir_op is not None:
            op = c.ir_op
            nm = op.attributes.get("sym_name")
            name = "module" + (f" @{nm.value}" if isinstance(nm, StringAttr) else "")
            sym = _sym(name, "module", op.span, Span(c.start, c.start + 6))
            (stack[-1].children if stack else out).append(sym)
            stack.append(sym)
            continue
        if c.kind == "module_close":
            if stack:
                stack.pop()
            continue
        sym = _chunk_symbol(c)
        if sym is not None:
            (stack[-1].children if stack else out).append(sym)
    return out


def symbols_of(doc: Document) -> list[Symbol]:
    """The outline of ``doc`` (a section each when it has several)."""
    sections = doc.sections
    if len(sections) <= 1:
        return _section_symbols(sections[0]) if sections else []
    out = []
    for s in sections:
        kids = _section_symbols(s)
        start = s.chunks[0].start if s.chunks else s.start
        end = s.chunks[-1].end if s.chunks else s.end
        sym = _sym(f"section {s.index + 1}", "section", Span(start, end), Span(start, start))
        sym.children = kids
        out.append(sym)
    return out
