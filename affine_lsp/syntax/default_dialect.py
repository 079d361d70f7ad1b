"""The one rule for an op name written without its dialect, as MLIR 22.1.8's
parser applies it (``OperationParser::parseCustomOperationName``): a name
with no ``.`` is looked up as ``D.name``, where ``D`` is the default dialect
of the innermost enclosing op (``OpAsmOpInterface::getDefaultDialect``:
``func`` in ``func.func``, ``transform`` in ``transform.sequence``,
``builtin`` in ``builtin.module`` and at the top level of a file); every
other op's default is ``""``, so ``return`` in an ``affine.for`` body is
``.return``, and no other dialect (not even builtin) is tried. When ``D.name``
is not an op, the error is ``custom op 'name' is unknown (tried 'D.name' as
well)``, or ``Dialect `' not found for custom op 'name'  (tried '.name' as
well)`` when ``D`` is ``""``. The facts are the registry's
(:func:`affine_lsp.ir.op_traits.default_dialect`).

The parser reduces an op before the op whose region holds it, so the
enclosing op is read from the text (:func:`enclosing_op`): the op that
owns the innermost unclosed ``{`` before the name. This runs on the error
paths and for the few unprefixed names the grammar reads itself
(``unrealized_conversion_cast``, ``return``, ``call``), never on every op.
"""

from __future__ import annotations

import re

from affine_lsp.ir import op_registry, op_traits

TOP_LEVEL = "builtin"  # the parser's default dialect before any op (the implicit module's)

# An op's head at a line start: optional results, then its name, bare, dotted or quoted (generic form).
_HEAD = re.compile(r"[ \t]*(%[\w$.-]+(?::\d+)?(?:[ \t]*,[ \t]*%[\w$.-]+(?::\d+)?)*[ \t]*=[ \t]*)?(\"?)([A-Za-z_][\w$.]*)\2", re.ASCII)


def resolve(name: str, default: str) -> str:
    """The op name MLIR looks up for ``name`` written where ``default`` is
    the default dialect."""
    return name if "." in name else f"{default}.{name}"


def unknown_message(name: str, default: str) -> str:
    """mlir-opt 22.1.8's error for an unprefixed ``name`` that is no op of
    the default dialect ``default``."""
    if default:
        return f"custom op '{name}' is unknown (tried '{default}.{name}' as well)"
    return f"Dialect `' not found for custom op '{name}'  (tried '.{name}' as well)"


def default_dialect_of(op_name: str | None) -> str:
    """The default dialect inside the regions of ``op_name`` (None: the top
    level of the file; ``""``: an op not known)."""
    if op_name is None:
        return TOP_LEVEL
    return op_traits.default_dialect(op_name) if op_name else ""


def _record_head(text: str, at: int, owners: list[str | None], heads: dict[int, str | None]) -> None:
    """Remember the op whose head starts the line at ``at`` (its full name)
    for the brace level ``len(owners)``: a region's ``{`` that follows at
    that level is this op's. A bare name that is no op where it stands (a
    continuation line of a head: ``to 10 {``) is no head."""
    m = _HEAD.match(text, at)
    if m is None:
        return
    name: str | None = m.group(3)
    if m.group(2):
        # The generic form pushes no default dialect: its regions keep the enclosing one.
        name = owners[-1] if owners else None
    elif "." not in name:
        name = resolve(name, default_dialect_of(owners[-1] if owners else None))
        if op_registry.lookup(name) is None:
            return
    heads[len(owners)] = name


def enclosing_op(text: str, pos: int, start: int = 0) -> str | None:
    """The full name of the op whose default dialect holds at ``pos`` of
    ``text`` (read from ``start``, a top-level chunk's start): the op whose
    region holds ``pos``, or, for an op in the generic form (which pushes
    no default dialect), the op around it; None at the top level, ``""``
    where no op head is found for the region."""
    owners: list[str | None] = []  # per open `{`: the op whose default dialect holds inside it
    heads: dict[int, str | None] = {}  # brace level -> the last op head met at a line start there
    i = start
    n = min(pos, len(text))
    _record_head(text, i, owners, heads)
    while i < n:
        ch = text[i]
        if ch == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif ch == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        elif ch == "\n":
            _record_head(text, i + 1, owners, heads)
        elif ch == "{":
            owners.append(heads.get(len(owners), ""))  # "": no op head found, no default dialect
        elif ch == "}" and owners:
            heads.pop(len(owners), None)
            owners.pop()
        i += 1
    return owners[-1] if owners else None


def default_dialect_at(text: str, pos: int, start: int = 0) -> str:
    """The default dialect MLIR's parser uses for an unprefixed op name at
    ``pos`` of ``text``."""
    return default_dialect_of(enclosing_op(text, pos, start))


def resolve_at(text: str, pos: int, name: str, start: int = 0) -> str:
    """The op name MLIR looks up for ``name`` written at ``pos``."""
    return name if "." in name else resolve(name, default_dialect_at(text, pos, start))
