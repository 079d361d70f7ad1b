"""``rewrite.checked_in_section`` on an edit inside one function of a large
section checks the function with its environment only (issue #31: a code
action on a 20,000-line file re-parsed, verified and analysed the whole file
twice per transformation offered, 13-160 s): the same verdict as
``edits.checked`` on the whole text, for every kind of edit below.
"""

from __future__ import annotations

import pytest

from affine_lsp.source.document import Document
from affine_lsp.transforms.edits import CODE_ACTION_CHECK_LINES, TextEdit, TooLargeToCheck, UnsafeTransform, check_limit, checked
from affine_lsp.transforms.rewrite import _function_scope, checked_in_section

TEXT = """#id = affine_map<(d0) -> (d0)>
#unused = affine_map<(d0) -> (d0 + 7)>
func.func @callee(%x: f32) -> f32 {
  return %x : f32
}
func.func @unrelated(%A: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %v = affine.load %A[%i] : memref<8xf32>
  }
  return
}
func.func @target(%A: memref<8xf32>, %x: f32) -> f32 {
  affine.for %i = 0 to 8 {
    %v = affine.load %A[%i] : memref<8xf32>
    %w = affine.apply #id(%i)
    affine.store %v, %A[%w] : memref<8xf32>
  }
  %r = func.call @callee(%x) : (f32) -> f32
  return %r : f32
}
func.func @caller(%A: memref<8xf32>, %x: f32) -> f32 {
  %r = func.call @target(%A, %x) : (memref<8xf32>, f32) -> f32
  return %r : f32
}
func.func @broken_elsewhere() {
  %u = arith.addf %nope, %nope : f32
  return
}
"""


def _edit(old: str, new: str, text: str = TEXT) -> list[TextEdit]:
    at = text.index(old, text.index("@target("))
    return [TextEdit(at, at + len(old), new)]


def _verdict(fn, doc: Document, edits: list[TextEdit]) -> bool:
    try:
        fn(doc, edits) if fn is checked_in_section else fn(doc.text, edits)
    except UnsafeTransform:
        return False
    return True


EDITS = {
    "a harmless edit": ("affine.for %i = 0 to 8 {", "affine.for %i = 0 to 8 step 2 {", True),
    "an undefined value": ("%v = affine.load %A[%i]", "%v = affine.load %A[%j]", False),
    # (Whatever the verifier says of calls, the same in both.)
    "a call with other types": ("func.call @callee(%x) : (f32) -> f32", "func.call @callee(%A) : (memref<8xf32>) -> f32", None),
    "a call to a function named only after the edit": ("%r = func.call @callee(%x)", "%r = func.call @unrelated(%x)", None),
    "a call to a function that does not exist": ("%r = func.call @callee(%x)", "%r = func.call @nowhere(%x)", None),
    "a signature its caller no longer matches": ("%x: f32) -> f32 {", "%x: f32) -> f64 {", False),
    "an undefined alias": ("#id(%i)", "#nowhere(%i)", False),
    "an alias that exists but was not named": ("#id(%i)", "#unused(%i)", True),
    "an error the text already had elsewhere, written in the function": (
        "  return %r : f32\n}\nfunc.func @caller",
        "  return %r : f32\n}\nfunc.func @caller",
        True,
    ),
}


@pytest.mark.parametrize("what", list(EDITS))
def test_the_same_verdict_as_the_whole_text(what: str) -> None:
    old, new, ok = EDITS[what]
    doc = Document(TEXT)
    edits = _edit(old, new)
    whole = _verdict(checked, doc, edits)
    assert ok is None or whole is ok
    assert _verdict(checked_in_section, doc, edits) is whole


def test_the_unrelated_functions_and_aliases_are_left_out() -> None:
    doc = Document(TEXT)
    edits = _edit("affine.for %i = 0 to 8 {", "affine.for %i = 0 to 4 {")
    scope = _function_scope(doc, doc.sections[0], edits[0].start, edits[0].end, edits)
    assert scope is not None
    text, shift = scope
    assert "@unrelated" not in text and "@broken_elsewhere" not in text and "#unused" not in text
    assert "@callee(%x: f32)" in text and "@caller" in text and "#id =" in text
    # The edits land on the same text once shifted.
    e = edits[0]
    assert text[e.start - shift : e.end - shift] == TEXT[e.start : e.end]


TOP = "%c = arith.constant 0 : index\n%t = foo.untyped 1\n"


@pytest.mark.parametrize("name,kept", [("%t", True), ("%c", False)], ids=["untyped", "typed"])
def test_an_untyped_value_at_the_top_of_the_module_keeps_the_functions_that_name_it(name: str, kept: bool) -> None:
    """An untyped value at the top of a module learns its type from a use
    in any item, the edited function's included: the functions that name
    it are kept (a function is isolated from it, but its use resolves the
    name). A typed one is the same whatever the edit: they are left out as
    without it."""
    text = TOP + TEXT.replace("%v = affine.load %A[%i] : memref<8xf32>\n  }\n  return", f"%v = affine.load %A[{name}] : memref<8xf32>\n  }}\n  return", 1)
    assert f"%A[{name}]" in text[text.index("@unrelated") : text.index("@target")]
    doc = Document(text)
    edits = _edit("affine.for %i = 0 to 8 {", "affine.for %i = 0 to 4 {", text)
    scope = _function_scope(doc, doc.sections[0], edits[0].start, edits[0].end, edits)
    assert scope is not None
    text_kept, _shift = scope
    assert text_kept.startswith(TOP) and "@broken_elsewhere" not in text_kept
    assert ("@unrelated" in text_kept) is kept


