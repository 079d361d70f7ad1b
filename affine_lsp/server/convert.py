"""Conversions between the engine's offsets/Notes and LSP structures.

Positions are UTF-16 based (the LSP default; the server always negotiates
UTF-16) and computed with the document's :class:`LineIndex`.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from affine_lsp.ide.completion_candidates import Completions
from affine_lsp.ide.hover_text import HoverText
from affine_lsp.ide.loop_actions import LoopAction
from affine_lsp.ide.loop_hints import LoopHint
from affine_lsp.ide.name_targets import Highlights
from affine_lsp.ide.outline import Symbol
from affine_lsp.ide.signature import Signature
from affine_lsp.ir.core import Span
from affine_lsp.server.lsp_json import SOURCE, diagnostic_json, note_fixes
from affine_lsp.source.document import LineIndex
from affine_lsp.syntax.nodes import Note

__all__ = ["SOURCE", "note_fixes", "offset_of", "position", "range_from_json", "range_of", "span_range", "to_diagnostic"]


def position(lines: LineIndex, offset: int) -> types.Position:
    line, col = lines.position(offset)
    return types.Position(line=line, character=col)


def range_of(lines: LineIndex, start: int, end: int) -> types.Range:
    return types.Range(start=position(lines, start), end=position(lines, max(start, end)))


def span_range(lines: LineIndex, span: Span) -> types.Range:
    return range_of(lines, span.start, span.end)


def offset_of(lines: LineIndex, pos: types.Position) -> int:
    return lines.offset(pos.line, pos.character)


def range_from_json(d: Any) -> types.Range | None:
    try:
        return types.Range(
            start=types.Position(line=int(d["start"]["line"]), character=int(d["start"]["character"])),
            end=types.Position(line=int(d["end"]["line"]), character=int(d["end"]["character"])),
        )
    except (KeyError, TypeError, ValueError):
        return None


def _range(d: dict[str, Any]) -> types.Range:
    s, e = d["start"], d["end"]
    return types.Range(start=types.Position(line=s["line"], character=s["character"]), end=types.Position(line=e["line"], character=e["character"]))


def to_diagnostic(note: Note, lines: LineIndex, uri: str) -> types.Diagnostic:
    """lsprotocol's form of :func:`.lsp_json.diagnostic_json` (the one conversion)."""
    d = diagnostic_json(note, lines, uri)
    related = d.get("relatedInformation")
    tags = d.get("tags")
    return types.Diagnostic(
        range=_range(d["range"]),
        message=d["message"],
        severity=types.DiagnosticSeverity(d["severity"]),
        code=d.get("code"),
        source=d["source"],
        related_information=[
            types.DiagnosticRelatedInformation(location=types.Location(uri=r["location"]["uri"], range=_range(r["location"]["range"])), message=r["message"])
            for r in related
        ]
        if related
        else None,
        data=d.get("data"),
        tags=[types.DiagnosticTag(t) for t in tags] if tags else None,
    )


def signature_help(sig: Signature | None) -> types.SignatureHelp | None:
    """An :class:`~affine_lsp.ide.signature.Signature` as the LSP's answer."""
    if sig is None:
        return None
    params = [types.ParameterInformation(label=span) for span in sig.parameters]
    return types.SignatureHelp(signatures=[types.SignatureInformation(label=sig.label, parameters=params)], active_signature=0, active_parameter=sig.active)


def locations(uri: str, lines: LineIndex, spans: list[Span]) -> list[types.Location]:
    return [types.Location(uri=uri, range=span_range(lines, s)) for s in spans]


def highlights(lines: LineIndex, h: Highlights | None) -> list[types.DocumentHighlight] | None:
    """A :class:`~affine_lsp.ide.name_targets.Highlights` as the LSP's answer."""
    if h is None:
        return None
    out = [types.DocumentHighlight(range=span_range(lines, h.write), kind=types.DocumentHighlightKind.Write)] if h.write is not None else []
    return out + [types.DocumentHighlight(range=span_range(lines, s), kind=types.DocumentHighlightKind.Read) for s in h.reads]


