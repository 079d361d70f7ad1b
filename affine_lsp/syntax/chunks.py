"""Cutting a buffer into top-level chunks, quickly and without parsing.

A chunk is one top-level item: an op (usually a ``func.func``), an alias
definition, the header ``module ... {`` of a module, or its closing ``}``.
``// -----`` lines (mlir-opt's ``--split-input-file`` marker) are chunks of
kind ``split`` that start a new section.

The scanner tracks bracket depth outside strings and comments and starts a
new chunk at every line, at the current module's depth, that begins like a
top-level item. A line at column 0 that starts ``func.func``/``module``/an
alias while the depth is still open is taken as the start of a new item (the
previous one lacks a closing brace), so one unbalanced function does not
swallow the rest of the file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

# A `// -----` section marker: a whole line (only spaces after it). The one
# definition: the chunk scanner, split_sections and the transforms use it.
SPLIT_MARKER_RE = re.compile(r"^// -----[ \t\r\f\v]*$", re.M)
_ITEM_START_RE = re.compile(r"[ \t]*(?:%|#|!|\"|[A-Za-z_][\w$]*\.[\w$.]|func\b|module\b|\})")
_COL0_RESTART_RE = re.compile(r"(?:func\.func|func\s+@|module\b|builtin\.module\b|#[\w$.]+\s*=|![\w$.]+\s*=)")
_COL0_RESTART_FIRST = frozenset("fmb#!")  # the first characters _COL0_RESTART_RE can match
_MODULE_RE = re.compile(r"[ \t]*(?:builtin\.)?module\b")
# Strings, comments and brackets: the only things that matter for depth.
_TOKEN_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|[{}()\[\]]')


@dataclass(eq=False, slots=True)
class ChunkSpan:
    start: int
    end: int
    kind: str  # "item", "module_open", "module_close", "split", "blank"
    level: int  # module nesting depth at which the chunk starts
    section: int
    max_depth: int = 0  # bound of the deepest bracket nesting inside an item (see _line_delta)


def _line_delta(line: str) -> tuple[int, int]:
    """(net depth change, a bound of the highest running depth relative to
    the line start). The bound is exact except on lines that both open and
    close brackets, where it is the number of openings; ``max_depth`` is
    only compared with the nesting limit, and :func:`exact_max_depth`
    settles the rare chunk whose bound exceeds it."""
    opens = line.count("{") + line.count("(") + line.count("[")
    closes = line.count("}") + line.count(")") + line.count("]")
    if not opens and not closes:
        return 0, 0
    if '"' not in line and "//" not in line:
        return opens - closes, opens
    return _exact_line_delta(line)


def _exact_line_delta(line: str) -> tuple[int, int]:
    """(net depth change, highest running depth) of a line (or any text)
    outside strings and comments."""
    depth = 0
    high = 0
    for m in _TOKEN_RE.finditer(line):
        c = m.group(0)[0]
        if c in "{([":
            depth += 1
            if depth > high:
                high = depth
        elif c in "})]":
            depth -= 1
    return depth, high


def exact_max_depth(text: str) -> int:
    """The deepest bracket nesting in ``text`` (outside strings and comments)."""
    return _exact_line_delta(text)[1]


_HEADER_GAP_RE = re.compile(r"(?:\s|//[^\n]*)*")
_HEADER_NAME_RE = re.compile(r'@(?:[\w$.\-]+|"(?:[^"\\\n]|\\.)*")')
_HEADER_ATTRS_RE = re.compile(r"attributes(?![\w$.])")


def _module_header_len(text: str, start: int, limit: int) -> int | None:
    """Length of ``module @x attributes {...} {`` starting at ``start``: the
    offset just past the body's ``{``; None if the body is not opened.

    Only the header's own syntax may come between ``module`` and the body's
    ``{`` (spaces, comments, the name, the attribute dict, which may span
    lines): anything else means this is not a module header, so whether a
    line starts a module never depends on text after its header."""
    m = _MODULE_RE.match(text, start, limit)
    if m is None:
        return None
    pos = _HEADER_GAP_RE.match(text, m.end(), limit).end()  # type: ignore[union-attr]
    name = _HEADER_NAME_RE.match(text, pos, limit)
    if name is not None:
        pos = _HEADER_GAP_RE.match(text, name.end(), limit).end()  # type: ignore[union-attr]
    attrs = _HEADER_ATTRS_RE.match(text, pos, limit)
    if attrs is not None:
        pos = _HEADER_GAP_RE.match(text, attrs.end(), limit).end()  # type: ignore[union-attr]
        if pos >= limit or text[pos] != "{":
            return None
        depth = 0
        for t in _TOKEN_RE.finditer(text, pos, limit):
            c = t.group(0)[0]
            if c in "{([":
                depth += 1
            elif c in "})]":
                depth -= 1
                if depth == 0:
                    pos = t.end()
                    break
        else:
            return None
        pos = _HEADER_GAP_RE.match(text, pos, limit).end()  # type: ignore[union-attr]
    if pos < limit and text[pos] == "{":
        return pos + 1 - start
    return None


def scan_chunks(text: str, start: int = 0, end: int | None = None, level: int = 0, section: int = 0) -> list[ChunkSpan]:
    """Chunk ``text[start:end]``, starting at module level ``level``."""
    return list(iter_chunks(text, start, end, level, section))


def iter_chunks(text: str, start: int = 0, end: int | None = None, level: int = 0, section: int = 0) -> Iterator[ChunkSpan]:
    """Lazily chunk ``text[start:end]``; callers may stop early."""
    if end is None:
        end = len(text)
    cur_start: int | None = None
    cur_level = level
    depth = 0  # bracket depth inside the current item
    max_depth = 0
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        line_end = end if nl < 0 else nl + 1
        line = text[pos:line_end]
        # A marker is a whole line: the scan may start, or resume after a
        # module's `}`, in the middle of a line (`^` only matches at a line start).
        if line.startswith("// -----") and SPLIT_MARKER_RE.match(text, pos, line_end):
            if cur_start is not None:
                yield _trimmed(text, ChunkSpan(cur_start, pos, "item", cur_level, section, max_depth))
                cur_start = None
            section += 1
            yield _trimmed(text, ChunkSpan(pos, line_end, "split", 0, section))
            level = cur_level = 0
            depth = 0
            pos = line_end
            continue
        if depth > 0:  # inside an item, unless it lacks its closing brace
            at_item_start = line[:1] in _COL0_RESTART_FIRST and _COL0_RESTART_RE.match(line) is not None
            if at_item_start:  # unbalanced previous item: restart here
                depth = 0
        else:
            at_item_start = cur_start is None or _ITEM_START_RE.match(line) is not None
        stripped = line.lstrip() if at_item_start else ""
        if stripped and not stripped.startswith("//"):
            if cur_start is not None:
                yield _trimmed(text, ChunkSpan(cur_start, pos, "item", cur_level, section, max_depth))
                cur_start = None
            if stripped.startswith("}") and level > 0:
                close = pos + (len(line) - len(stripped)) + 1
                yield _trimmed(text, ChunkSpan(pos, close, "module_close", level, section))
                level -= 1
                cur_level = level
                # The rest of the line is scanned as a line of its own (`}}`
                # closes two modules; `} // c` is a comment), exactly as a
                # rescan that starts after this chunk reads it.
                pos = close
                continue
            if _MODULE_RE.match(line):
                # The header may span lines, never a split marker.
                marker = text.find("\n// -----", pos, end)
                hlen = _module_header_len(text, pos, end if marker < 0 else marker + 1)
                if hlen is not None:
                    yield _trimmed(text, ChunkSpan(pos, pos + hlen, "module_open", level, section))
                    level += 1
                    cur_level = level
                    rest_start = pos + hlen
                    pos = rest_start
                    # The rest of the header's last line may hold more text.
                    nl = text.find("\n", rest_start, end)
                    header_end = end if nl < 0 else nl + 1
                    if text[rest_start:header_end].strip() == "":
                        pos = header_end
                    continue
            cur_start = pos
            cur_level = level
            depth, max_depth = _line_delta(line)
            pos = line_end
            continue
        if cur_start is not None:
            d, h = _line_delta(line)
            if depth + h > max_depth:
                max_depth = depth + h
            depth += d
        pos = line_end
    if cur_start is not None:
        yield _trimmed(text, ChunkSpan(cur_start, end, "item", cur_level, section, max_depth))


def _trimmed(text: str, c: ChunkSpan) -> ChunkSpan:
    """Leading and trailing whitespace is not part of an item (so blank
    lines typed between items never change an item's text)."""
    if c.kind == "item":
        s, e = c.start, c.end
        while s < e and text[s] in " \t\r\n":
            s += 1
        while e > s and text[e - 1] in " \t\r\n":
            e -= 1
        c.start, c.end = s, e
    return c


def split_sections(text: str) -> list[tuple[int, int]]:
    """(start, end) of each ``// -----`` section, as mlir-opt splits."""
    out = []
    start = 0
    for m in SPLIT_MARKER_RE.finditer(text):
        out.append((start, m.start()))
        nl = text.find("\n", m.end())
        start = len(text) if nl < 0 else nl + 1
    out.append((start, len(text)))
    return out
