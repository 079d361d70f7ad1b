"""From syntax records to IR: SSA names, block labels and aliases resolved.

Name resolution follows MLIR's parser: SSA names are scoped by region, a
region sees the values of its enclosing regions unless its op is isolated
from above (``func.func``, ``builtin.module``), forward references inside a
region are allowed, and a name left undefined at the end is an error.
"""

from __future__ import annotations

from collections.abc import Iterable

from affine_lsp.ir.attributes import AffineMapAttr, ArrayAttr, Attribute, DictAttr, IntegerSetAttr
from affine_lsp.ir.core import Block, BlockArgument, Operation, OpResult, Region, Span, Use, Value
from affine_lsp.ir.types import MemRefType, Type
from affine_lsp.syntax.nodes import AliasDefSyn, AliasRef, AliasType, BlockSyn, Note, OpSyn, RegionSyn

# Ops whose regions are isolated from above (MLIR's IsolatedFromAbove trait);
# the verifier's registry uses this set too.
ISOLATED_OPS = frozenset({"func.func", "builtin.module", "gpu.func", "gpu.module", "llvm.func", "spirv.func", "spirv.module", "transform.named_sequence"})


class UndefinedValue(Value):
    """Stands for an operand whose name has no definition."""


class AliasTable:
    """The ``#name``/``!name`` definitions of one section, in order."""

    def __init__(self) -> None:
        self.attrs: dict[str, AliasDefSyn] = {}
        self.types: dict[str, AliasDefSyn] = {}

    def add(self, d: AliasDefSyn) -> None:
        (self.types if d.name.startswith("!") else self.attrs)[d.name] = d

    def key(self) -> tuple:
        return tuple((k, str(v.value)) for k, v in self.attrs.items()) + tuple((k, str(v.value)) for k, v in self.types.items())


class Scope:
    __slots__ = ("values", "parent", "isolated")

    def __init__(self, parent: Scope | None, isolated: bool) -> None:
        self.values: dict[str, Value] = {}
        self.parent = parent
        self.isolated = isolated

    def lookup(self, name: str) -> Value | None:
        s: Scope | None = self
        while s is not None:
            v = s.values.get(name)
            if v is not None:
                return v
            if s.isolated:
                return None
            s = s.parent
        return None

    def visible(self) -> Iterable[Value]:
        s: Scope | None = self
        seen: set[str] = set()
        while s is not None:
            for k, v in s.values.items():
                if k not in seen:
                    seen.add(k)
                    yield v
            if s.isolated:
                return
            s = s.parent


