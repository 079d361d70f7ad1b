"""The LALR driver: lark's parse table, run by one Python loop fused with
the lexer.

lark (and lark-cython) run a generic loop: per token, a call into the lexer
(through a lexer thread or a generator), then per action a lookup of
``states[state][token.type]`` holding ``(Shift, state)`` or ``(Reduce,
rule)``, and per reduction ``len(rule.expansion)``, ``callbacks[rule]`` and
``rule.origin.name``. :class:`LalrDriver` reads the same table once and
flattens it:

* ``actions[state][terminal]``: an ``int``, a state to shift to (``>= 0``)
  or ``~k`` for a reduction by rule ``k`` (states are list indices), except
  the state's default reduction, ``defaults[state]``: its most frequent
  reduction, taken on any terminal the row does not hold (as bison does;
  most of the table's entries are such reductions: docs/performance.md);
* ``rules[k]``: ``(size, callback, goto, stateful)``, the callback being
  the compiled reduce action of :mod:`.reductions` (called with the
  parse's own transformer first when ``stateful``) and ``goto[state]`` the
  state after reducing to the rule's nonterminal on top of ``state``; a
  passthrough rule (``?rule: x``, whose action returns its one child,
  ``stateful`` None) only swaps the state.

and lexes in the same frame, with the lexer's own per-state memo and
classification (:class:`~affine_lsp.syntax.lexer.FastLexing`): its memo
of token types (joined here with the token's first action) and its
lookahead rules.

Only the happy path lives here. At the first token the table rejects, or a
character the lexer cannot place, :class:`NeedsLark` is raised and the
caller re-parses the chunk with lark's own parser, which produces the error
(message, expected set, position) exactly as before. A default reduction
may run before a wrong token is found out (never a shift): the caller also
re-parses with lark when a reduce action raises (``_SyntaxIssue``), so
every error is lark's. Reductions between two shifts end: each one pops
the stack, keeps its height (a rule of one symbol: the grammar has no cycle
of such rules, or the driver keeps no defaults) or pushes (an empty rule:
past ``MAX_EMPTY_REDUCTIONS`` more of them in a chunk than it has
characters, the driver gives up to lark), so the guard costs nothing on
the other reductions. ``tests/test_parser_reductions.py`` checks that both give the same
records and the same errors on the corpus and on broken variants of it.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from affine_lsp.syntax.lexer import BY_TEXT, MASTER_MATCH, FastLexing
from affine_lsp.syntax.reductions import Reductions, RuleSpec, rule_spec

if TYPE_CHECKING:
    from lark import Lark

Rule = tuple[int, Callable[..., Any], dict[int, int], bool | None]
"""``(size, action, goto, stateful)``: the rule's length, its reduce
action, its goto column, and how the action is called: ``action(tr,
children)`` with the parse's own transformer (True), ``action(children)``
(False), or not at all (None: ``?rule: x``, only the state is swapped)."""

MAX_EMPTY_REDUCTIONS = 10_000
"""Reductions by an empty rule in a chunk, beyond one per character, after
which the driver gives up."""


class NeedsLark(Exception):
    """The input is not accepted as it stands: let lark's parser report why."""


class _ParserPosition:
    """What the lexer's classification reads of the parser (its state)."""

    __slots__ = ("position",)

    def __init__(self, position: int) -> None:
        self.position = position


class FlatTable(NamedTuple):
    """The driver's form of the LALR table, plain data (``marshal`` stores
    it: :mod:`.driver_cache`): ``actions[state]`` (terminal -> shift
    target or ``~k``), ``defaults[state]``, and per rule ``k`` its
    :data:`~affine_lsp.syntax.reductions.RuleSpec` and the name of its
    nonterminal, whose goto column is ``gotos[name]``."""

    start: int
    end: int
    actions: list[dict[str, int]]
    defaults: list[int | None]
    specs: list[RuleSpec]
    origins: list[str]
    gotos: dict[str, dict[int, int]]


