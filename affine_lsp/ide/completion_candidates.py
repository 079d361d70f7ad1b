"""Completion candidates at an offset, as plain data (the server converts
them, server/convert.py).

* ``%`` — SSA values visible at the cursor (from the IR: block arguments of
  the enclosing blocks and results defined above), with their types; inside
  a function that currently does not parse, the values of its last version
  that did;
* ``#`` / ``!`` — attribute / type aliases of the section;
* ``^`` — block labels of the enclosing region; ``@`` — functions;
* otherwise op names (the ones the grammar knows, affine ops as snippets),
  affine keywords, and after ``:`` / ``->`` / ``<`` types.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from affine_lsp.ide import describe as D
from affine_lsp.ide.name_targets import chunk_at
from affine_lsp.ide.occurrences import innermost_op
from affine_lsp.ide.outline import FUNC_RE
from affine_lsp.ide.symbols import func_name
from affine_lsp.ir import op_registry
from affine_lsp.ir.core import Operation, Value
from affine_lsp.ir.types import MemRefType
from affine_lsp.source.document import Chunk, Document, Section
from affine_lsp.source.scratch import scratch_documents

TRIGGERS = ["%", "#", "!", "^", "@", "."]

SNIPPETS: dict[str, str] = {
    "affine.for": "affine.for ${1:%i} = ${2:0} to ${3:128} {\n\t$0\n}",
    "affine.parallel": "affine.parallel (${1:%i}, ${2:%j}) = (${3:0}, ${4:0}) to (${5:128}, ${6:128}) {\n\t$0\n}",
    "affine.if": "affine.if ${1:#set}(${2:%i}) {\n\t$0\n}",
    "affine.load": "affine.load ${1:%A}[${2:%i}] : ${3:memref type}",
    "affine.store": "affine.store ${1:%v}, ${2:%A}[${3:%i}] : ${4:memref type}",
    "affine.vector_load": "affine.vector_load ${1:%A}[${2:%i}] : ${3:memref type}, ${4:vector<8xf32>}",
    "affine.vector_store": "affine.vector_store ${1:%v}, ${2:%A}[${3:%i}] : ${4:memref type}, ${5:vector<8xf32>}",
    "affine.apply": "affine.apply ${1:affine_map<(d0) -> (d0)>}(${2:%i})",
    "affine.min": "affine.min ${1:affine_map<(d0)[s0] -> (d0, s0)>}(${2:%i})[${3:%N}]",
    "affine.max": "affine.max ${1:affine_map<(d0)[s0] -> (d0, s0)>}(${2:%i})[${3:%N}]",
    "affine.yield": "affine.yield $0",
    "affine.prefetch": "affine.prefetch ${1:%A}[${2:%i}], ${3|read,write|}, locality<${4:3}>, ${5|data,instr|} : ${6:memref type}",
    "affine.delinearize_index": "affine.delinearize_index ${1:%i} into (${2:4}, ${3:8}) : index, index",
    "affine.linearize_index": "affine.linearize_index [${1:%i}, ${2:%j}] by (${3:4}, ${4:8}) : index",
    "func.func": "func.func @${1:name}($2) {\n\t$0\n\treturn\n}",
    "arith.constant": "arith.constant ${1:0} : ${2:index}",
    "memref.alloc": "memref.alloc() : ${1:memref<128xf32>}",
}

FALLBACK_OPS = sorted(set(SNIPPETS) | {"func.return", "func.call", "memref.dealloc", "memref.dim", "arith.addf", "arith.mulf", "arith.addi", "arith.muli"})

KEYWORDS = ["to", "step", "iter_args", "max", "min", "symbol", "floordiv", "ceildiv", "mod", "reduce"]
BUILTIN_TYPES: list[tuple[str, str | None]] = [
    ("index", None),
    ("i1", None),
    ("i8", None),
    ("i16", None),
    ("i32", None),
    ("i64", None),
    ("f16", None),
    ("bf16", None),
    ("f32", None),
    ("f64", None),
    ("memref", "memref<${1:128}x${2:f32}>"),
    ("vector", "vector<${1:8}x${2:f32}>"),
    ("tensor", "tensor<${1:128}x${2:f32}>"),
]

_PREFIX_RE = re.compile(r"[%#!^@]?[\w$.\-]*$")


@functools.lru_cache(maxsize=1)
def known_op_names() -> tuple[str, ...]:
    """Op names the grammar has custom syntax for (the one description of
    the language), plus the snippets' ops."""
    names: set[str] = set(FALLBACK_OPS)
    try:
        from affine_lsp.syntax.engines import grammar_texts

        text = "\n".join(grammar_texts())
    except Exception:
        return tuple(sorted(names))
    for m in re.finditer(r'"([a-z_]+\.[a-z_.]+)"', text):
        names.add(m.group(1))
    for m in re.finditer(r"\(\?:([a-z_.\\|]+)\)", text):
        for alt in m.group(1).split("|"):
            alt = alt.replace("\\", "")
            if re.fullmatch(r"[a-z_]+\.[a-z_.]+", alt):
                names.add(alt)
    return tuple(sorted(n for n in names if not n.endswith(".")))


