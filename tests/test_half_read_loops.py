"""Found by a fuzz run: an ``affine.for`` without bound maps (a generic op
written without them, or one the parser only half read) made the loop
transformations of this round raise when an editor asked for code actions
or a hover on it. They now offer nothing for such a nest; the rest of the
menu (and the hover) still answers."""

from __future__ import annotations

import logging

import pytest

from affine_lsp.ir.affine_ops import nest_is_well_formed
from affine_lsp.server.transform_actions import transforms_for
from affine_lsp.source.document import Document
from affine_lsp.transforms.loop_verdicts import verdicts

HALF_READ = """func.func @f(%A: memref<8xf32>) {
  "affine.for"() ({
  ^bb0(%i: index):
    affine.for %j = 0 to 8 {
      %v = affine.load %A[%j] : memref<8xf32>
      affine.store %v, %A[%j] : memref<8xf32>
    }
    "affine.yield"() : () -> ()
  }) : () -> ()
  return
}
"""


def _loops(doc: Document) -> list:
    return [op for s in doc.sections for op in s.module.walk() if op.name == "affine.for"]


def test_a_nest_with_a_loop_without_bounds_gets_no_transformation_and_no_error(caplog: pytest.LogCaptureFixture) -> None:
    doc = Document(HALF_READ)
    outer, inner = _loops(doc)
    assert not nest_is_well_formed(outer) and not nest_is_well_formed(inner)  # the inner one is inside it
    with caplog.at_level(logging.ERROR):
        for loop in (outer, inner):
            ts = transforms_for(doc, [loop], 8)
            assert not any(t.title.startswith(("Tile", "Unroll", "Interchange", "Hoist", "Scalar")) for t in ts)
            assert verdicts(loop) == []
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]


def test_a_well_formed_nest_still_gets_them() -> None:
    doc = Document(
        HALF_READ.replace('"affine.for"() ({\n  ^bb0(%i: index):', "affine.for %i = 0 to 4 {").replace(
            '    "affine.yield"() : () -> ()\n  }) : () -> ()', "  }"
        )
    )
    loops = _loops(doc)
    assert len(loops) == 2 and all(nest_is_well_formed(lp) for lp in loops)
    titles = [t.title for t in transforms_for(doc, [loops[1]], 8)]
    assert any(t.startswith("Unroll") for t in titles), titles
    names = [v.name for v in verdicts(loops[1])]
    assert any(n.startswith("tile") for n in names) and "interchange" in names and any(n.startswith("unroll") for n in names), names


def test_no_unroll_of_a_loop_that_ends_a_block_without_terminator() -> None:
    """Found by a fuzz run: fully unrolling an empty loop that was the last op
    of a function body without ``return`` left the body empty, a new error
    ("expected non-empty function body"). Such a loop is not unrolled."""
    from affine_lsp.transforms.unroll import unroll_reason

    broken = Document("func.func @damaged(%A: memref<8xf32>) {\n  affine.for %i = 0 to 8 {\n  }\n}\n")
    (loop,) = _loops(broken)
    assert unroll_reason(loop, None) == unroll_reason(loop, 2) == "the loop's block has no terminator"
    fine = Document("func.func @f(%A: memref<8xf32>) {\n  affine.for %i = 0 to 8 {\n  }\n  return\n}\n")
    (loop,) = _loops(fine)
    assert unroll_reason(loop, None) is None


def test_a_loop_with_step_zero_gets_no_transformation_and_hovers(caplog: pytest.LogCaptureFixture) -> None:
    """Found by a fuzz run: ``step 0`` (a verifier error) made the trip
    count divide by zero in the hover and in the new transformations."""
    from affine_lsp.ide.describe import trip_count

    doc = Document("func.func @f(%A: memref<8xf32>) {\n  affine.for %i = 0 to 8 step 0 {\n    %v = affine.load %A[%i] : memref<8xf32>\n  }\n  return\n}\n")
    (loop,) = _loops(doc)
    assert not nest_is_well_formed(loop)
    assert trip_count(loop) == "unknown (the step is not positive)"
    with caplog.at_level(logging.ERROR):
        titles = [t.title for t in transforms_for(doc, [loop], 8)]
        assert verdicts(loop) == []
    assert not any(t.startswith(("Tile", "Unroll", "Hoist")) for t in titles), titles
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