class IRBuilder:
    """Builds the ops of one chunk. ``notes`` collects name-resolution errors."""

    def __init__(self, aliases: AliasTable, top_scope: Scope) -> None:
        self.aliases = aliases
        self.top = top_scope
        self.notes: list[Note] = []
        self._current_syn: OpSyn | None = None

    def error(self, message: str, span: Span, code: str = "ir", related: list | None = None) -> None:
        self.notes.append(Note("error", message, span, code, {"related": related} if related else None))

    # ------------------------------------------------------------ aliases
    def resolve_attr(self, a: Attribute) -> Attribute:
        if isinstance(a, AliasRef):
            d = self.aliases.attrs.get(a.name)
            if d is None:
                if "." in a.name:
                    return a  # a dialect attribute without body, e.g. #gpu.address_space
                self.error(f"undefined symbol alias id '{a.name[1:]}'", a.span, "undefined-alias")
                return a
            v = d.value
            if isinstance(v, AffineMapAttr):
                if a.kind == "set":
                    self.error(f"expected integer set, but '{a.name}' is an affine map", a.span, "alias-kind")
                return AffineMapAttr(v.map, a.name, a.span)
            if isinstance(v, IntegerSetAttr):
                if a.kind == "map":
                    self.error(f"expected affine map, but '{a.name}' is an integer set", a.span, "alias-kind")
                return IntegerSetAttr(v.set, a.name, a.span)
            if a.kind in ("map", "set"):
                self.error(f"expected {'affine map' if a.kind == 'map' else 'integer set'}, but '{a.name}' is '{v}'", a.span, "alias-kind")
                return a
            return v if isinstance(v, Attribute) else a
        if isinstance(a, ArrayAttr):
            a.elements = [self.resolve_attr(e) for e in a.elements]
        elif isinstance(a, DictAttr):
            a.entries = {k: self.resolve_attr(v) for k, v in a.entries.items()}
        return a

    def resolve_type(self, t: Type | None) -> Type | None:
        if isinstance(t, AliasType):
            d = self.aliases.types.get(t.name)
            if d is None:
                self.error(f"undefined symbol alias id '{t.name[1:]}'", t.span, "undefined-alias")
                return t
            return d.value if isinstance(d.value, Type) else t
        if isinstance(t, MemRefType):
            refs = getattr(t, "_alias_refs", None)
            if refs:
                for r in refs:
                    d = self.aliases.attrs.get(r.name)
                    if d is None:
                        self.error(f"undefined symbol alias id '{r.name[1:]}'", r.span, "undefined-alias")
                    elif isinstance(d.value, AffineMapAttr) and t.layout is None and t.layout_text == r.name:
                        t.layout = d.value.map
                        t.layout_text = None
                        t._text = None
        return t

    # ------------------------------------------------------------ ops
    def define_results(self, syn: OpSyn, op: Operation, scope: Scope) -> None:
        types = [self.resolve_type(t) for t in (syn.result_types or [])] if syn.result_types is not None else None
        total = sum(n for _, n, _ in syn.results)
        if types is not None and syn.known and total != len(types) and syn.results:
            self.error(
                f"operation defines {len(types)} results but was provided {total} to bind",
                syn.results[0][2],
                "result-count",
            )
        idx = 0
        for name, count, span in syn.results:
            for k in range(count):
                vname = name if count == 1 else f"{name}#{k}"
                t = types[idx] if types is not None and idx < len(types) else None
                r = OpResult(vname, t, span, owner=op, index=idx)
                op.results.append(r)
                self._define(scope, vname, r, span)
                idx += 1
        if not syn.results and types:
            # Results without names (e.g. an op whose results are unused).
            for k, t in enumerate(types):
                op.results.append(OpResult(f"<unnamed#{k}>", t, syn.name_span, owner=op, index=k))

    def _define(self, scope: Scope, name: str, v: Value, span: Span) -> None:
        prev = scope.lookup(name)
        if prev is not None and not isinstance(prev, UndefinedValue):
            if name not in scope.values and (prev.span.start > span.start or _encloses(prev, span)):
                # A value of an enclosing block bound after this one: written
                # later, or a result of the op whose region this is (`%0 =
                # linalg.generic ... { ^bb0(%0: f32): ... }`). MLIR binds an
                # op's results once its regions are parsed, and forgets a
                # region's names when it ends, so this one is a new name.
                scope.values[name] = v
                return
            self.error(f"redefinition of SSA value '{name}'", span, "redefinition", related=[(prev.span, "previously defined here")])
            return
        scope.values[name] = v

    def make_op(self, syn: OpSyn) -> Operation:
        op = Operation(
            name=syn.name,
            span=syn.span,
            name_span=syn.name_span,
            attributes={k: self.resolve_attr(v) for k, v in syn.attrs.items()},
            operand_segments=syn.segments,
            custom=syn.custom,
            known=syn.known,
        )
        return op

    def build_region_contents(self, syn_op: OpSyn, op: Operation, scope: Scope) -> None:
        isolated = syn_op.name in ISOLATED_OPS
        for rsyn in syn_op.regions:
            region = Region(rsyn.span, parent=op)
            op.regions.append(region)
            self.build_region(rsyn, region, Scope(scope, isolated))

    def build_region(self, rsyn: RegionSyn, region: Region, scope: Scope) -> None:
        # Pass 1: blocks, block arguments and op results (forward refs allowed).
        labels: dict[str, Block] = {}
        pending: list[tuple[OpSyn, Operation, Block]] = []
        for bsyn in rsyn.blocks:
            blk = Block(bsyn.label, bsyn.span, parent=region)
            if bsyn.label is not None:
                if bsyn.label in labels:
                    self.error(f"redefinition of block '{bsyn.label}'", bsyn.span, "redefinition")
                labels[bsyn.label] = blk
            region.blocks.append(blk)
            for i, (name, span, t) in enumerate(bsyn.args):
                a = BlockArgument(name, self.resolve_type(t), span, owner=blk, index=i)
                blk.arguments.append(a)
                self._define(scope, name, a, span)
            for osyn in bsyn.ops:
                o = self.make_op(osyn)
                o.parent = blk
                blk.operations.append(o)
                self.define_results(osyn, o, scope)
                pending.append((osyn, o, blk))
        # Pass 2: operands, successors and nested regions.
        for osyn, o, _blk in pending:
            self.bind_operands(osyn, o, scope)
            for s in osyn.successors:
                target = labels.get(s.label)
                if target is None:
                    self.error("reference to an undefined block", s.span, "undefined-block")
                else:
                    o.successors.append(target)
                for name, span in s.operands:
                    self._use(o, name, span, None, scope)
            self.build_region_contents(osyn, o, scope)

    def bind_operands(self, syn: OpSyn, op: Operation, scope: Scope) -> None:
        self._current_syn = syn
        types = syn.operand_types
        for i, (name, span) in enumerate(syn.operands):
            t = types[i] if types is not None and i < len(types) else None
            self._use(op, name, span, self.resolve_type(t), scope)

    def _use(self, op: Operation, name: str, span: Span, declared: Type | None, scope: Scope) -> None:
        v = scope.lookup(name)
        if v is None:
            # `%x` may name the first result of a multi-result op (`%x#0`).
            v = scope.lookup(name + "#0") if "#" not in name else None
        if v is None:
            entry = _entry_arg_named(self._current_syn, name) if self._current_syn is not None else None
            if entry is not None:
                self.error(
                    f"region entry argument '{name}' is already in use",
                    entry,
                    "entry-arg-in-use",
                    related=[(span, "previously referenced here")],
                )
                v = UndefinedValue(name, declared, span)
                op.unresolved.append((name, span))
                use = Use(v, op, len(op.operands), span)
                v.uses.append(use)
                op.operands.append(v)
                op.operand_spans.append(span)
                return
            msg = "use of undeclared SSA value name"
            outer = _lookup_through_isolation(scope, name)
            if outer is not None:
                msg = f"use of undeclared SSA value name '{name}' (it is defined outside the isolated region of the enclosing op)"
            self.error(msg, span, "undefined-value")
            v = UndefinedValue(name, declared, span)
            op.unresolved.append((name, span))
        elif declared is not None and v.type is not None and declared != v.type and not isinstance(v, UndefinedValue):
            if not (isinstance(declared, AliasType) or isinstance(v.type, AliasType)):
                self.error(
                    f"use of value '{name}' expects different type than prior uses: '{declared}' vs '{v.type}'",
                    span,
                    "type-mismatch",
                    related=[(v.span, f"prior use here: '{name}' defined with type '{v.type}'")],
                )
        elif v.type is None and declared is not None and not isinstance(v, UndefinedValue):
            # An untyped value (result of an op we do not know) learns its type from the use.
            v.type = declared
            v.type_from = span
        use = Use(v, op, len(op.operands), span)
        v.uses.append(use)
        op.operands.append(v)
        op.operand_spans.append(span)


def _encloses(v: Value, span: Span) -> bool:
    """Whether ``v`` is a result of an op whose text contains ``span``."""
    op = v.owner if isinstance(v, OpResult) else None
    return op is not None and op.span.start <= span.start < op.span.end


def _entry_arg_named(syn: OpSyn, name: str) -> Span | None:
    for r in syn.regions:
        if r.blocks and r.blocks[0].label is None:
            for n, sp, _t in r.blocks[0].args:
                if n == name:
                    return sp
    return None


def _lookup_through_isolation(scope: Scope, name: str) -> Value | None:
    s: Scope | None = scope
    while s is not None:
        if name in s.values:
            return s.values[name]
        s = s.parent
    return None


def build_op(builder: IRBuilder, syn: OpSyn, scope: Scope, parent: Block | None) -> Operation:
    """Build a top-level op (and everything nested) into ``parent``."""
    op = builder.make_op(syn)
    op.parent = parent
    builder.define_results(syn, op, scope)
    builder.bind_operands(syn, op, scope)
    builder.build_region_contents(syn, op, scope)
    return op


def block_of(blocks: list[BlockSyn]) -> list[OpSyn]:  # pragma: no cover - convenience
    return [o for b in blocks for o in b.ops]
