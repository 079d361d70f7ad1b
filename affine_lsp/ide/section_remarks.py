"""The remarks of ``mlir-opt -test-memref-dependence-check`` on a document,
as ``-split-input-file`` runs it: one run per section. ``affine-lsp deps
--all-pairs``, ``check --verify-diagnostics`` and the server's
``-verify-diagnostics`` mode (``server/expected_checks.py``) take them from
here. Importing this module loads no isl: the analysis is imported when the
remarks are asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from affine_lsp.ir.core import Operation

if TYPE_CHECKING:
    from affine_lsp.analysis.remarks import Remark


def section_remarks(modules: Iterable[Operation], budget: int | None = None, cancelled: Callable[[], bool] | None = None) -> list[Remark] | None:
    """The remarks of each section's module op, in order, computed with isl
    under ``budget`` operations per query (None: the engine's default; the
    dependence engine caches them per function); None when ``cancelled``
    says so between two sections."""
    from affine_lsp.analysis.isl_support import DEFAULT_BUDGET
    from affine_lsp.analysis.remarks import memref_dependence_remarks

    b = DEFAULT_BUDGET if budget is None else budget
    out: list[Remark] = []
    for module in modules:
        if cancelled is not None and cancelled():
            return None
        out.extend(memref_dependence_remarks([module], b))
    return out
