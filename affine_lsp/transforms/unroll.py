"""Unroll loop: ``affine.for`` unrolled by a factor, or fully.

What MLIR's ``loopUnrollByFactor`` / ``loopUnrollFull`` do
(``mlir/lib/Dialect/Affine/Utils/LoopUtils.cpp``), as text edits:

* by a factor ``k``: the loop steps by ``k * step`` and its body holds ``k``
  copies of the original body, copy ``c`` on ``%iv + c * step`` (an
  ``affine.apply``) with fresh SSA names; ``iter_args`` are threaded through
  the copies (copy ``c`` starts from what copy ``c - 1`` yields). When the
  trip count is not known to be a multiple of ``k``, a cleanup loop (the
  original loop, renamed) runs the remaining iterations and takes the main
  loop's results as its initial values. Its lower bound is
  ``max(lb, lb + ((ub - lb) ceildiv step) floordiv k * k * step)``: MLIR
  omits the ``max`` and runs the cleanup loop on iterations the original
  never ran when ``ub < lb`` (a symbolic trip count of zero or less);
* fully (``--full``): a loop with a constant trip count of at most
  :data:`FULL_UNROLL_LIMIT` is replaced by its copies; uses of its results
  are rewritten to the values the last copy yields.

* with ``min``/``max`` bounds and a trip count that may not be a multiple
  of ``k`` -- where MLIR gives up, the cleanup loop's lower bound not being
  affine -- the loop keeps its bounds and copies ``1 .. k - 1`` each run
  under an ``affine.if`` (``%iv + c * step`` below every upper bound); with
  ``iter_args`` the ``affine.if`` yields the copy's values, or passes the
  previous ones through.

Unrolling never reorders anything, so it is always legal; it is refused
only for a constant trip count smaller than the factor (as MLIR does) and
a body with several blocks.

The cloning machinery (:class:`BodyCloner`) -- op text copied with its SSA
names renamed -- is shared with unroll-and-jam.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from affine_lsp.ir.affine_expr import AffineExpr, AffineMap, dim, symbol
from affine_lsp.ir.affine_ops import Bound, ForView
from affine_lsp.ir.core import Operation, Value
from affine_lsp.transforms.catalog import OptionError
from affine_lsp.transforms.edits import TextEdit, Transform, UnsafeTransform, line_start
from affine_lsp.transforms.profitability import remark
from affine_lsp.transforms.rewrite import LoopOutcome, NameGen, apply_sequentially, checked_in_section, function_text, is_unnamed, line_indent, loops_on_lines
from affine_lsp.transforms.verdict import not_offered

if TYPE_CHECKING:
    from argparse import Namespace

FULL_UNROLL_LIMIT = 16
"""``--full`` / "Fully unroll loop" only for constant trip counts up to this."""

DEFAULT_FACTOR = 4

_SSA = re.compile(r"(%[A-Za-z0-9_$.\-]+)(#[0-9]+)?")


# ------------------------------------------------------------------ cloning


def base_name(v: Value) -> str:
    """``%x`` for ``%x``, ``%x#1``."""
    return v.name.split("#", 1)[0]


def defined_values(ops: Iterable[Operation]) -> list[Value]:
    """Every value ``ops`` define: results and block arguments of nested regions."""
    out: list[Value] = []
    for top in ops:
        for op in top.walk():
            out.extend(r for r in op.results if not is_unnamed(r))
            for reg in op.regions:
                for b in reg.blocks:
                    out.extend(b.arguments)
    return out


def rename_text(text: str, mapping: dict[str, str]) -> str:
    """``text`` with every SSA use ``%x`` / ``%x#k`` renamed by ``mapping``
    (keys ``%x`` or ``%x#k``; a ``%x#k`` key wins over ``%x``)."""

    def sub(m: re.Match[str]) -> str:
        name, idx = m.group(1), m.group(2) or ""
        if idx and name + idx in mapping:
            return mapping[name + idx]
        if name in mapping:
            return mapping[name] + idx
        return m.group(0)

    return _SSA.sub(sub, text)


def value_text(v: Value, mapping: dict[str, str]) -> str:
    return rename_text(v.name, mapping)


