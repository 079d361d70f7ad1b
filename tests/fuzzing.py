"""Edit-stream fuzzing of the real language server (shared by
``tests/test_reliability_fuzz.py`` and ``bench/fuzz.py``; no tests here).

A :class:`Fuzzer` drives ``python -m affine_lsp serve`` over stdio with
pytest-lsp's client (the helpers of :mod:`tests.test_server_support`). It
opens seed documents (the upstream corpus, the server test data, programs of
``bench/generate.py``, small hostile documents: :func:`hostile_texts`), then
repeats *steps*:

1. one random *action* (insert a snippet or a corpus token, delete a range, a
   line or a closing brace, paste a fragment of another file, duplicate a
   function, type a loop character by character, undo earlier actions, batch
   several changes into one notification, paste random bytes inside a line,
   insert astral-plane characters, type or delete a character inside an op
   name or keyword, start a range inside a surrogate pair, ...), sent as
   incremental ``didChange`` notifications whose positions the client
   computes itself, as the LSP specifies (:func:`to_position`); requests at
   random positions are sent in between, without waiting for them;
2. the invariants of the step:

   * the server process is alive and logged no error (a handled exception
     counts as a crash too);
   * every request is answered (a result or a proper LSP error, never an
     internal error) within :data:`LATE_S` seconds;
   * diagnostics are published for the latest version;
   * every code action's edit (and every rename's edit), applied to the text,
     introduces no error the text did not have (checked with the
     Document/diagnostics API in this process);
   * every few steps, the incremental state equals a fresh open of the same
     text as a second document (same diagnostics once the analysis phase has
     settled, same hovers at sample positions, same symbols, folding ranges
     and semantic tokens).

Every violation is counted in :class:`FuzzStats` and described (with the
seed, the step and the actions that led to it) in ``stats.failures``; with an
artifact directory, the texts involved are saved there too.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import hashlib
import json
import multiprocessing
import os
import random
import re
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.protocol import default_converter
from pytest_lsp import LanguageClient

from tests.test_server_support import DATA, ROOT, UPSTREAM, config, start

LATE_S = 2.0
"""Every request must be answered within this many seconds."""
SLOW_S = 1.0
"""Answers slower than this are listed (method, document size) in ``FuzzStats.slow``."""
UNANSWERED_S = 30.0
"""A request not answered after this long is counted as unanswered (a hang)."""
DIAG_TIMEOUT_S = 15.0
"""Diagnostics of the latest version must be published within this long."""
SETTLE_TIMEOUT_S = 90.0
"""The analysis phase of a document must settle within this long."""
INTERNAL_ERROR = -32603
PENDING_MARKERS = ("still running", "not analysed yet")

_CONVERTER = default_converter()


# ---------------------------------------------------------------- text and positions
# The client's own model of positions, written independently of the server's
# LineIndex, as the LSP specifies: lines end at "\n", "\r\n" or a lone "\r",
# columns count UTF-16 code units (two for a character outside the BMP).
_EOL_RE = re.compile(r"\r\n|\r|\n")


def _lines(text: str) -> tuple[list[int], list[int]]:
    """(start, end before the line break) of every line."""
    starts, ends = [0], []
    for m in _EOL_RE.finditer(text):
        ends.append(m.start())
        starts.append(m.end())
    ends.append(len(text))
    return starts, ends


def _utf16_len(s: str) -> int:
    return sum(2 if ord(ch) > 0xFFFF else 1 for ch in s)


def to_position(text: str, offset: int) -> types.Position:
    """The LSP position of a str offset."""
    offset = max(0, min(offset, len(text)))
    starts, _ = _lines(text)
    line = bisect.bisect_right(starts, offset) - 1
    return types.Position(line=line, character=_utf16_len(text[starts[line] : offset]))


def to_offset(text: str, pos: types.Position) -> int:
    """The str offset of an LSP position (a column past the line's end means
    its end; one inside a surrogate pair, the offset after the character)."""
    starts, ends = _lines(text)
    if pos.line >= len(starts):
        return len(text)
    start, end = starts[pos.line], ends[pos.line]
    units = 0
    for i in range(start, end):
        if units >= pos.character:
            return i
        units += 2 if ord(text[i]) > 0xFFFF else 1
    return end


def lsp_range(text: str, start: int, end: int) -> types.Range:
    return types.Range(start=to_position(text, start), end=to_position(text, end))


def edit_range(text: str, e: Edit) -> tuple[int, int, types.Range]:
    """``(start, end, LSP range)`` of ``e`` on ``text``: the offsets it
    replaces and the range sent for them. With ``e.mid_start`` on an astral
    character the range starts between its two UTF-16 code units, which the
    server reads as the offset after the character (so does :func:`to_offset`)."""
    s, t = sorted((_snap(text, e.start), _snap(text, e.end)))
    rng = lsp_range(text, s, t)
    if e.mid_start and s < len(text) and ord(text[s]) > 0xFFFF:
        start = types.Position(line=rng.start.line, character=rng.start.character + 1)
        s = to_offset(text, start)
        t = max(s, t)
        rng = types.Range(start=start, end=to_position(text, t))
    return s, t, rng


def apply_text_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP text edits (all relative to ``text``); ValueError when they overlap."""
    spans = sorted(((to_offset(text, e.range.start), to_offset(text, e.range.end), e.new_text) for e in edits), key=lambda s: (s[0], s[1]))
    out: list[str] = []
    pos = 0
    for s, e, new in spans:
        if s < pos or e < s:
            raise ValueError(f"overlapping or inverted edits at offset {s}")
        out.append(text[pos:s])
        out.append(new)
        pos = e
    out.append(text[pos:])
    return "".join(out)


def workspace_edits(edit: types.WorkspaceEdit | None, uri: str) -> list[types.TextEdit] | None:
    """The text edits of ``edit`` for ``uri`` (None when it touches nothing there)."""
    if edit is None:
        return None
    out: list[types.TextEdit] = []
    found = False
    if edit.changes:
        for u, es in edit.changes.items():
            if u == uri:
                found = True
                out.extend(es)
    for dc in edit.document_changes or []:
        if isinstance(dc, types.TextDocumentEdit) and dc.text_document.uri == uri:
            found = True
            out.extend(e for e in dc.edits if isinstance(e, types.TextEdit))
    return out if found else None


# ---------------------------------------------------------------- error keys (the transform safety net's criterion)
class ErrorOracle:
    """Errors of a text as ``(message, stripped line text)`` pairs, computed
    with the Document/diagnostics API (cached per text) the way the server
    reports them: every item that parses is verified even when another one
    does not (``strict=False``), so a fix of a parse error that reveals an
    error the user already saw elsewhere is not counted as new."""

    def __init__(self, size: int = 64) -> None:
        self._cache: dict[str, tuple[tuple[tuple[int, str, str, bool], ...], int]] = {}
        self._size = size

    def keys(self, text: str) -> tuple[tuple[str, str], ...]:
        return tuple((m, line) for _, m, line, _ in self._located(text)[0])

    def _located(self, text: str) -> tuple[tuple[tuple[int, str, str, bool], ...], int]:
        """``(chunk index, message, stripped line text, stops)`` of every
        error, and the number of chunks. ``stops``: a parse error, or a
        parse-class error of the verifier (code ``syntax``, or an unknown op
        of an upstream dialect, ``unknown-upstream-op``), after which the
        item is not verified further (one such error per item, as mlir-opt's
        parser gives)."""
        h = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()
        got = self._cache.get(h)
        if got is None:
            from affine_lsp.analysis import analyze_document
            from affine_lsp.source.document import Document
            from affine_lsp.verify import verify_document

            doc = Document(text)
            starts = [c.start for c in doc.chunks]
            parsed = doc.notes()
            out = []
            for k, n in enumerate([*parsed, *verify_document(doc, strict=False), *analyze_document(doc)]):
                # mlir-opt's error at the first legacy construct of a section
                # (syntax/legacy.py) moves to the next one when a quick fix
                # modernizes it: not an error the fix introduces.
                if n.severity == "error" and not (n.data or {}).get("legacy"):
                    ls = text.rfind("\n", 0, n.span.start) + 1
                    le = text.find("\n", ls)
                    chunk = max(0, bisect.bisect_right(starts, n.span.start) - 1)
                    # mlir-opt's parser stops at an unknown op of an upstream
                    # dialect too (the op registry reports it from the verifier).
                    stops = k < len(parsed) or n.code in ("syntax", "unknown-upstream-op")
                    out.append((chunk, n.message, text[ls : le if le >= 0 else len(text)].strip(), stops))
            got = (tuple(sorted(out, key=lambda x: (x[1], x[2], x[0]))), len(starts))
            if len(self._cache) >= self._size:
                self._cache.pop(next(iter(self._cache)))
            self._cache[h] = got
        return got

    def new_errors(self, before: str, after: str, rename: tuple[str, str] | None = None, fix: bool = False) -> list[tuple[str, str]]:
        """Errors of ``after`` that ``before`` does not have: an error whose
        (message, line text) is new, when there are also more errors with
        that message than before (an edit may respell the line an existing
        error is on, or the op a message quotes). With ``rename = (old, new)`` the new name is read as the
        old one first, and an error in a top-level item that already had
        errors is not the rename's: renaming a value in a broken item can
        remove an error (a redefinition) and let the verifier reach, and
        report, one that was there all along (a rename keeps the items).
        With ``fix`` (a quick fix: an edit meant to remove an error), an
        error in an item whose parse(-class) error the edit removed is not
        the fix's either: the parser and verifier stop at that error, so
        they now reach, and report, what the item lacked all along (mlir-opt
        does the same: "requires 'max' prefix" fixed, "block with no
        terminator" of the function that never had one). Loop transforms
        get no such allowance: their safety net withholds them."""
        old, old_chunks = self._located(before)
        located, new_chunks = self._located(after)
        new = [(c, _unrename(m, rename), _unrename(line, rename)) if rename is not None else (c, m, line) for c, m, line, _ in located]
        known = {(m, line) for _, m, line, _ in old}
        fresh = [(c, m, line) for c, m, line in new if (m, line) not in known]
        if rename is not None:
            broken = {c for c, _, _, _ in old}
            fresh = [x for x in fresh if x[0] not in broken]
        before_count = Counter(_message_kind(m) for _, m, _, _ in old)
        after_count = Counter(_message_kind(m) for _, m, _ in new)
        if fix and fresh and old_chunks == new_chunks:
            unmasked = {c for c, m, _, stops in old if stops and after_count[_message_kind(m)] < before_count[_message_kind(m)]}
            fresh = [x for x in fresh if x[0] not in unmasked]
        if not fresh:
            return []
        return sorted((m, line) for _, m, line in fresh if after_count[_message_kind(m)] > before_count[_message_kind(m)])


