"""Reduce actions of affine expressions, maps and integer sets (literal, aliased or over SSA
names), as MLIR's ``AffineParser``: the names a map binds are per-map state of the parse."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affine_lsp.ir.affine_expr import AffineDimExpr, AffineExpr, AffineMap, IntegerSet, constant, dim, symbol
from affine_lsp.ir.attributes import (
    AffineMapAttr,
    Attribute,
    IntegerSetAttr,
)
from affine_lsp.ir.core import Span
from affine_lsp.syntax.nodes import (
    AliasRef,
)
from affine_lsp.syntax.opkit import (
    MAX_EXPR_DEPTH,
    TOKEN_TYPES,
    Decls,
    SyntaxIssue,
    end_of,
    set_span,
    start_of,
)

if TYPE_CHECKING:
    from lark import Token


class AffineMapParser:
    """Mixed into :class:`~affine_lsp.syntax.parser.ChunkTransformer`; ``self`` is the parse's own state."""

    def map_ref(self, c: list) -> Attribute:
        x = c[0]
        if type(x) in TOKEN_TYPES:
            return AliasRef(str(x), "map", self.sp(x))
        return x

    def set_ref(self, c: list) -> Attribute:
        x = c[0]
        if type(x) in TOKEN_TYPES:
            return AliasRef(str(x), "set", self.sp(x))
        return x

    def _binary(self, e: AffineExpr, a: AffineExpr, b: AffineExpr) -> AffineExpr:
        """Record the new node's span and depth; expressions deeper than
        MAX_EXPR_DEPTH are refused (every algorithm on them is recursive)."""
        depths = self._depths
        d = max(depths.get(id(a), 0), depths.get(id(b), 0)) + 1
        if d > MAX_EXPR_DEPTH:
            raise SyntaxIssue(f"affine expression nested too deeply to analyse (more than {MAX_EXPR_DEPTH} levels)", self.span_of(a, b))
        depths[id(e)] = d
        e.span = Span(start_of(a), end_of(b), self.anchor)
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
            raise SyntaxIssue(
                f"affine expression nested too deeply to analyse (more than {MAX_EXPR_DEPTH} levels)", Span(start_of(e) - 1, end_of(e), self.anchor)
            )
        self._depths[id(r)] = d
        return set_span(r, Span(start_of(e) - 1, end_of(e), self.anchor))

    def aconst(self, c: list) -> AffineExpr:
        return set_span(constant(int(str(c[0]))), self.sp(c[0]))

    def aparen(self, c: list) -> AffineExpr:
        e = c[1]
        return set_span(e, self.span_of(c[0], c[2]))

    def aname(self, c: list) -> AffineExpr:
        tok: Token = c[0]
        name = str(tok)
        if name in self._dim_names:
            return set_span(dim(self._dim_names[name]), self.sp(tok))
        if name in self._sym_names:
            return set_span(symbol(self._sym_names[name]), self.sp(tok))
        raise SyntaxIssue(f"use of undeclared identifier '{name}'", self.sp(tok))

    def legacy_div(self, c: list) -> AffineExpr:
        kw = str(c[0])
        a, b = c[2], c[3]
        e = {"floordiv": a.floordiv, "ceildiv": a.ceildiv, "mod": a.mod}[kw](b)
        return set_span(e, self.span_of(c[0], c[-1]))

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
        return set_span(symbol(pos), self.span_of(c[0], c[-1]))

    def dim_decls(self, c: list) -> Decls:
        names = [x for x in c if type(x) in TOKEN_TYPES and x.type == "BARE_ID"]
        self._dim_names = {}
        for i, n in enumerate(names):
            if str(n) in self._dim_names:
                raise SyntaxIssue("redefinition of identifier '" + str(n) + "'", self.sp(n))
            self._dim_names[str(n)] = i
        self._sym_names = {}
        return Decls(len(names), self.span_of(c[0], c[-1]))

    def sym_decls(self, c: list) -> tuple[str, int]:
        names = [x for x in c if type(x) in TOKEN_TYPES and x.type == "BARE_ID"]
        self._sym_names = {}
        for i, n in enumerate(names):
            if str(n) in self._sym_names or str(n) in self._dim_names:
                raise SyntaxIssue("redefinition of identifier '" + str(n) + "'", self.sp(n))
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
        return set_span(e, sp), o == "=="

    def affine_map_lit(self, c: list) -> AffineMapAttr:
        m: AffineMap = c[1]
        sp = self.span_of(c[0], c[-1])
        return AffineMapAttr(AffineMap.trusted(m.num_dims, m.num_symbols, m.results, sp), None, sp)

    def affine_set_lit(self, c: list) -> IntegerSetAttr:
        s: IntegerSet = c[1]
        sp = self.span_of(c[0], c[-1])
        return IntegerSetAttr(IntegerSet(s.num_dims, s.num_symbols, s.constraints, s.eq_flags, sp), None, sp)
