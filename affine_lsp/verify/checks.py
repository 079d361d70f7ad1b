"""Per-op checks: the parse-time rules of custom syntax, op invariants (ODS
constraints and ``verify()``), region invariants and block rules.

:class:`Checker` holds the document text (for operator positions and quick
fixes) and dispatches by op name to the functions of
:mod:`affine_lsp.verify.affine_checks` (affine ops) and of this module
(``func``, ``arith`` and block rules). Every check returns the first
:class:`~affine_lsp.syntax.nodes.Note` MLIR would report, or None.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from affine_lsp.ir import op_registry, op_traits
from affine_lsp.ir.affine_expr import AffineBinaryExpr, AffineExpr, AffineExprKind, AffineMap, IntegerSet
from affine_lsp.ir.attributes import AffineMapAttr, IntegerSetAttr, TypeAttr
from affine_lsp.ir.core import Block, Operation, Span, Value
from affine_lsp.ir.types import FloatType, FunctionType, IndexType, IntegerType, MemRefType, TensorType, Type, UnrankedTensorType, VectorType
from affine_lsp.syntax.nodes import Note
from affine_lsp.verify import dimsym, known_traits, op_structure

Related = list[tuple[Span, str]]
CheckFn = Callable[["Checker", Operation], "Note | None"]


class VerifyFailure(Exception):
    """Raised inside a check to return a note from nested helpers."""

    def __init__(self, note: Note) -> None:
        super().__init__(note.message)
        self.note = note


def is_index(t: Type | None) -> bool | None:
    return None if t is None else t.is_index


def tstr(t: Type | None) -> str:
    return "<<unknown type>>" if t is None else str(t)


def _element_is(t: Type | None, pred: Callable[[Type], bool]) -> bool | None:
    if t is None:
        return None
    if isinstance(t, VectorType | TensorType | UnrankedTensorType):
        return pred(t.element)
    return pred(t)


def signless_int_like(t: Type | None) -> bool | None:
    return _element_is(t, lambda e: isinstance(e, IndexType) or (isinstance(e, IntegerType) and e.signedness == ""))


def float_like(t: Type | None) -> bool | None:
    return _element_is(t, lambda e: isinstance(e, FloatType))


class Checker:
    def __init__(self, text: str, line_of: Callable[[int], int] | None = None) -> None:
        self.text = text
        self.line_of = line_of
        # False when some top-level item of the section has no IR here (it
        # failed to parse, or another process verifies it): the symbol
        # table is then incomplete and a callee not found says nothing.
        self.symbols_complete = True
        self.skipped_items: frozenset[int] = frozenset()  # ids of the items not verified (a parse error reported)

    # ------------------------------------------------------------ notes
    def guard(self, span: Span, fn: Callable[..., Note | None], *args: object) -> Note | None:
        """Run one check, ``fn(*args)``; an internal error becomes an ``info`` note."""
        try:
            return fn(*args)
        except VerifyFailure as f:
            return f.note
        except Exception as e:
            return Note("info", f"internal verifier error: {e!r}", span, "internal")

    @staticmethod
    def op_error(op: Operation, message: str, related: Related | None = None, fix: dict | None = None, code: str = "verify") -> Note:
        data: dict = {}
        if related:
            data["related"] = related
        if fix:
            data["fix"] = fix
        return Note("error", f"'{op.name}' op {message}", op.name_span, code, data or None)

    @staticmethod
    def error(message: str, span: Span, related: Related | None = None, fix: dict | None = None, code: str = "verify") -> Note:
        data: dict = {}
        if related:
            data["related"] = related
        if fix:
            data["fix"] = fix
        return Note("error", message, span, code, data or None)

    def custom_error(self, op: Operation, message: str, span: Span | None = None, related: Related | None = None, fix: dict | None = None) -> Note:
        """A parse error of a custom op parser (``custom op 'x' ...``)."""
        return self.error(f"custom op '{op.name}' {message}", span if span is not None else op.name_span, related, fix, "syntax")

    def line(self, offset: int) -> str:
        return f" (line {self.line_of(offset) + 1})" if self.line_of is not None else ""

    # ------------------------------------------------------------ shared rules
    def resolve_as(self, op: Operation, indices: Sequence[int], want: Type | Callable[[int], Type | None]) -> Note | None:
        """MLIR ``resolveOperand(s)`` with a fixed type: a value of another
        type is a parse error (the custom parsers of affine ops resolve map
        operands as ``index``)."""
        for i in indices:
            if i >= len(op.operands):
                continue
            v = op.operands[i]
            t = want(i) if callable(want) else want
            if t is None or v.type is None or _undefined(v):
                continue
            if v.type != t:
                span = op.operand_spans[i] if i < len(op.operand_spans) else op.name_span
                return self.error(
                    f"use of value '{v.name}' expects different type than prior uses: '{t}' vs '{v.type}'",
                    span,
                    [(v.span, "prior use here")],
                    code="syntax",
                )
        return None

    def operand_constraint(self, op: Operation, index: int, ok: bool | None, what: str) -> Note | None:
        if ok is False:
            v = op.operands[index]
            return self.op_error(op, f"operand #{index} must be {what}, but got '{tstr(v.type)}'")
        return None

    def result_constraint(self, op: Operation, index: int, ok: bool | None, what: str) -> Note | None:
        if ok is False:
            r = op.results[index]
            return self.op_error(op, f"result #{index} must be {what}, but got '{tstr(r.type)}'")
        return None

    def variadic_index(self, op: Operation, indices: Sequence[int]) -> Note | None:
        for i in indices:
            if i < len(op.operands) and not _undefined(op.operands[i]):
                n = self.operand_constraint(op, i, is_index(op.operands[i].type), "variadic of index")
                if n is not None:
                    return n
        return None

    def dim_sym_ids(self, op: Operation, indices: Sequence[int], num_dims: int) -> Note | None:
        """``verifyDimAndSymbolIdentifiers``: the first operand that is not a
        valid dim (first ``num_dims``) / symbol (the rest)."""
        scope: tuple | None = None  # affine_scope(op), when an operand needs it
        for k, i in enumerate(indices):
            if i >= len(op.operands):
                continue
            v = op.operands[i]
            if _undefined(v):
                continue
            if k < num_dims and dimsym.is_certainly_valid_dim(v):
                continue
            if scope is None:
                scope = dimsym.affine_scope(op)
            region, certain = scope
            if k < num_dims:
                ok, why = dimsym.is_valid_dim(v, region, self.line_of)
                msg = "operand cannot be used as a dimension id"
            else:
                ok, why = dimsym.is_valid_symbol(v, region, self.line_of)
                msg = "operand cannot be used as a symbol"
            if ok is False and certain is not None:
                span = op.operand_spans[i] if i < len(op.operand_spans) else op.name_span
                related = [(span, why), (v.span, f"{v.name} is defined here")]
                return self.op_error(op, msg, related, self.dim_sym_fix(op, i, k < num_dims, v, region))
        return None

    def dim_sym_fix(self, op: Operation, index: int, as_dim: bool, v: Value, region: object) -> dict | None:
        """Certain rewrites for a value in the wrong position: ``symbol(%v)``
        around a dim-valid value in a subscript becomes ``%v``; a loop bound
        ``%v`` that must be a dim becomes ``affine_map<(d0) -> (d0)>(%v)``."""
        if as_dim or index >= len(op.operand_spans):
            return None
        span = op.operand_spans[index]
        ok, _ = dimsym.is_valid_dim(v, region)  # type: ignore[arg-type]
        if not ok:
            return None
        text = self.text
        start, end = span.start, span.end
        before = text[max(0, start - 7) : start]
        if before.endswith("symbol(") and text[end : end + 1] == ")":
            return {"title": f"Bind {v.name} as a dimension", "edits": [{"start": start - 7, "end": end + 1, "new_text": v.name}]}
        if op.name == "affine.for":
            for key, seg in (("lower_bound", 0), ("upper_bound", 1)):
                a = op.attributes.get(key)
                if isinstance(a, AffineMapAttr) and a.map == AffineMap.symbol_identity() and a.span == span and index in _segment_indices(op, seg):
                    return {
                        "title": f"Bind {v.name} as a dimension",
                        "edits": [{"start": start, "end": end, "new_text": f"affine_map<(d0) -> (d0)>({v.name})"}],
                    }
        return None

    # ------------------------------------------------------------ non-affine expressions
    def non_affine(self, m: AffineMap | IntegerSet, fallback: Span, op: Operation | None = None, operand_base: int = 0) -> Note | None:
        """The parse error MLIR's affine parser gives for a product of two
        non-symbolic terms or a division by a non-symbolic term."""
        exprs = m.results if isinstance(m, AffineMap) else m.constraints
        for e in exprs:
            bad = _first_non_affine(e)
            if bad is None:
                continue
            kind = bad.kind
            if kind is AffineExprKind.MUL:
                msg = "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic"
                word = "*"
            else:
                word = {AffineExprKind.FLOORDIV: "floordiv", AffineExprKind.CEILDIV: "ceildiv", AffineExprKind.MOD: "mod"}[kind]
                msg = f"non-affine expression: right operand of {word} has to be either a constant or symbolic"
            span = self._operator_span(bad, word) or fallback
            fix = self._symbol_wrap_fix(bad, op, m, operand_base)
            return self.error(msg, span, None, fix, "syntax")
        return None

    def _operator_span(self, e: AffineBinaryExpr, word: str) -> Span | None:
        ls, rs = e.lhs.span, e.rhs.span
        if not isinstance(ls, Span) or not isinstance(rs, Span):
            return None
        a, b = ls.end, rs.start
        if a > b:
            return None
        i = self.text.find(word, a, b)
        if i < 0:
            return None
        return Span(i, i + len(word))

    def _symbol_wrap_fix(self, e: AffineBinaryExpr, op: Operation | None, m: AffineMap | IntegerSet, base: int) -> dict | None:
        """In a subscript, ``%i * %n`` with ``%n`` a valid symbol: ``%i * symbol(%n)``."""
        if op is None:
            return None
        cands = [e.rhs] if e.kind is not AffineExprKind.MUL else [e.rhs, e.lhs]
        region, _ = dimsym.affine_scope(op)
        for c in cands:
            if c.kind is not AffineExprKind.DIM or not isinstance(c.span, Span):
                continue
            idx = base + c.position  # type: ignore[attr-defined]
            if idx >= len(op.operands):
                continue
            v = op.operands[idx]
            ok, _ = dimsym.is_valid_symbol(v, region)
            if ok:
                s = c.span
                return {"title": f"Bind {v.name} as a symbol", "edits": [{"start": s.start, "end": s.end, "new_text": f"symbol({v.name})"}]}
        return None

    def check_alias(self, alias: object) -> Note | None:
        val = getattr(alias, "value", None)
        if isinstance(val, AffineMapAttr):
            return self.non_affine(val.map, alias.name_span)  # type: ignore[attr-defined]
        if isinstance(val, IntegerSetAttr):
            return self.non_affine(val.set, alias.name_span)  # type: ignore[attr-defined]
        return None

    # ------------------------------------------------------------ dispatch
    def parse_checks(self, op: Operation) -> Note | None:
        if not op.known:  # (both notes are None for a known op)
            return op_structure.unknown_op_note(op) or op_structure.result_binding_note(op)
        # Imported here (affine_checks imports this module); this form of the
        # import costs half of 'from ... import' per call (no fromlist handling).
        import affine_lsp.verify.affine_checks as affine_checks

        # Inline maps and sets of any op are parsed by the affine parser.
        for a in op.attributes.values():
            if isinstance(a, AffineMapAttr) and a.alias is None:
                n = self.non_affine(a.map, a.span, op if _is_subscript_map(op) else None, _map_base(op, a))
                if n is not None:
                    return n
            elif isinstance(a, IntegerSetAttr) and a.alias is None:
                n = self.non_affine(a.set, a.span)
                if n is not None:
                    return n
        if not op.custom:
            return None
        fn = affine_checks.PARSE_CHECKS.get(op.name) or _PARSE_CHECKS.get(op.name)
        return fn(self, op) if fn is not None else None

    def hooks(self, op: Operation) -> tuple[CheckFn | None, CheckFn | None]:
        """The entrance and exit checks of ``op``, looked up once per op
        name: the verifier asks for every op."""
        if not op.known:
            return _NO_HOOKS
        if known_traits.is_unregistered(op):
            return _UNREGISTERED_HOOKS if op_registry.is_unknown_upstream(op.name) else _NO_HOOKS
        h = _HOOKS.get(op.name)
        if h is None:
            import affine_lsp.verify.affine_checks as affine_checks

            fn = affine_checks.ENTRANCE.get(op.name) or _ENTRANCE.get(op.name)
            if fn is None and op.name in _ARITH_BINARY:
                fn = _arith_binary
            if op_traits.is_terminator(op.name):
                fn = _with_terminator_trait(fn)
            info = op_registry.lookup(op.name)
            if info is not None and info.structured:
                fn = _with_structure(fn)
            h = _HOOKS[op.name] = (fn, affine_checks.EXIT.get(op.name) or _EXIT.get(op.name))
        return h

    def terminator_trait(self, op: Operation) -> Note | None:
        """``verifyIsTerminator``: a terminator is the last op of its block.
        Reported only when MLIR's verifier certainly gets to the trait (the
        checks it makes first pass, see
        :func:`~affine_lsp.verify.known_traits.reaches_terminator_trait`);
        unregistered ops and ops whose syntax we skipped have no traits to check."""
        block = op.parent
        if block is None or not block.operations or block.operations[-1] is op:
            return None
        if known_traits.reaches_terminator_trait(op) is not True:
            return None
        return self.op_error(op, "must be the last operation in the parent block")

    # ------------------------------------------------------------ blocks
    def block_entrance(self, block: Block) -> Note | None:
        for o in block.operations[:-1]:
            if o.successors and o.known:
                return self.error("operation with block successors must terminate its parent block", o.name_span)
        if not block.operations:
            parent = block.parent_op
            if parent is not None and self._checks_terminators(parent) and not self._may_lack_terminator(block):
                return self.error("empty block: expect at least a terminator", parent.name_span)
        return None

    def block_exit(self, block: Block) -> Note | None:
        import affine_lsp.verify.affine_checks as affine_checks

        parent = block.parent_op
        if parent is None:
            return None
        if parent.custom and parent.name in affine_checks.IMPLICIT_YIELD_OPS:
            if affine_checks.implicit_yield(parent, block):
                return affine_checks.check_yield(self, parent, [], parent.name_span, implicit=True)
            return None
        if not block.operations:
            return None
        last = block.operations[-1]
        if not self._checks_terminators(parent) or self._may_lack_terminator(block):
            return None
        if known_traits.is_terminator(last) is False:
            line = self.text[last.span.start : last.span.end].split("\n", 1)[0].strip()
            return self.error(f"block with no terminator, has {line}", last.name_span)
        return None

    @staticmethod
    def _may_lack_terminator(block: Block) -> bool:
        region = block.parent
        if region is None:
            return True
        if len(region.blocks) != 1:
            return False
        op = region.parent
        return op is None or known_traits.may_lack_terminator(op) is not False

    @staticmethod
    def _checks_terminators(op: Operation) -> bool:
        """Blocks whose terminator rules we can judge: func.func bodies and
        the regions of registered ops written in the generic form (custom
        parsers of other ops may add implicit terminators)."""
        if not op.known or known_traits.is_unregistered(op):
            return False
        if op.name == "func.func":
            return True
        return not op.custom and not op_traits.has_no_terminator(op.name)


def _undefined(v: Value) -> bool:
    return type(v).__name__ == "UndefinedValue"


def _unregistered(c: Checker, op: Operation) -> Note | None:
    return op_structure.unregistered_op_note(op)


def _with_structure(verify: CheckFn | None) -> CheckFn:
    """The entrance check of an op the registry knows: the structural traits
    of a generic-form op (:func:`op_structure.structure_note`), then ``verify``."""

    def entrance(c: Checker, op: Operation) -> Note | None:
        note = op_structure.structure_note(op)
        if note is not None or verify is None:
            return note
        return verify(c, op)

    return entrance


def _with_terminator_trait(verify: CheckFn | None) -> CheckFn:
    """The entrance check of a terminator: its ``IsTerminator`` trait, then
    ``verify`` (its ODS constraints and ``verify()``). The traits MLIR checks
    before IsTerminator (HasParent, ...) are part of ``verify`` for the ops
    that have them: :meth:`Checker.terminator_trait` is silent when one fails."""

    def entrance(c: Checker, op: Operation) -> Note | None:
        note = c.terminator_trait(op)
        if note is not None or verify is None:
            return note
        return verify(c, op)

    return entrance


def _segment_indices(op: Operation, i: int) -> range:
    if op.operand_segments is None:
        return range(len(op.operands)) if i == 0 else range(0)
    start = sum(op.operand_segments[:i])
    return range(start, start + op.operand_segments[i])


def _is_subscript_map(op: Operation) -> bool:
    return op.name in ("affine.load", "affine.store", "affine.vector_load", "affine.vector_store", "affine.prefetch", "affine.dma_start", "affine.dma_wait")


def _map_base(op: Operation, a: AffineMapAttr) -> int:
    """Index of the first operand bound to ``a``'s inputs."""
    name = op.name
    if name in ("affine.load", "affine.vector_load", "affine.prefetch"):
        return 1
    if name in ("affine.store", "affine.vector_store"):
        return 2
    if name == "affine.dma_wait":
        return 1
    if name == "affine.dma_start":
        for key, seg in (("src_map", 0), ("dst_map", 1), ("tag_map", 2)):
            if op.attributes.get(key) is a:
                return _segment_indices(op, seg).start + 1
    return 0


