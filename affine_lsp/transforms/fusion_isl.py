"""isl plumbing for fusion: accesses in canonical names, affine values.

The dependence engine (:mod:`affine_lsp.analysis`) names isl objects after
one function's values. Fusion compares two programs (before and after) and
turns isl answers back into affine maps, so this module renames everything
canonically:

* statements: given by the caller (``O3``, ``F7``, ...);
* memrefs: ``m_<ssa name>`` (the same buffer has the same name in both
  programs, since untouched text keeps its names);
* parameters: ``p_<ssa name>`` for function-level values, ``d_<memref>_<k>``
  for dynamic memref sizes; the IVs of loops around the block holding the
  nests become parameters ``o<k>`` (one execution of the block at a time).

:class:`AVM` (an "affine value map": expressions plus the SSA values their
dims and symbols stand for) is how bounds and subscripts travel between isl
and the IR.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import islpy as isl

from affine_lsp.analysis.dependences import FunctionDeps
from affine_lsp.analysis.isl_support import CTX, DT, param_id, val
from affine_lsp.analysis.polyhedral import AccessModel
from affine_lsp.ir.affine_expr import AffineExpr, AffineExprKind, AffineMap, constant, dim, symbol
from affine_lsp.ir.core import Block, BlockArgument, Operation, Value


def enc(name: str) -> str:
    """An isl identifier for an SSA name (injective)."""
    s = name.lstrip("%")
    return "".join(ch if ch.isalnum() else f"_{ord(ch):x}_" for ch in s) or "_"


def memref_id(v: Value) -> str:
    return "m_" + enc(v.name)


def param_name_of(v: Value) -> str:
    return "p_" + enc(v.name)


def is_loop_iv(v: Value) -> bool:
    if not isinstance(v, BlockArgument) or v.owner is None or v.index != 0:
        return False
    op = v.owner.parent_op
    return op is not None and op.name in ("affine.for", "affine.parallel")


# ------------------------------------------------------------------ AVM


@dataclass
class AVM:
    """Affine expressions over SSA values: ``exprs`` use ``d<i>`` for
    ``dims[i]`` and ``s<j>`` for ``syms[j]``."""

    exprs: list[AffineExpr]
    dims: list[Value] = field(default_factory=list)
    syms: list[Value] = field(default_factory=list)

    @staticmethod
    def from_map(m: AffineMap, operands: Sequence[Value]) -> AVM:
        return AVM(list(m.results), list(operands[: m.num_dims]), list(operands[m.num_dims :]))

    @staticmethod
    def const(c: int) -> AVM:
        return AVM([constant(c)])

    def map(self) -> AffineMap:
        return AffineMap(len(self.dims), len(self.syms), self.exprs)

    def operands(self) -> list[Value]:
        return self.dims + self.syms

    def merged(self, others: Sequence[AVM]) -> AVM:
        """All results of ``self`` and ``others`` over one operand list."""
        out = AVM(list(self.exprs), list(self.dims), list(self.syms))
        for o in others:
            out.exprs.extend(_rebase(o, out))
        return out

    def substitute(self, repl: Callable[[Value, bool], AVM | None]) -> AVM:
        """Replace operands by single-result AVMs (``repl(value, is_dim)``
        returns None to keep one)."""
        out = AVM([], [], [])
        dsub: list[AffineExpr] = []
        ssub: list[AffineExpr] = []
        for v in self.dims:
            r = repl(v, True)
            dsub.append(_rebase(r, out)[0] if r is not None else _rebase(AVM([dim(0)], [v], []), out)[0])
        for v in self.syms:
            r = repl(v, False)
            ssub.append(_rebase(r, out)[0] if r is not None else _rebase(AVM([symbol(0)], [], [v]), out)[0])
        out.exprs = [e.replace(dsub, ssub) for e in self.exprs]
        return out

    def simplified(self) -> AVM:
        """Simplified results; unused and repeated operands dropped."""
        nd, ns = len(self.dims), len(self.syms)
        exprs = [e.simplify() for e in self.exprs]
        used_d = [any(e.uses_dim(i) for e in exprs) for i in range(nd)]
        used_s = [any(e.uses_symbol(i) for e in exprs) for i in range(ns)]
        dims: list[Value] = []
        syms: list[Value] = []
        dsub: list[AffineExpr] = []
        ssub: list[AffineExpr] = []
        for i, v in enumerate(self.dims):
            if not used_d[i]:
                dsub.append(constant(0))
                continue
            if v in dims:
                dsub.append(dim(dims.index(v)))
            else:
                dsub.append(dim(len(dims)))
                dims.append(v)
        for j, v in enumerate(self.syms):
            if not used_s[j]:
                ssub.append(constant(0))
                continue
            if v in syms:
                ssub.append(symbol(syms.index(v)))
            else:
                ssub.append(symbol(len(syms)))
                syms.append(v)
        return AVM([e.replace(dsub, ssub).simplify() for e in exprs], dims, syms)

    def pretty(self, combine: str = "") -> str:
        """The expressions with the values' names (``max(%i - 1, 0)``)."""
        ds = [v.name for v in self.dims]
        ss = [v.name for v in self.syms]
        parts = [e.to_str(ds, ss) for e in self.exprs]
        return f"{combine}({', '.join(parts)})" if combine and len(parts) > 1 else ", ".join(parts)

    def __str__(self) -> str:
        return f"{self.map()}({', '.join(v.name for v in self.dims)})[{', '.join(v.name for v in self.syms)}]"


