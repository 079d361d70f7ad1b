"""Upgrading MLIR's pre-2022 syntax to the current one (MLIR 22.1.8).

The rewriting is driven by the parser, one top-level item at a time: the
item is parsed; where the parse stops at an old op name (``constant``,
``addf``, ``alloc``, ``std.return``: :data:`~affine_lsp.syntax.legacy.LEGACY_OPS`)
or at an inline legacy affine map, that op's name (and the parts of its
custom syntax that changed: ``cmpi "slt"`` → ``arith.cmpi slt``, ``dim %A, 0``
→ ``memref.dim %A, %c0``, ``splat``, ``tensor_load``) is rewritten and the
item parsed again; once it parses, the names the parser accepts in their old
spelling (``func``, ``affine.terminator``, ``#map = (d0) -> (d0)``, ``call``,
``return``, generic ``"std.*"`` names) are rewritten from the parse's spans.
What has no mechanical modern form is reported with its line
(:class:`Problem`) and left as written, never dropped.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from affine_lsp import forking
from affine_lsp.ir.core import Anchor
from affine_lsp.syntax.chunks import iter_chunks
from affine_lsp.syntax.legacy import FUNC_DEFAULT_OK, GRAMMAR_BARE, LEGACY_OPS, NO_MODERN_FORM, OLD_DIALECTS, legacy_map_at, modern_name
from affine_lsp.syntax.nodes import AliasDefSyn, Note, OpSyn
from affine_lsp.syntax.parser import parse_chunk

# An op the upgrade cannot rewrite is parsed past under this prefix (an
# unknown dialect) and written back as it was.
_HOLD = "zzlegacyhold."
_MAX_ROUNDS = 10_000


@dataclass(frozen=True)
class Problem:
    """Something the upgrade could not rewrite: 1-based line of the input."""

    line: int
    message: str


@dataclass
class UpgradeResult:
    text: str
    problems: list[Problem] = field(default_factory=list)

    def changed(self, original: str) -> bool:
        return self.text != original


Edit = tuple[int, int, str]


class _Chunk:
    """One top-level item being rewritten: its text and the edits made so
    far (to map positions back to the input)."""

    def __init__(self, text: str, start: int) -> None:
        self.text = text
        self.start = start
        self.log: list[tuple[int, int, int]] = []  # (start, old length, new length), in order
        self.real = False

    def apply(self, edits: list[Edit]) -> None:
        """Apply ``edits`` (offsets in the current text); an edit repeated or
        overlapping one already taken is dropped (an op the parser's
        recovery lists twice)."""
        limit = len(self.text) + 1
        for s, e, new in sorted(set(edits), key=lambda x: (x[0], x[1]), reverse=True):
            if e > limit:
                continue
            self.text = self.text[:s] + new + self.text[e:]
            self.log.append((s, e - s, len(new)))
            limit = s

    def original_offset(self, pos: int) -> int:
        for s, old, new in reversed(self.log):
            if pos >= s + new:
                pos -= new - old
            elif pos > s:
                pos = s
        return self.start + pos


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


_WORD_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")
_STRING_RE = re.compile(r'\s*"([a-z_]+)"')
_DIM_INT_RE = re.compile(r"(\s*%[A-Za-z0-9_$.\-#]+\s*,\s*)(\d+)\b")


def _line_rest(text: str, pos: int) -> str:
    end = text.find("\n", pos)
    return text[pos : len(text) if end < 0 else end]


def _trailing_type(text: str, pos: int) -> str:
    """The type after the op's last ``:`` on its line (comments stripped)."""
    rest = _line_rest(text, pos).split("//", 1)[0]
    return rest.rsplit(" : ", 1)[1].strip() if " : " in rest else ""


def _elem_of(shaped: str) -> str | None:
    m = re.fullmatch(r"(?:vector|tensor|memref)<(?:[0-9?]+x)*([^,<>]+)>", shaped.strip())
    return m.group(1) if m else None


