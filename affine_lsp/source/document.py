"""The chunked document model: incremental re-parsing of a text buffer.

A :class:`Document` holds the text, its chunks (see :mod:`.chunks`), each
chunk's parse (cached until the chunk's text changes) and, per ``// -----``
section, the IR built from those parses. An edit re-chunks only the region it
touches (until chunk boundaries line up with the old ones again), re-parses
the chunks whose text changed and moves the others by updating their
:class:`~affine_lsp.ir.core.Anchor` (O(1) per chunk, nothing is rebuilt).
"""

from __future__ import annotations

import bisect
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

from affine_lsp import forking
from affine_lsp.gc_pause import gc_paused
from affine_lsp.ir.builder import AliasTable, IRBuilder, Scope, UndefinedValue, build_op
from affine_lsp.ir.core import Anchor, Block, Operation, Region, Span
from affine_lsp.source.scratch import enrol
from affine_lsp.syntax.chunks import ChunkSpan, exact_max_depth, iter_chunks, scan_chunks
from affine_lsp.syntax.errors import UNREGISTERED_DIALECT_CODE
from affine_lsp.syntax.legacy import legacy_notes
from affine_lsp.syntax.nodes import AliasDefSyn, ModuleCloseSyn, ModuleOpenSyn, Note, OpSyn
from affine_lsp.syntax.parser import ParseResult, parse_chunk

MAX_CHUNK_CHARS = 2_000_000
# Deeper bracket nesting than this is not parsed (the IR and the analyses
# walk regions recursively); real code nests a few dozen levels at most.
MAX_NESTING = 200


_ALIAS_HEAD = re.compile(r"\s*([#!][A-Za-z_][A-Za-z0-9_$.\-]*)\s*=")  # an alias definition's head
# The spellings of HASH_ID and BANG_ID in grammar/mlir.lark.
_ALIAS_REF_RE = re.compile(r"#[A-Za-z_0-9][A-Za-z0-9_$.\-]*|![A-Za-z_][A-Za-z0-9_$.\-]*")
# An SSA name (MLIR's `%` suffix-id; `%a#1` names `%a`).
_VALUE_REF_RE = re.compile(r"%[A-Za-z0-9_$.\-]+")

_NON_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffd]")


def _first_non_text(text: str) -> int | None:
    m = _NON_TEXT.search(text)
    return m.start() if m else None


class Chunk:
    __slots__ = (
        "kind",
        "level",
        "section",
        "anchor",
        "length",
        "text",
        "parse",
        "ir_op",
        "ir_notes",
        "ir_key",
        "max_depth",
        "_alias_refs",
        "_value_refs",
        "released",
    )

    def __init__(self, cs: ChunkSpan, text: str) -> None:
        self.kind = cs.kind
        self.max_depth = cs.max_depth
        self.level = cs.level
        self.section = cs.section
        self.anchor = Anchor(cs.start)
        self.length = cs.end - cs.start
        self.text = text
        self.parse: ParseResult | None = None
        self.ir_op: Operation | None = None
        self.ir_notes: list[Note] = []
        self.ir_key: tuple | None = None
        self._alias_refs: frozenset[str] | None = None
        self._value_refs: frozenset[str] | None = None
        # The syntax records were freed (Document.release_syntax): ``parse``
        # keeps only the notes, and the chunk is parsed again when needed.
        self.released = False

    @property
    def alias_refs(self) -> frozenset[str]:
        """Every ``#name``/``!name`` written in the chunk (more than the alias
        references it holds, never fewer)."""
        refs = self._alias_refs
        if refs is None:
            refs = self._alias_refs = frozenset(_ALIAS_REF_RE.findall(self.text))
        return refs

    @property
    def value_refs(self) -> frozenset[str]:
        """Every SSA name written in the chunk (``%a#1`` as ``%a``): more than
        the values it uses or defines, never fewer."""
        refs = self._value_refs
        if refs is None:
            refs = self._value_refs = frozenset(_VALUE_REF_RE.findall(self.text))
        return refs

    @property
    def start(self) -> int:
        return self.anchor.offset

    @property
    def end(self) -> int:
        return self.anchor.offset + self.length

    def parse_notes(self) -> list[Note]:
        """The chunk's parse notes (kept when its syntax records were
        released: no parse again for them)."""
        if self.released and self.parse is not None:
            return self.parse.notes
        return self.ensure_parsed().notes

    def ensure_parsed(self) -> ParseResult:
        if self.parse is None or self.released:
            self.released = False
            if self.kind == "split" or not self.text.strip():
                self.parse = ParseResult(None, [])
            elif self.kind == "module_close":
                self.parse = ParseResult(ModuleCloseSyn(Span(0, 1, self.anchor)), [])
            elif self.max_depth > MAX_NESTING and exact_max_depth(self.text) > MAX_NESTING:
                self.parse = ParseResult(
                    None,
                    [
                        Note(
                            "error",
                            f"nesting too deep to analyse: {exact_max_depth(self.text)} levels of brackets (the limit is {MAX_NESTING})",
                            Span(0, 1, self.anchor),
                            "too-deep",
                        )
                    ],
                )
            elif len(self.text) > MAX_CHUNK_CHARS:
                self.parse = ParseResult(
                    None,
                    [
                        Note(
                            "error",
                            f"top-level item of {len(self.text)} characters is too large to analyse (limit {MAX_CHUNK_CHARS})",
                            Span(0, 1, self.anchor),
                            "too-large",
                        )
                    ],
                )
            else:
                self.parse = parse_chunk(self.text, self.anchor)
                bad = _first_non_text(self.text)
                if bad is not None:
                    what = "invalid UTF-8 (replaced by U+FFFD)" if self.text[bad] == "\ufffd" else f"control character {self.text[bad]!r}"
                    self.parse.notes.append(Note("warning", f"{what} in the source text", Span(bad, bad + 1, self.anchor), "not-text"))
        return self.parse

    def __repr__(self) -> str:
        return f"<Chunk {self.kind} {self.start}-{self.end} s{self.section}>"


