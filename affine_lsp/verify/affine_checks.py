"""Checks of the affine ops, as MLIR 22.1.8 performs them.

* ``PARSE_CHECKS``: rules of the custom parsers (``AffineOps.cpp``
  ``parse``): operand/map arity, ``max``/``min`` prefixes, reduction kinds,
  and the ``index`` type every map operand is resolved with.
* ``ENTRANCE``: ``verifyInvariants`` (ODS type constraints, then the traits,
  then ``verify()``), run before the nested ops.
* ``EXIT``: ``verifyRegionInvariants`` (``affine.for``'s ``verifyRegions``),
  run after the nested ops.
"""

from __future__ import annotations

from collections.abc import Sequence

from affine_lsp.ir import op_traits
from affine_lsp.ir.affine_expr import AffineMap, IntegerSet
from affine_lsp.ir.attributes import (
    AffineMapAttr,
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    IntegerAttr,
    IntegerSetAttr,
    OpaqueAttr,
    StringAttr,
)
from affine_lsp.ir.core import Block, Operation, Span, Value
from affine_lsp.ir.types import INDEX, FloatType, IntegerType, MemRefType, Type, VectorType
from affine_lsp.syntax.nodes import Note
from affine_lsp.verify import dimsym, known_traits
from affine_lsp.verify.checks import Checker, CheckFn, is_index, tstr

IMPLICIT_YIELD_OPS = frozenset({"affine.for", "affine.if", "affine.parallel"})


_DYNAMIC = -(2**63)


# --------------------------------------------------------------------------- helpers


def _map(op: Operation, key: str) -> AffineMap | None:
    a = op.attributes.get(key)
    return a.map if isinstance(a, AffineMapAttr) else None


def _attr_span(op: Operation, key: str) -> Span:
    a = op.attributes.get(key)
    sp = getattr(a, "span", None)
    return sp if isinstance(sp, Span) and len(sp) else op.name_span


def _int(op: Operation, key: str, default: int) -> int:
    a = op.attributes.get(key)
    return a.value if isinstance(a, IntegerAttr) else default


def _segments(op: Operation) -> tuple[int, ...] | None:
    if op.operand_segments is not None:
        return op.operand_segments
    sizes = _ints(op.attributes.get("operandSegmentSizes"))
    return tuple(sizes) if sizes is not None else None


def _seg(op: Operation, i: int) -> list[int]:
    """Operand indices of segment ``i`` (custom form: parser segments;
    generic form: the ``operandSegmentSizes`` attribute)."""
    segs = _segments(op)
    if segs is None:
        return list(range(len(op.operands))) if i == 0 else []
    if i >= len(segs):
        return []
    start = sum(segs[:i])
    return list(range(start, min(start + segs[i], len(op.operands))))


def _bound_map(op: Operation, lower: bool) -> AffineMap | None:
    """``affine.for`` bound maps: ``lowerBoundMap`` in 22.1.8's generic form."""
    if lower:
        return _map(op, "lower_bound") or _map(op, "lowerBoundMap")
    return _map(op, "upper_bound") or _map(op, "upperBoundMap")


def _undefined(v: Value) -> bool:
    return type(v).__name__ == "UndefinedValue"


def _ints(a: Attribute | None) -> list[int] | None:
    """Elements of an ArrayAttr of integers, a DenseArrayAttr, or ``dense<..>``."""
    if isinstance(a, ArrayAttr):
        return [e.value for e in a.elements if isinstance(e, IntegerAttr)]
    if isinstance(a, DenseArrayAttr):
        return [int(v) for v in a.values]
    if isinstance(a, OpaqueAttr) and a.spelling.startswith("dense<"):
        body = a.spelling[len("dense<") : a.spelling.rfind(">")].strip().strip("[]")
        try:
            vals = [int(x) for x in body.replace(" ", "").split(",") if x]
        except ValueError:
            return None
        t = a.type
        shape = getattr(t, "shape", None)
        if shape and len(vals) == 1 and shape[0] is not None and shape[0] != 1:
            return vals * shape[0]
        return vals
    return None


def _memref(v: Value | None) -> MemRefType | None:
    return v.type if v is not None and isinstance(v.type, MemRefType) else None


def _memref_ok(v: Value) -> bool | None:
    if _undefined(v) or v.type is None:
        return None
    return isinstance(v.type, MemRefType)


# --------------------------------------------------------------------------- parse checks


