"""Parsing one chunk of MLIR text: :func:`parse_chunk`.

The grammar lives in ``grammar/mlir.lark`` and the files it imports, one
per dialect (``grammar/<dialect>.lark``) and per builtin area (types,
attributes, affine maps). A transformer runs inside the LALR parser (no
parse tree is built) and normalises every op into an
:class:`~affine_lsp.syntax.nodes.OpSyn`; it is assembled here from the
reduce actions of each grammar file (``syntax/ops/<dialect>.py``,
``types.py``, ``attributes.py``, ``affine_map.py``) and those of
mlir.lark's core (items, generic and unknown ops, regions). Each parse
has a transformer of its own; the tables are shared (:mod:`.engines`).
Parse errors become :class:`~affine_lsp.syntax.nodes.Note` objects in
MLIR's words (:mod:`.errors`): parsing never raises.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from affine_lsp import forking
from affine_lsp.ir.affine_expr import AffineMap, IntegerSet
from affine_lsp.ir.attributes import (
    AffineMapAttr,
    Attribute,
    DenseArrayAttr,
    DictAttr,
    IntegerSetAttr,
    OpaqueAttr,
)
from affine_lsp.ir.core import Anchor, Span
from affine_lsp.ir.op_registry import is_upstream_dialect
from affine_lsp.ir.types import (
    FunctionType,
    Type,
)
from affine_lsp.ods import ops as ods_ops
from affine_lsp.syntax import unknown_ops
from affine_lsp.syntax.affine_map import AffineMapParser
from affine_lsp.syntax.attributes import AttributeParser
from affine_lsp.syntax.driver import NeedsLark
from affine_lsp.syntax.engines import ParserTables, build_tables
from affine_lsp.syntax.errors import (
    UNKNOWN_OP_CODE,
    UNREGISTERED_DIALECT_CODE,
    UNREGISTERED_GENERIC_MESSAGE,
    error_note,
    unknown_op_message,
    unregistered_custom_message,
)
from affine_lsp.syntax.nodes import (
    AliasDefSyn,
    BlockSyn,
    Item,
    ModuleCloseSyn,
    ModuleOpenSyn,
    Note,
    OpSyn,
    RegionSyn,
    SuccSyn,
)
from affine_lsp.syntax.opkit import (
    PARSER_DEBUG,
    RESULT_RE,
    SOUP_EQ,
    TOKEN_TYPES,
    Ops,
    SyntaxIssue,
    collect_soup,
    end_of,
    set_entry_args,
    start_of,
    unquote,
)
from affine_lsp.syntax.ops.affine import AffineOps
from affine_lsp.syntax.ops.arith import ArithOps
from affine_lsp.syntax.ops.bufferization import BufferizationOps
from affine_lsp.syntax.ops.cf import CfOps
from affine_lsp.syntax.ops.func import FuncOps
from affine_lsp.syntax.ops.gpu import GpuOps
from affine_lsp.syntax.ops.linalg import LinalgOps
from affine_lsp.syntax.ops.llvm import LlvmOps
from affine_lsp.syntax.ops.memref import MemrefOps
from affine_lsp.syntax.ops.scf import ScfOps
from affine_lsp.syntax.ops.tensor import TensorOps
from affine_lsp.syntax.ops.transform import TransformOps
from affine_lsp.syntax.ops.ub import UbOps
from affine_lsp.syntax.ops.vector import VectorOps
from affine_lsp.syntax.types import TypeParser

if TYPE_CHECKING:
    from lark import Lark, Token


class Transformer:
    """What lark asks of a transformer built into its parser (its
    ``Transformer``, without importing lark: a start that parses only
    valid text never loads it): a rule without a method of its own builds
    lark's tree."""

    __visit_tokens__ = False

    def __init__(self, visit_tokens: bool = False) -> None:
        pass

    def __default__(self, data: Any, children: list, meta: Any) -> Any:
        from lark import Tree

        return Tree(data, children, meta)


