"""A parse's state belongs to that parse: threads parsing different chunks
at the same time get exactly what the same parses give one after another,
in every engine mode (our LALR driver, lark's own loop with the pure-Python
engine, lark's wrapper chain, compiled and pure-Python modules).

The server parses on its worker thread and re-parses released functions on
request threads (``Document.item_syntax``); before each parse owned its
state, two parses at once could return each other's notes or items.

Each mode runs in a process of its own (the engine is chosen when the
parser is built, once per process), with a tiny thread switch interval so
that the threads interleave inside parses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"

# Chunks with items, with notes (unknown ops, soft-dialect retries), with
# syntax errors (lark's loop reports them), of several sizes.
_SAMPLES = [
    "func.func @a(%m: memref<10xf32>) {\n  affine.for %i = 0 to 10 {\n    %v = affine.load %m[%i] : memref<10xf32>\n"
    "    affine.store %v, %m[%i + 1] : memref<10xf32>\n  }\n  return\n}",
    "func.func @b(%n: index) {\n  %r = foo.bar %n : (index) -> index\n  affine.for %i = 0 to %n step 2 {\n  }\n  return\n}",
    "func.func @c() {\n  affine.for %i = 0 to 10 {\n    %x = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%i)\n  }\n  return\n",
    "func.func @d(%a: memref<4x4xf32>) {\n  affine.for %i = 0 to 4 {\n    affine.for %j = max affine_map<(d0) -> (d0, 1)>(%i) to 4 {\n"
    "      %v = affine.load %a[%i, %j] : memref<4x4xf32>\n    }\n  }\n  return\n}",
    "func.func @e() {\n  gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) frobnicate\n  return\n}",
    "func.func @f(%a: memref<8xf32>) {\n  affine.for %i = 0 too 8 {\n  }\n  return\n}",
    "#map = affine_map<(d0)[s0] -> (d0 + s0, d0 * 2)>",
    'func.func @g(%a: memref<?xf32>, %n: index) {\n  affine.parallel (%i) = (0) to (symbol(%n)) reduce ("addf") -> f32 {\n'
    "    %v = affine.load %a[%i] : memref<?xf32>\n    affine.yield %v : f32\n  }\n  return\n}",
]


def _chunks() -> list[str]:
    from affine_lsp.source.document import Document

    texts = list(_SAMPLES)
    for f in sorted(DATA.glob("*.mlir"))[:12]:
        for c in Document(f.read_text(errors="replace")).chunks:
            if c.kind == "item" and 0 < len(c.text) < 3000:
                texts.append(c.text)
    return texts[:48]


def _image(text: str, offset: int) -> str:
    from affine_lsp.ir.core import Anchor
    from affine_lsp.syntax.nodes import AliasDefSyn, OpSyn
    from affine_lsp.syntax.parser import parse_chunk
    from tests.test_parser_reductions import dump

    r = parse_chunk(text, Anchor(offset))
    assert r.item is None or isinstance(r.item, OpSyn | AliasDefSyn), f"not a syntax record: {type(r.item)}"
    return repr((dump(r.item), [(n.severity, n.message, n.code, n.span.start, n.span.end) for n in r.notes]))


def race(threads: int = 4, rounds: int = 20) -> dict[str, int]:
    """``threads`` threads each parse every chunk (a different one at a
    time) ``rounds`` times; the number of results that differ from the
    sequential parse of the same chunk."""
    sys.setswitchinterval(1e-6)
    texts = _chunks()
    # Each chunk at an offset of its own: a span built for another parse
    # shows. Once over first: shared objects cache their text when printed
    # (``IndexType._text``), which the image includes.
    for i, t in enumerate(texts):
        _image(t, 1000 * i)
    expected = [_image(t, 1000 * i) for i, t in enumerate(texts)]
    assert not any("'internal'" in e for e in expected), "a parse failed inside the parser"
    wrong = [0] * threads
    crashed: list[str] = []
    start = threading.Barrier(threads)

    def work(k: int) -> None:
        try:
            start.wait()
            n = len(texts)
            for r in range(rounds):
                for j in range(n):
                    i = (j * (k + 1) + r + k) % n  # the threads parse different chunks at once
                    if _image(texts[i], 1000 * i) != expected[i]:
                        wrong[k] += 1
        except Exception as e:  # a parse must never raise
            crashed.append(repr(e))

    ts = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return {"parses": threads * rounds * len(texts), "wrong": sum(wrong), "crashed": len(crashed), "chunks": len(texts)}


def _compiled_built() -> bool:
    import importlib.machinery

    return any(p for s in importlib.machinery.EXTENSION_SUFFIXES for p in (ROOT / "affine_lsp" / "syntax").glob(f"*{s}"))


_MODES = {
    "default": {},
    "lark-loop-python": {"AFFINE_LSP_ENGINE": "python", "AFFINE_LSP_DRIVER": "lark"},
    "lark-wrappers": {"AFFINE_LSP_ENGINE": "python", "AFFINE_LSP_REDUCTIONS": "lark"},
    "lark-loop-engine-default": {"AFFINE_LSP_DRIVER": "lark"},
}


@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
@pytest.mark.parametrize("mode", sorted(_MODES))
def test_concurrent_parses_give_the_sequential_results(mode: str, pure: bool) -> None:
    if not pure and not _compiled_built():
        pytest.skip("the hot modules are not compiled here (AFFINE_LSP_COMPILE=1 pip install -e . builds them, as scripts/test.sh does)")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")])), **_MODES[mode])
    for k in ("AFFINE_LSP_ENGINE", "AFFINE_LSP_DRIVER", "AFFINE_LSP_REDUCTIONS", "AFFINE_LSP_PURE_PYTHON"):
        if k not in _MODES[mode]:
            env.pop(k, None)
    if pure:
        env["AFFINE_LSP_PURE_PYTHON"] = "1"
    code = "import json; from tests.test_parse_threads import race; print(json.dumps(race()))"
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    out = json.loads(p.stdout.strip().splitlines()[-1])
    assert out["chunks"] >= 20
    assert out["crashed"] == 0
    assert out["wrong"] == 0, f"{out['wrong']} of {out['parses']} concurrent parses differ from the same parse done alone ({mode})"