def _parse_apply(c: Checker, op: Operation) -> Note | None:
    n = c.resolve_as(op, range(len(op.operands)), INDEX)
    if n is not None:
        return n
    m = _map(op, "map")
    if m is None:
        return None
    nd = _int(op, "__num_dim_operands", m.num_dims)
    if m.num_dims != nd or nd + m.num_symbols != len(op.operands):
        return c.custom_error(op, "dimension or symbol index mismatch")
    named = [r for r in op.results if not r.name.startswith("<")]
    if named and len(named) != m.num_results:
        return c.error(f"operation defines {m.num_results} results but was provided {len(named)} to bind", named[0].span, code="syntax")
    return None


def _parse_minmax(c: Checker, op: Operation) -> Note | None:
    return c.resolve_as(op, range(len(op.operands)), INDEX)


def _parse_for(c: Checker, op: Operation) -> Note | None:
    for seg, key, kw_key, nd_key, lower in ((0, "lower_bound", "__lb_kw", "__lb_num_dims", True), (1, "upper_bound", "__ub_kw", "__ub_num_dims", False)):
        idxs = _seg(op, seg)
        n = c.resolve_as(op, idxs, INDEX)
        if n is not None:
            return n
        m = _map(op, key)
        if m is None:
            continue
        nd = _int(op, nd_key, m.num_dims)
        if m.num_dims != nd:
            return c.custom_error(op, "dim operand count and affine map dim count must match")
        if nd + m.num_symbols != len(idxs):
            return c.custom_error(op, "symbol operand count and affine map symbol count must match")
        if m.num_results > 1 and not isinstance(op.attributes.get(kw_key), StringAttr):
            word, kw = ("lower", "max") if lower else ("upper", "min")
            at = _attr_span(op, key)
            fix = {"title": f"Add the '{kw}' prefix", "edits": [{"start": at.start, "end": at.start, "new_text": f"{kw} "}]}
            related = [(at, f"the {word} bound map has {m.num_results} results; '{kw}' takes the {'largest' if lower else 'smallest'}")]
            return c.custom_error(op, f"{word} loop bound affine map with multiple results requires '{kw}' prefix", Span(at.start, at.start), related, fix)
    inits = _seg(op, 2)
    types = [r.type for r in op.results]
    return c.resolve_as(op, inits, lambda i: types[inits.index(i)] if inits.index(i) < len(types) else None)


def _parse_if(c: Checker, op: Operation) -> Note | None:
    n = c.resolve_as(op, range(len(op.operands)), INDEX)
    if n is not None:
        return n
    a = op.attributes.get("condition")
    if not isinstance(a, IntegerSetAttr):
        return None
    s = a.set
    nd = _int(op, "__num_dim_operands", s.num_dims)
    if s.num_dims != nd:
        return c.custom_error(op, "dim operand count and integer set dim count must match")
    if nd + s.num_symbols != len(op.operands):
        return c.custom_error(op, "symbol operand count and integer set symbol count must match")
    return None


def _parse_parallel(c: Checker, op: Operation) -> Note | None:
    n = c.resolve_as(op, range(len(op.operands)), INDEX)
    if n is not None:
        return n
    red = op.attributes.get("reductions")
    if isinstance(red, ArrayAttr):
        for e in red.elements:
            if isinstance(e, StringAttr) and e.value not in op_traits.atomic_rmw_kinds():
                related = [(e.span, "valid kinds: " + ", ".join(f'"{k}"' for k in op_traits.atomic_rmw_kinds()))]
                return c.custom_error(op, f'invalid reduction value: "{e.value}"', e.span, related)
    return None


def _parse_prefetch(c: Checker, op: Operation) -> Note | None:
    n = c.resolve_as(op, range(1, len(op.operands)), INDEX)
    if n is not None:
        return n
    rw = op.attributes.get("__rw_word")
    if isinstance(rw, StringAttr) and rw.value not in ("read", "write"):
        return c.custom_error(op, "rw specifier has to be 'read' or 'write'")
    cache = op.attributes.get("__cache_word")
    if isinstance(cache, StringAttr) and cache.value not in ("data", "instr"):
        return c.custom_error(op, "cache type has to be 'data' or 'instr'")
    return None


def _parse_dma_start(c: Checker, op: Operation) -> Note | None:
    idx: list[int] = []
    for seg in range(3):
        idx.extend(_seg(op, seg)[1:])
    idx.extend(_seg(op, 3))
    return c.resolve_as(op, idx, INDEX)


