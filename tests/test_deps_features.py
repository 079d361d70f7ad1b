"""Hand-checked examples of every feature of the dependence engine."""

from __future__ import annotations

import copy
import json

import islpy as isl
import pytest

from affine_lsp import cli
from affine_lsp.analysis import (
    access_relation_str,
    analyze_document,
    check_dependence,
    dependences_of_function,
    loop_summary,
)
from affine_lsp.analysis.bruteforce import brute_dependence, brute_distances, instances
from affine_lsp.analysis.isl_support import CTX
from affine_lsp.analysis.remarks import memref_dependence_remarks, pass_ops
from affine_lsp.ir.core import Operation, Span
from affine_lsp.source.document import Document


def _doc(text: str) -> Document:
    doc = Document(text)
    errors = [n.message for n in doc.notes() if n.severity == "error"]
    assert not errors, errors
    return doc


def _func(doc: Document, index: int = 0) -> Operation:
    return list(doc.sections[0].functions())[index]


def _ops(doc: Document, name: str | tuple[str, ...]) -> list[Operation]:
    names = (name,) if isinstance(name, str) else name
    return [op for s in doc.sections for op in s.module.walk() if op.name in names]


def _remarks(doc: Document) -> list[str]:
    return [r.message for s in doc.sections for r in memref_dependence_remarks([s.module])]


def _iset(text: str) -> isl.Set:
    return isl.Set.read_from_str(CTX, text)


# --------------------------------------------------------------- seed 002

SEED_SIMPLE = """
#map0 = affine_map<(d0, d1) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> (d0 - 2)>
func.func @kernel() {
  %0 = memref.alloc() : memref<10x10xf32>
  %cst = arith.constant 7.000000e+00 : f32
  affine.for %arg0 = 0 to 9 {
    affine.for %arg1 = 0 to 9 {
      %1 = affine.apply #map0(%arg0, %arg1)
      %2 = affine.apply #map1(%arg0, %arg1)
      affine.store %cst, %0[%1, %2] : memref<10x10xf32>
      %3 = affine.apply #map2(%arg0, %arg1)
      %4 = affine.apply #map1(%arg0, %arg1)
      %5 = affine.load %0[%3, %4] : memref<10x10xf32>
    }
  }
  return
}
"""

SEED_NONTRIVIAL = """
func.func @kernel() {
  %0 = memref.alloc() : memref<10x10xf32>
  %cst = arith.constant 7.000000e+00 : f32
  affine.for %i0 = 0 to 10 {
    affine.for %i1 = 0 to 7 {
      affine.store %cst, %0[%i0 + 3 * %i1, 4 * %i0 + 5 * %i1] : memref<10x10xf32>
      %a = affine.load %0[%i0 + %i1, %i0 + 2 * %i1 + 3] : memref<10x10xf32>
    }
  }
  return
}
"""


def test_seed_two_iterations_prior() -> None:
    doc = _doc(SEED_SIMPLE)
    store, load = _ops(doc, ("affine.store", "affine.load"))
    r = check_dependence(store, load, 1)
    assert r.status == "dependence" and r.kind == "RAW"
    assert r.mlir_str() == "[2, 2][0, 0]"
    assert check_dependence(store, load, 2).mlir_str() == "false"
    assert check_dependence(store, load, 3).mlir_str() == "false"
    assert "dependence from 0 to 1 at depth 1 = [2, 2][0, 0]" in _remarks(doc)
    assert brute_dependence(store, load, 1) == [(2, 2), (0, 0)]


def test_seed_nontrivial_direction_vector() -> None:
    doc = _doc(SEED_NONTRIVIAL)
    store, load = _ops(doc, ("affine.store", "affine.load"))
    r = check_dependence(store, load, 1)
    assert r.mlir_str() == "[1, 7][-1, 3]"
    assert brute_dependence(store, load, 1) == [(1, 7), (-1, 3)]
    assert check_dependence(store, load, 3).mlir_str() == "true"
    # the reverse direction: the load of iteration (i, j) precedes the store
    # of (i + 2, j - 4) that writes the same element
    assert check_dependence(load, store, 1).mlir_str() == "[2, 2][-4, -4]"


# ------------------------------------------------------------------- kinds

KINDS = """
func.func @kinds(%A: memref<100xf32>, %B: memref<100xf32>) {
  %c = arith.constant 0.0 : f32
  affine.for %i = 0 to 10 {
    %x = affine.load %A[%i] : memref<100xf32>
    affine.store %x, %A[%i + 1] : memref<100xf32>
    affine.store %c, %A[%i + 2] : memref<100xf32>
    %y = affine.load %B[%i] : memref<100xf32>
    %z = affine.load %B[%i] : memref<100xf32>
  }
  return
}
"""


