"""The compiled hot modules (``setup.py``: Cython, from the same ``.py``)
answer exactly as the pure-Python ones, and a compiled module older than its
source is never imported (``affine_lsp/__init__.py``)."""

from __future__ import annotations

import importlib.machinery
import os
import subprocess
import sys
from pathlib import Path

import pytest

from affine_lsp import _SourceWhenStale
from tests.corpus import REALWORLD, UPSTREAM
from tests.fuzzing import hostile_texts

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"


def _compiled_files() -> list[Path]:
    return [p for s in importlib.machinery.EXTENSION_SUFFIXES for p in (ROOT / "affine_lsp").rglob(f"*{s}")]


def _run(args: list[str], pure: bool) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("AFFINE_LSP_PURE_PYTHON", None)
    if pure:
        env["AFFINE_LSP_PURE_PYTHON"] = "1"
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def _loaded_compiled(pure: bool) -> list[str]:
    code = (
        "import affine_lsp, affine_lsp.commands.check, affine_lsp.server.server, affine_lsp.source.document, affine_lsp.verify.verifier; "
        "print('\\n'.join(affine_lsp.compiled_modules()))"
    )
    return _run(["-c", code], pure).stdout.split()


@pytest.fixture(scope="module")
def built() -> list[str]:
    """The compiled modules a process imports (scripts/test.sh builds them: `AFFINE_LSP_COMPILE=1 pip install -e .`)."""
    if not _compiled_files():
        if os.environ.get("CI"):
            pytest.fail("no compiled module: the install did not build them (setup.py)")
        pytest.skip("the hot modules are not compiled here (AFFINE_LSP_COMPILE=1 pip install -e . builds them, as scripts/test.sh does)")
    loaded = _loaded_compiled(pure=False)
    assert loaded, "compiled modules exist but none is imported"
    return loaded


def test_the_hot_path_is_compiled(built: list[str]) -> None:
    for name in ("affine_lsp.syntax.driver", "affine_lsp.syntax.parser", "affine_lsp.ir.builder", "affine_lsp.verify.verifier"):
        src = ROOT / (name.replace(".", "/") + ".py")
        compiled = [p for s in importlib.machinery.EXTENSION_SUFFIXES if (p := src.with_name(src.stem + s)).is_file()]
        if compiled and all(p.stat().st_mtime >= src.stat().st_mtime for p in compiled):
            assert name in built
    assert _loaded_compiled(pure=True) == []


def test_compiled_and_pure_python_give_the_same_answers(built: list[str], tmp_path: Path) -> None:
    """`check` (parse, IR, verifier, analyses) and `deps` on the test data,
    the corpus, generated programs and hostile documents: the same output,
    byte for byte."""
    from bench.generate import generate

    for name, text in hostile_texts():
        (tmp_path / name).write_text(text, encoding="utf-8", errors="surrogatepass")
    (tmp_path / "generated-3000.mlir").write_text(generate(3000))
    paths = [str(DATA), str(tmp_path)] + [str(p) for p in (UPSTREAM, REALWORLD) if p.is_dir()]
    check = ["-m", "affine_lsp", "check", "--split-input-file", "--format", "json", "-j", "1", *paths]
    compiled, pure = _run(check, pure=False), _run(check, pure=True)
    assert compiled.returncode == pure.returncode == 2  # errors, and a binary file (hostile-junk) is an I/O error
    assert compiled.stdout.count('"severity"') > 100
    assert compiled.stdout == pure.stdout
    deps = ["-m", "affine_lsp", "deps", "--format", "json", str(ROOT / "examples" / "stencil.mlir")]
    a, b = _run(deps, pure=False), _run(deps, pure=True)
    assert a.returncode == b.returncode == 0
    assert '"kind"' in a.stdout
    assert a.stdout == b.stdout


def test_a_compiled_module_older_than_its_source_is_not_imported(tmp_path: Path) -> None:
    pkg = tmp_path / "pkgx"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    src = pkg / "mod.py"
    src.write_text("X = 1\n")
    fake = pkg / ("mod" + importlib.machinery.EXTENSION_SUFFIXES[0])
    fake.write_bytes(b"not a shared object")
    finder = _SourceWhenStale("pkgx", pure=False)
    os.utime(fake, (1_000_000, 1_000_000))  # built before the source was edited
    spec = finder.find_spec("pkgx.mod", [str(pkg)])
    assert spec is not None and spec.origin == str(src)
    os.utime(fake, None)
    os.utime(src, (1_000_000, 1_000_000))  # built after: Python's own import (the compiled file)
    assert finder.find_spec("pkgx.mod", [str(pkg)]) is None
    pure = _SourceWhenStale("pkgx", pure=True).find_spec("pkgx.mod", [str(pkg)])
    assert pure is not None and pure.origin == str(src)
    assert finder.find_spec("other.mod", [str(pkg)]) is None
    assert _SourceWhenStale("pkgx", pure=False).find_spec("pkgx.absent", [str(pkg)]) is None