def _parse_dma_wait(c: Checker, op: Operation) -> Note | None:
    n = c.resolve_as(op, range(1, len(op.operands)), INDEX)
    if n is not None:
        return n
    if op.operands and op.operands[0].type is not None and not isinstance(op.operands[0].type, MemRefType) and not _undefined(op.operands[0]):
        return c.custom_error(op, "expected tag to be of memref type")
    return None


def _parse_index_ops(c: Checker, op: Operation) -> Note | None:
    return c.resolve_as(op, range(len(op.operands)), INDEX)


PARSE_CHECKS: dict[str, CheckFn] = {
    "affine.apply": _parse_apply,
    "affine.min": _parse_minmax,
    "affine.max": _parse_minmax,
    "affine.for": _parse_for,
    "affine.if": _parse_if,
    "affine.parallel": _parse_parallel,
    "affine.prefetch": _parse_prefetch,
    "affine.dma_start": _parse_dma_start,
    "affine.dma_wait": _parse_dma_wait,
    "affine.delinearize_index": _parse_index_ops,
    "affine.linearize_index": _parse_index_ops,
}


# --------------------------------------------------------------------------- op invariants


def _result_index(c: Checker, op: Operation) -> Note | None:
    for i, r in enumerate(op.results):
        n = c.result_constraint(op, i, is_index(r.type), "index")
        if n is not None:
            return n
    return None


def _verify_apply(c: Checker, op: Operation) -> Note | None:
    m = _map(op, "map")
    if m is None:
        return c.op_error(op, "requires attribute 'map'")
    n = c.variadic_index(op, range(len(op.operands))) or _result_index(c, op)
    if n is not None:
        return n
    if len(op.operands) != m.num_inputs:
        return c.op_error(op, "operand count and affine map dimension and symbol count must match")
    if m.num_results != 1:
        return c.op_error(op, "mapping must produce one value")
    region, certain = dimsym.affine_scope(op)
    if certain is None:
        return None
    for i in range(m.num_dims, len(op.operands)):
        v = op.operands[i]
        if _undefined(v):
            continue
        d, dwhy = dimsym.is_valid_dim(v, region, c.line_of)
        s, swhy = dimsym.is_valid_symbol(v, region, c.line_of)
        if d is True and s is False:
            span = op.operand_spans[i] if i < len(op.operand_spans) else op.name_span
            return c.error(
                "dimensional operand cannot be used as a symbol",
                op.name_span,
                [(span, f"{v.name} is a valid dimension ({dwhy}) but not a valid symbol: {swhy}"), (v.span, f"{v.name} is defined here")],
            )
    return None


def _verify_minmax(c: Checker, op: Operation) -> Note | None:
    m = _map(op, "map")
    if m is None:
        return c.op_error(op, "requires attribute 'map'")
    n = c.variadic_index(op, range(len(op.operands))) or _result_index(c, op)
    if n is not None:
        return n
    if len(op.operands) != m.num_inputs:
        return c.op_error(op, "operand count and affine map dimension and symbol count must match")
    if m.num_results == 0:
        return c.op_error(op, "affine map expect at least one result")
    return None


def _verify_for(c: Checker, op: Operation) -> Note | None:
    return c.variadic_index(op, _seg(op, 0) + _seg(op, 1))


def _body(op: Operation) -> object:
    if not op.regions or not op.regions[0].blocks:
        return None
    return op.regions[0].blocks[0]


def _exit_for(c: Checker, op: Operation) -> Note | None:
    n = _implicit_terminator_trait(c, op)
    if n is not None:
        return n
    body = _body(op)
    args = getattr(body, "arguments", [])
    if body is None or not args or is_index(args[0].type) is False:
        return c.op_error(op, "expected body to have a single index argument for the induction variable")
    lb, ub = _bound_map(op, True), _bound_map(op, False)
    if lb is None or ub is None:
        return None
    if lb.num_inputs > 0:
        n = c.dim_sym_ids(op, _seg(op, 0), lb.num_dims)
        if n is not None:
            return n
    if ub.num_inputs > 0:
        n = c.dim_sym_ids(op, _seg(op, 1), ub.num_dims)
        if n is not None:
            return n
    if lb.num_results < 1:
        return c.op_error(op, "expected lower bound map to have at least one result")
    if ub.num_results < 1:
        return c.op_error(op, "expected upper bound map to have at least one result")
    nres = len(op.results)
    if nres == 0:
        return None
    if len(_seg(op, 2)) != nres:
        return c.op_error(op, "mismatch between the number of loop-carried values and results")
    if len(args) - 1 != nres:
        return c.op_error(op, "mismatch between the number of basic block args and results")
    return None


