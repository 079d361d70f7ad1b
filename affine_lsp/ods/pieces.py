"""Types and attributes inside an op parsed from its ODS format, by the
front end's own grammar: the piece is parsed as part of a generic op
(``"w.w"() {a = PIECE} : () -> ()``) with :func:`affine_lsp.syntax.parser.parse_chunk`,
and the spans of what it builds are moved back to where the piece is written.
Only ops the hand-written grammars do not know come here (a cold path)."""

from __future__ import annotations

import contextlib
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from affine_lsp.ir.attributes import Attribute
from affine_lsp.ir.core import Anchor, Span
from affine_lsp.ir.types import FunctionType, Type

if TYPE_CHECKING:
    from affine_lsp.ods.interpreter import Mismatch

_TYPES = '"w.w"() : () -> ('
_ATTR = '"w.w"() {a = '
_DICT = '"w.w"() '
_FUNCTION = '"w.w"() : '


def _rebase(x: Any, temp: Anchor, anchor: Anchor, delta: int, lo: int, hi: int, seen: set[int]) -> Any:
    """``x`` with every span of ``temp`` moved by ``delta`` onto ``anchor``
    (clipped to ``[lo, hi]``), in place for the objects the parse built."""
    if isinstance(x, Span):
        if x.anchor is temp:
            return Span(min(max(x.rel_start + delta, lo), hi), min(max(x.rel_end + delta, lo), hi), anchor)
        return x
    if isinstance(x, str | int | float | bool) or x is None or id(x) in seen:
        return x
    seen.add(id(x))
    if isinstance(x, list):
        for i, y in enumerate(x):
            x[i] = _rebase(y, temp, anchor, delta, lo, hi, seen)
        return x
    if isinstance(x, tuple):
        return type(x)(_rebase(y, temp, anchor, delta, lo, hi, seen) for y in x) if not hasattr(x, "_fields") else x
    if isinstance(x, dict):
        for k in list(x):
            x[k] = _rebase(x[k], temp, anchor, delta, lo, hi, seen)
        return x
    for cls in type(x).__mro__:
        for slot in getattr(cls, "__slots__", ()):
            if slot.startswith("__"):
                continue
            try:
                v = getattr(x, slot)
            except AttributeError:
                continue
            nv = _rebase(v, temp, anchor, delta, lo, hi, seen)
            if nv is not v:
                with contextlib.suppress(AttributeError):
                    setattr(x, slot, nv)
    d = getattr(x, "__dict__", None)
    if isinstance(d, dict):
        _rebase(d, temp, anchor, delta, lo, hi, seen)
    return x


def _parse(text: str, at: int, delta: int, written_len: int, anchor: Anchor) -> Any:
    """The generic op of ``text`` (spans moved by ``delta``), or a Mismatch."""
    from affine_lsp.ods.interpreter import Mismatch
    from affine_lsp.syntax.parser import parse_chunk

    temp = Anchor(0)
    r = parse_chunk(text, temp)
    lo, hi = at, at + written_len
    err = next((n for n in r.notes if n.severity == "error"), None)
    if r.item is None or err is not None:
        if err is None:
            return Mismatch("expected type", at)
        return Mismatch(err.message, min(max(err.span.rel_start + delta, lo), hi))
    return _rebase(r.item, temp, anchor, delta, lo, hi, set())


def parse_types(written: str, at: int, anchor: Anchor, prefix: str = "") -> list[Type] | Mismatch:
    """The type (or ``,``-separated types) written at ``at``; ``prefix``
    (``!ns.``) before a dialect type written stripped. A function type
    (``(f32) -> f32``, which the grammar takes only as an op's type) is read
    as the type of a generic op."""
    if written.startswith("(") and not prefix:
        got = _parse(_FUNCTION + written, at, at - len(_FUNCTION), len(written), anchor)
        if not hasattr(got, "result_types"):
            return got
        return [FunctionType(got.operand_types or [], got.result_types or [])]
    text = _TYPES + prefix + written + ")"
    got = _parse(text, at, at - len(_TYPES) - len(prefix), len(written), anchor)
    if not hasattr(got, "result_types"):
        return got
    return list(got.result_types or [])


def parse_attr(written: str, at: int, anchor: Anchor, prefix: str = "", shift: int = 0) -> Attribute | Mismatch:
    text = _ATTR + prefix + written + "} : () -> ()"
    got = _parse(text, at, at - len(_ATTR) - len(prefix) - shift, len(written) - shift, anchor)
    if not hasattr(got, "attrs"):
        return got
    return got.attrs["a"]


def parse_dict(written: str, at: int, anchor: Anchor, props: bool = False) -> dict[str, Attribute] | Mismatch:
    text = _DICT + written + " : () -> ()"
    got = _parse(text, at, at - len(_DICT), len(written), anchor)
    if not hasattr(got, "attrs"):
        return got
    return dict(got.attrs)


@lru_cache(maxsize=64)
def builtin_type(spelling: str) -> Type:
    """A buildable type (``i1``, ``index``), shared: it has no span."""
    got = parse_types(spelling, 0, Anchor(0))
    assert isinstance(got, list) and got, spelling
    t = got[0]
    t.span = None
    return t