def test_kinds_raw_war_waw_rar() -> None:
    doc = _doc(KINDS)
    ld, st1, st2, b1, b2 = _ops(doc, ("affine.load", "affine.store"))
    raw = check_dependence(st1, ld, 1)
    assert (raw.kind, raw.status, raw.mlir_str()) == ("RAW", "dependence", "[1, 1]")
    war = check_dependence(ld, st1, 1)
    assert (war.kind, war.status) == ("WAR", "none")  # A[i] is read before any write to it
    war2 = check_dependence(ld, st2, 1)
    assert (war2.kind, war2.status) == ("WAR", "none")
    raw2 = check_dependence(st2, ld, 1)
    assert (raw2.kind, raw2.mlir_str()) == ("RAW", "[2, 2]")
    waw = check_dependence(st1, st2, 1)
    assert (waw.kind, waw.mlir_str()) == ("WAW", "false")
    waw2 = check_dependence(st2, st1, 1)
    assert (waw2.kind, waw2.mlir_str()) == ("WAW", "[1, 1]")
    rar = check_dependence(b1, b2, 2)
    assert rar.kind is None and rar.status == "none" and rar.reason == "read after read"


# ------------------------------------------------------- value-based flow

FLOW = """
func.func @flow(%A: memref<100xf32>, %B: memref<100xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c1 = arith.constant 1.0 : f32
  affine.for %i = 0 to 50 {
    affine.store %c0, %A[%i] : memref<100xf32>
  }
  affine.for %i = 0 to 25 {
    affine.store %c1, %A[%i] : memref<100xf32>
  }
  affine.for %j = 0 to 60 {
    %v = affine.load %A[%j] : memref<100xf32>
    affine.store %v, %B[%j] : memref<100xf32>
  }
  affine.for %k = 0 to 10 {
    %w = affine.load %B[%k + 1] : memref<100xf32>
    affine.store %w, %B[%k] : memref<100xf32>
  }
  return
}
"""


def test_value_based_flow_last_writer_and_live_in() -> None:
    doc = _doc(FLOW)
    fd = dependences_of_function(_func(doc))
    st0, st1, ld_a, st_b, ld_b, st_b2 = fd.accesses
    df = fd.dataflow()
    assert df.failed is None
    flow = df.flow_into(ld_a)
    assert flow is not None and flow.exact
    by_writer = {e.write.index: e for e in flow.sources}
    # A[0..24] were overwritten by the second loop: values come from st1 there,
    # from st0 for 25..49, and from before the function for 50..59.
    assert set(by_writer) == {st0.index, st1.index}
    assert by_writer[st1.index].relation.is_equal(isl.Map.read_from_str(CTX, "{ S1[i] -> S2[i] : 0 <= i <= 24 }"))
    assert by_writer[st0.index].relation.is_equal(isl.Map.read_from_str(CTX, "{ S0[i] -> S2[i] : 25 <= i <= 49 }"))
    assert flow.reads_live_in
    assert flow.live_in.is_equal(_iset("{ S2[j] : 50 <= j <= 59 }"))
    # memory-based: st0 -> ld_a is a RAW dependence for every j < 50, even where
    # the value was overwritten (value-based flow says otherwise)
    mem = check_dependence(st0.op, ld_a.op, 1)
    assert mem.status == "dependence" and mem.kind == "RAW"
    # B[k + 1] read at k comes from the third loop's store (k + 1 <= 59),
    # never from the store of the same loop (it writes B[k] later)
    fb = df.flow_into(ld_b)
    assert [e.write.index for e in fb.sources] == [st_b.index]
    assert not fb.reads_live_in
    assert df.uses_of(st_b2) == []


def test_live_in_read_without_writer() -> None:
    doc = _doc(
        """
func.func @f(%A: memref<10xf32>, %B: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    %v = affine.load %A[%i] : memref<10xf32>
    affine.store %v, %B[%i] : memref<10xf32>
  }
  return
}
"""
    )
    fd = dependences_of_function(_func(doc))
    flow = fd.dataflow().flow_into(fd.accesses[0])
    assert flow.sources == [] and flow.live_in.is_equal(_iset("{ S0[i] : 0 <= i <= 9 }"))


# ------------------------------------------------- exact distance sets

STRIDED = """
func.func @mod_deps() {
  %m = memref.alloc() : memref<100xf32>
  %c7 = arith.constant 7.0 : f32
  affine.for %i0 = 0 to 10 {
    %a0 = affine.apply affine_map<(d0) -> (d0 mod 2)> (%i0)
    %v0 = affine.load %m[%a0] : memref<100xf32>
    %a1 = affine.apply affine_map<(d0) -> ( (d0 + 1) mod 2)> (%i0)
    affine.store %c7, %m[%a1] : memref<100xf32>
  }
  return
}
"""


