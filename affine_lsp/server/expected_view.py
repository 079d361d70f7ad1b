"""The ``-verify-diagnostics`` view of a document version (kept by its
:class:`~affine_lsp.server.state.DocumentState`, made by :mod:`.expected_checks`)."""

from __future__ import annotations

from affine_lsp.verify import expected as X


class View:
    """What a document version's diagnostics look like to mlir-opt. Outside
    ``-verify-diagnostics`` mode they are worked out only when a code action
    asks (from the notes kept here)."""

    __slots__ = ("_emitted", "_sources", "doc_version", "needs_remarks", "result")

    def __init__(
        self, doc_version: int, emitted: list[X.Emitted] | None, result: X.Verification | None, sources: tuple | None = None, needs_remarks: bool = False
    ) -> None:
        self.doc_version = doc_version
        self.result = result  # None: not in -verify-diagnostics mode
        self._emitted = emitted
        self._sources = sources  # (doc, parse notes, verifier notes) until computed
        self.needs_remarks = needs_remarks  # the diagnostics include -test-memref-dependence-check's remarks

    @property
    def emitted(self) -> list[X.Emitted]:
        if self._emitted is None:
            doc, parse_notes, verify_notes = self._sources  # type: ignore[misc]
            self._emitted = X.mlir_opt_diagnostics(doc, parse_notes, verify_notes)
            self._sources = None
        return self._emitted
