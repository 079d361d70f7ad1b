"""``affine-lsp plot``: the iteration space of a loop nest as a standalone SVG.

``affine-lsp plot FILE [--loop LINE] [--dims i,j] [--params N=8,...]
[--fixed k=0] -o out.svg`` draws what the editor's iteration-space view
draws (the same JSON, :func:`affine_lsp.analysis.iteration_space.iteration_space`):
the integer points of the nest's domain for two of its loops, the bounds as
lines (``affine.if`` conditions dashed), the dependences as arrows from source
to sink iteration coloured by kind, a legend and the IV names on the axes.
``--format json`` prints the JSON instead. The format is taken from the
output's name (``.svg``, ``.json``; ``.png`` when the ``cairosvg`` library
is installed, refused otherwise) unless ``--format`` says it. Without
``--loop`` the first loop nest of the file is drawn.
"""

from __future__ import annotations

import argparse
import json
import sys

from affine_lsp.commands import frontend
from affine_lsp.commands.plot_svg import render_svg
from affine_lsp.ir.core import Operation
from affine_lsp.source.document import Document

FORMATS = ("svg", "json", "png")


def add_arguments(p: argparse.ArgumentParser) -> None:
    frontend.add_input(p)
    p.add_argument(
        "--loop", type=int, default=None, metavar="LINE", help="the line (1-based) of the loop, or of an op inside it (default: the first loop nest)"
    )
    p.add_argument("--dims", default=None, metavar="I,J", help="the two loops drawn (IV names or positions in the nest; default: the loop and the next)")
    p.add_argument("--params", default="", metavar="N=8,...", help="values of the symbols (default: 8 each)")
    p.add_argument("--fixed", default="", metavar="K=0,...", help="loops not drawn fixed at a value (default: projected)")
    p.add_argument("--max-points", type=_max_points, default=None, metavar="N", help=f"sample past N points (default 2500, at most {MAX_POINTS_LIMIT:,})")
    p.add_argument("--format", choices=FORMATS, default=None, help="svg, json or png (default: from the output's name; svg on standard output)")
    frontend.add_output(p, "the picture")


MAX_POINTS_LIMIT = 100_000
"""The largest ``--max-points``: more points are not told apart in a picture,
and enumerating them takes longer than isl's operation budget allows."""


def _max_points(s: str) -> int:
    try:
        n = int(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {s!r}") from None
    if not 1 <= n <= MAX_POINTS_LIMIT:
        raise argparse.ArgumentTypeError(f"{n} is not between 1 and {MAX_POINTS_LIMIT:,}")
    return n


def _assignments(text: str, what: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        try:
            out[name.strip()] = int(value)
        except ValueError:
            raise frontend.UsageError(f"{what} expects NAME=INT, got {part!r}") from None
        if not sep:
            raise frontend.UsageError(f"{what} expects NAME=INT, got {part!r}")
    return out


def output_format(requested: str | None, output: str) -> str:
    """The format to write: ``--format``, else the output name's suffix
    (svg by default). PNG needs the ``cairosvg`` library."""
    suffix = output.rsplit(".", 1)[-1].lower() if output != "-" and "." in output.rsplit("/", 1)[-1] else ""
    named = suffix if suffix in FORMATS else None
    fmt = requested or named or "svg"
    if requested and named and named != requested:
        raise frontend.UsageError(f"--format {requested} but the output is named {output!r}")
    if fmt == "png":
        import importlib.util

        if importlib.util.find_spec("cairosvg") is None:
            raise frontend.UsageError(
                "PNG needs the cairosvg library (pip install cairosvg); or write an .svg and convert it (rsvg-convert -o out.png out.svg)"
            )
    return fmt


def find_loop(doc: Document, line: int) -> Operation | None:
    """The affine loop starting on ``line`` (0-based), else the innermost one
    around the line's first character."""
    best: Operation | None = None
    for section in doc.sections:
        for op in section.module.walk():
            if op.name not in ("affine.for", "affine.parallel"):
                continue
            first = doc.lines.line_of(op.name_span.start)
            if first == line:
                return op
            if first <= line <= doc.lines.line_of(op.span.end) and (best is None or op.span.start > best.span.start):
                best = op
    return best


def first_loop(doc: Document) -> Operation | None:
    for section in doc.sections:
        for op in section.module.walk():
            if op.name in ("affine.for", "affine.parallel"):
                return op
    return None


def run(args: argparse.Namespace) -> int:
    from affine_lsp.analysis import dependences_of_function
    from affine_lsp.analysis.iteration_space import MAX_POINTS, ViewError, iteration_space, lines_range_of
    from affine_lsp.analysis.polyhedral import scope_of

    fmt = output_format(args.format, args.output)
    fixed: dict[str, int | None] = dict(_assignments(args.fixed, "--fixed"))
    params = _assignments(args.params, "--params")
    text = frontend.read_input(args.file)
    doc = Document(text, uri=args.file)
    if frontend.report_errors(args.file, doc, args.allow_unregistered_dialect):
        return frontend.EXIT_ERRORS
    loop = find_loop(doc, args.loop - 1) if args.loop is not None else first_loop(doc)
    if loop is None:
        where = f"{args.file}:{args.loop}" if args.loop is not None else args.file
        print(f"{where}: error: no affine loop {'on or around this line' if args.loop is not None else 'in this file'}", file=sys.stderr)
        return frontend.EXIT_ERRORS
    line = doc.lines.line_of(loop.name_span.start) + 1
    func = scope_of(loop)
    if func is None:
        print(f"{args.file}:{line}: error: the loop is not inside a function", file=sys.stderr)
        return frontend.EXIT_ERRORS
    dims = [d.strip() for d in args.dims.split(",")] if args.dims else None
    try:
        data = iteration_space(
            dependences_of_function(func),
            loop,
            lines_range_of(doc.lines),
            dims,
            fixed,
            params,
            max_points=args.max_points or MAX_POINTS,
        )
    except ViewError as e:
        print(f"{args.file}:{line}: error: {e}", file=sys.stderr)
        return frontend.EXIT_ERRORS
    if fmt == "json":
        sys.stdout.write(json.dumps(data, indent=1) + "\n")
        return frontend.EXIT_OK
    svg = render_svg(data, title=f"{args.file}:{line}")
    if fmt == "png":
        import cairosvg  # type: ignore[import-not-found]

        sys.stdout.flush()
        sys.stdout.buffer.write(cairosvg.svg2png(bytestring=svg.encode("utf-8")))
    else:
        sys.stdout.write(svg + "\n")
    return frontend.EXIT_OK
