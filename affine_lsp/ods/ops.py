"""Where the front end hands the ODS interpreter an op its grammar does not
know (:func:`parse_unknown`, called by the parser's reduce action for an op
kept as a soup of tokens): an upstream op with a shipped declarative format
is parsed from it; any other op stays skipped as before."""

from __future__ import annotations

import os

from affine_lsp.ir.core import Anchor, Span
from affine_lsp.ods import formats
from affine_lsp.ods.format_ast import Custom, walk
from affine_lsp.ods.interpreter import Mismatch, Unsupported, parse_op
from affine_lsp.syntax.nodes import Note, OpSyn, RegionSyn

UNKNOWN_DIRECTIVE_CODE = "unknown-op"  # counted as a skipped op, as the grammar's remark


def unknown_directive_message(name: str, directive: str) -> str:
    return (
        f"custom syntax of '{name}' is not known to affine-lsp: its format's directive custom<{directive}> is not;"
        " the op was skipped (its results, operands and regions are kept)"
    )


def parse_unknown(op: OpSyn, source: str, end: int, anchor: Anchor, regions: list[RegionSyn], notes: list[Note], full_name: str | None = None) -> str:
    """Fill ``op`` (name at ``op.name_span``, text up to ``end`` of
    ``source``) from its format: ``parsed``; ``error`` (its text does not
    follow the format: the error is in ``notes``, the op is kept as a soup);
    ``skip`` (no format, or one the interpreter cannot run: a remark).
    ``full_name``: the op an unprefixed name names (syntax/default_dialect.py)."""
    start = op.name_span.rel_start
    name = full_name or (source[start : op.name_span.rel_end] if source else op.name)
    fmt = formats.lookup(name)
    if fmt is None:
        return "skip"
    op.name = name
    try:
        try:
            parse_op(op, fmt, source, op.name_span.rel_end, end, anchor, regions)
        except RecursionError:
            raise
        except (Mismatch, Unsupported):
            raise
        except Exception as e:  # a bug in the interpreter must not lose the chunk: the op stays skipped
            if os.environ.get("AFFINE_LSP_DEBUG_PARSER"):
                raise
            _clear(op)
            notes.append(
                Note(
                    "remark",
                    f"custom syntax of '{name}' could not be read by affine-lsp ({type(e).__name__}); the op was skipped",
                    op.name_span,
                    UNKNOWN_DIRECTIVE_CODE,
                )
            )
            return "skip"
    except Unsupported as e:
        _clear(op)
        notes.append(Note("remark", unknown_directive_message(name, e.directive), op.name_span, UNKNOWN_DIRECTIVE_CODE))
        return "skip"
    except Mismatch as e:
        _clear(op)
        custom = next((x.name for x in walk(fmt.format.elements) if isinstance(x, Custom)), None)
        if custom is not None:
            # The text may follow the part of the format we cannot run (a
            # custom<> directive's C++ parser decides): no error, a skip.
            notes.append(Note("remark", unknown_directive_message(name, custom), op.name_span, UNKNOWN_DIRECTIVE_CODE))
            return "skip"
        notes.append(Note("error", e.message, Span(e.at, e.at, anchor), "syntax"))
        return "error"
    return "parsed"


def _clear(op: OpSyn) -> None:
    op.operands, op.operand_types, op.result_types, op.attrs = [], None, None, {}
    op.segments = None
    op.regions, op.successors, op.type_spans = [], [], []