SYMBOL_KINDS = {
    "section": types.SymbolKind.Namespace,
    "module": types.SymbolKind.Module,
    "function": types.SymbolKind.Function,
    "loop": types.SymbolKind.Operator,
    "symbol": types.SymbolKind.Variable,
    "attribute-alias": types.SymbolKind.Constant,
    "type-alias": types.SymbolKind.TypeParameter,
}


def document_symbols(lines: LineIndex, symbols: list[Symbol]) -> list[types.DocumentSymbol]:
    """An outline (:mod:`affine_lsp.ide.outline`) as the LSP's answer."""
    return [
        types.DocumentSymbol(
            name=s.name,
            kind=SYMBOL_KINDS[s.kind],
            range=range_of(lines, *s.span),
            selection_range=range_of(lines, *s.selection),
            detail=s.detail,
            children=document_symbols(lines, s.children),
        )
        for s in symbols
    ]


def inlay_hints(lines: LineIndex, hints: list[LoopHint]) -> list[types.InlayHint]:
    """The loop hints (:mod:`affine_lsp.ide.loop_hints`) as the LSP's answer."""
    return [
        types.InlayHint(
            position=position(lines, h.offset),
            label=h.label,
            padding_left=True,
            tooltip=types.MarkupContent(kind=types.MarkupKind.PlainText, value=h.tooltip),
        )
        for h in hints
    ]


def hover(lines: LineIndex, h: HoverText | None, markdown: bool) -> types.Hover | None:
    """A :class:`~affine_lsp.ide.hover_text.HoverText` as the LSP's answer
    (Markdown, or plain text for a client without it)."""
    if h is None:
        return None
    kind = types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText
    return types.Hover(contents=types.MarkupContent(kind=kind, value=h.text), range=span_range(lines, h.span))


COMPLETION_KINDS = {
    "value": types.CompletionItemKind.Variable,
    "attribute-alias": types.CompletionItemKind.Constant,
    "type-alias": types.CompletionItemKind.TypeParameter,
    "block": types.CompletionItemKind.Reference,
    "function": types.CompletionItemKind.Function,
    "type": types.CompletionItemKind.TypeParameter,
    "op": types.CompletionItemKind.Function,
    "keyword": types.CompletionItemKind.Keyword,
}


def completion_list(lines: LineIndex, c: Completions, snippets: bool, markdown: bool) -> types.CompletionList:
    """The candidates (:mod:`affine_lsp.ide.completion_candidates`) as the LSP's answer:
    snippets only for a client that takes them, Markdown documentation only
    for one that renders it (else the text without backquotes)."""
    rng = range_of(lines, c.start, c.end)
    items = []
    for it in c.items:
        snippet = it.snippet is not None and snippets
        documentation: str | types.MarkupContent | None = None
        if it.doc:
            documentation = (
                types.MarkupContent(kind=types.MarkupKind.Markdown, value=it.doc) if markdown and it.kind in ("value", "op") else it.doc.replace("`", "")
            )
        items.append(
            types.CompletionItem(
                label=it.label,
                kind=COMPLETION_KINDS[it.kind],
                detail=it.detail,
                documentation=documentation,
                text_edit=types.TextEdit(range=rng, new_text=it.snippet if snippet and it.snippet is not None else it.label),
                insert_text_format=types.InsertTextFormat.Snippet if snippet else types.InsertTextFormat.PlainText,
                sort_text=it.sort + it.label,
            )
        )
    return types.CompletionList(is_incomplete=c.incomplete, items=items)


def loop_code_action(lines: LineIndex, uri: str, a: LoopAction, kind: str) -> types.CodeAction:
    """A loop transformation's candidate (:mod:`affine_lsp.ide.loop_actions`) as an LSP code action."""
    if a.disabled is not None:
        return types.CodeAction(title=a.title, kind=kind, disabled=types.CodeActionDisabled(reason=a.disabled))
    edits = [types.TextEdit(range=range_of(lines, s, e), new_text=text) for s, e, text in a.edits]
    return types.CodeAction(title=a.title, kind=kind, edit=types.WorkspaceEdit(changes={uri: edits}), is_preferred=True if a.preferred else None)
