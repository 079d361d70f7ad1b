"""Our lexer (:mod:`.lexer`) as lark's parsers want it: what lark's own
loop (the error path, ``AFFINE_LSP_DRIVER=lark``) and lark-cython's loop
call. Importing this module loads lark (and lark-cython when installed)
and registers their token types with the reduce actions
(:data:`~affine_lsp.syntax.opkit.TOKEN_TYPES`); a start whose driver's
table comes from its cache and that parses only valid text never does."""

from __future__ import annotations

from typing import Any

import lark
from lark.lexer import Lexer, LexerState

from affine_lsp.syntax.lexer import FastLexing
from affine_lsp.syntax.opkit import register_token_types

register_token_types(lark.Token)


class FastLexer(FastLexing, Lexer):
    """The lexer for lark's pure-Python LALR parser."""

    def make_lexer_state(self, text: Any) -> LexerState:
        return LexerState(text)


try:  # lark-cython is an optional speed-up
    import lark_cython.lark_cython as _lc
except ImportError:  # pragma: no cover
    _lc = None


if _lc is not None:
    register_token_types(_lc.Token)

    class FastLexerCython(FastLexing, _lc.Lexer, Lexer):  # type: ignore[misc, valid-type]
        """The lexer for lark-cython's parser, which requires its lexer to
        derive from its own ``Lexer``, calls ``next_token`` directly and
        wants its own token type."""

        new = _lc.Token

        def make_lexer_state(self, text: Any) -> Any:
            return _lc.LexerState(text, _lc.LineCounter("\n"))


class TokenStream:
    """What lark-cython's parser loop reads tokens from, in place of its
    ``LexerThread``: ``next_token(parser_state)`` is the ``send`` of a
    :meth:`_FastLexing.stream` generator, which costs less per token than a
    method call through the thread into the lexer."""

    __slots__ = ("next_token", "_gen")

    def __init__(self, lexer: FastLexing, text: str) -> None:
        gen = lexer.stream(text)
        next(gen)
        self._gen = gen
        self.next_token = gen.send


def lexer_class(cython: bool) -> type:
    """The lexer class for the chosen parser engine."""
    if cython and _lc is not None:
        return FastLexerCython
    return FastLexer
