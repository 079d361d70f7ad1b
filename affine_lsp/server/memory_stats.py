"""``affine-lsp.memoryStats``: a debugging command, the collector's and
the process's memory figures (server/runtime/memory.py); with the argument
``{"count": true}``, after a full collection, the number of live IR
operations (tests check that a closed document leaves none). The
reclaimer's figures (server/runtime/reclaim.py): documents and operations freed
without a collection, documents left to the full collection; operations of
the IR edits replaced freed without a collection, retired ops found still
in use, batches of them left to the full collection. With
``{"census": true}``, the most numerous types of the objects the collector
tracks, garbage not collected yet included (no collection is run)."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

from affine_lsp.server.runtime.memory import live_operations, object_census, resident_mb
from affine_lsp.server.session import Session

MEMORY_STATS = "affine-lsp.memoryStats"


def memory_stats(ls: Session, count: bool, census: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {
        "documents": len(ls.documents.docs),
        "frozen_objects": gc.get_freeze_count(),
        "full_collections": ls.diagnostics.full_collections,
        "generation2_collections": gc.get_stats()[2]["collections"],
        "reclaimed_documents": ls.diagnostics.reclaimer.freed_documents,
        "reclaimed_operations": ls.diagnostics.reclaimer.freed_ops,
        "reclaim_fallbacks": ls.diagnostics.reclaimer.fallbacks,
        "retired_operations": ls.diagnostics.reclaimer.retired_ops,
        "retired_still_used": ls.diagnostics.reclaimer.retired_skipped,
        "retire_fallbacks": ls.diagnostics.reclaimer.retire_fallbacks,
        "slow_collections": ls.gc_log.slow,
        "longest_collection_ms": round(1000 * ls.gc_log.longest, 1),
        "resident_mb": round(resident_mb(), 1),
    }
    if census:
        out["census"] = object_census()
    if count:
        out["operations"] = live_operations()
    return out


async def memory_stats_command(ls: Session, args: tuple[Any, ...]) -> dict[str, Any]:
    """The command, on the parse worker (beside the start-up and the full collections)."""
    opts = args[0] if args and isinstance(args[0], dict) else {}
    return await asyncio.get_running_loop().run_in_executor(ls.parse_pool, memory_stats, ls, bool(opts.get("count")), bool(opts.get("census")))