def _first_non_affine(e: AffineExpr) -> AffineBinaryExpr | None:
    """Post-order: the first node the parser would reject."""
    if not isinstance(e, AffineBinaryExpr):
        return None
    for sub in (e.lhs, e.rhs):
        bad = _first_non_affine(sub)
        if bad is not None:
            return bad
    if e.kind is AffineExprKind.MUL:
        if not e.lhs.is_symbolic_or_constant() and not e.rhs.is_symbolic_or_constant():
            return e
    elif e.kind is not AffineExprKind.ADD and not e.rhs.is_symbolic_or_constant():
        return e
    return None


# --------------------------------------------------------------------------- func


def _func_type(op: Operation) -> FunctionType | None:
    a = op.attributes.get("__function_type") or op.attributes.get("function_type")  # aliases expanded, when any
    return a.type if isinstance(a, TypeAttr) and isinstance(a.type, FunctionType) else None


def _parse_func(c: Checker, op: Operation) -> Note | None:
    if op.regions and len(op.regions[0].blocks) == 1:
        blk = op.regions[0].blocks[0]
        if not blk.operations and blk.label is None:
            region = op.regions[0]
            brace = c.text.find("{", region.span.start, max(region.span.end, region.span.start + 1))
            at = Span(brace, brace + 1) if brace >= 0 else op.name_span
            return c.custom_error(op, "expected non-empty function body", at)
    return None


