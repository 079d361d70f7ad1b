"""Code actions for the loop transformations of
:mod:`affine_lsp.transforms.registry` ("Fuse loops here", "Vectorize loop
(VF=N)", "Tile loop band", ...), each one's ``actions`` function in the
registry's order.

Offered on an ``affine.for`` whose header holds the cursor, or on the loops
a selection covers (two selected nests: the transformations that act on a
pair, fusion). The transforms themselves decide legality from the
dependence engine and re-parse and re-verify their output before anything
is offered; an action that cannot apply is shown disabled, with the reason.
Results are cached per document version and loop, because editors ask for
code actions on every cursor move.
"""

from __future__ import annotations

import importlib
import logging
from typing import TYPE_CHECKING

from lsprotocol import types

from affine_lsp.ir.affine_ops import nest_is_well_formed
from affine_lsp.ir.core import Operation
from affine_lsp.server.state import DocumentState
from affine_lsp.syntax.document import Document
from affine_lsp.transforms.edits import Transform, editor_request
from affine_lsp.transforms.profitability import rank
from affine_lsp.transforms.registry import TRANSFORMATIONS, ActionSettings

if TYPE_CHECKING:
    from affine_lsp.server.server import AffineLanguageServer

log = logging.getLogger(__name__)

KIND = types.CodeActionKind.RefactorRewrite


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


def _lsp_action(doc: Document, uri: str, t: Transform) -> types.CodeAction:
    reason = t.data.get("disabled")
    title = t.title + (t.prediction.title_suffix() if t.prediction is not None else "")
    if reason:
        return types.CodeAction(title=title, kind=KIND, disabled=types.CodeActionDisabled(reason=str(reason)))
    lines = doc.lines
    edits = []
    for e in t.edits:
        sl, sc = lines.position(e.start)
        el, ec = lines.position(e.end)
        edits.append(
            types.TextEdit(
                range=types.Range(start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec)),
                new_text=e.new_text,
            )
        )
    preferred = True if t.prediction is not None and t.prediction.profitable else None
    return types.CodeAction(title=title, kind=KIND, edit=types.WorkspaceEdit(changes={uri: edits}), is_preferred=preferred)


@editor_request()
def transforms_for(doc: Document, loops: list[Operation], vf: int, tile_sizes: tuple[int, ...] = (32,)) -> list[Transform]:
    """The actions of every transformation of the registry at the loops, in
    its order: on one loop, each one's ``actions``; on two selected loops,
    those of the transformations that act on pairs (fusion)."""
    settings = ActionSettings(vf=vf, tile_sizes=tile_sizes)
    out: list[Transform] = []
    if len(loops) not in (1, 2):
        return out
    well_formed = len(loops) == 2 or nest_is_well_formed(loops[0])  # a loop the parser only half read has none to transform
    for t in TRANSFORMATIONS:
        if t.actions is None or (len(loops) == 2 and not t.pairs) or not (well_formed or t.any_loop):
            continue
        try:
            actions = getattr(importlib.import_module(t.module), t.actions)
            if len(loops) == 2:
                out.extend(actions(doc, loops[0], loops[1]))
            else:
                out.extend(actions(doc, loops[0], *(getattr(settings, k) for k in t.settings)))
        except Exception:  # a transform bug must not take the menu down
            log.exception("%s of the loop at offset %d failed", t.title, loops[0].span.start)
    return out


def provider(ls: AffineLanguageServer, st: DocumentState, doc: Document, lo: int, hi: int) -> list[types.CodeAction]:
    loops = loops_at(doc, lo, hi)
    if not loops:
        return []
    vf = int(getattr(ls.settings, "vectorize_default_width", 8) or 8)
    tile_sizes = tuple(getattr(ls.settings, "tile_sizes", (32,)) or (32,))
    key = (doc.version, tuple(op.span.start for op in loops), vf, tile_sizes)
    cache = st.transform_actions
    if key not in cache:
        if len(cache) > 64 or any(k[0] != doc.version for k in cache):
            cache.clear()  # (the actions of an older version are never asked for again; they may hold its IR)
        cache[key] = transforms_for(doc, loops, vf, tile_sizes)
    # Predicted-profitable rewrites first, unprofitable ones last (stable).
    return [_lsp_action(doc, st.uri, t) for t in sorted(cache[key], key=lambda t: rank(t.prediction))]


def install() -> None:
    from affine_lsp.server import code_actions

    if provider not in code_actions.PROVIDERS:
        code_actions.PROVIDERS.append(provider)
    if KIND not in code_actions.CODE_ACTION_KINDS:
        code_actions.CODE_ACTION_KINDS.append(KIND)
