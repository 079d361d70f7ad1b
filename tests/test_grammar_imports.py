"""mlir.lark's ``%import`` lists are generated from the family grammars
(``affine_lsp/syntax/grammar_imports.py``) and up to date: every rule,
terminal and alias a family file defines, and every name it uses of the
others, is listed (lark would prefix an unlisted one with the file's name)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from affine_lsp.syntax.engines import grammar_path
from affine_lsp.syntax.grammar_imports import BEGIN, END, family_names, with_imports

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_lists_of_mlir_lark_are_up_to_date() -> None:
    text = grammar_path().read_text()
    assert with_imports(text, grammar_path().parent) == text
    p = subprocess.run([sys.executable, "-m", "affine_lsp.syntax.grammar_imports", "--check"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr


def test_a_family_file_lists_what_it_defines_then_what_it_uses() -> None:
    text = (
        "// a comment naming not_a_rule\n"
        '?fam_op: fam_a | fam_b\nfam_a: OP_FAM_A SSA_ID "keyword" attr_dict? -> fam_alias\n'
        'fam_b: OP_FAM_B COLON type\nOP_FAM_A: "fam.a"\nOP_FAM_B.2: /fam\\.b(?=x)/\n'
    )
    defined, used = family_names(text)
    assert defined == ["fam_op", "fam_a", "fam_alias", "fam_b", "OP_FAM_A", "OP_FAM_B"]
    assert used == ["COLON", "SSA_ID", "attr_dict", "type"]


def test_a_new_family_file_gets_its_import(tmp_path: Path) -> None:
    (tmp_path / "mlir.lark").write_text(f"start: x\n{BEGIN}\n{END}\n")
    (tmp_path / "fam.lark").write_text('fam_op: OP_FAM SSA_ID\nOP_FAM: "fam.op"\n')
    out = with_imports((tmp_path / "mlir.lark").read_text(), tmp_path)
    assert "%import .fam (fam_op, OP_FAM, SSA_ID)" in out.splitlines()


def _module_of(grammar_file: str) -> str:
    """The module of a grammar file's reduce actions: mlir.lark's are the
    parser's core, a dialect's are syntax/ops/<dialect>.py, the builtin
    types', attributes' and affine maps' are syntax/<file>.py."""
    stem = Path(grammar_file).stem
    if stem == "mlir":
        return "affine_lsp.syntax.parser"
    if (ROOT / "affine_lsp" / "syntax" / "ops" / f"{stem}.py").is_file():
        return f"affine_lsp.syntax.ops.{stem}"
    return f"affine_lsp.syntax.{stem}"


def test_the_reduce_actions_mirror_the_grammar_files() -> None:
    """syntax/ops/<dialect>.py holds the reduce actions of grammar/<dialect>.lark,
    one to one: every file has its module, and every rule or alias of a file
    that has a reduce action has it in that module."""
    import importlib

    from affine_lsp.syntax.parser import ChunkTransformer

    misplaced = []
    for p in sorted(grammar_path().parent.glob("*.lark")):
        module = _module_of(str(p))
        importlib.import_module(module)
        defined, _ = family_names(p.read_text())
        for name in defined:
            method = getattr(ChunkTransformer, name, None)
            if callable(method) and getattr(method, "__module__", None) != module:
                misplaced.append((p.name, name, getattr(method, "__module__", None)))
    assert misplaced == []
    families = {p.stem for p in grammar_path().parent.glob("*.lark")} - {"mlir"}
    modules = {p.stem for p in (ROOT / "affine_lsp" / "syntax" / "ops").glob("*.py")} - {"__init__"}
    assert modules <= families
