"""The one isl context of the analyses, its operation budget and small helpers.

Every isl computation of :mod:`affine_lsp.analysis` runs on :data:`CTX` while
holding :data:`LOCK` (isl contexts are not thread-safe) and inside
:func:`limited`, which arms isl's ``max_operations`` counter for one query and
turns isl errors into Python exceptions of our own:

* :class:`BudgetExceeded` when the operation limit tripped (the caller answers
  "unknown" and emits an info note; the computation never hangs);
* :class:`IslFailure` for any other isl error.

:func:`time_limit` bounds a whole analysis in time as well: once its
deadline has passed, the next query (the next :func:`limited`) raises
:class:`TimeBudgetExceeded` instead of starting, so the analysis of one
function never runs much longer than its budget (one query at most, and each
query is bounded by the operation limit).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import islpy as isl

from affine_lsp import forking

DT = isl.dim_type

CTX: isl.Context = isl.Context()
LOCK = forking.held_across_fork(threading.RLock(), f"{__name__}.LOCK", order=1)

DEFAULT_BUDGET = 2_000_000
"""Default isl operation limit of one query (one pair at one depth, one access model...)."""


class BudgetExceeded(Exception):
    """isl's operation limit tripped."""


class IslFailure(Exception):
    """isl reported an error (other than the operation limit)."""


class TimeBudgetExceeded(Exception):
    """The deadline of :func:`time_limit` passed: the analysis gives up."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"time budget of {round(seconds * 1000)} ms exceeded")
        self.seconds = seconds


_DEPTH = [0]  # nesting of limited() (under LOCK): inner scopes share the outer budget
_DEADLINE = threading.local()  # .at: (monotonic deadline, budget in s) of this thread, or None


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Within the body, a query started after ``seconds`` raises
    :class:`TimeBudgetExceeded` (``None`` or ``<= 0``: no limit). Per thread;
    nested limits keep the earliest deadline."""
    prev = getattr(_DEADLINE, "at", None)
    cur = prev
    if seconds is not None and seconds > 0:
        at = time.monotonic() + seconds
        if prev is None or at < prev[0]:
            cur = (at, seconds)
    _DEADLINE.at = cur
    try:
        yield
    finally:
        _DEADLINE.at = prev


def check_time() -> None:
    """Raise :class:`TimeBudgetExceeded` when this thread's deadline has passed."""
    at = getattr(_DEADLINE, "at", None)
    if at is not None and time.monotonic() > at[0]:
        raise TimeBudgetExceeded(at[1])


@contextmanager
def limited(max_operations: int) -> Iterator[None]:
    """Run the body under an isl operation limit (``<= 0``: unlimited).

    The counter is reset on entry, so each query gets the whole budget. A
    nested ``limited`` runs under the enclosing one's limit.
    """
    check_time()
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


def val_bound(v: isl.Val) -> tuple[bool, int | None]:
    """``(empty, value)``: NaN (empty set) gives ``(True, None)``; an infinite
    value ``(False, None)``; a finite one ``(False, n)``."""
    if v.is_nan():
        return True, None
    if v.is_infty() or v.is_neginfty():
        return False, None
    return False, int(v.to_python())
