"""``affine-lsp.iterationSpace`` and ``affine-lsp.dependenceGraph`` through a
real LSP client: the arrows are exactly the dependent iteration pairs that
brute-force enumeration (:mod:`affine_lsp.analysis.bruteforce`) finds, on the
seed's examples (``[2, 2][0, 0]`` and ``[1, 7][-1, 3]``) and on a symbolic
nest with ``max``/``min`` bounds and an ``affine.if``."""

from __future__ import annotations

import importlib.util
import itertools

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.test_server_support import config, no_server_errors, open_doc, pos, start

if importlib.util.find_spec("affine_lsp.analysis") is None:
    pytest.skip("the analysis package is not available", allow_module_level=True)

from affine_lsp.analysis.bruteforce import brute_pairs, instances, loop_ivs
from affine_lsp.ir.core import Operation
from affine_lsp.source.document import Document

pytestmark = pytest.mark.asyncio(loop_scope="module")

# The seed's two loop nests (002: memref dependence checks in MLIR).
SEED_SIMPLE = """\
func.func @kernel() {
  %0 = memref.alloc() : memref<10x10xf32>
  %cst = arith.constant 7.000000e+00 : f32
  affine.for %arg0 = 0 to 9 {
    affine.for %arg1 = 0 to 9 {
      affine.store %cst, %0[%arg0, %arg1] : memref<10x10xf32>
      %5 = affine.load %0[%arg0 - 2, %arg1] : memref<10x10xf32>
    }
  }
  return
}
"""
SEED_SKEWED = """\
func.func @kernel() {
  %0 = memref.alloc() : memref<10x10xf32>
  %cst = arith.constant 7.000000e+00 : f32
  affine.for %i0 = 0 to 10 {
    affine.for %i1 = 0 to 7 {
      affine.store %cst, %0[%i0 + 3 * %i1, 4 * %i0 + 5 * %i1] : memref<10x10xf32>
      %a = affine.load %0[%i0 + %i1, %i0 + 2 * %i1 + 3] : memref<10x10xf32>
    }
  }
  return
}
"""
# Symbolic bounds, max/min maps, a third loop (projected or fixed) and an affine.if.
BANDED = """\
func.func @banded(%A: memref<?x?xf32>, %N: index) {
  affine.for %i = 1 to %N {
    affine.for %j = max affine_map<(d0) -> (0, d0 - 3)>(%i) to min affine_map<(d0)[s0] -> (d0 + 2, s0)>(%i)[%N] {
      affine.for %k = 0 to 3 {
        %w = affine.load %A[%j, %k] : memref<?x?xf32>
        affine.if affine_set<(d0, d1) : (d0 - d1 - 1 >= 0)>(%i, %j) {
          %v = affine.load %A[%i - 1, %j + %k] : memref<?x?xf32>
          affine.store %v, %A[%i, %j] : memref<?x?xf32>
        }
      }
    }
  }
  return
}
"""
BIG = """\
func.func @big(%A: memref<1000x1000xf32>) {
  affine.for %i = 0 to 1000 {
    affine.for %j = 0 to 1000 {
      %v = affine.load %A[%i, %j] : memref<1000x1000xf32>
      affine.store %v, %A[%i, %j + 1] : memref<1000x1000xf32>
    }
  }
  return
}
"""
# A strided one-loop nest, and an affine.parallel around a loop.
STRIDED_AND_PARALLEL = """\
func.func @one(%A: memref<100xf32>, %N: index) {
  affine.for %i = 0 to %N step 3 {
    %v = affine.load %A[%i] : memref<100xf32>
    affine.store %v, %A[%i + 6] : memref<100xf32>
  }
  return
}
func.func @par(%A: memref<100x100xf32>) {
  affine.parallel (%i, %j) = (0, 0) to (6, 5) {
    affine.for %k = 0 to 4 {
      %v = affine.load %A[%i + %j, %k] : memref<100x100xf32>
      affine.store %v, %A[%i, %k + 1] : memref<100x100xf32>
    }
  }
  return
}
"""
DOCS = {"simple": SEED_SIMPLE, "skewed": SEED_SKEWED, "banded": BANDED, "big": BIG, "misc": STRIDED_AND_PARALLEL}


def uri(name: str) -> str:
    return f"file:///views/{name}.mlir"


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient):
    # as the VS Code extension does: the hovers may link to its iteration-space view
    await start(lsp_client, init_options={"commandLinks": ["affineLsp.showIterationSpace"]})
    for name, text in DOCS.items():
        open_doc(lsp_client, uri(name), text)
    yield
    no_server_errors(lsp_client)
    await lsp_client.shutdown_session()


