"""MLIR bytecode (``.mlirbc``, ``mlir-opt --emit-bytecode``) to MLIR text.

A pure-Python reader of the documented format
(https://mlir.llvm.org/docs/BytecodeFormat/): :func:`decode_bytecode` turns
the bytes of a bytecode file into MLIR text in the generic form (``module``,
``func.func`` and ``affine.for`` in their custom syntax), which mlir-opt and
affine-lsp's parser both read. Bytecode versions 0 to 6 are read (6 is what MLIR
22.1.8 writes by default; ``--emit-bytecode-version`` writes the others).
What it cannot decode (a dialect's own binary encoding of an attribute or
type, the properties of an op whose layout is not known) raises
:class:`BytecodeError` naming what and where.
"""

from __future__ import annotations

from affine_lsp.bytecode.errors import BytecodeError

MAGIC = b"ML\xefR"


def is_bytecode(data: bytes) -> bool:
    """Whether ``data`` starts with MLIR bytecode's magic number."""
    return data[:4] == MAGIC


def decode_bytecode(data: bytes) -> str:
    """The textual form (MLIR generic syntax) of a bytecode file."""
    from affine_lsp.bytecode.printer import print_module
    from affine_lsp.bytecode.reader import read_bytecode

    return print_module(read_bytecode(data))


__all__ = ["MAGIC", "BytecodeError", "decode_bytecode", "is_bytecode"]