@pytest.mark.parametrize(
    "old,new",
    [
        ("%v = affine.load %A[%i]", "%v = affine.load %A[%c]"),  # (a use of a value the function is isolated from)
        ("%w = affine.apply #id(%i)", "%w = affine.apply #id(%t)"),
        ("affine.for %i = 0 to 8 {", "affine.for %i = 0 to 4 {"),
    ],
)
def test_values_at_the_top_of_the_module_give_the_same_verdict_as_the_whole_text(old: str, new: str) -> None:
    text = TOP + TEXT
    doc = Document(text)
    edits = _edit(old, new, text)
    assert _function_scope(doc, doc.sections[0], edits[0].start, edits[0].end, edits) is not None
    assert _verdict(checked_in_section, doc, edits) is _verdict(checked, doc, edits)


def test_an_edit_across_two_functions_keeps_the_whole_section() -> None:
    doc = Document(TEXT)
    a = TEXT.index("@target(")
    b = TEXT.index("@caller(")
    edits = [TextEdit(a, b, TEXT[a:b])]
    assert _function_scope(doc, doc.sections[0], a, b, edits) is None


def test_a_code_action_does_not_check_a_context_over_its_limit() -> None:
    """Inside ``check_limit`` (the code actions and the loop hover), a
    context of more lines than the limit is not re-verified: the transform
    is withheld with the reason, at once (a whole 20,000-line section took
    seconds per transformation, holding the document's lock); outside it,
    the same check runs."""
    doc = Document(TEXT)
    edits = _edit("affine.for %i = 0 to 8 {", "affine.for %i = 0 to 4 {")
    with check_limit(5), pytest.raises(TooLargeToCheck, match="not checked: its context is"):
        checked_in_section(doc, edits)
    checked_in_section(doc, edits)  # (no limit outside the block)


def test_a_function_too_large_to_check_gets_its_actions_disabled_with_the_reason() -> None:
    from affine_lsp.server.analysis_engine import functions_of
    from affine_lsp.server.transform_actions import transforms_for

    body = "".join(f"  %c{i} = arith.constant {i} : index\n" for i in range(CODE_ACTION_CHECK_LINES))
    text = f"func.func @big(%A: memref<8xf32>) {{\n{body}  affine.for %i = 0 to 8 {{\n    %v = affine.load %A[%i] : memref<8xf32>\n    affine.store %v, %A[%i] : memref<8xf32>\n  }}\n  return\n}}\n"
    doc = Document(text)
    loop = next(op for op in functions_of(doc)[0].walk() if op.name == "affine.for")
    actions = transforms_for(doc, [loop], 8)
    assert actions and all(t.data.get("disabled") for t in actions if not t.kind.startswith("fuse"))
    assert any("not checked: its context is" in str(t.data.get("disabled")) for t in actions)


def test_fusion_checks_the_fused_function_in_its_context_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fusion re-parses and re-verifies the fused function with what it
    names, as every other transformation does, not the whole file (on a
    20,000-line file its code action took 10-15 s, under the document's
    lock): no text it parses again is a tenth of the file."""
    from affine_lsp.server.analysis_engine import functions_of
    from affine_lsp.source import document as document_module
    from affine_lsp.transforms.fusion import fusion_candidates
    from tests.test_bytecode import TWO_LOOPS

    filler = "".join(
        f"func.func @f{i}(%A: memref<8xf32>) {{\n  affine.for %i = 0 to 8 {{\n    %v = affine.load %A[%i] : memref<8xf32>\n  }}\n  return\n}}\n"
        for i in range(300)
    )
    kernel = TWO_LOOPS.lstrip()  # (a producer and its consumer)
    text = filler + kernel + filler.replace("@f", "@g")
    doc = Document(text)
    two = next(f for f in functions_of(doc) if text.startswith("func.func @f(", f.span.start))
    first = next(op for op in two.regions[0].blocks[0].operations if op.name == "affine.for")
    parsed: list[int] = []
    real_init = document_module.Document.__init__

    def spy(self: Document, source: str, *args: object, **kwargs: object) -> None:
        parsed.append(len(source))
        real_init(self, source, *args, **kwargs)

    monkeypatch.setattr(document_module.Document, "__init__", spy)
    actions = fusion_candidates(doc, first)
    assert [t.kind for t in actions] == ["fuse"]
    assert parsed and max(parsed) < len(text) // 10


def test_the_analyses_report_no_errors_so_the_safety_net_need_not_run_them() -> None:
    """``edits.checked`` re-runs the parser and the verifier only: the
    analyses' notes (out-of-bounds accesses, racy ``affine.parallel``,
    budgets) are warnings and infos, never errors, so they could not make a
    transformation unsafe. A racy nest and an out-of-bounds access say so."""
    from affine_lsp.analysis import analyze_document

    text = """func.func @f(%A: memref<8xf32>) {
  affine.parallel (%i) = (0) to (7) {
    %v = affine.load %A[%i + 1] : memref<8xf32>
    affine.store %v, %A[%i] : memref<8xf32>
  }
  affine.for %j = 0 to 9 {
    %w = affine.load %A[%j] : memref<8xf32>
  }
  return
}
"""
    notes = analyze_document(Document(text))
    assert {n.code for n in notes} >= {"racy-parallel", "memref-bound"}, [(n.code, n.message) for n in notes]
    assert [n for n in notes if n.severity == "error"] == []
    # and the racy parallel loop a (hypothetical) rewrite would produce is not refused for its race
    assert checked(text, [TextEdit(0, 0, "")]) == text
