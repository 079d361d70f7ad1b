"""Translation validation: the fused program computes what the original did.

Every fusion is checked on the *generated* code, re-parsed: the segment of
the block from the first to the last op the fusion touches is modelled in
both programs (isl, exact models only) and compared by value-based dataflow:

1. every access of the new segment corresponds to an access of the old one
   and an instance map (identity for untouched ops and the destination's
   own ops; for the copied source ops, the source IVs as functions of the
   destination IVs and the copy's loop IVs, taken from the generated code);
   the image of its iteration domain lies in the original's domain;
2. an access that was not privatised touches the same elements as the
   instance it corresponds to; a private-buffer access stays in the buffer;
3. every read instance of the new segment gets its value from the write
   instance (mapped back) that the corresponding original read got it
   from, or from the same element before the segment; reads of a private
   buffer always get a value written in the segment;
4. for every memref still observable after the segment (all but private
   buffers and buffers only used by the two nests), the last write of every
   element is the same (mapped back) in both programs.

By induction on the execution order, every write of the new segment then
stores the value its original instance stored and the memory after the
segment is the same. Ops that are not affine accesses are side-effect free
(screened by :mod:`.fusion_ir`) and computed from the same SSA values.
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from affine_lsp.analysis import dependences_of_function
from affine_lsp.analysis.isl_support import CTX, DT, BudgetExceeded, IslFailure, limited
from affine_lsp.ir.core import Block, Operation, Value
from affine_lsp.transforms.fusion_codegen import Rewrite
from affine_lsp.transforms.fusion_ir import enclosing_fors, for_iv, memref_dead_after
from affine_lsp.transforms.fusion_isl import AVM, CAccess, CanonModel, memref_id, set_space

VALIDATION_BUDGET = 20_000_000


@dataclass
class Corr:
    new: CAccess
    old: CAccess
    back: isl.Map  # new instance -> old instance
    private: tuple[int, ...] | None  # shape of the private buffer it accesses


@dataclass
class Verdict:
    ok: bool
    reason: str = ""
    access: Operation | None = None
    """The original access whose values the fusion would change (a read that
    would get other values, or a store whose value would not be the last)."""


def validate(rw: Rewrite, old_func: Operation, old_block: Block, new_func: Operation, new_block: Block) -> Verdict:
    try:
        with limited(VALIDATION_BUDGET):
            return _validate(rw, old_func, old_block, new_func, new_block)
    except BudgetExceeded:
        return Verdict(False, "validation budget exceeded")
    except IslFailure as e:
        return Verdict(False, f"isl failure: {e}")
    except (ValueError, AssertionError, KeyError, IndexError) as e:
        return Verdict(False, f"cannot model the fused code: {e}")


def _validate(rw: Rewrite, old_func: Operation, old_block: Block, new_func: Operation, new_block: Block) -> Verdict:
    plan = rw.plan
    fd_o = dependences_of_function(old_func)
    fd_n = dependences_of_function(new_func)
    cm_o = CanonModel(fd_o, old_block, "O")
    cm_n = CanonModel(fd_n, new_block, "F")
    if len(cm_o.outer) != len(cm_n.outer):
        return Verdict(False, "the enclosing loops changed")
    lo, hi = rw.range
    seg_old = old_block.operations[lo : hi + 1]
    # new block layout
    n_before = lo
    deleted_before = sum(1 for op in rw.deleted if any(op is o for o in old_block.operations[:lo]))
    deleted_after = sum(1 for op in rw.deleted if any(op is o for o in old_block.operations[hi + 1 :]))
    n_after = len(old_block.operations) - hi - 1 - deleted_after + rw.added_after
    expect = [e for e in rw.layout]
    if len(new_block.operations) != len(expect):
        return Verdict(False, f"unexpected block structure ({len(new_block.operations)} ops, expected {len(expect)})")
    for (kind, op), nop in zip(expect, new_block.operations):
        if kind == "orig" and (op is None or op.name != nop.name):
            return Verdict(False, "unexpected block structure")
        if kind == "alloc" and nop.name not in ("memref.alloc", "memref.alloca"):
            return Verdict(False, "unexpected block structure")
        if kind == "dealloc" and nop.name != "memref.dealloc":
            return Verdict(False, "unexpected block structure")
        if kind == "fused" and nop.name != "affine.for":
            return Verdict(False, "unexpected block structure")
    seg_lo = n_before - deleted_before
    seg_hi = len(new_block.operations) - n_after
    seg_new = new_block.operations[seg_lo:seg_hi]
    seg_layout = expect[seg_lo:seg_hi]
    old_accs = cm_o.accesses_under(seg_old)
    new_accs = cm_n.accesses_under(seg_new)
    if old_accs is None or new_accs is None:
        return Verdict(False, "an access cannot be modelled")
    for a in old_accs + new_accs:
        if not a.exact:
            return Verdict(False, f"{a.acc.describe()} is not modelled exactly")
    corrs: list[Corr] = []
    by_old_op: dict[Operation, list[CAccess]] = {}
    for a in old_accs:
        by_old_op.setdefault(a.op, []).append(a)
    shapes = {memref_id(p.memref): p for p in plan.private}
    priv_mids = {_priv_mid(p.name): tuple(p.type.shape) for p in plan.private}
    for (kind, op), nop in zip(seg_layout, seg_new):
        if kind in ("alloc", "dealloc"):
            continue
        nl = [a for a in new_accs if a.op is nop or nop.is_ancestor_of(a.op)]
        if kind == "orig":
            assert op is not None
            ol = [a for a in old_accs if a.op is op or op.is_ancestor_of(a.op)]
            if len(nl) != len(ol):
                return Verdict(False, "accesses changed in an untouched op")
            for n, o in zip(nl, ol):
                if n.op.name != o.op.name or len(n.inner_ivs) != len(o.inner_ivs):
                    return Verdict(False, "accesses changed in an untouched op")
                corrs.append(Corr(n, o, _identity(n, o), None))
            continue
        # the fused nest
        expected = _fused_sequence(rw, by_old_op)
        if len(expected) != len(nl):
            return Verdict(False, f"the fused nest has {len(nl)} accesses, expected {len(expected)}")
        for n, (role, o) in zip(nl, expected):
            if n.op.name != o.op.name:
                return Verdict(False, "the fused nest's accesses are not the expected ones")
            priv = shapes.get(o.mid)
            pshape = priv_mids.get(n.mid) if priv is not None else None
            if priv is not None and pshape is None:
                return Verdict(False, f"an access to {o.memref.name} was not privatised")
            if role == "dst":
                if len(n.inner_ivs) != len(o.inner_ivs):
                    return Verdict(False, "the destination loops changed")
                corrs.append(Corr(n, o, _identity(n, o), pshape))
            else:
                back = _copy_map(rw, cm_o, n, o)
                if back is None:
                    return Verdict(False, "cannot relate a copied access to the source")
                corrs.append(Corr(n, o, back, pshape))
    return _compare(plan, cm_o, old_accs, corrs, old_block)


def _priv_mid(name: str) -> str:
    from affine_lsp.transforms.fusion_isl import enc

    return "m_" + enc(name)


def _identity(n: CAccess, o: CAccess) -> isl.Map:
    k = len(n.inner_ivs)
    xs = ", ".join(f"x{i}" for i in range(k))
    return isl.Map.read_from_str(CTX, f"{{ {n.stmt}[{xs}] -> {o.stmt}[{xs}] }}")


def _fused_sequence(rw: Rewrite, by_old_op: dict[Operation, list[CAccess]]) -> list[tuple[str, CAccess]]:
    plan = rw.plan
    ins = plan.chain[plan.depth - 1]
    out: list[tuple[str, CAccess]] = []
    src_accs: list[tuple[str, CAccess]] = []
    for op in plan.src.walk():
        for a in by_old_op.get(op, []):
            src_accs.append(("copy", a))
    for op in plan.dst.walk():
        for a in by_old_op.get(op, []):
            out.append(("dst", a))
        if op is ins:
            out.extend(src_accs)
    return out


def _copy_map(rw: Rewrite, cm_o: CanonModel, n: CAccess, o: CAccess) -> isl.Map | None:
    """``{ F[x] -> O[s] }`` for a copied access: ``x`` are the destination
    IVs of the chain then the copy loops' IVs; ``s`` the source IVs."""
    plan = rw.plan
    depth = plan.depth
    chain_ivs = [for_iv(lp) for lp in plan.chain[:depth]]
    src_loops = [lp for lp in enclosing_fors(o.op) if lp is plan.src or plan.src.is_ancestor_of(lp)]
    coords: list[Value] = list(chain_ivs)  # type: ignore[arg-type]
    promoted: dict[Value, AVM] = {}
    for lp in src_loops:
        info = rw.copy_ivs.get(lp)
        iv = for_iv(lp)
        if info is None or iv is None:
            return None
        if info[0] == "loop":
            coords.append(iv)
        else:
            promoted[iv] = info[1]  # type: ignore[assignment]
    if len(coords) != len(n.inner_ivs):
        return None
    # the loops around the copy in the new IR: the destination's chain, then
    # the copy loops with the names codegen gave them, in this order
    if [v.name for v in n.inner_ivs[:depth]] != [v.name for v in chain_ivs]:  # type: ignore[union-attr]
        return None
    expected = [str(rw.copy_ivs[lp][1]) for lp in src_loops if rw.copy_ivs[lp][0] == "loop"]
    if [v.name for v in n.inner_ivs[depth:]] != expected:
        return None

    def repl(v: Value, is_dim: bool = True) -> AVM | None:
        a = promoted.get(v)
        return a.substitute(repl) if a is not None else None

    names = [f"x{k}" for k in range(len(coords))]
    space = set_space(names)
    pws: list[isl.PwAff] = []
    for iv in o.inner_ivs:
        if iv in promoted:
            a = promoted[iv].substitute(repl)
            pws.append(cm_o.avm_pwaffs(AVM([a.exprs[0]], a.dims, a.syms), space, coords)[0])
        elif iv in coords:
            pws.append(isl.PwAff.from_aff(isl.Aff.var_on_domain(isl.LocalSpace.from_space(space), DT.set, coords.index(iv))))
        else:
            return None
    if not pws:
        return None
    m = isl.Map.from_pw_aff(pws[0])
    for p in pws[1:]:
        m = m.flat_range_product(isl.Map.from_pw_aff(p))
    return m.set_tuple_name(DT.in_, n.stmt).set_tuple_name(DT.out, o.stmt)


