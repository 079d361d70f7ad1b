"""How a symbol is named to the user: ``@name`` of a function (the CLI's
dependence graphs, the server's symbols, hovers and views)."""

from __future__ import annotations

from affine_lsp.ir import op_traits
from affine_lsp.ir.core import Operation


def func_name(op: Operation) -> str:
    """``@name`` of a function (``<anonymous>`` without a name)."""
    name = op_traits.symbol_name(op)
    return "<anonymous>" if name is None else "@" + name
