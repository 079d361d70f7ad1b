"""The one place that decides whether an SSA value is a valid affine
dimension or symbol at a given use.

This mirrors ``mlir/lib/Dialect/Affine/IR/AffineOps.cpp`` of MLIR 22.1.8:
``isTopLevelValue``, ``getAffineScope``, ``isValidSymbol(Value, Region*)``,
``isValidDim(Value, Region*)``, ``isDimOpValidSymbol`` and
``isMemRefSizeValidSymbol``. The rules MLIR 22.1.8 applies (more than the six
of the dialect documentation):

A value of ``index`` type is a valid **symbol** for a use whose affine scope
(the region of the closest ancestor op with the ``AffineScope`` trait:
``func.func``, ``builtin.module``, ``gpu.func``) is ``R`` when

1. it is defined at the top level of ``R`` or is an argument of ``R``;
2. it is the result of a constant op (``arith.constant``, ``ub.poison``);
3. it is the result of a *pure* op (speculatable and without memory effects:
   ``affine.apply``, ``affine.min``/``max``, ``arith.addi``, ``arith.muli``,
   ``arith.divsi`` by a non-zero constant, ...) whose operands are all valid
   symbols for ``R``;
4. it is the result of ``memref.dim``/``tensor.dim`` whose memref is defined
   at the top level of an affine scope, or is produced (through
   ``memref.cast``) by ``memref.alloc``/``view``/``subview`` with a static
   size or a valid-symbol size in the (constant) dimension asked for;
5. it dominates the op holding ``R`` (the check moves up to the enclosing
   region, as long as that op is not isolated from above).

A value is a valid **dimension** when it is a valid symbol, an induction
variable of ``affine.for``/``affine.parallel``, the result of
``affine.apply``/``affine.delinearize_index``/``affine.linearize_index``
whose operands are all valid dimensions, or the result of a dim op whose
memref is defined at the top level of an affine scope.

Every answer is ``True``, ``False`` or ``None`` ("unknown": an op whose custom
syntax affine-lsp skipped decided it). The verifier reports only ``False``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from affine_lsp.ir import op_traits
from affine_lsp.ir.attributes import StringAttr
from affine_lsp.ir.core import BlockArgument, Operation, Region, Value
from affine_lsp.ir.types import MemRefType, UnrankedMemRefType
from affine_lsp.verify import known_traits
from affine_lsp.verify.known_traits import Tri

__all__ = [
    "DimSymInfo",
    "affine_scope",
    "classify",
    "describe_op",
    "is_affine_induction_var",
    "is_top_level_value",
    "is_valid_dim",
    "is_valid_symbol",
]

LineOf = Callable[[int], int]


@dataclass(frozen=True, slots=True)
class DimSymInfo:
    """How a value may be bound at one use.

    ``is_symbol``/``is_dim`` are MLIR's answers (False also when unknown; see
    ``certain``); ``reason`` names the rule that made the value a symbol or a
    dimension, or says why it is neither.
    """

    is_symbol: bool
    is_dim: bool
    reason: str
    certain: bool = True
    symbol_reason: str = ""
    dim_reason: str = ""


@dataclass(frozen=True, slots=True)
class _Ans:
    ok: Tri
    why: str


# --------------------------------------------------------------------------- helpers


def describe_op(op: Operation | None, line_of: LineOf | None = None) -> str:
    """A short human description: ``func.func @f``, ``affine.for %i`` (+ line)."""
    if op is None:
        return "<none>"
    text = op.name
    if op_traits.is_function_op(op):
        sym = op_traits.symbol_name(op)
        if sym is not None:
            text += f" @{sym}"
    elif op.name == "builtin.module":
        sym = op.attributes.get("sym_name")
        text = f"builtin.module @{sym.value}" if isinstance(sym, StringAttr) else "the top-level builtin.module"
    elif op.name in ("affine.for", "affine.parallel", "scf.for", "scf.parallel"):
        blk = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
        if blk is not None and blk.arguments:
            n = 1 if op.name in ("affine.for", "scf.for") else len(blk.arguments)
            text += " " + ", ".join(a.name for a in blk.arguments[:n])
    if line_of is not None and op.name != "builtin.module":
        text += f" at line {line_of(op.name_span.start) + 1}"
    return text


def _region_op(region: Region | None) -> Operation | None:
    return region.parent if region is not None else None


def _parent_region(op: Operation) -> Region | None:
    blk = op.parent
    return blk.parent if blk is not None else None


def affine_scope(op: Operation) -> tuple[Region | None, Tri]:
    """MLIR ``getAffineScope``: the region of the closest ancestor of ``op``
    with the ``AffineScope`` trait, and whether that answer is certain (an
    unknown op on the way might have been a scope)."""
    cur = op
    certain: Tri = True
    while True:
        parent = cur.parent_op
        if parent is None:
            return None, certain
        scope = known_traits.is_affine_scope(parent)
        if scope:
            return _parent_region(cur), certain
        if scope is None:
            certain = None
        cur = parent


def is_top_level_value(value: Value, region: Region | None = None) -> Tri:
    """``isTopLevelValue(value, region)``, or without ``region`` MLIR's
    ``isTopLevelValue(value)``: defined immediately inside an AffineScope op."""
    if region is not None:
        if isinstance(value, BlockArgument):
            return value.owner is not None and value.owner.parent is region
        op = value.defining_op
        return op is not None and op.parent is not None and op.parent.parent is region
    if isinstance(value, BlockArgument):
        parent = value.owner.parent_op if value.owner is not None else None
    else:
        d = value.defining_op
        parent = d.parent_op if d is not None else None
    if parent is None:
        return False
    return known_traits.is_affine_scope(parent)


def is_affine_induction_var(value: Value) -> bool:
    """``isAffineInductionVar``: the IV of an affine.for or an affine.parallel."""
    if not isinstance(value, BlockArgument) or value.owner is None:
        return False
    blk = value.owner
    op = blk.parent_op
    if op is None or blk.parent is None or not blk.parent.blocks or blk.parent.blocks[0] is not blk:
        return False
    if op.name == "affine.for":
        return value.index == 0
    return op.name == "affine.parallel"


def is_certainly_valid_dim(value: Value) -> bool:
    """A quick yes for the commonest valid dimension, an index-typed affine
    induction variable, without building the reasons :func:`is_valid_dim`
    gives (whose answer for such a value is True in every region)."""
    return _is_index(value) is True and is_affine_induction_var(value)


def _is_index(value: Value) -> Tri:
    t = value.type
    if t is None:
        return None
    return t.is_index


def _type_reason(value: Value) -> str:
    return f"{value.name} has type '{value.type}', not 'index'" if value.type is not None else f"the type of {value.name} is unknown"


def _where_defined(value: Value, line_of: LineOf | None) -> str:
    if isinstance(value, BlockArgument):
        owner = value.owner.parent_op if value.owner is not None else None
        return f"a block argument of {describe_op(owner, line_of)}"
    op = value.defining_op
    return f"defined by {describe_op(op, line_of)}"


def _tri_all(items: list[Tri]) -> Tri:
    if any(x is False for x in items):
        return False
    if any(x is None for x in items):
        return None
    return True


# --------------------------------------------------------------------------- symbols


class _Ctx:
    """Memo for one query (values are visited once per region)."""

    def __init__(self, line_of: LineOf | None) -> None:
        self.line_of = line_of
        self.sym: dict[tuple[int, int], _Ans] = {}
        self.dim: dict[tuple[int, int], _Ans] = {}


def _symbol(value: Value, region: Region | None, ctx: _Ctx) -> _Ans:
    key = (id(value), id(region))
    hit = ctx.sym.get(key)
    if hit is not None:
        return hit
    ctx.sym[key] = _Ans(False, "recursive definition")  # cycles (invalid IR) are not symbols
    ans = _symbol_impl(value, region, ctx)
    ctx.sym[key] = ans
    return ans


def _scope_desc(region: Region | None, ctx: _Ctx) -> str:
    return describe_op(_region_op(region), ctx.line_of) if region is not None else "no affine scope"


def _symbol_impl(value: Value, region: Region | None, ctx: _Ctx) -> _Ans:
    lo = ctx.line_of
    idx = _is_index(value)
    if idx is False:
        return _Ans(False, _type_reason(value))
    if region is not None and is_top_level_value(value, region):
        if isinstance(value, BlockArgument):
            return _Ans(idx, f"{value.name} is a region argument of {_scope_desc(region, ctx)}, an affine scope")
        return _Ans(idx, f"{value.name} is defined at the top level of {_scope_desc(region, ctx)}, an affine scope")
    def_op = value.defining_op
    if def_op is None:
        return _dominance(value, region, ctx, f"{value.name} is {_where_defined(value, lo)}, not a top-level value of {_scope_desc(region, ctx)}")
    if not def_op.known:
        return _Ans(None, f"{value.name} is defined by '{def_op.name}', whose syntax affine-lsp does not know")
    const = known_traits.is_constant_like(def_op)
    if const:
        return _Ans(idx, f"{value.name} is the result of a constant op ({def_op.name})")
    pure = known_traits.is_pure(def_op)
    pending: _Ans | None = None
    if pure is not False:
        subs = [_symbol(v, region, ctx) for v in def_op.operands]
        allok = _tri_all([s.ok for s in subs])
        if allok is not False and pure is True and allok is True:
            what = "whose operands are all valid symbols" if def_op.operands else "without operands"
            return _Ans(idx, f"{value.name} is the result of a pure op ({def_op.name}) {what}")
        if allok is not False:
            pending = _Ans(None, f"{value.name} is the result of {def_op.name}, whose purity is unknown")
    if def_op.name in ("memref.dim", "tensor.dim"):
        ans = _dim_op_symbol(def_op, region, ctx)
        if ans.ok is False and pending is not None:
            return pending
        return _Ans(idx if ans.ok else ans.ok, f"{value.name} {ans.why}")
    ans = _dominance(value, region, ctx, f"{value.name} is {_where_defined(value, lo)}, not at the top level of {_scope_desc(region, ctx)}")
    if ans.ok is False and pending is not None:
        return pending
    if ans.ok is True:
        return _Ans(idx, ans.why)
    return ans


def _dominance(value: Value, region: Region | None, ctx: _Ctx, why_not: str) -> _Ans:
    """Rule 5: a value dominating the op that holds ``region`` is a symbol
    there, unless that op is isolated from above."""
    rop = _region_op(region)
    if rop is None:
        return _Ans(False, why_not)
    iso = known_traits.is_isolated(rop)
    if iso:
        return _Ans(False, why_not)
    parent_region = _parent_region(rop)
    if parent_region is None:
        return _Ans(False if iso is False else None, why_not)
    ans = _symbol(value, parent_region, ctx)
    if iso is None and ans.ok is False:
        return _Ans(None, why_not)
    return ans


def _dim_op_symbol(dim_op: Operation, region: Region | None, ctx: _Ctx) -> _Ans:
    """``isDimOpValidSymbol``."""
    if not dim_op.operands:
        return _Ans(False, "is the result of a malformed dim op")
    shaped = dim_op.operands[0]
    top = is_top_level_value(shaped)
    if top:
        return _Ans(True, f"is the result of {dim_op.name} on {shaped.name}, which is defined at the top level of an affine scope")
    if isinstance(shaped, BlockArgument):
        return _Ans(
            top if top is None else False, f"is the result of {dim_op.name} on {shaped.name}, a block argument that is not at the top level of an affine scope"
        )
    index = known_traits.constant_int(dim_op.operands[1].defining_op) if len(dim_op.operands) > 1 else None
    if index is None:
        unknown = len(dim_op.operands) > 1 and dim_op.operands[1].defining_op is not None and not dim_op.operands[1].defining_op.known
        return _Ans(None if unknown or top is None else False, f"is the result of {dim_op.name} on {shaped.name} (not top-level) with a non-constant dimension")
    op = shaped.defining_op
    while op is not None and op.name == "memref.cast":
        src = op.operands[0] if op.operands else None
        if src is None or isinstance(src.type, UnrankedMemRefType):
            return _Ans(False, f"is the result of {dim_op.name} on a cast of an unranked memref")
        op = src.defining_op
    if op is None:
        return _Ans(False, f"is the result of {dim_op.name} on a cast of a block argument")
    if not op.known:
        return _Ans(None, f"is the result of {dim_op.name} on the result of '{op.name}', whose syntax affine-lsp does not know")
    if op.name in ("memref.alloc", "memref.view", "memref.subview"):
        return _memref_size_symbol(op, index, dim_op, region, ctx)
    return _Ans(
        top if top is None else False,
        f"is the result of {dim_op.name} on {shaped.name}, which is {_where_defined(shaped, ctx.line_of)} (not at the top level of an affine scope, nor an alloc/view/subview)",
    )


def _memref_size_symbol(op: Operation, index: int, dim_op: Operation, region: Region | None, ctx: _Ctx) -> _Ans:
    """``isMemRefSizeValidSymbol``."""
    t = op.results[0].type if op.results else None
    if not isinstance(t, MemRefType):
        return _Ans(None, f"is the result of {dim_op.name} on {op.name} of unknown type")
    if index < 0 or index >= t.rank:
        return _Ans(False, f"is the result of {dim_op.name} of dimension {index}, out of bounds for a rank-{t.rank} memref")
    if t.shape[index] is not None:
        return _Ans(True, f"is the result of {dim_op.name} of static dimension {index} of a memref from {op.name}")
    dyn_pos = sum(1 for d in t.shape[:index] if d is None)
    if op.name == "memref.alloc":
        sizes = op.segment(0) if op.operand_segments else list(op.operands)
    elif op.name == "memref.view":
        sizes = op.segment(2) if op.operand_segments and len(op.operand_segments) > 2 else []
    else:
        sizes = op.segment(2) if op.operand_segments and len(op.operand_segments) > 2 else []
    if dyn_pos >= len(sizes):
        return _Ans(None, f"is the result of {dim_op.name} on {op.name} with a dynamic size we cannot find")
    size = sizes[dyn_pos]
    ans = _symbol(size, region, ctx)
    if ans.ok:
        return _Ans(ans.ok, f"is the result of {dim_op.name} of dynamic dimension {index}, whose size {size.name} is a valid symbol")
    return _Ans(ans.ok, f"is the result of {dim_op.name} of dynamic dimension {index}, whose size {size.name} is not a valid symbol ({ans.why})")


# --------------------------------------------------------------------------- dims


def _dim(value: Value, region: Region | None, ctx: _Ctx) -> _Ans:
    key = (id(value), id(region))
    hit = ctx.dim.get(key)
    if hit is not None:
        return hit
    ctx.dim[key] = _Ans(False, "recursive definition")
    ans = _dim_impl(value, region, ctx)
    ctx.dim[key] = ans
    return ans


def _dim_impl(value: Value, region: Region | None, ctx: _Ctx) -> _Ans:
    idx = _is_index(value)
    if idx is False:
        return _Ans(False, _type_reason(value))
    sym = _symbol(value, region, ctx)
    if sym.ok is True:
        return _Ans(idx, sym.why + " (a valid symbol)")
    def_op = value.defining_op
    if def_op is None:
        if is_affine_induction_var(value):
            owner = value.parent_block.parent_op if value.parent_block is not None else None
            return _Ans(idx, f"{value.name} is the induction variable of {describe_op(owner, ctx.line_of)}")
        return _Ans(sym.ok, sym.why)
    if not def_op.known:
        return _Ans(None, sym.why)
    if def_op.name in ("affine.apply", "affine.delinearize_index", "affine.linearize_index"):
        subs = [_dim(v, region, ctx) for v in def_op.operands]
        ok = _tri_all([s.ok for s in subs])
        if ok:
            return _Ans(idx, f"{value.name} is the result of {def_op.name} whose operands are all valid dimensions")
        bad = next((s for s in subs if s.ok is False), None)
        if ok is False and bad is not None:
            return _Ans(False, f"{value.name} is the result of {def_op.name} with an operand that is not a valid dimension: {bad.why}")
        return _Ans(sym.ok if sym.ok is None else ok, sym.why)
    if def_op.name in ("memref.dim", "tensor.dim") and def_op.operands:
        top = is_top_level_value(def_op.operands[0])
        if top:
            return _Ans(idx, f"{value.name} is the result of {def_op.name} on a memref defined at the top level of an affine scope")
        if top is None:
            return _Ans(None, sym.why)
        return _Ans(sym.ok, sym.why)
    return _Ans(sym.ok, sym.why)


# --------------------------------------------------------------------------- API


def is_valid_symbol(value: Value, region: Region | None, line_of: LineOf | None = None) -> tuple[Tri, str]:
    """MLIR ``isValidSymbol(value, region)`` with the reason."""
    a = _symbol(value, region, _Ctx(line_of))
    return a.ok, a.why


def is_valid_dim(value: Value, region: Region | None, line_of: LineOf | None = None) -> tuple[Tri, str]:
    """MLIR ``isValidDim(value, region)`` with the reason."""
    a = _dim(value, region, _Ctx(line_of))
    return a.ok, a.why


def classify(value: Value, user_op: Operation, line_of: LineOf | None = None) -> DimSymInfo:
    """Whether ``value`` may be bound to a symbol / a dimension by ``user_op``.

    The affine scope is that of ``user_op`` (rule 5 is location sensitive).
    ``line_of`` (offset -> 0-based line, e.g. ``doc.lines.line_of``) makes
    the reasons mention source lines.
    """
    region, certain_scope = affine_scope(user_op)
    ctx = _Ctx(line_of)
    s = _symbol(value, region, ctx)
    d = _dim(value, region, ctx)
    certain = s.ok is not None and d.ok is not None and certain_scope is not None
    if s.ok:
        reason = s.why
    elif d.ok:
        reason = d.why
    else:
        reason = d.why if d.why else s.why
    return DimSymInfo(bool(s.ok), bool(d.ok), reason, certain, s.why, d.why)
