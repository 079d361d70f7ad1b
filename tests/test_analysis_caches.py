"""The polyhedral model shares loop domains and access relations between
functions (polyhedral._DOMAIN_CACHE, _ACCESS_CACHE) and the bounds check its
box tests (bounds_check._INSIDE_CACHE): functions that look alike but are not
(other shapes, sizes from the code, bounds, symbols) must get exactly the
answers they get when analysed alone with empty caches."""

from __future__ import annotations

import itertools

from affine_lsp import diagnostics
from affine_lsp.analysis import bounds_check, polyhedral
from affine_lsp.source.document import Document

# One loop nest, many variants with the same SSA names (so the same isl names).
NEST = """func.func @f{k}({args}) {{
  {pre}
  affine.for %i = {lb} to {ub} {{
    affine.for %j = 0 to 8 {{
      %a = affine.apply affine_map<(d0) -> (d0 + {off})>(%j)
      %v = affine.load %A[%i, %a] : {ty}
      affine.store %v, %A[%j, %i] : {ty}
    }}
  }}
  return
}}
"""

VARIANTS = [
    dict(args="%A: memref<8x8xf32>", pre="", lb="0", ub="8", off="0", ty="memref<8x8xf32>"),
    dict(args="%A: memref<8x8xf32>", pre="", lb="0", ub="8", off="1", ty="memref<8x8xf32>"),
    dict(args="%A: memref<9x9xf32>", pre="", lb="0", ub="8", off="1", ty="memref<9x9xf32>"),
    dict(args="%A: memref<8x8xf32>", pre="", lb="0", ub="9", off="0", ty="memref<8x8xf32>"),
    dict(args="%A: memref<8x8xf32>, %N: index", pre="", lb="0", ub="min affine_map<()[s0] -> (8, s0)>()[%N]", off="0", ty="memref<8x8xf32>"),
    dict(args="%A: memref<8x8xf32>, %N: index", pre="", lb="0", ub="%N", off="0", ty="memref<8x8xf32>"),
    dict(args="%c: index", pre="%A = memref.alloc(%c, %c) : memref<?x?xf32>", lb="0", ub="8", off="0", ty="memref<?x?xf32>"),
    dict(args="", pre="%c = arith.constant 8 : index\n  %A = memref.alloc(%c, %c) : memref<?x?xf32>", lb="0", ub="8", off="1", ty="memref<?x?xf32>"),
    dict(args="", pre="%c = arith.constant 9 : index\n  %A = memref.alloc(%c, %c) : memref<?x?xf32>", lb="0", ub="8", off="1", ty="memref<?x?xf32>"),
    dict(args="%A: memref<8x8xf32>", pre="", lb="1", ub="8", off="0", ty="memref<8x8xf32>"),
    dict(args="%A: memref<8x8xf32>", pre="", lb="0", ub="8", off="-1", ty="memref<8x8xf32>"),
]


def _clear() -> None:
    polyhedral._DOMAIN_CACHE.clear()
    polyhedral._ACCESS_CACHE.clear()
    bounds_check._INSIDE_CACHE.clear()


def _notes(text: str) -> list[tuple[str, int, int, str, str]]:
    doc = Document(text)
    out = []
    for n in diagnostics.collect(doc):
        related = tuple(m for _, m in (n.data or {}).get("related", []) or [])  # the witnesses
        out.append((n.severity, n.span.start, n.span.end, n.message, str(related)))
    return out


def test_shared_models_give_each_function_its_own_answers() -> None:
    texts = [NEST.format(k=k, **v) for k, v in enumerate(VARIANTS)]
    alone = []
    for t in texts:
        _clear()
        alone.append(_notes(t))
    assert any(alone), "the variants include out-of-bounds accesses"
    assert len({tuple(a) for a in alone}) > 3, "the variants differ in their answers"
    # Every order of two variants, caches warm from the first.
    for a, b in itertools.permutations(range(len(texts)), 2):
        _clear()
        _notes(texts[a])
        assert _notes(texts[b]) == alone[b], (a, b)
    # All variants in one document (one function each), caches cold then warm.
    whole = "".join(texts)
    _clear()
    cold = _notes(whole)
    assert _notes(whole) == cold
    start = 0
    for k, t in enumerate(texts):
        mine = [(sev, a - start, b - start, m, r) for sev, a, b, m, r in cold if start <= a < start + len(t)]
        assert mine == alone[k], k
        start += len(t)


# A semi-affine subscript (seed 31004 of the edit-stream fuzzer): the bound
# check models it a second time with its semi-affine part as a parameter;
# that model must not replace the access relation of the same access in the
# next analysis (a fresh open of the text warned with a witness instead of
# the note that the check is conservative).
SEMI_NEST = """func.func @semi{k}(%A: memref<10xf32>, %n: index) {{
  affine.for %i = 0 to %n {{
    affine.for %j = 0 to 4 {{
      %v = affine.load %A[{sub}] : memref<10xf32>
    }}
  }}
  return
}}
"""


def test_semi_affine_models_do_not_replace_shared_access_relations() -> None:
    texts = [SEMI_NEST.format(k=k, sub=sub) for k, sub in enumerate(["%i * symbol(%n)", "%j floordiv symbol(%n)", "%i + %j"])]
    alone = []
    for t in texts:
        _clear()
        alone.append(_notes(t))
    bounds = ["'affine.load' op memref out of upper bound access along dimension #1", "'affine.load' op memref out of lower bound access along dimension #1"]
    for semi in alone[:2]:
        assert [m for _, _, _, m, _ in semi] == bounds
        assert all("is semi-affine" in r for *_, r in semi)
    assert [m for _, _, _, m, _ in alone[2]] == bounds[:1] and "for example at" in alone[2][0][4]
    for t, first in zip(texts, alone):
        assert _notes(t) == first  # the same text again, caches warm
    _clear()
    whole = "".join(texts * 2)  # alike functions in one document
    notes = _notes(whole)
    assert _notes(whole) == notes
    start = 0
    for k, t in enumerate(texts * 2):
        mine = [(sev, a - start, b - start, m, r) for sev, a, b, m, r in notes if start <= a < start + len(t)]
        assert mine == alone[k % len(texts)], k
        start += len(t)
