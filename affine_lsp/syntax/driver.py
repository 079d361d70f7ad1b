"""The LALR driver: lark's parse table, run by one Python loop fused with
the lexer.

lark (and lark-cython) run a generic loop: per token, a call into the lexer
(through a lexer thread or a generator), then per action a lookup of
``states[state][token.type]`` holding ``(Shift, state)`` or ``(Reduce,
rule)``, and per reduction ``len(rule.expansion)``, ``callbacks[rule]`` and
``rule.origin.name``. :class:`LalrDriver` reads the same table once and
flattens it:

* ``actions[state][terminal]``: an ``int``, a state to shift to (``>= 0``)
  or ``~k`` for a reduction by rule ``k``;
* ``gotos[state][nonterminal]``: the state after a reduction;
* ``rules[k]``: ``(size, callback, nonterminal, passthrough)``, the callback
  being the compiled reduce action of :mod:`.reductions`; a passthrough rule
  (``?rule: x``, whose action returns its one child) only swaps the state.

and lexes in the same frame, with the lexer's own per-state memo and
classification (:class:`~affine_lsp.syntax.lexer._FastLexing`).

Only the happy path lives here. At the first token the table rejects, or a
character the lexer cannot place, :class:`NeedsLark` is raised and the
caller re-parses the chunk with lark's own parser, which produces the error
(message, expected set, position) exactly as before; reduce actions raising
their own errors (``_SyntaxIssue``) propagate unchanged, as they do from
lark. ``tests/test_parser_reductions.py`` checks that both give the same
records and the same errors on the corpus and on broken variants of it.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any

from lark import Lark
from lark.parsers.lalr_analysis import Shift

from affine_lsp.syntax.lexer import _BY_TEXT, _MASTER_MATCH, _FastLexing

Rule = tuple[int, Callable[[list], Any], str, bool]


class NeedsLark(Exception):
    """The input is not accepted as it stands: let lark's parser report why."""


class _ParserPosition:
    """What the lexer's classification reads of the parser (its state)."""

    __slots__ = ("position",)

    def __init__(self, position: int) -> None:
        self.position = position


class LalrDriver:
    """Parses a chunk with the tables of ``lark`` (built with our lexer and
    compiled reduce actions) and returns what lark's parser would."""

    def __init__(self, lark: Lark) -> None:
        frontend = lark.parser
        table = frontend.parser._parse_table  # type: ignore[union-attr]
        lexer = frontend.lexer  # type: ignore[union-attr]
        if not isinstance(lexer, _FastLexing):
            raise TypeError("the driver needs affine-lsp's lexer")
        callbacks = lark._callbacks  # type: ignore[attr-defined]
        self.lexer = lexer
        self.start = table.start_states["start"]
        self.end = table.end_states["start"]
        self.rules: list[Rule] = []
        self.actions: dict[int, dict[str, int]] = {}
        self.gotos: dict[int, dict[str, int]] = {}
        index: dict[int, int] = {}
        for state, row in table.states.items():
            acts: dict[str, int] = {}
            gotos: dict[str, int] = {}
            for sym, (action, arg) in row.items():
                if action is Shift:
                    (acts if sym.isupper() or sym.startswith("$") else gotos)[sym] = arg
                    continue
                k = index.get(id(arg))
                if k is None:
                    k = index[id(arg)] = len(self.rules)
                    self.rules.append(_rule(arg, callbacks[arg]))
                acts[sym] = ~k
            self.actions[state] = acts
            self.gotos[state] = gotos

    def parse(self, text: str) -> Any:
        """The value of the start rule for ``text``; :class:`NeedsLark` when
        the text is not accepted."""
        lexer = self.lexer
        memo, memo_kind, new, classify = lexer.memo, lexer.memo_kind, lexer.new, lexer._classify_and_remember
        match, by_text = _MASTER_MATCH, _BY_TEXT
        actions, gotos, rules = self.actions, self.gotos, self.rules
        state = self.start
        row = actions[state]
        states = [state]
        values: list = []
        pos = 0
        while True:
            # The next token, typed for the current state.
            m = match(text, pos)
            if m is None:  # only whitespace and comments are left
                typ = "$END"
                tok = None
            else:
                val = m.group(m.lastindex)  # type: ignore[arg-type]
                end = m.end()
                kind = m.lastgroup
                typ = memo.get((state, val)) if kind in by_text else memo_kind.get((state, kind))
                if typ is not None:
                    pos = end
                    tok = new(typ, val, end - len(val), 0, 0, 0, 0, end)
                else:
                    try:
                        tok = classify(text, m, kind, val, end, state, _ParserPosition(state))
                    except Exception as e:  # a character no terminal of this state starts with
                        raise NeedsLark from e
                    typ = tok.type
                    pos = tok.end_pos
            # Reduce until the token can be shifted.
            while True:
                a = row.get(typ)
                if a is None:
                    raise NeedsLark
                if a >= 0:
                    if tok is None:  # `$END` is never shifted
                        raise NeedsLark
                    states.append(a)
                    values.append(tok)
                    state = a
                    row = actions[a]
                    break
                size, callback, origin, passthrough = rules[~a]
                if passthrough:
                    del states[-1]
                elif size:
                    children = values[-size:]
                    del states[-size:]
                    del values[-size:]
                    values.append(callback(children))
                else:
                    values.append(callback([]))
                state = gotos[states[-1]][origin]
                states.append(state)
                if tok is None and state == self.end:
                    return values[-1]
                row = actions[state]


def _rule(rule: Any, callback: Callable[[list], Any]) -> Rule:
    size = len(rule.expansion)
    passthrough = size == 1 and type(callback) is itemgetter and callback([_PROBE]) is _PROBE
    return (size, callback, rule.origin.name, passthrough)


_PROBE = object()