@dataclass(eq=False)
class Section:
    """One ``// -----`` section: an independent module."""

    index: int
    start: int
    end: int
    chunks: list[Chunk]
    module: Operation
    aliases: AliasTable
    notes: list[Note] = field(default_factory=list)

    def top_level_ops(self) -> Iterator[Operation]:
        for region in self.module.regions:
            for block in region.blocks:
                yield from block.operations

    def item_ops(self) -> Iterator[Operation]:
        """The op of every top-level item of the section, at any module
        level, each once, in text order. (The op of a ``module {`` chunk is
        the module, whose body holds the items that follow it, which have
        chunks of their own: whoever walks every chunk's op sees each of
        them twice.)"""
        for c in self.chunks:
            op = c.ir_op
            if op is not None and c.kind == "item":
                yield op

    def functions(self) -> Iterator[Operation]:
        for op in self.module.walk():
            if op.name == "func.func":
                yield op


@dataclass(eq=False, slots=True)
class Retired:
    """The IR a document stopped using since it was last taken
    (:meth:`Document.take_retired`): ``items``, top-level ops whose whole
    IR only they hold (an edit replaced or removed their chunk, or built
    them again); ``shells``, module ops (a section's, a nested module's)
    whose blocks list ops that a newer build may still use (their own
    links only are theirs). Kept only when the document is asked to
    (``Document.retired``; the server frees them: server/runtime/reclaim.py)."""

    items: list[Operation] = field(default_factory=list)
    shells: list[Operation] = field(default_factory=list)

    def add(self, op: Operation, shell: bool) -> None:
        (self.shells if shell else self.items).append(op)

    def __bool__(self) -> bool:
        return bool(self.items or self.shells)


# Line breaks as the LSP counts them: "\n", "\r\n" and a lone "\r" (a
# client splits lines there, so positions after a lone "\r" are on the next line).
_LINE_BREAK_RE = re.compile(r"\r\n?|\n")


def line_starts(text: str, start: int = 0, end: int | None = None) -> list[int]:
    """Offsets just after every line break that ends in ``text[start:end]``
    (a break is "\n", "\r\n" or a lone "\r"; a "\r" at ``end - 1``
    followed by "\n" ends at the "\n")."""
    if end is None:
        end = len(text)
    out = []
    if "\r" not in text[start : min(end + 1, len(text))]:
        find = text.find
        i = find("\n", start, end)
        while i >= 0:
            out.append(i + 1)
            i = find("\n", i + 1, end)
        return out
    for m in _LINE_BREAK_RE.finditer(text, start, min(end + 1, len(text))):
        if m.start() >= end:
            break
        out.append(m.end())
    return out


