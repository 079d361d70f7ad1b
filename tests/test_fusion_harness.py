"""Running fused and original code side by side (helpers for the fusion tests).

A *kernel* is a ``func.func`` whose arguments are static ``f32`` memrefs.
:func:`program` wraps several kernels in one module with a ``@main`` that
fills every argument with deterministic values (exact binary fractions, so
results do not depend on rounding), calls the kernels and prints every
argument with ``printMemrefF32``. :func:`run` executes it with mlir-runner
(one JIT per batch of kernels) and returns what each kernel printed.

Kernel files in ``tests/data/fusion/*.mlir`` hold one kernel each with a
header::

    // EXPECT: fused | not-fused | any
    // NOTE: free text (what the kernel checks)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from affine_lsp.ir.types import FloatType, MemRefType
from affine_lsp.source.document import Document
from tests import oracle

DATA = Path(__file__).resolve().parent / "data" / "fusion"

_ADDR = re.compile(r"base@ = 0x[0-9a-fA-F]+")


@dataclass
class Kernel:
    name: str  # the function's symbol
    text: str  # the function (and any private helper functions it calls)
    args: list[tuple[int, ...]]  # static shapes of the f32 memref arguments
    expect: str = "any"
    note: str = ""
    path: str = ""
    mode: str = "greedy"
    maximal: bool = False
    reference: str = ""  # what mlir-opt 22.1.8's -affine-loop-fusion does: "wrong", "crash" or ""
    types: list[str] | None = None  # declared argument types (dynamic memrefs, index)
    index_args: dict[int, int] | None = None  # value of each index argument


def kernel_from_text(text: str, path: str = "") -> Kernel:
    doc = Document(text)
    funcs = [f for s in doc.sections for f in s.functions() if "sym_visibility" not in f.attributes]
    want = re.search(r"^// KERNEL: *@(\S+)", text, re.M)
    if want:
        funcs = [f for f in funcs if str(f.attributes["sym_name"].value) == want.group(1)]  # type: ignore[attr-defined]
    if not funcs:
        raise ValueError(f"{path}: no public function")
    f = funcs[0]
    name = str(f.attributes["sym_name"].value)  # type: ignore[attr-defined]
    sm = re.search(r"^// SIZES:(.*)$", text, re.M)
    sizes = {k: int(v) for k, v in re.findall(r"(%\w+)=(\d+)", sm.group(1))} if sm else {}
    shapes: list[tuple[int, ...]] = []
    types: list[str] = []
    index_args: dict[int, int] = {}
    for i, a in enumerate(f.regions[0].blocks[0].arguments):
        t = a.type
        types.append(str(t))
        if str(t) == "index":
            if a.name not in sizes:
                raise ValueError(f"{path}: index argument {a.name} needs a value in '// SIZES:'")
            index_args[i] = sizes[a.name]
            shapes.append(())
            continue
        if not isinstance(t, MemRefType) or not isinstance(t.element, FloatType) or str(t.element) != "f32":
            raise ValueError(f"{path}: argument {a.name} is not an f32 memref")
        if not t.has_static_shape and a.name not in sizes:
            raise ValueError(f"{path}: dynamic memref {a.name} needs its size in '// SIZES:' (1-d only)")
        shapes.append(tuple(int(d) for d in t.shape) if t.has_static_shape else (sizes[a.name],))  # type: ignore[arg-type]
    m = re.search(r"^// EXPECT: *(\S+)", text, re.M)
    n = re.search(r"^// NOTE: *(.*)$", text, re.M)
    mode = re.search(r"^// MODE: *(.*)$", text, re.M)
    words = mode.group(1).split() if mode else []
    ref = re.search(r"^// REFERENCE: *(\S+)", text, re.M)
    return Kernel(
        name,
        text,
        shapes,
        m.group(1) if m else "any",
        n.group(1).strip() if n else "",
        path,
        next((w for w in words if w in ("greedy", "producer", "sibling")), "greedy"),
        "maximal" in words,
        ref.group(1) if ref else "",
        types,
        index_args,
    )


def load_kernels() -> list[Kernel]:
    return [kernel_from_text(p.read_text(), p.name) for p in sorted(DATA.glob("*.mlir"))]


def _mtype(shape: tuple[int, ...]) -> str:
    return "memref<" + "".join(f"{d}x" for d in shape) + "f32>"


def _fill(lines: list[str], var: str, shape: tuple[int, ...], seed: int, uid: str) -> None:
    """scf loops storing ((linear index * 7 + seed) mod 23) / 4 - 2."""
    ivs = []
    indent = "    "
    for k, d in enumerate(shape):
        lines.append(f"{indent}%ub{uid}_{k} = arith.constant {d} : index")
    lin = None
    for k in range(len(shape)):
        iv = f"%i{uid}_{k}"
        lines.append(f"{indent}scf.for {iv} = %c0 to %ub{uid}_{k} step %c1 {{")
        indent += "  "
        ivs.append(iv)
    lines.append(f"{indent}%l{uid}_0 = arith.constant 0 : index")
    lin = f"%l{uid}_0"
    for k, iv in enumerate(ivs):
        lines.append(f"{indent}%m{uid}_{k} = arith.muli {lin}, %ub{uid}_{k} : index")
        lines.append(f"{indent}%l{uid}_{k + 1} = arith.addi %m{uid}_{k}, {iv} : index")
        lin = f"%l{uid}_{k + 1}"
    lines.append(f"{indent}%x{uid} = arith.index_cast {lin} : index to i64")
    lines.append(f"{indent}%y{uid} = arith.muli %x{uid}, %c7i : i64")
    lines.append(f"{indent}%s{uid} = arith.constant {seed} : i64")
    lines.append(f"{indent}%z{uid} = arith.addi %y{uid}, %s{uid} : i64")
    lines.append(f"{indent}%w{uid} = arith.remsi %z{uid}, %c23i : i64")
    lines.append(f"{indent}%f{uid} = arith.sitofp %w{uid} : i64 to f32")
    lines.append(f"{indent}%g{uid} = arith.mulf %f{uid}, %quarter : f32")
    lines.append(f"{indent}%h{uid} = arith.subf %g{uid}, %two : f32")
    lines.append(f"{indent}memref.store %h{uid}, {var}[{', '.join(ivs)}] : {_mtype(shape)}")
    for _ in shape:
        indent = indent[:-2]
        lines.append(f"{indent}}}")


def program(kernels: list[Kernel], after_call: str = "") -> str:
    """A module running every kernel on fresh deterministic inputs and
    printing every argument afterwards (kernels separated by a marker).
    ``after_call``: a line of ``@main`` run right after each kernel."""
    parts = ["func.func private @printMemrefF32(memref<*xf32>)", "func.func private @printNewline()"]
    for k in kernels:
        body = re.sub(r"^// (EXPECT|NOTE|KERNEL|MODE|REFERENCE|SIZES):.*$", "", k.text, flags=re.M)
        body = re.sub(r"^\s*func\.func private @printMemrefF32\(memref<\*xf32>\)\s*$", "", body, flags=re.M)
        parts.append(body)
    lines = [
        "func.func @main() {",
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        "    %c7i = arith.constant 7 : i64",
        "    %c23i = arith.constant 23 : i64",
        "    %quarter = arith.constant 0.25 : f32",
        "    %two = arith.constant 2.0 : f32",
    ]
    for ki, k in enumerate(kernels):
        names = []
        idx = k.index_args or {}
        decl = k.types or [_mtype(s) for s in k.args]
        printed = []
        for ai, shape in enumerate(k.args):
            v = f"%k{ki}_a{ai}"
            if ai in idx:
                lines.append(f"    {v} = arith.constant {idx[ai]} : index")
                names.append(v)
                continue
            lines.append(f"    {v}_s = memref.alloc() : {_mtype(shape)}")
            _fill(lines, f"{v}_s", shape, 3 * ki + 11 * ai + 1, f"{ki}_{ai}")
            if decl[ai] != _mtype(shape):
                lines.append(f"    {v} = memref.cast {v}_s : {_mtype(shape)} to {decl[ai]}")
            else:
                lines.append(f"    {v} = memref.cast {v}_s : {_mtype(shape)} to {_mtype(shape)}")
            names.append(v)
            printed.append((ai, f"{v}_s", shape))
        lines.append(f"    call @{k.name}({', '.join(names)}) : ({', '.join(decl)}) -> ()")
        if after_call:
            lines.append(f"    {after_call}")
        for ai, v, shape in printed:
            lines.append(f"    %u{ki}_{ai} = memref.cast {v} : {_mtype(shape)} to memref<*xf32>")
            lines.append(f"    call @printMemrefF32(%u{ki}_{ai}) : (memref<*xf32>) -> ()")
        lines.append("    call @printNewline() : () -> ()")
        lines.append("    call @printNewline() : () -> ()")
    lines.append("    return")
    lines.append("}")
    parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def run(text: str) -> str:
    """Execute a module (its ``@main``); addresses stripped from the output."""
    return _ADDR.sub("base@", oracle.execute(text))


def top_level_nests(text: str, func_name: str) -> int:
    """``affine.for`` ops directly in the body of ``func_name`` (and in the
    blocks of its loops that are not affine.for bodies: none here)."""
    doc = Document(text)
    for s in doc.sections:
        for f in s.functions():
            if str(f.attributes["sym_name"].value) == func_name:  # type: ignore[attr-defined]
                return sum(1 for o in f.regions[0].blocks[0].operations if o.name == "affine.for")
    raise KeyError(func_name)


_RUNNABLE_DIALECTS = frozenset({"affine", "arith", "math", "memref", "func", "scf", "builtin"})


def observable_program(text: str, func_name: str) -> str | None:
    """A module running ``func_name`` of ``text`` on deterministic inputs and
    printing its memref arguments and results, when the function can run
    (static f32 memref arguments and results, registered ops only) and
    has something observable; None otherwise."""
    doc = Document(text)
    func = None
    for s in doc.sections:
        for f in s.functions():
            if str(f.attributes["sym_name"].value) == func_name:  # type: ignore[attr-defined]
                func = f
    if func is None or not func.regions or not func.regions[0].blocks:
        return None
    for op in func.walk():
        if not op.known or op.dialect not in _RUNNABLE_DIALECTS or op.name == "affine.dma_start":
            return None
    shapes: list[tuple[int, ...]] = []
    for a in func.regions[0].blocks[0].arguments:
        t = a.type
        if not isinstance(t, MemRefType) or not t.has_static_shape or str(t.element) != "f32":
            return None
        shapes.append(tuple(int(d) for d in t.shape))  # type: ignore[arg-type]
    ft = func.attributes["function_type"].type  # type: ignore[attr-defined]
    rshapes: list[tuple[int, ...]] = []
    for t in ft.results:
        if not isinstance(t, MemRefType) or not t.has_static_shape or str(t.element) != "f32":
            return None
        rshapes.append(tuple(int(d) for d in t.shape))  # type: ignore[arg-type]
    if not shapes and not rshapes:
        return None
    start, end = func.span.start, func.span.end
    aliases = "\n".join(line for line in text.splitlines() if re.match(r"^#\w+ = ", line))
    lines = [
        "func.func private @printMemrefF32(memref<*xf32>)",
        aliases,
        text[start:end],
        "func.func @main() {",
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        "    %c7i = arith.constant 7 : i64",
        "    %c23i = arith.constant 23 : i64",
        "    %quarter = arith.constant 0.25 : f32",
        "    %two = arith.constant 2.0 : f32",
    ]
    names = []
    for ai, shape in enumerate(shapes):
        v = f"%a{ai}"
        lines.append(f"    {v} = memref.alloc() : {_mtype(shape)}")
        _fill(lines, v, shape, 11 * ai + 1, f"a{ai}")
        names.append(v)
    res = [f"%r{k}" for k in range(len(rshapes))]
    call = f"call @{func_name}({', '.join(names)}) : ({', '.join(_mtype(s) for s in shapes)}) -> ({', '.join(_mtype(s) for s in rshapes)})"
    lines.append(f"    {', '.join(res)} = {call}" if res else f"    {call}")
    for k, (v, shape) in enumerate(list(zip(names, shapes)) + list(zip(res, rshapes))):
        lines.append(f"    %u{k} = memref.cast {v} : {_mtype(shape)} to memref<*xf32>")
        lines.append(f"    call @printMemrefF32(%u{k}) : (memref<*xf32>) -> ()")
    lines.append("    return")
    lines.append("}")
    return "\n".join(lines) + "\n"


def nests_two_levels(text: str, func_name: str) -> int:
    """Top-level ``affine.for`` ops plus the ``affine.for`` ops directly in
    their bodies: fusion inside a time loop lowers it too."""
    doc = Document(text)
    for s in doc.sections:
        for f in s.functions():
            if str(f.attributes["sym_name"].value) == func_name:  # type: ignore[attr-defined]
                tops = [o for o in f.regions[0].blocks[0].operations if o.name == "affine.for"]
                inner = sum(1 for t in tops for b in t.regions[0].blocks for o in b.operations if o.name == "affine.for")
                return len(tops) + inner
    raise KeyError(func_name)
