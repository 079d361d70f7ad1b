"""Scratch documents: the documents a computation makes for itself and
drops when it is done (a transformation's steps and its safety net, a
hover's legality checks, the dataflow worker's one function).

Their IR is cyclic, so once dropped it waits for the garbage collector,
and a collection of the oldest generation stops every thread of the
server (server/runtime/memory.py). Inside :func:`scratch_documents`, every
:class:`~affine_lsp.source.document.Document` the thread makes (not the
server's own, ``release=True``) is enrolled, and at the end of the block
its IR, the IR its edits replaced included, is cut
(:func:`~affine_lsp.ir.release.release_document`): reference counting
frees it at once. So is the detached IR a transformation builds to print
(:func:`enrol_ir`: clones, fusion's copied nests).

The rule for a block: nothing built from a scratch document (an op, a
value, an analysis of one) is kept past it; what leaves it is text,
numbers, or records of them (``Transform``, ``Prediction``, edits).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from affine_lsp.ir.core import Operation
    from affine_lsp.source.document import Document

_local = threading.local()


class _Arena:
    __slots__ = ("docs", "ir")

    def __init__(self) -> None:
        self.docs: list[Document] = []
        self.ir: list[Operation] = []


@contextmanager
def scratch_documents() -> Iterator[None]:
    """The documents this thread makes inside the block are freed at its
    end (also usable as a decorator; blocks nest)."""
    from affine_lsp.ir.release import break_cycles, release_document

    outer = getattr(_local, "arena", None)
    arena = _local.arena = _Arena()
    try:
        yield
    finally:
        _local.arena = outer
        for doc in arena.docs:
            release_document(doc)
        break_cycles(arena.ir, pause=lambda: None)


def enrol(doc: Document) -> bool:
    """Whether ``doc`` is made inside a :func:`scratch_documents` block of
    this thread (it is then freed at the block's end)."""
    arena = getattr(_local, "arena", None)
    if arena is None:
        return False
    arena.docs.append(doc)
    return True


def enrol_ir(ops: list[Operation]) -> None:
    """Detached IR (built to be printed, in no document): cut at the end of
    this thread's :func:`scratch_documents` block, if one is open."""
    arena = getattr(_local, "arena", None)
    if arena is not None:
        arena.ir.extend(ops)
