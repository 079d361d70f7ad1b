"""Out-of-bounds accesses, worded like MLIR's ``-memref-bound-check``.

MLIR's ``boundCheckLoadOrStoreOp`` (``mlir/lib/Dialect/Affine/Analysis/
Utils.cpp``) computes the region of the memref an access touches and reports,
for each dimension ``r`` (1-based ``#r`` in the message) of static size ``S``,
``'<op>' op memref out of upper bound access along dimension #r`` when some
touched index can be ``>= S`` and ``... out of lower bound ...`` when some
can be ``< 0`` (for some values of the symbols).

Ours differs only in being exact: the region comes from the exact access
relation (``affine.if`` guards, steps, ``mod``/``floordiv``, the whole range
of a vector access), so guarded accesses are not reported. Dynamic
dimensions (MLIR skips them) are reported only when *provable*: for every
value of the parameters for which the access executes, some instance is out
of bounds. Accesses whose model is approximate are not checked, except
semi-affine subscripts (``d0 * s0``, ``d0 floordiv s0``), checked the way
MLIR does: each semi-affine sub-expression is a variable with no constraint
(MLIR's flattener adds it as a local), so such a subscript is usually
reported out of both bounds, conservatively (a related note says so).
Diagnostics are warnings; a related note gives a witness instance.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from affine_lsp.analysis.dependences import FunctionDeps

import islpy as isl

from affine_lsp.analysis.isl_support import CTX, DT, BudgetExceeded, IslFailure, limited, param_id, val
from affine_lsp.analysis.polyhedral import AccessModel
from affine_lsp.ir.types import MemRefType
from affine_lsp.syntax.nodes import Note

CHECKED_ROLES = frozenset({"read", "write", "dma_src", "dma_dst"})


def _dim_pa(space: isl.Space, r: int) -> isl.PwAff:
    return isl.PwAff.from_aff(isl.Aff.var_on_domain(isl.LocalSpace.from_space(space), DT.set, r))


def _param_pa(space: isl.Space, name: str) -> isl.PwAff:
    pid = param_id(name)
    sp = space if space.find_dim_by_id(DT.param, pid) >= 0 else space.add_param_id(pid)
    return isl.PwAff.from_aff(isl.Aff.param_on_domain_space_id(sp, pid))


def _semi_note(r: int) -> str:
    return (
        f"the subscript along dimension #{r + 1} is semi-affine: like MLIR's bound check, affine analysis "
        "treats its semi-affine part as unbounded, so this check is conservative and the access may be in bounds"
    )


def _witness(fd: FunctionDeps, acc: AccessModel, bad_rel: isl.Map, only: int | None = None) -> str:
    try:
        pt = bad_rel.wrap().lexmin().sample_point()  # (the least point: the same example whatever isl built the set from)
        if pt.is_void():
            return ""
        n = acc.num_loops
        ivs = [f"{acc.ivs[k].name} = {pt.get_coordinate_val(DT.set, k).to_python()}" for k in range(n)]
        elem = [str(pt.get_coordinate_val(DT.set, n + r).to_python()) for r in range(acc.rank)]
        sp = bad_rel.get_space()
        params = []
        for k in range(sp.dim(DT.param)):
            name = sp.get_dim_name(DT.param, k)
            desc = fd.model.param_desc.get(name)
            if desc is not None:
                params.append(f"{desc} = {pt.get_coordinate_val(DT.param, k).to_python()}")
        where = ", ".join(ivs) if ivs else "its only execution"
        if params:
            where += f" (with {', '.join(params)})"
        if only is not None:
            return f"for example at {where}, its index along dimension #{only + 1} is {elem[only]}"
        return f"for example at {where}, it accesses element [{', '.join(elem)}]"
    except (isl.Error, ValueError, IndexError):
        return ""


_BOX_CACHE: dict[str, isl.Set] = {}
_INSIDE_CACHE: dict[tuple, bool] = {}


def _within_static_box(fd: FunctionDeps, acc: AccessModel) -> bool:
    """A quick test of the common case: every checked dimension has a static
    size and every element the access touches is inside the memref, so none
    of the per-dimension checks of :func:`check_access` can find anything.
    One subset test instead of two emptiness tests per dimension. False when
    it cannot tell (a dynamic size, an isl failure, the budget): the full
    checks then run as before."""
    # An access whose relation is shared with other functions (see
    # polyhedral._ACCESS_CACHE) and was not changed since (no parameter facts
    # were added to it) has the answer of those functions for the same static
    # shape (a dynamic size may come from the function's code).
    shape = tuple(acc.memref.type.shape)  # type: ignore[union-attr]
    static = acc.key is not None and not fd.model.has_param_facts and all(d is not None for d in shape)
    key = (acc.key, shape) if static else None
    if key is not None:
        got = _INSIDE_CACHE.get(key)
        if got is not None:
            return got
    bounds = []
    for r in range(acc.rank):
        if r < len(acc.exact_indices) and not acc.exact_indices[r]:
            continue
        size = fd.model.dim_size(acc.memref, r)  # type: ignore[arg-type]
        if size is None:
            continue
        if not isinstance(size, int):
            return False
        bounds.append(f"0 <= x{r} < {size}")
    xs = ", ".join(f"x{r}" for r in range(acc.rank))
    text = f"{{ {acc.memref_name}[{xs}] : {' and '.join(bounds) or 'true'} }}"
    try:
        with limited(fd.budget):
            box = _BOX_CACHE.get(text)
            if box is None:
                box = isl.Set.read_from_str(CTX, text)
                if len(_BOX_CACHE) < 4096:
                    _BOX_CACHE[text] = box
            inside = bool(acc.relation.range().is_subset(box))  # type: ignore[union-attr]
    except (BudgetExceeded, IslFailure):
        return False
    if key is not None and len(_INSIDE_CACHE) < 16384:
        _INSIDE_CACHE[key] = inside
    return inside


_LARGE_SIZE = 1 << 40
"""The size a dynamic dimension gets in :func:`_in_bounds_at`'s guess."""