def _fresh(text: str, base: str, taken: set[str]) -> str:
    k = 0
    while True:
        name = f"%{base}{'_' + str(k) if k else ''}"
        if name not in taken and not re.search(re.escape(name) + r"(?![A-Za-z0-9_$.])", text):
            taken.add(name)
            return name
        k += 1


class _Upgrader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.problems: list[Problem] = []
        self.taken: set[str] = set()
        self.to_original: Callable[[int], int] = lambda pos: pos

    def problem(self, ch: _Chunk, pos: int, message: str) -> None:
        self.problems.append(Problem(_line_of(self.source, self.to_original(ch.original_offset(pos))), message))

    # ------------------------------------------------------------ one op
    def rewrite_op(self, ch: _Chunk, s: int, e: int) -> list[Edit] | None:
        """Edits that turn the legacy op named ``ch.text[s:e]`` into its
        modern form; None when it has none (reported)."""
        text = ch.text
        name = text[s:e]
        bare = name.removeprefix("std.")
        if bare in NO_MODERN_FORM:
            self.problem(ch, s, f"{NO_MODERN_FORM[bare]}; left as written")
            return [(s, e, _HOLD + name)]
        ty = _trailing_type(text, e)
        new = modern_name(bare, ty)
        if new is None:
            return None
        edits: list[Edit] = []
        if bare in ("cmpi", "cmpf", "atomic_rmw"):
            m = _STRING_RE.match(text, e)
            if m:
                edits.append((m.start(1) - 1, m.end(1) + 1, m.group(1)))
        elif bare == "constant":
            i = e
            while i < len(text) and text[i] in " \t":
                i += 1
            if text.startswith("@", i):
                new = "func.constant"
        elif bare == "dim":
            m = _DIM_INT_RE.match(text, e)
            if m:
                ls = text.rfind("\n", 0, s) + 1
                indent = re.match(r"[ \t]*", text[ls:]).group(0)  # type: ignore[union-attr]
                c = _fresh(text, f"c{m.group(2)}", self.taken)
                edits.append((m.start(2), m.end(2), c))
                edits.append((ls, ls, f"{indent}{c} = arith.constant {m.group(2)} : index\n"))
        elif bare == "splat" and new == "vector.broadcast":
            elem = _elem_of(ty)
            rest = _line_rest(text, e)
            k = rest.rfind(" : ")
            if elem is None or k < 0:
                self.problem(ch, s, f"'{name}': cannot read the element type of '{ty}'; left as written")
                return [(s, e, _HOLD + name)]
            edits.append((e + k, e + k + 3, f" : {elem} to "))
        elif bare == "tensor_load":
            rest = _line_rest(text, e)
            k = rest.rfind(" : ")
            m = re.fullmatch(r"memref<((?:[0-9?]+x)*[^,<>]+)>", ty)
            if m is None or k < 0:
                self.problem(ch, s, f"'{name}': the tensor type of '{ty}' is not mechanical (layout or memory space); left as written")
                return [(s, e, _HOLD + name)]
            end = e + len(rest.split("//", 1)[0].rstrip())
            edits.append((end, end, f" to tensor<{m.group(1)}>"))
        edits.append((s, e, new))
        return edits

    # ------------------------------------------------------------ one item
    def fix_error(self, ch: _Chunk, err: Note) -> list[Edit] | None:
        text = ch.text
        cands = [err.span.rel_start] + [r.rel_start for r, _m in (err.data or {}).get("related", []) or []]
        for pos in cands:
            m = _WORD_RE.match(text, pos)
            if m is not None:
                bare = m.group(0).removeprefix("std.")
                if (bare in LEGACY_OPS or bare in NO_MODERN_FORM) and m.group(0) not in GRAMMAR_BARE:
                    edits = self.rewrite_op(ch, m.start(), m.end())
                    if edits is not None:
                        edits.extend(self.other_heads(ch, m.start()))
                    return edits
            lm = legacy_map_at(text, pos)
            if lm is not None:
                return [(pos, lm[0], lm[1])]
        return None

    def other_heads(self, ch: _Chunk, skip: int) -> list[Edit]:
        """The parse stopped at an old op name (at ``skip``): the old op names
        heading the other lines of the item are rewritten in the same round
        (the next parse checks them; without this, an item of n old ops is
        parsed n times, each failure through lark's slower error path, and
        an op of a dialect that no longer exists, ``loop.for``, read as an
        unknown op, can hide the old names inside it from the parser)."""
        text = ch.text
        out: list[Edit] = []
        pos = -1
        while pos < len(text):
            m = _STMT_HEAD_RE.match(text, pos + 1)
            if m is not None and m.start(1) != skip:
                name = m.group(1)
                bare = name.removeprefix("std.")
                after = text[m.end(1) : m.end(1) + 1]
                if (bare in LEGACY_OPS or bare in NO_MODERN_FORM) and bare not in FUNC_DEFAULT_OK and bare != "func" and after in (" ", "\t", "(", "\n", ""):
                    out.extend(self.rewrite_op(ch, m.start(1), m.end(1)) or [])
            nl = text.find("\n", pos + 1)
            if nl < 0:
                break
            pos = nl
        return out

    def edits_from_parse(self, ch: _Chunk, item: object) -> tuple[list[Edit], list[Edit]]:
        """(edits of legacy spellings the parser accepted, the ``return``/``call``
        renames): from the parse's spans."""
        text = ch.text
        real: list[Edit] = []
        soft: list[Edit] = []
        if isinstance(item, AliasDefSyn):
            if item.legacy:
                val = item.value
                modern = val.map.to_attr_str() if hasattr(val, "map") else val.set.to_attr_str()  # type: ignore[union-attr]
                real.append((item.span.rel_start, item.span.rel_end, f"{item.name} = {modern}"))
            return real, soft
        if not isinstance(item, OpSyn):
            return real, soft
        stack: list[tuple[OpSyn, str]] = [(item, "builtin")]
        while stack:
            op, parent = stack.pop()
            s, e = op.name_span.rel_start, op.name_span.rel_end
            src = text[s:e]
            quoted = src.startswith('"')
            bare_src = src.strip('"')
            if src == "func" and op.name == "func.func":
                real.append((s, e, "func.func"))
            elif src == "affine.terminator":
                real.append((s, e, "affine.yield"))
            elif bare_src.startswith(OLD_DIALECTS) and not bare_src.startswith(_HOLD):
                if quoted:
                    new = modern_name(bare_src)
                    if new is None:
                        self.problem(ch, s, f"'{bare_src}' has no modern name known to affine-lsp; left as written")
                    else:
                        real.append((s + 1, e - 1, new))
                else:
                    edits = self.rewrite_op(ch, s, s + len(bare_src))
                    if edits is None:
                        self.problem(ch, s, f"'{bare_src}' has no modern name known to affine-lsp; left as written")
                    else:
                        real.extend(edits)
            elif src in FUNC_DEFAULT_OK and op.name == "func." + src:
                if parent == "func.func":
                    soft.append((s, e, op.name))  # current syntax there: renamed with the rest of an old file
                elif src != "return" and parent != "builtin":
                    real.append((s, e, op.name))  # a call in a loop body: mlir-opt knows no default dialect there
            if not op.known:
                real.extend(self._swallowed(ch, op))
            if op.name == "func.func" and not op.regions and "sym_visibility" not in op.attrs:
                # A declaration must be private in MLIR 22 (public ones were allowed before).
                real.append((e, e, " private"))
            for r in op.regions:
                for b in r.blocks:
                    for sub in b.ops:
                        stack.append((sub, op.name))
        return real, soft

    def _swallowed(self, ch: _Chunk, op: OpSyn) -> list[Edit]:
        """Old ops on the lines an unknown op's recovery took in (an op
        without results, ``dealloc %m``, looks like more of its operands)."""
        text = ch.text
        out: list[Edit] = []
        pos = text.find("\n", op.name_span.rel_end, op.span.rel_end)
        while 0 <= pos < op.span.rel_end:
            m = _STMT_HEAD_RE.match(text, pos + 1)
            if m is not None and m.end(1) <= op.span.rel_end:
                bare = m.group(1).removeprefix("std.")
                if (bare in LEGACY_OPS or bare in NO_MODERN_FORM) and m.group(1) not in GRAMMAR_BARE:
                    out.extend(self.rewrite_op(ch, m.start(1), m.end(1)) or [])
            pos = text.find("\n", pos + 1, op.span.rel_end)
        return out

    def upgrade_item(self, ch: _Chunk) -> list[Edit]:
        """Rewrite ``ch`` in place; returns the pending ``return``/``call`` renames."""
        known = _CURRENT.get(ch.text)
        if known is not None:
            return list(known)
        soft: list[Edit] = []
        before = (len(self.problems), len(self.taken))
        for round_ in range(_MAX_ROUNDS):
            res = parse_chunk(ch.text, Anchor(0))
            if res.item is None:
                err = next((n for n in res.notes if n.severity == "error"), None)
                if err is None:
                    return []
                edits = self.fix_error(ch, err) or self.other_heads(ch, -1) or None
                legacy = edits is not None
                if edits is None and ch.real and sum(1 for c in iter_chunks(ch.text) if c.kind == "item") > 1:
                    return []  # a renamed op starts an item of its own now: the next pass reads it alone
                if edits is None:
                    edits = _hold_modern(ch.text, err)
                if edits is None:
                    edits = _hold_unknown(ch.text, err)
                    if edits is not None:
                        self.problem(ch, err.span.rel_start, f"not upgraded: {err.message}; left as written")
                if edits is None:
                    self.problem(ch, err.span.rel_start, f"not upgraded: {err.message} (the rest of this item is left as written)")
                    return []
                ch.real = ch.real or legacy
                ch.apply(edits)
                continue
            real, soft = self.edits_from_parse(ch, res.item)
            if not real:
                if round_ == 0 and before == (len(self.problems), len(self.taken)):
                    _remember_current(ch.text, soft)
                return soft
            ch.real = True
            ch.apply(real)
        self.problem(ch, 0, "not upgraded: too many rewrites in one item")
        return []


