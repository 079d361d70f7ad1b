"""``vector.transfer_read``/``transfer_write`` in the dependence engine: a
transfer touches the vector-shaped box at its indices (``permutation_map``,
``in_bounds``), so a nest already vectorized is analysed exactly. Every
pair of accesses at every depth is compared with the brute-force
enumerator (``analysis/bruteforce.py``), which executes the nest."""

from __future__ import annotations

import pytest

from affine_lsp.analysis import check_dependence, loop_summary
from affine_lsp.analysis.bruteforce import brute_dependence
from affine_lsp.ir.core import Operation
from affine_lsp.source.document import Document

ACCESS_OPS = ("affine.load", "affine.store", "vector.transfer_read", "vector.transfer_write")

# a vectorized row update: each row's 8-wide transfers, then a scalar read of
# the row before (a dependence carried by %i, distance 1, found only when
# the transfer's box is modelled; the transfers alone are independent along %j)
ROW = """
func.func @row(%A: memref<6x16xf32>, %B: memref<6x16xf32>) {
  %pad = arith.constant 0.0 : f32
  affine.for %i = 1 to 6 {
    affine.for %j = 0 to 16 step 8 {
      %v = vector.transfer_read %B[%i, %j], %pad {in_bounds = [true]} : memref<6x16xf32>, vector<8xf32>
      vector.transfer_write %v, %A[%i, %j] {in_bounds = [true]} : vector<8xf32>, memref<6x16xf32>
    }
    %x = affine.load %A[%i - 1, 5] : memref<6x16xf32>
    affine.store %x, %B[%i, 3] : memref<6x16xf32>
  }
  return
}
"""

# a transposed write (permutation_map (d0, d1) -> (d0)): the vector runs
# along the memref's first dimension; the read of a shifted window overlaps
# the previous iteration's write
TRANSPOSED = """
func.func @transposed(%A: memref<12x4xf32>) {
  %pad = arith.constant 0.0 : f32
  affine.for %j = 0 to 4 {
    affine.for %i = 0 to 8 step 4 {
      %v = vector.transfer_read %A[%i, %j], %pad {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<12x4xf32>, vector<4xf32>
      %k = affine.apply affine_map<(d0) -> (d0 + 2)>(%i)
      vector.transfer_write %v, %A[%k, %j] {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : vector<4xf32>, memref<12x4xf32>
    }
  }
  return
}
"""

# transfers that run past the end (in_bounds false: MLIR masks the elements
# outside the memref), a broadcast read (permutation_map to 0) and a 2-D
# vector
EDGES = """
func.func @edges(%A: memref<10xf32>, %M: memref<5x7xf32>, %C: memref<3x10xf32>) {
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  affine.for %i = 0 to 10 step 4 {
    %v = vector.transfer_read %A[%i], %pad : memref<10xf32>, vector<4xf32>
    %w = arith.addf %v, %v : vector<4xf32>
    vector.transfer_write %w, %A[%i] : vector<4xf32>, memref<10xf32>
    %b = vector.transfer_read %C[%c2, %i], %pad {in_bounds = [true, false], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<3x10xf32>, vector<2x4xf32>
    %s = affine.load %A[9] : memref<10xf32>
    affine.store %s, %C[2, 7] : memref<3x10xf32>
  }
  affine.for %r = 0 to 5 step 2 {
    %t = vector.transfer_read %M[%r, %c3], %pad : memref<5x7xf32>, vector<2x4xf32>
    vector.transfer_write %t, %M[%r, %c0] : vector<2x4xf32>, memref<5x7xf32>
  }
  return
}
"""


def _doc(text: str) -> Document:
    doc = Document(text)
    errors = [n.message for n in doc.notes() if n.severity == "error"]
    assert not errors, errors
    return doc


def _ops(doc: Document, names: tuple[str, ...]) -> list[Operation]:
    return [op for s in doc.sections for op in s.module.walk() if op.name in names]


@pytest.mark.parametrize("text", [ROW, TRANSPOSED, EDGES], ids=["row", "transposed", "edges"])
def test_transfers_match_the_enumerator(text: str) -> None:
    doc = _doc(text)
    ops = _ops(doc, ACCESS_OPS)
    assert any(op.name.startswith("vector.") for op in ops)
    found = 0
    for src in ops:
        for dst in ops:
            c = check_dependence(src, dst, 1).num_common
            for depth in range(1, c + 2):
                r = check_dependence(src, dst, depth)
                exact = brute_dependence(src, dst, depth)
                if exact is None:
                    assert r.status == "none", (src.name, dst.name, depth, r.mlir_str())
                else:
                    found += 1
                    assert r.status == "dependence", (src.name, dst.name, depth, r.reason)
                    assert r.components == [tuple(x) for x in exact], (src.name, dst.name, depth, r.components, exact)
    assert found


def test_vectorized_loop_is_parallel_and_the_carrying_one_is_not() -> None:
    doc = _doc(ROW)
    outer, inner = _ops(doc, ("affine.for",))
    assert loop_summary(inner).parallel, loop_summary(inner).reasons
    assert not loop_summary(outer).parallel
    t = _doc(TRANSPOSED)
    j, i = _ops(t, ("affine.for",))
    assert loop_summary(j).parallel, loop_summary(j).reasons
    assert not loop_summary(i).parallel


def test_past_the_end_is_clamped_and_a_mask_is_an_approximation() -> None:
    from affine_lsp.analysis import dependences_of_function

    doc = _doc(EDGES)
    fd = dependences_of_function(next(iter(doc.sections[0].functions())))
    reads = [a for a in fd.accesses if a.op.name == "vector.transfer_read"]
    assert all(a.exact for a in reads)
    # %A[8] reads 8..11 of a memref of 10: only 8 and 9 are touched
    assert reads[0].relation.range().lexmax().to_str() == "{ A[y0 = 9] }"
    # the broadcast read of %C[2, %i] touches row 2 only, clamped along the other dimension
    assert reads[1].relation.range().lexmax().to_str() == "{ C[y0 = 2, y1 = 9] }"
    assert reads[1].relation.range().lexmin().to_str() == "{ C[y0 = 2, y1 = 0] }"
    masked = _doc(
        """
func.func @m(%A: memref<16xf32>, %n: index) {
  %pad = arith.constant 0.0 : f32
  affine.for %i = 0 to 16 step 8 {
    %mask = vector.create_mask %n : vector<8xi1>
    %v = vector.transfer_read %A[%i], %pad, %mask : memref<16xf32>, vector<8xf32>
    vector.transfer_write %v, %A[%i], %mask : vector<8xf32>, memref<16xf32>
  }
  return
}
"""
    )
    fm = dependences_of_function(next(iter(masked.sections[0].functions())))
    accs = [a for a in fm.accesses if a.op.name.startswith("vector.transfer")]
    assert len(accs) == 2 and not any(a.exact for a in accs)
    assert loop_summary(_ops(masked, ("affine.for",))[0]).parallel
