"""The driver's table cache (:mod:`affine_lsp.syntax.driver_cache`): a
start reads the driver's rows from it and builds no lark parser (nor
imports lark) until a parse needs lark's loop; a missing, corrupt or foreign file is built again;
the parses are those of a driver built from lark's table."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from affine_lsp.syntax import driver_cache
from affine_lsp.syntax import parser as P
from affine_lsp.syntax.engines import ParserTables, cached_driver, grammar_texts, make_driver, make_lark, store_driver
from tests.test_parser_reductions import broken, chunk_texts, parse_with

ROOT = Path(__file__).resolve().parents[1]

VALID = (
    "func.func @f(%A: memref<10x10xf32>, %n: index) {\n"
    "  affine.for %i = max affine_map<(d0) -> (d0, 1)>(%n) to 10 {\n"
    "    affine.for %j = 0 to min affine_map<(d0)[s0] -> (d0 + 2, s0)>(%i)[%n] {\n"
    "      %v = affine.load %A[%i, %j floordiv 2] : memref<10x10xf32>\n"
    "      affine.if affine_set<(d0) : (d0 - 3 >= 0)>(%j) {\n"
    "        affine.store %v, %A[%j mod 4, %i] : memref<10x10xf32>\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "  return\n"
    "}"
)
BROKEN = "func.func @g(%a: memref<8xf32>) {\n  affine.for %i = 0 too 8 {\n  }\n  return\n}"

# Run in a fresh process: parse VALID, report whether lark's parser was
# built; then BROKEN (lark's loop reports its error), and report again.
_SCRIPT = """
import json, sys
from affine_lsp.ir.core import Anchor
from affine_lsp.syntax import engines as E, parser as P
valid, broken = json.loads(sys.stdin.read())
r = P.parse_chunk(valid, Anchor(0))
out = {"builds_after_valid": E.LARK_BUILDS, "lark_built": P.shared_tables().lark_built, "lark_imported": "lark" in sys.modules}
from tests.test_parser_reductions import dump  # (imports lark)
out.update(valid=repr(dump(r.item)), valid_notes=[(n.severity, n.message) for n in r.notes])
r = P.parse_chunk(broken, Anchor(0))
out.update(builds_after_broken=E.LARK_BUILDS, lark_imported_after_broken="lark" in sys.modules, broken=[(n.severity, n.message, n.span.start, n.span.end) for n in r.notes])
print(json.dumps(out))
"""


def _start(tmp: Path) -> dict:
    """A fresh process whose temporary directory (both caches) is ``tmp``."""
    env = dict(os.environ, TMPDIR=str(tmp), PYTHONPATH=str(ROOT))
    env.pop("AFFINE_LSP_DRIVER_CACHE", None)
    for k in ("AFFINE_LSP_LEXER", "AFFINE_LSP_REDUCTIONS", "AFFINE_LSP_DRIVER"):
        env.pop(k, None)
    p = subprocess.run([sys.executable, "-c", _SCRIPT], input=json.dumps([VALID, BROKEN]), env=env, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@pytest.fixture()
def private_tmp(tmp_path: Path) -> Path:
    """A temporary directory holding a copy of lark's table cache (so that
    the first start does not build the LALR tables from the grammar) and
    no driver's table."""
    P.shared_tables().lark  # noqa: B018  (lark's cache file exists once this process built lark's parser)
    for f in Path(tempfile.gettempdir()).glob(".affine_lsp_lark_*"):
        shutil.copy(f, tmp_path / f.name)
    return tmp_path


def _driver_files(tmp: Path) -> list[Path]:
    return sorted(tmp.glob(".affine_lsp_driver_*.marshal"))


