"""Vectorize loop: the rewrite, the code actions and the whole-document run.

The plan (:mod:`.vectorize_analysis`) says what every value becomes; this
module writes the vectorized loop's text and replaces the loop with it:

* before the loop: broadcasts of uniform values defined outside it, the
  padding constants of the transfers, the neutral vectors the reductions
  start from, the lane offsets ``[0, s, 2s, ...]`` of linear values;
* the loop, stepping by ``s * N``, up to the last whole vector when the trip
  count is not a known multiple of ``N`` (``plan.remainder``); only when
  that bound cannot be written (``plan.mask``: a max/min bound) the mask
  (``vector.create_mask`` of the remaining iterations) at the top of its
  body instead; inside, uniform ops written as they were, contiguous
  loads/stores as ``vector.transfer_read/write`` (``in_bounds = [true]``
  when ``plan.in_bounds`` proves it, a ``permutation_map`` when the loop
  does not run along the last dimension), element-wise ops on vectors,
  inner loops carrying vectors in their ``iter_args``; comments between ops
  are kept;
* after the loop: one ``vector.reduction <kind>, %acc, %init`` per reduction
  (the accumulator starts from the neutral element; the original initial
  value is the reduction's accumulator operand), named as the loop result it
  replaces so that the code after the loop is untouched; with a remainder,
  the original loop over the remaining iterations follows, under the
  original result names, its ``iter_args`` starting from those reductions.

Every candidate carries the :class:`~affine_lsp.transforms.profitability.Prediction`
of :func:`.vectorize_profit.predict`; ``--all`` (:func:`select_loops`) takes
only the profitable ones unless forced.

API for the language server: :func:`vectorize_candidates` (one
:class:`~affine_lsp.transforms.edits.Transform` per vector width, or one
disabled action with the reason). For the CLI: :func:`vectorize_document`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from affine_lsp.ir import printer as _printer
from affine_lsp.ir.affine_expr import AffineDimExpr, AffineExpr, AffineMap, AffineSymbolExpr, constant, dim, symbol
from affine_lsp.ir.affine_ops import ForView
from affine_lsp.ir.attributes import AffineMapAttr
from affine_lsp.ir.core import Block, Operation, Value
from affine_lsp.ir.types import FloatType, IndexType, Type, VectorType
from affine_lsp.transforms.catalog import OptionError
from affine_lsp.transforms.edits import TextEdit, Transform, UnsafeTransform
from affine_lsp.transforms.parallelize import Reduction
from affine_lsp.transforms.rewrite import (
    LoopOutcome,
    NameGen,
    apply_sequentially,
    checked_in_section,
    detached_value,
    function_text,
    gap_comments,
    is_unnamed,
    line_indent,
    op_source,
    print_clone,
    result_base,
    result_prefix,
)
from affine_lsp.transforms.vectorize_analysis import DIVISIONS, LINEAR, UNIFORM, VECTOR, Rejected, VectorPlan, analyze, neutral_literal
from affine_lsp.transforms.vectorize_profit import predict

if TYPE_CHECKING:
    from argparse import Namespace

DEFAULT_WIDTHS = (8, 4, 16)


def _bound_text(op: Operation, key: str, operands: Sequence[Value], kw: str) -> str:
    a = op.attributes[key]
    assert isinstance(a, AffineMapAttr)
    return _printer.bound_text(a, operands, kw)


def _apply_of(e: AffineExpr, nd: int, operands: Sequence[Value]) -> str:
    """``affine.apply`` of the single result ``e`` (over ``nd`` dims, then
    symbols, bound to ``operands``) taking only the operands it uses."""
    used_d = [p for p in range(nd) if e.uses_dim(p)]
    used_s = [q for q in range(len(operands) - nd) if e.uses_symbol(q)]
    dims_r = [dim(used_d.index(p)) if p in used_d else constant(0) for p in range(nd)]
    syms_r = [symbol(used_s.index(q)) if q in used_s else constant(0) for q in range(len(operands) - nd)]
    m = AffineMap(len(used_d), len(used_s), [e.replace(dims_r, syms_r)])
    s = f"affine.apply {m.to_attr_str()}({', '.join(operands[p].name for p in used_d)})"
    if used_s:
        s += f"[{', '.join(operands[nd + q].name for q in used_s)}]"
    return s


def _zero_literal(t: Type) -> str:
    return "0.000000e+00" if isinstance(t, FloatType) else "0"


class _Emitter:
    """Writes the text that replaces one loop (and the renames of its results)."""

    def __init__(self, text: str, plan: VectorPlan, names: NameGen) -> None:
        self.t = text
        self.p = plan
        self.names = names
        self.n = plan.vf
        self.loop = plan.loop
        self.f = ForView(plan.loop)
        self.indent = line_indent(text, plan.loop.span.start)
        self.prelude: list[str] = []
        self.consts: dict[str, str] = {}
        self.bname: dict[Value, str] = {}
        self.lname: dict[Value, str] = {}
        self.mask: str | None = None
        self.neutral: dict[int, str] = {}

    # ------------------------------------------------------------ helpers
    def vt(self, t: Type | None) -> VectorType:
        assert t is not None
        return VectorType([self.n], t)

    def const(self, literal: str, t: str, base: str) -> str:
        """A constant hoisted before the loop (deduplicated)."""
        key = f"{literal} : {t}"
        got = self.consts.get(key)
        if got is None:
            got = self.names.fresh(base)
            self.consts[key] = got
            self.prelude.append(f"{got} = arith.constant {key}")
        return got

    def ones(self, t: Type) -> str:
        lit = "1.000000e+00" if isinstance(t, FloatType) else "1"
        return self.const(f"dense<{lit}>", str(self.vt(t)), "ones")

    def lanes_offsets(self, stride: int) -> str:
        vals = ", ".join(str(stride * k) for k in range(self.n))
        return self.const(f"dense<[{vals}]>", str(self.vt(IndexType())), "lanes")

    def value(self, v: Value) -> Value:
        """``v`` as a vector operand (a detached value named for printing)."""
        k = self.p.kind(v)
        if k == VECTOR:
            return detached_value(v.name, self.vt(v.type))
        if k == LINEAR:
            return detached_value(self.lname[v], self.vt(IndexType()))
        return detached_value(self.bname[v], self.vt(v.type))

    def result_name(self, v: Value) -> str:
        return self.names.fresh("v") if is_unnamed(v) else v.name

    def vec_name(self, v: Value) -> str:
        return self.value(v).name

    def _materialize(self, v: Value, ind: str, out: list[str]) -> None:
        """Broadcast / lane vector of ``v`` right after its definition."""
        if v in self.p.need_bcast and v not in self.bname:
            name = self.names.fresh(v.name.lstrip("%") + "_b")
            self.bname[v] = name
            out.append(f"{ind}{name} = vector.broadcast {v.name} : {v.type} to {self.vt(v.type)}")
        if v in self.p.need_lanes and v not in self.lname:
            b = self.names.fresh(v.name.lstrip("%") + "_b")
            name = self.names.fresh(v.name.lstrip("%") + "_lanes")
            self.lname[v] = name
            out.append(f"{ind}{b} = vector.broadcast {v.name} : {v.type} to {self.vt(v.type)}")
            out.append(f"{ind}{name} = arith.addi {b}, {self.lanes_offsets(self.p.lane_stride[v])} : {self.vt(v.type)}")

    # ------------------------------------------------------------ the loop
    def emit(self) -> tuple[str, dict[Value, str]]:
        """The replacement of the loop's text, and renames of its results'
        uses after it."""
        p, f, loop = self.p, self.f, self.loop
        ind = self.indent
        # uniform values defined outside the loop, broadcast once before it
        outside: list[str] = []
        for v in sorted(p.need_bcast, key=lambda v: v.span.start):
            if not self._inside(v):
                self._materialize(v, "", outside)
        for r in p.reductions:
            lit = neutral_literal(r)
            assert lit is not None
            self.neutral[r.position] = self.const(f"dense<{lit}>", str(self.vt(r.type)), r.iter_arg.name.lstrip("%") + "_init")
        body = f.body
        assert body is not None and f.iv is not None
        inner_ind = self._block_indent(body, ind)
        start: list[str] = []
        if p.mask:
            self._mask_lines(inner_ind, start)
        self._materialize(f.iv, inner_ind, start)
        lines = start + self._block(body, loop, inner_ind)
        # header
        renames: dict[Value, str] = {}
        new_names: list[str] = []
        post: list[str] = []
        partial: dict[int, str] = {}  # with a remainder loop: the vector loop's reduction, its initial value
        if loop.results:
            base = result_base(loop, "red")
            vec = self.names.fresh(base + "_vec")
            new_names = [vec] if len(loop.results) == 1 else [f"{vec}#{i}" for i in range(len(loop.results))]
            for r in p.reductions:
                out_name = r.result.name
                if p.remainder:
                    out_name = partial[r.position] = self.names.fresh(f"{base}_part")
                elif "#" in out_name or is_unnamed(r.result):
                    out_name = self.names.fresh(f"{base}_{r.position}")
                    renames[r.result] = out_name
                fm = _printer.arith_flags_text(r.combiner)
                post.append(
                    f"{ind}{out_name} = vector.reduction <{r.kind.vector}>, {new_names[r.position]}, {r.init.name}{fm} : {self.vt(r.type)} into {r.type}"
                )
        head = f"{result_prefix(loop, new_names)}affine.for {f.iv.name} = {_bound_text(loop, 'lower_bound', f.lower.operands, 'max')}"
        upper = _bound_text(loop, "upper_bound", f.upper.operands, "min")
        split = self._split() if p.remainder else None
        head += f" to {split[0] if split else upper} step {p.new_step}"
        if p.reductions:
            pairs = ", ".join(f"{r.iter_arg.name} = {self.neutral[r.position]}" for r in p.reductions)
            head += f" iter_args({pairs}) -> ({', '.join(str(self.vt(r.type)) for r in p.reductions)})"
        region = loop.regions[0]
        tail = self.t[region.span.end : loop.span.end]
        out = [ind + x for x in self.prelude] + [ind + x for x in outside]
        out.append(f"{ind}{head} {{")
        out.extend(lines)
        trailing = gap_comments(self.t, (body.operations[-1].span.end if body.operations else region.span.start + 1), region.span.end)
        out.extend(inner_ind + c for c in trailing)
        out.append(f"{ind}}}{tail}")
        out.extend(post)
        if split is not None:
            out.append(self._remainder(split[1], upper, partial))
        text = "\n".join(out)
        return text[len(ind) :], renames

    def _split(self) -> tuple[str, str]:
        """The main loop's upper bound and the remainder loop's lower bound:
        the first iteration after the last whole vector, ``lb + s*N*(T floordiv
        N)`` with ``T`` the trip count (``(ub - lb) ceildiv s`` when it is not
        a constant); the remainder starts at ``max(lb, split)``, which is
        ``lb`` when the loop runs no iteration (``ub < lb``)."""
        f, p = self.f, self.p
        lo, up = f.lower, f.upper
        nd1, ns1 = lo.map.num_dims, lo.map.num_symbols
        if p.trip_count is not None:
            whole = p.trip_count // p.vf * p.new_step
            m = AffineMap(nd1, ns1, [(lo.map.results[0] + whole).simplify()])
            b = _printer.bound_text(AffineMapAttr(m), lo.operands, "max")
            return b, b
        nd2, ns2 = up.map.num_dims, up.map.num_symbols
        le = lo.map.results[0].replace([dim(k) for k in range(nd1)], [symbol(k) for k in range(ns1)])
        ue = up.map.results[0].replace([dim(nd1 + k) for k in range(nd2)], [symbol(ns1 + k) for k in range(ns2)])
        count = ue - le if p.step == 1 else (ue - le).ceildiv(p.step)
        split = (le + count.floordiv(p.vf) * p.new_step).simplify()
        operands = [*lo.dim_operands, *up.dim_operands, *lo.operands[nd1:], *up.operands[nd2:]]
        nd, ns = nd1 + nd2, ns1 + ns2
        main = _printer.bound_text(AffineMapAttr(AffineMap(nd, ns, [split])), operands, "min")
        rest = _printer.bound_text(AffineMapAttr(AffineMap(nd, ns, [le, split])), operands, "max")
        return main, rest

    def _remainder(self, lower: str, upper: str, partial: dict[int, str]) -> str:
        """The original loop over the iterations after the last whole
        vector, under its own result names; its reductions start from the
        vector loop's."""
        f, loop = self.f, self.loop
        assert f.iv is not None
        head = f"{result_prefix(loop)}affine.for {f.iv.name} = {lower} to {upper}"
        if f.step != 1:
            head += f" step {f.step}"
        if f.inits:
            pairs = ", ".join(f"{a.name} = {partial.get(k, i.name)}" for k, (a, i) in enumerate(zip(f.iter_args, f.inits)))
            head += f" iter_args({pairs}) -> ({', '.join(str(a.type) for a in f.iter_args)})"
        return f"{self.indent}{head} {self.t[loop.regions[0].span.start : loop.span.end]}"

    def _inside(self, v: Value) -> bool:
        owner = v.defining_op
        if owner is not None:
            return self.loop.is_ancestor_of(owner)
        blk = v.parent_block
        op = blk.parent_op if blk is not None else None
        return op is not None and (op is self.loop or self.loop.is_ancestor_of(op))

    def _block_indent(self, block: Block, outer: str) -> str:
        for op in block.operations:
            if op.span.end > op.span.start:
                return line_indent(self.t, op.span.start)
        return outer + "  "

    def _mask_lines(self, ind: str, out: list[str]) -> None:
        """``%remaining`` = the iterations left (``(ub - iv) ceildiv step``;
        ``affine.min`` over the results of a ``min`` bound) and the mask of
        the lanes below it. Every operand is passed as a dimension: a loop
        bound may take an enclosing IV in a symbol position, an
        ``affine.apply`` may not."""
        f, p = self.f, self.p
        up = f.upper
        m = up.map
        nd, ns = m.num_dims, m.num_symbols
        as_dims = [dim(nd + q) for q in range(ns)]
        iv = dim(nd + ns)
        results = []
        for e in m.results:
            rem = e.replace([dim(k) for k in range(nd)], as_dims) - iv
            if p.step != 1:
                rem = rem.ceildiv(p.step)
            results.append(rem.simplify())
        mp = AffineMap(nd + ns + 1, 0, results)
        operands = [*up.dim_operands, *up.symbol_operands, f.iv]
        cnt = self.names.fresh("remaining")
        opname = "affine.apply" if len(results) == 1 else "affine.min"
        out.append(f"{ind}{cnt} = {opname} {mp.to_attr_str()}({', '.join(o.name for o in operands if o is not None)})")
        self.mask = self.names.fresh("mask")
        out.append(f"{ind}{self.mask} = vector.create_mask {cnt} : vector<{self.n}xi1>")

    # ------------------------------------------------------------ blocks / ops
    def _block(self, block: Block, owner: Operation, ind: str) -> list[str]:
        out: list[str] = []
        if owner is not self.loop:
            for a in block.arguments:
                self._materialize(a, ind, out)
        region = block.parent
        prev = region.span.start + 1 if region is not None else block.span.start
        for op in block.operations:
            oind = line_indent(self.t, op.span.start)
            out.extend(oind + c for c in gap_comments(self.t, prev, op.span.start))
            prev = op.span.end
            if op.name == "affine.yield":
                out.extend(self._yield(op, owner, oind))
                continue
            out.extend(self._op(op, oind))
            for r in op.results:
                self._materialize(r, oind, out)
        return out

    def _op(self, op: Operation, ind: str) -> list[str]:
        p = self.p
        if op not in p.rewritten:
            return [ind + op_source(self.t, op)]
        if op.name == "affine.for":
            return self._inner_loop(op, ind)
        if op.name in ("affine.load", "affine.store"):
            return self._transfer(op, ind)
        return self._elementwise(op, ind)

    def _elementwise(self, op: Operation, ind: str) -> list[str]:
        p = self.p
        out: list[str] = []
        operands: list[Value] = []
        red = next((r for r in p.reductions if r.combiner is op), None)
        for i, v in enumerate(op.operands):
            if op.name == "arith.select" and i == 0 and p.kind(v) == UNIFORM:
                operands.append(v)
                continue
            w = self.value(v)
            if self.mask is not None and red is not None and v is red.value:
                w = self._select(w, self.neutral[red.position], red, ind, out)
            elif self.mask is not None and op.name in DIVISIONS and i == 1 and p.kind(v) != UNIFORM:
                t = v.type
                assert t is not None
                name = self.names.fresh(v.name.lstrip("%") + "_safe")
                out.append(f"{ind}{name} = arith.select {self.mask}, {w.name}, {self.ones(t)} : vector<{self.n}xi1>, {self.vt(t)}")
                w = detached_value(name, self.vt(t))
            operands.append(w)
        out.append(ind + print_clone(op, operands, [self.vt(r.type) for r in op.results], [self.result_name(r) for r in op.results]))
        return out

    def _select(self, w: Value, neutral: str, red: Reduction, ind: str, out: list[str]) -> Value:
        name = self.names.fresh(red.value.name.lstrip("%") + "_masked")
        out.append(f"{ind}{name} = arith.select {self.mask}, {w.name}, {neutral} : vector<{self.n}xi1>, {self.vt(red.type)}")
        return detached_value(name, self.vt(red.type))

    def _transfer(self, op: Operation, ind: str) -> list[str]:
        info = self.p.accesses[op]
        acc = info.access
        assert info.dim is not None
        out: list[str] = []
        nd = acc.map.num_dims
        idx: list[str] = []
        for e in acc.map.results:
            if isinstance(e, AffineDimExpr):
                idx.append(acc.indices[e.position].name)
            elif isinstance(e, AffineSymbolExpr):
                idx.append(acc.indices[nd + e.position].name)
            elif e.is_constant():
                v = e.value  # type: ignore[attr-defined]
                idx.append(self.const(str(v), "index", f"c{v}".replace("-", "m")))
            else:
                name = self.names.fresh("idx")
                out.append(f"{ind}{name} = {_apply_of(e, nd, acc.indices)}")
                idx.append(name)
        mt = acc.memref.type
        elem = mt.element  # type: ignore[union-attr]
        vt = self.vt(elem)
        props = []
        if op in self.p.in_bounds:
            props.append("in_bounds = [true]")
        if not info.fastest:
            props.append(f"permutation_map = {AffineMap(info.rank, 0, [dim(info.dim)]).to_attr_str()}")
        attrs = f" {{{', '.join(props)}}}" if props else ""
        mask = f", {self.mask}" if self.mask is not None else ""
        if acc.is_write:
            assert acc.value is not None
            out.append(f"{ind}vector.transfer_write {self.vec_name(acc.value)}, {acc.memref.name}[{', '.join(idx)}]{mask}{attrs} : {vt}, {mt}")
        else:
            pad = self.const(_zero_literal(elem), str(elem), "pad")
            out.append(f"{ind}{self.result_name(op.results[0])} = vector.transfer_read {acc.memref.name}[{', '.join(idx)}], {pad}{mask}{attrs} : {mt}, {vt}")
        return out

    def _inner_loop(self, op: Operation, ind: str) -> list[str]:
        p = self.p
        f = ForView(op)
        assert f.iv is not None and f.body is not None
        head = f"{result_prefix(op)}affine.for {f.iv.name} = {_bound_text(op, 'lower_bound', f.lower.operands, 'max')}"
        head += f" to {_bound_text(op, 'upper_bound', f.upper.operands, 'min')}"
        if f.step != 1:
            head += f" step {f.step}"
        if f.inits:
            pairs = []
            types = []
            for a, i in zip(f.iter_args, f.inits):
                if a in p.vector_args:
                    pairs.append(f"{a.name} = {self.vec_name(i)}")
                    types.append(str(self.vt(a.type)))
                else:
                    pairs.append(f"{a.name} = {i.name}")
                    types.append(str(a.type))
            head += f" iter_args({', '.join(pairs)}) -> ({', '.join(types)})"
        region = op.regions[0]
        tail = self.t[region.span.end : op.span.end]
        bind = self._block_indent(f.body, ind)
        out = [f"{ind}{head} {{"]
        out.extend(self._block(f.body, op, bind))
        last = f.body.operations[-1].span.end if f.body.operations else region.span.start + 1
        out.extend(bind + c for c in gap_comments(self.t, last, region.span.end))
        out.append(f"{ind}}}{tail}")
        return out

    def _yield(self, op: Operation, owner: Operation, ind: str) -> list[str]:
        p = self.p
        if owner is self.loop:
            vals = op.operands
            return [f"{ind}affine.yield {', '.join(v.name for v in vals)} : {', '.join(str(self.vt(v.type)) for v in vals)}"] if vals else []
        if owner not in p.rewritten or not op.operands:
            return [ind + op_source(self.t, op)]
        f = ForView(owner)
        names, types = [], []
        for a, v in zip(f.iter_args, op.operands):
            if a in p.vector_args:
                names.append(self.vec_name(v))
                types.append(str(self.vt(a.type)))
            else:
                names.append(v.name)
                types.append(str(v.type))
        return [f"{ind}affine.yield {', '.join(names)} : {', '.join(types)}"]


