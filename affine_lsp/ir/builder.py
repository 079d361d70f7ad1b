"""From syntax records to IR: SSA names, block labels and aliases resolved.

Name resolution follows MLIR 22.1.8's parser (``OperationParser``): the ops
are read in textual order; each region opens a name scope that closes with
it (so a name defined in a region may be defined again after it, or in a
sibling region, but not inside it while an enclosing definition is in
scope); a use of a name not defined yet is a forward reference, bound by
the next definition of that name, an error if there is none. Regions of ops
isolated from above (``func.func``, ``builtin.module``) are no separate name
scope in MLIR's parser either: their names clash with the enclosing ones,
and a use there of a value defined outside is bound to it (the verifier
rejects it, as mlir-opt's does).
"""

from __future__ import annotations

from collections.abc import Iterable

from affine_lsp.ir.attributes import AffineMapAttr, ArrayAttr, Attribute, DictAttr, IntegerSetAttr, TypeAttr
from affine_lsp.ir.core import Block, BlockArgument, Operation, OpResult, Region, Span, Use, Value
from affine_lsp.ir.types import FunctionType, MemRefType, OpaqueType, Type
from affine_lsp.syntax.nodes import AliasDefSyn, AliasRef, AliasType, BlockSyn, Note, OpSyn, RegionSyn

_WITH_ALIASES = (AliasRef, ArrayAttr, DictAttr)
"""The attributes :meth:`IRBuilder.resolve_attr` may change (it returns the others as they are)."""
_ALIASABLE = (AliasType, MemRefType)
"""The types :meth:`IRBuilder.resolve_type` may change (it returns the others as they are)."""


class UndefinedValue(Value):
    """Stands for an operand whose name has no definition."""


class AliasTable:
    """The ``#name``/``!name`` definitions of one section, in order."""

    def __init__(self) -> None:
        self.attrs: dict[str, AliasDefSyn] = {}
        self.types: dict[str, AliasDefSyn] = {}
        self.broken: set[str] = set()
        """The names of definitions with a syntax error (already reported)."""

    def add(self, d: AliasDefSyn) -> None:
        (self.types if d.name.startswith("!") else self.attrs)[d.name] = d

    def key(self) -> tuple:
        return tuple((k, str(v.value)) for k, v in self.attrs.items()) + tuple((k, str(v.value)) for k, v in self.types.items())


class Scope:
    """The names defined so far in one region (``values``); a region sees
    those of its enclosing regions unless it is ``isolated``. A region's
    scope is dropped when the region closes, so its names go out of scope
    (MLIR's ``pushSSANameScope``/``popSSANameScope``)."""

    __slots__ = ("values", "parent", "isolated")

    def __init__(self, parent: Scope | None, isolated: bool) -> None:
        self.values: dict[str, Value] = {}
        self.parent = parent
        # Nothing outside an isolated scope is visible (the module levels of a
        # document). Regions of ops isolated from above are not isolated
        # scopes: see the module docstring.
        self.isolated = isolated

    def find(self, name: str) -> tuple[Value, Scope] | None:
        """The value ``name`` stands for here and the scope that defines it."""
        s: Scope | None = self
        while s is not None:
            v = s.values.get(name)
            if v is not None:
                return v, s
            if s.isolated:
                return None
            s = s.parent
        return None

    def lookup(self, name: str) -> Value | None:
        found = self.find(name)
        return found[0] if found is not None else None

    def root(self) -> Scope:
        """The isolated scope this one belongs to (where forward references live)."""
        s = self
        while not s.isolated and s.parent is not None:
            s = s.parent
        return s

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


class _Pending:
    """A use of a name not defined yet (MLIR's forward-reference placeholder):
    bound by the next definition of the name in the same isolated scope."""

    __slots__ = ("op", "index", "span", "declared", "scope", "silent")

    def __init__(self, op: Operation, index: int, span: Span, declared: Type | None, scope: Scope, silent: bool) -> None:
        self.op = op
        self.index = index
        self.span = span
        self.declared = declared
        self.scope = scope
        self.silent = silent  # an operand of an unknown op: never an error