_CURRENT: dict[str, tuple[Edit, ...]] = {}
"""Items already in the current syntax (parsed without error, nothing to
rewrite, no problem to report), with their pending renames: an item's
upgrade depends on its text alone, so the next upgrade of a file being
edited (the code action asks again at each version) parses only the items
that changed. Bounded by :data:`_CURRENT_MAX` (cleared when full)."""
_CURRENT_MAX = 50_000
_CURRENT_LOCK = forking.not_held_across_fork(threading.Lock(), f"{__name__}._CURRENT_LOCK", "no child upgrades a file")


def _remember_current(text: str, soft: list[Edit]) -> None:
    with _CURRENT_LOCK:
        if len(_CURRENT) >= _CURRENT_MAX:
            _CURRENT.clear()
        _CURRENT[text] = tuple(soft)


def _items(text: str) -> Iterator[tuple[int, int, bool]]:
    """(start, end, is an item) pieces covering ``text``."""
    pos = 0
    for c in iter_chunks(text):
        if c.start > pos:
            yield pos, c.start, False
        yield c.start, c.end, c.kind == "item"
        pos = c.end
    if pos < len(text):
        yield pos, len(text), False


_MODERN = frozenset(LEGACY_OPS.values()) | {"tensor.dim", "tensor.rank", "tensor.splat", "func.constant"}
_STMT_HEAD_RE = re.compile(r"[ \t]*(?:(?:%[A-Za-z0-9_$.\-]+(?::[0-9]+)?\s*,\s*)*%[A-Za-z0-9_$.\-]+(?::[0-9]+)?\s*=\s*)?([A-Za-z_][A-Za-z0-9_$.]*)")


