"""Vectorization is proven by execution: kernels run before and after.

``tests/data/vectorize/kernels.mlir`` holds element-wise kernels, float and
integer reductions (inner and outer, nested, returned), matmul, jacobi-1d,
jacobi-2d, fdtd-2d, syrk (triangular), shifted stencils, a far dependence,
step-2/step-3 loops, the induction variable as a value, integer division
under masks, permutation maps and f64/i64 conversions -- most trip counts not
multiples of the vector width. Every kernel runs with ``mlir-runner`` on the
input and on our output; the printed memrefs and results must agree (floats
within reassociation tolerance, integers exactly).

Runs: ``--all`` with VF 4, 8 and 16; then every vectorizable loop on its own
(batched: round ``r`` vectorizes the ``r``-th legal loop of every kernel);
then MLIR 22.1.8's ``-affine-super-vectorize`` on the same kernels, which
must get exactly the known shapes wrong (llvm-project#218120: the last
vector writes past the loop's range; #225247: strided loops treated as
contiguous) -- the proof that not copying its behaviour matters.
"""

from __future__ import annotations

import pytest

from affine_lsp.source.document import Document
from affine_lsp.transforms.vectorize import vectorize_document, vectorize_reason
from tests import oracle
from tests.test_vectorize_harness import KERNELS, differences, kernels_of, needs_runner, run

pytestmark = [needs_runner, pytest.mark.oracle]


@pytest.fixture(scope="module")
def source() -> str:
    return KERNELS.read_text()


@pytest.fixture(scope="module")
def reference_output(source: str) -> str:
    return run(source)


def legal_loops(text: str, vf: int) -> dict[str, list[int]]:
    """Per kernel, the lines of its vectorizable loops (pre-order)."""
    doc = Document(text)
    out: dict[str, list[int]] = {}
    for sec in doc.sections:
        for f in sec.functions():
            name = str(f.attributes["sym_name"].value)  # type: ignore[attr-defined]
            out[name] = [doc.lines.line_of(op.span.start) + 1 for op in f.walk() if op.name == "affine.for" and vectorize_reason(op, vf) is None]
    return out


@pytest.mark.parametrize("vf", [4, 8, 16])
def test_all_loops_keep_their_results(source: str, reference_output: str, vf: int) -> None:
    new, outcomes = vectorize_document(source, vf, force=True)
    done = [o for o in outcomes if o.done]
    assert len(done) >= 25, [o for o in outcomes if not o.done]
    # remainder loops where the trip count is not a multiple of the width, no
    # masks (tests/test_vectorize_profit.py runs the masked case)
    assert "vector.transfer_write" in new and "vector.reduction" in new and "in_bounds = [true]" in new
    assert "vector.create_mask" not in new
    assert not differences(reference_output, run(new))


def test_profitable_loops_keep_their_results(source: str, reference_output: str) -> None:
    """``--all`` without ``--force``: only the loops predicted to help
    (float reductions, outer-loop vectorization), still the same values."""
    new, outcomes = vectorize_document(source, 8)
    done = [o for o in outcomes if o.done]
    declined = [o for o in outcomes if not o.done and o.message.startswith("predicted not profitable")]
    assert len(done) >= 5 and len(declined) >= 10
    assert all(("float reduction" in o.message or "outer-loop vectorization" in o.message) for o in done), done
    assert "vector.create_mask" not in new
    assert not differences(reference_output, run(new))


def test_every_vectorizable_loop_alone_keeps_the_results(source: str, reference_output: str) -> None:
    legal = legal_loops(source, 8)
    # the shapes the kernels exist for are all vectorizable somewhere
    for k in ("add", "reduce_f", "reduce_i", "dot", "column_sums", "nested_reduction", "matmul", "matmul_iter", "jacobi_1d", "jacobi_2d", "fdtd_2d", "syrk"):
        assert legal[k], k
    assert legal["shift_right"] == []
    rounds = max(len(v) for v in legal.values())
    assert rounds >= 4
    for r in range(rounds):
        lines = [v[r] for v in legal.values() if len(v) > r]
        new, outcomes = vectorize_document(source, 8, lines)
        assert all(o.done for o in outcomes if o.line in lines), [o for o in outcomes if not o.done]
        bad = differences(reference_output, run(new))
        assert not bad, f"round {r} (lines {lines}): {bad}"


def test_explicit_widths_with_far_dependence_and_strides(source: str) -> None:
    doc = Document(source)
    loops = {doc.lines.line_of(op.span.start) + 1: op for s in doc.sections for op in s.module.walk() if op.name == "affine.for"}
    by_kernel = {str(f.attributes["sym_name"].value): f for s in doc.sections for f in s.functions()}  # type: ignore[attr-defined]

    def first_loop(kernel: str) -> int:
        f = by_kernel[kernel]
        return min(line for line, op in loops.items() if f.is_ancestor_of(op))

    far = loops[first_loop("far_dependence")]
    assert vectorize_reason(far, 16) is None  # distance 20 >= 16
    reason = vectorize_reason(far, 32)
    assert reason is not None and "RAW dependence" in reason and "[20, 20]" in reason
    step2 = loops[first_loop("step2")]
    reason = vectorize_reason(step2, 8)
    assert reason is not None and "2 elements apart" in reason
    shift = loops[first_loop("shift_right")]
    assert "RAW dependence" in (vectorize_reason(shift, 4) or "")


def _module_body(text: str) -> str:
    """The ops of mlir-opt's ``module { ... }`` (``text`` itself otherwise)."""
    t = text.strip()
    return t.removeprefix("module {").removesuffix("}") if t.startswith("module {") else t


def test_mlir_super_vectorizer_miscompiles_these_kernels(source: str, reference_output: str) -> None:
    """MLIR 22.1.8 on the same kernels: the outputs differ exactly where the
    trip count is not a multiple of the width (writes past the range) or the
    loop is strided -- which is why we mask and refuse strides."""
    kernels = kernels_of(source)
    doc = Document(source)
    functions = {str(f.attributes["sym_name"].value): source[f.span.start : f.span.end] for s in doc.sections for f in s.functions()}  # type: ignore[attr-defined]
    wrong: dict[int, set[str]] = {}
    crashed: dict[int, set[str]] = {}
    for vf in (4, 8):
        parts, crashed[vf] = [], set()
        for name, text in functions.items():
            try:
                parts.append(oracle.opt(text, f"-affine-super-vectorize=virtual-vector-size={vf} vectorize-reductions=true", "-mlir-print-local-scope"))
            except RuntimeError:  # MLIR crashed: run the function as it was
                crashed[vf].add(name)
                parts.append(text)
        joined = "\n".join(_module_body(p) for p in parts)
        wrong[vf] = set(differences(reference_output, run(joined, kernels)))
    # 22.1.8 crashes ("operation destroyed but still has uses") on outer-loop
    # vectorization with a uniform inner loop
    assert crashed[8] == {"outer_mix"}
    # trip counts 37, 41, 28 (1 to 29), 12 (1 to 13), i + 1, ...: past the range
    assert {"add", "saxpy_shifted", "scale_n", "jacobi_1d", "jacobi_2d", "fdtd_2d", "syrk"} <= wrong[8]
    # a step-2 loop written as contiguous lanes
    assert "step2" in wrong[4] and "step2" in wrong[8]
    # reductions are masked by MLIR too, and the kernels it cannot vectorize stay right
    assert not wrong[8] & {"reduce_f", "reduce_i", "dot", "column_sums", "nested_reduction", "shift_right", "iota_div"}
