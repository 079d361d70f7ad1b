"""The remarks of MLIR's ``-test-memref-dependence-check`` pass.

``TestMemRefDependenceCheck`` (``mlir/test/lib/Analysis``) walks the whole
module, numbers every ``affine.load``/``affine.store`` in walk order (0, 1,
...), and for every ordered pair ``(i, j)`` (``i == j`` included) and every
depth ``d`` in ``1 .. common + 1`` emits on op ``i``::

    dependence from I to J at depth D = RESULT

where RESULT is ``false``, ``true`` (depth ``common + 1``, or no common
loops), or the ``[lb, ub]`` of every common loop concatenated. When the
analysis fails, the pass emits the error ``dependence check failed`` instead.
Our intervals are exact where MLIR's may be looser.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from affine_lsp.analysis.dependences import DepResult, FunctionDeps, dependence_kind
from affine_lsp.analysis.isl_support import DEFAULT_BUDGET
from affine_lsp.analysis.polyhedral import AccessModel, scope_of
from affine_lsp.ir.core import Operation

PASS_OPS = frozenset({"affine.load", "affine.store"})


@dataclass(eq=False)
class Remark:
    """One remark (or, when ``failed``, one ``dependence check failed`` error) on ``op``."""

    op: Operation
    src: int
    dst: int
    depth: int
    result: str
    failed: bool
    dep: DepResult | None

    @property
    def message(self) -> str:
        if self.failed:
            return "dependence check failed"
        return f"dependence from {self.src} to {self.dst} at depth {self.depth} = {self.result}"

    @property
    def severity(self) -> str:
        return "error" if self.failed else "remark"


def pass_ops(roots: Iterable[Operation]) -> list[Operation]:
    """The loads and stores the pass numbers, in walk order."""
    return [op for root in roots for op in root.walk() if op.name in PASS_OPS]


def memref_dependence_remarks(roots: Iterable[Operation], budget: int = DEFAULT_BUDGET) -> list[Remark]:
    """Every remark of the pass over the ops nested in ``roots`` (one
    module, or several sections numbered together), in emission order."""
    from affine_lsp.analysis import dependences_of_function

    ops = pass_ops(roots)
    models: list[tuple[FunctionDeps | None, AccessModel | None]] = []
    for op in ops:
        scope = scope_of(op)
        fd = dependences_of_function(scope, budget) if scope is not None else None
        models.append((fd, fd.access(op) if fd is not None else None))
    out: list[Remark] = []
    for i, op in enumerate(ops):
        fd_i, a_i = models[i]
        for j in range(len(ops)):
            fd_j, a_j = models[j]
            if fd_i is None or fd_i is not fd_j or a_i is None or a_j is None:
                # Different functions: different memrefs, no common loop.
                out.append(Remark(op, i, j, 1, "false", False, None))
                continue
            common = 0
            for x, y in zip(a_i.ivs, a_j.ivs):
                if x is not y:
                    break
                common += 1
            # MLIR gives up (Failure) as soon as it cannot build an access
            # relation, before looking at the order or the elements.
            mlir_fails = a_i.memref is a_j.memref and dependence_kind(a_i, a_j) is not None and not (a_i.analysable and a_j.analysable)
            for d in range(1, common + 2):
                r = fd_i.check(a_i, a_j, d)
                failed = mlir_fails or (r.has_dependence and r.mlir_failure and dependence_kind(a_i, a_j) is not None)
                out.append(Remark(op, i, j, d, r.mlir_str(), failed, r))
    return out
