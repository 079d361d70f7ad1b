"""The fusion API the language server and the CLI use.

* ``fusion_candidates(doc, loop)``: titles, minimal edits (comments and
  formatting of untouched code kept), details, never offered when illegal;
* ``fusion_report(loop)``: the cost model at every depth (the seed's
  two-matmul numbers);
* what is refused up front (calls, unknown ops, aliases, loop results);
* ``affine-lsp fuse`` (``--all``, ``--loop``, ``--report``, sections, ``-o``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from affine_lsp.cli import main as cli_main
from affine_lsp.ir.core import Operation
from affine_lsp.source.document import Document
from affine_lsp.transforms.edits import apply_edits, checked
from affine_lsp.transforms.fusion import PRODUCER_CONSUMER, SIBLING, analyze_pair, fuse_all, fusion_candidates, fusion_report
from tests.test_fusion_harness import DATA, top_level_nests

SEED = (DATA / "seed_two_matmul.mlir.txt").read_text()


def _loops(doc: Document, section: int = 0) -> list[Operation]:
    f = next(iter(doc.sections[section].functions()))
    return [o for o in f.regions[0].blocks[0].operations if o.name == "affine.for"]


def test_seed_two_matmul_title_and_numbers() -> None:
    doc = Document(SEED)
    ts = fusion_candidates(doc, _loops(doc)[1])
    assert [t.title for t in ts] == ["Fuse loops here (producer-consumer, depth 2, compute +0%, storage -59%)"]
    t = ts[0]
    assert t.kind == "fuse"
    assert t.data["depth"] == 2 and t.data["removed_src"] and t.data["kind"] == PRODUCER_CONSUMER
    # the seed's figures: costs of the source, destination and fused nest
    for number in ("1207959552", "201326592", "1409286144", "77510737920", "9961472", "3407872", "+5400%"):
        assert number in t.details
    # two edits: the copy inserted into the destination, the source deleted
    assert len(t.edits) == 2
    new = checked(SEED, t.edits)
    assert new == apply_edits(SEED, t.edits)
    assert top_level_nests(new, "main") == 1
    # the fused nest is the seed's: the producer's two inner loops first
    body = new[new.index("affine.for %arg6") :]
    assert body.index("affine.for %arg7_1 = 0 to 512") < body.index("affine.for %arg7 = 0 to 64")


def test_seed_report_lists_every_depth() -> None:
    doc = Document(SEED)
    rep = fusion_report(_loops(doc)[1], doc)
    assert rep.startswith("### Loop fusion")
    rows = [line for line in rep.splitlines() if re.match(r"\| [1-4] \|", line)]
    assert [r.split("|")[1].strip() for r in rows] == ["4", "3", "2", "1"]
    assert "+5400%" in rows[0] and "+0%" in rows[2]
    assert "picks depth 2" in rep
    assert fusion_report(_loops(doc)[0], doc) == rep.replace("(lines 3 → 17)", "(lines 3 → 17)")


CHAIN = """\
// A pointwise chain.
func.func @f(%A: memref<10xf32>, %C: memref<10xf32>) {
  %B = memref.alloc() : memref<10xf32>
  // produce B
  affine.for %i = 0 to 10 {
    %a = affine.load %A[%i] : memref<10xf32>
    affine.store %a, %B[%i] : memref<10xf32>
  }
  %one = arith.constant 1.0 : f32   // between the nests
  // consume B
  affine.for %j = 0 to 10 {
    // keep this comment
    %b = affine.load %B[%j] : memref<10xf32>
    %c = arith.addf %b,   %one : f32      // odd spacing stays
    affine.store %c, %C[%j] : memref<10xf32>
  }
  return
}
"""


def test_edits_are_minimal_and_keep_comments() -> None:
    doc = Document(CHAIN)
    ts = fusion_candidates(doc, _loops(doc)[1])
    assert len(ts) == 1
    t = ts[0]
    assert t.title == "Fuse loops here (producer-consumer, depth 1, compute +0%, storage -48%)"
    new = checked(CHAIN, t.edits)
    for keep in (
        "// A pointwise chain.",
        "// between the nests",
        "// consume B",
        "// keep this comment",
        "%c = arith.addf %b,   %one : f32      // odd spacing stays",
    ):
        assert keep in new
    assert "memref<1xf32>" in new and "%B = memref.alloc" not in new
    # edits touch only: the producer, its allocation, the copy and the two private accesses
    assert len(t.edits) <= 6
    for e in t.edits:
        assert e.end - e.start < 200


def test_edits_are_absolute_in_a_multi_section_document() -> None:
    text = CHAIN + "\n// -----\n\n" + CHAIN.replace("@f", "@g")
    doc = Document(text)
    loop = _loops(doc, 1)[1]
    ts = fusion_candidates(doc, loop)
    assert len(ts) == 1
    new = checked(text, ts[0].edits)
    first, second = new.split("// -----")
    assert first == CHAIN + "\n"
    assert "memref<1xf32>" in second


def test_not_offered_when_illegal() -> None:
    text = (DATA / "no_war.mlir").read_text()
    doc = Document(text)
    for lp in _loops(doc):
        assert fusion_candidates(doc, lp, include_unprofitable=True) == []


def test_unprofitable_fusion_is_only_offered_on_request() -> None:
    text = (DATA / "stencil.mlir").read_text()
    doc = Document(text)
    assert fusion_candidates(doc, _loops(doc)[1]) == []
    ts = fusion_candidates(doc, _loops(doc)[1], include_unprofitable=True)
    assert len(ts) == 1 and "compute +56%" in ts[0].title


def test_sibling_fusion_is_offered() -> None:
    text = (DATA / "bicg.mlir").read_text()
    doc = Document(text)
    loops = _loops(doc)
    ts = fusion_candidates(doc, loops[3], loops[2])
    assert any(t.data["kind"] == SIBLING for t in ts)


@pytest.mark.parametrize(
    ("snippet", "reason"),
    [
        ("call @g(%B) : (memref<8xf32>) -> ()", "between the loop nests"),
        ('"test.touch"(%B) : (memref<8xf32>) -> ()', "between the loop nests"),
        ("%V = memref.cast %B : memref<8xf32> to memref<?xf32>", "may be aliased"),
        ("test.touch %B : memref<8xf32>", "may be aliased"),
        ('"test.barrier"() : () -> ()', "between the loop nests"),
        ('"barrier"() : () -> ()', "unknown side effects"),
        ("memref.copy %A, %B : memref<8xf32> to memref<8xf32>", "between the loop nests"),
    ],
)
def test_refused_between_the_nests(snippet: str, reason: str) -> None:
    text = f"""\
