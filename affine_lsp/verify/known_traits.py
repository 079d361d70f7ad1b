"""What the verifier knows about ops it does not verify in depth: traits.

MLIR decides dimension/symbol validity, dominance and terminator rules from
op traits and interfaces (``AffineScope``, ``IsIsolatedFromAbove``,
``ConstantLike``, ``Pure`` = speculatable and free of memory effects,
``IsTerminator``, ``NoTerminator``, region kinds). This module answers those
questions for an :class:`~affine_lsp.ir.core.Operation` of our IR, with three
possible answers where our knowledge ends:

* ``True`` / ``False`` when MLIR 22.1.8 is known to answer so;
* ``None`` ("unknown") for an op whose custom syntax affine-lsp could not
  parse (``op.known`` is False): it may be a registered op with any traits,
  so no diagnostic may depend on it.

Ops in the generic form whose dialect MLIR does not register (``"foo.bar"()``,
``"unknown"()``) are *unregistered* ops, as in ``mlir-opt
--allow-unregistered-dialect``: ``hasTrait`` is false for every trait (so they
are neither affine scopes nor isolated from above, never constant nor pure),
but ``mightHaveTrait`` is true (so they may terminate a block, and a
single-block region of theirs needs no terminator).
"""

from __future__ import annotations

from affine_lsp.ir import op_registry, op_traits
from affine_lsp.ir.attributes import IntegerAttr
from affine_lsp.ir.core import Operation
from affine_lsp.ir.types import IntegerType

Tri = bool | None

# The dialects mlir-opt registers and their ops: the op registry
# (:mod:`affine_lsp.ir.op_registry`, generated from MLIR 22.1.8).

# Traits come from the one registry of op facts, affine_lsp/ir/op_traits.py
# (MLIR 22.1.8's ODS): the answers below only add what to say for ops whose
# syntax was skipped (unknown) and for unregistered ops.

# What MLIR's verifier checks on these terminators before their IsTerminator
# trait ("must be the last operation in the parent block"). An op's traits are
# verified in a fixed order: the structural ones (operand, result, region and
# successor counts; HasParent / ParentOneOf), its ODS constraints
# (OpInvariants), the other traits (IsTerminator among them), then its
# verify(). Per op (measured with mlir-opt 22.1.8): the parents it may have
# (None: no parent trait; its verify() may check the parent, after) and its
# operands (None: any number of any type; n: exactly n of any type). For the
# ops of _TYPED_TERMINATOR_OPERANDS, n is 0: their operands have ODS type
# constraints that are not modelled (so with operands, we cannot tell).
# Terminators with successors are not
# listed: one in the middle of a block is "operation with block successors
# must terminate its parent block" (a block rule, checked first), one without
# successors fails its successor count.
_TERMINATOR_PRECONDITIONS: dict[str, tuple[frozenset[str] | None, int | None]] = {
    "affine.yield": (None, None),
    "func.return": (frozenset({"func.func"}), None),
    "scf.yield": (frozenset({"scf.execute_region", "scf.for", "scf.if", "scf.index_switch", "scf.while"}), None),
    "scf.reduce.return": (frozenset({"scf.reduce"}), 1),
    "async.yield": (frozenset({"async.execute"}), None),
    "gpu.return": (frozenset({"gpu.func"}), None),
    "gpu.terminator": (frozenset({"gpu.launch"}), 0),
    "gpu.yield": (None, None),
    "linalg.yield": (None, None),
    "memref.alloca_scope.return": (frozenset({"memref.alloca_scope"}), None),
    "omp.yield": (frozenset({"omp.atomic.update", "omp.declare_reduction", "omp.loop_nest", "omp.private"}), None),
    "shape.yield": (frozenset({"shape.reduce", "shape.function_library"}), None),
    "tensor.yield": (frozenset({"tensor.generate", "tensor.pad"}), 1),
    "vector.yield": (None, None),
    "llvm.return": (None, 0),
    "llvm.unreachable": (None, 0),
    "omp.terminator": (None, 0),
    "spirv.Return": (None, 0),
    "transform.yield": (None, 0),
    "ub.unreachable": (None, 0),
}
_TYPED_TERMINATOR_OPERANDS = frozenset({"llvm.return", "transform.yield"})

# Speculatability that MLIR computes in C++ (``getSpeculatability``), not
# stated by a trait: division-like ops are speculatable with a suitable
# constant divisor; ``memref.dim``/``tensor.dim`` with a constant index in
# range; ``affine.for`` with step 1 whose body is.
_SIGNED_DIV = frozenset({"arith.divsi", "arith.ceildivsi"})
_UNSIGNED_DIV = frozenset({"arith.divui", "arith.ceildivui", "arith.remui", "arith.remsi", "arith.floordivsi"})
_DIM_OPS = frozenset({"memref.dim", "tensor.dim"})


_UNREGISTERED: dict[str, bool] = {}
""":func:`is_unregistered` per op name (the verifier asks several times per op)."""


def is_unregistered(op: Operation) -> bool:
    """A generic-form op MLIR 22.1.8 does not register: of a dialect it
    does not have, or not an op of its (upstream) dialect."""
    if not op.known:
        return False
    name = op.name
    r = _UNREGISTERED.get(name)
    if r is None:
        if len(_UNREGISTERED) > 4096:  # bounded: names come from the text
            _UNREGISTERED.clear()
        r = _UNREGISTERED[name] = not op_registry.is_upstream_dialect(name.split(".", 1)[0] if "." in name else "") or op_registry.lookup(name) is None
    return r


