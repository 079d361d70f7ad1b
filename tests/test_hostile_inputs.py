"""Bad input of any kind gets a clear diagnostic, never a crash or a hang.

(The same inputs sent through the real server are in the reliability tests.)
"""

from __future__ import annotations

import random

from affine_lsp import diagnostics
from affine_lsp.cli import main
from affine_lsp.source.document import MAX_NESTING, Document
from bench.generate import generate


def collect(text: str) -> list[tuple[str, str]]:
    doc = Document(text)
    return [(n.severity, n.message) for n in diagnostics.collect(doc)]


def test_binary_junk_and_invalid_utf8() -> None:
    rnd = random.Random(7)
    junk = bytes(rnd.getrandbits(8) for _ in range(20000)).decode("utf-8", errors="replace")
    notes = collect(junk)
    assert any(sev == "error" for sev, _ in notes)
    assert ("warning", "invalid UTF-8 (replaced by U+FFFD) in the source text") in notes
    assert all(len(msg) < 300 for _, msg in notes)


def test_nul_bytes_inside_a_function() -> None:
    notes = collect("func.func @f() {\n\x00\x01 return\n}\nfunc.func @g() {\n  return\n}\n")
    assert ("warning", "control character '\\x00' in the source text") in notes
    assert sum(1 for sev, _ in notes if sev == "error") == 1


def test_cli_reads_invalid_utf8_bytes(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    p = tmp_path / "bad.mlir"
    p.write_bytes(b"func.func @f() {\n  // \xff\xfe comment\n  return\n}\n")
    assert main(["check", str(p)]) == 0
    assert "invalid UTF-8" in capsys.readouterr().out


def test_a_100k_character_line() -> None:
    text = "func.func @f() {\n  %0 = arith.constant 1 : index" + " " * 100_000 + "\n  return\n}\n"
    assert [n for n in collect(text) if n[0] == "error"] == []


def test_nesting_5000_regions_deep() -> None:
    nest = "func.func @f() {\n" + "".join(f"affine.for %i{k} = 0 to 2 {{\n" for k in range(5000)) + "}\n" * 5000 + "return\n}\n"
    notes = collect(nest + "func.func @ok() {\n  return\n}\n")
    assert notes == [("error", f"nesting too deep to analyse: 5001 levels of brackets (the limit is {MAX_NESTING})")]


def test_a_very_deep_affine_expression() -> None:
    text = "#m = affine_map<(d0) -> (" + "d0 + " * 20000 + "1)>\n"
    notes = collect(text)
    assert notes == [("error", "affine expression nested too deeply to analyse (more than 300 levels)")]


def test_ten_thousand_map_aliases() -> None:
    text = "".join(f"#map{k} = affine_map<(d0) -> (d0 + {k})>\n" for k in range(10000))
    text += "func.func @f(%i: index) -> index {\n  %0 = affine.apply #map9999(%i)\n  return %0 : index\n}\n"
    doc = Document(text)
    assert [n for n in diagnostics.collect(doc) if n.severity == "error"] == []
    apply = next(op for op in doc.sections[0].module.walk() if op.name == "affine.apply")
    assert apply.attributes["map"].map.evaluate([1], []) == [10000]  # type: ignore[attr-defined]


def test_coefficients_beyond_64_bits() -> None:
    text = (
        "func.func @f(%A: memref<10xf32>) {\n  affine.for %i = 0 to 10 {\n"
        "    %v = affine.load %A[%i * 123456789012345678901234567890 + 1] : memref<10xf32>\n  }\n  return\n}\n"
    )
    doc = Document(text)
    load = next(op for op in doc.sections[0].module.walk() if op.name == "affine.load")
    assert load.attributes["map"].map.evaluate([2], []) == [2 * 123456789012345678901234567890 + 1]  # type: ignore[attr-defined]
    assert [n.message for n in diagnostics.collect(doc) if n.severity == "error"] == []


def test_a_200k_line_file() -> None:
    text = generate(200_000)
    doc = Document(text)
    notes = diagnostics.collect(doc, checks=False)
    assert [n for n in notes if n.severity == "error"] == []
    assert sum(1 for _ in doc.sections[0].functions()) > 5000
