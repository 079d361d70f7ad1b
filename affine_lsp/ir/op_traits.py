"""What an op is, by its name: the one answer to "is it pure, does it read or
write memory, is it a terminator, does it open an affine scope, is it
isolated from above, is it a view, which reduction kinds exist".

Every answer comes from the op registry (:mod:`affine_lsp.ir.op_registry`),
that is from MLIR 22.1.8's own ODS definitions (the ``.td`` files, read with
``llvm-tblgen`` by ``scripts/gen_op_registry.py``): the op's traits and
interfaces by their C++ names, and the memory effects it states in ODS
(``MemoryEffects<[...]>``, ``Arg<..., [MemRead]>``). The few facts the
analyses need that MLIR does not state as traits are at the end of this
module, marked as such.

These answers are for registered ops. What to answer for an op whose custom
syntax affine-lsp skipped (``op.known`` False: it may be anything) or an
unregistered generic op is the caller's decision (``verify/known_traits.py``
answers "unknown" for the former, MLIR's ``hasTrait`` false for the latter).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from affine_lsp.ir import op_registry
from affine_lsp.ir.types import MemRefType

if TYPE_CHECKING:
    from affine_lsp.ir.core import Operation


@dataclass(frozen=True)
class Effect:
    """One memory effect an op states in ODS: ``kind`` is ``read``,
    ``write``, ``alloc`` or ``free``; ``on`` is ``""`` (the op as a whole),
    ``"operand"`` or ``"result"``, and ``name`` that operand's or result's
    ODS name."""

    kind: str
    on: str = ""
    name: str = ""


def has_trait(name: str, trait: str) -> bool:
    """Whether the registered op ``name`` has the trait or interface
    ``trait`` (MLIR's C++ name: ``IsTerminator``, ``ViewLikeOpInterface``)."""
    return name in op_registry.ops_with_trait(trait)


# ---- structure ---------------------------------------------------------------


def is_terminator(name: str) -> bool:
    return has_trait(name, "IsTerminator")


def has_no_terminator(name: str) -> bool:
    """``NoTerminator``: the op's single-block regions need no terminator."""
    return has_trait(name, "NoTerminator")


def is_isolated_from_above(name: str) -> bool:
    return name in op_registry.ops_with_trait("IsIsolatedFromAbove")


def isolated_from_above_ops() -> frozenset[str]:
    """The names of the ops :func:`is_isolated_from_above` (for the
    verifier's loop over every top-level item)."""
    return op_registry.ops_with_trait("IsIsolatedFromAbove")


def is_affine_scope(name: str) -> bool:
    """``AffineScope``: the op's regions start a new scope of affine symbols."""
    return has_trait(name, "AffineScope")


def has_graph_regions(name: str) -> bool:
    """``RegionKindInterface``: every upstream op of MLIR 22.1.8 that has it
    (``builtin.module``, ``gpu.module``, ``scf.forall.in_parallel``, ...)
    says its regions are graph regions (no SSA dominance)."""
    return has_trait(name, "RegionKindInterface")


def default_dialect(name: str) -> str:
    """``OpAsmOpInterface::getDefaultDialect`` of the registered op ``name``:
    the dialect MLIR's parser tries for an unprefixed op name inside its
    regions (``func`` for ``func.func``, ``builtin`` for ``builtin.module``,
    ``transform`` for ``transform.sequence``); ``""`` for every other op
    and for an op the registry does not know (MLIR's default). The rule
    that uses it: :mod:`affine_lsp.syntax.default_dialect`."""
    info = op_registry.lookup(name)
    return info.default_dialect if info is not None else ""


def is_function(name: str) -> bool:
    """``FunctionOpInterface`` (``func.func``, ``gpu.func``, ``llvm.func``, ...)."""
    return has_trait(name, "FunctionOpInterface")


def is_view(name: str) -> bool:
    """``ViewLikeOpInterface``: the result is a view of the first operand."""
    return has_trait(name, "ViewLikeOpInterface")


def is_affine_read(name: str) -> bool:
    """``AffineReadOpInterface`` (``affine.load``, ``affine.vector_load``)."""
    return has_trait(name, "AffineReadOpInterface")


def is_affine_write(name: str) -> bool:
    """``AffineWriteOpInterface`` (``affine.store``, ``affine.vector_store``)."""
    return has_trait(name, "AffineWriteOpInterface")


def is_constant_like(name: str) -> bool:
    return has_trait(name, "ConstantLike")


# ---- memory effects and speculation -----------------------------------------------


@cache
def memory_effects(name: str) -> tuple[Effect, ...] | None:
    """The effects the op states in ODS (or, for the few ops of
    :data:`COMPUTED_EFFECTS`, those its C++ computes on memrefs); None when
    they are not known (MLIR's C++ computes them, or the op has no
    ``MemoryEffectOpInterface``: MLIR then assumes any effect).
    An op with ``RecursiveMemoryEffects`` has those of its regions on top."""
    info = op_registry.lookup(name)
    if info is None or info.effects is None:
        return COMPUTED_EFFECTS.get(name)
    out = []
    for e in info.effects:
        kind, _, rest = e.partition(":")
        on, _, who = rest.partition(":")
        out.append(Effect(kind, {"o": "operand", "r": "result"}.get(on, ""), who))
    return tuple(out)


op_registry.on_change(memory_effects.cache_clear)


def has_recursive_effects(name: str) -> bool:
    """``RecursiveMemoryEffects``: the effects of the op are those of the ops
    in its regions (plus any it states itself)."""
    return has_trait(name, "HasRecursiveMemoryEffects")


def is_memory_effect_free(name: str) -> bool:
    """The op itself states no memory effect (``NoMemoryEffect``, part of
    ``Pure``); its regions, if it has ``RecursiveMemoryEffects``, are not
    looked at."""
    return memory_effects(name) == ()


def allocation_effects_only(name: str) -> bool:
    """The op states effects and they only allocate or free (``memref.alloc``,
    ``memref.dealloc``): it reads and writes no memory another op sees."""
    effects = memory_effects(name)
    return bool(effects) and all(e.kind in ("alloc", "free") for e in effects or ())


def reads_memory(name: str) -> bool | None:
    """Whether the op states a read (None: its effects are not stated)."""
    effects = memory_effects(name)
    return None if effects is None else any(e.kind == "read" for e in effects)


def writes_memory(name: str) -> bool | None:
    """Whether the op states a write (None: its effects are not stated)."""
    effects = memory_effects(name)
    return None if effects is None else any(e.kind == "write" for e in effects)


def allocates(name: str) -> bool:
    """The op allocates its result (``MemAlloc`` on a result)."""
    return any(e.kind == "alloc" and e.on == "result" for e in memory_effects(name) or ())


def is_always_speculatable(name: str) -> bool:
    """``AlwaysSpeculatable`` (part of ``Pure``)."""
    return has_trait(name, "AlwaysSpeculatableImplTrait")


def is_recursively_speculatable(name: str) -> bool:
    """``RecursivelySpeculatable``: speculatable when its regions' ops are."""
    return has_trait(name, "RecursivelySpeculatableImplTrait")


def is_pure(name: str) -> bool:
    """MLIR's ``Pure`` trait list: always speculatable and free of memory
    effects (ops whose speculatability depends on their operands, such as
    ``arith.divsi``, are not; ``verify/known_traits.py`` decides those)."""
    return is_always_speculatable(name) and is_memory_effect_free(name)


# ---- reductions ---------------------------------------------------------------------


@cache
def atomic_rmw_kinds() -> tuple[str, ...]:
    """The keywords of ``arith::AtomicRMWKind`` (``affine.parallel``'s
    ``reduce``, ``memref.atomic_rmw``, ``affine.atomic_rmw``), in MLIR's
    order: a keyword's position is its integer value."""
    return op_registry.enum_values("arith.AtomicRMWKind")


@cache
def combining_kinds() -> tuple[str, ...]:
    """The keywords of ``vector::CombiningKind`` (``vector.reduction``,
    ``vector.contract``, ``vector.multi_reduction``)."""
    return op_registry.enum_values("vector.CombiningKind")


# ---- where an op is ------------------------------------------------------------------


def symbol_name(op: Operation) -> str | None:
    """The op's ``sym_name`` (a function's name without ``@``), or None."""
    a = op.attributes.get("sym_name")
    value = getattr(a, "value", None)
    return value if isinstance(value, str) else None


def function_op_names() -> frozenset[str]:
    """The names of the ops :func:`is_function` (for the loops over every
    top-level item after every edit)."""
    return op_registry.ops_with_trait("FunctionOpInterface")


def is_function_op(op: Operation) -> bool:
    """``op`` is a function (``FunctionOpInterface``): what the server
    analyses one at a time (:func:`is_function`, one call less: it is asked
    at every item after every edit)."""
    return op.known and op.name in op_registry.ops_with_trait("FunctionOpInterface")


def enclosing_function(op: Operation) -> Operation | None:
    """The nearest op around ``op`` (or ``op`` itself) that is a function
    (``FunctionOpInterface``)."""
    cur: Operation | None = op
    while cur is not None:
        if is_function_op(cur):
            return cur
        cur = cur.parent_op
    return None


# ---- facts of affine-lsp's analyses (not MLIR traits) ---------------------------------
#
# What the polyhedral model reads as an access (its own access relation,
# MLIR's AffineReadOpInterface/AffineWriteOpInterface plus the affine ops
# whose memref operands it models), and which ops it knows how to see
# through. They are choices of the analyses, written once here.

COMPUTED_EFFECTS: dict[str, tuple[Effect, ...]] = {
    "vector.transfer_read": (Effect("read", "operand", "base"),),
    "vector.transfer_write": (Effect("write", "operand", "base"),),
    "affine.prefetch": (Effect("read", "operand", "memref"),),
}
"""Effects that MLIR computes in C++ (``getEffects``) or leaves unstated,
for the ops the analyses meet, on memref operands: transfers read or write
their base; ``affine.prefetch`` (no ``MemoryEffectOpInterface`` in MLIR,
so MLIR assumes any effect) only hints a read to the cache, and the
analyses treat it as one."""

POLYHEDRAL_ACCESS_OPS = frozenset(
    {
        "affine.load",
        "affine.store",
        "affine.vector_load",
        "affine.vector_store",
        "affine.prefetch",
        "affine.dma_start",
        "vector.transfer_read",
        "vector.transfer_write",
    }
)
"""The ops whose memref accesses the polyhedral model represents exactly (a
vector transfer: the box of ``affine_ops.transfer_of``; one on a tensor
touches no memory)."""

MODELED_EFFECT_OPS = POLYHEDRAL_ACCESS_OPS | {"affine.dma_wait"}
"""Ops with memory effects that the dependence analyses account for (the
accesses above, and the DMA wait that completes a modeled ``dma_start``)."""


def has_unmodeled_effects(op: Operation) -> bool:
    """``op`` itself (not its regions) may touch memory in a way the
    dependence analyses do not model: not an access they model, not free of
    effects, not only allocating or freeing, not an op whose effects are
    those of its regions (the ops there are asked in turn)."""
    if not op.known:
        return True
    name = op.name
    if name in MODELED_EFFECT_OPS:
        return False
    effects = memory_effects(name)
    if has_recursive_effects(name) and (effects == () or (effects is None and not has_trait(name, "MemoryEffectOpInterface"))):
        return False
    if effects is None:
        return True
    return not all(e.kind in ("alloc", "free") for e in effects)


def unknown_extent_accesses(op: Operation) -> list[tuple[int, bool]]:
    """``(operand index, is_write)`` of each memref operand ``op`` reads or
    writes, when ``op`` is one of the user's ops (their dialects' ``.td``
    records, not one MLIR ships) whose stated effects are only reads and
    writes of operands (and allocations): the dependence analyses model each
    as an access of unknown extent of that memref (any element). Empty for
    any other op (an upstream op keeps MLIR's own modelling; one with an
    effect on no operand, or none stated, stays opaque)."""
    if not op_registry.has_user_ops() or not op.known or op.regions or op_registry.is_shipped(op.name):
        return []
    info = op_registry.lookup(op.name)
    effects = memory_effects(op.name)
    if info is None or not effects or not info.structured:
        return []
    segments = getattr(op.attributes.get("operandSegmentSizes"), "values", None)
    sizes = info.operand_group_sizes(len(op.operands), segments if segments is not None else op.operand_segments)
    if sizes is None or sum(sizes) != len(op.operands):
        return []
    start = {}
    k = 0
    for g, n in zip(info.operands, sizes):
        start[g.name] = (k, n)
        k += n
    out: list[tuple[int, bool]] = []
    for e in effects:
        if e.kind in ("alloc", "free"):
            continue
        if e.on != "operand" or e.name not in start:
            return []
        first, n = start[e.name]
        for i in range(first, first + n):
            if not isinstance(op.operands[i].type, MemRefType):
                return []
            out.append((i, e.kind == "write"))
    return sorted(set(out))


def view_source(op: Operation) -> bool:
    """Whether ``op`` is a view whose first operand is the memref it views
    (``ViewLikeOpInterface``: casts, subviews, reshapes ...)."""
    return op.known and is_view(op.name) and bool(op.operands)


def is_analysis_scope(op: Operation) -> bool:
    """Whether ``op`` starts an analysis scope: the polyhedral model of a
    function (or of a module's top level) is built per nearest op isolated
    from above, where the values of outer code cannot be seen."""
    return op.known and is_isolated_from_above(op.name)


def analysis_scopes(items: Iterable[Operation]) -> list[Operation]:
    """The ops the analyses run on, each once, in text order, given every
    top-level item op of a document (``Section.item_ops``): a function item
    is one (its body is its own); in another item, every function inside it
    and every other op isolated from above whose own top level holds an
    affine op; and a module whose top level holds an affine op (an item
    named ``affine.*``). The one answer the CLI's and the server's
    diagnostics, the parallel check and the transforms' safety net share."""
    out: list[Operation] = []
    seen: set[int] = set()
    names = function_op_names()

    def add(op: Operation | None) -> None:
        if op is not None and id(op) not in seen:
            seen.add(id(op))
            out.append(op)

    for item in items:
        if item.known and item.name in names:
            add(item)
            continue
        if item.name.startswith("affine."):
            add(item.parent_op)
        if not item.regions:
            continue
        for o in item.walk():
            if is_function_op(o) or (is_analysis_scope(o) and _holds_affine_op(o)):
                add(o)
    return out


def _holds_affine_op(op: Operation) -> bool:
    return any(o.name.startswith("affine.") for r in op.regions for b in r.blocks for o in b.operations)


def analysis_scope_of(op: Operation) -> Operation | None:
    """The nearest op strictly around ``op`` that starts an analysis scope."""
    for a in op.ancestors():
        if is_analysis_scope(a):
            return a
    return None