def _rebase(a: AVM, into: AVM) -> list[AffineExpr]:
    """``a``'s expressions over ``into``'s operands (extended as needed)."""
    dsub: list[AffineExpr] = []
    for v in a.dims:
        if v not in into.dims:
            into.dims.append(v)
        dsub.append(dim(into.dims.index(v)))
    ssub: list[AffineExpr] = []
    for v in a.syms:
        if v not in into.syms:
            into.syms.append(v)
        ssub.append(symbol(into.syms.index(v)))
    return [e.replace(dsub, ssub) for e in a.exprs]


# ------------------------------------------------------- expressions to isl


def expr_to_pwaff(e: AffineExpr, dims: Sequence[isl.PwAff], syms: Sequence[isl.PwAff], space: isl.Space) -> isl.PwAff:
    """The isl value of ``e`` given the values of its dims and symbols."""
    k = e.kind
    if k is AffineExprKind.CONSTANT:
        return isl.PwAff.from_aff(isl.Aff.val_on_domain_space(space, val(e.value)))  # type: ignore[attr-defined]
    if k is AffineExprKind.DIM:
        return dims[e.position]  # type: ignore[attr-defined]
    if k is AffineExprKind.SYMBOL:
        return syms[e.position]  # type: ignore[attr-defined]
    lhs = expr_to_pwaff(e.lhs, dims, syms, space)  # type: ignore[attr-defined]
    rhs_e = e.rhs  # type: ignore[attr-defined]
    if k is AffineExprKind.ADD:
        return lhs.add(expr_to_pwaff(rhs_e, dims, syms, space))
    if k is AffineExprKind.MUL:
        if rhs_e.kind is AffineExprKind.CONSTANT:
            return lhs.scale_val(val(rhs_e.value))
        if e.lhs.kind is AffineExprKind.CONSTANT:  # type: ignore[attr-defined]
            return expr_to_pwaff(rhs_e, dims, syms, space).scale_val(val(e.lhs.value))  # type: ignore[attr-defined]
        raise ValueError(f"semi-affine product {e}")
    if rhs_e.kind is not AffineExprKind.CONSTANT or rhs_e.value == 0:
        raise ValueError(f"semi-affine {e}")
    c = rhs_e.value
    if k is AffineExprKind.FLOORDIV:
        return lhs.scale_down_val(val(c)).floor() if c > 0 else lhs.neg().scale_down_val(val(-c)).floor()
    if k is AffineExprKind.CEILDIV:
        return lhs.scale_down_val(val(c)).ceil() if c > 0 else lhs.neg().scale_down_val(val(-c)).ceil()
    if c > 0:
        return lhs.mod_val(val(c))
    return lhs.sub(lhs.neg().scale_down_val(val(-c)).floor().neg().scale_val(val(c)))


def aff_to_expr(aff: isl.Aff, dim_exprs: Sequence[AffineExpr | None], param_exprs: Sequence[AffineExpr | None]) -> AffineExpr | None:
    """An isl quasi-affine function as an AffineExpr (None when it uses a
    dimension or parameter without an expression, or is rational)."""
    den = int(aff.get_denominator_val().to_python())
    out: AffineExpr = constant(0)
    for i in range(aff.dim(DT.in_)):
        c = _scaled(aff.get_coefficient_val(DT.in_, i), den)
        if c:
            e = dim_exprs[i]
            if e is None:
                return None
            out = out + e * c
    for i in range(aff.dim(DT.param)):
        c = _scaled(aff.get_coefficient_val(DT.param, i), den)
        if c:
            e = param_exprs[i]
            if e is None:
                return None
            out = out + e * c
    for i in range(aff.dim(DT.div)):
        c = _scaled(aff.get_coefficient_val(DT.div, i), den)
        if c:
            inner = aff_to_expr(aff.get_div(i), dim_exprs, param_exprs)
            if inner is None:
                return None
            out = out + inner * c
    cst = aff.get_constant_val()
    cval = _scaled(cst, den)
    out = out + cval
    if den != 1:
        out = out.floordiv(den)
    return out.simplify()


