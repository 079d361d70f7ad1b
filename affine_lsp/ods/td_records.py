"""Op records of ``llvm-tblgen --dump-json`` turned into the data of the
ODS format interpreter (:mod:`affine_lsp.ods.formats`): the fields each op
keeps are described in ``scripts/gen_op_formats.py``, which writes the
upstream ops' file; the same functions read the records of a user's own
``.td`` files."""

from __future__ import annotations

import re
from collections.abc import Iterator

# `$_builder.getXType()` of a buildable type constraint, as MLIR spells the type.
_BUILDERS = {
    "getI1Type": "i1",
    "getIndexType": "index",
    "getF16Type": "f16",
    "getBF16Type": "bf16",
    "getF32Type": "f32",
    "getF64Type": "f64",
    "getNoneType": "none",
}
_INT_BUILDER = re.compile(r"\$_builder\.getIntegerType\((\d+)\)")


def _buildable(call: object) -> str:
    if not isinstance(call, str):
        return ""
    m = _INT_BUILDER.fullmatch(call.strip())
    if m:
        return f"i{m.group(1)}"
    m = re.fullmatch(r"\$_builder\.(\w+)\(\)", call.strip())
    return _BUILDERS.get(m.group(1), "") if m else ""


def trait_records(d: dict, traits: list, depth_first: bool = False) -> Iterator[dict]:
    """The records of an op's ``traits`` (``llvm-tblgen --dump-json``'s
    ``{"def": name}`` entries, records in ``d``), each once, with the traits
    of each ``TraitList`` in its place and each trait's ``dependentTraits``
    and ``baseInterfaces`` after it; breadth first, or depth first."""
    todo = [t["def"] for t in traits if isinstance(t, dict)]
    seen: set[str] = set()
    while todo:
        n = todo.pop() if depth_first else todo.pop(0)
        if n in seen or n not in d:
            continue
        seen.add(n)
        r = d[n]
        if "TraitList" in r.get("!superclasses", []):
            todo.extend(t["def"] for t in r.get("traits", []) if isinstance(t, dict))
            continue
        yield r
        todo.extend(t["def"] for t in r.get("dependentTraits", []) or [] if isinstance(t, dict))
        todo.extend(t["def"] for t in r.get("baseInterfaces", []) or [] if isinstance(t, dict))


