"""Unroll and jam: an outer ``affine.for`` unrolled by a factor, the copies
of its body fused ("jammed") inside its inner loops.

The rewrite is MLIR's ``loopUnrollJamByFactor``
(``mlir/lib/Dialect/Affine/Utils/LoopUtils.cpp``): the body of the loop is
cut into *sub-blocks* -- maximal runs of ops that are not ``affine.for``,
the ``affine.for`` ops being entered recursively (their bodies are cut the
same way) -- and each sub-block is followed by its ``k - 1`` copies, copy
``c`` on ``%iv + c * step``. Inner loops with ``iter_args`` carry ``k``
times as many (copy ``c``'s values after copy ``c - 1``'s), as MLIR does.
The inner loops' bounds must not depend on the outer loop. A cleanup loop
runs the iterations left over (same bounds logic as
:mod:`~affine_lsp.transforms.unroll`).

Legality, which MLIR's pass does not check at all: in the jammed code, the
iterations ``o`` and ``o + d`` (``0 < d < k`` steps, in the same group of
``k``) of the outer loop run interleaved: the inner loops' iterations
first, then the copy. A dependence from iteration ``o`` to ``o + d`` is
reversed exactly when, over the common inner loops that are jammed, the
destination's iteration vector is lexicographically smaller than the
source's, or equal with the destination's sub-block before the source's.
That is checked exactly on the dependence relation (isl), restricted to
pairs in one group of ``k`` iterations (the group a constant lower bound
defines; any distance below ``k`` steps otherwise). Unknown dependences
and ops with unknown memory effects refuse the transformation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from affine_lsp.ir.affine_ops import ForView
from affine_lsp.ir.core import Block, Operation, Value
from affine_lsp.transforms.catalog import OptionError
from affine_lsp.transforms.edits import TextEdit, Transform, UnsafeTransform
from affine_lsp.transforms.loop_models import unroll_jam_prediction
from affine_lsp.transforms.profitability import remark
from affine_lsp.transforms.rewrite import LoopOutcome, NameGen, apply_sequentially, checked_in_section, function_text, line_indent, loops_on_lines
from affine_lsp.transforms.unroll import (
    SplitBounds,
    base_name,
    body_ops,
    cleanup_edit,
    defined_values,
    for_header,
    map_use,
    misplaced_terminator,
    ops_text,
    results_prefix,
    split_bounds,
    uses_value,
    value_text,
)
from affine_lsp.transforms.verdict import illegal, not_applicable

if TYPE_CHECKING:
    from argparse import Namespace

DEFAULT_FACTOR = 2


def jammed_loops(loop: Operation) -> list[Operation]:
    """The ``affine.for`` ops the sub-block walk enters: those reached from
    ``loop``'s body through ``affine.for`` bodies only."""
    out: list[Operation] = []
    # (A loop, not a recursive closure: a closure that calls itself is a
    # reference cycle, garbage for the cyclic collector on every call.)
    stack = [iter(body_ops(loop))]
    while stack:
        o = next(stack[-1], None)
        if o is None:
            stack.pop()
        elif o.name == "affine.for":
            out.append(o)
            stack.append(iter(body_ops(o)))
    return out


def _defined_inside(v: Value, loop: Operation) -> bool:
    owner = v.defining_op
    if owner is None:
        blk = v.parent_block
        owner = blk.parent_op if blk is not None else None
        if owner is loop:
            return True
    return owner is not None and (owner is loop or loop.is_ancestor_of(owner))