# ------------------------------------------------------------------ API


def vectorize_edits(text: str, plan: VectorPlan) -> list[TextEdit]:
    """The edits that replace ``plan.loop`` by its vectorized form."""
    names = NameGen.from_text(function_text(text, plan.loop))
    new, renames = _Emitter(text, plan, names).emit()
    edits = [TextEdit(plan.loop.span.start, plan.loop.span.end, new)]
    for res, name in renames.items():
        edits.extend(TextEdit(u.span.start, u.span.end, name) for u in res.uses)
    return edits


def vectorize_candidates(doc: object, loop_op: Operation, vf: int | None = None, reductions: bool = True) -> list[Transform]:
    """Code actions for ``loop_op`` (an ``affine.for``): "Vectorize loop
    (VF=N)" for ``vf`` (the setting, default 8) and the other usual widths
    (8, 4, 16), each checked (``edits.checked``). When the loop cannot be
    vectorized, one disabled action titled "Vectorize loop: <reason>" with
    ``data["disabled"]`` = the reason (a width-specific reason, e.g. a
    dependence distance, disables only the widths it concerns: "Vectorize
    loop (VF=16): <reason>")."""
    from affine_lsp.source.document import Document

    assert isinstance(doc, Document)
    if loop_op.name != "affine.for":
        return []
    widths = [vf or DEFAULT_WIDTHS[0]] + [w for w in DEFAULT_WIDTHS if w != (vf or DEFAULT_WIDTHS[0])]
    out: list[Transform] = []
    reasons: list[tuple[int, str]] = []
    for w in widths:
        title = f"Vectorize loop (VF={w})"
        try:
            plan = analyze(loop_op, w, reductions)
            edits = vectorize_edits(doc.text, plan)
            checked_in_section(doc, edits)
        except Rejected as e:
            reasons.append((w, e.reason))
            continue
        except UnsafeTransform as e:
            reasons.append((w, f"the vectorized loop does not verify: {e}"))
            continue
        except Exception as e:  # never take the language server down with a code action
            reasons.append((w, f"internal error: {type(e).__name__}: {e}"))
            continue
        pred = predict(plan)
        data = {"loop": loop_op.span.start, "vf": w, "masked": plan.mask, "remainder": plan.remainder, "reductions": len(plan.reductions)}
        out.append(Transform("vectorize", title, edits, plan.describe() + "\n\n" + pred.markdown(), data, prediction=pred))
    if not out:
        reason = reasons[0][1]
        return [Transform("vectorize", f"Vectorize loop: {reason}", [], f"Cannot vectorize: {reason}", {"disabled": reason})]
    for w, reason in reasons:
        out.append(Transform("vectorize", f"Vectorize loop (VF={w}): {reason}", [], f"Cannot vectorize by {w}: {reason}", {"disabled": reason, "vf": w}))
    return out


