"""Every op MLIR 22.1.8 registers in its upstream dialects: the one registry
of op facts.

The data (``affine_lsp/data/ops_22.1.8.json``) is generated at development
time by ``scripts/gen_op_registry.py`` (see ``docs/op_registry.md`` for
where each fact comes from) and loaded lazily, once. Dialects are those of
``mlir-opt --show-dialects``; an op of one of them that is not here is one
mlir-opt 22.1.8 rejects.

The user's own dialects join it at run time (:func:`add_ops`, fed by
:func:`affine_lsp.ods.td_facts.register` from their ``.td`` records): their
ops are then answered exactly as upstream ones, and their dialects are
registered ones, until :func:`remove_ops`.
"""

from __future__ import annotations

import difflib
import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from affine_lsp import forking

MLIR_VERSION = "22.1.8"
DATA_FILE = Path(__file__).resolve().parents[1] / "data" / f"ops_{MLIR_VERSION}.json"


@dataclass(frozen=True)
class Group:
    """An operand or result group: ``kind`` is ``1`` (single), ``?``
    (optional) or ``*`` (variadic)."""

    name: str
    kind: str


@dataclass(frozen=True)
class AttrSpec:
    name: str
    required: bool
    kind: str  # the ODS attribute constraint, e.g. ``AffineMapAttr`` ("" when not known)


@dataclass(frozen=True)
class OpInfo:
    """What the registry knows of one op. ``structured`` is False for an op
    known by name only (absent from the Python bindings): its operands,
    results, regions, successors and attributes are then not known and
    nothing may be checked against them."""

    name: str
    summary: str
    structured: bool
    operands: tuple[Group, ...] = ()
    results: tuple[Group, ...] | None = ()  # None: not known
    regions: int = 0
    variadic_regions: bool = False
    successors: int = 0
    variadic_successors: bool = False
    attributes: tuple[AttrSpec, ...] = ()
    operand_segments: bool = False  # AttrSizedOperandSegments
    result_segments: bool = False  # AttrSizedResultSegments
    # From the .td files (see docs/op_registry.md); read them through
    # affine_lsp/ir/op_traits.py, which knows what they mean.
    traits: frozenset[str] = frozenset()  # MLIR's C++ trait and interface names
    effects: tuple[str, ...] | None = None  # "read", "write:o:memref", ...; None: not stated in ODS
    operand_types: tuple[str, ...] | None = None  # each operand group's ODS type constraint; None: not known
    default_dialect: str = ""  # OpAsmOpInterface::getDefaultDialect ("": none)
    source: str = ""  # a user's op: where its .td record is (FILE.td:LINE); "" for a shipped op

    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def required_attributes(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.attributes if a.required)

    def count_range(self, groups: tuple[Group, ...]) -> tuple[int, int | None]:
        """(minimum, maximum or None when unbounded) number of values."""
        lo = sum(1 for g in groups if g.kind == "1")
        hi = None if any(g.kind == "*" for g in groups) else lo + sum(1 for g in groups if g.kind == "?")
        return lo, hi

    def operand_group_sizes(self, n: int, segments: Sequence[object] | None) -> list[int] | None:
        """How many of an op's ``n`` operands each operand group holds, given
        its operand segment sizes when it has ``AttrSizedOperandSegments``
        (None when it cannot be told)."""
        kinds = [g.kind for g in self.operands]
        if self.operand_segments:
            if segments is None or len(segments) != len(kinds) or not all(isinstance(v, int) for v in segments):
                return None
            return [int(v) for v in segments]  # type: ignore[call-overload]
        varying = [i for i, k in enumerate(kinds) if k != "1"]
        fixed = len(kinds) - len(varying)
        if not varying:
            return [1] * len(kinds) if n == fixed else None
        if len(varying) == 1:
            return [n - fixed if i in varying else 1 for i in range(len(kinds))] if n >= fixed else None
        return None  # several variadic groups without segment sizes (SameVariadicOperandSize): not modelled

    @property
    def operand_range(self) -> tuple[int, int | None]:
        return self.count_range(self.operands)

    @property
    def result_range(self) -> tuple[int, int | None] | None:
        return None if self.results is None else self.count_range(self.results)


