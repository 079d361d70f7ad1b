"""The verifier's API: ``classify`` for the language server, related
information and quick fixes on notes, and totality on broken IR."""

from __future__ import annotations

import random

import pytest

from affine_lsp.ir.core import Operation, Value
from affine_lsp.source.document import Document
from affine_lsp.verify import DimSymInfo, classify, verify_document

SRC = """\
func.func @f(%a: index, %m: memref<16xindex>, %dm: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  affine.for %i = 0 to 8 {
    %s = arith.addi %a, %a : index
    %l = affine.load %m[%i] : memref<16xindex>
    %d = memref.dim %dm, %c0 : memref<?xf32>
    %t = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
    affine.for %j = 0 to 4 {
      %u = affine.load %m[%a + %s + %l + %d + %t + %i + %c0] : memref<16xindex>
    }
  }
  return
}
"""


def _find(doc: Document, name: str) -> tuple[Value, Operation]:
    """The value called ``name`` and the innermost affine.load using it."""
    user = None
    val = None
    for op in doc.sections[0].module.walk():
        for r in op.results:
            if r.name == name:
                val = r
        for reg in op.regions:
            for b in reg.blocks:
                for arg in b.arguments:
                    if arg.name == name:
                        val = arg
        if op.name == "affine.load" and any(v.name == name for v in op.operands):
            user = op
    assert val is not None and user is not None
    return val, user


@pytest.mark.parametrize(
    ("name", "is_symbol", "is_dim", "words"),
    [
        ("%a", True, True, "region argument of func.func @f"),
        ("%c0", True, True, "defined at the top level"),
        ("%s", True, True, "pure op (arith.addi)"),
        ("%d", True, True, "memref.dim"),
        ("%i", False, True, "induction variable of affine.for %i"),
        ("%t", False, True, "affine.apply whose operands are all valid dimensions"),
        ("%l", False, False, "not at the top level of func.func @f"),
    ],
)
def test_classify(name: str, is_symbol: bool, is_dim: bool, words: str) -> None:
    doc = Document(SRC)
    v, user = _find(doc, name)
    info = classify(v, user, doc.lines.line_of)
    assert isinstance(info, DimSymInfo)
    assert (info.is_symbol, info.is_dim, info.certain) == (is_symbol, is_dim, True)
    assert words in info.reason, info.reason


def test_classify_mentions_lines() -> None:
    doc = Document(SRC)
    v, user = _find(doc, "%l")
    info = classify(v, user, doc.lines.line_of)
    assert "at line 5" in info.reason and "line 1" in info.reason


def test_classify_is_unknown_for_ops_we_cannot_parse() -> None:
    text = "func.func @f(%m: memref<4xf32>) {\n  affine.for %i = 0 to 4 {\n    %v = foo.bar %i : index\n    %x = affine.load %m[%v] : memref<4xf32>\n  }\n  return\n}\n"
    doc = Document(text)
    v, user = _find(doc, "%v")
    info = classify(v, user)
    assert not info.certain
    assert not any(n.severity == "error" for n in verify_document(doc))


def _errors(text: str) -> list:
    doc = Document(text)
    return [n for n in list(doc.notes()) + verify_document(doc) if n.severity == "error"]


def _apply(text: str, fix: dict) -> str:
    for e in sorted(fix["edits"], key=lambda e: e["start"], reverse=True):
        text = text[: e["start"]] + e["new_text"] + text[e["end"] :]
    return text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "func.func @f(%n: index) {\n  affine.for %i = affine_map<()[s0] -> (0, s0)>()[%n] to 10 {\n  }\n  return\n}\n",
            "lower loop bound affine map with multiple results requires 'max' prefix",
        ),
        (
            "func.func @f(%n: index) {\n  affine.for %i = 0 to affine_map<()[s0] -> (10, s0)>()[%n] {\n  }\n  return\n}\n",
            "upper loop bound affine map with multiple results requires 'min' prefix",
        ),
        (
            "func.func @f(%m: memref<100xf32>, %n: index) {\n  affine.for %i = 0 to 10 {\n    %0 = affine.load %m[%i * %n] : memref<100xf32>\n  }\n  return\n}\n",
            "non-affine expression: at least one of the multiply operands",
        ),
        (
            "func.func @f(%m: memref<100xf32>, %n: index) {\n  affine.for %i = 0 to 10 {\n    %0 = affine.load %m[%i floordiv %n] : memref<100xf32>\n  }\n  return\n}\n",
            "non-affine expression: right operand of floordiv",
        ),
        (
            "func.func @f(%m: memref<100xf32>) {\n  affine.for %i = 0 to 10 {\n    %0 = affine.load %m[symbol(%i)] : memref<100xf32>\n  }\n  return\n}\n",
            "'affine.load' op operand cannot be used as a symbol",
        ),
        (
            "func.func @f() {\n  affine.for %i = 0 to 10 {\n    affine.for %j = 0 to %i {\n    }\n  }\n  return\n}\n",
            "'affine.for' op operand cannot be used as a symbol",
        ),
    ],
)
def test_quick_fix_makes_the_program_valid(text: str, message: str) -> None:
    errs = _errors(text)
    assert len(errs) == 1 and message in errs[0].message, errs
    fix = (errs[0].data or {}).get("fix")
    assert fix and fix["title"] and fix["edits"], errs[0].data
    fixed = _apply(text, fix)
    assert _errors(fixed) == [], fixed


