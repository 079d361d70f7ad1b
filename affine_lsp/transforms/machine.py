"""The machine the cost models predict for: data-cache sizes, vector registers.

Read once from Linux's sysfs (``/sys/devices/system/cpu/cpu0/cache/index*``:
``level``, ``type``, ``size``); where that is missing or unreadable (other
systems, containers without sysfs) the defaults of a common x86-64 core are
used: 32 KiB L1d, 1 MiB L2, 8 MiB L3. ``AFFINE_LSP_CACHES`` (``L1,L2,L3``
in sysfs's notation, e.g. ``48K,1M,32M``) names another machine's sizes
instead: to predict for the machine the code will run on, and so that the
tests do not depend on the machine they run on (``tests/conftest.py`` sets
it). The source is recorded so that a prediction can say which sizes it
used.

The vector registers (how many, how wide) come from the x86 flags of
``/proc/cpuinfo`` (``avx512f``: 32 of 512 bits; ``avx``: 16 of 256 bits;
otherwise 16 of 128 bits, SSE2 or NEON); ``AFFINE_LSP_VECTOR_REGISTERS``
(``COUNTxBITS``, e.g. ``16x256``) names another machine's.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

SYSFS_CACHE = Path("/sys/devices/system/cpu/cpu0/cache")
DEFAULTS = {1: 32 * 1024, 2: 1024 * 1024, 3: 8 * 1024 * 1024}


@dataclass(frozen=True, slots=True)
class Caches:
    l1: int  # bytes of L1 data cache
    l2: int
    l3: int
    source: str  # "sysfs", "defaults" or "AFFINE_LSP_CACHES"

    def level_holding(self, nbytes: int) -> int | None:
        """The first cache level ``nbytes`` fit in (1, 2, 3), None: memory."""
        for lvl, size in ((1, self.l1), (2, self.l2), (3, self.l3)):
            if nbytes <= size:
                return lvl
        return None


def parse_size(text: str) -> int | None:
    """``"48K"`` -> 49152, ``"2048K"``, ``"1M"``, ``"512"`` (bytes)."""
    t = text.strip().upper()
    mult = 1
    if t.endswith("K"):
        mult, t = 1024, t[:-1]
    elif t.endswith("M"):
        mult, t = 1024 * 1024, t[:-1]
    elif t.endswith("G"):
        mult, t = 1024 * 1024 * 1024, t[:-1]
    return int(t) * mult if t.isdigit() else None


def read_caches(root: Path = SYSFS_CACHE) -> Caches:
    """The data-cache sizes under ``root`` (sysfs layout), defaults for the
    levels it does not list."""
    found: dict[int, int] = {}
    try:
        entries = sorted(root.glob("index*"))
        for e in entries:
            kind = (e / "type").read_text().strip()
            if kind not in ("Data", "Unified"):
                continue
            level = int((e / "level").read_text().strip())
            size = parse_size((e / "size").read_text())
            if size and level in DEFAULTS and level not in found:
                found[level] = size
    except (OSError, ValueError):
        found = {}
    sizes = {lvl: found.get(lvl, d) for lvl, d in DEFAULTS.items()}
    return Caches(sizes[1], sizes[2], sizes[3], "sysfs" if found else "defaults")


def caches_from_spec(spec: str) -> Caches | None:
    """``"48K,1M,32M"`` -> the three sizes; None when it is not three sizes."""
    sizes = [parse_size(part) for part in spec.split(",")]
    if len(sizes) != 3 or any(not s for s in sizes):
        return None
    return Caches(sizes[0], sizes[1], sizes[2], "AFFINE_LSP_CACHES")  # type: ignore[arg-type]


@lru_cache(maxsize=1)
def caches() -> Caches:
    """The caches the models predict for (read once): ``AFFINE_LSP_CACHES``
    when it is set and well formed, else this machine's."""
    spec = os.environ.get("AFFINE_LSP_CACHES")
    return (caches_from_spec(spec) if spec else None) or read_caches()


def human_bytes(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MiB"
    if n >= 1024:
        return f"{n / 1024:.0f} KiB"
    return f"{n} B"


CPUINFO = Path("/proc/cpuinfo")


@dataclass(frozen=True, slots=True)
class VectorRegisters:
    count: int
    bits: int
    source: str  # "cpuinfo", "defaults" or "AFFINE_LSP_VECTOR_REGISTERS"


def read_vector_registers(path: Path = CPUINFO) -> VectorRegisters:
    """The vector registers of the CPU described in ``path`` (its first ``flags`` line)."""
    try:
        text = path.read_text()
    except OSError:
        return VectorRegisters(16, 128, "defaults")
    for line in text.splitlines():
        if line.startswith("flags"):
            flags = set(line.split(":", 1)[-1].split())
            if "avx512f" in flags:
                return VectorRegisters(32, 512, "cpuinfo")
            if "avx" in flags:
                return VectorRegisters(16, 256, "cpuinfo")
            return VectorRegisters(16, 128, "cpuinfo")
    return VectorRegisters(16, 128, "defaults")


@lru_cache(maxsize=1)
def vector_registers() -> VectorRegisters:
    """The vector registers the models predict for (read once):
    ``AFFINE_LSP_VECTOR_REGISTERS`` when it is set and well formed, else this
    machine's."""
    spec = os.environ.get("AFFINE_LSP_VECTOR_REGISTERS", "")
    count, _, bits = spec.lower().partition("x")
    if count.isdigit() and bits.isdigit() and int(count) > 0 and int(bits) >= 64:
        return VectorRegisters(int(count), int(bits), "AFFINE_LSP_VECTOR_REGISTERS")
    return read_vector_registers()