def reindent_text(block: str, old: str, new: str) -> str:
    """Lines after the first of ``block`` lose the indentation ``old`` and gain ``new``."""
    lines = block.split("\n")
    out = [lines[0]]
    for ln in lines[1:]:
        out.append(new + ln[len(old) :] if ln.startswith(old) else ln)
    return "\n".join(out)


def body_ops(loop: Operation) -> list[Operation]:
    """The ops of an ``affine.for`` body but its terminator."""
    body = ForView(loop).body
    if body is None:
        return []
    ops = list(body.operations)
    if ops and ops[-1].name == "affine.yield":
        ops = ops[:-1]
    return ops


def misplaced_terminator(loop: Operation) -> Operation | None:
    """A terminator in ``loop``'s body (at any depth) that does not end its
    block, or that ends the block of an ``affine.for``/``affine.if``/
    ``affine.parallel`` without being its ``affine.yield`` (a broken body:
    ``affine.terminator`` typed mid-block, a ``return`` whose function lost
    its closing brace). Copying such a body copies the terminator into the
    middle of a block, or out of the loop into the enclosing one."""
    from affine_lsp.verify import known_traits

    for o in loop.walk():
        if o is loop or known_traits.is_terminator(o) is not True:
            continue
        blk = o.parent
        if blk is None or not blk.operations or blk.operations[-1] is not o:
            return o
        owner = o.parent_op
        if o.name != "affine.yield" and owner is not None and owner.name in ("affine.for", "affine.if", "affine.parallel"):
            return o
    return None


def uses_value(ops: Iterable[Operation], v: Value) -> bool:
    inside = {id(o) for top in ops for o in top.walk()}
    return any(id(u.user) in inside for u in v.uses)


def ops_text(text: str, ops: Sequence[Operation], mapping: dict[str, str], indent: str) -> str:
    """The text of consecutive ``ops`` (comments between them included),
    renamed, each line indented by ``indent`` instead of its own."""
    own = line_indent(text, ops[0].span.start)
    chunk = text[ops[0].span.start : ops[-1].span.end]
    return indent + reindent_text(rename_text(chunk, mapping), own, indent)