class ChunkTransformer(
    AffineOps,
    FuncOps,
    ArithOps,
    MemrefOps,
    VectorOps,
    ScfOps,
    CfOps,
    TensorOps,
    UbOps,
    GpuOps,
    LlvmOps,
    LinalgOps,
    BufferizationOps,
    TransformOps,
    AffineMapParser,
    TypeParser,
    AttributeParser,
    Transformer,
):
    """Builds syntax records while the LALR parser reduces; one instance
    per parse holds that parse's state (``anchor``, ``notes``, the names a
    map binds, the SSA subscripts met), as MLIR's ``AsmParser`` does.

    The reduce actions of each grammar file are mixed in from its module
    (``grammar/<dialect>.lark``: :mod:`.ops.<dialect>`; types, attributes,
    affine maps: :mod:`.types`, :mod:`.attributes`, :mod:`.affine_map`).

    Affine expressions are built directly as :class:`AffineExpr`; the names
    they refer to are resolved through per-map state (``_dim_names``) or, for
    SSA subscripts, through the order of first appearance (``_ssa_dims``), as
    MLIR's ``parseAffineMapOfSSAIds`` does.
    """

    def __init__(self, anchor: Anchor) -> None:
        super().__init__(visit_tokens=False)
        self.anchor = anchor
        self.notes: list[Note] = []
        self.source = ""  # the chunk's text as written (an op respelt for a retry keeps its name here)
        self.resolved: dict[int, str] = {}  # an unprefixed op name's offset -> the op it names (respelt for a retry)
        self.resolved_failed = False  # such an op's text does not follow its format
        self._reset_map_names()
        self._reset_ssa()
        self._reset_depths()

    # ------------------------------------------------------------ helpers
    def _reset_map_names(self) -> None:
        self._dim_names: dict[str, int] = {}
        self._sym_names: dict[str, int] = {}

    def _reset_depths(self) -> None:
        self._depths: dict[int, int] = {}

    def _reset_ssa(self) -> None:
        self._ssa_dims: dict[str, int] = {}
        self._ssa_syms: dict[str, int] = {}
        self._ssa_operands: list[tuple[str, Span]] = []
        self._ssa_sym_operands: list[tuple[str, Span]] = []

    def sp(self, tok: Token) -> Span:
        return Span(tok.start_pos, tok.end_pos, self.anchor)

    def span_of(self, first: Any, last: Any) -> Span:
        return Span(start_of(first), end_of(last), self.anchor)

    def note(self, severity: str, message: str, span: Span, code: str = "", data: dict | None = None) -> None:
        self.notes.append(Note(severity, message, span, code, data))

    def _op(self, name_tok: Token, children: Sequence[Any], name: str | None = None) -> OpSyn:
        return OpSyn(
            name if name is not None else str(name_tok),
            self.sp(name_tok),
            self.span_of(name_tok, children[-1]),
        )

    # ------------------------------------------------------------ top level
    def start(self, c: list) -> Item | None:
        return c[0] if c else None

    def attr_alias_def(self, c: list) -> AliasDefSyn:
        return AliasDefSyn(str(c[0]), self.sp(c[0]), self.span_of(c[0], c[-1]), c[1])

    def legacy_map_def(self, c: list) -> AliasDefSyn:
        m: AffineMap = c[1]
        d = AliasDefSyn(str(c[0]), self.sp(c[0]), self.span_of(c[0], c[-1]), AffineMapAttr(m, None, m.span), legacy=True)
        self.note(
            "warning",
            f"legacy affine map syntax; the modern form is '{c[0]} = {m.to_attr_str()}'",
            d.span,
            code="legacy-map",
            data={"replacement": f"{c[0]} = {m.to_attr_str()}"},
        )
        return d

    def legacy_set_def(self, c: list) -> AliasDefSyn:
        s: IntegerSet = c[1]
        d = AliasDefSyn(str(c[0]), self.sp(c[0]), self.span_of(c[0], c[-1]), IntegerSetAttr(s, None, s.span), legacy=True)
        self.note(
            "warning",
            f"legacy integer set syntax; the modern form is '{c[0]} = {s.to_attr_str()}'",
            d.span,
            code="legacy-set",
            data={"replacement": f"{c[0]} = {s.to_attr_str()}"},
        )
        return d

    def loc_alias_def(self, c: list) -> AliasDefSyn:
        return AliasDefSyn(str(c[0]), self.sp(c[0]), self.sp(c[0]), OpaqueAttr("loc(...)", None, self.sp(c[0])))

    def type_alias_def(self, c: list) -> AliasDefSyn:
        return AliasDefSyn(str(c[0]), self.sp(c[0]), self.span_of(c[0], c[-1]), c[1])

    def module_open(self, c: list) -> ModuleOpenSyn:
        name = None
        attrs: dict[str, Attribute] = {}
        for x in c[1:]:
            if type(x) in TOKEN_TYPES and x.type == "SYMBOL_REF":
                name = str(x)
            elif isinstance(x, DictAttr):
                attrs = x.entries
        return ModuleOpenSyn(self.span_of(c[0], c[-1]), name, attrs)

    def module_close(self, c: list) -> ModuleCloseSyn:
        return ModuleCloseSyn(self.sp(c[0]))

    # ------------------------------------------------------------ operations
    def operation(self, c: list) -> OpSyn:
        if len(c) == 1:
            return c[0]
        if type(c[-1]) in TOKEN_TYPES and c[-1].type == "LOC":
            c = c[:-1]
            if len(c) == 1:
                return c[0]
        lhs: Token = c[0]
        op: OpSyn = c[1]
        base = lhs.start_pos
        text = str(lhs)
        anchor = self.anchor
        if "," not in text and ":" not in text:  # `%x =`: one result
            m = RESULT_RE.match(text)
            assert m is not None
            op.results.append((m.group(), 1, Span(base, base + m.end(), anchor)))
        else:
            for m in RESULT_RE.finditer(text):
                name = m.group(0)
                count = 1
                if m.group(1) is not None:
                    count = int(m.group(1))
                    name = name[: name.index(":")]
                op.results.append((name, count, Span(base + m.start(), base + m.start() + len(name), anchor)))
        op.span = Span(base, op.span.rel_end, anchor)
        return op

    def generic_op(self, c: list) -> OpSyn:
        name_tok: Token = c[0]
        op = self._op(name_tok, c, name=unquote(str(name_tok)))
        op.custom = False
        dialect, dot, _ = op.name.partition(".")
        if dot and not is_upstream_dialect(dialect):
            end = op.name_span.rel_end  # mlir-opt points just past the quoted name
            self.note("info", UNREGISTERED_GENERIC_MESSAGE, Span(end, end + 1, self.anchor), code=UNREGISTERED_DIALECT_CODE)
        for x in c[1:]:
            if isinstance(x, Ops):
                op.operands = list(x)
            elif isinstance(x, list) and x and isinstance(x[0], SuccSyn):
                op.successors = x
            elif isinstance(x, tuple) and x and x[0] == "props":
                op.attrs.update(x[1])
            elif isinstance(x, list) and (not x or isinstance(x[0], RegionSyn)):
                op.regions = x
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
            elif isinstance(x, FunctionType):
                op.operand_types = list(x.inputs)
                op.result_types = list(x.results)
        _normalize_generic(op)
        return op

    def successor_list(self, c: list) -> list[SuccSyn]:
        return c

    def successor(self, c: list) -> SuccSyn:
        s = SuccSyn(str(c[0]), self.sp(c[0]))
        for x in c[1:]:
            if isinstance(x, Ops):
                s.operands = list(x)
            elif isinstance(x, list):
                s.types = x
        return s

    def properties(self, c: list) -> tuple[str, dict[str, Attribute]]:
        return ("props", c[0].entries)

    def generic_regions(self, c: list) -> list[RegionSyn]:
        regions = [x for x in c if isinstance(x, RegionSyn)]
        for r in regions:
            # `{}` in the generic form is a region without blocks (as
            # mlir-opt prints an empty `else` region), not one empty block.
            if len(r.blocks) == 1 and r.blocks[0].label is None and not r.blocks[0].ops and not r.blocks[0].args:
                r.blocks = []
        return regions

    def unknown_op(self, c: list) -> OpSyn:
        if c[-1] is None:  # a trailing punctuation lark keeps no token of (`tensor<` cut short)
            c = [x for x in c if x is not None]
        op = self._op(c[0], c)
        names: list[tuple[str, Span]] = []
        regions: list[RegionSyn] = []
        defs: list[tuple[str, Span, None]] = []
        collect_soup(c[1:], names, regions, self.anchor, defs)
        full = self.resolved.get(op.name_span.rel_start) if self.resolved else None
        if full is not None:
            op.name = full  # `yield` in a transform.sequence: transform.yield (syntax/default_dialect.py)
        got = ods_ops.parse_unknown(op, self.source, end_of(c[-1]), self.anchor, regions, self.notes, full)
        if full is not None and got == "error":
            self.resolved_failed = True  # the retry that read this name is not kept (parse_chunk)
        if got == "parsed":
            return op  # an upstream op with a declarative format (affine_lsp.ods)
        op.known = False
        if got == "skip" and not any(n.span is op.name_span for n in self.notes):
            self.note("remark", unknown_op_message(full or str(c[0])), op.name_span, code=UNKNOWN_OP_CODE)
        dialect, dot, _ = op.name.partition(".")
        if dot and not is_upstream_dialect(dialect):
            self.note("info", unregistered_custom_message(op.name), op.name_span, code=UNREGISTERED_DIALECT_CODE)
        op.operands = names
        op.regions = regions
        if defs and regions and (not regions[0].blocks or regions[0].blocks[0].label is None):
            # `(%x = %a, ...)`: `%x` is an argument of the op's region.
            set_entry_args(regions[0], defs, self.anchor)
        return op

    def soup_punct(self, c: list) -> Any:
        return c[0] if c else None

    def soup_paren(self, c: list) -> list:
        return ["soup", c]

    soup_square = soup_paren
    soup_dict = soup_paren
    soup_inner_punct = soup_punct

    def soup_eq(self, c: list) -> str:
        return SOUP_EQ

    def soup_region(self, c: list) -> RegionSyn:
        return self.region(c)

    # ------------------------------------------------------------ regions
    def region(self, c: list) -> RegionSyn:
        return RegionSyn(self.span_of(c[0], c[-1]), c[1])  # `{` blocks `}`

    def block_list(self, c: list) -> list[BlockSyn]:
        entry_ops: list[OpSyn] = c[0]
        blocks = []
        if entry_ops or len(c) == 1:
            sp = self.span_of(entry_ops[0], entry_ops[-1]) if entry_ops else Span(0, 0, self.anchor)
            blocks.append(BlockSyn(None, sp, [], entry_ops))
        blocks.extend(c[1:])
        return blocks

    def entry_ops(self, c: list) -> list[OpSyn]:
        return c

    def labeled_block(self, c: list) -> BlockSyn:
        label: Token = c[0]
        args: list = []
        ops: list[OpSyn] = []
        for x in c[1:]:
            if isinstance(x, list):
                args = x
            elif isinstance(x, OpSyn):
                ops.append(x)
        end = ops[-1] if ops else c[-1]
        label_text = str(label)
        return BlockSyn(label_text, self.span_of(label, end), args, ops)

    def block_args(self, c: list) -> list:
        return [x for x in c if isinstance(x, tuple)]

    def block_arg(self, c: list) -> tuple[str, Span, Type | None]:
        return (str(c[0]), self.sp(c[0]), c[2])

    # ------------------------------------------------------------ builtin

    def unrealized_cast(self, c: list) -> OpSyn:
        op = self._op(c[0], c, "builtin.unrealized_conversion_cast")
        if not str(c[0]).startswith("builtin."):
            # mlir-opt takes the unprefixed name as builtin's only where builtin is the default dialect
            from affine_lsp.syntax import default_dialect

            dialect = default_dialect.default_dialect_at(self.source, c[0].start_pos) if self.source else default_dialect.TOP_LEVEL
            if dialect != "builtin":
                self.note("error", default_dialect.unknown_message(str(c[0]), dialect), op.name_span, "syntax")
        op.operands = list(next((x for x in c if isinstance(x, Ops)), []))
        lists = [x for x in c if isinstance(x, list) and not isinstance(x, Ops)]
        op.result_types = list(lists[-1])
        op.operand_types = list(lists[0]) if len(lists) == 2 else None  # `%x : i64 to index`
        if isinstance(c[-1], DictAttr):
            op.attrs.update(c[-1].entries)
        return op

    # ------------------------------------------------------------ lists
    def operand_list(self, c: list) -> Ops:
        return Ops((str(t), self.sp(t)) for t in c)

    ssa_id_list = operand_list


