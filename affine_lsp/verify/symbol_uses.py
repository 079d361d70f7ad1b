"""``verifySymbolUses`` of ``func.call``: a call against its callee's
signature, with mlir-opt 22.1.8's words.

MLIR checks symbol uses when it verifies a symbol table (the ``SymbolTable``
trait of ``builtin.module``), after every op inside it: so this is the exit
check of a module, for the calls whose nearest symbol table it is, in
textual order, the first failing call only (``func::CallOp::
verifySymbolUses``):

* ``'nope' does not reference a valid function``;
* ``incorrect number of operands for callee``;
* ``operand type mismatch: expected operand type 'i32', but provided 'f32'
  for operand number 0``;
* ``incorrect number of results for callee``;
* ``result type mismatch at index 0``.

Nothing is said when the module holds an op whose syntax was skipped (it
may define the symbol) or when a type is not known.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from affine_lsp.ir import op_traits
from affine_lsp.ir.attributes import SymbolRefAttr, TypeAttr
from affine_lsp.ir.core import Operation, memo_of
from affine_lsp.ir.types import FunctionType, OpaqueType, Type
from affine_lsp.syntax.nodes import Note


def _calls(module: Operation, text: str | None) -> Iterator[Operation]:
    """The ``func.call`` ops whose nearest symbol table is ``module``, in
    textual order (nested symbol tables are checked on their own); with the
    document's ``text``, only the items that hold a call are walked (see
    :func:`_items_with_calls`)."""
    items = [o for r in module.regions for b in r.blocks for o in b.operations]
    if text is not None:
        items = _items_with_calls(items, text)
    stack = items[::-1]
    while stack:
        op = stack.pop()
        if op.name == "func.call":
            yield op
        if op.regions and not (op.known and op_traits.has_trait(op.name, "SymbolTable")):
            stack.extend(o for r in reversed(op.regions) for b in reversed(r.blocks) for o in reversed(b.operations))


_HOLDS_CALL = "symbol_uses.holds_call"


def _items_with_calls(items: list[Operation], text: str) -> list[Operation]:
    """The items of ``items`` (top-level ops of ``text``) that are a
    ``func.call`` or whose text holds ``call`` (``func.call``, its generic
    form, or ``call`` where ``func`` is the default dialect, inside a
    function): a superset of the items that hold a ``func.call``. Whether an
    item's text does is kept in the item op's memo: the document builds a
    new op when the item's text changes, so an edit looks at the text of the
    items it changed, not at the whole document, which is verified after
    every edit (docs/performance.md)."""
    out = []
    for o in items:
        if o.name == "func.call":
            out.append(o)
        elif o.regions:
            m = o.memo
            holds = m.get(_HOLDS_CALL) if m is not None and m.owner is o else None
            if holds is None:
                span = o.span
                holds = memo_of(o)[_HOLDS_CALL] = text.find("call", span.start, span.end) >= 0
            if holds:
                out.append(o)
    return out


def _known(t: object) -> bool:
    return isinstance(t, Type) and not isinstance(t, OpaqueType)


def _signature(fn: Operation) -> FunctionType | None:
    a = fn.attributes.get("__function_type") or fn.attributes.get("function_type")  # aliases expanded, when any
    return a.type if isinstance(a, TypeAttr) and isinstance(a.type, FunctionType) else None


def call_note(module: Operation, text: str | None = None, complete: bool = True, skip: frozenset[int] = frozenset()) -> Note | None:
    """The first ``func.call`` of ``module`` that does not match its callee
    (``text``: the document's, see :func:`_calls`; ``complete``: whether
    every item of the module has its IR here, else a callee not found is
    not an error; ``skip``: the ids of the module's items not verified, a
    parse error of theirs reported instead, whose calls are not checked)."""
    calls = _calls(module, text)
    if skip:
        calls = (c for c in calls if not any(id(a) in skip for a in c.ancestors()))
    first = next(calls, None)
    if first is None:
        return None  # (nothing to check: the symbols are not looked at)
    symbols: dict[str, Operation] = {}
    for r in module.regions:
        for b in r.blocks:
            for o in b.operations:
                if not o.known:
                    return None  # a skipped op may define any symbol
                name = op_traits.symbol_name(o)
                if name is not None:
                    symbols.setdefault(name, o)
    for call in itertools.chain((first,), calls):
        note = _check_call(call, symbols, complete)
        if note is not None:
            return note
    return None


def _error(call: Operation, message: str) -> Note:
    return Note("error", f"'func.call' op {message}", call.name_span, "verify")


def _check_call(call: Operation, symbols: dict[str, Operation], complete: bool) -> Note | None:
    if not call.known:
        return None
    callee = call.attributes.get("callee")
    if not isinstance(callee, SymbolRefAttr) or "::" in callee.spelling:
        return None
    fn = symbols.get(callee.root)
    if fn is None and not complete:
        return None
    if fn is None or fn.name != "func.func":
        return _error(call, f"'{callee.root}' does not reference a valid function")
    sig = _signature(fn)
    if sig is None:
        return None
    if len(sig.inputs) != len(call.operands):
        return _error(call, "incorrect number of operands for callee")
    for i, (v, t) in enumerate(zip(call.operands, sig.inputs, strict=True)):
        if _known(v.type) and _known(t) and v.type != t:
            return _error(call, f"operand type mismatch: expected operand type '{t}', but provided '{v.type}' for operand number {i}")
    if len(sig.results) != len(call.results):
        return _error(call, "incorrect number of results for callee")
    for i, (r, t) in enumerate(zip(call.results, sig.results, strict=True)):
        if _known(r.type) and _known(t) and r.type != t:
            return _error(call, f"result type mismatch at index {i}")
    return None