class FormatRecords:
    """The records of one ``llvm-tblgen --dump-json`` output."""

    def __init__(self, d: dict) -> None:
        self.d = d
        self._typedefs: dict[str, str] | None = None
        self._attrdefs: dict[str, str] | None = None

    def _defs(self, cls: str, sigil: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for n in self.d.get("!instanceof", {}).get(cls, []):
            r = self.d[n]
            dialect = self.d.get((r.get("dialect") or {}).get("def", ""), {}).get("name")
            cpp = f"{r.get('cppNamespace', '')}::{r.get('cppClassName', '')}".replace("::::", "::")
            if isinstance(dialect, str) and isinstance(r.get("mnemonic"), str):
                out[cpp if cpp.startswith("::") else "::" + cpp] = f"{sigil}{dialect}."
        return out

    def _dialect_prefix(self, cpp: object, cls: str, sigil: str) -> str:
        if not isinstance(cpp, str) or (cpp.startswith("::mlir::") and cpp.count("::") == 2):
            return ""  # a builtin type or attribute (`::mlir::IndexType`)
        if cls == "TypeDef":
            if self._typedefs is None:
                self._typedefs = self._defs("TypeDef", "!")
            return self._typedefs.get(cpp, "")
        if self._attrdefs is None:
            self._attrdefs = self._defs("AttrDef", "#")
        return self._attrdefs.get(cpp, "")

    def variable(self, n: str, name: str) -> list:
        r = self.d.get(n, {})
        if "OpVariable" in r.get("!superclasses", []):
            n = r["constraint"]["def"]
            r = self.d.get(n, {})
        sup = r.get("!superclasses", [])
        kind = "*" if ("Variadic" in sup or "VariadicOfVariadic" in sup) else "?" if "Optional" in sup else "1"
        base = r
        while kind != "1" and isinstance(base.get("baseType"), dict):
            base = self.d.get(base["baseType"]["def"], {})
            if not {"Variadic", "Optional"} & set(base.get("!superclasses", [])):
                break
        built = _buildable(base.get("builderCall")) or self._dialect_buildable(base)
        return [name, kind, built, self._dialect_prefix(base.get("cppType"), "TypeDef", "!")]

    def _dialect_buildable(self, r: dict) -> str:
        """A dialect type without parameters that its constraint builds
        (``$_builder.getType<::mlir::shape::SizeType>()``), as MLIR spells
        it (``!shape.size``); else ``""``."""
        call = r.get("builderCall")
        m = re.fullmatch(r"\$_builder\.getType<(::[\w:]+)>\(\)", call.strip()) if isinstance(call, str) else None
        if m is None:
            return ""
        for n in self.d.get("!instanceof", {}).get("TypeDef", []):
            t = self.d[n]
            if t.get("cppType") != m.group(1) or not isinstance(t.get("mnemonic"), str):
                continue
            if (t.get("parameters") or {}).get("args"):
                return ""
            dialect = self.d.get((t.get("dialect") or {}).get("def", ""), {}).get("name")
            return f"!{dialect}.{t['mnemonic']}" if isinstance(dialect, str) else ""
        return ""

    def attribute(self, n: str, name: str) -> list:
        r = self.d.get(n, {})
        optional = 0
        for _ in range(8):
            sup = r.get("!superclasses", [])
            if "OptionalAttr" in sup or r.get("isOptional") == 1 or r.get("defaultValue") not in (None, ""):
                optional = 1
            base = r.get("baseAttr")
            if not (isinstance(base, dict) and ({"OptionalAttr", "DefaultValuedAttr", "DefaultValuedOptionalAttr", "ConfinedAttr"} & set(sup))):
                break
            n = base["def"]
            r = self.d.get(n, {})
        return [name, self._attr_kind(n, r), optional]

    def _attr_kind(self, n: str, r: dict) -> str:
        sup = set(r.get("!superclasses", []))
        if n == "UnitAttr" or r.get("storageType") == "::mlir::UnitAttr":
            return "unit"
        if "TypeAttrBase" in sup or n in ("TypeAttr", "TypeAttrOf") or r.get("storageType") == "::mlir::TypeAttr":
            return "type"
        if "EnumAttrInfo" in sup:
            return "kw"
        if "EnumAttr" in sup:
            f = r.get("assemblyFormat")
            if f in (None, "", "$value"):
                return "kw"
            if isinstance(f, str) and f.replace(" ", "") == "`<`$value`>`":
                return "kw<>"
            return "attr"
        if "DenseArrayAttrBase" in sup:
            st = str(r.get("storageType", ""))
            m = re.search(r"Dense(I1|I8|I16|I32|I64|F32|F64|Bool)ArrayAttr", st)
            return "da:" + ({"Bool": "i1"}.get(m.group(1), m.group(1).lower()) if m else "i64")
        if n == "SymbolNameAttr" or "SymbolNameAttr" in sup:
            return "symname"
        if "AttrDef" in sup:
            return self._dialect_prefix(r.get("cppType"), "AttrDef", "#") or "attr"
        if isinstance(r.get("valueType"), dict):
            # its type is fixed (`I32Attr`, `IndexAttr`): written without `: type`, which the kind names
            fixed = _buildable(self.d.get(r["valueType"].get("def", ""), {}).get("builderCall"))
            return f"attrv:{fixed}" if fixed else "attrv"
        return "attr"

    def type_rules(self, traits: list) -> tuple[list, str]:
        rules: list = []
        seg = ""
        for r in trait_records(self.d, traits):
            sup = r.get("!superclasses", [])
            if "TypesMatchWith" in sup or "RangedTypesMatchWith" in sup:
                rules.append(["with", r.get("lhs"), r.get("rhs"), r.get("transformer")])
            elif "AllTypesMatch" in sup:
                rules.append(["all", list(r.get("values", []))])
            trait = str(r.get("trait") or "")
            name = trait.rsplit("::", 1)[-1] if "::Trait" not in trait else r.get("cppInterfaceName", "")
            if trait == "SameOperandsAndResultType":
                rules.append(["same"])
            elif trait == "SameTypeOperands":
                rules.append(["sameops"])
            elif trait == "FirstAttrDerivedResultType":
                rules.append(["firstattr"])
            elif r.get("cppInterfaceName") == "InferTypeOpInterface" or name == "InferTypeOpInterface":
                rules.append(["infer"])
            elif trait == "AttrSizedOperandSegments":
                seg += "o"
            elif trait == "AttrSizedResultSegments":
                seg += "r"
        return rules, seg

    def is_type(self, n: str) -> bool:
        r = self.d.get(n, {})
        if "OpVariable" in r.get("!superclasses", []):
            r = self.d.get(r["constraint"]["def"], {})
        return "TypeConstraint" in r.get("!superclasses", [])

    def op_name(self, r: dict) -> str | None:
        dialect = self.d.get(r["opDialect"]["def"], {}).get("name")
        if not isinstance(dialect, str) or not isinstance(r.get("opName"), str):
            return None
        return f"{dialect}.{r['opName']}"


def op_format_record(rec: FormatRecords, r: dict) -> dict | None:
    """The data of one op record, or None when it has no declarative format."""
    fmt = r.get("assemblyFormat")
    if not isinstance(fmt, str) or not fmt.strip() or r.get("hasCustomAssemblyFormat") == 1:
        return None
    operands: list = []
    attrs: list = []
    for arg, name in r.get("arguments", {}).get("args", []):
        if rec.is_type(arg["def"]):
            operands.append(rec.variable(arg["def"], name))
        else:
            attrs.append(rec.attribute(arg["def"], name))
    results = [rec.variable(arg["def"], name) for arg, name in r.get("results", {}).get("args", [])]
    regions = [[name, int("VariadicRegion" in rec.d.get(arg["def"], {}).get("!superclasses", []))] for arg, name in r.get("regions", {}).get("args", [])]
    succs = [[name, int("VariadicSuccessor" in rec.d.get(arg["def"], {}).get("!superclasses", []))] for arg, name in r.get("successors", {}).get("args", [])]
    rules, seg = rec.type_rules(r.get("traits", []))
    out: dict = {"f": " ".join(fmt.split())}
    for key, val in (("o", operands), ("r", results), ("a", attrs), ("g", regions), ("s", succs), ("ti", rules)):
        if val:
            out[key] = val
    if seg:
        out["seg"] = seg
    return out


def formats_of(records: dict) -> tuple[dict[str, dict], int]:
    """``{op name: data}`` of every op with a declarative format in one
    dump, and how many op records the dump holds."""
    rec = FormatRecords(records)
    out: dict[str, dict] = {}
    n = 0
    for name in records.get("!instanceof", {}).get("Op", []):
        r = records[name]
        op = rec.op_name(r)
        if op is None:
            continue
        n += 1
        data = op_format_record(rec, r)
        if data is not None:
            out[op] = data
    return out, n


def tblgen_records(td: str, includes: list[str], exe: str) -> dict | str:
    """The records of the user's ``.td`` file (``llvm-tblgen --dump-json``
    with ``-I`` for each of ``includes``), or tblgen's message when it does
    not process (:func:`affine_lsp.ods.tblgen.dump`)."""
    from affine_lsp.ods.tblgen import dump

    got = dump(td, includes, exe)
    return got.records if got.records is not None else got.message