# ---------------------------------------------------------------- driver


_TABLES: ParserTables | None = None
_TABLES_LOCK = threading.Lock()
forking.renewed_in_child(f"{__name__}._TABLES_LOCK", lambda: after_fork())


def shared_tables() -> ParserTables:
    """The parser tables of this process (:mod:`.engines`), built once,
    under a lock: the server's threads may ask at the same time (and
    lark's table format is switched for the build, see .table_cache).
    Every parse shares them; none changes them."""
    global _TABLES
    tables = _TABLES
    if tables is None:
        with _TABLES_LOCK:
            tables = _TABLES
            if tables is None:
                tables = _TABLES = build_tables(ChunkTransformer)
    return tables


def after_fork() -> None:
    """In a process just forked beside other threads (the dataflow worker,
    the child of a document opened on two processes): the locks of the
    parser's build, new (:meth:`ParserTables.after_fork`)."""
    global _TABLES_LOCK
    _TABLES_LOCK = threading.Lock()
    tables = _TABLES
    if tables is not None:
        tables.after_fork()


def get_parser() -> tuple[Lark, ParserTables]:
    """lark's parser (its rules and terminals) and the shared tables; this
    builds lark's parser when the driver's table came from its cache
    (:func:`shared_tables` does not)."""
    tables = shared_tables()
    return tables.lark, tables