@cache
def _data() -> dict:
    with DATA_FILE.open(encoding="utf-8") as f:
        return json.load(f)


# ---- the user's ops (their dialects' .td records) ---------------------------

_LOCK = threading.Lock()


def _renew_lock() -> None:
    global _LOCK
    _LOCK = threading.Lock()


forking.renewed_in_child(f"{__name__}._LOCK", _renew_lock)  # (a child never sees a lock another thread held)
_USER: dict[str, dict] = {}  # full name -> a record spelled as the data file's (traits as a list)
_USER_REFS: dict[str, int] = {}  # how many add_ops calls registered each (two documents may load one dialect)
_USER_CONSTRAINTS: dict[str, str] = {}
_ON_CHANGE: list[Callable[[], None]] = []


def on_change(forget: Callable[[], None]) -> None:
    """Call ``forget`` whenever the user's ops change (a module that keeps
    answers derived from the registry drops them)."""
    _ON_CHANGE.append(forget)


def _changed() -> None:
    for f in (lookup, ops_with_trait, dialects, op_names, _user_dialects):
        f.cache_clear()
    for forget in _ON_CHANGE:
        forget()


def is_shipped(name: str) -> bool:
    """Whether ``name`` is an op MLIR 22.1.8 registers (the shipped data)."""
    dialect, _, short = name.partition(".")
    return bool(short) and short in _data()["dialects"].get(dialect, {})


def add_ops(records: dict[str, dict], constraints: dict[str, str] | None = None) -> list[str]:
    """Register the user's ops ``records`` (``{"toy.add": record}``, keys as
    the data file's: :func:`affine_lsp.ods.td_facts.registry_record`) and
    the summaries of their named type ``constraints``; an op MLIR ships
    keeps its facts. The names added."""
    added = []
    with _LOCK:
        for name, raw in records.items():
            if "." in name.strip(".") and not is_shipped(name):
                _USER[name] = raw  # (added again: the latest facts, one more removal to forget it)
                _USER_REFS[name] = _USER_REFS.get(name, 0) + 1
                added.append(name)
        for k, v in (constraints or {}).items():
            _USER_CONSTRAINTS.setdefault(k, v)
        _changed()
    return added


def remove_ops(names: list[str]) -> None:
    """Forget ops :func:`add_ops` added, once per time it added them (and
    their dialect once no op of it is left)."""
    with _LOCK:
        for name in names:
            left = _USER_REFS.get(name, 0) - 1
            if left > 0:
                _USER_REFS[name] = left
            else:
                _USER_REFS.pop(name, None)
                _USER.pop(name, None)
        if not _USER:
            _USER_CONSTRAINTS.clear()
        _changed()


def has_user_ops() -> bool:
    """Whether any of the user's ops is registered (a fast path for the
    questions only they raise)."""
    return bool(_USER)


def user_op_names() -> tuple[str, ...]:
    """The names of the user's ops registered now."""
    return tuple(sorted(_USER))


@cache
def _user_dialects() -> dict[str, dict[str, dict]]:
    out: dict[str, dict[str, dict]] = {}
    for name, raw in _USER.items():
        d, _, short = name.partition(".")
        out.setdefault(d, {})[short] = raw
    return out


def _ops_of(dialect: str) -> dict[str, dict]:
    shipped = _data()["dialects"].get(dialect)
    user = _user_dialects().get(dialect)
    if user is None:
        return shipped or {}
    return {**user, **shipped} if shipped else user


@cache
def dialects() -> frozenset[str]:
    """The dialects mlir-opt 22.1.8 registers, and the user's registered
    ones (:func:`add_ops`)."""
    return frozenset(_data()["dialects"]) | frozenset(_user_dialects())


def is_upstream_dialect(dialect: str) -> bool:
    """Whether ``dialect`` is registered: one of MLIR 22.1.8's or one of the
    user's (:func:`add_ops`), whose unknown ops are errors alike."""
    return dialect in dialects()