def structure_reason(loop: Operation, factor: int) -> str | None:
    """Why ``loop`` cannot be unrolled and jammed by ``factor`` (dependences aside)."""
    if loop.name != "affine.for":
        return f"'{loop.name}' is not an affine.for"
    f = ForView(loop)
    if f.body is None or f.iv is None or len(loop.regions[0].blocks) != 1:
        return "the loop has no single-block body"
    if factor < 2:
        return "the factor must be at least 2"
    if f.inits:
        return "the loop has iter_args (unroll-and-jam of loop-carried values is not supported)"
    if not body_ops(loop):
        return "the loop body is empty"
    stray = misplaced_terminator(loop)
    if stray is not None:
        return f"the loop body has a misplaced terminator ('{stray.name}')"
    for inner in jammed_loops(loop):
        g = ForView(inner)
        if any(_defined_inside(v, loop) for v in list(g.lower.operands) + list(g.upper.operands)):
            return f"the bounds of the inner loop {g.iv.name if g.iv else ''} depend on the outer loop (its trip count changes between iterations)"
        if len(inner.regions[0].blocks) != 1:
            return "an inner loop has several blocks"
    got = split_bounds(loop, factor)
    if isinstance(got, SplitBounds) and got.guarded:
        return "the loop has max/min bounds and its trip count may not be a multiple of the factor (the cleanup loop's lower bound would not be affine)"
    return got if isinstance(got, str) else None


def ready_deps(op: Operation) -> object | None:
    """The dependence engine already built for the function around ``op``
    (by the server's analysis or an earlier query), or None: the hover's
    verdicts never start an analysis of their own."""
    from affine_lsp.analysis import CACHE_ATTR, CACHE_LOCK
    from affine_lsp.analysis.isl_support import DEFAULT_BUDGET
    from affine_lsp.analysis.polyhedral import scope_of
    from affine_lsp.ir import op_traits
    from affine_lsp.ir.core import memo_if_any

    scope = op if op_traits.is_function_op(op) else scope_of(op)
    store = memo_if_any(scope) if scope is not None else None
    if store is None:
        return None
    with CACHE_LOCK:
        per = store.get(CACHE_ATTR)
        if not per:
            return None
        got = [fd for (budget, _), fd in per.items() if budget == DEFAULT_BUDGET] or list(per.values())
    return got[0]


def dependence_reason(loop: Operation, factor: int, fd: object | None = None) -> str | None:
    """The dependence unroll-and-jam by ``factor`` would reverse, or None
    (``fd``: the function's dependence engine, built when not given)."""
    from affine_lsp.analysis import deps_for
    from affine_lsp.analysis.dependences import DEPENDENCE, NONE
    from affine_lsp.analysis.isl_support import DEFAULT_BUDGET
    from affine_lsp.analysis.summary import locally_defined
    from affine_lsp.transforms.parallelize import memory_effect_reason

    why = memory_effect_reason(loop)
    if why is not None:
        return why
    if fd is None:
        fd = deps_for(loop, DEFAULT_BUDGET)
    if fd is None:
        return not_applicable("the loop is not inside a function")
    accs = [a for a in fd.accesses_in(loop) if not locally_defined(a.memref, loop)]
    if not fd.within_limit(accs):
        return "too many access pairs to analyse"
    jammed = set(map(id, jammed_loops(loop)))
    f = ForView(loop)
    lbc = f.lower.constant()
    for s, d in fd.candidate_pairs(accs):
        depth = next((i + 1 for i, lp in enumerate(s.loops) if lp is loop), None)
        if depth is None:
            continue
        r = fd.check(s, d, depth)
        if r.status == NONE:
            continue
        if r.status != DEPENDENCE or r.relation is None:
            return f"cannot rule out a dependence from {s.describe()} to {d.describe()} ({r.reason or 'not analysable'})"
        if _reversed(r.relation, s, d, depth, factor, f.step, lbc, jammed, fd):
            return illegal(
                f"unroll-and-jam by {factor} would reverse the {r.kind} dependence from {s.describe()} to {d.describe()} "
                f"(distance {r.mlir_str()}: an inner iteration of a later outer iteration would run first)"
            )
    return None


