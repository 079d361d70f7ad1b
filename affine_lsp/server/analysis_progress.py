"""``$/progress`` of a long dependence analysis (a server-initiated token):
begun once the analysis of enough functions has taken long enough
(:data:`PROGRESS_MIN_FUNCTIONS`, :data:`PROGRESS_AFTER_S`), reported per
function, ended when the phase ends (server/diagnostics_manager.py)."""

from __future__ import annotations

import logging
import uuid
from typing import TYPE_CHECKING

from lsprotocol import types

from affine_lsp.ir.core import Operation

if TYPE_CHECKING:
    from affine_lsp.server.session import Session

log = logging.getLogger("affine_lsp.server.diagnostics_manager")

PROGRESS_MIN_FUNCTIONS = 8
"""An analysis phase of fewer functions shows no progress."""
PROGRESS_AFTER_S = 0.5
"""... nor one that ends sooner."""


def function_label(f: Operation) -> str:
    """How the progress names the function being analysed."""
    from affine_lsp.ir.op_traits import symbol_name

    return "@" + (symbol_name(f) or "?")


class AnalysisProgress:
    """``$/progress`` for one long analysis (server-initiated token)."""

    def __init__(self, server: Session, total: int) -> None:
        self.server = server
        self.total = max(1, total)
        self.done = 0
        self.current = ""
        self.token: str | None = None
        self._last: tuple[int, str] | None = None

    async def begin(self) -> str | None:
        if not self.server.client.work_done_progress:
            return None
        token = f"affine-lsp/analysis/{uuid.uuid4().hex[:12]}"
        try:
            await self.server.work_done_progress.create_async(token)
        except Exception as e:
            log.info("window/workDoneProgress/create failed: %s", e)
            return None
        self.token = token
        self.server.work_done_progress.begin(
            token,
            types.WorkDoneProgressBegin(title="affine-lsp: dependence analysis", message=self._message(), percentage=self._pct(), cancellable=False),
        )
        return token

    def _pct(self) -> int:
        return min(100, int(100 * self.done / self.total))

    def _message(self) -> str:
        return f"{self.done}/{self.total} functions" + (f" ({self.current})" if self.current else "")

    def report(self) -> None:
        if self.token is None:
            return
        state = (self.done, self.current)
        if state == self._last:
            return
        self._last = state
        self.server.work_done_progress.report(self.token, types.WorkDoneProgressReport(message=self._message(), percentage=self._pct()))

    def end(self) -> None:
        if self.token is None:
            return
        self.server.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=f"analysed {self.done} functions"))
        self.token = None