def _parse_return(c: Checker, op: Operation) -> Note | None:
    """An unprefixed ``return`` means ``func.return`` only where ``func`` is
    the default dialect: directly in a ``func.func`` body. Elsewhere it is
    the enclosing op's default dialect's (``async.return`` in an
    ``async.func``), or mlir-opt does not find the op
    (:mod:`affine_lsp.syntax.default_dialect`)."""
    s = op.name_span
    parent = op.parent_op
    if c.text[s.start : s.end] != "return" or parent is None or (parent.name == "func.func" and parent.custom) or not parent.known:
        return None
    from affine_lsp.ir import op_registry
    from affine_lsp.syntax import default_dialect

    while parent is not None and not parent.custom and parent.name != "builtin.module":
        parent = parent.parent_op  # the generic form pushes no default dialect
    dialect = default_dialect.default_dialect_of(parent.name if parent is not None else None)
    if op_registry.lookup(default_dialect.resolve("return", dialect)) is not None:
        return None
    return c.error(default_dialect.unknown_message("return", dialect), s, code="syntax")


def _func_func(c: Checker, op: Operation) -> Note | None:
    """SymbolOpInterface: a declaration (no body) may not be public."""
    vis = op.attributes.get("sym_visibility")
    if not op.regions and (vis is None or getattr(vis, "value", None) == "public"):
        return c.op_error(op, "symbol declaration cannot have public visibility")
    return None