def test_exact_strided_distance() -> None:
    doc = _doc(STRIDED)
    load, store = _ops(doc, ("affine.load", "affine.store"))
    r = check_dependence(store, store, 1)
    assert r.mlir_str() == "[2, 8]"  # MLIR says [2, 9]
    assert r.distance_set().is_equal(_iset("{ [d0] : exists k : d0 = 2k and 2 <= d0 <= 8 }"))
    assert "mod 2" in r.distance_set_str()
    odd = check_dependence(load, store, 1)
    assert odd.distance_set().is_equal(_iset("{ [d0] : exists k : d0 = 2k + 1 and 1 <= d0 <= 9 }"))
    assert brute_distances(store, store, 1) == {(2,), (4,), (6,), (8,)}


PARAMETRIC = """
func.func @p(%A: memref<100xf32>, %N: index) {
  %c = arith.constant 0.0 : f32
  affine.for %i = 0 to %N {
    affine.store %c, %A[0] : memref<100xf32>
    %v = affine.load %A[%N - %i - 1] : memref<100xf32>
  }
  return
}
"""


def test_exact_parametric_distance() -> None:
    doc = _doc(PARAMETRIC)
    store, load = _ops(doc, ("affine.store", "affine.load"))
    r = check_dependence(store, store, 1)
    assert r.mlir_str() == "[1, +inf]"
    ((lo, hi),) = r.distance_bounds_str()
    assert lo == "[N] -> { [(1)] : N >= 2 }"
    assert hi == "[N] -> { [(-1 + N)] : N >= 2 }"
    # store A[0] at i, load A[N - 1 - i'] at i' > i: only i' = N - 1, so the
    # distance is N - 1 - i for every i in [0, N - 2]
    d = check_dependence(store, load, 1).distance_set()
    assert d.is_equal(_iset("[N] -> { [d0] : 1 <= d0 <= N - 1 }"))
    for n in (2, 3, 5):
        assert brute_dependence(store, load, 1, {"%N": n}) == [(1, n - 1)]


UNION = """
func.func @u() {
  %m = memref.alloc() : memref<100xf32>
  %c = arith.constant 0.0 : f32
  affine.for %i = 0 to 12 {
    affine.store %c, %m[(%i mod 4) floordiv 2 + 3 * (%i floordiv 8)] : memref<100xf32>
  }
  return
}
"""


def test_exact_distance_set_union_of_pieces() -> None:
    doc = _doc(UNION)
    (store,) = _ops(doc, "affine.store")
    r = check_dependence(store, store, 1)
    pts: set[tuple[int, ...]] = set()
    r.distance_set().foreach_point(lambda p: pts.add((int(p.get_coordinate_val(isl.dim_type.set, 0).to_python()),)))
    assert pts == brute_distances(store, store, 1)
    # values 0, 0, 1, 1, 0, 0, 1, 1, 3, 3, 4, 4: equal at distances 1, 3, 4, 5
    assert pts == {(1,), (3,), (4,), (5,)}
    assert r.mlir_str() == "[1, 5]"


# --------------------------------------------------------- loop summaries

MATMUL = """
func.func @matmul(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      affine.for %k = 0 to 8 {
        %a = affine.load %A[%i, %k] : memref<8x8xf32>
        %b = affine.load %B[%k, %j] : memref<8x8xf32>
        %c = affine.load %C[%i, %j] : memref<8x8xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<8x8xf32>
      }
    }
  }
  affine.for %i = 0 to 8 {
    %t = memref.alloc() : memref<1xf32>
    %x = affine.load %A[%i, 0] : memref<8x8xf32>
    affine.store %x, %t[0] : memref<1xf32>
    %y = affine.load %t[0] : memref<1xf32>
    affine.store %y, %B[%i, 0] : memref<8x8xf32>
  }
  %z = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 8 iter_args(%acc = %z) -> f32 {
    %x = affine.load %A[%i, 0] : memref<8x8xf32>
    %s = arith.addf %acc, %x : f32
    affine.yield %s : f32
  }
  affine.for %i = 0 to 8 {
    %x = affine.load %A[%i, 0] : memref<8x8xf32>
    func.call @g(%x) : (f32) -> ()
  }
  return
}
func.func private @g(f32)
"""


def test_loop_summary_parallel_and_carried() -> None:
    doc = _doc(MATMUL)
    loops = _ops(doc, "affine.for")
    i, j, k = loops[:3]
    si, sj, sk = loop_summary(i), loop_summary(j), loop_summary(k)
    assert si.parallel and si.vectorizable and not si.carried
    assert sj.parallel and sj.vectorizable
    assert not sk.parallel and not sk.vectorizable
    kinds = sorted({(r.kind, r.mlir_str()) for r in sk.carried})
    assert kinds == [("RAW", "[0, 0][0, 0][1, 7]"), ("WAR", "[0, 0][0, 0][1, 7]"), ("WAW", "[0, 0][0, 0][1, 7]")]
    assert sk.min_distance == 1 and sk.depths == [3]
    fd = dependences_of_function(_func(doc))
    assert fd.carried_by(k) == sk.carried
    # a memref allocated inside the loop does not prevent parallelism (as in MLIR)
    local = loop_summary(loops[3])
    assert local.parallel
    # iter_args: not parallel (loop-carried SSA value), still vectorizable
    red = loop_summary(loops[4])
    assert not red.parallel and red.vectorizable and "iter_args" in " ".join(red.reasons)
    # an op with unknown memory effects
    call = loop_summary(loops[5])
    assert not call.parallel and "func.call" in call.reasons[0]


