"""Parsing an op's custom form from its ODS declarative format:
:func:`parse_op`.

A small recursive-descent parser over the op's tokens, driven by the
directive tree (:mod:`.format_ast`), as MLIR's generated parsers are: it
fills the :class:`~affine_lsp.syntax.nodes.OpSyn` the grammar's reduce
actions would (operands with names and spans, operand and result types,
attributes, regions, successors). Types and attributes inside are parsed by
the front end's own grammar (:mod:`.pieces`); regions come already parsed
(the grammar parsed the op's text as a soup: its regions are given).

The outcome is ``Parsed`` (the op filled in), ``Mismatch`` (the text does
not follow the format: an error in mlir-opt's words) or ``Unsupported`` (a
``custom<...>`` directive the interpreter does not know: the caller skips
the op as before, with a remark naming it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from affine_lsp.ir import op_registry
from affine_lsp.ir.attributes import Attribute, StringAttr, SymbolRefAttr, UnitAttr
from affine_lsp.ir.core import Anchor, Span
from affine_lsp.ir.types import ComplexType, ShapedType, Type
from affine_lsp.ods import pieces
from affine_lsp.ods.format_ast import Custom, Directive, Element, Literal, OIList, Optional, StringArg, Var
from affine_lsp.ods.formats import OpFormat
from affine_lsp.syntax.nodes import OpSyn, RegionSyn, SuccSyn

_TOKEN = re.compile(
    r"""(?P<ws>(?:\s+|//[^\n]*)+)
    |(?P<ssa>%[\w$.-]+(?:\#\d+)?)
    |(?P<caret>\^[\w$.-]+)
    |(?P<at>@(?:[\w$.-]+|"(?:[^"\\]|\\.)*"))
    |(?P<hash>\#[\w$.-]+)
    |(?P<bang>![\w$.-]+)
    |(?P<str>"(?:[^"\\\n]|\\.)*")
    |(?P<num>-?0x[0-9a-fA-F]+|-?\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)
    |(?P<id>[A-Za-z_][\w$.-]*)
    |(?P<p>->|::|\.\.\.|[^\s])""",
    re.X | re.ASCII,
)

_BUILTIN_TYPE = re.compile(r"(?:[su]?i\d+|f\d+\w*|bf16|tf32|index|none|tensor|memref|vector|complex|tuple|f8E\w+|f4E\w+|f6E\w+)$", re.ASCII)
_OPEN = {"(": ")", "[": "]", "{": "}", "<": ">"}


@dataclass(slots=True)
class Tok:
    kind: str
    text: str
    start: int
    end: int


def tokenize(text: str, start: int, end: int) -> list[Tok]:
    out: list[Tok] = []
    pos = start
    while pos < end:
        m = _TOKEN.match(text, pos, end)
        if m is None:  # pragma: no cover - the last alternative matches any character
            break
        kind = m.lastgroup or "p"
        if kind != "ws":
            out.append(Tok(kind, m.group(), m.start(), m.end()))
        pos = m.end()
    return out


class Mismatch(Exception):
    def __init__(self, message: str, at: int) -> None:
        super().__init__(message)
        self.message = message
        self.at = at


class Unsupported(Exception):
    def __init__(self, directive: str) -> None:
        super().__init__(directive)
        self.directive = directive


_SYMBOL_CONSTRAINTS = frozenset({"FlatSymbolRefAttr", "SymbolRefAttr"})


@cache
def _symbol_attrs(op_name: str) -> frozenset[str]:
    """The attributes of ``op_name`` whose ODS constraint is a symbol
    reference (``func.constant``'s ``value``): a literal there is no such
    attribute (``invalid kind of attribute specified``)."""
    info = op_registry.lookup(op_name)
    if info is None:
        return frozenset()
    return frozenset(a.name for a in info.attributes if a.kind in _SYMBOL_CONSTRAINTS)


op_registry.on_change(_symbol_attrs.cache_clear)


class _State:
    def __init__(self, fmt: OpFormat, text: str, toks: list[Tok], end: int, anchor: Anchor, regions: list[RegionSyn]) -> None:
        self.fmt = fmt
        self.text = text
        self.toks = toks
        self.i = 0
        self.end = end
        self.anchor = anchor
        self.given_regions = {r.span.rel_start: r for r in regions}
        self.operand_kinds = {o[0]: o for o in fmt.operands}
        self.result_kinds = {r[0]: r for r in fmt.results}
        self.attr_kinds = {a[0]: a for a in fmt.attrs}
        self.region_kinds = {g[0]: g for g in fmt.regions}
        self.succ_kinds = {s[0]: s for s in fmt.successors}
        self.operands: dict[str, list[tuple[str, Span]]] = {}
        self.all_operands: list[tuple[str, Span]] | None = None
        self.types: dict[str, list[Type | None]] = {}
        self.all_operand_types: list[Type | None] | None = None
        self.all_result_types: list[Type | None] | None = None
        self.attrs: dict[str, Attribute] = {}
        self.regions: dict[str, list[RegionSyn]] = {}
        self.all_regions: list[RegionSyn] | None = None
        self.succs: dict[str, list[SuccSyn]] = {}
        self.all_succs: list[SuccSyn] | None = None
        self.type_spans: list[Span] = []

    # ------------------------------------------------------------ tokens
    def peek(self, k: int = 0) -> Tok | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def at(self, text: str) -> bool:
        t = self.peek()
        return t is not None and t.text == text and t.kind in ("p", "id")

    def here(self) -> int:
        t = self.peek()
        return t.start if t is not None else self.end

    def fail(self, message: str) -> Mismatch:
        """An error at the end of the token before (as MLIR's
        ``emitWrongTokenError`` places an "expected ..." error)."""
        return Mismatch(message, self.toks[self.i - 1].end if 0 < self.i <= len(self.toks) else self.here())

    def expect(self, text: str) -> Tok:
        if not self.at(text):
            raise self.fail(f"expected '{text}'")
        t = self.toks[self.i]
        self.i += 1
        return t

    def span(self, a: int, b: int) -> Span:
        return Span(a, b, self.anchor)

    def balanced_end(self, j: int) -> int:
        """The index past the bracket group opened at token ``j``."""
        depth: list[str] = []
        while j < len(self.toks):
            t = self.toks[j].text if self.toks[j].kind == "p" else ""
            if t in _OPEN:
                depth.append(_OPEN[t])
            elif depth and t == depth[-1]:
                depth.pop()
                if not depth:
                    return j + 1
            elif t in (")", "]", "}") and depth:
                raise self.fail(f"expected '{depth[-1]}'")
            j += 1
        raise Mismatch("unbalanced brackets", self.end)

    def _then_angle(self, j: int) -> int:
        """Past a `<...>` written right after token ``j - 1`` (no space)."""
        if j < len(self.toks) and self.toks[j].text == "<" and self.toks[j].start == self.toks[j - 1].end:
            return self.balanced_end(j)
        return j

    # ------------------------------------------------------------ extents
    def type_extent(self) -> int:
        j = self.i
        t = self.peek()
        if t is None:
            raise self.fail("expected type")
        if t.text == "(" and t.kind == "p":
            j = self.balanced_end(j)
            if j < len(self.toks) and self.toks[j].text == "->":
                save = self.i
                self.i = j + 1
                j = self.type_extent()
                self.i = save
            return j
        if t.kind in ("id", "bang"):
            return self._then_angle(j + 1)
        if t.kind == "p" and t.text == "<":
            return self.balanced_end(j)
        raise self.fail("expected type")

    def attr_extent(self, typed_literal: bool = True) -> int:
        j = self.i
        t = self.peek()
        if t is None:
            raise self.fail("expected attribute value")
        if t.kind == "p" and t.text in ("[", "{", "<"):
            j = self.balanced_end(j)
        elif t.kind in ("hash", "at", "str", "num"):
            j = self._then_angle(j + 1)
            while t.kind == "at" and j + 1 < len(self.toks) and self.toks[j].text == "::" and self.toks[j + 1].kind == "at":
                j += 2
        elif t.kind in ("id", "bang") or (t.kind == "p" and t.text == "("):
            if t.kind == "id" and not _BUILTIN_TYPE.match(t.text):
                j = self._then_angle(j + 1)
            else:
                return self.type_extent()
        else:
            raise self.fail("expected attribute value")
        # `1 : i32`, `dense<...> : tensor<...>`: the type of a literal.
        literal = t.kind in ("num", "str") or t.text in ("dense", "sparse", "dense_resource")
        if typed_literal and literal and j < len(self.toks) and self.toks[j].text == ":":
            save = self.i
            self.i = j + 1
            j = self.type_extent()
            self.i = save
        return j

    def piece_text(self, j: int) -> tuple[int, int]:
        return self.toks[self.i].start, self.toks[j - 1].end

    # ------------------------------------------------------------ pieces
    def parse_type(self, prefix: str = "") -> Type:
        j = self.type_extent()
        a, b = self.piece_text(j)
        written = self.text[a:b]
        stripped = bool(prefix) and not written.startswith(("!", "(")) and not _BUILTIN_TYPE.match(self.toks[self.i].text)
        got = pieces.parse_types(written, a, self.anchor, prefix if stripped else "")
        if isinstance(got, Mismatch):
            raise got
        self.type_spans.append(self.span(a, b))
        self.i = j
        return got[0]

    def parse_type_list(self, prefix: str = "") -> list[Type | None]:
        out: list[Type | None] = [self.parse_type(prefix)]
        while self.at(","):
            self.i += 1
            out.append(self.parse_type(prefix))
        return out

    def parse_attr(self, kind: str) -> Attribute:
        t = self.peek()
        if t is None:
            raise self.fail("expected attribute value")
        if kind == "kw":
            if t.kind not in ("id", "str"):
                raise self.fail("expected keyword")  # ODS enum parsers: "expected ... to be one of: ..."
            self.i += 1
            return StringAttr(t.text.strip('"'), t.text, self.span(t.start, t.end))
        if kind == "kw<>":
            self.expect("<")
            k = self.peek()
            if k is None or k.kind != "id":
                raise self.fail("expected keyword")
            self.i += 1
            close = self.expect(">")
            return StringAttr(k.text, k.text, self.span(t.start, close.end))
        if kind == "type":
            ty = self.parse_type()
            from affine_lsp.ir.attributes import TypeAttr

            return TypeAttr(ty, ty.span if isinstance(ty.span, Span) else self.span(t.start, t.end))
        if kind.startswith("da:"):
            j = self.balanced_end(self.i) if t.text == "[" else -1
            if j < 0:
                raise self.fail("expected '['")
            a, b = self.piece_text(j)
            got = pieces.parse_attr(f"array<{kind[3:]}: " + self.text[a + 1 : b - 1] + ">", a, self.anchor, shift=len(f"array<{kind[3:]}: ") - 1)
            if isinstance(got, Mismatch):
                raise got
            self.i = j
            return got
        if kind == "symname":
            if t.kind != "at":
                raise self.fail("expected valid '@'-identifier for symbol name")
            self.i += 1
            return StringAttr(t.text[1:].strip('"'), t.text[1:], self.span(t.start, t.end))
        fixed = kind.startswith("attrv")
        j = self.attr_extent(typed_literal=not fixed)
        a, b = self.piece_text(j)
        written = self.text[a:b]
        prefix = kind if kind.startswith("#") and not written.startswith("#") else ""
        # A literal of a fixed type (`attrv:index`: `index.constant 0`) is
        # that type's, not the default i64.
        suffix = f" : {kind[6:]}" if fixed and kind[6:] and written[:1] in "-0123456789" else ""
        got = pieces.parse_attr(written + suffix, a, self.anchor, prefix=prefix)
        if isinstance(got, Mismatch):
            raise got
        self.i = j
        return got

    def parse_dict(self, keyword: str, opener: str) -> None:
        if keyword:
            if not self.at(keyword):
                return
            self.i += 1
        t = self.peek()
        if t is None or t.text != opener[0] or (opener == "<{" and (self.peek(1) is None or self.peek(1).text != "{")):  # type: ignore[union-attr]
            if keyword:
                raise self.fail("expected '{'")
            return
        j = self.balanced_end(self.i)
        if opener == "<{":
            if self.toks[j - 1].text != ">":
                raise self.fail("expected '>'")
        a, b = self.piece_text(j)
        got = pieces.parse_dict(self.text[a:b], a, self.anchor, props=opener == "<{")
        if isinstance(got, Mismatch):
            raise got
        self.attrs.update(got)
        self.i = j

    def parse_operand(self) -> tuple[str, Span]:
        t = self.peek()
        if t is None or t.kind != "ssa":
            raise self.fail("expected SSA operand")
        self.i += 1
        return (t.text, self.span(t.start, t.end))

    def parse_operand_list(self) -> list[tuple[str, Span]]:
        out: list[tuple[str, Span]] = []
        t = self.peek()
        if t is None or t.kind != "ssa":
            return out
        out.append(self.parse_operand())
        while self.at(",") and self.peek(1) is not None and self.peek(1).kind == "ssa":  # type: ignore[union-attr]
            self.i += 1
            out.append(self.parse_operand())
        return out

    def parse_region(self) -> RegionSyn:
        t = self.peek()
        if t is None or t.text != "{":
            raise self.fail("expected '{' to begin a region")
        r = self.given_regions.get(t.start)
        if r is None:
            raise self.fail("expected '{' to begin a region")
        while self.i < len(self.toks) and self.toks[self.i].start < r.span.rel_end:
            self.i += 1
        return r

    def parse_successor(self) -> SuccSyn:
        t = self.peek()
        if t is None or t.kind != "caret":
            raise self.fail("expected block name")
        self.i += 1
        return SuccSyn(t.text, self.span(t.start, t.end))

    # ------------------------------------------------------------ elements
    def run(self, elements: tuple[Element, ...]) -> None:
        for e in elements:
            self.element(e)

    def element(self, e: Element) -> None:
        if isinstance(e, Literal):
            if e.text and e.text != " " and e.text != "\\n":
                self.expect(e.text)
        elif isinstance(e, Var):
            self.variable(e.name)
        elif isinstance(e, Optional):
            if self.group_present(e):
                self.run(e.then)
                if e.anchor is not None:
                    a = e.then[e.anchor]
                    if isinstance(a, Var) and self.attr_kinds.get(a.name, ("", ""))[1] == "unit":
                        self.attrs[a.name] = UnitAttr(self.span(self.here(), self.here()))
                for x in e.then:  # a unit attribute anywhere in a present group
                    if isinstance(x, Var) and self.attr_kinds.get(x.name, ("", ""))[1] == "unit" and x.name not in self.attrs:
                        self.attrs[x.name] = UnitAttr(self.span(self.here(), self.here()))
            else:
                self.run(e.else_)
        elif isinstance(e, OIList):
            done: set[int] = set()
            while True:
                for k, clause in enumerate(e.clauses):
                    if k not in done and clause and isinstance(clause[0], Literal) and self.at(clause[0].text):
                        done.add(k)
                        self.run(clause)
                        for x in clause:
                            if isinstance(x, Var) and self.attr_kinds.get(x.name, ("", ""))[1] == "unit":
                                self.attrs[x.name] = UnitAttr(self.span(self.here(), self.here()))
                        break
                else:
                    return
        elif isinstance(e, Custom):
            raise Unsupported(e.name)
        elif isinstance(e, StringArg):
            return
        else:
            self.directive(e)

    def variable(self, name: str) -> None:
        if name in self.operand_kinds:
            kind = self.operand_kinds[name][1]
            if kind == "1":
                self.operands[name] = [self.parse_operand()]
            elif kind == "?":
                t = self.peek()
                self.operands[name] = [self.parse_operand()] if t is not None and t.kind == "ssa" else []
            else:
                self.operands[name] = self.parse_operand_list()
        elif name in self.attr_kinds:
            kind = self.attr_kinds[name][1]
            if kind != "unit":
                t = self.peek()
                self.attrs[name] = got = self.parse_attr(kind)
                if name in _symbol_attrs(self.fmt.name) and not isinstance(got, SymbolRefAttr):
                    raise Mismatch("invalid kind of attribute specified", t.start if t is not None else self.here())
        elif name in self.region_kinds:
            if self.region_kinds[name][1]:
                rs: list[RegionSyn] = []
                t = self.peek()
                if t is not None and t.text == "{":
                    rs.append(self.parse_region())
                    while self.at(",") and self.peek(1) is not None and self.peek(1).text == "{":  # type: ignore[union-attr]
                        self.i += 1
                        rs.append(self.parse_region())
                self.regions[name] = rs
            else:
                self.regions[name] = [self.parse_region()]
        elif name in self.succ_kinds:
            if self.succ_kinds[name][1]:
                ss: list[SuccSyn] = []
                t = self.peek()
                if t is not None and t.kind == "caret":
                    ss.append(self.parse_successor())
                    while self.at(","):
                        self.i += 1
                        ss.append(self.parse_successor())
                self.succs[name] = ss
            else:
                self.succs[name] = [self.parse_successor()]
        elif name in self.result_kinds:
            return  # only inside type(...) and functional-type(...)
        else:
            raise Unsupported(f"${name}")

    def type_of(self, arg: Element) -> None:
        if isinstance(arg, Directive) and arg.name == "qualified":
            self.type_of(arg.args[0])
            return
        if isinstance(arg, Directive) and arg.name in ("operands", "results"):
            t = self.peek()
            ts = self.parse_type_list() if t is not None and self._starts_type(t) else []
            if arg.name == "operands":
                self.all_operand_types = ts
            else:
                self.all_result_types = ts
            return
        if not isinstance(arg, Var):
            raise Unsupported(f"type({arg})")
        kinds = self.operand_kinds.get(arg.name) or self.result_kinds.get(arg.name)
        if kinds is None:
            raise Unsupported(f"type(${arg.name})")
        kind, prefix = kinds[1], kinds[3]
        if kind == "1":
            self.types[arg.name] = [self.parse_type(prefix)]
        else:
            t = self.peek()
            if t is not None and self._starts_type(t):
                self.types[arg.name] = [self.parse_type(prefix)] if kind == "?" else self.parse_type_list(prefix)
            else:
                self.types[arg.name] = []

    def _starts_type(self, t: Tok) -> bool:
        return t.kind in ("bang",) or (t.kind == "id" and (bool(_BUILTIN_TYPE.match(t.text)) or True)) or (t.kind == "p" and t.text == "(")

    def functional(self, arg: Element, is_result: bool) -> None:
        """One side of ``functional-type(a, b)``, the inner types."""
        types: list[Type | None]
        if is_result:
            if self.at("("):
                self.i += 1
                types = [] if self.at(")") else self.parse_type_list()
                self.expect(")")
            else:
                types = [self.parse_type()]
        else:
            self.expect("(")
            types = [] if self.at(")") else self.parse_type_list()
            self.expect(")")
        if isinstance(arg, Directive) and arg.name == "operands":
            self.all_operand_types = types
        elif isinstance(arg, Directive) and arg.name == "results":
            self.all_result_types = types
        elif isinstance(arg, Var):
            self.types[arg.name] = types
        else:
            raise Unsupported(f"functional-type({arg})")

    def directive(self, d: Directive) -> None:
        n = d.name
        if n == "attr-dict":
            self.parse_dict("", "{")
        elif n == "attr-dict-with-keyword":
            self.parse_dict("attributes", "{")
        elif n == "prop-dict":
            self.parse_dict("", "<{")
        elif n == "type":
            self.type_of(d.args[0])
        elif n == "qualified":
            self.element(d.args[0])
        elif n == "functional-type":
            self.functional(d.args[0], False)
            self.expect("->")
            self.functional(d.args[1], True)
        elif n == "operands":
            self.all_operands = self.parse_operand_list()
        elif n == "results" or n == "ref":
            return
        elif n == "regions":
            rs: list[RegionSyn] = []
            t = self.peek()
            if t is not None and t.text == "{":
                rs.append(self.parse_region())
                while self.at(",") and self.peek(1) is not None and self.peek(1).text == "{":  # type: ignore[union-attr]
                    self.i += 1
                    rs.append(self.parse_region())
            self.all_regions = rs
        elif n == "successors":
            ss: list[SuccSyn] = []
            t = self.peek()
            if t is not None and t.kind == "caret":
                ss.append(self.parse_successor())
                while self.at(","):
                    self.i += 1
                    ss.append(self.parse_successor())
            self.all_succs = ss
        else:
            raise Unsupported(n)

    def group_present(self, g: Optional) -> bool:
        first = g.then[0]
        while isinstance(first, Literal) and first.text in ("", " ", "\\n") and len(g.then) > 1:
            first = g.then[g.then.index(first) + 1]
        t = self.peek()
        if t is None:
            return False
        if isinstance(first, Literal):
            return t.text == first.text and t.kind in ("p", "id")
        if isinstance(first, Directive) and first.name in ("type", "qualified"):
            return self._starts_type(t) and not (t.kind == "id" and not _BUILTIN_TYPE.match(t.text) and t.text not in ("",))
        if isinstance(first, Directive) and first.name in ("operands",):
            return t.kind == "ssa"
        if isinstance(first, Directive) and first.name == "regions":
            return t.text == "{"
        if isinstance(first, Directive) and first.name == "successors":
            return t.kind == "caret"
        if isinstance(first, Directive) and first.name == "functional-type":
            return t.text == "("
        if isinstance(first, Var):
            n = first.name
            if n in self.operand_kinds:
                return t.kind == "ssa"
            if n in self.region_kinds:
                return t.text == "{"
            if n in self.succ_kinds:
                return t.kind == "caret"
            if n in self.attr_kinds:
                kind = self.attr_kinds[n][1]
                if kind == "kw":
                    return t.kind in ("id", "str")
                if kind == "kw<>":
                    return t.text == "<"
                if kind.startswith("da:"):
                    return t.text == "["
                if kind == "symname":
                    return t.kind == "at"
                return t.kind in ("hash", "at", "str", "num", "id", "bang") or t.text in ("[", "{", "(", "<")
        if isinstance(first, Custom):
            raise Unsupported(first.name)
        return False


def _transform(t: Type | None, transformer: str) -> Type | None:
    if t is None:
        return None
    tr = transformer.replace(" ", "")
    if tr == "$_self":
        return t
    if tr.endswith(".getElementType()") and "$_self" in tr and isinstance(t, ShapedType | ComplexType):
        return t.element
    return None


def _infer(st: _State, fmt: OpFormat) -> None:
    """The types the format does not spell, from the op's type rules and
    buildable types (as the generated parser infers them)."""
    groups = [g for g in fmt.operands] + [r for r in fmt.results]
    for name, kind, buildable, _p in groups:
        if name not in st.types and buildable:
            if kind == "1":
                st.types[name] = [pieces.builtin_type(buildable)]
            elif name in st.operands:
                st.types[name] = [pieces.builtin_type(buildable)] * len(st.operands[name])

    def single(name: str) -> Type | None:
        ts = st.types.get(name)
        if ts and len(ts) == 1:
            return ts[0]
        a = st.attrs.get(name)
        return getattr(a, "type", None) if a is not None else None

    for _round in range(2):
        for rule in fmt.rules:
            kind = rule[0]
            if kind in ("same", "sameops"):
                names = [o[0] for o in fmt.operands if o[1] == "1"] + ([r[0] for r in fmt.results if r[1] == "1"] if kind == "same" else [])
                known = next((single(n) for n in names if single(n) is not None), None)
                if known is not None:
                    for n in names:
                        st.types.setdefault(n, [known])
                    if kind == "same":
                        for o in fmt.operands:  # variadic operands of one type
                            if o[1] != "1" and o[0] not in st.types:
                                st.types[o[0]] = [known] * len(st.operands.get(o[0], []))
            elif kind == "all":
                names = list(rule[1])
                known = next((single(n) for n in names if single(n) is not None), None)
                if known is not None:
                    for n in names:
                        if n in st.operand_kinds or n in st.result_kinds:
                            st.types.setdefault(n, [known])
            elif kind == "with":
                src, dst, tr = rule[1], rule[2], str(rule[3] or "")
                if dst not in st.types and (dst in st.operand_kinds or dst in st.result_kinds):
                    t = _transform(single(src), tr)
                    if t is not None:
                        st.types[dst] = [t]
            elif kind == "firstattr":
                first = next((a[0] for a in fmt.attrs if a[0] in st.attrs), None)
                t = getattr(st.attrs.get(first or ""), "type", None)
                if t is not None:
                    for r in fmt.results:
                        st.types.setdefault(r[0], [t])


def _split_operands(st: _State, fmt: OpFormat) -> None:
    """The ``operands`` directive's values, given to the op's operand groups
    when their sizes follow from the count (every group single, or one
    variadic or optional group): so that ``type($x)`` and
    ``functional-type($ins, ...)`` find the operands of their group."""
    n = len(st.all_operands or [])
    kinds = [o[1] for o in fmt.operands]
    varying = [k for k, kind in enumerate(kinds) if kind != "1"]
    fixed = len(kinds) - len(varying)
    if len(varying) > 1 or n < fixed or (not varying and n != fixed):
        return
    k = 0
    for i, o in enumerate(fmt.operands):
        size = n - fixed if i in varying else 1
        st.operands[o[0]] = list((st.all_operands or [])[k : k + size])
        k += size


def parse_op(op: OpSyn, fmt: OpFormat, text: str, start: int, end: int, anchor: Anchor, regions: list[RegionSyn]) -> None:
    """Fill ``op`` from the text ``text[start:end]`` (after the op's name)
    following ``fmt``. Raises :class:`Mismatch` or :class:`Unsupported`."""
    toks = tokenize(text, start, end)
    st = _State(fmt, text, toks, end, anchor, regions)
    st.run(fmt.format.elements)
    if st.i < len(toks):
        # What follows the op is parsed as the next op, as mlir-opt parses it.
        t = toks[st.i]
        if t.kind != "id":
            raise st.fail("expected operation name in quotes")
        if "." in t.text:
            raise Mismatch(f"custom op '{t.text}' is unknown", t.start)
        from affine_lsp.syntax import default_dialect  # an unprefixed name: the default-dialect rule's words

        raise Mismatch(default_dialect.unknown_message(t.text, default_dialect.default_dialect_at(text, t.start)), t.start)
    if st.all_operands is not None and not st.operands:
        _split_operands(st, fmt)
    _infer(st, fmt)
    # operands, in ODS order
    if st.all_operands is not None:
        operands = st.all_operands
        sizes = [len(operands)]
        if len(fmt.operands) == len(operands) and all(o[1] == "1" for o in fmt.operands):
            sizes = [1] * len(operands)
    else:
        operands = []
        sizes = []
        for o in fmt.operands:
            got = st.operands.get(o[0], [])
            operands.extend(got)
            sizes.append(len(got))
    op.operands = list(operands)
    if "o" in fmt.segments:
        op.segments = tuple(sizes)
    # operand types
    if st.all_operand_types is not None:
        op.operand_types = list(st.all_operand_types)
        if len(op.operand_types) != len(operands):
            raise Mismatch(f"{len(operands)} operands present, but expected {len(op.operand_types)}", toks[0].start if toks else start)
    else:
        types: list[Type | None] = []
        for o in fmt.operands:
            n = len(st.operands.get(o[0], []))
            ts = st.types.get(o[0])
            if ts is not None and len(ts) != n and (n or ts):
                if len(ts) == 1 and o[1] == "1":
                    pass
                else:
                    raise Mismatch(f"{n} operands present, but expected {len(ts)}", st.operands.get(o[0], [("", Span(start, start))])[0][1].rel_start)
            types.extend(ts if ts is not None and len(ts) == n else [None] * n)
        op.operand_types = types
    # result types
    if st.all_result_types is not None:
        op.result_types = list(st.all_result_types)
    else:
        rtypes: list[Type | None] = []
        complete = True
        for r in fmt.results:
            ts = st.types.get(r[0])
            if ts is None:
                if r[1] != "1":
                    complete = False
                    break
                rtypes.append(None)
            else:
                rtypes.extend(ts)
        op.result_types = rtypes if complete else None
    op.attrs.update(st.attrs)
    if st.all_regions is not None:
        op.regions = list(st.all_regions)
    else:
        op.regions = [r for g in fmt.regions for r in st.regions.get(g[0], [])]
    if st.all_succs is not None:
        op.successors = list(st.all_succs)
    else:
        op.successors = [s for g in fmt.successors for s in st.succs.get(g[0], [])]
    op.type_spans = st.type_spans