def _um(maps: list[isl.Map]) -> isl.UnionMap:
    u = isl.UnionMap.empty(isl.Space.params_alloc(CTX, 0))
    for m in maps:
        u = u.union(isl.UnionMap.from_map(m))
    return u


def _sched_map(stmt: str, n: int, items: list[int | str], length: int) -> isl.Map:
    xs = [f"x{k}" for k in range(n)]
    out = [(xs[int(i[1:])] if isinstance(i, str) else str(i)) for i in items] + ["0"] * (length - len(items))
    return isl.Map.read_from_str(CTX, f"{{ {stmt}[{', '.join(xs)}] -> [{', '.join(out)}] }}")


@dataclass
class _Flow:
    dep: isl.UnionMap  # write -> read (and FIN) instances
    full: isl.UnionMap  # write -> [read -> element]
    nosrc: isl.UnionMap  # read -> element without a source


def _flow(accs: list[CAccess], fins: dict[str, isl.Set]) -> _Flow:
    length = max([len(a.sched) for a in accs] + [1]) + 1
    end = 1 + max([int(a.sched[0]) for a in accs if a.sched and isinstance(a.sched[0], int)] + [0])
    sched = _um([_sched_map(a.stmt, len(a.inner_ivs), a.sched, length) for a in accs])
    sinks = [a.relation for a in accs if not a.is_write]
    for mid, locs in fins.items():
        n = locs.dim(DT.set)
        xs = ", ".join(f"l{k}" for k in range(n))
        fin = f"FIN_{mid}"
        rel = isl.Map.read_from_str(CTX, f"{{ {fin}[{xs}] -> {mid}[{xs}] }}").intersect_domain(locs.set_tuple_name(fin))
        sinks.append(rel)
        sched = sched.union(isl.UnionMap.from_map(isl.Map.read_from_str(CTX, f"{{ {fin}[{xs}] -> [{', '.join([str(end)] + ['0'] * (length - 1))}] }}")))
    info = isl.UnionAccessInfo.from_sink(_um(sinks))
    info = info.set_must_source(_um([a.relation for a in accs if a.is_write]))
    info = info.set_schedule_map(sched)
    fl = info.compute_flow()
    return _Flow(fl.get_must_dependence(), fl.get_full_must_dependence(), fl.get_may_no_source())