def _op_names(prefix: str) -> list[str]:
    """The op names offered for ``prefix``: those the grammar knows and,
    once a dialect is typed (``arith.``), every op MLIR 22.1.8 registers in
    it (the op registry)."""
    names = set(known_op_names())
    dialect, dot, _ = prefix.partition(".")
    if dot and op_registry.is_upstream_dialect(dialect):
        names.update(op_registry.op_names(dialect))
    return sorted(names)


def _visible_values(top: Operation, offset: int) -> list[Value]:
    """Values visible at ``offset`` inside ``top`` (dominance by position)."""
    out: list[Value] = []
    op: Operation | None = top
    while op is not None:
        nxt: Operation | None = None
        for region in op.regions:
            if not (region.span.start <= offset <= region.span.end):
                continue
            block = None
            for b in region.blocks:
                if b.span.start <= offset:
                    block = b
            if block is None and region.blocks:
                block = region.blocks[0]
            if block is None:
                continue
            out.extend(block.arguments)
            for child in block.operations:
                if child.span.end <= offset:
                    out.extend(r for r in child.results if not r.name.startswith("<"))
                elif child.span.start <= offset <= child.span.end:
                    nxt = child
            # Values of the other blocks of a CFG region that dominate are
            # not tracked; entry-block values are always visible.
            if block is not region.blocks[0]:
                entry = region.blocks[0]
                out.extend(entry.arguments)
                out.extend(r for o in entry.operations for r in o.results if not r.name.startswith("<"))
        op = nxt
    seen: set[str] = set()
    uniq = []
    for v in reversed(out):
        if v.name not in seen:
            seen.add(v.name)
            uniq.append(v)
    return uniq


def _all_values(top: Operation) -> list[Value]:
    out: list[Value] = []
    for op in top.walk():
        for region in op.regions:
            for b in region.blocks:
                out.extend(b.arguments)
        out.extend(r for r in op.results if not r.name.startswith("<"))
    seen: set[str] = set()
    return [v for v in out if not (v.name in seen or seen.add(v.name))]  # type: ignore[func-returns-value]


@dataclass(frozen=True)
class Candidate:
    """One completion: ``kind`` is one of ``value``, ``attribute-alias``,
    ``type-alias``, ``block``, ``function``, ``type``, ``op``, ``keyword``;
    ``doc`` Markdown; ``snippet`` the text to insert as a snippet (None:
    the label); ``sort`` the group it is sorted in."""

    label: str
    kind: str
    detail: str | None = None
    doc: str | None = None
    snippet: str | None = None
    sort: str = "5"


@dataclass(frozen=True)
class Completions:
    """The candidates replacing ``[start, end)`` (what was typed of the
    name); ``incomplete``: more would match as typing goes on."""

    start: int
    end: int
    items: list[Candidate]
    incomplete: bool = False


def _section_functions(section: Section) -> list[Operation]:
    out = []
    for op in section.item_ops():  # (each item once: a `module {` chunk's op holds the items)
        out.extend(o for o in op.walk() if o.name in ("func.func", "gpu.func"))
    return out


