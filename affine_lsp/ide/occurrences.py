"""What is written where: the named things of a chunk and their spans.

Everything here is read off the IR (values, uses, blocks, attributes, the
spans the parser recorded) and, for the few facts the IR does not keep
(where a type or a successor label was written), off the chunk's syntax
records. Nothing is re-parsed. The occurrences of a chunk are computed on
demand (a chunk is one top-level item, so this is cheap) and never cached:
they can not go stale.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from affine_lsp.ir.affine_expr import AffineDimExpr, AffineExpr, AffineMap, AffineSymbolExpr, IntegerSet
from affine_lsp.ir.affine_ops import IfView, ParallelView, access_of
from affine_lsp.ir.attributes import AffineMapAttr, ArrayAttr, Attribute, DictAttr, IntegerSetAttr, StringAttr, SymbolRefAttr
from affine_lsp.ir.builder import UndefinedValue
from affine_lsp.ir.core import Block, Operation, Span, Value
from affine_lsp.ir.types import ComplexType, FunctionType, ShapedType, TupleType, Type
from affine_lsp.source.document import Chunk, Section, item_syntax
from affine_lsp.syntax.nodes import AliasDefSyn, AliasRef, AliasType, OpSyn

# Occurrence kinds, most specific first (used to break ties).
KIND_PRIORITY = {
    "value-def": 0,
    "value-use": 0,
    "undefined-use": 0,
    "block-def": 1,
    "block-ref": 1,
    "alias-def": 1,
    "alias-use": 1,
    "symbol-def": 1,
    "symbol-ref": 1,
    "map-dim": 2,
    "map-sym": 2,
    "op": 3,
    "type": 4,
    "map": 5,
}


@dataclass(slots=True, eq=False)
class Occ:
    """One named thing written in the text."""

    kind: str
    span: Span
    name: str = ""
    value: Value | None = None
    op: Operation | None = None  # the op written here / the user / the owner of the attribute
    block: Block | None = None
    attr: Attribute | None = None
    index: int = -1  # operand index (uses), position (map dims/symbols)
    key: str = ""  # attribute name (maps)

    def contains(self, offset: int) -> bool:
        return self.span.start <= offset < self.span.end


# ---------------------------------------------------------------- map uses
@dataclass(slots=True, eq=False)
class MapUse:
    """An affine map (or integer set) applied to operands by an op."""

    op: Operation
    key: str  # attribute name
    label: str  # "lower bound", "subscript", ...
    map: AffineMap | None
    set: IntegerSet | None
    attr: Attribute | None
    operands: list[Value]
    operand_spans: list[Span]

    @property
    def num_dims(self) -> int:
        m = self.map if self.map is not None else self.set
        return m.num_dims if m is not None else 0

    @property
    def num_symbols(self) -> int:
        m = self.map if self.map is not None else self.set
        return m.num_symbols if m is not None else 0


def _map_attr(op: Operation, key: str) -> tuple[AffineMap | None, Attribute | None]:
    a = op.attributes.get(key)
    return (a.map, a) if isinstance(a, AffineMapAttr) else (None, a)


def map_uses(op: Operation) -> list[MapUse]:
    """The maps an affine op applies, each with its operands (dims then symbols)."""
    name = op.name
    out: list[MapUse] = []
    try:
        if name in ("affine.apply", "affine.min", "affine.max"):
            m, a = _map_attr(op, "map")
            out.append(MapUse(op, "map", "map", m, None, a, list(op.operands), list(op.operand_spans)))
        elif name == "affine.for":
            for idx, key, label in ((0, "lower_bound", "lower bound"), (1, "upper_bound", "upper bound")):
                m, a = _map_attr(op, key)
                if op.operand_segments is not None:
                    ops_, spans = op.segment(idx), op.segment_spans(idx)
                else:
                    ops_, spans = [], []
                out.append(MapUse(op, key, label, m, None, a, ops_, spans))
        elif name == "affine.parallel":
            pv = ParallelView(op)
            for idx, key, label in ((0, "lowerBoundsMap", "lower bounds"), (1, "upperBoundsMap", "upper bounds")):
                m, a = _map_attr(op, key)
                ops_ = pv.lower_operands if idx == 0 else pv.upper_operands
                spans = op.segment_spans(idx) if op.operand_segments is not None else []
                out.append(MapUse(op, key, label, m, None, a, list(ops_), list(spans)))
        elif name == "affine.if":
            cond = IfView(op).condition
            out.append(MapUse(op, "condition", "condition", None, cond, op.attributes.get("condition"), list(op.operands), list(op.operand_spans)))
        else:
            acc = access_of(op)
            if acc is not None:
                first = 2 if acc.is_write else 1
                out.append(MapUse(op, "map", "subscript", acc.map, None, op.attributes.get("map"), list(acc.indices), list(op.operand_spans[first:])))
            elif name == "affine.prefetch":
                m, a = _map_attr(op, "map")
                out.append(MapUse(op, "map", "subscript", m, None, a, list(op.operands[1:]), list(op.operand_spans[1:])))
    except (AssertionError, IndexError, KeyError):
        return out
    return out


def map_use_of_operand(op: Operation, index: int) -> tuple[MapUse, int] | None:
    """The map use that consumes operand ``index`` of ``op`` and the position
    of the operand among that map's inputs."""
    target = op.operand_spans[index] if 0 <= index < len(op.operand_spans) else None
    for mu in map_uses(op):
        for k, sp in enumerate(mu.operand_spans):
            if sp is target:
                return mu, k
    # Fall back on identity (operands listed twice are rare).
    if 0 <= index < len(op.operands):
        v = op.operands[index]
        for mu in map_uses(op):
            for k, ov in enumerate(mu.operands):
                if ov is v:
                    return mu, k
    return None


