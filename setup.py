"""affine-lsp installs as plain Python by default (a few seconds beyond
the downloads). ``AFFINE_LSP_COMPILE=1`` at install time opts in to
compiling the modules on the hot path (parse, IR, verify) with Cython, in
parallel (about 1.3x faster on a cold open, minutes of compiling on two
cores): Cython is then added to the build's requirements, the modules stay
plain Python source, and a module that does not compile (no C compiler) is
simply imported from its ``.py``. Everything else is declared in
``pyproject.toml``.

``AFFINE_LSP_PURE_PYTHON=1`` at install time builds nothing even with
``AFFINE_LSP_COMPILE=1``; at run time it makes affine-lsp ignore the
compiled modules (``affine_lsp/__init__.py``).
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
    "affine_lsp.source.document",
    "affine_lsp.ir.core",
    "affine_lsp.ir.builder",
    "affine_lsp.ir.affine_expr",
    "affine_lsp.ir.types",
    "affine_lsp.ir.attributes",
    "affine_lsp.verify.verifier",
    "affine_lsp.verify.checks",
    "affine_lsp.verify.affine_checks",
    "affine_lsp.verify.known_traits",
    "affine_lsp.verify.dimsym",
]


def _flag(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")


COMPILE = _flag("AFFINE_LSP_COMPILE") and not _flag("AFFINE_LSP_PURE_PYTHON")


def ext_modules() -> list:
    if not COMPILE:
        return []
    try:
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError:
        return []
    exts = [Extension(m, [m.replace(".", "/") + ".py"], optional=True) for m in HOT_MODULES]
    # Plain Python semantics: annotations are documentation, not C types.
    directives = {"language_level": 3, "annotation_typing": False, "binding": True}
    print(f"affine-lsp: compiling {len(exts)} modules with Cython on {os.cpu_count() or 1} cores (AFFINE_LSP_COMPILE=1; a few minutes)", flush=True)
    try:
        return cythonize(exts, compiler_directives=directives, quiet=True, nthreads=os.cpu_count() or 1)
    except Exception as e:  # the pure-Python modules do everything the compiled ones do
        print(f"affine-lsp: not compiling the hot modules ({e})")
        return []


# setuptools' PEP 517 backend adds setup_requires to the build's
# requirements: Cython is fetched only when compiling was asked for.
setup(
    ext_modules=ext_modules(),
    setup_requires=["Cython>=3.0"] if COMPILE else [],
    options={"build_ext": {"parallel": os.cpu_count() or 1}},
)
