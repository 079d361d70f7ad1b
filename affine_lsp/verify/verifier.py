"""The verifier driver: what mlir-opt 22.1.8 reports after parsing.

It follows MLIR's ``OperationVerifier`` (``mlir/lib/IR/Verifier.cpp``):

* every op isolated from above (``func.func``, ``builtin.module``) is
  verified on its own, and one failure stops the verification of that op
  (so there is at most one verifier error per function, as in mlir-opt);
* an op's invariants (ODS type constraints, then its ``verify()``) are checked
  before the ops nested in it; region invariants (``verifyRegions``, e.g. the
  bound operands of ``affine.for``) after them;
* dominance is checked only when every op of the isolated op verified.

Some of MLIR's errors are reported by its *parser* (custom-op syntax rules
that our grammar accepts, such as a multi-result loop bound without
``max``). Those "parse-class" checks run first; as in mlir-opt, a section
with a parse error is not verified (``strict=False`` relaxes this for
``affine-lsp check`` and the language server, see
``affine_lsp.diagnostics.verifier_notes``: then only the top-level items
with a parse error are skipped).

Every op check is wrapped: an internal error becomes an ``info`` note and
never escapes. Messages are MLIR's exact text; extra detail goes into
``data["related"]`` and quick fixes into ``data["fix"]``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from affine_lsp.ir.core import Block, BlockArgument, Operation, OpResult, Region, Span, Value
from affine_lsp.syntax.nodes import Note
from affine_lsp.verify import known_traits
from affine_lsp.verify.checks import Checker

__all__ = ["ForeignItem", "ItemCache", "verify_document", "verify_section"]


class ItemCache(Protocol):
    """What an incremental caller remembers per top-level item.

    Two results of a top-level item depend on nothing but the item's own IR
    (an op isolated from above sees no value, block or op outside itself):
    its parse-class check (``kind="parse"``) and, for an item with regions,
    its verification as an isolated op (``kind="verify"``). Both are
    ``(ok, notes)``. Everything else the verifier does with a section (its
    aliases, the module's own checks, the items without regions, which MLIR
    verifies only when every isolated item did, dominance at module level)
    is cheap and is done again every time, so a cached result never depends
    on the other items. ``lookup`` returns None when it has nothing for
    ``op`` (the same op object) or its notes are stale."""

    def lookup(self, op: Operation, kind: str) -> tuple[bool, list[Note]] | None: ...

    def store(self, op: Operation, kind: str, ok: bool, notes: list[Note]) -> None: ...


@dataclass(slots=True)
class ForeignItem:
    """The verifier's results for a top-level item of a section that another
    process built and verified (:mod:`affine_lsp.parallel`); this process
    holds a placeholder chunk for it, with its parse and IR notes. The two
    results are those an :class:`ItemCache` stores, None when the item was
    not checked (its chunk has errors, or a failed parse-class check or the
    module's flow stopped first)."""

    module: Operation  # the module op holding the item in this process's IR
    parse_check: tuple[bool, list[Note]] | None
    verified: tuple[bool, list[Note]] | None


def verify_document(
    doc: object, *, strict: bool = True, foreign: Mapping[int, Sequence[ForeignItem]] | None = None, cache: ItemCache | None = None
) -> list[Note]:
    """All verifier diagnostics of a :class:`~affine_lsp.source.document.Document`;
    ``foreign``: per section index, the results of its items verified in
    another process; ``cache``: see :func:`verify_section`."""
    out: list[Note] = []
    try:
        sections = doc.sections  # type: ignore[attr-defined]
        text = doc.text  # type: ignore[attr-defined]
        line_of = doc.lines.line_of  # type: ignore[attr-defined]
    except Exception as e:  # pragma: no cover - a broken document must not take the CLI down
        return [Note("info", f"internal verifier error: {e!r}", Span(0, 0), "internal")]
    for section in sections:
        try:
            out.extend(verify_section(section, text, line_of, strict=strict, cache=cache, foreign=foreign.get(section.index, ()) if foreign else ()))
        except Exception as e:  # pragma: no cover - defensive
            out.append(Note("info", f"internal verifier error: {e!r}", Span(section.start, section.start), "internal"))
    return out


def _has_errors(notes: list[Note]) -> bool:
    return any(n.severity == "error" for n in notes)


def _items(section: object) -> list[tuple[object, Operation | None]]:
    """(chunk, top-level op) for every chunk of the section that holds an op."""
    out = []
    for c in section.chunks:  # type: ignore[attr-defined]
        op = c.ir_op
        if c.kind == "item" and isinstance(op, Operation):
            out.append((c, op))
    return out


def verify_section(
    section: object,
    text: str,
    line_of: Callable[[int], int] | None = None,
    *,
    strict: bool = True,
    cache: ItemCache | None = None,
    foreign: Sequence[ForeignItem] = (),
) -> list[Note]:
    """Verifier diagnostics for one ``// -----`` section; with ``cache``, the
    per-item results it holds are reused (see :class:`ItemCache`); with
    ``foreign``, those of the items verified in another process are added
    where one process would have found them."""
    chunk_errors = {}
    for c in section.chunks:  # type: ignore[attr-defined]
        parse = c.parse
        notes = (list(parse.notes) if parse is not None else []) + list(c.ir_notes)
        chunk_errors[id(c)] = _has_errors(notes)
    section_bad = any(chunk_errors.values()) or _has_errors(list(section.notes))  # type: ignore[attr-defined]
    if strict and section_bad:
        return []
    checker = Checker(text, line_of)
    out: list[Note] = []
    # Parse-class checks: one error per top-level item, as the parser does.
    parse_failed: set[int] = set()
    for alias in getattr(section.aliases, "attrs", {}).values():  # type: ignore[attr-defined]
        note = checker.guard(alias.name_span, lambda a=alias: checker.check_alias(a))
        if note is not None:
            out.append(note)
    items = _items(section)
    broken = getattr(section.aliases, "broken", None)  # aliases whose definition has a syntax error
    for c, op in items:
        if chunk_errors.get(id(c)) or (broken and not broken.isdisjoint(c.alias_refs)):
            # (an item naming an alias in error is not verified: its value is unknown)
            parse_failed.add(id(op))
            continue
        hit = cache.lookup(op, "parse") if cache is not None else None
        if hit is None:
            found: list[Note] = []
            parse_checks = checker.parse_checks
            for o in op.walk():
                note = checker.guard(o.name_span, parse_checks, o)
                if note is not None:
                    found.append(note)
                    break
            if cache is not None:
                cache.store(op, "parse", not found, found)
        else:
            found = hit[1]
        if found:
            out.extend(found)
            parse_failed.add(id(op))
    foreign_failed = False
    for f in foreign:
        if f.parse_check is not None and not f.parse_check[0]:
            out.extend(f.parse_check[1])
            foreign_failed = True
    if strict and (out or parse_failed or foreign_failed):
        return out
    # Verification proper.
    checker.symbols_complete = (
        not parse_failed
        and not foreign
        and all(
            c.ir_op is not None
            for c in section.chunks
            if c.kind == "item"  # type: ignore[attr-defined]
        )
    )
    checker.skipped_items = frozenset(parse_failed)
    v = _Verifier(checker, skip=set(parse_failed) if not strict else set())
    if cache is not None:
        v.cache, v.items = cache, {id(op) for _, op in items}
    # An isolated item that failed stops its module's own checks, as here.
    v.failed_inside = {id(f.module) for f in foreign if f.verified is not None and not f.verified[0]}
    v.verify_isolated(section.module)  # type: ignore[attr-defined]
    out.extend(v.notes)
    for f in foreign:
        if f.verified is not None:
            out.extend(f.verified[1])
    return out


class _Verifier:
    def __init__(self, checker: Checker, skip: set[int]) -> None:
        self.c = checker
        self.notes: list[Note] = []
        self.skip = skip
        self.cache: ItemCache | None = None
        self.items: set[int] = set()  # the top-level items (whose results go to the cache)
        self.failed_inside: set[int] = set()  # modules holding an item that failed in another process

    # ------------------------------------------------------------ driver
    def emit(self, note: Note | None) -> bool:
        if note is None:
            return True
        self.notes.append(note)
        return False

    def run(self, op: Operation, fn: Callable[..., Note | None], *args: object) -> bool:
        return self.emit(self.c.guard(op.name_span, fn, *args))

    def verify_isolated(self, op: Operation) -> bool:
        """``verifyOpAndDominance``."""
        if id(op) in self.skip:
            return True
        if not self.verify_operation(op):
            return False
        if op.regions:
            try:
                note = self.verify_dominance(op)
            except Exception as e:  # pragma: no cover - defensive
                note = Note("info", f"internal verifier error (dominance): {e!r}", op.name_span, "internal")
            return self.emit(note)
        return True

    def _verify_item(self, op: Operation) -> bool:
        """``verify_isolated(op)``, through the cache for a top-level item."""
        cache = self.cache
        if cache is None or id(op) not in self.items or id(op) in self.skip:
            return self.verify_isolated(op)
        hit = cache.lookup(op, "verify")
        if hit is not None:
            self.notes.extend(hit[1])
            return hit[0]
        n = len(self.notes)
        ok = self.verify_isolated(op)
        cache.store(op, "verify", ok, self.notes[n:])
        return ok

    def verify_operation(self, op: Operation) -> bool:
        if id(op) in self.skip:
            return True
        c = self.c
        guard = c.guard
        entrance, exit_check = c.hooks(op)
        if entrance is not None and not self.emit(guard(op.name_span, entrance, c, op)):
            return False
        # Isolated nested ops are verified independently (in parallel in
        # MLIR), when the op is left: after the other nested ops.
        deferred: list[Operation] = []
        for region in op.regions:
            for block in region.blocks:
                if not self.emit(guard(op.name_span, c.block_entrance, block)):
                    return False
                for o in block.operations:
                    if _deferred(o):
                        deferred.append(o)
                    elif not self.verify_operation(o):
                        return False
                if not self.emit(guard(op.name_span, c.block_exit, block)):
                    return False
        ok = True
        for o in deferred:
            ok = self._verify_item(o) and ok
        if not ok or id(op) in self.failed_inside:
            return False
        # (The root module encloses every value: no check, also because the
        # incremental verifier passes a view of it whose body is not the ops' parent.)
        if op.parent is not None and known_traits.is_isolated(op) and not self.run(op, lambda: self._isolation(op)):
            return False
        return exit_check is None or self.run(op, exit_check, c, op)

    def _isolation(self, iso: Operation) -> Note | None:
        """``verifyIsIsolatedFromAbove``: no op inside uses a value defined
        outside (nested isolated ops check themselves)."""
        for region in iso.regions:
            pending = [region]
            inside = {id(region)}  # regions known to lie in ``region``: those walked
            while pending:
                for block in pending.pop().blocks:
                    for o in block.operations:
                        for v in o.operands:
                            if _is_undefined(v):
                                continue
                            blk = v.parent_block
                            where = blk.parent if blk is not None else None
                            if where is not None and id(where) not in inside and not _region_is_proper_ancestor(region, where):
                                return self.c.op_error(
                                    o, "using value defined outside the region", related=[(iso.name_span, "required by region isolation constraints")]
                                )
                        if o.regions and not known_traits.is_isolated(o):
                            pending.extend(o.regions)
                            inside.update(map(id, o.regions))
        return None

    # ------------------------------------------------------------ dominance
    def verify_dominance(self, op: Operation) -> Note | None:
        """``verifyDominanceOfContainedRegions``."""
        dom = _Dominance()
        return self._dominance_regions(op, dom)

    def _dominance_regions(self, op: Operation, dom: _Dominance) -> Note | None:
        # MLIR's worklist order (the first violation is the one reported): the
        # ops of a region before those nested in them, the last nested op first.
        worklist = [op]
        while worklist:
            cur = worklist.pop()
            ssa = known_traits.has_ssa_dominance(cur)
            for region in cur.regions:
                for block in region.blocks:
                    check = ssa is not None and dom.reachable(block)
                    # The ops of this block before ``o`` (in an SSACFG block,
                    # those whose results dominate ``o``; in a graph region
                    # every op of the block does): a definition in the same
                    # block, the common case, is decided without the walk of
                    # properly_dominates_value.
                    before: set[int] = set()
                    for o in block.operations:
                        # Every use is checked (the region of the definition
                        # decides), unless the op's syntax was skipped.
                        if check:
                            here = o.parent is block
                            for i, v in enumerate(o.operands):
                                if not here:
                                    pass
                                elif type(v) is OpResult:
                                    d = v.owner
                                    if d is not None and d.parent is block and (id(d) in before or not ssa):
                                        continue
                                elif type(v) is BlockArgument and v.owner is block:
                                    continue
                                if _is_undefined(v):
                                    continue
                                if not dom.properly_dominates_value(v, o):
                                    return self._dominance_note(o, i, v)
                            before.add(id(o))
                        if o.regions and not _isolated_or_unknown(o):
                            worklist.append(o)
        return None

    def _dominance_note(self, op: Operation, index: int, v: Value) -> Note:
        span = op.operand_spans[index] if index < len(op.operand_spans) else op.name_span
        related: list[tuple[Span, str]] = []
        d = v.defining_op
        if d is not None:
            b1, b2 = op.parent, d.parent
            r1 = b1.parent if b1 else None
            r2 = b2.parent if b2 else None
            if b1 is b2:
                where = " (op in the same block)"
            elif r1 is r2:
                where = " (op in the same region)"
            elif _region_is_proper_ancestor(r2, r1):
                where = " (op in a parent region)"
            elif _region_is_proper_ancestor(r1, r2):
                where = " (op in a child region)"
            else:
                where = " (op is neither in a parent nor in a child region)"
            related.append((d.name_span, "operand defined here" + where))
        elif isinstance(v, BlockArgument) and v.owner is not None:
            blk = v.owner
            r2 = blk.parent
            r1 = op.parent.parent if op.parent else None
            owner_op = blk.parent_op
            idx = r2.blocks.index(blk) if r2 is not None and blk in r2.blocks else 0
            if r1 is r2:
                rel = " in the same region)"
            elif _region_is_proper_ancestor(r2, r1):
                rel = " in a parent region)"
            elif _region_is_proper_ancestor(r1, r2):
                rel = " in a child region)"
            else:
                rel = " neither in a parent nor in a child region)"
            loc = owner_op.name_span if owner_op is not None else v.span
            related.append((loc, f"operand defined as a block argument (block #{idx}" + rel))
        related.append((span, f"{v.name} is used here"))
        return Note("error", f"operand #{index} does not dominate this use", op.name_span, "dominance", {"related": related})


def _is_undefined(v: Value) -> bool:
    return type(v).__name__ == "UndefinedValue"


def _deferred(op: Operation) -> bool:
    """Verified on its own, after the other ops nested in its parent: an op
    isolated from above (a declaration too: MLIR's has an empty region) or
    an op with regions whose syntax was skipped."""
    iso = known_traits.is_isolated(op)
    return iso is True or (iso is None and bool(op.regions))


def _isolated_or_unknown(op: Operation) -> bool:
    iso = known_traits.is_isolated(op)
    return iso is None or bool(iso)


def _region_is_proper_ancestor(a: Region | None, b: Region | None) -> bool:
    """``a`` strictly encloses ``b``."""
    if a is None or b is None or a is b:
        return False
    r: Region | None = b
    while r is not None:
        op = r.parent
        blk = op.parent if op is not None else None
        r = blk.parent if blk is not None else None
        if r is a:
            return True
    return False


class _Dominance:
    """Dominance in SSACFG regions (MLIR ``DominanceInfo``), computed lazily."""

    def __init__(self) -> None:
        self._doms: dict[int, tuple[dict[int, set[int]], set[int]]] = {}

    def _region_info(self, region: Region) -> tuple[dict[int, set[int]], set[int]]:
        key = id(region)
        hit = self._doms.get(key)
        if hit is not None:
            return hit
        blocks = region.blocks
        ids = [id(b) for b in blocks]
        succ: dict[int, list[int]] = {}
        pos = {id(b): b for b in blocks}
        for b in blocks:
            t = b.terminator
            succ[id(b)] = [id(s) for s in (t.successors if t is not None else []) if id(s) in pos]
        reach: set[int] = set()
        if blocks:
            stack = [ids[0]]
            while stack:
                x = stack.pop()
                if x in reach:
                    continue
                reach.add(x)
                stack.extend(succ.get(x, []))
        preds: dict[int, list[int]] = {i: [] for i in ids}
        for a, ss in succ.items():
            for s in ss:
                preds[s].append(a)
        doms: dict[int, set[int]] = {}
        order = [i for i in ids if i in reach]
        allset = set(order)
        for i in order:
            doms[i] = {i} if i == ids[0] else set(allset)
        changed = True
        while changed:
            changed = False
            for i in order[1:]:
                ps = [doms[p] for p in preds[i] if p in reach]
                new = set.intersection(*ps) if ps else set()
                new = new | {i}
                if new != doms[i]:
                    doms[i] = new
                    changed = True
        self._doms[key] = (doms, reach)
        return doms, reach

    def reachable(self, block: Block) -> bool:
        region = block.parent
        if region is None or region.blocks[0] is block:  # (the entry block)
            return True
        _, reach = self._region_info(block.parent)
        return id(block) in reach

    def _block_dominates(self, a: Block, b: Block) -> bool:
        if a is b:
            return True
        region = a.parent
        if region is None:
            return False
        anc = _ancestor_block_in_region(region, b)
        if anc is None:
            return False
        if anc is a:
            return True
        doms, reach = self._region_info(region)
        if id(anc) not in reach:
            return True
        return id(a) in doms.get(id(anc), set())

    def properly_dominates_value(self, v: Value, user: Operation) -> bool:
        if isinstance(v, BlockArgument):
            if v.owner is None or user.parent is None:
                return True
            return self._block_dominates(v.owner, user.parent)
        d = v.defining_op
        if d is None:
            return True
        return self._properly_dominates_op(d, user)

    def _properly_dominates_op(self, a: Operation, b: Operation) -> bool:
        a_block = a.parent
        if a_block is None or b.parent is None:
            return True
        if a is b:
            return not _ssa(a_block)
        a_region = a_block.parent
        if a_region is not b.parent.parent:
            anc = _ancestor_op_in_region(a_region, b) if a_region is not None else None
            if anc is None:
                return False
            b = anc
            if a is b:
                return not _ssa(a_block)  # a use inside `a`'s own regions: only in a graph region
        b_block = b.parent
        if b_block is a_block:
            if not _ssa(a_block):
                return True
            ops = a_block.operations
            return _index(ops, a) < _index(ops, b)
        if a_region is None or b_block is None:
            return True
        doms, reach = self._region_info(a_region)
        if id(b_block) not in reach:
            return True
        return a_block is not b_block and id(a_block) in doms.get(id(b_block), set())


def _index(ops: list[Operation], op: Operation) -> int:
    for i, o in enumerate(ops):
        if o is op:
            return i
    return -1


def _ssa(block: Block) -> bool:
    op = block.parent_op
    if op is None:
        return False
    r = known_traits.has_ssa_dominance(op)
    return r is not False


def _ancestor_op_in_region(region: Region, op: Operation) -> Operation | None:
    cur: Operation | None = op
    while cur is not None:
        blk = cur.parent
        if blk is None:
            return None
        if blk.parent is region:
            return cur
        cur = blk.parent_op
    return None


def _ancestor_block_in_region(region: Region, block: Block) -> Block | None:
    cur: Block | None = block
    while cur is not None:
        if cur.parent is region:
            return cur
        op = cur.parent_op
        cur = op.parent if op is not None else None
    return None
