"""Which machinery runs the grammar, chosen once per process, and the tables
every parse shares.

The grammar (``grammar/mlir.lark`` and the family files it imports) is
turned by lark into LALR tables; :func:`build_tables` builds them with
the lexer, the reduce actions and the parser loop chosen by its arguments
or by the environment (the benchmark and the tests compare them):

* ``AFFINE_LSP_LEXER``: ``fast`` (ours, :mod:`.lexer`, default) or
  ``contextual`` (lark's);
* ``AFFINE_LSP_ENGINE``: ``cython`` (lark-cython's loop, default when it is
  installed) or ``python`` (lark's);
* ``AFFINE_LSP_REDUCTIONS``: ``compiled`` (:mod:`.reductions`, default) or
  ``lark`` (lark's wrapper chain);
* ``AFFINE_LSP_DRIVER``: ``ours`` (:mod:`.driver`, default when the lexer
  and the reduce actions are ours) or ``lark`` (lark's loop for every
  chunk, not only for the chunks with an error).

:class:`ParserTables` holds what every parse shares and never changes
during one (the tables, the reduce actions, the lexer and its memos of
token types); each parse brings its own transformer (its notes, its
per-map names), as MLIR's ``AsmParser`` keeps its state per parse, so any
number of threads may parse at once.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from affine_lsp.syntax.driver import LalrDriver
from affine_lsp.syntax.lexer import FastLexing
from affine_lsp.syntax.reductions import Reductions, compile_reductions

if TYPE_CHECKING:
    from lark import Lark

GRAMMAR_PATH = Path(__file__).resolve().parent.parent.parent / "grammar" / "mlir.lark"
_PACKAGED_GRAMMAR = Path(__file__).resolve().parent.parent / "grammar" / "mlir.lark"


@lru_cache(maxsize=1)
def grammar_path() -> Path:
    """``mlir.lark``; the family grammars it ``%import``s (``scf.lark``,
    ``gpu.lark``, ...) sit next to it and are found relative to it, so lark
    must be given this path as ``source_path``."""
    for p in (GRAMMAR_PATH, _PACKAGED_GRAMMAR):
        if p.exists():
            return p
    raise FileNotFoundError("grammar/mlir.lark not found")


@lru_cache(maxsize=1)
def grammar_text() -> str:
    return grammar_path().read_text()


def grammar_texts() -> list[str]:
    """The text of ``mlir.lark`` and of every family grammar beside it."""
    main = grammar_path()
    return [main.read_text()] + [p.read_text() for p in sorted(main.parent.glob("*.lark")) if p != main]


class _LarkParts:
    """lark's parser and what its loop needs, once built."""

    __slots__ = ("lark", "reductions", "frontend", "loop", "python_loop", "table", "builders")

    def __init__(self, lark: Lark, reductions: Reductions | None) -> None:
        from lark.parsers.lalr_parser import _Parser as _LarkLoop

        self.lark = lark
        self.reductions = reductions
        frontend = lark.parser
        self.frontend = frontend
        self.loop = type(frontend.parser.parser)  # type: ignore[union-attr]  # lark's (or lark-cython's) _Parser
        self.python_loop = self.loop is _LarkLoop
        self.table = frontend.parser._parse_table  # type: ignore[union-attr]
        self.builders = dict(lark._parse_tree_builder.rule_builders)  # type: ignore[attr-defined]  # rule -> lark's wrapper chain


