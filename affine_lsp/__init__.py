"""affine-lsp: a language server, CLI and VS Code extension for MLIR's affine dialect."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from importlib.machinery import ModuleSpec
from pathlib import Path

__version__ = "0.1.0"


class _SourceWhenStale(importlib.abc.MetaPathFinder):
    """The hot modules may be compiled (``setup.py``: Cython, from the same
    ``.py``). This finder imports a module of this package from its source
    when its compiled file is older than the source (edited since the
    build: the compiled one would run the old code) or when
    ``AFFINE_LSP_PURE_PYTHON`` is set; otherwise it leaves the import to
    Python, which prefers the compiled file."""

    def __init__(self, package: str, pure: bool) -> None:
        self.prefix = package + "."
        self.pure = pure

    def find_spec(self, name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if not name.startswith(self.prefix) or not path:
            return None
        leaf = name.rpartition(".")[2]
        for entry in path:  # type: ignore[attr-defined]
            source = Path(entry) / f"{leaf}.py"
            if not source.is_file():
                continue
            if not self.pure:
                compiled = [p for s in importlib.machinery.EXTENSION_SUFFIXES if (p := Path(entry) / f"{leaf}{s}").is_file()]
                if not compiled or all(p.stat().st_mtime >= source.stat().st_mtime for p in compiled):
                    return None
            return importlib.util.spec_from_file_location(name, source)
        return None


def compiled_modules() -> list[str]:
    """The modules of this package imported so far from compiled files."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return sorted(n for n, m in list(sys.modules.items()) if n.startswith(__name__ + ".") and str(getattr(m, "__file__", "")).endswith(suffixes))


sys.meta_path.insert(0, _SourceWhenStale(__name__, os.environ.get("AFFINE_LSP_PURE_PYTHON", "") not in ("", "0")))