class ParseResult:
    __slots__ = ("item", "notes", "resolved_failed")

    def __init__(self, item: Item | None, notes: list[Note], resolved_failed: bool = False) -> None:
        self.item = item
        self.notes = notes
        self.resolved_failed = resolved_failed  # an unprefixed op read by the default-dialect rule did not follow its format


# Ops of these dialects whose form the grammar does not know (an attribute
# or keyword it has no rule for) are skipped like ops of unknown dialects,
# never a syntax error: their grammars cover the common forms, and a false
# error on valid code costs more than a missed one. The affine, func, arith,
# math, memref, scf and cf grammars are complete: their errors stay errors.
_SOFT_DIALECT_OP = re.compile(r"(?<![\w.$%#!^@\"])(?:gpu|llvm|linalg|tensor|bufferization|transform|vector|async|nvvm|rocdl|spirv)\.[A-Za-z0-9_$.]+")
# ... except the ops of those dialects that affine code is made of (what the
# vectorizer writes, the tensor ops of the original grammar): their errors stay.
_STRICT_OPS = frozenset(
    "vector." + n
    for n in (
        "transfer_read",
        "transfer_write",
        "broadcast",
        "reduction",
        "splat",
        "load",
        "store",
        "create_mask",
        "constant_mask",
        "maskedload",
        "maskedstore",
        "extract",
        "insert",
        "fma",
        "shape_cast",
    )
) | frozenset({"tensor.empty", "tensor.dim", "tensor.extract", "tensor.insert"})
_MAX_SOFT_RETRIES = 16


