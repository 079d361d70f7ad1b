"""What the op registry (:mod:`affine_lsp.ir.op_registry`) decides, with
mlir-opt 22.1.8's words and locations:

* an op of an upstream dialect that MLIR 22.1.8 does not have:
  ``custom op 'arith.addff' is unknown`` in the custom form (a parse
  error), ``unregistered operation 'arith.addff' found in dialect ('arith')
  that does not allow unknown operations`` in the generic form (a verifier
  error, when the op is reached; not for the dialects that allow unknown
  ops), with or without ``--allow-unregistered-dialect`` (the dialect is
  registered);
* a known op whose custom syntax affine-lsp skipped still binds as many
  results as it defines, when it defines a fixed number (``operation
  defines 1 results but was provided 2 to bind``, at the results);
* a known op in the generic form has the region, result, successor and
  operand counts and the required attributes of its ODS definition, checked
  in the order of its traits (regions, results, successors, operands, then
  the attributes of ``OpInvariants``), then the ODS type constraint of each
  operand whose type is known, for the constraints of :data:`TYPE_CONSTRAINTS`
  (``operand #4 must be variadic of index, but got 'i32'``).

Ops of dialects MLIR does not have are left alone (the parser's remark).
"""

from __future__ import annotations

from collections.abc import Callable

from affine_lsp.ir import op_registry
from affine_lsp.ir.core import Operation
from affine_lsp.ir.types import (
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
    Type,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
)
from affine_lsp.syntax.nodes import Note
from affine_lsp.syntax.unknown_ops import UNKNOWN_UPSTREAM_OP_CODE, custom_unknown_note, did_you_mean

__all__ = ["UNKNOWN_UPSTREAM_OP_CODE", "result_binding_note", "structure_note", "unknown_op_note", "unregistered_op_note"]


def unknown_op_note(op: Operation) -> Note | None:
    """The parse error for an op of an upstream dialect that MLIR 22.1.8
    does not have, written in the custom form; None for any other op."""
    if op.known or not op.custom or not op_registry.is_unknown_upstream(op.name):
        return None
    return custom_unknown_note(op.name, op.name_span)


def unregistered_op_note(op: Operation) -> Note | None:
    """The verifier's error (at the op's entrance, in verification order)
    for a generic-form op of an upstream dialect that MLIR 22.1.8 does not
    have, unless the dialect allows unknown ops."""
    if op.custom or not op_registry.is_unknown_upstream(op.name) or op_registry.allows_unknown_ops(op.dialect):
        return None
    message = f"unregistered operation '{op.name}' found in dialect ('{op.dialect}') that does not allow unknown operations"
    return Note("error", message, op.name_span, UNKNOWN_UPSTREAM_OP_CODE, did_you_mean(op.name, op.name_span, True))


def result_binding_note(op: Operation) -> Note | None:
    """``%a, %b = x.y ...`` binding more or fewer results than a known op
    whose custom syntax was skipped defines (when it defines a fixed number)."""
    if op.known or not op.results:
        return None
    info = op_registry.lookup(op.name)
    if info is None or not info.structured:
        return None
    bounds = info.result_range
    if bounds is None or bounds[0] != bounds[1] or bounds[0] == len(op.results):
        return None
    lo = bounds[0]
    start = op.results[0].span
    return Note("error", f"operation defines {lo} results but was provided {len(op.results)} to bind", start, "syntax")


def _count_message(what: str, n: int, exact: bool, found: int) -> str | None:
    """The message of MLIR's ``ZeroOperands``/``OneOperand``/``NOperands``/
    ``AtLeastNOperands`` (and the same for results), None when it holds."""
    if exact:
        if found == n:
            return None
        if n == 0:
            return f"requires zero {what}s"
        if n == 1:
            return "requires a single operand" if what == "operand" else "requires one result"
        return f"expected {n} {what}s, but found {found}"
    if found >= n:
        return None
    return f"expected {n} or more {what}s, but found {found}"


def structure_note(op: Operation) -> Note | None:
    """The first of MLIR's structural checks that a generic-form op fails."""
    if op.custom or not op.known:
        return None
    info = op_registry.lookup(op.name)
    if info is None or not info.structured:
        return None
    message = _structure_message(op, info)
    if message is None:
        return None
    return Note("error", f"'{op.name}' op {message}", op.name_span, "verify")


