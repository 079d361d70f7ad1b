"""Which loop transformations are legal at a loop, and what forbids the
others: the "Transformations" part of the loop hover.

Each transformation module registers a check here with :func:`register`;
a check takes an ``affine.for`` op and returns its verdicts (a module may
answer for several transformations, e.g. tile and interchange). The hover
imports the modules listed in :data:`MODULES` lazily and shows every
verdict; a check that fails is logged and skipped, never breaks the hover.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from dataclasses import dataclass

from affine_lsp.ir.core import Operation

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Verdict:
    """One transformation at one loop: legal or not, and why not (the
    dependence that forbids it, in words)."""

    name: str
    legal: bool
    reason: str = ""


Check = Callable[[Operation], list[Verdict]]
CHECKS: list[Check] = []

MODULES: list[str] = [
    "affine_lsp.transforms.tile",
    "affine_lsp.transforms.interchange",
    "affine_lsp.transforms.unroll",
    "affine_lsp.transforms.unroll_jam",
    "affine_lsp.transforms.hoist",
    "affine_lsp.transforms.scalrep",
]
"""Modules that register checks when imported (one line per module)."""


def register(check: Check) -> Check:
    if check not in CHECKS:
        CHECKS.append(check)
    return check


def verdicts(loop: Operation) -> list[Verdict]:
    from affine_lsp.ir.affine_ops import nest_is_well_formed

    if not nest_is_well_formed(loop):
        return []
    for name in MODULES:
        try:
            importlib.import_module(name)
        except Exception:
            log.exception("loop transformation module %s failed to load", name)
    out: list[Verdict] = []
    for check in CHECKS:
        try:
            out.extend(check(loop))
        except Exception:
            log.exception("legality check %s failed", getattr(check, "__name__", check))
    return out


def hover_lines(loop: Operation) -> list[str]:
    """Markdown for the loop hover (empty when nothing is registered)."""
    vs = verdicts(loop)
    if not vs:
        return []
    out = ["**Transformations**:", ""]
    for v in vs:
        out.append(f"- {v.name}: " + ("legal" if v.legal else "not legal" + (f" — {v.reason}" if v.reason else "")))
    return out + [""]