def completions_at(doc: Document, offset: int, last_good: Mapping[str, Operation], snippets: bool) -> Completions:
    """The candidates at ``offset``; ``last_good``: the last version that
    parsed of each function, by name (the values of a function that does
    not parse now); ``snippets``: the client inserts snippets."""
    lines = doc.lines
    text = doc.text
    line_start = lines.starts[lines.line_of(offset)]
    before = text[line_start:offset]
    if "//" in before:
        return Completions(offset, offset, [])
    m = _PREFIX_RE.search(before)
    prefix = m.group(0) if m else ""
    section, chunk = chunk_at(doc, offset)
    snip = snippets
    items: list[Candidate] = []
    incomplete = False
    sigil = prefix[:1]
    if sigil == "%":
        for v in _value_items(last_good, doc, chunk, offset):
            items.append(Candidate(v.name, "value", v.type, v.origin, sort="1"))
    elif sigil in ("#", "!"):
        table = section.aliases.attrs if sigil == "#" else section.aliases.types
        names, incomplete = _bounded(list(table), prefix)
        for name in names:
            d = table[name]
            kind = "attribute-alias" if sigil == "#" else "type-alias"
            items.append(Candidate(name, kind, str(d.value), f"{name} = {d.value}", sort="1"))
    elif sigil == "^":
        top = chunk.ir_op if chunk is not None else None
        inner = innermost_op(chunk, offset) if chunk is not None and top is not None else None
        labels: list[str] = []
        cur = inner
        while cur is not None and not labels:
            for region in cur.regions:
                if region.span.start <= offset <= region.span.end:
                    labels = [b.label for b in region.blocks if b.label]
            cur = cur.parent_op
        for lab in labels:
            items.append(Candidate(lab, "block", "block", sort="1"))
    elif sigil == "@":
        funcs = list(_section_functions(section))
        if len(funcs) > MAX_ITEMS:
            keep = set(_bounded([func_name(f) for f in funcs], prefix)[0])
            funcs = [f for f in funcs if func_name(f) in keep][:MAX_ITEMS]
            incomplete = True
        for f in funcs:
            ft = f.attributes.get("function_type")
            items.append(Candidate(func_name(f), "function", str(getattr(ft, "type", "")), sort="1"))
    else:
        head = before[: len(before) - len(prefix)].rstrip()
        if _type_context(head):
            for name, snippet in BUILTIN_TYPES:
                items.append(Candidate(name, "type", "builtin type", snippet=snippet, sort="2"))
            for name, d in section.aliases.types.items():
                items.append(Candidate(name, "type-alias", str(d.value), sort="1"))
        else:
            memory_ops = ("affine.load", "affine.store")
            in_scope = _value_items(last_good, doc, chunk, offset) if snip and any(n.startswith(prefix) for n in memory_ops) else []
            ivs = [v.name for v in in_scope if v.type == "index" and v.origin.startswith("induction variable")]
            for name in _op_names(prefix):
                snippet = (_memref_snippet(name, in_scope, ivs) if name in memory_ops else None) or SNIPPETS.get(name)
                dialect = name.split(".", 1)[0]
                info = op_registry.lookup(name)
                items.append(
                    Candidate(
                        name,
                        "op",
                        f"{dialect} op",
                        info.summary if info is not None and info.summary else None,
                        snippet=snippet,
                        sort="1" if dialect == "affine" else "3",
                    )
                )
            for kw in KEYWORDS:
                items.append(Candidate(kw, "keyword", "keyword", sort="4"))
    return Completions(offset - len(prefix), offset, items, incomplete)


MAX_ITEMS = 1000


def _bounded(names: list[str], prefix: str) -> tuple[list[str], bool]:
    """At most MAX_ITEMS candidates (10,000 aliases would take the client
    seconds to receive): past that, those starting with what was typed, and
    the list is marked incomplete so the client asks again as typing goes on."""
    if len(names) <= MAX_ITEMS:
        return names, False
    matching = [n for n in names if n.startswith(prefix)]
    return matching[:MAX_ITEMS], len(matching) > MAX_ITEMS or len(matching) < len(names)


def _type_context(head: str) -> bool:
    """The cursor follows ``:``, ``->``, ``<`` or is in a type list after ``:``."""
    if head.endswith((":", "->", "<")):
        return True
    return head.endswith((",", "(")) and ":" in head.rsplit("=", 1)[-1]


