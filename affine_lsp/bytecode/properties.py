"""The properties of registered operations (bytecode version >= 5).

ODS writes an op's properties in a fixed layout that the bytecode does not
describe: its inherent attributes sorted by name (a required one as an
attribute index, an optional one as ``0`` when absent or ``index << 1 | 1``),
then its non-attribute properties, then the operand and result segment
sizes (sparse arrays since version 6; before, attributes sorted among the
others). Reading them therefore needs each op's list of inherent attributes: :data:`OPS` (MLIR 22.1.8's ODS
definitions of the ops affine code meets). An op outside the table whose
properties are all absent decodes to nothing; any other is an error naming
the op.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from affine_lsp.bytecode.cursor import Cursor
from affine_lsp.bytecode.errors import BytecodeError
from affine_lsp.bytecode.model import Attr

if TYPE_CHECKING:
    from affine_lsp.bytecode.reader import BytecodeFile

# op -> (inherent attributes, "?" before an optional one; number of operand
# segments (AttrSizedOperandSegments) or 0; number of result segments or 0).
OPS: dict[str, tuple[str, int, int]] = {
    "builtin.module": ("?sym_name ?sym_visibility", 0, 0),
    "builtin.unrealized_conversion_cast": ("", 0, 0),
    # affine
    "affine.apply": ("map", 0, 0),
    "affine.min": ("map", 0, 0),
    "affine.max": ("map", 0, 0),
    "affine.load": ("map", 0, 0),
    "affine.store": ("map", 0, 0),
    "affine.vector_load": ("map", 0, 0),
    "affine.vector_store": ("map", 0, 0),
    "affine.for": ("lowerBoundMap upperBoundMap step", 3, 0),
    "affine.if": ("condition", 0, 0),
    "affine.parallel": ("reductions lowerBoundsMap lowerBoundsGroups upperBoundsMap upperBoundsGroups steps", 0, 0),
    "affine.prefetch": ("isWrite localityHint isDataCache map", 0, 0),
    "affine.delinearize_index": ("static_basis", 0, 0),
    # arith
    "arith.constant": ("value", 0, 0),
    "arith.cmpi": ("predicate", 0, 0),
    "arith.cmpf": ("predicate ?fastmath", 0, 0),
    **{f"arith.{o}": ("?fastmath", 0, 0) for o in ["addf", "subf", "mulf", "divf", "remf", "negf", "maximumf", "minimumf", "maxnumf", "minnumf", "extf"]},
    **{f"arith.{o}": ("?overflowFlags", 0, 0) for o in ["addi", "subi", "muli", "shli", "trunci"]},
    **{f"arith.{o}": ("?isExact", 0, 0) for o in ["divsi", "divui", "shrsi", "shrui"]},
    "arith.truncf": ("?fastmath ?roundingmode", 0, 0),
    # math
    **{
        f"math.{o}": ("?fastmath", 0, 0)
        for o in [
            "absf",
            "atan",
            "atan2",
            "cbrt",
            "ceil",
            "copysign",
            "cos",
            "cosh",
            "erf",
            "erfc",
            "exp",
            "exp2",
            "expm1",
            "floor",
            "fma",
            "fpowi",
            "log",
            "log10",
            "log1p",
            "log2",
            "powf",
            "round",
            "roundeven",
            "rsqrt",
            "sin",
            "sinh",
            "sqrt",
            "tan",
            "tanh",
            "trunc",
        ]
    },
    # func
    "func.func": ("sym_name function_type ?sym_visibility ?arg_attrs ?res_attrs ?no_inline", 0, 0),
    "func.call": ("callee ?arg_attrs ?res_attrs ?no_inline", 0, 0),
    "func.call_indirect": ("?arg_attrs ?res_attrs", 0, 0),
    "func.constant": ("value", 0, 0),
    # memref
    "memref.alloc": ("?alignment", 2, 0),
    "memref.alloca": ("?alignment", 2, 0),
    "memref.realloc": ("?alignment", 0, 0),
    "memref.load": ("?nontemporal ?alignment", 0, 0),
    "memref.store": ("?nontemporal ?alignment", 0, 0),
    "memref.subview": ("static_offsets static_sizes static_strides", 4, 0),
    "memref.reinterpret_cast": ("static_offsets static_sizes static_strides", 4, 0),
    "memref.transpose": ("permutation", 0, 0),
    "memref.atomic_rmw": ("kind", 0, 0),
    "memref.global": ("sym_name ?sym_visibility type ?initial_value ?constant ?alignment", 0, 0),
    "memref.get_global": ("name", 0, 0),
    "memref.expand_shape": ("reassociation static_output_shape", 0, 0),
    "memref.collapse_shape": ("reassociation", 0, 0),
    # scf
    "scf.for": ("?unsignedCmp", 0, 0),
    "scf.parallel": ("", 4, 0),
    "scf.execute_region": ("?no_inline", 0, 0),
    "scf.index_switch": ("cases", 0, 0),
    # cf
    "cf.cond_br": ("", 3, 0),
    "cf.assert": ("msg", 0, 0),
    # vector
    "vector.transfer_read": ("permutation_map in_bounds", 4, 0),
    "vector.transfer_write": ("permutation_map in_bounds", 4, 0),
    "vector.transpose": ("permutation", 0, 0),
    "vector.reduction": ("kind ?fastmath", 0, 0),
    "vector.load": ("?nontemporal ?alignment", 0, 0),
    "vector.store": ("?nontemporal ?alignment", 0, 0),
    # gpu
    "gpu.launch": ("?function ?module", 11, 0),
    "gpu.func": (
        "function_type ?arg_attrs ?res_attrs ?workgroup_attrib_attrs ?private_attrib_attrs ?known_block_size ?known_grid_size ?known_cluster_size",
        0,
        0,
    ),
    "gpu.module": ("sym_name ?targets ?offloadingHandler", 0, 0),
    # async
    "async.execute": ("", 2, 0),
    # index
    "index.constant": ("value", 0, 0),
    # linalg
    "linalg.generic": ("indexing_maps iterator_types ?doc ?library_call", 2, 0),
    "linalg.fill": ("", 2, 0),
    "linalg.matmul": ("?cast ?indexing_maps", 2, 0),
    "linalg.batch_matmul": ("?cast ?indexing_maps", 2, 0),
    "linalg.dot": ("", 2, 0),
    "linalg.matvec": ("", 2, 0),
    "linalg.index": ("dim", 0, 0),
    "linalg.reduce": ("dimensions", 0, 0),
    "linalg.transpose": ("permutation", 0, 0),
    "linalg.broadcast": ("dimensions", 0, 0),
    # tensor
    "tensor.extract_slice": ("static_offsets static_sizes static_strides", 4, 0),
    "tensor.insert_slice": ("static_offsets static_sizes static_strides", 5, 0),
    # transform
    "transform.named_sequence": ("sym_name function_type ?sym_visibility ?arg_attrs ?res_attrs", 0, 0),
    "transform.apply_patterns": ("?apply_cse ?max_iterations ?max_num_rewrites", 0, 0),
    "transform.apply_patterns.vector.split_transfer_full_partial": ("?split_transfer_strategy", 0, 0),
    # ub
    "ub.poison": ("?value", 0, 0),  # a DefaultValuedAttr: written as an optional one
    # llvm: read off the generated writeProperties/getPropertiesAsAttr in MLIR 22.1.8's libMLIR.so (llvm.func's
    # properties are all attributes; so are llvm.mlir.global's), checked by tests/test_bytecode.py against mlir-opt
    "llvm.func": (
        "?CConv ?alignment ?always_inline ?arg_attrs ?arm_in_za ?arm_inout_za ?arm_locally_streaming ?arm_new_za ?arm_out_za"
        " ?arm_preserves_za ?arm_streaming ?arm_streaming_compatible ?comdat ?convergent ?denormal_fp_math ?denormal_fp_math_f32"
        " ?dso_local ?fp_contract ?frame_pointer ?function_entry_count function_type ?garbageCollector ?inline_hint"
        " ?instrument_function_entry ?instrument_function_exit ?intel_reqd_sub_group_size ?linkage ?memory_effects"
        " ?no_infs_fp_math ?no_inline ?no_nans_fp_math ?no_signed_zeros_fp_math ?no_unwind ?optimize_none ?passthrough"
        " ?personality ?prefer_vector_width ?reciprocal_estimates ?reqd_work_group_size ?res_attrs ?section sym_name"
        " ?sym_visibility ?target_cpu ?target_features ?tune_cpu ?unnamed_addr ?uwtable_kind ?vec_type_hint ?visibility_"
        " ?vscale_range ?will_return ?work_group_size_hint",
        0,
        0,
    ),
    "llvm.mlir.global": (
        "?addr_space ?alignment ?comdat ?constant ?dbg_exprs ?dso_local ?externally_initialized global_type linkage ?section"
        " sym_name ?target_specific_attrs ?thread_local_ ?unnamed_addr ?value ?visibility_",
        0,
        0,
    ),
    "llvm.mlir.addressof": ("global_name", 0, 0),
    "llvm.mlir.constant": ("value", 0, 0),
    "llvm.comdat": ("sym_name", 0, 0),
    "llvm.comdat_selector": ("comdat sym_name", 0, 0),
}


def _registry_spec(op: str) -> tuple[str, int, int] | None:
    """The layout of an op outside :data:`OPS` from the op registry (its
    ODS attributes, required or not, and its segment counts), or None."""
    from affine_lsp.ir import op_registry

    info = op_registry.lookup(op)
    if info is None or not info.structured:
        return None
    attrs = " ".join(("" if a.required else "?") + a.name for a in info.attributes)
    return attrs, len(info.operands) if info.operand_segments else 0, len(info.results or ()) if info.result_segments else 0


def _layout(op: str, version: int) -> tuple[list[tuple[str, bool]], int, int] | None:
    spec = OPS.get(op) or _registry_spec(op)
    if spec is None:
        return None
    attrs, n_operand_segments, n_result_segments = spec
    entries = [(a.lstrip("?"), not a.startswith("?")) for a in attrs.split()]
    if version < 6:
        # Before version 6 the segment sizes are DenseI32ArrayAttr
        # attributes, in their place among the sorted inherent attributes.
        if n_operand_segments:
            entries.append(("operandSegmentSizes", True))
        if n_result_segments:
            entries.append(("resultSegmentSizes", True))
        n_operand_segments = n_result_segments = 0
    entries.sort(key=lambda e: e[0].encode())
    return entries, n_operand_segments, n_result_segments


def _sparse_array(cur: Cursor, size: int) -> list[int]:
    """``readSparseArray`` into an array of ``size`` zeros."""
    out = [0] * size
    count, sparse = cur.varint_flag()
    if not count:
        return out
    if not sparse:
        if count > size:
            raise cur.error(f"a segment array of {count} values where {size} are expected")
        for k in range(count):
            out[k] = cur.varint()
        return out
    bits = cur.varint()
    if bits > 8:
        raise cur.error(f"a sparse array with {bits}-bit indices")
    for _ in range(count):
        pair = cur.varint()
        k = pair & ((1 << bits) - 1)
        if k >= size:
            raise cur.error(f"a sparse array index {k} where {size} values are expected")
        out[k] = pair >> bits
    return out


def _segments(cur: Cursor, size: int) -> Attr:
    values = _sparse_array(cur, size)
    return Attr("array<i32" + (": " + ", ".join(map(str, values)) if values else "") + ">")


def _all_absent(cur: Cursor) -> bool:
    start = cur.pos
    try:
        while not cur.empty():
            if cur.varint():
                return False
        return True
    except BytecodeError:
        return False
    finally:
        cur.pos = start


def decode_properties(rd: BytecodeFile, op: str, cur: Cursor) -> list[tuple[str, Attr]]:
    """The present properties of ``op`` as (name, attribute) pairs."""
    if op not in OPS and _registry_spec(op) is not None:
        start = cur.pos
        try:
            return _decode(rd, op, cur)
        except BytecodeError:
            cur.pos = start
            if _all_absent(cur):  # (properties that are not attributes, every one absent, as below)
                return []
            raise
    return _decode(rd, op, cur)


def _decode(rd: BytecodeFile, op: str, cur: Cursor) -> list[tuple[str, Attr]]:
    layout = _layout(op, rd.version)
    if layout is None:
        if _all_absent(cur):
            return []  # every property absent (each a varint 0)
        raise BytecodeError(
            f"cannot decode the properties of '{op}': affine-lsp does not know this op's property layout",
            cur.pos,
        )
    entries, n_operand_segments, n_result_segments = layout
    out: list[tuple[str, Attr]] = []
    for name, required in entries:
        at = cur.pos
        if required:
            value = rd.attr_ref(cur)
        else:
            idx, present = cur.varint_flag()
            if not present:  # (MLIR's readOptionalAttribute ignores the number then)
                continue
            value = rd.attr(idx, cur)
        if value.location is not None:  # no op of the table has a location among its inherent attributes
            raise BytecodeError(f"the property '{name}' of '{op}' is a location, {value.text}", at)
        out.append((name, value))
    if n_operand_segments:
        out.append(("operandSegmentSizes", _segments(cur, n_operand_segments)))
    if n_result_segments:
        out.append(("resultSegmentSizes", _segments(cur, n_result_segments)))
    if not cur.empty():
        raise cur.error(f"the properties of '{op}' do not match affine-lsp's layout of this op ({cur.remaining()} bytes left)")
    return out
