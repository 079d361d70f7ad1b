"""Compiles the modules on affine-lsp's hot path (parse, IR, verify) with
Cython, when it can: they stay plain Python source, and a module that does
not compile (no C compiler, no Cython) is simply imported from its ``.py``.
Everything else is declared in ``pyproject.toml``.

``AFFINE_LSP_PURE_PYTHON=1`` at install time builds nothing; at run time it
makes affine-lsp ignore the compiled modules (``affine_lsp/__init__.py``).
"""

from __future__ import annotations

import os

from setuptools import setup

# The modules every keystroke and every open goes through (profiled: the
# LALR loop and lexer, the reduce actions, the IR builder, the verifier).
HOT_MODULES = [
    "affine_lsp.syntax.driver",
    "affine_lsp.syntax.lexer",
    "affine_lsp.syntax.parser",
    "affine_lsp.syntax.reductions",
    "affine_lsp.syntax.opkit",
    "affine_lsp.syntax.types",
    "affine_lsp.syntax.attributes",
    "affine_lsp.syntax.affine_map",
    "affine_lsp.syntax.ops.affine",
    "affine_lsp.syntax.ops.arith",
    "affine_lsp.syntax.ops.func",
    "affine_lsp.syntax.ops.memref",
    "affine_lsp.syntax.ops.vector",
    "affine_lsp.syntax.ops.scf",
    "affine_lsp.syntax.nodes",
    "affine_lsp.syntax.chunks",
    "affine_lsp.syntax.document",
    "affine_lsp.ir.core",
    "affine_lsp.ir.builder",
    "affine_lsp.ir.affine_expr",
    "affine_lsp.ir.types",
    "affine_lsp.ir.attributes",
    "affine_lsp.verify.verifier",
    "affine_lsp.verify.checks",
    "affine_lsp.verify.affine_checks",
    "affine_lsp.verify.registry",
    "affine_lsp.verify.dimsym",
]


def ext_modules() -> list:
    if os.environ.get("AFFINE_LSP_PURE_PYTHON", "") not in ("", "0"):
        return []
    try:
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError:
        return []
    exts = [Extension(m, [m.replace(".", "/") + ".py"], optional=True) for m in HOT_MODULES]
    # Plain Python semantics: annotations are documentation, not C types.
    directives = {"language_level": 3, "annotation_typing": False, "binding": True}
    try:
        return cythonize(exts, compiler_directives=directives, quiet=True, nthreads=os.cpu_count() or 1)
    except Exception as e:  # the pure-Python modules do everything the compiled ones do
        print(f"affine-lsp: not compiling the hot modules ({e})")
        return []


setup(ext_modules=ext_modules(), options={"build_ext": {"parallel": os.cpu_count() or 1}})