async def command(client: LanguageClient, name: str, arg: dict) -> dict:
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(command=name, arguments=[arg]))


async def space(client: LanguageClient, doc: str, needle: str, **extra: object) -> dict:
    p = pos(DOCS[doc], needle)
    return await command(client, "affine-lsp.iterationSpace", {"uri": uri(doc), "position": {"line": p.line, "character": p.character}, **extra})


def ops_by_line(text: str) -> dict[int, Operation]:
    doc = Document(text)
    return {doc.lines.line_of(op.name_span.start): op for op in doc.sections[0].module.walk() if op.name.startswith("affine.")}


def drawn(ans: dict) -> dict[tuple[int, int, int], set[tuple[tuple[int, ...], tuple[int, ...]]]]:
    """(source line, sink line, depth) -> the arrows of that dependence."""
    out: dict[tuple[int, int, int], set] = {}
    for k, d in enumerate(ans["dependences"]):
        src, dst = ans["accesses"][d["source"]], ans["accesses"][d["sink"]]
        key = (src["range"]["start"]["line"], dst["range"]["start"]["line"], d["depth"])
        out[key] = {(tuple(a["from"]), tuple(a["to"])) for a in ans["arrows"] if a["dep"] == k}
    return out


async def test_seed_distance_2_0_arrows_are_the_brute_force_pairs(client: LanguageClient):
    ans = await space(client, "simple", "affine.for %arg0")
    assert "error" not in ans, ans
    assert ans["dims"] == ["%arg0", "%arg1"] and ans["axes"] == {"x": "%arg0", "y": "%arg1"}
    assert len(ans["points"]) == ans["numPoints"] == 81 and not ans["sampled"]
    assert [d["distance"] for d in ans["dependences"]] == ["[2, 2][0, 0]"]
    dep = ans["dependences"][0]
    assert (dep["kind"], dep["memref"], dep["carriedBy"], dep["depth"]) == ("RAW", "%0", "%arg0", 1)
    ops = ops_by_line(SEED_SIMPLE)
    store = next(o for o in ops.values() if o.name == "affine.store")
    load = next(o for o in ops.values() if o.name == "affine.load")
    expected = brute_pairs(store, load, 1, {})
    assert drawn(ans) == {(5, 6, 1): expected}
    assert len(expected) == 7 * 9 and all(q[0] - p[0] == 2 and q[1] == p[1] for p, q in expected)
    # every arrow names its kind, memref and carrying loop; the source/sink ranges are the ops'
    assert {(a["kind"], a["memref"], a["carriedBy"]) for a in ans["arrows"]} == {("RAW", "%0", "%arg0")}
    assert ans["accesses"][dep["source"]]["op"] == "affine.store" and ans["accesses"][dep["sink"]]["op"] == "affine.load"
    # the bounds as lines, with the IV names
    assert sorted(c["text"] for c in ans["constraints"]) == ["%arg0 <= 8", "%arg0 >= 0", "%arg1 <= 8", "%arg1 >= 0"]


async def test_seed_skewed_arrows_are_the_brute_force_pairs(client: LanguageClient):
    ans = await space(client, "skewed", "affine.for %i1")  # the inner loop: the same nest, same axes
    assert ans["dims"] == ["%i0", "%i1"]
    assert len(ans["points"]) == 70
    dists = {(d["kind"], d["depth"]): d["distance"] for d in ans["dependences"]}
    assert dists[("RAW", 1)] == "[1, 7][-1, 3]"
    ops = ops_by_line(SEED_SKEWED)
    got = drawn(ans)
    want: dict[tuple[int, int, int], set] = {}
    for s, d in itertools.permutations([o for o in ops.values() if o.name in ("affine.store", "affine.load")], 2):
        for depth in (1, 2, 3):
            pairs = brute_pairs(s, d, depth, {})
            if pairs:
                want[(SEED_SKEWED.count("\n", 0, s.span.start), SEED_SKEWED.count("\n", 0, d.span.start), depth)] = pairs
    store = next(o for o in ops.values() if o.name == "affine.store")
    for depth in (1, 2, 3):
        if brute_pairs(store, store, depth, {}):
            want[(5, 5, depth)] = brute_pairs(store, store, depth, {})
    assert got == want
    raw = got[(5, 6, 1)]
    assert min(q[0] - p[0] for p, q in raw) == 1 and max(q[0] - p[0] for p, q in raw) == 7
    assert min(q[1] - p[1] for p, q in raw) == -1 and max(q[1] - p[1] for p, q in raw) == 3