def _compare(plan: object, cm_o: CanonModel, old_accs: list[CAccess], corrs: list[Corr], old_block: Block) -> Verdict:
    from affine_lsp.transforms.fusion_codegen import Plan

    assert isinstance(plan, Plan)
    new_accs = [c.new for c in corrs]
    back_all = _um([c.back for c in corrs])
    # 1 and 2: domains and elements
    for c in corrs:
        img = c.new.domain.apply(c.back)
        if not img.is_subset(c.old.domain):
            return Verdict(False, f"the copy executes instances of {c.old.acc.describe()} the source does not")
        if c.private is None:
            if c.new.mid != c.old.mid:
                return Verdict(False, "an access changed buffer")
            expect = c.back.intersect_domain(c.new.domain).apply_range(c.old.relation)
            if not expect.is_equal(c.new.relation):
                return Verdict(False, f"{c.new.acc.describe()} accesses other elements than {c.old.acc.describe()}")
        else:
            rng = c.new.relation.range()
            box = _box(c.new.mid, c.private, rng)
            if not rng.is_subset(box):
                return Verdict(False, f"{c.new.acc.describe()} accesses its private buffer out of bounds")
            if c.new.acc.op.name.startswith("affine.vector"):
                return Verdict(False, "vector accesses to a private buffer are not validated")
    # observable memrefs: the final state must agree
    nests = [plan.src, plan.dst]
    observable: dict[str, Value] = {}
    for a in old_accs + new_accs:
        if a.mid in {_priv_mid(p.name) for p in plan.private}:
            continue
        if a.is_write and not memref_dead_after(a.memref, old_block, nests):
            observable.setdefault(a.mid, a.memref)
    fins: dict[str, isl.Set] = {}
    for mid in observable:
        locs: isl.Set | None = None
        for a in old_accs + new_accs:
            if a.mid == mid and a.is_write:
                r = a.relation.range()
                locs = r if locs is None else locs.union(r)
        if locs is not None:
            fins[mid] = locs.coalesce()
    fo = _flow(old_accs, fins)
    fn = _flow(new_accs, fins)
    # A buffer allocated in the function and only used by the two nests, whose
    # reads in the segment never see a value from before it, carries nothing
    # out of the segment (e.g. an intermediate inside a time loop).
    for mid, m in list(observable.items()):
        if not _local_scratch(m, nests):
            continue
        reads = [a for a in old_accs if a.mid == mid and not a.is_write]
        if all(fo.nosrc.intersect_domain(isl.UnionSet.from_set(a.domain)).is_empty() for a in reads):
            del observable[mid]
    # 3: every read of the new segment
    for c in corrs:
        if c.new.is_write:
            continue
        n_dom = isl.UnionSet.from_set(c.new.domain)
        o_dom = isl.UnionSet.from_set(c.old.domain)
        if c.private is not None:
            lhs = fn.dep.intersect_range(n_dom).reverse().apply_range(back_all)
            rhs = isl.UnionMap.from_map(c.back).apply_range(fo.dep.intersect_range(o_dom).reverse())
            if not lhs.is_equal(rhs):
                return Verdict(False, f"{c.new.acc.describe()} would read other values than {c.old.acc.describe()}", c.old.op)
            ns = fn.nosrc.intersect_domain(n_dom)
            if not ns.is_empty():
                return Verdict(False, f"{c.new.acc.describe()} would read its private buffer before it is written")
            continue
        # keyed by (read instance, element)
        lhs = _keyed(fn.full, c.new.stmt).apply_range(back_all)
        ident = isl.Map.identity(isl.Space.map_from_set(c.new.relation.get_space().range()))
        k = c.back.product(ident).intersect_domain(c.new.relation.wrap())
        rhs = isl.UnionMap.from_map(k).apply_range(_keyed(fo.full, c.old.stmt))
        if not lhs.is_equal(rhs):
            return Verdict(False, f"{c.new.acc.describe()} would read other values than {c.old.acc.describe()}", c.old.op)
        ns_n = fn.nosrc.intersect_domain(n_dom).wrap()
        ns_o = fo.nosrc.intersect_domain(o_dom).wrap()
        pre = isl.UnionMap.from_map(k).intersect_range(ns_o).domain()
        if not ns_n.is_equal(pre):
            return Verdict(False, f"{c.new.acc.describe()} would read values from before the loops that the original did not, or the reverse", c.old.op)
    # 4: the last writes
    for mid in fins:
        if mid not in observable:
            continue
        fin = f"FIN_{mid}"
        fsp = isl.UnionSet.from_set(isl.Set.universe(fins[mid].set_tuple_name(fin).get_space()))
        lhs = fn.dep.intersect_range(fsp).reverse().apply_range(back_all)
        rhs = fo.dep.intersect_range(fsp).reverse()
        if not lhs.is_equal(rhs):
            return Verdict(False, f"{observable[mid].name} would not hold the same values after the loops")
        if not fn.nosrc.intersect_domain(fsp).is_equal(fo.nosrc.intersect_domain(fsp)):
            return Verdict(False, f"{observable[mid].name} would not hold the same values after the loops")
    return Verdict(True)


