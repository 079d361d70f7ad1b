"""MLIR's pre-2022 syntax: what the old op names are called now, and what
mlir-opt 22.1.8 says when it meets them.

Before the ``func``, ``arith``, ``math``, ``cf`` and ``memref`` dialects left
``std`` (2021-2022), their ops were written without a dialect prefix
(``func @f``, ``constant 0 : index``, ``addf``, ``alloc``) or with ``std.``.
:data:`LEGACY_OPS` is the one table of those names; the upgrade
(:mod:`affine_lsp.transforms.legacy_upgrade`), the diagnostics
(:func:`legacy_notes`) and the hover read it.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from affine_lsp.ir.attributes import AffineMapAttr, IntegerSetAttr
from affine_lsp.ir.core import Anchor, Span, memo_of
from affine_lsp.syntax.nodes import AliasDefSyn, Note
from affine_lsp.syntax.parser import parse_chunk

if TYPE_CHECKING:
    from affine_lsp.ir.core import Operation
    from affine_lsp.source.document import Document

LEGACY_CODE = "legacy-syntax"
"""The code of the one note that says a document is in the pre-2022 syntax."""

_ARITH = [
    "addf",
    "subf",
    "mulf",
    "divf",
    "remf",
    "negf",
    "addi",
    "subi",
    "muli",
    "cmpi",
    "cmpf",
    "select",
    "index_cast",
    "sitofp",
    "uitofp",
    "fptosi",
    "fptoui",
    "trunci",
    "bitcast",
]
_ARITH_RENAMED = {
    "and": "arith.andi",
    "or": "arith.ori",
    "xor": "arith.xori",
    "divi_signed": "arith.divsi",
    "divi_unsigned": "arith.divui",
    "remi_signed": "arith.remsi",
    "remi_unsigned": "arith.remui",
    "ceildivi_signed": "arith.ceildivsi",
    "floordivi_signed": "arith.floordivsi",
    "shift_left": "arith.shli",
    "shift_right_signed": "arith.shrsi",
    "shift_right_unsigned": "arith.shrui",
    "sexti": "arith.extsi",
    "zexti": "arith.extui",
    "fpext": "arith.extf",
    "fptrunc": "arith.truncf",
}
_MATH = {
    "absf": "math.absf",
    "ceilf": "math.ceil",
    "floorf": "math.floor",
    "copysign": "math.copysign",
    "fmaf": "math.fma",
    "exp": "math.exp",
    "exp2": "math.exp2",
    "expm1": "math.expm1",
    "log": "math.log",
    "log2": "math.log2",
    "log10": "math.log10",
    "log1p": "math.log1p",
    "sqrt": "math.sqrt",
    "rsqrt": "math.rsqrt",
    "tanh": "math.tanh",
    "sin": "math.sin",
    "cos": "math.cos",
    "atan": "math.atan",
    "atan2": "math.atan2",
    "powf": "math.powf",
}
_MEMREF = {
    "alloc": "memref.alloc",
    "alloca": "memref.alloca",
    "dealloc": "memref.dealloc",
    "load": "memref.load",
    "store": "memref.store",
    "view": "memref.view",
    "subview": "memref.subview",
    "dma_start": "memref.dma_start",
    "dma_wait": "memref.dma_wait",
    "memref_cast": "memref.cast",
    "prefetch": "memref.prefetch",
    "assume_alignment": "memref.assume_alignment",
    "get_global_memref": "memref.get_global",
    "global_memref": "memref.global",
    "atomic_rmw": "memref.atomic_rmw",
    "memref_reshape": "memref.reshape",
}
_OTHER = {
    "func": "func.func",
    "return": "func.return",
    "call": "func.call",
    "call_indirect": "func.call_indirect",
    "constant": "arith.constant",
    "br": "cf.br",
    "cond_br": "cf.cond_br",
    "assert": "cf.assert",
    "extract_element": "tensor.extract",
    "tensor_from_elements": "tensor.from_elements",
    "tensor_cast": "tensor.cast",
    "tensor_load": "bufferization.to_tensor",
    "splat": "vector.broadcast",
    # The `loop` dialect, renamed `scf` in 2020.
    "loop.for": "scf.for",
    "loop.if": "scf.if",
    "loop.yield": "scf.yield",
    "loop.parallel": "scf.parallel",
    # The affine ops of early 2019, before they took the dialect's prefix.
    "for": "affine.for",
    "if": "affine.if",
    "affine_apply": "affine.apply",
    "dim": "memref.dim",
    "rank": "memref.rank",
}

LEGACY_OPS: dict[str, str] = {
    **{n: "arith." + n for n in _ARITH},
    **_ARITH_RENAMED,
    **_MATH,
    **_MEMREF,
    **_OTHER,
}
"""Old op name (bare, as written before 2022) → its name in MLIR 22. Ops that
moved by operand type (``dim``, ``rank``, ``splat`` on tensors) are given with
their memref/vector name; :func:`modern_name` chooses."""

OLD_DIALECTS = ("std.", "loop.")
"""The prefixes of dialects that no longer exist (``loop`` became ``scf``)."""

# Names that are still current spellings in some context (inside func.func,
# `return` and `call` resolve to the func dialect): not legacy by themselves.
FUNC_DEFAULT_OK = frozenset({"return", "call", "call_indirect"})
# ... of which the grammar reads these two anywhere: a syntax error at one of
# them is a broken file, not an old one.
GRAMMAR_BARE = frozenset({"return", "call"})

# Old names whose custom syntax changed beyond the name (the upgrade rewrites them specially).
SPECIAL = frozenset({"cmpi", "cmpf", "constant", "dim", "rank", "splat", "tensor_load", "atomic_rmw"})

# Old ops with no mechanical modern form (reported, never dropped).
NO_MODERN_FORM = {
    "tensor_store": "'tensor_store' was removed (use bufferization.materialize_in_destination)",
    "maxf": "'maxf' became arith.maximumf or arith.maxnumf, whose NaN semantics differ; choose one by hand",
    "minf": "'minf' became arith.minimumf or arith.minnumf, whose NaN semantics differ; choose one by hand",
}


def modern_name(old: str, type_text: str = "") -> str | None:
    """The MLIR 22 name of the legacy op ``old`` (bare or ``std.``-prefixed);
    ``type_text`` (its trailing type) chooses between the memref and tensor
    forms. None when ``old`` is no legacy op name."""
    if old.startswith("std."):
        old = old[4:]
    new = LEGACY_OPS.get(old)
    if new is None:
        return None
    if type_text.lstrip().startswith("tensor"):
        if old in ("dim", "rank"):
            return "tensor." + old
        if old == "splat":
            return "tensor.splat"
    return new


def hover_text(old: str) -> str | None:
    """Markdown for a hover on a legacy op name."""
    new = modern_name(old)
    if new is None:
        if old.removeprefix("std.") in NO_MODERN_FORM:
            return f"**`{old}`** is pre-2022 MLIR syntax: {NO_MODERN_FORM[old.removeprefix('std.')]}."
        return None
    extra = ""
    if old.removeprefix("std.") in ("dim", "rank"):
        extra = f" (`tensor.{old.removeprefix('std.')}` on tensors)"
    elif old.removeprefix("std.") == "splat":
        extra = " (`tensor.splat` on tensors)"
    elif old.removeprefix("std.") == "constant":
        extra = " (`func.constant` for a symbol reference)"
    return (
        f"**`{old}`** is pre-2022 MLIR syntax: it is called **`{new}`** now{extra}. "
        "The code action *Upgrade to current MLIR syntax* (or `affine-lsp upgrade FILE`) rewrites the file."
    )


_OP_HEAD_RE = re.compile(r"[ \t]*(?:(?:%[A-Za-z0-9_$.\-]+(?::[0-9]+)?\s*,\s*)*%[A-Za-z0-9_$.\-]+(?::[0-9]+)?\s*=\s*)?\"?([A-Za-z_][A-Za-z0-9_$.]*)")


def legacy_op_at(text: str, offset: int) -> tuple[int, int, str] | None:
    """The old op name written at ``offset`` (the op name of its line's
    statement, bare, ``std.``-prefixed or generic ``"std.x"``):
    (start, end, name), or None. ``return``/``call``, current spellings in
    a function body, are included: the caller decides."""
    ls = text.rfind("\n", 0, offset) + 1
    m = _OP_HEAD_RE.match(text, ls)
    if m is None or not (m.start(1) <= offset <= m.end(1)):
        return None
    name = m.group(1)
    bare = name.removeprefix("std.")
    if bare in LEGACY_OPS or bare in NO_MODERN_FORM:
        return m.start(1), m.end(1), name
    return None


# ---------------------------------------------------------------- mlir-opt's words

UPGRADE_MESSAGE = (
    "this file is written in MLIR's pre-2022 syntax (before func, arith, math and memref left the std dialect), "
    "which mlir-opt 22.1.8 rejects; the code action 'Upgrade to current MLIR syntax' or `affine-lsp upgrade FILE` rewrites it"
)

_LEGACY_NOTE_CODES = ("legacy-map", "legacy-set", "legacy-func", "legacy-terminator")


def _skip_blank(text: str, i: int) -> int:
    n = len(text)
    while i < n:
        if text[i] in " \t\r\n":
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
        else:
            break
    return i


def _word_at(text: str, i: int) -> str:
    j = i
    while j < len(text) and (text[j].isalnum() or text[j] in "_$."):
        j += 1
    return text[i:j]


def _is_word_at(text: str, i: int, word: str) -> bool:
    """``_word_at(text, i) == word``, without reading on through a longer
    word (``func.func``): the check is made at every item of a document
    after every edit."""
    j = i + len(word)
    return text.startswith(word, i) and not (j < len(text) and (text[j].isalnum() or text[j] in "_$."))


def unknown_op_message(name: str, default_dialect: str) -> str:
    """mlir-opt 22.1.8's error for an unknown unprefixed op name
    (:func:`affine_lsp.syntax.default_dialect.unknown_message`)."""
    from affine_lsp.syntax.default_dialect import unknown_message

    return unknown_message(name, default_dialect)


def _constant_error(text: str, name_end: int) -> tuple[str, int, int]:
    """mlir-opt's error for ``constant VALUE`` read as ``func.constant``
    (which wants a symbol): (message, start, end)."""
    i = _skip_blank(text, name_end)
    word = _word_at(text, i) if i < len(text) and (text[i].isalnum() or text[i] == "_") else ""
    j = i
    if i < len(text) and (text[i] in "-+" or text[i].isdigit()):
        j = i + 1
        while j < len(text) and (text[j].isalnum() or text[j] in "._+-"):
            if text[j] in "+-" and text[j - 1] not in "eE":
                break
            j += 1
        lit = text[i:j]
        is_float = any(c in lit for c in ".eE") and not lit.lower().startswith(("0x", "-0x"))
        if is_float:
            k = _skip_blank(text, j)
            return "floating point value not valid for specified type", k, k + 1
        return "integer literal not valid for specified type", i, j
    if word in ("true", "false"):
        return "custom op 'func.constant' invalid kind of attribute specified", i, i + len(word)
    if word in ("dense", "sparse"):
        return "elements literal must be a shaped type", i, i + len(word)
    return "custom op 'func.constant' invalid kind of attribute specified", i, i + max(len(word), 1)


def first_error_for_name(text: str, start: int, end: int, chunk_start: int = 0) -> tuple[str, int, int] | None:
    """mlir-opt's first error when it meets the legacy op name at
    ``text[start:end]`` (a bare name or a ``std.`` one, in custom form):
    (message, start, end) in ``text`` offsets; None when mlir-opt accepts
    the name there (``return`` and ``call`` in a function body,
    ``constant @sym``)."""
    name = text[start:end]
    if name.startswith(OLD_DIALECTS):
        return f"Dialect `{name.split('.', 1)[0]}' not found for custom op '{name}' ", start, end
    from affine_lsp.syntax.default_dialect import default_dialect_at

    dialect = default_dialect_at(text, start, chunk_start)
    if dialect == "func":
        if name in FUNC_DEFAULT_OK:
            return None
        if name == "constant":
            i = _skip_blank(text, end)
            if text.startswith("@", i):
                return None
            return _constant_error(text, end)
    return unknown_op_message(name, dialect), start, end


def _legacy_map_error(text: str, span_start: int) -> int:
    """Where mlir-opt reports 'expected non-function type' in a legacy map or
    set starting at or after ``span_start`` (its `#name =`, or the map itself):
    the first token inside the dimension list, or inside the result list of
    an empty one (``() -> (0)``)."""
    i = text.find("(", span_start)
    if i < 0:
        return span_start
    j = _skip_blank(text, i + 1)
    if j < len(text) and text[j] == ")":
        k = text.find("(", j)
        if k >= 0:
            return _skip_blank(text, k + 1)
    return j


def _close(text: str, i: int) -> int | None:
    """The offset just past the bracket matching ``text[i]``."""
    pairs = {"(": ")", "[": "]"}
    stack = [pairs[text[i]]]
    j = i + 1
    while j < len(text) and stack:
        ch = text[j]
        if ch in pairs:
            stack.append(pairs[ch])
        elif ch in ")]":
            if ch != stack.pop():
                return None
        elif ch in "{};":
            return None
        j += 1
    return j if not stack else None


def legacy_map_at(text: str, pos: int) -> tuple[int, str] | None:
    """An inline affine map or integer set in the legacy syntax starting at
    ``pos`` (``(d0)[s0] -> (d0 + s0)``, ``(d0) : (d0 >= 0)``), read by the
    parser: (its end, its modern spelling ``affine_map<...>``/``affine_set<...>``)."""
    if not text.startswith("(", pos):
        return None
    j = _close(text, pos)
    if j is None:
        return None
    k = _skip_blank(text, j)
    if text.startswith("[", k):
        k2 = _close(text, k)
        if k2 is None:
            return None
        k = _skip_blank(text, k2)
    if text.startswith("->", k):
        k += 2
    elif text.startswith(":", k):
        k += 1
    else:
        return None
    k = _skip_blank(text, k)
    if not text.startswith("(", k):
        return None
    end = _close(text, k)
    if end is None:
        return None
    res = parse_chunk("#legacy_map = " + text[pos:end], Anchor(0))
    item = res.item
    if not isinstance(item, AliasDefSyn):
        return None
    if isinstance(item.value, AffineMapAttr):
        return end, item.value.map.to_attr_str()
    if isinstance(item.value, IntegerSetAttr):
        return end, item.value.set.to_attr_str()
    return None


def legacy_points(doc: Document, notes: Iterable[Note]) -> list[tuple[int, str, int, int, Note | None]]:
    """Every place of ``doc`` the parser found in the pre-2022 syntax, in text
    order: (section, mlir-opt's message, start, end, the parser's note)."""
    text = doc.text
    points: list[tuple[int, str, int, int, Note | None]] = []
    chunk_starts = sorted((c.start, c.section) for c in doc.chunks if c.kind == "item")

    def chunk_of(pos: int) -> tuple[int, int]:
        k = bisect.bisect_right(chunk_starts, (pos, 1 << 30)) - 1
        return chunk_starts[k] if k >= 0 else (0, 0)

    for n in notes:
        s = n.span.start
        cstart, sec = chunk_of(s)
        if n.code in ("legacy-map", "legacy-set"):
            at = _legacy_map_error(text, text.find("=", s))
            points.append((sec, "expected non-function type", at, at + max(len(_word_at(text, at)), 1), n))
        elif n.code == "legacy-func":
            points.append((sec, "custom op 'func' is unknown (tried 'builtin.func' as well)", s, n.span.end, n))
        elif n.code == "legacy-terminator":
            points.append((sec, "custom op 'affine.terminator' is unknown", s, n.span.end, n))
        elif n.code == "unknown-op" and text.startswith(OLD_DIALECTS, s):
            end = s + len(_word_at(text, s))
            name = text[s:end]
            if name.removeprefix("std.") in LEGACY_OPS:
                points.append((sec, f"Dialect `{name.split('.', 1)[0]}' not found for custom op '{name}' ", s, end, n))
        elif n.severity == "error" and n.code == "syntax":
            found = _found_name(text, n)
            if found is None:
                lm = _found_legacy_map(text, n)
                if lm is not None:
                    at = _legacy_map_error(text, lm)
                    points.append((sec, "expected non-function type", at, at + max(len(_word_at(text, at)), 1), n))
                continue
            fs, fe = found
            err = first_error_for_name(text, fs, fe, cstart)
            if err is not None:
                points.append((sec, err[0], err[1], err[2], n))
    # `call @f` outside a function body (the parser takes `call` anywhere).
    for sec in doc.sections:
        for c in sec.chunks:
            item = c.ir_op
            if c.kind == "item" and item is not None:
                found = _bare_call_points(text, item)
                if found:
                    base = item.span.start
                    points.extend((c.section, msg, base + s, base + e, None) for s, e, msg in found)
    # `func @f` of an item that did not parse (the parser's note is missing then).
    seen = {p[2] for p in points}
    for c in doc.chunks:
        if c.kind == "item" and _is_word_at(text, c.start, "func") and c.start not in seen:
            points.append((c.section, "custom op 'func' is unknown (tried 'builtin.func' as well)", c.start, c.start + 4, None))
    points.sort(key=lambda p: p[2])
    return points


_CALL_TAIL_RE = re.compile(r"call(?:_indirect)?(?=[ \t]+[@%])")


def _bare_calls(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """The unprefixed ``call``/``call_indirect`` op names of ``text[start:end]``
    (a substring search: a regular expression with a look-behind is ten
    times slower on a large file)."""
    i = text.find("call", start, end)
    while i >= 0:
        if i == 0 or not (text[i - 1].isalnum() or text[i - 1] in '_.$"%@'):
            m = _CALL_TAIL_RE.match(text, i)
            if m is not None:
                head = _OP_HEAD_RE.match(text, text.rfind("\n", 0, i) + 1)
                if head is not None and head.start(1) == i:
                    yield i, m.end()
        i = text.find("call", i + 4, end)


_BARE_CALLS = "legacy.bare_calls"


def _bare_call_points(text: str, item: Operation) -> tuple[tuple[int, int, str], ...]:
    """The unprefixed ``call`` ops of the top-level op ``item`` of ``text``
    outside a function body: (start, end, mlir-opt's message), offsets from
    the item's start. Kept in the item's memo: the document builds a new op
    when an item's text changes, so an edit looks at the items it changed,
    not at the whole text (``legacy_points`` runs after every edit)."""
    m = item.memo
    got = m.get(_BARE_CALLS) if m is not None and m.owner is item else None
    if got is None:
        span = item.span
        base = span.start
        found = []
        for pos, end in _bare_calls(text, base, span.end):
            op = _innermost(item, pos)
            if op.name_span.start != pos:
                continue
            parent = op.parent_op
            pname = parent.name if parent is not None else "builtin.module"
            if pname != "func.func":
                from affine_lsp.syntax.default_dialect import default_dialect_of

                dialect = default_dialect_of(pname)
                found.append((pos - base, end - base, unknown_op_message(text[pos:end], dialect)))
        got = memo_of(item)[_BARE_CALLS] = tuple(found)
    return got


def _innermost(item: Operation, pos: int) -> Operation:
    """The innermost op of ``item`` (or ``item``) whose text contains ``pos``."""
    found = item
    ops = [o for r in item.regions for b in r.blocks for o in b.operations]
    while ops:
        nxt: list[Operation] = []
        for op in ops:
            sp = op.span
            if sp.start <= pos < sp.end:
                found = op
                nxt = [o for r in op.regions for b in r.blocks for o in b.operations]
                break
        ops = nxt
    return found


def _found_name(text: str, n: Note) -> tuple[int, int] | None:
    """The legacy op name a syntax error stopped at, if any."""
    cands = [n.span.start]
    for rspan, _msg in (n.data or {}).get("related", []) or []:
        if isinstance(rspan, Span):
            cands.append(rspan.start)
    for s in cands:
        name = _word_at(text, s)
        bare = name.removeprefix("std.")
        if (bare in LEGACY_OPS or bare in NO_MODERN_FORM) and name not in GRAMMAR_BARE:
            # (a `return` the parser stops at is a broken file, not an old one)
            return s, s + len(name)
    return None


def _found_legacy_map(text: str, n: Note) -> int | None:
    """The start of an inline legacy affine map a syntax error stopped at."""
    cands = [n.span.start] + [r.start for r, _m in (n.data or {}).get("related", []) or [] if isinstance(r, Span)]
    for s in cands:
        if legacy_map_at(text, s) is not None:
            return s
    return None


def legacy_notes(doc: Document, notes: list[Note]) -> list[Note]:
    """``notes`` (the parse notes of ``doc``) as mlir-opt 22.1.8 sees a file
    in the pre-2022 syntax: in each ``// -----`` section, the first legacy
    construct is an error with mlir-opt's words at mlir-opt's place; every
    syntax error of the parser at an old op name or map gets mlir-opt's
    words for it too (mlir-opt stops at the first); and the
    document gets one information note (code ``legacy-syntax``) saying it
    can be upgraded. Documents in the current syntax are returned as they are."""
    points = legacy_points(doc, notes)
    if not points:
        return notes
    replaced: set[int] = set()
    out_extra: list[Note] = []
    sections_done: set[int] = set()
    for sec, msg, s, e, n in points:
        is_error = n is not None and n.severity == "error"
        if is_error:
            replaced.add(id(n))  # the parser's words for it give way to mlir-opt's
        if is_error or sec not in sections_done:
            out_extra.append(Note("error", msg, Span(s, max(e, s + 1)), "syntax", {"legacy": True}))
        sections_done.add(sec)
    _sec, _msg, s0, e0, _n = points[0]
    out_extra.append(Note("remark", UPGRADE_MESSAGE, Span(s0, max(e0, s0 + 1)), LEGACY_CODE))
    return [n for n in notes if id(n) not in replaced] + out_extra
