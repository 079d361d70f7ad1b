"""The out-of-bounds check's shortcut for dynamic dimensions
(``bounds_check._in_bounds_at``) gives the exact test's answers.

A dynamic dimension is reported only when, for every value of the
parameters for which the access executes, some instance is out of bounds
(``exec_params.is_subset(bad.domain().params())``). The shortcut proves the
answer "no" at one choice of the parameters, without the projection; when
it cannot, the exact test runs. Every warning (message, place, example)
must be the same with the shortcut and with the exact test alone, on
content where the shortcut decides (symbolic bounds, dynamic shapes) and
where it must fall back (a size that bounds its own loop, a symbol in a
subscript only, guards).
"""

from __future__ import annotations

from typing import Any

import pytest

from affine_lsp.analysis import analyze_document, bounds_check
from affine_lsp.source.document import Document
from bench.content import generate_kind
from tests.corpus import needs_corpus, valid_sections

DYNAMIC = """
func.func @own_bound(%D: memref<?xf32>, %E: memref<?x?xf32>, %N: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %D, %c0 : memref<?xf32>
  affine.for %i = 0 to %n {
    %a = affine.load %D[%i + 1] : memref<?xf32>
    %b = affine.load %D[%i] : memref<?xf32>
    %c = affine.load %D[%i - 1] : memref<?xf32>
  }
  affine.for %i = 0 to %N {
    %d = affine.load %D[%i + symbol(%s)] : memref<?xf32>
    %e = affine.load %D[symbol(%n)] : memref<?xf32>
  }
  %m = memref.dim %E, %c1 : memref<?x?xf32>
  affine.for %i = 0 to %N {
    affine.for %j = 0 to %m {
      affine.if affine_set<(d0)[s0] : (s0 - d0 - 2 >= 0)>(%j)[%m] {
        %f = affine.load %E[%i, %j + 1] : memref<?x?xf32>
      }
      %g = affine.load %E[%i, %j + 1] : memref<?x?xf32>
      %h = affine.load %E[%i, %j * 2] : memref<?x?xf32>
    }
  }
  affine.for %i = max affine_map<(d0) -> (0, d0 - 4)>(%N) to min affine_map<(d0)[s0] -> (s0, d0 + 4)>(%N)[%n] {
    %k = affine.load %D[%i] : memref<?xf32>
    %l = affine.load %D[%i + 4] : memref<?xf32>
  }
  return
}
"""


def _warnings(text: str) -> list[tuple[int, str, Any]]:
    doc = Document(text, uri="file:///bounds.mlir")
    notes = [n for n in analyze_document(doc) if n.code == "memref-bound"]
    return sorted((n.span.start, n.message, repr(n.data)) for n in notes)


def _both(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[int, str, Any]], list[tuple[int, str, Any]], int]:
    """(warnings with the shortcut, warnings with the exact test alone, how
    many times the shortcut decided)."""
    real = bounds_check._in_bounds_at
    decided = 0

    def counting(*args: Any) -> bool:
        nonlocal decided
        got = real(*args)
        decided += got
        return got

    monkeypatch.setattr(bounds_check, "_in_bounds_at", counting)
    fast = _warnings(text)
    monkeypatch.setattr(bounds_check, "_in_bounds_at", lambda *args: False)
    exact = _warnings(text)
    monkeypatch.setattr(bounds_check, "_in_bounds_at", real)
    return fast, exact, decided


def test_dynamic_sizes_give_the_exact_tests_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    fast, exact, decided = _both(DYNAMIC, monkeypatch)
    assert fast == exact
    assert decided > 0
    lines = sorted({DYNAMIC[:start].count("\n") + 1 for start, _, _ in fast})
    # %D[%i + 1] with i < dim(D): out of bounds whatever the size; so is
    # %E[%i, %j + 1] unguarded, with j < dim(E, 1); and %D[%i - 1] at i = 0
    assert [DYNAMIC.split("\n")[k - 1].strip().split(" =")[0] for k in lines] == ["%a", "%c", "%g"]


@pytest.mark.parametrize("kind", ["symbolic", "modfloor", "all", "mixed"])
def test_generated_content_gives_the_exact_tests_warnings(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast, exact, decided = _both(generate_kind(kind, 600), monkeypatch)
    assert fast == exact
    if kind in ("symbolic", "all"):
        assert decided > 0


@needs_corpus
def test_corpus_sections_with_dynamic_shapes_give_the_exact_tests_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    sections = [text for _, text in valid_sections() if "?x" in text or "<?" in text]
    assert sections
    fast, exact, decided = _both("\n// -----\n".join(sections), monkeypatch)
    assert fast == exact
    assert decided > 0