# ------------------------------------------------------------ the model


@dataclass(eq=False)
class CAccess:
    """One affine access in canonical isl names."""

    acc: AccessModel
    stmt: str
    inner_ivs: tuple[Value, ...]
    domain: isl.Set
    relation: isl.Map
    memref: Value
    mid: str
    sched: list[int | str]

    @property
    def op(self) -> Operation:
        return self.acc.op

    @property
    def is_write(self) -> bool:
        return self.acc.is_write

    @property
    def exact(self) -> bool:
        return self.acc.exact


class CanonModel:
    """The accesses under some top-level ops of one block, renamed."""

    def __init__(self, fd: FunctionDeps, block: Block, prefix: str) -> None:
        self.fd = fd
        self.model = fd.model
        self.block = block
        self.prefix = prefix
        lv = self.model._level(block)
        self.outer: tuple[Value, ...] = lv.ivs
        self.outer_names = [f"o{k}" for k in range(len(self.outer))]
        self.param_values: dict[str, Value | None] = {n: v for n, v in zip(self.outer_names, self.outer)}
        self._dim_param_rev: dict[str, tuple[Value, int]] = {n: k for k, n in self.model._dim_params.items()}
        self._cache: dict[int, CAccess | None] = {}
        self._counter = 0

    # -------------------------------------------------------------- names
    def _canon_param(self, name: str) -> str:
        if name in self.param_values and name.startswith("o"):
            return name
        v = self.model.param_values.get(name)
        if v is not None:
            cn = param_name_of(v)
            self.param_values.setdefault(cn, v)
            return cn
        dk = self._dim_param_rev.get(name)
        if dk is not None:
            cn = f"d_{enc(dk[0].name)}_{dk[1]}"
            self.param_values.setdefault(cn, None)
            return cn
        cn = f"u_{self.prefix}_{name}"
        self.param_values.setdefault(cn, None)
        return cn

    def _canon(self, obj: isl.Set | isl.Map, is_map: bool) -> isl.Set | isl.Map:
        for k in range(obj.dim(DT.param)):
            n = obj.get_dim_name(DT.param, k)
            cn = self._canon_param(n)
            if cn != n:
                obj = obj.set_dim_id(DT.param, k, param_id(cn))
        c = len(self.outer)
        if c:
            np_ = obj.dim(DT.param)
            src = DT.in_ if is_map else DT.set
            obj = obj.move_dims(DT.param, np_, src, 0, c)
            for k in range(c):
                obj = obj.set_dim_id(DT.param, np_ + k, param_id(self.outer_names[k]))
        return obj

    def access(self, acc: AccessModel) -> CAccess | None:
        """The canonical form of ``acc`` (None when it has no model or lies
        outside ``block``)."""
        got = self._cache.get(acc.index, -1)
        if got != -1:
            return got  # type: ignore[return-value]
        out: CAccess | None = None
        if acc.relation is not None and acc.domain is not None and acc.memref is not None and acc.ivs[: len(self.outer)] == self.outer:
            sched = self._schedule(acc)
            if sched is not None:
                stmt = f"{self.prefix}{self._counter}"
                self._counter += 1
                dom = self._canon(acc.domain, False).set_tuple_name(stmt)
                rel = self._canon(acc.relation, True).set_tuple_name(DT.in_, stmt).set_tuple_name(DT.out, memref_id(acc.memref))
                out = CAccess(acc, stmt, acc.ivs[len(self.outer) :], dom, rel, acc.memref, memref_id(acc.memref), sched)
        self._cache[acc.index] = out
        return out

    def accesses_under(self, roots: Sequence[Operation]) -> list[CAccess] | None:
        """Canonical accesses of every access op under ``roots`` (walk
        order); None if one cannot be modelled."""
        out: list[CAccess] = []
        for r in roots:
            for op in r.walk():
                for acc in self.fd.accesses_of(op):
                    ca = self.access(acc)
                    if ca is None:
                        return None
                    out.append(ca)
        return out

    def _schedule(self, acc: AccessModel) -> list[int | str] | None:
        pairs: list[tuple[Block, Operation]] = []
        cur = acc.op
        while True:
            blk = cur.parent
            if blk is None:
                return None
            pairs.append((blk, cur))
            if blk is self.block:
                break
            up = blk.parent_op
            if up is None:
                return None
            cur = up
        pairs.reverse()
        inner = acc.ivs[len(self.outer) :]
        pos = {v: k for k, v in enumerate(inner)}
        items: list[int | str] = []
        for n, (blk, op) in enumerate(pairs):
            off = 0
            parent = blk.parent_op
            if n > 0 and parent is not None:
                for r in parent.regions:
                    for b in r.blocks:
                        if b is blk:
                            break
                        off += len(b.operations)
                    else:
                        continue
                    break
            items.append(off + self.model.position(blk, op))
            if n < len(pairs) - 1 and op.regions and op.regions[0].blocks:
                if op.name == "affine.for":
                    ivs = op.regions[0].blocks[0].arguments[:1]
                elif op.name == "affine.parallel":
                    ivs = op.regions[0].blocks[0].arguments
                else:
                    ivs = []
                for iv in ivs:
                    if iv in pos:
                        items.append(f"x{pos[iv]}")
        return items

    # ---------------------------------------------------- values <-> isl
    def value_param(self, v: Value) -> str | None:
        """The canonical parameter name standing for ``v`` (None if ``v``
        is not a parameter: an IV inside the block, a computed value)."""
        if v in self.outer:
            return self.outer_names[self.outer.index(v)]
        for n, pv in self.param_values.items():
            if pv is v:
                return n
        n = self.model._names.get(v)
        if n is not None and n in self.model.param_values:
            return self._canon_param(n)
        return None

    def avm_pwaffs(self, a: AVM, space: isl.Space, ivs: Sequence[Value]) -> list[isl.PwAff]:
        ds = [self.value_pwaff(space, ivs, v) for v in a.dims]
        ss = [self.value_pwaff(space, ivs, v) for v in a.syms]
        return [expr_to_pwaff(e, ds, ss, space) for e in a.exprs]

    def value_pwaff(self, space: isl.Space, ivs: Sequence[Value], v: Value) -> isl.PwAff:
        if v in ivs:
            return isl.PwAff.from_aff(isl.Aff.var_on_domain(isl.LocalSpace.from_space(space), DT.set, list(ivs).index(v)))
        n = self.value_param(v)
        if n is not None:
            return _param_pwaff(space, n)
        from affine_lsp.analysis.polyhedral import constant_of

        c = constant_of(v)
        if c is not None:
            return isl.PwAff.from_aff(isl.Aff.val_on_domain_space(space, val(c)))
        owner = v.defining_op
        if owner is not None and owner.name == "affine.apply" and owner.attributes.get("map") is not None:
            m = owner.attributes["map"].map  # type: ignore[attr-defined]
            sub = AVM.from_map(m, list(owner.operands))
            return self.avm_pwaffs(AVM([sub.exprs[0]], sub.dims, sub.syms), space, ivs)[0]
        if self._is_param_like(v):
            self.param_values.setdefault(param_name_of(v), v)
            return _param_pwaff(space, param_name_of(v))
        raise ValueError(f"{v.name} is not an affine value here")

    def _is_param_like(self, v: Value) -> bool:
        return self.model._is_invariant(v)


