"""Parse errors in MLIR's words: lark's error (the token found, the
terminals expected) becomes the message mlir-opt 22.1.8 prints for the same
mistake, at the position MLIR reports it (a missing token just past the
previous one, as ``emitWrongTokenError`` does); the token found becomes
related information. ``tests/test_mlir_wording.py`` checks the messages
against the upstream corpus."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from affine_lsp.ir.core import Anchor, Span
from affine_lsp.syntax.nodes import Note

_BARE_NAME = re.compile(r"[A-Za-z_][\w$]*", re.ASCII)


def _names_an_op(text: str, start: int, word: str) -> bool:
    """Whether the unprefixed ``word`` at ``start`` names an op there (then
    the error is not that the op is unknown)."""
    from affine_lsp.ir import op_registry
    from affine_lsp.syntax import default_dialect

    return op_registry.lookup(default_dialect.resolve_at(text, start, word)) is not None


if TYPE_CHECKING:
    from lark.exceptions import UnexpectedInput

_TERMINAL_WORDS: dict[str, str] = {
    "RP": "')'",
    "LP": "'('",
    "RSQB": "']'",
    "LSQB_SYM": "'['",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "RANGLE": "'>'",
    "COLON": "':'",
    "ARROW": "'->'",
    "COMMA": "','",
    "EQUAL": "'='",
    "SSA_ID": "SSA operand",
    "RESULT_LHS": "operation",
    "BARE_ID": "identifier",
    "INT": "integer",
    "STRING": "string",
    "SYMBOL_REF": "symbol reference",
    "HASH_ID": "attribute alias",
}


def _expected_words(expected: set[str]) -> list[str]:
    out = []
    for name in sorted(expected):
        if name in _TERMINAL_WORDS:
            out.append(_TERMINAL_WORDS[name])
        elif name.startswith("__ANON") or name.isupper():
            continue
        else:
            out.append(name)
    return out


def _describe_token(tok: Any) -> str:
    if tok.type == "$END":
        return "end of input"
    text = str(tok)
    if len(text) > 24:
        text = text[:20] + "..."
    return repr(text) if not text.isprintable() else f"'{text}'"


def _strip_comment(line: str) -> str:
    i = line.find("//")
    while i >= 0:
        if line.count('"', 0, i) % 2 == 0:
            return line[:i]
        i = line.find("//", i + 2)
    return line


def _previous_token_end(text: str, pos: int) -> int | None:
    """The offset just past the last code character before ``pos``, skipping
    whitespace, blank lines and ``//`` comments; None at the buffer start."""
    end = pos
    while True:
        while end > 0 and text[end - 1] in " \t":
            end -= 1
        if end == 0:
            return None
        if text[end - 1] not in "\r\n":
            return end
        end -= 1
        if end > 0 and text[end - 1] == "\r":
            end -= 1
        ls = text.rfind("\n", 0, end) + 1
        end = ls + len(_strip_comment(text[ls:end]))


UNKNOWN_OP_CODE = "unknown-op"

UNREGISTERED_DIALECT_CODE = "unregistered-dialect"
"""mlir-opt's error at an op of a dialect it does not register (without
``--allow-unregistered-dialect``); the parser notes every such op (as
``info``: the item still parses), and
:func:`affine_lsp.diagnostics.unregistered_dialects` keeps the first of each
section, as mlir-opt stops there, or none where the dialects are allowed."""

UNREGISTERED_GENERIC_MESSAGE = (
    "operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used"
)


def unregistered_custom_message(name: str) -> str:
    """mlir-opt's words, to the trailing space."""
    return f"Dialect `{name.split('.', 1)[0]}' not found for custom op '{name}' "


def unknown_op_message(name: str) -> str:
    return f"custom syntax of '{name}' is not known to affine-lsp; the op was skipped (its results, operands and regions are kept)"


BAD_STEP_MESSAGE = "custom op 'affine.for' expected step to be representable as a positive signed integer"
_FOUND_RE = re.compile(r"(expected .*?), found (.+)", re.S)
_AFFINE_ACCESS_OPS = ("affine.load", "affine.store", "affine.vector_load", "affine.vector_store", "affine.prefetch")