def flatten(table: Any) -> tuple[FlatTable, list[Any]]:
    """lark's parse table ``table`` in the driver's form, and the table's
    rule object of each rule number (to find its reduce action)."""
    from lark.parsers.lalr_analysis import Shift

    if sorted(table.states) != list(range(len(table.states))):
        raise ValueError("parse states are not numbered 0..n-1")
    n = len(table.states)
    # States are list indices; a rule carries its own goto column.
    actions: list[dict[str, int]] = [{} for _ in range(n)]
    gotos: dict[str, dict[int, int]] = {}
    rule_objects: list[Any] = []
    index: dict[int, int] = {}
    # One int object per state number and per ~rule: ints past 256 are
    # not shared by Python, and the tables hold ~200k entries.
    state_ints = list(range(n))
    reduce_ints: list[int] = []
    # Each state's most frequent reduction becomes its default (the rows
    # are built without it, never whole: the peak would stay resident).
    defaults: list[int | None] = [None] * n
    use_defaults = not _unit_rule_cycle(table.states)
    for state, row in table.states.items():
        acts = actions[state]
        counts: dict[int, int] = {}
        for sym, (action, arg) in row.items():
            if action is Shift:
                if sym.isupper() or sym.startswith("$"):
                    acts[sym] = state_ints[arg]
                else:
                    gotos.setdefault(sym, {})[state] = state_ints[arg]
                continue
            k = index.get(id(arg))
            if k is None:
                k = index[id(arg)] = len(rule_objects)
                reduce_ints.append(~k)
                rule_objects.append(arg)
            counts[reduce_ints[k]] = counts.get(reduce_ints[k], 0) + 1
        dflt = max(counts, key=lambda a: (counts[a], a)) if counts and use_defaults else None
        defaults[state] = dflt
        for sym, (action, arg) in row.items():
            if action is not Shift and (r := reduce_ints[index[id(arg)]]) != dflt:
                acts[sym] = r
    origins = [str(r.origin.name) for r in rule_objects]
    for name in origins:
        gotos.setdefault(name, {})
    specs = [rule_spec(r) for r in rule_objects]
    flat = FlatTable(table.start_states["start"], table.end_states["start"], actions, defaults, specs, origins, gotos)
    return flat, rule_objects