def _hold_modern(text: str, err: Note) -> list[Edit] | None:
    """An op the upgrade wrote whose custom syntax the grammar does not know
    (``memref.global``): parsed past as an unknown op (the name is given
    back at the end)."""
    pos = err.span.rel_start
    ls = text.rfind("\n", 0, pos) + 1
    m = _STMT_HEAD_RE.match(text, ls)
    if m is None or m.start(1) > pos or m.group(1) not in _MODERN:
        return None
    return [(m.start(1), m.start(1), _HOLD)]


def _hold_unknown(text: str, err: Note) -> list[Edit] | None:
    """An op name the parser stopped at that the upgrade does not know
    (``mlfunc``): parsed past as an unknown op, written back as it was."""
    for pos in [err.span.rel_start] + [r.rel_start for r, _m in (err.data or {}).get("related", []) or []]:
        ls = text.rfind("\n", 0, pos) + 1
        m = _STMT_HEAD_RE.match(text, ls)
        if m is not None and m.start(1) == pos and "." not in m.group(1):
            return [(pos, pos, _HOLD)]
    return None


class _Pass:
    """One pass over the text: its pieces, to map output offsets back to input ones."""

    def __init__(self) -> None:
        self.pieces: list[tuple[int, int, _Chunk | None, int]] = []  # (output start, output end, chunk, input start)

    def input_offset(self, pos: int) -> int:
        for out_s, out_e, ch, in_s in self.pieces:
            if pos < out_e:
                rel = pos - out_s
                return ch.original_offset(rel) if ch is not None else in_s + rel
        return pos


