"""The one error of the bytecode reader."""

from __future__ import annotations

import errno


class BytecodeError(OSError):
    """A bytecode file that cannot be decoded: malformed, truncated, of an
    unsupported version, or using an encoding affine-lsp does not know.

    It is an ``OSError`` (with ``strerror`` set to the message) so that every
    command that reads its input through ``read_source`` reports it like a
    file that cannot be read: ``FILE: error: <message>``."""

    def __init__(self, message: str, offset: int | None = None) -> None:
        text = message if offset is None else f"{message} (at byte {offset})"
        super().__init__(errno.EINVAL, f"invalid MLIR bytecode: {text}")
        self.message = message
        self.offset = offset

    def __str__(self) -> str:
        return str(self.strerror)
