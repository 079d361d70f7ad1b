"""Loop fusion: "Fuse loops here" code actions, hover reports and ``fuse --all``.

Public API
----------
``fusion_candidates(doc, loop_op, other=None, include_unprofitable=False) -> list[Transform]``
    The fusions involving the top-level nest ``loop_op`` (an ``affine.for``;
    with ``other``, only the pair ``loop_op``/``other``): producer-consumer
    (``loop_op`` as the producer or the consumer) and sibling (both read a
    memref, no dependence between them). Each :class:`Transform` has a
    ``title`` naming the kind, depth, additional compute and storage
    reduction, minimal ``edits`` on ``doc.text`` and ``details`` (Markdown:
    the cost model at every depth, the slice, what was validated). Only
    legal fusions are returned (validated on the generated code, then
    re-parsed and re-verified by :func:`edits.checked`); only profitable
    ones unless ``include_unprofitable``.

``fusion_report(loop_op, doc=None) -> str``
    Markdown: for every fusion candidate of ``loop_op``, the profitability
    at every depth (additional compute, storage reduction, fused cost, slice
    write region) and MLIR's choice (for the hover; legality is established
    when the fusion is offered).

``fuse_all(text, mode="greedy", maximal=False, force=False, applied=None) -> str``
    Greedy fusion like ``mlir-opt -affine-loop-fusion`` (``mode`` is
    ``greedy`` = producer-consumer, sibling, producer-consumer again;
    ``producer``; ``sibling``), every ``// -----`` section independently.
    Only fusions predicted profitable (:mod:`.fusion_predict`: no
    recomputation beyond the tolerance) unless ``force``; every fusion done
    is appended to ``applied``.

How a fusion is found
---------------------
For a pair of nests in one block, the slices at every depth
(:mod:`.fusion_slice`) feed MLIR's cost model (:mod:`.fusion_cost`); the
chosen depth is tried first, then shallower ones. For a depth, the
rewrite (:mod:`.fusion_codegen`) removes the source nest when possible and
gives the fused nest private, shrunk buffers when possible; each variant is
validated by comparing the dataflow of the old and new code
(:mod:`.fusion_validate`) and the first valid one wins. Nothing is offered
when no variant is valid: legality is never taken from the reference
pass's rules alone.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from affine_lsp.analysis.isl_support import BudgetExceeded, IslFailure, limited
from affine_lsp.ir import op_traits
from affine_lsp.ir.core import Block, Operation, Value, memo_if_any, memo_of
from affine_lsp.ir.types import MemRefType
from affine_lsp.source.document import Document, Section
from affine_lsp.source.scratch import scratch_documents
from affine_lsp.syntax.chunks import SPLIT_MARKER_RE, split_sections
from affine_lsp.transforms.edits import TextEdit, Transform, UnsafeTransform, apply_edits, refuse_if_too_large
from affine_lsp.transforms.fusion_codegen import CodegenError, Plan, PrivateBuf, Rewrite, build_rewrite
from affine_lsp.transforms.fusion_cost import COMPUTE_TOLERANCE, Profit, evaluate, report_table
from affine_lsp.transforms.fusion_ir import (
    READ_OPS,
    WRITE_OPS,
    access_memref,
    block_path,
    element_size,
    find_block,
    function_of,
    index_in_block,
    memrefs_accessed,
    op_memrefs,
    screen_between,
    screen_nest,
    values_used_in,
    view_related,
    walk_accesses,
)
from affine_lsp.transforms.fusion_isl import CAccess, CanonModel
from affine_lsp.transforms.fusion_predict import predict
from affine_lsp.transforms.fusion_slice import Slice, chain_of, compute_slice, private_region
from affine_lsp.transforms.fusion_validate import Verdict, validate
from affine_lsp.transforms.profitability import Prediction, change
from affine_lsp.transforms.rewrite import NameGen, checked_in_section, function_context

log = logging.getLogger(__name__)

PRODUCER_CONSUMER = "producer-consumer"
SIBLING = "sibling"

__all__ = ["PRODUCER_CONSUMER", "SIBLING", "FusionResult", "fuse_all", "fuse_pair", "fusion_candidates", "fusion_report"]


# ------------------------------------------------------------------ analysis


@dataclass
class PairAnalysis:
    kind: str
    src: Operation
    dst: Operation
    block: Block
    func: Operation
    memrefs: list[Value]
    ok: bool = True
    reason: str = ""
    cm: CanonModel | None = None
    src_accs: list[CAccess] = field(default_factory=list)
    dst_accs: list[CAccess] = field(default_factory=list)
    slice_src: list[CAccess] = field(default_factory=list)
    chain: list[Operation] = field(default_factory=list)
    slices: dict[int, Slice] = field(default_factory=dict)
    profit: Profit | None = None
    insert_before: Operation | None = None

    @property
    def max_depth(self) -> int:
        return len(self.chain)


def _fail(pa: PairAnalysis, why: str) -> PairAnalysis:
    pa.ok = False
    pa.reason = why
    return pa


ANALYSIS_BUDGET = 20_000_000


def analyze_pair(kind: str, src: Operation, dst: Operation, memrefs: list[Value] | None = None) -> PairAnalysis:
    """Slices and costs of fusing ``src`` into ``dst`` (same block); never
    raises (``ok`` is False with a ``reason`` when the pair cannot be fused)."""
    try:
        with limited(ANALYSIS_BUDGET):
            return _analyze_pair(kind, src, dst, memrefs)
    except BudgetExceeded:
        return _fail(PairAnalysis(kind, src, dst, src.parent, function_of(src), []), "analysis budget exceeded")  # type: ignore[arg-type]
    except (IslFailure, ValueError, AssertionError, KeyError, IndexError, StopIteration, RecursionError) as e:
        return _fail(PairAnalysis(kind, src, dst, src.parent, function_of(src), []), f"cannot analyse: {type(e).__name__}: {e}")  # type: ignore[arg-type]


def _analyze_pair(kind: str, src: Operation, dst: Operation, memrefs: list[Value] | None = None) -> PairAnalysis:
    from affine_lsp.analysis import dependences_of_function

    block = src.parent
    func = function_of(src)
    pa = PairAnalysis(kind, src, dst, block, func, [])  # type: ignore[arg-type]
    if block is None or dst.parent is not block or func is None or src is dst:
        return _fail(pa, "the loops are not in the same block of a function")
    for op, role in ((src, "src"), (dst, "dst")):
        sc = screen_nest(op, role)
        if not sc.ok:
            return _fail(pa, sc.reason)
    i_s, i_d = index_in_block(src), index_in_block(dst)
    if kind == PRODUCER_CONSUMER and i_s > i_d:
        return _fail(pa, "the producer must come first")
    s_reads, s_writes = memrefs_accessed(src)
    d_reads, d_writes = memrefs_accessed(dst)
    if kind == PRODUCER_CONSUMER:
        pcm = [m for m in _ordered(src, s_writes) if m in d_reads]
        if memrefs is not None:
            pcm = [m for m in pcm if m in memrefs] or pcm
        if not pcm:
            return _fail(pa, "the first nest writes no memref the second reads")
        pa.memrefs = pcm
    else:
        shared = [m for m in _ordered(src, s_reads) if m in d_reads and m not in s_writes and m not in d_writes]
        if memrefs is not None:
            shared = [m for m in shared if m in memrefs]
        if not shared:
            return _fail(pa, "the nests read no common memref (that neither writes)")
        pa.memrefs = shared[:1]
    lo, hi = min(i_s, i_d), max(i_s, i_d)
    between = block.operations[lo + 1 : hi]
    touched = s_reads | s_writes | d_reads | d_writes
    sc = screen_between(between, touched)
    if not sc.ok:
        return _fail(pa, sc.reason)
    ins = insertion_point(block, src, dst)
    if ins is None:
        return _fail(pa, "no point of the block can hold the fused nest without breaking a dependence")
    pa.insert_before = ins
    fd = dependences_of_function(func)
    cm = CanonModel(fd, block, "O")
    pa.cm = cm
    sa = cm.accesses_under([src])
    da = cm.accesses_under([dst])
    if sa is None or da is None:
        return _fail(pa, "an access cannot be modelled")
    for a in sa + da:
        if not a.exact:
            return _fail(pa, f"{a.acc.describe()} is not modelled exactly")
    pa.src_accs, pa.dst_accs = sa, da
    if kind == PRODUCER_CONSUMER:
        pa.slice_src = [a for a in sa if a.is_write]
        dst_ops = [a.op for a in da if a.memref in pa.memrefs]
    else:
        pa.slice_src = [a for a in sa if not a.is_write and a.memref in pa.memrefs]
        dst_ops = [next(a.op for a in da if not a.is_write and a.memref in pa.memrefs)]
    pa.chain = chain_of(dst, dst_ops)
    if not pa.chain:
        return _fail(pa, "no loop of the second nest surrounds its accesses")
    for d in range(1, pa.max_depth + 1):
        pa.slices[d] = compute_slice(cm, pa.slice_src, da, pa.chain, d)
    if kind == PRODUCER_CONSUMER:
        stores = [a for a in sa if a.is_write and a.memref in pa.memrefs]
    else:
        stores = pa.slice_src
    pa.profit = evaluate(src, dst, pa.slices, stores, sa, da)
    return pa


def _ordered(root: Operation, ms: set[Value]) -> list[Value]:
    out: list[Value] = []
    for a in walk_accesses(root):
        m = access_memref(a)
        if m in ms and m not in out:
            out.append(m)  # type: ignore[arg-type]
    return out


def insertion_point(block: Block, src: Operation, dst: Operation) -> Operation | None:
    """MLIR's ``getFusedLoopNestInsertionPoint``: the op before which the
    fused nest may go (``dst`` itself: where it is), None if no point
    preserves the dependences with the ops between the nests."""
    ops = block.operations
    i_s, i_d = index_in_block(src), index_in_block(dst)
    a, b = (src, dst) if i_s < i_d else (dst, src)
    ia, ib = min(i_s, i_d), max(i_s, i_d)
    a_r, a_w = op_memrefs(a)
    b_r, b_w = op_memrefs(b)
    b_uses = values_used_in(b)
    first_dep_a: int | None = None
    last_dep_b: int | None = None
    for k in range(ia + 1, ib):
        x = ops[k]
        x_r, x_w = op_memrefs(x)
        if first_dep_a is None and ((a_w & (x_r | x_w)) or (x_w & a_r)) and depends(a, x):
            first_dep_a = k
        if ((b_r & x_w) or (b_w & (x_r | x_w)) or any(r in b_uses for r in x.results)) and depends(x, b):
            last_dep_b = k
    if first_dep_a is not None:
        if last_dep_b is not None and first_dep_a <= last_dep_b:
            return None
        return ops[first_dep_a]
    return b


# ------------------------------------------------------------------ trying


@dataclass
class FusionResult:
    """A validated fusion: the edits and what they do."""

    kind: str
    src: Operation
    dst: Operation
    depth: int
    edits: list[TextEdit]
    new_text: str
    rewrite: Rewrite
    analysis: PairAnalysis
    removed_src: bool
    private: list[PrivateBuf]
    notes: list[str] = field(default_factory=list)

    @property
    def prediction(self) -> Prediction:
        """What this fusion is predicted to do to speed."""
        pa = self.analysis
        return predict(pa.kind, pa.profit, self.depth, pa.memrefs, self.removed_src, [p.memref for p in self.private])

    @property
    def extra_fraction(self) -> float | None:
        pr = self.analysis.profit
        ev = pr.evals.get(self.depth) if pr else None
        return ev.extra_fraction if ev else None

    @property
    def slice_mem(self) -> int | None:
        """Bytes of the intermediate buffer the fused nest needs: its private
        buffer when it got one, else the whole region the producer writes."""
        pr = self.analysis.profit
        if pr is None or not self.analysis.memrefs:
            return None
        m = self.analysis.memrefs[0]
        for p in self.private:
            if p.memref is m:
                es = element_size(p.type)
                n = p.type.num_elements()
                return es * n if es is not None and n is not None else None
        return pr.src_write_bytes

    @property
    def storage_pct(self) -> float | None:
        """MLIR's storage reduction: ``1 - (dst + slice) / (src + dst)``
        footprints, with the buffer the fused code actually uses."""
        pr = self.analysis.profit
        sm = self.slice_mem
        if pr is None or sm is None or pr.src_mem is None or pr.dst_mem is None or pr.src_mem + pr.dst_mem == 0:
            return None
        return 100.0 * (1.0 - (pr.dst_mem + sm) / (pr.src_mem + pr.dst_mem))

    def title(self) -> str:
        parts = [self.kind, f"depth {self.depth}"]
        fr, sp = self.extra_fraction, self.storage_pct
        pr = self.analysis.profit
        if pr is not None and not pr.skipped and fr is not None and sp is not None:
            parts.append(change("compute", fr))
            parts.append(change("storage", -sp / 100.0))
        else:
            parts.append("cost model not applicable")
        return f"Fuse loops here ({', '.join(parts)})"


def _depth_order(pa: PairAnalysis, maximal: bool, include_unprofitable: bool) -> Iterator[int]:
    pr = pa.profit
    if maximal or ((pr is None or pr.skipped) and include_unprofitable):
        yield from range(pa.max_depth, 0, -1)
        return
    if pr is None or pr.skipped:
        return  # no cost model (non-constant trip counts): MLIR does not fuse
    tried: set[int] = set()
    t = pa.max_depth
    while t >= 1:
        b = pr.best(t)
        if b is None:
            break
        tried.add(b)
        yield b
        t = b - 1
    if pr.multi_store:
        # MLIR does not weigh the storage of a producer with several stores
        # (we do, on the union of their write regions): it fuses at the
        # deepest legal depth when the additional computation there is
        # within the tolerance. Never beyond the tolerance.
        for d in range(pa.max_depth, 0, -1):
            if d not in tried and d in pa.slices and not pa.slices[d].empty and _within_tolerance(pr, d):
                tried.add(d)
                yield d
    if include_unprofitable:
        for d in range(pa.max_depth, 0, -1):
            if d not in tried:
                yield d


def _within_tolerance(pr: Profit, depth: int) -> bool:
    ev = pr.evals.get(depth)
    return ev is not None and ev.extra_fraction is not None and ev.extra_fraction < COMPUTE_TOLERANCE


def _privatizable(m: Value, pa: PairAnalysis) -> bool:
    t = m.type
    if not isinstance(t, MemRefType) or not t.has_identity_layout or view_related(m):
        return False
    return not any(a.memref is m and a.op.name.startswith("affine.vector") for a in pa.src_accs + pa.dst_accs)


def _private_bufs(pa: PairAnalysis, sl: Slice, names: NameGen) -> list[PrivateBuf] | None:
    assert pa.cm is not None
    out: list[PrivateBuf] = []
    for m in pa.memrefs:
        if not _privatizable(m, pa):
            continue
        t = m.type
        assert isinstance(t, MemRefType)
        full = [s if s is not None else None for s in t.shape]
        reg = private_region(pa.cm, sl, f"m_{_enc(m)}", [a for a in pa.src_accs if a.is_write], pa.dst_accs, full)
        if reg is None:
            continue
        if reg.shape == full:
            continue  # a private buffer as large as the original gains nothing
        nt = MemRefType(reg.shape, t.element, memory_space=t.memory_space)
        out.append(PrivateBuf(m, names.fresh(m.name), nt, reg.offsets, reg.constants))
    return out


def _enc(m: Value) -> str:
    from affine_lsp.transforms.fusion_isl import enc

    return enc(m.name)


def try_depth(doc: Document, pa: PairAnalysis, depth: int, why: list[Verdict] | None = None) -> FusionResult | None:
    """The first valid variant at ``depth`` (``doc`` is the document the IR
    was built from). ``why`` gets the reason each refused variant was
    refused (the validator's words: the access that would read other values)."""
    text = doc.text
    sl = pa.slices.get(depth)
    if sl is None or sl.empty:
        if why is not None:
            why.append(Verdict(False, "the slice of the source is empty"))
        return None
    names = NameGen.from_text(text)
    try:
        with limited(ANALYSIS_BUDGET):
            privs = _private_bufs(pa, sl, names) or []
    except (BudgetExceeded, IslFailure, ValueError):
        privs = []
    variants: list[tuple[bool, list[PrivateBuf]]] = []
    if pa.kind == SIBLING:
        variants = [(True, [])]
    else:
        # Keeping the producer without giving the fused nest its own buffer
        # would only compute its slice twice: not offered.
        variants = [(True, privs), (True, []), (False, privs)] if privs else [(True, [])]
    seen: set[tuple[bool, int]] = set()
    for remove, pv in variants:
        key = (remove, len(pv))
        if key in seen:
            continue
        seen.add(key)
        plan = Plan(pa.kind, pa.src, pa.dst, pa.block, depth, pa.chain, sl, remove, pv, pa.insert_before)
        got = _attempt(doc, pa, plan, why)
        if got is not None:
            return got
    return None


def _attempt(doc: Document, pa: PairAnalysis, plan: Plan, why: list[Verdict] | None = None) -> FusionResult | None:
    text = doc.text
    try:
        rw = build_rewrite(text, plan, NameGen.from_text(text) if not plan.private else _names_with(text, plan))
    except (CodegenError, ValueError, AssertionError, KeyError):
        return None
    try:
        new_text = apply_edits(text, rw.edits)
    except ValueError:
        return None
    if not rw.edits:
        return None
    # Re-parse the fused function in its context only (the function with
    # what it names, or its section: rewrite.function_context) and validate
    # on the generated code.
    lo = min(e.start for e in rw.edits)
    hi = max(e.end for e in rw.edits)
    context, shift = function_context(doc, lo, hi)
    if shift > lo or shift + len(context) < hi:
        return None
    try:
        refuse_if_too_large(context)  # (in a code action: see edits.check_limit)
        new_context = apply_edits(context, [TextEdit(e.start - shift, e.end - shift, e.new_text) for e in rw.edits])
    except (UnsafeTransform, ValueError):
        return None
    sections = split_sections(context)
    section_idx = _section_index(context, pa.func.span.start - shift)
    if section_idx >= len(sections):
        return None
    s0, s1 = sections[section_idx]
    if any(e.start - shift < s0 or e.end - shift > s1 for e in rw.edits):
        return None
    delta = len(new_context) - len(context)
    secs = Document(new_context[s0 : s1 + delta]).sections
    if not secs:
        return None
    new_func = _same_function(secs[0], pa.func)
    if new_func is None:
        return None
    path = rw.new_path(block_path(pa.block, pa.func))
    new_block = find_block(new_func, path)
    if new_block is None:
        return None
    verdict = validate(rw, pa.func, pa.block, new_func, new_block)
    if not verdict.ok:
        if why is not None:
            why.append(verdict)
        return None
    try:
        checked_in_section(doc, rw.edits)
    except UnsafeTransform:
        return None
    return FusionResult(pa.kind, pa.src, pa.dst, plan.depth, rw.edits, new_text, rw, pa, plan.remove_src, plan.private)


def _names_with(text: str, plan: Plan) -> NameGen:
    g = NameGen.from_text(text)
    for p in plan.private:
        g.taken.add(p.name)
    return g


def _section_index(text: str, offset: int) -> int:
    """The ``// -----`` section of ``text`` holding ``offset``."""
    return len(SPLIT_MARKER_RE.findall(text, 0, offset))


def _same_function(section: Section, func: Operation) -> Operation | None:
    name = _sym(func)
    for f in section.functions():
        if _sym(f) == name:
            return f
    return None


def _sym(f: Operation) -> str:
    return str(op_traits.symbol_name(f))


def fuse_pair(doc: Document, kind: str, src: Operation, dst: Operation, maximal: bool = False, include_unprofitable: bool = False) -> FusionResult | None:
    """The best valid fusion of the pair, whose IR is ``doc``'s (None when
    none is legal and profitable). Never raises."""
    try:
        pa = analyze_pair(kind, src, dst)
        if not pa.ok:
            return None
        chosen = list(_depth_order(pa, maximal, False))
        for d in chosen:
            got = try_depth(doc, pa, d)
            if got is not None and (maximal or got.prediction.profitable):
                return got
        if include_unprofitable:
            # The depths the cost model declines, deepest first: offered
            # (and applied with --force) with their prediction.
            for d in _depth_order(pa, maximal, True):
                if d not in chosen:
                    got = try_depth(doc, pa, d)
                    if got is not None:
                        return got
        return None
    except Exception:  # keep the language server and the CLI alive on any IR
        log.exception("fusion of %s into %s failed", src, dst)
    return None


# --------------------------------------------------------------- candidates


def _nests(block: Block) -> list[Operation]:
    return [op for op in block.operations if op.name == "affine.for"]


def producer_candidates(block: Block, dst: Operation, max_users: int | None = None) -> list[Operation]:
    """Nests before ``dst`` writing a memref ``dst`` reads (nearest first)."""
    d_reads, _ = memrefs_accessed(dst)
    i_d = index_in_block(dst)
    out = []
    for op in reversed(block.operations[:i_d]):
        if op.name != "affine.for":
            continue
        _, w = memrefs_accessed(op)
        pcm = w & d_reads
        if not pcm:
            continue
        if max_users is not None:
            i_s = index_in_block(op)
            if any(_later_users(block, i_s, m) > max_users for m in pcm):
                continue
        out.append(op)
    return out


def _later_users(block: Block, i: int, m: Value) -> int:
    n = 0
    for op in block.operations[i + 1 :]:
        if op.name in ("func.return", "affine.yield"):
            continue
        r, w = op_memrefs(op)
        if m in r or m in w:
            n += 1
    return n


def sibling_candidates(block: Block, dst: Operation) -> list[tuple[Operation, Value]]:
    """Nests sharing a read-only memref with ``dst``, with no chain of
    dependences between them (MLIR's ``findSiblingNodeToFuse`` filters)."""
    d_reads, d_writes = memrefs_accessed(dst)
    out: list[tuple[Operation, Value]] = []
    for op in block.operations:
        if op is dst or op.name != "affine.for":
            continue
        r, w = memrefs_accessed(op)
        if len(w) > 1:
            continue
        for m in sorted(d_reads & r - w - d_writes, key=lambda v: v.name):
            n_loads = sum(1 for a in walk_accesses(op) if access_memref(a) is m and a.name in ("affine.load", "affine.vector_load"))
            if n_loads != 1:
                continue
            if _dep_path(block, op, dst) or _dep_path(block, dst, op):
                continue
            out.append((op, m))
            break
    return out


def _dep_path(block: Block, a: Operation, b: Operation) -> bool:
    """A chain of memory/SSA dependences from ``a`` to ``b`` in ``block``."""
    ops = block.operations
    ia, ib = index_in_block(a), index_in_block(b)
    if ia > ib:
        return False
    reach = {ia}
    for j in range(ia + 1, ib + 1):
        if any(depends(ops[i], ops[j]) for i in reach):
            reach.add(j)
    return ib in reach


def depends(x: Operation, y: Operation) -> bool:
    """``y`` (after ``x`` in their block) may depend on ``x``: an SSA value
    of ``x`` used in ``y``, or a memory dependence (exact for affine
    accesses, conservative for anything else touching a memref)."""
    uses = values_used_in(y)
    if any(r in uses for r in x.results):
        return True
    xr, xw = op_memrefs(x)
    yr, yw = op_memrefs(y)
    shared = (xw & (yr | yw)) | (xr & yw)
    if not shared:
        return False
    from affine_lsp.analysis import dependences_of_function

    func = function_of(x)
    if func is None:
        return True
    fd = dependences_of_function(func)
    xa = [a for o in x.walk() for a in fd.accesses_of(o)]
    ya = [a for o in y.walk() for a in fd.accesses_of(o)]
    n_aff_x = sum(1 for o in x.walk() if o.name in ("affine.load", "affine.store", "affine.vector_load", "affine.vector_store"))
    n_aff_y = sum(1 for o in y.walk() if o.name in ("affine.load", "affine.store", "affine.vector_load", "affine.vector_store"))
    for m in shared:
        # a non-affine use of the memref: assume a dependence
        for op in (x, y):
            for o in op.walk():
                if m in o.operands and o.name not in ("affine.load", "affine.store", "affine.vector_load", "affine.vector_store"):
                    return True
    if len(xa) < n_aff_x or len(ya) < n_aff_y:
        return True
    depth = len(fd.model._level(x.parent).ivs) + 1 if x.parent is not None else 1
    for a in xa:
        for b in ya:
            if a.memref is None or a.memref is not b.memref or not (a.is_write or b.is_write):
                continue
            if fd.check(a, b, depth).has_dependence:
                return True
    return False


# ------------------------------------------------------------------- API


def _pairs(loop_op: Operation, other: Operation | None = None) -> list[tuple[str, Operation, Operation]]:
    """The ``(kind, src, dst)`` pairs a fusion involving ``loop_op`` (with
    ``other``, or with any nest of its block) may fuse, each once."""
    nest = _nest_root(loop_op)
    if nest is None or nest.parent is None:
        return []
    block = nest.parent
    pairs: list[tuple[str, Operation, Operation]] = []
    others = [_nest_root(other)] if other is not None else [o for o in _nests(block) if o is not nest]
    for o in others:
        if o is None or o.parent is not block:
            continue
        first, second = (o, nest) if index_in_block(o) < index_in_block(nest) else (nest, o)
        pairs.append((PRODUCER_CONSUMER, first, second))
        pairs.append((SIBLING, o, nest))
        pairs.append((SIBLING, nest, o))
    out: list[tuple[str, Operation, Operation]] = []
    seen: set[tuple[int, int, str]] = set()
    for kind, src, dst in pairs:
        key = (id(src), id(dst), kind)
        if key in seen:
            continue
        seen.add(key)
        try:
            if kind == SIBLING and not any(s is src for s, _ in sibling_candidates(block, dst)):
                continue
        except Exception:  # never let a request fail
            log.exception("sibling candidates failed")
            continue
        out.append((kind, src, dst))
    return out


def pair_refusal(doc: Document, kind: str, src: Operation, dst: Operation, dependences_only: bool = False) -> str | None:
    """Why no depth of fusing ``src`` into ``dst`` is legal (the analysis's
    or the validator's words, naming the access whose values would change),
    or None when one is. Tries every depth, deepest first. Never raises.
    ``dependences_only``: None also where fusion does not apply (the nests
    share nothing to fuse on), so that only a dependence forbids it."""
    try:
        pa = analyze_pair(kind, src, dst)
        if not pa.ok:
            return pa.reason if not dependences_only or "dependence" in pa.reason else None
        why: list[Verdict] = []
        for d in range(pa.max_depth, 0, -1):
            if try_depth(doc, pa, d, why) is not None:
                return None
        if not why:
            return "no depth has a slice to fuse"
        return _dependence_words(doc, src, dst, why[-1])
    except Exception as e:  # keep the CLI alive on any IR
        log.exception("fusion refusal of %s into %s failed", src, dst)
        return f"cannot analyse: {type(e).__name__}"


def _dependence_words(doc: Document, src: Operation, dst: Operation, verdict: Verdict) -> str:
    """The validator's refusal with the dependence it breaks: the access
    whose values would change and the stores of the other nest to its memref,
    with their lines."""
    acc = verdict.access
    m = access_memref(acc) if acc is not None else None
    if acc is None or m is None:
        return verdict.reason
    line = doc.lines.position(acc.span.start)[0] + 1
    other = dst if src is acc or src.is_ancestor_of(acc) else src
    writes = sorted({doc.lines.position(op.span.start)[0] + 1 for op in walk_accesses(other) if op.name in WRITE_OPS and access_memref(op) is m})
    what = "load" if acc.name in READ_OPS else "access"
    kind = "read-after-write" if other is src else "write-after-read"
    many = len(writes) > 1
    if not writes:
        return f"the {what} of {m.name} at line {line} would read other values ({verdict.reason})"
    return (
        f"the {what} of {m.name} at line {line} would read other values: fusing reverses the {kind} dependence between it "
        f"and the store{'s' if many else ''} to {m.name} at line{'s' if many else ''} {', '.join(map(str, writes))}"
    )


def fusion_refusals(doc: Document, loop_op: Operation, other: Operation | None = None) -> list[tuple[str, Operation, Operation, str]]:
    """``(kind, src, dst, reason)`` for each pair involving ``loop_op`` (see
    :func:`fusion_candidates`) that has no legal fusion at any depth."""
    out = []
    for kind, src, dst in _pairs(loop_op, other):
        why = pair_refusal(doc, kind, src, dst)
        if why is not None:
            out.append((kind, src, dst, why))
    return out


def fusion_candidates(
    doc: Document, loop_op: Operation, other: Operation | None = None, include_unprofitable: bool = False, blocked: list[str] | None = None
) -> list[Transform]:
    """Legal (and, by default, profitable) fusions involving ``loop_op``;
    ``blocked`` gets, when none is, why each pair that shares data cannot
    be fused (:func:`pair_refusal`: the dependence that forbids it)."""
    out: list[Transform] = []
    reasons: list[str] = []
    for kind, src, dst in _pairs(loop_op, other):
        try:
            res = fuse_pair(doc, kind, src, dst, include_unprofitable=include_unprofitable)
            if res is None:
                if blocked is not None:
                    why = pair_refusal(doc, kind, src, dst, dependences_only=True)
                    if why:
                        reasons.append(why)
                continue
            out.append(_transform(doc, res))
        except Exception:  # never let a code action request fail
            log.exception("fusion candidate failed")
    if not out and blocked is not None:
        blocked.extend(reasons)
    return out


def _transform(doc: Document, res: FusionResult) -> Transform:
    lines = doc.lines
    sl = lines.position(res.src.span.start)[0] + 1
    dl = lines.position(res.dst.span.start)[0] + 1
    details = [f"**{res.title()}**", ""]
    what = f"Fuses the nest at line {sl} into the nest at line {dl} at depth {res.depth}"
    what += " and removes it." if res.removed_src else " (it is kept: other code needs all its results)."
    details.append(what)
    slc = res.analysis.slices.get(res.depth)
    if slc is not None and slc.describe():
        details.append("")
        details.append(f"Slice (the source's IVs, bounded by the destination's IVs of loops 1..{res.depth}): `{slc.describe()}`.")
    if res.private:
        details.append("")
        details.append("Private buffers of the fused nest: " + ", ".join(f"`{p.name} : {p.type}` (for `{p.memref.name}`)" for p in res.private) + ".")
    details.append("")
    details.append(
        "Legality: the generated code was checked against the original by exact value-based dataflow (isl): every read gets the same value and every live buffer ends with the same contents."
    )
    pa = res.analysis
    if pa.profit is not None:
        details.append("")
        details.extend(_profit_lines(pa, res.depth))
    data = {
        "kind": res.kind,
        "src_line": sl,
        "dst_line": dl,
        "depth": res.depth,
        "removed_src": res.removed_src,
        "private": [p.name for p in res.private],
    }
    pred = res.prediction
    details.insert(2, pred.markdown())
    details.insert(3, "")
    return Transform("fuse", res.title(), res.edits, "\n".join(details), data, prediction=pred)


def _profit_lines(pa: PairAnalysis, chosen: int | None, refusal: str | None = None) -> list[str]:
    """The cost model's lines; ``chosen``: the depth of the legal fusion;
    ``refusal``: why no depth is legal (then no prediction is given)."""
    pr = pa.profit
    assert pr is not None
    out = []
    if pr.reason:
        out.append(f"Cost model: {pr.reason}.")
    out.append(
        f"Compute cost (op instances): source {pr.src_cost}, destination {pr.dst_cost}; memory footprint (bytes): source {pr.src_mem}, destination {pr.dst_mem}; source write region {pr.src_write_bytes} B."
    )
    out.append("")
    out.extend(report_table(pr, pa.max_depth))
    best = pr.best(pa.max_depth)
    out.append("")
    if pr.multi_store:
        ev = pr.evals.get(pa.max_depth)
        frac = ev.extra_fraction if ev is not None else None
        verdict = "within" if frac is not None and frac < COMPUTE_TOLERANCE else "beyond"
        out.append(
            f"MLIR's cost model does not weigh the storage of a producer with several stores: it fuses at the deepest depth ({pa.max_depth}) only, "
            + (
                "when the additional computation can be counted."
                if frac is None
                else f"here {change('compute', frac)}, {verdict} the tolerance ({100 * COMPUTE_TOLERANCE:.0f}%)."
            )
            + " affine-lsp weighs the union of their write regions."
        )
    if best is not None:
        sp = pr.storage_pct(best)
        ev = pr.evals[best]
        out.append(
            ("The storage model (on the union of the stores) picks" if pr.multi_store else "MLIR's cost model picks")
            + f" depth {best}: {change('compute', ev.extra_fraction or 0)}"
            + (f", {change('storage', -sp / 100.0)} if the slice gets its own buffer" if sp is not None else "")
            + f" (tolerance {100 * COMPUTE_TOLERANCE:.0f}%)."
        )
    elif not pr.skipped:
        out.append("No depth is profitable under MLIR's cost model.")
    if chosen is not None and best is not None and chosen != best and not pr.multi_store:
        out.append(f"Depth {best} is not legal; depth {chosen} is the best legal one.")
    if chosen is None and refusal is not None:
        out.append(f"Not legal at any depth, so no prediction: {refusal}.")
    elif chosen is None:
        order = list(_depth_order(pa, False, False))
        if order:
            out.append(f"Prediction at depth {order[0]} (if legal): " + predict(pa.kind, pr, order[0], pa.memrefs).markdown())
        else:
            deepest = next((d for d in range(pa.max_depth, 0, -1) if d in pr.evals), pa.max_depth)
            out.append(f"Not fused (without --force). At depth {deepest}: " + predict(pa.kind, pr, deepest, pa.memrefs).markdown())
    return out


@scratch_documents()
def fusion_report(loop_op: Operation, doc: Document | None = None, check_legality: bool = False) -> str:
    """Markdown: the profitability of fusing ``loop_op`` at every depth.
    ``check_legality`` (with ``doc``): each pair is also fused and validated;
    an illegal pair says why instead of a prediction (``fuse --report``)."""
    nest = _nest_root(loop_op)
    if nest is None or nest.parent is None:
        return ""
    block = nest.parent
    parts: list[str] = []
    for o in _nests(block):
        if o is nest:
            continue
        first, second = (o, nest) if index_in_block(o) < index_in_block(nest) else (nest, o)
        for kind, src, dst in ((PRODUCER_CONSUMER, first, second), (SIBLING, o, nest)):
            try:
                pa = analyze_pair(kind, src, dst)
                if not pa.ok or pa.profit is None:
                    continue
                where = ""
                if doc is not None:
                    where = f" (lines {doc.lines.position(src.span.start)[0] + 1} → {doc.lines.position(dst.span.start)[0] + 1})"
                mems = ", ".join(f"`{m.name}`" for m in pa.memrefs)
                parts.append(f"#### Fusion {kind}{where} on {mems}")
                if check_legality and doc is not None:
                    res = fuse_pair(doc, kind, src, dst, include_unprofitable=True)
                    if res is None:
                        parts.extend(_profit_lines(pa, None, pair_refusal(doc, kind, src, dst) or "no depth is legal"))
                    else:
                        parts.extend(_profit_lines(pa, res.depth))
                        parts.append("")
                        unless = "" if res.prediction.profitable else "; not fused without --force"
                        parts.append(f"Legal at depth {res.depth} (validated on the generated code){unless}. " + res.prediction.markdown())
                else:
                    parts.extend(_profit_lines(pa, None))
                parts.append("")
            except Exception:  # a hover must never fail
                log.exception("fusion report failed")
    if not parts:
        return ""
    if not (check_legality and doc is not None):
        parts.append("Legality is checked on the generated code when the fusion is offered (code action *Fuse loops here*).")
    return "\n".join(["### Loop fusion", "", *parts]).rstrip() + "\n"


def _nest_root(op: Operation | None) -> Operation | None:
    """The ``affine.for`` itself when it has a sibling ``affine.for`` in its
    block; otherwise its outermost ``affine.for`` ancestor that has one."""
    if op is None or op.name != "affine.for":
        return None
    cur: Operation | None = op
    cand = op
    while cur is not None and cur.name == "affine.for":
        blk = cur.parent
        if blk is not None and sum(1 for o in blk.operations if o.name == "affine.for") >= 2:
            return cur
        cand = cur
        cur = cur.parent_op
    return cand


# ------------------------------------------------------------------ driver

MODES = ("greedy", "producer", "sibling")


def fusion_actions(doc: Document, loop_op: Operation, other: Operation | None = None) -> list[Transform]:
    """The code actions of fusion (the registry's ``actions``): every legal
    fusion of the loop (or of the two selected loops), the unprofitable ones
    included, ranked by their prediction; where the nests share data but a
    dependence forbids every fusion, one disabled action naming it (as every
    other transformation does)."""
    blocked: list[str] = []
    out = fusion_candidates(doc, loop_op, other, include_unprofitable=True, blocked=blocked)
    if not out and blocked:
        return [Transform("fuse", f"Fuse loops here: {blocked[0]}", [], blocked[0], {"disabled": blocked[0]})]
    return out


def fuse_all(text: str, mode: str = "greedy", maximal: bool = False, force: bool = False, applied: list[tuple[int, FusionResult]] | None = None) -> str:
    """Greedy fusion of every block of every function, each ``// -----``
    section on its own (like ``mlir-opt -affine-loop-fusion``)."""
    if mode not in MODES:
        raise ValueError(f"unknown fusion mode {mode!r}")
    doc = Document(text)
    secs = doc.sections
    out = text
    for s in reversed(secs):
        sub = text[s.start : s.end]
        if "affine.for" not in sub:
            continue
        done: list[tuple[int, FusionResult]] = []
        new_sub = _fuse_text(sub, mode, maximal, force, done)
        if applied is not None:
            base = text.count("\n", 0, s.start)
            applied[:0] = [(base + line, res) for line, res in done]
        out = out[: s.start] + new_sub + out[s.end :]
    return out


def _fuse_text(text: str, mode: str, maximal: bool, force: bool = False, applied: list[tuple[int, FusionResult]] | None = None) -> str:
    """``applied`` gets, per fusion, the 1-based line (in ``text`` as it was
    then) of the destination nest and the fusion."""
    """Fuse one section's text until no fusion applies."""
    passes = {"greedy": ["pc1", "sib", "pc"], "producer": ["pc"], "sibling": ["sib"]}[mode]
    done: set[tuple[str, str, str]] = set()
    budget = 200
    for p in passes:
        while budget > 0:
            budget -= 1
            step = _one_fusion(text, p, maximal, done, force)
            if step is None:
                break
            if applied is not None:
                applied.append((text.count("\n", 0, step[1].dst.span.start) + 1, step[1]))
            text, res = step
            _inherit(text, res, done)
    return text


def _inherit(text: str, res: FusionResult, done: set[tuple[str, str, str]]) -> None:
    """After a fusion, the fused nest is a new node of the dependence graph
    with the edges of the destination: the pairs tried for the destination
    (and the source just fused, if kept) are not tried again (MLIR updates
    its graph the same way)."""
    doc = Document(text)
    func = None
    for sec in doc.sections:
        func = _same_function(sec, res.analysis.func)
        if func is not None:
            break
    if func is None:
        return
    blk = find_block(func, res.rewrite.new_path(block_path(res.analysis.block, res.analysis.func)))
    if blk is None:
        return
    idx = [i for i, (k, _) in enumerate(res.rewrite.layout) if k == "fused"]
    if not idx or idx[0] >= len(blk.operations):
        return
    fused = blk.operations[idx[0]]
    fkey = _key_of(func, text[fused.span.start : fused.span.end])
    dkey = _key_of(res.analysis.func, op_text(res.dst))
    skey = _key_of(res.analysis.func, op_text(res.src))
    for kind, a, b in list(done):
        if b == dkey:
            done.add((kind, a, fkey))
        if a == dkey:
            done.add((kind, fkey, b))
    if not res.removed_src:
        done.add((res.kind, skey, fkey))
        done.add((PRODUCER_CONSUMER, skey, fkey))


def _blocks_postorder(op: Operation) -> Iterator[Block]:
    for r in op.regions:
        for b in r.blocks:
            for o in b.operations:
                yield from _blocks_postorder(o)
            yield b


def _nest_key(op: Operation) -> str:
    """A key for a nest that survives re-parsing when its text does not
    change (fused nests get a new key)."""
    f = function_of(op)
    return _key_of(f, op_text(op)) if f is not None else op_text(op)


def _key_of(func: Operation, text: str) -> str:
    return _sym(func) + "::" + re.sub(r"\s+", " ", text)


def op_text(op: Operation) -> str:
    memo = memo_if_any(op)
    t = memo.get("fusion_text") if memo is not None else None
    return t if isinstance(t, str) else ""


def _one_fusion(text: str, p: str, maximal: bool, done: set[tuple[str, str, str]], force: bool = False) -> tuple[str, FusionResult] | None:
    doc = Document(text)
    for sec in doc.sections:
        for func in sec.functions():
            for block in _blocks_postorder(func):
                nests = _nests(block)
                if len(nests) < 2:
                    continue
                for n in nests:
                    memo_of(n)["fusion_text"] = text[n.span.start : n.span.end]
                for dst in reversed(nests):
                    if p in ("pc1", "pc"):
                        cands = [(s, PRODUCER_CONSUMER) for s in producer_candidates(block, dst, 1 if p == "pc1" else None)]
                    else:
                        cands = [(s, SIBLING) for s, _ in sibling_candidates(block, dst)]
                    for src, kind in cands:
                        key = (kind, _nest_key(src), _nest_key(dst))
                        if key in done:
                            continue
                        done.add(key)
                        res = fuse_pair(doc, kind, src, dst, maximal=maximal, include_unprofitable=force)
                        if res is not None:
                            return res.new_text, res
    return None
