"""Name resolution as in MLIR 22.1.8's parser (affine-lsp issue #14).

* SSA names are scoped per region: a name defined in a region goes out of
  scope when the region closes (it may be defined again after it, or in a
  sibling), but may not shadow a name of an enclosing region;
* regions of ops isolated from above are no separate name scope (outer
  names clash there, uses bind to them) and the verifier rejects uses of
  outer values;
* ``func.func`` declarations without arguments or results parse;
* the fallback for ops whose syntax the grammar does not know (the "soup")
  never cascades into errors: names bound in its brackets and names it
  uses without a definition are arguments of its regions;
* ``!dialect.type`` is a dialect type, not a type alias.

The expected verdicts were checked with mlir-opt 22.1.8
(``tests/test_names_differential.py`` checks many more against it).
Navigation is checked through a real LSP client.
"""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp.ir.core import BlockArgument, OpResult
from affine_lsp.ir.types import OpaqueType
from affine_lsp.source.document import Document
from affine_lsp.verify import verify_document
from tests.test_server_support import apply_edits, config, no_server_errors, open_doc, pos, start, text_of, uri_of


def errors(text: str) -> list[tuple[int, str]]:
    """(1-based line, message) of every error of the parser, the IR builder and the verifier."""
    doc = Document(text)
    notes = list(doc.notes()) + verify_document(doc)
    return sorted((doc.lines.line_of(n.span.start) + 1, n.message) for n in notes if n.severity == "error")


def func(body: str, args: str = "%a: index, %cond: i1") -> str:
    lines = [f"func.func @f({args}) {{"] + ["  " + ln for ln in body.strip("\n").split("\n")] + ["  return", "}"]
    return "\n".join(lines) + "\n"


def ops_named(doc: Document, name: str) -> list:
    out = []
    for sec in doc.sections:
        out.extend(o for o in sec.module.walk() if o.name == name)
    return out


# ---------------------------------------------------------------- 1. region scopes


def test_name_defined_again_after_its_region_closes() -> None:
    text = func(
        """
affine.for %i = 0 to 4 {
  %t = arith.constant 0 : index
  "test.use"(%t) : (index) -> ()
}
%t = arith.constant 1 : index
"test.use"(%t) : (index) -> ()
"""
    )
    assert errors(text) == []
    doc = Document(text)
    inner, outer = [o.results[0] for o in ops_named(doc, "arith.constant")]
    uses = ops_named(doc, "test.use")
    assert uses[0].operands[0] is inner and uses[1].operands[0] is outer
    assert [u.user for u in inner.uses] == [uses[0]] and [u.user for u in outer.uses] == [uses[1]]


def test_result_named_like_a_value_of_its_own_region() -> None:
    # `%0 = op { %0 = ... }`: the inner %0 is out of scope when the result is defined.
    text = func(
        """
%0 = scf.execute_region -> index {
  %0 = arith.constant 1 : index
  scf.yield %0 : index
}
"test.use"(%0) : (index) -> ()
"""
    )
    assert errors(text) == []


def test_sibling_regions_define_the_same_name() -> None:
    text = func(
        """
scf.if %cond {
  %v = arith.constant 0 : index
} else {
  %v = arith.constant 1 : index
}
affine.for %i = 0 to 4 {
  %w = arith.constant 0 : index
}
affine.for %i = 0 to 4 {
  %w = arith.constant 0 : index
}
"""
    )
    assert errors(text) == []


def test_shadowing_inside_a_region_is_a_redefinition() -> None:
    text = func(
        """
%v = arith.constant 1 : index
affine.for %i = 0 to 4 {
  %v = arith.constant 0 : index
}
"""
    )
    assert errors(text) == [(4, "redefinition of SSA value '%v'")]
    nested_iv = func("affine.for %i = 0 to 4 {\n  affine.for %i = 0 to 4 {\n  }\n}")
    assert errors(nested_iv) == [(3, "redefinition of SSA value '%i'")]


def test_use_after_the_region_closes_is_undeclared() -> None:
    text = func(
        """
affine.for %i = 0 to 4 {
  %v = arith.constant 0 : index
}
"test.use"(%v) : (index) -> ()
"""
    )
    assert errors(text) == [(5, "use of undeclared SSA value name")]
    assert errors(func('affine.for %i = 0 to 4 {\n}\n"test.use"(%i) : (index) -> ()')) == [(4, "use of undeclared SSA value name")]


def test_forward_reference_from_a_region_binds_the_later_definition() -> None:
    # MLIR's parser binds it; the verifier rejects it (dominance), on the use's line.
    text = func(
        """
affine.for %i = 0 to 4 {
  "test.use"(%v) : (index) -> ()
}
%v = arith.constant 1 : index
"""
    )
    assert errors(text) == [(3, "operand #0 does not dominate this use")]