def _implicit_terminator_trait(c: Checker, op: Operation) -> Note | None:
    """``SingleBlockImplicitTerminator<AffineYieldOp>`` (region trait)."""
    for i, region in enumerate(op.regions):
        if not region.blocks:
            continue
        if len(region.blocks) != 1:
            return c.op_error(op, f"expects region #{i} to have 0 or 1 blocks")
        blk = region.blocks[0]
        if not blk.operations:
            if op.custom:
                continue
            return c.op_error(op, "expects a non-empty block")
        last = blk.operations[-1]
        if last.name == "affine.yield" or not last.known or implicit_yield(op, blk):
            continue
        return c.op_error(
            op,
            f"expects regions to end with 'affine.yield', found '{last.name}'",
            [(last.name_span, "in custom textual format, the absence of terminator implies 'affine.yield'")],
        )
    return None


def implicit_yield(op: Operation, block: Block) -> bool:
    """Whether the custom parser of ``op`` appended an ``affine.yield`` to
    ``block`` (``ensureTerminator``: unless the block already ends with a
    registered terminator)."""
    if not op.custom or op.name not in IMPLICIT_YIELD_OPS:
        return False
    if not block.operations:
        return True
    last = block.operations[-1]
    return last.known and (known_traits.is_unregistered(last) or known_traits.is_terminator(last) is False)


def _verify_if(c: Checker, op: Operation) -> Note | None:
    a = op.attributes.get("condition")
    for i, region in enumerate(op.regions):
        if region.blocks and region.blocks[0].arguments:
            if len(op.regions) > 1:
                return c.op_error(op, f"region #{i} should have no arguments", [(region.blocks[0].span, "this block has arguments")])
            return c.op_error(op, "region should have no arguments")
    if not isinstance(a, IntegerSetAttr):
        return c.op_error(op, "requires an integer set attribute named 'condition'")
    s: IntegerSet = a.set
    if len(op.operands) != s.num_inputs:
        return c.op_error(op, "operand count and condition integer set dimension and symbol count must match")
    return c.dim_sym_ids(op, range(len(op.operands)), s.num_dims)


def _exit_if(c: Checker, op: Operation) -> Note | None:
    n = _implicit_terminator_trait(c, op)
    if n is not None:
        return n
    # RegionBranchOpInterface: without an else region, control flows from the
    # op straight back to its results, which needs as many values as results.
    if op.results and len(op.regions) > 1 and not op.regions[1].blocks:
        return c.op_error(
            op,
            f"along control flow edge from parent to parent: region branch point has 0 operands, but region successor needs {len(op.results)} inputs",
            [(op.name_span, "region branch point")],
        )
    return None


def _indexing(c: Checker, op: Operation, memref: MemRefType, first_index: int) -> Note | None:
    """``verifyMemoryOpIndexing``."""
    m = _map(op, "map")
    if m is None:
        return c.op_error(op, "requires attribute 'map'")
    if m.num_results != memref.rank:
        return c.op_error(
            op, "affine map num results must equal memref rank", [(_attr_span(op, "map"), f"{m.num_results} subscript(s) for a rank-{memref.rank} memref")]
        )
    idxs = list(range(first_index, len(op.operands)))
    if m.num_inputs != len(idxs):
        return c.op_error(op, "expects as many subscripts as affine map inputs")
    for i in idxs:
        if is_index(op.operands[i].type) is False:
            return c.op_error(op, "index to load must have 'index' type")
    return c.dim_sym_ids(op, idxs, m.num_dims)


def _verify_load(c: Checker, op: Operation) -> Note | None:
    if not op.operands:
        return None
    n = c.operand_constraint(op, 0, _memref_ok(op.operands[0]), "memref of any type values") or c.variadic_index(op, range(1, len(op.operands)))
    if n is not None:
        return n
    mt = _memref(op.operands[0])
    if mt is None:
        return None
    rt = op.results[0].type if op.results else None
    if rt is not None and rt != mt.element:
        return c.op_error(op, "result type must match element type of memref")
    return _indexing(c, op, mt, 1)


