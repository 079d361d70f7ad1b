"""Every error mlir-opt 22.1.8 reports on upstream ``invalid.mlir`` is
reproduced by ``affine-lsp check --split-input-file`` on the same line, with a
message containing the expected text, and no chunk gets an unexpected error.

The expectations come from ``invalid.expected.json`` beside the test file:
designators that hold under 22.1.8, and for the drifted chunks what 22.1.8
actually reports (``reference_unexpected_22_1_8``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from affine_lsp.cli import main

SHARED = Path(__file__).resolve().parents[2] / "shared"
INVALID = SHARED / "corpus" / "upstream" / "invalid.mlir"
EXPECTED = SHARED / "corpus" / "upstream" / "invalid.expected.json"

pytestmark = pytest.mark.skipif(not (INVALID.is_file() and EXPECTED.is_file()), reason="shared corpus not available")

_LINE_RE = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|note|info|remark): (?P<msg>.*)$")


def _expectations() -> list[dict]:
    data = json.loads(EXPECTED.read_text())
    chunks = []
    for c in data["chunks"]:
        exp: list[tuple[str, int, str]] = []
        for e in c["expected"]:
            if e["holds_under_mlir_22_1_8"]:
                exp.append((e["kind"], e["target_line"], e["message"]))
        for u in c["reference_unexpected_22_1_8"]:
            m = re.match(r"unexpected (error|note|warning|remark): (.*)$", u["diagnostic"])
            assert m, u
            exp.append((m.group(1), u["line"], m.group(2)))
        chunks.append({"index": c["index"], "first_line": c["first_line"], "expected": exp})
    return chunks


def _run_check(capsys: pytest.CaptureFixture[str]) -> list[tuple[str, int, str]]:
    status = main(["check", "--split-input-file", str(INVALID)])
    out = capsys.readouterr().out
    assert status == 1
    diags = []
    for line in out.splitlines():
        m = _LINE_RE.match(line)
        assert m, line
        diags.append((m.group("sev"), int(m.group("line")), m.group("msg")))
    return diags


def _chunk_of(line: int, chunks: list[dict]) -> dict:
    cur = chunks[0]
    for c in chunks:
        if c["first_line"] <= line:
            cur = c
    return cur


def test_invalid_mlir_matches_mlir_opt_22_1_8(capsys: pytest.CaptureFixture[str]) -> None:
    chunks = _expectations()
    diags = _run_check(capsys)
    by_chunk: dict[int, list[tuple[str, int, str]]] = {c["index"]: [] for c in chunks}
    for d in diags:
        by_chunk[_chunk_of(d[1], chunks)["index"]].append(d)
    problems = []
    for c in chunks:
        got = by_chunk[c["index"]]
        errors = [d for d in got if d[0] == "error"]
        matched: set[int] = set()
        for kind, line, text in c["expected"]:
            pool = errors if kind == "error" else [d for d in got if d[0] == "note"]
            hit = next((i for i, d in enumerate(pool) if d[1] == line and text in d[2]), None)
            if hit is None:
                problems.append(f"chunk {c['index']}: expected {kind} on line {line} containing {text!r}; got {got}")
            elif kind == "error":
                matched.add(hit)
        for i, d in enumerate(errors):
            if i not in matched:
                problems.append(f"chunk {c['index']}: unexpected error {d}")
    assert not problems, "\n".join(problems)


def test_every_invalid_chunk_gets_exactly_one_error(capsys: pytest.CaptureFixture[str]) -> None:
    """mlir-opt stops at the first error of a function: one per chunk here."""
    chunks = _expectations()
    diags = _run_check(capsys)
    counts: dict[int, int] = {}
    for sev, line, _msg in diags:
        if sev == "error":
            idx = _chunk_of(line, chunks)["index"]
            counts[idx] = counts.get(idx, 0) + 1
    for c in chunks:
        want = sum(1 for k, _l, _t in c["expected"] if k == "error")
        assert counts.get(c["index"], 0) == want, (c["index"], counts.get(c["index"], 0), want)
