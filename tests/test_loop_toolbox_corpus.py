"""At least what mlir-opt does: hoisting, scalar replacement and
unroll-and-jam on the cases of MLIR's own tests of these passes.

``tests/data/loop_toolbox/*_upstream.mlir`` transcribe the functions of
``mlir/test/Dialect/Affine/{affine-loop-invariant-code-motion,scalrep,
unroll-jam}.mlir`` (fetched from llvm/llvm-project and read, not copied; the
files say how they differ). Each function goes through the real pass of
mlir-opt 22.1.8 and through ours; wherever the pass transforms the
function, we transform it too, at least as far (no more ops left inside
loops than LICM leaves, no more loads than scalrep leaves), or
:data:`WHY_NOT` says why not. Every output of ours is accepted by mlir-opt.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from affine_lsp.ir.core import Operation
from affine_lsp.source.document import Document
from affine_lsp.transforms.hoist import hoist_document
from affine_lsp.transforms.scalrep import scalrep_document
from affine_lsp.transforms.unroll_jam import unroll_jam_document
from tests import oracle

pytestmark = [pytest.mark.skipif(not oracle.available(), reason="mlir-opt is not installed"), pytest.mark.oracle]

DATA = Path(__file__).parent / "data" / "loop_toolbox"

WHY_NOT: dict[str, str] = {}  # every case mlir-opt transforms, we transform


def _functions(text: str) -> dict[str, str]:
    doc = Document(text)
    return {str(f.attributes["sym_name"].value): text[f.span.start : f.span.end] for s in doc.sections for f in s.functions()}  # type: ignore[attr-defined]


def _only_function(text: str) -> Operation:
    doc = Document(text)
    fs = [f for s in doc.sections for f in s.functions()]
    assert len(fs) == 1, text
    return fs[0]


def _ops_in_loops(text: str) -> int:
    f = _only_function(text)
    return sum(1 for op in f.walk() if any(a.name == "affine.for" for a in op.ancestors()) and op.name != "affine.yield")


def _loads(text: str) -> int:
    return sum(1 for op in _only_function(text).walk() if op.name in ("affine.load", "affine.vector_load"))


CASES: list[tuple[str, str, Callable[[str], str], Callable[[str], int]]] = [
    ("hoist_upstream.mlir", "-affine-loop-invariant-code-motion", lambda t: hoist_document(t)[0], _ops_in_loops),
    ("scalrep_upstream.mlir", "-affine-scalrep", lambda t: scalrep_document(t)[0], _loads),
    (
        "unroll_jam_upstream.mlir",
        "-pass-pipeline=builtin.module(func.func(affine-loop-unroll-jam{unroll-jam-factor=2}))",
        lambda t: unroll_jam_document(t, None, 2)[0],
        lambda t: 0 if "step 2" in t else 1,
    ),
]


@pytest.mark.parametrize(("file", "mlir_pass", "ours", "metric"), CASES, ids=[c[0].split("_upstream")[0] for c in CASES])
def test_at_least_what_mlir_opt_does(file: str, mlir_pass: str, ours: Callable[[str], str], metric: Callable[[str], int]) -> None:
    text = (DATA / file).read_text()
    mine_all = ours(text)
    oracle.opt(mine_all, "--split-input-file")  # every output of ours is valid MLIR
    before = _functions(text)
    after = _functions(mine_all)
    assert len(before) >= 9 and set(before) == set(after)
    transformed_by_mlir = 0
    for name, src in before.items():
        theirs = oracle.opt(src, mlir_pass, "-mlir-print-local-scope")
        body = theirs.strip().removeprefix("module {").removesuffix("}")
        m_before, m_theirs, m_ours = metric(src), metric(body), metric(after[name])
        if m_theirs == m_before and body.count("affine.store") == src.count("affine.store"):
            continue  # mlir-opt leaves it alone
        transformed_by_mlir += 1
        if name in WHY_NOT:
            continue
        assert after[name] != src, f"{file}: mlir-opt transforms @{name}, we do not"
        assert m_ours <= m_theirs, f"{file}: @{name}: ours leaves {m_ours}, mlir-opt {m_theirs}"
    assert transformed_by_mlir >= 5
