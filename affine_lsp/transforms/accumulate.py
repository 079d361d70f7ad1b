"""Register accumulators: a reduction kept in ``iter_args`` instead of memory.

What gcc and LLVM do to a reduction into a loop-invariant element when they
can prove that nothing else in the loop touches it (scalar promotion,
LLVM's ``LICM`` "promote memory to register"): the loop

.. code-block:: mlir

    affine.for %j = 0 to 6400 {
      %t = affine.load %tmp[%i] : memref<6000xf64>
      ...
      affine.store %s, %tmp[%i] : memref<6000xf64>
    }

becomes

.. code-block:: mlir

    %t_init = affine.load %tmp[%i] : memref<6000xf64>
    %t_acc = affine.for %j = 0 to 6400 iter_args(%t = %t_init) -> (f64) {
      ...
      affine.yield %s : f64
    }
    affine.store %t_acc, %tmp[%i] : memref<6000xf64>

LLVM cannot do it on MLIR's lowering: the memrefs are distinct pointers
without ``noalias``, so the store may alias every other load of the loop,
and the reduction's loop-carried value goes through memory (a store and a
load per iteration, on the critical path). Held in ``iter_args``, the
reduction is one that :mod:`.vectorize` turns into a vector accumulator
with a ``vector.reduction`` after the loop.

A pair is promoted when (all checked on the IR, no guess):

* the load and the store are ops of the loop's own body (not nested in an
  inner loop or an ``affine.if``), the load first;
* they access the same memref with the same map and the same index
  operands, all defined outside the loop (the element is loop-invariant);
* nothing else in the loop (nested ops included) accesses that memref or a
  view of it, and no op of the loop has unknown memory effects;
* the loop has no ``iter_args`` of its own.

A loop that runs zero times then stores back the value it loaded: the same
memory contents.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import islpy as isl

from affine_lsp.ir.affine_ops import ForView
from affine_lsp.ir.core import Operation, Value
from affine_lsp.ir.types import MemRefType
from affine_lsp.transforms.edits import TextEdit, delete_op, line_start
from affine_lsp.transforms.hoist import effect_free, memref_root
from affine_lsp.transforms.rewrite import LoopOutcome, NameGen, apply_sequentially, function_text, line_indent
from affine_lsp.transforms.unroll import body_ops


@dataclass
class Accumulator:
    load: Operation
    store: Operation


@dataclass
class AccumulatePlan:
    loop: Operation
    pairs: list[Accumulator] = field(default_factory=list)
    reason: str | None = None  # why nothing is promoted


def _inside(loop: Operation) -> list[Operation]:
    return [o for o in loop.walk() if o is not loop]


def _defined_outside(v: Value, loop: Operation) -> bool:
    owner = v.defining_op
    if owner is None:
        blk = v.parent_block
        owner = blk.parent_op if blk is not None else None
    return owner is None or (owner is not loop and not loop.is_ancestor_of(owner))


def _key(op: Operation) -> tuple[str, tuple[int, ...]]:
    """An access's element as written: its map and index operands."""
    idx = op.operands[1:] if op.name == "affine.load" else op.operands[2:]
    return str(op.attributes.get("map")), tuple(id(v) for v in idx)


def _disjoint(fd: object, a: Operation, b: Operation) -> bool:
    """``a`` and ``b`` (ops of one block) never access the same element in
    the same iteration of their loops (exact on the access relations)."""
    from affine_lsp.analysis.isl_support import DEFAULT_BUDGET, DT, BudgetExceeded, IslFailure, limited

    ra, rb = fd.access(a), fd.access(b)  # type: ignore[attr-defined]
    if ra is None or rb is None or ra.relation is None or rb.relation is None:
        return False
    if not (ra.analysable and rb.analysable and all(ra.exact_indices) and all(rb.exact_indices)) or tuple(ra.ivs) != tuple(rb.ivs):
        return False
    try:
        with limited(DEFAULT_BUDGET):
            x = ra.relation.reset_tuple_id(DT.in_)
            y = rb.relation.reset_tuple_id(DT.in_).align_params(x.get_space())
            x = x.align_params(y.get_space())
            return bool(x.intersect(y).is_empty())
    except (BudgetExceeded, IslFailure, isl.Error):
        return False