class LalrDriver:
    """Parses a chunk with the flattened table ``flat`` (:func:`flatten`),
    the lexer ``lexer`` (ours, bound to the same table) and the reduce
    action ``(action, stateful)`` of each rule number, and returns what
    lark's parser would. The driver is shared by every parse and thread:
    what a parse changes (its stacks, its transformer) is local to
    :meth:`parse`; the memos it fills are functions of the tables and the
    text."""

    def __init__(self, lexer: FastLexing, flat: FlatTable, actions: list[tuple[Callable[..., Any], bool]]) -> None:
        if not isinstance(lexer, FastLexing):
            raise TypeError("the driver needs affine-lsp's lexer")
        self.lexer = lexer
        self.flat = flat
        self.start = flat.start
        self.end = flat.end
        self.actions = flat.actions
        self.defaults = flat.defaults
        self.rules: list[Rule] = [
            _rule(spec[4], cb, stateful, flat.gotos[origin]) for spec, origin, (cb, stateful) in zip(flat.specs, flat.origins, actions, strict=True)
        ]
        # (state, text) / (state, kind) -> (terminal, first action): the
        # lexer's memo of token types joined with the action table.
        self._by_text: dict[tuple[int, str], tuple[str, int]] = {}
        self._by_kind: dict[tuple[int, str | None], tuple[str, int]] = {}

    @classmethod
    def from_lark(cls, lark: Lark, reductions: Reductions) -> LalrDriver:
        """The driver over the tables of ``lark`` (built with our lexer and
        the compiled reduce actions ``reductions``)."""
        frontend = lark.parser
        flat, rule_objects = flatten(frontend.parser._parse_table)  # type: ignore[union-attr]
        callbacks = lark._callbacks  # type: ignore[attr-defined]
        return cls(frontend.lexer, flat, [(callbacks[r], r in reductions.stateful) for r in rule_objects])  # type: ignore[union-attr]

    def parse(self, text: str, tr: Any) -> Any:
        """The value of the start rule for ``text``, built by the transformer
        ``tr`` (this parse's own); :class:`NeedsLark` when the text is
        not accepted."""
        lexer = self.lexer
        new, classify, lookahead_token = lexer.new, lexer._classify_and_remember, lexer.lookahead_token
        fast_text, fast_kind = self._by_text, self._by_kind
        if len(fast_text) > 50_000:  # bounded like the lexer's memo
            fast_text.clear()
        # Per key space (state and text, or state and kind): the lexer's memo,
        # its lookahead rules, and the memo joined with the first action.
        text_keyed = (lexer.memo, lexer.look_text, fast_text)
        kind_keyed = (lexer.memo_kind, lexer.look_kind, fast_kind)
        match, by_text = MASTER_MATCH, BY_TEXT
        actions, defaults, rules, end_state = self.actions, self.defaults, self.rules, self.end
        state = self.start
        row = actions[state]
        states = [state]
        values: list = []
        pos = 0
        empties = 0
        max_empties = MAX_EMPTY_REDUCTIONS + len(text)
        while True:
            # The next token, typed for the current state, and its first action.
            m = match(text, pos)
            if m is None:  # only whitespace and comments are left
                tok = None
                typ = "$END"
                a = row.get(typ)
                if a is None:
                    a = defaults[state]
            else:
                val = m.group(m.lastindex)  # type: ignore[arg-type]
                end = m.end()
                kind = m.lastgroup
                if kind in by_text:
                    key: tuple = (state, val)
                    hit = fast_text.get(key)
                else:
                    key = (state, kind)
                    hit = fast_kind.get(key)
                if hit is not None:
                    typ, a = hit
                    pos = end
                    tok = new(typ, val, end - len(val), 0, 0, 0, 0, end)
                else:
                    memo, look, fast = text_keyed if kind in by_text else kind_keyed
                    typ = memo.get(key)
                    if typ is not None:  # the type depends on the state and text (kind) only
                        a = row.get(typ)
                        if a is None:
                            a = defaults[state]
                        if a is not None:
                            fast[key] = (typ, a)
                        pos = end
                        tok = new(typ, val, end - len(val), 0, 0, 0, 0, end)
                    else:
                        rule = look.get(key)
                        if rule is not None:  # one expression ahead decides
                            tok = lookahead_token(rule, text, val, end)
                        else:
                            try:
                                tok = classify(text, m, kind, val, end, state, _ParserPosition(state))
                            except Exception as e:  # a character no terminal of this state starts with
                                raise NeedsLark from e
                        typ = tok.type
                        pos = tok.end_pos
                        a = row.get(typ)
                        if a is None:
                            a = defaults[state]
            # Reduce until the token can be shifted.
            while True:
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
                size, callback, goto, stateful = rules[~a]
                if stateful is None:  # a passthrough
                    del states[-1]
                elif size:
                    children = values[-size:]
                    del states[-size:]
                    del values[-size:]
                    values.append(callback(tr, children) if stateful else callback(children))
                else:
                    empties += 1
                    if empties > max_empties:
                        raise NeedsLark
                    values.append(callback(tr, []) if stateful else callback([]))
                state = goto[states[-1]]
                states.append(state)
                if tok is None and state == end_state:
                    return values[-1]
                row = actions[state]
                a = row.get(typ)
                if a is None:
                    a = defaults[state]


def _unit_rule_cycle(states: dict[int, dict[str, tuple[Any, Any]]]) -> bool:
    """Whether the table's rules of one symbol (``A: B``, reducing B to A
    without changing the stack's height) form a cycle; default reductions
    could then reduce forever without a shift."""
    from lark.parsers.lalr_analysis import Shift

    edges: dict[str, set[str]] = {}
    for row in states.values():
        for action, arg in row.values():
            if action is not Shift and len(arg.expansion) == 1:
                edges.setdefault(arg.expansion[0].name, set()).add(arg.origin.name)
    done: set[str] = set()
    for start in edges:
        path: set[str] = set()
        stack = [(start, iter(edges.get(start, ())))]
        path.add(start)
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                path.discard(node)
                done.add(node)
            elif nxt in path:
                return True
            elif nxt not in done:
                path.add(nxt)
                stack.append((nxt, iter(edges.get(nxt, ()))))
    return False


def _rule(size: int, callback: Callable[..., Any], stateful: bool, goto: dict[int, int]) -> Rule:
    passthrough = not stateful and size == 1 and type(callback) is itemgetter and callback([_PROBE]) is _PROBE
    return (size, callback, goto, None if passthrough else stateful)


_PROBE = object()
