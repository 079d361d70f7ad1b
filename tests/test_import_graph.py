"""The import graph of the package (docs/architecture.md, "How the server is
built"): no import circle inside ``server/`` or ``transforms/``, no private
(underscore) name used across modules, ``ide/`` free of LSP, every LSP route
in one table.

Every import counts: at module level, inside a function, under
``TYPE_CHECKING``, relative or absolute (read with :mod:`ast`, nothing is
imported)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "affine_lsp"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


@dataclass(frozen=True)
class Edge:
    """``source`` imports ``target`` (a module); ``names`` are the names
    taken from it (``from target import a, b``), else empty."""

    source: str
    target: str
    names: tuple[str, ...]
    line: int


def _resolve(module: str | None, level: int, package: str) -> str:
    if not level:
        return module or ""
    base = package.split(".")
    base = base[: len(base) - level + 1]
    return ".".join(base + ([module] if module else []))


def _edges(name: str, path: Path, tree: ast.AST | None = None) -> Iterator[Edge]:
    """Every import of the module ``name`` (read from ``path``, or ``tree``)."""
    package = _package_of(name, path)
    for node in ast.walk(tree if tree is not None else ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Edge(name, alias.name, (), node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node.module, node.level, package)
            plain: list[str] = []
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in MODULES:  # from package import submodule
                    yield Edge(name, sub, (), node.lineno)
                else:
                    plain.append(alias.name)
            if plain or not node.names:
                yield Edge(name, base, tuple(plain), node.lineno)


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for name, path in MODULES.items():
        for e in _edges(name, path):
            if e.target in MODULES and e.target != name:
                graph[name].add(e.target)
    return graph


def _circles(graph: dict[str, set[str]], inside: str) -> list[list[str]]:
    """The strongly connected components of more than one module among the
    modules of package ``inside`` (Tarjan)."""
    nodes = [m for m in graph if m == inside or m.startswith(inside + ".")]
    member = set(nodes)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v] & member):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp: list[str] = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in nodes:
        if v not in index:
            visit(v)
    return out


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _private_uses(name: str, path: Path, tree: ast.AST | None = None) -> list[str]:
    """``from x import _y`` and ``x._y`` (``x`` an imported module of the
    package) in the module ``name``, for ``x`` another module."""
    tree = tree if tree is not None else ast.parse(path.read_text(encoding="utf-8"))
    bad: list[str] = []
    bound: dict[str, str] = {}  # local name -> module of the package it is bound to
    for e in _edges(name, path, tree):
        if not (e.target == "affine_lsp" or e.target.startswith("affine_lsp.")) or e.target == name:
            continue
        bad += [f"{name}:{e.line}: from {e.target} import {n}" for n in e.names if _private(n)]
        if _private(e.target.rpartition(".")[2]) and not e.target.startswith(name + "."):
            bad.append(f"{name}:{e.line}: imports the private module {e.target}")
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = _resolve(node.module, node.level, _package_of(name, path))
            for alias in node.names:
                if f"{base}.{alias.name}" in MODULES:
                    bound[alias.asname or alias.name] = f"{base}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name in MODULES:
                    bound[alias.asname] = alias.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and _private(node.attr):
            target = bound.get(node.value.id)
            if target is not None and target != name:
                bad.append(f"{name}:{node.lineno}: {target}.{node.attr}")
    return bad


def test_no_import_circle_in_the_server_or_the_transformations() -> None:
    graph = _graph()
    assert _circles(graph, "affine_lsp.server") == []
    assert _circles(graph, "affine_lsp.transforms") == []


def test_no_private_name_is_used_across_modules() -> None:
    bad = [b for name, path in MODULES.items() for b in _private_uses(name, path)]
    assert bad == []


def test_the_ide_layer_imports_no_lsp() -> None:
    bad = [
        f"{name}:{e.line}: {e.target}"
        for name, path in MODULES.items()
        if name.startswith("affine_lsp.ide")
        for e in _edges(name, path)
        if e.target.split(".")[0] in ("lsprotocol", "pygls") or e.target.startswith("affine_lsp.server")
    ]
    assert bad == []


def _feature_calls(tree: ast.AST) -> list[int]:
    """Lines of ``x.feature(...)`` and ``x.command(...)`` calls (pygls'
    registration of a route)."""
    return [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("feature", "command")]


SERVER_USERS = {"affine_lsp.server", "affine_lsp.commands.serve"}
"""The modules that may import the server's class: the package (its
``create_server``) and the ``serve`` command that runs it."""


def test_every_route_is_in_one_table() -> None:
    from affine_lsp.server import routes

    outside = [
        f"{name}:{line}"
        for name, path in MODULES.items()
        if name != "affine_lsp.server.routes"
        for line in _feature_calls(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert outside == []
    methods = [r.method for r in routes.ROUTES]
    assert len(methods) == len(set(methods))
    assert {r.schedule for r in routes.ROUTES} <= set(routes.Schedule)
    # no feature module registers itself
    registers = [
        name
        for name, path in MODULES.items()
        if name.startswith("affine_lsp.server")
        and any(isinstance(n, ast.FunctionDef) and n.name == "register" for n in ast.parse(path.read_text(encoding="utf-8")).body)
    ]
    assert registers == []
    # a feature module never sees the server object
    server_users = [
        f"{e.source}:{e.line}"
        for name, path in MODULES.items()
        if name not in SERVER_USERS
        for e in _edges(name, path)
        if e.target == "affine_lsp.server.server"
    ]
    assert server_users == []


def test_the_graph_reader_sees_every_kind_of_import() -> None:
    # the checks above must not pass by missing imports: function-local,
    # TYPE_CHECKING, relative and private imports are all found
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from affine_lsp.server.server import AffineLanguageServer\n"
        "def f():\n    from ..transforms import tile\n    from .analysis_engine import _private_helper\n    return tile._hidden\n"
    )
    tree = ast.parse(source)
    path = PACKAGE / "server" / "probe.py"
    targets = {e.target for e in _edges("affine_lsp.server.probe", path, tree)}
    assert {"affine_lsp.server.server", "affine_lsp.transforms.tile", "affine_lsp.server.analysis_engine"} <= targets
    bad = _private_uses("affine_lsp.server.probe", path, tree)
    assert any("_private_helper" in b for b in bad) and any("tile._hidden" in b for b in bad)
    assert _circles({"p.a": {"p.b"}, "p.b": {"p.a"}, "p.c": {"p.a"}}, "p") == [["p.a", "p.b"]]


def _module_locks(tree: ast.Module) -> list[str]:
    """The names bound at module level to a new lock (``threading.Lock()``
    or ``RLock()``, wrapped in a registration or not)."""
    out = []
    for node in tree.body:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if value is None:
            continue
        makes = any(isinstance(n, ast.Call) and (getattr(n.func, "attr", None) or getattr(n.func, "id", None)) in ("Lock", "RLock") for n in ast.walk(value))
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if makes:
            out += [t.id for t in targets if isinstance(t, ast.Name)]
    return out


def test_every_module_level_lock_is_registered_with_the_fork_protocol() -> None:
    import importlib

    from affine_lsp import forking

    locks = [(name, lock) for name, path in MODULES.items() for lock in _module_locks(ast.parse(path.read_text(encoding="utf-8")))]
    assert len(locks) >= 8  # (the analyses', the parser's, the caches')
    for name, _ in locks:
        importlib.import_module(name)
    held, exempt = forking.registered()
    missing = [f"{name}.{lock}" for name, lock in locks if f"{name}.{lock}" not in held and f"{name}.{lock}" not in exempt]
    assert missing == []
    assert held == ["affine_lsp.analysis.polyhedral.SEMI_LOCK", "affine_lsp.analysis.isl_support.LOCK", "affine_lsp.analysis.CACHE_LOCK"]


def test_the_lock_finder_sees_a_lock_that_is_not_registered() -> None:
    tree = ast.parse("import threading\nX = 1\n_L = threading.Lock()\nR: object = forking.held_across_fork(threading.RLock(), 'm.R', 0)\n")
    assert _module_locks(tree) == ["_L", "R"]


def test_only_the_fork_protocol_forks() -> None:
    forks = [
        f"{name}:{n.lineno}"
        for name, path in MODULES.items()
        if name != "affine_lsp.forking"
        for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(n, ast.Attribute) and n.attr == "fork" and isinstance(n.value, ast.Name) and n.value.id == "os"
    ]
    assert forks == []


def test_every_handler_is_short() -> None:
    # a handler translates: from the params, to the answer (docs/architecture.md)
    import functools
    import inspect

    from affine_lsp.server import routes

    handlers = [r.handler.func if isinstance(r.handler, functools.partial) else r.handler for r in routes.ROUTES]
    long = [f"{h.__module__}.{h.__name__}: {n} lines" for h in handlers if (n := len(inspect.getsource(h).splitlines())) > 25]
    assert long == []