def plan_accumulate(loop: Operation, fd: object | None = None) -> AccumulatePlan:
    """The load/store pairs of ``loop``'s body that can live in registers
    (``fd``: the function's dependence engine, to prove that two invariant
    elements of one memref differ; built when needed)."""
    from affine_lsp.analysis import dependences_of_function
    from affine_lsp.analysis.polyhedral import scope_of
    from affine_lsp.analysis.summary import unknown_effects

    plan = AccumulatePlan(loop)
    f = ForView(loop)
    if loop.name != "affine.for" or f.body is None:
        plan.reason = "not an affine.for with a body"
        return plan
    if f.iter_args or loop.results:
        plan.reason = "the loop has iter_args already"
        return plan
    inside = _inside(loop)
    unknown = next((o for o in inside if unknown_effects(o) and o.name not in ("affine.for", "affine.if", "affine.yield")), None)
    if unknown is not None:
        plan.reason = f"the loop contains '{unknown.name}', whose memory effects are unknown"
        return plan
    body = body_ops(loop)
    position = {id(o): k for k, o in enumerate(body)}

    def accessors(mem: Value) -> list[Operation]:
        root = memref_root(mem)
        return [o for o in inside if not effect_free(o) and any(isinstance(v.type, MemRefType) and memref_root(v) is root for v in o.operands)]

    seen: set[int] = set()
    for st in body:
        if st.name != "affine.store" or len(st.operands) < 2 or id(memref_root(st.operands[1])) in seen:
            continue
        mem = st.operands[1]
        seen.add(id(memref_root(mem)))
        ops = accessors(mem)
        if not _defined_outside(mem, loop) or any(
            o.name not in ("affine.load", "affine.store") or id(o) not in position or o.operands[0 if o.name == "affine.load" else 1] is not mem for o in ops
        ):
            continue
        groups: dict[tuple[str, tuple[int, ...]], list[Operation]] = {}
        for o in ops:
            groups.setdefault(_key(o), []).append(o)
        pairs: list[Accumulator] = []
        for g in groups.values():
            if len(g) != 2 or g[0].name != "affine.load" or g[1].name != "affine.store" or position[id(g[0])] > position[id(g[1])]:
                break
            if not all(_defined_outside(v, loop) for v in g[0].operands[1:]) or not g[0].results or g[0].results[0].type is None:
                break
            pairs.append(Accumulator(g[0], g[1]))
        else:
            if len(pairs) > 1:
                if fd is None:
                    func = scope_of(loop)
                    fd = dependences_of_function(func) if func is not None else None
                if fd is None or not all(_disjoint(fd, a.store, b.store) for k, a in enumerate(pairs) for b in pairs[k + 1 :]):
                    continue
            plan.pairs.extend(pairs)
    plan.pairs.sort(key=lambda p: position[id(p.load)])
    if not plan.pairs:
        plan.reason = "no load and store of one loop-invariant element that nothing else in the loop touches"
    return plan


def accumulate_edits(text: str, plan: AccumulatePlan) -> list[TextEdit]:
    """The loop with ``plan.pairs`` in ``iter_args``: each load before the
    loop, each store after it, the stored values yielded."""
    loop = plan.loop
    names = NameGen.from_text(function_text(text, loop))
    ind = line_indent(text, loop.span.start)
    n = len(plan.pairs)
    res = names.fresh(plan.pairs[0].load.results[0].name + "_acc")
    before: list[str] = []
    iters: list[str] = []
    types: list[str] = []
    yields: list[str] = []
    after: list[str] = []
    edits: list[TextEdit] = []
    for k, p in enumerate(plan.pairs):
        ld, st = p.load, p.store
        acc = ld.results[0]
        init = names.fresh(acc.name + "_init")
        before.append(f"{init} = {text[ld.name_span.start : ld.span.end]}\n{ind}")
        iters.append(f"{acc.name} = {init}")
        types.append(str(acc.type))
        val = st.operands[0]
        yields.append(val.name)
        out = res if n == 1 else f"{res}#{k}"
        vs = st.operand_spans[0]
        after.append(f"\n{ind}{text[st.span.start : vs.start]}{out}{text[vs.end : st.span.end]}")
        edits.append(delete_op(text, ld))
        edits.append(delete_op(text, st))
    prefix = res if n == 1 else f"{res}:{n}"
    edits.append(TextEdit(loop.span.start, loop.span.start, "".join(before) + f"{prefix} = "))
    region = loop.regions[0].span
    edits.append(TextEdit(region.start, region.start, f"iter_args({', '.join(iters)}) -> ({', '.join(types)}) "))
    body = ForView(loop).body
    assert body is not None
    term = body.operations[-1] if body.operations and body.operations[-1].name == "affine.yield" else None
    yline = f"affine.yield {', '.join(yields)} : {', '.join(types)}"
    first = body_ops(loop)[0] if body_ops(loop) else None
    bind = line_indent(text, first.span.start) if first is not None else ind + "  "
    if term is not None:
        edits.append(TextEdit(term.span.start, term.span.end, yline))
    else:
        close = region.end - 1
        ls = line_start(text, close)
        if text[ls:close].strip():  # the closing brace shares its line with code
            edits.append(TextEdit(close, close, f"\n{bind}{yline}\n{ind}"))
        else:
            edits.append(TextEdit(ls, ls, f"{bind}{yline}\n"))
    edits.append(TextEdit(loop.span.end, loop.span.end, "".join(after)))
    return edits


def accumulate_document(text: str, offsets: list[int] | None = None) -> tuple[str, list[LoopOutcome]]:
    """Register accumulators in every ``affine.for`` of ``text`` (or those
    starting at ``offsets``); returns the new text and one outcome per loop
    that had a candidate pair."""
    from affine_lsp.source.document import Document

    doc = Document(text)
    loops = [op for s in doc.sections for op in s.module.walk() if op.name == "affine.for"]
    if offsets is not None:
        loops = [op for op in loops if op.span.start in set(offsets)]

    def rewrite(cur: str, op: Operation) -> list[TextEdit] | str:
        plan = plan_accumulate(op)
        if not plan.pairs:
            return plan.reason or "nothing to promote"
        return accumulate_edits(cur, plan)

    candidates = [op.span.start for op in loops if plan_accumulate(op).pairs]
    if not candidates:
        return text, []
    new, done = apply_sequentially(text, candidates, ["affine.for"], rewrite)
    return new, [LoopOutcome(off, doc.lines.line_of(off) + 1, why is None, why or "accumulators in registers") for off, why in sorted(done.items())]