class LineIndex:
    """Offsets <-> (line, UTF-16 column) conversion for one text; lines end
    at "\n", "\r\n" or a lone "\r", as the LSP specifies."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0, *line_starts(text)]

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset) - 1

    def edited(self, start: int, end: int, new_text: str, text: str) -> LineIndex:
        """The index of ``text``, which is this text with ``[start, end)``
        replaced by ``new_text``, without rescanning the whole text."""
        starts = self.starts
        # Whether a character ends a line depends on it and the next one
        # ("\r" then "\n" is one break): the breaks at new offsets
        # start - 1 .. start + len(new_text) are computed again, the others
        # are kept (before the edit) or shifted (after it).
        lo = max(0, start - 1)
        hi = start + len(new_text) + 1  # exclusive
        a = bisect.bisect_right(starts, lo)  # line starts <= lo are kept
        # The break at the old offset `end` is computed again too.
        b = bisect.bisect_right(starts, end + (2 if self.text.startswith("\r\n", end) else 1))
        delta = len(new_text) - (end - start)
        mid = line_starts(text, lo, min(hi, len(text)))
        tail = starts[b:] if not delta else [s + delta for s in starts[b:]]
        new = LineIndex.__new__(LineIndex)
        new.text = text
        new.starts = starts[:a] + mid + tail
        return new

    def line_end(self, line: int) -> int:
        """The offset where ``line``'s text ends (before its line break)."""
        if line + 1 >= len(self.starts):
            return len(self.text)
        end = self.starts[line + 1] - 1
        if self.text[end] == "\n" and end > self.starts[line] and self.text[end - 1] == "\r":
            end -= 1
        return end

    def position(self, offset: int) -> tuple[int, int]:
        """0-based (line, UTF-16 code unit column)."""
        offset = max(0, min(offset, len(self.text)))
        line = self.line_of(offset)
        seg = self.text[self.starts[line] : offset]
        if seg.isascii():
            return line, len(seg)
        return line, len(seg.encode("utf-16-le", "surrogatepass")) // 2

    def offset(self, line: int, character: int) -> int:
        """Offset of a 0-based (line, UTF-16 column); a column past the end
        of the line means its end (before the line break), one between the
        two code units of a surrogate pair the offset after that character."""
        if line < 0:
            return 0
        if line >= len(self.starts):
            return len(self.text)
        start = self.starts[line]
        end = self.line_end(line)
        seg = self.text[start:end]
        if seg.isascii():
            return start + min(character, len(seg))
        units = 0
        for i, ch in enumerate(seg):
            if units >= character:
                return start + i
            units += 2 if ord(ch) > 0xFFFF else 1
        return end


