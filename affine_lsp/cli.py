"""The ``affine-lsp`` command line: one engine, several subcommands.

Each subcommand lives in :mod:`affine_lsp.commands` as a module with
``add_arguments(parser)`` and ``run(args) -> int`` (the loop transformations
of :mod:`affine_lsp.transforms.catalog` share ``commands/transformation.py``), and reads, writes and
fails through :mod:`affine_lsp.commands.frontend` (see "How to add a
command" in docs/architecture.md). Only the module of the command that runs
is imported: ``--help`` and ``--version`` import none.
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib
import sys
from collections.abc import Callable, Sequence

from affine_lsp.transforms.catalog import TRANSFORMATIONS, by_name

TRANSFORMATION_COMMAND = "affine_lsp.commands.transformation"
"""The CLI module of the transformations of the registry without one of their own."""

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "check": ("affine_lsp.commands.check", "report syntax and verifier diagnostics (mlir-opt's format)"),
    "deps": ("affine_lsp.commands.deps", "print the dependences between memref accesses (--all-pairs: every pair, as -test-memref-dependence-check)"),
    **{t.name: (t.command or TRANSFORMATION_COMMAND, t.help) for t in TRANSFORMATIONS},
    "plot": ("affine_lsp.commands.plot", "draw the iteration space of a loop nest and its dependences as SVG"),
    "upgrade": ("affine_lsp.commands.upgrade", "rewrite a file in MLIR's pre-2022 syntax (func @, constant, addf, alloc, std.*) in the current one"),
    "print": ("affine_lsp.commands.print", "print the textual form of an MLIR file (decodes bytecode: .mlirbc)"),
    "serve": ("affine_lsp.commands.serve", "run the language server (stdio by default)"),
    "time": ("affine_lsp.commands.time", "compile and run a function with MLIR (and after a transformation): median times, speedup, whether the values agree"),
}
"""Each subcommand's module and one-line help: the commands of
``affine_lsp/commands/``, and the loop transformations of
:mod:`affine_lsp.transforms.catalog` (which names their modules)."""


def build_parser(only: str | None = None) -> tuple[argparse.ArgumentParser, dict[str, Callable[[argparse.Namespace], int]]]:
    """The argument parser. ``only``: the subcommand about to run; the
    modules of the others are not imported (each imports its engine: a
    one-shot ``check`` need not load the transformations). ``only=None``
    (``--help``, ``--version``): no command module is imported; ``"*"``:
    all of them. Returns the parser and the ``run`` function of each command
    whose module was imported."""
    from affine_lsp.commands.frontend import EXIT_STATUS_HELP

    parser = argparse.ArgumentParser(
        prog="affine-lsp",
        description="Language tooling for MLIR's affine dialect.",
        epilog=EXIT_STATUS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from affine_lsp import __version__

    parser.add_argument("--version", action="version", version=f"affine-lsp {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    runs: dict[str, Callable[[argparse.Namespace], int]] = {}
    for name, (modname, help_text) in SUBCOMMANDS.items():
        if only != "*" and name != only:
            sub.add_parser(name, help=help_text, description=help_text)
            continue
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError as e:
            if e.name != modname:
                raise
            continue  # not built yet
        p = sub.add_parser(name, help=help_text, description=help_text, formatter_class=argparse.RawDescriptionHelpFormatter)
        t = by_name(name)
        if t is not None and t.command is None:  # a transformation: its options are in the registry
            mod.add_arguments(t, p)
            runs[name] = functools.partial(mod.run, t)
        else:
            mod.add_arguments(p)
            runs[name] = mod.run
        p.epilog = ((p.epilog + "\n\n") if p.epilog else "") + EXIT_STATUS_HELP  # type: ignore[attr-defined]
    return parser, runs


def main(argv: Sequence[str] | None = None, *, exiting: bool = False) -> int:
    """Run one command. ``exiting``: the process ends right after (see
    :func:`entry`)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    parser, runs = build_parser(command)
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    if exiting and args.command != "serve":
        # A one-shot command's objects live until the process ends: the
        # cyclic garbage collector would only walk them again and again (the
        # IR of a 50k-line file is millions of objects; a third of the time
        # of `check` went to that). Commands collect between inputs.
        gc.disable()
    from affine_lsp.commands.frontend import run_command

    return run_command(args.command, runs[args.command], args)


def entry() -> int:
    """The program's entry point (``affine-lsp``, ``python -m affine_lsp``):
    :func:`main`, then the interpreter's final garbage collections are
    skipped (the objects still alive are frozen; the process frees them)."""
    status = main(exiting=True)
    gc.freeze()
    return status


if __name__ == "__main__":
    sys.exit(entry())