def _banded_brute(n: int, fixed_k: int | None) -> tuple[set, dict[tuple[int, int, int], set]]:
    ops = ops_by_line(BANDED)
    accs = [o for o in ops.values() if o.name in ("affine.load", "affine.store")]
    syms = {"%N": n}
    first = next(o for o in accs if o.name == "affine.load")
    points = {inst.ivs[:2] for inst in instances(first, symbols=syms) if fixed_k is None or inst.ivs[2] == fixed_k}
    want: dict[tuple[int, int, int], set] = {}
    for s, d in itertools.product(accs, accs):
        if s.name == d.name == "affine.load":
            continue
        for depth in (1, 2, 3, 4):
            pairs = brute_pairs(s, d, depth, syms)
            if fixed_k is not None:
                pairs = {(p, q) for p, q in pairs if p[2] == fixed_k and q[2] == fixed_k}
            if pairs:
                key = (BANDED.count("\n", 0, s.span.start), BANDED.count("\n", 0, d.span.start), depth)
                want[key] = {(p[:2], q[:2]) for p, q in pairs}
    return points, want


async def test_symbolic_nest_projected_and_fixed(client: LanguageClient):
    ans = await space(client, "banded", "affine.for %i", params={"N": 7})
    assert ans["dims"] == ["%i", "%j"] and ans["fixed"] == {"%k": None}
    assert [(p["label"], p["value"]) for p in ans["params"] if p["label"] == "%N"] == [("%N", 7)]
    points, want = _banded_brute(7, None)
    assert {tuple(p) for p in ans["points"]} == points
    got = drawn(ans)
    assert {k: v for k, v in got.items() if v} == want
    texts = {c["text"]: c["kind"] for c in ans["constraints"]}
    # the max lower bound, the min upper bound (both results), the affine.if
    assert texts["%j >= %i - 3"] == "bound" and texts["%j >= 0"] == "bound"
    assert texts["%j <= %i + 1"] == "bound" and texts["%j <= 6"] == "bound"
    assert texts["%j <= %i - 1"] == "if"
    # hover data: the points above the diagonal make only the unguarded load
    for p, accs in zip(ans["points"], ans["pointAccesses"]):
        names = sorted(ans["accesses"][k]["op"] for k in accs)
        if p[1] <= p[0] - 1:
            assert names == ["affine.load", "affine.load", "affine.store"]
        else:
            assert names == ["affine.load"]
    # %k fixed at 1: only the pairs with both ends in that slice
    ans = await space(client, "banded", "affine.for %i", params={"%N": 7}, fixed={"%k": 1})
    assert ans["fixed"] == {"%k": 1}
    points, want = _banded_brute(7, 1)
    assert {tuple(p) for p in ans["points"]} == points
    assert {k: v for k, v in drawn(ans).items() if v} == want
    # other axes, by name
    ans = await space(client, "banded", "affine.for %i", params={"N": 5}, dims=["k", "j"])
    assert ans["axes"] == {"x": "%k", "y": "%j"} and ans["fixed"] == {"%i": None}
    assert {tuple(p) for p in ans["points"]} == {(k, j) for k in range(3) for j in range(0, 5)}


async def test_sampling_past_the_point_limit(client: LanguageClient):
    ans = await space(client, "big", "affine.for %j")
    assert ans["sampled"] and ans["numPoints"] is None
    assert 0 < len(ans["points"]) <= 2500
    assert any("sampled" in n for n in ans["notes"])
    # the arrows start at drawn points
    pts = {tuple(p) for p in ans["points"]}
    assert ans["arrows"] and all(tuple(a["from"]) in pts for a in ans["arrows"])
    assert all(a["to"][0] == a["from"][0] and a["to"][1] == a["from"][1] + 1 for a in ans["arrows"] if a["kind"] == "RAW")


async def test_errors_are_answers(client: LanguageClient):
    ans = await space(client, "simple", "%0 = memref.alloc")
    assert ans["error"].startswith("No affine loop at line 2")
    ans = await space(client, "simple", "affine.for %arg0", dims=["%nope"])
    assert "no loop %nope" in ans["error"]
    broken = SEED_SIMPLE.replace("affine.for %arg1 = 0 to 9 {", "affine.for %arg1 = 0 to {")
    open_doc(client, uri("broken"), broken)
    p = pos(broken, "affine.store")
    ans = await command(client, "affine-lsp.iterationSpace", {"uri": uri("broken"), "position": {"line": p.line, "character": p.character}})
    assert "does not parse" in ans["error"]