def test_entry_argument_referenced_before() -> None:
    text = func('"test.use"(%i) : (index) -> ()\naffine.for %i = 0 to 4 {\n}')
    assert errors(text) == [(3, "region entry argument '%i' is already in use")]


def test_isolated_regions_see_outer_names_but_may_not_use_them() -> None:
    clash = func(
        """
%v = arith.constant 0 : index
"builtin.module"() ({
  func.func @g(%b: index) {
    %v = arith.constant 1 : index
    return
  }
}) : () -> ()
"""
    )
    assert errors(clash) == [(5, "redefinition of SSA value '%v'")]
    use = func(
        """
"builtin.module"() ({
  func.func @g(%b: index) {
    "test.use"(%w) : (index) -> ()
    return
  }
}) : () -> ()
%w = arith.constant 0 : index
"""
    )
    # The parser binds the use to the outer value; the verifier rejects it, at the use.
    assert errors(use) == [(4, "'test.use' op using value defined outside the region")]


def test_multi_result_forward_reference() -> None:
    text = func(
        """
affine.for %i = 0 to 4 {
  %r:2 = "test.two"() : () -> (index, index)
  "test.use"(%r#1, %r) : (index, index) -> ()
}
"""
    )
    assert errors(text) == []


# ---------------------------------------------------------------- 2. declarations


@pytest.mark.parametrize(
    "decl",
    [
        "func.func private @f()",
        "func.func private @f() -> ()",
        "func.func private @f(index) -> ()",
        "func.func private @f() -> i32",
        "func.func private @f(%x: i32)",
        "func.func private @f(i32, index) -> (f32, i1)",
        "func.func private @f() attributes {foo}",
    ],
)
def test_declarations_parse(decl: str) -> None:
    text = decl + "\n"
    assert errors(text) == []
    doc = Document(text)
    (op,) = ops_named(doc, "func.func")
    assert text[op.span.start : op.span.end] == decl and not op.regions


# ---------------------------------------------------------------- 3. the unknown-op fallback

# gpu.launch's syntax, spelt as an op of a dialect affine-lsp does not know
# (gpu.launch itself has a grammar rule): the fallback binds its names.
GPU_LAUNCH = """
func.func @f(%c1: index, %c2: index, %m: memref<?xf32>) {
  mygpu.launch blocks(%bx, %by, %bz) in (%sx = %c2, %sy = %c1, %sz = %c1)
             threads(%tx, %ty, %tz) in (%tsx = %c2, %tsy = %c1, %tsz = %c1) {
    "some_op"(%bx, %sx, %tz) : (index, index, index) -> ()
    %v = memref.load %m[%tx] : memref<?xf32>
    mygpu.terminator
  }
  return
}
"""


def test_unknown_launch_names_are_region_arguments() -> None:
    assert errors(GPU_LAUNCH) == []
    doc = Document(GPU_LAUNCH)
    (launch,) = ops_named(doc, "mygpu.launch")
    assert not launch.known
    args = {a.name: a for a in launch.regions[0].blocks[0].arguments}
    assert set(args) >= {"%bx", "%by", "%bz", "%sx", "%sy", "%sz", "%tx", "%ty", "%tz", "%tsx"}
    # `%sx = %c2`: %sx is defined, %c2 used.
    assert sorted(v.name for v in launch.operands) == ["%c1", "%c1", "%c1", "%c1", "%c2", "%c2"]
    (some,) = ops_named(doc, "some_op")
    assert [v for v in some.operands] == [args["%bx"], args["%sx"], args["%tz"]]
    assert all(isinstance(v, BlockArgument) for v in some.operands)


def test_soup_brackets_with_bindings_lex_as_names() -> None:
    # `%a, %y =` inside brackets was one RESULT_LHS token.
    text = func(
        """
foo.bar (%x = %a, %y = %a) {
  "test.use"(%x, %y) : (index, index) -> ()
}
"""
    )
    assert errors(text) == []
    doc = Document(text)
    (op,) = ops_named(doc, "foo.bar")
    assert [v.name for v in op.operands] == ["%a", "%a"]
    assert [a.name for a in op.regions[0].blocks[0].arguments] == ["%x", "%y"]
    # At the op level a result list still starts the next op.
    text = func('foo.baz %a\n%r, %s = "test.two"() : () -> (index, index)\n"test.use"(%r, %s) : (index, index) -> ()')
    assert errors(text) == []