def test_for_access_lists_dependences_of_an_op() -> None:
    doc = _doc(MATMUL)
    fd = dependences_of_function(_func(doc))
    store = _ops(doc, "affine.store")[0]
    deps = fd.for_access(store)
    assert deps and all(store in (r.src.op, r.dst.op) for r in deps)
    assert {r.kind for r in deps} == {"RAW", "WAR", "WAW"}


# ------------------------------------------------------ out of bounds

OOB = """
func.func @oob(%A: memref<10xf32>, %M: memref<10x20xf32>, %D: memref<?xf32>, %N: index) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 0.0 : f32
  affine.for %i = 0 to 10 {
    %a = affine.load %A[%i + 1] : memref<10xf32>
    %b = affine.load %A[%i - 1] : memref<10xf32>
    affine.store %f, %M[%i, 3 * %i] : memref<10x20xf32>
    affine.if affine_set<(d0) : (8 - d0 >= 0)>(%i) {
      %g = affine.load %A[%i + 1] : memref<10xf32>
    }
  }
  affine.for %i = 0 to 10 step 4 {
    %v = affine.vector_load %A[%i] : memref<10xf32>, vector<4xf32>
  }
  %n = memref.dim %D, %c0 : memref<?xf32>
  affine.for %i = 0 to %n {
    %d = affine.load %D[%i + 1] : memref<?xf32>
    %e = affine.load %D[%i] : memref<?xf32>
  }
  affine.for %i = 0 to %N {
    %h = affine.load %D[%i] : memref<?xf32>
    %k = affine.load %A[%i] : memref<10xf32>
  }
  return
}
"""


def test_out_of_bounds_warnings_with_mlir_wording() -> None:
    doc = _doc(OOB)
    notes = [n for n in analyze_document(doc) if n.code == "memref-bound"]
    got = sorted((doc.lines.position(n.span.start)[0] + 1, n.severity, n.message) for n in notes)
    assert got == [
        (6, "warning", "'affine.load' op memref out of upper bound access along dimension #1"),
        (7, "warning", "'affine.load' op memref out of lower bound access along dimension #1"),
        (8, "warning", "'affine.store' op memref out of upper bound access along dimension #2"),
        # the guarded load (line 10) is in bounds: MLIR ignores the guard, we do not
        # the vector load touches [8, 11] at i = 8 (MLIR only checks the base index)
        (14, "warning", "'affine.vector_load' op memref out of upper bound access along dimension #1"),
        # dynamic size: out of bounds for every size (i = n - 1 reads D[n])
        (18, "warning", "'affine.load' op memref out of upper bound access along dimension #1"),
        # %A[%i] with i < %N: out of bounds for some %N (MLIR reports it too);
        # %D[%i] with i < %N is not provably out of bounds
        (23, "warning", "'affine.load' op memref out of upper bound access along dimension #1"),
    ]
    span = notes[0].span
    assert doc.text[span.start : span.end] == "affine.load"
    related = notes[0].data["related"][0][1]
    assert related == "for example at %i = 9, it accesses element [10]"


# ------------------------------------------------------------- races

RACES = """
func.func @races(%A: memref<100xf32>, %B: memref<100x100xf32>) {
  affine.parallel (%i) = (0) to (10) {
    %v = affine.load %A[%i + 1] : memref<100xf32>
    affine.store %v, %A[%i] : memref<100xf32>
  }
  affine.parallel (%i, %j) = (0, 0) to (10, 10) {
    %v = affine.load %B[%i, %j] : memref<100x100xf32>
    affine.store %v, %B[%i, %j] : memref<100x100xf32>
  }
  affine.parallel (%i, %j) = (0, 0) to (10, 10) {
    %c = arith.constant 0.0 : f32
    affine.store %c, %B[%i, 0] : memref<100x100xf32>
  }
  return
}
"""


def test_racy_parallel_is_a_warning_naming_two_conflicting_iterations() -> None:
    # A warning since issue #14 (it was an error): mlir-opt accepts racy IR.
    doc = _doc(RACES)
    notes = [n for n in analyze_document(doc) if n.code.startswith("racy")]
    assert [(doc.lines.position(n.span.start)[0] + 1, n.severity) for n in notes] == [(3, "warning"), (11, "warning")]
    assert notes[0].message == "'affine.parallel' op iterations race: iteration (%i = 0) reads %A[1], which iteration (%i = 1) writes"
    assert notes[1].message == "'affine.parallel' op iterations race: iterations (%i = 0, %j = 0) and (%i = 0, %j = 1) both write %B[0, 0]"
    # The dependence itself (kind, accesses, distance) is related information.
    assert notes[0].data["related"][0][1] == ("WAR dependence from 'affine.load' on %A to 'affine.store' on %A across iterations (distance [1, 1])")
    assert "WAW" in notes[1].data["related"][0][1] and "[0, 0][1, 9]" in notes[1].data["related"][0][1]
    pars = _ops(doc, "affine.parallel")
    assert not loop_summary(pars[0]).parallel
    assert loop_summary(pars[1]).parallel


