"""How the package is put together (docs/architecture.md): the server and
the CLI share answers through ``affine_lsp/ide/`` and never import each
other; one registry of transformations feeds the code actions, the loop
hover and the CLI; ``DocumentState`` declares its fields; ``--help``
imports no command and no transformation."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from affine_lsp import cli
from affine_lsp.transforms import loop_verdicts
from affine_lsp.transforms.catalog import TRANSFORMATIONS

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "affine_lsp"


def _from_import(node: ast.ImportFrom, package: str) -> set[str]:
    """The module a ``from ... import`` names (relative ones resolved in
    ``package``) and each name it imports as a possible submodule."""
    base = node.module or ""
    if node.level:
        base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
    return {base, *(f"{base}.{a.name}" for a in node.names)}


def _imports(path: Path, package: str | None = None) -> set[str]:
    """Every module ``path`` (of ``package``, by default the one it is in)
    imports, at any depth of its code."""
    out: set[str] = set()
    if package is None:
        package = ".".join(["affine_lsp", *path.relative_to(PACKAGE).parts[:-1]])
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            out |= _from_import(node, package)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__"):
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                out.add(node.args[0].value)
    return out


def _modules(sub: str) -> list[Path]:
    return sorted((PACKAGE / sub).rglob("*.py"))


def _inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_server_and_the_commands_do_not_import_each_other() -> None:
    bad = [f"{p.relative_to(ROOT)}: {m}" for p in _modules("server") for m in _imports(p) if _inside(m, "affine_lsp.commands")]
    bad += [f"{p.relative_to(ROOT)}: {m}" for p in _modules("commands") if p.name != "serve.py" for m in _imports(p) if _inside(m, "affine_lsp.server")]
    assert bad == []


def test_the_ide_layer_knows_no_lsp_and_no_front_end() -> None:
    forbidden = ("affine_lsp.server", "affine_lsp.commands", "affine_lsp.cli", "lsprotocol", "pygls")
    bad = [f"{p.relative_to(ROOT)}: {m}" for p in _modules("ide") for m in _imports(p) if any(_inside(m, f) for f in forbidden)]
    assert bad == []


def test_the_import_checker_sees_function_level_and_relative_imports(tmp_path: Path) -> None:
    # the checker above must not pass by missing imports: a module of the
    # server importing a command lazily, relatively or by name is found
    probe = tmp_path / "probe.py"
    probe.write_text(
        "def f():\n    from affine_lsp.commands import check\n    from ..commands.frontend import read_input\n"
        "    import importlib\n    importlib.import_module('affine_lsp.commands.deps')\n"
    )
    found = {m for m in _imports(probe, "affine_lsp.server") if _inside(m, "affine_lsp.commands")}
    assert {"affine_lsp.commands.check", "affine_lsp.commands.frontend", "affine_lsp.commands.deps"} <= found


def test_every_transformation_is_one_record() -> None:
    names = [t.name for t in TRANSFORMATIONS]
    assert len(set(names)) == len(names)
    for t in TRANSFORMATIONS:
        module = importlib.import_module(t.module)
        for fn in (t.actions, t.verdicts, t.rewrite):
            assert fn is None or callable(getattr(module, fn)), (t.name, fn)
        assert (t.rewrite is None) == (t.command is not None), t.name  # a CLI either way, exactly one
        for k in t.settings:
            assert k in ("vf", "tile_sizes"), (t.name, k)
        # the CLI subcommand
        assert cli.SUBCOMMANDS[t.name] == (t.command or cli.TRANSFORMATION_COMMAND, t.help)
    # the hover asks every transformation with verdicts, in the registry's order
    assert [c.__name__ for c in loop_verdicts.checks()] == [t.verdicts for t in TRANSFORMATIONS if t.verdicts]


def test_every_transformation_has_its_cli_options() -> None:
    parser, runs = cli.build_parser("*")
    sub = next(a for a in parser._actions if a.dest == "command")
    for t in TRANSFORMATIONS:
        p = sub.choices[t.name]  # type: ignore[index]
        opts = {o for a in p._actions for o in a.option_strings}
        assert {"--loop", "--all", "-o"} <= opts, t.name
        assert {f for o in t.options for f in o.flags} <= opts, t.name
        assert callable(runs[t.name])


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["tile", "--help"]])
def test_help_imports_no_transformation(argv: list[str]) -> None:
    code = (
        "import sys, contextlib, io\n"
        "from affine_lsp import cli\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        f"    cli.main({argv!r})\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('affine_lsp'))))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    loaded = set(r.stdout.split())
    assert r.returncode == 0 and loaded, r.stderr
    assert not any(_inside(m, "affine_lsp.syntax") or _inside(m, "affine_lsp.analysis") for m in loaded), loaded
    transforms = {m for m in loaded if _inside(m, "affine_lsp.transforms")}
    commands = {m for m in loaded if _inside(m, "affine_lsp.commands")}
    assert transforms <= {"affine_lsp.transforms", "affine_lsp.transforms.catalog"}
    allowed = {"affine_lsp.commands", "affine_lsp.commands.frontend", "affine_lsp.ide", "affine_lsp.ide.sources"}
    if argv[0] == "tile":
        allowed.add("affine_lsp.commands.transformation")
    assert commands <= allowed, commands


def test_document_state_declares_its_fields() -> None:
    from affine_lsp.server.state import DocumentState

    st = DocumentState("file:///t.mlir", "", 1)
    with pytest.raises(AttributeError):
        st.not_a_field = 1  # type: ignore[attr-defined]
    # and no module sets an attribute by name on anything
    bad = [
        f"{p.relative_to(ROOT)}:{n.lineno}"
        for p in _modules("server")
        for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "setattr"
    ]
    assert bad == []


def _module_level_imports(path: Path) -> set[str]:
    """The modules ``path`` imports when it is imported: at module level,
    outside ``if TYPE_CHECKING:`` (not inside functions)."""
    package = ".".join(["affine_lsp", *path.relative_to(PACKAGE).parts[:-1]])
    out: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit(node.orelse)
            elif isinstance(node, ast.If | ast.Try | ast.With):
                for block in ("body", "orelse", "finalbody", "handlers"):
                    for sub in getattr(node, block, []):
                        visit(sub.body if isinstance(sub, ast.ExceptHandler) else [sub])
            elif isinstance(node, ast.Import):
                out.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                out.update(_from_import(node, package))

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return out


def test_the_document_sits_above_the_syntax_and_the_ir_and_below_the_verifier() -> None:
    # source/ (the Document) parses and builds: syntax/ and ir/ never load it
    # when imported (a type annotation or a function's own import may name it)
    below = [p for sub in ("syntax", "ir") for p in _modules(sub)]
    bad = [f"{p.relative_to(ROOT)}: {m}" for p in below for m in _module_level_imports(p) if _inside(m, "affine_lsp.source") or _inside(m, "affine_lsp.verify")]
    bad += [
        f"{p.relative_to(ROOT)}: {m}"
        for p in _modules("source")
        for m in _imports(p)
        if any(_inside(m, f"affine_lsp.{x}") for x in ("verify", "analysis", "transforms", "ide", "server", "commands"))
    ]
    assert bad == []


def test_every_compiled_module_exists() -> None:
    # setup.py's extensions are optional: a renamed module missing from
    # HOT_MODULES would silently stay uncompiled, a stale name fail quietly
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    hot = next(ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "HOT_MODULES")
    assert hot and [m for m in hot if not (ROOT / (m.replace(".", "/") + ".py")).is_file()] == []
    assert "affine_lsp.source.document" in hot


SERVER_ANSWERS = {
    "navigation": "name_targets",
    "document_symbols": "outline",
    "hover": "hover_text",
    "inlay_hints": "loop_hints",
    "completion": "completion_candidates",
    "signature_help": "signature",
    "transform_actions": "loop_actions",
}
"""Each LSP feature of the server and the ``ide/`` module that answers it."""


def test_the_server_features_answer_through_the_ide_layer() -> None:
    for server_module, ide_module in SERVER_ANSWERS.items():
        imported = _imports(PACKAGE / "server" / f"{server_module}.py")
        assert _inside(f"affine_lsp.ide.{ide_module}", "affine_lsp.ide") and any(_inside(m, f"affine_lsp.ide.{ide_module}") for m in imported), server_module
        assert (PACKAGE / "ide" / f"{ide_module}.py").is_file()


SAME_NAMES = {
    "__init__.py": None,
    "types.py": {"affine_lsp/ir/types.py", "affine_lsp/syntax/types.py"},  # the IR's types; the reduce actions of grammar/types.lark
    "attributes.py": {"affine_lsp/ir/attributes.py", "affine_lsp/syntax/attributes.py"},  # likewise, of grammar/attributes.lark
    "errors.py": {"affine_lsp/syntax/errors.py", "affine_lsp/bytecode/errors.py"},  # each reader's own errors
    "printer.py": {"affine_lsp/ir/printer.py", "affine_lsp/bytecode/printer.py"},  # the IR's printer; the bytecode's
}
"""The module names two packages share on purpose (each names what it
holds inside its package); any other name is one module's."""


def test_module_names_are_not_shared() -> None:
    by_name: dict[str, set[str]] = {}
    for p in PACKAGE.rglob("*.py"):
        by_name.setdefault(p.name, set()).add(str(p.relative_to(ROOT)))
    shared = {n: paths for n, paths in by_name.items() if len(paths) > 1 and n != "__init__.py"}
    assert {n: paths for n, paths in shared.items() if SAME_NAMES.get(n) != paths} == {}