def _func_return(c: Checker, op: Operation) -> Note | None:
    parent = op.parent_op
    if parent is None or parent.name != "func.func":
        if parent is not None and not parent.known:
            return None
        return c.op_error(op, "expects parent op 'func.func'")
    ft = _func_type(parent)
    if ft is None:
        return None
    results = ft.results
    if len(op.operands) != len(results):
        return c.op_error(op, f"has {len(op.operands)} operands, but enclosing function (@{op_traits.symbol_name(parent) or '?'}) returns {len(results)}")
    for i, (v, t) in enumerate(zip(op.operands, results, strict=False)):
        if v.type is not None and v.type != t and not _undefined(v):
            return c.error(
                f"type of return operand {i} ('{v.type}') doesn't match function result type ('{t}') in function @{op_traits.symbol_name(parent) or '?'}",
                op.name_span,
            )
    return None


# --------------------------------------------------------------------------- arith

_ARITH_INT_BINARY = frozenset(
    {
        "arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.divui", "arith.remsi", "arith.remui",
        "arith.andi", "arith.ori", "arith.xori", "arith.shli", "arith.shrsi", "arith.shrui", "arith.maxsi",
        "arith.maxui", "arith.minsi", "arith.minui", "arith.ceildivsi", "arith.ceildivui", "arith.floordivsi",
    }
)  # fmt: skip
_ARITH_FLOAT_BINARY = frozenset(
    {"arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.remf", "arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf"}
)
_ARITH_BINARY = _ARITH_INT_BINARY | _ARITH_FLOAT_BINARY


