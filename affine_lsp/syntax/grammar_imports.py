"""The ``%import`` lines of ``grammar/mlir.lark``, computed from the family
grammars beside it.

lark prefixes every name of an imported file with the file's name unless
the name is listed in the ``%import``: a family file's rules and
terminals must all be listed (the transformer finds its methods, the lexer
its keywords, by their names), and so must every name the file uses but
does not define (so that it is mlir.lark's, or another family's). This
module computes those lists from the files themselves; ``python -m
affine_lsp.syntax.grammar_imports`` writes them into mlir.lark (between
the ``// generated imports`` markers) and ``--check`` fails when the file
is not up to date (``tests/test_grammar_imports.py`` runs it).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from affine_lsp.atomic_write import write_atomic

BEGIN = "// ---- generated imports: python -m affine_lsp.syntax.grammar_imports (do not edit)"
END = "// ---- end of generated imports"

_DEFINITION = re.compile(r"^[?!]?([A-Za-z_][A-Za-z0-9_]*)(?:\.-?\d+)?\s*:", re.M)
# What a rule body refers to: names outside strings, regular expressions,
# comments and aliases (`-> name`).
_SKIP = re.compile(r'"(?:[^"\\]|\\.)*"i?|/(?:[^/\\\n]|\\.)+/[imslux]*|//[^\n]*|->\s*[a-z_][a-z0-9_]*')
_COMMENT_OR_STRING = re.compile(r'"(?:[^"\\]|\\.)*"i?|//[^\n]*')
_DEFINITION_OR_ALIAS = re.compile(r"^[?!]?([A-Za-z_][A-Za-z0-9_]*)(?:\.-?\d+)?\s*:|->\s*([a-z_][a-z0-9_]*)", re.M)
_NAME = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")


def family_names(text: str) -> tuple[list[str], list[str]]:
    """The names a family grammar defines (rules, terminals and rule
    aliases, in file order) and those it uses without defining them
    (sorted)."""
    clean = _COMMENT_OR_STRING.sub(" ", text)
    defined = list(dict.fromkeys(m.group(1) or m.group(2) for m in _DEFINITION_OR_ALIAS.finditer(clean)))
    body = _SKIP.sub(" ", text)
    used = set()
    for line in body.splitlines():
        if line.lstrip().startswith("%"):
            continue
        m = _DEFINITION.match(line)
        used.update(_NAME.findall(line[m.end() :] if m else line))
    return defined, sorted(used - set(defined))


def import_line(family: str, text: str) -> str:
    defined, used = family_names(text)
    return f"%import .{family} ({', '.join(defined + used)})"


def import_block(grammar_dir: Path) -> str:
    """The generated block: one ``%import`` per family file, by name."""
    lines = [BEGIN]
    for p in sorted(grammar_dir.glob("*.lark")):
        if p.stem != "mlir":
            lines.append(import_line(p.stem, p.read_text()))
    lines.append(END)
    return "\n".join(lines)


def with_imports(main_text: str, grammar_dir: Path) -> str:
    """``main_text`` (mlir.lark) with its generated block brought up to date."""
    start, end = main_text.find(BEGIN), main_text.find(END)
    if start < 0 or end < start:
        raise ValueError("mlir.lark has no generated-imports block")
    return main_text[:start] + import_block(grammar_dir) + main_text[end + len(END) :]


def main(argv: list[str]) -> int:
    from affine_lsp.syntax.engines import grammar_path

    main_path = grammar_path()
    text = main_path.read_text()
    new = with_imports(text, main_path.parent)
    if "--check" in argv:
        if new != text:
            print(f"{main_path}: the %import lists are not up to date (python -m affine_lsp.syntax.grammar_imports)")
            return 1
        return 0
    if new != text:
        write_atomic(main_path, new.encode("utf-8"))
        print(f"{main_path}: %import lists updated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