class Document:
    def __init__(self, text: str, uri: str = "", release: bool = False) -> None:
        """``release``: free each top-level function's syntax records once
        its IR is built (see :meth:`release_syntax`)."""
        self.uri = uri
        self.text = text
        self.chunks: list[Chunk] = [Chunk(cs, text[cs.start : cs.end]) for cs in scan_chunks(text)]
        self._sections: list[Section] | None = None
        self._lines: LineIndex | None = None
        self.version = 0
        self.reparsed = 0  # chunks parsed by the last edit (for tests and benchmarks)
        self._release = release  # see release_syntax
        # The IR edits stopped using, when someone frees it (see Retired):
        # a scratch document frees it with the rest (source/scratch.py).
        self.retired: Retired | None = Retired() if not release and enrol(self) else None
        # Top-level values whose items edits removed since the last build.
        self._gone_values: set[str] = set()

    # ------------------------------------------------------------ editing
    @property
    def lines(self) -> LineIndex:
        if self._lines is None:
            self._lines = LineIndex(self.text)
        return self._lines

    def set_text(self, text: str) -> None:
        self.apply_edit(0, len(self.text), text)

    def apply_edit(self, start: int, end: int, new_text: str) -> None:
        """Replace ``text[start:end]`` by ``new_text`` and update the chunks."""
        old = self.text
        start = max(0, min(start, len(old)))
        end = max(start, min(end, len(old)))
        text = old[:start] + new_text + old[end:]
        delta = len(new_text) - (end - start)
        self.text = text
        self._lines = self._lines.edited(start, end, new_text, text) if self._lines is not None else None
        self.forget_sections()
        self.version += 1
        chunks = self.chunks
        if not chunks:
            self.chunks = [Chunk(cs, text[cs.start : cs.end]) for cs in scan_chunks(text)]
            self.reparsed = len(self.chunks)
            return
        # First chunk the edit may touch: the first one ending at or after
        # `start`. Rescan from the end of the chunk before it (text between
        # chunks, e.g. comments, belongs to no chunk but may gain one).
        # Step back one more chunk: text added in the gap after a chunk (a
        # comment line) may extend it.
        ends = [c.end for c in chunks]
        i = max(0, bisect.bisect_left(ends, start) - 1)
        if i > 0:
            prev = chunks[i - 1]
            rescan_from = prev.end
            level, section = prev.level, prev.section
            if prev.kind == "module_open":
                level += 1
            elif prev.kind == "module_close":
                level -= 1
            elif prev.kind == "split":
                level = 0
        else:
            rescan_from, level, section = 0, 0, 0
        first_section = section
        # Old chunk starts after the edit, shifted, where we may resynchronise.
        sync: dict[int, int] = {}
        for j in range(i + 1, len(chunks)):
            c = chunks[j]
            if c.start >= end:
                sync[c.start + delta] = j
        new_spans: list[ChunkSpan] = []
        pos = rescan_from
        resync_j: int | None = None
        # Scan window by window: chunk the text up to the next candidate sync
        # point; stop as soon as a new chunk boundary equals a shifted old one.
        spans = iter_chunks(text, pos, None, level, section)
        for cs in spans:
            if cs.start in sync and cs.start > start + len(new_text) - 1 and cs.start >= rescan_from:
                j = sync[cs.start]
                old_c = chunks[j]
                if old_c.level == cs.level and old_c.kind == cs.kind:
                    resync_j = j
                    break
            new_spans.append(cs)
        new_chunks = [Chunk(cs, text[cs.start : cs.end]) for cs in new_spans]
        # The section of the last chunk before the resynchronisation point, read
        # before the reuse below re-labels old chunks with their new section.
        prev_section = chunks[resync_j - 1].section if resync_j is not None and resync_j > 0 else 0
        # Reuse parses of chunks whose text did not change.
        old_by_text: dict[str, Chunk] = {}
        for c in chunks[i : resync_j if resync_j is not None else len(chunks)]:
            old_by_text.setdefault(c.text, c)
        for nc in new_chunks:
            oc = old_by_text.get(nc.text)
            if oc is not None and oc.parse is not None and oc.kind == nc.kind:
                oc.anchor.offset = nc.start
                oc.level, oc.section = nc.level, nc.section
                new_chunks[new_chunks.index(nc)] = oc
                old_by_text.pop(nc.text)
        kept = {id(c) for c in new_chunks}
        for c in chunks[i : resync_j if resync_j is not None else len(chunks)]:
            if id(c) not in kept:
                self._retire_ir(c)
        tail: list[Chunk] = []
        if resync_j is not None:
            tail = chunks[resync_j:]
            if delta:
                for c in tail:
                    c.anchor.offset += delta
            # Sections renumber after an added or removed split marker.
            sec_shift = (new_spans[-1].section if new_spans else first_section) - prev_section
            if sec_shift:
                for c in tail:
                    c.section += sec_shift
        self.chunks = chunks[:i] + new_chunks + tail
        self.reparsed = sum(1 for c in new_chunks if c.parse is None and c.kind == "item")

    def forget_sections(self) -> None:
        """Drop the sections' IR (built again when asked for): their module
        ops are retired; the chunks' IR is kept for the next build."""
        sections, self._sections = self._sections, None
        if sections is not None and self.retired is not None:
            for s in sections:
                self.retired.add(s.module, True)

    def drop_ir(self, c: Chunk) -> None:
        """Forget ``c``'s IR (built again when asked for)."""
        self._retire_ir(c)
        c.ir_op, c.ir_notes, c.ir_key = None, [], None

    def _retire_ir(self, c: Chunk) -> None:
        """``c``'s IR is no longer used: retired, and the top-level values it
        defined are gone (their users are built again)."""
        op = c.ir_op
        if op is None:
            return
        self._gone_values.update(result_names(op))
        if self.retired is not None:
            self.retired.add(op, c.kind == "module_open")

    def take_retired(self) -> Retired:
        """The IR retired since the last call (tracking starts with the first call)."""
        got = self.retired or Retired()
        self.retired = Retired()
        return got

    # ------------------------------------------------------------ analysis
    def parse_all(self) -> None:
        with gc_paused:
            for c in self.chunks:
                c.ensure_parsed()

    @property
    def sections(self) -> list[Section]:
        if self._sections is None:
            with gc_paused:
                self._sections = self._build_sections()
        return self._sections

    def _build_sections(self) -> list[Section]:
        gone, self._gone_values = frozenset(self._gone_values), set()
        by_section: dict[int, list[Chunk]] = {}
        for c in self.chunks:
            by_section.setdefault(c.section, []).append(c)
        out = []
        last = max(by_section) if by_section else 0
        # Section i spans from the end of the i-th split marker to the start of the next.
        bounds = [0]
        for c in self.chunks:
            if c.kind == "split":
                bounds.append(c.start)
                bounds.append(c.end)
        bounds.append(len(self.text))
        for idx in range(last + 1):
            sec = build_section(idx, by_section.get(idx, []), len(self.text), self._release, self.retired, gone)
            if 2 * idx + 1 < len(bounds):
                sec.start, sec.end = bounds[2 * idx], bounds[2 * idx + 1]
            out.append(sec)
        return out

    def section_at(self, offset: int) -> Section:
        """The section containing ``offset`` (a split marker belongs to the section it opens)."""
        secs = self.sections
        for s in secs:
            if offset < s.end:
                return s
        return secs[-1]

    def release_syntax(self) -> None:
        """Build the IR of every section, then free the syntax records of the
        top-level functions whose IR is built (their parse notes are kept):
        the records are a fifth of a document's memory. From now on, IR
        built for an edit frees them too. A function whose IR is built again
        later (after an edit that changes its environment) is parsed again;
        one whose IR is reused is not. :func:`item_syntax` gives a released
        function's records, parsed again for the moment."""
        self._release = True
        for s in self.sections:  # built now: each chunk's records are freed once its IR is built
            for c in s.chunks:
                _release(c)

    def notes(self) -> list[Note]:
        """Every parse and IR note of the document (errors, warnings), but
        the ops of unregistered dialects (:meth:`unregistered_dialect_notes`)."""
        out: list[Note] = []
        for s in self.sections:
            for c in s.chunks:
                out.extend(n for n in c.parse_notes() if n.code != UNREGISTERED_DIALECT_CODE)
                out.extend(c.ir_notes)
            out.extend(s.notes)
        return legacy_notes(self, out)

    def unregistered_dialect_notes(self) -> list[Note]:
        """mlir-opt's error at every op of a dialect MLIR 22.1.8 does not
        register, as the parser noted them: an error only where
        ``--allow-unregistered-dialect`` is not in force, which the caller
        decides (:func:`affine_lsp.diagnostics.unregistered_dialects`). The
        parser notes them as ``info``, so that an item is not taken for one
        that does not parse."""
        return [
            Note("error", n.message, n.span, n.code) for s in self.sections for c in s.chunks for n in c.parse_notes() if n.code == UNREGISTERED_DIALECT_CODE
        ]


