"""The code-action candidates of the loop transformations of
:mod:`affine_lsp.transforms.catalog` at a cursor or a selection, as plain
data (titles, offsets, the reason an action is disabled); the server
converts them (server/transform_actions.py, server/convert.py).

Offered on an ``affine.for`` whose header holds the cursor, or on the loops
a selection covers (two selected nests: the transformations that act on a
pair, fusion). The transforms themselves decide legality from the
dependence engine and re-parse and re-verify their output before anything
is offered; an action that cannot apply is disabled, with the reason.
"""

from __future__ import annotations

import importlib
import logging
from dataclasses import dataclass

from affine_lsp.ir.affine_ops import nest_is_well_formed
from affine_lsp.ir.core import Operation
from affine_lsp.source.document import Document
from affine_lsp.transforms.catalog import TRANSFORMATIONS, ActionSettings, Transformation
from affine_lsp.transforms.edits import Transform, editor_request
from affine_lsp.transforms.profitability import no_prediction, rank

log = logging.getLogger(__name__)

MenuKey = tuple[int, int, int]
"""An action's place in the menu: (predicted rank, registry order, order in its transformation)."""


@dataclass(frozen=True)
class LoopAction:
    """One candidate: its title (with the prediction), its edits
    (``[start, end)`` offsets and the new text), or why it is disabled;
    ``preferred``: predicted to gain."""

    title: str
    edits: tuple[tuple[int, int, str], ...]
    disabled: str | None = None
    preferred: bool = False


def loop_action(t: Transform) -> LoopAction:
    reason = t.data.get("disabled")
    why_none = t.data.get("no_prediction")
    title = t.title + (t.prediction.title_suffix() if t.prediction is not None else no_prediction(str(why_none)) if why_none else "")
    if reason:
        return LoopAction(title, (), disabled=str(reason))
    preferred = t.prediction is not None and bool(t.prediction.gains)  # (nothing predicted ~1.0x is preferred)
    return LoopAction(title, tuple((e.start, e.end, e.new_text) for e in t.edits), preferred=preferred)


def ranked_candidates(t: Transformation, transforms: list[Transform]) -> list[tuple[MenuKey, LoopAction]]:
    """One transformation's candidates, each with its place in the menu
    (predicted-profitable rewrites first, unprofitable ones last; stable)."""
    order = next(i for i, r in enumerate(TRANSFORMATIONS) if r is t)
    if t.one_action:
        transforms = models_pick(transforms)
    return [((rank(x.prediction), order, i), loop_action(x)) for i, x in enumerate(transforms)]


def _header_end(doc: Document, loop: Operation) -> int:
    """Offset of the ``{`` that opens the loop body (end of its header)."""
    if loop.regions and loop.regions[0].span is not None:
        return loop.regions[0].span.start + 1
    return loop.span.end


def loops_at(doc: Document, lo: int, hi: int) -> list[Operation]:
    """The affine.for ops the range designates: for a cursor, the innermost
    loop whose header contains it; for a selection, the outermost loops it
    covers entirely (in text order)."""
    section = doc.section_at(lo)
    loops = [op for op in section.module.walk() if op.name == "affine.for"]
    if hi - lo > 0:
        covered = [op for op in loops if lo <= op.span.start and op.span.end <= hi]
        return [op for op in covered if not any(o is not op and o.is_ancestor_of(op) for o in covered)]
    on_header = [op for op in loops if op.span.start <= lo <= _header_end(doc, op)]
    return on_header[-1:] if on_header else []


def offered(loops: list[Operation]) -> list[Transformation]:
    """The transformations of the registry offered at ``loops``, in its order."""
    if len(loops) not in (1, 2):
        return []
    well_formed = len(loops) == 2 or nest_is_well_formed(loops[0])  # a loop the parser only half read has none to transform
    return [t for t in TRANSFORMATIONS if t.actions is not None and not (len(loops) == 2 and not t.pairs) and (well_formed or t.any_loop)]


def actions_of(t: Transformation, doc: Document, loops: list[Operation], settings: ActionSettings) -> list[Transform]:
    """One transformation's actions at the loops (none, logged, when it fails)."""
    try:
        actions = getattr(importlib.import_module(t.module), t.actions or "")
        if len(loops) == 2:
            return list(actions(doc, loops[0], loops[1]))
        return list(actions(doc, loops[0], *(getattr(settings, k) for k in t.settings)))
    except Exception:  # a transform bug must not take the menu down
        log.exception("%s of the loop at offset %d failed", t.title, loops[0].span.start)
        return []


@editor_request()
def transforms_for(doc: Document, loops: list[Operation], vf: int, tile_sizes: tuple[int, ...] = (32,)) -> list[Transform]:
    """The actions of every transformation of the registry at the loops, in
    its order: on one loop, each one's ``actions`` (one only, the model's
    pick, of a transformation marked ``one_action``); on two selected loops,
    those of the transformations that act on pairs (fusion)."""
    settings = ActionSettings(vf=vf, tile_sizes=tile_sizes)
    out: list[Transform] = []
    for t in offered(loops):
        got = actions_of(t, doc, loops, settings)
        out.extend(models_pick(got) if t.one_action else got)
    return out


def models_pick(transforms: list[Transform]) -> list[Transform]:
    """The one variant offered of a transformation with several (vector
    widths): the enabled one the model ranks best (by rank, then predicted
    speedup; on a tie the first, the setting's), else the first disabled."""
    enabled = [x for x in transforms if not x.data.get("disabled")]
    if not enabled:
        return transforms[:1]

    def key(x: Transform) -> tuple[int, float]:
        p = x.prediction
        return (rank(p), -(p.speedup or 0.0) if p is not None else 0.0)

    return [min(enabled, key=key)]


def loops_by_start(doc: Document, starts: tuple[int, ...]) -> list[Operation]:
    """The ``affine.for`` ops of ``doc`` that start at ``starts`` (in that order)."""
    if not starts:
        return []
    found = {op.span.start: op for op in doc.section_at(starts[0]).module.walk() if op.name == "affine.for" and op.span.start in starts}
    return [found[s] for s in starts if s in found]