def _structure_message(op: Operation, info: op_registry.OpInfo) -> str | None:
    n, found = info.regions, len(op.regions)
    if not info.variadic_regions and found != n:
        return "requires zero regions" if n == 0 else "requires one region" if n == 1 else f"expected {n} regions"
    if info.variadic_regions and found < n:
        return f"expected {n} or more regions"
    bounds = info.result_range
    if bounds is not None:
        m = _count_message("result", bounds[0], bounds[0] == bounds[1], len(op.results))
        if m is not None:
            return m
    n, found = info.successors, len(op.successors)
    if info.variadic_successors:
        if found < n:
            return f"requires at least {n} successors but found {found}"
    elif found != n:
        return f"requires {n} successor{'' if n == 1 else 's'} but found {found}"
    if not info.successors and not info.variadic_successors:
        # (Successor operands are the op's operands in MLIR; counted only
        # for ops without successors.)
        lo, hi = info.operand_range
        m = _count_message("operand", lo, hi == lo, len(op.operands))
        if m is not None:
            return m
    if info.operand_segments:
        sizes = op.attributes.get("operandSegmentSizes")
        values = getattr(sizes, "values", None)
        if values is not None and all(isinstance(v, int) for v in values) and sum(values) != len(op.operands):
            return f"operand count ({len(op.operands)}) does not match with the total size ({sum(values)}) specified in attribute 'operandSegmentSizes'"
    present = op.attributes
    renamed = _IR_NAMES.get(op.name, {})
    for a in info.required_attributes:
        if a not in present and renamed.get(a) not in present:
            return f"requires attribute '{a}'"
    return _operand_type_message(op, info)


def _signless(width: int | None = None) -> Callable[[Type], bool]:
    return lambda t: isinstance(t, IntegerType) and t.signedness == "" and (width is None or t.width == width)


def _float(kind: str | None = None) -> Callable[[Type], bool]:
    return lambda t: isinstance(t, FloatType) and (kind is None or t.kind == kind)


TYPE_CONSTRAINTS: dict[str, Callable[[Type], bool]] = {
    "AnyType": lambda t: True,
    "Index": lambda t: isinstance(t, IndexType),
    "I1": _signless(1),
    "I8": _signless(8),
    "I16": _signless(16),
    "I32": _signless(32),
    "I64": _signless(64),
    "AnySignlessInteger": _signless(),
    "AnySignlessIntegerOrIndex": lambda t: isinstance(t, IndexType) or _signless()(t),
    "AnyInteger": lambda t: isinstance(t, IntegerType),
    "F16": _float("f16"),
    "F32": _float("f32"),
    "F64": _float("f64"),
    "AnyFloat": _float(),
    "AnyMemRef": lambda t: isinstance(t, MemRefType),
    "AnyRankedOrUnrankedMemRef": lambda t: isinstance(t, MemRefType | UnrankedMemRefType),
    "AnyRankedTensor": lambda t: isinstance(t, TensorType),
    "AnyTensor": lambda t: isinstance(t, TensorType | UnrankedTensorType),
    "AnyVectorOfAnyRank": lambda t: isinstance(t, VectorType),
    "AnyShaped": lambda t: isinstance(t, MemRefType | UnrankedMemRefType | TensorType | UnrankedTensorType | VectorType),
}
"""What the ODS type constraints that the checks know accept (MLIR's
``CommonTypeConstraints.td``); operands of other constraints are not checked."""


def _group_sizes(op: Operation, info: op_registry.OpInfo) -> list[int] | None:
    """How many of ``op``'s operands each ODS operand group holds (None
    when it cannot be told)."""
    values = getattr(op.attributes.get("operandSegmentSizes"), "values", None)
    return info.operand_group_sizes(len(op.operands), values)


def _operand_type_message(op: Operation, info: op_registry.OpInfo) -> str | None:
    """``operand #N must be <constraint>, but got '<type>'``: the first
    operand, in order, whose known type breaks its group's ODS constraint."""
    constraints = info.operand_types
    if constraints is None or len(constraints) != len(info.operands):
        return None
    sizes = _group_sizes(op, info)
    if sizes is None or sum(sizes) != len(op.operands):
        return None
    index = 0
    for group, constraint, size in zip(info.operands, constraints, sizes, strict=True):
        accepts = TYPE_CONSTRAINTS.get(constraint)
        for v in op.operands[index : index + size]:
            t = v.type
            if accepts is not None and isinstance(t, Type) and type(t).__name__ != "OpaqueType" and not accepts(t):
                prefix = "variadic of " if group.kind == "*" else ""
                return f"operand #{index} must be {prefix}{op_registry.type_constraint_summary(constraint)}, but got '{t}'"
            index += 1
    return None


# Inherent attributes the IR keeps under another name than ODS's (the
# parser renames them in the generic form, see syntax/parser.py).
_IR_NAMES: dict[str, dict[str, str]] = {"affine.for": {"lowerBoundMap": "lower_bound", "upperBoundMap": "upper_bound"}}