def test_related_information_explains_the_rule() -> None:
    doc = Document(SRC.replace("%a + %s + %l", "%a + %s + symbol(%l)"))
    errs = [n for n in verify_document(doc) if n.severity == "error"]
    assert len(errs) == 1
    n = errs[0]
    assert n.message == "'affine.load' op operand cannot be used as a symbol"
    assert doc.lines.line_of(n.span.start) == 8
    related = n.data["related"]
    assert any("%l is defined by affine.load at line 5" in m for _s, m in related), related
    assert any(doc.text[s.start : s.end] == "%l" for s, _m in related)


def test_strict_mode_skips_sections_with_parse_errors() -> None:
    text = "func.func @f() {\n  %x = affine.apply affine_map<()[s0] -> (s0)>()[%undefined]\n  return\n}\n// -----\nfunc.func @g(%a: f32) -> i32 {\n  return %a : f32\n}\n"
    doc = Document(text)
    strict = verify_document(doc)
    lenient = verify_document(doc, strict=False)
    assert [doc.lines.line_of(n.span.start) for n in strict] == [6] == [doc.lines.line_of(n.span.start) for n in lenient]
    assert all(n.severity != "info" for n in verify_document(doc, strict=False))


NASTY = [
    "",
    "func.func @f() {\n}\n",
    'func.func @f() {\n  "affine.for"() ({}) : () -> ()\n  return\n}\n',
    'func.func @f() {\n  "affine.if"() : () -> ()\n  "affine.parallel"() : () -> ()\n  "affine.load"() : () -> ()\n  return\n}\n',
    'func.func @f(%a: index) {\n  "affine.store"(%a) {map = 3} : (index) -> ()\n  "affine.apply"() : () -> (index, index)\n  return\n}\n',
    "func.func @f() {\n  %x = affine.apply affine_map<(d0) -> (d0)>(%y)\n  affine.for %i = 0 to %z {\n    affine.yield %q : f32\n  }\n  return\n}\n",
    'func.func @f() {\n  %x = "foo.bar"() : () -> index\n  affine.for %i = 0 to %x {\n  }\n  %y = foo.baz %x\n  affine.for %j = 0 to %y {\n  }\n  return\n}\n',
    "#map = affine_map<(d0, d1) -> (d0 * d1)>\nfunc.func @f(%a: index) {\n  %0 = affine.apply #map(%a, %a)\n  return\n}\n",
    'func.func @f(%c: i1) {\n  cf.br ^bb1\n^bb1:\n  "affine.yield"() : () -> ()\n}\n',
    "module {\n  func.func @f() {\n    affine.dma_wait %t[%c], %n : memref<1xi32>\n    return\n  }\n}\n",
]


@pytest.mark.parametrize("text", NASTY)
@pytest.mark.parametrize("strict", [True, False])
def test_total_on_broken_ir(text: str, strict: bool) -> None:
    notes = verify_document(Document(text), strict=strict)
    assert not [n for n in notes if n.severity == "info"], notes


def test_total_on_mangled_corpus_text() -> None:
    """Random cuts of real affine code never make the verifier raise."""
    rng = random.Random(7)
    base = SRC * 2
    for _ in range(150):
        a = rng.randrange(len(base))
        b = min(len(base), a + rng.randrange(1, 40))
        text = base[:a] + base[b:]
        for strict in (True, False):
            notes = verify_document(Document(text), strict=strict)
            assert not [n for n in notes if n.severity == "info"], (text, notes)


