"""The standalone SVG of an iteration-space answer (``affine-lsp plot``),
laid out so that it stays readable on real nests.

* The picture is at most :data:`MAX_SIDE` pixels a side: the plot area
  shrinks with the domain, the legend has a fixed width (longer lines are
  cut with an ellipsis) and a bounded number of lines.
* Up to :data:`MAX_SINGLE_ARROWS` arrows are drawn one by one
  (``path.arrow``). Past that they are aggregated per kind and distance
  vector (``path.arrow-group``, ``data-count``): one arrow per vector,
  drawn from an iteration near the middle of the domain, its width growing
  with the count, for the most frequent vectors of each kind (every kind
  keeps its share of :data:`MAX_VECTOR_ROWS`); the legend lists them with
  their counts, and the arrows of the other vectors are counted per kind
  (``g.arrows-not-drawn``) and said in the legend. Arrows of different
  kinds bend to different sides, so that one kind never hides another.
* The legend's counts (``text.kind-count``: ``data-dependences``,
  ``data-arrows``) are those of the JSON answer.
* Texts are laid out with an upper estimate of their extent
  (:data:`CHAR_WIDTH` em a character, 0.8 em above the baseline and 0.25
  below) so that none overlaps another or leaves the picture
  (``tests/test_plot_cli.py`` computes the boxes from the SVG and checks).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from html import escape

KIND_COLOURS = {"RAW": "#d62728", "WAR": "#1f77b4", "WAW": "#2ca02c"}
KIND_TEXT = {"RAW": "read after write (flow)", "WAR": "write after read (anti)", "WAW": "write after write (output)"}
KIND_BEND = {"RAW": 1.0, "WAR": -1.0, "WAW": 0.0}  # the side each kind bends to (WAW: straight, between the others)

MAX_SIDE = 980.0
MAX_SINGLE_ARROWS = 200
FONT = 12.0
CHAR_WIDTH = 0.62  # an upper estimate of a sans-serif character's advance, in em (bold: +8%)
MARGIN = 12.0
PLOT_MAX = 500.0
LEGEND_WIDTH = 330.0
MAX_VECTOR_ROWS = 12
MAX_DEP_ROWS = 8
MAX_NOTE_LINES = 8


def text_width(text: str, size: float = FONT, bold: bool = False) -> float:
    return len(text) * size * CHAR_WIDTH * (1.08 if bold else 1.0)


def fit(text: str, width: float, size: float = FONT, bold: bool = False) -> str:
    """``text`` cut with an ellipsis to fit ``width``."""
    if text_width(text, size, bold) <= width:
        return text
    n = max(1, int(width / (size * CHAR_WIDTH * (1.08 if bold else 1.0))) - 1)
    return text[:n] + "\u2026"


def wrap(text: str, width: float, size: float = FONT) -> list[str]:
    per_line = max(10, int(width / (size * CHAR_WIDTH)))
    lines: list[str] = []
    cur = ""
    for word in text.split(" "):
        if cur and len(cur) + 1 + len(word) > per_line:
            lines.append(cur)
            cur = word
        else:
            cur = f"{cur} {word}" if cur else word
        while len(cur) > per_line:
            lines.append(cur[:per_line])
            cur = cur[per_line:]
    if cur:
        lines.append(cur)
    return lines


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


def dep_line(data: dict, dep: dict) -> str:
    src, snk = data["accesses"][dep["source"]], data["accesses"][dep["sink"]]
    where = f"carried by {dep['carriedBy']}" if dep.get("carriedBy") else "loop-independent"
    return f"{dep['kind']} {dep['memref']} L{src['range']['start']['line'] + 1}\u2192L{snk['range']['start']['line'] + 1} {dep['distance']} ({where})"


class _Canvas:
    """SVG elements; texts are cut to end before ``right``."""

    def __init__(self, right: float) -> None:
        self.out: list[str] = []
        self.right = right  # no text goes past this x

    def text(self, x: float, y: float, text: str, size: float = FONT, anchor: str = "start", bold: bool = False, attrs: str = "") -> None:
        if anchor == "start":
            text = fit(text, self.right - x, size, bold)
        extra = (f' font-size="{_fmt(size)}"' if size != FONT else "") + (f' text-anchor="{anchor}"' if anchor != "start" else "")
        extra += ' font-weight="bold"' if bold else ""
        self.out.append(f'<text x="{_fmt(x)}" y="{_fmt(y)}"{extra}{attrs}>{escape(text)}</text>')


def render_svg(data: dict, title: str = "") -> str:
    """The standalone SVG of an iteration-space answer: ``circle.point`` per
    point, ``path.arrow`` per arrow (or ``path.arrow-group`` per kind and
    distance vector on large nests; ``data-kind``), ``line.constraint`` per
    bound, a legend and axis labels."""
    pts = [tuple(p) for p in data["points"]]
    arrows = data["arrows"]
    deps = data.get("dependences", [])
    xs = [p[0] for p in pts] + [c for a in arrows for c in (a["from"][0], a["to"][0])]
    ys = [p[1] for p in pts] + [c for a in arrows for c in (a["from"][1], a["to"][1])]
    x0, x1 = (min(xs), max(xs)) if xs else (0, 1)
    y0, y1 = (min(ys), max(ys)) if ys else (0, 1)
    span = max(x1 - x0, y1 - y0, 0) + 1
    cell = min(48.0, PLOT_MAX / span)
    pw, ph = (x1 - x0 + 1) * cell, (y1 - y0 + 1) * cell
    xn = data["axes"]["x"]
    yn = data["axes"]["y"] or ""

    # ticks: every `step` values, so that their labels do not touch
    widest = max((text_width(str(v)) for v in (x0, x1, y0, y1)), default=8.0)
    step = max(1, math.ceil((widest + 8) / cell), math.ceil(2 * FONT / cell))
    left = MARGIN + (FONT + 8 if yn else 0) + widest + 14
    top = 62.0
    lx = left + pw + 30
    width = lx + LEGEND_WIDTH + MARGIN
    inner = width - 2 * MARGIN

    def sx(x: float) -> float:
        return left + (x - x0 + 0.5) * cell

    def sy(y: float) -> float:
        return top + ph - (y - y0 + 0.5) * cell

    c = _Canvas(width - MARGIN)
    loop = data.get("loop", {})
    head = f"Iteration space of {loop.get('op', 'the loop')} {loop.get('iv', '')}" + (f" ({title})" if title else "")
    c.text(MARGIN, 24, fit(head, inner, 15, True), 15, bold=True, attrs=' class="title"')
    others = [f"{k} = {v}" if v is not None else f"{k} projected" for k, v in data.get("fixed", {}).items()]
    params = [f"{p['label']} = {p['value']}" for p in data.get("params", [])]
    sub = "; ".join(x for x in (", ".join(others), ", ".join(params)) if x)
    if sub:
        c.text(MARGIN, 44, fit(sub, inner), attrs=' class="tick"')

    # axes, ticks and labels
    ax_y = top + ph + 8
    c.out.append(f'<line class="axis" x1="{_fmt(left - 8)}" y1="{_fmt(ax_y)}" x2="{_fmt(left + pw)}" y2="{_fmt(ax_y)}"/>')
    c.out.append(f'<line class="axis" x1="{_fmt(left - 8)}" y1="{_fmt(top)}" x2="{_fmt(left - 8)}" y2="{_fmt(ax_y)}"/>')
    for x in range(x0, x1 + 1, step):
        c.text(sx(x), ax_y + 16, str(x), anchor="middle", attrs=' class="tick"')
    if yn:
        for y in range(y0, y1 + 1, step):
            c.text(left - 12, sy(y) + 4, str(y), anchor="end", attrs=' class="tick"')
    c.text(left + pw / 2, ax_y + 36, fit(xn, max(pw, 60)), anchor="middle", bold=True, attrs=' class="axis-label"')
    if yn:
        cx, cy = MARGIN + FONT, top + ph / 2
        label = fit(yn, max(ph, 60), bold=True)
        c.out.append(
            f'<text class="axis-label" x="{_fmt(cx)}" y="{_fmt(cy)}" text-anchor="middle" font-weight="bold" '
            f'transform="rotate(-90 {_fmt(cx)} {_fmt(cy)})">{escape(label)}</text>'
        )

    # constraints, clipped to the plot
    box = (x0 - 0.5, x1 + 0.5, y0 - 0.5, y1 + 0.5)
    for con in data.get("constraints", []):
        seg = _clip(con["a"], con["b"], con["c"], box)
        if seg is None:
            continue
        (ax, ay), (bx, by) = seg
        cls = "constraint if" if con["kind"] == "if" else "constraint"
        c.out.append(
            f'<line class="{cls}" x1="{_fmt(sx(ax))}" y1="{_fmt(sy(ay))}" x2="{_fmt(sx(bx))}" y2="{_fmt(sy(by))}"><title>{escape(con["text"])}</title></line>'
        )
    # points
    r = max(1.0, min(5.0, cell / 5))
    for p in pts:
        label = f"({xn}{', ' + yn if yn else ''}) = ({p[0]}{', ' + str(p[1]) if yn else ''})"
        c.out.append(f'<circle class="point" cx="{_fmt(sx(p[0]))}" cy="{_fmt(sy(p[1]))}" r="{_fmt(r)}"><title>{escape(label)}</title></circle>')

    # arrows
    def arrow_path(f: tuple[float, float], t: tuple[float, float], kind: str, bend_scale: float = 1.0) -> str:
        fx, fy, tx, ty = sx(f[0]), sy(f[1]), sx(t[0]), sy(t[1])
        side = KIND_BEND.get(kind, 1.0)
        if (fx, fy) == (tx, ty):
            k = cell * (0.5 + 0.2 * (side + 1))
            return f"M{_fmt(fx)},{_fmt(fy - r)} c{_fmt(k)},{_fmt(-k * 1.2)} {_fmt(k * 1.2)},{_fmt(k * 0.4)} {_fmt(r + 1)},{_fmt(r)}"
        dx, dy = tx - fx, ty - fy
        length = math.hypot(dx, dy)
        ux, uy = dx / length, dy / length
        x_a, y_a = fx + ux * r, fy + uy * r
        ex, ey = tx - ux * (r + 1), ty - uy * (r + 1)
        bend = min(0.18 * bend_scale * length, cell * 0.45 * bend_scale) * side
        mx, my = (x_a + ex) / 2 - uy * bend, (y_a + ey) / 2 + ux * bend
        return f"M{_fmt(x_a)},{_fmt(y_a)} Q{_fmt(mx)},{_fmt(my)} {_fmt(ex)},{_fmt(ey)}"

    arrow_counts = Counter(a["kind"] or "RAW" for a in arrows)
    groups: dict[tuple[str, int, int], list[dict]] = defaultdict(list)
    for a in arrows:
        groups[(a["kind"] or "RAW", a["to"][0] - a["from"][0], a["to"][1] - a["from"][1])].append(a)
    aggregated = len(arrows) > MAX_SINGLE_ARROWS
    # the vectors drawn when aggregated (and listed in the legend): the most
    # frequent ones of each kind, so that every kind keeps some
    rows = sorted(groups.items(), key=lambda kv: (list(KIND_COLOURS).index(kv[0][0]) if kv[0][0] in KIND_COLOURS else 9, -len(kv[1]), kv[0]))
    per_kind = max(1, MAX_VECTOR_ROWS // max(1, len({k for k, _, _ in groups})))
    seen_kind: Counter[str] = Counter()
    kept = []
    for row in rows:
        seen_kind[row[0][0]] += 1
        if seen_kind[row[0][0]] <= per_kind:
            kept.append(row)
    if not aggregated:
        for a in arrows:
            kind = a["kind"] or "RAW"
            carried = f", carried by {a['carriedBy']}" if a.get("carriedBy") else ", loop-independent"
            tip = f"{kind} on {a.get('memref')}: {tuple(a['from'])} -> {tuple(a['to'])}{carried}"
            d = arrow_path(tuple(a["from"]), tuple(a["to"]), kind)
            c.out.append(
                f'<path class="arrow" data-kind="{kind}" d="{d}" stroke="{KIND_COLOURS.get(kind, "#000")}" marker-end="url(#head-{kind})"><title>{escape(tip)}</title></path>'
            )
    else:
        # one arrow per kind and distance vector, from the iteration nearest
        # the middle of the domain that is a source of that vector
        mx0, my0 = (x0 + x1) / 2, (y0 + y1) / 2
        top_count = max(len(g) for g in groups.values())
        for (kind, dx, dy), members in sorted(kept, key=lambda kv: -len(kv[1])):
            src = min((tuple(a["from"]) for a in members), key=lambda p: ((p[0] - mx0) ** 2 + (p[1] - my0) ** 2, p))
            width_px = 1.2 + 2.0 * math.log1p(len(members)) / math.log1p(top_count)
            d = arrow_path(src, (src[0] + dx, src[1] + dy), kind, 2.0)
            tip = f"{kind}: distance ({dx}, {dy}) in the view, {len(members)} arrow(s)"
            c.out.append(
                f'<path class="arrow-group" data-kind="{kind}" data-count="{len(members)}" data-vector="{dx},{dy}" d="{d}" '
                f'stroke="{KIND_COLOURS.get(kind, "#000")}" stroke-width="{_fmt(width_px)}" marker-end="url(#ghead-{kind})"><title>{escape(tip)}</title></path>'
            )
        # the arrows of the vectors not drawn, counted per kind (invisible)
        left_out: Counter[str] = Counter()
        kept_keys = {key for key, _ in kept}
        for key, members in groups.items():
            if key not in kept_keys:
                left_out[key[0]] += len(members)
        for kind, n in sorted(left_out.items()):
            c.out.append(f'<g class="arrows-not-drawn" data-kind="{kind}" data-count="{n}"/>')

    # legend
    lw = LEGEND_WIDTH
    ly = top + 4
    c.out.append('<g class="legend">')
    c.text(lx, ly, "Legend", bold=True)
    ly += 20
    c.out.append(f'<circle cx="{_fmt(lx + 10)}" cy="{_fmt(ly - 4)}" r="4" fill="#444"/>')
    total = data.get("numPoints")  # None: too many to count (more than the points drawn)
    if not data.get("sampled"):
        shown = f"iteration ({len(pts)} drawn)"
    else:
        shown = f"iteration ({len(pts)} drawn of {total}, sampled)" if total is not None else f"iteration ({len(pts)} drawn of more than {len(pts)})"
    c.text(lx + 26, ly, fit(shown, lw - 26))
    dep_counts = Counter(d["kind"] for d in deps)
    for kind, colour in KIND_COLOURS.items():
        ly += 20
        c.out.append(
            f'<line x1="{_fmt(lx)}" y1="{_fmt(ly - 4)}" x2="{_fmt(lx + 20)}" y2="{_fmt(ly - 4)}" stroke="{colour}" stroke-width="2" marker-end="url(#head-{kind})"/>'
        )
        c.text(lx + 26, ly, fit(f"{kind}: {KIND_TEXT[kind]}", lw - 26))
        ly += 15
        nd, na = dep_counts.get(kind, 0), arrow_counts.get(kind, 0)
        count = f"{nd} dependence{'s' if nd != 1 else ''}, {na} arrow{'s' if na != 1 else ''}" + (" (capped)" if data.get("arrowsCapped") and na else "")
        c.text(lx + 26, ly, fit(count, lw - 26), 11, attrs=f' class="kind-count" data-kind="{kind}" data-dependences="{nd}" data-arrows="{na}" fill="{colour}"')
    ly += 20
    c.out.append(f'<line class="key-bound" x1="{_fmt(lx)}" y1="{_fmt(ly - 4)}" x2="{_fmt(lx + 20)}" y2="{_fmt(ly - 4)}"/>')
    c.text(lx + 26, ly, "loop bound")
    ly += 20
    c.out.append(f'<line class="key-if" x1="{_fmt(lx)}" y1="{_fmt(ly - 4)}" x2="{_fmt(lx + 20)}" y2="{_fmt(ly - 4)}"/>')
    c.text(lx + 26, ly, "affine.if condition")
    if aggregated:
        ly += 24
        c.text(lx, ly, fit("Arrows per distance vector", lw, bold=True), bold=True)
        for (kind, dx, dy), members in kept:
            ly += 16
            c.text(
                lx,
                ly,
                f"{kind} ({dx}, {dy}) \u00d7{len(members)}",
                11,
                attrs=f' class="vector" data-kind="{kind}" data-count="{len(members)}" fill="{KIND_COLOURS.get(kind, "#000")}"',
            )
        if len(rows) > len(kept):
            ly += 16
            c.text(lx, ly, f"\u2026 {len(rows) - len(kept)} more vectors, not drawn (see --format json)", 11)
    if deps:
        ly += 24
        c.text(lx, ly, fit(f"Dependences ({len(deps)})", lw, bold=True), bold=True)
        for dep in deps[:MAX_DEP_ROWS]:
            ly += 16
            c.text(lx, ly, fit(dep_line(data, dep), lw, 11), 11, attrs=f' class="dep" fill="{KIND_COLOURS.get(dep["kind"], "#000")}"')
        if len(deps) > MAX_DEP_ROWS:
            ly += 16
            c.text(lx, ly, f"\u2026 and {len(deps) - MAX_DEP_ROWS} more (affine-lsp plot --format json)", 11)
    c.out.append("</g>")

    # notes, below the plot and the legend, wrapped to the width
    notes = [ln for n in data.get("notes", []) for ln in wrap(n, inner)]
    if len(notes) > MAX_NOTE_LINES:
        notes = notes[: MAX_NOTE_LINES - 1] + [f"\u2026 ({len(notes) - MAX_NOTE_LINES + 1} more lines in the JSON's notes)"]
    ny = max(ax_y + 62, ly + 26)
    last = 0.0
    for n in notes:
        c.text(MARGIN, ny, n, attrs=' class="note"')
        last = ny
        ny += 16
    height = max(ax_y + 40, ly, last) + MARGIN + 4

    head_svg = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(width)}" height="{_fmt(height)}" viewBox="0 0 {_fmt(width)} {_fmt(height)}" font-family="sans-serif" font-size="{_fmt(FONT)}">',
        "<defs>",
    ]
    for kind, colour in KIND_COLOURS.items():
        head_svg.append(
            f'<marker id="head-{kind}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
            f'<marker id="ghead-{kind}" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
        )
    head_svg += [
        "</defs>",
        "<style>.point{fill:#444}.constraint,.key-bound{stroke:#888;stroke-width:1.5}.constraint.if,.key-if{stroke:#9467bd;stroke-width:1.5;stroke-dasharray:6 4}"
        ".arrow{fill:none;stroke-width:1.4;opacity:.8}.arrow-group{fill:none;opacity:.85}.axis{stroke:#222}.tick{fill:#333}.note{fill:#a05a00}</style>",
        f'<rect x="0" y="0" width="{_fmt(width)}" height="{_fmt(height)}" fill="white"/>',
    ]
    return "\n".join([*head_svg, *c.out, "</svg>"])
