"""Pieces shared by the reduce actions of every op family.

The transformer (:class:`affine_lsp.syntax.parser.ChunkTransformer`) is
assembled from one mixin per dialect family (``ops_scf``, ``ops_gpu``,
``ops_llvm``, ``ops_linalg``, ``ops_tensor``, ...), as the grammar is from
one ``.lark`` file per family; the marker types the reduce actions pass
between them, and the helpers they all use, live here.
"""

from __future__ import annotations

from typing import Any

from lark import Token

from affine_lsp.ir.core import Anchor, Span
from affine_lsp.syntax.lexer import Tok
from affine_lsp.syntax.nodes import BlockSyn, RegionSyn

try:
    from lark_cython.lark_cython import Token as _CythonToken

    TOKENS: tuple[type, ...] = (Token, Tok, _CythonToken)
except ImportError:  # pragma: no cover - optional speed-up
    TOKENS = (Token, Tok)
TOKEN_TYPES = frozenset(TOKENS)


class Ops(list):
    """Marker list type for ``operand_list`` results: [(name, Span)]."""


class Mixed(list):
    """``mixed_list``: items are (name, Span) for SSA values or int."""


def is_tok(x: Any, type_: str | None = None) -> bool:
    """Whether ``x`` is a token (of type ``type_`` when given)."""
    return isinstance(x, TOKENS) and (type_ is None or x.type == type_)


def set_entry_args(region: RegionSyn, args: list, anchor: Anchor) -> None:
    """Define ``args`` (name, span, type) as the entry block's arguments of
    ``region`` (the region arguments an op's custom syntax names outside
    the region), unless the entry block is labelled."""
    if not region.blocks:
        region.blocks.append(BlockSyn(None, Span(region.span.rel_start, region.span.rel_start, anchor), [], []))
    blk = region.blocks[0]
    if blk.label is None:
        blk.args = [(n, s, t) for n, s, t in args if n is not None]


def unquote(s: str) -> str:
    if len(s) >= 2 and s[0] == '"' and s[-1] == '"':
        return s[1:-1].encode("utf-8").decode("unicode_escape") if "\\" in s else s[1:-1]
    return s