def vectorize_reason(loop_op: Operation, vf: int = DEFAULT_WIDTHS[0], reductions: bool = True) -> str | None:
    """Why ``loop_op`` cannot be vectorized by ``vf`` (None when it can)."""
    try:
        analyze(loop_op, vf, reductions)
    except Rejected as e:
        return e.reason
    return None


# ------------------------------------------------------------------ documents


def _post_order_fors(op: Operation) -> Iterator[Operation]:
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                yield from _post_order_fors(inner)
    if op.name == "affine.for":
        yield op


def select_loops(module: Operation, vf: int, reductions: bool = True, max_tier: int = 1, force: bool = False) -> tuple[list[Operation], dict[Operation, str]]:
    """The loops ``--all`` vectorizes in one section, and why the others are
    not. Only loops predicted profitable (:func:`.vectorize_profit.predict`)
    are candidates, unless ``force``. Like MLIR's 1-D strategy: loops are
    taken in post-order (innermost first) and a loop nested in or around a
    taken one is skipped; loops whose contiguous accesses all run along the
    fastest-varying dimension (MLIR's ``test-fastest-varying=0``) are taken
    first, then those whose accesses share another dimension (``max_tier`` 1,
    MLIR's default), then, with ``max_tier`` 2, those mixing dimensions."""
    plans: dict[Operation, VectorPlan] = {}
    why: dict[Operation, str] = {}
    order = list(_post_order_fors(module))
    for lp in order:
        try:
            plan = analyze(lp, vf, reductions)
        except Rejected as e:
            why[lp] = e.reason
            continue
        pred = predict(plan)
        if pred.profitable or force:
            plans[lp] = plan
        else:
            why[lp] = f"predicted not profitable: {pred.reason} (--force vectorizes it)"
    chosen: list[Operation] = []
    for tier in range(max_tier + 1):
        for lp in order:
            pl = plans.get(lp)
            if pl is None or pl.tier != tier or lp in chosen:
                continue
            if any(c.is_ancestor_of(lp) or lp.is_ancestor_of(c) for c in chosen):
                continue
            chosen.append(lp)
    for lp, pl in plans.items():
        if lp in chosen:
            continue
        if any(c.is_ancestor_of(lp) or lp.is_ancestor_of(c) for c in chosen):
            why[lp] = "a loop nested in or around it is vectorized instead"
        else:
            dims = "different memref dimensions" if pl.tier == 2 else "a memref dimension that is not the fastest varying"
            why[lp] = f"its accesses run along {dims} (vectorize it explicitly)"
    chosen.sort(key=lambda o: o.span.start)
    return chosen, why


