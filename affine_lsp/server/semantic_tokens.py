"""``textDocument/semanticTokens/full`` and ``/range``.

Token kinds come from the IR occurrences (:mod:`affine_lsp.ide.occurrences`): op names, SSA
values (block arguments and loop IVs as parameters), values bound to affine
maps colored by what :func:`affine_lsp.verify.dimsym.classify` says they are
(dimension vs symbol, with the custom modifiers ``dimension``/``symbol``),
``dN``/``sN`` identifiers of maps, ``#``/``!`` aliases, types, block labels,
function symbols; plus the affine keywords (``to``, ``step``, ``iter_args``,
``floordiv``, ...). Tokens are computed per top-level chunk and cached while
the chunk's IR is unchanged, relative to the chunk's first line.

A full request computes the tokens of the chunks not cached for at most
:data:`FULL_WAIT_S`; past it (the first request on a 20,000-line file: its
functions are parsed again for their syntax records) it answers with the
tokens it has and says so (``resultId`` :data:`PARTIAL`), computes the rest
in the background, one chunk at a time under the document lock, and asks
the client to request again (``workspace/semanticTokens/refresh``).
"""

from __future__ import annotations

import bisect
import logging
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from affine_lsp.ide.occurrences import Occ, chunk_occurrences, map_use_of_operand
from affine_lsp.ir.core import BlockArgument
from affine_lsp.server.state import DocumentState
from affine_lsp.source.document import Chunk, Document, line_starts

if TYPE_CHECKING:
    from affine_lsp.server.analysis_engine import Engine
    from affine_lsp.server.snapshot import Snapshot

TOKEN_TYPES = ["function", "variable", "parameter", "macro", "type", "keyword", "label", "namespace"]
TOKEN_MODIFIERS = ["declaration", "definition", "readonly", "defaultLibrary", "dimension", "symbol"]
LEGEND = types.SemanticTokensLegend(token_types=TOKEN_TYPES, token_modifiers=TOKEN_MODIFIERS)

T = {name: i for i, name in enumerate(TOKEN_TYPES)}
M = {name: 1 << i for i, name in enumerate(TOKEN_MODIFIERS)}

KEYWORDS = ("to", "step", "iter_args", "max", "min", "symbol", "floordiv", "ceildiv", "mod", "reduce", "else", "affine_map", "affine_set")
_KW_RE = re.compile(r"(?<![\w%#@^!.$\-])(" + "|".join(KEYWORDS) + r")(?![\w$.\-])")
_BREAK_RE = re.compile(r"[\r\n]")
_COMMENT_RE = re.compile(r"//[^\n]*|\"(?:[^\"\\\n]|\\.)*\"")

# Priority of token sources when they overlap (lower wins).
_PRIO = {"value": 0, "alias": 1, "symbol": 1, "label": 1, "ident": 2, "op": 3, "keyword": 4, "type": 5}

RawToken = tuple[int, int, int, int, int]  # start offset, end offset, type, modifiers, priority

FULL_WAIT_S = 1.0
"""How long a full request computes the tokens of chunks not cached yet."""
PARTIAL = "partial: the tokens of the rest are still running"
"""The ``resultId`` of an answer without every chunk's tokens."""

log = logging.getLogger(__name__)


def _value_token(engine: Engine, o: Occ) -> tuple[int, int]:
    v = o.value
    decl = M["declaration"] if o.kind == "value-def" else 0
    base = T["parameter"] if isinstance(v, BlockArgument) else T["variable"]
    if o.kind == "value-use" and o.op is not None and v is not None and o.op.name.startswith("affine."):
        found = map_use_of_operand(o.op, o.index)
        if found is not None:
            info = engine.classify(v, o.op)
            mu, pos = found
            as_dim = pos < mu.num_dims
            if info is not None:
                if info.is_symbol:
                    return T["variable"], M["readonly"] | M["symbol"]
                if info.is_dim:
                    return T["parameter"], M["dimension"]
            return (T["parameter"], M["dimension"]) if as_dim else (T["variable"], M["readonly"] | M["symbol"])
    return base, decl