def _verify_store(c: Checker, op: Operation) -> Note | None:
    if len(op.operands) < 2:
        return None
    n = c.operand_constraint(op, 1, _memref_ok(op.operands[1]), "memref of any type values") or c.variadic_index(op, range(2, len(op.operands)))
    if n is not None:
        return n
    mt = _memref(op.operands[1])
    if mt is None:
        return None
    vt = op.operands[0].type
    if vt is not None and not _undefined(op.operands[0]) and vt != mt.element:
        return c.op_error(op, "value to store must have the same type as memref element type")
    return _indexing(c, op, mt, 2)


def _vector_ok(t: Type | None) -> bool | None:
    if t is None:
        return None
    return isinstance(t, VectorType) and t.rank > 0


def _vector_elem(c: Checker, op: Operation, mt: MemRefType, vt: Type | None) -> Note | None:
    if isinstance(vt, VectorType) and mt.element != vt.element:
        return c.op_error(op, "requires memref and vector types of the same elemental type")
    return None


def _verify_vector_load(c: Checker, op: Operation) -> Note | None:
    if not op.operands:
        return None
    n = c.operand_constraint(op, 0, _memref_ok(op.operands[0]), "memref of any type values") or c.variadic_index(op, range(1, len(op.operands)))
    if n is None and op.results:
        n = c.result_constraint(op, 0, _vector_ok(op.results[0].type), "vector of any type values")
    if n is not None:
        return n
    mt = _memref(op.operands[0])
    if mt is None:
        return None
    return _indexing(c, op, mt, 1) or _vector_elem(c, op, mt, op.results[0].type if op.results else None)


def _verify_vector_store(c: Checker, op: Operation) -> Note | None:
    if len(op.operands) < 2:
        return None
    v0 = op.operands[0]
    n = None if _undefined(v0) else c.operand_constraint(op, 0, _vector_ok(v0.type), "vector of any type values")
    n = n or c.operand_constraint(op, 1, _memref_ok(op.operands[1]), "memref of any type values") or c.variadic_index(op, range(2, len(op.operands)))
    if n is not None:
        return n
    mt = _memref(op.operands[1])
    if mt is None:
        return None
    return _indexing(c, op, mt, 2) or _vector_elem(c, op, mt, v0.type)


def check_yield(c: Checker, parent: Operation | None, operands: Sequence[Value], at: Span, implicit: bool = False) -> Note | None:
    """``AffineYieldOp::verify`` for a yield (explicit or implicit) in ``parent``."""
    related = [(at, "the affine.yield implied by the custom syntax")] if implicit else None

    def err(msg: str, more: list | None = None) -> Note:
        return c.error(f"'affine.yield' op {msg}", at, (related or []) + (more or []) or None)

    if parent is None or parent.name not in IMPLICIT_YIELD_OPS:
        if parent is not None and not parent.known:
            return None
        return err("only terminates affine.if/for/parallel regions")
    if len(parent.results) != len(operands):
        return err(
            "parent of yield must have same number of results as the yield operands",
            [(parent.name_span, f"{parent.name} has {len(parent.results)} result(s), the yield {len(operands)} operand(s)")],
        )
    for r, v in zip(parent.results, operands, strict=False):
        if r.type is not None and v.type is not None and not _undefined(v) and r.type != v.type:
            return err("types mismatch between yield op and its parent", [(v.span, f"{v.name} has type '{v.type}', the result '{r.type}'")])
    return None


def _verify_yield(c: Checker, op: Operation) -> Note | None:
    return check_yield(c, op.parent_op, op.operands, op.name_span)


def _reduction_matches(kind: str, t: Type | None) -> bool | None:
    if t is None:
        return None
    if kind in ("addf", "mulf", "maximumf", "minimumf"):
        return isinstance(t, FloatType)
    if kind in ("addi", "muli", "ori", "andi"):
        return isinstance(t, IntegerType)
    if kind == "assign":
        return True
    if kind in ("maxs", "mins"):
        return isinstance(t, IntegerType) and t.signedness == "s"
    if kind in ("maxu", "minu"):
        return isinstance(t, IntegerType) and t.signedness == "u"
    return False


