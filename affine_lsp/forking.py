"""The one fork protocol of the package, and the registry of its locks.

Four places fork this process: the server's dataflow worker
(server/runtime/flowproc.py), the parallel first build of a large document
(:mod:`affine_lsp.parallel`), the bounded isl scheduler
(transforms/optimize_schedule.py) and the CLI's commands with a time limit
(commands/bounded.py). They all go through :func:`fork`:

* in the child, the hooks of :func:`on_child` run first (a lock another
  thread held is made anew, the parser's build lock is new, the pause of
  the collector is reset), then the child's work, then ``os._exit``: the
  child never returns into the caller's code, nor runs its cleanup;
* with ``hold_locks``, the fork is made holding every lock registered by
  :func:`held_across_fork` (in their order), so that none of them is held
  in the child by a thread that does not exist there.

Every lock made at module level registers here, by its module and name:
:func:`held_across_fork` for the locks a child takes while the parent's
threads run (the analyses'), :func:`renewed_in_child` for the ones a child
makes anew (its hook runs in every child), :func:`not_held_across_fork`
(with the reason) for the ones no child takes. ``tests/test_import_graph.py``
fails on a module-level lock that is not registered.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any, TypeVar

L = TypeVar("L")

_held: list[tuple[int, str, Any]] = []  # (order, name, lock)
_exempt: dict[str, str] = {}  # name -> why a child never takes it
_child_hooks: list[Callable[[], None]] = []
_registry_lock = threading.Lock()  # (registered below, as exempt)


def held_across_fork(lock: L, name: str, order: int) -> L:
    """Register ``lock`` (named ``name``): a fork with ``hold_locks`` is made
    holding it. ``order`` is its place in the order the code nests these
    locks (the outermost first), the order they are taken in for a fork."""
    with _registry_lock:
        _held.append((order, name, lock))
        _held.sort(key=lambda t: t[0])
    return lock


def not_held_across_fork(lock: L, name: str, why: str) -> L:
    """Register ``lock`` as one no forked child takes (``why``: the reason)."""
    with _registry_lock:
        _exempt[name] = why
    return lock


def renewed_in_child(name: str, renew: Callable[[], None]) -> None:
    """Register the lock ``name``, which ``renew`` (run in every forked
    child, see :func:`on_child`) makes anew, with what it guards."""
    with _registry_lock:
        _exempt[name] = "made anew in every forked child"
    on_child(renew)


not_held_across_fork(_registry_lock, f"{__name__}._registry_lock", "taken at registration only (at import time)")


def on_child(hook: Callable[[], None]) -> Callable[[], None]:
    """Run ``hook`` in every forked child, right after the fork."""
    with _registry_lock:
        if hook not in _child_hooks:
            _child_hooks.append(hook)
    return hook


def registered() -> tuple[list[str], dict[str, str]]:
    """The names of the locks held across a fork (in their order), and of the exempt ones with why."""
    with _registry_lock:
        return [name for _, name, _ in _held], dict(_exempt)


def available() -> bool:
    return hasattr(os, "fork")


def fork(child: Callable[[], int | None], hold_locks: bool = False) -> int:
    """Fork; in the child run the hooks of :func:`on_child`, then ``child()``
    (its return value, or 1 on an exception, is the exit status), and leave
    with ``os._exit``. Returns the child's pid to the parent. Raises
    ``OSError`` when the fork fails."""
    locks = [lock for _, _, lock in list(_held)] if hold_locks else []
    for lock in locks:
        lock.acquire()
    try:
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child process
            status = 1
            try:
                for lock in reversed(locks):
                    lock.release()
                for hook in list(_child_hooks):
                    hook()
                status = child() or 0
            except BaseException:
                status = 1
            finally:
                os._exit(status)
    finally:
        for lock in reversed(locks):
            lock.release()
    return pid
