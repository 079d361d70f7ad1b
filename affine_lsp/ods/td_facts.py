"""What an op is, from its ODS record: the one derivation of op facts from
``llvm-tblgen --dump-json``, for MLIR's upstream ops (``scripts/op_traits_td.py``
writes them into the shipped registry) and for the user's own dialects
(:func:`facts_of`, then :func:`register`).

``llvm-tblgen`` evaluates TableGen: every op record comes with its resolved
``traits`` (trait lists flattened here, interfaces by their C++ name), its
operands' ``Arg<..., [MemRead]>`` decorators and their type constraints.

A user's facts (:func:`facts_of`) are plain JSON: ``dialect``, ``name``,
``summary``, ``description``, ``operands`` / ``results`` (``[name, kind,
constraint]``, kind ``1``, ``?`` or ``*``), ``attributes`` (``[name,
required, constraint]``), ``regions`` (``[fixed count, exact]``, exact False
when the last is variadic), ``successors`` (``"1"`` or ``"*"`` each),
``segments`` (``o`` / ``r`` for ``AttrSizedOperandSegments`` /
``AttrSizedResultSegments``), ``traits`` (the kept C++ names), ``effects``
(as the registry spells them, ``write:o:dst``; None when the op states
none), ``default_dialect`` (``OpAsmOpInterface::getDefaultDialect``, ``""``
when none), ``source`` (``FILE.td:LINE`` of the op's record) and ``constraints`` (each named type constraint's summary).
:func:`register` makes :mod:`affine_lsp.ir.op_registry` (and so
:mod:`affine_lsp.ir.op_traits`) answer for them as for upstream ops.
"""

from __future__ import annotations

import os
import re

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
        "SameOperandsAndResultType", "SameTypeOperands", "SameOperandsAndResultShape",
        "SameOperandsAndResultElementType", "SameOperandsShape", "SameOperandsElementType",
        "AttrSizedOperandSegments", "AttrSizedResultSegments",
    }
)  # fmt: skip
# The traits of the shipped registry (the set it was generated with; the
# user's facts keep the few more of KEPT_TRAITS that the verifier reads).
REGISTRY_TRAITS = KEPT_TRAITS - {
    "SameOperandsAndResultType", "SameTypeOperands", "SameOperandsAndResultShape", "SameOperandsAndResultElementType",
    "SameOperandsShape", "SameOperandsElementType", "AttrSizedOperandSegments", "AttrSizedResultSegments",
}  # fmt: skip
EFFECTS = {"Read": "read", "Write": "write", "Allocate": "alloc", "Free": "free"}

# ``OpAsmOpInterface::getDefaultDialect``: the dialect MLIR's parser tries
# for an unprefixed op name inside the op's regions (``return`` in
# ``func.func`` is ``func.return``). An op states it in ODS as a static
# method of its ``extraClassDeclaration`` (``return "func";``) or declares it
# with ``DeclareOpInterfaceMethods<OpAsmOpInterface, ["getDefaultDialect"]>``
# and returns it from C++, which the records do not hold: the upstream ops
# that do (``PDLDialect.cpp``) are listed, and a user's op is taken to
# return its own dialect's name (what ``getDialectNamespace()`` gives).
_DEFAULT_DIALECT_RE = re.compile(r"\bgetDefaultDialect\s*\(\s*\)\s*(?:const\s*)?\{\s*return\s*\"([A-Za-z0-9_$.]*)\"\s*;")
CXX_DEFAULT_DIALECTS = {"pdl.pattern": "pdl", "pdl.rewrite": "pdl"}


def _trait_name(raw: str) -> str:
    name = raw.split("<", 1)[0]
    for suffix in ("::Impl", "::Trait"):
        name = name.removesuffix(suffix)
    return name.rsplit("::", 1)[-1]


