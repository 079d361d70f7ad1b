"""Hovers: Markdown about the thing under the cursor, as plain data (the
text and the span it is about; the server converts it, server/convert.py).

* SSA value: type, definition, and whether it is a valid dimension/symbol at
  this use (``dimsym.classify``);
* affine map/set (``#map`` definition or use, inline map, bound, subscript,
  ``affine.apply``/``min``/``max``/``if``): the map with the actual operand
  names inlined, simplified, each operand marked dimension or symbol (and
  why), constant operands folded;
* ``affine.load``/``store`` (and vector variants): access function, isl access
  relation, and every dependence (other op, kind, depth, distance/direction,
  memory- or value-based, carrying loop);
* ``affine.for``/``affine.parallel``: trip count, carried dependences,
  parallel / vectorizable and what prevents it.

What needs the analyses comes through the :class:`HoverContext` (the
server's analyses and its time budget; no LSP type).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, TypeVar

from affine_lsp.ide import describe as D
from affine_lsp.ide.name_targets import chunk_at
from affine_lsp.ide.occurrences import (
    MapUse,
    Occ,
    chunk_occurrences,
    find_alias_def,
    find_symbol,
    map_use_of_attr,
    map_use_of_operand,
    map_uses,
    occurrence_at,
)
from affine_lsp.ide.symbols import func_name
from affine_lsp.ir import op_registry
from affine_lsp.ir.affine_ops import ACCESS_OPS, access_of, enclosing_loops
from affine_lsp.ir.attributes import AffineMapAttr, IntegerSetAttr, TypeAttr
from affine_lsp.ir.core import BlockArgument, Operation, Span, Value
from affine_lsp.ir.types import MemRefType
from affine_lsp.source.document import Document, Section
from affine_lsp.syntax.legacy import FUNC_DEFAULT_OK, legacy_op_at
from affine_lsp.syntax.legacy import hover_text as legacy_hover_text

T = TypeVar("T")
log = logging.getLogger(__name__)

MAP_OPS = frozenset({"affine.apply", "affine.min", "affine.max", "affine.if", "affine.prefetch"})
LOOP_OPS = frozenset({"affine.for", "affine.parallel"})

TRANSFORMS_WAIT_S = 0.3
"""How long a hover on a loop waits for the legality of the loop
transformations (once the function's dependences are known they take
milliseconds; the first hover of a big function may need its dependences,
seconds: it answers without them)."""


@dataclass(frozen=True)
class HoverContext:
    """What a hover needs beyond the document (no LSP type, no server):

    * ``uri``, ``command_links``: the document's URI and the commands the
      client renders as links (``initializationOptions.commandLinks``);
    * ``deadline``: the ``time.monotonic()`` by which the hover answers
      (None: wait for every analysis);
    * ``classify(v, user, line_of)``: ``dimsym``'s verdict on ``v`` at ``user``;
    * ``with_deps(op, compute, flows_known)``: ``(compute(function_deps),
      None)`` for the function around ``op`` by the deadline, else ``(None,
      why not)``; ``flows_known(flows)`` is called before ``compute`` with
      the value-carrying dependences (None: not known);
    * ``wait(fn, *args, budget=s)``: ``(True, fn(*args))``, or ``(False,
      None)`` when it takes longer than ``s`` seconds (it goes on)."""

    uri: str
    command_links: Collection[str]
    deadline: float | None
    classify: Callable[..., Any]
    with_deps: Callable[[Operation, Callable[[Any], Any], Callable[[Any], None]], tuple[Any, str | None]]
    wait: Callable[..., tuple[bool, Any]]


@dataclass(frozen=True)
class HoverText:
    text: str  # Markdown
    span: Span  # what it is about


def hover_at(ctx: HoverContext, doc: Document, offset: int) -> HoverText | None:
    """The hover at ``offset`` of ``doc``."""
    legacy = legacy_op_at(doc.text, offset)
    if legacy is not None and legacy[2] not in FUNC_DEFAULT_OK:
        return _legacy_hover(legacy)
    section, chunk = chunk_at(doc, offset)
    if chunk is None:
        return None
    occ = occurrence_at(chunk_occurrences(chunk), offset)
    if occ is None:
        return _legacy_hover(legacy) if legacy is not None else None
    text = HoverBuilder(ctx, doc, section).build(occ)
    if not text:
        return None
    return HoverText(text, occ.span if occ.kind != "map" else _first_line(doc, occ.span))


def _legacy_hover(legacy: tuple[int, int, str]) -> HoverText | None:
    """A hover on an op name of MLIR's pre-2022 syntax: what it is called now."""
    start, end, name = legacy
    text = legacy_hover_text(name)
    return None if text is None else HoverText(text, Span(start, end))


