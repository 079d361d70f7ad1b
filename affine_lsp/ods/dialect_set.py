"""What names a user's dialects (:class:`DialectSet`) and what went wrong
reading them (:class:`Problem`): the light records the CLI's front end,
the project file and the server pass around before anything is loaded
(:mod:`affine_lsp.ods.user_dialects` loads)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass(frozen=True)
class DialectSet:
    """``.td`` files and include folders (absolute paths), and the
    ``llvm-tblgen`` to run (``""``: found, see :func:`tblgen.find_tblgen`).
    ``origin`` says where the set was named (for messages)."""

    td: tuple[str, ...]
    include: tuple[str, ...] = ()
    tblgen: str = ""
    origin: str = field(default="", compare=False)
    irdl: tuple[str, ...] = ()  # IRDL files (--irdl-file): their dialects' op names (affine_lsp/ods/irdl.py)

    @staticmethod
    def of(td: list[str], include: list[str], base: str = "", tblgen: str = "", origin: str = "", irdl: list[str] | None = None) -> DialectSet:
        """A set from paths relative to ``base`` (the current folder when empty)."""

        def absolute(p: str) -> str:
            p = os.path.expanduser(p)
            return os.path.normpath(p if os.path.isabs(p) else os.path.join(base or os.getcwd(), p))

        return DialectSet(
            tuple(dict.fromkeys(absolute(p) for p in td)),
            tuple(dict.fromkeys(absolute(p) for p in include)),
            tblgen,
            origin,
            tuple(dict.fromkeys(absolute(p) for p in irdl or [])),
        )

    def __bool__(self) -> bool:
        return bool(self.td or self.irdl)


@dataclass(frozen=True)
class Problem:
    """A ``.td`` file that gave no ops: llvm-tblgen's message."""

    td: str
    message: str

    def line(self) -> str:
        """``PATH: error: MESSAGE``, as the CLI prints its input errors."""
        return f"{self.td}: error: {self.message}"
