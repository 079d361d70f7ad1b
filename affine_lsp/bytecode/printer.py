"""Printing what the reader built in MLIR's generic form:

``%0, %1 = "dialect.op"(%a, %b)[^bb1] <{props}> ({...}) {attrs} : (types) -> (types)``

except for ``module``, ``func.func`` and ``affine.for``, printed in their
custom syntax. mlir-opt and affine-lsp's parser read it back. Values are numbered in
definition order (``%0``, ``%1``, ...), blocks ``^bbN``; locations are
not printed (as ``mlir-opt`` does by default).
"""

from __future__ import annotations

import re

from affine_lsp.bytecode.builtin import dict_text, escape_string, function_type, symbol_name
from affine_lsp.bytecode.errors import BytecodeError
from affine_lsp.bytecode.model import Attr, Block, Module, Op, Region, Resource


class _Printer:
    def __init__(self, module: Module) -> None:
        self.module = module
        self.lines: list[str] = []

    def type_of(self, name: str, op: Op) -> str:
        t = self.module.value_types.get(name)
        if t is None:
            raise BytecodeError(f"operand {name} of '{op.name}' is never defined")
        return t

    def op(self, op: Op, indent: str) -> None:
        custom = _CUSTOM.get(op.name)
        if custom is not None and custom(self, op, indent):
            return
        head = indent
        if op.results:
            head += ", ".join(op.results) + " = "
        head += escape_string(op.name.encode()) + "(" + ", ".join(op.operands) + ")"
        if op.successors:
            head += "[" + ", ".join(op.successors) + "]"
        if isinstance(op.properties, Attr):
            head += f" <{op.properties.text}>"
        elif op.properties:
            head += " <" + dict_text(sorted(op.properties, key=lambda kv: kv[0])) + ">"
        tail = ""
        if op.attributes is not None and op.attributes.text != "{}":
            tail += " " + op.attributes.text
        sig = function_type([self.type_of(v, op) for v in op.operands], op.result_types)
        tail += " : " + sig
        if not op.regions:
            self.lines.append(head + tail)
            return
        self.lines.append(head + " (")
        for k, region in enumerate(op.regions):
            self.region(region, indent, k == 0)
            if k + 1 < len(op.regions):
                self.lines[-1] += ","
        self.lines[-1] += ")" + tail

    def region(self, region: Region, indent: str, first: bool) -> None:
        self.lines[-1] += "{" if first else " {"
        many = len(region.blocks) > 1
        for block in region.blocks:
            self.block(block, indent, many)
        self.lines.append(indent + "}")

    def body(self, region: Region, indent: str, implicit: str | None = None) -> None:
        """The ops of a single-block region whose entry block is implicit;
        a last ``implicit`` op without operands is left out (the custom
        syntax leaves that terminator implicit)."""
        ops = region.blocks[0].ops
        last = ops[-1] if ops else None
        if last is not None and last.name == implicit and not last.operands and not last.results and not last.properties and last.attributes is None:
            ops = ops[:-1]
        for op in ops:
            self.op(op, indent + "  ")
        self.lines.append(indent + "}")

    def block(self, block: Block, indent: str, labelled: bool) -> None:
        if block.args or labelled or not block.ops:  # `{}` would be a region without blocks
            args = "(" + ", ".join(f"{n}: {t}" for n, t in block.args) + ")" if block.args else ""
            self.lines.append(f"{indent}{block.label}{args}:")
        for op in block.ops:
            self.op(op, indent + "  ")

    def resources(self) -> None:
        groups: list[tuple[str, list[str]]] = []
        by_dialect: dict[str, list[Resource]] = {}
        for r in self.module.resources:
            if r.value is not None:
                by_dialect.setdefault(r.dialect, []).append(r)
        if by_dialect:
            body = []
            for dialect, entries in by_dialect.items():
                body.append(f"    {dialect}: {{")
                body.append(",\n".join(f"      {r.key}: {_resource_value(r)}" for r in entries))
                body.append("    }")
            groups.append(("dialect_resources", body))
        external = [(k, [r for r in rs if r.value is not None]) for k, rs in self.module.external_resources]
        external = [(k, rs) for k, rs in external if rs]
        if external:
            body = []
            for key, entries in external:
                body.append(f"    {key}: {{")
                body.append(",\n".join(f"      {r.key}: {_resource_value(r)}" for r in entries))
                body.append("    }")
            groups.append(("external_resources", body))
        if not groups:
            return
        self.lines.append("")
        self.lines.append("{-#")
        for k, (name, body) in enumerate(groups):
            self.lines.append(f"  {name}: {{")
            self.lines.extend(body)
            self.lines.append("  }" + ("," if k + 1 < len(groups) else ""))
        self.lines.append("#-}")


# ---------------------------------------------------------------- custom forms
#
# The ops that frame affine code print in their custom syntax (a module, a
# function, an affine.for), which every consumer reads best (and the
# transforms rewrite); everything else stays generic. A form that does not
# fit (unusual properties, several blocks) falls back to the generic one.

_MAP = re.compile(r"affine_map<\(([^()]*)\)(?:\[([^\]]*)\])? -> \((.*)\)>\Z")


def _props(op: Op) -> dict[str, Attr]:
    return dict(op.properties) if isinstance(op.properties, list) else {}


def _discardable(op: Op) -> str:
    return op.attributes.text if op.attributes is not None and op.attributes.text != "{}" else ""


def _single_block(op: Op) -> bool:
    return len(op.regions) == 1 and len(op.regions[0].blocks) == 1


