"""Compiled reduce actions for lark's LALR parser.

lark calls, on every reduction, ``callbacks[rule](children)``: a dictionary
lookup keyed by a :class:`lark.grammar.Rule` (whose ``__hash__`` and
``__eq__`` are Python functions) and then a chain of Python wrappers
(``ExpandSingleChild`` for ``?rules``, ``ChildFilterLALR`` to drop anonymous
tokens and splice ``_rules`` and ``*``-repetitions) before the transformer
method runs. On affine MLIR a third of all reductions are unit reductions of
the expression and op-dispatch chains, where all that work returns
``children[0]``.

:func:`compile_reductions` replaces, in a built parser, every rule in the
LALR table by a :class:`ReduceRule` (identity hash, so the lookup is C
level) and every callback by one function specialised for that rule:

* unit reductions of ``?rules`` become ``operator.itemgetter(k)`` (C level);
* rules that keep every child call the transformer method directly;
* rules that drop tokens select the kept children with ``itemgetter``;
* ``_rules`` and repetitions return a plain list that the parent splices
  in (lark builds a ``Tree`` just to take its children).

The semantics are lark's (``parse_tree_builder.ParseTreeBuilder`` with a
transformer, LALR, no placeholders); ``tests/test_document.py`` checks that
both give the same syntax records on the whole corpus.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from types import MethodType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lark import Lark
    from lark.grammar import Rule

Callback = Callable[[list], Any]


class ReduceRule:
    """What the LALR loop needs of a rule (``expansion`` for the pop count,
    ``origin`` for the goto), hashed by identity; anything else is read from
    the original :class:`~lark.grammar.Rule` (error reporting, debugging)."""

    __slots__ = ("origin", "expansion", "rule")

    def __init__(self, rule: Rule) -> None:
        self.origin = rule.origin
        self.expansion = tuple(rule.expansion)
        self.rule = rule

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rule, name)

    def __repr__(self) -> str:
        return f"ReduceRule({self.rule})"


def _inlined(sym: Any) -> bool:
    """Children of these symbols are spliced into the parent (lark's
    ``_should_expand``: non-terminals whose name starts with ``_``)."""
    return not sym.is_term and sym.name.startswith("_")


RuleSpec = tuple[str, tuple[tuple[int, bool], ...], bool, bool, int]
"""What the reduce action of a rule depends on, as plain data (the driver's
row cache stores it, :mod:`.driver_cache`): the transformer method's name,
the kept children (index, spliced), whether the rule's value is spliced
into its parent (``_rule``), whether it is a ``?rule``, and its length."""


def rule_spec(rule: Any) -> RuleSpec:
    """The :data:`RuleSpec` of a lark :class:`~lark.grammar.Rule` (or a
    :class:`ReduceRule`): lark's wrapper chain's choices, read once."""
    opts = rule.options
    name = rule.alias or opts.template_source or rule.origin.name
    kept = tuple((i, _inlined(sym)) for i, sym in enumerate(rule.expansion) if opts.keep_all_tokens or not (sym.is_term and sym.filter_out))
    produces_list = rule.origin.name.startswith("_")  # spliced into its parent
    expand1 = bool(opts.expand1) and not rule.alias
    if produces_list and expand1:
        raise ValueError(f"'?_rule' is not supported by the compiled reductions ({rule.origin.name})")
    return (str(name), kept, produces_list, expand1, len(rule.expansion))


def compile_callback(rule: Rule, transformer: type) -> tuple[Callable[..., Any], bool]:
    """The reduce action of ``rule``: lark's wrapper chain, specialised
    (:func:`compile_spec` of its :func:`rule_spec`)."""
    return compile_spec(rule_spec(rule), transformer)


def compile_spec(spec: RuleSpec, transformer: type) -> tuple[Callable[..., Any], bool]:
    """The reduce action of the rule described by ``spec``.

    ``transformer`` is the transformer's class: the action of a rule with a
    method is an unbound function called ``action(state, children)`` with
    the parse's own transformer (``stateful`` is then True); the others
    (unit reductions, lists, trees) are called ``action(children)``."""
    name, kept, produces_list, expand1, size = spec
    method = getattr(transformer, name, None)
    if method is not None and getattr(method, "visit_wrapper", None) is not None:
        raise ValueError(f"v_args wrappers are not supported by the compiled reductions ({name})")
    splices = any(s for _, s in kept)
    stateful = method is not None and not produces_list

    # The node builder: the transformer method, a plain list for spliced
    # rules, or lark's default (a Tree) for rules without a method.
    build: Callable[..., Any]
    if produces_list:
        build = list
    elif method is not None:
        build = method
    else:

        def build(children: list, _name: str = name) -> Any:
            from lark import Tree

            return Tree(_name, children)

    if not splices:
        idx = [i for i, _ in kept]
        if expand1 and len(idx) == 1:
            return itemgetter(idx[0]), False  # `?rule: x` (after filtering): the child itself
        if len(idx) == size:
            select: Callback | None = None
        elif len(idx) == 1:
            k = idx[0]

            def select(c: list, _k: int = k) -> list:
                return [c[_k]]

        elif not idx:

            def select(c: list) -> list:
                return []

        else:
            getter = itemgetter(*idx)

            def select(c: list, _g: Callable = getter) -> list:
                return list(_g(c))

        if select is None:
            if produces_list or not expand1:
                return (build if build is not list else _identity), stateful
            return _expand_single(build, stateful), stateful
        if expand1:
            inner = _expand_single(build, stateful)
            if stateful:
                return (lambda tr, c, _s=select, _b=inner: _b(tr, _s(c))), True
            return (lambda c, _s=select, _b=inner: _b(_s(c))), False
        if build is list:
            return select, False
        if stateful:
            return (lambda tr, c, _s=select, _b=build: _b(tr, _s(c))), True
        return (lambda c, _s=select, _b=build: _b(_s(c))), False

    plan = tuple(kept)
    if build is list and len(plan) == 2 and plan[0] == (0, True) and not plan[1][1]:
        # `__x_star: __x_star [sep] x`, the left-recursive repetition: what
        # `spliced` does for this plan (extend the list in place), directly.
        k = plan[1][0]

        def append(c: list, _k: int = k) -> list:
            out = c[0]
            out.append(c[_k])
            return out

        return append, False

    def spliced(c: list, _plan: tuple = plan) -> list:
        out: list = []
        for i, splice in _plan:
            if splice:
                if out:
                    out += c[i]
                else:  # left recursion: extend the repetition's list in place
                    out = c[i]
            else:
                out.append(c[i])
        return out

    if build is list:
        return spliced, False
    if expand1:
        inner = _expand_single(build, stateful)
        if stateful:
            return (lambda tr, c, _s=spliced, _b=inner: _b(tr, _s(c))), True
        return (lambda c, _s=spliced, _b=inner: _b(_s(c))), False
    if stateful:
        return (lambda tr, c, _s=spliced, _b=build: _b(tr, _s(c))), True
    return (lambda c, _s=spliced, _b=build: _b(_s(c))), False


def _identity(c: list) -> list:
    return c


def _expand_single(build: Callable[..., Any], stateful: bool) -> Callable[..., Any]:
    if stateful:

        def expand_stateful(tr: Any, c: list, _b: Callable[..., Any] = build) -> Any:
            return c[0] if len(c) == 1 else _b(tr, c)

        return expand_stateful

    def expand(c: list, _b: Callback = build) -> Any:
        return c[0] if len(c) == 1 else _b(c)

    return expand


class Reductions:
    """The compiled reduce actions of a parser, shared by every parse:
    ``callbacks`` (lark's dictionary, in place) maps each rule to its
    action, ``stateful`` holds the rules whose action takes the parse's
    transformer first. Nothing here changes during a parse."""

    __slots__ = ("callbacks", "stateful")

    def __init__(self, callbacks: dict, stateful: frozenset) -> None:
        self.callbacks = callbacks
        self.stateful = stateful

    def bind(self, state: Any) -> dict:
        """The actions of one parse, for lark's own Python loop (which calls
        ``callbacks[rule](children)``): the stateful ones bound to that
        parse's transformer ``state``, each when the parse first needs it
        (binding all ~1,400 up front costs more than parsing a short
        chunk)."""
        return _BoundActions(self.callbacks, self.stateful, state)


_NONEMPTY = {None: None}


class _BoundActions(dict):
    """A parse's reduce actions, filled on first use (``__missing__``)."""

    __slots__ = ("_actions", "_stateful", "_state")

    def __init__(self, actions: dict, stateful: frozenset, state: Any) -> None:
        super().__init__(_NONEMPTY)  # lark's loop calls no action when the dictionary is empty
        self._actions = actions
        self._stateful = stateful
        self._state = state

    def __missing__(self, rule: Any) -> Callable[..., Any]:
        f = self._actions[rule]
        if rule in self._stateful:
            f = MethodType(f, self._state)
        self[rule] = f
        return f


