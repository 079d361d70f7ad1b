"""Helpers shared by the transforms for writing new op text.

Transforms never print a whole buffer: they write the text of a few new or
changed ops and splice it into the original with :mod:`.edits`. What they
need for that lives here:

* :class:`NameGen` -- fresh SSA names that clash with nothing in a function;
* :func:`clone_op` / :func:`print_clone` -- an op printed in its custom
  syntax with other operands, result names and result types (a detached
  shallow copy given to the IR printer: "this op, but on these values");
* :func:`op_source` / :func:`line_indent` -- an op's own text and the
  indentation of the line it starts on, to keep untouched ops verbatim;
* :func:`gap_comments` -- the comment lines written between two ops, so a
  rewritten block keeps its comments;
* :func:`apply_sequentially` -- several ops of a document rewritten one
  after the other (re-parsing incrementally in between), checked once;
* :func:`checked_in_section` -- ``edits.checked`` on the ``// -----``
  section the edits touch only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from affine_lsp.ir.affine_ops import ForView
from affine_lsp.ir.attributes import Attribute
from affine_lsp.ir.core import NO_SPAN, Operation, OpResult, Value
from affine_lsp.ir.printer import Printer
from affine_lsp.ir.types import Type
from affine_lsp.source.scratch import enrol_ir
from affine_lsp.transforms.edits import TextEdit, UnsafeTransform, apply_edits, checked, line_start, refuse_if_too_large

_SSA_NAME = re.compile(r"%[A-Za-z0-9_$.\-]+")


class NameGen:
    """Fresh SSA names (``%base``, ``%base_1``, ...) unused in a given text."""

    def __init__(self, taken: Iterable[str] = ()) -> None:
        self.taken: set[str] = set(taken)

    @staticmethod
    def from_text(text: str) -> NameGen:
        """Every ``%name`` written in ``text`` is taken (``%x#1`` takes ``%x``)."""
        return NameGen(_SSA_NAME.findall(text))

    def fresh(self, base: str) -> str:
        """A new name derived from ``base`` (with or without ``%``, ``#k``)."""
        b = base.lstrip("%").split("#", 1)[0].split(":", 1)[0]
        b = re.sub(r"[^A-Za-z0-9_$.]", "_", b) or "v"
        if b[0].isdigit():
            b = "v" + b
        cand = "%" + b
        n = 0
        while cand in self.taken:
            n += 1
            cand = f"%{b}_{n}"
        self.taken.add(cand)
        return cand


def is_unnamed(v: Value) -> bool:
    """A result written without a name (``affine.load ...`` alone on its
    line): nothing can use it, but a rewrite printing it needs one."""
    return v.name.startswith("<")


def result_base(op: Operation, default: str) -> str:
    """The name of ``op``'s results without ``%`` and ``#k`` (``default``
    when they are unnamed): the base of the names derived from them."""
    if not op.results or is_unnamed(op.results[0]):
        return default
    return op.results[0].name.split("#", 1)[0].lstrip("%")


def detached_value(name: str, type: Type | None) -> Value:
    """A value that exists only to be printed (not part of any IR)."""
    return Value(name, type, NO_SPAN)


def clone_op(
    op: Operation,
    operands: Sequence[Value] | None = None,
    result_types: Sequence[Type | None] | None = None,
    result_names: Sequence[str] | None = None,
    attributes: Mapping[str, Attribute] | None = None,
) -> Operation:
    """A detached shallow copy of ``op`` (no regions) with other operands,
    result types and result names; everything not given is ``op``'s own."""
    ops = list(op.operands if operands is None else operands)
    types = [r.type for r in op.results] if result_types is None else list(result_types)
    names = [r.name for r in op.results] if result_names is None else list(result_names)
    clone = Operation(
        op.name,
        NO_SPAN,
        NO_SPAN,
        operands=ops,
        operand_spans=[NO_SPAN] * len(ops),
        attributes=dict(op.attributes if attributes is None else attributes),
        operand_segments=op.operand_segments,
        custom=op.custom,
        known=op.known,
    )
    clone.results = [OpResult(n, t, NO_SPAN, owner=clone, index=i) for i, (n, t) in enumerate(zip(names, types))]
    enrol_ir([clone])
    return clone


def print_clone(
    op: Operation,
    operands: Sequence[Value] | None = None,
    result_types: Sequence[Type | None] | None = None,
    result_names: Sequence[str] | None = None,
    attributes: Mapping[str, Attribute] | None = None,
) -> str:
    """One line: ``op`` printed in its custom syntax on other values."""
    return Printer().print_op(clone_op(op, operands, result_types, result_names, attributes))


def result_prefix(op: Operation, names: Sequence[str] | None = None) -> str:
    """``%a = ``, ``%a, %b = ``, ``%r:2 = `` ... for ``op``'s results named
    ``names`` (default: their own names); empty when they have no names."""
    return Printer()._results(clone_op(op, result_names=names))


def line_indent(text: str, offset: int) -> str:
    """The indentation of the line containing ``offset`` (empty when
    something other than blanks precedes ``offset`` on that line)."""
    s = line_start(text, offset)
    prefix = text[s:offset]
    return prefix if not prefix.strip() else re.match(r"[ \t]*", prefix).group(0)  # type: ignore[union-attr]


def op_source(text: str, op: Operation) -> str:
    """The op's own text (all its lines, as written)."""
    return text[op.span.start : op.span.end]


def gap_comments(text: str, start: int, end: int) -> list[str]:
    """The ``//`` comment lines (stripped of their indentation) written in
    ``text[start:end]`` -- the gap between two ops."""
    out = []
    for line in text[start:end].split("\n"):
        s = line.strip()
        if s.startswith("//"):
            out.append(s)
    return out


def function_text(text: str, op: Operation) -> str:
    """The text of the function (analysis scope) containing ``op``: the
    names a rewrite of ``op`` must not clash with."""
    from affine_lsp.analysis.polyhedral import scope_of

    scope = scope_of(op)
    return text[scope.span.start : scope.span.end] if scope is not None else text


@dataclass
class LoopOutcome:
    """What a whole-document run did with one loop."""

    offset: int  # start of the loop in the original text
    line: int  # 1-based
    done: bool
    message: str
    prediction: str = ""  # the predicted effect, for the CLI remark (profitability.remark)


def op_at(doc: object, offset: int, names: Iterable[str]) -> Operation | None:
    """The op of one of ``names`` that starts at ``offset`` in ``doc``."""
    from affine_lsp.source.document import Document

    assert isinstance(doc, Document)
    wanted = set(names)
    for op in doc.section_at(offset).module.walk():
        if op.span.start == offset and op.name in wanted:
            return op
    return None


def loops_on_lines(doc: object, root: Operation | None = None, lines: Iterable[int] | None = None) -> Iterator[tuple[Operation, int]]:
    """``(op, line)`` (1-based) of every ``affine.for`` under ``root`` (the
    whole document when None), in walk order; with ``lines``, only the loops
    starting on one of them (the ``--loop LINE`` of the transform commands)."""
    from affine_lsp.source.document import Document

    assert isinstance(doc, Document)
    wanted = set(lines) if lines is not None else None
    roots = [root] if root is not None else [s.module for s in doc.sections]
    for r in roots:
        for op in r.walk():
            if op.name != "affine.for":
                continue
            line = doc.lines.line_of(op.span.start) + 1
            if wanted is None or line in wanted:
                yield op, line


def apply_sequentially(
    text: str,
    offsets: Iterable[int],
    names: Iterable[str],
    rewrite: Callable[[str, Operation], list[TextEdit] | str],
    progress: Callable[[str, dict[int, str | None]], None] | None = None,
) -> tuple[str, dict[int, str | None]]:
    """Rewrite several ops of ``text``, one after the other.

    ``offsets`` are the start offsets (in ``text``) of the ops to rewrite;
    ``rewrite(current_text, op)`` returns the edits for one op (or the reason
    it cannot be rewritten). The ops are processed from the last offset to
    the first, so every edit of one op (all at or after its start) leaves the
    offsets still to come valid; the text is re-parsed between ops. The
    result goes through :func:`~affine_lsp.transforms.edits.checked` once;
    if that fails, the ops are redone one by one, each checked, and the one
    that breaks is skipped. Returns the new text and, per offset, None (done)
    or the reason it was not.

    ``progress(text, outcomes)``: called after each op with the text so far,
    every op then checked as it is rewritten (a partial answer is valid).
    """
    from affine_lsp.source.document import Document

    order = sorted(set(offsets), reverse=True)
    names = list(names)

    def run(check: bool) -> tuple[str, dict[int, str | None]]:
        doc = Document(text)
        out: dict[int, str | None] = {}
        for off in order:
            op = op_at(doc, off, names)
            if op is None:
                out[off] = "the op could not be found again after the other rewrites"
                continue
            cur = doc.text
            got = rewrite(cur, op)
            if isinstance(got, str):
                out[off] = got
                continue
            try:
                if check:
                    checked(cur, got)
                else:
                    apply_edits(cur, got)  # validates the edits
            except (UnsafeTransform, ValueError) as err:
                out[off] = f"the rewritten code does not verify: {err}"
                continue
            for e in sorted(got, key=lambda e: (e.start, e.end), reverse=True):
                doc.apply_edit(e.start, e.end, e.new_text)
            out[off] = None
            if progress is not None:
                progress(doc.text, dict(out))
        return doc.text, out

    if progress is not None:
        return run(True)
    new, outcome = run(False)
    if new == text:
        return new, outcome
    try:
        return checked(text, [TextEdit(0, len(text), new)]), outcome
    except UnsafeTransform:
        return run(True)


def checked_in_section(doc: object, edits: Sequence[TextEdit]) -> None:
    """:func:`~affine_lsp.transforms.edits.checked` on the ``// -----``
    section the edits fall in (sections are independent modules, so the
    other sections cannot gain errors): the same answer, for a fraction of
    the work on a large file. Raises ``UnsafeTransform``."""
    from affine_lsp.source.document import Document

    assert isinstance(doc, Document)
    if not edits:
        return
    lo = min(e.start for e in edits)
    hi = max(e.end for e in edits)
    sec = doc.section_at(lo)
    if hi > sec.end or lo < sec.start:
        text, shift = doc.text, 0
    else:
        scope = _function_scope(doc, sec, lo, hi, edits)
        if scope is not None:
            text, shift = scope
        elif len(doc.sections) == 1:
            text, shift = doc.text, 0
        else:
            text, shift = doc.text[sec.start : sec.end], sec.start
    refuse_if_too_large(text)  # (in a code action: see edits.check_limit)
    checked(text, [TextEdit(e.start - shift, e.end - shift, e.new_text) for e in edits])


def function_context(doc: object, lo: int, hi: int) -> tuple[str, int]:
    """The text that work on ``doc.text[lo:hi]`` needs when it parses a
    text again (a transformation's steps, its safety net), and the shift of
    its offsets (``doc`` offset = its offset + shift): inside one top-level
    function of a section with others, that function with its environment
    (:func:`_function_scope`: the same answers); else the ``// -----``
    section; else the whole text."""
    from affine_lsp.source.document import Document

    assert isinstance(doc, Document)
    sec = doc.section_at(lo)
    if hi > sec.end or lo < sec.start:
        return doc.text, 0
    scope = _function_scope(doc, sec, lo, hi, [])
    if scope is not None:
        return scope
    if len(doc.sections) == 1:
        return doc.text, 0
    return doc.text[sec.start : sec.end], sec.start


_SYMBOL_REF = re.compile(r'@(?:[A-Za-z_$.\-][\w$.\-]*|"[^"\n]*")')
_TOP_LEVEL_VALUE = re.compile(r"\s*(%[^=]*)=")  # (the names it defines before the "=")
_VALUE_NAME = re.compile(r"%[\w$.\-]+")
_ALIAS_DEF = re.compile(r"\s*([#!][A-Za-z_0-9][\w$.\-]*)\s*=")
_ALIAS_REF = re.compile(r"#[A-Za-z_0-9][\w$.\-]*|![A-Za-z_][\w$.\-]*")


def _untyped_names(chunk: Any, lhs: str) -> set[str]:
    """The names of the untyped results a top-level value chunk defines (a
    type learnt from a use counts as untyped); every name on ``lhs`` when
    the chunk has no IR."""
    from affine_lsp.source.document import result_names

    op = chunk.ir_op
    if op is None:
        return set(_VALUE_NAME.findall(lhs))
    return result_names(op, untyped_only=True)


def _function_scope(doc: object, sec: object, lo: int, hi: int, edits: Sequence[TextEdit]) -> tuple[str, int] | None:
    """The text ``checked`` needs for edits inside one top-level
    ``func.func`` of a section with other functions: the section without the
    functions that cannot gain or lose an error by the edit, and the shift
    of the edits' offsets into it; None when the edits are not inside one
    function.

    A function's diagnostics depend only on its own text and its
    environment (aliases, module structure, the items that are not
    functions, which are all kept), except through symbols: the functions
    whose name the edited function names (before or after the edit) and
    those that name it are kept too; and through an untyped value at the
    top of a module (it learns its type from a use in any item, the edited
    function's included, see ``parallel.py``; a function is isolated from
    it, but its uses of the name are resolved): the functions that name one
    are kept (a typed one is the same for every function, whatever the
    edit). The errors of the others are the same before and after the
    edit, which ``checked`` compares: leaving them out changes no answer,
    and on a 20,000-line file saves re-parsing, verifying and analysing
    every other function twice per transformation offered."""
    from affine_lsp.source.document import Document, Section

    assert isinstance(doc, Document) and isinstance(sec, Section)
    chunks = sec.chunks
    target = next((c for c in chunks if c.kind == "item" and c.start <= lo and hi <= c.end), None)
    if target is None or target.ir_op is None or target.ir_op.name != "func.func":
        return None
    funcs = {id(c) for c in chunks if c.kind == "item" and c.ir_op is not None and c.ir_op.name == "func.func"}
    if len(funcs) < 2:
        return None
    text = doc.text
    aliases: dict[str, list[Any]] = {}
    top_values: set[str] = set()
    for c in chunks:
        if c.kind != "item" or id(c) in funcs:
            continue
        m = _ALIAS_DEF.match(c.text)
        if m is not None:
            aliases.setdefault(m.group(1), []).append(c)
            continue
        m = _TOP_LEVEL_VALUE.match(c.text)
        if m is not None:
            top_values.update(_untyped_names(c, m.group(1)))
    base = target.start
    new_target = apply_edits(target.text, [TextEdit(e.start - base, e.end - base, e.new_text) for e in edits])
    named = set(_SYMBOL_REF.findall(target.text)) | set(_SYMBOL_REF.findall(new_target))
    alias_ids = {id(c) for cs in aliases.values() for c in cs}
    # (A function's own name is among its references.)
    kept = [
        c
        for c in chunks
        if id(c) not in alias_ids
        and (id(c) not in funcs or c is target or set(_SYMBOL_REF.findall(c.text)) & named or (top_values and set(_VALUE_NAME.findall(c.text)) & top_values))
    ]
    # The aliases they name, transitively (an alias nobody names gains no error).
    refs = set().union(*(c.alias_refs for c in kept), _ALIAS_REF.findall(new_target))
    todo = [r for r in refs if r in aliases]
    while todo:
        for c in aliases.get(todo.pop(), []):
            for r in c.alias_refs - refs:
                refs.add(r)
                todo.append(r)
    kept_ids = {id(c) for c in kept} | {id(c) for r in refs for c in aliases.get(r, [])}
    out: list[str] = []
    pos = sec.start
    shift = 0
    size = 0
    for c in chunks:
        if id(c) not in kept_ids:
            gap = text[pos : c.start]
            gap = gap if gap.strip() else "\n"  # (a file of blank lines is chunked too)
            out.append(gap)
            size += len(gap)
            pos = c.end
            continue
        if c is target:
            shift = target.start - (size + c.start - pos)
        out.append(text[pos : c.end])
        size += c.end - pos
        pos = c.end
    out.append(text[pos : sec.end])
    return "".join(out), shift


def body_text(text: str, inner: Operation, new_indent: str) -> str:
    """The innermost body's ops, re-indented to ``new_indent``."""
    body = ForView(inner).body
    assert body is not None
    ops = [op for op in body.operations if not (op.name == "affine.yield" and not op.operands)]
    if not ops:
        return ""
    first = ops[0].span.start
    end = ops[-1].span.end
    old_indent = line_indent(text, first)
    after_brace = text.find("\n", inner.regions[0].span.start) + 1  # comment lines before the first op are kept
    start = after_brace if 0 < after_brace <= first and old_indent else first
    out = []
    for line in text[start:end].split("\n"):
        if line.startswith(old_indent):
            out.append(new_indent + line[len(old_indent) :])
        elif line.strip():
            out.append(new_indent + line.lstrip())
        else:
            out.append(line)
    if start == first:
        out[0] = new_indent + text[start:end].split("\n")[0]
    return "\n".join(out) + "\n"