def test_a_second_start_reads_the_drivers_table_and_builds_no_lark_parser(private_tmp: Path) -> None:
    first = _start(private_tmp)
    assert first["builds_after_valid"] == 1  # no cache yet: lark's parser, then the driver from it
    files = _driver_files(private_tmp)
    assert len(files) == 1
    second = _start(private_tmp)
    assert second["builds_after_valid"] == 0 and second["lark_built"] is False and second["lark_imported"] is False
    assert second["valid"] == first["valid"] and second["valid_notes"] == first["valid_notes"] == []
    # A syntax error needs lark's loop: it is built then, and reports what it reported.
    assert second["builds_after_broken"] == 1 and second["lark_imported_after_broken"] is True
    assert second["broken"] == first["broken"] and second["broken"][0][1] == "custom op 'affine.for' expected 'to' between bounds"
    assert _driver_files(private_tmp) == files


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty", "other key"])
def test_a_corrupt_or_foreign_file_is_built_again(private_tmp: Path, damage: str) -> None:
    first = _start(private_tmp)
    (path,) = _driver_files(private_tmp)
    blob = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(bytes(random.Random(7).randrange(256) for _ in range(5000)))
    elif damage == "truncated":
        path.write_bytes(blob[: len(blob) // 2])
    elif damage == "empty":
        path.write_bytes(b"")
    else:  # a file of the same name holding another grammar's table
        data = driver_cache.marshal.loads(blob)
        data["key"] = "0" * 64
        path.write_bytes(driver_cache.marshal.dumps(data))
    again = _start(private_tmp)
    assert again["builds_after_valid"] == 1  # built from lark's table, as without a cache
    assert (again["valid"], again["broken"]) == (first["valid"], first["broken"])
    key = driver_cache.cache_key(grammar_texts())
    assert driver_cache.load(key, path) is not None  # and stored again
    third = _start(private_tmp)
    assert third["builds_after_valid"] == 0 and third["valid"] == first["valid"]


def test_the_key_follows_the_grammar() -> None:
    texts = grammar_texts()
    key = driver_cache.cache_key(texts)
    assert key == driver_cache.cache_key(list(texts))
    edited = [texts[0] + "\n// an edit\n"] + texts[1:]
    other = driver_cache.cache_key(edited)
    assert other != key and driver_cache.cache_file(other) != driver_cache.cache_file(key)


def test_a_missing_file_or_directory_is_no_error(tmp_path: Path) -> None:
    key = driver_cache.cache_key(grammar_texts())
    assert driver_cache.load(key, tmp_path / "none.marshal") is None
    driver = P.shared_tables().driver
    assert driver is not None
    assert store_driver(driver, tmp_path / "no" / "such" / "dir.marshal") is False


def test_the_cached_driver_parses_as_the_driver_built_from_larks_table(tmp_path: Path) -> None:
    """Every corpus chunk, and broken variants of some, give the same records
    and notes through a driver read from the cache as through one built
    from lark's table (each in its own ParserTables)."""
    lark, reductions = make_lark(P.ChunkTransformer)
    built = make_driver(lark, reductions, "ours")
    assert built is not None
    path = tmp_path / "driver.marshal"
    assert store_driver(built, path)
    cached = cached_driver(P.ChunkTransformer, path)
    assert cached is not None and cached is not built
    assert cached.actions == built.actions and cached.defaults == built.defaults
    with_built = ParserTables(lark, reductions, built, P.ChunkTransformer)
    with_cached = ParserTables(None, None, cached, P.ChunkTransformer, lambda: (lark, reductions))

    parse = parse_with

    rng = random.Random(34)
    seen = 0
    for where, text in chunk_texts():
        assert parse(with_cached, text) == parse(with_built, text), where
        if seen % 7 == 0:
            b = broken(text, rng)
            assert parse(with_cached, b) == parse(with_built, b), where
        seen += 1
    assert seen > 50


_FORK_SCRIPT = """
import json, os, signal, sys
from affine_lsp.ir.core import Anchor
from affine_lsp.syntax import parser as P
broken = sys.stdin.read()
tables = P.shared_tables()
assert not tables.lark_built
tables._lock.acquire()  # as if another thread were building lark's parser when the process forks
pid = os.fork()
if pid == 0:
    signal.alarm(120)  # (a child stuck on the copied lock dies instead of hanging the test)
    P.after_fork()
    r = P.parse_chunk(broken, Anchor(0))
    os._exit(0 if r.item is None and r.notes and r.notes[0].code == "syntax" else 1)
_, status = os.waitpid(pid, 0)
print(json.dumps({"child_status": os.waitstatus_to_exitcode(status)}))
"""


def test_a_fork_beside_a_build_of_larks_parser_builds_its_own(private_tmp: Path) -> None:
    """The dataflow worker and the child of a split open are forked beside
    other threads: one of them may hold the lock of lark's parser's build;
    the forked process gets a new lock and builds its own parser."""
    _start(private_tmp)  # the driver's table, cached
    env = dict(os.environ, TMPDIR=str(private_tmp), PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-c", _FORK_SCRIPT], input=BROKEN, env=env, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == {"child_status": 0}