def raw_chunk_tokens(engine: Engine, doc: Document, chunk: Chunk) -> list[RawToken]:
    out: list[RawToken] = []
    for o in chunk_occurrences(chunk):
        s, e = o.span.start, o.span.end
        if e <= s:
            continue
        k = o.kind
        if k in ("value-def", "value-use"):
            t, m = _value_token(engine, o)
            out.append((s, e, t, m, _PRIO["value"]))
        elif k == "undefined-use":
            out.append((s, e, T["variable"], 0, _PRIO["value"]))
        elif k in ("alias-def", "alias-use"):
            out.append((s, e, T["macro"], M["declaration"] if k == "alias-def" else 0, _PRIO["alias"]))
        elif k in ("symbol-def", "symbol-ref"):
            out.append((s, e, T["function"], M["declaration"] if k == "symbol-def" else 0, _PRIO["symbol"]))
        elif k in ("block-def", "block-ref"):
            out.append((s, e, T["label"], M["declaration"] if k == "block-def" else 0, _PRIO["label"]))
        elif k == "map-dim":
            out.append((s, e, T["parameter"], M["dimension"], _PRIO["ident"]))
        elif k == "map-sym":
            out.append((s, e, T["variable"], M["readonly"] | M["symbol"], _PRIO["ident"]))
        elif k == "op":
            mods = M["defaultLibrary"] if o.op is not None and o.op.known else 0
            out.append((s, e, T["function"], mods, _PRIO["op"]))
        elif k == "type":
            out.append((s, e, T["type"], 0, _PRIO["type"]))
    # Keywords: only where no other token is, outside comments and strings.
    text = chunk.text
    base = chunk.start
    masked = _COMMENT_RE.sub(lambda m: " " * len(m.group(0)), text)
    for m in _KW_RE.finditer(masked):
        out.append((base + m.start(), base + m.end(), T["keyword"], 0, _PRIO["keyword"]))
    return out


def _paint(raw: list[RawToken], text: str) -> list[tuple[int, int, int, int]]:
    """Non-overlapping single-line tokens; higher-priority tokens win, lower
    ones keep their uncovered parts."""
    taken_starts: list[int] = []
    taken_ends: list[int] = []
    out: list[tuple[int, int, int, int]] = []
    for s, e, t, m, _p in sorted(raw, key=lambda r: (r[4], r[0])):
        pieces = [(s, e)]
        i = bisect.bisect_left(taken_ends, s + 1)
        while i < len(taken_starts) and taken_starts[i] < e:
            a, b = taken_starts[i], taken_ends[i]
            nxt = []
            for ps, pe in pieces:
                if b <= ps or pe <= a:
                    nxt.append((ps, pe))
                    continue
                if ps < a:
                    nxt.append((ps, a))
                if b < pe:
                    nxt.append((b, pe))
            pieces = nxt
            i += 1
        for ps, pe in pieces:
            # split at line breaks ("\n", "\r\n", a lone "\r")
            cur = ps
            while cur < pe:
                nl = _BREAK_RE.search(text, cur, pe)
                seg_end = pe if nl is None else nl.start()
                if seg_end > cur and text[cur:seg_end].strip():
                    out.append((cur, seg_end, t, m))
                    j = bisect.bisect_left(taken_starts, cur)
                    taken_starts.insert(j, cur)
                    taken_ends.insert(j, seg_end)
                cur = seg_end + 1 if nl is not None else pe
    out.sort()
    return out


def chunk_tokens(engine: Engine, st: DocumentState, doc: Document, chunk: Chunk, cached_only: bool = False) -> list[tuple[int, int, int, int, int]] | None:
    """(line, col, length, type, modifiers) of one chunk, absolute lines
    (with ``cached_only``, None when they are not cached)."""
    lines = doc.lines
    first_line, first_col = lines.position(chunk.start)
    key = (id(chunk.ir_op), id(chunk.parse), first_col, chunk.length)
    cache: dict[int, tuple[Any, ...]] = st.token_cache
    hit = cache.get(id(chunk))
    if hit is not None and hit[0] is chunk and hit[1] == key:
        return [(first_line + dl, c, n, t, m) for dl, c, n, t, m in hit[2]]
    if cached_only:
        return None
    painted = _paint(raw_chunk_tokens(engine, doc, chunk), doc.text)
    # Positions relative to the chunk: its own line starts (tokens never span lines).
    text, base = chunk.text, chunk.start
    local = [0, *line_starts(text)]
    rel = []
    for s, e, t, m in painted:
        k = bisect.bisect_right(local, s - base) - 1
        ls = local[k]
        seg = text[ls : s - base]
        tok = text[s - base : e - base]
        col = len(seg) if seg.isascii() else len(seg.encode("utf-16-le", "surrogatepass")) // 2
        n = len(tok) if tok.isascii() else len(tok.encode("utf-16-le", "surrogatepass")) // 2
        if k == 0:
            col += first_col
        rel.append((k, col, n, t, m))
    cache[id(chunk)] = (chunk, key, rel, chunk.ir_op, chunk.parse)
    return [(first_line + dl, c, n, t, m) for dl, c, n, t, m in rel]


