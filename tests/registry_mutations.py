"""Mutations of valid ops for the op registry's differential test (issue #32).

From every valid section of the corpus, mlir-opt 22.1.8 prints the generic
form (``--mlir-print-op-generic``); the first single-line occurrence of each
op of an upstream dialect is mutated, one mutation per section (the rest of
the section unchanged, so every line keeps its number):

* ``misspelt``: the name with its last letter doubled (generic form), and
  the same in the custom form of the original text;
* ``removed``: ``tensor.pack`` (gone from 22.1.8) in place of the name, in
  the custom form of the original text;
* ``drop-operand`` / ``add-operand``: the last operand dropped, the first
  one repeated (with their types);
* ``add-region``: an empty region added;
* ``drop-attr:<name>``: one inherent attribute dropped (required or not:
  mlir-opt decides).
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass

from affine_lsp.ir import op_registry
from tests import oracle
from tests.corpus import valid_sections

SPLIT = "// -----\n"


@dataclass(frozen=True)
class Mutation:
    origin: str  # corpus section
    op: str
    kind: str
    text: str  # the whole mutated section
    line: int  # 1-based line of the mutated op in ``text``
    base: str  # the section before the mutation


@dataclass
class GenericOp:
    indent: str
    results: str  # `%0 = ` or ""
    name: str
    operands: list[str]
    props: str | None  # the inside of `<{...}>`
    attrs: str | None  # the inside of `{...}`
    inputs: list[str]
    rest: str  # ` -> ...`

    def text(self) -> str:
        s = f'{self.indent}{self.results}"{self.name}"({", ".join(self.operands)})'
        if self.props is not None:
            s += f" <{{{self.props}}}>"
        if self.attrs is not None:
            s += f" {{{self.attrs}}}"
        return s + f" : ({', '.join(self.inputs)}){self.rest}"


_CLOSE = {"(": ")", "[": "]", "{": "}", "<": ">"}


def _balanced(s: str, i: int) -> int:
    """The index just past the bracket group opening at ``s[i]``."""
    stack = []
    quoted = False
    j = i
    while j < len(s):
        ch = s[j]
        if quoted:
            if ch == "\\":
                j += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in _CLOSE:
            stack.append(_CLOSE[ch])
        elif stack and ch == stack[-1] and not (ch == ">" and (s[j - 1] == "-" or s[j + 1 : j + 2] == "=")):
            stack.pop()
            if not stack:
                return j + 1
        j += 1
    raise ValueError("unbalanced")


def split_top(s: str) -> list[str]:
    """``s`` split at its top-level commas."""
    out, depth, cur, quoted = [], 0, "", False
    i = 0
    while i < len(s):
        ch = s[i]
        if quoted:
            if ch == "\\":
                cur += ch
                i += 1
                ch = s[i]
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>" and not (ch == ">" and (s[i - 1] == "-" or s[i + 1 : i + 2] == "=")):
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            i += 1
            continue
        cur += ch
        i += 1
    if cur.strip():
        out.append(cur.strip())
    return out


_HEAD = re.compile(r'^(\s*)((?:%[\w$.-]+(?::\d+)?(?:, %[\w$.-]+(?::\d+)?)* = )?)"([\w.$]+)"\(')


def parse_generic(line: str) -> GenericOp | None:
    """A single-line generic op without successors or regions, else None."""
    m = _HEAD.match(line)
    if m is None:
        return None
    try:
        i = m.end() - 1
        j = _balanced(line, i)
        operands = split_top(line[i + 1 : j - 1])
        props = attrs = None
        k = j
        if line.startswith(" <{", k):
            e = _balanced(line, k + 1)
            props = line[k + 3 : e - 2]
            k = e
        if line.startswith(" {", k):
            e = _balanced(line, k + 1)
            attrs = line[k + 2 : e - 1]
            k = e
        if not line.startswith(" : (", k):
            return None
        e = _balanced(line, k + 3)
        inputs = split_top(line[k + 4 : e - 1])
        rest = line[e:]
        if not rest.startswith(" -> ") or len(inputs) != len(operands):
            return None
    except (ValueError, IndexError):
        return None
    return GenericOp(m.group(1), m.group(2), m.group(3), operands, props, attrs, inputs, rest)


def generic_sections() -> list[tuple[str, str, str]]:
    """``(name, original text, generic text)`` of every valid corpus section
    that mlir-opt prints in the generic form (a run per section: some
    sections hold a ``// -----`` line of their own)."""
    found = oracle.mlir_opt()
    assert found is not None
    exe, env = found
    out = []
    for name, text in valid_sections():
        if SPLIT.strip() in text:
            continue
        # (mlir-opt 22.1.8 reports every `expected-*` comment as not
        # produced, and exits 0.)
        p = subprocess.run(
            [str(exe), "-", "--allow-unregistered-dialect", "--mlir-print-op-generic"], input=text, env=env, capture_output=True, text=True, timeout=120
        )
        if p.returncode == 0:
            out.append((name, text, p.stdout))
    return out


def _custom_line(text: str, name: str) -> int | None:
    pat = re.compile(rf"(^\s*(?:%[\w$.:, %-]+= )?){re.escape(name)}(?=[\s(<{{\[]|$)")
    for k, line in enumerate(text.split("\n")):
        if pat.match(line):
            return k
    return None


def mutations() -> list[Mutation]:
    out: list[Mutation] = []
    seen: set[str] = set()
    seen_custom: set[str] = set()
    for origin, original, generic in generic_sections():
        lines = generic.split("\n")
        for k, line in enumerate(lines):
            op = parse_generic(line)
            if op is None or op.name in seen:
                continue
            info = op_registry.lookup(op.name)
            if info is None or not info.structured or op.name == "builtin.module":
                continue
            seen.add(op.name)

            def mutate(kind: str, new: GenericOp | str, k: int = k, op: GenericOp = op, lines: list[str] = lines, origin: str = origin) -> None:
                body = list(lines)
                body[k] = new if isinstance(new, str) else new.text()
                out.append(Mutation(origin, op.name, kind, "\n".join(body), k + 1, "\n".join(lines)))

            wrong = op.name + op.name[-1]
            if op_registry.lookup(wrong) is None:
                mutate("misspelt", GenericOp(op.indent, op.results, wrong, op.operands, op.props, op.attrs, op.inputs, op.rest))
            if op.operands:
                mutate("drop-operand", GenericOp(op.indent, op.results, op.name, op.operands[:-1], op.props, op.attrs, op.inputs[:-1], op.rest))
                mutate(
                    "add-operand",
                    GenericOp(op.indent, op.results, op.name, [*op.operands, op.operands[0]], op.props, op.attrs, [*op.inputs, op.inputs[0]], op.rest),
                )
            mutate("add-region", op.text().replace(f" : ({', '.join(op.inputs)})", f" ({{}}) : ({', '.join(op.inputs)})", 1))
            for field in ("props", "attrs"):
                entries = split_top(getattr(op, field) or "")
                for idx, entry in enumerate(entries):
                    attr = entry.split("=", 1)[0].strip()
                    if attr in ("operandSegmentSizes", "resultSegmentSizes") or attr not in {a.name for a in info.attributes}:
                        continue
                    kept = ", ".join(e for j, e in enumerate(entries) if j != idx)
                    new = GenericOp(op.indent, op.results, op.name, op.operands, op.props, op.attrs, op.inputs, op.rest)
                    setattr(new, field, kept if kept else None)
                    mutate(f"drop-attr:{attr}", new)
        # The custom form: a misspelt name, a removed op.
        for name in sorted({m.group(1) for m in re.finditer(r"\b([a-z_]+\.[a-z_.]+)\b", original)}):
            if name in seen_custom or op_registry.lookup(name) is None or not op_registry.is_upstream_dialect(name.split(".")[0]):
                continue
            if name in ("builtin.module", "func.func"):
                continue
            k = _custom_line(original, name)
            if k is None:
                continue
            seen_custom.add(name)
            body = original.split("\n")
            for kind, new_name in (("custom-misspelt", name + name[-1]), ("custom-removed", "tensor.pack")):
                if op_registry.lookup(new_name) is not None:
                    continue
                changed = list(body)
                changed[k] = body[k].replace(name, new_name, 1)
                out.append(Mutation(origin, name, kind, "\n".join(changed), k + 1, original))
    return out
