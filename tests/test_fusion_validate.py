"""The translation validation rejects wrong fusions (it is what makes fusion safe).

The cost model and the slice computation only *propose*; these tests feed
the validator fusions that are wrong the way MLIR 22.1.8's are (a depth
that breaks a WAR dependence, a slice that misses the last write of an
element, a producer removed while its output is live) and generated code
that was tampered with, and check that each is refused with a reason.
"""

from __future__ import annotations

import copy

from affine_lsp.ir.core import Operation
from affine_lsp.source.document import Document
from affine_lsp.transforms.edits import TextEdit, apply_edits
from affine_lsp.transforms.fusion import PRODUCER_CONSUMER, PairAnalysis, _names_with, _same_function, analyze_pair, try_depth
from affine_lsp.transforms.fusion_codegen import Plan, build_rewrite
from affine_lsp.transforms.fusion_ir import block_path, find_block
from affine_lsp.transforms.fusion_isl import AVM
from affine_lsp.transforms.fusion_validate import Verdict, validate
from tests.test_fusion_harness import DATA


def _pair(name: str, src: int = 0, dst: int = 1) -> tuple[Document, PairAnalysis]:
    text = (DATA / name).read_text()
    doc = Document(text)
    f = next(iter(doc.sections[0].functions()))
    loops = [o for o in f.regions[0].blocks[0].operations if o.name == "affine.for"]
    pa = analyze_pair(PRODUCER_CONSUMER, loops[src], loops[dst])
    assert pa.ok, pa.reason
    return doc, pa


def _verdict(text: str, pa: PairAnalysis, plan: Plan, tamper: tuple[str, str] | None = None) -> Verdict:
    rw = build_rewrite(text, plan, _names_with(text, plan))
    if tamper is not None:
        rw.edits = [TextEdit(e.start, e.end, e.new_text.replace(*tamper)) for e in rw.edits]
    new = apply_edits(text, rw.edits)
    nf = _same_function(Document(new).sections[0], pa.func)
    assert nf is not None
    nb = find_block(nf, rw.new_path(block_path(pa.block, pa.func)))
    assert nb is not None
    return validate(rw, pa.func, pa.block, nf, nb)


def _plan(pa: PairAnalysis, depth: int, remove: bool = True) -> Plan:
    return Plan(pa.kind, pa.src, pa.dst, pa.block, depth, pa.chain, pa.slices[depth], remove, [], pa.insert_before)


def test_doitgen_depth_3_breaks_the_war_dependence() -> None:
    doc, pa = _pair("doitgen.mlir")
    text = doc.text
    assert pa.max_depth == 3
    v = _verdict(text, pa, _plan(pa, 3))
    assert not v.ok and "read other values" in v.reason
    assert try_depth(doc, pa, 3) is None
    got = try_depth(doc, pa, 2)
    assert got is not None and got.removed_src


def test_a_slice_missing_the_last_write_is_refused() -> None:
    # T[j] is written at i = 2j and i = 2j + 1: a slice with i = 2j only
    # would leave the consumer the value of the earlier iteration.
    doc, pa = _pair("later_write.mlir")
    text = doc.text
    sl = copy.copy(pa.slices[1])
    sl.bounds = dict(sl.bounds)
    loop: Operation = pa.src
    lb = copy.copy(sl.bounds[loop])
    j = pa.chain[0].regions[0].blocks[0].arguments[0]
    from affine_lsp.ir.affine_expr import dim

    lb.lower = AVM([dim(0) * 2], [j], [])
    lb.upper = AVM([dim(0) * 2 + 1], [j], [])
    lb.exact_one = True
    sl.bounds[loop] = lb
    plan = Plan(pa.kind, pa.src, pa.dst, pa.block, 1, pa.chain, sl, True, [], pa.insert_before)
    v = _verdict(text, pa, plan)
    assert not v.ok, v
    # the real slice has both iterations
    assert pa.slices[1].bounds[loop].trip == 2
    assert try_depth(doc, pa, 1) is not None


def test_removing_a_producer_with_live_output_is_refused() -> None:
    # fdtd-2d: ex is live out and written on rows hz never reads.
    doc, pa = _pair("fdtd2d_step.mlir", 1, 2)
    text = doc.text
    for d in pa.slices:
        v = _verdict(text, pa, _plan(pa, d))
        assert not v.ok
    assert all(try_depth(doc, pa, d) is None for d in pa.slices)


def test_tampered_code_is_refused() -> None:
    doc, pa = _pair("chain.mlir")
    text = doc.text
    plan = _plan(pa, 1)
    assert _verdict(text, pa, plan).ok
    v = _verdict(text, pa, plan, ("affine.load %A[%i]", "affine.load %A[8 - %i]"))
    assert not v.ok and "other elements" in v.reason
    # a copy that writes the private element of another iteration
    doc2, pa2 = _pair("stencil.mlir")
    text2 = doc2.text
    from affine_lsp.transforms.fusion import _private_bufs
    from affine_lsp.transforms.rewrite import NameGen

    sl = pa2.slices[1]
    privs = _private_bufs(pa2, sl, NameGen.from_text(text2))
    assert privs
    plan2 = Plan(pa2.kind, pa2.src, pa2.dst, pa2.block, 1, pa2.chain, sl, True, privs, pa2.insert_before)
    assert _verdict(text2, pa2, plan2).ok
    name = privs[0].name
    v = _verdict(text2, pa2, plan2, (f"affine.store %s_1, {name}[%i_1 - %i + 1]", f"affine.store %s_1, {name}[%i - %i + 1]"))
    assert not v.ok