def _arith_binary(c: Checker, op: Operation) -> Note | None:
    if op.name in _ARITH_INT_BINARY:
        pred, what = signless_int_like, "signless-integer-like"
    else:
        pred, what = float_like, "floating-point-like"
    for i, v in enumerate(op.operands[:2]):
        if _undefined(v):
            return None
        n = c.operand_constraint(op, i, pred(v.type), what)
        if n is not None:
            return n
    for i, r in enumerate(op.results[:1]):
        n = c.result_constraint(op, i, pred(r.type), what)
        if n is not None:
            return n
    types = [v.type for v in op.operands] + [r.type for r in op.results]
    if all(t is not None for t in types) and len(set(map(str, types))) > 1:
        return c.op_error(op, "requires the same type for all operands and results")
    return None


def _memref_view(c: Checker, op: Operation) -> Note | None:
    if not op.operands or _undefined(op.operands[0]) or op.operands[0].type is None:
        return None
    t = op.operands[0].type
    ok = isinstance(t, MemRefType) and t.rank == 1 and isinstance(t.element, IntegerType) and t.element.width == 8 and t.element.signedness == ""
    note = c.operand_constraint(op, 0, ok, "1D memref of 8-bit signless integer values")
    if note is not None:
        return note
    # ViewOp::verify: identity layouts and one memory space (not modelled
    # here: then nothing is said), then one size per dynamic dimension.
    view = op.results[0].type if len(op.results) == 1 else None
    if not isinstance(t, MemRefType) or not isinstance(view, MemRefType) or len(op.operands) < 2:
        return None
    if not t.has_identity_layout or not view.has_identity_layout or t.memory_space != view.memory_space:
        return None
    dynamic, sizes = sum(1 for d in view.shape if d is None), len(op.operands) - 2
    if sizes == dynamic:
        return None
    return c.op_error(op, f"incorrect number of dynamic sizes, has {sizes}, expected {dynamic}")


