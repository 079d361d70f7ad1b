"""How a symbol is named to the user: ``@name`` of a function (the CLI's
dependence graphs, the server's symbols, hovers and views)."""

from __future__ import annotations

from affine_lsp.ir.attributes import StringAttr
from affine_lsp.ir.core import Operation


def func_name(op: Operation) -> str:
    a = op.attributes.get("sym_name")
    return "@" + a.value if isinstance(a, StringAttr) else "<anonymous>"