class ParserTables:
    """What every parse shares: lark's parser (its tables and lexer), the
    compiled reduce actions (None with lark's wrapper chain) and our
    driver (None when lark's loop parses every chunk). Read-only once
    built; the state of a parse is the transformer passed to
    :meth:`lark_parse` or the driver's ``parse``.

    lark's parser may be built later than the driver (``build_lark``: a
    start that read the driver's table from its cache, :mod:`.driver_cache`),
    the first time a chunk needs lark's loop (a syntax error) or something
    asks for :attr:`lark` or :attr:`reductions`; built once, under a lock."""

    __slots__ = ("driver", "_parts", "_build_lark", "_lock", "_transformer", "_routes")

    def __init__(
        self,
        lark: Lark | None,
        reductions: Reductions | None,
        driver: LalrDriver | None,
        transformer: type,
        build_lark: Callable[[], tuple[Lark, Reductions | None]] | None = None,
    ) -> None:
        if lark is None and build_lark is None:
            raise ValueError("lark's parser or a way to build it is needed")
        self.driver = driver
        self._parts = _LarkParts(lark, reductions) if lark is not None else None
        self._build_lark = build_lark
        self._lock = threading.Lock()
        self._transformer = transformer
        self._routes = threading.local()

    def _lark_parts(self) -> _LarkParts:
        parts = self._parts
        if parts is None:
            with self._lock:
                parts = self._parts
                if parts is None:
                    assert self._build_lark is not None
                    parts = self._parts = _LarkParts(*self._build_lark())
        return parts

    def after_fork(self) -> None:
        """In a process just forked beside other threads: a new lock for the
        build of lark's parser (another thread may have held it; the build
        it guarded is not in this process, which builds its own if a parse
        needs it)."""
        self._lock = threading.Lock()

    @property
    def lark_built(self) -> bool:
        """Whether lark's parser has been built in this process."""
        return self._parts is not None

    @property
    def lark(self) -> Lark:
        return self._lark_parts().lark

    @property
    def reductions(self) -> Reductions | None:
        return self._lark_parts().reductions

    def lark_parse(self, text: str, tr: Any) -> Any:
        """``text`` parsed by lark's own loop (which reports errors), its
        reduce actions building records with the transformer ``tr``.

        lark's Python loop gets a dictionary of this parse's actions, each
        bound to ``tr`` when the parse first needs it. lark-cython's loop
        wants a plain dictionary with every action: binding ~1,400 per
        parse costs milliseconds, so each thread builds one, once, whose
        actions call the transformer of the parse running on that thread
        (:class:`_Route`); a parse sets it for its duration."""
        parts = self._lark_parts()
        if parts.python_loop:
            if parts.reductions is not None:
                callbacks = parts.reductions.bind(tr)
            else:
                callbacks = _LazyWrapperChain(parts.builders, tr)
            return parts.loop(parts.table, callbacks, False).parse(parts.frontend._make_lexer_thread(text), "start")
        route = getattr(self._routes, "route", None)
        if route is None or route.tr is not None:  # (a parse inside a parse on this thread: a route of its own)
            route = _Route(parts.reductions, parts.lark, self._transformer)
            if getattr(self._routes, "route", None) is None:
                self._routes.route = route
        route.tr = tr
        try:
            return parts.loop(parts.table, route.callbacks, False).parse(parts.frontend._make_lexer_thread(text), "start")
        finally:
            route.tr = None


class _LazyWrapperChain(dict):
    """One parse's reduce actions through lark's wrapper chain, each built
    (as lark's ``ParseTreeBuilder.create_callback`` does) when the parse
    first needs it."""

    __slots__ = ("_builders", "_tr")

    def __init__(self, builders: dict, tr: Any) -> None:
        super().__init__({None: None})  # lark's loop calls no action when the dictionary is empty
        self._builders = builders
        self._tr = tr

    def __missing__(self, rule: Any) -> Any:
        chain = self._builders[rule]
        name = rule.alias or rule.options.template_source or rule.origin.name
        f = getattr(self._tr, name, None)
        if f is None:
            f = partial(_default_callback, self._tr.__default__, name)
        elif getattr(f, "visit_wrapper", None) is not None:
            raise ValueError(f"v_args wrappers are not supported ({name})")
        for w in chain:
            f = w(f)
        self[rule] = f
        return f


def _default_callback(default: Any, data: str, children: list) -> Any:
    return default(data, children, None)