def upgrade_text(text: str) -> UpgradeResult:
    """``text`` in the current MLIR syntax, and what could not be upgraded.
    A file without legacy constructs comes back unchanged.

    The text is processed in passes, each over the top-level items of the
    previous pass's output (an old op the chunker did not see as an item,
    ``global_memref``, becomes one once renamed), until nothing changes."""
    up = _Upgrader(text)
    passes: list[_Pass] = []
    cur = text
    any_real = False
    last: list[tuple[str | _Chunk, list[Edit]]] = []
    for _ in range(8):
        done = list(passes)
        up.to_original = lambda pos, done=done: _through(done, pos)
        last = []
        for s, e, is_item in _items(cur):
            if not is_item:
                last.append((cur[s:e], []))
                continue
            ch = _Chunk(cur[s:e], s)
            last.append((ch, up.upgrade_item(ch)))
        ps = _Pass()
        pos = 0
        in_pos = 0
        parts: list[str] = []
        for pc, _soft in last:
            t = pc if isinstance(pc, str) else pc.text
            ps.pieces.append((pos, pos + len(t), None if isinstance(pc, str) else pc, in_pos))
            in_pos += len(pc) if isinstance(pc, str) else _input_len(pc)
            pos += len(t)
            parts.append(t)
        passes.append(ps)
        any_real = any_real or any(isinstance(pc, _Chunk) and pc.real for pc, _s in last)
        new = "".join(parts)
        if new == cur:
            break
        cur = new
    if any_real:
        # The `return`/`call` renames, on the last pass's items (their text is the final one).
        parts = []
        for pc, soft in last:
            if isinstance(pc, str):
                parts.append(pc)
            else:
                pc.apply(soft)
                parts.append(pc.text)
        cur = "".join(parts)
    out = cur.replace(_HOLD, "")
    seen: set[tuple[int, str]] = set()
    problems = []
    for p in sorted(up.problems, key=lambda p: p.line):
        if (p.line, p.message) not in seen:
            seen.add((p.line, p.message))
            problems.append(p)
    return UpgradeResult(out, problems)


def _input_len(ch: _Chunk) -> int:
    n = len(ch.text)
    for _s, old, new in ch.log:
        n += old - new
    return n


def _through(passes: list[_Pass], pos: int) -> int:
    for ps in reversed(passes):
        pos = ps.input_offset(pos)
    return pos
