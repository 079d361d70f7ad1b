"""Signature help: the signature of the function a ``func.call`` being
written calls, with the operand the cursor is on (plain data; the server
converts it, server/convert.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from affine_lsp.ir import op_traits
from affine_lsp.ir.attributes import TypeAttr
from affine_lsp.ir.types import FunctionType
from affine_lsp.source.document import Document

_CALL_RE = re.compile(r"\bfunc\.call\s+@([\w$.\-]+)\s*\(([^()]*)$")
"""A call whose operand list is open at the end of the text before the cursor."""


@dataclass(frozen=True)
class Signature:
    label: str  # "@f(memref<8xf32>, index) -> f32"
    parameters: tuple[tuple[int, int], ...]  # each parameter's [start, end) in ``label``
    active: int  # the parameter the cursor is on


def signature_at(doc: Document, offset: int) -> Signature | None:
    """The signature of the callee of the ``func.call`` whose operands the
    cursor at ``offset`` is in, from the ``func.func`` of that name in the
    cursor's section (None: not in a call, or no such function)."""
    start = doc.text.rfind("\n", 0, offset) + 1
    m = _CALL_RE.search(doc.text, start, offset)
    if m is None:
        return None
    name, operands = m.group(1), m.group(2)
    section = doc.section_at(offset)
    for op in section.item_ops():
        for f in op.walk():
            if f.name != "func.func" or op_traits.symbol_name(f) != name:
                continue
            ft = f.attributes.get("function_type")
            if not isinstance(ft, TypeAttr) or not isinstance(ft.type, FunctionType):
                return None
            return _signature(name, ft.type, operands.count(","))
    return None


def _signature(name: str, ft: FunctionType, active: int) -> Signature:
    label = f"@{name}("
    spans = []
    for k, t in enumerate(ft.inputs):
        if k:
            label += ", "
        text = str(t)
        spans.append((len(label), len(label) + len(text)))
        label += text
    label += ")"
    if ft.results:
        results = ", ".join(str(t) for t in ft.results)
        label += f" -> {results if len(ft.results) == 1 else '(' + results + ')'}"
    return Signature(label, tuple(spans), min(active, max(0, len(spans) - 1)))