class _Route:
    """A thread's reduce actions for lark-cython's loop, built once, calling
    the transformer of the parse running on the thread (``tr``, set by
    :meth:`ParserTables.lark_parse` for the parse's duration)."""

    __slots__ = ("tr", "callbacks")

    def __init__(self, reductions: Reductions | None, lark: Lark, transformer: type) -> None:
        self.tr: Any = None
        if reductions is not None:
            callbacks = dict(reductions.callbacks)
            for rule in reductions.stateful:
                callbacks[rule] = partial(_routed, callbacks[rule], self)
            self.callbacks = callbacks
        else:
            self.callbacks = lark._parse_tree_builder.create_callback(_RoutedTransformer(self, transformer))  # type: ignore[attr-defined]


def _routed(action: Any, route: _Route, children: list) -> Any:
    return action(route.tr, children)


class _RoutedTransformer:
    """What lark's ``create_callback`` binds the wrapper chain to for a
    :class:`_Route`: each method calls that of the parse's transformer."""

    def __init__(self, route: _Route, transformer: type) -> None:
        self._route = route
        self._cls = transformer

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._cls, name)  # AttributeError: lark's default (a tree)
        route = self._route
        return lambda *args: method(route.tr, *args)


def make_lark(transformer: type, lexer: str | None = None, engine: str | None = None, compiled: bool | None = None) -> tuple[Lark, Reductions | None]:
    """The LALR parser and its compiled reduce actions (None: lark's
    wrapper chain). ``lexer``: ``fast`` (ours, default) or ``contextual``
    (lark's); ``engine``: ``cython`` (lark-cython, default when installed)
    or ``python``; ``compiled``: reduce actions compiled by
    :mod:`.reductions` (default) or lark's wrapper chain; the environment
    chooses what is not given (module docstring)."""
    lexer = lexer or os.environ.get("AFFINE_LSP_LEXER", "fast")
    engine = engine or os.environ.get("AFFINE_LSP_ENGINE", "cython")
    # lark stores the LALR tables in the temp folder (slow to build), in
    # the compact form of .table_cache (lark's own form is large to load:
    # docs/performance.md), and checks the hash of the grammar and options stored in it.
    # The transformer given to lark is a prototype none of our parses uses
    # (lark binds its own callbacks to it; each parse binds to its own).
    global LARK_BUILDS
    LARK_BUILDS += 1
    from lark import Lark

    from affine_lsp.syntax.lexer_lark import TokenStream, lexer_class
    from affine_lsp.syntax.table_cache import cache_path, compact_tables

    prototype = transformer(None)
    kwargs: dict[str, Any] = dict(parser="lalr", start="start", transformer=prototype, source_path=str(grammar_path()))
    cython = False
    if engine == "cython":
        try:
            import lark_cython

            kwargs["_plugins"] = lark_cython.plugins
            cython = True
        except ImportError:  # pragma: no cover - optional speed-up
            pass
    kwargs["lexer"] = lexer_class(cython) if lexer == "fast" else "contextual"
    options = repr(sorted((k, str(v)) for k, v in kwargs.items() if k not in ("transformer", "_plugins")))
    with compact_tables():
        p = Lark(grammar_text(), cache=cache_path(grammar_texts(), options), **kwargs)
    if compiled is None:
        compiled = os.environ.get("AFFINE_LSP_REDUCTIONS", "compiled") == "compiled"
    reductions = compile_reductions(p, transformer) if compiled else None
    if lexer == "fast":
        frontend = p.parser
        frontend.lexer.bind(frontend.parser._parse_table.states)  # type: ignore[union-attr]
        if cython:
            # lark-cython's loop reads tokens from a generator of ours.
            frontend._make_lexer_thread = lambda text, _lexer=frontend.lexer: TokenStream(_lexer, text)  # type: ignore[method-assign]
    return p, reductions


