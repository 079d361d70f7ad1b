"""Cutting the links of IR nobody uses any more, so that reference
counting frees it at once instead of the cyclic garbage collector later.

The IR is cyclic (parent links, value uses and owners, op memos): garbage
IR waits for a collection, and a collection of the oldest generation stops
every thread of the server (server/runtime/memory.py). What is cut here must be
garbage: :func:`break_cycles` empties the ops' lists and links, so a reader
that still held one would find it empty. Types, attributes and affine maps,
which may be shared, are never touched. Used by the server's reclaimer
(server/runtime/reclaim.py) and for scratch documents (source/scratch.py)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from affine_lsp.ir.core import Operation

if TYPE_CHECKING:
    from affine_lsp.source.document import Document

SLICE_OPS = 2000
"""Operations whose links are cut between two calls of ``pause``."""


def break_cycles(roots: Iterable[Operation], slice_ops: int = SLICE_OPS, pause: Callable[[], None] = lambda: time.sleep(0)) -> int:
    """Cut every link of the IR under ``roots`` that makes a cycle (parent
    links, region/block/op lists, value uses and owners, successors, memos),
    top down, calling ``pause`` after every ``slice_ops`` operations; returns
    the number of operations visited. Each op is visited once (an op reached
    twice, e.g. a function kept by ``last_good`` that is also in the current
    module, has its lists emptied the first time)."""
    stack: list[Operation] = list(roots)
    seen: set[int] = set()
    n = 0
    while stack:
        op = stack.pop()
        if id(op) in seen:
            continue
        seen.add(id(op))
        n += 1
        for region in op.regions:
            for block in region.blocks:
                stack.extend(block.operations)
                for arg in block.arguments:
                    arg.uses = []
                    arg.owner = None
                block.operations = []
                block.arguments = []
                block.parent = None
            region.blocks = []
            region.parent = None
        for res in op.results:
            res.uses = []
            res.owner = None
        # (New empty containers rather than emptied ones: nothing outside
        # the document is changed, even a container it would share.)
        op.regions = []
        op.results = []
        op.operands = []
        op.operand_spans = []
        op.attributes = {}
        op.successors = ()
        op.unresolved = ()
        op.parent = None
        memo = op.memo
        if memo is not None:
            if memo.owner is op:  # (a copy's memo is not its own: see ir.core.memo_of)
                memo.clear()
            op.memo = None
        if n % slice_ops == 0:
            pause()
    return n


def release_document(doc: Document) -> int:
    """Cut the IR of a document only its caller used (a scratch document:
    nothing it built may be kept), with the IR its edits replaced when it
    kept it (``doc.retired``); returns the operations visited."""
    roots: list[Operation] = [c.ir_op for c in doc.chunks if c.ir_op is not None]
    roots.extend(s.module for s in doc._sections or ())
    if doc.retired is not None:
        roots.extend(doc.retired.items)
        roots.extend(doc.retired.shells)
    return break_cycles(roots, pause=lambda: None)