def error_note(e: UnexpectedInput, text: str, anchor: Anchor) -> Note:
    """An MLIR-style message for a lark error, with a precise range: the
    message is mlir-opt's text (MLIR's "expected X" never names the token
    found; that detail becomes related information at the token)."""
    note = _error_note(e, text, anchor)
    m = _FOUND_RE.fullmatch(note.message)
    if m is None:
        return note
    msg, found = m.group(1), m.group(2)
    tok = getattr(e, "token", None)
    if tok is not None and tok.type != "$END" and tok.start_pos is not None and note.span.rel_start != tok.start_pos:
        at = Span(tok.start_pos, tok.end_pos if tok.end_pos is not None else tok.start_pos + 1, anchor)
    else:
        at = note.span
    # What precedes the error on its line: MLIR prefixes the errors an op's
    # custom parser emits (parseKeyword) with "custom op '<name>' ".
    line = text[text.rfind("\n", 0, at.rel_start) + 1 : at.rel_start]
    if msg == "expected 'to' between bounds" and "affine.for" in line:
        msg = "custom op 'affine.for' " + msg
    elif msg == "expected '['" and any(op in line for op in _AFFINE_ACCESS_OPS):
        msg += " in affine map"  # parseAffineMapOfSSAIds' context message
    return Note(note.severity, msg, note.span, note.code, {"related": [(at, f"found {found}")]})


def _error_note(e: UnexpectedInput, text: str, anchor: Anchor) -> Note:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken  # (lark is loaded: it raised e)

    if isinstance(e, UnexpectedToken):
        tok = e.token
        expected = set(e.expected or ())
        if tok.type == "$END":
            pos = len(text.rstrip())
            sp = Span(max(pos - 1, 0), pos, anchor)
            if "RBRACE" in expected:
                return Note("error", "expected '}' to end the region (unbalanced braces?)", sp, "syntax")
            msg = _message_for(expected, "end of input")
            return Note("error", msg, sp, "syntax")
        start = tok.start_pos if tok.start_pos is not None else 0
        end = tok.end_pos if tok.end_pos is not None else start + 1
        if tok.type == "BARE_ID" and "TO" in expected and "STEP" in expected:
            # `affine.for %i = 1 too 10`: MLIR's parseKeyword("to", " between bounds").
            return Note("error", f"expected 'to' between bounds, found '{tok}'", Span(start, end, anchor), "syntax")
        at_op = "RESULT_LHS" in expected or (expected <= {"$END"} and not text[text.rfind("\n", 0, start) + 1 : start].strip())
        if at_op and _BARE_NAME.fullmatch(str(tok)) and not _names_an_op(text, start, str(tok)):
            # An op name without its dialect (a bare word or one of the
            # grammar's keywords, `module` in a function body): looked up in
            # the enclosing op's default dialect (syntax/default_dialect.py).
            from affine_lsp.syntax import default_dialect

            dialect = default_dialect.default_dialect_at(text, start)
            return Note("error", default_dialect.unknown_message(str(tok), dialect), Span(start, end, anchor), "syntax")
        # A keyword matched as the prefix of a longer word (`too` read as `to` + `o`).
        if start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_") and (str(tok)[:1].isalnum()):
            ws = start - 1
            while ws > 0 and (text[ws - 1].isalnum() or text[ws - 1] in "_$."):
                ws -= 1
            we = end
            word = text[ws:we]
            if word.startswith("to"):
                return Note("error", f"expected 'to' between bounds, found '{word}'", Span(ws, we, anchor), "syntax")
            return Note("error", f"unexpected '{word}'", Span(ws, we, anchor), "syntax")
        msg = _message_for(expected, _describe_token(tok))
        m = _BAD_STEP_RE.search(text, 0, start)
        if m is not None and not _COMMENT_RE.sub("", text[m.end() : start]).strip():
            # The step is checked when it is read in MLIR, before the region.
            return Note("error", BAD_STEP_MESSAGE, Span(m.start(1), m.end(1), anchor), "syntax")
        if msg.startswith("expected") and not msg.startswith(_AT_TOKEN):
            # Like MLIR's emitWrongTokenError: a missing token is reported
            # just past the previous token (skipping blank lines, comments).
            prev_end = _previous_token_end(text, start)
            if prev_end is not None:
                return Note("error", msg, Span(prev_end, prev_end, anchor), "syntax")
        return Note("error", msg, Span(start, end, anchor), "syntax")
    if isinstance(e, UnexpectedCharacters):
        pos = e.pos_in_stream
        ch = text[pos] if pos < len(text) else ""
        if not ch.isprintable():
            ch = repr(ch)[1:-1]
        allowed = set(e.allowed or ())
        msg = _message_for(allowed, f"'{ch}'") if allowed else f"unexpected character '{ch}'"
        return Note("error", msg, Span(pos, pos + 1, anchor), "syntax")
    if isinstance(e, UnexpectedEOF):
        pos = len(text)
        return Note("error", _message_for(set(e.expected or ()), "end of input"), Span(max(pos - 1, 0), pos, anchor), "syntax")
    return Note("error", str(e), Span(0, 1, anchor), "syntax")


