"""The lark LALR parser for one chunk of MLIR text.

The grammar lives in ``grammar/mlir.lark``. A transformer runs inside the
LALR parser (no parse tree is built) and normalises every op into an
:class:`~affine_lsp.syntax.nodes.OpSyn`. Parse errors are turned into
:class:`~affine_lsp.syntax.nodes.Note` objects with MLIR-style messages.
"""

from __future__ import annotations

import os
import re
import struct
import threading
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from affine_lsp.ir.affine_expr import AffineDimExpr, AffineExpr, AffineMap, IntegerSet, constant, dim, symbol
from affine_lsp.ir.attributes import (
    AffineMapAttr,
    ArrayAttr,
    Attribute,
    BoolAttr,
    DenseArrayAttr,
    DictAttr,
    FloatAttr,
    IntegerAttr,
    IntegerSetAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from affine_lsp.ir.core import Anchor, Span
from affine_lsp.ir.types import (
    INDEX,
    ComplexType,
    FloatType,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    NoneType,
    OpaqueType,
    TensorType,
    TupleType,
    Type,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
)
from affine_lsp.syntax import unknown_ops
from affine_lsp.syntax.driver import LalrDriver, NeedsLark
from affine_lsp.syntax.lexer import TokenStream, _FastLexing, lexer_class
from affine_lsp.syntax.nodes import (
    AliasDefSyn,
    AliasRef,
    AliasType,
    BlockSyn,
    Item,
    ModuleCloseSyn,
    ModuleOpenSyn,
    Note,
    OpSyn,
    RegionSyn,
    SuccSyn,
)
from affine_lsp.syntax.opkit import TOKEN_TYPES, TOKENS, Mixed, Ops
from affine_lsp.syntax.opkit import set_entry_args as _set_entry_args
from affine_lsp.syntax.opkit import unquote as _unquote
from affine_lsp.syntax.ops_gpu import GpuOps
from affine_lsp.syntax.ops_linalg import LinalgOps
from affine_lsp.syntax.ops_llvm import LlvmOps
from affine_lsp.syntax.ops_scf import ScfOps
from affine_lsp.syntax.ops_tensor import BufferizationOps, TensorOps, TransformOps
from affine_lsp.syntax.ops_vector import VectorOps
from affine_lsp.syntax.reductions import ReduceRule, compile_reductions
from affine_lsp.syntax.table_cache import cache_path, compact_tables

GRAMMAR_PATH = Path(__file__).resolve().parent.parent.parent / "grammar" / "mlir.lark"
_PACKAGED_GRAMMAR = Path(__file__).resolve().parent.parent / "grammar" / "mlir.lark"

_TOKENS = TOKENS
_TOKEN_TYPES = TOKEN_TYPES
_DEBUG = bool(os.environ.get("AFFINE_LSP_DEBUG_PARSER"))
# arith::AtomicRMWKind values accepted by affine.parallel's `reduce` in MLIR 22.1.8.
ATOMIC_RMW_KINDS = frozenset(
    {"addf", "addi", "assign", "maximumf", "maxs", "maxu", "minimumf", "mins", "minu", "mulf", "muli", "ori", "andi", "maxnumf", "minnumf", "xori"}
)
_SHAPED_RE = re.compile(
    r"(memref|vector|tensor)<[ \t]*(((\d+|\?|\[\d+\])[ \t]*x[ \t]*)*)([su]?i\d+|bf16|f16|tf32|f32|f64|f80|f128|index)[ \t]*(,[ \t]*\d+[ \t]*)?>"
)
_SHAPED_CACHE: dict[str, tuple] = {}
# Deeper affine expressions are refused with a diagnostic (every algorithm on
# expressions is recursive); real maps are a handful of levels deep.
MAX_EXPR_DEPTH = 300
_SSA_NAME_RE = re.compile(r"%[A-Za-z0-9_$.\-]+(?:#[0-9]+)?")
_RESULT_RE = re.compile(r"%[A-Za-z0-9_$.\-]+(?::([0-9]+))?")
I1 = IntegerType(1)
I32 = IntegerType(32)


_Ops = Ops
_Mixed = Mixed


class ChunkTransformer(ScfOps, GpuOps, LlvmOps, LinalgOps, TensorOps, VectorOps, BufferizationOps, TransformOps, Transformer):
    """Builds syntax records while the LALR parser reduces.

    The reduce actions of the dialect families that have a grammar file of
    their own (``grammar/scf.lark``, ``gpu.lark``, ...) are mixed in from one
    module each (:mod:`.ops_scf`, :mod:`.ops_gpu`, ...).

    Affine expressions are built directly as :class:`AffineExpr`; the names
    they refer to are resolved through per-map state (``_dim_names``) or, for
    SSA subscripts, through the order of first appearance (``_ssa_dims``), as
    MLIR's ``parseAffineMapOfSSAIds`` does.
    """

    def __init__(self, anchor: Anchor) -> None:
        super().__init__(visit_tokens=False)
        self.anchor = anchor
        self.notes: list[Note] = []
        self._reset_map_names()
        self._reset_ssa()
        self._reset_depths()

    # ------------------------------------------------------------ helpers
    def _reset_map_names(self) -> None:
        self._dim_names: dict[str, int] = {}
        self._sym_names: dict[str, int] = {}

    def _reset_depths(self) -> None:
        self._depths: dict[int, int] = {}

    def _reset_ssa(self) -> None:
        self._ssa_dims: dict[str, int] = {}
        self._ssa_syms: dict[str, int] = {}
        self._ssa_operands: list[tuple[str, Span]] = []
        self._ssa_sym_operands: list[tuple[str, Span]] = []

    def sp(self, tok: Token) -> Span:
        return Span(tok.start_pos, tok.end_pos, self.anchor)

    def span_of(self, first: Any, last: Any) -> Span:
        return Span(_start(first), _end(last), self.anchor)

    def note(self, severity: str, message: str, span: Span, code: str = "", data: dict | None = None) -> None:
        self.notes.append(Note(severity, message, span, code, data))

    def _op(self, name_tok: Token, children: Sequence[Any], name: str | None = None) -> OpSyn:
        return OpSyn(
            name if name is not None else str(name_tok),
            self.sp(name_tok),
            self.span_of(name_tok, children[-1]),
        )

    # ------------------------------------------------------------ top level
    def start(self, c: list) -> Item | None:
        return c[0] if c else None

    def attr_alias_def(self, c: list) -> AliasDefSyn:
        return AliasDefSyn(str(c[0]), self.sp(c[0]), self.span_of(c[0], c[-1]), c[1])

    def legacy_map_def(self, c: list) -> AliasDefSyn:
        m: AffineMap = c[1]
        d = AliasDefSyn(str(c[0]), self.sp(c[0]), self.span_of(c[0], c[-1]), AffineMapAttr(m, None, m.span), legacy=True)
        self.note(
            "warning",
            f"legacy affine map syntax; the modern form is '{c[0]} = {m.to_attr_str()}'",
            d.span,
            code="legacy-map",
            data={"replacement": f"{c[0]} = {m.to_attr_str()}"},
        )
        return d

    def legacy_set_def(self, c: list) -> AliasDefSyn:
        s: IntegerSet = c[1]
        d = AliasDefSyn(str(c[0]), self.sp(c[0]), self.span_of(c[0], c[-1]), IntegerSetAttr(s, None, s.span), legacy=True)
        self.note(
            "warning",
            f"legacy integer set syntax; the modern form is '{c[0]} = {s.to_attr_str()}'",
            d.span,
            code="legacy-set",
            data={"replacement": f"{c[0]} = {s.to_attr_str()}"},
        )
        return d

    def loc_alias_def(self, c: list) -> AliasDefSyn:
        return AliasDefSyn(str(c[0]), self.sp(c[0]), self.sp(c[0]), OpaqueAttr("loc(...)", None, self.sp(c[0])))

    def type_alias_def(self, c: list) -> AliasDefSyn:
        return AliasDefSyn(str(c[0]), self.sp(c[0]), self.span_of(c[0], c[-1]), c[1])

    def module_open(self, c: list) -> ModuleOpenSyn:
        name = None
        attrs: dict[str, Attribute] = {}
        for x in c[1:]:
            if isinstance(x, _TOKENS) and x.type == "SYMBOL_REF":
                name = str(x)
            elif isinstance(x, DictAttr):
                attrs = x.entries
        return ModuleOpenSyn(self.span_of(c[0], c[-1]), name, attrs)

    def module_close(self, c: list) -> ModuleCloseSyn:
        return ModuleCloseSyn(self.sp(c[0]))

    # ------------------------------------------------------------ operations
    def operation(self, c: list) -> OpSyn:
        if len(c) == 1:
            return c[0]
        if isinstance(c[-1], _TOKENS) and c[-1].type == "LOC":
            c = c[:-1]
            if len(c) == 1:
                return c[0]
        lhs: Token = c[0]
        op: OpSyn = c[1]
        base = lhs.start_pos
        text = str(lhs)
        anchor = self.anchor
        if "," not in text and ":" not in text:  # `%x =`: one result
            m = _RESULT_RE.match(text)
            assert m is not None
            op.results.append((m.group(), 1, Span(base, base + m.end(), anchor)))
        else:
            for m in _RESULT_RE.finditer(text):
                name = m.group(0)
                count = 1
                if m.group(1) is not None:
                    count = int(m.group(1))
                    name = name[: name.index(":")]
                op.results.append((name, count, Span(base + m.start(), base + m.start() + len(name), anchor)))
        op.span = Span(base, op.span.rel_end, anchor)
        return op

    def generic_op(self, c: list) -> OpSyn:
        name_tok: Token = c[0]
        op = self._op(name_tok, c, name=_unquote(str(name_tok)))
        op.custom = False
        for x in c[1:]:
            if isinstance(x, _Ops):
                op.operands = list(x)
            elif isinstance(x, list) and x and isinstance(x[0], SuccSyn):
                op.successors = x
            elif isinstance(x, tuple) and x and x[0] == "props":
                op.attrs.update(x[1])
            elif isinstance(x, list) and (not x or isinstance(x[0], RegionSyn)):
                op.regions = x
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
            elif isinstance(x, FunctionType):
                op.operand_types = list(x.inputs)
                op.result_types = list(x.results)
        _normalize_generic(op)
        return op

    def successor_list(self, c: list) -> list[SuccSyn]:
        return c

    def successor(self, c: list) -> SuccSyn:
        s = SuccSyn(str(c[0]), self.sp(c[0]))
        for x in c[1:]:
            if isinstance(x, _Ops):
                s.operands = list(x)
            elif isinstance(x, list):
                s.types = x
        return s

    def properties(self, c: list) -> tuple[str, dict[str, Attribute]]:
        return ("props", c[0].entries)

    def generic_regions(self, c: list) -> list[RegionSyn]:
        regions = [x for x in c if isinstance(x, RegionSyn)]
        for r in regions:
            # `{}` in the generic form is a region without blocks (as
            # mlir-opt prints an empty `else` region), not one empty block.
            if len(r.blocks) == 1 and r.blocks[0].label is None and not r.blocks[0].ops and not r.blocks[0].args:
                r.blocks = []
        return regions

    def unknown_op(self, c: list) -> OpSyn:
        op = self._op(c[0], c)
        op.known = False
        self.note("remark", unknown_op_message(str(c[0])), op.name_span, code=UNKNOWN_OP_CODE)
        names: list[tuple[str, Span]] = []
        regions: list[RegionSyn] = []
        defs: list[tuple[str, Span, None]] = []
        _collect_soup(c[1:], names, regions, self.anchor, defs)
        op.operands = names
        op.regions = regions
        if defs and regions and (not regions[0].blocks or regions[0].blocks[0].label is None):
            # `(%x = %a, ...)`: `%x` is an argument of the op's region.
            _set_entry_args(regions[0], defs, self.anchor)
        return op

    def soup_punct(self, c: list) -> Any:
        return c[0] if c else None

    def soup_paren(self, c: list) -> list:
        return ["soup", c]

    soup_square = soup_paren
    soup_dict = soup_paren
    soup_inner_punct = soup_punct

    def soup_eq(self, c: list) -> str:
        return SOUP_EQ

    def soup_region(self, c: list) -> RegionSyn:
        return self.region(c)

    # ------------------------------------------------------------ regions
    def region(self, c: list) -> RegionSyn:
        return RegionSyn(self.span_of(c[0], c[-1]), c[1])  # `{` blocks `}`

    def block_list(self, c: list) -> list[BlockSyn]:
        entry_ops: list[OpSyn] = c[0]
        blocks = []
        if entry_ops or len(c) == 1:
            sp = self.span_of(entry_ops[0], entry_ops[-1]) if entry_ops else Span(0, 0, self.anchor)
            blocks.append(BlockSyn(None, sp, [], entry_ops))
        blocks.extend(c[1:])
        return blocks

    def entry_ops(self, c: list) -> list[OpSyn]:
        return c

    def labeled_block(self, c: list) -> BlockSyn:
        label: Token = c[0]
        args: list = []
        ops: list[OpSyn] = []
        for x in c[1:]:
            if isinstance(x, list):
                args = x
            elif isinstance(x, OpSyn):
                ops.append(x)
        end = ops[-1] if ops else c[-1]
        label_text = str(label)
        return BlockSyn(label_text, self.span_of(label, end), args, ops)

    def block_args(self, c: list) -> list:
        return [x for x in c if isinstance(x, tuple)]

    def block_arg(self, c: list) -> tuple[str, Span, Type | None]:
        return (str(c[0]), self.sp(c[0]), c[2])

    # ------------------------------------------------------------ affine
    def affine_apply(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.apply")
        op.attrs["map"] = c[1]
        self._dim_sym(op, c[2])
        op.result_types = [INDEX]
        return op

    def affine_minmax(self, c: list) -> OpSyn:
        op = self._op(c[0], c)
        op.attrs["map"] = c[1]
        self._dim_sym(op, c[2])
        op.result_types = [INDEX]
        return op

    def _dim_sym(self, op: OpSyn, ds: tuple[list, list | None]) -> None:
        dims, syms = ds
        op.operands = list(dims) + list(syms or [])
        op.attrs.setdefault("__num_dim_operands", IntegerAttr(len(dims)))

    def dim_sym_operands(self, c: list) -> tuple[list, list | None]:
        return _DimSym(self._dim_sym_lists(c), self.span_of(c[0], c[-1]))

    def _dim_sym_lists(self, c: list) -> tuple[list, list | None]:
        dims: list = []
        syms: list | None = None
        seen_sym = False
        for x in c:
            if isinstance(x, _TOKENS):
                if x.type == "LSQB_SYM":
                    seen_sym = True
                    syms = []
            elif isinstance(x, _Ops):
                if seen_sym:
                    syms = list(x)
                else:
                    dims = list(x)
        return dims, syms

    def map_ref(self, c: list) -> Attribute:
        x = c[0]
        if isinstance(x, _TOKENS):
            return AliasRef(str(x), "map", self.sp(x))
        return x

    def set_ref(self, c: list) -> Attribute:
        x = c[0]
        if isinstance(x, _TOKENS):
            return AliasRef(str(x), "set", self.sp(x))
        return x

    def bound_map(self, c: list) -> tuple[str, Any, Any, Span, str | None]:
        kw = None
        if isinstance(c[0], _TOKENS) and c[0].type in ("MAX_KW", "MIN_KW"):
            kw = str(c[0])
            c = c[1:]
        dims, syms = c[1]
        return ("map", c[0], (dims, syms or []), c[0].span, kw)

    def bound_ssa(self, c: list) -> tuple[str, Any, Any, Span, None]:
        tok = c[0]
        m = AffineMap.trusted(0, 1, [symbol(0)])
        return ("map", AffineMapAttr(m, None, self.sp(tok)), ([], [(str(tok), self.sp(tok))]), self.sp(tok), None)

    def bound_const(self, c: list) -> tuple[str, Any, Any, Span, None]:
        v, sp = c[0]
        m = AffineMap.trusted(0, 0, [constant(v)])
        return ("map", AffineMapAttr(m, None, sp), ([], []), sp, None)

    def signed_int(self, c: list) -> tuple[int, Span]:
        tok = c[-1]
        v = int(str(tok))
        start = tok.start_pos
        if len(c) == 2 or (c[0] is not tok and isinstance(c[0], _TOKENS)):
            v = -v
            start = c[0].start_pos  # at the minus sign, where MLIR reports the attribute
        return v, Span(start, tok.end_pos, self.anchor)

    def signed_float(self, c: list) -> tuple[float, str, Span]:
        tok = c[-1]
        neg = len(c) == 2
        text = ("-" if neg else "") + str(tok)
        return float(text), text, Span(tok.start_pos, tok.end_pos, self.anchor)

    def for_step(self, c: list) -> tuple[str, int, Span]:
        v, sp = c[0]
        if v < 0:  # MLIR 22.1.8 rejects negative steps only (`step 0` parses and verifies)
            raise _SyntaxIssue(BAD_STEP_MESSAGE, sp)
        return ("step", v, sp)

    def iter_args(self, c: list) -> tuple[str, list, list]:
        pairs = [x for x in c if isinstance(x, tuple)]
        types = next(x for x in c if isinstance(x, list))
        return ("iter", pairs, types)

    def iter_arg(self, c: list) -> tuple[str, Span, str, Span]:
        return (str(c[0]), self.sp(c[0]), str(c[1]), self.sp(c[1]))

    def affine_for(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.for")
        iv: Token = c[1]
        if "#" in str(iv):
            raise _SyntaxIssue("result number not allowed in argument list", self.sp(iv))
        lb = c[2]
        ub = c[3]
        step = 1
        step_span = None
        inits: list = []
        iter_names: list[tuple[str, Span]] = []
        res_types: list = []
        region: RegionSyn | None = None
        for x in c[4:]:
            if isinstance(x, tuple) and x[0] == "step":
                step, step_span = x[1], x[2]
            elif isinstance(x, tuple) and x[0] == "iter":
                for a, asp, init, isp in x[1]:
                    iter_names.append((a, asp))
                    inits.append((init, isp))
                res_types = x[2]
            elif isinstance(x, RegionSyn):
                region = x
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        if len(iter_names) != len(res_types):
            raise _SyntaxIssue("custom op 'affine.for' mismatch between the number of loop-carried values and results", op.name_span)
        (lb_dims, lb_syms), (ub_dims, ub_syms) = lb[2], ub[2]
        lb_ops = lb_dims + lb_syms
        ub_ops = ub_dims + ub_syms
        attrs = op.attrs
        attrs["lower_bound"] = lb[1]
        attrs["upper_bound"] = ub[1]
        attrs["step"] = IntegerAttr(step, INDEX, step_span or op.name_span)
        attrs["__lb_num_dims"] = IntegerAttr(len(lb_dims))
        attrs["__ub_num_dims"] = IntegerAttr(len(ub_dims))
        if lb[4]:
            attrs["__lb_kw"] = StringAttr(lb[4], lb[4])
        if ub[4]:
            attrs["__ub_kw"] = StringAttr(ub[4], ub[4])
        op.operands = lb_ops + ub_ops + inits
        op.segments = (len(lb_ops), len(ub_ops), len(inits))
        op.result_types = list(res_types)
        if region is not None:
            args = [(str(iv), self.sp(iv), INDEX)]
            if iter_names:
                args += [(n, s, t) for (n, s), t in zip(iter_names, res_types + [None] * len(iter_names), strict=False)]
            _set_entry_args(region, args, self.anchor)
            op.regions = [region]
        return op

    def affine_if(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.if")
        op.attrs["condition"] = c[1]
        self._dim_sym(op, c[2])
        op.result_types = []
        for x in c[3:]:
            if isinstance(x, list):
                op.result_types = x
            elif isinstance(x, RegionSyn):
                op.regions.append(x)
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        if len(op.regions) == 1:
            # MLIR always has an else region (possibly empty).
            op.regions.append(RegionSyn(Span(op.span.rel_end, op.span.rel_end, self.anchor), []))
        return op

    def subscripts(self, c: list) -> tuple[AffineMapAttr, list, int]:
        if len(c) == 1 and c[0].type == "SIMPLE_SUBSCRIPTS":
            return self._simple_subscripts(c[0])
        exprs = [x for x in c if isinstance(x, AffineExpr)]
        nd = len(self._ssa_dims)
        ns = len(self._ssa_syms)
        start = c[0] if c and isinstance(c[0], AffineExpr) else None
        end_tok = c[-1]
        sp = Span(_start(start) if start is not None else end_tok.start_pos - 1, end_tok.end_pos, self.anchor)
        m = AffineMap.trusted(nd, ns, exprs, sp)
        operands = self._ssa_operands + self._ssa_sym_operands
        self._reset_ssa()
        return AffineMapAttr(m, None, sp), operands, nd

    def _simple_subscripts(self, tok: Any) -> tuple[AffineMapAttr, list, int]:
        """``[%i, %j, %i]``: what ``ssa_dim`` and ``subscripts`` build for
        it through the general grammar, in one step."""
        anchor = self.anchor
        base = tok.start_pos
        uses, nd = _subscript_layout(str(tok))
        operands: list[tuple[str, Span]] = []
        exprs: list[AffineExpr] = []
        for start, end, pos, first_use in uses:
            s = Span(base + start, base + end, anchor)
            if first_use is not None:
                operands.append((first_use, s))
            exprs.append(AffineDimExpr(pos, s))
        sp = Span(base + uses[0][0], tok.end_pos, anchor)
        return AffineMapAttr(AffineMap.trusted(nd, 0, exprs, sp), None, sp), operands, nd

    def _access(self, op: OpSyn, memref: Token, subs: tuple, value: Token | None = None) -> None:
        amap, operands, nd = subs
        op.attrs["map"] = amap
        ops = []
        if value is not None:
            ops.append((str(value), self.sp(value)))
        ops.append((str(memref), self.sp(memref)))
        op.operands = ops + operands
        op.attrs["__num_dim_operands"] = IntegerAttr(nd)

    def affine_load(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.load")
        self._access(op, c[1], c[2])
        self._trailing(op, c[3:])
        t = op.operand_types[0] if op.operand_types else None
        op.result_types = [t.element if isinstance(t, MemRefType) else None]
        op.operand_types = [t] + [INDEX] * (len(op.operands) - 1)
        return op

    def _trailing(self, op: OpSyn, rest: Sequence[Any]) -> None:
        """Attr dicts and the types after ``:`` of a custom op."""
        types: list[Type] = []
        for x in rest:
            if isinstance(x, DictAttr):
                op.attrs.update(x.entries)
            elif isinstance(x, Type):
                types.append(x)
        op.operand_types = types  # type: ignore[assignment]

    def affine_store(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.store")
        self._access(op, c[2], c[3], value=c[1])
        self._trailing(op, c[4:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [t.element if isinstance(t, MemRefType) else None, t] + [INDEX] * (len(op.operands) - 2)
        op.result_types = []
        return op

    def affine_vector_load(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.vector_load")
        self._access(op, c[1], c[2])
        self._trailing(op, c[3:])
        types = op.operand_types or []
        op.result_types = [types[1] if len(types) > 1 else None]
        op.operand_types = types[:1] + [INDEX] * (len(op.operands) - 1)
        return op

    def affine_vector_store(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.vector_store")
        self._access(op, c[2], c[3], value=c[1])
        self._trailing(op, c[4:])
        types = op.operand_types or []
        # MLIR prints `: memref-type, vector-type`; the value has the vector type.
        op.operand_types = [types[1] if len(types) > 1 else None] + types[:1] + [INDEX] * (len(op.operands) - 2)
        op.result_types = []
        return op

    def affine_yield(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.yield")
        self._simple_operands(op, c[1:])
        op.result_types = []
        return op

    def _simple_operands(self, op: OpSyn, rest: Sequence[Any]) -> None:
        for x in rest:
            if isinstance(x, _Ops):
                op.operands = list(x)
            elif isinstance(x, list) and x and isinstance(x[0], Type):
                op.operand_types = list(x)

    def affine_terminator(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.yield")
        op.result_types = []
        self.note(
            "warning",
            "'affine.terminator' is legacy syntax; the modern form is 'affine.yield'",
            op.name_span,
            code="legacy-terminator",
            data={"replacement": "affine.yield"},
        )
        return op

    def par_bounds(self, c: list) -> tuple[AffineMapAttr, list, list[int], int]:
        groups: list[int] = []
        exprs: list[AffineExpr] = []
        for x in c:
            if isinstance(x, list):
                groups.append(len(x))
                exprs.extend(x)
        first, last = c[0], c[-1]
        sp = self.span_of(first, last)
        m = AffineMap.trusted(len(self._ssa_dims), len(self._ssa_syms), exprs, sp)
        operands = self._ssa_operands + self._ssa_sym_operands
        nd = len(self._ssa_dims)
        self._reset_ssa()
        return AffineMapAttr(m, None, sp), operands, groups, nd

    def par_bound_single(self, c: list) -> list[AffineExpr]:
        return [c[0]]

    def par_bound_group(self, c: list) -> list[AffineExpr]:
        return [x for x in c if isinstance(x, AffineExpr)]

    def par_steps(self, c: list) -> tuple[str, list]:
        return ("steps", [x for x in c if isinstance(x, tuple)])

    def par_reduce(self, c: list) -> tuple[str, list]:
        kinds = [x for x in c if isinstance(x, _TOKENS) and x.type == "STRING"]
        for k in kinds:
            if _unquote(str(k)) not in ATOMIC_RMW_KINDS:
                raise _SyntaxIssue(f"custom op 'affine.parallel' invalid reduction value: {k}", self.sp(k))
        return ("reduce", kinds)

    def affine_parallel(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.parallel")
        ivs: _Ops = next((x for x in c if isinstance(x, _Ops)), _Ops())
        bounds = [x for x in c if isinstance(x, tuple) and len(x) == 4]
        lbs, ubs = bounds[0], bounds[1]
        steps = [1] * len(ivs)
        region = None
        for x in c:
            if isinstance(x, tuple) and x[0] == "steps":
                steps = [v for v, _ in x[1]]
                op.attrs["steps"] = ArrayAttr([IntegerAttr(v, None, s) for v, s in x[1]])
            elif isinstance(x, tuple) and x[0] == "reduce":
                op.attrs["reductions"] = ArrayAttr([StringAttr(_unquote(str(t)), str(t), self.sp(t)) for t in x[1]])
            elif isinstance(x, list) and not isinstance(x, _Ops):
                op.result_types = x
            elif isinstance(x, RegionSyn):
                region = x
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        if "steps" not in op.attrs:
            op.attrs["steps"] = ArrayAttr([IntegerAttr(v) for v in steps])
        if "reductions" not in op.attrs:
            op.attrs["reductions"] = ArrayAttr([])
        if op.result_types is None:
            op.result_types = []
        op.attrs["lowerBoundsMap"] = lbs[0]
        op.attrs["lowerBoundsGroups"] = ArrayAttr([IntegerAttr(g) for g in lbs[2]])
        op.attrs["upperBoundsMap"] = ubs[0]
        op.attrs["upperBoundsGroups"] = ArrayAttr([IntegerAttr(g) for g in ubs[2]])
        op.attrs["__lb_num_dims"] = IntegerAttr(lbs[3])
        op.attrs["__ub_num_dims"] = IntegerAttr(ubs[3])
        op.operands = list(lbs[1]) + list(ubs[1])
        op.segments = (len(lbs[1]), len(ubs[1]))
        if region is not None:
            _set_entry_args(region, [(n, s, INDEX) for n, s in ivs], self.anchor)
            op.regions = [region]
        return op

    def affine_prefetch(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.prefetch")
        self._access(op, c[1], c[2])
        words = [x for x in c[3:] if isinstance(x, _TOKENS) and x.type == "BARE_ID"]
        ints = [x for x in c[3:] if isinstance(x, _TOKENS) and x.type == "INT"]
        rw, _loc_kw, cache = words[0], words[1], words[2]
        op.attrs["isWrite"] = BoolAttr(str(rw) == "write", self.sp(rw))
        op.attrs["localityHint"] = IntegerAttr(int(str(ints[0])), IntegerType(32), self.sp(ints[0]))
        op.attrs["isDataCache"] = BoolAttr(str(cache) == "data", self.sp(cache))
        op.attrs["__rw_word"] = StringAttr(str(rw), str(rw), self.sp(rw))
        op.attrs["__cache_word"] = StringAttr(str(cache), str(cache), self.sp(cache))
        self._trailing(op, c[3:])
        op.result_types = []
        return op

    def affine_dma_start(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.dma_start")
        subs = [x for x in c if isinstance(x, tuple) and len(x) == 3 and isinstance(x[0], AffineMapAttr)]
        ids = [x for x in c if isinstance(x, _TOKENS) and x.type == "SSA_ID"]
        src, dst, tag = ids[0], ids[1], ids[2]
        rest = ids[3:]
        operands: list[tuple[str, Span]] = []
        segs = []
        for name, (amap, sub_ops, nd), key in ((src, subs[0], "src"), (dst, subs[1], "dst"), (tag, subs[2], "tag")):
            operands.append((str(name), self.sp(name)))
            operands.extend(sub_ops)
            op.attrs[f"{key}_map"] = amap
            op.attrs[f"__{key}_num_dims"] = IntegerAttr(nd)
            segs.append(1 + len(sub_ops))
        operands.extend((str(t), self.sp(t)) for t in rest)
        segs.append(len(rest))
        op.operands = operands
        op.segments = tuple(segs)
        self._trailing(op, c[1:])
        # `: src-type, dst-type, tag-type`; map operands and sizes are index.
        types = list(op.operand_types or [])
        if len(types) != 3:
            raise _SyntaxIssue("custom op 'affine.dma_start' expected three types", op.name_span)
        declared: list[Type | None] = []
        for t, n in zip(types, segs[:3], strict=False):
            declared.append(t)
            declared.extend([INDEX] * (n - 1))
        declared.extend([INDEX] * len(rest))
        op.operand_types = declared
        op.result_types = []
        return op

    def affine_dma_wait(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.dma_wait")
        self._access(op, c[1], c[2])
        num: Token = c[3]
        op.operands.append((str(num), self.sp(num)))
        op.attrs["tag_map"] = op.attrs.pop("map")
        self._trailing(op, c[4:])
        op.result_types = []
        return op

    def mixed_list(self, c: list) -> _Mixed:
        out = _Mixed()
        for x in c:
            if isinstance(x, _TOKENS):
                out.append((str(x), self.sp(x)))
            else:
                out.append(x[0])
        return out

    def _mixed(self, op: OpSyn, mixed: _Mixed, key: str) -> list[tuple[str, Span]]:
        static = []
        dyn = []
        for x in mixed:
            if isinstance(x, tuple):
                static.append(None)
                dyn.append(x)
            else:
                static.append(x)
        op.attrs[key] = DenseArrayAttr(IntegerType(64), [(-(2**63) if v is None else v) for v in static])
        return dyn

    def affine_delinearize(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.delinearize_index")
        idx: Token = c[1]
        mixed = next((x for x in c if isinstance(x, _Mixed)), _Mixed())
        dyn = self._mixed(op, mixed, "static_basis")
        op.operands = [(str(idx), self.sp(idx))] + dyn
        op.segments = (1, len(dyn))
        types = next((x for x in c if isinstance(x, list) and not isinstance(x, _Mixed | _Ops)), [])
        for x in c:
            if isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        op.result_types = list(types)
        op.operand_types = None
        return op

    def affine_linearize(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "affine.linearize_index")
        if isinstance(c[1], _TOKENS) and c[1].type == "DISJOINT_KW":
            op.attrs["disjoint"] = UnitAttr(self.sp(c[1]))
        ins: _Ops = next(x for x in c if isinstance(x, _Ops))
        mixed = next((x for x in c if isinstance(x, _Mixed)), _Mixed())
        dyn = self._mixed(op, mixed, "static_basis")
        op.operands = list(ins) + dyn
        op.segments = (len(ins), len(dyn))
        for x in c:
            if isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        op.result_types = [x for x in c if isinstance(x, Type)][-1:]
        return op

    # ------------------------------------------------------------ affine expressions
    def _binary(self, e: AffineExpr, a: AffineExpr, b: AffineExpr) -> AffineExpr:
        """Record the new node's span and depth; expressions deeper than
        MAX_EXPR_DEPTH are refused (every algorithm on them is recursive)."""
        depths = self._depths
        d = max(depths.get(id(a), 0), depths.get(id(b), 0)) + 1
        if d > MAX_EXPR_DEPTH:
            raise _SyntaxIssue(f"affine expression nested too deeply to analyse (more than {MAX_EXPR_DEPTH} levels)", self.span_of(a, b))
        depths[id(e)] = d
        e.span = Span(_start(a), _end(b), self.anchor)
        return e

    def add(self, c: list) -> AffineExpr:
        return self._binary(c[0] + c[-1], c[0], c[-1])

    def sub(self, c: list) -> AffineExpr:
        return self._binary(c[0] - c[-1], c[0], c[-1])

    def mul(self, c: list) -> AffineExpr:
        return self._binary(c[0] * c[-1], c[0], c[-1])

    def floordiv(self, c: list) -> AffineExpr:
        return self._binary(c[0].floordiv(c[-1]), c[0], c[-1])

    def ceildiv(self, c: list) -> AffineExpr:
        return self._binary(c[0].ceildiv(c[-1]), c[0], c[-1])

    def mod(self, c: list) -> AffineExpr:
        return self._binary(c[0].mod(c[-1]), c[0], c[-1])

    def neg(self, c: list) -> AffineExpr:
        e = c[-1]
        r = -e
        d = self._depths.get(id(e), 0) + 2
        if d > MAX_EXPR_DEPTH:
            raise _SyntaxIssue(f"affine expression nested too deeply to analyse (more than {MAX_EXPR_DEPTH} levels)", Span(_start(e) - 1, _end(e), self.anchor))
        self._depths[id(r)] = d
        return _set_span(r, Span(_start(e) - 1, _end(e), self.anchor))

    def aconst(self, c: list) -> AffineExpr:
        return _set_span(constant(int(str(c[0]))), self.sp(c[0]))

    def aparen(self, c: list) -> AffineExpr:
        e = c[1]
        return _set_span(e, self.span_of(c[0], c[2]))

    def aname(self, c: list) -> AffineExpr:
        tok: Token = c[0]
        name = str(tok)
        if name in self._dim_names:
            return _set_span(dim(self._dim_names[name]), self.sp(tok))
        if name in self._sym_names:
            return _set_span(symbol(self._sym_names[name]), self.sp(tok))
        raise _SyntaxIssue(f"use of undeclared identifier '{name}'", self.sp(tok))

    def legacy_div(self, c: list) -> AffineExpr:
        kw = str(c[0])
        a, b = c[2], c[3]
        e = {"floordiv": a.floordiv, "ceildiv": a.ceildiv, "mod": a.mod}[kw](b)
        return _set_span(e, self.span_of(c[0], c[-1]))

    def ssa_dim(self, c: list) -> AffineExpr:
        tok: Token = c[0]
        name = str(tok)
        sp = self.sp(tok)
        pos = self._ssa_dims.get(name)
        if pos is None:
            pos = self._ssa_dims[name] = len(self._ssa_dims)
            self._ssa_operands.append((name, sp))
        return AffineDimExpr(pos, sp)

    def ssa_sym(self, c: list) -> AffineExpr:
        tok: Token = c[1]
        name = str(tok)
        pos = self._ssa_syms.get(name)
        if pos is None:
            pos = self._ssa_syms[name] = len(self._ssa_syms)
            self._ssa_sym_operands.append((name, self.sp(tok)))
        return _set_span(symbol(pos), self.span_of(c[0], c[-1]))

    def dim_decls(self, c: list) -> _Decls:
        names = [x for x in c if isinstance(x, _TOKENS) and x.type == "BARE_ID"]
        self._dim_names = {}
        for i, n in enumerate(names):
            if str(n) in self._dim_names:
                raise _SyntaxIssue("redefinition of identifier '" + str(n) + "'", self.sp(n))
            self._dim_names[str(n)] = i
        self._sym_names = {}
        return _Decls(len(names), self.span_of(c[0], c[-1]))

    def sym_decls(self, c: list) -> tuple[str, int]:
        names = [x for x in c if isinstance(x, _TOKENS) and x.type == "BARE_ID"]
        self._sym_names = {}
        for i, n in enumerate(names):
            if str(n) in self._sym_names or str(n) in self._dim_names:
                raise _SyntaxIssue("redefinition of identifier '" + str(n) + "'", self.sp(n))
            self._sym_names[str(n)] = i
        return ("syms", len(names))

    def _map_parts(self, c: list) -> tuple[int, int, list]:
        nd = c[0].count
        ns = 0
        rest = c[1:]
        if rest and isinstance(rest[0], tuple) and rest[0][0] == "syms":
            ns = rest[0][1]
            rest = rest[1:]
        return nd, ns, rest

    def map_body(self, c: list) -> AffineMap:
        nd, ns, rest = self._map_parts(c)
        exprs = [x for x in rest if isinstance(x, AffineExpr)]
        self._reset_map_names()
        return AffineMap.trusted(nd, ns, exprs, self.span_of(c[0], c[-1]))

    legacy_map_body = map_body

    def set_body(self, c: list) -> IntegerSet:
        nd, ns, rest = self._map_parts(c)
        cons = [x for x in rest if isinstance(x, tuple) and len(x) == 2]
        self._reset_map_names()
        return IntegerSet(nd, ns, [e for e, _ in cons], [eq for _, eq in cons], self.span_of(c[0], c[-1]))

    legacy_set_body = set_body

    def constraint(self, c: list) -> tuple[AffineExpr, bool]:
        lhs, op, rhs = c
        o = str(op)
        sp = self.span_of(lhs, rhs)
        zero = rhs.is_constant() and rhs.value == 0
        if o == ">=":
            e = lhs if zero else lhs - rhs
        elif o == "<=":
            e = -lhs if zero else rhs - lhs
        else:
            e = lhs if zero else lhs - rhs
        return _set_span(e, sp), o == "=="

    def affine_map_lit(self, c: list) -> AffineMapAttr:
        m: AffineMap = c[1]
        sp = self.span_of(c[0], c[-1])
        return AffineMapAttr(AffineMap.trusted(m.num_dims, m.num_symbols, m.results, sp), None, sp)

    def affine_set_lit(self, c: list) -> IntegerSetAttr:
        s: IntegerSet = c[1]
        sp = self.span_of(c[0], c[-1])
        return IntegerSetAttr(IntegerSet(s.num_dims, s.num_symbols, s.constraints, s.eq_flags, sp), None, sp)

    # ------------------------------------------------------------ func
    def func_op(self, c: list) -> OpSyn:
        kw: Token = c[0]
        op = self._op(kw, c, "func.func")
        if str(kw) == "func":
            self.note(
                "warning",
                "'func' is legacy syntax; the modern form is 'func.func'",
                self.sp(kw),
                code="legacy-func",
                data={"replacement": "func.func"},
            )
        self._function_parts(op, c[1:])
        return op

    def _function_parts(self, op: OpSyn, items: Sequence[Any], extra_args: Sequence[tuple] = ()) -> None:
        """The parts of a function-like op (func.func, gpu.func, llvm.func,
        transform.named_sequence): visibility, name, signature, attributes
        and body, whose entry block gets the arguments (then ``extra_args``)."""
        for x in items:
            if isinstance(x, _TOKENS) and x.type == "VISIBILITY":
                op.attrs["sym_visibility"] = StringAttr(str(x), f'"{x}"', self.sp(x))
            elif isinstance(x, _TOKENS) and x.type == "SYMBOL_REF":
                op.attrs["sym_name"] = StringAttr(_unquote(str(x)[1:]), str(x), self.sp(x))
            elif isinstance(x, tuple) and x[0] == "sig":
                _, args, results, arg_attrs, res_attrs, _sp = x
                op.attrs["function_type"] = TypeAttr(FunctionType([t for _, _, t in args], results))
                op.attrs["__args"] = _ArgsHolder(args)
                if any(arg_attrs):
                    op.attrs["arg_attrs"] = ArrayAttr([a or DictAttr({}) for a in arg_attrs])
                if any(res_attrs):
                    op.attrs["res_attrs"] = ArrayAttr([a or DictAttr({}) for a in res_attrs])
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
            elif isinstance(x, RegionSyn):
                args = op.attrs["__args"].args  # type: ignore[attr-defined]
                if (x.blocks and x.blocks[0].label is None) or not x.blocks:
                    _set_entry_args(x, list(args) + list(extra_args), self.anchor)
                op.regions = [x]
        if not op.regions:
            op.regions = []
        op.result_types = []

    def func_signature(self, c: list) -> tuple:
        args: list = []
        arg_attrs: list = []
        results: list[Type] = []
        res_attrs: list = []
        for x in c:
            if isinstance(x, tuple) and x[0] == "args":
                for name, sp, t, a in x[1]:
                    args.append((name, sp, t))
                    arg_attrs.append(a)
            elif isinstance(x, tuple) and x[0] == "results":
                for t, a in x[1]:
                    results.append(t)
                    res_attrs.append(a)
        # The span gives `()` a position when there are no args and no results.
        return ("sig", args, results, arg_attrs, res_attrs, self.span_of(c[0], c[-1]))

    def func_args(self, c: list) -> tuple[str, list]:
        return ("args", c)

    def named_arg(self, c: list) -> tuple:
        attrs = next((x for x in c if isinstance(x, DictAttr)), None)
        return (str(c[0]), self.sp(c[0]), c[2], attrs)

    def anon_arg(self, c: list) -> tuple:
        attrs = next((x for x in c[1:] if isinstance(x, DictAttr)), None)
        return (None, None, c[0], attrs)

    def func_results(self, c: list) -> tuple[str, list]:
        items = [x for x in c if not isinstance(x, _TOKENS)]
        out = []
        for x in items:
            if isinstance(x, tuple):
                out.append(x)
            else:
                out.append((x, None))
        return ("results", out, self.span_of(c[0], c[-1]))  # the span: `-> ()` has no type to take it from

    def func_result(self, c: list) -> tuple:
        return (c[0], c[1] if len(c) > 1 else None)

    def func_return(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "func.return")
        self._simple_operands(op, c[1:])
        op.result_types = []
        return op

    def func_call(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "func.call")
        op.attrs["callee"] = SymbolRefAttr(str(c[1]), self.sp(c[1]))
        for x in c[2:]:
            if isinstance(x, _Ops):
                op.operands = list(x)
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
            elif isinstance(x, FunctionType):
                op.operand_types = list(x.inputs)
                op.result_types = list(x.results)
        return op

    # ------------------------------------------------------------ arith / math
    def arith_constant(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "arith.constant")
        attr: Attribute = c[1]
        op.attrs["value"] = attr
        t = getattr(attr, "type", None)
        if isinstance(attr, BoolAttr):
            t = I1
        # `2.0 : f32`: the attribute's span is the literal; the op ends after its type.
        ts = getattr(t, "span", None)
        if isinstance(ts, Span) and ts.anchor is op.span.anchor and ts.rel_end > op.span.rel_end:
            op.span = Span(op.span.rel_start, ts.rel_end, op.span.anchor)
        op.result_types = [t]
        op.operand_types = []
        return op

    def _flags(self, op: OpSyn, rest: Sequence[Any]) -> None:
        for x in rest:
            if isinstance(x, tuple) and x and x[0] == "flags":
                op.attrs[x[1]] = OpaqueAttr(x[2], None, x[3])

    def enum_kw(self, c: list) -> Token:
        """An enum keyword; written as a string, the keyword it holds (at
        the string's range)."""
        tok: Token = c[0]
        if tok.type == "STRING":
            return Token.new_borrow_pos("BARE_ID", _unquote(str(tok)), tok)
        return tok

    def op_flags(self, c: list) -> tuple:
        kw = str(c[0])
        words = [str(x) for x in c[1:] if isinstance(x, _TOKENS) and x.type == "BARE_ID"]
        key = "overflowFlags" if kw == "overflow" else "fastmath"
        return ("flags", key, f"#arith.{kw}<{','.join(words)}>", self.span_of(c[0], c[-1]))

    def arith_binary(self, c: list) -> OpSyn:
        op = self._op(c[0], c)
        op.operands = [(str(c[1]), self.sp(c[1])), (str(c[2]), self.sp(c[2]))]
        self._flags(op, c)
        self._trailing(op, c[3:])
        types = op.operand_types or []
        t = types[0] if types else None
        op.operand_types = [t, types[1] if len(types) > 1 else t]  # `math.fpowi %x, %n : f32, i32`
        op.result_types = [t]
        return op

    def arith_extended(self, c: list) -> OpSyn:
        """``arith.addui_extended %a, %b : i32, i1`` (sum, overflow) and
        ``arith.mul[su]i_extended %a, %b : i32`` (low, high)."""
        op = self._op(c[0], c)
        op.operands = [(str(c[1]), self.sp(c[1])), (str(c[2]), self.sp(c[2]))]
        self._trailing(op, c[3:])
        types = op.operand_types or []
        t = types[0] if types else None
        op.operand_types = [t, t]
        op.result_types = [t, types[1] if len(types) > 1 else t]
        return op

    def math_sincos(self, c: list) -> OpSyn:
        """``%s, %c = math.sincos %x : f32``: two results of the operand's type."""
        op = self._op(c[0], c, "math.sincos")
        op.operands = [(str(c[1]), self.sp(c[1]))]
        self._flags(op, c)
        self._trailing(op, c[2:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [t]
        op.result_types = [t, t]
        return op

    def math_predicate(self, c: list) -> OpSyn:
        """``math.isnan %x : f32`` (an i1, or a vector of i1, per element)."""
        op = self._op(c[0], c)
        op.operands = [(str(c[1]), self.sp(c[1]))]
        self._flags(op, c)
        self._trailing(op, c[2:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [t]
        op.result_types = [VectorType(t.shape, I1, t.scalable) if isinstance(t, VectorType) else I1]
        return op

    def arith_unary(self, c: list) -> OpSyn:
        op = self._op(c[0], c)
        op.operands = [(str(c[1]), self.sp(c[1]))]
        self._flags(op, c)
        self._trailing(op, c[2:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [t]
        op.result_types = [t]
        return op

    def arith_fma(self, c: list) -> OpSyn:
        op = self._op(c[0], c)
        op.operands = [(str(x), self.sp(x)) for x in c[1:4]]
        self._flags(op, c)
        self._trailing(op, c[4:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [t, t, t]
        op.result_types = [t]
        return op

    def arith_cmp(self, c: list) -> OpSyn:
        op = self._op(c[0], c)
        pred: Token = c[1]
        op.attrs["predicate"] = StringAttr(str(pred), str(pred), self.sp(pred))
        op.operands = [(str(c[2]), self.sp(c[2])), (str(c[3]), self.sp(c[3]))]
        self._flags(op, c)
        self._trailing(op, c[4:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [t, t]
        if isinstance(t, VectorType):
            op.result_types = [VectorType(t.shape, I1, t.scalable)]
        elif isinstance(t, TensorType):
            op.result_types = [TensorType(t.shape, I1)]
        else:
            op.result_types = [I1]
        return op

    def arith_select(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "arith.select")
        op.operands = [(str(x), self.sp(x)) for x in c[1:4]]
        self._trailing(op, c[4:])
        types = op.operand_types or []
        if len(types) == 2:
            cond_t, t = types
        else:
            cond_t, t = I1, (types[0] if types else None)
        op.operand_types = [cond_t, t, t]
        op.result_types = [t]
        return op

    def arith_cast(self, c: list) -> OpSyn:
        op = self._op(c[0], c)
        op.operands = [(str(c[1]), self.sp(c[1]))]
        rest = c[2:]
        if rest and isinstance(rest[0], _TOKENS) and rest[0].type == "BARE_ID":  # `arith.truncf %x to_nearest_even`
            mode = _ROUNDING_MODES.get(str(rest[0]))
            if mode is None:
                raise _SyntaxIssue(
                    f"expected one of [to_nearest_even, downward, upward, toward_zero, to_nearest_away] for rounding mode, got: {rest[0]}", self.sp(rest[0])
                )
            op.attrs["roundingmode"] = IntegerAttr(mode, I32, self.sp(rest[0]))  # an I32EnumAttr
            rest = rest[1:]
        self._flags(op, c)
        self._trailing(op, rest)
        types = op.operand_types or []
        op.operand_types = types[:1]
        op.result_types = types[1:2]
        return op

    # ------------------------------------------------------------ memref
    def memref_alloc(self, c: list) -> OpSyn:
        op = self._op(c[0], c, str(c[0]))
        dyn: list = []
        syms: list = []
        seen_sym = False
        for x in c[1:]:
            if isinstance(x, _TOKENS) and x.type == "LSQB_SYM":
                seen_sym = True
            elif isinstance(x, _Ops):
                if seen_sym:
                    syms = list(x)
                else:
                    dyn = list(x)
        op.operands = dyn + syms
        op.segments = (len(dyn), len(syms))
        self._trailing(op, c[1:])
        op.result_types = list(op.operand_types or [])[:1]
        op.operand_types = None
        return op

    def _one_operand_no_result(self, c: list, name: str) -> OpSyn:
        """``NAME %x {attrs} : type`` (a dealloc, a yield of one value)."""
        op = self._op(c[0], c, name)
        op.operands = [(str(c[1]), self.sp(c[1]))]
        self._trailing(op, c[2:])
        op.result_types = []
        return op

    def _dict_and_signature(self, op: OpSyn, rest: Sequence[Any]) -> None:
        """The attribute dictionary and the trailing function type of ``op``."""
        for x in rest:
            if isinstance(x, DictAttr):
                op.attrs.update(x.entries)
            elif isinstance(x, FunctionType):
                op.operand_types = list(x.inputs)
                op.result_types = list(x.results)

    def memref_dealloc(self, c: list) -> OpSyn:
        return self._one_operand_no_result(c, "memref.dealloc")

    def memref_dim(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.dim")
        op.operands = [(str(c[1]), self.sp(c[1])), (str(c[2]), self.sp(c[2]))]
        self._trailing(op, c[3:])
        op.operand_types = (op.operand_types or [])[:1] + [INDEX]
        op.result_types = [INDEX]
        return op

    def _indexed(self, op: OpSyn, c: list, lead: int) -> None:
        """Ops of the form ``name %a(, %b)* [%i, ...] ...``; ``lead`` SSA ids
        before the bracket."""
        op.operands = [(str(x), self.sp(x)) for x in c[1 : 1 + lead]]
        for x in c[1 + lead :]:
            if isinstance(x, _Ops):
                op.operands.extend(x)
                break

    def memref_load(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.load")
        self._indexed(op, c, 1)
        self._trailing(op, c[2:])
        t = op.operand_types[0] if op.operand_types else None
        op.result_types = [t.element if isinstance(t, MemRefType) else None]
        op.operand_types = [t] + [INDEX] * (len(op.operands) - 1)
        return op

    def memref_store(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.store")
        self._indexed(op, c, 2)
        self._trailing(op, c[3:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [t.element if isinstance(t, MemRefType) else None, t] + [INDEX] * (len(op.operands) - 2)
        op.result_types = []
        return op

    def _cast_like(self, c: list, name: str, nops: int = 1) -> OpSyn:
        op = self._op(c[0], c, name)
        op.operands = [(str(x), self.sp(x)) for x in c[1 : 1 + nops]]
        self._trailing(op, c[1 + nops :])
        types = op.operand_types or []
        op.operand_types = types[:1]
        op.result_types = types[1:2]
        return op

    def memref_cast(self, c: list) -> OpSyn:
        return self._cast_like(c, "memref.cast")

    def memref_copy(self, c: list) -> OpSyn:
        op = self._cast_like(c, "memref.copy", 2)
        op.operand_types = (op.operand_types or []) + (op.result_types or [])
        op.result_types = []
        return op

    def static_list(self, c: list) -> _Mixed:
        return next((x for x in c if isinstance(x, _Mixed)), _Mixed())

    def _offsets_sizes_strides(self, c: list, name: str) -> OpSyn:
        """memref.subview / memref.reinterpret_cast: a source and three
        mixed static/dynamic lists, then ``: type to type``."""
        op = self._op(c[0], c, name)
        lists = [x for x in c if isinstance(x, _Mixed)]
        dyn_all = []
        segs = [1]
        for key, lst in zip(("static_offsets", "static_sizes", "static_strides"), lists, strict=False):
            dyn = self._mixed(op, lst, key)
            dyn_all.extend(dyn)
            segs.append(len(dyn))
        op.operands = [(str(c[1]), self.sp(c[1]))] + dyn_all
        op.segments = tuple(segs)
        self._trailing(op, c[2:])
        types = op.operand_types or []
        op.operand_types = types[:1]
        op.result_types = types[1:2]
        return op

    def memref_subview(self, c: list) -> OpSyn:
        return self._offsets_sizes_strides(c, "memref.subview")

    def memref_view(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.view")
        ids = [(str(c[1]), self.sp(c[1])), (str(c[2]), self.sp(c[2]))]
        sizes = next((x for x in c[3:] if isinstance(x, _Ops)), _Ops())
        op.operands = ids + list(sizes)
        op.segments = (1, 1, len(sizes))
        self._trailing(op, c[3:])
        types = op.operand_types or []
        op.operand_types = types[:1]
        op.result_types = types[1:2]
        return op

    def memref_reinterpret(self, c: list) -> OpSyn:
        return self._offsets_sizes_strides(c, "memref.reinterpret_cast")

    def memref_global(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.global")
        for x in c[1:]:
            if isinstance(x, _TOKENS) and x.type == "SYMBOL_REF":
                op.attrs["sym_name"] = StringAttr(str(x)[1:], str(x), self.sp(x))
            elif isinstance(x, _TOKENS) and x.type == "STRING":
                op.attrs["sym_visibility"] = StringAttr(_unquote(str(x)), str(x), self.sp(x))
            elif isinstance(x, Type):
                op.attrs["type"] = TypeAttr(x)
            elif isinstance(x, DictAttr) and "type" in op.attrs:
                op.attrs.update(x.entries)
            elif isinstance(x, Attribute):
                op.attrs["initial_value"] = x
        op.result_types = []
        return op

    def memref_get_global(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.get_global")
        op.attrs["name"] = SymbolRefAttr(str(c[1]), self.sp(c[1]))
        op.result_types = [c[-1]]
        return op

    def memref_alloca_scope(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "memref.alloca_scope")
        op.result_types = []
        for x in c[1:]:
            if isinstance(x, list):
                op.result_types = x
            elif isinstance(x, RegionSyn):
                op.regions = [x]
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        return op

    # ------------------------------------------------------------ vector
    def vector_transfer_read(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.transfer_read")
        ids = [x for x in c[1:] if isinstance(x, _TOKENS) and x.type == "SSA_ID"]
        idx = next((x for x in c if isinstance(x, _Ops)), _Ops())
        op.operands = [(str(ids[0]), self.sp(ids[0]))] + list(idx) + [(str(x), self.sp(x)) for x in ids[1:]]
        op.segments = (1, len(idx), 1, len(ids) - 2)
        self._trailing(op, c[2:])
        types = op.operand_types or []
        src_t = types[0] if types else None
        elem = getattr(src_t, "element", None)
        op.operand_types = [src_t] + [INDEX] * len(idx) + [elem] + ([None] * (len(ids) - 2))
        op.result_types = types[1:2]
        return op

    def vector_transfer_write(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.transfer_write")
        ids = [x for x in c[1:] if isinstance(x, _TOKENS) and x.type == "SSA_ID"]
        idx = next((x for x in c if isinstance(x, _Ops)), _Ops())
        op.operands = [(str(ids[0]), self.sp(ids[0])), (str(ids[1]), self.sp(ids[1]))] + list(idx)
        op.operands += [(str(x), self.sp(x)) for x in ids[2:]]
        op.segments = (1, 1, len(idx), len(ids) - 2)
        self._trailing(op, c[3:])
        types = op.operand_types or []
        vec_t = types[0] if types else None
        dst_t = types[1] if len(types) > 1 else None
        op.operand_types = [vec_t, dst_t] + [INDEX] * len(idx) + [None] * (len(ids) - 2)
        op.result_types = [dst_t] if isinstance(dst_t, TensorType) else []
        return op

    def vector_broadcast(self, c: list) -> OpSyn:
        return self._cast_like(c, "vector.broadcast")

    def vector_shape_cast(self, c: list) -> OpSyn:
        return self._cast_like(c, "vector.shape_cast")

    def vector_reduction(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.reduction")
        kind: Token = c[1]
        op.attrs["kind"] = OpaqueAttr(f"#vector.kind<{kind}>", None, self.sp(kind))
        ids = [x for x in c[2:] if isinstance(x, _TOKENS) and x.type == "SSA_ID"]
        op.operands = [(str(x), self.sp(x)) for x in ids]
        self._flags(op, c)
        self._trailing(op, c[2:])
        types = op.operand_types or []
        vec_t = types[0] if types else None
        res_t = types[1] if len(types) > 1 else None
        op.operand_types = [vec_t] + [res_t] * (len(ids) - 1)
        op.result_types = [res_t]
        return op

    def vector_splat(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.splat")
        op.operands = [(str(c[1]), self.sp(c[1]))]
        self._trailing(op, c[2:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [getattr(t, "element", None)]
        op.result_types = [t]
        return op

    def vector_load(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.load")
        self._indexed(op, c, 1)
        self._trailing(op, c[2:])
        types = op.operand_types or []
        op.operand_types = types[:1] + [INDEX] * (len(op.operands) - 1)
        op.result_types = types[1:2]
        return op

    def vector_store(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.store")
        self._indexed(op, c, 2)
        self._trailing(op, c[3:])
        types = op.operand_types or []
        op.operand_types = types[1:2] + types[:1] + [INDEX] * (len(op.operands) - 2)
        op.result_types = []
        return op

    def vector_create_mask(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.create_mask")
        op.operands = list(c[1])
        self._trailing(op, c[2:])
        op.result_types = list(op.operand_types or [])[:1]
        op.operand_types = [INDEX] * len(op.operands)
        return op

    def vector_constant_mask(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.constant_mask")
        mixed = next(x for x in c if isinstance(x, _Mixed))
        op.attrs["mask_dim_sizes"] = DenseArrayAttr(IntegerType(64), [x for x in mixed if isinstance(x, int)])
        self._trailing(op, c[2:])
        op.result_types = list(op.operand_types or [])[:1]
        op.operand_types = []
        return op

    def vector_maskedload(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.maskedload")
        ids = [x for x in c[1:] if isinstance(x, _TOKENS) and x.type == "SSA_ID"]
        idx = next((x for x in c if isinstance(x, _Ops)), _Ops())
        op.operands = [(str(ids[0]), self.sp(ids[0]))] + list(idx) + [(str(x), self.sp(x)) for x in ids[1:]]
        self._trailing(op, c[2:])
        types = op.operand_types or []
        op.operand_types = types[:1] + [INDEX] * len(idx) + types[1:3]
        op.result_types = types[3:4]
        return op

    def vector_maskedstore(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.maskedstore")
        ids = [x for x in c[1:] if isinstance(x, _TOKENS) and x.type == "SSA_ID"]
        idx = next((x for x in c if isinstance(x, _Ops)), _Ops())
        op.operands = [(str(ids[0]), self.sp(ids[0]))] + list(idx) + [(str(x), self.sp(x)) for x in ids[1:]]
        self._trailing(op, c[2:])
        types = op.operand_types or []
        op.operand_types = types[:1] + [INDEX] * len(idx) + types[1:3]
        op.result_types = []
        return op

    def vector_extract(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.extract")
        mixed = next(x for x in c if isinstance(x, _Mixed))
        dyn = self._mixed(op, mixed, "static_position")
        op.operands = [(str(c[1]), self.sp(c[1]))] + dyn
        self._trailing(op, c[2:])
        types = op.operand_types or []
        op.operand_types = types[1:2] + [INDEX] * len(dyn)
        op.result_types = types[:1]
        return op

    def vector_insert(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.insert")
        mixed = next(x for x in c if isinstance(x, _Mixed))
        dyn = self._mixed(op, mixed, "static_position")
        op.operands = [(str(c[1]), self.sp(c[1])), (str(c[2]), self.sp(c[2]))] + dyn
        self._trailing(op, c[3:])
        types = op.operand_types or []
        op.operand_types = types[:2] + [INDEX] * len(dyn)
        op.result_types = types[1:2]
        return op

    def vector_print(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.print")
        if len(c) > 1 and isinstance(c[1], _TOKENS) and c[1].type == "SSA_ID":
            op.operands = [(str(c[1]), self.sp(c[1]))]
            self._trailing(op, c[2:])
        else:
            op.attrs["stringLiteral"] = StringAttr(_unquote(str(c[-1])), str(c[-1]), self.sp(c[-1]))
        op.result_types = []
        return op

    def vector_fma(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "vector.fma")
        op.operands = [(str(x), self.sp(x)) for x in c[1:4]]
        self._trailing(op, c[4:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [t, t, t]
        op.result_types = [t]
        return op

    # ------------------------------------------------------------ scf
    def scf_for(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "scf.for")
        ids = [x for x in c[1:] if isinstance(x, _TOKENS) and x.type == "SSA_ID"]
        iv, lb, ub, st = ids[:4]
        iv_type: Type = INDEX
        iter_names: list = []
        inits: list = []
        res_types: list = []
        for x in c[1:]:
            if isinstance(x, tuple) and x[0] == "iter":
                for a, asp, init, isp in x[1]:
                    iter_names.append((a, asp))
                    inits.append((init, isp))
                res_types = x[2]
            elif isinstance(x, Type):
                iv_type = x
            elif isinstance(x, RegionSyn):
                _set_entry_args(x, [(str(iv), self.sp(iv), iv_type)] + [(n, s, t) for (n, s), t in zip(iter_names, res_types, strict=False)], self.anchor)
                op.regions = [x]
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        op.operands = [(str(t), self.sp(t)) for t in (lb, ub, st)] + inits
        op.operand_types = [iv_type] * 3 + list(res_types)
        op.result_types = list(res_types)
        return op

    def scf_if(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "scf.if")
        op.operands = [(str(c[1]), self.sp(c[1]))]
        op.operand_types = [I1]
        op.result_types = []
        for x in c[2:]:
            if isinstance(x, list):
                op.result_types = x
            elif isinstance(x, RegionSyn):
                op.regions.append(x)
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        if len(op.regions) == 1:
            op.regions.append(RegionSyn(Span(op.span.rel_end, op.span.rel_end, self.anchor), []))
        return op

    def scf_yield(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "scf.yield")
        self._simple_operands(op, c[1:])
        op.result_types = []
        return op

    def scf_parallel(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "scf.parallel")
        lists = [x for x in c if isinstance(x, _Ops)]
        ivs = lists[0]
        rest = lists[1:]
        op.operands = [o for lst in rest for o in lst]
        op.segments = tuple(len(lst) for lst in rest) + ((0,) if len(rest) == 3 else ())
        op.result_types = []
        for x in c:
            if isinstance(x, list) and not isinstance(x, _Ops):
                op.result_types = x
            elif isinstance(x, RegionSyn):
                _set_entry_args(x, [(n, s, INDEX) for n, s in ivs], self.anchor)
                op.regions = [x]
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        return op

    def scf_reduce(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "scf.reduce")
        for x in c[1:]:
            if isinstance(x, _Ops):
                op.operands = list(x)
            elif isinstance(x, list) and x and isinstance(x[0], RegionSyn):
                op.regions = x
            elif isinstance(x, list):
                op.operand_types = x
        op.result_types = []
        return op

    def reduce_regions(self, c: list) -> list[RegionSyn]:
        return c

    def scf_reduce_return(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "scf.reduce.return")
        op.operands = [(str(c[1]), self.sp(c[1]))]
        op.operand_types = [c[-1]]
        op.result_types = []
        return op

    # ------------------------------------------------------------ cf
    def cf_br(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "cf.br")
        op.successors = [c[1]]
        op.result_types = []
        return op

    def cf_cond_br(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "cf.cond_br")
        op.operands = [(str(c[1]), self.sp(c[1]))]
        op.operand_types = [I1]
        # (`weights([...])` is parsed and not kept: the printer's generic form
        # of cf.cond_br has no operandSegmentSizes, which MLIR then requires.)
        op.successors = [x for x in c[2:] if isinstance(x, SuccSyn)]
        # The condition, then each successor's operands (MLIR's AttrSizedOperandSegments).
        op.segments = (1, *(len(x.operands) for x in op.successors))
        op.result_types = []
        return op

    def branch_weights(self, c: list) -> tuple[str]:
        return ("weights",)

    # ------------------------------------------------------------ misc
    def ub_poison(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "ub.poison")
        self._trailing(op, c[1:])
        op.result_types = list(op.operand_types or [])[:1]
        op.operand_types = []
        return op

    def tensor_empty(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "tensor.empty")
        op.operands = list(next((x for x in c if isinstance(x, _Ops)), []))
        self._trailing(op, c[1:])
        op.result_types = list(op.operand_types or [])[:1]
        op.operand_types = [INDEX] * len(op.operands)
        return op

    def tensor_dim(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "tensor.dim")
        op.operands = [(str(c[1]), self.sp(c[1])), (str(c[2]), self.sp(c[2]))]
        self._trailing(op, c[3:])
        op.operand_types = (op.operand_types or [])[:1] + [INDEX]
        op.result_types = [INDEX]
        return op

    def tensor_extract(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "tensor.extract")
        self._indexed(op, c, 1)
        self._trailing(op, c[2:])
        t = op.operand_types[0] if op.operand_types else None
        op.result_types = [getattr(t, "element", None)]
        op.operand_types = [t] + [INDEX] * (len(op.operands) - 1)
        return op

    def tensor_insert(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "tensor.insert")
        self._indexed(op, c, 2)
        self._trailing(op, c[3:])
        t = op.operand_types[0] if op.operand_types else None
        op.operand_types = [getattr(t, "element", None), t] + [INDEX] * (len(op.operands) - 2)
        op.result_types = [t]
        return op

    def unrealized_cast(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "builtin.unrealized_conversion_cast")
        op.operands = list(next((x for x in c if isinstance(x, _Ops)), []))
        lists = [x for x in c if isinstance(x, list) and not isinstance(x, _Ops)]
        op.result_types = list(lists[-1])
        op.operand_types = list(lists[0]) if len(lists) == 2 else None  # `%x : i64 to index`
        if isinstance(c[-1], DictAttr):
            op.attrs.update(c[-1].entries)
        return op

    # ------------------------------------------------------------ lists
    def operand_list(self, c: list) -> _Ops:
        return _Ops((str(t), self.sp(t)) for t in c)

    ssa_id_list = operand_list

    def type_list(self, c: list) -> list[Type]:
        return list(c)

    def result_types(self, c: list) -> list[Type]:
        return _TypeList([x for x in c if isinstance(x, Type)], self.span_of(c[0], c[-1]))

    # ------------------------------------------------------------ types
    def _ts(self, t: Type, c: list) -> Type:
        t.span = self.span_of(c[0], c[-1])
        return t

    def index_type(self, c: list) -> Type:
        return self._ts(IndexType(), c)

    def int_type(self, c: list) -> Type:
        s = str(c[0])
        sign = s[0] if s[0] in "su" else ""
        return self._ts(IntegerType(int(s[len(sign) + 1 :]), sign), c)

    def float_type(self, c: list) -> Type:
        t = FloatType(str(c[0]))
        t.span = self.sp(c[0])
        return t

    def none_type(self, c: list) -> Type:
        return self._ts(NoneType(), c)

    def complex_type(self, c: list) -> Type:
        return self._ts(ComplexType(c[1]), c)

    def tuple_type(self, c: list) -> Type:
        return self._ts(TupleType([x for x in c if isinstance(x, Type)]), c)

    def dialect_type(self, c: list) -> Type:
        return self._ts(OpaqueType(str(c[0])), c)

    def alias_type(self, c: list) -> Type:
        if "." in str(c[0]):  # `!gpu.async.token`: a dialect type (alias names have no '.')
            return self.dialect_type(c)
        return AliasType(str(c[0]), self.sp(c[0]))

    def _shape(self, tok: Any) -> tuple[list[int | None], list[bool]]:
        if tok is None:
            return [], []
        shape: list[int | None] = []
        scal: list[bool] = []
        for part in str(tok).replace(" ", "").replace("\t", "").split("x")[:-1]:
            if part == "?":
                shape.append(None)
                scal.append(False)
            elif part.startswith("["):
                shape.append(int(part[1:-1]))
                scal.append(True)
            else:
                shape.append(int(part))
                scal.append(False)
        return shape, scal

    def shaped_type(self, c: list) -> Type:
        tok = c[0]
        text = str(tok)
        parts = _SHAPED_CACHE.get(text)
        if parts is None:
            m = _SHAPED_RE.fullmatch(text)
            assert m is not None
            shape, scal = self._shape(m.group(2) or None)
            elem = _scalar_from_text(m.group(5))
            ms = m.group(6)
            kind = m.group(1)
            memspace = ms[1:].strip() if ms else None
            if memspace is not None and int(memspace) == 0:
                memspace = None  # memory space 0 is the default one (MLIR drops it)
            proto = _make_shaped(kind, shape, scal, elem, memspace)
            parts = _SHAPED_CACHE[text] = (kind, shape, scal, elem, memspace, proto.text())
        kind, shape, scal, elem, ms, printed = parts
        t = _make_shaped(kind, shape, scal, elem, ms)
        t._text = printed  # printed once per distinct spelling
        t.span = self.sp(tok)
        return t

    def memref_type(self, c: list) -> Type:
        dims = c[1] if isinstance(c[1], _TOKENS) and c[1].type == "DIMS" else None
        rest = c[2:] if dims is not None else c[1:]
        elem = rest[0]
        shape, _ = self._shape(dims)
        layout = None
        layout_text = None
        memspace = None
        for x in rest[1:]:
            if isinstance(x, _TOKENS):
                continue
            if isinstance(x, AffineMapAttr):
                layout = x.map
            elif isinstance(x, AliasRef):
                layout_text = x.name
                x.kind = "layout"
                if layout_text is not None and memspace is None and layout is None:
                    pass
            elif isinstance(x, OpaqueAttr) and x.spelling.startswith("strided"):
                layout_text = x.spelling
            elif layout is None and layout_text is None and not isinstance(x, IntegerAttr | OpaqueAttr | StringAttr):
                layout_text = str(x)
            elif not (isinstance(x, IntegerAttr) and x.value == 0):  # memory space 0 is the default one (MLIR drops it)
                memspace = str(x)
        t = MemRefType(shape, elem, layout, layout_text, memspace)
        t.span = self.span_of(c[0], c[-1])
        aliases = [x for x in rest[1:] if isinstance(x, AliasRef)]
        if aliases:
            t._alias_refs = aliases  # type: ignore[attr-defined]
        return t

    def unranked_memref_type(self, c: list) -> Type:
        elem_text = str(c[1])
        elem = _scalar_from_text(elem_text[1:]) if elem_text.startswith("x") else OpaqueType(elem_text)
        ms = None
        for x in c[4:]:
            if isinstance(x, Attribute):
                ms = str(x)
        return self._ts(UnrankedMemRefType(elem, ms), c)

    def vector_type(self, c: list) -> Type:
        dims = c[1] if isinstance(c[1], _TOKENS) and c[1].type == "DIMS" else None
        elem = c[2] if dims is not None else c[1]
        shape, scal = self._shape(dims)
        return self._ts(VectorType([d or 0 for d in shape], elem, scal), c)

    def tensor_type(self, c: list) -> Type:
        dims = c[1] if isinstance(c[1], _TOKENS) and c[1].type == "DIMS" else None
        rest = c[2:] if dims is not None else c[1:]
        shape, _ = self._shape(dims)
        enc = str(rest[1]) if len(rest) > 1 and isinstance(rest[1], Attribute) else None
        return self._ts(TensorType(shape, rest[0], enc), c)

    def unranked_tensor_type(self, c: list) -> Type:
        elem_text = str(c[1])
        return self._ts(UnrankedTensorType(_scalar_from_text(elem_text[1:]) if elem_text.startswith("x") else OpaqueType(elem_text)), c)

    def function_type(self, c: list) -> FunctionType:
        ins = []
        i = 1
        while not (isinstance(c[i], _TOKENS) and c[i].type == "RP"):
            if isinstance(c[i], Type):
                ins.append(c[i])
            i += 1
        res = c[-1]
        t = FunctionType(ins, res) if isinstance(res, list) else FunctionType(ins, [res])
        t.span = self.span_of(c[0], res)
        return t

    def single_result(self, c: list) -> list[Type]:
        return _TypeList([c[1]], self.span_of(c[0], c[-1]))

    def empty_results(self, c: list) -> list[Type]:
        return _TypeList([], self.span_of(c[0], c[-1]))

    def multi_results(self, c: list) -> list[Type]:
        return _TypeList([x for x in c if isinstance(x, Type)], self.span_of(c[0], c[-1]))

    # ------------------------------------------------------------ attributes
    def attr_dict(self, c: list) -> DictAttr:
        entries = {}
        for x in c:
            if isinstance(x, tuple):
                entries[x[0]] = x[1]
        return DictAttr(entries, self.span_of(c[0], c[-1]))

    def attr_entry(self, c: list) -> tuple[str, Attribute]:
        key = str(c[0])
        if c[0].type == "STRING":
            key = _unquote(key)
        if len(c) == 1:
            return key, UnitAttr(self.sp(c[0]))
        return key, c[1]

    def _typed(self, c: list) -> Type | None:
        return c[-1] if len(c) >= 2 and isinstance(c[-1], Type) else None

    def int_attr(self, c: list) -> Attribute:
        v, sp = c[0]
        return IntegerAttr(v, self._typed(c), sp)

    def float_attr(self, c: list) -> Attribute:
        v, text, sp = c[0]
        return FloatAttr(v, text, self._typed(c), sp)

    def hex_attr(self, c: list) -> Attribute:
        t = self._typed(c)
        if isinstance(t, FloatType):
            return FloatAttr(_hex_float(int(str(c[0]), 16), t.kind), str(c[0]), t, self.sp(c[0]))
        return IntegerAttr(int(str(c[0]), 16), t, self.sp(c[0]))

    def string_attr(self, c: list) -> Attribute:
        a = StringAttr(_unquote(str(c[0])), str(c[0]), self.sp(c[0]))
        t = self._typed(c)
        if t is not None:
            return OpaqueAttr(str(c[0]), t, self.sp(c[0]))
        return a

    def true_attr(self, c: list) -> Attribute:
        return BoolAttr(True, self.sp(c[0]))

    def false_attr(self, c: list) -> Attribute:
        return BoolAttr(False, self.sp(c[0]))

    def unit_attr(self, c: list) -> Attribute:
        return UnitAttr(self.sp(c[0]))

    def array_attr(self, c: list) -> Attribute:
        return ArrayAttr(
            [x for x in c if isinstance(x, Attribute)],
            self.span_of(c[0], c[-1]) if c and isinstance(c[0], _TOKENS) else Span(_start(c[-1]) - 1, _end(c[-1]), self.anchor),
        )

    def type_attr(self, c: list) -> Attribute:
        return TypeAttr(c[0])

    def symbol_ref_attr(self, c: list) -> Attribute:
        return SymbolRefAttr(str(c[0]), self.sp(c[0]))

    def alias_attr(self, c: list) -> Attribute:
        return AliasRef(str(c[0]), "any", self.sp(c[0]), self._typed(c))

    def dialect_attr(self, c: list) -> Attribute:
        return OpaqueAttr(str(c[0]), self._typed(c), self.sp(c[0]))

    def dense_attr(self, c: list) -> Attribute:
        body = next((x for x in c if isinstance(x, tuple) and x and x[0] == "dense"), None)
        text = "dense<" + (body[1] if body else "") + ">"
        t = self._typed(c)
        return OpaqueAttr(text, t, self.span_of(c[0], c[-1]))

    def dense_body(self, c: list) -> tuple[str, str]:
        return ("dense", _dense_text(c[0]))

    def dense_list(self, c: list) -> list:
        return [x for x in c if not (isinstance(x, _TOKENS) and x.type in ("RSQB",))]

    def dense_complex(self, c: list) -> tuple:
        return ("complex", c[1], c[2])

    def dense_resource_attr(self, c: list) -> Attribute:
        name = next(x for x in c if isinstance(x, _TOKENS) and x.type == "BARE_ID")
        return OpaqueAttr(f"dense_resource<{name}>", self._typed(c), self.span_of(c[0], c[-1]))

    def dense_array_attr(self, c: list) -> Attribute:
        t: Type = c[2]
        items = next((x for x in c if isinstance(x, list)), [])
        return DenseArrayAttr(t, items, self.span_of(c[0], c[-1]))

    def dense_array_items(self, c: list) -> list:
        out = []
        for x in c:
            if (isinstance(x, tuple) and len(x) == 2) or isinstance(x, tuple):
                out.append(x[0])
            elif isinstance(x, _TOKENS):
                out.append(1 if str(x) == "true" else 0)
        return out

    def strided_attr(self, c: list) -> Attribute:
        return OpaqueAttr(_strided_text(c), None, self.span_of(c[0], c[-1]))

    def mixed_strided(self, c: list) -> list:
        return c

    def loc_attr(self, c: list) -> Attribute:
        return OpaqueAttr(str(c[0]), None, self.sp(c[0]))


class _Decls:
    """The ``(d0, d1)`` list of a map: how many, and where."""

    __slots__ = ("count", "span")

    def __init__(self, count: int, span: Span) -> None:
        self.count = count
        self.span = span


class _DimSym(tuple):
    """(dims, symbols) operand lists of a map use, with the span of both."""

    span: Span

    def __new__(cls, parts: tuple, span: Span) -> _DimSym:
        obj = super().__new__(cls, parts)
        obj.span = span
        return obj


class _TypeList(list):
    """A parenthesised list of types that remembers its span."""

    def __init__(self, items: list, span: Span) -> None:
        super().__init__(items)
        self.span = span


class _ArgsHolder(Attribute):
    """Internal: function argument names (name, span, type) for the builder."""

    __slots__ = ("args",)

    def __init__(self, args: list) -> None:
        super().__init__()
        self.args = args

    def __str__(self) -> str:
        return "<args>"


class _SyntaxIssue(Exception):
    def __init__(self, message: str, span: Span) -> None:
        super().__init__(message)
        self.message = message
        self.span = span


def _start(x: Any) -> int:
    if type(x) in _TOKEN_TYPES or isinstance(x, _TOKENS):
        return x.start_pos
    sp = getattr(x, "span", None)
    if isinstance(sp, Span):
        return sp.rel_start
    if isinstance(x, Span):
        return x.rel_start
    if isinstance(x, tuple | list):
        for y in x:
            try:
                return _start(y)
            except TypeError:
                continue
    raise TypeError(f"no position for {x!r}")


def _end(x: Any) -> int:
    if type(x) in _TOKEN_TYPES or isinstance(x, _TOKENS):
        return x.end_pos
    sp = getattr(x, "span", None)
    if isinstance(sp, Span):
        return sp.rel_end
    if isinstance(x, Span):
        return x.rel_end
    if isinstance(x, tuple | list):
        for y in reversed(x):
            try:
                return _end(y)
            except TypeError:
                continue
    raise TypeError(f"no position for {x!r}")


@lru_cache(maxsize=4096)
def _subscript_layout(text: str) -> tuple[tuple[tuple[int, int, int, str | None], ...], int]:
    """The SSA names of a SIMPLE_SUBSCRIPTS token ``[%i, %j, %i]``: per use,
    its offsets in the token, its dimension position (by first appearance)
    and, at its first use, the name (an operand); and the number of dims."""
    dims: dict[str, int] = {}
    uses = []
    for m in _SSA_NAME_RE.finditer(text, 1):
        name = m.group()
        pos = dims.get(name)
        if pos is None:  # first use: an operand
            pos = dims[name] = len(dims)
            uses.append((m.start(), m.end(), pos, name))
        else:
            uses.append((m.start(), m.end(), pos, None))
    return tuple(uses), len(dims)


def _set_span(e: AffineExpr, sp: Span) -> AffineExpr:
    e.span = sp
    return e


def _make_shaped(kind: str, shape: list, scal: list, elem: Type, memspace: str | None) -> Type:
    if kind == "memref":
        return MemRefType(shape, elem, None, None, memspace)
    if kind == "vector":
        return VectorType([d or 0 for d in shape], elem, scal)
    return TensorType(shape, elem, memspace)


def _scalar_from_text(s: str) -> Type:
    if s == "index":
        return INDEX
    m = re.fullmatch(r"([su]?)i([0-9]+)", s)
    if m:
        return IntegerType(int(m.group(2)), m.group(1))
    if re.fullmatch(r"bf16|f16|tf32|f32|f64|f80|f128", s):
        return FloatType(s)
    return OpaqueType(s)


def _dense_text(x: Any) -> str:
    if isinstance(x, _TOKENS):
        return str(x)
    if isinstance(x, list):
        return "[" + ", ".join(_dense_text(y) for y in x) + "]"
    if isinstance(x, tuple) and x and x[0] == "complex":
        return f"({_dense_text(x[1])}, {_dense_text(x[2])})"
    if isinstance(x, tuple) and len(x) == 2:
        return str(x[0])
    if isinstance(x, tuple) and len(x) == 3:
        return x[1]
    return str(x)


def _strided_text(c: list) -> str:
    def one(x: Any) -> str:
        return str(x[0]) if isinstance(x, tuple) else "?"

    items = next((x for x in c if isinstance(x, list)), [])
    strides = ", ".join(one(x) for x in items)
    # The offset, if any, follows the `]` of the strides.
    after = False
    offset = ""
    for x in c:
        if isinstance(x, _TOKENS) and x.type == "RSQB":
            after = True
        elif after and (isinstance(x, tuple) or (isinstance(x, _TOKENS) and x.type == "QMARK")):
            offset = ", offset: " + one(x)
    return f"strided<[{strides}]{offset}>"


def _hex_float(bits: int, kind: str) -> float:
    """The value of a float written as its bit pattern (``0x7F800000 : f32``
    is +inf); NaN for formats Python cannot decode (f80, f128, f8...)."""
    fmt = {"f16": ("<H", "<e"), "f32": ("<I", "<f"), "f64": ("<Q", "<d")}.get(kind)
    try:
        if fmt is not None:
            return float(struct.unpack(fmt[1], struct.pack(fmt[0], bits))[0])
        if kind == "bf16":
            return float(struct.unpack("<f", struct.pack("<I", bits << 16))[0])
    except struct.error:  # more bits than the format has
        pass
    return float("nan")


SOUP_EQ = "="  # an `=` inside the brackets of a soup (grammar rule soup_eq)


def _collect_soup(items: Sequence[Any], names: list, regions: list, anchor: Anchor, defs: list) -> None:
    """The SSA names (``names``; ``defs`` for those followed by ``=``
    inside brackets) and the regions of an unknown op's soup."""
    for i, x in enumerate(items):
        if isinstance(x, _TOKENS):
            if x.type == "SSA_ID":
                sp = Span(x.start_pos, x.end_pos, anchor)
                nxt = items[i + 1] if i + 1 < len(items) else None
                if nxt is SOUP_EQ:
                    defs.append((str(x), sp, None))
                else:
                    names.append((str(x), sp))
        elif isinstance(x, RegionSyn):
            regions.append(x)
        elif isinstance(x, list) and x and x[0] == "soup":
            _collect_soup(x[1], names, regions, anchor, defs)


# ---------------------------------------------------------------- driver


@lru_cache(maxsize=1)
def grammar_path() -> Path:
    """``mlir.lark``; the family grammars it ``%import``s (``scf.lark``,
    ``gpu.lark``, ...) sit next to it and are found relative to it, so lark
    must be given this path as ``source_path``."""
    for p in (GRAMMAR_PATH, _PACKAGED_GRAMMAR):
        if p.exists():
            return p
    raise FileNotFoundError("grammar/mlir.lark not found")


@lru_cache(maxsize=1)
def _grammar_text() -> str:
    return grammar_path().read_text()


def grammar_texts() -> list[str]:
    """The text of ``mlir.lark`` and of every family grammar beside it."""
    main = grammar_path()
    return [main.read_text()] + [p.read_text() for p in sorted(main.parent.glob("*.lark")) if p != main]


class _ParserHolder:
    parser: Lark | None = None
    transformer: ChunkTransformer | None = None
    driver: LalrDriver | None = None


_HOLDER = _ParserHolder()


def _make_parser(transformer: ChunkTransformer, lexer: str | None = None, engine: str | None = None, compiled: bool | None = None) -> Lark:
    """The LALR parser. ``lexer``: ``fast`` (ours, default) or ``contextual``
    (lark's); ``engine``: ``cython`` (lark-cython, default when installed)
    or ``python``; ``compiled``: reduce actions compiled by
    :mod:`.reductions` (default) or lark's wrapper chain. All three can be
    forced with AFFINE_LSP_LEXER/AFFINE_LSP_ENGINE/AFFINE_LSP_REDUCTIONS
    (the benchmark compares them)."""
    lexer = lexer or os.environ.get("AFFINE_LSP_LEXER", "fast")
    engine = engine or os.environ.get("AFFINE_LSP_ENGINE", "cython")
    # lark stores the LALR tables in the temp folder (1.8 s to build), in
    # the compact form of .table_cache (lark's own form peaks at 95 MB to
    # load), and checks the hash of the grammar and options stored in it.
    kwargs: dict[str, Any] = dict(parser="lalr", start="start", transformer=transformer, source_path=str(grammar_path()))
    cython = False
    if engine == "cython":
        try:
            import lark_cython

            kwargs["_plugins"] = lark_cython.plugins
            cython = True
        except ImportError:  # pragma: no cover - optional speed-up
            pass
    kwargs["lexer"] = lexer_class(cython) if lexer == "fast" else "contextual"
    options = repr(sorted((k, str(v)) for k, v in kwargs.items() if k not in ("transformer", "_plugins")))
    with compact_tables():
        p = Lark(_grammar_text(), cache=cache_path(grammar_texts(), options), **kwargs)
    if compiled is None:
        compiled = os.environ.get("AFFINE_LSP_REDUCTIONS", "compiled") == "compiled"
    if compiled:
        compile_reductions(p, transformer)
    if lexer == "fast":
        frontend = p.parser
        frontend.lexer.bind(frontend.parser._parse_table.states)  # type: ignore[union-attr]
        if cython:
            # lark-cython's loop reads tokens from a generator of ours.
            frontend._make_lexer_thread = lambda text, _lexer=frontend.lexer: TokenStream(_lexer, text)  # type: ignore[method-assign]
    return p


_PARSER_LOCK = threading.Lock()


def get_parser() -> tuple[Lark, ChunkTransformer]:
    """One parser instance per process; the transformer is re-armed per parse.
    Built once, under a lock: the server's threads may ask at the same time
    (and lark's table format is switched for the build, see .table_cache)."""
    if _HOLDER.parser is None:
        with _PARSER_LOCK:
            if _HOLDER.parser is None:
                t = ChunkTransformer(Anchor(0))
                p = _make_parser(t)
                _HOLDER.driver = _make_driver(p)
                _HOLDER.transformer = t
                _HOLDER.parser = p
    assert _HOLDER.transformer is not None
    return _HOLDER.parser, _HOLDER.transformer


def _make_driver(parser: Lark, driver: str | None = None) -> LalrDriver | None:
    """Our LALR loop (:mod:`.driver`) over ``parser``'s tables, unless
    ``driver`` (or AFFINE_LSP_DRIVER) is ``lark`` or the parser does not
    use our lexer and compiled reduce actions."""
    driver = driver or os.environ.get("AFFINE_LSP_DRIVER", "ours")
    lexer = parser.parser.lexer  # type: ignore[union-attr]
    compiled = all(isinstance(k, str | ReduceRule) for k in parser._callbacks)  # type: ignore[attr-defined]
    if driver == "lark" or not isinstance(lexer, _FastLexing) or not compiled:
        return None
    return LalrDriver(parser)


def _arm(tr: ChunkTransformer, anchor: Anchor) -> None:
    tr.anchor = anchor
    tr.notes = []
    tr._reset_map_names()
    tr._reset_ssa()
    tr._reset_depths()


class ParseResult:
    __slots__ = ("item", "notes")

    def __init__(self, item: Item | None, notes: list[Note]) -> None:
        self.item = item
        self.notes = notes


_ROUNDING_MODES = {"to_nearest_even": 0, "downward": 1, "upward": 2, "toward_zero": 3, "to_nearest_away": 4}

# Ops of these dialects whose form the grammar does not know (an attribute
# or keyword it has no rule for) are skipped like ops of unknown dialects,
# never a syntax error: their grammars cover the common forms, and a false
# error on valid code costs more than a missed one. The affine, func, arith,
# math, memref, scf and cf grammars are complete: their errors stay errors.
_SOFT_DIALECT_OP = re.compile(r"(?<![\w.$%#!^@\"])(?:gpu|llvm|linalg|tensor|bufferization|transform|vector|async|nvvm|rocdl|spirv)\.[A-Za-z0-9_$.]+")
# ... except the ops of those dialects that affine code is made of (what the
# vectorizer writes, the tensor ops of the original grammar): their errors stay.
_STRICT_OPS = frozenset(
    "vector." + n
    for n in (
        "transfer_read",
        "transfer_write",
        "broadcast",
        "reduction",
        "splat",
        "load",
        "store",
        "create_mask",
        "constant_mask",
        "maskedload",
        "maskedstore",
        "extract",
        "insert",
        "print",
        "fma",
        "shape_cast",
    )
) | frozenset({"tensor.empty", "tensor.dim", "tensor.extract", "tensor.insert"})
_MAX_SOFT_RETRIES = 16


def parse_chunk(text: str, anchor: Anchor) -> ParseResult:
    """Parse one top-level item. Never raises: errors become notes.

    When the first syntax error lies in an op of a dialect listed in
    ``_SOFT_DIALECT_OP``, that op is parsed again as an op of an unknown
    dialect (its name respelt, same length, so every span stays put), and
    the op keeps its name; repeated while the error moves forward."""
    result = _parse_chunk_once(text, anchor)
    written = text
    demoted: dict[int, str] = {}
    for _ in range(_MAX_SOFT_RETRIES):
        err = _first_syntax_error(result)
        if err is None:
            break
        at = err.span.rel_start
        m = None
        for found in _SOFT_DIALECT_OP.finditer(text, 0, at + 1):
            m = found  # the last op name at or before the error
        if m is None or m.start() in demoted or m.group(0) in _STRICT_OPS:
            break
        demoted[m.start()] = m.group(0)
        text = text[: m.start()] + "Z" + text[m.start() + 1 :]  # `Zpu.launch_func`: no keyword, an unknown op
        retry = _parse_chunk_once(text, anchor)
        retry_err = _first_syntax_error(retry)
        if retry_err is not None and retry_err.span.rel_start <= at:
            break
        result = retry
    if demoted and result.item is not None:
        _restore_names(result, demoted)
    if result.item is None:
        unknown_ops.replace_syntax_error(result.notes, written, anchor)
    return result


def _first_syntax_error(result: ParseResult) -> Note | None:
    if result.item is not None:
        return None
    return next((n for n in result.notes if n.severity == "error" and n.code == "syntax"), None)


def _restore_names(result: ParseResult, demoted: dict[int, str]) -> None:
    """The names of the ops parsed as unknown after a respelling, back."""
    stack = [result.item]
    while stack:
        x = stack.pop()
        if isinstance(x, OpSyn):
            name = demoted.get(x.name_span.rel_start)
            if name is not None:
                x.name = name
            for r in x.regions:
                for b in r.blocks:
                    stack.extend(b.ops)
    for n in result.notes:
        if n.code == "unknown-op":
            name = demoted.get(n.span.rel_start)
            if name is not None:
                n.message = n.message.replace("'Z" + name[1:] + "'", f"'{name}'", 1)


def _parse_chunk_once(text: str, anchor: Anchor) -> ParseResult:
    parser, tr = get_parser()
    driver = _HOLDER.driver
    _arm(tr, anchor)
    try:
        if driver is not None:
            try:
                return ParseResult(driver.parse(text), tr.notes)
            except (NeedsLark, _SyntaxIssue):  # lark's parser reports the error (see .driver)
                _arm(tr, anchor)
        item = parser.parse(text)
        return ParseResult(item, tr.notes)
    except VisitError as e:  # an exception inside a callback
        orig = e.orig_exc
        if isinstance(orig, _SyntaxIssue):
            return ParseResult(None, tr.notes + [Note("error", orig.message, orig.span, "syntax")])
        return ParseResult(None, tr.notes + [Note("error", f"internal parser error: {orig!r}", Span(0, min(len(text), 1), anchor), "internal")])
    except _SyntaxIssue as e:
        return ParseResult(None, tr.notes + [Note("error", e.message, e.span, "syntax")])
    except UnexpectedInput as e:
        return ParseResult(None, tr.notes + [error_note(e, text, anchor)])
    except RecursionError:
        return ParseResult(None, tr.notes + [Note("error", "nesting too deep to parse", Span(0, min(len(text), 1), anchor), "too-deep")])
    except Exception as e:  # a bug in a callback must not take the document down
        if _DEBUG:
            raise
        return ParseResult(None, tr.notes + [Note("error", f"internal parser error: {e!r}", Span(0, min(len(text), 1), anchor), "internal")])


# ---------------------------------------------------------------- error messages

_TERMINAL_WORDS: dict[str, str] = {
    "RP": "')'",
    "LP": "'('",
    "RSQB": "']'",
    "LSQB_SYM": "'['",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "RANGLE": "'>'",
    "COLON": "':'",
    "ARROW": "'->'",
    "COMMA": "','",
    "EQUAL": "'='",
    "SSA_ID": "SSA operand",
    "RESULT_LHS": "operation",
    "BARE_ID": "identifier",
    "INT": "integer",
    "STRING": "string",
    "SYMBOL_REF": "symbol reference",
    "HASH_ID": "attribute alias",
}


def _expected_words(expected: set[str]) -> list[str]:
    out = []
    for name in sorted(expected):
        if name in _TERMINAL_WORDS:
            out.append(_TERMINAL_WORDS[name])
        elif name.startswith("__ANON") or name.isupper():
            continue
        else:
            out.append(name)
    return out


def _describe_token(tok: Any) -> str:
    if tok.type == "$END":
        return "end of input"
    text = str(tok)
    if len(text) > 24:
        text = text[:20] + "..."
    return repr(text) if not text.isprintable() else f"'{text}'"


def _strip_comment(line: str) -> str:
    i = line.find("//")
    while i >= 0:
        if line.count('"', 0, i) % 2 == 0:
            return line[:i]
        i = line.find("//", i + 2)
    return line


def _previous_token_end(text: str, pos: int) -> int | None:
    """The offset just past the last code character before ``pos``, skipping
    whitespace, blank lines and ``//`` comments; None at the buffer start."""
    end = pos
    while True:
        while end > 0 and text[end - 1] in " \t":
            end -= 1
        if end == 0:
            return None
        if text[end - 1] not in "\r\n":
            return end
        end -= 1
        if end > 0 and text[end - 1] == "\r":
            end -= 1
        ls = text.rfind("\n", 0, end) + 1
        end = ls + len(_strip_comment(text[ls:end]))


UNKNOWN_OP_CODE = "unknown-op"


def unknown_op_message(name: str) -> str:
    return f"custom syntax of '{name}' is not known to affine-lsp; the op was skipped (its results, operands and regions are kept)"


BAD_STEP_MESSAGE = "custom op 'affine.for' expected step to be representable as a positive signed integer"
_FOUND_RE = re.compile(r"(expected .*?), found (.+)", re.S)
_AFFINE_ACCESS_OPS = ("affine.load", "affine.store", "affine.vector_load", "affine.vector_store", "affine.prefetch")


def error_note(e: UnexpectedInput, text: str, anchor: Anchor) -> Note:
    """An MLIR-style message for a lark error, with a precise range: the
    message is mlir-opt's text (MLIR's "expected X" never names the token
    found; that detail becomes related information at the token)."""
    note = _error_note(e, text, anchor)
    m = _FOUND_RE.fullmatch(note.message)
    if m is None:
        return note
    msg, found = m.group(1), m.group(2)
    tok = getattr(e, "token", None)
    if tok is not None and tok.type != "$END" and tok.start_pos is not None and note.span.rel_start != tok.start_pos:
        at = Span(tok.start_pos, tok.end_pos if tok.end_pos is not None else tok.start_pos + 1, anchor)
    else:
        at = note.span
    # What precedes the error on its line: MLIR prefixes the errors an op's
    # custom parser emits (parseKeyword) with "custom op '<name>' ".
    line = text[text.rfind("\n", 0, at.rel_start) + 1 : at.rel_start]
    if msg == "expected 'to' between bounds" and "affine.for" in line:
        msg = "custom op 'affine.for' " + msg
    elif msg == "expected '['" and any(op in line for op in _AFFINE_ACCESS_OPS):
        msg += " in affine map"  # parseAffineMapOfSSAIds' context message
    return Note(note.severity, msg, note.span, note.code, {"related": [(at, f"found {found}")]})


def _error_note(e: UnexpectedInput, text: str, anchor: Anchor) -> Note:
    if isinstance(e, UnexpectedToken):
        tok = e.token
        expected = set(e.expected or ())
        if tok.type == "$END":
            pos = len(text.rstrip())
            sp = Span(max(pos - 1, 0), pos, anchor)
            if "RBRACE" in expected:
                return Note("error", "expected '}' to end the region (unbalanced braces?)", sp, "syntax")
            msg = _message_for(expected, "end of input")
            return Note("error", msg, sp, "syntax")
        start = tok.start_pos if tok.start_pos is not None else 0
        end = tok.end_pos if tok.end_pos is not None else start + 1
        if tok.type == "BARE_ID" and "TO" in expected and "STEP" in expected:
            # `affine.for %i = 1 too 10`: MLIR's parseKeyword("to", " between bounds").
            return Note("error", f"expected 'to' between bounds, found '{tok}'", Span(start, end, anchor), "syntax")
        if tok.type == "BARE_ID" and "RESULT_LHS" in expected:
            # The default dialect is the enclosing op's: `func` in a function
            # body, `builtin` at module level, none in other ops' regions.
            from affine_lsp.syntax.legacy import enclosing_default_dialect, unknown_op_message

            dialect = enclosing_default_dialect(text, start)
            return Note("error", unknown_op_message(str(tok), "func" if dialect is None else dialect), Span(start, end, anchor), "syntax")
        # A keyword matched as the prefix of a longer word (`too` read as `to` + `o`).
        if start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_") and (str(tok)[:1].isalnum()):
            ws = start - 1
            while ws > 0 and (text[ws - 1].isalnum() or text[ws - 1] in "_$."):
                ws -= 1
            we = end
            word = text[ws:we]
            if word.startswith("to"):
                return Note("error", f"expected 'to' between bounds, found '{word}'", Span(ws, we, anchor), "syntax")
            return Note("error", f"unexpected '{word}'", Span(ws, we, anchor), "syntax")
        msg = _message_for(expected, _describe_token(tok))
        m = _BAD_STEP_RE.search(text, 0, start)
        if m is not None and not _COMMENT_RE.sub("", text[m.end() : start]).strip():
            # The step is checked when it is read in MLIR, before the region.
            return Note("error", BAD_STEP_MESSAGE, Span(m.start(1), m.end(1), anchor), "syntax")
        if msg.startswith("expected") and not msg.startswith(_AT_TOKEN):
            # Like MLIR's emitWrongTokenError: a missing token is reported
            # just past the previous token (skipping blank lines, comments).
            prev_end = _previous_token_end(text, start)
            if prev_end is not None:
                return Note("error", msg, Span(prev_end, prev_end, anchor), "syntax")
        return Note("error", msg, Span(start, end, anchor), "syntax")
    if isinstance(e, UnexpectedCharacters):
        pos = e.pos_in_stream
        ch = text[pos] if pos < len(text) else ""
        if not ch.isprintable():
            ch = repr(ch)[1:-1]
        allowed = set(e.allowed or ())
        msg = _message_for(allowed, f"'{ch}'") if allowed else f"unexpected character '{ch}'"
        return Note("error", msg, Span(pos, pos + 1, anchor), "syntax")
    if isinstance(e, UnexpectedEOF):
        pos = len(text)
        return Note("error", _message_for(set(e.expected or ()), "end of input"), Span(max(pos - 1, 0), pos, anchor), "syntax")
    return Note("error", str(e), Span(0, 1, anchor), "syntax")


_AT_TOKEN = ("expected affine expression", "expected '== affine-expr'", "expected 'to'", "expected non-function type", "expected operation name")
_BAD_STEP_RE = re.compile(r"\bstep\s+(-\s*[0-9]+)\b")
_COMMENT_RE = re.compile(r"//[^\n\r]*")
_AFFINE_ATOMS = {"BARE_ID", "INT", "LP", "MINUS"}
_SSA_AFFINE_ATOMS = {"SSA_ID", "INT", "LP", "MINUS", "SYMBOL"}
_TYPE_STARTS = {"INT_TYPE", "FLOAT_TYPE", "INDEX_KW", "MEMREF_KW", "VECTOR_KW", "TENSOR_KW", "NONE_KW", "COMPLEX_KW", "TUPLE_KW", "DIALECT_TYPE", "BANG_ID"}
_PRIORITY = ["RP", "RSQB", "RANGLE", "RBRACE", "COLON", "ARROW", "LP", "LBRACE", "LSQB_SYM", "SSA_ID", "INT", "SYMBOL_REF", "EQUAL"]
_WORDS = {"EQUAL": "'='", "LSQB_SYM": "'['", "TO": "'to'", "COMMA": "','"}


def _message_for(expected: set[str], found: str) -> str:
    """Phrase lark's expected-terminal set the way MLIR's parser does."""
    if "CMP_OP" in expected and found in ("')'", "','"):
        return "expected '== affine-expr' or '>= affine-expr' at end of affine constraint"
    if (
        expected
        and (expected <= _AFFINE_ATOMS | {"LEGACY", "CEILDIV_KW", "FLOORDIV_KW", "MOD_KW"} or expected == _SSA_AFFINE_ATOMS or expected <= _SSA_AFFINE_ATOMS)
        and ("INT" in expected and "LP" in expected)
    ):
        return f"expected affine expression, found {found}"
    if expected == {"INT", "MINUS"} and found.startswith("'%"):
        return f"expected attribute value, found {found}"
    if "LBRACE" in expected and found in ("'}'", "end of input") and len(expected) <= 4:
        return "expected '{' to begin a region"
    if expected == {"SSA_ID"}:
        return f"expected SSA operand, found {found}"
    if "TO" in expected and len(expected) <= 3:
        return f"expected 'to' between bounds, found {found}"
    if expected <= _TYPE_STARTS | {"LP"} and len(expected) > 3:
        return f"expected non-function type, found {found}"
    for name in _PRIORITY:
        if name in expected and len(expected) <= 4:
            word = _TERMINAL_WORDS.get(name) or _WORDS.get(name, name)
            return f"expected {word}, found {found}"
    if "SSA_ID" in expected:
        return f"expected SSA operand, found {found}"
    if "RESULT_LHS" in expected or "DOTTED_ID" in expected:
        return f"expected operation name, found {found}"
    words = _expected_words(expected)
    if words:
        return f"unexpected {found}; expected one of {', '.join(words[:6])}"
    return f"unexpected {found}"


# Inherent attributes whose name in MLIR 22.1.8's generic form differs from
# the one the IR uses (the custom form's parser names them).
_GENERIC_RENAMES: dict[str, tuple[tuple[str, str], ...]] = {
    "affine.for": (("lowerBoundMap", "lower_bound"), ("upperBoundMap", "upper_bound")),
}


def _normalize_generic(op: OpSyn) -> None:
    """A generic op gets the IR shape of its custom form: the affine.for
    bound maps under the IR's names, and the operand segments of a
    consistent ``operandSegmentSizes`` (which stays, for the verifier)."""
    for old, new in _GENERIC_RENAMES.get(op.name, ()):
        if old in op.attrs and new not in op.attrs:
            op.attrs[new] = op.attrs.pop(old)
    seg = op.attrs.get("operandSegmentSizes")
    if op.segments is None and isinstance(seg, DenseArrayAttr) and all(isinstance(v, int) and v >= 0 for v in seg.values):
        sizes = tuple(int(v) for v in seg.values)
        if sum(sizes) == len(op.operands):
            op.segments = sizes