def _env_key(aliases_key: object, path: tuple[int, ...], top_values: tuple[tuple[tuple[str, int], ...], ...], names: frozenset[str]) -> tuple:
    """What the IR of a top-level item depends on besides its text: the
    aliases it names, the module it is in (``path``) and the values defined
    at the top of that module and of every module around it (``top_values``,
    innermost first: a use of a value of an enclosing module is an error
    that names it, "defined outside the isolated region") that it names
    (``names``: the builder looks up no other name for it). A value defined
    or removed at the top of a module (a ``// -----`` typed inside a
    function leaves the rest of its body at the top of the next section)
    rebuilds the items that name it, not every item of the module."""
    return (aliases_key, path, tuple(tuple(v for v in level if v[0] in names) for level in top_values))


class _AliasKeys:
    """The part of a section's alias table one item depends on: the value of
    every alias it names, and of every alias those name, transitively (an
    alias not defined counts too, it may be defined later). Editing one
    alias rebuilds only the items that use it."""

    def __init__(self, aliases: AliasTable, defs: dict[str, Chunk]) -> None:
        self.aliases = aliases
        self.defs = defs
        self._values: dict[str, str | None] = {}

    def _value(self, name: str) -> str | None:
        if name in self._values:
            return self._values[name]
        table = self.aliases.types if name.startswith("!") else self.aliases.attrs
        d = table.get(name)
        v = ("<in error>" if name in self.aliases.broken else None) if d is None else str(d.value)
        self._values[name] = v
        return v

    def key(self, chunk: Chunk) -> tuple:
        refs = chunk.alias_refs
        if not refs:
            return ()
        seen: set[str] = set()
        todo = list(refs)
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            d = self.defs.get(n)
            if d is not None:
                todo.extend(d.alias_refs)
        return tuple(sorted((n, self._value(n)) for n in seen))