def _param_pwaff(space: isl.Space, name: str) -> isl.PwAff:
    pid = param_id(name)
    sp = space
    if sp.find_dim_by_id(DT.param, pid) < 0:
        sp = sp.add_param_id(pid)
    return isl.PwAff.from_aff(isl.Aff.param_on_domain_space_id(sp, pid))


def set_space(names: Sequence[str], tuple_name: str | None = None) -> isl.Space:
    sp = isl.Space.create_from_names(CTX, set=list(names))
    if tuple_name:
        sp = sp.set_tuple_name(DT.set, tuple_name)
    return sp


def max_int(s: isl.Set, aff_of: Callable[[isl.LocalSpace], isl.Aff]) -> int | None:
    """The maximum of an affine function over a set (None if unbounded or empty)."""
    if s.is_empty():
        return None
    v = s.max_val(aff_of(isl.LocalSpace.from_space(s.get_space())))
    if v.is_nan() or v.is_infty() or v.is_neginfty():
        return None
    return int(v.to_python())


def dim_extents(rel: isl.Map) -> list[int] | None:
    """Per output dimension, the largest number of distinct values that
    the output takes for one input (the bounding box of the image of a
    point): ``max(l' - l) + 1`` over pairs ``l, l'`` with the same input."""
    n = rel.dim(DT.out)
    pairs = rel.reverse().apply_range(rel)
    if pairs.is_empty():
        return [0] * n
    deltas = pairs.deltas()
    out = []
    for r in range(n):
        m = max_int(deltas, lambda ls, r=r: isl.Aff.var_on_domain(ls, DT.set, r))
        if m is None:
            return None
        out.append(m + 1)
    return out


def pieces(pw: isl.PwAff) -> list[tuple[isl.Set, isl.Aff]]:
    out: list[tuple[isl.Set, isl.Aff]] = []
    pw.foreach_piece(lambda s, a: out.append((s, a)))
    return out


def _scaled(v: isl.Val, den: int) -> int:
    """``v * den`` as an int (``v`` is a rational with denominator dividing ``den``)."""
    return int(v.mul(val(den)).to_python()) if den != 1 else int(v.to_python())
