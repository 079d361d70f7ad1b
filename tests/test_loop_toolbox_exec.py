"""Unroll, unroll-and-jam, hoisting and scalar replacement, proven by execution.

The kernels of ``tests/data/loop_toolbox/kernels.mlir`` (PolyBench-style:
gemm, jacobi-1d, seidel-2d, a wavefront with distance (1, -1), imperfect
nests, symbolic and zero trip counts, ``min`` bounds, steps, a triangle,
reductions in ``iter_args``, invariant code, store-to-load forwarding,
doitgen) and those of ``tests/data/vectorize/kernels.mlir`` are run with
``mlir-runner`` before and after each transformation applied with ``--all``
(several factors); every output is accepted by mlir-opt 22.1.8 and prints
the same numbers. Unroll-and-jam refusals are shown to matter: the refused
loops, rewritten anyway (the internal ``force`` flag), compute something
else -- and so does MLIR's own ``-affine-loop-unroll-jam``, which does not
check dependences.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from affine_lsp.source.document import Document
from affine_lsp.transforms.hoist import hoist_document
from affine_lsp.transforms.rewrite import LoopOutcome
from affine_lsp.transforms.scalrep import scalrep_document
from affine_lsp.transforms.unroll import unroll_document
from affine_lsp.transforms.unroll_jam import jam_reason, jammed_loops, unroll_jam_document
from tests import oracle
from tests.test_vectorize_harness import KERNELS, differences, kernels_of, needs_runner, run

pytestmark = [needs_runner, pytest.mark.oracle]

TOOLBOX = Path(__file__).parent / "data" / "loop_toolbox" / "kernels.mlir"
SOURCES = {"toolbox": TOOLBOX, "vectorize": KERNELS}

Transform = Callable[[str], tuple[str, list[LoopOutcome]]]
TRANSFORMS: dict[str, Transform] = {
    "unroll2": lambda t: unroll_document(t, None, 2),
    "unroll3": lambda t: unroll_document(t, None, 3),
    "unroll4": lambda t: unroll_document(t, None, 4),
    "unroll8": lambda t: unroll_document(t, None, 8),
    "full": lambda t: unroll_document(t, None, None),
    "jam2": lambda t: unroll_jam_document(t, None, 2),
    "jam3": lambda t: unroll_jam_document(t, None, 3),
    "jam4": lambda t: unroll_jam_document(t, None, 4),
    "hoist": hoist_document,
    "scalrep": scalrep_document,
}
# at least this many rewrites per (transform, kernels): the runs test something
MINIMUM = {
    ("unroll2", "toolbox"): 15,
    ("unroll8", "toolbox"): 5,
    ("full", "toolbox"): 10,
    ("jam2", "toolbox"): 5,
    ("jam4", "toolbox"): 5,
    ("hoist", "toolbox"): 2,
    ("scalrep", "toolbox"): 5,
    ("unroll2", "vectorize"): 25,
    ("full", "vectorize"): 10,
    ("jam2", "vectorize"): 10,
    ("hoist", "vectorize"): 5,
    ("scalrep", "vectorize"): 0,  # no load there reads a value already in SSA
}


@pytest.fixture(scope="module")
def sources() -> dict[str, str]:
    return {k: p.read_text() for k, p in SOURCES.items()}


@pytest.fixture(scope="module")
def references(sources: dict[str, str]) -> dict[str, str]:
    return {k: run(t) for k, t in sources.items()}


def _kernel_of(text: str, line: int) -> str:
    doc = Document(text)
    off = sum(len(x) + 1 for x in text.split("\n")[: line - 1])
    for s in doc.sections:
        for f in s.functions():
            if f.span.start <= off < f.span.end:
                return str(f.attributes["sym_name"].value)  # type: ignore[attr-defined]
    raise AssertionError(line)


@pytest.mark.parametrize("source", sorted(SOURCES))
@pytest.mark.parametrize("name", sorted(TRANSFORMS))
def test_all_keeps_the_results(sources: dict[str, str], references: dict[str, str], name: str, source: str) -> None:
    text = sources[source]
    new, outcomes = TRANSFORMS[name](text)
    done = [o for o in outcomes if o.done]
    assert len(done) >= MINIMUM.get((name, source), 1), [o for o in outcomes if not o.done][:5]
    oracle.opt(new)  # mlir-opt 22.1.8 accepts every output (raises otherwise)
    if name.startswith("unroll") and source == "toolbox":
        assert "affine.if affine_set<" in new  # @tiled_min's min bound: guarded copies (mlir-opt gives up)
    bad = differences(references[source], run(new))
    assert not bad, f"{name} on {source}: {bad}"


def test_outer_loops_unrolled_and_fully_unrolled(sources: dict[str, str], references: dict[str, str]) -> None:
    """--loop on every outermost loop (unroll by 3), then full unrolling of
    every loop with a small constant trip count, one after the other."""
    text = sources["toolbox"]
    doc = Document(text)
    outer = [
        doc.lines.line_of(op.span.start) + 1 for s in doc.sections for f in s.functions() for op in f.regions[0].blocks[0].operations if op.name == "affine.for"
    ]
    new, outcomes = unroll_document(text, outer, 3)
    assert sum(o.done for o in outcomes) >= 12, [o for o in outcomes if not o.done]
    new2, outcomes2 = unroll_document(new, None, None)
    assert sum(o.done for o in outcomes2) >= 10
    oracle.opt(new2)
    assert not differences(references["toolbox"], run(new))
    assert not differences(references["toolbox"], run(new2))


def test_refused_unroll_and_jam_would_change_the_results(sources: dict[str, str], references: dict[str, str]) -> None:
    text = sources["toolbox"]
    doc = Document(text)
    refused: dict[int, str] = {}
    for s in doc.sections:
        for op in s.module.walk():
            if op.name == "affine.for" and jammed_loops(op):
                why = jam_reason(op, 2)
                if why is not None and "would reverse" in why:
                    refused[doc.lines.line_of(op.span.start) + 1] = why
    kernels = {_kernel_of(text, ln) for ln in refused}
    assert {"seidel_2d", "skewed", "imperfect", "jacobi_1d"} <= kernels, refused
    # the (1, 1) stencil and gemm are legal: the check is not a blanket refusal
    assert "forward" not in kernels and "gemm" not in kernels
    # rewrite the refused loops anyway, outermost of each kernel
    chosen: dict[str, int] = {}
    for ln in sorted(refused):
        chosen.setdefault(_kernel_of(text, ln), ln)
    forced, outcomes = unroll_jam_document(text, sorted(chosen.values()), 2, force=True)
    assert all(o.done for o in outcomes if o.line in chosen.values()), outcomes
    oracle.opt(forced)
    wrong = set(differences(references["toolbox"], run(forced)))
    assert {"seidel_2d", "skewed", "imperfect", "jacobi_1d"} <= wrong, wrong


def test_mlir_unroll_jam_does_not_check_dependences(sources: dict[str, str], references: dict[str, str]) -> None:
    """MLIR 22.1.8's -affine-loop-unroll-jam rewrites the wavefront anyway
    and changes its result; we refuse it with the dependence."""
    text = sources["toolbox"]
    doc = Document(text)
    f = next(f for s in doc.sections for f in s.functions() if str(f.attributes["sym_name"].value) == "skewed")  # type: ignore[attr-defined]
    ftext = text[f.span.start : f.span.end]
    out = oracle.opt(ftext, "-pass-pipeline=builtin.module(func.func(affine-loop-unroll-jam{unroll-jam-factor=2}))", "-mlir-print-local-scope")
    assert "step 2" in out
    body = out.strip().removeprefix("module {").removesuffix("}")
    ref = {k: v for k, v in _per(references["toolbox"]).items() if k == "skewed"}
    got = _per(run(body))
    assert got["skewed"] != ref["skewed"]
    new, outcomes = unroll_jam_document(ftext, None, 2)
    assert new == ftext and "would reverse the RAW dependence" in outcomes[0].message


def _per(output: str) -> dict[str, str]:
    out: dict[str, str] = {}
    cur = None
    for line in output.splitlines():
        if line.startswith("kernel "):
            cur = line.split()[1]
            out[cur] = ""
        elif cur is not None:
            out[cur] += line + "\n"
    return out


def test_mlir_unroll_cleanup_runs_iterations_the_loop_never_ran(sources: dict[str, str], references: dict[str, str]) -> None:
    """MLIR 22.1.8's -affine-loop-unroll starts the cleanup loop of
    ``1 to %n`` at ``((n - 1) floordiv 2) * 2 + 1``, below the lower bound
    when ``n = 0``: one iteration more than the original. Ours starts it at
    the ``max`` with the lower bound."""
    text = sources["toolbox"]
    doc = Document(text)
    f = next(f for s in doc.sections for f in s.functions() if str(f.attributes["sym_name"].value) == "count_empty")  # type: ignore[attr-defined]
    ftext = text[text.rfind("// args:", 0, f.span.start) : f.span.end]  # with its arguments line
    theirs = oracle.opt(ftext, "-pass-pipeline=builtin.module(func.func(affine-loop-unroll{unroll-factor=2}))", "-mlir-print-local-scope")
    body = theirs.strip().removeprefix("module {").removesuffix("}")
    ref = _per(references["toolbox"])["count_empty"]
    assert ref.split() == ["0"]
    assert _per(run(body, kernels_of(ftext)))["count_empty"].split() == ["1"]
    ours, _ = unroll_document(ftext, None, 2)
    assert _per(run(ours))["count_empty"] == ref