TERMINATOR_MID = """\
func.func @f(%A: memref<4xf32>, %x: f32) {
  affine.for %j = 0 to 4 {
    affine.yield
    affine.store %x, %A[%j, %j] : memref<4xf32>
  }
  return
}
"""


@pytest.mark.parametrize("strict", [True, False])
def test_terminator_in_the_middle_of_a_block(strict: bool) -> None:
    """The IsTerminator trait: mlir-opt's message on the op's name; it stops
    the function's verification (the bad store after it is not reported)."""
    doc = Document(TERMINATOR_MID)
    notes = verify_document(doc, strict=strict)
    assert [n.message for n in notes] == ["'affine.yield' op must be the last operation in the parent block"]
    n = notes[0]
    assert (n.severity, n.code) == ("error", "verify")
    assert doc.lines.position(n.span.start) == (2, 4)
    assert doc.lines.position(n.span.end) == (2, 16)


@pytest.mark.parametrize(
    ("text", "messages"),
    [
        # Earlier ops are verified first.
        (
            TERMINATOR_MID.replace("    affine.yield\n", "    affine.store %x, %A[%j, %j] : memref<4xf32>\n    affine.yield\n", 1),
            ["'affine.store' op affine map num results must equal memref rank"],
        ),
        # The trait comes before the op's verify().
        ("func.func @f(%x: f32) {\n  return %x : f32\n  return\n}\n", ["'func.return' op must be the last operation in the parent block"]),
        ("func.func @f() {\n  affine.yield\n  return\n}\n", ["'affine.yield' op must be the last operation in the parent block"]),
        # ... and after its structural traits (func.return: HasParent).
        (
            'func.func @f() {\n  scf.execute_region {\n    "func.return"() : () -> ()\n    scf.yield\n  }\n  return\n}\n',
            ["'func.return' op expects parent op 'func.func'"],
        ),
        # A block rule comes before the ops of the block.
        (
            'func.func @f() {\n  cf.br ^bb1\n  "test.op"() : () -> ()\n  cf.br ^bb1\n^bb1:\n  return\n}\n',
            ["operation with block successors must terminate its parent block"],
        ),
        # Unregistered ops have no traits to check.
        ('func.func @f() {\n  "test.terminator"() : () -> ()\n  "test.op"() : () -> ()\n  return\n}\n', []),
        # The last op of its block.
        ("func.func @f() {\n  affine.for %j = 0 to 4 {\n    affine.yield\n  }\n  return\n}\n", []),
    ],
)
def test_terminator_in_the_middle_of_a_block_in_mlir_order(text: str, messages: list[str]) -> None:
    assert [n.message for n in verify_document(Document(text)) if n.severity == "error"] == messages


def test_an_unprefixed_op_name_takes_the_enclosing_ops_default_dialect() -> None:
    """`return` is `func.return` only directly in a function body; in a loop
    body no dialect is the default, at module level `builtin` is (mlir-opt's
    words and places, also for names the parser does not know)."""
    cases = {
        "func.func @f() {\n  affine.for %i = 0 to 4 {\n    return\n  }\n  return\n}\n": (
            2,
            4,
            "Dialect `' not found for custom op 'return'  (tried '.return' as well)",
        ),
        "return\n": (0, 0, "custom op 'return' is unknown (tried 'builtin.return' as well)"),
        "func.func @f() {\n  affine.for %i = 0 to 4 {\n    yield\n  }\n  return\n}\n": (
            2,
            4,
            "Dialect `' not found for custom op 'yield'  (tried '.yield' as well)",
        ),
        "func.func @f() {\n  frobnicate\n  return\n}\n": (1, 2, "custom op 'frobnicate' is unknown (tried 'func.frobnicate' as well)"),
    }
    for text, (line, col, message) in cases.items():
        doc = Document(text)
        errors = [n for n in [*doc.notes(), *verify_document(doc)] if n.severity == "error"]
        assert errors, text
        assert (*doc.lines.position(errors[0].span.start), errors[0].message) == (line, col, message), text
    doc = Document("module {\n  func.func @f() {\n    return\n  }\n}\n")
    assert [n for n in [*doc.notes(), *verify_document(doc)] if n.severity == "error"] == []
