"""The dialects of an IRDL file (``--irdl-file FILE``, as mlir-opt has it):
``irdl.dialect @name { irdl.operation @op {...} ... }``. An IRDL op has no
custom syntax (it is written in the generic form), so what affine-lsp takes
from the file is the names: each dialect registered with its ops (no
'unregistered dialect' error for ``"cmath.norm"(%x) : ...``); nothing is
checked against their operand and result constraints."""

from __future__ import annotations

import re

from affine_lsp.ods.dialect_set import Problem

_SYMBOL = re.compile(r'"?irdl\.(?:dialect|operation)"?\s*@([A-Za-z_][\w$.]*|"[^"]*")')


def _sym_name(op: object, text: str) -> str | None:
    attrs = getattr(op, "attributes", {}) or {}
    if "sym_name" in attrs:
        return str(attrs["sym_name"]).strip('"')
    m = _SYMBOL.match(text, op.span.start)  # type: ignore[attr-defined]
    return m.group(1).strip('"') if m else None


def facts_of_irdl(path: str) -> tuple[dict[str, dict], Problem | None]:
    """``{"cmath.norm": {"summary": ""}, ...}`` of the IRDL file ``path``, or
    why it gives none (it cannot be read, it has errors, it defines no
    dialect)."""
    from affine_lsp.source.document import Document

    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        return {}, Problem(path, f"cannot read: {getattr(e, 'strerror', None) or e}")
    doc = Document(text, uri=path)
    errors = [n for n in doc.notes() if n.severity == "error"]
    if errors:
        line, col = doc.lines.position(errors[0].span.start)
        return {}, Problem(path, f"not a valid IRDL file: {path}:{line + 1}:{col + 1}: error: {errors[0].message}")
    out: dict[str, dict] = {}

    def walk(op: object, dialect: str | None) -> None:
        name = getattr(op, "name", "")
        if name == "irdl.dialect":
            dialect = _sym_name(op, text)
        elif name == "irdl.operation" and dialect:
            short = _sym_name(op, text)
            if short:
                out[f"{dialect}.{short}"] = {"summary": ""}
            return
        for r in getattr(op, "regions", ()):
            for b in r.blocks:
                for o in b.operations:
                    walk(o, dialect)

    for s in doc.sections:
        walk(s.module, None)
    if not out:
        return {}, Problem(path, "defines no op (no irdl.operation inside an irdl.dialect)")
    return out, None