def _top_split(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside brackets."""
    parts, depth, cur, k = [], 0, [], 0
    while k < len(text):
        ch = text[k]
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>" and not (ch == ">" and text[k - 1 : k] == "-"):
            depth -= 1
        if depth == 0 and text.startswith(sep, k):
            parts.append("".join(cur))
            cur = []
            k += len(sep)
            continue
        cur.append(ch)
        k += 1
    parts.append("".join(cur))
    return parts


def _symbol(a: Attr) -> str | None:
    raw = getattr(a, "_raw", None)
    return symbol_name(raw) if raw is not None else None


def _print_module(p: _Printer, op: Op, indent: str) -> bool:
    props = _props(op)
    if set(props) - {"sym_name"} or not _single_block(op) or op.regions[0].blocks[0].args or op.operands or op.results:
        return False
    head = "module"
    if "sym_name" in props:
        name = _symbol(props["sym_name"])
        if name is None:
            return False
        head += " " + name
    if _discardable(op):
        head += " attributes " + _discardable(op)
    p.lines.append(f"{indent}{head} {{")
    p.body(op.regions[0], indent)
    return True


def _print_func(p: _Printer, op: Op, indent: str) -> bool:
    props = _props(op)
    if set(props) - {"sym_name", "function_type", "sym_visibility"} or len(op.regions) != 1 or op.operands or op.results:
        return False
    name = _symbol(props["sym_name"]) if "sym_name" in props else None
    ftype = props.get("function_type")
    if name is None or ftype is None:
        return False
    sides = _top_split(ftype.text, " -> ")
    if len(sides) != 2 or not sides[0].startswith("("):
        return False
    inputs, results = sides[0][1:-1], sides[1]
    head = "func.func "
    if "sym_visibility" in props:
        head += props["sym_visibility"].text.strip('"') + " "
    blocks = op.regions[0].blocks
    if blocks:
        if len(blocks) != 1:
            return False
        head += name + "(" + ", ".join(f"{n}: {t}" for n, t in blocks[0].args) + ")"
    else:
        head += f"{name}({inputs})"
    if results != "()":
        head += " -> " + results
    if _discardable(op):
        head += " attributes " + _discardable(op)
    if not blocks:
        p.lines.append(indent + head)
        return True
    p.lines.append(f"{indent}{head} {{")
    p.body(op.regions[0], indent)
    return True


def _bound(m: Attr, operands: list[str], lower: bool) -> str | None:
    got = _MAP.match(m.text)
    if not got:
        return None
    dims = [d for d in (x.strip() for x in got.group(1).split(",")) if d]
    syms = [s for s in (x.strip() for x in (got.group(2) or "").split(",")) if s]
    results = [r.strip() for r in _top_split(got.group(3), ",")]
    if len(dims) + len(syms) != len(operands) or not results:
        return None
    if len(results) == 1 and not operands and re.fullmatch(r"-?\d+", results[0]):
        return results[0]
    if len(results) == 1 and not dims and len(syms) == 1 and results[0] == syms[0]:
        return operands[0]  # `%n` alone is a symbol
    use = m.text + "(" + ", ".join(operands[: len(dims)]) + ")"
    if syms:
        use += "[" + ", ".join(operands[len(dims) :]) + "]"
    return ("max " if lower else "min ") + use if len(results) > 1 else use


def _print_affine_for(p: _Printer, op: Op, indent: str) -> bool:
    props = _props(op)
    if set(props) != {"lowerBoundMap", "upperBoundMap", "step", "operandSegmentSizes"} or not _single_block(op):
        return False
    segs = [int(v) for v in re.findall(r"-?\d+", props["operandSegmentSizes"].text.partition(":")[2])]
    block = op.regions[0].blocks[0]
    if len(segs) != 3 or sum(segs) != len(op.operands) or len(block.args) != 1 + segs[2] or len(op.results) != segs[2]:
        return False
    lb = _bound(props["lowerBoundMap"], op.operands[: segs[0]], True)
    ub = _bound(props["upperBoundMap"], op.operands[segs[0] : segs[0] + segs[1]], False)
    step = re.fullmatch(r"(\d+) : index", props["step"].text)
    if lb is None or ub is None or step is None:
        return False
    head = indent + (", ".join(op.results) + " = " if op.results else "")
    head += f"affine.for {block.args[0][0]} = {lb} to {ub}"
    if step.group(1) != "1":
        head += f" step {step.group(1)}"
    if segs[2]:
        inits = op.operands[segs[0] + segs[1] :]
        head += " iter_args(" + ", ".join(f"{a} = {v}" for (a, _), v in zip(block.args[1:], inits, strict=True)) + ")"
        head += " -> " + (op.result_types[0] if len(op.result_types) == 1 else "(" + ", ".join(op.result_types) + ")")
    p.lines.append(head + " {")
    p.body(op.regions[0], indent, "affine.yield")
    if _discardable(op):
        p.lines[-1] += " " + _discardable(op)
    return True


_CUSTOM = {"builtin.module": _print_module, "func.func": _print_func, "affine.for": _print_affine_for}


def _resource_value(r: Resource) -> str:
    if r.kind == 0:
        alignment, data = r.value  # type: ignore[misc]
        return '"0x' + alignment.to_bytes(4, "little").hex().upper() + data.hex().upper() + '"'
    if r.kind == 1:
        return "true" if r.value else "false"
    return escape_string(r.value)  # type: ignore[arg-type]


def print_module(module: Module) -> str:
    """The MLIR text of a module read from bytecode."""
    p = _Printer(module)
    for op in module.ops:
        p.op(op, "")
    p.resources()
    return "\n".join(p.lines) + "\n"