# ---------------------------------------------------- budget and limits


def test_budget_exhaustion_gives_unknown_and_an_info_note() -> None:
    doc = _doc(SEED_NONTRIVIAL)
    fd = dependences_of_function(_func(doc), budget=3)
    store, load = fd.accesses
    r = fd.check(store, load, 1)
    assert r.status == "unknown" and r.budget_exceeded and r.has_dependence
    assert r.mlir_failure
    assert any(n.severity == "info" and "budget exceeded (3 isl operations)" in n.message for n in fd.notes)
    # the default budget answers exactly
    full = dependences_of_function(_func(doc))
    assert full.check(full.accesses[0], full.accesses[1], 1).status == "dependence"


def test_budget_exhaustion_in_a_query() -> None:
    doc = _doc(SEED_NONTRIVIAL)
    fd = dependences_of_function(_func(doc), budget=2_000_000)
    fd.budget = 40  # models built with the full budget, queries with a tiny one
    store, load = fd.accesses
    r = fd.check(store, load, 1)
    assert r.status == "unknown" and r.budget_exceeded
    assert any("while checking the dependence" in n.message for n in fd.notes)


def test_pair_limit_note() -> None:
    doc = _doc(MATMUL)
    fd = dependences_of_function(_func(doc), max_pairs=3)
    assert fd.pairs == []
    (note,) = [n for n in fd.notes if n.code == "deps-limit"]
    assert note.severity == "info"
    assert note.message == "dependence analysis skipped: 9 access pairs exceed the limit 3"
    assert not fd.loop_summary(_ops(doc, "affine.for")[2]).parallel  # conservative


# ------------------------------------------------------------- caching


def test_cache_per_function_invalidated_by_edits() -> None:
    text = SEED_SIMPLE + "\n" + KINDS
    doc = _doc(text)
    f0, f1 = list(doc.sections[0].functions())
    d0, d1 = dependences_of_function(f0), dependences_of_function(f1)
    assert dependences_of_function(f0) is d0
    pos = doc.text.index("%i + 2")
    doc.apply_edit(pos, pos + len("%i + 2"), "%i + 3")
    g0, g1 = list(doc.sections[0].functions())
    assert g0 is f0 and dependences_of_function(g0) is d0  # untouched function: same op, same cache
    assert g1 is not f1
    e1 = dependences_of_function(g1)
    assert e1 is not d1
    st2, ld = e1.accesses[2], e1.accesses[0]
    assert e1.check(st2, ld, 1).mlir_str() == "[3, 3]"
    # copies of an op (transforms cloning IR) never inherit its engine
    clone = copy.deepcopy(g1)
    assert dependences_of_function(clone) is not e1 and dependences_of_function(clone).scope is clone
    shallow = copy.copy(g1)
    assert dependences_of_function(shallow).scope is shallow and dependences_of_function(g1) is e1


# -------------------------------------------------- models of all accesses

MODELS = """
func.func @models(%A: memref<100x100xf32>, %S: memref<64xf32>, %tag: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 16 step 4 {
      %v = affine.vector_load %A[%i, %j] : memref<100x100xf32>, vector<4xf32>
      affine.vector_store %v, %A[%i, %j + 2] : memref<100x100xf32>, vector<4xf32>
      affine.prefetch %A[%i, %j + 5], read, locality<3>, data : memref<100x100xf32>
      %m = affine.min affine_map<(d0) -> (d0, 5)>(%j)
      %x = affine.load %A[%i, %m] : memref<100x100xf32>
    }
  }
  affine.for %i = 0 to 4 {
    affine.dma_start %A[%i, %c0], %S[%i * 8], %tag[%c0], %c8 : memref<100x100xf32>, memref<64xf32>, memref<1xi32>
  }
  return
}
"""