async def test_dependence_graph(client: LanguageClient):
    p = pos(SEED_SKEWED, "affine.store")
    g = await command(client, "affine-lsp.dependenceGraph", {"uri": uri("skewed"), "position": {"line": p.line, "character": p.character}})
    assert g["function"] == "@kernel" and len(g["nests"]) == 1
    assert [n["op"] for n in g["nodes"]] == ["affine.store", "affine.load"]
    edges = {(g["nodes"][e["source"]]["op"], g["nodes"][e["sink"]]["op"], e["kind"], e["depth"], e["distance"], e["carriedBy"]) for e in g["edges"]}
    assert edges == {
        ("affine.store", "affine.load", "RAW", 1, "[1, 7][-1, 3]", "%i0"),
        ("affine.store", "affine.load", "RAW", 3, "true", None),
        ("affine.load", "affine.store", "WAR", 1, "[2, 2][-4, -4]", "%i0"),
    }


async def test_loop_hover_links_to_the_view(client: LanguageClient):
    import json
    from urllib.parse import unquote

    from tests.test_server_support import hover_text

    p = pos(SEED_SIMPLE, "affine.for %arg1")
    text = ""
    for _ in range(100):
        h = await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri("simple")), position=p))
        text = hover_text(h)
        if "still running" not in text:
            break
    link = next(line for line in text.splitlines() if line.startswith("[Show iteration space](command:affineLsp.showIterationSpace?"))
    args = json.loads(unquote(link.split("?", 1)[1].split(" ", 1)[0]))
    assert args == [{"uri": uri("simple"), "line": p.line, "character": p.character}]
    # the access hovers do not link
    h = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri("simple")), position=pos(SEED_SIMPLE, "affine.store"))
    )
    assert "command:" not in hover_text(h)


def _brute_view(text: str, func: str, axes: tuple[int, int | None], syms: dict[str, int]) -> tuple[set, dict]:
    """Points and arrows (per source line, sink line, depth) of the view
    with the given axes (the other IVs projected), by enumeration."""
    doc = Document(text)
    f = next(op for op in doc.sections[0].module.walk() if op.name == "func.func" and op.attributes["sym_name"].value == func)
    accs = [o for o in f.walk() if o.name in ("affine.load", "affine.store")]

    def proj(ivs: tuple[int, ...]) -> tuple[int, int]:
        return (ivs[axes[0]], ivs[axes[1]] if axes[1] is not None else 0)

    points = {proj(inst.ivs) for a in accs for inst in instances(a, symbols=syms)}
    want: dict[tuple[int, int, int], set] = {}
    for s, d in itertools.product(accs, accs):
        if s.name == d.name == "affine.load":
            continue
        common = 0
        for x, y in zip(loop_ivs(s), loop_ivs(d)):
            if x is not y:
                break
            common += 1
        for depth in range(1, common + 2):
            pairs = brute_pairs(s, d, depth, syms)
            if pairs:
                want[(doc.lines.line_of(s.span.start), doc.lines.line_of(d.span.start), depth)] = {(proj(p), proj(q)) for p, q in pairs}
    return points, want


async def test_strided_loop_and_parallel_nest(client: LanguageClient):
    ans = await space(client, "misc", "affine.for %i", params={"N": 20})
    assert ans["dims"] == ["%i"] and ans["axes"] == {"x": "%i", "y": None}
    points, want = _brute_view(STRIDED_AND_PARALLEL, "one", (0, None), {"%N": 20})
    assert {tuple(p) for p in ans["points"]} == points == {(i, 0) for i in range(0, 20, 3)}
    assert {k: v for k, v in drawn(ans).items() if v} == want
    assert all(c["a"] != 0 for c in ans["constraints"])  # no y = 0 line for one loop
    # the two IVs of the affine.parallel, the inner loop projected
    ans = await space(client, "misc", "affine.parallel")
    assert ans["dims"] == ["%i", "%j"] and ans["fixed"] == {"%k": None}
    points, want = _brute_view(STRIDED_AND_PARALLEL, "par", (0, 1), {})
    assert {tuple(p) for p in ans["points"]} == points and len(points) == 30
    assert {k: v for k, v in drawn(ans).items() if v} == want
    assert {d["carriedBy"] for d in ans["dependences"]} >= {"%j", "%k"}


async def test_sampled_points_keep_exact_arrows(client: LanguageClient):
    ans = await space(client, "simple", "affine.for %arg0", maxPoints=40)
    assert ans["sampled"] and ans["numPoints"] == 81 and 0 < len(ans["points"]) <= 40
    pts = {tuple(p) for p in ans["points"]}
    ops = ops_by_line(SEED_SIMPLE)
    store = next(o for o in ops.values() if o.name == "affine.store")
    load = next(o for o in ops.values() if o.name == "affine.load")
    # the arrows from the drawn points, exactly
    assert drawn(ans) == {(5, 6, 1): {(p, q) for p, q in brute_pairs(store, load, 1, {}) if p in pts}}
    assert any("sampled" in n for n in ans["notes"])
