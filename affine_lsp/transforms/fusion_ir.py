"""IR-level facts loop fusion needs: nests, what an op may do, memref roles.

Nothing here uses isl. The fusion engine only transforms what it can model
exactly; this module decides what that is, conservatively:

* :func:`screen_nest` -- can a loop nest take part in fusion (as the copied
  source, or as the destination that receives a copy)? Its memory effects
  must all be affine loads/stores the dependence engine models, its other
  ops side-effect free, and it must not produce values (``iter_args``).
* :func:`screen_between` -- may the ops between two nests be reordered with
  them? Same rules; calls, non-affine memory ops and ops of unknown syntax
  are refused.
* :func:`memref_dead_after` -- a buffer allocated in the block, never
  aliased, whose contents nobody reads after the two nests.

Unregistered ops written in MLIR's generic form (``"foo"(%x) : (f32) -> ()``)
without memref operands, results or regions are treated as side-effect free,
as MLIR's fusion pass does (it only looks at memref operands); everything else
with unknown semantics is refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from affine_lsp.ir import op_traits
from affine_lsp.ir.affine_ops import ACCESS_OPS, LOAD_OPS, STORE_OPS, ForView
from affine_lsp.ir.core import Block, BlockArgument, Operation, OpResult, Value
from affine_lsp.ir.types import MemRefType, UnrankedMemRefType

READ_OPS = LOAD_OPS
WRITE_OPS = STORE_OPS
CONTROL_OPS = frozenset({"affine.for", "affine.if", "affine.yield"})
OUTPUT_OPS = frozenset({"vector.print"})  # fusion keeps their order among themselves


def is_memref(v: Value) -> bool:
    return isinstance(v.type, MemRefType | UnrankedMemRefType)


def access_memref(op: Operation) -> Value | None:
    """The memref of an affine load/store (vector variants included)."""
    if op.name in READ_OPS and op.operands:
        return op.operands[0]
    if op.name in WRITE_OPS and len(op.operands) > 1:
        return op.operands[1]
    return None


def walk_accesses(root: Operation) -> Iterator[Operation]:
    for op in root.walk():
        if op.name in ACCESS_OPS:
            yield op


def enclosing_fors(op: Operation, stop: Operation | None = None) -> list[Operation]:
    """``affine.for`` ancestors of ``op`` (outermost first), below ``stop``."""
    out = []
    for a in op.ancestors():
        if a is stop:
            break
        if a.name == "affine.for":
            out.append(a)
    return out[::-1]


def for_iv(loop: Operation) -> BlockArgument | None:
    return ForView(loop).iv


def index_in_block(op: Operation) -> int:
    blk = op.parent
    assert blk is not None
    for i, o in enumerate(blk.operations):
        if o is op:
            return i
    raise ValueError("op not in its block")


def block_path(block: Block, scope: Operation) -> list[tuple[int, int, int]]:
    """``[(op index, region index, block index), ...]`` from ``scope``'s
    entry block down to ``block``: the same path finds the same block in a
    re-parsed copy of the function."""
    out: list[tuple[int, int, int]] = []
    cur = block
    while True:
        parent = cur.parent_op
        if parent is None:
            raise ValueError("block outside the scope")
        region = cur.parent
        assert region is not None
        ri = next(i for i, r in enumerate(parent.regions) if r is region)
        bi = next(i for i, b in enumerate(region.blocks) if b is cur)
        if parent is scope:
            out.append((-1, ri, bi))
            break
        out.append((index_in_block(parent), ri, bi))
        up = parent.parent
        if up is None:
            raise ValueError("block outside the scope")
        cur = up
    return out[::-1]


def find_block(scope: Operation, path: list[tuple[int, int, int]]) -> Block | None:
    """The block at ``path`` (see :func:`block_path`) under ``scope``."""
    blk: Block | None = None
    for k, (oi, ri, bi) in enumerate(path):
        if k == 0:
            op = scope
        else:
            if blk is None or not 0 <= oi < len(blk.operations):
                return None
            op = blk.operations[oi]
        if ri >= len(op.regions) or bi >= len(op.regions[ri].blocks):
            return None
        blk = op.regions[ri].blocks[bi]
    return blk


function_of = op_traits.enclosing_function


# ------------------------------------------------------------------ effects


def _has_memref_operand_or_result(op: Operation) -> bool:
    return any(is_memref(v) for v in op.operands) or any(is_memref(r) for r in op.results)


def classify_op(op: Operation) -> str:
    """``access``, ``control``, ``pure``, ``output`` or ``impure``.

    ``output`` ops (``vector.print``) have an effect visible only through
    their order among themselves; ``impure`` ops may touch memory or have
    effects fusion cannot reason about.
    """
    name = op.name
    if name in ACCESS_OPS:
        return "access"
    if name in CONTROL_OPS:
        return "control"
    if not op.known:
        return "impure"
    if _has_memref_operand_or_result(op):
        return "impure"
    if not op.regions and op_traits.is_memory_effect_free(name):
        return "pure"
    if name in OUTPUT_OPS:
        return "output"
    if not op.custom and "." not in name and not op.regions and not op.successors:
        # An unregistered op in generic form without memref operands: MLIR's
        # fusion pass treats it as memory-effect free; so do we.
        return "pure"
    return "impure"


@dataclass(frozen=True)
class Screen:
    ok: bool
    reason: str = ""


def screen_nest(nest: Operation, role: str) -> Screen:
    """Can ``nest`` be fused? ``role`` is ``src`` (it is copied: only pure
    ops, loads and stores) or ``dst`` (it receives a copy: output ops such as
    ``vector.print`` are allowed, their order does not change)."""
    if nest.name != "affine.for":
        return Screen(False, "not an affine.for")
    if nest.results:
        return Screen(False, "the loop returns values (iter_args)")
    local_defs: set[Value] = set()
    for op in nest.walk():
        kind = classify_op(op)
        if kind == "impure":
            return Screen(False, f"'{op.name}' may have side effects fusion cannot model")
        if kind == "output" and role == "src":
            return Screen(False, f"'{op.name}' would be executed in another order")
        if op.name == "affine.for" and op is not nest and ForView(op).inits and role == "src":
            # A reduction loop is copied whole only; slicing it would change
            # the value it returns. Checked later against the slice bounds.
            pass
        for r in op.results:
            local_defs.add(r)
        for a in (arg for reg in op.regions for b in reg.blocks for arg in b.arguments):
            local_defs.add(a)
    for op in walk_accesses(nest):
        m = access_memref(op)
        if m is None:
            return Screen(False, "malformed access")
        if m in local_defs:
            return Screen(False, f"memref {m.name} is defined inside the loop nest")
        if view_related(m):
            return Screen(False, f"memref {m.name} may be aliased (a view, a cast or an op of unknown syntax uses it)")
    return Screen(True)


def screen_between(ops: Iterable[Operation], touched: set[Value]) -> Screen:
    """May ``ops`` (between the two nests) be reordered with them?"""
    for top in ops:
        for op in top.walk():
            kind = classify_op(op)
            if kind == "pure" and not op.custom and "." not in op.name:
                # an unregistered op between the nests: unknown side effects
                return Screen(False, f"'{op.name}' between the loop nests has unknown side effects")
            if kind in ("access", "control", "pure"):
                if op.name in ACCESS_OPS:
                    m = access_memref(op)
                    if m is not None and view_related(m):
                        return Screen(False, f"memref {m.name} may be aliased (a view, a cast or an op of unknown syntax uses it)")
                continue
            if op is top and op.known and op_traits.allocates(op.name):
                continue
            if op is top and op.name == "memref.dealloc" and op.operands and op.operands[0] not in touched:
                continue
            return Screen(False, f"'{op.name}' between the loop nests has effects fusion cannot model")
    return Screen(True)


def view_related(m: Value) -> bool:
    """``m`` is produced by a view-like op, or is the source of one: it may
    alias another memref value."""
    owner = m.defining_op if isinstance(m, OpResult) else None
    if owner is not None and owner.known and op_traits.is_view(owner.name):
        return True
    return any((u.user.known and op_traits.is_view(u.user.name)) or (not u.user.known and u.user.name != "memref.dealloc") for u in m.uses)


def memref_dead_after(m: Value, block: Block, nests: Iterable[Operation]) -> bool:
    """``m`` is allocated in ``block`` and, besides affine accesses inside
    ``nests``, only deallocated after them: its contents after the nests are
    never read."""
    owner = m.defining_op if isinstance(m, OpResult) else None
    if owner is None or not owner.known or not op_traits.allocates(owner.name) or owner.parent is not block or view_related(m):
        return False
    roots = list(nests)
    last = max(index_in_block(r) for r in roots)
    for u in m.uses:
        if u.user.name in ACCESS_OPS and access_memref(u.user) is m and any(r is u.user or r.is_ancestor_of(u.user) for r in roots):
            continue
        if u.user.name == "memref.dealloc" and u.user.parent is block and index_in_block(u.user) > last:
            continue
        return False
    return True


def element_size(t: object) -> int | None:
    """Bytes of one element of a memref type (vector elements included)."""
    from affine_lsp.ir.types import FloatType, IndexType, IntegerType, VectorType

    if isinstance(t, MemRefType):
        t = t.element
    if isinstance(t, VectorType):
        inner = element_size(t.element)
        n = t.num_elements()
        return inner * n if inner is not None and n is not None else None
    if isinstance(t, FloatType | IntegerType):
        return (t.width + 7) // 8
    if isinstance(t, IndexType):
        return 8
    return None


def memrefs_accessed(root: Operation) -> tuple[set[Value], set[Value]]:
    """``(read, written)`` memrefs of the affine accesses under ``root``."""
    reads: set[Value] = set()
    writes: set[Value] = set()
    for op in walk_accesses(root):
        m = access_memref(op)
        if m is None:
            continue
        (writes if op.name in WRITE_OPS else reads).add(m)
    return reads, writes


def op_memrefs(op: Operation) -> tuple[set[Value], set[Value]]:
    """Conservative ``(read, written)`` memrefs of any op (nested ops
    included): affine accesses precisely, anything else with a memref
    operand reads and writes it."""
    reads: set[Value] = set()
    writes: set[Value] = set()
    for o in op.walk():
        if o.name in ACCESS_OPS:
            m = access_memref(o)
            if m is not None:
                (writes if o.name in WRITE_OPS else reads).add(m)
            continue
        for v in o.operands:
            if is_memref(v) and o.name not in ("memref.dim",):
                reads.add(v)
                writes.add(v)
    return reads, writes


def values_used_in(root: Operation) -> set[Value]:
    """Values used inside ``root`` and defined outside it."""
    inside: set[Value] = set()
    used: set[Value] = set()
    for o in root.walk():
        inside.update(o.results)
        for r in o.regions:
            for b in r.blocks:
                inside.update(b.arguments)
        used.update(o.operands)
    return used - inside