def _verify_parallel(c: Checker, op: Operation) -> Note | None:
    n = c.variadic_index(op, range(len(op.operands)))
    if n is not None:
        return n
    body = _body(op)
    nargs = len(getattr(body, "arguments", []))
    lg = _ints(op.attributes.get("lowerBoundsGroups")) or []
    ug = _ints(op.attributes.get("upperBoundsGroups")) or []
    steps = _ints(op.attributes.get("steps")) or []
    nd = len(steps)
    if len(lg) != nd or len(ug) != nd or nargs != nd:
        return c.op_error(
            op,
            f"the number of region arguments ({nargs}) and the number of map groups for lower ({len(lg)}) and upper bound ({len(ug)}), "
            f"and the number of steps ({len(steps)}) must all match",
        )
    lm, um = _map(op, "lowerBoundsMap"), _map(op, "upperBoundsMap")
    if lm is None or um is None:
        return None
    for groups, m, word in ((lg, lm, "lower"), (ug, um, "upper")):
        total = 0
        for g in groups:
            if g == 0:
                return c.op_error(op, f"expected {word} bound map to have at least one result")
            total += g
        if total != m.num_results:
            return c.op_error(op, f"expected {word} bounds map to have {total} results")
    red = op.attributes.get("reductions")
    kinds = [e.value if isinstance(e, StringAttr) else None for e in red.elements] if isinstance(red, ArrayAttr) else []
    if len(kinds) != len(op.results):
        return c.op_error(op, "a reduction must be specified for each output", [(op.name_span, f"{len(op.results)} result(s), {len(kinds)} reduction(s)")])
    for k, r in zip(kinds, op.results, strict=False):
        if k is None or k not in op_traits.atomic_rmw_kinds():
            return c.op_error(op, "invalid reduction attribute")
        if _reduction_matches(k, r.type) is False:
            return c.op_error(op, "result type cannot match reduction attribute", [(op.name_span, f"\"{k}\" cannot reduce a value of type '{r.type}'")])
    lidx = list(range(lm.num_inputs)) if op.operand_segments is None else _seg(op, 0)
    uidx = list(range(lm.num_inputs, len(op.operands))) if op.operand_segments is None else _seg(op, 1)
    return c.dim_sym_ids(op, lidx, lm.num_dims) or c.dim_sym_ids(op, uidx, um.num_dims)


def _exit_parallel(c: Checker, op: Operation) -> Note | None:
    return _implicit_terminator_trait(c, op)


def _verify_prefetch(c: Checker, op: Operation) -> Note | None:
    if not op.operands:
        return None
    n = c.operand_constraint(op, 0, _memref_ok(op.operands[0]), "memref of any type values") or c.variadic_index(op, range(1, len(op.operands)))
    if n is not None:
        return n
    hint = op.attributes.get("localityHint")
    if isinstance(hint, IntegerAttr) and not 0 <= hint.value <= 3:
        return c.op_error(
            op,
            "attribute 'localityHint' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3",
            [(hint.span if len(hint.span) else op.name_span, "the locality hint must be in 0..3")],
        )
    mt = _memref(op.operands[0])
    m = _map(op, "map")
    if m is not None:
        if mt is not None and m.num_results != mt.rank:
            return c.op_error(op, "affine.prefetch affine map num results must equal memref rank")
        if m.num_inputs + 1 != len(op.operands):
            return c.op_error(op, "too few operands")
    elif len(op.operands) != 1:
        return c.op_error(op, "too few operands")
    return _index_operands(c, op, range(1, len(op.operands)), "index must be a valid dimension or symbol identifier")


def _index_operands(c: Checker, op: Operation, idxs: Sequence[int], msg: str, type_msg: str | None = None) -> Note | None:
    region, certain = dimsym.affine_scope(op)
    for i in idxs:
        if i >= len(op.operands):
            continue
        v = op.operands[i]
        if _undefined(v):
            continue
        if type_msg is not None and is_index(v.type) is False:
            return c.op_error(op, type_msg)
        ok, why = dimsym.is_valid_dim(v, region, c.line_of)
        if ok is False and certain is not None:
            span = op.operand_spans[i] if i < len(op.operand_spans) else op.name_span
            return c.op_error(op, msg, [(span, why), (v.span, f"{v.name} is defined here")])
    return None