def test_models_of_vector_prefetch_min_and_dma() -> None:
    doc = Document(MODELS)
    f = _func(doc)
    fd = dependences_of_function(f)
    vl, vs, pf, ld, dsrc, ddst = fd.accesses
    assert (vl.role, vs.role, pf.role, dsrc.role, ddst.role) == ("read", "write", "prefetch", "dma_src", "dma_dst")
    assert vl.relation.is_equal(isl.Map.read_from_str(CTX, "{ S0[i, j] -> A[i, y] : 0 <= i <= 3 and 0 <= j <= 15 and j mod 4 = 0 and j <= y <= j + 3 }"))
    assert ld.exact and ld.relation.is_equal(
        isl.Map.read_from_str(CTX, "{ S3[i, j] -> A[i, y] : 0 <= i <= 3 and 0 <= j <= 15 and j mod 4 = 0 and y = min(j, 5) }")
    )
    assert ddst.relation.is_equal(isl.Map.read_from_str(CTX, "{ S5[i] -> S[y] : 0 <= i <= 3 and 8i <= y <= 8i + 7 }"))
    assert dsrc.relation.is_equal(isl.Map.read_from_str(CTX, "{ S4[i] -> A[i, y] : 0 <= i <= 3 and 0 <= y <= 7 }"))
    assert access_relation_str(pf.op) == str(pf.relation)
    # every access model equals enumeration, and so do the dependences between them
    for acc in fd.accesses:
        pts: set = set()
        acc.relation.wrap().foreach_point(lambda p, pts=pts: pts.add(str(p)))
        n_elems = sum(len(inst.elements) for inst in instances(acc.op, acc.role))
        assert len(pts) == n_elems
    for s in fd.accesses[:4]:
        for d in fd.accesses[:4]:
            c = fd.check(s, d, 1).num_common
            for depth in range(1, c + 2):
                r = fd.check(s, d, depth)
                exact = brute_dependence(s.op, d.op, depth, src_role=s.role, dst_role=d.role)
                assert (r.status == "none") == (exact is None), (s.index, d.index, depth)
                if exact is not None:
                    assert r.components == exact
    # the vector store of j overlaps the vector load of the next iteration
    assert fd.check(vs, vl, 2).mlir_str() == "[0, 0][4, 4]"


IF_ELSE = """
func.func @ie(%A: memref<100xf32>) {
  %c = arith.constant 0.0 : f32
  affine.for %i = 0 to 20 {
    affine.if affine_set<(d0) : (d0 - 10 >= 0, d0 mod 3 == 0)>(%i) {
      affine.store %c, %A[%i floordiv 2] : memref<100xf32>
    } else {
      %v = affine.load %A[%i ceildiv 2] : memref<100xf32>
    }
  }
  return
}
"""


def test_if_else_complement_is_exact() -> None:
    doc = _doc(IF_ELSE)
    store, load = _ops(doc, ("affine.store", "affine.load"))
    for s, d in ((store, load), (load, store), (store, store), (load, load)):
        for depth in (1, 2):
            r = check_dependence(s, d, depth)
            exact = brute_dependence(s, d, depth)
            assert (r.status == "none") == (exact is None)
            if exact is not None and depth == 1:
                assert r.components == exact
    # the store of i (then: i >= 10, i mod 3 = 0) never precedes a load of the
    # same element; the load of i (else) precedes the store of i + 1 or i + 2
    assert check_dependence(store, load, 1).mlir_str() == "false"
    assert check_dependence(load, store, 1).mlir_str() == "[1, 2]"


# ------------------------------------------------ unknown and totality

SEMI = """
func.func @semi(%A: memref<100x100xf32>, %N: index) {
  %c = arith.constant 0.0 : f32
  %c4 = arith.constant 4 : index
  affine.for %i = 0 to 10 {
    affine.store %c, %A[%i * %N, 0] : memref<100x100xf32>
    %v = affine.load %A[%i * %N, 1] : memref<100x100xf32>
    %w = affine.load %A[%i * %c4, 0] : memref<100x100xf32>
  }
  return
}
"""


def test_semi_affine_is_unknown_unless_disproved() -> None:
    doc = _doc(SEMI)
    store, load1, load4 = _ops(doc, ("affine.store", "affine.load"))
    r = check_dependence(store, store, 1)
    assert r.status == "unknown" and r.mlir_failure and r.has_dependence
    # the second subscript differs: independence is proven all the same
    assert check_dependence(store, load1, 1).status == "none"
    # a constant symbol folds: i * 4 is affine, the load itself is analysable
    fd = dependences_of_function(_func(doc))
    assert fd.accesses[2].analysable and not fd.accesses[0].analysable
    assert check_dependence(store, load4, 2).status == "unknown"
    # MLIR cannot build the access relation of a semi-affine access: the
    # pass reports a failure for every pair on the same memref that involves it
    rem = [r for r in memref_dependence_remarks([doc.sections[0].module])]
    failed = {(r.src, r.dst) for r in rem if r.failed}
    assert failed == {(0, 0), (0, 1), (1, 0), (0, 2), (2, 0)}
    assert all(r.message == "dependence check failed" and r.severity == "error" for r in rem if r.failed)
    assert {r.message for r in rem if (r.src, r.dst) == (2, 2)} == {"dependence from 2 to 2 at depth 1 = false", "dependence from 2 to 2 at depth 2 = false"}