_FUNCTION_HEAD_RE = re.compile(r"\s*func\.func\b")


def is_function_chunk(c: Chunk) -> bool:
    """Whether an item chunk's text starts with ``func.func`` (a function,
    or a broken one): it defines no alias, module or top-level value."""
    return c.kind == "item" and _FUNCTION_HEAD_RE.match(c.text) is not None


def _release(c: Chunk) -> None:
    """Free the syntax records of a function chunk whose IR is built
    (keeping its ParseResult, whose identity the semantic-token cache uses,
    and its notes). Only functions: they define nothing the environment of
    the other items is read from, so a build that reuses their IR needs no
    record of them."""
    p = c.parse
    if p is not None and isinstance(p.item, OpSyn) and c.ir_op is not None and is_function_chunk(c):
        p.item = None
        c.released = True


_RECENT_MAX = 8
# By id(chunk): (its parse, the parse again). Not the chunk itself: its IR's
# parent links would keep the whole IR of its document's version alive. The
# chunk's own ParseResult, kept here, tells it from a later chunk at the
# same address.
_recent: dict[int, tuple[ParseResult, ParseResult]] = {}
_recent_lock = threading.Lock()


def _renew_recent() -> None:
    global _recent_lock
    _recent_lock = threading.Lock()
    _recent.clear()


forking.renewed_in_child(f"{__name__}._recent_lock", _renew_recent)


def item_syntax(c: Chunk) -> object | None:
    """The syntax record of ``c``'s item (None if it did not parse); for a
    released function, parsed again and not kept (the last few are cached:
    a hover, then a go-to-definition in the same function, parse it once)."""
    p = c.parse
    if p is None:
        return None
    if not c.released:
        return p.item
    key = id(c)
    with _recent_lock:
        hit = _recent.pop(key, None)
        if hit is not None and hit[0] is p:
            _recent[key] = hit  # most recent last
            return hit[1].item
    again = parse_chunk(c.text, c.anchor)
    with _recent_lock:
        _recent[key] = (p, again)
        while len(_recent) > _RECENT_MAX:
            del _recent[next(iter(_recent))]
    return again.item


def forget_reparsed(chunk_ids: set[int]) -> None:
    """Drop the cached parses of the chunks of ``chunk_ids`` (``id(chunk)``
    of a closed document's chunks, see :func:`item_syntax`)."""
    with _recent_lock:
        for key in [k for k in _recent if k in chunk_ids]:
            del _recent[key]


def result_names(op: Operation, untyped_only: bool = False) -> set[str]:
    """The names of the values ``op`` defines, as items name them (``%a``
    for ``%a#1``); ``untyped_only``: of those with no type of their own (a
    type learnt from a use counts as none)."""
    return {r.name.split("#")[0] for r in op.results if not untyped_only or r.type is None or r.type_from is not None}


