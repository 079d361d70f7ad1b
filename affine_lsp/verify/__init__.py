"""Verification: dimension/symbol rules, op verifiers, SSA and type checks.

``verify_document(doc)`` reports what ``mlir-opt`` 22.1.8's parser and
verifier report for affine code (same place, same words); ``classify(value,
user_op)`` tells the language server whether a value may be bound to a
dimension or a symbol at a use, and why.
"""

from __future__ import annotations

from affine_lsp.verify.dimsym import DimSymInfo, classify
from affine_lsp.verify.verifier import verify_document, verify_section

__all__ = ["DimSymInfo", "classify", "verify_document", "verify_section"]