def map_use_of_attr(op: Operation, attr: Attribute) -> MapUse | None:
    for mu in map_uses(op):
        if mu.attr is attr:
            return mu
    return None


# ---------------------------------------------------------------- occurrences
def _overlaps(sp: Span, skip: list[tuple[int, int]]) -> bool:
    s, e = sp.start, sp.end
    return any(s < b and a < e for a, b in skip)


_SSA_NAME = re.compile(r"%[A-Za-z0-9_$.\-]+(?:#[0-9]+)?")


def _expr_occs(
    exprs: Iterable[AffineExpr], skip: list[tuple[int, int]], owner: Operation | None, attr: Attribute | None, key: str, text: str | None = None
) -> Iterator[Occ]:
    """``dN``/``sN`` identifiers written in a map (not operands written in
    place); with the chunk's ``text``, an operand written in place again
    (``%A[%i, %i]``, ``symbol(%N)`` twice: one map input, several spans) is
    a use of that operand."""
    for e in exprs:
        for x in e.walk():
            sp = getattr(x, "span", None)
            if not isinstance(sp, Span) or not len(sp) or _overlaps(sp, skip):
                continue
            if text is not None and owner is not None and isinstance(x, AffineDimExpr | AffineSymbolExpr):
                written = text[sp.rel_start : sp.rel_end]
                if written.lstrip("symbol( \t\n").startswith("%"):
                    occ = _repeated_operand(owner, attr, x, sp, written)
                    if occ is not None:
                        yield occ
                    continue
            if isinstance(x, AffineDimExpr):
                yield Occ("map-dim", sp, f"d{x.position}", op=owner, attr=attr, index=x.position, key=key)
            elif isinstance(x, AffineSymbolExpr):
                yield Occ("map-sym", sp, f"s{x.position}", op=owner, attr=attr, index=x.position, key=key)


def _repeated_operand(owner: Operation, attr: Attribute | None, x: AffineExpr, sp: Span, written: str) -> Occ | None:
    """The use of the map operand that ``x`` (written in place as ``written``) refers to."""
    m = _SSA_NAME.search(written)
    mu = map_use_of_attr(owner, attr) if attr is not None else None
    if m is None or mu is None:
        return None
    k = x.position if isinstance(x, AffineDimExpr) else mu.num_dims + x.position  # type: ignore[attr-defined]
    if not 0 <= k < len(mu.operands):
        return None
    v = mu.operands[k]
    first = mu.operand_spans[k] if k < len(mu.operand_spans) else None
    if first is None or first.anchor is not sp.anchor or len(first) != len(m.group(0)):
        return None
    index = next((i for i, s in enumerate(owner.operand_spans) if s is first), -1)
    kind = "undefined-use" if isinstance(v, UndefinedValue) else "value-use"
    return Occ(kind, Span(sp.rel_start + m.start(), sp.rel_start + m.end(), sp.anchor), v.name, value=v, op=owner, index=index)


