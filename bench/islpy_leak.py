"""How much C memory islpy keeps for good per call, by kind of call.

islpy copies each isl object it passes to an isl function that takes
ownership of its argument; each such argument leaves a 32-byte block behind
that is never freed, not even with its context (see docs/architecture.md).
This measures the glibc heap in use (``mallinfo2``) around a few thousand
calls of each kind, after a garbage collection. Linux/glibc only.

Usage::

    python bench/islpy_leak.py
"""

from __future__ import annotations

import ctypes
import gc
import sys
from collections.abc import Callable

import islpy as isl


class _MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ["arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost"]]


_LIBC = ctypes.CDLL("libc.so.6")
_LIBC.mallinfo2.restype = _MallInfo2


def _heap_in_use() -> int:
    gc.collect()
    return int(_LIBC.mallinfo2().uordblks)


def bytes_kept_per_call(fn: Callable[[], object], calls: int = 5000) -> float:
    fn()  # (first-call allocations)
    before = _heap_in_use()
    for _ in range(calls):
        fn()
    return (_heap_in_use() - before) / calls


def main() -> int:
    ctx = isl.Context()
    m = isl.Map("[N] -> { S[i, j] -> A[i + j] : 0 <= i < N and 0 <= j < 10 }", context=ctx)
    r = m.reverse()
    cases: dict[str, Callable[[], object]] = {
        "is_empty (reads its argument)": m.is_empty,
        "copy (reads its argument)": m.copy,
        "reverse (takes 1 argument)": m.reverse,
        "domain (takes 1)": m.domain,
        "lexmin (takes 1)": m.lexmin,
        "apply_range (takes 2)": lambda: m.apply_range(r),
        "intersect (takes 2)": lambda: m.intersect(m),
    }
    print(f"islpy {isl.__version__}, Python {sys.version.split()[0]}")
    for name, fn in cases.items():
        print(f"  {name:32s} {bytes_kept_per_call(fn):6.1f} bytes kept per call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