def encode(tokens: list[tuple[int, int, int, int, int]]) -> list[int]:
    data: list[int] = []
    pl, pc = 0, 0
    for ln, col, n, t, m in tokens:
        if ln == pl:
            data += [0, col - pc, n, t, m]
        else:
            data += [ln - pl, col, n, t, m]
        pl, pc = ln, col
    return data


def full_answer(snap: Snapshot, params: types.SemanticTokensParams) -> types.SemanticTokens:
    return tokens_for(snap, None, snap.semantic_tokens_refresher())


def range_answer(snap: Snapshot, params: types.SemanticTokensRangeParams) -> types.SemanticTokens:
    return tokens_for(snap, params.range)


def tokens_for(snap: Snapshot, rng: types.Range | None, refresh: Callable[[], None] | None = None) -> types.SemanticTokens:
    """The tokens of ``rng`` (None: the whole document). A full request
    computes new chunks for :data:`FULL_WAIT_S` at most, then answers with
    what it has (``resultId`` :data:`PARTIAL`) and completes the cache in the
    background (then ``refresh()``)."""
    st = snap.st
    deadline = time.monotonic() + FULL_WAIT_S if rng is None else None
    partial = False
    with st.locked() as doc:
        lines = doc.lines
        lo = lines.offset(rng.start.line, rng.start.character) if rng is not None else 0
        hi = lines.offset(rng.end.line, rng.end.character) if rng is not None else len(doc.text)
        toks: list[tuple[int, int, int, int, int]] = []
        live: set[int] = set()
        for s in doc.sections:
            for c in s.chunks:
                live.add(id(c))
                if c.end < lo or c.start > hi or c.kind not in ("item",):
                    continue
                try:
                    late = deadline is not None and time.monotonic() > deadline
                    got = chunk_tokens(snap.analysis, st, doc, c, cached_only=late)
                    if got is None:
                        partial = True
                        continue
                    toks.extend(got)
                except Exception:  # one bad chunk must not cost the others their colors
                    log.exception("semantic tokens failed for a chunk")
        if rng is None:
            for k in [k for k in st.token_cache if k not in live]:
                del st.token_cache[k]
        toks.sort()
    if partial and not st.tokens_warming:
        st.tokens_warming = True
        snap.lanes().submit_ondemand(lambda: _complete_tokens(snap, refresh))
    return types.SemanticTokens(data=encode(toks), result_id=PARTIAL if partial else None)


TOKENS_SLICE_S = 0.02
"""The longest the completion of a document's tokens holds its on-demand lane at once."""


def _complete_tokens(snap: Snapshot, refresh: Callable[[], None] | None) -> None:
    """Compute the tokens of every chunk not cached, one at a time under the
    document lock (edits come in between), in slices of at most
    :data:`TOKENS_SLICE_S`, each a task of the document's on-demand lane,
    then ``refresh()``. A slice ends early when interactive work runs: the
    requests queued meanwhile on the same lane run before the next slice
    (waiting for them inside a slice would wait for itself)."""
    st = snap.st
    more = False
    try:
        if st.closed:
            return
        end = time.monotonic() + TOKENS_SLICE_S
        with st.locked() as doc:
            version = doc.version
            todo = [c for s in doc.sections for c in s.chunks if c.kind == "item" and chunk_tokens(snap.analysis, st, doc, c, cached_only=True) is None]
        for c in todo:
            if snap.interactive() or time.monotonic() > end:
                more = True
                break
            with st.locked() as doc:
                if st.closed or doc.version != version:
                    more = not st.closed
                    break
                try:
                    chunk_tokens(snap.analysis, st, doc, c)
                except Exception:
                    log.exception("semantic tokens failed for a chunk")
    finally:
        if not more:
            st.tokens_warming = False
    if more:
        if snap.interactive():
            time.sleep(0.005)  # (requests first)
        snap.lanes().submit_ondemand(lambda: _complete_tokens(snap, refresh))
        return
    if refresh is not None and not st.closed:
        refresh()