def _local_scratch(m: Value, nests: list[Operation]) -> bool:
    """``m`` is allocated in the function (no view, no escape) and every use
    is an affine access inside ``nests`` (or a dealloc)."""
    from affine_lsp.ir import op_traits
    from affine_lsp.transforms.fusion_ir import access_memref, view_related

    owner = m.defining_op
    if owner is None or not owner.known or not op_traits.allocates(owner.name) or view_related(m):
        return False
    for u in m.uses:
        if u.user.name == "memref.dealloc":
            continue
        if access_memref(u.user) is not m or not any(n is u.user or n.is_ancestor_of(u.user) for n in nests):
            return False
    return True


def _keyed(full: isl.UnionMap, stmt: str) -> isl.UnionMap:
    """``{ [R[r] -> X[l]] -> W[s] }`` for the reads of statement ``stmt``."""
    out = isl.UnionMap.empty(full.get_space())
    maps: list[isl.Map] = []
    full.foreach_map(maps.append)
    for m in maps:
        rng = m.get_space().range()
        if not rng.is_wrapping():
            continue
        inner = rng.unwrap()
        if inner.get_tuple_name(DT.in_) != stmt:
            continue
        out = out.union(isl.UnionMap.from_map(m.reverse()))
    return out


def _box(mid: str, shape: tuple[int, ...], like: isl.Set) -> isl.Set:
    xs = [f"l{k}" for k in range(len(shape))]
    cons = " and ".join(f"0 <= {x} < {n}" for x, n in zip(xs, shape)) or "true"
    return isl.Set.read_from_str(CTX, f"{{ {mid}[{', '.join(xs)}] : {cons} }}")
