"""The parser's fast paths build the same syntax records, and report the
same errors, as the plain grammar through lark's own machinery, on every
chunk of the corpus and the test data, and on broken variants of them:
the compiled reduce actions (affine_lsp/syntax/reductions.py) against
lark's wrapper chain, the lexer's one-token ``[%i, %j]``
(SIMPLE_SUBSCRIPTS) against the general subscript grammar, and the lexer's
per-state memo of token types against classifying every token, the
token generator lark-cython reads from against lark's LexerThread, and our
LALR driver (affine_lsp/syntax/driver.py) against lark's parser loop."""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import random
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from lark import Lark

from affine_lsp.ir.affine_expr import AffineExpr, AffineMap, IntegerSet
from affine_lsp.ir.core import Anchor, Span
from affine_lsp.source.document import Document
from affine_lsp.syntax import parser as P
from affine_lsp.syntax.driver import LalrDriver, NeedsLark
from affine_lsp.syntax.engines import ParserTables, make_driver, make_lark
from affine_lsp.syntax.lexer_lark import TokenStream
from affine_lsp.syntax.reductions import ReduceRule
from tests.corpus import corpus_files

ROOT = Path(__file__).resolve().parents[1]


def dump(x: Any, depth: int = 0) -> Any:
    """A structural, comparable image of a syntax record."""
    if depth > 400:
        raise RecursionError("syntax record too deep to compare")
    if isinstance(x, float):
        return ("float", repr(x))  # NaN != NaN
    if x is None or isinstance(x, bool | int | str):
        return x if not isinstance(x, str) else (type(x).__name__ != "str" and getattr(x, "type", None), str(x))
    if isinstance(x, Span):
        return ("span", x.start, x.end)
    if isinstance(x, AffineExpr | AffineMap | IntegerSet):
        return (type(x).__name__, str(x), dump(getattr(x, "span", None), depth + 1))
    if isinstance(x, list | tuple):
        return (type(x).__name__, [dump(v, depth + 1) for v in x])
    if isinstance(x, dict):
        return ("dict", [(k, dump(v, depth + 1)) for k, v in x.items()])
    if isinstance(x, Anchor):
        return "anchor"
    if dataclasses.is_dataclass(x):
        return (type(x).__name__, [(f.name, dump(getattr(x, f.name), depth + 1)) for f in dataclasses.fields(x)])
    slots = [s for cls in type(x).__mro__ for s in getattr(cls, "__slots__", ())]
    fields = {s: getattr(x, s) for s in slots if hasattr(x, s)}
    fields.update(getattr(x, "__dict__", {}))
    return (type(x).__name__, sorted((k, dump(v, depth + 1)) for k, v in fields.items() if k != "_hash"))