def _in_bounds_at(bad: isl.Map, point: isl.Point, size: str) -> bool:
    """Whether ``bad`` (the out-of-bounds instances of an access along a
    dynamic dimension whose size is the parameter ``size``) is empty at one
    choice of the parameters: those ``point`` names (a point of the
    parameters for which the access executes), ``size`` large and any
    other 0. True proves the exact test false (``exec_params.is_subset(
    bad.domain().params())``: for every value of the parameters for which
    the access executes, some instance is out of bounds) without its
    projection, about ten times the cost; False proves nothing."""
    for i in range(bad.dim(DT.param)):
        name = bad.get_dim_name(DT.param, i)
        j = point.get_space().find_dim_by_name(DT.param, name)
        if j >= 0:
            v = point.get_coordinate_val(DT.param, j)
        else:
            v = val(_LARGE_SIZE if name == size else 0)
        bad = bad.fix_val(DT.param, i, v)
    return bool(bad.is_empty())


def check_access(fd: FunctionDeps, acc: AccessModel) -> list[Note]:
    """The out-of-bounds warnings of one access."""
    if acc.role not in CHECKED_ROLES or acc.relation is None or acc.domain is None:
        return []
    semi_dims: list[int] | None = None
    if not acc.exact:
        semi = fd.model.semi_affine_access(acc)
        if semi is None:
            return []
        semi_dims = [r for r, exact in enumerate(acc.exact_indices) if not exact]
        acc = semi[0]
    mtype = acc.memref.type if acc.memref is not None else None
    if not isinstance(mtype, MemRefType) or len(mtype.shape) != acc.rank:
        return []
    if _within_static_box(fd, acc):
        return []
    notes: list[Note] = []
    suffix = {"dma_src": " (DMA source)", "dma_dst": " (DMA destination)"}.get(acc.role, "")
    try:
        with limited(fd.budget):
            rel = acc.relation
            rng_space = rel.range().get_space()
            exec_params = None
            exec_point: isl.Point | None = None
            for r in range(acc.rank):
                if r < len(acc.exact_indices) and not acc.exact_indices[r]:
                    continue
                size = fd.model.dim_size(acc.memref, r)  # type: ignore[arg-type]
                if size is None or (semi_dims is not None and not isinstance(size, int)):
                    continue
                x = _dim_pa(rng_space, r)
                if isinstance(size, int):
                    upper = x.ge_set(isl.PwAff.from_aff(isl.Aff.val_on_domain_space(rng_space, val(size))))
                else:
                    upper = x.ge_set(_param_pa(rng_space, size))
                lower = x.le_set(isl.PwAff.from_aff(isl.Aff.val_on_domain_space(rng_space, val(-1))))
                for which, bad_set in (("upper", upper), ("lower", lower)):
                    bad = rel.intersect_range(bad_set.set_tuple_name(acc.memref_name))
                    if bad.is_empty():
                        continue
                    if not isinstance(size, int):
                        if exec_params is None:
                            exec_params = acc.domain.params()
                            exec_point = None if exec_params.is_empty() else exec_params.sample_point()
                        if exec_point is None or _in_bounds_at(bad, exec_point, size) or not exec_params.is_subset(bad.domain().params()):
                            continue
                    msg = f"'{acc.op.name}' op memref out of {which} bound access along dimension #{r + 1}{suffix}"
                    if semi_dims is None:
                        w = _witness(fd, acc, bad)
                    else:
                        w = _semi_note(r) if r in semi_dims else _witness(fd, acc, bad, only=r)
                    data = {"related": [(acc.op.name_span, w)]} if w else None
                    notes.append(Note("warning", msg, acc.op.name_span, "memref-bound", data))
    except BudgetExceeded:
        fd._budget_note(acc.op, f"checking the bounds of {acc.describe()}")
    except IslFailure:
        pass
    return notes


