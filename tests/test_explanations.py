"""Explanations that are true: every reason is checked against the facts it
names (issue 43, item 4).

* An unchanged schedule is "already optimal", never "not profitable ~0.80x"
  (``optimize --explain``, the disabled "Optimize loop nest").
* The value-based distance of a dependence is the last-writer distance of
  the dataflow engine, the memory-based one the dependence engine's.
* "not legal" only where a dependence (or the verifier) forbids the
  rewrite: a size threshold is "not offered", a rewrite with nothing to
  rewrite "not applicable" -- over every loop of several real kernels.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from affine_lsp.analysis import dependences_of_function
from affine_lsp.analysis.dataflow import last_writer_distance
from affine_lsp.analysis.polyhedral import scope_of
from affine_lsp.ide import describe as D
from affine_lsp.ir.affine_ops import ForView
from affine_lsp.source.document import Document
from affine_lsp.transforms.loop_verdicts import hover_lines, verdicts
from affine_lsp.transforms.optimize import optimize_document, optimize_transform, top_level_loops
from affine_lsp.transforms.unroll import FULL_UNROLL_LIMIT
from affine_lsp.transforms.verdict import Kind

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "server" / "explanations.mlir"
KERNELS = [ROOT / "bench" / "kernels" / f"{k}.mlir" for k in ("2mm", "atax", "jacobi-1d", "seidel-2d", "floyd-warshall")] + [ROOT / "examples" / "stencil.mlir"]

SIMPLE_PARALLEL = {
    "copy 1-D": """func.func @f(%A: memref<100xf32>, %B: memref<100xf32>) {
  affine.for %i = 0 to 100 {
    %v = affine.load %A[%i] : memref<100xf32>
    affine.store %v, %B[%i] : memref<100xf32>
  }
  return
}
""",
    "scale 1-D": """func.func @f(%A: memref<64xf64>, %x: f64) {
  affine.for %i = 0 to 64 {
    %v = affine.load %A[%i] : memref<64xf64>
    %w = arith.mulf %v, %x : f64
    affine.store %w, %A[%i] : memref<64xf64>
  }
  return
}
""",
    "copy 2-D": """func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %v = affine.load %A[%i, %j] : memref<8x8xf32>
      affine.store %v, %B[%i, %j] : memref<8x8xf32>
    }
  }
  return
}
""",
}


@pytest.mark.parametrize("name", sorted(SIMPLE_PARALLEL))
def test_an_unchanged_schedule_is_already_optimal_not_a_slowdown(name: str) -> None:
    text = SIMPLE_PARALLEL[name]
    new, outcomes, explains = optimize_document(text)
    assert new == text
    [(_, explain, pred)] = explains
    assert pred is not None and pred.unchanged and not pred.profitable
    said = "\n".join([*explain, pred.markdown(), outcomes[0].message])
    assert "0.80" not in said and "no innermost loop of the new schedule" not in said, said
    assert pred.markdown().startswith("Already optimal: schedule unchanged"), pred.markdown()
    assert "already optimal, schedule unchanged" in outcomes[0].message
    # the same words on the disabled "Optimize loop nest"
    doc = Document(text)
    loop = top_level_loops(next(iter(doc.sections[0].functions())))[0]
    t = optimize_transform(doc, [loop])
    assert not t.edits and "already optimal, schedule unchanged" in t.title and "0.80" not in t.title, t.title


def test_a_schedule_that_loses_the_vector_loop_still_says_so() -> None:
    """The 0.8x rule itself stays where it is true: the innermost loop of
    the original order vectorizes and that of the new one does not. A 1-D
    parallel unit-stride loop is a vector loop of the new schedule too."""
    from affine_lsp.transforms.optimize_model import build_model
    from affine_lsp.transforms.optimize_schedule import compute

    doc = Document(SIMPLE_PARALLEL["copy 1-D"])
    func = next(iter(doc.sections[0].functions()))
    model = build_model(top_level_loops(func), dependences_of_function(func))
    sched = compute(model, None, False)
    assert [b.vector for b in sched.bands] == [0] and sched.bands[0].coincident == [True]


def _accumulator() -> tuple[object, object]:
    doc = Document(DATA.read_text())
    func = next(f for f in doc.sections[0].functions() if "accumulate" in str(f.attributes["sym_name"].value))  # type: ignore[attr-defined]
    fd = dependences_of_function(func)
    raw = [r for p in fd.pairs for r in p.results if r.kind == "RAW" and r.has_dependence and r.is_carried]
    assert len(raw) == 1
    return fd, raw[0]


def test_the_value_based_distance_is_the_dataflow_engines_and_the_memory_based_the_dependence_engines() -> None:
    fd, dep = _accumulator()
    memory = list(dep.components)  # type: ignore[attr-defined]
    value = last_writer_distance(fd.dataflow(), dep)  # type: ignore[attr-defined]
    # the facts: every earlier store wrote %s[0], but only the previous one is the last writer
    assert memory == [(1, 9)] and value == [(1, 1)]
    row = D.dep_row(dep, None, lambda op: 0, fd=fd)
    cells = dict(zip(D.DEP_HEADER, row))
    assert cells["memory-based distance"] == f"`{D.components_str(memory)}`"
    assert cells["value flow"] == f"value-based `{D.components_str(value)}`"
    # the worker's answer (src, dst, depth) -> distance gives the same row
    flows = {(dep.src.index, dep.dst.index, dep.depth): tuple(value)}  # type: ignore[attr-defined]
    assert D.dep_row(dep, None, lambda op: 0, flows=flows) == row


def test_a_dependence_without_value_flow_is_memory_based_only() -> None:
    fd, _ = _accumulator()
    others = [r for p in fd.pairs for r in p.results if r.kind in ("WAR", "WAW") and r.has_dependence]  # type: ignore[attr-defined]
    assert others
    for r in others:
        cells = dict(zip(D.DEP_HEADER, D.dep_row(r, None, lambda op: 0, fd=fd)))
        assert cells["value flow"] == "memory-based only"


def _loops(path: Path) -> list[tuple[int, object]]:
    doc = Document(path.read_text())
    out = []
    for sec in doc.sections:
        for f in sec.functions():
            dependences_of_function(f)  # the engine the hover reads (unroll-and-jam asks for a ready one)
            out += [(doc.lines.line_of(op.span.start) + 1, op) for op in f.walk() if op.name == "affine.for"]
    return out


DEPENDENCE_WORDS = re.compile(r"(RAW|WAR|WAW) dependence from .* (would be reversed|negative along|would reverse)|would reverse the (RAW|WAR|WAW) dependence")


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.stem)
def test_not_legal_only_where_a_dependence_or_the_verifier_forbids(path: Path) -> None:
    kinds: set[Kind] = set()
    for line, loop in _loops(path):
        vs = verdicts(loop)  # type: ignore[arg-type]
        words = hover_lines(loop)  # type: ignore[arg-type]
        for v in vs:
            kinds.add(v.kind)
            said = next(w for w in words if w.startswith(f"- {v.name}:"))
            assert ("not legal" in said) == (v.kind is Kind.ILLEGAL), said
            if v.kind is Kind.ILLEGAL:
                # a dependence that the rewrite reverses, named with its kind and accesses,
                # or loop bounds that would use an IV outside its loop (the verifier)
                assert DEPENDENCE_WORDS.search(v.reason) or "which would move inside it" in v.reason, (line, v)
                if DEPENDENCE_WORDS.search(v.reason):
                    fd = dependences_of_function(scope_of(loop))  # type: ignore[arg-type]
                    assert fd.carried_by(loop) or any(fd.carried_by(inner) for inner in loop.walk() if inner.name == "affine.for"), (line, v)  # type: ignore[attr-defined]
            if v.name == "full unroll" and v.kind is not Kind.LEGAL:
                tc = ForView(loop).constant_trip_count()  # type: ignore[arg-type]
                assert tc is not None and tc > FULL_UNROLL_LIMIT
                assert v.kind is Kind.NOT_OFFERED and v.reason.startswith(f"trip count {tc} > {FULL_UNROLL_LIMIT}"), v
                assert said.startswith(f"- full unroll: not offered — trip count {tc} > {FULL_UNROLL_LIMIT}"), said
            if v.name.startswith(("scalar replacement", "hoist invariant code")) and not v.legal:
                assert v.kind is Kind.NOT_APPLICABLE, v
    assert Kind.NOT_OFFERED in kinds and Kind.NOT_APPLICABLE in kinds


def test_the_kernels_have_illegal_verdicts_to_check() -> None:
    """The property above is not vacuous: the stencils have rewrites a dependence forbids."""
    found = [v for p in KERNELS for _, loop in _loops(p) for v in verdicts(loop) if v.kind is Kind.ILLEGAL]  # type: ignore[arg-type]
    assert len(found) >= 3 and all(DEPENDENCE_WORDS.search(v.reason) for v in found)
