"""The timing harness: a generated ``@main`` around one function of a
program, so that it can be compiled and timed as a whole program.

For a function whose arguments are statically shaped memrefs with the
identity layout (and index/integer/float scalars) the harness

* allocates every memref argument; the scalars get fixed values (floats
  1.5, 1.2, 1.1, 0.9, ... as PolyBench's ``alpha``/``beta``; integers and
  indices 3);
* before each call, initialises every array deterministically, as
  PolyBench's ``init_array`` does: element ``(i0, ..., in)`` of argument
  ``k`` is ``(h mod 101 + 1) / 102`` with ``h`` a fixed polynomial of the
  indices and ``k`` (so every call computes the same values);
* calls the function once to warm up, then ``repeat`` times, each call
  between two ``rtclock()`` readings (wall time) and two ``clock()``
  readings (the process's CPU time: on a shared machine it counts only the
  time the call ran); the function is called through a
  wrapper marked ``passthrough = ["noinline"]``: LLVM cannot inline it into
  ``@main``, so the initialisation before a call and the reading of the
  clock stay outside the timed code (checked in the object code of
  ``mlir-runner -O3``: one call per repetition, between the two clock
  readings);
* prints each time and, after the last call, three checksums of every
  array the function writes (sum, sum weighted by ``(linear index mod 97)
  + 1``, sum of absolute values, accumulated in f64) and every scalar
  result, as the bits of an f64 (exact, no decimal rounding).

Two runs agree when every checksum differs by at most ``rtol`` times the
array's sum of absolute values (weighted sums: times 97 times that sum):
``rtol`` is 1e-9 for f64 arrays and 1e-3 for f32/f16/bf16, tolerances that
float reassociation of vectorized reductions passes and that a single wrong
element of a MEDIUM-sized f64 array does not.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Sequence
from dataclasses import dataclass

from affine_lsp.ir import op_traits
from affine_lsp.ir.attributes import TypeAttr
from affine_lsp.ir.core import Operation
from affine_lsp.ir.types import FloatType, FunctionType, IndexType, IntegerType, MemRefType, Type

ENTRY = "__affine_lsp_main"
WRAPPER = "__affine_lsp_call"
MARK = "affine-lsp-harness"
FLOAT_VALUES = (1.5, 1.2, 1.1, 0.9)
INT_VALUE = 3
RTOL = {"f64": 1e-9}
RTOL_LOW = 1e-3  # f32, f16, bf16
RTOL_INT = 0.0

_WRITES = {"affine.store": 1, "memref.store": 1, "affine.vector_store": 1, "vector.transfer_write": 1, "vector.store": 1, "vector.maskedstore": 0}


class HarnessError(Exception):
    """The function cannot be timed by the harness (the message says why and what it needs)."""


@dataclass(frozen=True)
class Signature:
    name: str
    inputs: tuple[Type, ...]
    results: tuple[Type, ...]
    written: tuple[int, ...]  # memref arguments the function writes
    insert_at: int  # offset in the section text where the harness goes (after the function)
    section_start: int
    section_end: int
    declared: frozenset[str]  # the symbols the section defines


@dataclass(frozen=True)
class Measurement:
    times: tuple[float, ...]  # seconds of wall time (rtclock), the warm-up call excluded
    cpu_times: tuple[float, ...]  # seconds of the process's CPU time (clock()), the warm-up call excluded
    checks: tuple[tuple[float, float, float], ...]  # per written array: sum, weighted sum, sum of |x|
    results: tuple[float, ...]  # scalar results, as f64
    rtols: tuple[float, ...]  # per written array
    batch: int = 1  # calls per timed sample (a sample's time is divided by it)

    @property
    def median(self) -> float:
        """The median wall time of a call (seconds)."""
        return median(self.times)

    @property
    def cpu_median(self) -> float:
        """The median CPU time of a call (seconds)."""
        return median(self.cpu_times)


def median(xs: Sequence[float]) -> float:
    s = sorted(xs)
    n = len(s)
    if n == 0:
        return math.nan
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def _supported_scalar(t: Type) -> bool:
    if isinstance(t, FloatType):
        return t.kind in ("f16", "bf16", "f32", "f64")
    return isinstance(t, IndexType) or (isinstance(t, IntegerType) and 1 < t.width <= 64)


def _problem(t: Type) -> str | None:
    if isinstance(t, MemRefType):
        if any(d is None for d in t.shape):
            return f"{t} has a dynamic size"
        if not t.has_identity_layout:
            return f"{t} has a non-identity layout"
        if t.memory_space is not None:
            return f"{t} is in memory space {t.memory_space}"
        if not _supported_scalar(t.element):
            return f"{t} has element type {t.element}"
        return None
    if _supported_scalar(t):
        return None
    return f"{t} is not a memref or an index/integer/float scalar"


def unsupported(ftype: FunctionType) -> str | None:
    """Why the harness cannot call a function of this type (None: it can)."""
    for i, t in enumerate(ftype.inputs):
        why = _problem(t)
        if why is not None:
            return f"argument {i}: {why}"
    for i, t in enumerate(ftype.results):
        if not _supported_scalar(t):
            return f"result {i}: {t} is not an index/integer/float scalar"
    return None


NEEDS = (
    "the harness needs a function with a body whose arguments are statically shaped memrefs with the identity layout "
    "(elements f64, f32, f16, bf16, integers or index) or index/integer/float scalars, and whose results, if any, are such scalars"
)


def signature_of(text: str, func: str | None = None) -> Signature:
    """The signature of ``@func`` (default: the only function with a body,
    or ``@kernel``), or HarnessError saying why it cannot be timed."""
    from affine_lsp.source.document import Document

    doc = Document(text)
    candidates: list[tuple[Operation, object]] = []
    for section in doc.sections:
        for op in section.functions():
            parent = op.parent_op
            if op.regions and op.regions[0].blocks and (parent is None or parent.name == "builtin.module"):
                candidates.append((op, section))
    names = [_name(op) for op, _ in candidates]
    if func is not None:
        func = func.lstrip("@")
        chosen = [c for c, n in zip(candidates, names, strict=True) if n == func]
        if not chosen:
            have = ", ".join("@" + n for n in names) or "none"
            raise HarnessError(f"no function @{func} with a body (functions: {have}; a function with syntax errors is not seen: run 'affine-lsp check')")
    else:
        chosen = [c for c, n in zip(candidates, names, strict=True) if n == "kernel"] or candidates
        if not chosen:
            raise HarnessError("no function with a body (a function with syntax errors is not seen: run 'affine-lsp check')")
        if len(chosen) > 1:
            raise HarnessError("several functions (" + ", ".join("@" + n for n in names) + "): choose one with --func NAME")
    op, section = chosen[0]
    ft = op.attributes.get("function_type")
    if not isinstance(ft, TypeAttr) or not isinstance(ft.type, FunctionType):
        raise HarnessError(f"@{_name(op)} has no function type")
    ftype = ft.type
    why = unsupported(ftype)
    if why is not None:
        raise HarnessError(f"@{_name(op)} cannot be timed: {why}; {NEEDS}")
    entry = op.regions[0].blocks[0]
    args = {id(a): i for i, a in enumerate(entry.arguments)}
    written: set[int] = set()
    for inner in op.walk():
        k = _WRITES.get(inner.name)
        if k is not None and len(inner.operands) > k and id(inner.operands[k]) in args:
            written.add(args[id(inner.operands[k])])
        elif inner.name == "memref.copy" and len(inner.operands) == 2 and id(inner.operands[1]) in args:
            written.add(args[id(inner.operands[1])])
        elif inner.name in ("func.call", "func.call_indirect"):
            written.update(i for i, a in enumerate(entry.arguments) if isinstance(ftype.inputs[i], MemRefType) and any(o is a for o in inner.operands))
    parent = op.parent_op
    siblings = [o for r in parent.regions for b in r.blocks for o in b.operations] if parent is not None else list(section.top_level_ops())  # type: ignore[attr-defined]
    declared = frozenset(_name(o) for o in siblings if "sym_name" in o.attributes)
    return Signature(
        _name(op),
        ftype.inputs,
        ftype.results,
        tuple(sorted(written)),
        op.span.end,
        section.start,  # type: ignore[attr-defined]
        section.end,  # type: ignore[attr-defined]
        declared,
    )


def _name(op: Operation) -> str:
    return op_traits.symbol_name(op) or ""


def _rtol(t: Type) -> float:
    el = t.element if isinstance(t, MemRefType) else t
    if isinstance(el, FloatType):
        return RTOL.get(el.kind, RTOL_LOW)
    return RTOL_INT


def _const(t: Type, k: int) -> str:
    if isinstance(t, FloatType):
        return f"arith.constant {FLOAT_VALUES[k % len(FLOAT_VALUES)]} : {t}"
    return f"arith.constant {INT_VALUE} : {t}"


class _Emitter:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.n = 0

    def tmp(self) -> str:
        self.n += 1
        return f"%h{self.n}"

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("  " * depth + line)

    def to_f64(self, depth: int, v: str, t: Type) -> str:
        out = self.tmp()
        if isinstance(t, FloatType):
            if t.kind == "f64":
                return v
            self.emit(depth, f"{out} = arith.extf {v} : {t} to f64")
        elif isinstance(t, IndexType):
            i = self.tmp()
            self.emit(depth, f"{i} = arith.index_cast {v} : index to i64")
            self.emit(depth, f"{out} = arith.sitofp {i} : i64 to f64")
        else:
            self.emit(depth, f"{out} = arith.sitofp {v} : {t} to f64")
        return out

    def print_f64(self, depth: int, tag: str, v: str) -> None:
        bits = self.tmp()
        self.emit(depth, f'vector.print str "{MARK} {tag} "')
        self.emit(depth, f"{bits} = arith.bitcast {v} : f64 to i64")
        self.emit(depth, f"vector.print {bits} : i64")


def _init_array(e: _Emitter, depth: int, mem: str, t: MemRefType, k: int) -> None:
    ivs = [f"%i{k}_{d}" for d in range(len(t.shape))]
    for d, (iv, size) in enumerate(zip(ivs, t.shape, strict=True)):
        e.emit(depth + d, f"affine.for {iv} = 0 to {size} {{")
    inner = depth + len(ivs)
    # h = (k+1)*13 + sum_d i_d * (d + k + 2) + i_0 * i_last   (mod 101)
    dims = ", ".join(f"d{d}" for d in range(len(ivs)))
    terms = [f"{(k + 1) * 13}"] + [f"d{d} * {d + k + 2}" for d in range(len(ivs))]
    h = e.tmp()
    if ivs:
        e.emit(inner, f"{h} = affine.apply affine_map<({dims}) -> (({' + '.join(terms)}) mod 101)>({', '.join(ivs)})")
        if len(ivs) >= 2:
            p, h2 = e.tmp(), e.tmp()
            e.emit(inner, f"{p} = arith.muli {ivs[0]}, {ivs[-1]} : index")
            e.emit(inner, f"{h2} = affine.apply affine_map<(d0, d1) -> ((d0 + d1) mod 101)>({h}, {p})")
            h = h2
    else:
        e.emit(inner, f"{h} = arith.constant {(k + 1) * 13 % 101} : index")
    el = t.element
    val = e.tmp()
    if isinstance(el, IndexType):
        e.emit(inner, f"{val} = arith.addi {h}, %one : index")
    else:
        i64 = e.tmp()
        e.emit(inner, f"{i64} = arith.index_cast {h} : index to i64")
        if isinstance(el, FloatType):
            f, num = e.tmp(), e.tmp()
            e.emit(inner, f"{f} = arith.sitofp {i64} : i64 to f64")
            e.emit(inner, f"{num} = arith.addf {f}, %f_one : f64")
            q = e.tmp()
            e.emit(inner, f"{q} = arith.divf {num}, %f_102 : f64")
            if el.kind == "f64":
                val = q
            else:
                e.emit(inner, f"{val} = arith.truncf {q} : f64 to {el}")
        elif isinstance(el, IntegerType) and el.width < 64:
            e.emit(inner, f"{val} = arith.trunci {i64} : i64 to {el}")
        else:
            val = i64
    e.emit(inner, f"affine.store {val}, {mem}[{', '.join(ivs)}] : {t}")
    for d in reversed(range(len(ivs))):
        e.emit(depth + d, "}")


def _checksum(e: _Emitter, depth: int, mem: str, t: MemRefType, k: int) -> None:
    e.emit(depth, "affine.store %f_zero, %acc[%c0] : memref<3xf64>")
    e.emit(depth, "affine.store %f_zero, %acc[%c1] : memref<3xf64>")
    e.emit(depth, "affine.store %f_zero, %acc[%c2] : memref<3xf64>")
    ivs = [f"%s{k}_{d}" for d in range(len(t.shape))]
    for d, (iv, size) in enumerate(zip(ivs, t.shape, strict=True)):
        e.emit(depth + d, f"affine.for {iv} = 0 to {size} {{")
    inner = depth + len(ivs)
    x = e.tmp()
    e.emit(inner, f"{x} = affine.load {mem}[{', '.join(ivs)}] : {t}")
    xf = e.to_f64(inner, x, t.element)
    w = e.tmp()
    if ivs:
        strides = []
        s = 1
        for size in reversed(t.shape):
            strides.append(s)
            s *= size  # type: ignore[operator]
        strides.reverse()
        dims = ", ".join(f"d{d}" for d in range(len(ivs)))
        lin = " + ".join(f"d{d} * {st}" for d, st in enumerate(strides))
        e.emit(inner, f"{w} = affine.apply affine_map<({dims}) -> (({lin}) mod 97 + 1)>({', '.join(ivs)})")
    else:
        e.emit(inner, f"{w} = arith.constant 1 : index")
    wf = e.to_f64(inner, w, IndexType())
    a0, a1, a2 = e.tmp(), e.tmp(), e.tmp()
    e.emit(inner, f"{a0} = affine.load %acc[%c0] : memref<3xf64>")
    e.emit(inner, f"{a1} = affine.load %acc[%c1] : memref<3xf64>")
    e.emit(inner, f"{a2} = affine.load %acc[%c2] : memref<3xf64>")
    n0, xw, n1, ab, n2 = e.tmp(), e.tmp(), e.tmp(), e.tmp(), e.tmp()
    e.emit(inner, f"{n0} = arith.addf {a0}, {xf} : f64")
    e.emit(inner, f"{xw} = arith.mulf {xf}, {wf} : f64")
    e.emit(inner, f"{n1} = arith.addf {a1}, {xw} : f64")
    e.emit(inner, f"{ab} = math.absf {xf} : f64")
    e.emit(inner, f"{n2} = arith.addf {a2}, {ab} : f64")
    e.emit(inner, f"affine.store {n0}, %acc[%c0] : memref<3xf64>")
    e.emit(inner, f"affine.store {n1}, %acc[%c1] : memref<3xf64>")
    e.emit(inner, f"affine.store {n2}, %acc[%c2] : memref<3xf64>")
    for d in reversed(range(len(ivs))):
        e.emit(depth + d, "}")
    for j, c in enumerate(("%c0", "%c1", "%c2")):
        v = e.tmp()
        e.emit(depth, f"{v} = affine.load %acc[{c}] : memref<3xf64>")
        e.print_f64(depth, f"c{k}.{j}", v)


def build(text: str, sig: Signature, repeat: int, written: Sequence[int] | None = None, batch: int = 1) -> str:
    """The section of ``text`` holding ``@sig.name`` with the harness added:
    ``@__affine_lsp_main`` (entry point, ``() -> ()``), the out-of-line
    wrapper and the ``rtclock`` declaration. ``written``: the arguments to
    checksum (default: those the function writes). ``batch``: each timed
    sample calls the function that many times in a row (the arrays are
    initialised before the first; the time printed is the sample's divided
    by ``batch``), and the checksums are those of one more call on freshly
    initialised arrays, as with ``batch=1``."""
    if repeat < 1:
        raise HarnessError("the number of timed calls must be at least 1")
    if batch < 1:
        raise HarnessError("the number of calls per sample must be at least 1")
    written = sig.written if written is None else tuple(written)
    ins, outs = sig.inputs, sig.results
    e = _Emitter()
    arg_list = ", ".join(f"%a{i}: {t}" for i, t in enumerate(ins))
    res_types = ", ".join(str(t) for t in outs)
    fn_type = f"({', '.join(str(t) for t in ins)}) -> ({res_types})"
    res_sig = f" -> ({res_types})" if outs else ""
    e.emit(0, f'func.func private @{WRAPPER}({arg_list}){res_sig} attributes {{passthrough = ["noinline"]}} {{')
    rnames = ", ".join(f"%r{i}" for i in range(len(outs)))
    call = f"func.call @{sig.name}({', '.join(f'%a{i}' for i in range(len(ins)))}) : {fn_type}"
    e.emit(1, f"{rnames} = {call}" if outs else call)
    e.emit(1, f"return {rnames} : {res_types}" if outs else "return")
    e.emit(0, "}")
    if "rtclock" not in sig.declared:
        e.emit(0, "func.func private @rtclock() -> f64")
    if "clock" not in sig.declared:
        e.emit(0, "func.func private @clock() -> i64")
    e.emit(0, f"func.func @{ENTRY}() {{")
    e.emit(1, "%c0 = arith.constant 0 : index")
    e.emit(1, "%c1 = arith.constant 1 : index")
    e.emit(1, "%c2 = arith.constant 2 : index")
    e.emit(1, "%one = arith.constant 1 : index")
    e.emit(1, "%f_zero = arith.constant 0.0 : f64")
    e.emit(1, "%f_one = arith.constant 1.0 : f64")
    e.emit(1, "%f_102 = arith.constant 102.0 : f64")
    e.emit(1, "%clocks_per_sec = arith.constant 1000000.0 : f64")
    e.emit(1, "%acc = memref.alloc() : memref<3xf64>")
    if outs:
        e.emit(1, f"%resbuf = memref.alloc() : memref<{len(outs)}xf64>")
        for j in range(len(outs)):
            e.emit(1, f"%ri{j} = arith.constant {j} : index")
    nfloat = 0  # the k-th float argument gets FLOAT_VALUES[k]
    for i, t in enumerate(ins):
        if isinstance(t, MemRefType):
            e.emit(1, f"%m{i} = memref.alloc() : {t}")
        else:
            e.emit(1, f"%m{i} = {_const(t, nfloat)}")
            nfloat += isinstance(t, FloatType)
    e.emit(1, f"affine.for %rep = 0 to {repeat + 1} {{")
    for i, t in enumerate(ins):
        if isinstance(t, MemRefType):
            _init_array(e, 2, f"%m{i}", t, i)
    e.emit(2, "%k0 = func.call @clock() : () -> i64")
    e.emit(2, "%t0 = func.call @rtclock() : () -> f64")
    wcall = f"func.call @{WRAPPER}({', '.join(f'%m{i}' for i in range(len(ins)))}) : {fn_type}"

    def call_and_keep(depth: int) -> None:
        e.emit(depth, f"{', '.join(f'%res{i}' for i in range(len(outs)))} = {wcall}" if outs else wcall)
        for j, t in enumerate(outs):
            e.emit(depth, f"memref.store {e.to_f64(depth, f'%res{j}', t)}, %resbuf[%ri{j}] : memref<{len(outs)}xf64>")

    if batch > 1:
        e.emit(2, f"affine.for %call = 0 to {batch} {{")
        call_and_keep(3)
        e.emit(2, "}")
    else:
        call_and_keep(2)
    e.emit(2, "%t1 = func.call @rtclock() : () -> f64")
    e.emit(2, "%k1 = func.call @clock() : () -> i64")
    e.emit(2, f"%batch = arith.constant {float(batch)!r} : f64")
    e.emit(2, "%dt_all = arith.subf %t1, %t0 : f64")
    e.emit(2, "%dt = arith.divf %dt_all, %batch : f64")
    e.print_f64(2, "t", "%dt")
    e.emit(2, "%dk = arith.subi %k1, %k0 : i64")
    e.emit(2, "%dkf = arith.sitofp %dk : i64 to f64")
    e.emit(2, "%cpu_all = arith.divf %dkf, %clocks_per_sec : f64")
    e.emit(2, "%cpu = arith.divf %cpu_all, %batch : f64")
    e.print_f64(2, "k", "%cpu")
    e.emit(1, "}")
    if batch > 1:  # the values checked: one call on freshly initialised arrays
        for i, t in enumerate(ins):
            if isinstance(t, MemRefType):
                _init_array(e, 1, f"%m{i}", t, i)
        call_and_keep(1)
    for i in written:
        t = ins[i]
        assert isinstance(t, MemRefType)
        _checksum(e, 1, f"%m{i}", t, i)
    for j in range(len(outs)):
        v = e.tmp()
        e.emit(1, f"{v} = memref.load %resbuf[%ri{j}] : memref<{len(outs)}xf64>")
        e.print_f64(1, f"r{j}", v)
    for i, t in enumerate(ins):
        if isinstance(t, MemRefType):
            e.emit(1, f"memref.dealloc %m{i} : {t}")
    e.emit(1, "memref.dealloc %acc : memref<3xf64>")
    e.emit(1, "return")
    e.emit(0, "}")
    body = "\n".join(e.lines)
    section = text[sig.section_start : sig.section_end]
    at = sig.insert_at - sig.section_start
    return section[:at] + "\n" + body + "\n" + section[at:]


def parse_output(stdout: str, sig: Signature, repeat: int, written: Sequence[int] | None = None, batch: int = 1) -> Measurement:
    """The times and checksums the harness printed (HarnessError when the
    output is incomplete)."""
    written = sig.written if written is None else tuple(written)
    vals: dict[str, float] = {}
    times: list[float] = []
    cpu: list[float] = []
    for line in stdout.splitlines():
        if not line.startswith(MARK + " "):
            continue
        _, tag, bits = line.split()
        v = struct.unpack("<d", struct.pack("<q", int(bits)))[0]
        if tag == "t":
            times.append(v)
        elif tag == "k":
            cpu.append(v)
        else:
            vals[tag] = v
    if len(times) != repeat + 1 or len(cpu) != repeat + 1:
        raise HarnessError(f"the program printed {len(times)} times, expected {repeat + 1}")
    try:
        checks = tuple((vals[f"c{i}.0"], vals[f"c{i}.1"], vals[f"c{i}.2"]) for i in written)
        results = tuple(vals[f"r{j}"] for j in range(len(sig.results)))
    except KeyError as e:
        raise HarnessError(f"the program did not print checksum {e.args[0]}") from None
    rtols = tuple(_rtol(sig.inputs[i]) for i in written)
    return Measurement(tuple(times[1:]), tuple(cpu[1:]), checks, results, rtols, batch)


def compare(ref: Measurement, other: Measurement) -> list[str]:
    """The checksums on which ``other`` disagrees with ``ref`` (empty: the
    values agree)."""
    bad: list[str] = []
    if len(ref.checks) != len(other.checks) or len(ref.results) != len(other.results):
        return ["different arrays or results"]
    for k, ((s0, w0, a0), (s1, w1, a1), rtol) in enumerate(zip(ref.checks, other.checks, ref.rtols, strict=True)):
        scale = max(a0, a1, 1e-300)
        for name, x, y, f in (("sum", s0, s1, 1.0), ("weighted sum", w0, w1, 97.0), ("sum of |x|", a0, a1, 1.0)):
            if not _close(x, y, rtol * f * scale):
                bad.append(f"array #{k} {name}: {y!r} instead of {x!r}")
    for j, (x, y) in enumerate(zip(ref.results, other.results, strict=True)):
        if not _close(x, y, 1e-9 * max(abs(x), abs(y), 1e-300)):
            bad.append(f"result #{j}: {y!r} instead of {x!r}")
    return bad


def _close(x: float, y: float, tol: float) -> bool:
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    if math.isinf(x) or math.isinf(y):
        return x == y
    return abs(x - y) <= tol


def measure(
    tc: object, text: str, func: str | None = None, repeat: int = 5, *, written: Sequence[int] | None = None, timeout: float = 600, batch: int = 1
) -> Measurement:
    """Compile ``@func`` of ``text`` with the harness, run it with the
    toolchain ``tc`` and return its times and checksums (CompileError,
    RunError from :mod:`affine_lsp.toolchain`, HarnessError). ``batch``:
    calls per timed sample (see :func:`build`)."""
    from affine_lsp import toolchain

    sig = signature_of(text, func)
    program = build(text, sig, repeat, written, batch)
    try:
        out = toolchain.execute(tc, program, ENTRY, timeout=timeout)  # type: ignore[arg-type]
    except toolchain.CompileError as e:
        raise toolchain.CompileError(user_positions(str(e), text, sig, program)) from None
    return parse_output(out, sig, repeat, written, batch)


_POSITION = re.compile(r"<input>:(\d+):(\d+)")

HARNESS_FILE = "<generated harness>"
"""Where a diagnostic of the generated ``@main`` is said to be."""


def user_positions(message: str, text: str, sig: Signature, program: str) -> str:
    """mlir-opt's ``message`` about ``program`` (:func:`build` of ``text``)
    with every ``<input>:LINE:COL`` moved to the user's file (``<input>``
    with the line and column of ``text``), or, in the generated harness, to
    ``<generated harness>:LINE:COL`` (a line of the program), and a first
    line saying the harness failed when a diagnostic is in it."""
    from affine_lsp.source.document import LineIndex

    section = text[sig.section_start : sig.section_end]
    at = sig.insert_at - sig.section_start
    harness_len = len(program) - len(section)  # "\n" + body + "\n", inserted at `at`
    prog_lines, user_lines = LineIndex(program), LineIndex(text)
    in_harness = False

    def move(m: re.Match[str]) -> str:
        nonlocal in_harness
        off = prog_lines.offset(int(m.group(1)) - 1, int(m.group(2)) - 1)
        if at <= off < at + harness_len:
            in_harness = True
            return f"{HARNESS_FILE}:{m.group(1)}:{m.group(2)}"
        user = sig.section_start + (off if off < at else off - harness_len)
        line, col = user_lines.position(user)
        return f"<input>:{line + 1}:{col + 1}"

    moved = _POSITION.sub(move, message)
    if in_harness:
        moved = f"the harness affine-lsp generated around @{sig.name} was rejected (a bug of affine-lsp, or a name of the file it clashes with):\n{moved}"
    return moved


CALIBRATION_TARGET = 0.02
"""Seconds a timed sample should last at least: a function faster than half
of it is timed in batches of calls (:func:`calls_per_sample`)."""

MAX_BATCH = 1_000_000


def calls_per_sample(m: Measurement) -> int:
    """How many calls a timed sample of the function measured by ``m`` needs
    to last :data:`CALIBRATION_TARGET`: ``m.batch`` when its samples lasted
    half of it or more (1 for a function of 10 ms or more); for a function
    of microseconds, thousands (a clock reading costs about as much as the
    call). At most :data:`MAX_BATCH`."""
    per_call = max(m.median, m.cpu_median, 0.0)
    if per_call * m.batch >= CALIBRATION_TARGET / 2:
        return m.batch
    return int(min(MAX_BATCH, max(2 * m.batch, math.ceil(CALIBRATION_TARGET / max(per_call, 1e-8)))))
