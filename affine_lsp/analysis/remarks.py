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

A user's op that reads or writes a memref operand (its dialect's ``.td``
records registered, :func:`affine_lsp.ir.op_traits.unknown_extent_accesses`)
is numbered with them: its access of unknown extent (the first, for an op
with several) depends on every other access of that memref. mlir-opt does
not know such an op, so this part has no MLIR counterpart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from affine_lsp.analysis.dependences import DepResult, FunctionDeps, dependence_kind
from affine_lsp.analysis.isl_support import DEFAULT_BUDGET
from affine_lsp.analysis.polyhedral import AccessModel, scope_of
from affine_lsp.ir import op_traits
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
    """The loads and stores the pass numbers (and the user's ops with
    accesses of unknown extent), in walk order."""
    return [op for root in roots for op in root.walk() if op.name in PASS_OPS or (not op.name.startswith("affine.") and op_traits.unknown_extent_accesses(op))]


def memref_dependence_remarks(roots: Iterable[Operation], budget: int = DEFAULT_BUDGET) -> list[Remark]:
    """Every remark of the pass over the ops nested in ``roots`` (one
    module, or several sections numbered together), in emission order."""
    return list(iter_memref_dependence_remarks(roots, budget))


def iter_memref_dependence_remarks(
    roots: Iterable[Operation],
    budget: int = DEFAULT_BUDGET,
    *,
    all_pairs: bool = True,
    release: bool = False,
    starting: Callable[[int, int], None] | None = None,
) -> Iterator[Remark]:
    """The remarks of :func:`memref_dependence_remarks`, one at a time, in
    emission order. ``all_pairs=False`` leaves out the pairs of ops in
    different functions (always ``false``; their number grows with the
    square of the module's accesses). ``release``: each function's
    dependence engine is dropped (:func:`~affine_lsp.analysis.forget_dependences`)
    once the remarks of its last access are out, so that memory holds one
    function's analysis at a time, not the module's. ``starting(i, j)`` is
    called before the pair ``(i, j)`` of one function is analysed."""
    from affine_lsp.analysis import dependences_of_function, forget_dependences

    ops = pass_ops(roots)
    scopes = [scope_of(op) for op in ops]
    same: dict[int, list[int]] = {}  # id(scope) -> indices of its ops, in order
    for k, s in enumerate(scopes):
        if s is not None:
            same.setdefault(id(s), []).append(k)
    models: dict[int, tuple[FunctionDeps, dict[int, AccessModel | None]]] = {}

    def model(k: int) -> tuple[FunctionDeps | None, AccessModel | None]:
        s = scopes[k]
        if s is None:
            return None, None
        got = models.get(id(s))
        if got is None:
            got = models[id(s)] = (dependences_of_function(s, budget), {})
        fd, accesses = got
        if k not in accesses:
            accesses[k] = fd.access(ops[k])
        return fd, accesses[k]

    for i, op in enumerate(ops):
        if starting is not None and scopes[i] is not None:
            starting(i, i)  # (modelling the function's accesses is part of its first pair)
        fd_i, a_i = model(i)
        mine = same.get(id(scopes[i]), []) if scopes[i] is not None else []
        for j in range(len(ops)) if all_pairs else (mine if a_i is not None else ()):
            fd_j, a_j = model(j) if scopes[j] is scopes[i] else (None, None)
            if fd_i is None or fd_i is not fd_j or a_i is None or a_j is None:
                # Different functions: different memrefs, no common loop.
                yield Remark(op, i, j, 1, "false", False, None)
                continue
            if starting is not None and j != i:
                starting(i, j)
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
                yield Remark(op, i, j, d, r.mlir_str(), failed, r)
        if release and mine and mine[-1] == i:  # the last access of its function
            models.pop(id(scopes[i]), None)
            forget_dependences(scopes[i])  # type: ignore[arg-type]