def compile_reductions(lark: Lark, transformer: type) -> Reductions:
    """Install compiled reduce actions in ``lark`` (built with
    ``parser="lalr"``), in place: the parser keeps a reference to the
    callbacks dictionary and to the parse table. ``transformer`` is the
    transformer's class (each parse makes its own instance)."""
    from lark.grammar import Rule

    callbacks: dict = lark._callbacks  # type: ignore[attr-defined]
    table = lark.parser.parser._parse_table  # type: ignore[union-attr]
    compiled: dict[int, ReduceRule] = {}
    # One (action, argument) tuple per distinct entry, shared by every state
    # that has it: the table has ~200k entries but a few thousand distinct
    # ones (a tuple each would cost every process that parses: docs/performance.md).
    shared: dict[tuple[object, int | ReduceRule], tuple] = {}
    for actions in table.states.values():
        for term, (action, arg) in list(actions.items()):
            if isinstance(arg, Rule):
                rr = compiled.get(id(arg))
                if rr is None:
                    rr = compiled[id(arg)] = ReduceRule(arg)
                arg = rr
            actions[term] = shared.setdefault((action, arg), (action, arg))
    token_callbacks = {k: v for k, v in callbacks.items() if isinstance(k, str)}
    callbacks.clear()
    callbacks.update(token_callbacks)
    stateful = set()
    for rr in compiled.values():
        callbacks[rr], needs_state = compile_callback(rr.rule, transformer)
        if needs_state:
            stateful.add(rr)
    return Reductions(callbacks, frozenset(stateful))
