"""mlir-opt 22.1.8's error for an op of an upstream dialect that MLIR does
not have, written in the custom form: ``custom op 'arith.addff' is unknown``
at the op's name (its parser stops there), with "Did you mean" quick fixes
(the nearest names of the dialect, :func:`affine_lsp.ir.op_registry.nearest`).

The verifier reports it for an op the grammar skipped
(:mod:`affine_lsp.verify.op_structure`); when the skipped text is not even
one the grammar can skip (``affine.forr %i = 0 to 10``), the chunk's syntax
error after such an op becomes this error instead, as mlir-opt fails at the
name first.
"""

from __future__ import annotations

import re

from affine_lsp.ir import op_registry
from affine_lsp.ir.core import Anchor, Span
from affine_lsp.syntax.nodes import Note

UNKNOWN_UPSTREAM_OP_CODE = "unknown-upstream-op"


def did_you_mean(name: str, span: Span, quoted: bool) -> dict | None:
    """Quick-fix data: each of the nearest names of the dialect replacing the
    op's name (``quoted`` in the generic form)."""
    close = op_registry.nearest(name)
    if not close:
        return None
    fixes = [{"title": f"Did you mean `{n}`?", "edits": [{"span": span, "new_text": f'"{n}"' if quoted else n}]} for n in close]
    return {"fix": fixes, "did_you_mean": close}


def custom_unknown_note(name: str, span: Span) -> Note:
    return Note("error", f"custom op '{name}' is unknown", span, UNKNOWN_UPSTREAM_OP_CODE, did_you_mean(name, span, False))


# An op name where a statement starts: `name`, `%r = name`, `%a, %b:2 = name`.
# ASCII only, as MLIR's lexer: a name ends at the first other character
# (`arith.addéf` is the op `arith.add`, then an unexpected character).
_STATEMENT_OP = re.compile(r"^[ \t]*(?:%[\w$.-]+(?::\d+)?(?:[ \t]*,[ \t]*%[\w$.-]+(?::\d+)?)*[ \t]*=[ \t]*)?([A-Za-z_][\w$]*\.[\w$.]+)", re.M | re.ASCII)


def replace_syntax_error(notes: list[Note], text: str, anchor: Anchor) -> None:
    """The first syntax error of a chunk replaced by the unknown-op error of
    the first unknown upstream op written before it (in place)."""
    k = next((i for i, n in enumerate(notes) if n.severity == "error" and n.code == "syntax"), None)
    if k is None:
        return
    end = notes[k].span.rel_start
    for m in _STATEMENT_OP.finditer(text, 0, end + 1):
        name = m.group(1)
        if op_registry.is_unknown_upstream(name):
            notes[k] = custom_unknown_note(name, Span(m.start(1), m.end(1), anchor))
            return