def parse_chunk(text: str, anchor: Anchor) -> ParseResult:
    """Parse one top-level item. Never raises: errors become notes.

    When the first syntax error lies in an op of a dialect listed in
    ``_SOFT_DIALECT_OP``, that op is parsed again as an op of an unknown
    dialect (its name respelt, same length, so every span stays put), and
    the op keeps its name; repeated while the error moves forward."""
    result = _parse_chunk_once(text, anchor)
    written = text
    demoted: dict[int, str] = {}
    resolved: dict[int, str] = {}
    for _ in range(_MAX_SOFT_RETRIES):
        err = _first_syntax_error(result)
        if err is None:
            break
        at = err.span.rel_start
        full = _unprefixed_op(written, at, err.span.rel_end)
        if full is not None and at not in resolved:
            # An op name without its dialect that names an op there (`yield`
            # in a transform.sequence): read as that op, its name respelt as
            # an unknown op's of the same length (`y.eld`), so spans stay put.
            resolved[at] = full
            text = text[: at + 1] + "." + text[at + 2 :]
            retry = _parse_chunk_once(text, anchor, written, resolved)
            retry_err = _first_syntax_error(retry)
            if retry.resolved_failed or (retry_err is not None and retry_err.span.rel_start <= at):
                break
            result = retry
            continue
        m = None
        for found in _SOFT_DIALECT_OP.finditer(text, 0, at + 1):
            m = found  # the last op name at or before the error
        if m is None or m.start() in demoted or m.group(0) in _STRICT_OPS:
            break
        demoted[m.start()] = m.group(0)
        text = text[: m.start()] + "Z" + text[m.start() + 1 :]  # `Zpu.launch_func`: no keyword, an unknown op
        retry = _parse_chunk_once(text, anchor, written, resolved)
        retry_err = _first_syntax_error(retry)
        if retry_err is not None and retry_err.span.rel_start <= at:
            break
        result = retry
    if demoted and result.item is not None:
        _restore_names(result, demoted)
    if result.item is None:
        unknown_ops.replace_syntax_error(result.notes, written, anchor)
    return result


_BARE_OP_NAME = re.compile(r"[A-Za-z_][\w$]{2,}", re.ASCII)


def _unprefixed_op(text: str, start: int, end: int) -> str | None:
    """The op that the bare word at ``text[start:end]`` names by the
    default-dialect rule, when that is an op with a declarative format
    (the interpreter reads it) and the word can be respelt as an unknown
    op's name (three characters or more); else None."""
    if not _BARE_OP_NAME.fullmatch(text, start, end) or (start > 0 and (text[start - 1].isalnum() or text[start - 1] in '_$.%^#!@"')):
        return None
    from affine_lsp.ods import formats
    from affine_lsp.syntax import default_dialect

    full = default_dialect.resolve_at(text, start, text[start:end])
    return full if formats.lookup(full) is not None else None