class TdRecords:
    """The records of one ``llvm-tblgen --dump-json`` output; ``summaries``
    collects each named type constraint's summary met on the way."""

    def __init__(self, d: dict, summaries: dict[str, str] | None = None) -> None:
        self.d = d
        self.summaries: dict[str, str] = {} if summaries is None else summaries

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

    def constraint(self, n: str) -> str:
        """An operand's ODS type constraint as the registry keeps it: its
        name, or ``~`` and its summary for an anonymous one."""
        cons, _eff, summary = self.variable(n)
        if cons:
            self.summaries[cons] = summary
        return cons or f"~{summary}"

    def kind(self, n: str) -> str:
        """``1``, ``?`` (``Optional``) or ``*`` (``Variadic``) of an operand
        or result."""
        r = self.d.get(n, {})
        if "OpVariable" in r.get("!superclasses", []):
            r = self.d.get(r["constraint"]["def"], {})
        sup = r.get("!superclasses", [])
        return "*" if ("Variadic" in sup or "VariadicOfVariadic" in sup) else "?" if "Optional" in sup else "1"

    def attribute(self, n: str, name: str) -> list:
        """``[name, required, constraint]`` of an attribute argument."""
        r = self.d.get(n, {})
        if "OpVariable" in r.get("!superclasses", []):
            n = r["constraint"]["def"]
            r = self.d.get(n, {})
        required = 1
        for _ in range(8):
            sup = r.get("!superclasses", [])
            if "OptionalAttr" in sup or r.get("isOptional") == 1 or r.get("defaultValue") not in (None, ""):
                required = 0
            base = r.get("baseAttr")
            if not (isinstance(base, dict) and ({"OptionalAttr", "DefaultValuedAttr", "DefaultValuedOptionalAttr", "ConfinedAttr"} & set(sup))):
                break
            n = base["def"]
            r = self.d.get(n, {})
        return [name, required, "" if n.startswith("anonymous_") else n]

    def is_type(self, n: str) -> bool:
        r = self.d.get(n, {})
        if "OpVariable" in r.get("!superclasses", []):
            r = self.d.get(r["constraint"]["def"], {})
        return "TypeConstraint" in r.get("!superclasses", [])

    def is_variadic(self, n: str, cls: str) -> bool:
        return cls in self.d.get(n, {}).get("!superclasses", [])

    def default_dialect(self, r: dict) -> str:
        """The op's ``getDefaultDialect`` (``""``: none, MLIR's default)."""
        m = _DEFAULT_DIALECT_RE.search(str(r.get("extraClassDeclaration") or ""))
        if m is not None:
            return m.group(1)
        for t in trait_records(self.d, r.get("traits", []), depth_first=True):
            if t.get("cppInterfaceName") == "OpAsmOpInterface" and "getDefaultDialect" in (t.get("alwaysOverriddenMethods") or ()):
                name = self.op_name(r) or ""
                return CXX_DEFAULT_DIALECTS.get(name, name.split(".", 1)[0])
        return ""

    def op_name(self, r: dict) -> str | None:
        dialect = self.d.get((r.get("opDialect") or {}).get("def", ""), {}).get("name")
        if not isinstance(dialect, str) or not isinstance(r.get("opName"), str):
            return None
        return f"{dialect}.{r['opName']}"


def op_td_facts(rec: TdRecords, r: dict, kept: frozenset[str] = REGISTRY_TRAITS) -> dict:
    """The registry's ``.td`` facts of one op record: ``t`` (the traits in
    ``kept``), ``e`` (only when the op states its effects in ODS: ``kind``
    on the whole op, or ``kind:o:<operand>`` / ``kind:r:<result>``) and
    ``ot`` (each operand group's type constraint); ``dd`` (only when the
    op has one: its default dialect, :meth:`TdRecords.default_dialect`)."""
    names, effects = rec.traits(r.get("traits", []))
    operands: list[str] = []
    for arg, name in r.get("arguments", {}).get("args", []):
        if not rec.is_type(arg["def"]):
            continue
        _, eff, _ = rec.variable(arg["def"])
        operands.append(rec.constraint(arg["def"]))
        if eff:
            names.add("MemoryEffectOpInterface")
            effects = (effects or []) + [f"{e}:o:{name}" for e in eff]
    for arg, name in r.get("results", {}).get("args", []):
        _, eff, _ = rec.variable(arg["def"])
        if eff:
            names.add("MemoryEffectOpInterface")
            effects = (effects or []) + [f"{e}:r:{name}" for e in eff]
    out: dict = {"t": sorted(names & kept), "ot": operands}
    if effects is not None:
        out["e"] = sorted(set(effects))
    default = rec.default_dialect(r)
    if default:
        out["dd"] = default
    return out


def _first_sentence(text: str) -> str:
    para = " ".join(text.strip().split("\n\n")[0].split())
    cut = para.find(". ")
    return para if cut < 0 else para[: cut + 1]