def _first_line(doc: Document, span: Span) -> Span:
    lines = doc.lines
    end = lines.line_end(lines.line_of(span.start))
    return span if end >= span.end else Span(span.start, end)


class HoverBuilder:
    """The Markdown of a hover (and of the commands that show the same
    facts), over one document and one :class:`HoverContext`."""

    def __init__(self, ctx: HoverContext, doc: Document, section: Section) -> None:
        self.ctx = ctx
        self.doc = doc
        self.section = section
        self.line_of = doc.lines.line_of
        self.deadline = ctx.deadline
        self.flows: Any = None  # value-carrying RAWs of the function, when known (see flowproc)

    # ------------------------------------------------------------ helpers
    def classify(self, v: Value, user: Operation) -> Any:
        return self.ctx.classify(v, user, self.line_of)

    def with_deps(self, op: Operation, compute: Callable[[Any], T]) -> tuple[T | None, str | None]:
        """``compute(function_deps)`` for the function around ``op``, within
        the hover's deadline: ``(result, None)`` or ``(None, why not)``."""

        def flows_known(flows: Any) -> None:
            self.flows = flows

        return self.ctx.with_deps(op, compute, flows_known)

    def row(self, dep: Any, this: Operation | None, fd: Any) -> list[str]:
        return D.dep_row(dep, this, self.line_of, self.flows)

    def inlined(self, mu: MapUse) -> list[str]:
        im = D.inline_map(mu, self.classify, self.line_of)
        return D.render_inlined(im) if im is not None else []

    # ------------------------------------------------------------ dispatch
    def build(self, occ: Occ) -> str | None:
        k = occ.kind
        if k in ("value-def", "value-use", "undefined-use"):
            return self.value(occ)
        if k == "alias-def":
            return self.alias_def(occ.name)
        if k == "alias-use":
            if occ.op is not None and isinstance(occ.attr, AffineMapAttr | IntegerSetAttr):
                mu = map_use_of_attr(occ.op, occ.attr)
                if mu is not None:
                    return "\n".join(self.inlined(mu) + ["", *self.alias_lines(occ.name)])
            return self.alias_def(occ.name)
        if k in ("map-dim", "map-sym"):
            return self.map_ident(occ)
        if k == "map":
            mu = map_use_of_attr(occ.op, occ.attr) if occ.op is not None and occ.attr is not None else None
            if mu is not None:
                lines = self.inlined(mu)
                if occ.op is not None and occ.op.name in ACCESS_OPS:
                    lines += ["", *self.access(occ.op, brief=True)]
                return "\n".join(lines)
            return None
        if k == "op" and occ.op is not None:
            return self.op(occ.op)
        if k in ("symbol-def", "symbol-ref"):
            return self.symbol(occ.name)
        if k in ("block-def", "block-ref"):
            return self.block(occ)
        if k == "type":
            return self.type_text(occ.name)
        return None

    # ------------------------------------------------------------ values
    def value(self, occ: Occ) -> str:
        v = occ.value
        if v is None or occ.kind == "undefined-use":
            return f"**{D.code(occ.name)}**: use of an undefined value"
        out = [f"**{D.code(v.name)}**" + (f" : {D.code(str(v.type))}" if v.type is not None else ""), ""]
        out.append(D.value_origin(v, self.line_of))
        c = D.constant_value(v)
        if c is not None:
            out.append(f"constant value: **{c}**")
        if isinstance(v, BlockArgument) and v.owner is not None and v.owner.parent_op is not None:
            lp = v.owner.parent_op
            if lp.name in LOOP_OPS:
                out.append(f"trip count of the loop: {D.trip_count(lp)}")
        if occ.kind == "value-use" and occ.op is not None:
            user = occ.op
            found = map_use_of_operand(user, occ.index)
            info = self.classify(v, user) if user.name.startswith("affine.") or (v.type is not None and v.type.is_index) else None
            out.append("")
            if found is not None:
                mu, pos = found
                is_dim = pos < mu.num_dims
                ident = f"d{pos}" if is_dim else f"s{pos - mu.num_dims}"
                out.append(f"**At this use**: bound to {D.code(ident)} ({'dimension' if is_dim else 'symbol'}) of the {mu.label} of {D.code(D.op_title(user))}")
            else:
                out.append(f"**At this use**: operand #{occ.index} of {D.code(user.name)}")
            if info is not None and (found is not None or (v.type is not None and v.type.is_index)):
                out.append(f"- valid symbol: {_yn(info.is_symbol, info)}" + (f" — {info.symbol_reason}" if info.symbol_reason else ""))
                out.append(f"- valid dimension: {_yn(info.is_dim, info)}" + (f" — {info.dim_reason}" if info.dim_reason else ""))
        else:
            n = len(v.uses)
            out.append("")
            out.append(f"{n} use{'s' if n != 1 else ''}")
        return "\n".join(out)

    # ------------------------------------------------------------ aliases and maps
    def alias_lines(self, name: str) -> list[str]:
        d = find_alias_def(self.section, name)
        if d is None:
            return [f"{D.code(name)}: undefined alias"]
        return [f"{D.code(name)} defined at line {self.line_of(d.name_span.start) + 1}"]

    def alias_def(self, name: str) -> str:
        d = find_alias_def(self.section, name)
        if d is None:
            return f"**{D.code(name)}**: undefined alias"
        v = d.value
        out = [f"**{D.code(name)}** (line {self.line_of(d.name_span.start) + 1})", "", "```mlir", f"{name} = {v}", "```"]
        if isinstance(v, AffineMapAttr):
            m = v.map
            out.append(
                f"{m.num_dims} dimension{'s' if m.num_dims != 1 else ''}, {m.num_symbols} symbol{'s' if m.num_symbols != 1 else ''}, {m.num_results} result{'s' if m.num_results != 1 else ''}"
            )
            simp = m.simplify()
            if simp != m:
                out.append(f"simplified: {D.code(str(simp))}")
        elif isinstance(v, IntegerSetAttr):
            s = v.set
            out.append(f"{s.num_dims} dimensions, {s.num_symbols} symbols, {s.num_constraints} constraints")
        uses = self.alias_uses(name)
        out.append(f"{uses} use{'s' if uses != 1 else ''} in this section")
        return "\n".join(out)

    def alias_uses(self, name: str) -> int:
        from affine_lsp.ide.occurrences import section_occurrences

        return sum(1 for _ in section_occurrences(self.section, frozenset({"alias-use"}), name))

    def map_ident(self, occ: Occ) -> str:
        is_dim = occ.kind == "map-dim"
        what = "dimension" if is_dim else "symbol"
        if occ.op is None:
            return f"{D.code(occ.name)}: {what} {occ.index} of the map"
        mu = map_use_of_attr(occ.op, occ.attr) if occ.attr is not None else None
        if mu is None:
            return f"{D.code(occ.name)}: {what} {occ.index}"
        pos = occ.index if is_dim else mu.num_dims + occ.index
        head = f"{D.code(occ.name)}: {what} {occ.index} of the {mu.label}"
        if 0 <= pos < len(mu.operands):
            head += f", bound to {D.code(mu.operands[pos].name)}"
        return "\n".join([head, "", *self.inlined(mu)])

    # ------------------------------------------------------------ ops
    def op(self, op: Operation) -> str:
        if op.name in ACCESS_OPS:
            return "\n".join(self.access(op))
        if op.name in LOOP_OPS:
            return "\n".join(self.loop(op))
        if op.name in MAP_OPS:
            out = [f"**{op.name}**", ""]
            for mu in map_uses(op):
                out += self.inlined(mu) + [""]
            return "\n".join(out).rstrip()
        if op.name in ("func.func", "gpu.func"):
            return self.function(op)
        return self.generic_op(op)

    def generic_op(self, op: Operation) -> str:
        out = [f"**{op.name}**" + ("" if op.known else " (custom syntax not known to affine-lsp)")]
        out += registry_lines(op.name)
        if op.operands:
            out.append("operands: " + ", ".join(f"{D.code(v.name)}" + (f" : {D.code(str(v.type))}" if v.type is not None else "") for v in op.operands))
        named = [r for r in op.results if not r.name.startswith("<")]
        if op.results:
            out.append("results: " + ", ".join((D.code(r.name) + " : " if r in named else "") + D.code(str(r.type)) for r in op.results))
        return "\n\n".join(out)

    def function(self, op: Operation) -> str:
        ft = op.attributes.get("function_type")
        sig = str(ft.type) if isinstance(ft, TypeAttr) else ""
        loops = sum(1 for o in op.walk() if o.name in LOOP_OPS)
        accesses = sum(1 for o in op.walk() if o.name in ACCESS_OPS)
        out = [f"**func.func** {D.code(func_name(op))}", "", "```mlir", f"{func_name(op)} : {sig}", "```"]
        out.append(f"{loops} affine loop{'s' if loops != 1 else ''}, {accesses} affine memory access{'es' if accesses != 1 else ''}")
        return "\n".join(out)

    def access(self, op: Operation, brief: bool = False) -> list[str]:
        acc = access_of(op)
        out: list[str] = []
        if acc is None:
            return [f"**{op.name}**"]
        mem = acc.memref
        if not brief:
            out.append(
                f"**{op.name}** {'writes' if acc.is_write else 'reads'} {D.code(mem.name)}" + (f" : {D.code(str(mem.type))}" if mem.type is not None else "")
            )
            out.append("")
        nd = acc.map.num_dims
        names = [v.name for v in acc.indices]
        subs = ", ".join(e.to_str(names[:nd], names[nd:]) for e in acc.map.results)
        out.append(f"access function: {D.code(f'{mem.name}[{subs}]')}")
        loops = enclosing_loops(op)
        ivs = []
        for lp in loops:
            if lp.regions and lp.regions[0].blocks:
                args = lp.regions[0].blocks[0].arguments
                n = 1 if lp.name == "affine.for" else len(args)
                ivs += [(a, lp) for a in args[:n]]
        if ivs:
            out.append("loop IVs: " + ", ".join(f"{D.code(a.name)} ({D.code(lp.name)}, line {self.line_of(lp.name_span.start) + 1})" for a, lp in ivs))
        iv_set = {id(a) for a, _ in ivs}
        syms = [v for v in acc.indices if id(v) not in iv_set]
        if syms:
            out.append("other operands: " + ", ".join(f"{D.code(v.name)} ({self._role(v, op)})" for v in dict.fromkeys(syms)))
        if isinstance(mem.type, MemRefType):
            out.append(f"memref shape: {D.code('x'.join('?' if s is None else str(s) for s in mem.type.shape) or 'scalar')}")

        def compute(fd: Any) -> tuple[str | None, str | None, list[list[str]]]:
            a = fd.access(op)
            rel = a.relation_str() if a is not None else None
            approx = None
            if a is not None and not a.exact:
                approx = (a.failures or a.approximations or ["budget exceeded"])[0]
            return rel, approx, [self.row(d, op, fd) for d in fd.for_access(op)]

        got, why = self.with_deps(op, compute)
        if got is None:
            out += ["", f"_{why}_"]
            return out
        rel, approx, rows = got
        if rel is not None:
            out += ["", "access relation:", "```", rel, "```"]
            if approx:
                out.append(f"_over-approximated: {approx}_")
        out.append("")
        if not rows:
            out.append("**No dependences** with other accesses.")
        else:
            out.append(f"**Dependences** ({len(rows)}):")
            out.append("")
            out += D.table(D.DEP_HEADER, rows)
        return out

    def _role(self, v: Value, user: Operation) -> str:
        info = self.classify(v, user)
        if info is None:
            return "operand"
        if info.is_symbol:
            return "symbol"
        if info.is_dim:
            return "dimension"
        return "neither dimension nor symbol"

    def loop(self, op: Operation) -> list[str]:
        out = [f"**{D.op_title(op)}**", ""]
        bounds = map_uses(op)
        texts = []
        for mu in bounds:
            im = D.inline_map(mu, self.classify, self.line_of)
            if im is not None:
                texts.append(im.simplified or im.inlined)
        if op.name == "affine.for" and len(texts) == 2:
            from affine_lsp.ir.affine_ops import ForView

            step = ForView(op).step
            out.append(f"range: {D.code(texts[0])} to {D.code(texts[1])}" + (f" step {step}" if step != 1 else ""))
        out.append(f"trip count: {D.trip_count(op)}")

        def compute(fd: Any) -> tuple[Any, list[list[str]], str]:
            summ = fd.loop_summary(op)
            main = D.main_dependence(summ.carried).describe() if summ.carried else ""
            return summ, [self.row(d, None, fd) for d in summ.carried], main

        got, why = self.with_deps(op, compute)
        if got is None:
            out += ["", f"_{why}_"]
        else:
            s, rows, main = got
            out.append("")
            if s.parallel:
                out.append("**parallel**: yes — no loop-carried dependence")
            else:
                reason = main or (s.reasons[0] if s.reasons else "")
                out.append("**parallel**: no" + (f" — {reason}" if reason else ""))
            if s.vectorizable:
                out.append("**vectorizable**: yes")
            else:
                reason = "carries a memory dependence" if s.carried else (s.reasons[0] if s.reasons else "")
                out.append("**vectorizable**: no" + (f" — {reason}" if reason else ""))
            if s.min_distance is not None:
                out.append(f"smallest carried distance: {s.min_distance}")
            for r in s.reasons:
                out.append(f"- {r}")
            if rows:
                out += ["", f"**Carried dependences** ({len(rows)}):", ""]
                out += D.table(D.DEP_HEADER, rows)
        out.append("")
        for mu in bounds:
            if mu.operands:  # constant bounds are already in the range line
                out += self.inlined(mu) + [""]
        out += self.fusion(op)
        out += self.transformations(op)
        out += self.view_links(op)
        return out

    def view_links(self, op: Operation) -> list[str]:
        """A link to the client's iteration-space view, when the client said
        it has one (``initializationOptions.commandLinks``)."""
        command = "affineLsp.showIterationSpace"
        if command not in self.ctx.command_links:
            return []
        import json
        from urllib.parse import quote

        line, ch = self.doc.lines.position(op.name_span.start)
        args = quote(json.dumps([{"uri": self.ctx.uri, "line": line, "character": ch}]))
        return ["", f'[Show iteration space](command:{command}?{args} "Draw this loop nest\'s iterations and dependences")']

    def transformations(self, op: Operation) -> list[str]:
        """The loop transformations registered in :mod:`loop_verdicts`:
        legal here or not, and why."""
        if op.name != "affine.for":
            return []
        from affine_lsp.transforms.loop_verdicts import hover_lines

        if self.deadline is None:
            return hover_lines(op)
        # Within the hover's deadline: the checks need the function's
        # dependences (seconds for a big function the background analysis
        # has not reached); past it they go on, and the next hover has them.
        done, lines = self.ctx.wait(hover_lines, op, budget=max(self.deadline - time.monotonic(), TRANSFORMS_WAIT_S))
        if not done or lines is None:
            return ["_Transformations: their legality is still being checked; hover again in a moment_", ""]
        return lines

    def fusion(self, op: Operation) -> list[str]:
        """The fusion cost model at every depth, for a top-level nest."""
        if op.name != "affine.for" or any(a.name in ("affine.for", "affine.parallel") for a in op.ancestors()):
            return []
        try:
            from affine_lsp.transforms.fusion import fusion_report

            report = fusion_report(op, self.doc)
        except Exception:  # the hover never fails because of a transform
            log.exception("fusion report failed")
            return []
        return [report, ""] if report else []

    # ------------------------------------------------------------ symbols, blocks, types
    def symbol(self, name: str) -> str:
        op = find_symbol(self.section, name)
        if op is None:
            return f"**{D.code(name)}**: no such symbol in this section"
        if op.name in ("func.func", "gpu.func"):
            return self.function(op)
        return f"**{D.code(name)}**: {D.code(op.name)} at line {self.line_of(op.name_span.start) + 1}"

    def block(self, occ: Occ) -> str:
        blk = occ.block
        if blk is None:
            return f"**{D.code(occ.name)}**: undefined block"
        args = ", ".join(f"{a.name}: {a.type}" for a in blk.arguments)
        preds = 0
        region = blk.parent
        if region is not None:
            for b in region.blocks:
                for o in b.operations:
                    preds += sum(1 for s in o.successors if s is blk)
        out = [f"**{D.code(blk.label or '^entry')}**" + (f"({D.code(args)})" if args else ""), ""]
        out.append(f"{len(blk.operations)} operation{'s' if len(blk.operations) != 1 else ''}, {preds} predecessor edge{'s' if preds != 1 else ''}")
        return "\n".join(out)

    def type_text(self, text: str) -> str:
        return f"type {D.code(text)}"