def _memref_indices(op: Operation, memref: int) -> tuple[int, int] | None:
    """(rank of the memref operand, number of indices after it), when known."""
    if len(op.operands) <= memref or _undefined(op.operands[memref]):
        return None
    t = op.operands[memref].type
    if not isinstance(t, MemRefType) or not isinstance(t.rank, int):
        return None
    return t.rank, len(op.operands) - memref - 1


def _memref_load(c: Checker, op: Operation) -> Note | None:
    got = _memref_indices(op, 0)
    if got is None or got[0] == got[1]:
        return None
    return c.op_error(op, f"incorrect number of indices for load, expected {got[0]} but got {got[1]}")


def _memref_store(c: Checker, op: Operation) -> Note | None:
    got = _memref_indices(op, 1)
    if got is None or got[0] == got[1]:
        return None
    return c.op_error(op, "store index operand count not equal to memref rank")


def _parse_expand_shape(c: Checker, op: Operation) -> Note | None:
    """MLIR 22.1.8's ``expand_shape`` requires ``output_shape`` after the
    reassociation (older files lack it)."""
    if "static_output_shape" in op.attributes:
        return None
    reassoc = op.attributes.get("reassociation")
    if reassoc is None or reassoc.span is None:
        return None
    at = reassoc.span.end
    text = c.text
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return c.custom_error(op, "expected 'output_shape'", Span(at, min(at + 1, len(text))))


