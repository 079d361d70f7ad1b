"""The compact on-disk form of the LALR table (affine_lsp/syntax/table_cache.py):
loading it gives exactly the table lark builds from the grammar, each
distinct entry is one shared object, and lark's own cache format outside
the context manager is untouched."""

from __future__ import annotations

import pickle
from pathlib import Path

from lark import Lark
from lark.parsers.lalr_analysis import ParseTableBase, Reduce

from affine_lsp.syntax import table_cache
from affine_lsp.syntax.engines import grammar_path, grammar_text


def _table(p: Lark) -> ParseTableBase:
    return p.parser.parser._parse_table  # type: ignore[union-attr]


def _name(sym: object) -> str:
    return str(getattr(sym, "name", sym))


def _plain(table: ParseTableBase) -> list:
    """The table with states numbered in breadth-first order from the start
    state (lark numbers them differently from one build to the next)."""
    start = table.start_states["start"]
    order = {start: 0}
    queue = [start]
    for state in queue:
        for tok in sorted(table.states[state]):
            action, arg = table.states[state][tok]
            if action is not Reduce and arg not in order:
                order[arg] = len(order)
                queue.append(arg)
    assert len(order) == len(table.states)
    out = []
    for state in queue:
        row = table.states[state]
        out.append(
            {
                str(tok): ("R", _name(arg.origin), tuple(_name(s) for s in arg.expansion), arg.alias) if action is Reduce else ("S", order[arg])
                for tok, (action, arg) in row.items()
            }
        )
    return out


def _build(cache: str | bool) -> Lark:
    return Lark(grammar_text(), parser="lalr", start="start", cache=cache, source_path=str(grammar_path()))


def test_compact_table_loads_as_the_table_lark_builds(tmp_path: Path) -> None:
    path = str(tmp_path / "table.tmp")
    reference = _plain(_table(_build(False)))
    with table_cache.compact_tables():
        built = _build(path)  # builds the tables and writes the compact cache
        loaded = _build(path)  # reads it back
    assert _plain(_table(built)) == reference
    assert _plain(_table(loaded)) == reference
    # Entries are shared: a few thousand distinct objects for ~225k entries.
    entries = [e for row in _table(loaded).states.values() for e in row.values()]
    assert len({id(e) for e in entries}) * 20 < len(entries)
    # The file is in the compact form.
    with open(path, "rb") as f:
        f.readline()
        pickle.load(f)  # the used files
        data = pickle.load(f)
    assert table_cache.FORMAT.encode() in pickle.dumps(data)


def test_lark_format_is_untouched_outside_the_context(tmp_path: Path) -> None:
    before = ParseTableBase.__dict__["serialize"], ParseTableBase.__dict__["deserialize"]
    with table_cache.compact_tables():
        assert ParseTableBase.__dict__["serialize"] is not before[0]
    assert (ParseTableBase.__dict__["serialize"], ParseTableBase.__dict__["deserialize"]) == before
    # A cache written by plain lark is read by plain lark, and also inside the context.
    path = str(tmp_path / "lark.tmp")
    reference = _plain(_table(_build(path)))
    assert _plain(_table(_build(path))) == reference
    with table_cache.compact_tables():
        assert _plain(_table(_build(path))) == reference


def test_cache_path_depends_on_the_grammar() -> None:
    a = table_cache.cache_path(["start: A"])
    assert a == table_cache.cache_path(["start: A"])
    assert a != table_cache.cache_path(["start: A B"])
    assert table_cache.FORMAT.split("-")[-1] and Path(a).name.startswith(".affine_lsp_lark_")