def _groups(groups: tuple[op_registry.Group, ...]) -> str:
    suffix = {"1": "", "?": " (optional)", "*": " (variadic)"}
    return ", ".join(D.code(g.name) + suffix.get(g.kind, "") for g in groups) or "none"


def registry_lines(name: str) -> list[str]:
    """What the op registry says of ``name``: its summary and its operand
    and result groups, or that MLIR 22.1.8 has no such op."""
    info = op_registry.lookup(name)
    if info is None:
        if op_registry.is_upstream_dialect(name.partition(".")[0]):
            close = op_registry.nearest(name)
            hint = f"; did you mean {', '.join(D.code(n) for n in close)}?" if close else ""
            return [f"MLIR {op_registry.MLIR_VERSION} has no op {D.code(name)}{hint}"]
        return []
    out = [info.summary] if info.summary else []
    if info.source:
        out.append(f"defined in {D.code(info.source)}")  # a user's dialect: its .td file
    if info.structured:
        line = ("operands" if info.source else f"MLIR {op_registry.MLIR_VERSION}: operands") + f" {_groups(info.operands)}"
        if info.results is not None:
            line += f"; results {_groups(info.results)}"
        out.append(line)
    return out


def _yn(ok: bool, info: Any) -> str:
    if ok:
        return "✓ yes"
    return "? unknown" if not getattr(info, "certain", True) else "✗ no"
