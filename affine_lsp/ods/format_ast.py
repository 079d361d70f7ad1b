"""The ODS declarative assembly format language (MLIR's
``mlir/docs/DefiningDialects/Operations.md``, "Declarative Assembly Format"),
parsed into a directive tree: :func:`parse_format`.

Elements: literals (`` `,` ``, `` `keyword` ``, the empty literal
`` `` ``), variables (``$name``), directives (``attr-dict``,
``attr-dict-with-keyword``, ``prop-dict``, ``operands``, ``results``,
``regions``, ``successors``, ``type(...)``, ``qualified(...)``,
``functional-type(a, b)``, ``ref(...)``, ``oilist(a | b)``,
``custom<Name>(...)``; ``params`` and ``struct(...)`` of attribute and type
formats) and optional groups ``( ... )?`` with an anchor ``^`` and an
else-group ``( ... ) : ( ... )?``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache


class FormatError(ValueError):
    """A format string that is not one of the format language."""


@dataclass(frozen=True, slots=True)
class Literal:
    text: str  # "" for the empty literal

    @property
    def is_keyword(self) -> bool:
        return bool(_KEYWORD.fullmatch(self.text))


@dataclass(frozen=True, slots=True)
class StringArg:
    """A C++ string argument of a ``custom<...>`` directive (``"false"``)."""

    text: str


@dataclass(frozen=True, slots=True)
class Var:
    name: str


@dataclass(frozen=True, slots=True)
class Directive:
    """``attr-dict``, ``operands``, ``type(x)``, ``functional-type(a, b)``,
    ``qualified(x)``, ``ref(x)``, ``struct(...)``, ``params``, ...: ``name``
    and its arguments."""

    name: str
    args: tuple[Element, ...] = ()


@dataclass(frozen=True, slots=True)
class Custom:
    name: str
    args: tuple[Element, ...] = ()


@dataclass(frozen=True, slots=True)
class OIList:
    clauses: tuple[tuple[Element, ...], ...]


@dataclass(frozen=True, slots=True)
class Optional:
    """``( then )?`` or ``( then ) : ( else_ )?``; ``anchor``: the index in
    ``then`` of the element marked ``^`` (None when none is)."""

    then: tuple[Element, ...]
    else_: tuple[Element, ...] = ()
    anchor: int | None = None


Element = Literal | StringArg | Var | Directive | Custom | OIList | Optional


@dataclass(slots=True)
class Format:
    elements: tuple[Element, ...]
    text: str = field(default="")


_KEYWORD = re.compile(r"[A-Za-z_][\w$.-]*")
_TOKEN = re.compile(
    r"\s*(?:(?P<lit>`[^`]*`)|(?P<str>\"[^\"]*\")|(?P<var>\$[A-Za-z_]\w*)|(?P<id>[A-Za-z_][\w-]*)|(?P<p>[()?^:,|<>]))",
    re.ASCII,
)
_ARGUMENT_DIRECTIVES = frozenset({"type", "qualified", "functional-type", "ref", "struct"})
_BARE_DIRECTIVES = frozenset({"attr-dict", "attr-dict-with-keyword", "prop-dict", "operands", "results", "regions", "successors", "params"})


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    pos = 0
    n = len(text)
    while pos < n:
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if m is None:
            raise FormatError(f"unexpected character {text[pos:].lstrip()[:1]!r} at {pos}")
        kind = m.lastgroup or ""
        out.append((kind, m.group(kind), m.start(kind)))
        pos = m.end()
    return out


class _Reader:
    def __init__(self, text: str) -> None:
        self.toks = _tokens(text)
        self.i = 0

    def peek(self, k: int = 0) -> tuple[str, str, int] | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def take(self) -> tuple[str, str, int]:
        t = self.peek()
        if t is None:
            raise FormatError("unexpected end of format")
        self.i += 1
        return t

    def expect(self, value: str) -> None:
        t = self.take()
        if t[1] != value:
            raise FormatError(f"expected '{value}' at {t[2]}, found '{t[1]}'")

    def at(self, value: str) -> bool:
        t = self.peek()
        return t is not None and t[0] in ("p", "id") and t[1] == value

    def elements(self, stop: frozenset[str]) -> tuple[list[Element], int | None]:
        """Elements up to one of ``stop`` (not taken); the index of the one
        marked ``^``."""
        out: list[Element] = []
        anchor: int | None = None
        while True:
            t = self.peek()
            if t is None or (t[0] == "p" and t[1] in stop):
                return out, anchor
            out.append(self.element())
            if self.at("^"):
                self.take()
                if anchor is not None:
                    raise FormatError("only one anchor per optional group")
                anchor = len(out) - 1

    def arguments(self) -> tuple[Element, ...]:
        self.expect("(")
        args: list[Element] = []
        if self.at(")"):
            self.take()
            return ()
        while True:
            args.append(self.element())
            if self.at(","):
                self.take()
                continue
            self.expect(")")
            return tuple(args)

    def element(self) -> Element:
        kind, value, pos = self.take()
        if kind == "lit":
            return Literal(value[1:-1])
        if kind == "var":
            return Var(value[1:])
        if kind == "str":
            return StringArg(value[1:-1])
        if kind == "id":
            if value == "custom":
                self.expect("<")
                _k, name, _p = self.take()
                self.expect(">")
                return Custom(name, self.arguments())
            if value == "oilist":
                self.expect("(")
                clauses: list[tuple[Element, ...]] = []
                while True:
                    els, _a = self.elements(frozenset({"|", ")"}))
                    clauses.append(tuple(els))
                    if self.at("|"):
                        self.take()
                        continue
                    self.expect(")")
                    return OIList(tuple(clauses))
            if value in _ARGUMENT_DIRECTIVES:
                return Directive(value, self.arguments())
            if value in _BARE_DIRECTIVES:
                return Directive(value)
            raise FormatError(f"unknown directive '{value}' at {pos}")
        if kind == "p" and value == "(":
            then, anchor = self.elements(frozenset({")"}))
            self.expect(")")
            else_: list[Element] = []
            if self.at(":"):
                self.take()
                self.expect("(")
                else_, _a = self.elements(frozenset({")"}))
                self.expect(")")
            self.expect("?")
            if not then:
                raise FormatError(f"empty optional group at {pos}")
            return Optional(tuple(then), tuple(else_), anchor)
        raise FormatError(f"unexpected '{value}' at {pos}")


@lru_cache(maxsize=4096)
def parse_format(text: str) -> Format:
    """The directive tree of one format string (cached: formats are few)."""
    r = _Reader(text)
    els, anchor = r.elements(frozenset())
    if anchor is not None:
        raise FormatError("an anchor outside an optional group")
    if r.peek() is not None:
        raise FormatError(f"unexpected '{r.peek()[1]}'")  # type: ignore[index]
    return Format(tuple(els), text)


def walk(elements: tuple[Element, ...]):
    """Every element, nested ones included (groups, oilist clauses,
    directive arguments)."""
    for e in elements:
        yield e
        if isinstance(e, Optional):
            yield from walk(e.then)
            yield from walk(e.else_)
        elif isinstance(e, OIList):
            for c in e.clauses:
                yield from walk(c)
        elif isinstance(e, Directive | Custom):
            yield from walk(e.args)