_WORKER_ORACLE: ErrorOracle | None = None


def _new_errors_in_worker(before: str, after: str, rename: tuple[str, str] | None, fix: bool) -> list[tuple[str, str]]:
    """:meth:`ErrorOracle.new_errors` in the oracle's process (its cache lives there)."""
    global _WORKER_ORACLE
    if _WORKER_ORACLE is None:
        _WORKER_ORACLE = ErrorOracle()
    return _WORKER_ORACLE.new_errors(before, after, rename, fix)


class OracleProcess:
    """The :class:`ErrorOracle` in a process of its own. Parsing, verifying
    and analysing a 20,000-line text takes the oracle seconds; on a thread
    of the client it held the client's interpreter lock, so the client did
    not read the server's answers meanwhile (the server's writes to the pipe
    blocked for up to 3 s with answers ready): the latencies counted the
    client's work, not the server's."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    async def new_errors(self, before: str, after: str, rename: tuple[str, str] | None = None, fix: bool = False) -> list[tuple[str, str]]:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return await asyncio.get_running_loop().run_in_executor(self._pool, _new_errors_in_worker, before, after, rename, fix)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


# Messages that quote an op (MLIR prints the op into them): a rewrite of that
# op respells the message, not the error.
_QUOTES_AN_OP = re.compile(r"^(block with no terminator, has ).*", re.S)


def _message_kind(message: str) -> str:
    """The message without the op text it quotes, for counting errors."""
    return _QUOTES_AN_OP.sub(r"\1<op>", message)


def _unrename(s: str, rename: tuple[str, str]) -> str:
    """``s`` with the new name read as the old one (with or without its
    sigil: "undefined symbol alias id 'map'" names ``#map``)."""
    old, new = rename
    s = re.sub(re.escape(new) + r"(?![\w$.\-])", lambda _m: old, s)
    return re.sub(r"(?<![\w$.\-])" + re.escape(new[1:]) + r"(?![\w$.\-])", lambda _m: old[1:], s)


# ---------------------------------------------------------------- seeds and fragments
def seed_texts(corpus: bool = True, generated: tuple[int, ...] = (120, 400), hostile: bool = True) -> list[tuple[str, str]]:
    """(name, text) of the seed documents: the upstream corpus (when present
    and ``corpus``), the server test data, generated programs and (with
    ``hostile``) the hostile documents of :func:`hostile_texts`."""
    from bench.generate import generate

    out: list[tuple[str, str]] = []
    if corpus and UPSTREAM.is_dir():
        out += [(p.name, p.read_text(errors="replace")) for p in sorted(UPSTREAM.glob("*.mlir"))]
    out += [(p.name, p.read_text()) for p in sorted(DATA.glob("*.mlir"))]
    out += [(f"generated-{n}.mlir", generate(n, n=16 + n % 48)) for n in generated]
    if hostile:
        out += hostile_texts()
    return out


def deep_nest(depth: int, name: str = "f") -> str:
    """A function of ``depth`` nested loops (``2 * depth + 3`` lines)."""
    return (
        f"func.func @{name}(%A: memref<8xf32>) {{\n"
        + "".join(f"{' ' * min(k, 40)}affine.for %i{k} = 0 to 2 {{\n" for k in range(depth))
        + f"{' ' * min(depth, 40)}%v = affine.load %A[%i{depth - 1}] : memref<8xf32>\n"
        + "".join(f"{' ' * min(k, 40)}}}\n" for k in reversed(range(depth)))
        + "  return\n}\n"
    )


DAMAGED = (
    "func.func @damaged(%A: memref<8xf32>, %x: f32) {\n  affine.for %i = 0 to 8 {\n"
    "    %v = affine.load %A[%i] : memref<8xf32> stray \U0001f600 text\n"
    "    %w = arith.addf %v, %x : f32\n    \U00010000 affine.store %w, %A[%i] : memref<8xf32>\n"
    "    %u = arith.mulf %w, %x : f32 // \U0001f642 \u00e9\n  }\n  return\n}\n"
)


def hostile_texts() -> list[tuple[str, str]]:
    """Small versions of the hostile documents of
    ``tests/test_reliability_hostile.py`` (cheap enough to edit many times):
    nesting beyond and just within the limit, random bytes, control
    characters, a long line, many aliases, text outside the Basic
    Multilingual Plane, a damaged function."""
    rnd = random.Random(7)
    junk = bytes(rnd.getrandbits(8) for _ in range(3000)).decode("utf-8", errors="replace")
    ok = "func.func @ok(%A: memref<4xf32>) {\n  %c = arith.constant 0 : index\n  %v = affine.load %A[%c] : memref<4xf32>\n  return\n}\n"
    return [
        ("hostile-deep-4000-lines.mlir", deep_nest(1998) + ok),
        ("hostile-deep-within-limit.mlir", deep_nest(150, "a") + ok + deep_nest(60, "b")),
        ("hostile-junk.mlir", junk),
        ("hostile-junk-in-functions.mlir", ok + junk[:400] + "\n" + DAMAGED + junk[400:700] + ok.replace("@ok", "@ok2")),
        ("hostile-control.mlir", "func.func @f() {\n\x00\x01 return\n}\nfunc.func @g() {\n  return\n}\n" + ok),
        (
            "hostile-long-line.mlir",
            "func.func @f(%A: memref<8xf32>) {\n  %0 = arith.constant 1 : index" + " " * 20_000 + "\n  %v = affine.load %A[%0] : memref<8xf32>\n  return\n}\n",
        ),
        (
            "hostile-aliases.mlir",
            "".join(f"#map{k} = affine_map<(d0) -> (d0 + {k})>\n" for k in range(600))
            + "func.func @f(%i: index) -> index {\n  %0 = affine.apply #map599(%i)\n  return %0 : index\n}\n",
        ),
        (
            "hostile-astral.mlir",
            DAMAGED + ok.replace("%c", "%c\U0001d538").replace("@ok", "@ok\U0001f600") + "// \U00010000\U0010ffff\n" + DAMAGED.replace("@damaged", "@damaged2"),
        ),
    ]


def big_texts(lines: int, corpus: bool = True) -> list[tuple[str, str]]:
    """(name, text) of large documents of about ``lines`` lines: generated
    affine content of every kind (``bench/content.py``, an out-of-bounds
    access in every tenth function) and, when the corpus is present and
    ``corpus``, valid corpus sections concatenated to that size."""
    from bench.content import CORPUS, corpus_text, generate_kind

    out = [(f"big-generated-{lines}.mlir", generate_kind("all", lines))]
    if corpus and (CORPUS / "STATUS.json").exists():
        out.append((f"big-corpus-{lines}.mlir", corpus_text(lines)))
    return out


def corpus_available() -> bool:
    return UPSTREAM.is_dir() and any(UPSTREAM.glob("*.mlir"))


FUNCTION_SNIPPET = (
    "func.func @fz(%A: memref<10xf32>) {\n  affine.for %i = 0 to 10 {\n    %v = affine.load %A[%i] : memref<10xf32>\n"
    "    affine.store %v, %A[%i + 1] : memref<10xf32>\n  }\n  return\n}\n"
)
SNIPPETS: tuple[str, ...] = (
    "affine.for %fz = 0 to 10 {\n",
    "affine.for %fz = max affine_map<(d0) -> (d0, 0)>(%fz) to min affine_map<()[s0] -> (8, s0)>()[%fz] step 2 {\n",
    "}\n",
    "}",
    "{",
    "{\n",
    "%fz0 = arith.constant 0 : index\n",
    "%fzv = affine.load %A[%i] : memref<10xf32>\n",
    "affine.store %v, %A[%i + 1] : memref<10xf32>\n",
    "affine.store %v, %A[%i * 123456789012345678901234567890 + 1] : memref<10xf32>\n",
    "%fzv = affine.load %A[%i floordiv 0] : memref<10xf32>\n",
    "#fzmap = affine_map<(d0) -> (d0 floordiv 2)>\n",
    "#fzset = affine_set<(d0)[s0] : (d0 - s0 >= 0, -d0 + 9 == 0)>\n",
    "affine_map<(d0)[s0] -> (d0 + s0)>",
    FUNCTION_SNIPPET,
    "func @fzlegacy(%A: memref<8xf32>) {\n  return\n}\n",
    "#fzlegacy = (d0) -> (d0 + 1)\n",
    "affine.terminator\n",
    "%fzs = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%i]\n",
    "affine.for %fz = affine_map<(d0) -> (d0, 0)>(%i) to 8 {\n",
    "affine.for %fz = 0 to affine_map<()[s0] -> (s0, 8)>()[%N] {\n",
    "%fzw = affine.load %A[%i * %j] : memref<10xf32>\n",
    "%fzw = affine.load %A[%i + %fz0] : memref<10xf32>\n",
    "affine.parallel (%fa, %fb) = (0, 0) to (8, 8) {\n  %w = affine.load %B[%fa] : memref<8xf32>\n  affine.store %w, %B[%fa + 1] : memref<8xf32>\n}\n",
    "affine.if affine_set<(d0) : (d0 >= 0)>(%i) {\n",
    "affine.yield\n",
    "} else {\n",
    "// -----\n",
    "module {\n",
    "module attributes {fz.attr = 1 : i32} {\n",
    "// a comment\n",
    "return\n",
    '%fz = "test.op"() : () -> index\n',
    "vector<8xf32>",
    "memref<?x?xf32>",
    "index",
    "(",
    ")",
    "[",
    "]",
    "<",
    ">",
    ":",
    ",",
    "=",
    '"',
    '"unterminated\n',
    "%",
    "#",
    "@",
    "^bb1:\n",
    "-",
    "99999999999999999999999",
    "0x7fffffffffffffff",
    "1e400",
    " ",
    "\n",
    "\n\n",
    "\t",
)
UNICODE: tuple[str, ...] = ("é", "€", "\U0001d538", "\U0001f642", "\ufffd", "\x00", "\x07", "\x0c", "\u2028", "\r\n", "ß\u0301", "\ufeff")
ASTRAL: tuple[str, ...] = (
    "\U0001f600",
    "\U00010000",
    "\U0010ffff",
    "\U0001d538",
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "\U0001f1eb\U0001f1f7",
    "\U0001f44d\U0001f3fd",
    "\U00020000",
)
"""Characters outside the Basic Multilingual Plane (two UTF-16 code units each), and sequences of them."""
OP_NAME_CHARS: tuple[str, ...] = ("0", "a", "Z", "_", ".", "$", "-", " ", "\U0001f600", "\u00e9", "%", "{")
_NAME_RE = re.compile(r"\b[a-z_]+\.[a-z_][\w.]*|\b(?:to|step|iter_args|max|min|floordiv|ceildiv|mod|symbol|affine_map|affine_set|else|func|module|return)\b")
LOOP_TEMPLATES: tuple[str, ...] = (
    "affine.for %fzi{n} = 0 to 16 {{\n  %fzv{n} = affine.load %A[%fzi{n}] : memref<16xf32>\n  affine.store %fzv{n}, %A[%fzi{n} + 1] : memref<16xf32>\n}}\n",
    "affine.for %fzi{n} = 0 to 8 {{\n  affine.for %fzj{n} = 0 to 8 {{\n    %fzv{n} = affine.load %B[%fzi{n}, %fzj{n}] : memref<8x8xf32>\n  }}\n}}\n",
    "affine.parallel (%fzp{n}) = (0) to (32) {{\n  %fzv{n} = affine.load %A[%fzp{n} * 2] : memref<64xf32>\n}}\n",
)
_TOKEN_RE = re.compile(r"[%#@^][\w$.\-]+|affine\.\w+|arith\.\w+|memref<[^>\n]*>|\d+|[{}()\[\]<>:,=]")
_IDENT_RE = re.compile(r"[%@#^][A-Za-z_$.\-\d]+")
_INTERESTING_RE = re.compile(r"affine\.\w+|%[\w$.\-]+|#[\w$.\-]+|@[\w$.\-]+|\bd\d\b|\bs\d\b")
_FUNC_RE = re.compile(r"^[ \t]*func\.func\b", re.M)


# ---------------------------------------------------------------- edits and actions
@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` by ``text`` (str offsets of the current text)."""

    start: int
    end: int
    new: str
    # Send the range's start in the middle of the surrogate pair of the
    # (astral) character at ``start``: it then means the offset after it.
    mid_start: bool = False

    def apply(self, text: str) -> str:
        return text[: self.start] + self.new + text[self.end :]


@dataclass
class Action:
    """One user action: notifications to send, each a list of edits applied in order."""

    kind: str
    notifications: list[list[Edit]]
    full_text: str | None = None  # a whole-document change instead
    delays: list[float] = field(default_factory=list)  # seconds to sleep after each notification


def _snap(text: str, i: int) -> int:
    """Never split a ``\\r\\n`` pair (an editor cannot put the cursor there)."""
    i = max(0, min(i, len(text)))
    if 0 < i < len(text) and text[i - 1] == "\r" and text[i] == "\n":
        i -= 1
    return i


class EditGenerator:
    """Random user actions on MLIR text."""

    WEIGHTS: dict[str, int] = {
        "insert_snippet": 16,
        "insert_token": 10,
        "delete_small": 12,
        "delete_line": 8,
        "delete_large": 2,
        "paste_fragment": 7,
        "delete_closing_brace": 5,
        "delete_opening_brace": 2,
        "duplicate_function": 4,
        "type_loop": 4,
        "type_text": 2,
        "undo": 8,
        "replace_number": 5,
        "rename_token": 4,
        "unicode": 3,
        "batch": 4,
        "split_marker": 2,
        "full_replace": 1,
        "move_line": 2,
        "random_bytes": 3,
        "astral": 3,
        "edit_name": 6,
        "mid_pair": 2,
    }

    def __init__(self, rnd: random.Random, fragments: list[str], max_chars: int) -> None:
        self.rnd = rnd
        self.fragments = fragments
        self.max_chars = max_chars
        self.tokens: list[str] = sorted({m.group(0) for f in fragments for m in _TOKEN_RE.finditer(f[:20000])})
        self.counter = 0

    def pick_kind(self, text: str) -> str:
        kinds, weights = zip(*self.WEIGHTS.items())
        kind = self.rnd.choices(kinds, weights)[0]
        if len(text) > self.max_chars and kind not in ("delete_small", "delete_line", "delete_large", "undo"):
            kind = self.rnd.choice(["delete_large", "delete_line", "undo"])
        return kind

    def offset(self, text: str) -> int:
        """A random offset, usually at a token boundary or a line start."""
        if not text:
            return 0
        r = self.rnd.random()
        i = self.rnd.randrange(len(text) + 1)
        if r < 0.35:
            i = text.rfind("\n", 0, i) + 1  # a line start
        elif r < 0.6:
            m = _TOKEN_RE.search(text, i)
            if m is not None:
                i = m.start() if self.rnd.random() < 0.5 else m.end()
        return _snap(text, i)

    def line_range(self, text: str, max_lines: int) -> tuple[int, int]:
        a = self.offset(text)
        a = text.rfind("\n", 0, a) + 1
        b = a
        for _ in range(self.rnd.randint(1, max_lines)):
            nl = text.find("\n", b)
            if nl < 0:
                b = len(text)
                break
            b = nl + 1
        return a, b

    def action(self, text: str, history: list[list[Edit]]) -> Action:
        kind = self.pick_kind(text)
        rnd = self.rnd
        self.counter += 1
        n = self.counter
        if kind == "undo":
            if not history:
                kind = "insert_snippet"
            else:
                # Revert the last 1-3 actions, most recent first, one notification each.
                count = min(len(history), rnd.randint(1, 3))
                notes = [list(history[-1 - k]) for k in range(count)]
                return Action("undo", notes)
        if kind == "insert_snippet":
            s = rnd.choice(SNIPPETS).replace("%fz", f"%fz{n}").replace("@fz", f"@fz{n}").replace("#fz", f"#fz{n}")
            at = self.offset(text)
            return Action(kind, [[Edit(at, at, s)]])
        if kind == "insert_token":
            tok = rnd.choice(self.tokens) if self.tokens else "%x"
            at = self.offset(text)
            return Action(kind, [[Edit(at, at, tok + rnd.choice(["", " ", "\n"]))]])
        if kind == "delete_small":
            a = self.offset(text)
            b = _snap(text, a + rnd.randint(1, 12))
            return Action(kind, [[Edit(a, b, "")]])
        if kind == "delete_line":
            a, b = self.line_range(text, 3)
            return Action(kind, [[Edit(a, b, "")]])
        if kind == "delete_large":
            a = self.offset(text)
            b = _snap(text, a + rnd.randint(50, 3000))
            return Action(kind, [[Edit(a, b, "")]])
        if kind == "paste_fragment":
            frag = rnd.choice(self.fragments)
            a, b = self.line_range(frag, 30)
            piece = frag[a:b]
            at = self.offset(text)
            if rnd.random() < 0.3:  # paste over a selection
                a2, b2 = self.line_range(text, 5)
                return Action(kind, [[Edit(a2, b2, piece)]])
            return Action(kind, [[Edit(at, at, piece)]])
        if kind in ("delete_closing_brace", "delete_opening_brace"):
            ch = "}" if kind == "delete_closing_brace" else "{"
            spots = [m.start() for m in re.finditer(re.escape(ch), text)]
            if not spots:
                at = self.offset(text)
                return Action(kind, [[Edit(at, at, ch)]])
            at = rnd.choice(spots)
            return Action(kind, [[Edit(at, at + 1, "")]])
        if kind == "duplicate_function":
            span = self.function_span(text)
            if span is None:
                at = self.offset(text)
                return Action(kind, [[Edit(at, at, FUNCTION_SNIPPET.replace("@fz", f"@fz{n}"))]])
            a, b = span
            body = text[a:b]
            if rnd.random() < 0.5:
                body = re.sub(r"@([\w$.\-]+)", lambda m: f"@{m.group(1)}_dup{n}", body, count=1)
            return Action(kind, [[Edit(b, b, "\n" + body)]])
        if kind in ("type_loop", "type_text"):
            if kind == "type_loop":
                s = rnd.choice(LOOP_TEMPLATES).format(n=n)
                at = self.line_inside_function(text)
            else:
                s = rnd.choice(SNIPPETS[:20]).replace("%fz", f"%fz{n}")
                at = self.offset(text)
            notes: list[list[Edit]] = []
            delays: list[float] = []
            for k, ch in enumerate(s):
                notes.append([Edit(at + k, at + k, ch)])
                r = rnd.random()
                delays.append(0.0 if r < 0.85 else rnd.uniform(0.01, 0.25))
                if ch == "\n" and rnd.random() < 0.2:  # the editor's auto-indent, then a backspace
                    notes.append([Edit(at + k + 1, at + k + 1, "  ")])
                    notes.append([Edit(at + k + 1, at + k + 3, "")])
                    delays += [0.0, 0.0]
            return Action(kind, notes, delays=delays)
        if kind == "replace_number":
            nums = list(re.finditer(r"\b\d+\b", text))
            if not nums:
                return self.action(text, history)
            m = rnd.choice(nums)
            new = rnd.choice(["0", "1", "-1", "7", "64", "1000000", "18446744073709551617", "123456789012345678901234567890", ""])
            return Action(kind, [[Edit(m.start(), m.end(), new)]])
        if kind == "rename_token":
            ids = list(_IDENT_RE.finditer(text))
            if not ids:
                return self.action(text, history)
            m = rnd.choice(ids)
            new = m.group(0)[0] + rnd.choice(["x", "i", "A", "0", "arg0", "map", f"fz{n}", m.group(0)[1:] + "_"])
            return Action(kind, [[Edit(m.start(), m.end(), new)]])
        if kind == "unicode":
            at = self.offset(text)
            return Action(kind, [[Edit(at, at, "".join(rnd.choice(UNICODE) for _ in range(rnd.randint(1, 3))))]])
        if kind == "random_bytes":
            # Bytes pasted inside a line (not at its start), decoded as an
            # editor would: UTF-8 with replacement, or Latin-1 (every byte a
            # character: NUL, a lone CR, U+0085, ...).
            data = bytes(rnd.getrandbits(8) for _ in range(rnd.randint(1, 24)))
            piece = data.decode("utf-8", errors="replace") if rnd.random() < 0.5 else data.decode("latin-1")
            at = self.inside_line(text)
            if rnd.random() < 0.3:  # over a few characters of the line
                return Action(kind, [[Edit(at, _snap(text, min(self.line_end(text, at), at + rnd.randint(1, 8))), piece)]])
            return Action(kind, [[Edit(at, at, piece)]])
        if kind == "astral":
            piece = "".join(rnd.choice(ASTRAL) for _ in range(rnd.randint(1, 3)))
            at = self.inside_token(text) if rnd.random() < 0.5 else self.inside_line(text)
            return Action(kind, [[Edit(at, at, piece)]])
        if kind == "edit_name":
            # One character typed, deleted or replaced inside an op name or a keyword.
            names = list(_NAME_RE.finditer(text))
            if not names:
                return self.action(text, history)
            m = rnd.choice(names)
            at = rnd.randint(m.start() + 1, m.end() - 1) if m.end() - m.start() > 1 else m.start()
            r = rnd.random()
            if r < 0.5:
                return Action(kind, [[Edit(at, at, rnd.choice(OP_NAME_CHARS))]])
            if r < 0.75:
                return Action(kind, [[Edit(at, at + 1, "")]])
            return Action(kind, [[Edit(at, at + 1, rnd.choice(OP_NAME_CHARS))]])
        if kind == "mid_pair":
            # A range boundary in the middle of a surrogate pair (the LSP
            # counts UTF-16 code units): the server reads it as the position
            # after the character, as :func:`to_offset` does.
            astral = [i for i, ch in enumerate(text) if ord(ch) > 0xFFFF]
            if not astral:
                at = self.inside_line(text)
                return Action(kind, [[Edit(at, at, rnd.choice(ASTRAL))]])
            i = rnd.choice(astral)
            new = rnd.choice(["", "x", rnd.choice(ASTRAL), "}"])
            if rnd.random() < 0.5:
                return Action(kind, [[Edit(i, i, new, mid_start=True)]])
            j = min(len(text), i + rnd.randint(1, 6))
            return Action(kind, [[Edit(i, j, new, mid_start=True)]])
        if kind == "batch":
            # Several changes in one notification, each relative to the text after the previous one.
            cur = text
            edits = []
            for _ in range(rnd.randint(2, 4)):
                a = self.offset(cur)
                if rnd.random() < 0.5:
                    e = Edit(a, a, rnd.choice(SNIPPETS))
                else:
                    e = Edit(a, _snap(cur, a + rnd.randint(1, 20)), "")
                edits.append(e)
                cur = e.apply(cur)
            return Action(kind, [edits])
        if kind == "split_marker":
            at = text.rfind("\n", 0, self.offset(text)) + 1
            return Action(kind, [[Edit(at, at, "// -----\n")]])
        if kind == "move_line":
            a, b = self.line_range(text, 4)
            piece = text[a:b]
            rest = text[:a] + text[b:]
            at = rest.rfind("\n", 0, rnd.randrange(len(rest) + 1)) + 1
            return Action(kind, [[Edit(a, b, "")], [Edit(at, at, piece)]])
        # full_replace: the whole text, lightly changed, as a full-document change
        a = self.offset(text)
        new = text[:a] + rnd.choice(SNIPPETS) + text[a:]
        return Action("full_replace", [], full_text=new)

    def function_span(self, text: str) -> tuple[int, int] | None:
        """A random ``func.func`` with its balanced body (None when there is none)."""
        starts = [m.start() for m in _FUNC_RE.finditer(text)]
        if not starts:
            return None
        a = self.rnd.choice(starts)
        depth = 0
        seen = False
        for i in range(a, min(len(text), a + 200_000)):
            c = text[i]
            if c == "{":
                depth += 1
                seen = True
            elif c == "}":
                depth -= 1
                if seen and depth == 0:
                    nl = text.find("\n", i)
                    return a, (len(text) if nl < 0 else nl + 1)
        return None

    def line_end(self, text: str, at: int) -> int:
        nl = text.find("\n", at)
        return len(text) if nl < 0 else nl

    def inside_line(self, text: str) -> int:
        """An offset inside a non-empty line (not at its start or end when possible)."""
        at = self.offset(text)
        a = text.rfind("\n", 0, at) + 1
        b = self.line_end(text, at)
        return _snap(text, self.rnd.randint(a + 1, b - 1) if b - a > 2 else at)

    def inside_token(self, text: str) -> int:
        """An offset inside an identifier, op name or keyword."""
        ms = list(_INTERESTING_RE.finditer(text)) or list(_NAME_RE.finditer(text))
        if not ms:
            return self.inside_line(text)
        m = self.rnd.choice(ms)
        return self.rnd.randint(m.start(), m.end())

    def line_inside_function(self, text: str) -> int:
        """A line start just after a line ending with ``{`` (inside a body), or anywhere."""
        spots = [m.end() for m in re.finditer(r"\{[ \t]*\n", text)]
        if not spots:
            return self.offset(text)
        return self.rnd.choice(spots)


# ---------------------------------------------------------------- statistics
@dataclass
class FuzzStats:
    steps: int = 0
    edits: int = 0  # content changes applied (didChange notifications may carry several)
    notifications: int = 0
    requests: int = 0
    crashes: int = 0  # server died, logged an error, or answered with an internal error
    unanswered: int = 0
    late: int = 0
    lsp_errors: int = 0  # proper LSP error answers (not crashes)
    missing_diagnostics: int = 0  # no diagnostics published for the latest version in time
    mismatches: int = 0  # incremental state != fresh open of the same text
    comparisons: int = 0
    code_actions: int = 0  # code actions with an edit that were applied and checked
    renames: int = 0  # rename edits applied and checked
    invalid_transform_outputs: int = 0
    documents: int = 0
    servers: int = 0
    max_latency_s: float = 0.0
    max_diagnostics_wait_s: float = 0.0  # the longest wait for the diagnostics of the latest version
    max_latency_by_request: dict[str, float] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list, repr=False)
    by_action: dict[str, int] = field(default_factory=dict)
    by_request: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list, repr=False)
    peak_rss_mb: float = 0.0
    # The server and its child processes (dataflow worker, the child of a
    # parallel open), sampled every 0.25 s: their proportional set sizes
    # summed (a page shared copy-on-write by two processes counts once).
    peak_tree_rss_mb: float = 0.0
    # Latencies by the size class of the document asked about ("small", "big").
    latencies_by_size: dict[str, list[float]] = field(default_factory=dict, repr=False)
    # Answers after more than SLOW_S: (seconds, method, size class, lines of the document).
    slow: list[tuple[float, str, str, int]] = field(default_factory=list, repr=False)

    @property
    def problems(self) -> int:
        return self.crashes + self.unanswered + self.late + self.missing_diagnostics + self.mismatches + self.invalid_transform_outputs

    def percentile(self, q: float, xs: list[float] | None = None) -> float:
        xs = sorted(self.latencies if xs is None else xs)
        if not xs:
            return 0.0
        return xs[min(len(xs) - 1, int(q * len(xs)))]

    def by_size(self) -> dict[str, dict[str, float]]:
        """Per size class: requests, p50/p99/max (ms), answers after 1 s and after 2 s."""
        out: dict[str, dict[str, float]] = {}
        for size, xs in sorted(self.latencies_by_size.items()):
            out[size] = {
                "requests": len(xs),
                "p50 (ms)": round(1000 * self.percentile(0.5, xs), 1),
                "p99 (ms)": round(1000 * self.percentile(0.99, xs), 1),
                "max (ms)": round(1000 * max(xs, default=0.0), 1),
                "> 1 s": sum(1 for x in xs if x > 1.0),
                "> 2 s": sum(1 for x in xs if x > 2.0),
            }
        return out

    def summary(self) -> dict[str, Any]:
        return {
            "steps": self.steps,
            "edits applied": self.edits,
            "didChange notifications": self.notifications,
            "requests made": self.requests,
            "crashes": self.crashes,
            "unanswered requests": self.unanswered,
            "late requests (> 2 s, or > 1 s on a small document with --small-late 1)": self.late,
            "LSP error answers": self.lsp_errors,
            "missing diagnostics": self.missing_diagnostics,
            "incremental/fresh comparisons": self.comparisons,
            "incremental/fresh mismatches": self.mismatches,
            "code actions checked": self.code_actions,
            "renames checked": self.renames,
            "invalid transform outputs": self.invalid_transform_outputs,
            "documents opened": self.documents,
            "server processes": self.servers,
            "request latency p50 (ms)": round(1000 * self.percentile(0.5), 1),
            "request latency p99 (ms)": round(1000 * self.percentile(0.99), 1),
            "request latency max (ms)": round(1000 * self.max_latency_s, 1),
            "longest wait for diagnostics (ms)": round(1000 * self.max_diagnostics_wait_s, 1),
            "server peak RSS (MB)": round(self.peak_rss_mb, 1),
            "server + children peak memory, Pss (MB)": round(self.peak_tree_rss_mb, 1),
        }

    def format(self) -> str:
        width = max(len(k) for k in self.summary())
        lines = [f"{k:<{width}}  {v}" for k, v in self.summary().items()]
        lines.append("actions: " + ", ".join(f"{k} {v}" for k, v in sorted(self.by_action.items())))
        lines.append("requests: " + ", ".join(f"{k} {v}" for k, v in sorted(self.by_request.items())))
        lines.append("slowest answer by request (ms): " + ", ".join(f"{k} {1000 * v:.0f}" for k, v in sorted(self.max_latency_by_request.items())))
        for size, row in self.by_size().items():
            lines.append(f"latency on {size} documents: " + ", ".join(f"{k} {v:g}" for k, v in row.items()))
        for dt, name, size, n in sorted(self.slow, reverse=True)[:30]:
            lines.append(f"answered after {dt:.2f} s: {name} on a {size} document of {n} lines")
        return "\n".join(lines)


# ---------------------------------------------------------------- the driver
@dataclass
class FuzzDoc:
    uri: str
    name: str
    text: str
    version: int = 1
    history: list[list[Edit]] = field(default_factory=list)  # inverse edits of each action
    trace: list[dict[str, Any]] = field(default_factory=list)  # the actions applied (for reproduction)
    big: bool = False  # one of the large documents (``big_texts``)

    @property
    def size(self) -> str:
        return "big" if self.big else "small"


def _jsonable(x: Any) -> Any:
    return json.loads(json.dumps(_CONVERTER.unstructure(x), default=str))


def _norm(obj: Any, uri: str) -> str:
    return json.dumps(_jsonable(obj), sort_keys=True).replace(uri, "<uri>")


class Fuzzer:
    """Drives one server (see the module doc)."""

    def __init__(
        self,
        client: LanguageClient,
        rnd: random.Random,
        stats: FuzzStats,
        seeds: list[tuple[str, str]],
        *,
        oracle: OracleProcess,
        max_chars: int = 60_000,
        compare_every: int = 4,
        log_file: Path | None = None,
        artifacts: Path | None = None,
        echo: Callable[[str], None] | None = None,
        seed: int = 0,
        big_seeds: list[tuple[str, str]] | None = None,
        big_docs: int = 0,
        small_late_s: float = LATE_S,
    ) -> None:
        self.client = client
        self.rnd = rnd
        self.stats = stats
        self.seeds = seeds
        self.fragments = [t for _, t in seeds]
        self.gen = EditGenerator(rnd, self.fragments, max_chars)
        # Large documents (kept open among the small ones, edited the same
        # way; they may grow a little, never shrink to nothing).
        self.big_seeds = big_seeds or []
        self.big_docs = big_docs if self.big_seeds else 0
        self.big_gen = EditGenerator(rnd, self.fragments, int(1.05 * max((len(t) for _, t in self.big_seeds), default=max_chars)))
        self.small_late_s = small_late_s
        self.compare_every = compare_every
        self.log_file = log_file
        self._log_pos = 0
        self.artifacts = artifacts
        self.echo = echo or (lambda _s: None)
        self.seed = seed
        self.oracle = oracle  # (its process is the caller's to close)
        self.docs: list[FuzzDoc] = []
        self.pending: list[asyncio.Task[None]] = []
        self.doc_counter = 0
        self.step_no = 0

    # ------------------------------------------------------------ failures
    def fail(self, what: str, counter: str, doc: FuzzDoc | None = None, extra: dict[str, str] | None = None) -> None:
        setattr(self.stats, counter, getattr(self.stats, counter) + 1)
        msg = f"[seed {self.seed} step {self.step_no}] {counter}: {what}"
        if doc is not None:
            msg += f" (document {doc.name} v{doc.version}; last actions: {[t['kind'] for t in doc.trace[-5:]]})"
        if self.artifacts is not None:
            self.artifacts.mkdir(parents=True, exist_ok=True)
            base = self.artifacts / f"seed{self.seed}-step{self.step_no}-{counter}-{len(self.stats.failures)}"
            if doc is not None:
                base.with_suffix(".mlir").write_text(doc.text, errors="surrogatepass")
                base.with_suffix(".trace.json").write_text(json.dumps({"seed_document": doc.name, "actions": doc.trace}, indent=1))
            for k, v in (extra or {}).items():
                base.with_name(base.name + f".{k}").write_text(v, errors="surrogatepass")
            msg += f" [saved as {base}.*]"
        self.stats.failures.append(msg)
        self.echo("FAIL " + msg)

    def check_alive(self) -> bool:
        server = getattr(self.client, "_server", None)
        if server is not None and server.returncode is not None:
            self.fail(f"the server exited with status {server.returncode}", "crashes")
            return False
        return True

    def check_log(self) -> None:
        """Every ERROR record of the server's log counts as a crash."""
        if self.log_file is None or not self.log_file.exists():
            return
        with self.log_file.open("r", errors="replace") as f:
            f.seek(self._log_pos)
            chunk = f.read()
            self._log_pos = f.tell()
        for line in chunk.splitlines():
            if " ERROR " in line or " CRITICAL " in line:
                i = chunk.find(line)
                self.fail(f"server logged: {chunk[i : i + 1500]}", "crashes")
        errors = [m.message for m in self.client.messages if m.type == types.MessageType.Error]
        errors += [m.message for m in self.client.log_messages if m.type == types.MessageType.Error]
        for e in errors:
            self.fail(f"server reported: {e}", "crashes")
        self.client.messages.clear()
        self.client.log_messages.clear()

    def _tree_rss_kb(self, pid: int) -> int:
        """The memory of ``pid`` and its descendants (kB): their Pss summed
        (their resident sets, each shared page divided among its sharers)."""
        total = 0
        todo = [pid]
        while todo:
            p = todo.pop()
            try:
                m = re.search(r"^Pss:\s+(\d+) kB", Path(f"/proc/{p}/smaps_rollup").read_text(), re.M)
                total += int(m.group(1)) if m else 0
                for t in Path(f"/proc/{p}/task").iterdir():
                    todo.extend(int(c) for c in (t / "children").read_text().split())
            except (OSError, ValueError):
                continue
        return total

    async def sample_memory(self) -> None:
        """Sample the resident set of the server and its children until cancelled."""
        server = getattr(self.client, "_server", None)
        if server is None:
            return
        while server.returncode is None:
            kb = await asyncio.to_thread(self._tree_rss_kb, server.pid)
            self.stats.peak_tree_rss_mb = max(self.stats.peak_tree_rss_mb, kb / 1024)
            await asyncio.sleep(0.25)

    def peak_rss(self) -> None:
        server = getattr(self.client, "_server", None)
        if server is None:
            return
        try:
            status = Path(f"/proc/{server.pid}/status").read_text()
        except OSError:
            return
        m = re.search(r"VmHWM:\s+(\d+) kB", status)
        if m:
            self.stats.peak_rss_mb = max(self.stats.peak_rss_mb, int(m.group(1)) / 1024)

    # ------------------------------------------------------------ requests
    async def request(self, name: str, make: Callable[[], Awaitable[Any]], doc: FuzzDoc | None = None) -> tuple[bool, Any]:
        """Send one request and check that it is answered in time: ``(ok, result)``."""
        self.stats.requests += 1
        self.stats.by_request[name] = self.stats.by_request.get(name, 0) + 1
        t0 = time.monotonic()
        try:
            result = await asyncio.wait_for(make(), UNANSWERED_S)
        except TimeoutError:
            self.fail(f"{name} not answered within {UNANSWERED_S:.0f} s", "unanswered", doc)
            return False, None
        except JsonRpcException as e:
            dt = time.monotonic() - t0
            self._latency(name, dt, doc)
            if getattr(e, "code", None) == INTERNAL_ERROR:
                self.fail(f"{name} answered with an internal error: {e}", "crashes", doc)
            else:
                self.stats.lsp_errors += 1
            return False, None
        except RuntimeError as e:  # the server exited meanwhile
            self.fail(f"{name}: {e}", "crashes", doc)
            return False, None
        self._latency(name, time.monotonic() - t0, doc)
        return True, result

    def _latency(self, name: str, dt: float, doc: FuzzDoc | None) -> None:
        self.stats.latencies.append(dt)
        self.stats.max_latency_s = max(self.stats.max_latency_s, dt)
        self.stats.max_latency_by_request[name] = max(dt, self.stats.max_latency_by_request.get(name, 0.0))
        size = doc.size if doc is not None else "small"
        self.stats.latencies_by_size.setdefault(size, []).append(dt)
        if dt > SLOW_S:
            self.stats.slow.append((dt, name, size, doc.text.count("\n") + 1 if doc is not None else 0))
        if dt > LATE_S or (size == "small" and dt > self.small_late_s):
            self.fail(f"{name} answered after {dt:.2f} s ({size} document)", "late", doc)

    def random_request(self, doc: FuzzDoc, at: int | None = None) -> tuple[str, Callable[[], Awaitable[Any]]]:
        """A random request about ``doc`` at a random position (or at ``at``)."""
        rnd = self.rnd
        c = self.client
        text = doc.text
        ident = types.TextDocumentIdentifier(uri=doc.uri)
        off = at if at is not None else self.gen.offset(text)
        if rnd.random() < 0.4:
            ms = list(_INTERESTING_RE.finditer(text, max(0, off - 400), off + 400))
            if ms:
                m = rnd.choice(ms)
                off = rnd.randint(m.start(), m.end())
        p = to_position(text, off)
        a, b = self.gen.line_range(text, 40)
        rng = lsp_range(text, a, b)
        kind = rnd.choice(
            [
                "hover",
                "hover",
                "hover",
                "completion",
                "completion",
                "inlayHint",
                "inlayHint",
                "semanticTokens/full",
                "semanticTokens/range",
                "documentSymbol",
                "foldingRange",
                "codeAction",
                "definition",
                "references",
                "documentHighlight",
                "prepareRename",
                "showDependences",
            ]
        )
        if kind == "hover":
            return kind, lambda: c.text_document_hover_async(types.HoverParams(text_document=ident, position=p))
        if kind == "completion":
            return kind, lambda: c.text_document_completion_async(types.CompletionParams(text_document=ident, position=p))
        if kind == "inlayHint":
            return kind, lambda: c.text_document_inlay_hint_async(types.InlayHintParams(text_document=ident, range=rng))
        if kind == "semanticTokens/full":
            return kind, lambda: c.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=ident))
        if kind == "semanticTokens/range":
            return kind, lambda: c.text_document_semantic_tokens_range_async(types.SemanticTokensRangeParams(text_document=ident, range=rng))
        if kind == "documentSymbol":
            return kind, lambda: c.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=ident))
        if kind == "foldingRange":
            return kind, lambda: c.text_document_folding_range_async(types.FoldingRangeParams(text_document=ident))
        if kind == "codeAction":
            return kind, lambda: c.text_document_code_action_async(
                types.CodeActionParams(text_document=ident, range=rng, context=types.CodeActionContext(diagnostics=[]))
            )
        if kind == "definition":
            return kind, lambda: c.text_document_definition_async(types.DefinitionParams(text_document=ident, position=p))
        if kind == "references":
            return kind, lambda: c.text_document_references_async(
                types.ReferenceParams(text_document=ident, position=p, context=types.ReferenceContext(include_declaration=True))
            )
        if kind == "documentHighlight":
            return kind, lambda: c.text_document_document_highlight_async(types.DocumentHighlightParams(text_document=ident, position=p))
        if kind == "prepareRename":
            return kind, lambda: c.text_document_prepare_rename_async(types.PrepareRenameParams(text_document=ident, position=p))
        args = [{"uri": doc.uri, "position": {"line": p.line, "character": p.character}}]
        return kind, lambda: c.workspace_execute_command_async(types.ExecuteCommandParams(command="affine-lsp.showDependences", arguments=args))

    def fire(self, doc: FuzzDoc, at: int | None = None) -> None:
        """Send a random request without waiting for it (checked at the end of the step)."""
        name, make = self.random_request(doc, at)

        async def run() -> None:
            await self.request(name, make, doc)

        self.pending.append(asyncio.ensure_future(run()))

    async def drain(self) -> None:
        if self.pending:
            await asyncio.gather(*self.pending)
            self.pending.clear()

    # ------------------------------------------------------------ documents
    def _open(self, uri: str, text: str, version: int = 1) -> None:
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="mlir", version=version, text=text))
        )

    async def open_seed(self, name: str | None = None, text: str | None = None, big: bool = False) -> FuzzDoc:
        if text is None:
            name, text = self.rnd.choice(self.big_seeds if big else self.seeds)
        self.doc_counter += 1
        uri = f"file:///fuzz/{self.seed}/doc{self.doc_counter}-{name}"
        doc = FuzzDoc(uri, str(name), text, big=big)
        self._open(uri, text)
        self.stats.documents += 1
        self.docs.append(doc)
        await self.wait_diagnostics(doc)
        return doc

    def close(self, doc: FuzzDoc) -> None:
        self.client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=doc.uri)))
        self.docs.remove(doc)

    def published(self, uri: str, version: int) -> list[types.PublishDiagnosticsParams]:
        return [p for p in self.client.diag_log if p.uri == uri and p.version == version]  # type: ignore[attr-defined]

    async def wait_diagnostics(self, doc: FuzzDoc, timeout: float = DIAG_TIMEOUT_S) -> bool:
        t0 = time.monotonic()
        end = t0 + timeout
        while not self.published(doc.uri, doc.version):
            if time.monotonic() > end:
                self.fail(f"no diagnostics published for version {doc.version} within {timeout:.0f} s", "missing_diagnostics", doc)
                return False
            if not self.check_alive():
                return False
            await asyncio.sleep(0.01)
        self.stats.max_diagnostics_wait_s = max(self.stats.max_diagnostics_wait_s, time.monotonic() - t0)
        return True

    # ------------------------------------------------------------ one step
    async def send(self, doc: FuzzDoc, action: Action) -> None:
        """Send ``action``'s notifications (with requests in between) and
        record its inverse for later undos."""
        inverse: list[Edit] = []
        c = self.client
        self.stats.by_action[action.kind] = self.stats.by_action.get(action.kind, 0) + 1
        trace: dict[str, Any] = {"kind": action.kind, "notifications": []}
        if action.full_text is not None:
            old = doc.text
            doc.text = action.full_text
            doc.version += 1
            inverse.append(Edit(0, len(doc.text), old))
            c.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version),
                    content_changes=[types.TextDocumentContentChangeWholeDocument(text=doc.text)],
                )
            )
            trace["full_text"] = doc.text
            self.stats.edits += 1
            self.stats.notifications += 1
        for k, edits in enumerate(action.notifications):
            changes: list[types.TextDocumentContentChangeEvent] = []
            tr = []
            for e in edits:
                s, t, rng = edit_range(doc.text, e)
                changes.append(types.TextDocumentContentChangePartial(range=rng, text=e.new))
                old = doc.text[s:t]
                doc.text = doc.text[:s] + e.new + doc.text[t:]
                inverse.append(Edit(s, s + len(e.new), old))
                tr.append([s, t, e.new])
            if not changes:
                continue
            doc.version += 1
            c.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version), content_changes=changes
                )
            )
            trace["notifications"].append(tr)
            self.stats.edits += len(changes)
            self.stats.notifications += 1
            if self.rnd.random() < 0.25:
                self.fire(doc, at=edits[-1].start + len(edits[-1].new))
            delay = action.delays[k] if k < len(action.delays) else 0.0
            if delay:
                await asyncio.sleep(delay)
        doc.trace.append(trace)
        inverse.reverse()
        if action.kind == "undo":
            del doc.history[-len(action.notifications) :]
        elif inverse:
            doc.history.append(inverse)
            del doc.history[:-20]

    async def step(self, doc: FuzzDoc) -> None:
        self.step_no += 1
        self.stats.steps += 1
        action = (self.big_gen if doc.big else self.gen).action(doc.text, doc.history)
        await self.send(doc, action)
        if self.rnd.random() < 0.3:
            self.fire(doc)
        await self.drain()
        if not self.check_alive():
            return
        await self.wait_diagnostics(doc)
        # A few requests at random positions, concurrently.
        names = [self.random_request(doc) for _ in range(self.rnd.randint(1, 4))]
        await asyncio.gather(*(self.request(n, m, doc) for n, m in names))
        await self.check_code_actions(doc)
        if self.rnd.random() < 0.25:
            await self.check_rename(doc)
        if self.step_no % self.compare_every == 0:
            await self.compare_fresh(doc)
        self.check_log()
        self.peak_rss()

    # ------------------------------------------------------------ rewrites
    async def check_code_actions(self, doc: FuzzDoc) -> None:
        """Request code actions at (some of) the latest diagnostics and at a
        random range; apply every returned edit and check it adds no error."""
        pubs = self.published(doc.uri, doc.version)
        diags = list(pubs[-1].diagnostics) if pubs else []
        self.rnd.shuffle(diags)
        # Every diagnostic that carries a fix (a few), and a couple of others.
        with_fix = [d for d in diags if isinstance(d.data, dict) and (d.data.get("fixes") or d.data.get("replacement"))]
        others = [d for d in diags if d not in with_fix]
        ident = types.TextDocumentIdentifier(uri=doc.uri)
        ranges = [(d.range, [d]) for d in with_fix[:6] + others[:2]]
        a, b = self.gen.line_range(doc.text, 20)
        ranges.append((lsp_range(doc.text, a, b), []))
        for rng, ds in ranges:
            ok, actions = await self.request(
                "codeAction",
                lambda rng=rng, ds=ds: self.client.text_document_code_action_async(
                    types.CodeActionParams(text_document=ident, range=rng, context=types.CodeActionContext(diagnostics=ds))
                ),
                doc,
            )
            if not ok or not actions:
                continue
            for act in actions:
                edit = act.edit if isinstance(act, types.CodeAction) else None
                edits = workspace_edits(edit, doc.uri)
                if not edits:
                    continue
                kind = str(getattr(act.kind, "value", act.kind) or "") if isinstance(act, types.CodeAction) else ""
                quickfix = kind == "quickfix" or kind.startswith("quickfix.")
                await self.check_rewrite(doc, f"code action {act.title!r}", edits, fix=quickfix)

    async def check_rename(self, doc: FuzzDoc) -> None:
        ms = list(_IDENT_RE.finditer(doc.text))
        if not ms:
            return
        m = self.rnd.choice(ms)
        p = to_position(doc.text, self.rnd.randint(m.start(), m.end()))
        ident = types.TextDocumentIdentifier(uri=doc.uri)
        ok, prep = await self.request(
            "prepareRename", lambda: self.client.text_document_prepare_rename_async(types.PrepareRenameParams(text_document=ident, position=p)), doc
        )
        if not ok or prep is None:
            return
        rng = prep.range if hasattr(prep, "range") else prep if isinstance(prep, types.Range) else None
        if rng is None:
            return
        old = doc.text[to_offset(doc.text, rng.start) : to_offset(doc.text, rng.end)]
        if not old or old[0] not in "%@#^":
            return
        new = f"{old[0]}fzr{self.step_no}"
        ok, we = await self.request(
            "rename", lambda: self.client.text_document_rename_async(types.RenameParams(text_document=ident, position=p, new_name=new)), doc
        )
        if not ok or we is None:
            return
        edits = workspace_edits(we, doc.uri)
        if edits:
            await self.check_rewrite(doc, f"rename {old} -> {new}", edits, rename=(old, new))

    async def check_rewrite(self, doc: FuzzDoc, what: str, edits: list[types.TextEdit], rename: tuple[str, str] | None = None, fix: bool = False) -> None:
        if rename is None:
            self.stats.code_actions += 1
        else:
            self.stats.renames += 1
        before = doc.text
        try:
            after = apply_text_edits(before, edits)
        except ValueError as e:
            self.fail(f"{what}: {e}", "invalid_transform_outputs", doc)
            return
        fresh = await self.oracle.new_errors(before, after, rename, fix)
        if fresh:
            edits_json = json.dumps([_jsonable(e) for e in edits], indent=1)
            self.fail(f"{what} introduces errors: {fresh[:3]}", "invalid_transform_outputs", doc, {"after.mlir": after, "edits.json": edits_json})

    # ------------------------------------------------------------ incremental == fresh
    async def settled(self, uri: str, version: int, doc: FuzzDoc | None = None) -> list[types.Diagnostic] | None:
        """The diagnostics of ``uri`` once its analysis phase is over: pulled
        until complete and equal to the last ones pushed for ``version``."""
        end = time.monotonic() + SETTLE_TIMEOUT_S
        ident = types.TextDocumentIdentifier(uri=uri)
        while time.monotonic() < end:
            if not self.check_alive():
                return None
            pubs = self.published(uri, version)
            if pubs:
                ok, rep = await self.request(
                    "diagnostic", lambda: self.client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=ident)), doc
                )
                if ok and isinstance(rep, types.RelatedFullDocumentDiagnosticReport):
                    parts = (rep.result_id or "").split(".")
                    complete = len(parts) > 2 and parts[0] == str(version) and parts[2] == "1"
                    pubs = self.published(uri, version)
                    if complete and _norm(list(pubs[-1].diagnostics), uri) == _norm(list(rep.items), uri):
                        return list(rep.items)
            await asyncio.sleep(0.1)
        return None

    async def compare_fresh(self, doc: FuzzDoc) -> None:
        """Open ``doc``'s text as a second document and compare what the
        server says about both."""
        self.stats.comparisons += 1
        self.doc_counter += 1
        fresh_uri = f"file:///fuzz/{self.seed}/fresh{self.doc_counter}.mlir"
        self._open(fresh_uri, doc.text, doc.version)
        try:
            a = await self.settled(doc.uri, doc.version, doc)
            b = await self.settled(fresh_uri, doc.version, doc)
            if a is None or b is None:
                self.fail(f"the analysis did not settle within {SETTLE_TIMEOUT_S:.0f} s ({'incremental' if a is None else 'fresh'})", "mismatches", doc)
                return
            if _norm(a, doc.uri) != _norm(b, fresh_uri):
                da = sorted(_norm(x, doc.uri) for x in a)
                db = sorted(_norm(x, fresh_uri) for x in b)
                only_a = [x for x in da if x not in db][:4]
                only_b = [x for x in db if x not in da][:4]
                self.fail(f"diagnostics differ: incremental only {only_a}; fresh only {only_b}", "mismatches", doc)
                return
            await self.compare_features(doc, fresh_uri)
        finally:
            self.client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=fresh_uri)))

    async def compare_features(self, doc: FuzzDoc, fresh_uri: str) -> None:
        c = self.client
        text = doc.text

        def pair(make: Callable[[str], Awaitable[Any]]) -> Callable[[], Awaitable[tuple[Any, Any]]]:
            async def both() -> tuple[Any, Any]:
                x = await self.request("compare", lambda: make(doc.uri), doc)
                y = await self.request("compare", lambda: make(fresh_uri), doc)
                return x[1], y[1]

            return both

        checks: list[tuple[str, Callable[[str], Awaitable[Any]]]] = [
            ("documentSymbol", lambda u: c.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=u)))),
            ("foldingRange", lambda u: c.text_document_folding_range_async(types.FoldingRangeParams(text_document=types.TextDocumentIdentifier(uri=u)))),
            (
                "semanticTokens",
                lambda u: c.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=u))),
            ),
        ]
        offsets = [self.gen.offset(text) for _ in range(3)]
        ms = list(_INTERESTING_RE.finditer(text))
        offsets += [self.rnd.randint(m.start(), m.end() - 1) for m in self.rnd.sample(ms, min(5, len(ms)))]
        for off in offsets:
            p = to_position(text, off)
            checks.append(
                (
                    f"hover at {p.line + 1}:{p.character + 1}",
                    lambda u, p=p: c.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=u), position=p)),
                )
            )
        for what, make in checks:
            end = time.monotonic() + 10.0
            while True:
                x, y = await pair(make)()
                nx, ny = _norm(x, doc.uri), _norm(y, fresh_uri)
                pending = any(m in nx or m in ny for m in PENDING_MARKERS)
                if nx == ny and not pending:
                    break
                if time.monotonic() > end:
                    if pending:
                        break  # an analysis still running is not a disagreement
                    self.fail(f"{what} differs: incremental {nx[:600]} / fresh {ny[:600]}", "mismatches", doc)
                    return
                await asyncio.sleep(0.2)

    # ------------------------------------------------------------ the loop
    async def run(self, deadline: float, max_steps: int | None = None, docs: int = 2) -> None:
        sampler = asyncio.ensure_future(self.sample_memory())
        try:
            await self._run(deadline, max_steps, docs)
        finally:
            sampler.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sampler

    async def _run(self, deadline: float, max_steps: int | None, docs: int) -> None:
        # The large documents first (each step then edits one of them with
        # probability 1/4), then the small ones.
        for _ in range(self.big_docs):
            await self.open_seed(big=True)
        while len(self.docs) < docs + self.big_docs:
            await self.open_seed()
        while time.monotonic() < deadline and (max_steps is None or self.stats.steps < max_steps):
            if not self.check_alive():
                return
            bigs = [d for d in self.docs if d.big]
            doc = self.rnd.choice(bigs if bigs and self.rnd.random() < 0.25 else [d for d in self.docs if not d.big] or self.docs)
            if self.rnd.random() < 0.01 or len(doc.trace) > 400:
                await self.compare_fresh(doc)
                self.close(doc)
                await self.open_seed(big=doc.big)
                continue
            await self.step(doc)
        for doc in list(self.docs):
            if not self.check_alive():
                return
            try:
                await self.compare_fresh(doc)
            except RuntimeError as e:  # the client stopped (the server exited meanwhile): counted by check_alive
                self.echo(f"final comparison stopped: {e}")
                return
        self.check_log()
        self.peak_rss()


async def start_server(log_file: Path, init_options: dict[str, Any] | None = None, **env: str) -> LanguageClient:
    """A server over stdio (pytest-lsp's client), initialised, logging to ``log_file``."""
    cfg = config(AFFINE_LSP_DEBUG_MIRROR="0", AFFINE_LSP_LOG_FILE=str(log_file), **env)
    client = await cfg.start()
    _drop_late_answers(client)
    await start(client, init_options=init_options)
    return client  # type: ignore[return-value]


def _drop_late_answers(client: LanguageClient) -> None:
    """An answer that arrives after the fuzzer gave up waiting for it
    (counted as unanswered) is dropped: pygls would set the result of the
    cancelled future, raise InvalidStateError, and pytest-lsp's client would
    stop (and the server with it), ending the run."""
    protocol = client.protocol
    handle = protocol._handle_response

    def handle_response(msg_id: Any, result: Any | None = None, error: Any = None) -> None:
        future = protocol._request_futures.get(msg_id)
        if future is not None and future.done():
            protocol._request_futures.pop(msg_id, None)
            return
        handle(msg_id, result, error)

    protocol._handle_response = handle_response  # type: ignore[method-assign]


async def stop_server(client: LanguageClient) -> None:
    try:
        await asyncio.wait_for(client.shutdown_session(), 30)
    except Exception:
        server = getattr(client, "_server", None)
        if server is not None and server.returncode is None:
            server.kill()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(client.stop(), 10)


async def fuzz(
    seconds: float,
    seed: int,
    *,
    corpus: bool = True,
    max_steps: int | None = None,
    session_seconds: float = 300.0,
    artifacts: Path | None = None,
    echo: Callable[[str], None] | None = None,
    init_options: dict[str, Any] | None = None,
    log_dir: Path | None = None,
    big_lines: int = 0,
    big_docs: int = 0,
    small_late_s: float = LATE_S,
) -> FuzzStats:
    """Fuzz for ``seconds`` (a new server every ``session_seconds``); with
    ``big_lines`` and ``big_docs``, that many documents of about ``big_lines``
    lines (:func:`big_texts`) stay open among the small ones. A request is
    late after :data:`LATE_S`, or after ``small_late_s`` on a small document."""
    stats = FuzzStats()
    rnd = random.Random(seed)
    seeds = seed_texts(corpus=corpus)
    bigs = big_texts(big_lines, corpus=corpus) if big_lines > 0 and big_docs > 0 else []
    end = time.monotonic() + seconds
    log_dir = log_dir or Path(os.environ.get("TMPDIR", "/tmp"))
    oracle = OracleProcess()
    try:
        session = 0
        while time.monotonic() < end and (max_steps is None or stats.steps < max_steps):
            session += 1
            log_file = log_dir / f"affine-lsp-fuzz-{os.getpid()}-{seed}-{session}.log"
            log_file.unlink(missing_ok=True)
            client = await start_server(log_file, init_options=init_options)
            stats.servers += 1
            f = Fuzzer(
                client,
                random.Random(rnd.getrandbits(32)),
                stats,
                seeds,
                log_file=log_file,
                artifacts=artifacts,
                echo=echo,
                seed=seed * 1000 + session,
                big_seeds=bigs,
                big_docs=big_docs,
                small_late_s=small_late_s,
                oracle=oracle,
            )
            try:
                await f.run(min(end, time.monotonic() + session_seconds), max_steps)
            finally:
                await stop_server(client)
                f.check_log()
            if echo is not None:
                echo(f"session {session} done: {stats.steps} steps, {stats.requests} requests, {stats.problems} problems")
    finally:
        oracle.close()
    return stats


__all__ = ["ROOT", "EditGenerator", "ErrorOracle", "FuzzStats", "Fuzzer", "OracleProcess", "fuzz", "start_server", "stop_server"]
