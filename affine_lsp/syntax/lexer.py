"""A fast, context-aware lexer for the LALR parser.

lark's contextual lexer builds one big regular expression per parser state
and tries terminals by priority; on MLIR text that costs more than the
parse itself. This lexer makes one pass with a single master expression and
resolves the few context-sensitive choices by looking at what the current
parser state accepts (the same information the contextual lexer uses):

* a word is a keyword when the state accepts that keyword, otherwise a
  bare identifier (so ``to``, ``max`` or ``mod`` may still name things);
  words are matched whole, so ``too`` is never read as ``to`` + ``o``;
* ``%a, %b =`` is one RESULT_LHS token where an op may start;
* shape prefixes (``4x?x``) only inside ``memref<``/``vector<``/``tensor<``;
* a string followed by ``(`` is a generic op name where an op may start;
* ``^bb1(...):`` is a block definition where a block may start;
* ``[%i, %j]`` is one SIMPLE_SUBSCRIPTS token where subscripts may start.

Terminal names are those of ``grammar/mlir.lark``; the grammar stays the one
description of the language (the lexer reads keyword spellings from it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterator
from typing import Any


class Tok(str):
    """A token: the text, plus ``type``, ``start_pos``, ``end_pos``."""

    __slots__ = ("type", "start_pos", "end_pos")

    type: str
    start_pos: int
    end_pos: int

    @property
    def value(self) -> str:
        return str.__str__(self)

    @property
    def line(self) -> int:  # used by lark's error classes
        return 0

    @property
    def column(self) -> int:
        return 0

    end_line = line
    end_column = column

    def __repr__(self) -> str:
        return f"Tok({self.type}, {str.__repr__(self)})"


def _tok8(type_: str, value: str, start: int, _l: int, _c: int, _el: int, _ec: int, end: int) -> Tok:
    t = Tok(value)
    t.type = type_
    t.start_pos = start
    t.end_pos = end
    return t


def token_like(type_: str, value: str, like: Any) -> Tok:
    """A token ``value`` of type ``type_`` at the place of the token ``like``
    (as lark's ``Token.new_borrow_pos``)."""
    return _tok8(type_, value, like.start_pos, 0, 0, 0, 0, like.end_pos)


_STR = r'"(?:[^"\\\n]|\\.)*"'
_BAL0 = r"(?:->|" + _STR + r'|[^<>"])*'


def _balanced(depth: int) -> str:
    inner = _BAL0
    for _ in range(depth):
        inner = r"(?:->|" + _STR + r'|[^<>"]|<' + inner + r">)*"
    return inner


_BAL = _balanced(4)
_PAREN0 = r"(?:" + _STR + r'|[^()"])*'
_PAREN = _PAREN0
for _ in range(3):
    _PAREN = r"(?:" + _STR + r'|[^()"]|\(' + _PAREN + r"\))*"

# Whitespace and comments are skipped by an atomic prefix, so one match
# finds the next token; every group is the token itself (no capturing
# groups inside), so ``lastindex`` names it. The alternatives are tried in
# order: the frequent ones first (only LOC/WORD and HEX/FLOAT/NUM overlap,
# and keep their relative order).
_MASTER = re.compile(
    r"(?>(?:[ \t\r\n\f\v]+|//[^\n]*)*)(?:"
    + "|".join(
        [
            r"(?P<PUNCT>->|>=|<=|==|\.\.\.|[()\[\]{}<>,:=*+?\-])",
            r"(?P<SSA>%[A-Za-z0-9_$.\-]+(?:#[0-9]+)?)",
            r"(?P<LOC>loc\(" + _PAREN + r"\))",
            r"(?P<WORD>[A-Za-z_][A-Za-z0-9_$.]*)",
            r"(?P<HEX>0x[0-9a-fA-F]+)",
            r"(?P<FLOAT>[0-9]+\.[0-9]*(?:[eE][+-]?[0-9]+)?)",
            r"(?P<NUM>[0-9]+)",
            r"(?P<DIALECT_ATTR>#[A-Za-z_][A-Za-z0-9_$]*(?:\.[A-Za-z0-9_$.]*)?<" + _BAL + ">)",
            r"(?P<HASH_ID>#[A-Za-z_0-9][A-Za-z0-9_$.\-]*)",
            r"(?P<DIALECT_TYPE>![A-Za-z_][A-Za-z0-9_$]*(?:\.[A-Za-z0-9_$.]*)?<" + _BAL + ">)",
            r"(?P<BANG_ID>![A-Za-z_][A-Za-z0-9_$.\-]*)",
            r"(?P<STRING>" + _STR + ")",
            r"(?P<SYMBOL_REF>@(?:[A-Za-z_][A-Za-z0-9_$.\-]*|" + _STR + r")(?:::@(?:[A-Za-z_][A-Za-z0-9_$.\-]*|" + _STR + r"))*)",
            r"(?P<CARET>\^[A-Za-z0-9_$.\-]+)",
            r"(?P<OTHER>.)",
        ]
    )
    + ")",
    re.S,
)
MASTER_MATCH = _MASTER.match
_RESULT_LHS = re.compile(r"%[A-Za-z0-9_$.\-]+(?::[0-9]+)?(?:\s*,\s*%[A-Za-z0-9_$.\-]+(?::[0-9]+)?)*\s*=(?!=)")
_RESULT_LHS_MATCH = _RESULT_LHS.match
_DIMS = re.compile(r"(?:(?:[0-9]+|\?|\[[0-9]+\])[ \t]*x[ \t]*)+(?![0-9?\[])")
_SHAPED_WORDS = frozenset({"memref", "vector", "tensor"})
_SHAPED = re.compile(
    r"(memref|vector|tensor)<[ \t]*(((\d+|\?|\[\d+\])[ \t]*x[ \t]*)*)([su]?i\d+|bf16|f16|tf32|f32|f64|f80|f128|index)[ \t]*(,[ \t]*\d+[ \t]*)?>"
)
_SHAPED_MATCH = _SHAPED.match
_GENERIC_AHEAD = re.compile(r"\s*\(")
_BLOCK_DEF_AHEAD = re.compile(r"\s*(?:\((?:[^()]|\([^()]*\))*\))?\s*:(?!:)")
_INT_TYPE = re.compile(r"[su]?i[0-9]+")
_FLOAT_TYPE = re.compile(r"bf16|f16|tf32|f32|f64|f80|f128|f8E[0-9A-Za-z]+|f4E[0-9A-Za-z]+|f6E[0-9A-Za-z]+")

_PUNCT_TYPES = {
    "(": "LP",
    ")": "RP",
    "]": "RSQB",
    "{": "LBRACE",
    "}": "RBRACE",
    ">": "RANGLE",
    ":": "COLON",
    "->": "ARROW",
    ">=": "CMP_OP",
    "<=": "CMP_OP",
    "==": "CMP_OP",
}


# (match at a position, type when it matches, type when it does not)
Lookahead = tuple[Callable[[str, int], "re.Match[str] | None"], str, str]


class FastLexing:
    """The lexing logic, shared by the pure-Python and the lark-cython
    flavours of the lexer class (see :func:`lexer_class`)."""

    __future_interface__ = 2

    def __init__(self, lexer_conf: Any) -> None:
        self.keywords: dict[str, list[str]] = {}  # spelling -> terminal names
        self.punct: dict[str, list[str]] = {}
        for t in lexer_conf.terminals:
            p = t.pattern
            name = str(t.name)  # a lark Token for terminals %import-ed from a family grammar
            if p.type == "str":
                s = p.value
                target = self.keywords if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", s) else self.punct
                target.setdefault(s, []).append(name)
            elif p.type == "re" and name.endswith(("_KW", "_OP", "VISIBILITY", "AFFINE_MIN_MAX")):
                # Keyword alternations written as regexes: (?:a|b)(?!...)
                m = re.match(r"^\(\?:(.*)\)\(\?!", p.value)
                if m:
                    for alt in m.group(1).split("|"):
                        self.keywords.setdefault(alt.replace("\\", ""), []).append(name)
        self.accepts: dict[int, frozenset[str]] = {}
        self.memo: dict[tuple[int, str], str] = {}  # (state, text) -> type
        self.memo_kind: dict[tuple[int, str | None], str] = {}  # (state, kind) -> type
        # (state, text) / (state, kind) -> Lookahead, for tokens whose type is
        # decided by one expression matched ahead (see _lookahead).
        self.look_text: dict[tuple[int, str], Lookahead] = {}
        self.look_kind: dict[tuple[int, str | None], Lookahead] = {}
        # `[%i, %j]` as one SIMPLE_SUBSCRIPTS token where subscripts may start
        # (the pattern is the grammar's); off, the grammar's general path.
        subs = next((t for t in lexer_conf.terminals if t.name == "SIMPLE_SUBSCRIPTS"), None)
        self.simple_subscripts = re.compile(subs.pattern.to_regexp()).match if subs is not None else None

    # new(type, value, start, line, column, end_line, end_column, end):
    # the token constructor of the flavour (lark-cython's Token itself).
    new = staticmethod(_tok8)

    def tok(self, type_: str, value: str, start: int) -> Tok:
        return self.new(type_, value, start, 0, 0, 0, 0, start + len(value))

    def vocabulary(self) -> tuple[dict[str, list[str]], dict[str, list[str]], str | None]:
        """What the lexer read of the grammar's terminals, as plain data
        (the driver's row cache stores it, :mod:`.driver_cache`): the
        keywords, the punctuation, the SIMPLE_SUBSCRIPTS pattern."""
        subs = self.simple_subscripts
        return self.keywords, self.punct, subs.__self__.pattern if subs is not None else None  # type: ignore[attr-defined]

    def bind(self, states: dict[int, dict[str, Any]]) -> None:
        # Many states accept the same terminals: one frozenset for each set.
        shared: dict[frozenset[str], frozenset[str]] = {}
        self.accepts = {}
        for s, actions in states.items():
            fs = frozenset(actions)
            self.accepts[s] = shared.setdefault(fs, fs)
        self.memo = {}
        self.memo_kind = {}
        self.look_text = {}
        self.look_kind = {}

    def lex(self, lexer_state: Any, parser_state: Any) -> Iterator[Tok]:
        while True:
            try:
                yield self.next_token(lexer_state, parser_state)
            except EOFError:
                return

    def next_token(self, lexer_state: Any, parser_state: Any) -> Tok:
        """The next token at ``lexer_state.line_ctr.char_pos``; EOFError at the end."""
        text = lexer_state.text
        if not isinstance(text, str):
            text = text.text  # lark's TextSlice
        ctr = lexer_state.line_ctr
        m = MASTER_MATCH(text, ctr.char_pos)
        if m is None:  # only whitespace and comments are left
            ctr.char_pos = len(text)
            raise EOFError
        val = m.group(m.lastindex)  # type: ignore[arg-type]
        end = m.end()
        state = parser_state.position
        kind = m.lastgroup
        typ = self.memo.get((state, val)) if kind in BY_TEXT else self.memo_kind.get((state, kind))
        if typ is not None:
            ctr.char_pos = end
            return self.new(typ, val, end - len(val), 0, 0, 0, 0, end)
        tok = self._classify_and_remember(text, m, kind, val, end, state, parser_state)
        ctr.char_pos = tok.end_pos
        return tok

    def stream(self, text: str) -> Generator[Tok, Any, None]:
        """The tokens of ``text`` as a generator driven by ``send(parser_state)``
        (primed with ``next``): the same decisions as :meth:`next_token`,
        with the lexing state kept in the generator's frame."""
        memo, memo_kind, new, match = self.memo, self.memo_kind, self.new, MASTER_MATCH
        by_text, classify = BY_TEXT, self._classify_and_remember
        pos = 0
        parser_state = yield None  # type: ignore[misc]
        while True:
            m = match(text, pos)
            if m is None:  # only whitespace and comments are left
                raise EOFError
            val = m.group(m.lastindex)  # type: ignore[arg-type]
            end = m.end()
            state = parser_state.position
            kind = m.lastgroup
            typ = memo.get((state, val)) if kind in by_text else memo_kind.get((state, kind))
            if typ is not None:
                pos = end
                parser_state = yield new(typ, val, end - len(val), 0, 0, 0, 0, end)
            else:
                tok = classify(text, m, kind, val, end, state, parser_state)
                pos = tok.end_pos
                parser_state = yield tok

    def _classify_and_remember(self, text: str, m: re.Match[str], kind: str | None, val: str, end: int, state: int, parser_state: Any) -> Tok:
        """Classify a token the memo does not know, and memoise its type
        when it depends only on the state and the text (or the kind)."""
        acc = self.accepts.get(state, _EMPTY)
        look = self._lookahead(kind, val, acc)
        if look is not None:
            if kind in BY_TEXT:
                if len(self.look_text) > 50_000:
                    self.look_text.clear()
                self.look_text[(state, val)] = look
            else:
                self.look_kind[(state, kind)] = look
            return self.lookahead_token(look, text, val, end)
        tok = self._classify(text, m, kind, end - len(val), acc, parser_state)
        if tok.end_pos == end and val not in _LOOKAHEAD_TEXTS:
            if kind in BY_TEXT:
                if len(self.memo) > 50_000:
                    self.memo.clear()
                self.memo[(state, val)] = tok.type
            elif kind in _MEMO_KINDS and not (kind == "NUM" and "DIMS" in acc):
                self.memo_kind[(state, kind)] = tok.type
        return tok

    def _lookahead(self, kind: str | None, val: str, acc: frozenset[str]) -> Lookahead | None:
        """For a token whose type is decided by one expression matched at its
        start (and by the state and the text or kind otherwise): the
        expression, the type (and text) when it matches, the type when not.

        * ``%a, %b =`` is one RESULT_LHS where an op may start, else SSA_ID;
        * ``memref<4xf32>`` is one SHAPED_TYPE where a type may start;
        * ``[%i, %j]`` is one SIMPLE_SUBSCRIPTS where subscripts may start
          (unless a shape may start there too: see :meth:`_classify`)."""
        if kind == "SSA":
            return (_RESULT_LHS_MATCH, "RESULT_LHS", "SSA_ID") if "RESULT_LHS" in acc else None
        if kind == "WORD":
            if val in _SHAPED_WORDS and "SHAPED_TYPE" in acc:
                return (_SHAPED_MATCH, "SHAPED_TYPE", self._word_type(val, acc))
            return None
        if val == "[" and "SIMPLE_SUBSCRIPTS" in acc and self.simple_subscripts is not None and "DIMS" not in acc:
            return (self.simple_subscripts, "SIMPLE_SUBSCRIPTS", self._punct(val, 0, acc).type)
        return None

    def lookahead_token(self, look: Lookahead, text: str, val: str, end: int) -> Tok:
        """The token ``look`` (see :meth:`_lookahead`) makes of ``val``,
        which ends at ``end``."""
        start = end - len(val)
        ahead = look[0](text, start)
        return self.tok(look[1], ahead.group(), start) if ahead is not None else self.tok(look[2], val, start)

    def _classify(self, text: str, m: re.Match[str], kind: str | None, start: int, acc: frozenset[str], parser_state: Any) -> Tok:
        """The token at ``start`` when :meth:`_lookahead` has no rule for it."""
        val = m.group(m.lastindex)  # type: ignore[arg-type]
        if kind == "SSA":
            return self.tok("SSA_ID", val, start)
        if kind == "WORD":
            return self.tok(self._word_type(val, acc), val, start)
        if val == "[" and "SIMPLE_SUBSCRIPTS" in acc and self.simple_subscripts is not None:
            sub = self.simple_subscripts(text, start)
            if sub is not None:
                return self.tok("SIMPLE_SUBSCRIPTS", sub.group(), start)
        if kind == "NUM" or kind == "HEX" or (kind == "PUNCT" and val in ("?", "[")):
            if "DIMS" in acc:
                d = _DIMS.match(text, start)
                if d is not None:
                    return self.tok("DIMS", d.group(), start)
            if kind == "NUM":
                return self.tok("INT", val, start)
            if kind == "HEX":
                return self.tok("HEX", val, start)
        if kind == "STRING":
            if "GENERIC_NAME" in acc and _GENERIC_AHEAD.match(text, m.end()):
                return self.tok("GENERIC_NAME", val, start)
            return self.tok("STRING", val, start)
        if kind == "CARET":
            if "BLOCK_DEF" in acc and _BLOCK_DEF_AHEAD.match(text, m.end()):
                return self.tok("BLOCK_DEF", val, start)
            return self.tok("BLOCK_LABEL", val, start)
        if kind == "PUNCT":
            return self._punct(val, start, acc)
        if kind == "OTHER":
            if "SOUP_CHAR" in acc:
                return self.tok("SOUP_CHAR", val, start)
            from lark.exceptions import UnexpectedCharacters  # (lark's loop reports it; our driver hands the chunk to lark)

            raise UnexpectedCharacters(text, start, 0, 0, allowed=set(acc), state=parser_state.position)
        return self.tok(kind or "OTHER", val, start)  # DIALECT_ATTR, HASH_ID, DIALECT_TYPE, BANG_ID, LOC, FLOAT, SYMBOL_REF

    def _word_type(self, val: str, acc: frozenset[str]) -> str:
        names = self.keywords.get(val)
        if names is not None:
            for nm in names:
                if nm in acc:
                    return nm
        if "INT_TYPE" in acc and _INT_TYPE.fullmatch(val):
            return "INT_TYPE"
        if "FLOAT_TYPE" in acc and _FLOAT_TYPE.fullmatch(val):
            return "FLOAT_TYPE"
        if "." in val:
            if "DOTTED_ID" in acc or names is None:
                return "DOTTED_ID"
        elif "BARE_ID" in acc:
            return "BARE_ID"
        if names is not None:
            return names[0]
        if _INT_TYPE.fullmatch(val):
            return "INT_TYPE"
        if _FLOAT_TYPE.fullmatch(val):
            return "FLOAT_TYPE"
        return "BARE_ID"

    def _punct(self, val: str, start: int, acc: frozenset[str]) -> Tok:
        typ = _PUNCT_TYPES.get(val)
        if typ is not None and typ in acc:
            return self.tok(typ, val, start)
        names = self.punct.get(val)
        if names:
            for nm in names:
                if nm in acc:
                    return self.tok(nm, val, start)
        if len(val) == 2 and val[1] == "=" and "CMP_OP" not in acc:
            # `>=` where only `>` fits (e.g. `vector<4xf32>=`): take one char.
            return self._punct(val[0], start, acc)
        if "SOUP_CHAR" in acc and val not in "(){}[]":
            return self.tok("SOUP_CHAR", val, start)
        return self.tok(typ or (names[0] if names else "SOUP_CHAR"), val, start)


_EMPTY: frozenset[str] = frozenset()
# Kinds whose token type is a function of the parser state and the text
# (words, punctuation) or of the state alone (SSA names without a result
# list ahead, numbers, strings...): the lexer memoises these. Texts that
# look ahead (shaped types, `[`, `?`, numbers that may start a shape) and
# strings/carets (generic op names, block definitions) are never memoised.
BY_TEXT = frozenset({"WORD", "PUNCT"})
_MEMO_KINDS = frozenset({"SSA", "NUM", "FLOAT", "SYMBOL_REF", "HASH_ID", "BANG_ID", "LOC", "DIALECT_ATTR", "DIALECT_TYPE"})
_LOOKAHEAD_TEXTS = frozenset({"[", "?", "memref", "vector", "tensor"})


class CachedLexer(FastLexing):
    """Our lexer rebuilt from the driver's row cache (:mod:`.driver_cache`)
    without lark's terminals: the vocabulary (:meth:`_FastLexing.vocabulary`)
    and each state's accepted symbols. Its tokens are :class:`Tok`
    (lark-cython's Token would import lark): the reduce actions read a
    token's text, ``type`` and positions, the same in both."""

    def __init__(self, keywords: dict[str, list[str]], punct: dict[str, list[str]], subscripts: str | None, accepts: list[frozenset[str]]) -> None:
        self.keywords = keywords
        self.punct = punct
        self.simple_subscripts = re.compile(subscripts).match if subscripts is not None else None
        self.accepts = dict(enumerate(accepts))
        self.memo = {}
        self.memo_kind = {}
        self.look_text = {}
        self.look_kind = {}