def op_facts(rec: TdRecords, r: dict) -> dict | None:
    """The facts of one op record (the module's docstring), or None for a
    record that names no dialect or op."""
    name = rec.op_name(r)
    if name is None:
        return None
    td = op_td_facts(rec, r, KEPT_TRAITS)
    operands: list = []
    attributes: list = []
    for arg, arg_name in r.get("arguments", {}).get("args", []):
        if rec.is_type(arg["def"]):
            operands.append([arg_name, rec.kind(arg["def"]), rec.constraint(arg["def"])])
        else:
            attributes.append(rec.attribute(arg["def"], arg_name))
    results = [[n, rec.kind(a["def"]), rec.constraint(a["def"])] for a, n in r.get("results", {}).get("args", [])]
    regions = [rec.is_variadic(a["def"], "VariadicRegion") for a, _n in r.get("regions", {}).get("args", [])]
    successors = ["*" if rec.is_variadic(a["def"], "VariadicSuccessor") else "1" for a, _n in r.get("successors", {}).get("args", [])]
    traits = td["t"]
    summary = r.get("summary") if isinstance(r.get("summary"), str) else ""
    description = r.get("description") if isinstance(r.get("description"), str) else ""
    return {
        "dialect": name.split(".", 1)[0],
        "name": name,
        "summary": summary.strip() or _first_sentence(description),
        "description": description.strip(),
        "operands": operands,
        "results": results,
        "attributes": attributes,
        "regions": [sum(1 for v in regions if not v), not any(regions)],
        "successors": successors,
        "segments": ("o" if "AttrSizedOperandSegments" in traits else "") + ("r" if "AttrSizedResultSegments" in traits else ""),
        "traits": traits,
        "effects": td.get("e"),
        "default_dialect": td.get("dd", ""),
        "constraints": {c: rec.summaries[c] for _n, _k, c in operands + results if c in rec.summaries},
    }


def source_of(r: dict, td: str | None) -> str:
    """Where an op record is defined: ``FILE.td:LINE`` (its first
    ``!locs``; the path of ``td`` when the record is in that file itself)."""
    locs = r.get("!locs")
    loc = locs[0] if isinstance(locs, list) and locs and isinstance(locs[0], str) else ""
    if td and loc:
        file, _, line = loc.rpartition(":")
        if file == os.path.basename(td):
            return f"{td}:{line}"
    return loc


def facts_of(d: dict, td: str | None = None) -> dict[str, dict]:
    """``{op name: facts}`` of every op record of one ``llvm-tblgen
    --dump-json`` output ``d`` (of the file ``td``) that is not an op MLIR
    22.1.8 ships (those records come with the user's includes of MLIR's own
    ``.td`` files: the shipped registry answers for them)."""
    from affine_lsp.ir import op_registry

    rec = TdRecords(d)
    out: dict[str, dict] = {}
    for n in d.get("!instanceof", {}).get("Op", []):
        r = d.get(n)
        if not isinstance(r, dict):
            continue
        name = rec.op_name(r)
        if name is None or op_registry.is_shipped(name) or name in out:
            continue
        facts = op_facts(rec, r)
        if facts is not None:
            facts["source"] = source_of(r, td)
            out[name] = facts
    return out


def registry_record(facts: dict) -> dict:
    """One op's facts as the registry's data spells an op (the keys of
    ``affine_lsp/data/ops_22.1.8.json``; the traits as a list). Facts with
    no ``operands`` (an op known by its name and summary only, as an IRDL
    file's) give an op known by name: nothing structural is checked, its
    traits are none and its effects unknown."""
    if "operands" not in facts:
        return {"s": str(facts.get("summary", ""))}
    raw: dict = {
        "s": facts.get("summary", ""),
        "o": [[n, k] for n, k, _c in facts.get("operands", [])],
        "r": [[n, k] for n, k, _c in facts.get("results", [])],
        "g": list(facts.get("regions", [0, True])),
        "c": list(facts.get("successors", [])),
        "a": [[n, int(bool(req)), c] for n, req, c in facts.get("attributes", [])],
        "t": sorted(set(facts.get("traits", []))),
        "ot": [c for _n, _k, c in facts.get("operands", [])],
    }
    if "o" in facts.get("segments", ""):
        raw["os"] = 1
    if "r" in facts.get("segments", ""):
        raw["rs"] = 1
    if facts.get("effects") is not None:
        raw["e"] = list(facts["effects"])
    if facts.get("default_dialect"):
        raw["dd"] = facts["default_dialect"]
    if facts.get("source"):
        raw["src"] = facts["source"]
    return raw


def register(facts: dict[str, dict]) -> list[str]:
    """Make the op registry (and every answer of
    :mod:`affine_lsp.ir.op_traits`) know the ops of ``facts``, their
    dialects registered; an op MLIR ships keeps its shipped facts. The
    names added (for :func:`unregister`)."""
    from affine_lsp.ir import op_registry

    records = {name: registry_record(f) for name, f in facts.items()}
    summaries: dict[str, str] = {}
    for f in facts.values():
        summaries.update(f.get("constraints") or {})
    return op_registry.add_ops(records, summaries)


def unregister(names: list[str]) -> None:
    """Forget the ops :func:`register` added (their dialect too, once no op
    of it is left)."""
    from affine_lsp.ir import op_registry

    op_registry.remove_ops(names)