def _verify_dma_start(c: Checker, op: Operation) -> Note | None:
    segs = [_seg(op, i) for i in range(4)]
    for seg, what in ((segs[0], "source"), (segs[1], "destination"), (segs[2], "tag")):
        if seg and _memref_ok(op.operands[seg[0]]) is False:
            return c.op_error(op, f"expected DMA {what} to be of memref type")
    maps = [_map(op, k) for k in ("src_map", "dst_map", "tag_map")]
    if any(m is None for m in maps):
        return None
    total = sum(m.num_inputs for m in maps if m is not None)
    if len(op.operands) not in (total + 4, total + 6):
        return c.op_error(op, "incorrect number of operands")
    for seg, word in ((segs[0], "src"), (segs[1], "dst"), (segs[2], "tag")):
        n = _index_operands(c, op, seg[1:], f"{word} index must be a valid dimension or symbol identifier", f"{word} index to dma_start must have 'index' type")
        if n is not None:
            return n
    return None


def _verify_dma_wait(c: Checker, op: Operation) -> Note | None:
    if not op.operands:
        return None
    if _memref_ok(op.operands[0]) is False:
        return c.op_error(op, "expected DMA tag to be of memref type")
    m = _map(op, "tag_map")
    n_idx = m.num_inputs if m is not None else max(0, len(op.operands) - 2)
    return _index_operands(c, op, range(1, 1 + n_idx), "index must be a valid dimension or symbol identifier", "index to dma_wait must have 'index' type")


def _basis(op: Operation) -> list[int] | None:
    return _ints(op.attributes.get("static_basis"))


def _verify_delinearize(c: Checker, op: Operation) -> Note | None:
    if not op.operands:
        return None
    v0 = op.operands[0]
    n = None if _undefined(v0) else c.operand_constraint(op, 0, is_index(v0.type), "index")
    n = n or c.variadic_index(op, range(1, len(op.operands)))
    if n is not None:
        return n
    for i, r in enumerate(op.results):
        n = c.result_constraint(op, i, is_index(r.type), "variadic of index")
        if n is not None:
            return n
    basis = _basis(op)
    if basis is None:
        return None
    if len(op.results) not in (len(basis), len(basis) + 1):
        return c.op_error(
            op,
            "should return an index for each basis element and up to one extra index",
            [(op.name_span, f"{len(op.results)} result(s) for {len(basis)} basis element(s)")],
        )
    if sum(1 for b in basis if b == _DYNAMIC) != len(op.operands) - 1:
        return c.op_error(
            op,
            "mismatch between dynamic and static basis (kDynamic marker but no corresponding dynamic basis entry) -- this can only happen due to an incorrect fold/rewrite",
        )
    if any(b <= 0 and b != _DYNAMIC for b in basis):
        return c.op_error(op, "no basis element may be statically non-positive")
    return None


def _verify_linearize(c: Checker, op: Operation) -> Note | None:
    n = c.variadic_index(op, range(len(op.operands))) or _result_index(c, op)
    if n is not None:
        return n
    basis = _basis(op)
    if basis is None:
        return None
    multi = _seg(op, 0)
    dyn = _seg(op, 1)
    if len(multi) not in (len(basis), len(basis) + 1):
        return c.op_error(op, "should be passed a basis element for each index except possibly the first")
    if sum(1 for b in basis if b == _DYNAMIC) != len(dyn):
        return c.op_error(
            op,
            "mismatch between dynamic and static basis (kDynamic marker but no corresponding dynamic basis entry) -- this can only happen due to an incorrect fold/rewrite",
        )
    return None


ENTRANCE: dict[str, CheckFn] = {
    "affine.apply": _verify_apply,
    "affine.min": _verify_minmax,
    "affine.max": _verify_minmax,
    "affine.for": _verify_for,
    "affine.if": _verify_if,
    "affine.load": _verify_load,
    "affine.store": _verify_store,
    "affine.vector_load": _verify_vector_load,
    "affine.vector_store": _verify_vector_store,
    "affine.yield": _verify_yield,
    "affine.parallel": _verify_parallel,
    "affine.prefetch": _verify_prefetch,
    "affine.dma_start": _verify_dma_start,
    "affine.dma_wait": _verify_dma_wait,
    "affine.delinearize_index": _verify_delinearize,
    "affine.linearize_index": _verify_linearize,
}

EXIT: dict[str, CheckFn] = {
    "affine.for": _exit_for,
    "affine.if": _exit_if,
    "affine.parallel": _exit_parallel,
}

__all__ = ["ENTRANCE", "EXIT", "IMPLICIT_YIELD_OPS", "PARSE_CHECKS", "check_yield", "tstr"]