def _reversed(rel: object, s: object, d: object, depth: int, factor: int, step: int, lbc: int | None, jammed: set[int], fd: object) -> bool:
    import islpy as isl

    from affine_lsp.analysis.dependences import num_common_loops
    from affine_lsp.analysis.isl_support import DT

    assert isinstance(rel, isl.Map)
    c = num_common_loops(s, d)  # type: ignore[arg-type]
    sp = rel.get_space()
    n_in, n_out = rel.dim(DT.in_), rel.dim(DT.out)
    params = [sp.get_dim_name(DT.param, i) for i in range(rel.dim(DT.param))]
    ins = [f"i{k}" for k in range(n_in)]
    outs = [f"o{k}" for k in range(n_out)]
    k0 = depth - 1
    cons = [f"{outs[k0]} - {ins[k0]} <= {(factor - 1) * step}"]
    if lbc is not None:
        w = factor * step
        cons.append(f"floor(({ins[k0]} - ({lbc}))/{w}) = floor(({outs[k0]} - ({lbc}))/{w})")
    tin = rel.get_tuple_name(DT.in_) if rel.has_tuple_name(DT.in_) else ""
    tout = rel.get_tuple_name(DT.out) if rel.has_tuple_name(DT.out) else ""
    window = isl.Map(f"[{', '.join(params)}] -> {{ {tin}[{', '.join(ins)}] -> {tout}[{', '.join(outs)}] : {' and '.join(cons)} }}", context=rel.get_ctx())
    base = rel.intersect(window.align_params(rel.get_space()))
    if base.is_empty():
        return False
    inner = list(range(depth, c))
    m = 0
    for k in inner:
        if id(s.loops[k]) not in jammed:  # type: ignore[attr-defined]
            break
        m += 1
    cur = base
    for k in inner[:m]:
        if not cur.order_gt(DT.in_, k, DT.out, k).is_empty():
            return True
        cur = cur.equate(DT.in_, k, DT.out, k)
        if cur.is_empty():
            return False
    if m < len(inner):
        return False  # a non-jammed common loop: ordered by copy, src first
    # same inner iterations: the order of the sub-blocks in the innermost common block
    blk: Block | None = ForView(s.loops[c - 1]).body if c > depth else ForView(s.loops[depth - 1]).body  # type: ignore[attr-defined]
    ts, td = _top_in(s.op, blk), _top_in(d.op, blk)  # type: ignore[attr-defined]
    if ts is None or td is None:
        return True
    if ts is td:
        return False
    ops = blk.operations if blk is not None else []
    a, b = ops.index(ts), ops.index(td)
    between = ops[min(a, b) : max(a, b) + 1]
    if not any(o.name == "affine.for" for o in between):
        return False  # one sub-block: copies in order
    return a > b


def _top_in(op: Operation, blk: Block | None) -> Operation | None:
    cur: Operation | None = op
    while cur is not None and cur.parent is not blk:
        cur = cur.parent_op
    return cur


def jam_reason(loop: Operation, factor: int, check_dependences: bool = True) -> str | None:
    why = structure_reason(loop, factor)
    if why is None and check_dependences:
        why = dependence_reason(loop, factor)
    return why


# ------------------------------------------------------------------ rewrite