def fresh_mapping(values: Iterable[Value], names: NameGen, suffix: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for v in values:
        b = base_name(v)
        if b not in out:
            out[b] = names.fresh(b.lstrip("%") + suffix)
    return out


# ------------------------------------------------------------------ bounds


def map_use(m: AffineMap, operands: Sequence[Value], kw: str, mapping: dict[str, str] | None = None) -> str:
    """A loop bound as written: ``7``, ``%n``, ``affine_map<...>(...)[...]``
    (``max``/``min`` prefixed for several results)."""
    mp = mapping or {}
    if m.num_results == 1:
        e = m.results[0]
        if e.is_constant() and not operands:
            return str(e.value)  # type: ignore[attr-defined]
        if m.num_dims == 0 and m.num_symbols == 1 and str(e) == "s0":
            return value_text(operands[0], mp)
    nd = m.num_dims
    s = m.to_attr_str() + "(" + ", ".join(value_text(o, mp) for o in operands[:nd]) + ")"
    if m.num_symbols:
        s += "[" + ", ".join(value_text(o, mp) for o in operands[nd:]) + "]"
    return (f"{kw} " if m.num_results > 1 else "") + s


def _merged(lb: Bound, ub: Bound) -> tuple[AffineExpr, AffineExpr, int, int, list[Value]]:
    """Single-result lb and ub expressions over one operand list (the dims,
    then the symbols, of both; a value that both use, e.g. the tile IV of
    ``%i_t to %i_t + 32``, is one operand: the difference of the bounds then
    simplifies to a constant)."""
    dims: list[Value] = []
    syms: list[Value] = []

    def pos(v: Value, into: list[Value]) -> int:
        for k, u in enumerate(into):
            if u is v:
                return k
        into.append(v)
        return len(into) - 1

    def merged(b: Bound) -> AffineExpr:
        ds = [dim(pos(v, dims)) for v in b.dim_operands]
        ss = [symbol(pos(v, syms)) for v in b.symbol_operands]
        return b.map.results[0].replace(ds, ss)

    le, ue = merged(lb), merged(ub)
    return le.simplify(), ue.simplify(), len(dims), len(syms), dims + syms


@dataclass
class SplitBounds:
    """Where the unrolled loop stops and the cleanup loop starts."""

    main_ub: str  # the unrolled loop's upper bound, as written
    cleanup_lb: str | None  # None: no cleanup loop
    guarded: bool = False  # copies 1..k-1 each under an affine.if (min/max bounds)


def split_bounds(loop: Operation, factor: int, mapping: dict[str, str] | None = None) -> SplitBounds | str:
    """The bounds of the loop unrolled by ``factor`` and of its cleanup loop,
    or why there are none (MLIR's ``getCleanupLoopLowerBound``)."""
    f = ForView(loop)
    lb, ub, s = f.lower, f.upper, f.step
    tc = f.constant_trip_count()
    if tc is not None:
        if tc < factor:
            return f"the trip count {tc} is smaller than the factor {factor}"
        if tc % factor == 0:
            return SplitBounds(map_use(ub.map, ub.operands, "min", mapping), None)
        c = lb.constant()
        assert c is not None
        split = c + (tc - tc % factor) * s
        return SplitBounds(str(split), str(split))
    if lb.map.num_results != 1 or ub.map.num_results != 1:
        # MLIR gives up (the cleanup loop's lower bound would not be affine);
        # the copies past the bound are guarded instead
        return SplitBounds(map_use(ub.map, ub.operands, "min", mapping), None, guarded=True)
    le, ue, nd, ns, operands = _merged(lb, ub)
    width = (ue - le).simplify()
    if width.is_constant():
        # the same trip count at every instance (a point loop of a tile):
        # no cleanup loop when it is a multiple of the factor, else one
        # starting where the unrolled loop stops (never a loop with no trip)
        trips = max(0, -(-width.value // s))  # type: ignore[attr-defined]
        if trips < factor:
            return f"the trip count {trips} is smaller than the factor {factor}"
        if trips % factor == 0:
            return SplitBounds(map_use(ub.map, ub.operands, "min", mapping), None)
        at = AffineMap(nd, ns, [(le + (trips - trips % factor) * s).simplify()])
        return SplitBounds(map_use(at, operands, "min", mapping), map_use(at, operands, "max", mapping))
    split = (le + ((ue - le).ceildiv(s).floordiv(factor)) * (factor * s)).simplify()
    m = AffineMap(nd, ns, [split])
    cm = AffineMap(nd, ns, [le, split])
    return SplitBounds(map_use(m, operands, "min", mapping), map_use(cm, operands, "max", mapping))


# ------------------------------------------------------------------ headers


def for_header(
    loop: Operation,
    iv: str,
    lower: str,
    upper: str,
    step: int,
    results: str,
    iter_args: Sequence[tuple[str, str]],
) -> str:
    """``%r = affine.for %iv = lower to upper step s iter_args(...) -> (...) {``"""
    f = ForView(loop)
    head = f"{results}affine.for {iv} = {lower} to {upper}"
    if step != 1:
        head += f" step {step}"
    if iter_args:
        types = [str(r.type) for r in loop.results]
        n = len(iter_args) // max(1, len(types))
        head += f" iter_args({', '.join(f'{a} = {i}' for a, i in iter_args)}) -> ({', '.join(types * n)})"
    del f
    return head + " {"


def results_prefix(name: str, n: int) -> str:
    if n == 0:
        return ""
    return f"{name} = " if n == 1 else f"{name}:{n} = "


def original_prefix(op: Operation) -> str:
    """``op``'s results as written: ``%r = ``, ``%r:2 = `` or ``%a, %b = ``."""
    names = [r.name for r in op.results]
    if not names:
        return ""
    if len(names) == 1 or all("#" in n for n in names):
        return results_prefix(base_name(op.results[0]), len(names))
    return ", ".join(names) + " = "


def result_refs(name: str, n: int) -> list[str]:
    return [name] if n == 1 else [f"{name}#{i}" for i in range(n)]


# ------------------------------------------------------------------ legality


def unroll_reason(loop: Operation, factor: int | None) -> str | None:
    """Why ``loop`` cannot be unrolled by ``factor`` (None: fully), or None."""
    if loop.name != "affine.for":
        return f"'{loop.name}' is not an affine.for"
    f = ForView(loop)
    if f.body is None or f.iv is None or len(loop.regions[0].blocks) != 1:
        return "the loop has no single-block body"
    if any(is_unnamed(r) for r in loop.results):
        return "the loop's results have no name"
    stray = misplaced_terminator(loop)
    if stray is not None:
        return f"the loop body has a misplaced terminator ('{stray.name}')"
    block = loop.parent
    if block is not None and block.operations and block.operations[-1] is loop and loop.parent_op is not None and loop.parent_op.name == "func.func":
        # The loop ends a function body: it has no terminator (the function
        # is broken); fully unrolling an empty body would leave it empty.
        # (A loop body's terminator is implicit: a loop may end one.)
        return "the loop's block has no terminator"
    if factor is None:
        tc = f.constant_trip_count()
        if tc is None:
            return "the trip count is not a constant"
        if tc > FULL_UNROLL_LIMIT:
            return not_offered(f"trip count {tc} > {FULL_UNROLL_LIMIT}, the largest unrolled fully")
        return None
    if factor < 2:
        return "the factor must be at least 2"
    if not body_ops(loop):
        return "the loop body is empty"
    got = split_bounds(loop, factor)
    return got if isinstance(got, str) else None


# ------------------------------------------------------------------ rewrite


def _guard(loop: Operation, offset: int) -> str:
    """``affine_set<...>(%iv, ...)[...]``: ``%iv + offset`` is below every
    upper bound of ``loop``."""
    from affine_lsp.ir.affine_expr import IntegerSet

    f = ForView(loop)
    ub = f.upper
    nd = ub.map.num_dims
    cons = [e.shift(1, 0) - dim(0) - (offset + 1) for e in ub.map.results]
    st = IntegerSet(nd + 1, ub.map.num_symbols, [c.simplify() for c in cons], [False] * len(cons))
    assert f.iv is not None
    out = st.to_attr_str() + "(" + ", ".join([f.iv.name] + [o.name for o in ub.dim_operands]) + ")"
    if ub.map.num_symbols:
        out += "[" + ", ".join(o.name for o in ub.symbol_operands) + "]"
    return out


def _iv_apply(iv: str, new: str, offset: int) -> str:
    return f"{new} = affine.apply affine_map<(d0) -> (d0 + {offset})>({iv})"


def unroll_edits(text: str, loop: Operation, factor: int | None) -> list[TextEdit]:
    """The edits unrolling ``loop`` by ``factor`` (None: fully)."""
    if factor is None:
        return full_unroll_edits(text, loop)
    f = ForView(loop)
    assert f.body is not None and f.iv is not None
    names = NameGen.from_text(function_text(text, loop))
    ops = body_ops(loop)
    split = split_bounds(loop, factor)
    assert not isinstance(split, str)
    iv = f.iv.name
    s = f.step
    term = f.body.terminator
    yield_vals = list(term.operands) if term is not None and term.name == "affine.yield" else []
    ind = line_indent(text, ops[0].span.start)
    uses_iv = uses_value(ops, f.iv)
    copies: list[str] = []
    defined = defined_values(ops)
    carried = [y.name for y in yield_vals]  # what the copies so far yield
    for c in range(1, factor):
        mapping = fresh_mapping(defined, names, f"_u{c}")
        cind = ind + "  " if split.guarded else ind
        lines = []
        if uses_iv:
            ivc = names.fresh(iv.lstrip("%") + f"_u{c}")
            mapping[iv] = ivc
            lines.append(cind + _iv_apply(iv, ivc, c * s))
        for a, cur in zip(f.iter_args, carried):
            mapping[a.name] = cur
        lines.append(ops_text(text, ops, mapping, cind))
        after = [value_text(y, mapping) for y in yield_vals]
        if split.guarded:
            cond = _guard(loop, c * s)
            if yield_vals:
                g = names.fresh(f"guard_u{c}")
                types = ", ".join(str(y.type) for y in yield_vals)
                head = f"{ind}{results_prefix(g, len(yield_vals))}affine.if {cond} -> ({types}) {{"
                lines.append(f"{cind}affine.yield {', '.join(after)} : {types}")
                lines.append(f"{ind}}} else {{")
                lines.append(f"{cind}affine.yield {', '.join(carried)} : {types}")
                after = result_refs(g, len(yield_vals))
            else:
                head = f"{ind}affine.if {cond} {{"
            lines.insert(0, head)
            lines.append(f"{ind}}}")
        copies.append("\n".join(lines))
        carried = after
    edits: list[TextEdit] = []
    n = len(loop.results)
    base = base_name(loop.results[0]) if n else ""
    main_res = names.fresh(base.lstrip("%") + "_unrolled") if n and split.cleanup_lb is not None else base
    prefix = results_prefix(main_res, n) if split.cleanup_lb is not None else original_prefix(loop)
    lower = map_use(f.lower.map, f.lower.operands, "max")
    head = for_header(loop, iv, lower, split.main_ub, s * factor, prefix, [(a.name, i.name) for a, i in zip(f.iter_args, f.inits)])
    edits.append(TextEdit(loop.span.start, loop.regions[0].span.start + 1, head))
    edits.append(TextEdit(ops[-1].span.end, ops[-1].span.end, "\n" + "\n".join(copies)))
    if yield_vals and term is not None:
        types = ", ".join(str(v.type) for v in yield_vals)
        edits.append(TextEdit(term.span.start, term.span.end, f"affine.yield {', '.join(carried)} : {types}"))
    if split.cleanup_lb is not None:
        edits.append(cleanup_edit(text, loop, names, split.cleanup_lb, result_refs(main_res, n)))
    return edits


def cleanup_edit(text: str, loop: Operation, names: NameGen, lower: str, inits: Sequence[str]) -> TextEdit:
    """The cleanup loop after ``loop``: the original loop with fresh names
    inside, from ``lower``, starting from ``inits`` (the main loop's
    results), defining the original results."""
    f = ForView(loop)
    assert f.iv is not None
    inner = defined_values(body_ops(loop)) + [f.iv] + list(f.iter_args)
    mapping = fresh_mapping(inner, names, "_c")
    head = for_header(
        loop,
        mapping[f.iv.name],
        lower,
        map_use(f.upper.map, f.upper.operands, "min"),
        f.step,
        original_prefix(loop),
        [(mapping[a.name], i) for a, i in zip(f.iter_args, inits)],
    )
    rest = text[loop.regions[0].span.start + 1 : loop.span.end]
    lind = line_indent(text, loop.span.start)
    return TextEdit(loop.span.end, loop.span.end, "\n" + lind + head + rename_text(rest, mapping))


def full_unroll_edits(text: str, loop: Operation) -> list[TextEdit]:
    f = ForView(loop)
    assert f.body is not None and f.iv is not None
    tc = f.constant_trip_count()
    lbc = f.lower.constant()
    assert tc is not None and lbc is not None
    names = NameGen.from_text(function_text(text, loop))
    ops = body_ops(loop)
    term = f.body.terminator
    yield_vals = list(term.operands) if term is not None and term.name == "affine.yield" else []
    lind = line_indent(text, loop.span.start)
    uses_iv = uses_value(ops, f.iv)
    defined = defined_values(ops)
    pieces: list[str] = []
    current = [i.name for i in f.inits]
    for c in range(tc):
        mapping = fresh_mapping(defined, names, f"_u{c}")
        if uses_iv:
            ivc = names.fresh(f.iv.name.lstrip("%") + f"_u{c}")
            mapping[f.iv.name] = ivc
            pieces.append(f"{ivc} = affine.apply affine_map<() -> ({lbc + c * f.step})>()")
        for a, cur in zip(f.iter_args, current):
            mapping[a.name] = cur
        if ops:
            pieces.append(ops_text(text, ops, mapping, lind)[len(lind) :])
        current = [value_text(y, mapping) for y in yield_vals]
    edits: list[TextEdit] = []
    if pieces:
        edits.append(TextEdit(loop.span.start, loop.span.end, ("\n" + lind).join(pieces)))
    else:
        s = line_start(text, loop.span.start)
        e = text.find("\n", loop.span.end)
        if not text[s : loop.span.start].strip() and (e < 0 or not text[loop.span.end : e].strip()):
            edits.append(TextEdit(s, len(text) if e < 0 else e + 1, ""))
        else:
            edits.append(TextEdit(loop.span.start, loop.span.end, ""))
    for r, new in zip(loop.results, current):
        for u in r.uses:
            edits.append(TextEdit(u.span.start, u.span.end, new))
    return edits


# ------------------------------------------------------------------ API


def _title(factor: int | None) -> str:
    return "Fully unroll loop" if factor is None else f"Unroll loop by {factor}"


def unroll_candidates(doc: object, loop_op: Operation, factor: int = DEFAULT_FACTOR) -> list[Transform]:
    """Code actions for ``loop_op``: "Unroll loop by N" and, for small
    constant trip counts, "Fully unroll loop" (disabled with the reason when
    they cannot apply)."""
    from affine_lsp.source.document import Document

    assert isinstance(doc, Document)
    if loop_op.name != "affine.for":
        return []
    out: list[Transform] = []
    for k in (factor, None):
        title = _title(k)
        why = unroll_reason(loop_op, k)
        if why is None:
            try:
                edits = unroll_edits(doc.text, loop_op, k)
                checked_in_section(doc, edits)
            except UnsafeTransform as e:
                why = f"the unrolled loop does not verify: {e}"
            except Exception as e:  # never take the server down with a code action
                why = f"internal error: {type(e).__name__}: {e}"
        if why is not None:
            if k is None and "not a constant" in why:
                continue  # not offered at all for symbolic trip counts
            out.append(Transform("unroll", f"{title}: {why}", [], why, {"disabled": why}))
        else:
            out.append(Transform("unroll", title, edits, "Unrolling never reorders iterations.", {"loop": loop_op.span.start}))
    return out


def unroll_document(text: str, lines: Sequence[int] | None = None, factor: int | None = DEFAULT_FACTOR) -> tuple[str, list[LoopOutcome]]:
    """Unroll by ``factor`` (None: fully) every loop of ``text`` that can be
    (innermost loops only, like ``-affine-loop-unroll``), or only the loops
    starting on ``lines`` (1-based)."""
    from affine_lsp.source.document import Document

    doc = Document(text)
    outcomes: list[LoopOutcome] = []
    chosen: list[Operation] = []
    for op, line in loops_on_lines(doc, lines=lines):
        if lines is None and any(o is not op and o.name == "affine.for" for o in op.walk()):
            continue  # --all: innermost loops, as MLIR's pass does
        why = unroll_reason(op, factor)
        if why is not None:
            outcomes.append(LoopOutcome(op.span.start, line, False, why))
            continue
        if any(c.is_ancestor_of(op) or op.is_ancestor_of(c) for c in chosen):
            outcomes.append(LoopOutcome(op.span.start, line, False, "a loop around or inside it is unrolled"))
            continue
        chosen.append(op)

    def rewrite(cur: str, op: Operation) -> list[TextEdit] | str:
        why = unroll_reason(op, factor)
        return why if why is not None else unroll_edits(cur, op, factor)

    new, done = apply_sequentially(text, [op.span.start for op in chosen], ["affine.for"], rewrite)
    for op in chosen:
        why = done.get(op.span.start)
        msg = why if why is not None else ("fully unrolled" if factor is None else f"unrolled by {factor}")
        outcomes.append(LoopOutcome(op.span.start, doc.lines.line_of(op.span.start) + 1, why is None, msg, remark(None, "LLVM -O3 unrolls loops itself")))
    outcomes.sort(key=lambda o: o.offset)
    return new, outcomes


def unroll_verdicts(loop: Operation) -> list:
    from affine_lsp.transforms.loop_verdicts import Verdict

    if loop.name != "affine.for":
        return []
    # Unrolling keeps the order of every instance: no dependence forbids it,
    # only the loop's shape (not applicable) or its size (not offered).
    out = [Verdict.of(f"unroll by {DEFAULT_FACTOR}", unroll_reason(loop, DEFAULT_FACTOR))]
    tc = ForView(loop).constant_trip_count()
    if tc is not None:
        out.append(Verdict.of("full unroll", unroll_reason(loop, None)))
    return out


def unroll_rewrite(args: Namespace) -> Callable[[str, Sequence[int] | None], tuple[str, list[LoopOutcome]]]:
    """``affine-lsp unroll``: like ``mlir-opt -affine-loop-unroll="unroll-factor=N"``
    (or ``unroll-full``), every innermost loop (``--all``) or the ones on
    ``--loop``, by ``--factor`` or fully with ``--full``."""
    if not args.full and args.factor < 2:
        raise OptionError("--factor must be at least 2")
    factor = None if args.full else args.factor
    return lambda text, lines: unroll_document(text, lines, factor)