def build_section(
    index: int, chunks: list[Chunk], text_len: int, release: bool = False, retired: Retired | None = None, gone: frozenset[str] = frozenset()
) -> Section:
    """Build the IR of one section, reusing each chunk's IR when neither its
    text nor the section's environment (aliases, top-level values) changed.
    ``release``: free each chunk's syntax records once its IR is built;
    ``retired`` receives the IR of chunks built again; ``gone``: the names
    of top-level values whose items edits removed since the last build."""
    root_block = Block(None, Span(0, 0))
    root_region = Region(Span(0, 0), [root_block])
    start = chunks[0].start if chunks else 0
    end = chunks[-1].end if chunks else text_len
    module = Operation("builtin.module", Span(start, end), Span(start, start), regions=[root_region])
    root_region.parent = module
    root_block.parent = root_region
    aliases = AliasTable()
    notes: list[Note] = []
    # The module scope of each chunk (modules open and close as the build
    # below does), the values defined at the top of each scope, and each
    # scope's path of module headers: an item moved into another module (a
    # closing brace typed or deleted above it) is rebuilt.
    scope_of: list[int] = []
    scope_values: list[list[tuple[str, int]]] = [[]]
    scope_path: list[tuple[int, ...]] = [()]
    scope_parent: list[int] = [-1]
    open_scopes = [0]
    alias_defs: dict[str, Chunk] = {}
    value_items: list[int] = []  # the items defining top-level values
    for k, c in enumerate(chunks):
        scope_of.append(open_scopes[-1])
        if (c.parse is None or c.released) and is_function_chunk(c):
            # A function defines no alias, module or top-level value: it is
            # parsed below, just before its IR is built (so with ``release``
            # only one function's syntax records are alive at a time).
            continue
        res = c.ensure_parsed()
        item = res.item
        if isinstance(item, AliasDefSyn):
            prev = aliases.attrs.get(item.name) or aliases.types.get(item.name)
            if prev is not None:
                notes.append(Note("error", f"redefinition of symbol alias id '{item.name[1:]}'", item.name_span, "redefinition"))
            aliases.add(item)
            alias_defs[item.name] = c
        elif item is None and res.notes and (m := _ALIAS_HEAD.match(c.text)) is not None:
            # A definition with a syntax error (reported): its uses are not
            # "undefined" as well.
            aliases.broken.add(m.group(1))
        elif isinstance(item, ModuleOpenSyn):
            scope_values.append([])
            scope_path.append((*scope_path[open_scopes[-1]], id(res)))
            scope_parent.append(open_scopes[-1])
            open_scopes.append(len(scope_values) - 1)
        elif isinstance(item, ModuleCloseSyn):
            if len(open_scopes) > 1:
                open_scopes.pop()
        elif isinstance(item, OpSyn) and item.results:
            scope_values[open_scopes[-1]].append((item.results[0][0], id(res)))
            value_items.append(k)
    akeys = _AliasKeys(aliases, alias_defs)
    # The values visible from each scope, through the isolation of the
    # module scopes (its own first, then those of the modules around it).
    visible: list[tuple[tuple[tuple[str, int], ...], ...]] = []
    for si, vals in enumerate(scope_values):
        up = scope_parent[si]
        visible.append((tuple(vals), *(visible[up] if up >= 0 else ())))
    envs: list[tuple | None] = []
    kept: set[int] = set()  # anchors of the chunks whose IR is reused
    for k, c in enumerate(chunks):
        item = c.parse.item if c.parse else None
        env = (
            _env_key(akeys.key(c), scope_path[scope_of[k]], visible[scope_of[k]], c.value_refs)
            if c.parse is None or c.released or isinstance(item, OpSyn)
            else None
        )
        envs.append(env)
        if env is not None and c.ir_op is not None and c.ir_key == env:
            kept.add(id(c.anchor))
    # A top-level value that learned its type from a use in another item (an
    # untyped result of an unknown op) depends on that item: rebuild its
    # whole module scope, as a fresh build would type it.
    relearn = set()
    for k, c in enumerate(chunks):
        if id(c.anchor) in kept and c.ir_op is not None:
            if any(r.type_from is not None and r.type_from.anchor is not c.anchor for r in c.ir_op.results):
                relearn.add(scope_of[k])
    # A top-level value whose item is built again (its text is the same but
    # an alias it names changed) is a new value object: the items that may
    # use it (those of its module scope and of the scopes inside that name
    # it) are built again too, or they would keep using the old one.
    # So are the items that used a value an edit took away: its item was
    # built again without it (its old IR says which), or removed (``gone``).
    new_values: dict[int, set[str]] = {}
    for k in value_items:
        if id(chunks[k].anchor) not in kept:
            item = chunks[k].parse.item  # type: ignore[union-attr]
            new_values.setdefault(scope_of[k], set()).update(r[0] for r in item.results)  # type: ignore[union-attr]
    for k, c in enumerate(chunks):
        if c.ir_op is not None and c.ir_op.results and id(c.anchor) not in kept:
            new_values.setdefault(scope_of[k], set()).update(result_names(c.ir_op))
    if gone:
        for si in range(len(scope_values)):
            new_values.setdefault(si, set()).update(gone)
    # An item built again for these reasons defines new value objects in its
    # turn: until no more item is.
    defines = set(value_items)
    while True:
        renamed: dict[int, set[str]] = {}  # scope -> names of new value objects visible in it
        for si in range(len(scope_values)):
            s = si
            while s >= 0:
                if s in new_values:
                    renamed.setdefault(si, set()).update(new_values[s])
                s = scope_parent[s]
        grew = False
        if relearn or renamed:
            for k, c in enumerate(chunks):
                si = scope_of[k]
                if si in relearn or (si in renamed and not renamed[si].isdisjoint(c.value_refs)):
                    if id(c.anchor) in kept and k in defines:
                        names = {r[0] for r in c.parse.item.results}  # type: ignore[union-attr]
                        if not names <= new_values.get(si, set()):
                            new_values.setdefault(si, set()).update(names)
                            grew = True
                    kept.discard(id(c.anchor))
                    c.ir_key = None
        if not grew:
            break
    # A top-level value of a reused item keeps only the uses by reused items:
    # the items built again below add theirs anew (and those of items edited
    # away must go, or a hover would count them).
    for c in chunks:
        if id(c.anchor) in kept and c.ir_op is not None:
            for r in c.ir_op.results:
                if any(id(u.span.anchor) not in kept for u in r.uses):
                    r.uses = [u for u in r.uses if id(u.span.anchor) in kept]
    top_scope = Scope(None, isolated=True)
    stack: list[tuple[Operation, Block, Scope]] = [(module, root_block, top_scope)]
    for k, c in enumerate(chunks):
        env = envs[k]
        if c.released and c.ir_op is not None and c.ir_key == env:
            item, is_op = None, True  # a released function whose IR is reused: not parsed again
        else:
            item = c.ensure_parsed().item
            is_op = isinstance(item, OpSyn)
        _, cur_block, cur_scope = stack[-1]
        if is_op:
            if c.ir_op is None or c.ir_key != env:
                assert isinstance(item, OpSyn)
                b = IRBuilder(aliases, cur_scope)
                op = build_op(b, item, cur_scope, cur_block)
                if retired is not None and c.ir_op is not None:
                    retired.add(c.ir_op, False)
                c.ir_op, c.ir_notes, c.ir_key = op, b.notes, env
                if release:
                    _release(c)
            else:
                op = c.ir_op
                for r in op.results:
                    # As the builder defines them: a redefinition keeps the
                    # first definition (its item reports the error).
                    prev = cur_scope.lookup(r.name)
                    if prev is None or isinstance(prev, UndefinedValue):
                        cur_scope.values[r.name] = r
            op.parent = cur_block
            cur_block.operations.append(op)
        elif isinstance(item, ModuleOpenSyn):
            blk = Block(None, item.span)
            reg = Region(item.span, [blk])
            mod = Operation("builtin.module", item.span, item.span, regions=[reg], attributes=dict(item.attrs))
            reg.parent = mod
            blk.parent = reg
            mod.parent = cur_block
            cur_block.operations.append(mod)
            stack.append((mod, blk, Scope(cur_scope, isolated=True)))
            if retired is not None and c.ir_op is not None:
                retired.add(c.ir_op, True)
            c.ir_op = mod
        elif isinstance(item, ModuleCloseSyn):
            if len(stack) > 1:
                mod = stack.pop()[0]
                mod.span = Span(mod.span.start, c.end)
            else:
                notes.append(Note("error", "unexpected '}' at top level", Span(c.start, c.start + 1), "syntax"))
    while len(stack) > 1:
        mod = stack.pop()[0]
        notes.append(Note("error", "expected '}' to close the module body", mod.name_span, "syntax"))
    return Section(index, start, end, chunks, module, aliases, notes)