def test_soup_signature_and_region_arguments() -> None:
    seq = """module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
"""
    assert errors(seq) == []
    linalg_map = func(
        """
%r = linalg.map ins(%x, %y : tensor<4xf32>, tensor<4xf32>) outs(%z : tensor<4xf32>)
  (%in: f32, %in_1: f32, %out: f32) {
    %s = arith.addf %in, %in_1 : f32
    linalg.yield %s : f32
  }
""",
        "%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4xf32>",
    )
    assert errors(linalg_map) == []
    forall = func(
        """
scf.forall (%i, %j) in (%a, %a) {
  "test.use"(%i, %j) : (index, index) -> ()
}
"""
    )
    assert errors(forall) == []


def test_unknown_op_operands_never_error() -> None:
    # Without regions, a name with no definition is simply left unresolved.
    assert errors(func("foo.bar %nowhere, %a")) == []
    # A known op still reports its undefined operands.
    assert errors(func('foo.bar %nowhere\n"test.use"(%nowhere) : (index) -> ()')) == [(3, "use of undeclared SSA value name")]


def test_bang_identifier_with_a_dot_is_a_dialect_type() -> None:
    text = "func.func @f(%t: !async.token, %p: !llvm.ptr) -> !async.token {\n  return %t : !async.token\n}\n"
    assert errors(text) == []
    doc = Document(text)
    (f,) = ops_named(doc, "func.func")
    arg = f.regions[0].blocks[0].arguments[0]
    assert isinstance(arg.type, OpaqueType) and str(arg.type) == "!async.token"
    assert errors("func.func @f(%t: !undefined_alias) {\n  return\n}\n") == [(1, "undefined symbol alias id 'undefined_alias'")]


def test_realworld_sections_named_in_the_issue() -> None:
    from tests.corpus import SHARED

    root = SHARED / "corpus" / "realworld"
    if not root.is_dir():
        pytest.skip("realworld corpus not present")
    for name, line in [("Linalg__roundtrip.mlir", 163), ("Polygeist__affinecfg.mlir", 64), ("GPU__outlining.mlir", 27)]:
        text = (root / name).read_text()
        doc = Document(text)
        notes = [n for n in doc.notes() if n.severity == "error"]
        near = [n.message for n in notes if abs(doc.lines.line_of(n.span.start) + 1 - line) <= 3]
        assert near == [], (name, near)


# ---------------------------------------------------------------- navigation (real LSP client)

NAV = func(
    """
affine.for %i = 0 to 4 {
  %t = arith.constant 0 : index
  "test.use"(%t) : (index) -> ()
}
%t = arith.constant 1 : index
"test.use"(%t) : (index) -> ()
"""
)
NAV_URI = uri_of("names_scoping_nav.mlir")


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    await start(lsp_client)
    open_doc(lsp_client, NAV_URI, NAV)
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


def _doc_id() -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=NAV_URI)


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_and_references_pick_the_right_same_named_value(client: LanguageClient) -> None:
    inner_def = pos(NAV, "%t = arith.constant 0")
    outer_def = pos(NAV, "%t = arith.constant 1")
    inner_use = pos(NAV, '"test.use"(%t)', delta=11)
    outer_use = pos(NAV, '"test.use"(%t)', nth=1, delta=11)
    for use, want in ((inner_use, inner_def), (outer_use, outer_def)):
        got = await client.text_document_definition_async(types.DefinitionParams(text_document=_doc_id(), position=use))
        assert got and got[0].range.start == want and text_of(NAV, got[0].range) == "%t"
    for d, u in ((inner_def, inner_use), (outer_def, outer_use)):
        refs = await client.text_document_references_async(
            types.ReferenceParams(text_document=_doc_id(), position=d, context=types.ReferenceContext(include_declaration=True))
        )
        assert sorted((r.range.start.line, r.range.start.character) for r in refs) == sorted([(d.line, d.character), (u.line, u.character)])


@pytest.mark.asyncio(loop_scope="module")
async def test_rename_changes_only_one_of_two_same_named_values(client: LanguageClient) -> None:
    p = pos(NAV, "%t = arith.constant 0", delta=1)
    edit = await client.text_document_rename_async(types.RenameParams(text_document=_doc_id(), position=p, new_name="%inner"))
    assert edit is not None and edit.changes is not None
    new = apply_edits(NAV, list(edit.changes[NAV_URI]))
    assert '%inner = arith.constant 0 : index\n    "test.use"(%inner)' in new
    assert '%t = arith.constant 1 : index\n  "test.use"(%t)' in new
    assert errors(new) == []


def test_values_are_results_and_arguments() -> None:
    doc = Document(NAV)
    consts = ops_named(doc, "arith.constant")
    assert all(isinstance(c.results[0], OpResult) for c in consts)
