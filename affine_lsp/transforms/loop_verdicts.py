"""Which loop transformations are legal at a loop, and what forbids the
others: the "Transformations" part of the loop hover.

Each transformation of :mod:`affine_lsp.transforms.catalog` with a
``verdicts`` function answers for itself (a module may answer for several
transformations, e.g. tile for tiling and skew-and-tiling); its module is
imported when a hover first asks. A check that fails is logged and
skipped, never breaks the hover.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from dataclasses import dataclass

from affine_lsp.ir.core import Operation
from affine_lsp.transforms.catalog import TRANSFORMATIONS
from affine_lsp.transforms.edits import editor_request
from affine_lsp.transforms.verdict import Kind, kind_of

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Verdict:
    """One transformation at one loop: its :class:`Kind`, and why (the
    dependence that forbids it, the shape it needs, the threshold)."""

    name: str
    kind: Kind
    reason: str = ""

    @property
    def legal(self) -> bool:
        return self.kind is Kind.LEGAL

    @staticmethod
    def of(name: str, why: str | None, default: Kind = Kind.NOT_APPLICABLE) -> Verdict:
        """The verdict a check's ``why`` gives (None: legal; a
        :class:`~.verdict.Why`: its kind; a plain string: ``default``)."""
        return Verdict(name, kind_of(why, default), why or "")

    def words(self) -> str:
        """``legal``, ``not legal — <dependence>``, ``not applicable — <why>``,
        ``not offered — <threshold>``."""
        return self.kind.value + (f" — {self.reason}" if self.reason and not self.legal else "")


Check = Callable[[Operation], list[Verdict]]


def checks() -> list[Check]:
    """The verdict functions of the registry, in its order (a module that
    fails to load is logged and left out)."""
    out: list[Check] = []
    for t in TRANSFORMATIONS:
        if t.verdicts is None:
            continue
        try:
            out.append(getattr(importlib.import_module(t.module), t.verdicts))
        except Exception:
            log.exception("loop transformation module %s failed to load", t.module)
    return out


def verdicts(loop: Operation) -> list[Verdict]:
    from affine_lsp.ir.affine_ops import nest_is_well_formed

    if not nest_is_well_formed(loop):
        return []
    out: list[Verdict] = []
    for check in checks():
        try:
            out.extend(check(loop))
        except Exception:
            log.exception("legality check %s failed", getattr(check, "__name__", check))
    return out


@editor_request()
def hover_lines(loop: Operation) -> list[str]:
    """Markdown for the loop hover (empty when nothing is registered)."""
    vs = verdicts(loop)
    if not vs:
        return []
    out = ["**Transformations**:", ""]
    for v in vs:
        out.append(f"- {v.name}: {v.words()}")
    return out + [""]