def _attr_occs(a: Attribute, op: Operation | None, key: str, skip: list[tuple[int, int]], text: str | None = None) -> Iterator[Occ]:
    if isinstance(a, AffineMapAttr | IntegerSetAttr):
        sp = a.span
        if a.alias:
            if isinstance(sp, Span) and len(sp):
                yield Occ("alias-use", sp, a.alias, op=op, attr=a, key=key)
            return
        if isinstance(sp, Span) and len(sp):
            yield Occ("map", sp, "", op=op, attr=a, key=key)
        exprs = a.map.results if isinstance(a, AffineMapAttr) else a.set.constraints
        yield from _expr_occs(exprs, skip, op, a, key, text)
    elif isinstance(a, AliasRef):
        if isinstance(a.span, Span) and len(a.span):
            yield Occ("alias-use", a.span, a.name, op=op, attr=a, key=key)
    elif isinstance(a, SymbolRefAttr):
        if isinstance(a.span, Span) and len(a.span):
            yield Occ("symbol-ref", a.span, "@" + a.root, op=op, attr=a, key=key)
    elif isinstance(a, ArrayAttr):
        for e in a.elements:
            yield from _attr_occs(e, op, key, skip, text)
    elif isinstance(a, DictAttr):
        for k, e in a.entries.items():
            yield from _attr_occs(e, op, k, skip, text)


def _type_occs(t: object, seen: set[tuple[int, int]], nested: bool = False) -> Iterator[Occ]:
    """The written type (outermost only) and the aliases used inside it."""
    if not isinstance(t, Type):
        return
    sp = getattr(t, "span", None)
    if isinstance(t, AliasType):
        if isinstance(t.span, Span) and (t.span.start, t.span.end) not in seen:
            seen.add((t.span.start, t.span.end))
            yield Occ("alias-use", t.span, t.name)
        return
    if not nested and isinstance(sp, Span) and len(sp) and (sp.start, sp.end) not in seen:
        seen.add((sp.start, sp.end))
        yield Occ("type", sp, str(t))
    for ref in getattr(t, "_alias_refs", None) or ():
        rs = getattr(ref, "span", None)
        if isinstance(rs, Span) and (rs.start, rs.end) not in seen:
            seen.add((rs.start, rs.end))
            yield Occ("alias-use", rs, getattr(ref, "name", ""))
    if isinstance(t, ShapedType):
        yield from _type_occs(t.element, seen, True)
    elif isinstance(t, FunctionType):
        for x in (*t.inputs, *t.results):
            yield from _type_occs(x, seen, nested)
    elif isinstance(t, TupleType):
        for x in t.elements:
            yield from _type_occs(x, seen, True)
    elif isinstance(t, ComplexType):
        yield from _type_occs(t.element, seen, True)


def block_label_span(block: Block) -> Span | None:
    if block.label is None:
        return None
    sp = block.span
    return Span(sp.rel_start, sp.rel_start + len(block.label), sp.anchor)


def _op_occs(op: Operation, syn: OpSyn | None, seen_types: set[tuple[int, int]], text: str | None = None) -> Iterator[Occ]:
    if len(op.name_span):
        yield Occ("op", op.name_span, op.name, op=op)
    done: set[tuple[int, int]] = set()
    for r in op.results:
        key = (r.span.start, r.span.end)
        if key in done or r.name.startswith("<unnamed"):
            continue
        done.add(key)
        yield Occ("value-def", r.span, r.name.split("#")[0] if "#" in r.name else r.name, value=r, op=op)
    operand_keys: list[tuple[int, int]] = []
    for i, (v, sp) in enumerate(zip(op.operands, op.operand_spans)):
        operand_keys.append((sp.start, sp.end))
        kind = "undefined-use" if isinstance(v, UndefinedValue) else "value-use"
        yield Occ(kind, sp, v.name, value=v, op=op, index=i)
    for key, a in op.attributes.items():
        if key == "sym_name" and isinstance(a, StringAttr) and isinstance(a.span, Span) and len(a.span):
            yield Occ("symbol-def", a.span, "@" + a.value, op=op, attr=a, key=key)
            continue
        if key.startswith("__"):
            continue
        yield from _attr_occs(a, op, key, operand_keys, text)
    if syn is not None:
        for s in syn.successors:
            target = None
            region = op.parent.parent if op.parent is not None else None
            if region is not None:
                target = next((b for b in region.blocks if b.label == s.label), None)
            yield Occ("block-ref", Span(s.span.rel_start, s.span.rel_start + len(s.label), s.span.anchor), s.label, op=op, block=target)
        for t in (*(syn.operand_types or ()), *(syn.result_types or ())):
            yield from _type_occs(t, seen_types)
        holder = syn.attrs.get("__args")
        for _n, _sp, t in getattr(holder, "args", None) or ():
            yield from _type_occs(t, seen_types)
        ft = syn.attrs.get("function_type")
        if ft is not None:
            yield from _type_occs(getattr(ft, "type", None), seen_types)
    for ri, region in enumerate(op.regions):
        rsyn = syn.regions[ri] if syn is not None and ri < len(syn.regions) else None
        for bi, block in enumerate(region.blocks):
            bsyn = rsyn.blocks[bi] if rsyn is not None and bi < len(rsyn.blocks) else None
            lsp = block_label_span(block)
            if lsp is not None:
                yield Occ("block-def", lsp, block.label or "", block=block, op=op)
            for a in block.arguments:
                if len(a.span):
                    yield Occ("value-def", a.span, a.name, value=a, op=op, block=block)
            if bsyn is not None and op.name != "func.func":
                for _n, _sp, t in bsyn.args:
                    yield from _type_occs(t, seen_types)
            paired = bsyn is not None and len(bsyn.ops) == len(block.operations)
            for oi, child in enumerate(block.operations):
                yield from _op_occs(child, bsyn.ops[oi] if paired and bsyn is not None else None, seen_types, text)


