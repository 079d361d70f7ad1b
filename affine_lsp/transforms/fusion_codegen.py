"""Writing a fusion as text edits.

A :class:`Plan` says what to do (copy a slice of ``src`` into ``dst`` at a
depth, maybe remove ``src``, maybe give the fused nest private buffers);
:func:`build_rewrite` turns it into minimal :class:`TextEdit` s:

* the copy of the source nest, printed from a deep clone of its IR with
  fresh SSA names, sliced loop bounds, single-iteration loops promoted (the
  IV substituted into affine maps, an ``affine.apply`` only for other uses)
  and private-buffer accesses rewritten, inserted at the start of the body
  of the destination loop of the chosen depth;
* the destination's accesses to private buffers re-printed on the new
  buffer with shifted subscripts (nothing else of the destination changes);
* ``memref.alloc`` of each private buffer just before the fused nest (at
  the top of the function when the nest is in a loop) and its
  ``memref.dealloc`` (see :func:`build_rewrite`); ``memref.alloca`` when the
  buffer it replaces was an ``alloca``;
* deletion of the source nest and of allocations left without uses;
* when dependences require it, the fused nest moves up to an earlier point
  of the block (its text is cut and pasted there).

:class:`Rewrite` also records what the new block should contain and how
each copied access relates to the source instance it executes, which
:mod:`.fusion_validate` checks on the re-parsed result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from affine_lsp.ir import op_traits
from affine_lsp.ir.affine_expr import AffineExpr, AffineExprKind, IntegerSet, dim, symbol
from affine_lsp.ir.affine_expr import constant as const_expr
from affine_lsp.ir.affine_ops import ForView
from affine_lsp.ir.attributes import AffineMapAttr, IntegerAttr, IntegerSetAttr, StringAttr
from affine_lsp.ir.core import NO_SPAN, Block, BlockArgument, Operation, OpResult, Region, Value
from affine_lsp.ir.printer import Printer
from affine_lsp.ir.types import INDEX, MemRefType
from affine_lsp.source.scratch import enrol_ir
from affine_lsp.transforms.edits import TextEdit, apply_edits, delete_op, line_start, reindent
from affine_lsp.transforms.fusion_ir import access_memref, index_in_block, walk_accesses
from affine_lsp.transforms.fusion_isl import AVM
from affine_lsp.transforms.fusion_slice import Slice
from affine_lsp.transforms.rewrite import NameGen, clone_op, line_indent


@dataclass
class PrivateBuf:
    memref: Value
    name: str
    type: MemRefType
    offsets: AVM  # one expression per dimension
    constants: dict[Operation, dict[int, int]] = field(default_factory=dict)  # per original access: constant subscripts

    def value(self) -> Value:
        return Value(self.name, self.type, NO_SPAN)

    @property
    def on_stack(self) -> bool:
        """The buffer it replaces is a ``memref.alloca``: so is the private
        one (freed when the function returns, no dealloc)."""
        op = self.memref.defining_op
        return op is not None and op.name == "memref.alloca"


@dataclass
class Plan:
    kind: str  # "producer-consumer" | "sibling"
    src: Operation
    dst: Operation
    block: Block
    depth: int
    chain: list[Operation]
    slice: Slice
    remove_src: bool
    private: list[PrivateBuf] = field(default_factory=list)
    insert_before: Operation | None = None  # None: the fused nest stays where dst is

    def private_of(self, m: Value) -> PrivateBuf | None:
        for p in self.private:
            if p.memref is m:
                return p
        return None


@dataclass
class Rewrite:
    plan: Plan
    edits: list[TextEdit]
    layout: list[tuple[str, Operation | None]]
    # per source loop: ("loop", new IV name) or ("promoted", AVM over original values)
    copy_ivs: dict[Operation, tuple[str, object]]
    deleted: list[Operation]
    range: tuple[int, int]  # first and last index of the affected ops in the original block
    entry_shift: int = 0  # ops added to the function's entry block before the op holding the block
    added_after: int = 0  # ops added to the block after the affected range (the private buffers' deallocs)

    def new_path(self, path: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
        """The block path in the rewritten function (allocations hoisted to
        the function's entry block shift the positions there)."""
        if not self.entry_shift or len(path) < 2:
            return path
        oi, ri, bi = path[1]
        return [path[0], (oi + self.entry_shift, ri, bi), *path[2:]]


class CodegenError(Exception):
    pass


# ------------------------------------------------------------- affine ops

# op name -> (attribute key, first map operand, is a set)
_MAP_OPERANDS: dict[str, tuple[str, int, bool]] = {
    "affine.load": ("map", 1, False),
    "affine.vector_load": ("map", 1, False),
    "affine.store": ("map", 2, False),
    "affine.vector_store": ("map", 2, False),
    "affine.apply": ("map", 0, False),
    "affine.min": ("map", 0, False),
    "affine.max": ("map", 0, False),
    "affine.if": ("condition", 0, True),
}


def _uses_non_affine(iv: Value, body_ops: list[Operation]) -> bool:
    """``iv`` is used by an op other than as an affine map operand."""
    for top in body_ops:
        for op in top.walk():
            if iv not in op.operands:
                continue
            spec = _MAP_OPERANDS.get(op.name)
            for i, v in enumerate(op.operands):
                if v is not iv:
                    continue
                if op.name == "affine.for":
                    segs = op.operand_segments or ()
                    if i >= sum(segs[:2]):
                        return True
                    continue
                if spec is None or i < spec[1]:
                    return True
    return False


class _Cloner:
    def __init__(self, plan: Plan, names: NameGen) -> None:
        self.plan = plan
        self.names = names
        self.vmap: dict[Value, Value] = {}
        self.promoted: dict[Value, AVM] = {}
        self.materialized: dict[Value, Value] = {}  # promoted IVs as values, for non-affine uses
        self.copy_ivs: dict[Operation, tuple[str, object]] = {}
        self.src_loops = {op for op in plan.src.walk() if op.name == "affine.for"}

    # values -------------------------------------------------------------
    def _repl(self, v: Value, is_dim: bool) -> AVM | None:
        if v in self.promoted:
            return self.promoted[v]
        if v in self.vmap:
            nv = self.vmap[v]
            return AVM([dim(0)], [nv], []) if is_dim else AVM([symbol(0)], [], [nv])
        return None

    def remap_avm(self, a: AVM) -> AVM:
        return a.substitute(self._repl).simplified()

    def value(self, v: Value) -> Value:
        got = self.vmap.get(v)
        if got is not None:
            return got
        got = self.materialized.get(v)
        if got is not None:
            return got
        if v in self.promoted:
            raise CodegenError(f"{v.name} was promoted but is used by a non-affine op")
        return v

    def _fresh(self, v: Value) -> str:
        return self.names.fresh(_base(v.name))

    # ops ------------------------------------------------------------------
    def clone_ops(self, ops: list[Operation], parent: Block | None) -> list[Operation]:
        out: list[Operation] = []
        for op in ops:
            if op.name == "affine.for" and op in self.src_loops:
                out.extend(self._clone_loop(op, parent))
            else:
                out.append(self._clone_generic(op, parent))
        return out

    def _clone_loop(self, op: Operation, parent: Block | None) -> list[Operation]:
        fv = ForView(op)
        lb = self.plan.slice.bounds.get(op)
        lo_orig = lb.lower if lb is not None and lb.lower is not None else AVM.from_map(fv.lower.map, list(fv.lower.operands))
        hi_orig = lb.upper if lb is not None and lb.upper is not None else AVM.from_map(fv.upper.map, list(fv.upper.operands))
        if fv.inits and lb is not None and lb.sliced:
            raise CodegenError("a loop carrying values (iter_args) would be sliced")
        lo = self.remap_avm(lo_orig)
        hi = self.remap_avm(hi_orig)
        iv = fv.iv
        body = fv.body
        if iv is None or body is None:
            raise CodegenError("malformed affine.for")
        body_ops = list(body.operations)
        if not fv.inits and not op.results and fv.step >= 1 and len(lo.exprs) == 1 and len(hi.exprs) == 1:
            both = lo.merged([hi])
            diff = (both.exprs[1] - both.exprs[0]).simplify()
            if (diff.is_constant() and diff.value == 1) or (lb is not None and lb.exact_one):  # type: ignore[attr-defined]
                return self._promote(op, iv, lo, lo_orig, body_ops, parent)
        new = Operation("affine.for", NO_SPAN, NO_SPAN)
        inits = [self.value(v) for v in fv.inits]
        attrs = dict(op.attributes)
        for k in ("__lb_kw", "__ub_kw", "__lb_num_dims", "__ub_num_dims"):
            attrs.pop(k, None)
        if (lb is not None and lb.lower is not None) or any(v in self.promoted for v in fv.lower.operands):
            attrs["lower_bound"] = AffineMapAttr(lo.map())
            lo_ops = lo.operands()
            n_lo = len(lo.exprs)
        else:
            lo_ops = [self.value(v) for v in fv.lower.operands]
            n_lo = fv.lower.map.num_results
        if (lb is not None and lb.upper is not None) or any(v in self.promoted for v in fv.upper.operands):
            attrs["upper_bound"] = AffineMapAttr(hi.map())
            hi_ops = hi.operands()
            n_hi = len(hi.exprs)
        else:
            hi_ops = [self.value(v) for v in fv.upper.operands]
            n_hi = fv.upper.map.num_results
        if n_lo > 1:
            attrs["__lb_kw"] = StringAttr("max", "max")
        if n_hi > 1:
            attrs["__ub_kw"] = StringAttr("min", "min")
        new.operands = lo_ops + hi_ops + inits
        new.operand_spans = [NO_SPAN] * len(new.operands)
        new.operand_segments = (len(lo_ops), len(hi_ops), len(inits))
        new.attributes = attrs
        new.results = [OpResult(self.names.fresh(_base(r.name)), r.type, NO_SPAN, owner=new, index=i) for i, r in enumerate(op.results)]
        for r_old, r_new in zip(op.results, new.results):
            self.vmap[r_old] = r_new
        region = Region(NO_SPAN, [], new)
        blk = Block(None, NO_SPAN, [], [], region)
        region.blocks.append(blk)
        for i, a in enumerate(body.arguments):
            na = BlockArgument(self._fresh(a), a.type, NO_SPAN, owner=blk, index=i)
            blk.arguments.append(na)
            self.vmap[a] = na
        new.regions = [region]
        new.parent = parent
        self.copy_ivs[op] = ("loop", blk.arguments[0].name)
        blk.operations = self.clone_ops(body_ops, blk)
        return [new]

    def _promote(self, op: Operation, iv: Value, lo: AVM, lo_orig: AVM, body_ops: list[Operation], parent: Block | None) -> list[Operation]:
        self.copy_ivs[op] = ("promoted", lo_orig)
        out: list[Operation] = []
        e = lo.exprs[0]
        self.promoted[iv] = lo
        if _uses_non_affine(iv, body_ops):
            if e.kind in (AffineExprKind.DIM, AffineExprKind.SYMBOL):
                self.materialized[iv] = lo.operands()[0]
            elif e.is_constant():
                cst = Operation("arith.constant", NO_SPAN, NO_SPAN)
                cst.attributes = {"value": IntegerAttr(e.value, INDEX)}  # type: ignore[attr-defined]
                cst.results = [OpResult(self._fresh(iv), INDEX, NO_SPAN, owner=cst, index=0)]
                cst.parent = parent
                self.materialized[iv] = cst.results[0]
                out.append(cst)
            else:
                apply = Operation("affine.apply", NO_SPAN, NO_SPAN)
                apply.operands = lo.operands()
                apply.operand_spans = [NO_SPAN] * len(apply.operands)
                apply.attributes = {"map": AffineMapAttr(lo.map())}
                apply.results = [OpResult(self._fresh(iv), INDEX, NO_SPAN, owner=apply, index=0)]
                apply.parent = parent
                self.materialized[iv] = apply.results[0]
                out.append(apply)
        out.extend(self.clone_ops(body_ops, parent))
        return out

    def _clone_generic(self, op: Operation, parent: Block | None) -> Operation:
        if not op.known:
            raise CodegenError(f"cannot copy '{op.name}' (unknown syntax)")
        new = Operation(op.name, NO_SPAN, NO_SPAN)
        new.custom = op.custom
        new.known = op.known
        new.attributes = dict(op.attributes)
        new.operand_segments = op.operand_segments
        spec = _MAP_OPERANDS.get(op.name)
        operands = list(op.operands)
        if spec is not None:
            key, first, is_set = spec
            head = [self.value(v) for v in operands[:first]]
            tail = operands[first:]
            attr = op.attributes.get(key)
            priv = self.plan.private_of(access_memref(op)) if op.name in _ACCESS else None
            if is_set:
                assert isinstance(attr, IntegerSetAttr)
                st = attr.set
                a = AVM(list(st.constraints), tail[: st.num_dims], tail[st.num_dims :])
                changed = any(v in self.promoted for v in tail)
                a2 = self.remap_avm(a)
                if changed:
                    new.attributes[key] = IntegerSetAttr(IntegerSet(len(a2.dims), len(a2.syms), a2.exprs, st.eq_flags))
                    tail_new = a2.operands()
                else:
                    tail_new = [self.value(v) for v in tail]
            else:
                assert isinstance(attr, AffineMapAttr)
                a = AVM.from_map(attr.map, tail)
                changed = any(v in self.promoted for v in tail) or priv is not None
                if changed:
                    a2 = self.remap_avm(a)
                    if priv is not None:
                        a2 = shift_subscripts(a2, priv.offsets, priv.constants.get(op))
                    new.attributes[key] = AffineMapAttr(a2.map())
                    tail_new = a2.operands()
                else:
                    tail_new = [self.value(v) for v in tail]
            if priv is not None:
                mi = 0 if op.name.endswith("load") else 1
                head[mi] = priv.value()
            new.operands = head + tail_new
        else:
            new.operands = [self.value(v) for v in operands]
        new.operand_spans = [NO_SPAN] * len(new.operands)
        # results: multi-result ops keep their "#k" grouping
        if op.results:
            bases: dict[str, str] = {}
            new.results = []
            for i, r in enumerate(op.results):
                if "#" in r.name:
                    base, k = r.name.split("#", 1)
                    if base not in bases:
                        bases[base] = self.names.fresh(_base(base))
                    name = f"{bases[base]}#{k}"
                else:
                    name = self.names.fresh(_base(r.name))
                nr = OpResult(name, r.type, NO_SPAN, owner=new, index=i)
                new.results.append(nr)
                self.vmap[r] = nr
        new.regions = []
        for reg in op.regions:
            nreg = Region(NO_SPAN, [], new)
            for b in reg.blocks:
                nb = Block(b.label, NO_SPAN, [], [], nreg)
                for i, a in enumerate(b.arguments):
                    na = BlockArgument(self._fresh(a), a.type, NO_SPAN, owner=nb, index=i)
                    nb.arguments.append(na)
                    self.vmap[a] = na
                nreg.blocks.append(nb)
            for b, nb in zip(reg.blocks, nreg.blocks):
                nb.operations = self.clone_ops(list(b.operations), nb)
            new.regions.append(nreg)
        new.successors = []
        new.parent = parent
        return new


def _base(name: str) -> str:
    """``%a_2`` -> ``%a``: copies of copies get ``%a_3``, not ``%a_2_1``."""
    return re.sub(r"_\d+$", "", name.split("#", 1)[0]) or name


_ACCESS = frozenset({"affine.load", "affine.store", "affine.vector_load", "affine.vector_store"})


def shift_subscripts(a: AVM, offsets: AVM, constants: dict[int, int] | None = None) -> AVM:
    """``a``'s results minus ``offsets`` (one per result); subscripts known
    to be constant are replaced by the constant."""
    both = a.merged([offsets])
    n = len(a.exprs)
    exprs: list[AffineExpr] = [both.exprs[i] - both.exprs[n + i] for i in range(n)]
    for r, c in (constants or {}).items():
        exprs[r] = const_expr(c)
    return AVM(exprs, both.dims, both.syms).simplified()


def private_access_text(op: Operation, priv: PrivateBuf) -> str:
    """A destination access re-printed on its private buffer."""
    spec = _MAP_OPERANDS[op.name]
    key, first, _ = spec
    attr = op.attributes[key]
    assert isinstance(attr, AffineMapAttr)
    a = AVM.from_map(attr.map, list(op.operands[first:]))
    a2 = shift_subscripts(a, priv.offsets, priv.constants.get(op))
    head = list(op.operands[:first])
    head[0 if op.name.endswith("load") else 1] = priv.value()
    attrs = dict(op.attributes)
    attrs[key] = AffineMapAttr(a2.map())
    return Printer().print_op(clone_op(op, operands=head + a2.operands(), attributes=attrs))


def alloc_text(p: PrivateBuf) -> str:
    return f"{p.name} = memref.{'alloca' if p.on_stack else 'alloc'}() : {p.type}"


def dealloc_text(p: PrivateBuf) -> str:
    return f"memref.dealloc {p.name} : {p.type}"


# ------------------------------------------------------------ the rewrite


def build_rewrite(text: str, plan: Plan, names: NameGen) -> Rewrite:
    """Edits on ``text`` (the whole buffer) implementing ``plan``."""
    src, dst, block = plan.src, plan.dst, plan.block
    chain = plan.chain[: plan.depth]
    ins_loop = chain[-1]
    body = ForView(ins_loop).body
    if body is None or not body.operations:
        raise CodegenError("empty destination loop")
    cl = _Cloner(plan, names)
    copy_ops = cl.clone_ops([src], None)
    enrol_ir(copy_ops)
    printer = Printer(text)
    first = body.operations[0]
    ls = line_start(text, first.span.start)
    if text[ls : first.span.start].strip():
        raise CodegenError("the destination loop body does not start on its own line")
    indent = text[ls : first.span.start]
    copy_text = "\n".join(reindent(printer.print_op(o, 0), indent) for o in copy_ops) + "\n"
    inner: list[TextEdit] = [TextEdit(ls, ls, copy_text)]
    for acc in walk_accesses(dst):
        p = plan.private_of(access_memref(acc))  # type: ignore[arg-type]
        if p is not None:
            inner.append(TextEdit(acc.span.start, acc.span.end, private_access_text(acc, p)))
    edits: list[TextEdit] = []
    layout: list[tuple[str, Operation | None]] = []
    moved = plan.insert_before is not None and plan.insert_before is not dst
    dst_indent = line_indent(text, dst.span.start)
    func = op_traits.enclosing_function(block.parent_op) if block.parent_op is not None else None
    entry = func.regions[0].blocks[0] if func is not None and func.regions and func.regions[0].blocks else None
    hoisted = 0
    if entry is not None and entry is not block and plan.private and entry.operations:
        # Inside a loop: allocate the private buffers once, at the top of the
        # function (an allocation in the loop body would run every iteration).
        top = entry.operations[0]
        at = line_start(text, top.span.start)
        ind = line_indent(text, top.span.start)
        edits_top = TextEdit(at, at, "".join(f"{ind}{alloc_text(p)}\n" for p in plan.private))
        hoisted = len(plan.private)
        allocs = ""
    else:
        edits_top = None
        allocs = "".join(f"{dst_indent}{alloc_text(p)}\n" for p in plan.private)
    if moved:
        assert plan.insert_before is not None
        d0 = dst.span.start
        fused = apply_edits(text[d0 : dst.span.end], [TextEdit(e.start - d0, e.end - d0, e.new_text) for e in inner])
        edits.append(delete_op(text, dst))
        at = line_start(text, plan.insert_before.span.start)
        edits.append(TextEdit(at, at, allocs + dst_indent + fused + "\n"))
    else:
        edits.extend(inner)
        if allocs:
            at = line_start(text, dst.span.start)
            edits.append(TextEdit(at, at, allocs))
    if edits_top is not None:
        edits.append(edits_top)
    deleted: list[Operation] = []
    if plan.remove_src:
        edits.append(delete_op(text, src))
        deleted.append(src)
    # allocations left without uses
    gone = {src} if plan.remove_src else set()
    priv_accs = {a for a in walk_accesses(dst) if plan.private_of(access_memref(a)) is not None}  # type: ignore[arg-type]
    entry_deleted_before = 0
    outer = _outer_op(block, entry)
    # Freeing the private buffers. MLIR 22.1.8's -affine-loop-fusion allocates
    # them with memref.alloc and never frees them (checked with mlir-opt): a
    # function that freed everything it allocated would leak on every call.
    # Each private buffer (but an alloca's, freed on return) is freed where the
    # buffer it replaces was freed, when that dealloc goes away with the
    # original's alloc and is in the block holding the private alloc, after
    # the fused nest (the dealloc is rewritten in place); otherwise (a function
    # argument, a buffer never freed or freed elsewhere, or the alloc hoisted
    # out of a loop) just before that block's terminator, which runs once,
    # after the fused nest. A dealloc right after the fused nest would sit
    # between it and the next nest and block a further fusion of the two.
    home = entry if hoisted else block
    anchor = outer if hoisted else dst  # the op of ``home`` the fused nest is in or next to
    freed_at: dict[int, Operation] = {}  # private buffer index -> original dealloc rewritten in place
    for k, p in enumerate(plan.private):
        op = p.memref.defining_op
        if op is None or op.name not in ("memref.alloc", "memref.alloca") or op.parent is None:
            continue
        m = p.memref
        deallocs = [u.user for u in m.uses if u.user.name == "memref.dealloc" and u.user.parent is op.parent]
        if all(u.user in priv_accs or u.user in deallocs or any(g is u.user or g.is_ancestor_of(u.user) for g in gone) for u in m.uses):
            for d in [op, *deallocs]:
                if (
                    d is not op
                    and k not in freed_at
                    and not p.on_stack
                    and d.parent is home
                    and anchor is not None
                    and index_in_block(d) > index_in_block(anchor)
                ):
                    freed_at[k] = d
                    edits.append(TextEdit(d.span.start, d.span.end, dealloc_text(p)))
                    continue
                edits.append(delete_op(text, d))
                deleted.append(d)
                if d.parent is entry and entry is not block and outer is not None and index_in_block(d) < index_in_block(outer):
                    entry_deleted_before += 1
    at_end = [p for k, p in enumerate(plan.private) if not p.on_stack and k not in freed_at]
    term: Operation | None = None
    if at_end:
        term = home.operations[-1] if home.operations else None
        if term is None or term is anchor or term is src or term.regions or (anchor is not None and index_in_block(term) < index_in_block(anchor)):
            raise CodegenError("no terminator after the fused nest to free its private buffers before")
        ls = line_start(text, term.span.start)
        ind = line_indent(text, term.span.start)
        frees = "".join(f"{ind}{dealloc_text(p)}\n" for p in at_end)
        if text[ls : term.span.start].strip():
            edits.append(TextEdit(term.span.start, term.span.start, frees.lstrip() + ind))
        else:
            edits.append(TextEdit(ls, ls, frees))
    added_after = len(at_end) if home is block else 0
    # expected layout of the new block
    for op in block.operations:
        if home is block and op is term:
            layout.extend(("dealloc", None) for _ in at_end)
        if op in deleted and op is not src:
            continue
        if moved and op is plan.insert_before:
            layout.extend(("alloc", None) for _ in range(len(plan.private) - hoisted))
            layout.append(("fused", None))
        if op is src and plan.remove_src:
            continue
        if op is dst:
            if not moved:
                layout.extend(("alloc", None) for _ in range(len(plan.private) - hoisted))
                layout.append(("fused", None))
            continue
        layout.append(("orig", op))
    idx = [index_in_block(src), index_in_block(dst)]
    if plan.insert_before is not None:
        idx.append(index_in_block(plan.insert_before))
    return Rewrite(plan, edits, layout, cl.copy_ivs, deleted, (min(idx), max(idx)), hoisted - entry_deleted_before, added_after)


def _outer_op(block: Block, entry: Block | None) -> Operation | None:
    """The op of the function's entry block that holds ``block``."""
    cur = block.parent_op
    while cur is not None and cur.parent is not entry:
        cur = cur.parent_op
    return cur