class IRBuilder:
    """Builds the ops of one chunk. ``notes`` collects name-resolution errors."""

    def __init__(self, aliases: AliasTable, top_scope: Scope) -> None:
        self.aliases = aliases
        self.top = top_scope
        self.notes: list[Note] = []
        # Uses of names not defined yet, per isolated scope (by id): name -> uses.
        self._forward: dict[int, dict[str, list[_Pending]]] = {}

    def error(self, message: str, span: Span, code: str = "ir", related: list | None = None) -> None:
        self.notes.append(Note("error", message, span, code, {"related": related} if related else None))

    # ------------------------------------------------------------ aliases
    def resolve_attr(self, a: Attribute) -> Attribute:
        if isinstance(a, AliasRef):
            d = self.aliases.attrs.get(a.name)
            if d is None:
                if "." in a.name or a.name in self.aliases.broken:
                    return a  # a dialect attribute without body (#gpu.address_space), or a definition in error
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
                if "." in t.name:
                    # MLIR: `!name` with a '.' is a dialect type (`!async.token`), never an alias.
                    o = OpaqueType(t.name)
                    o.span = t.span
                    return o
                if t.name in self.aliases.broken:
                    return t
                self.error(f"undefined symbol alias id '{t.name[1:]}'", t.span, "undefined-alias")
                return t
            return d.value if isinstance(d.value, Type) else t
        if isinstance(t, MemRefType):
            refs = getattr(t, "_alias_refs", None)
            if refs:
                for r in refs:
                    d = self.aliases.attrs.get(r.name)
                    if d is None and r.name in self.aliases.broken:
                        continue
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
            self.error(f"redefinition of SSA value '{name}'", span, "redefinition", related=[(prev.span, "previously defined here")])
            return
        scope.values[name] = v
        fwd = self._forward.get(id(scope.root())) if self._forward else None
        if fwd:
            # Bind the earlier uses of the name (`%x` also names `%x#0`).
            base, _, num = name.rpartition("#")
            for key in (name, base) if base and num == "0" else (name,):
                for p in fwd.pop(key, ()):
                    self._bind(p.op, p.index, v, key, p.span, p.declared)

    def _check_entry_arg(self, scope: Scope, name: str, span: Span) -> None:
        """MLIR: a region's named entry argument (``affine.for %i``) must not
        have been referenced before (e.g. by an operand of its own op)."""
        fwd = self._forward.get(id(scope.root())) if self._forward else None
        pend = fwd.pop(name, None) if fwd else None
        if not pend:
            return
        self.error(
            f"region entry argument '{name}' is already in use",
            span,
            "entry-arg-in-use",
            related=[(pend[0].span, "previously referenced here")],
        )
        for p in pend:
            self._leave_undefined(p, name)

    def resolved_copy(self, t: Type) -> Type:
        """``t`` with its ``!alias`` types and ``#alias`` layouts expanded,
        as a new type when anything was (``t`` itself is left as written)."""
        if isinstance(t, AliasType):
            d = self.aliases.types.get(t.name)
            return d.value if d is not None and isinstance(d.value, Type) else t
        if isinstance(t, MemRefType) and t.layout is None and t.layout_text is not None:
            d = self.aliases.attrs.get(t.layout_text)
            if d is not None and isinstance(d.value, AffineMapAttr):
                return MemRefType(t.shape, t.element, d.value.map, None, t.memory_space)
        if isinstance(t, FunctionType):
            inputs = [self.resolved_copy(x) for x in t.inputs]
            results = [self.resolved_copy(x) for x in t.results]
            if any(x is not y for x, y in zip(inputs + results, t.inputs + t.results, strict=True)):
                return FunctionType(inputs, results)
        return t

    def make_op(self, syn: OpSyn) -> Operation:
        attrs = syn.attrs
        if attrs:
            resolve = self.resolve_attr
            # (only these hold alias references: the others are kept as they are)
            attributes = {k: resolve(v) if isinstance(v, _WITH_ALIASES) else v for k, v in attrs.items()}
        else:
            attributes = {}
        op = Operation(
            name=syn.name,
            span=syn.span,
            name_span=syn.name_span,
            attributes=attributes,
            operand_segments=syn.segments,
            custom=syn.custom,
            known=syn.known,
        )
        ft = op.attributes.get("function_type")
        if isinstance(ft, TypeAttr) and isinstance(ft.type, FunctionType):
            resolved = self.resolved_copy(ft.type)
            if resolved is not ft.type:  # the signature as MLIR sees it (the written one is what hovers show)
                op.attributes["__function_type"] = TypeAttr(resolved, ft.span)
        return op

    def build_body(self, syn: OpSyn, op: Operation, scope: Scope, labels: dict[str, Block] | None) -> None:
        """In MLIR's order: operands, successors, regions, then the results
        (so a name defined inside a region and again after it is no
        redefinition: the region's names are out of scope by then)."""
        extra = self.bind_operands(syn, op, scope)
        if labels is not None:
            for s in syn.successors:
                target = labels.get(s.label)
                if target is None:
                    self.error("reference to an undefined block", s.span, "undefined-block")
                else:
                    op.add_successor(target)
                for name, span in s.operands:
                    self._use(op, name, span, None, scope)
        self.build_region_contents(syn, op, scope, extra)
        self.define_results(syn, op, scope)

    def build_region_contents(self, syn_op: OpSyn, op: Operation, scope: Scope, extra: list[tuple[str, Span]] | None = None) -> None:
        """The regions of ``op``; ``extra`` names (operands of an unknown op
        that name nothing defined) become arguments visible in every region."""
        shared: list[Value] = []
        for rsyn in syn_op.regions:
            region = Region(rsyn.span, parent=op)
            op.regions.append(region)
            rscope = Scope(scope, False)
            if extra and not shared:
                shared = self.build_region(rsyn, region, rscope, extra)
            else:
                for v in shared:
                    rscope.values.setdefault(v.name, v)
                self.build_region(rsyn, region, rscope)

    def build_region(self, rsyn: RegionSyn, region: Region, scope: Scope, extra: list[tuple[str, Span]] | None = None) -> list[Value]:
        """Builds the blocks of a region in textual order; returns the values
        made of ``extra`` (see :meth:`build_region_contents`)."""
        labels: dict[str, Block] = {}
        blocks: list[tuple[BlockSyn, Block]] = []
        for bsyn in rsyn.blocks:
            blk = Block(bsyn.label, bsyn.span, parent=region)
            if bsyn.label is not None:
                if bsyn.label in labels:
                    self.error(f"redefinition of block '{bsyn.label}'", bsyn.span, "redefinition")
                labels[bsyn.label] = blk
            region.blocks.append(blk)
            blocks.append((bsyn, blk))
        made: list[Value] = []
        for k, (bsyn, blk) in enumerate(blocks):
            named_entry = k == 0 and bsyn.label is None
            for i, (name, span, t) in enumerate(bsyn.args):
                a = BlockArgument(name, self.resolve_type(t), span, owner=blk, index=i)
                blk.arguments.append(a)
                if named_entry:
                    self._check_entry_arg(scope, name, span)
                self._define(scope, name, a, span)
            if k == 0 and extra:
                for name, span in extra:
                    a = BlockArgument(name, None, span, owner=blk, index=len(blk.arguments))
                    blk.arguments.append(a)
                    self._define(scope, name, a, span)
                    made.append(a)
            for osyn in bsyn.ops:
                o = self.make_op(osyn)
                o.parent = blk
                blk.operations.append(o)
                self.build_body(osyn, o, scope, labels)
        if extra and not blocks:
            for name, span in extra:
                v = BlockArgument(name, None, span)
                scope.values.setdefault(name, v)
                made.append(v)
        return made

    def bind_operands(self, syn: OpSyn, op: Operation, scope: Scope) -> list[tuple[str, Span]]:
        """Binds the operands of ``op``. For an op we do not know (its syntax
        skipped as a soup), a name that is not defined is no error: it is
        taken as an argument of its regions (``gpu.launch blocks(%bx, ...)``,
        ``scf.forall (%i) in ...``); those names are returned."""
        if not syn.known:
            extra: list[tuple[str, Span]] = []
            for name, span in syn.operands:
                if scope.lookup(name) is not None or ("#" not in name and scope.lookup(name + "#0") is not None) or not syn.regions:
                    self._use(op, name, span, None, scope, silent=True)
                elif all(n != name for n, _ in extra):
                    extra.append((name, span))
            return extra
        types = syn.operand_types
        n = len(types) if types is not None else 0
        for i, (name, span) in enumerate(syn.operands):
            t = types[i] if i < n else None  # type: ignore[index]
            self._use(op, name, span, self.resolve_type(t) if isinstance(t, _ALIASABLE) else t, scope)
        return []

    def _use(self, op: Operation, name: str, span: Span, declared: Type | None, scope: Scope, silent: bool = False) -> None:
        found = scope.find(name)
        if found is None and "#" not in name:
            # `%x` may name the first result of a multi-result op (`%x#0`).
            found = scope.find(name + "#0")
        elif found is None and name.endswith("#0"):
            # `%x#0` names the result of a group of one (`%x:1 = ...`, or plain `%x = ...`).
            found = scope.find(name[:-2])
        index = len(op.operands)
        op.operand_spans.append(span)
        if found is None:
            # A forward reference: bound when the name is defined later in
            # this isolated scope, an error if it never is (_finish_scope).
            op.operands.append(UndefinedValue(name, declared, span))
            pend = _Pending(op, index, span, declared, scope, silent)
            self._forward.setdefault(id(scope.root()), {}).setdefault(name, []).append(pend)
        else:
            op.operands.append(found[0])
            self._bind(op, index, found[0], name, span, declared)

    def _bind(self, op: Operation, index: int, v: Value, name: str, span: Span, declared: Type | None) -> None:
        if declared is not None and v.type is not None and declared != v.type and not isinstance(v, UndefinedValue):
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
        v.uses.append(Use(v, op, index, span))
        op.operands[index] = v

    def _leave_undefined(self, p: _Pending, name: str) -> None:
        v = p.op.operands[p.index]
        v.uses.append(Use(v, p.op, p.index, p.span))
        if not p.silent:
            p.op.add_unresolved(name, p.span)

    def _finish_scope(self, root: Scope) -> None:
        """The end of an isolated scope: its names never defined are errors."""
        fwd = self._forward.pop(id(root), None)
        if not fwd:
            return
        pending = sorted(((p, name) for name, ps in fwd.items() for p in ps), key=lambda x: x[0].span.rel_start)
        for p, name in pending:
            self._leave_undefined(p, name)
            if p.silent:
                continue
            msg = "use of undeclared SSA value name"
            if _lookup_through_isolation(p.scope, name) is not None:
                msg = f"use of undeclared SSA value name '{name}' (it is defined outside the isolated region of the enclosing op)"
            self.error(msg, p.span, "undefined-value")

    def finish(self) -> None:
        """Reports the names left undefined in every scope still open."""
        for key in list(self._forward):
            fwd = self._forward[key]
            some = next((ps[0] for ps in fwd.values() if ps), None)
            if some is None:
                del self._forward[key]
            else:
                self._finish_scope(some.scope.root())


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
    builder.build_body(syn, op, scope, None)
    builder.finish()
    return op
