"""Code generation for "Optimize loop nest": isl's AST back into affine ops.

``isl.AstBuild.node_from_schedule`` turns the new schedule into an AST of
``for`` / ``if`` / block / user nodes; this module prints it as MLIR:

* a ``for`` node becomes an ``affine.for`` whose lower bound is the ``max``
  of the terms of its init and whose upper bound is the ``min`` of the terms
  of its condition (plus one for ``<=``); its step is the increment;
* an ``if`` node becomes an ``affine.if`` on an integer set (a disjunction
  is split: ``if (a || b) T else E`` is ``if a T else (if b T else E)``);
* ``floord`` / ``pdiv_q`` / ``fdiv_q`` / exact ``/`` by a constant become
  ``floordiv``, ``pdiv_r`` / ``zdiv_r`` become ``mod``;
* a user node is a copy of its statement's ops: an original IV that a loop
  runs over directly is renamed to that loop's IV (which keeps the IV's
  name), any other one is an ``affine.apply`` of the new IVs (an
  ``arith.constant`` when it is a constant); values defined in the statement
  get fresh names when the statement appears more than once;
* the names of the nest's own values are kept for them: a new loop (a tile
  loop ``%i_t``, a skewed ``%c``) never takes the name of a value of the
  nest, nor does a second copy of a statement, so that no value the user
  named is renamed;
* a loop with constant bounds whose upper bound isl wrote off the step
  (``0 to 225 step 128``: two trips) ends at ``lower + trips * step``
  (``0 to 256 step 128``), unless the original nest has that bound.

Expressions are built with the one affine-expression model
(:mod:`affine_lsp.ir.affine_expr`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import islpy as isl

from affine_lsp.ir.affine_expr import AffineExpr, AffineMap, IntegerSet, constant, dim, symbol
from affine_lsp.ir.core import Operation
from affine_lsp.transforms.edits import line_start
from affine_lsp.transforms.optimize_model import NestModel, Refused, Statement
from affine_lsp.transforms.rewrite import NameGen

_SSA = re.compile(r"%[A-Za-z0-9_$.\-]+")
_OP = isl.ast_expr_op_type
_NODE = isl.ast_node_type

Tree = tuple  # ("id", name) | ("int", value) | (op name, [args])


def _tree(e: isl.AstExpr) -> Tree:
    t = e.get_type()
    if t == isl.ast_expr_type.id:
        return ("id", e.get_id().get_name())
    if t == isl.ast_expr_type.int:
        return ("int", e.get_val().to_python())
    op = e.get_op_type()
    args = [_tree(e.get_op_arg(k)) for k in range(e.get_op_n_arg())]
    for name in (
        "add",
        "sub",
        "mul",
        "minus",
        "fdiv_q",
        "pdiv_q",
        "pdiv_r",
        "zdiv_r",
        "div",
        "max",
        "min",
        "and_",
        "and_then",
        "or_",
        "or_else",
        "eq",
        "le",
        "lt",
        "ge",
        "gt",
        "call",
    ):
        if op == getattr(_OP, name):
            return (name.rstrip("_"), args)
    raise Refused(f"isl's code generator produced an expression affine maps cannot hold ({e.to_C_str()})")


class _Operands:
    """The dims (loop IVs) and symbols (parameters) of one map or set."""

    def __init__(self, scope: dict[str, str], params: dict[str, str]) -> None:
        self.scope = scope  # isl iterator -> SSA name
        self.params = params  # isl parameter -> SSA name
        self.dims: list[str] = []
        self.syms: list[str] = []

    def expr(self, t: Tree) -> AffineExpr:
        kind = t[0]
        if kind == "int":
            return constant(int(t[1]))
        if kind == "id":
            name = t[1]
            if name in self.scope:
                v = self.scope[name]
                if v not in self.dims:
                    self.dims.append(v)
                return dim(self.dims.index(v))
            if name in self.params:
                v = self.params[name]
                if v not in self.syms:
                    self.syms.append(v)
                return symbol(self.syms.index(v))
            raise Refused(f"the generated code uses '{name}', which is neither a loop nor a parameter")
        args = t[1]
        if kind == "add":
            return self.expr(args[0]) + self.expr(args[1])
        if kind == "sub":
            return self.expr(args[0]) - self.expr(args[1])
        if kind == "minus":
            return -self.expr(args[0])
        if kind == "mul":
            a, b = self.expr(args[0]), self.expr(args[1])
            if not (a.is_constant() or b.is_constant()):
                raise Refused("the generated code multiplies two loop variables")
            return a * b
        if kind in ("fdiv_q", "pdiv_q", "div", "pdiv_r", "zdiv_r"):
            a, b = self.expr(args[0]), self.expr(args[1])
            if not b.is_constant() or b.value <= 0:  # type: ignore[attr-defined]
                raise Refused("the generated code divides by a non-constant")
            return a.floordiv(b) if kind in ("fdiv_q", "pdiv_q", "div") else a.mod(b)
        raise Refused(f"the generated code has a '{kind}' where an affine expression is needed")

    def operands(self) -> str:
        out = f"({', '.join(self.dims)})"
        if self.syms:
            out += f"[{', '.join(self.syms)}]"
        return out


def _flatten(t: Tree, kind: str) -> list[Tree]:
    if t[0] == kind:
        return [x for a in t[1] for x in _flatten(a, kind)]
    return [t]


def _conjuncts(t: Tree) -> list[Tree]:
    if t[0] in ("and", "and_then"):
        return [x for a in t[1] for x in _conjuncts(a)]
    return [t]


def _disjuncts(t: Tree) -> list[Tree]:
    if t[0] in ("or", "or_else"):
        return [x for a in t[1] for x in _disjuncts(a)]
    return [t]


class Codegen:
    def __init__(self, text: str, model: NestModel, names: NameGen, params: dict[str, str]) -> None:
        self.text = text
        self.model = model
        self.names = names
        self.params = params
        self.stmts: dict[str, Statement] = {s.name: s for s in model.statements}
        self.iter_names: dict[str, str] = {}
        self.lines: list[str] = []
        self.instances: dict[str, int] = {}
        # the names of the nest's values: only the value that had one gets it
        self.reserved: set[str] = {iv.name for s in model.statements for iv in s.ivs}
        for s in model.statements:
            self.reserved.update(_defined_names([*s.index_ops, *s.ops]))
        self.bound_constants = _bound_constants(model.roots)

    def _name(self, base: str, own: bool = True) -> str:
        """``base`` itself when it is the name of a value of the nest that
        takes it back (``own``: the value, its copy, or a loop over that
        IV) and no copy has it yet, else a fresh name that is no name of the
        nest (see :attr:`reserved`)."""
        cand = "%" + base.lstrip("%")
        if own and cand in self.reserved and cand not in self.names.taken:
            self.names.taken.add(cand)
            return cand
        extra = self.reserved - self.names.taken
        self.names.taken |= extra
        try:
            return self.names.fresh(cand)
        finally:
            self.names.taken -= extra

    # ------------------------------------------------------------ naming
    def _base(self, node: isl.AstNode, it: str) -> str:
        """The name a loop over ``it`` takes: the original IV a statement
        inside uses it as, else ``<name of the loop it tiles>_t``."""
        tiles: list[isl.AstNode] = []
        found = self._direct(node.for_get_body(), it, tiles)
        if found is not None:
            return found
        for inner in tiles:
            return self._base(inner, inner.for_get_iterator().get_id().get_name()) + "_t"
        return "c"

    def _direct(self, node: isl.AstNode, it: str, tiles: list[isl.AstNode]) -> str | None:
        t = node.get_type()
        if t == _NODE.for_:
            if ("id", it) in _flatten(_tree(node.for_get_init()), "max"):
                tiles.append(node)
            return self._direct(node.for_get_body(), it, tiles)
        if t == _NODE.if_:
            got = self._direct(node.if_get_then_node(), it, tiles)
            if got is None and node.if_has_else_node():
                got = self._direct(node.if_get_else_node(), it, tiles)
            return got
        if t == _NODE.block:
            children = node.block_get_children()
            for k in range(children.n_ast_node()):
                got = self._direct(children.get_at(k), it, tiles)
                if got is not None:
                    return got
            return None
        if t == _NODE.mark:
            return self._direct(node.mark_get_node(), it, tiles)
        if t == _NODE.user:
            call = _tree(node.user_get_expr())
            st = self.stmts[call[1][0][1]]
            for k, arg in enumerate(call[1][1:]):
                if arg == ("id", it):
                    return st.ivs[k].name
        return None

    # ------------------------------------------------------------ printing
    def generate(self, root: isl.AstNode, indent: str) -> str:
        self._node(root, indent, {})
        return "\n".join(self.lines)

    def _node(self, node: isl.AstNode, ind: str, scope: dict[str, str]) -> None:
        t = node.get_type()
        if t == _NODE.block:
            children = node.block_get_children()
            for k in range(children.n_ast_node()):
                self._node(children.get_at(k), ind, scope)
        elif t == _NODE.mark:
            self._node(node.mark_get_node(), ind, scope)
        elif t == _NODE.for_:
            self._for(node, ind, scope)
        elif t == _NODE.if_:
            then = node.if_get_then_node()
            other = node.if_get_else_node() if node.if_has_else_node() else None
            self._if(_disjuncts(_tree(node.if_get_cond())), then, other, ind, scope)
        elif t == _NODE.user:
            self._user(_tree(node.user_get_expr()), ind, scope)
        else:
            raise Refused("isl's code generator produced a node affine ops cannot hold")

    def _for(self, node: isl.AstNode, ind: str, scope: dict[str, str]) -> None:
        it = node.for_get_iterator().get_id().get_name()
        inc = _tree(node.for_get_inc())
        if inc[0] != "int" or inc[1] < 1:
            raise Refused("the generated loop has a non-constant step")
        lo = _Operands(scope, self.params)
        lows = [lo.expr(x).simplify() for x in _flatten(_tree(node.for_get_init()), "max")]
        up = _Operands(scope, self.params)
        ups: list[AffineExpr] = []
        for c in _conjuncts(_tree(node.for_get_cond())):
            kind, args = c[0], c[1]
            if kind in ("le", "lt") and args[0] == ("id", it):
                rhs = args[1]
            elif kind in ("ge", "gt") and args[1] == ("id", it):
                rhs = args[0]
            else:
                raise Refused("the generated loop has a condition that is not an upper bound")
            extra = 1 if kind in ("le", "ge") else 0
            ups += [(up.expr(x) + extra).simplify() for x in _flatten(rhs, "min")]
        base = self._base(node, it)
        name = self._name(base, own=any(iv.name == base for s in self.model.statements for iv in s.ivs))
        inner = dict(scope)
        inner[it] = name
        step = f" step {inc[1]}" if inc[1] != 1 else ""
        if len(lows) == 1 == len(ups) and lows[0].is_constant() and ups[0].is_constant() and not lo.dims and not lo.syms and not up.dims and not up.syms:
            lb, ub = lows[0].value, ups[0].value  # type: ignore[attr-defined]
            trips = max(0, -(-(ub - lb) // inc[1]))
            if trips and ub not in self.bound_constants:
                ups = [constant(lb + trips * inc[1])]
        self.lines.append(f"{ind}affine.for {name} = {_bound(lows, lo, 'max')} to {_bound(ups, up, 'min')}{step} {{")
        self._node(node.for_get_body(), ind + "  ", inner)
        self.lines.append(f"{ind}}}")

    def _if(self, disjuncts: list[Tree], then: isl.AstNode, other: isl.AstNode | None, ind: str, scope: dict[str, str]) -> None:
        ops = _Operands(scope, self.params)
        cons: list[AffineExpr] = []
        eqs: list[bool] = []
        for c in _conjuncts(disjuncts[0]):
            kind, args = c[0], c[1]
            if kind not in ("eq", "le", "lt", "ge", "gt"):
                raise Refused(f"the generated condition has a '{kind}'")
            a, b = ops.expr(args[0]), ops.expr(args[1])
            e = {"eq": a - b, "le": b - a, "lt": b - a - 1, "ge": a - b, "gt": a - b - 1}[kind]
            cons.append(e.simplify())
            eqs.append(kind == "eq")
        iset = IntegerSet(len(ops.dims), len(ops.syms), cons, eqs)
        self.lines.append(f"{ind}affine.if affine_set<{iset}>{ops.operands()} {{")
        self._node(then, ind + "  ", scope)
        rest = disjuncts[1:]
        if rest or other is not None:
            self.lines.append(f"{ind}}} else {{")
            if rest:
                self._if(rest, then, other, ind + "  ", scope)
            else:
                assert other is not None
                self._node(other, ind + "  ", scope)
        self.lines.append(f"{ind}}}")

    def _user(self, call: Tree, ind: str, scope: dict[str, str]) -> None:
        st = self.stmts[call[1][0][1]]
        args = call[1][1:]
        rename: dict[str, str] = {}
        for iv, arg in zip(st.ivs, args):
            if arg[0] == "id" and arg[1] in scope:
                rename[iv.name] = scope[arg[1]]
                continue
            ops = _Operands(scope, self.params)
            e = ops.expr(arg).simplify()
            new = self._name(iv.name)
            if e.is_constant():
                self.lines.append(f"{ind}{new} = arith.constant {e.value} : index")  # type: ignore[attr-defined]
            else:
                self.lines.append(f"{ind}{new} = affine.apply affine_map<{AffineMap(len(ops.dims), len(ops.syms), [e])}>{ops.operands()}")
            rename[iv.name] = new
        local = _defined_names([*st.index_ops, *st.ops])
        for n in local:
            rename[n] = self._name(n)
        for op in [*st.index_ops, *st.ops]:
            src = _op_text(self.text, op, ind)
            self.lines.append(_SSA.sub(lambda m: rename.get(m.group(0), m.group(0)), src))


def _bound(terms: Sequence[AffineExpr], ops: _Operands, kw: str) -> str:
    if len(terms) == 1 and terms[0].is_constant() and not ops.dims and not ops.syms:
        return str(terms[0].value)  # type: ignore[attr-defined]
    if len(terms) == 1 and not ops.dims and len(ops.syms) == 1 and str(terms[0]) == "s0":
        return ops.syms[0]  # the shorthand `to %n`
    m = AffineMap(len(ops.dims), len(ops.syms), list(terms))
    prefix = f"{kw} " if len(terms) > 1 else ""
    return f"{prefix}affine_map<{m}>{ops.operands()}"


def _bound_constants(roots: Sequence[Operation]) -> set[int]:
    """The constants the loop bounds of ``roots`` are written with."""
    from affine_lsp.ir.affine_ops import ForView

    out: set[int] = set()
    for r in roots:
        for op in r.walk():
            if op.name != "affine.for":
                continue
            f = ForView(op)
            for b in (f.lower, f.upper):
                for e in b.map.results:
                    if e.is_constant():
                        out.add(e.value)  # type: ignore[attr-defined]
    return out


def _defined_names(ops: Sequence[Operation]) -> list[str]:
    out: list[str] = []
    for op in ops:
        for inner in op.walk():
            for r in inner.results:
                base = r.name.split("#", 1)[0]
                if base.startswith("%") and base not in out:
                    out.append(base)
            for region in inner.regions:
                for block in region.blocks:
                    for a in block.arguments:
                        if a.name.startswith("%") and a.name not in out:
                            out.append(a.name)
    return out


def _op_text(text: str, op: Operation, ind: str) -> str:
    """The op's text, re-indented to ``ind``."""
    s = line_start(text, op.span.start)
    old = text[s : op.span.start]
    old = old if not old.strip() else ""
    lines = text[op.span.start : op.span.end].split("\n")
    out = [ind + lines[0]]
    for line in lines[1:]:
        out.append(ind + line[len(old) :] if line.startswith(old) else ind + line.lstrip())
    return "\n".join(out)
