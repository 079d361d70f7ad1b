"""``affine-lsp plot``: the iteration space of a loop nest as a standalone SVG.

``affine-lsp plot FILE --loop LINE [--dims i,j] [--params N=8,...]
[--fixed k=0] -o out.svg`` draws what the editor's iteration-space view
draws (the same JSON, :func:`affine_lsp.analysis.iteration_space.iteration_space`):
the integer points of the nest's domain for two of its loops, the bounds as
lines (``affine.if`` conditions dashed), the dependences as arrows from source
to sink iteration coloured by kind, a legend and the IV names on the axes.
``--format json`` prints the JSON instead.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from html import escape

from affine_lsp.commands.check import read_source_or_report
from affine_lsp.ir.core import Operation
from affine_lsp.syntax.document import Document

KIND_COLOURS = {"RAW": "#d62728", "WAR": "#1f77b4", "WAW": "#2ca02c"}
KIND_TEXT = {"RAW": "read after write (flow)", "WAR": "write after read (anti)", "WAW": "write after write (output)"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="MLIR file ('-' for standard input)")
    p.add_argument("--loop", type=int, required=True, metavar="LINE", help="the line (1-based) of the loop, or of an op inside it")
    p.add_argument("--dims", default=None, metavar="I,J", help="the two loops drawn (IV names or positions in the nest; default: the loop and the next)")
    p.add_argument("--params", default="", metavar="N=8,...", help="values of the symbols (default: 8 each)")
    p.add_argument("--fixed", default="", metavar="K=0,...", help="loops not drawn fixed at a value (default: projected)")
    p.add_argument("--max-points", type=int, default=None, metavar="N", help="sample past N points (default 2500)")
    p.add_argument("--format", choices=("svg", "json"), default="svg")
    p.add_argument("-o", "--output", default="-", metavar="FILE", help="where to write (default: standard output)")


def _assignments(text: str, what: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        try:
            out[name.strip()] = int(value)
        except ValueError:
            raise SystemExit(f"affine-lsp plot: {what} expects NAME=INT, got {part!r}") from None
        if not sep:
            raise SystemExit(f"affine-lsp plot: {what} expects NAME=INT, got {part!r}")
    return out


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


def run(args: argparse.Namespace) -> int:
    from affine_lsp.analysis import dependences_of_function
    from affine_lsp.analysis.iteration_space import MAX_POINTS, ViewError, iteration_space, lines_range_of
    from affine_lsp.analysis.polyhedral import scope_of

    text = read_source_or_report(args.file)
    if text is None:
        return 1
    doc = Document(text, uri=args.file)
    loop = find_loop(doc, args.loop - 1)
    if loop is None:
        print(f"{args.file}:{args.loop}: error: no affine loop on or around this line", file=sys.stderr)
        return 1
    func = scope_of(loop)
    if func is None:
        print(f"{args.file}:{args.loop}: error: the loop is not inside a function", file=sys.stderr)
        return 1
    dims = [d.strip() for d in args.dims.split(",")] if args.dims else None
    fixed: dict[str, int | None] = dict(_assignments(args.fixed, "--fixed"))
    try:
        data = iteration_space(
            dependences_of_function(func),
            loop,
            lines_range_of(doc.lines),
            dims,
            fixed,
            _assignments(args.params, "--params"),
            max_points=args.max_points or MAX_POINTS,
        )
    except ViewError as e:
        print(f"{args.file}:{args.loop}: error: {e}", file=sys.stderr)
        return 1
    out = json.dumps(data, indent=1) if args.format == "json" else render_svg(data, title=f"{args.file}:{doc.lines.line_of(loop.name_span.start) + 1}")
    if args.output == "-":
        sys.stdout.write(out + "\n")
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(out + "\n")
    return 0


def _fmt(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _clip(a: int, b: int, c: int, box: tuple[float, float, float, float]) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The segment of the line ``a*x + b*y + c = 0`` inside ``box``."""
    x0, x1, y0, y1 = box
    pts: list[tuple[float, float]] = []
    if b != 0:
        for x in (x0, x1):
            y = -(a * x + c) / b
            if y0 - 1e-9 <= y <= y1 + 1e-9:
                pts.append((x, y))
    if a != 0:
        for y in (y0, y1):
            x = -(b * y + c) / a
            if x0 - 1e-9 <= x <= x1 + 1e-9:
                pts.append((x, y))
    pts = sorted(set(pts))
    if len(pts) < 2:
        return None
    return pts[0], pts[-1]


def _dep_line(data: dict, dep: dict) -> str:
    src, snk = data["accesses"][dep["source"]], data["accesses"][dep["sink"]]
    where = f"carried by {dep['carriedBy']}" if dep.get("carriedBy") else "loop-independent"
    return f"{dep['kind']} {dep['memref']} L{src['range']['start']['line'] + 1}\u2192L{snk['range']['start']['line'] + 1} {dep['distance']} ({where})"


