"""Code actions for the loop transformations of
:mod:`affine_lsp.transforms.catalog` ("Fuse loops here", "Vectorize loop
(VF=N)", "Tile loop band", ...), each one's ``actions`` function in the
registry's order: the candidates are :mod:`affine_lsp.ide.loop_actions`'s
(plain data: offered on an ``affine.for`` whose header holds the cursor, or
on the loops a selection covers; an action that cannot apply is shown
disabled, with the reason), converted here to LSP actions.

Editors ask for code actions on every cursor move, and the first request on
a loop may need seconds (the legality proofs of a large nest, the schedule
of "Optimize loop nest"). So the actions of one (version, loops, settings)
are computed by an :class:`ActionsJob` on the document's transforms lane
(``lanes.submit_transforms``), from a copy of the text (a document of its
own: no lock of the live document is held, so no hover, edit or other
request waits for it), one transformation after another, the registry's
order (the cheap ones first, optimize last; before each one, it waits up
to 1 s while a fast phase or a request runs), each one's actions readable as
soon as it is done; the results are cached per version and loops. A
request waits for the job at most :data:`FIRST_ANSWER_WAIT_S` when the
client resolves edits lazily (``codeAction.resolveSupport`` with
``edit``): it answers with the actions done by then, and a menu entry (the
registry's ``menu`` title, no edit) for each transformation still being
computed, which ``codeAction/resolve`` completes with that transformation's
first enabled action once it is done (or disables with the reason, and
says so). A client without ``resolveSupport`` gets the complete answer, the
request waiting for the job (on the event loop: no thread, no lock). A job
for other loops still queued when a new one is asked for is cancelled, and
a job stops between two transformations once the document has changed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from affine_lsp.ide.loop_actions import actions_of as _actions_of
from affine_lsp.ide.loop_actions import loop_action, loops_at, loops_by_start, offered, ranked_candidates, transforms_for
from affine_lsp.ir.core import Operation
from affine_lsp.server.code_actions import Deferred
from affine_lsp.server.convert import loop_code_action
from affine_lsp.source.document import Document
from affine_lsp.transforms.catalog import TRANSFORMATIONS, ActionSettings, Transformation
from affine_lsp.transforms.edits import Transform, editor_request

if TYPE_CHECKING:
    from affine_lsp.server.settings import Settings
    from affine_lsp.server.snapshot import Snapshot

log = logging.getLogger(__name__)

__all__ = ["KIND", "RESOLVER", "actions_job", "loops_at", "provider", "ranked_actions", "resolve", "transforms_for"]

KIND = types.CodeActionKind.RefactorRewrite
RESOLVER = "loop-transformation"
FIRST_ANSWER_WAIT_S = 0.05
"""How long a code-action request of a client that resolves edits waits for
the transformations of a loop not computed yet; past it, the menu."""
RESOLVE_WAIT_S = 120.0
"""How long ``codeAction/resolve`` waits for its transformation."""

Ranked = tuple[tuple[int, int, int], types.CodeAction]
"""An action and its place in the menu: (predicted rank, registry order, order in its transformation)."""


def _lsp_action(doc: Document, uri: str, t: Transform) -> types.CodeAction:
    return loop_code_action(doc.lines, uri, loop_action(t), KIND)


def ranked_actions(doc: Document, uri: str, t: Transformation, transforms: list[Transform]) -> list[Ranked]:
    """One transformation's LSP actions, each with its place in the menu
    (:func:`~affine_lsp.ide.loop_actions.ranked_candidates`)."""
    return [(key, loop_code_action(doc.lines, uri, a, KIND)) for key, a in ranked_candidates(t, transforms)]


class ActionsJob:
    """The loop-transformation actions of one (version, loops, settings),
    computed on the document's transforms lane: ``parts`` holds one future
    per transformation offered, set as soon as that one is done (its ranked
    actions), cancelled when the job stops first."""

    __slots__ = ("current", "future", "key", "names", "parts", "uri", "version")

    def __init__(self, uri: str, key: tuple[Any, ...], version: int, names: list[str], current: Callable[[], bool]) -> None:
        self.uri = uri
        self.current = current  # whether the document still has the text it reads
        self.key = key
        self.version = version  # the client's version of the text it reads
        self.names = names
        self.parts: dict[str, Future[list[Ranked]]] = {n: Future() for n in names}
        self.future: Future[None] | None = None

    def run(self, text: str, settings: ActionSettings, quiet: Callable[[], None] = lambda: None) -> None:
        """Compute every part, on a document of its own made from ``text``
        (freed at the end), stopping once the document has changed;
        ``quiet()`` before each transformation (it waits while interactive
        work runs: this thread shares the interpreter with it)."""
        try:
            with editor_request():
                snap = Document(text, uri=self.uri)
                loops = loops_by_start(snap, self.key[1])
                by_name = {t.name: t for t in TRANSFORMATIONS}
                for name in self.names:
                    quiet()
                    if not self.current() or len(loops) != len(self.key[1]):
                        break
                    t = by_name[name]
                    self.parts[name].set_result(ranked_actions(snap, self.uri, t, _actions_of(t, snap, loops, settings)))
        finally:
            self.stopped()

    def stopped(self) -> None:
        """The parts not done are cancelled (the job stopped first, or never ran)."""
        for part in self.parts.values():
            part.cancel()

    def done_actions(self) -> list[types.CodeAction]:
        got = [r for p in self.parts.values() if p.done() and not p.cancelled() for r in p.result()]
        return [a for _, a in sorted(got, key=lambda r: r[0])]

    def answer(self, with_menu: bool) -> list[types.CodeAction]:
        """The actions done, then (``with_menu``) a menu entry for each
        transformation still being computed, to resolve (nothing once the
        document has changed: the edits are those of the text it read)."""
        if not self.current():
            return []
        out = self.done_actions()
        if with_menu:
            by_name = {t.name: t for t in TRANSFORMATIONS}
            for name in self.names:
                if not self.parts[name].done():
                    out.append(types.CodeAction(title=by_name[name].menu or by_name[name].title, kind=KIND, data=self.data(name)))
        return out

    def data(self, name: str) -> dict[str, Any]:
        version, starts, vf, tile_sizes = self.key
        return {"resolver": RESOLVER, "uri": self.uri, "version": version, "loops": list(starts), "vf": vf, "tile_sizes": list(tile_sizes), "name": name}


def _settings(settings: Settings) -> tuple[int, tuple[int, ...]]:
    vf = int(getattr(settings, "vectorize_default_width", 8) or 8)
    return vf, tuple(getattr(settings, "tile_sizes", (32,)) or (32,))


YIELD_MAX_S = 1.0
"""How long a transformation job waits at most for interactive work (a fast
phase, a request) to end before its next transformation."""


def _until_quiet(snap: Snapshot) -> None:
    """Wait (at most :data:`YIELD_MAX_S`) while a fast phase or a request runs."""
    end = time.monotonic() + YIELD_MAX_S
    while (snap.interactive() or snap.fast_phase_running()) and time.monotonic() < end:
        time.sleep(0.005)


def actions_job(snap: Snapshot, doc: Document, loops: list[Operation], vf: int, tile_sizes: tuple[int, ...]) -> ActionsJob:
    """The job of these loops of this version (started now if needed; call
    with the document's lock held)."""
    st = snap.st
    key = (doc.version, tuple(op.span.start for op in loops), vf, tile_sizes)
    cache: dict[tuple[Any, ...], ActionsJob] = st.transform_actions
    job = cache.get(key)
    if job is not None and job.future is not None and not job.future.cancelled():
        return job
    if len(cache) > 64 or any(k[0] != doc.version for k in cache):
        for other in cache.values():  # (the actions of an older version are never asked for again)
            if other.future is not None:
                other.future.cancel()  # (if still queued; a running one stops at its next transformation)
        cache.clear()
    for k, other in list(cache.items()):
        if other.future is not None and other.future.cancel():  # queued for loops the cursor has left
            del cache[k]
    version = st.version
    job = ActionsJob(st.uri, key, version, [t.name for t in offered(loops)], lambda: st.is_current(version))
    settings = ActionSettings(vf=vf, tile_sizes=tile_sizes)
    job.future = snap.lanes().submit_transforms(lambda text=doc.text: job.run(text, settings, lambda: _until_quiet(snap)))
    job.future.add_done_callback(lambda f: job.stopped() if f.cancelled() else None)
    cache[key] = job
    return job


def provider(snap: Snapshot, doc: Document, lo: int, hi: int) -> list[types.CodeAction] | Deferred:
    loops = loops_at(doc, lo, hi)
    if len(loops) not in (1, 2):
        return []
    vf, tile_sizes = _settings(snap.settings)
    job = actions_job(snap, doc, loops, vf, tile_sizes)
    assert job.future is not None
    if job.future.done():
        return job.answer(with_menu=False)
    lazy = snap.client.resolves_edits
    return Deferred(job.future, lambda done: job.answer(with_menu=lazy and not done), FIRST_ANSWER_WAIT_S if lazy else None)


def _restart(snap: Snapshot, key: tuple[Any, ...]) -> ActionsJob | None:
    """The job of ``key`` again (its results were dropped), if the document
    still has that version."""
    with snap.st.locked() as doc:
        if doc.version != key[0]:
            return None
        loops = loops_by_start(doc, key[1])
        if len(loops) != len(key[1]):
            return None
        return actions_job(snap, doc, loops, key[2], key[3])


def _unavailable(snap: Snapshot, action: types.CodeAction, reason: str) -> types.CodeAction:
    try:
        snap.show_message(types.MessageType.Info, f"{action.title}: {reason}")
    except Exception:  # (no client to tell: the disabled reason says it)
        log.debug("showMessage failed", exc_info=True)
    return types.CodeAction(title=action.title, kind=action.kind, disabled=types.CodeActionDisabled(reason=reason))


async def resolve(snap: Snapshot, action: types.CodeAction) -> types.CodeAction:
    """A menu entry: its transformation's first enabled action (the best
    ranked), with its edit, once computed; disabled with the reason when it
    has none (and the user is told)."""
    data = action.data if isinstance(action.data, dict) else {}
    on = snap.document(str(data.get("uri", "")))
    name = str(data.get("name", ""))
    changed = "the document changed since this action was offered; ask for the actions again"
    try:
        key = (int(data["version"]), tuple(int(x) for x in data["loops"]), int(data["vf"]), tuple(int(x) for x in data["tile_sizes"]))
    except (KeyError, TypeError, ValueError):
        return _unavailable(snap, action, "this action cannot be resolved (malformed data)")
    if on is None:
        return _unavailable(snap, action, changed)
    job = on.st.transform_actions.get(key)
    if job is None or name not in job.parts or job.parts[name].cancelled():
        job = await on.in_lane(_restart, on, key)
    if job is None or name not in job.parts:
        return _unavailable(snap, action, changed)
    part = job.parts[name]
    try:
        await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(part)), RESOLVE_WAIT_S)
    except asyncio.CancelledError:
        if not part.cancelled():
            raise
    except TimeoutError:
        return _unavailable(snap, action, "still being computed; ask again in a moment")
    if part.cancelled() or not job.current():
        return _unavailable(snap, action, changed)
    ranked = [a for _, a in sorted(part.result(), key=lambda r: r[0])]
    enabled = [a for a in ranked if a.disabled is None and a.edit is not None]
    if not enabled:
        reason = next((a.disabled.reason for a in ranked if a.disabled is not None), "not applicable here")
        return _unavailable(snap, action, reason)
    best = enabled[0]
    return types.CodeAction(title=best.title, kind=best.kind, edit=best.edit, is_preferred=best.is_preferred)