LARK_BUILDS = 0
"""How many times this process has built lark's parser (:func:`make_lark`):
a start whose driver's table comes from its cache and that parses only
valid text builds none (``tests/test_driver_cache.py``)."""


def make_driver(parser: Lark, reductions: Reductions | None, driver: str | None = None) -> LalrDriver | None:
    """Our LALR loop (:mod:`.driver`) over ``parser``'s tables, unless
    ``driver`` (or AFFINE_LSP_DRIVER) is ``lark`` or the parser does not
    use our lexer and compiled reduce actions."""
    driver = driver or os.environ.get("AFFINE_LSP_DRIVER", "ours")
    lexer = parser.parser.lexer  # type: ignore[union-attr]
    if driver == "lark" or not isinstance(lexer, FastLexing) or reductions is None:
        return None
    return LalrDriver.from_lark(parser, reductions)


def _choices(lexer: str | None, engine: str | None, compiled: bool | None, driver: str | None) -> tuple[str, str, bool, str]:
    lexer = lexer or os.environ.get("AFFINE_LSP_LEXER", "fast")
    engine = engine or os.environ.get("AFFINE_LSP_ENGINE", "cython")
    if compiled is None:
        compiled = os.environ.get("AFFINE_LSP_REDUCTIONS", "compiled") == "compiled"
    driver = driver or os.environ.get("AFFINE_LSP_DRIVER", "ours")
    return lexer, engine, compiled, driver


def cached_driver(transformer: type, path: Path | None = None) -> LalrDriver | None:
    """Our driver and lexer from the driver's table cache
    (:mod:`.driver_cache`; ``path``: another file than its own), or None
    when the cache does not hold them."""
    from affine_lsp.syntax import driver_cache
    from affine_lsp.syntax.lexer import CachedLexer
    from affine_lsp.syntax.reductions import compile_spec

    cached = driver_cache.load(driver_cache.cache_key(grammar_texts()), path)
    if cached is None:
        return None
    try:
        lexer = CachedLexer(cached.keywords, cached.punct, cached.subscripts, cached.accepts)
        return LalrDriver(lexer, cached.flat, [compile_spec(spec, transformer) for spec in cached.flat.specs])
    except Exception:  # (a cache that does not fit this code: built again)
        return None


def store_driver(driver: LalrDriver, path: Path | None = None) -> bool:
    """Store ``driver``'s table and lexer data for the next start."""
    from affine_lsp.syntax import driver_cache

    lexer = driver.lexer
    return driver_cache.store(driver_cache.cache_key(grammar_texts()), driver.flat, lexer.vocabulary(), lexer.accepts, path)


def build_tables(
    transformer: type, lexer: str | None = None, engine: str | None = None, compiled: bool | None = None, driver: str | None = None
) -> ParserTables:
    """The shared tables for the transformer class ``transformer``, with the
    machinery the arguments (or the environment) choose.

    In the default mode (our lexer, compiled reduce actions, our driver)
    the driver's table comes from its cache when it holds it, and lark's
    parser is built only when a parse needs it (:class:`ParserTables`);
    otherwise lark's parser is built, the driver from it, and its table
    stored for the next start."""
    lexer, engine, compiled, driver = _choices(lexer, engine, compiled, driver)

    def build_lark() -> tuple[Lark, Reductions | None]:
        return make_lark(transformer, lexer, engine, compiled)

    ours = lexer == "fast" and compiled and driver != "lark"
    if ours and os.environ.get("AFFINE_LSP_DRIVER_CACHE", "1") != "0":
        d = cached_driver(transformer)
        if d is not None:
            return ParserTables(None, None, d, transformer, build_lark)
    lark, reductions = build_lark()
    d = make_driver(lark, reductions, driver)
    if d is not None and os.environ.get("AFFINE_LSP_DRIVER_CACHE", "1") != "0":
        store_driver(d)
    return ParserTables(lark, reductions, d, transformer)
