"""What loading a user's dialect costs at a start (issue #45: a second start
at most 50 ms more than without it).

Each run is a fresh ``python`` process that imports the loader, finds the
project file of a document and loads its dialect set
(:func:`affine_lsp.ods.user_dialects.load`), timed inside the process from
before the imports to the end of the load:

* ``cold``: an empty cache: llvm-tblgen runs on each ``.td`` file;
* ``warm``: the cache of the previous run: no llvm-tblgen, the entries
  read and every file they were made from hashed again;
* ``warm, after the start-up imports``: the same in a process that first
  loaded what every start loads anyway (parser tables, op registry, shipped
  formats, verifier): the extra cost of the dialect at a start.

and, end to end, ``affine-lsp check`` of the toy example with the project
file (warm cache) against the same command on a copy with no project file
(its ops skipped): the wall time of the whole process.

Dialects: the toy dialect of the tests (3 ops) and MLIR's TOSA ops
(``TosaOps.td``, about 80 ops and 40 included files) read as a user's
would be. Rounds are interleaved; medians and the spread (min-max) are
printed, and written with ``--json``/``--markdown`` (paths under /tmp
unless a docs/ file is meant)::

    python bench/dialect_load.py --rounds 7 --json /tmp/dialect_load.json --markdown /tmp/dialect_load.md
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from affine_lsp.ods import tblgen  # noqa: E402

TOY = ROOT / "tests" / "data" / "dialects" / "toy"

LOAD = """
import time, sys
if sys.argv[2] == "started":  # what a start loads anyway (check, the server): the parser, the registry, the formats, the verifier
    from affine_lsp import diagnostics, verify
    from affine_lsp.ir import op_registry
    from affine_lsp.ods import formats
    from affine_lsp.syntax.parser import shared_tables
    shared_tables(); op_registry._data(); formats._raw()
t0, c0 = time.perf_counter(), time.process_time()
from affine_lsp.ods import project_file, user_dialects
found = project_file.find(sys.argv[1])
got = user_dialects.load(found.dialects)
t1, c1 = time.perf_counter(), time.process_time()
assert not got.problems, got.problems
print((t1 - t0) * 1000, (c1 - c0) * 1000, got.tblgen_runs, len(got.ops))
"""


def _env(cache: Path) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), AFFINE_LSP_CACHE_DIR=str(cache))


def load_ms(doc: Path, cache: Path, started: bool = False) -> tuple[float, float, int, int]:
    """(wall ms, CPU ms of the process, llvm-tblgen runs, ops) of the
    imports, the project file and the load; ``started``: after what a start
    loads anyway. llvm-tblgen's own CPU time is not counted (a child)."""
    p = subprocess.run([sys.executable, "-c", LOAD, str(doc), "started" if started else "bare"], capture_output=True, text=True, env=_env(cache), check=True)
    ms, cpu, runs, ops = p.stdout.split()
    return float(ms), float(cpu), int(runs), int(ops)


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r.ru_utime + r.ru_stime) * 1000


def check_ms(doc: Path, cache: Path) -> tuple[float, float]:
    """(wall ms, CPU ms) of one ``affine-lsp check`` process."""
    t0, c0 = time.perf_counter(), _children_cpu()
    p = subprocess.run([sys.executable, "-m", "affine_lsp", "check", "-q", str(doc)], capture_output=True, text=True, env=_env(cache))
    ms, cpu = (time.perf_counter() - t0) * 1000, _children_cpu() - c0
    assert p.returncode in (0, 1), p.stderr
    return ms, cpu


def projects(work: Path) -> dict[str, Path]:
    """A document under a project file, per dialect."""
    out: dict[str, Path] = {}
    toy = work / "toy"
    shutil.copytree(TOY, toy / "dialect")
    shutil.copy(TOY / "toy.mlir", toy / "toy.mlir")
    (toy / "affine-lsp.toml").write_text('td = ["dialect/ToyOps.td"]\ninclude = ["dialect/include"]\n')
    out["toy"] = toy / "toy.mlir"
    mlir = tblgen.mlir_include()
    if mlir is not None:
        tosa = work / "tosa"
        tosa.mkdir()
        (tosa / "a.mlir").write_text("func.func @f() {\n  return\n}\n")
        (tosa / "affine-lsp.toml").write_text(f'td = ["{mlir}/mlir/Dialect/Tosa/IR/TosaOps.td"]\n')
        out["tosa"] = tosa / "a.mlir"
    return out


def spread(xs: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(xs), 1), "min": round(min(xs), 1), "max": round(max(xs), 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--markdown", type=Path)
    args = ap.parse_args()
    if tblgen.find_tblgen() is None or tblgen.mlir_include() is None:
        print('llvm-tblgen or MLIR\'s include tree is not installed (pip install "affine-lsp[dialects]")', file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="affine-lsp-bench-dialects-") as tmp:
        work = Path(tmp)
        docs = projects(work)
        bare = work / "bare"
        bare.mkdir()
        shutil.copy(TOY / "toy.mlir", bare / "toy.mlir")
        times: dict[str, list[float]] = {}
        facts: dict[str, dict[str, int]] = {}
        for r in range(args.rounds):
            for name, doc in docs.items():
                cache = work / f"cache-{name}-{r}"
                ms, cpu, runs, ops = load_ms(doc, cache)
                assert runs > 0
                times.setdefault(f"load {name}, cold cache (wall)", []).append(ms)
                ms, cpu, runs, ops = load_ms(doc, cache)
                assert runs == 0, "the warm load ran llvm-tblgen"
                times.setdefault(f"load {name}, warm cache (wall)", []).append(ms)
                times.setdefault(f"load {name}, warm cache (CPU)", []).append(cpu)
                ms, cpu, runs, ops = load_ms(doc, cache, started=True)
                assert runs == 0
                times.setdefault(f"load {name}, warm cache, after the start-up imports (wall)", []).append(ms)
                times.setdefault(f"load {name}, warm cache, after the start-up imports (CPU)", []).append(cpu)
                facts[name] = {"ops": ops}
            warm = work / f"cache-toy-{r}"
            for label, doc in (("project file, warm cache", docs["toy"]), ("no project file", bare / "toy.mlir")):
                ms, cpu = check_ms(doc, warm)
                times.setdefault(f"check toy.mlir, {label} (wall)", []).append(ms)
                times.setdefault(f"check toy.mlir, {label} (CPU)", []).append(cpu)
    result = {k: spread(v) for k, v in times.items()}
    extra = {
        kind: result[f"check toy.mlir, project file, warm cache ({kind})"]["median"] - result[f"check toy.mlir, no project file ({kind})"]["median"]
        for kind in ("wall", "CPU")
    }
    lines = [f"rounds: {args.rounds} (interleaved); ms, median (min-max)", "", "| case | ms |", "|---|---|"]
    lines += [f"| {k} | {v['median']} ({v['min']}-{v['max']}) |" for k, v in result.items()]
    lines += ["", f"check with the project file minus without (medians): wall {extra['wall']:+.1f} ms, CPU {extra['CPU']:+.1f} ms"]
    text = "\n".join(lines)
    print(text)
    if args.json:
        args.json.write_text(json.dumps({"rounds": args.rounds, "times_ms": result, "extra_ms": extra, "dialects": facts}, indent=1) + "\n")
    if args.markdown:
        args.markdown.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