def provably_in_bounds(fd: FunctionDeps, acc: AccessModel) -> bool:
    """Every element ``acc`` touches, for every iteration and every value of
    the parameters, lies inside the memref: each dimension has a known size
    (static, or a parameter the model names) and the exact access relation
    meets neither bound. False when it cannot tell (an approximate model, an
    unknown size, an isl failure, the budget). The vectorizer marks a
    transfer ``in_bounds`` with it."""
    if acc.relation is None or acc.domain is None or not acc.exact:
        return False
    mtype = acc.memref.type if acc.memref is not None else None
    if not isinstance(mtype, MemRefType) or len(mtype.shape) != acc.rank:
        return False
    sizes = [fd.model.dim_size(acc.memref, r) for r in range(acc.rank)]  # type: ignore[arg-type]
    if any(s is None for s in sizes):
        return False
    if all(isinstance(s, int) for s in sizes) and _within_static_box(fd, acc):
        return True
    try:
        with limited(fd.budget):
            rel = acc.relation
            rng_space = rel.range().get_space()
            for r, size in enumerate(sizes):
                x = _dim_pa(rng_space, r)
                if isinstance(size, int):
                    upper = x.ge_set(isl.PwAff.from_aff(isl.Aff.val_on_domain_space(rng_space, val(size))))
                else:
                    upper = x.ge_set(_param_pa(rng_space, str(size)))
                lower = x.le_set(isl.PwAff.from_aff(isl.Aff.val_on_domain_space(rng_space, val(-1))))
                for bad_set in (upper, lower):
                    if not rel.intersect_range(bad_set.set_tuple_name(acc.memref_name)).is_empty():
                        return False
    except (BudgetExceeded, IslFailure):
        return False
    return True


def bounds_notes(fd: FunctionDeps) -> list[Note]:
    """Out-of-bounds warnings of every access of the function."""
    out: list[Note] = []
    for acc in fd.accesses:
        out.extend(check_access(fd, acc))
    return out
