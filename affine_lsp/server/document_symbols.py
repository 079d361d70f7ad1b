"""``textDocument/documentSymbol``: sections, modules, aliases, functions and
their loop nests (``affine.for``/``affine.parallel``/``affine.if``), as a
hierarchy read off the IR. A function that does not parse still gets an
entry (named from its text), so the outline never loses it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lsprotocol import types

from affine_lsp.ide import describe as D
from affine_lsp.ide.occurrences import map_uses
from affine_lsp.ide.symbols import func_name
from affine_lsp.ir.attributes import StringAttr, TypeAttr
from affine_lsp.ir.core import Operation, Span
from affine_lsp.server.state import DocumentState
from affine_lsp.syntax.document import Chunk, Document, LineIndex, Section
from affine_lsp.syntax.nodes import AliasDefSyn

if TYPE_CHECKING:
    from affine_lsp.server.snapshot import Snapshot

NEST_OPS = frozenset({"affine.for", "affine.parallel", "affine.if", "scf.for", "scf.parallel", "scf.if", "scf.while"})
FUNC_RE = re.compile(r"\bfunc(?:\.func)?\s+(?:(?:private|public|nested)\s+)?(@[\w$.\-]+|@\"[^\"]*\")")


def _rng(lines: LineIndex, s: int, e: int) -> types.Range:
    a, b = lines.position(s), lines.position(max(s, e))
    return types.Range(start=types.Position(line=a[0], character=a[1]), end=types.Position(line=b[0], character=b[1]))


def _sym(lines: LineIndex, name: str, kind: types.SymbolKind, span: Span, sel: Span, detail: str | None = None) -> types.DocumentSymbol:
    s, e = span.start, span.end
    ss, se = sel.start, sel.end
    if not (s <= ss and se <= e):
        ss, se = s, min(e, s + 1)
    return types.DocumentSymbol(
        name=name or "?",
        kind=kind,
        range=_rng(lines, s, e),
        selection_range=_rng(lines, ss, se),
        detail=detail,
        children=[],
    )


def _bounds_detail(op: Operation) -> str | None:
    mus = map_uses(op)
    if op.name == "affine.for" and len(mus) == 2:
        return f"{D.map_text(mus[0])} to {D.map_text(mus[1])}"
    if op.name == "affine.parallel" and len(mus) == 2:
        return f"({D.map_text(mus[0])}) to ({D.map_text(mus[1])})"
    if op.name == "affine.if" and mus:
        return D.map_text(mus[0])
    return None


def _op_symbols(lines: LineIndex, op: Operation) -> list[types.DocumentSymbol]:
    """Symbols of the nests inside ``op`` (its regions), recursively."""
    out: list[types.DocumentSymbol] = []
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                if child.name in NEST_OPS:
                    sym = _sym(lines, D.op_title(child), types.SymbolKind.Operator, child.span, child.name_span, _bounds_detail(child))
                    sym.children = _op_symbols(lines, child)
                    out.append(sym)
                elif child.name in ("func.func", "gpu.func", "builtin.module"):
                    out.append(_top_symbol(lines, child))
                elif child.regions:
                    out.extend(_op_symbols(lines, child))
    return out


def _top_symbol(lines: LineIndex, op: Operation) -> types.DocumentSymbol:
    if op.name in ("func.func", "gpu.func"):
        ft = op.attributes.get("function_type")
        sel = op.attributes.get("sym_name")
        sel_span = sel.span if isinstance(sel, StringAttr) and isinstance(sel.span, Span) else op.name_span
        sym = _sym(lines, func_name(op), types.SymbolKind.Function, op.span, sel_span, str(ft.type) if isinstance(ft, TypeAttr) else None)
        sym.children = _op_symbols(lines, op)
        return sym
    if op.name == "builtin.module":
        nm = op.attributes.get("sym_name")
        name = "module" + (f" @{nm.value}" if isinstance(nm, StringAttr) else "")
        sym = _sym(lines, name, types.SymbolKind.Module, op.span, op.name_span)
        sym.children = _op_symbols(lines, op)
        return sym
    nm = op.attributes.get("sym_name")
    name = f"@{nm.value}" if isinstance(nm, StringAttr) else op.name
    sym = _sym(lines, name, types.SymbolKind.Variable, op.span, op.name_span, op.name)
    sym.children = _op_symbols(lines, op)
    return sym


def _chunk_symbol(lines: LineIndex, c: Chunk) -> types.DocumentSymbol | None:
    item = c.parse.item if c.parse is not None else None
    if isinstance(item, AliasDefSyn):
        kind = types.SymbolKind.TypeParameter if item.name.startswith("!") else types.SymbolKind.Constant
        return _sym(lines, item.name, kind, item.span, item.name_span, str(item.value))
    op = c.ir_op
    if op is not None and c.kind == "item":
        return _top_symbol(lines, op)
    if c.kind == "item" and c.text.strip() and (c.parse is None or item is None):
        m = FUNC_RE.search(c.text)
        if m is not None:
            span = Span(c.start, c.end)
            sel = Span(c.start + m.start(1), c.start + m.end(1))
            return _sym(lines, m.group(1), types.SymbolKind.Function, span, sel, "(does not parse)")
    return None


def _section_symbols(lines: LineIndex, section: Section) -> list[types.DocumentSymbol]:
    out: list[types.DocumentSymbol] = []
    stack: list[types.DocumentSymbol] = []
    for c in section.chunks:
        if c.kind == "module_open" and c.ir_op is not None:
            op = c.ir_op
            nm = op.attributes.get("sym_name")
            name = "module" + (f" @{nm.value}" if isinstance(nm, StringAttr) else "")
            sym = _sym(lines, name, types.SymbolKind.Module, op.span, Span(c.start, c.start + 6))
            (stack[-1].children if stack else out).append(sym)  # type: ignore[union-attr]
            stack.append(sym)
            continue
        if c.kind == "module_close":
            if stack:
                stack.pop()
            continue
        sym = _chunk_symbol(lines, c)
        if sym is not None:
            (stack[-1].children if stack else out).append(sym)  # type: ignore[union-attr]
    return out


def document_symbols(st: DocumentState) -> list[types.DocumentSymbol]:
    with st.locked() as doc:
        return symbols_of(doc)


def symbols_of(doc: Document) -> list[types.DocumentSymbol]:
    lines = doc.lines
    sections = doc.sections
    if len(sections) <= 1:
        return _section_symbols(lines, sections[0]) if sections else []
    out = []
    for s in sections:
        kids = _section_symbols(lines, s)
        start = s.chunks[0].start if s.chunks else s.start
        end = s.chunks[-1].end if s.chunks else s.end
        sym = _sym(lines, f"section {s.index + 1}", types.SymbolKind.Namespace, Span(start, end), Span(start, start))
        sym.children = kids
        out.append(sym)
    return out


def answer(snap: Snapshot, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    return document_symbols(snap.st)