@cache
def _allowing_unknown_ops() -> frozenset[str]:
    return frozenset(_data()["unknown_ops_allowed"])


def allows_unknown_ops(dialect: str) -> bool:
    """Whether MLIR verifies an op of ``dialect`` that it does not register
    without error (``Dialect::allowsUnknownOperations``: llvm, nvvm, rocdl,
    shape, spirv); its custom form is still an unknown op."""
    return dialect in _allowing_unknown_ops()


@cache
def op_names(dialect: str) -> tuple[str, ...]:
    """The full names of the ops of ``dialect`` (empty for other dialects)."""
    return tuple(f"{dialect}.{s}" for s in sorted(_ops_of(dialect)))


def _groups(raw: list) -> tuple[Group, ...]:
    return tuple(Group(n, k) for n, k in raw)


@cache
def lookup(name: str) -> OpInfo | None:
    """The registry's facts of the op ``name`` (``arith.addf``), or None when
    MLIR 22.1.8 has no such op."""
    dialect, _, short = name.partition(".")
    raw = _data()["dialects"].get(dialect, {}).get(short) if short else None
    if raw is None:
        raw = _USER.get(name)
    if raw is None:
        return None
    traits = raw.get("t")
    td = {
        "traits": frozenset(traits if isinstance(traits, list) else _trait_sets()[traits]) if traits is not None else frozenset(),
        "effects": tuple(raw["e"]) if "e" in raw else None,
        "operand_types": tuple(raw["ot"]) if "ot" in raw else None,
        "default_dialect": raw.get("dd", ""),
        "source": raw.get("src", ""),
    }
    if "o" not in raw:
        return OpInfo(name, raw.get("s", ""), False, **td)
    regions, exact = raw["g"]
    return OpInfo(
        name,
        raw.get("s", ""),
        True,
        _groups(raw["o"]),
        _groups(raw["r"]) if "r" in raw else None,
        regions,
        not exact,
        sum(1 for s in raw["c"] if s == "1"),
        "*" in raw["c"],
        tuple(AttrSpec(n, bool(r), k) for n, r, k in raw["a"]),
        bool(raw.get("os")),
        bool(raw.get("rs")),
        **td,
    )


@cache
def ops_with_trait(trait: str) -> frozenset[str]:
    """The full names of the ops that have the trait or interface ``trait``
    (computed once per trait: asking is one set lookup)."""
    sets = [trait in ts for ts in _trait_sets()]
    shipped = frozenset(f"{d}.{short}" for d, ops in _data()["dialects"].items() for short, raw in ops.items() if "t" in raw and sets[raw["t"]])
    user = frozenset(n for n, raw in _USER.items() if trait in raw.get("t", ()))
    return shipped | user if user else shipped


@cache
def _trait_sets() -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(t) for t in _data().get("trait_sets", ()))


def type_constraint_summary(constraint: str) -> str:
    """mlir-opt's words for an ODS type constraint (``Index``: "index"); an
    anonymous one (``~...``) carries its own."""
    if constraint.startswith("~"):
        return constraint[1:]
    shipped = _data().get("type_constraints", {}).get(constraint)
    return str(shipped if shipped is not None else _USER_CONSTRAINTS.get(constraint, constraint))


def is_unknown_upstream(name: str) -> bool:
    """Whether ``name`` is of an upstream dialect and MLIR 22.1.8 has no such op."""
    return is_upstream_dialect(name.partition(".")[0]) and lookup(name) is None


def nearest(name: str, limit: int = 3) -> list[str]:
    """The names of the same dialect closest to ``name`` (for "did you
    mean"), best first."""
    dialect, _, short = name.partition(".")
    shorts = list(_ops_of(dialect))
    close = difflib.get_close_matches(short, shorts, n=limit, cutoff=0.6)
    return [f"{dialect}.{s}" for s in close]


def enum_values(name: str) -> tuple[str, ...]:
    """The keywords of the enum ``name`` (``arith.CmpIPredicate``), in
    MLIR's order; empty when not known."""
    return tuple(_data()["enums"].get(name, ()))