def chunk_occurrences(chunk: Chunk) -> list[Occ]:
    """Every occurrence written in ``chunk`` (empty if it did not parse)."""
    item = item_syntax(chunk)
    if item is None:
        return []
    out: list[Occ] = []
    if isinstance(item, AliasDefSyn):
        out.append(Occ("alias-def", item.name_span, item.name))
        v = item.value
        if isinstance(v, AffineMapAttr):
            out.extend(_expr_occs(v.map.results, [], None, v, ""))
        elif isinstance(v, IntegerSetAttr):
            out.extend(_expr_occs(v.set.constraints, [], None, v, ""))
        elif isinstance(v, Type):
            out.extend(_type_occs(v, set()))
        elif isinstance(v, Attribute):
            out.extend(_attr_occs(v, None, "", []))
        return out
    op = chunk.ir_op
    if isinstance(item, OpSyn) and op is not None:
        out.extend(_op_occs(op, item, set(), chunk.text))
    return out


def occurrence_at(occs: Iterable[Occ], offset: int) -> Occ | None:
    """The most specific occurrence at ``offset`` (a cursor just past a name counts)."""
    best: Occ | None = None
    best_key: tuple[int, int, int] | None = None
    for o in occs:
        s, e = o.span.start, o.span.end
        if s <= offset < e:
            inside = 0
        elif offset == e and e > s:
            inside = 1
        else:
            continue
        key = (inside, KIND_PRIORITY.get(o.kind, 9), e - s)
        if best_key is None or key < best_key:
            best, best_key = o, key
    return best


def innermost_op(chunk: Chunk, offset: int) -> Operation | None:
    """The innermost op whose span contains ``offset``."""
    op = chunk.ir_op
    if op is None or not (op.span.start <= offset <= op.span.end):
        return None
    found = op
    while True:
        nxt = None
        for region in found.regions:
            for block in region.blocks:
                for child in block.operations:
                    if child.span.start <= offset <= child.span.end:
                        nxt = child
                        break
                if nxt is not None:
                    break
            if nxt is not None:
                break
        if nxt is None:
            return found
        found = nxt


def section_occurrences(section: Section, kinds: frozenset[str] | None = None, name: str | None = None) -> Iterator[Occ]:
    """Occurrences of the section (of these kinds; named ``name``: then only
    the chunks whose text mentions it are looked at)."""
    for c in section.chunks:
        if name is not None and name not in c.text:
            continue
        for o in chunk_occurrences(c):
            if (kinds is None or o.kind in kinds) and (name is None or o.name == name):
                yield o


def find_alias_def(section: Section, name: str) -> AliasDefSyn | None:
    table = section.aliases.types if name.startswith("!") else section.aliases.attrs
    return table.get(name)


def find_symbol(section: Section, name: str) -> Operation | None:
    """The op defining symbol ``@name`` in the section (functions, globals)."""
    bare = name[1:] if name.startswith("@") else name
    for c in section.chunks:
        op = c.ir_op
        if op is None:
            continue
        for o in op.walk():
            a = o.attributes.get("sym_name")
            if isinstance(a, StringAttr) and a.value == bare:
                return o
    return None
