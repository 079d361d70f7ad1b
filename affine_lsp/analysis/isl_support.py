"""The one isl context of the analyses, its operation budget and small helpers.

Every isl computation of :mod:`affine_lsp.analysis` runs on :data:`CTX` while
holding :data:`LOCK` (isl contexts are not thread-safe) and inside
:func:`limited`, which arms isl's ``max_operations`` counter for one query and
turns isl errors into Python exceptions of our own:

* :class:`BudgetExceeded` when the operation limit tripped (the caller answers
  "unknown" and emits an info note; the computation never hangs);
* :class:`IslFailure` for any other isl error.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import islpy as isl

DT = isl.dim_type

CTX: isl.Context = isl.Context()
LOCK = threading.RLock()

DEFAULT_BUDGET = 2_000_000
"""Default isl operation limit of one query (one pair at one depth, one access model...)."""


class BudgetExceeded(Exception):
    """isl's operation limit tripped."""


class IslFailure(Exception):
    """isl reported an error (other than the operation limit)."""


_DEPTH = [0]  # nesting of limited() (under LOCK): inner scopes share the outer budget


@contextmanager
def limited(max_operations: int) -> Iterator[None]:
    """Run the body under an isl operation limit (``<= 0``: unlimited).

    The counter is reset on entry, so each query gets the whole budget. A
    nested ``limited`` runs under the enclosing one's limit.
    """
    with LOCK:
        outer = _DEPTH[0] > 0
        if not outer:
            CTX.set_max_operations(max(0, int(max_operations)))
            CTX.reset_operations()
        _DEPTH[0] += 1
        try:
            yield
        except isl.Error as e:
            msg = str(e)
            if "maximal number of operations" in msg:
                raise BudgetExceeded(msg) from None
            raise IslFailure(msg) from None
        finally:
            _DEPTH[0] -= 1
            if not outer:
                CTX.set_max_operations(0)
                CTX.reset_operations()


_IDS: dict[str, isl.Id] = {}


def param_id(name: str) -> isl.Id:
    """The isl identifier of parameter ``name``, the same one isl's parser
    creates (no user pointer), so our objects align with parsed ones."""
    got = _IDS.get(name)
    if got is None:
        got = isl.Id.read_from_str(CTX, name)
        _IDS[name] = got
    return got


def val(c: int) -> isl.Val:
    """An isl integer value (arbitrary precision)."""
    if -(2**62) < c < 2**62:
        return isl.Val.int_from_si(CTX, c)
    return isl.Val.read_from_str(CTX, str(c))


def val_to_int(v: isl.Val) -> int | None:
    """The integer value of ``v``; None for +-infinity and NaN."""
    if v.is_nan() or v.is_infty() or v.is_neginfty():
        return None
    return int(v.to_python())


def val_bound(v: isl.Val) -> tuple[bool, int | None]:
    """``(empty, value)``: NaN (empty set) gives ``(True, None)``; an infinite
    value ``(False, None)``; a finite one ``(False, n)``."""
    if v.is_nan():
        return True, None
    if v.is_infty() or v.is_neginfty():
        return False, None
    return False, int(v.to_python())