def _first_syntax_error(result: ParseResult) -> Note | None:
    if result.item is not None:
        return None
    return next((n for n in result.notes if n.severity == "error" and n.code == "syntax"), None)


def _restore_names(result: ParseResult, demoted: dict[int, str]) -> None:
    """The names of the ops parsed as unknown after a respelling, back."""
    stack = [result.item]
    while stack:
        x = stack.pop()
        if isinstance(x, OpSyn):
            name = demoted.get(x.name_span.rel_start)
            if name is not None:
                x.name = name
            for r in x.regions:
                for b in r.blocks:
                    stack.extend(b.ops)
    # The respelt name's dialect is no dialect: the op's own is registered.
    result.notes[:] = [n for n in result.notes if not (n.code == UNREGISTERED_DIALECT_CODE and n.span.rel_start in demoted)]
    for n in result.notes:
        if n.code == "unknown-op":
            name = demoted.get(n.span.rel_start)
            if name is not None:
                n.message = n.message.replace("'Z" + name[1:] + "'", f"'{name}'", 1)


def _parse_chunk_once(text: str, anchor: Anchor, written: str | None = None, resolved: dict[int, str] | None = None) -> ParseResult:
    """One parse with a transformer of its own (its notes, its per-map
    names): nothing it changes is shared with another parse."""
    tables = shared_tables()
    tr = ChunkTransformer(anchor)
    tr.source = written if written is not None else text
    tr.resolved = resolved or {}
    try:
        if tables.driver is not None:
            try:
                item = tables.driver.parse(text, tr)
                return ParseResult(item, tr.notes, tr.resolved_failed)
            except (NeedsLark, SyntaxIssue):  # lark's parser reports the error (see .driver)
                tr = ChunkTransformer(anchor)
                tr.source = written if written is not None else text
                tr.resolved = resolved or {}
        item = tables.lark_parse(text, tr)
        return ParseResult(item, tr.notes, tr.resolved_failed)
    except SyntaxIssue as e:
        return ParseResult(None, tr.notes + [Note("error", e.message, e.span, "syntax")])
    except RecursionError:
        return ParseResult(None, tr.notes + [Note("error", "nesting too deep to parse", Span(0, min(len(text), 1), anchor), "too-deep")])
    except Exception as e:  # lark's errors (lark is loaded: its loop ran), or a bug in a callback
        from lark.exceptions import UnexpectedInput, VisitError

        if isinstance(e, VisitError):  # an exception inside a callback
            orig = e.orig_exc
            if isinstance(orig, SyntaxIssue):
                return ParseResult(None, tr.notes + [Note("error", orig.message, orig.span, "syntax")])
            return ParseResult(None, tr.notes + [Note("error", f"internal parser error: {orig!r}", Span(0, min(len(text), 1), anchor), "internal")])
        if isinstance(e, UnexpectedInput):
            return ParseResult(None, tr.notes + [error_note(e, text, anchor)])
        if PARSER_DEBUG:  # a bug in a callback must not take the document down
            raise
        return ParseResult(None, tr.notes + [Note("error", f"internal parser error: {e!r}", Span(0, min(len(text), 1), anchor), "internal")])


# Inherent attributes whose name in MLIR 22.1.8's generic form differs from
# the one the IR uses (the custom form's parser names them).
_GENERIC_RENAMES: dict[str, tuple[tuple[str, str], ...]] = {
    "affine.for": (("lowerBoundMap", "lower_bound"), ("upperBoundMap", "upper_bound")),
}


def _normalize_generic(op: OpSyn) -> None:
    """A generic op gets the IR shape of its custom form: the affine.for
    bound maps under the IR's names, and the operand segments of a
    consistent ``operandSegmentSizes`` (which stays, for the verifier)."""
    for old, new in _GENERIC_RENAMES.get(op.name, ()):
        if old in op.attrs and new not in op.attrs:
            op.attrs[new] = op.attrs.pop(old)
    seg = op.attrs.get("operandSegmentSizes")
    if op.segments is None and isinstance(seg, DenseArrayAttr) and all(isinstance(v, int) and v >= 0 for v in seg.values):
        sizes = tuple(int(v) for v in seg.values)
        if sum(sizes) == len(op.operands):
            op.segments = sizes
