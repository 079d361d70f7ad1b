"""Printing what the reader built in MLIR's generic form:

``%0, %1 = "dialect.op"(%a, %b)[^bb1] <{props}> ({...}) {attrs} : (types) -> (types)``

mlir-opt and affine-lsp's parser read it back. Values are numbered in
definition order (``%0``, ``%1``, ...), blocks ``^bbN``; locations are
not printed (as ``mlir-opt`` does by default).
"""

from __future__ import annotations

from affine_lsp.bytecode.builtin import dict_text, escape_string, function_type
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
