"""Agreement with MLIR's ``-test-memref-dependence-check`` on the upstream test.

Every expected remark of ``memref-dependence-check.mlir`` (373, in
``memref-dependence-check.expected.json``) must be produced to the letter,
and nothing else. Where our remark differs, the test *proves* by enumerating
every iteration pair (:mod:`affine_lsp.analysis.bruteforce`) that ours is the
exact answer and MLIR's the looser one (its Fourier-Motzkin projection
over-approximates with ``mod``/``floordiv``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from affine_lsp.analysis.bruteforce import brute_dependence
from affine_lsp.analysis.remarks import memref_dependence_remarks, pass_ops
from affine_lsp.source.document import Document

SHARED = Path(__file__).resolve().parents[2] / "shared"
UPSTREAM = SHARED / "corpus" / "upstream"
SOURCE = UPSTREAM / "memref-dependence-check.mlir"
EXPECTED = UPSTREAM / "memref-dependence-check.expected.json"

# The remarks where MLIR is looser than exact (function, from, to, depth):
# MLIR's result -> ours. Each is proven below by enumeration.
KNOWN_LOOSER = {
    ("mod_deps", 1, 1, 1): ("[2, 9]", "[2, 8]"),
    ("mod_div_3d", 0, 0, 1): ("[1, 3][-7, 7][-3, 3]", "[1, 3][-6, 6][-3, 3]"),
    ("mod_div_3d", 0, 0, 2): ("[0, 0][2, 7][-3, 3]", "[0, 0][2, 6][-3, 3]"),
}

_INTERVAL = re.compile(r"\[(-inf|-?\d+), (\+inf|-?\d+)\]")


def _intervals(result: str) -> list[tuple[int | None, int | None]] | None:
    if result in ("true", "false"):
        return None
    out = []
    for lo, hi in _INTERVAL.findall(result):
        out.append((None if lo == "-inf" else int(lo), None if hi == "+inf" else int(hi)))
    assert "".join(f"[{a}, {b}]" for a, b in _INTERVAL.findall(result)) == result
    return out


def _contains(outer: tuple[int | None, int | None], inner: tuple[int | None, int | None]) -> bool:
    lo_ok = outer[0] is None or (inner[0] is not None and inner[0] >= outer[0])
    hi_ok = outer[1] is None or (inner[1] is not None and inner[1] <= outer[1])
    return lo_ok and hi_ok


@pytest.fixture(scope="module")
def corpus():
    if not SOURCE.is_file() or not EXPECTED.is_file():
        pytest.skip(f"corpus not available at {UPSTREAM}")
    doc = Document(SOURCE.read_text())
    expected = json.loads(EXPECTED.read_text())
    return doc, expected


def test_no_parse_errors(corpus) -> None:
    doc, _ = corpus
    assert [n.message for n in doc.notes() if n.severity == "error"] == []


def test_every_remark_matches_or_is_provably_tighter(corpus) -> None:
    doc, expected = corpus
    assert expected["num_remarks"] == 373
    assert len(doc.sections) == len(expected["chunks"])
    ours: dict[tuple[int, int, int, int, int], tuple[str, object]] = {}
    for section in doc.sections:
        for r in memref_dependence_remarks([section.module]):
            line = doc.lines.position(r.op.name_span.start)[0] + 1
            key = (section.index, line, r.src, r.dst, r.depth)
            assert key not in ours
            assert not r.failed, f"unexpected 'dependence check failed' at {key}"
            ours[key] = (r.message, r)
    exp: dict[tuple[int, int, int, int, int], dict] = {}
    for chunk in expected["chunks"]:
        for rem in chunk["remarks"]:
            exp[(chunk["index"], rem["op_line"], rem["from"], rem["to"], rem["depth"])] = rem
    assert len(exp) == 373
    assert set(ours) == set(exp), "the set of remarks differs (missing or extra remarks)"

    deviations = {}
    for key, rem in sorted(exp.items()):
        message, remark = ours[key]
        if message == rem["message"]:
            continue
        # A difference: both must report a dependence with intervals, ours
        # inside MLIR's, and ours must be exactly what enumeration finds.
        section = doc.sections[key[0]]
        ops = pass_ops([section.module])
        src, dst, depth = ops[key[2]], ops[key[3]], key[4]
        theirs_iv = _intervals(rem["result"])
        ours_iv = _intervals(remark.result)
        assert theirs_iv is not None and ours_iv is not None, f"{key}: {message!r} vs {rem['message']!r}"
        assert len(theirs_iv) == len(ours_iv)
        assert all(_contains(t, o) for t, o in zip(theirs_iv, ours_iv)), f"{key}: ours is not inside MLIR's"
        exact = brute_dependence(src, dst, depth)
        assert exact is not None, f"{key}: enumeration finds no dependence"
        assert [tuple(x) for x in exact] == ours_iv, f"{key}: ours {ours_iv} is not the exact {exact}"
        assert ours_iv != theirs_iv
        deviations[(rem["function"], key[2], key[3], depth)] = (rem["result"], remark.result)
    assert deviations == KNOWN_LOOSER


def test_agreeing_remarks_are_exact_where_enumerable(corpus) -> None:
    """Every remark over constant-bound nests agrees with enumeration too."""
    doc, _ = corpus
    checked = 0
    for section in doc.sections:
        ops = pass_ops([section.module])
        cache: dict = {}
        for r in memref_dependence_remarks([section.module]):
            if r.dep is None:
                continue
            try:
                exact = brute_dependence(ops[r.src], ops[r.dst], r.depth, cache=cache, limit=20_000)
            except Exception:  # symbols without values: not enumerable
                continue
            checked += 1
            if exact is None:
                assert r.result == "false"
            elif r.depth > r.dep.num_common:
                assert r.result == "true"
            else:
                assert _intervals(r.result) == [tuple(x) for x in exact] or (r.result == "true" and not exact)
    assert checked > 300