class _NoMemo(dict):
    """A memo that never remembers (the lexer classifies every token)."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


@lru_cache(maxsize=2)
def parser(fast: bool) -> tuple[Lark, ParserTables, LalrDriver | None]:
    lark, reductions = make_lark(P.ChunkTransformer, compiled=fast)
    if not fast:
        lexer = lark.parser.lexer  # type: ignore[union-attr]
        lexer.simple_subscripts = None
        lexer.memo, lexer.memo_kind = _NoMemo(), _NoMemo()
        vars(lark.parser).pop("_make_lexer_thread", None)  # lark's LexerThread and next_token
    driver = make_driver(lark, reductions, "ours" if fast else "lark")
    assert (driver is not None) == fast
    return lark, ParserTables(lark, reductions, driver, P.ChunkTransformer), driver


def parse_with(tables: Any, text: str) -> Any:
    """parse_chunk with ``tables`` in place of the process's parser tables:
    the item dumped and the notes."""
    saved = P._TABLES
    P._TABLES = tables
    try:
        r = P.parse_chunk(text, Anchor(0))
    finally:
        P._TABLES = saved
    return dump(r.item), [(n.severity, n.message, n.span.start, n.span.end) for n in r.notes]


def parse(text: str, fast: bool) -> Any:
    """Like parse_chunk, with or without the fast paths."""
    _, tables, _ = parser(fast)
    return parse_with(tables, text)


def chunk_texts() -> Iterator[tuple[str, str]]:
    files = corpus_files() + sorted((ROOT / "tests" / "data").rglob("*.mlir")) + sorted((ROOT / "examples").glob("*.mlir"))
    for f in files:
        for i, c in enumerate(Document(f.read_text(errors="replace")).chunks):
            if c.kind == "item" and c.text.strip():
                yield f"{f.name}#{i}", c.text


def broken(text: str, rng: random.Random) -> str:
    """Delete or duplicate a random slice: most results are syntax errors,
    some are valid programs of another shape."""
    a = rng.randrange(len(text))
    b = min(len(text), a + rng.randrange(1, 12))
    return text[:a] + text[b:] if rng.random() < 0.6 else text[:b] + text[a:b] + text[b:]


def test_the_parse_table_holds_compiled_rules() -> None:
    lark, _, _ = parser(True)
    rules = {type(arg) for acts in lark.parser.parser._parse_table.states.values() for _, arg in acts.values() if not isinstance(arg, int)}  # type: ignore[union-attr]
    assert rules == {ReduceRule}
    if importlib.util.find_spec("lark_cython") is not None and os.environ.get("AFFINE_LSP_ENGINE", "cython") == "cython":
        assert isinstance(lark.parser._make_lexer_thread("func.func @f()"), TokenStream)  # type: ignore[union-attr]


def test_fast_paths_build_the_same_records_as_the_plain_grammar() -> None:
    seen = 0
    for where, text in chunk_texts():
        assert parse(text, True) == parse(text, False), where
        seen += 1
    assert seen > 50  # the examples and test data alone have more


def test_simple_subscripts_are_one_token_and_the_rest_is_not() -> None:
    lark, _, _ = parser(True)
    lexer = lark.parser.lexer  # type: ignore[union-attr]
    assert lexer.simple_subscripts("[%i, %j#1,%k]", 0) is not None
    for general in ("[%i + 1, %j]", "[]", "[%i, symbol(%n)]", "[%i,\n %j]", "[%i, %j"):
        m = lexer.simple_subscripts(general, 0)
        assert m is None or m.end() < len(general.rstrip("]")), general
    text = "func.func @f(%A: memref<4x4xf32>, %i: index) {\n  %v = affine.load %A[%i, %i] : memref<4x4xf32>\n  return\n}\n"
    item, notes = parse(text, True)
    assert notes == [] and item == parse(text, False)[0]
    assert "(d0, d0)" in repr(item)


@pytest.mark.parametrize("seed", range(4))
def test_fast_paths_report_the_same_errors_on_broken_text(seed: int) -> None:
    rng = random.Random(seed)
    texts = [t for _, t in chunk_texts()]
    errors = 0
    for _ in range(150):
        text = broken(rng.choice(texts), rng)
        got, want = parse(text, True), parse(text, False)
        assert got == want, text
        errors += any(sev == "error" for sev, *_ in got[1])
    assert errors > 30  # the mutations do reach the error paths


def test_the_drivers_table_with_default_reductions_is_larks_table() -> None:
    """Every entry of lark's table for a terminal is the driver's action
    (shift to the same state, or reduce by the same rule), the default
    reduction standing for most; the driver keeps a small part of the
    entries (the rest is one default per state)."""
    lark, _, driver = parser(True)
    assert driver is not None
    callbacks = lark._callbacks  # type: ignore[attr-defined]
    states = lark.parser.parser._parse_table.states  # type: ignore[union-attr]
    gotos: dict[str, dict[int, int]] = {}
    kept = total = 0
    for state, row in states.items():
        acts, dflt = driver.actions[state], driver.defaults[state]
        for sym, (action, arg) in row.items():
            if not (sym.isupper() or sym.startswith("$")):
                continue  # a goto (nonterminal)
            total += 1
            got = acts.get(sym, dflt)
            if action.name == "Shift":
                assert got == arg, (state, sym)
                continue
            assert got is not None and got < 0, (state, sym)
            size, callback, goto, _ = driver.rules[~got]
            origin = arg.origin.name
            assert callback is callbacks[arg] and size == len(arg.expansion), (state, sym)
            if origin not in gotos:
                gotos[origin] = {s: r[origin][1] for s, r in states.items() if origin in r}
            assert goto == gotos[origin], (state, sym)
        kept += len(acts)
        assert all(s in row for s in acts)  # no entry lark does not have
    assert kept < total // 4


def test_the_driver_parses_valid_chunks_itself_and_hands_errors_to_lark() -> None:
    _, _, driver = parser(True)
    assert driver is not None
    valid = "func.func @f(%A: memref<4xf32>) {\n  affine.for %i = 0 to 4 {\n    %v = affine.load %A[%i] : memref<4xf32>\n  }\n  return\n}\n"
    op = driver.parse(valid, P.ChunkTransformer(Anchor(0)))
    assert op.name == "func.func" and op.regions[0].blocks[0].ops[0].name == "affine.for"
    for bad in ("func.func @f() {\n  affine.for %i = 0 too 4 {\n  }\n}\n", "func.func @f() {\n  \x01\n}\n", "func.func @f() {\n"):
        with pytest.raises(NeedsLark):
            driver.parse(bad, P.ChunkTransformer(Anchor(0)))
        item, notes = parse(bad, True)
        assert item is None and notes == parse(bad, False)[1] and notes[0][0] == "error"


def test_default_reductions_are_kept_only_without_a_cycle_of_unit_rules() -> None:
    """A cycle of one-symbol rules (``a: b``, ``b: a``) could reduce forever
    without a shift once defaults stand for the rows' reductions: the
    driver checks the table's rules and keeps no default then."""
    from lark.parsers.lalr_analysis import Reduce, Shift

    from affine_lsp.syntax.driver import _unit_rule_cycle

    class Sym:
        def __init__(self, name: str) -> None:
            self.name = name

    class R:
        def __init__(self, origin: str, *expansion: str) -> None:
            self.origin = Sym(origin)
            self.expansion = [Sym(e) for e in expansion]

    chain = {0: {"X": (Reduce, R("a", "b")), "Y": (Reduce, R("b", "c")), "Z": (Shift, 1)}, 1: {"X": (Reduce, R("c", "D", "e"))}}
    assert not _unit_rule_cycle(chain)
    cyclic = {**chain, 2: {"X": (Reduce, R("c", "a"))}}
    assert _unit_rule_cycle(cyclic)
    lark, _, driver = parser(True)
    assert driver is not None
    assert not _unit_rule_cycle(lark.parser.parser._parse_table.states)  # type: ignore[union-attr]
    assert any(d is not None for d in driver.defaults)