def _forget() -> None:
    """The user's ops changed (:func:`affine_lsp.ir.op_registry.add_ops`)."""
    global _isolated_names
    _UNREGISTERED.clear()
    _isolated_names = None


def is_affine_scope(op: Operation) -> Tri:
    if not op.known:
        return None
    return op_traits.is_affine_scope(op.name)


_isolated_names: frozenset[str] | None = None
op_registry.on_change(_forget)


def is_isolated(op: Operation) -> Tri:
    # (asked several times per top-level item after every edit: one set
    # lookup, the set taken from op_traits once)
    global _isolated_names
    if not op.known:
        return None
    names = _isolated_names
    if names is None:
        names = _isolated_names = op_traits.isolated_from_above_ops()
    return op.name in names


def has_ssa_dominance(op: Operation) -> Tri:
    """Whether the regions of ``op`` are SSACFG regions (dominance applies)."""
    if not op.known:
        return None
    if is_unregistered(op):
        return False  # MLIR: the regions of an unregistered op have no SSA dominance
    return not op_traits.has_graph_regions(op.name)


def constant_int(op: Operation | None) -> int | None:
    """The integer value of a constant-like op (``m_ConstantInt``)."""
    if op is None or op.name != "arith.constant" or not op.known:
        return None
    a = op.attributes.get("value")
    if isinstance(a, IntegerAttr) and (a.type is None or a.type.is_index or isinstance(a.type, IntegerType)):
        return a.value
    return None


def is_constant_like(op: Operation) -> Tri:
    if not op.known:
        return None
    return op_traits.is_constant_like(op.name)


def _divisor_constant(op: Operation) -> int | None:
    if len(op.operands) < 2:
        return None
    rhs = op.operands[1]
    return constant_int(rhs.defining_op)


def _speculatable(op: Operation) -> Tri:
    if not op.known:
        return None
    name = op.name
    if op_traits.is_always_speculatable(name):
        return True
    if name in _SIGNED_DIV:
        c = _divisor_constant(op)
        return c is not None and c not in (0, -1)
    if name in _UNSIGNED_DIV:
        c = _divisor_constant(op)
        return c is not None and c != 0
    if name == "affine.for":
        step = op.attributes.get("step")
        if isinstance(step, IntegerAttr) and step.value != 1:
            return False
        return _nested_all(op, _speculatable)
    if op_traits.is_recursively_speculatable(name):
        return _nested_all(op, _speculatable)
    if name in _DIM_OPS:
        idx = constant_int(op.operands[1].defining_op) if len(op.operands) > 1 else None
        t = op.operands[0].type if op.operands else None
        rank = getattr(t, "rank", None)
        return idx is not None and rank is not None and 0 <= idx < rank
    return False


def _memory_effect_free(op: Operation) -> Tri:
    if not op.known:
        return None
    name = op.name
    if op_traits.has_recursive_effects(name):
        own = op_traits.memory_effects(name)
        if own == () or (own is None and not op_traits.has_trait(name, "MemoryEffectOpInterface")):
            return _nested_all(op, _memory_effect_free)
        return False
    return op_traits.is_memory_effect_free(name)


def _nested_all(op: Operation, pred: object) -> Tri:
    out: Tri = True
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                r = pred(inner)  # type: ignore[operator]
                if r is False:
                    return False
                if r is None:
                    out = None
    return out


def is_pure(op: Operation) -> Tri:
    """MLIR ``isPure``: speculatable and free of memory effects."""
    a = _speculatable(op)
    if a is False:
        return False
    b = _memory_effect_free(op)
    if b is False:
        return False
    if a is None or b is None:
        return None
    return True


def is_terminator(op: Operation) -> Tri:
    """``mightHaveTrait<IsTerminator>``: unregistered ops might."""
    if not op.known or is_unregistered(op):
        return None
    return op_traits.is_terminator(op.name)


def may_lack_terminator(op: Operation) -> Tri:
    """``mightHaveTrait<NoTerminator>`` for the parent op of a single-block region."""
    if not op.known or is_unregistered(op):
        return None
    return op_traits.has_no_terminator(op.name)


def reaches_terminator_trait(op: Operation) -> Tri:
    """Whether MLIR verifies the ``IsTerminator`` trait of ``op``: True when
    ``op`` is a registered terminator and every check made before the trait
    (structural traits, ODS constraints) is known to pass; False when ``op``
    is not a terminator or one of those checks fails (mlir-opt reports that
    error instead); None when we cannot tell."""
    term = is_terminator(op)
    if term is not True:
        return term
    pre = _TERMINATOR_PRECONDITIONS.get(op.name)
    if pre is None:
        return None
    parents, operands = pre
    if op.results or op.regions or op.successors:
        return False
    if operands is not None and len(op.operands) != operands:
        return None if op.name in _TYPED_TERMINATOR_OPERANDS else False
    if parents is not None:
        parent = op.parent_op
        if parent is None or not parent.known:
            return None
        if parent.name not in parents:
            return False
    return True
