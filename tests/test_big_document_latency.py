"""Issue #31, big documents: work a request does on one function of a large
document does not re-parse the document's other functions, and gives the
same answer as on the whole text."""

from __future__ import annotations

from affine_lsp.syntax.document import Document
from affine_lsp.transforms import rewrite
from affine_lsp.transforms.optimize import nest_groups, plan_optimize
from affine_lsp.transforms.rewrite import function_context
from bench.content import generate_kind


def _plan_key(plan):  # type: ignore[no-untyped-def]
    return (plan.reason, plan.new_text, plan.explain, repr(plan.prediction))


def test_optimize_in_the_function_context_plans_as_on_the_whole_text() -> None:
    # "Optimize loop nest" composes unroll-and-jam and vectorization on a
    # text that each step parses again: the function with its environment,
    # not the whole document (a 20,000-line one took 7-28 s per loop).
    text = generate_kind("all", 300)
    doc = Document(text)
    groups = [g for s in doc.sections for f in s.functions() for g in nest_groups(f)]
    assert len(groups) >= 12
    oks = 0
    for g in groups[:12]:
        ctx, shift = function_context(doc, g[0].span.start, g[-1].span.end)
        assert len(ctx) < len(text) // 4  # the function and its environment only
        assert ctx[g[0].span.start - shift : g[-1].span.end - shift] == text[g[0].span.start : g[-1].span.end]
        whole = plan_optimize(text, g)
        scoped = plan_optimize(text, g, context=(ctx, shift))
        assert _plan_key(scoped) == _plan_key(whole)
        oks += whole.ok
    assert oks >= 2  # rewrites compared, not only refusals


def test_function_context_falls_back_on_the_section_or_the_text() -> None:
    one = "func.func @f(%m: memref<4xf32>) {\n  affine.for %i = 0 to 4 {\n    %v = affine.load %m[%i] : memref<4xf32>\n  }\n  return\n}\n"
    doc = Document(one)
    assert function_context(doc, one.index("affine.for"), one.index("return")) == (one, 0)
    two = "#m = affine_map<(d0) -> (d0)>\n" + one + "// -----\n" + one.replace("@f", "@g")
    doc = Document(two)
    at = two.index("affine.for", two.index("@g"))
    ctx, shift = function_context(doc, at, at + 10)
    sec = doc.sections[1]
    assert (ctx, shift) == (two[sec.start : sec.end], sec.start) and ctx.startswith("func.func @g")
    # (a section of one function: its own text; a function beside others: the
    # scope of the safety net, rewrite._function_scope)
    three = one + one.replace("@f", "@g") + one.replace("@f", "@h")
    doc = Document(three)
    at = three.index("affine.for", three.index("@g"))
    ctx, shift = function_context(doc, at, at + 10)
    assert "@g" in ctx and "@f" not in ctx and "@h" not in ctx
    assert (ctx, shift) == rewrite._function_scope(doc, doc.section_at(at), at, at + 10, [])