_AT_TOKEN = ("expected affine expression", "expected '== affine-expr'", "expected 'to'", "expected non-function type", "expected operation name")
_BAD_STEP_RE = re.compile(r"\bstep\s+(-\s*[0-9]+)\b")
_COMMENT_RE = re.compile(r"//[^\n\r]*")
_AFFINE_ATOMS = {"BARE_ID", "INT", "LP", "MINUS"}
_SSA_AFFINE_ATOMS = {"SSA_ID", "INT", "LP", "MINUS", "SYMBOL"}
_TYPE_STARTS = {"INT_TYPE", "FLOAT_TYPE", "INDEX_KW", "MEMREF_KW", "VECTOR_KW", "TENSOR_KW", "NONE_KW", "COMPLEX_KW", "TUPLE_KW", "DIALECT_TYPE", "BANG_ID"}
_PRIORITY = ["RP", "RSQB", "RANGLE", "RBRACE", "COLON", "ARROW", "LP", "LBRACE", "LSQB_SYM", "SSA_ID", "INT", "SYMBOL_REF", "EQUAL"]
_WORDS = {"EQUAL": "'='", "LSQB_SYM": "'['", "TO": "'to'", "COMMA": "','"}


def _message_for(expected: set[str], found: str) -> str:
    """Phrase lark's expected-terminal set the way MLIR's parser does."""
    if "CMP_OP" in expected and found in ("')'", "','"):
        return "expected '== affine-expr' or '>= affine-expr' at end of affine constraint"
    if (
        expected
        and (expected <= _AFFINE_ATOMS | {"LEGACY", "CEILDIV_KW", "FLOORDIV_KW", "MOD_KW"} or expected == _SSA_AFFINE_ATOMS or expected <= _SSA_AFFINE_ATOMS)
        and ("INT" in expected and "LP" in expected)
    ):
        return f"expected affine expression, found {found}"
    if expected == {"INT", "MINUS"} and found.startswith("'%"):
        return f"expected attribute value, found {found}"
    if "LBRACE" in expected and found in ("'}'", "end of input") and len(expected) <= 4:
        return "expected '{' to begin a region"
    if expected == {"SSA_ID"}:
        return f"expected SSA operand, found {found}"
    if "TO" in expected and len(expected) <= 3:
        return f"expected 'to' between bounds, found {found}"
    if expected <= _TYPE_STARTS | {"LP"} and len(expected) > 3:
        return f"expected non-function type, found {found}"
    for name in _PRIORITY:
        if name in expected and len(expected) <= 4:
            word = _TERMINAL_WORDS.get(name) or _WORDS.get(name, name)
            return f"expected {word}, found {found}"
    if "SSA_ID" in expected:
        return f"expected SSA operand, found {found}"
    if "RESULT_LHS" in expected or "DOTTED_ID" in expected:
        return f"expected operation name, found {found}"
    words = _expected_words(expected)
    if words:
        return f"unexpected {found}; expected one of {', '.join(words[:6])}"
    return f"unexpected {found}"
