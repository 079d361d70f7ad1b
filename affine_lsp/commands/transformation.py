"""The CLI of every loop transformation of :mod:`affine_lsp.transforms.catalog`:
``affine-lsp <name> FILE [--loop LINE ...|--all] [-v] [-o OUT] [options]``.

With ``--loop LINE`` only the ``affine.for`` starting on that line is
transformed (an error says why when it cannot be); otherwise (``--all``, the
default) every loop the transformation's strategy picks (``-v`` lists the
others with the reason). The rewritten text goes to standard output (or
``-o``); one remark per transformed loop goes to standard error.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from affine_lsp.commands import frontend
from affine_lsp.transforms.catalog import OptionError, Transformation

if TYPE_CHECKING:
    from affine_lsp.transforms.rewrite import LoopOutcome

Rewrite = Callable[[str, Sequence[int] | None], "tuple[str, list[LoopOutcome]]"]

_PAST = {"unroll": "unrolled", "unroll-and-jam": "unrolled and jammed", "unroll and jam": "unrolled and jammed", "hoist": "hoisted"}


def past(verb: str) -> str:
    """``vectorized``, ``unrolled``, ... (the verb's past participle)."""
    return _PAST.get(verb, verb + "d")


def add_common_arguments(p: argparse.ArgumentParser, verb: str) -> None:
    frontend.add_input(p)
    p.add_argument("--loop", type=int, action="append", metavar="LINE", help=f"{verb} the affine.for starting on LINE (1-based; repeatable)")
    p.add_argument("--all", action="store_true", help=f"{verb} every loop the strategy picks (the default without --loop)")
    p.add_argument("-v", "--verbose", action="store_true", help=f"also report the loops that were not {past(verb)}, and why")
    frontend.add_output(p, "the rewritten text")


def add_arguments(t: Transformation, p: argparse.ArgumentParser) -> None:
    """The common options, then the transformation's own."""
    add_common_arguments(p, t.cli_verb.replace(" ", "-"))
    if t.reports_every_loop:
        done = past(t.cli_verb)
        p.epilog = (
            "Without a selection (--loop LINE, --func NAME), every loop nest of the file is considered, as with --all.\n"
            f"Each one gets one line on standard error, without -v: 'FILE:LINE:COL: remark: {done} ...; predicted: ...'\n"
            f"or 'FILE:LINE:COL: remark: not {done}: left alone: REASON'."
        )
    groups: dict[int, argparse._MutuallyExclusiveGroup] = {}
    for o in t.options:
        if o.group and o.group not in groups:
            groups[o.group] = p.add_mutually_exclusive_group()
        target = groups[o.group] if o.group else p
        target.add_argument(*o.flags, **o.kwargs)  # type: ignore[arg-type]
    if t.timeout is not None:
        frontend.add_timeout(p, t.timeout)


def run(t: Transformation, args: argparse.Namespace) -> int:
    assert t.rewrite is not None, t.name
    module = importlib.import_module(t.module)  # named by the registry: imported only when the command runs
    try:
        rewrite = getattr(module, t.rewrite)(args)
    except OptionError as e:
        if e.status != frontend.EXIT_USAGE:
            print(f"{args.file}: error: {e}", file=sys.stderr)
            return e.status
        raise frontend.UsageError(str(e)) from None
    return run_transform(args, t.cli_verb, rewrite, every_loop=t.reports_every_loop)


def _top_loops(func: object) -> list:
    """The ``affine.for`` ops directly in ``func``'s body."""
    return [op for r in func.regions for b in r.blocks for op in b.operations if op.name == "affine.for"]  # type: ignore[attr-defined]


def _bounded(transform: Rewrite, text: str, lines: Sequence[int] | None, timeout: float) -> tuple[tuple[str, list[LoopOutcome]] | None, bool]:
    """``transform(text, lines)`` in a child process killed after
    ``timeout`` seconds (:mod:`affine_lsp.commands.bounded`). Returns the
    answer and whether it is complete: at the deadline, the last partial
    answer of a transformation that gives them (a ``progress`` parameter:
    the text with the nests finished so far rewritten), else None. What the
    transformation prints on standard error (``--explain``) is printed as
    it comes."""
    from affine_lsp.commands.bounded import run_bounded

    got: list[tuple[str, tuple[str, list[LoopOutcome]]]] = []
    partial = "progress" in inspect.signature(transform).parameters

    def work(send: Callable[..., None]) -> None:
        if partial:
            result = transform(text, lines, progress=lambda new, outcomes: send(("partial", (new, outcomes)), now=True))  # type: ignore[call-arg]
        else:
            result = transform(text, lines)
        send(("done", result), now=True)

    if run_bounded(work, timeout, lambda item, now=False: got.append(item)):
        return got[-1][1], True
    return (got[-1][1] if got else None), False


def run_transform(args: argparse.Namespace, verb: str, transform: Rewrite, every_loop: bool = False) -> int:
    """Read ``args.file``, run ``transform(text, lines)`` (lines: None for
    ``--all``), report the outcomes on standard error, write the text.
    ``every_loop``: the loops left alone are reported without ``-v`` too."""
    from affine_lsp.source.document import Document

    text = frontend.read_input(args.file)
    doc = Document(text, uri=args.file)
    if frontend.report_errors(args.file, doc, args.allow_unregistered_dialect):
        return frontend.EXIT_ERRORS
    status = 0
    lines = None if args.all or not args.loop else sorted(set(args.loop))
    if lines is not None:
        starts = {doc.lines.line_of(op.span.start) + 1 for s in doc.sections for op in s.module.walk() if op.name == "affine.for"}
        for ln in lines:
            if ln not in starts:
                print(f"{args.file}:{ln}:1: error: no affine.for starts on this line", file=sys.stderr)
                status = 1
    timeout = getattr(args, "timeout", None)
    unfinished = ""
    if timeout:
        got, complete = _bounded(transform, text, lines, timeout)
        if not complete:
            finished = {o.line for o in got[1]} if got is not None else set()
            loops = sorted(
                {doc.lines.line_of(op.span.start) + 1 for s in doc.sections for f in s.module.walk() if f.name == "func.func" for op in _top_loops(f)}
                - finished
            )
            which = f" (the nests on line(s) {', '.join(map(str, loops))} were not finished)" if loops else ""
            if got is None:
                print(f"{args.file}: error: {verb}: timed out after {timeout:g} s; nothing was rewritten{which}", file=sys.stderr)
                return frontend.EXIT_ERRORS
            unfinished = (
                f"{args.file}: error: {verb}: timed out after {timeout:g} s; the nests finished before it are rewritten, the others left as they were{which}"
            )
            status = frontend.EXIT_ERRORS
        new, outcomes = got
    else:
        new, outcomes = transform(text, lines)
    for o in outcomes:
        col = doc.lines.position(o.offset)[1] + 1
        if o.done:
            print(f"{args.file}:{o.line}:{col}: remark: {o.message}" + (f"; {o.prediction}" if o.prediction else ""), file=sys.stderr)
        elif lines is not None:
            print(f"{args.file}:{o.line}:{col}: error: cannot {verb} this loop: {o.message}", file=sys.stderr)
            status = 1
        elif args.verbose or every_loop:
            print(f"{args.file}:{o.line}:{col}: remark: not {past(verb)}: {o.message}", file=sys.stderr)
    if unfinished:
        print(unfinished, file=sys.stderr)
    sys.stdout.write(new)
    return status
