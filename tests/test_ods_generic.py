"""The ODS interpreter against ``mlir-opt -mlir-print-op-generic``: one
instance of each upstream op with a declarative format that
``scripts/gen_ods_instances.py`` could build and mlir-opt accepts
(``tests/data/ods/instances_22.1.8.json``; the others, with the reason, in
``uninstantiated_22.1.8.json``), parsed by affine-lsp in its custom form,
gives the generic form mlir-opt printed for it: the same operands (the same
function arguments, in order) and operand types, the same result types, and
each attribute the instance writes with the value mlir-opt prints (an
attribute only mlir-opt has is a default-valued one the text does not
write). The known disagreements are explicit xfails with their reason
(``xfail_22.1.8.json``). Regenerate with the script (``--check``)."""

from __future__ import annotations

import json
import re
import sys
from functools import cache
from pathlib import Path

import pytest

from affine_lsp import diagnostics
from affine_lsp.source.document import Document

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "ods"
sys.path.insert(0, str(ROOT / "scripts"))
import gen_ods_instances  # noqa: E402


@cache
def _instances() -> dict[str, dict]:
    return json.loads((DATA / "instances_22.1.8.json").read_text())["ops"]


@cache
def _xfails() -> dict[str, str]:
    p = DATA / "xfail_22.1.8.json"
    return json.loads(p.read_text())["ops"] if p.is_file() else {}


def _params() -> list:
    out = []
    for name in sorted(_instances()):
        reason = _xfails().get(name)
        out.append(pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=reason)) if reason else name)
    return out


_ENUM_ATTR = re.compile(r"#[\w.]+<(?:\w+ )?(\w+)>")


def _same_enum_case(theirs: str | None, ours: str) -> bool:
    """An enum attribute (``#gpu<shuffle_mode xor>``, ``#vector.kind<add>``)
    that affine-lsp keeps as the case's keyword (``xor``, ``add``): the same
    case. (An enum mlir-opt prints as its integer value is not matched.)"""
    m = _ENUM_ATTR.fullmatch(theirs or "")
    return m is not None and m.group(1) == ours


def compare(name: str) -> list[str]:
    """What affine-lsp's reading of the instance of ``name`` disagrees on
    with mlir-opt's generic form (empty: none)."""
    inst = _instances()[name]
    doc = Document(inst["text"])
    problems = [f"error: {n.message}" for n in diagnostics.collect(doc) if n.severity == "error"]
    ops = [o for o in doc.sections[0].module.walk() if o.name not in ("builtin.module", "func.func", "func.return")]
    if len(ops) != 1 or ops[0].name != name:
        return problems + [f"ops read: {[o.name for o in ops]}"]
    op = ops[0]
    if not op.known:
        return problems + ["the op was skipped"]
    ours = gen_ods_instances.op_facts(op)
    for key in ("operands", "operand_types", "result_types"):
        if ours[key] != inst[key]:
            problems.append(f"{key}: {ours[key]} != mlir-opt's {inst[key]}")
    theirs = inst["attributes"]
    for k, v in ours["attributes"].items():
        if theirs.get(k) != v and not _same_enum_case(theirs.get(k), v):
            problems.append(f"attribute {k}: {v} != mlir-opt's {theirs.get(k)}")
    for k in inst["written"]:
        if k in theirs and k not in ours["attributes"]:
            problems.append(f"attribute {k} missing (mlir-opt: {theirs[k]})")
    return problems


def test_the_instances_cover_the_formats():
    """Every declarative upstream op is instantiated or listed with a reason."""
    formats = json.loads((ROOT / "affine_lsp" / "data" / "formats_22.1.8.json").read_text())["ops"]
    un = json.loads((DATA / "uninstantiated_22.1.8.json").read_text())["ops"]
    assert set(_instances()) | set(un) == set(formats)
    assert not set(_instances()) & set(un)
    assert all(un.values())
    assert set(_xfails()) <= set(_instances())


@pytest.mark.parametrize("name", _params())
def test_op_reads_as_mlir_opts_generic_form(name: str):
    assert compare(name) == []