class ValueItem(NamedTuple):
    """A value offered for completion."""

    name: str
    type: str | None
    origin: str
    memref_rank: int | None = None  # its rank when it is a memref


def _value_items(last_good: Mapping[str, Operation], doc: Document, chunk: Chunk | None, offset: int) -> list[ValueItem]:
    """The values visible at ``offset``, the nearest first."""
    if chunk is None:
        return []
    line_of = doc.lines.line_of
    top = chunk.ir_op
    if top is not None:
        return [_value_item(v, line_of) for v in _visible_values(top, offset)]
    # The function does not parse right now: offer the values of its last good version.
    m = FUNC_RE.search(chunk.text)
    if m is not None:
        good = last_good.get(m.group(1)[1:].strip('"'))
        if good is not None:
            return [_value_item(v, line_of) for v in reversed(_all_values(good))]
    # Never parsed (a document opened with the line being typed): the
    # function without the cursor's line, else the names written above.
    return _values_without_cursor_line(chunk, offset, doc) or _names_written_above(chunk, offset)


def _value_item(v: Value, line_of: D.LineOf) -> ValueItem:
    rank = v.type.rank if isinstance(v.type, MemRefType) else None
    return ValueItem(v.name, str(v.type) if v.type is not None else None, D.value_origin(v, line_of), rank)


def _values_without_cursor_line(chunk: Chunk, offset: int, doc: Document) -> list[ValueItem]:
    """The values visible at the cursor in the chunk's text with the
    cursor's line blanked (same offsets), parsed as a scratch document."""
    start = chunk.anchor.offset
    rel = offset - start
    text = chunk.text
    if not 0 <= rel <= len(text):
        return []
    a = text.rfind("\n", 0, rel) + 1
    b = text.find("\n", rel)
    b = len(text) if b < 0 else b
    repaired = text[:a] + " " * (b - a) + text[b:]
    with scratch_documents():
        scratch = Document(repaired)
        sections = scratch.sections  # builds the IR
        tops = [op for sec in sections for op in sec.top_level_ops() if op.span.start <= rel <= op.span.end]
        if not tops or any(n.severity == "error" for n in scratch.notes()):
            return []
        return [_value_item(v, lambda off: doc.lines.line_of(off + start)) for v in _visible_values(tops[0], rel)]


_DEF_RE = re.compile(r"(%[A-Za-z_$.\-][\w$.\-]*|%\d+)(?::\d+)?\s*(?:=|:\s*([^,)=]+))")


def _names_written_above(chunk: Chunk, offset: int) -> list[ValueItem]:
    """The ``%names`` defined (``%x =``, ``%x: type``) above the cursor in
    the chunk's text, when nothing of it parses."""
    above = chunk.text[: max(0, offset - chunk.anchor.offset)]
    out: dict[str, ValueItem] = {}
    for m in _DEF_RE.finditer(above):
        ty = m.group(2).strip() if m.group(2) else None
        out.setdefault(m.group(1), ValueItem(m.group(1), ty, "defined above (the function does not parse yet)"))
    return list(out.values())[::-1]


def _memref_snippet(name: str, values: list[ValueItem], ivs: list[str]) -> str | None:
    """The snippet of an affine memory op with the nearest memref in scope
    (its name and type) and one subscript per dimension: the innermost loop
    variables around the cursor, ``0`` where there are fewer; nothing
    invented (``values`` and ``ivs``: the nearest first). None: no memref
    in scope."""
    memrefs = [v for v in values if v.memref_rank is not None]
    if not memrefs:
        return None
    mem, ty, rank = memrefs[0].name, memrefs[0].type, memrefs[0].memref_rank or 0
    subs = (["0"] * rank + ivs[::-1])[-rank:] if rank else []
    tab = iter(range(2, 100))
    sub = ", ".join(f"${{{next(tab)}:{v}}}" for v in subs)
    if name == "affine.load":
        return f"affine.load ${{1:{mem}}}[{sub}] : {ty}"
    if name == "affine.store":
        return f"affine.store ${{{next(tab)}:%v}}, ${{1:{mem}}}[{sub}] : {ty}"
    return None