def render_svg(data: dict, title: str = "") -> str:
    """The standalone SVG of an iteration-space answer: ``circle.point``
    per point, ``path.arrow`` per arrow (``data-kind``), ``line.constraint``
    per bound, a legend and axis labels."""
    pts = [tuple(p) for p in data["points"]]
    arrows = data["arrows"]
    xs = [p[0] for p in pts] + [c for a in arrows for c in (a["from"][0], a["to"][0])]
    ys = [p[1] for p in pts] + [c for a in arrows for c in (a["from"][1], a["to"][1])]
    x0, x1 = (min(xs), max(xs)) if xs else (0, 1)
    y0, y1 = (min(ys), max(ys)) if ys else (0, 1)
    span = max(x1 - x0, y1 - y0, 1)
    cell = max(6.0, min(48.0, 560.0 / span))
    dep_lines = [_dep_line(data, dep) for dep in data.get("dependences", [])]
    left, top = 70.0, 60.0
    legend_w = max([280.0] + [6.6 * len(t) + 10 for t in dep_lines])
    pw, ph = (x1 - x0 + 1) * cell, (y1 - y0 + 1) * cell
    width = left + pw + 30 + legend_w
    notes = list(data.get("notes", []))
    height = top + ph + 70 + 16 * len(notes)

    def sx(x: float) -> float:
        return left + (x - x0 + 0.5) * cell

    def sy(y: float) -> float:
        return top + ph - (y - y0 + 0.5) * cell

    xn = data["axes"]["x"]
    yn = data["axes"]["y"] or ""
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(width)}" height="{_fmt(height)}" viewBox="0 0 {_fmt(width)} {_fmt(height)}" font-family="sans-serif" font-size="12">',
        "<defs>",
    ]
    for kind, colour in KIND_COLOURS.items():
        out.append(
            f'<marker id="head-{kind}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
        )
    out += [
        "</defs>",
        "<style>.point{fill:#444}.constraint,.key-bound{stroke:#888;stroke-width:1.5}.constraint.if,.key-if{stroke:#9467bd;stroke-width:1.5;stroke-dasharray:6 4}"
        ".arrow{fill:none;stroke-width:1.4;opacity:.8}.axis{stroke:#222}.tick{fill:#333}.note{fill:#a05a00}</style>",
        f'<rect x="0" y="0" width="{_fmt(width)}" height="{_fmt(height)}" fill="white"/>',
    ]
    loop = data.get("loop", {})
    head = f"Iteration space of {loop.get('op', 'the loop')} {loop.get('iv', '')}" + (f" ({escape(title)})" if title else "")
    out.append(f'<text x="{_fmt(left)}" y="24" font-size="15" font-weight="bold">{escape(head)}</text>')
    others = [f"{k} = {v}" if v is not None else f"{k} projected" for k, v in data.get("fixed", {}).items()]
    params = [f"{p['label']} = {p['value']}" for p in data.get("params", [])]
    sub = "; ".join(x for x in (", ".join(others), ", ".join(params)) if x)
    if sub:
        out.append(f'<text x="{_fmt(left)}" y="42" class="tick">{escape(sub)}</text>')
    # axes and ticks
    ax_y = top + ph + 8
    out.append(f'<line class="axis" x1="{_fmt(left - 8)}" y1="{_fmt(ax_y)}" x2="{_fmt(left + pw)}" y2="{_fmt(ax_y)}"/>')
    out.append(f'<line class="axis" x1="{_fmt(left - 8)}" y1="{_fmt(top)}" x2="{_fmt(left - 8)}" y2="{_fmt(ax_y)}"/>')
    step = max(1, math.ceil(24 / cell))
    for x in range(x0, x1 + 1):
        if (x - x0) % step == 0:
            out.append(f'<text class="tick" x="{_fmt(sx(x))}" y="{_fmt(ax_y + 14)}" text-anchor="middle">{x}</text>')
    if yn:
        for y in range(y0, y1 + 1):
            if (y - y0) % step == 0:
                out.append(f'<text class="tick" x="{_fmt(left - 12)}" y="{_fmt(sy(y) + 4)}" text-anchor="end">{y}</text>')
    out.append(f'<text class="axis-label" x="{_fmt(left + pw / 2)}" y="{_fmt(ax_y + 32)}" text-anchor="middle" font-weight="bold">{escape(xn)}</text>')
    if yn:
        cx, cy = left - 48, top + ph / 2
        out.append(
            f'<text class="axis-label" x="{_fmt(cx)}" y="{_fmt(cy)}" text-anchor="middle" font-weight="bold" transform="rotate(-90 {_fmt(cx)} {_fmt(cy)})">{escape(yn)}</text>'
        )
    # constraints, clipped to the plot
    box = (x0 - 0.5, x1 + 0.5, y0 - 0.5, y1 + 0.5)
    for c in data.get("constraints", []):
        seg = _clip(c["a"], c["b"], c["c"], box)
        if seg is None:
            continue
        (ax, ay), (bx, by) = seg
        cls = "constraint if" if c["kind"] == "if" else "constraint"
        out.append(
            f'<line class="{cls}" x1="{_fmt(sx(ax))}" y1="{_fmt(sy(ay))}" x2="{_fmt(sx(bx))}" y2="{_fmt(sy(by))}"><title>{escape(c["text"])}</title></line>'
        )
    # points
    r = max(1.5, min(5.0, cell / 5))
    for p in pts:
        label = f"({xn}{', ' + yn if yn else ''}) = ({p[0]}{', ' + str(p[1]) if yn else ''})"
        out.append(f'<circle class="point" cx="{_fmt(sx(p[0]))}" cy="{_fmt(sy(p[1]))}" r="{_fmt(r)}"><title>{escape(label)}</title></circle>')
    # arrows (bent a little so that opposite arrows do not overlap; a loop for an arrow to itself)
    counts = {k: 0 for k in KIND_COLOURS}
    for a in arrows:
        kind = a["kind"] or "RAW"
        counts[kind] = counts.get(kind, 0) + 1
        colour = KIND_COLOURS.get(kind, "#000")
        fx, fy, tx, ty = sx(a["from"][0]), sy(a["from"][1]), sx(a["to"][0]), sy(a["to"][1])
        if (fx, fy) == (tx, ty):
            d = f"M{_fmt(fx)},{_fmt(fy - r)} c{_fmt(cell * 0.5)},{_fmt(-cell * 0.6)} {_fmt(cell * 0.6)},{_fmt(cell * 0.2)} {_fmt(r + 1)},{_fmt(r)}"
        else:
            dx, dy = tx - fx, ty - fy
            length = math.hypot(dx, dy)
            ux, uy = dx / length, dy / length
            sx0, sy0 = fx + ux * r, fy + uy * r
            ex, ey = tx - ux * (r + 1), ty - uy * (r + 1)
            bend = min(0.15 * length, cell * 0.4)
            mx, my = (sx0 + ex) / 2 - uy * bend, (sy0 + ey) / 2 + ux * bend
            d = f"M{_fmt(sx0)},{_fmt(sy0)} Q{_fmt(mx)},{_fmt(my)} {_fmt(ex)},{_fmt(ey)}"
        carried = f", carried by {a['carriedBy']}" if a.get("carriedBy") else ", loop-independent"
        tip = f"{kind} on {a.get('memref')}: {tuple(a['from'])} -> {tuple(a['to'])}{carried}"
        out.append(f'<path class="arrow" data-kind="{kind}" d="{d}" stroke="{colour}" marker-end="url(#head-{kind})"><title>{escape(tip)}</title></path>')
    # legend
    lx, ly = left + pw + 40, top + 4
    out.append(f'<g class="legend"><text x="{_fmt(lx)}" y="{_fmt(ly)}" font-weight="bold">Legend</text>')
    ly += 20
    out.append(
        f'<circle cx="{_fmt(lx + 10)}" cy="{_fmt(ly - 4)}" r="4" fill="#444"/><text x="{_fmt(lx + 26)}" y="{_fmt(ly)}">iteration ({len(pts)} drawn)</text>'
    )
    for kind, colour in KIND_COLOURS.items():
        ly += 20
        out.append(
            f'<line x1="{_fmt(lx)}" y1="{_fmt(ly - 4)}" x2="{_fmt(lx + 20)}" y2="{_fmt(ly - 4)}" stroke="{colour}" stroke-width="2" marker-end="url(#head-{kind})"/>'
            f'<text x="{_fmt(lx + 26)}" y="{_fmt(ly)}">{kind}: {KIND_TEXT[kind]} ({counts.get(kind, 0)})</text>'
        )
    ly += 20
    out.append(
        f'<line class="key-bound" x1="{_fmt(lx)}" y1="{_fmt(ly - 4)}" x2="{_fmt(lx + 20)}" y2="{_fmt(ly - 4)}"/><text x="{_fmt(lx + 26)}" y="{_fmt(ly)}">loop bound</text>'
    )
    ly += 20
    out.append(
        f'<line class="key-if" x1="{_fmt(lx)}" y1="{_fmt(ly - 4)}" x2="{_fmt(lx + 20)}" y2="{_fmt(ly - 4)}"/><text x="{_fmt(lx + 26)}" y="{_fmt(ly)}">affine.if condition</text>'
    )
    for dep, line in zip(data.get("dependences", []), dep_lines):
        ly += 18
        out.append(f'<text x="{_fmt(lx)}" y="{_fmt(ly)}" font-size="11" fill="{KIND_COLOURS.get(dep["kind"], "#000")}">{escape(line)}</text>')
    out.append("</g>")
    ny = top + ph + 60
    for n in notes:
        out.append(f'<text class="note" x="{_fmt(left)}" y="{_fmt(ny)}">{escape(n)}</text>')
        ny += 16
    out.append("</svg>")
    height_needed = max(height, ly + 20)
    if height_needed > height:
        out[0] = (
            out[0]
            .replace(f'height="{_fmt(height)}"', f'height="{_fmt(height_needed)}"')
            .replace(f'viewBox="0 0 {_fmt(width)} {_fmt(height)}"', f'viewBox="0 0 {_fmt(width)} {_fmt(height_needed)}"')
        )
    return "\n".join(out)