def jam_edits(text: str, loop: Operation, factor: int) -> list[TextEdit]:
    f = ForView(loop)
    assert f.body is not None and f.iv is not None
    names = NameGen.from_text(function_text(text, loop))
    split = split_bounds(loop, factor)
    assert not isinstance(split, str)
    ops = body_ops(loop)
    jammed = jammed_loops(loop)
    jam_ivs = {id(ForView(j).iv) for j in jammed}
    renamed = [v for v in defined_values(ops) if id(v) not in jam_ivs]
    maps: list[dict[str, str]] = [{}]
    for c in range(1, factor):
        m: dict[str, str] = {}
        for v in renamed:
            b = base_name(v)
            if b not in m:
                m[b] = names.fresh(b.lstrip("%") + f"_j{c}")
        maps.append(m)
    for j in jammed:
        n = len(j.results)
        if not n:
            continue
        new = names.fresh(base_name(j.results[0]).lstrip("%") + "_jam")
        b = base_name(j.results[0])
        for c in range(factor):
            for i, r in enumerate(j.results):
                maps[c].pop(base_name(r), None)
                maps[c][r.name] = f"{new}#{c * n + i}"  # "%r", "%r#1" or "%p" of "%s, %p = ..."
            maps[c]["__jam__" + b] = new
    iv = f.iv.name
    ind = line_indent(text, ops[0].span.start)
    lines: list[str] = []
    if uses_value(ops, f.iv):
        for c in range(1, factor):
            ivc = names.fresh(iv.lstrip("%") + f"_j{c}")
            maps[c][iv] = ivc
            lines.append(f"{ind}{ivc} = affine.apply affine_map<(d0) -> (d0 + {c * f.step})>({iv})")

    def block(op: Operation) -> None:
        bops = body_ops(op)
        i = 0
        while i < len(bops):
            o = bops[i]
            if o.name == "affine.for":
                inner(o)
                i += 1
                continue
            k = i
            while k < len(bops) and bops[k].name != "affine.for":
                k += 1
            own = line_indent(text, bops[i].span.start)
            for c in range(factor):
                lines.append(ops_text(text, bops[i:k], maps[c], own))
            i = k

    def inner(o: Operation) -> None:
        g = ForView(o)
        own = line_indent(text, o.span.start)
        n = len(o.results)
        prefix = results_prefix(maps[0]["__jam__" + base_name(o.results[0])], n * factor) if n else ""
        pairs = [(value_text(a, maps[c]), value_text(i, maps[c])) for c in range(factor) for a, i in zip(g.iter_args, g.inits)]
        head = for_header(
            o, g.iv.name if g.iv else "%iv", map_use(g.lower.map, g.lower.operands, "max"), map_use(g.upper.map, g.upper.operands, "min"), g.step, prefix, pairs
        )
        lines.append(own + head)
        block(o)
        term = g.body.terminator if g.body is not None else None
        if term is not None and term.name == "affine.yield" and term.operands:
            yind = line_indent(text, term.span.start)
            vals = [value_text(y, maps[c]) for c in range(factor) for y in term.operands]
            types = [str(y.type) for y in term.operands] * factor
            lines.append(f"{yind}affine.yield {', '.join(vals)} : {', '.join(types)}")
        close = o.regions[0].span.end - 1
        lines.append(line_indent(text, close) + text[close : o.span.end])

    try:
        block(loop)
    finally:
        block = inner = None  # type: ignore[assignment]  # (the two closures call each other: a cycle, cut here)
    lower = map_use(f.lower.map, f.lower.operands, "max")
    head = for_header(loop, iv, lower, split.main_ub, f.step * factor, "", [])
    close = loop.regions[0].span.end - 1
    new = head + "\n" + "\n".join(lines) + "\n" + line_indent(text, close) + text[close : loop.span.end]
    edits = [TextEdit(loop.span.start, loop.span.end, new)]
    if split.cleanup_lb is not None:
        edits.append(cleanup_edit(text, loop, names, split.cleanup_lb, []))
    return edits


# ------------------------------------------------------------------ API


def unroll_jam_candidates(doc: object, loop_op: Operation, factor: int = DEFAULT_FACTOR) -> list[Transform]:
    from affine_lsp.source.document import Document

    assert isinstance(doc, Document)
    if loop_op.name != "affine.for" or not jammed_loops(loop_op):
        return []  # offered on loops with inner loops only
    title = f"Unroll and jam loop by {factor}"
    why = jam_reason(loop_op, factor)
    edits: list[TextEdit] = []
    if why is None:
        try:
            edits = jam_edits(doc.text, loop_op, factor)
            checked_in_section(doc, edits)
        except UnsafeTransform as e:
            why = f"the rewritten loop does not verify: {e}"
        except Exception as e:  # never take the server down with a code action
            why = f"internal error: {type(e).__name__}: {e}"
    if why is not None:
        return [Transform("unroll-jam", f"{title}: {why}", [], why, {"disabled": why})]
    pred = unroll_jam_prediction(loop_op, factor)
    return [Transform("unroll-jam", title, edits, "No dependence is reversed.\n\n" + pred.markdown(), {"loop": loop_op.span.start}, prediction=pred)]