def vectorize_document(
    text: str, vf: int = DEFAULT_WIDTHS[0], lines: Sequence[int] | None = None, reductions: bool = True, max_tier: int = 1, force: bool = False
) -> tuple[str, list[LoopOutcome]]:
    """Vectorize the loops of ``text``: those starting on ``lines`` (1-based;
    any dimension mix allowed, profitable or not: the outcome then says it is
    predicted not to help), or every section's choice of :func:`select_loops`
    (the profitable loops; every legal one with ``force``). Returns the new
    text and one outcome per loop."""
    from affine_lsp.source.document import Document

    doc = Document(text)
    outcomes: list[LoopOutcome] = []
    chosen: list[Operation] = []
    for sec in doc.sections:
        if lines is not None:
            for lp in _post_order_fors(sec.module):
                line = doc.lines.line_of(lp.span.start) + 1
                if line not in lines:
                    continue
                reason = vectorize_reason(lp, vf, reductions)
                if reason is None:
                    chosen.append(lp)
                else:
                    outcomes.append(LoopOutcome(lp.span.start, line, False, reason))
            continue
        picked, why = select_loops(sec.module, vf, reductions, max_tier, force)
        chosen.extend(picked)
        for lp, reason in why.items():
            outcomes.append(LoopOutcome(lp.span.start, doc.lines.line_of(lp.span.start) + 1, False, reason))
    nested = [b for b in chosen if any(a.is_ancestor_of(b) for a in chosen)]
    for b in nested:
        chosen.remove(b)
        outcomes.append(LoopOutcome(b.span.start, doc.lines.line_of(b.span.start) + 1, False, "a loop around it is vectorized (1-D vectorization)"))

    said: dict[int, str] = {}

    def rewrite(cur: str, op: Operation) -> list[TextEdit] | str:
        try:
            plan = analyze(op, vf, reductions)
        except Rejected as e:
            return e.reason
        pred = predict(plan)
        said[op.span.start] = pred.summary if pred.profitable else f"predicted not to help: {pred.reason}"
        return vectorize_edits(cur, plan)

    starts = [lp.span.start for lp in chosen]
    new, done = apply_sequentially(text, starts, ["affine.for"], rewrite)
    for lp in chosen:
        r = done.get(lp.span.start)
        msg = r or f"vectorized (VF={vf})"
        if r is None and said.get(lp.span.start):
            msg += f": {said[lp.span.start]}"
        outcomes.append(LoopOutcome(lp.span.start, doc.lines.line_of(lp.span.start) + 1, r is None, msg))
    outcomes.sort(key=lambda o: o.offset)
    return new, outcomes


def vectorize_rewrite(args: Namespace) -> Callable[[str, Sequence[int] | None], tuple[str, list[LoopOutcome]]]:
    """``affine-lsp vectorize``: like ``mlir-opt -affine-super-vectorize``,
    without its miscompiles; ``--all`` takes the loops :func:`select_loops`
    picks among those predicted faster (``--force``: among all legal ones)."""
    if args.vf < 2:
        raise OptionError("--vf must be at least 2")
    return lambda text, lines: vectorize_document(
        text,
        args.vf,
        lines,
        not args.no_reductions,
        0 if args.fastest_only else 1,
        args.force,
    )