def _linalg_map(c: Checker, op: Operation) -> Note | None:
    """The mapper of ``linalg.map`` takes an argument per input and init."""
    if not op.regions or not op.regions[0].blocks:
        return None
    args = len(op.regions[0].blocks[0].arguments)
    if args == len(op.operands):
        return None
    return c.op_error(op, f"expects number of operands to match the arity of mapper, but got: {len(op.operands)} and {args}")


_PARSE_CHECKS: dict[str, CheckFn] = {
    "func.func": _parse_func,
    "func.return": _parse_return,
    "memref.expand_shape": _parse_expand_shape,
    "tensor.expand_shape": _parse_expand_shape,
}


def _module_exit(c: Checker, op: Operation) -> Note | None:
    """The module's ``SymbolTable`` trait: its calls against their callees."""
    from affine_lsp.verify.symbol_uses import call_note

    return call_note(op, c.text, c.symbols_complete, c.skipped_items)


def _linalg_yield(c: Checker, op: Operation) -> Note | None:
    """``linalg::YieldOp::verify`` in a ``LinalgOp`` (``linalg.generic``, a
    named op in the generic form): as many values as the op has inits (its
    ``outs`` segment), when its region's arguments match its operands
    (checked by the parent before)."""
    parent = op.parent_op
    if parent is None or not parent.known or parent.dialect != "linalg" or parent.operand_segments is None:
        return None
    if not op_traits.has_trait(parent.name, "DestinationStyleOpInterface"):
        return None
    if len(parent.operand_segments) != 2 or len(parent.regions) != 1 or len(parent.regions[0].blocks) != 1:
        return None
    if len(parent.regions[0].blocks[0].arguments) != len(parent.operands):
        return None
    inits = parent.operand_segments[1]
    if len(op.operands) == inits:
        return None
    return c.op_error(
        op, f"expected number of yield values ({len(op.operands)}) to match the number of inits / outs operands of the enclosing LinalgOp ({inits})"
    )


def _scf_parallel(c: Checker, op: Operation) -> Note | None:
    """``scf::ParallelOp::verify``'s terminator and result checks, when the
    checks it makes before them hold (bounds, induction variables of index
    type; a step known to be constant and not positive is left alone)."""
    if op.operand_segments is None or len(op.operand_segments) != 4 or len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        return None
    steps = op.segment(2)
    body = op.regions[0].blocks[0]
    if not steps or len(body.arguments) != len(steps) or not all(isinstance(a.type, IndexType) for a in body.arguments):
        return None
    constant_steps = [known_traits.constant_int(s.defining_op) for s in steps]
    if any(v is not None and v <= 0 for v in constant_steps):
        return None
    last = body.operations[-1] if body.operations else None
    if last is not None and not last.known:
        return None
    if op.custom and (last is None or known_traits.is_terminator(last) is False):
        reductions = 0  # the custom parser appends an empty scf.reduce (ensureTerminator)
    elif last is None or last.name != "scf.reduce":
        return c.op_error(op, "expects body to terminate with 'scf.reduce'")
    else:
        reductions = len(last.regions)
    results, inits = len(op.results), len(op.segment(3))
    if results != reductions:
        return c.op_error(op, f"expects number of results: {results} to be the same as number of reductions: {reductions}")
    if results != inits:
        return c.op_error(op, f"expects number of results: {results} to be the same as number of initial values: {inits}")
    return None


_EXIT: dict[str, CheckFn] = {"builtin.module": _module_exit}
_ENTRANCE: dict[str, CheckFn] = {
    "func.func": _func_func,
    "func.return": _func_return,
    "memref.view": _memref_view,
    "memref.load": _memref_load,
    "memref.store": _memref_store,
    "linalg.map": _linalg_map,
    "scf.parallel": _scf_parallel,
    "linalg.yield": _linalg_yield,
}
_HOOKS: dict[str, tuple[CheckFn | None, CheckFn | None]] = {}
_NO_HOOKS: tuple[None, None] = (None, None)
_UNREGISTERED_HOOKS: tuple[CheckFn, None] = (_unregistered, None)

__all__ = ["Checker", "VectorType", "VerifyFailure", "float_like", "is_index", "signless_int_like", "tstr"]
