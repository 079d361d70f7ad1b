"""Spawn → first diagnostics of two affine-lsp trees, side by side.

For comparing a change with the code before it on a shared machine:
``--base`` and ``--new`` are two source trees (e.g. ``git archive COMMIT |
tar -x -C /tmp/base``); each spawn of one is followed by a spawn of the
other on the same file (interleaved: the machine's speed drifts), with
:func:`first_squiggle.one_run` (push client, ``initialize`` answered
early after one warm-up start of each tree, no persistent cache, bytecode
cached). Prints the medians of spawn → first diagnostics and of the CPU
the server (and its reaped children) used until then, per tree."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from content import corpus_text, generate_kind
from first_squiggle import one_run

ROOT = Path(__file__).resolve().parent.parent


def add_tree_arguments(p: argparse.ArgumentParser, what: str) -> None:
    """``--base`` and ``--new``: the two source trees an A/B script runs."""
    p.add_argument("--base", required=True, help=f"the source tree {what} first in each pair")
    p.add_argument("--new", default=str(ROOT), help="the other source tree (default: this one)")


def source_trees(p: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, str]:
    """``{"base": ..., "new": ...}``, each an absolute path holding an
    ``affine_lsp`` package (else a usage error), after moving to a directory
    that holds neither tree (``python -m`` puts the working directory first
    on the path)."""
    roots = {"base": args.base, "new": args.new}
    for name, root in roots.items():
        if not (Path(root) / "affine_lsp" / "__init__.py").is_file():
            p.error(f"--{name}: {root} holds no affine_lsp package")
    resolved = {name: str(Path(root).resolve()) for name, root in roots.items()}
    os.chdir(tempfile.gettempdir())
    return resolved


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_tree_arguments(p, "measured")
    p.add_argument("--cases", nargs="+", default=["all:1000", "all:10000", "corpus:10000", "constant:10000"], help="KIND:LINES")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--timeout", type=float, default=300.0)
    args = p.parse_args(argv)
    roots = source_trees(p, args)
    run_args = argparse.Namespace(timeout=args.timeout, complete_timeout=0.0)
    cmd = [sys.executable, "-m", "affine_lsp", "serve"]

    def env_for(root: str) -> dict[str, str]:
        env = dict(os.environ, PYTHONPATH=root, AFFINE_LSP_CACHE_DIR="off")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        return env

    for root in roots.values():  # bytecode, the cached answer to initialize, the parser's caches
        for _ in range(2):
            one_run("affine-lsp", cmd, env_for(root), generate_kind("constant", 100), "file:///tmp/warm.mlir", False, run_args)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("| content, lines | tree | spawn → first (s) | CPU to first (s) | diagnostics | errors |")
    print("|---|---|---:|---:|---:|---|")
    for case in args.cases:
        kind, _, lines = case.partition(":")
        n = int(lines)
        text = corpus_text(n) if kind == "corpus" else generate_kind(kind, n)
        runs: dict[str, list] = {name: [] for name in roots}
        for _ in range(args.repeat):
            for name, root in roots.items():
                runs[name].append(one_run("affine-lsp", cmd, env_for(root), text, f"file:///tmp/ab_{kind}_{n}.mlir", False, run_args))
        for name, rs in runs.items():
            ok = [r for r in rs if not r.error]
            wall = statistics.median(r.first_s for r in ok) if ok else float("nan")
            cpu = statistics.median(r.first_cpu_s for r in ok) if ok else float("nan")
            count = ok[0].first_count if ok else "-"
            print(f"| {kind}, {n} | {name} | {wall:.3f} | {cpu:.3f} | {count} | {len(rs) - len(ok)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