func.func private @g(memref<8xf32>)
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {{
  %B = memref.alloc() : memref<8xf32>
  affine.for %i = 0 to 8 {{
    %a = affine.load %A[%i] : memref<8xf32>
    affine.store %a, %B[%i] : memref<8xf32>
  }}
  {snippet}
  affine.for %j = 0 to 8 {{
    %b = affine.load %B[%j] : memref<8xf32>
    affine.store %b, %C[%j] : memref<8xf32>
  }}
  return
}}
"""
    doc = Document(text)
    f = list(doc.sections[0].functions())[1]
    loops = [o for o in f.regions[0].blocks[0].operations if o.name == "affine.for"]
    pa = analyze_pair(PRODUCER_CONSUMER, loops[0], loops[1])
    assert not pa.ok and reason in pa.reason
    assert fuse_all(text) == text


@pytest.mark.parametrize(
    ("inner", "reason"),
    [
        ("func.call @h(%a) : (f32) -> ()", "side effects"),
        ('"test.op"(%B) : (memref<8xf32>) -> ()', "side effects"),
        ("vector.print %a : f32", "another order"),
        ("%x = memref.load %A[%i] : memref<8xf32>", "side effects"),
    ],
)
def test_refused_inside_the_producer(inner: str, reason: str) -> None:
    text = f"""\
func.func private @h(f32)
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {{
  %B = memref.alloc() : memref<8xf32>
  affine.for %i = 0 to 8 {{
    %a = affine.load %A[%i] : memref<8xf32>
    {inner}
    affine.store %a, %B[%i] : memref<8xf32>
  }}
  affine.for %j = 0 to 8 {{
    %b = affine.load %B[%j] : memref<8xf32>
    affine.store %b, %C[%j] : memref<8xf32>
  }}
  return
}}
"""
    doc = Document(text)
    f = list(doc.sections[0].functions())[1]
    loops = [o for o in f.regions[0].blocks[0].operations if o.name == "affine.for"]
    pa = analyze_pair(PRODUCER_CONSUMER, loops[0], loops[1])
    assert not pa.ok and reason in pa.reason, pa.reason


def test_loop_results_are_refused() -> None:
    text = (DATA / "no_iter_args.mlir").read_text()
    doc = Document(text)
    loops = _loops(doc)
    pa = analyze_pair(PRODUCER_CONSUMER, loops[0], loops[1])
    assert not pa.ok and "iter_args" in pa.reason


def test_print_in_the_consumer_is_allowed() -> None:
    text = CHAIN.replace("    affine.store %c, %C[%j] : memref<10xf32>\n", "    affine.store %c, %C[%j] : memref<10xf32>\n    vector.print %c : f32\n")
    assert top_level_nests(fuse_all(text), "f") == 1


# ------------------------------------------------------------------ the CLI


def test_cli_all_and_output_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in.mlir"
    src.write_text(CHAIN + "// -----\n" + (DATA / "no_war.mlir").read_text())
    out = tmp_path / "out.mlir"
    assert cli_main(["fuse", str(src), "--all", "--split-input-file", "-o", str(out)]) == 0
    text = out.read_text()
    a, b = text.split("// -----\n")
    assert top_level_nests(a, "f") == 1
    assert b == (DATA / "no_war.mlir").read_text()
    assert cli_main(["fuse", str(src)]) == 0
    assert capsys.readouterr().out == text


def test_cli_loop_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "seed.mlir"
    src.write_text(SEED)
    assert cli_main(["fuse", str(src), "--loop", "17"]) == 0
    cap = capsys.readouterr()
    assert "remark: fused (producer-consumer, depth 2, compute +0%, storage -59%); predicted: " in cap.err
    assert top_level_nests(cap.out, "main") == 1
    assert cli_main(["fuse", str(src), "--report", "--loop", "3"]) == 0
    cap = capsys.readouterr()
    assert "| 2 | +0% |" in cap.out
    assert cli_main(["fuse", str(src), "--loop", "2"]) == 1


def test_cli_modes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "bicg.mlir"
    src.write_text((DATA / "bicg.mlir").read_text())
    assert cli_main(["fuse", str(src), "--mode", "sibling"]) == 0
    sib = capsys.readouterr().out
    assert cli_main(["fuse", str(src), "--mode", "producer"]) == 0
    prod = capsys.readouterr().out
    assert top_level_nests(sib, "bicg") == 3  # the two reductions over A
    # only q's initialisation fuses into its reduction (s is re-read across i)
    assert top_level_nests(prod, "bicg") == 3
    assert cli_main(["fuse", str(src)]) == 0
    assert top_level_nests(capsys.readouterr().out, "bicg") == 2