def unroll_jam_document(
    text: str, lines: Sequence[int] | None = None, factor: int = DEFAULT_FACTOR, force: bool = False, profitable_only: bool = False
) -> tuple[str, list[LoopOutcome]]:
    """Unroll and jam by ``factor`` every loop of ``text`` that has inner
    loops and where it is legal (outermost first; a loop inside a rewritten
    one is left alone; with ``profitable_only``, only where it is predicted
    profitable: the copies share a load, see
    :func:`.loop_models.unroll_jam_prediction`), or only the loops starting
    on ``lines``. Every outcome carries the prediction. ``force``
    skips the dependence check (tests use it to show what a refusal avoids)."""
    from affine_lsp.source.document import Document

    doc = Document(text)
    outcomes: list[LoopOutcome] = []
    chosen: list[Operation] = []
    preds: dict[int, str] = {}
    for op, line in loops_on_lines(doc, lines=lines):
        if lines is None and not jammed_loops(op):
            continue
        if any(c.is_ancestor_of(op) or op.is_ancestor_of(c) for c in chosen):
            outcomes.append(LoopOutcome(op.span.start, line, False, "a loop around or inside it is unrolled and jammed"))
            continue
        why = jam_reason(op, factor, not force)
        if why is not None:
            outcomes.append(LoopOutcome(op.span.start, line, False, why))
            continue
        pred = unroll_jam_prediction(op, factor)
        if lines is None and profitable_only and not pred.profitable:
            outcomes.append(LoopOutcome(op.span.start, line, False, remark(pred)))
            continue
        preds[op.span.start] = remark(pred)
        chosen.append(op)

    def rewrite(cur: str, op: Operation) -> list[TextEdit] | str:
        why = structure_reason(op, factor)
        return why if why is not None else jam_edits(cur, op, factor)

    new, done = apply_sequentially(text, [op.span.start for op in chosen], ["affine.for"], rewrite)
    for op in chosen:
        why = done.get(op.span.start)
        outcomes.append(
            LoopOutcome(op.span.start, doc.lines.line_of(op.span.start) + 1, why is None, why or f"unrolled and jammed by {factor}", preds[op.span.start])
        )
    outcomes.sort(key=lambda o: o.offset)
    return new, outcomes


def unroll_jam_verdicts(loop: Operation) -> list:
    from affine_lsp.transforms.loop_verdicts import Verdict
    from affine_lsp.transforms.verdict import Kind

    if loop.name != "affine.for" or not jammed_loops(loop):
        return []
    why = structure_reason(loop, DEFAULT_FACTOR)
    if why is not None:
        return [Verdict.of(f"unroll and jam by {DEFAULT_FACTOR}", why, Kind.NOT_APPLICABLE)]
    fd = ready_deps(loop)
    if fd is None:
        return []  # the analysis has not run yet: no verdict rather than a wait
    return [Verdict.of(f"unroll and jam by {DEFAULT_FACTOR}", dependence_reason(loop, DEFAULT_FACTOR, fd), Kind.UNPROVEN)]


def unroll_jam_rewrite(args: Namespace) -> Callable[[str, Sequence[int] | None], tuple[str, list[LoopOutcome]]]:
    """``affine-lsp unroll-jam``: like ``mlir-opt -affine-loop-unroll-jam``, but
    only where no dependence is reversed: every loop with inner loops whose
    copies share a load (``--all``; ``--force``: also the others), or the
    ones on ``--loop``."""
    if args.factor < 2:
        raise OptionError("--factor must be at least 2")
    return lambda text, lines: unroll_jam_document(text, lines, args.factor, profitable_only=not args.force)