def test_analysis_is_total_on_broken_ir() -> None:
    text = """
func.func @broken(%A: memref<10xf32>, %P: memref<?x?xf32>) {
  %c = arith.constant 1.0 : f32
  affine.for %i = 0 to %undefined {
    affine.store %c, %A[%i floordiv 0] : memref<10xf32>
    %x = "foo.bar"(%i) : (index) -> index
    %w = affine.load %A[%x] : memref<10xf32>
    affine.store %w, %Q[%i] : memref<10xf32>
    "foo.region"() ({
      affine.store %c, %A[%i] : memref<10xf32>
      "foo.yield"() : () -> ()
    }) : () -> ()
    affine.store %c, %P[%i] : memref<?x?xf32>
    affine.store %c, %A[%i, %i] : memref<10xf32>
    affine.parallel (%j) = (0) to (%i) step (0) {
      affine.store %c, %A[%j] : memref<10xf32>
    }
  }
  scf.for %k = %c to %c step %c {
    affine.store %c, %A[0] : memref<10xf32>
  }
  "unknown.op"() : () -> ()
  return
}
"""
    doc = Document(text)
    notes = analyze_document(doc)
    assert not [n for n in notes if n.code == "deps-internal"], notes
    fd = dependences_of_function(_func(doc))
    for s in fd.accesses:
        for d in fd.accesses:
            for depth in range(1, 4):
                fd.check(s, d, depth)
    fd.dataflow()
    for op in _ops(doc, ("affine.for", "affine.parallel")):
        loop_summary(op)
    _remarks(doc)
    # hand-built IR with missing pieces
    bare = Operation("affine.load", Span(0, 0), Span(0, 0))
    func = Operation("func.func", Span(0, 0), Span(0, 0))
    assert check_dependence(bare, bare, 1).status == "none"
    assert dependences_of_function(func).accesses == []


# -------------------------------------------------------------- the CLI


