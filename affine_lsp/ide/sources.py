"""Reading an input file: its bytes (``-``: standard input) and its text,
MLIR bytecode decoded to its textual form. The CLI's front end
(``commands/frontend.py``) and the server's ``affine-lsp.decodeBytecode``
command (``server/bytecode_view.py``) read files through it.
"""

from __future__ import annotations

import sys


def read_bytes(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as f:
        return f.read()


def decode(data: bytes) -> str:
    """Decode as UTF-8; invalid bytes become U+FFFD (reported by the parser).
    MLIR bytecode (``ML\\xefR``) becomes its textual form (the generic
    syntax); a file that cannot be decoded raises ``BytecodeError`` (an
    ``OSError``)."""
    if data[:4] == b"ML\xefR":
        from affine_lsp.bytecode import decode_bytecode

        return decode_bytecode(data)
    return data.decode("utf-8", errors="replace")


def read_source(path: str) -> str:
    """The text of ``path`` (bytecode decoded); ``OSError`` when it cannot be read."""
    return decode(read_bytes(path))