def test_cli_text_and_json(tmp_path, capsys) -> None:
    path = tmp_path / "k.mlir"
    text = SEED_SIMPLE + "\n// -----\n" + STRIDED
    path.write_text(text)
    lines = text.splitlines()
    st = next(i for i, ln in enumerate(lines) if "affine.store %cst" in ln) + 1
    st2 = next(i for i, ln in enumerate(lines) if "affine.store %c7" in ln) + 1
    assert cli.main(["deps", str(path), "--all-pairs"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert f"{path}:{st}:7: remark: dependence from 0 to 1 at depth 1 = [2, 2][0, 0]" in out
    assert f"{path}:{st2}:5: remark: dependence from 1 to 1 at depth 1 = [2, 8]" in out
    assert out[0] == f"{path}:{st}:7: remark: dependence from 0 to 0 at depth 1 = false"
    assert len(out) == 12 + 8
    # --split-input-file is accepted and changes nothing: sections are
    # always independent (numbering restarts), as in every command
    assert cli.main(["deps", str(path), "--all-pairs", "--split-input-file"]) == 0
    assert capsys.readouterr().out.splitlines() == out
    # by default only the pairs with a dependence
    assert cli.main(["deps", str(path)]) == 0
    shown = capsys.readouterr().out.splitlines()
    assert shown == [ln for ln in out if not ln.endswith("= false")] and len(shown) < len(out)
    assert cli.main(["deps", str(path), "--format", "json"]) == 0
    items = json.loads(capsys.readouterr().out)
    (item,) = [i for i in items if i["message"].endswith("= [2, 2][0, 0]")]
    assert item["kind"] == "RAW" and item["status"] == "dependence" and item["line"] == st and item["column"] == 7
    assert item["relation"] == "{ S0[arg0, arg1] -> S1[arg0' = 2 + arg0, arg1' = arg1] : 0 <= arg0 <= 6 and 0 <= arg1 <= 8 }"
    assert item["distances"] == "{ [d0 = 2, d1 = 0] }"


def test_diagnostics_collect_includes_analysis_notes() -> None:
    from affine_lsp import diagnostics

    doc = _doc(RACES)
    notes = diagnostics.collect(doc)
    assert any(n.code == "racy-parallel" for n in notes)


@pytest.mark.parametrize("src_text", [SEED_SIMPLE, KINDS, STRIDED, IF_ELSE, MODELS])
def test_remarks_are_in_mlir_emission_order(src_text: str) -> None:
    doc = Document(src_text)
    rem = memref_dependence_remarks([doc.sections[0].module])
    keys = [(r.src, r.dst, r.depth) for r in rem]
    assert keys == sorted(keys)
    n = len(pass_ops([doc.sections[0].module]))
    assert {(r.src, r.dst) for r in rem} == {(i, j) for i in range(n) for j in range(n)}


def test_cli_value_based_flow(tmp_path, capsys) -> None:
    path = tmp_path / "f.mlir"
    path.write_text(
        """func.func @flow(%A: memref<100xf32>, %B: memref<100xf32>) {
  %c0 = arith.constant 0.0 : f32
  affine.for %i = 0 to 50 {
    affine.store %c0, %A[%i] : memref<100xf32>
  }
  affine.for %j = 0 to 60 {
    %v = affine.load %A[%j] : memref<100xf32>
    affine.store %v, %B[%j] : memref<100xf32>
  }
  affine.for %k = 1 to 10 {
    %w = affine.load %B[%k - 1] : memref<100xf32>
    affine.store %w, %B[%k] : memref<100xf32>
  }
  return
}
"""
    )
    assert cli.main(["deps", str(path), "--flow"]) == 0
    out = [ln for ln in capsys.readouterr().out.splitlines() if "value of" in ln]
    assert out == [
        f"{path}:7:10: remark: value of 1 comes from 0 = true",
        f"{path}:7:10: remark: value of 1 comes from before the function for {{ S1[j] : 50 <= j <= 59 }}",
        f"{path}:11:10: remark: value of 3 comes from 2 = true",
        f"{path}:11:10: remark: value of 3 comes from 4 = [1, 1]",
    ]
    assert cli.main(["deps", str(path), "--flow", "--format", "json"]) == 0
    items = json.loads(capsys.readouterr().out)
    kinds = {i["dependence"] for i in items}
    assert kinds == {"memory-based", "value-based"}
    (flow,) = [i for i in items if i["dependence"] == "value-based" and i.get("from") == 4]
    assert flow["components"] == [[1, 1]] and flow["exact"] is True


PARALLEL_GROUPS = """
func.func @pg(%A: memref<100x100xf32>, %N: index) {
  %c = arith.constant 0.0 : f32
  affine.parallel (%i, %j) = (max(0, %N - 6), 1) to (min(9, %N), 12) step (2, 3) {
    affine.for %k = affine_map<(d0) -> (d0)>(%i) to affine_map<(d0) -> (d0 + 4)>(%i) step 2 {
      affine.store %c, %A[%i + %k, %j floordiv 2] : memref<100x100xf32>
      %v = affine.load %A[%k + 2, %j floordiv 2 + 1] : memref<100x100xf32>
    }
  }
  return
}
"""


@pytest.mark.parametrize("n", [3, 6, 8, 11])
def test_parallel_groups_steps_and_symbols_against_enumeration(n: int) -> None:
    doc = _doc(PARALLEL_GROUPS)
    store, load = _ops(doc, ("affine.store", "affine.load"))
    # pin %N: the engine's answer for N = n equals enumeration with N = n
    pinned = _doc(PARALLEL_GROUPS.replace("%N: index) {", "%unused: index) {\n  %N = arith.constant " + str(n) + " : index"))
    pstore, pload = _ops(pinned, ("affine.store", "affine.load"))
    for s, d, ps, pd in ((store, load, pstore, pload), (load, store, pload, pstore), (store, store, pstore, pstore)):
        for depth in range(1, 5):
            exact = brute_dependence(s, d, depth, {"%N": n})
            r = check_dependence(ps, pd, depth)
            assert (r.status == "none") == (exact is None), (n, depth)
            if exact is not None and depth <= 3:
                assert r.components == exact
            # symbolic: the engine's bounds hold for every value of %N
            sym = check_dependence(s, d, depth)
            if exact is not None:
                assert sym.status == "dependence"
                for (lo, hi), (elo, ehi) in zip(sym.components, exact):
                    assert (lo is None or lo <= elo) and (hi is None or ehi <= hi)


def test_engine_cache_does_not_deadlock_with_a_caller_holding_isl() -> None:
    """A thread that holds isl's lock (fusion analyses run under `limited`)
    asks for a function's engine while another thread is building that same
    engine: the builder needs isl's lock, so it must not hold the cache lock
    while it waits for it (this deadlocked the server once)."""
    import threading
    import time

    from affine_lsp.analysis import dependences_of_function
    from affine_lsp.analysis.isl_support import LOCK

    func = _func(
        _doc(
            "func.func @f(%A: memref<10xf32>) {\n  affine.for %i = 1 to 10 {\n    %v = affine.load %A[%i - 1] : memref<10xf32>\n    affine.store %v, %A[%i] : memref<10xf32>\n  }\n  return\n}\n"
        )
    )
    holds_isl = threading.Event()
    got: dict[str, object] = {}

    def holder() -> None:
        with LOCK:
            holds_isl.set()
            time.sleep(0.3)  # the builder is now waiting for isl's lock
            got["holder"] = dependences_of_function(func)

    def builder() -> None:
        holds_isl.wait()
        got["builder"] = dependences_of_function(func)

    threads = [threading.Thread(target=holder, daemon=True), threading.Thread(target=builder, daemon=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not any(t.is_alive() for t in threads), "deadlock between the engine cache and isl's lock"
    assert got["holder"] is got["builder"]  # one engine per function, whoever built it
    assert any(p.has_dependence for p in got["holder"].pairs)  # type: ignore[attr-defined]
