"""Property: ``check_dependence`` equals brute-force enumeration.

Random loop nests with constant (and ``max``/``min``, outer-IV-dependent)
bounds, steps, ``affine.if`` conditions (then and else branches), and
subscripts with ``mod``/``floordiv``/``ceildiv``; two accesses sharing some
loops. For every ordered pair and depth, the engine's answer (independence,
or the per-loop ``[lb, ub]`` of the distance) must equal what enumerating all
iteration pairs gives.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from affine_lsp.analysis import check_dependence
from affine_lsp.analysis.bruteforce import brute_dependence
from affine_lsp.analysis.remarks import pass_ops
from affine_lsp.source.document import Document


@dataclass
class Loop:
    lb: str
    ub: str
    step: int


def _affine(draw, ivs: list[str], small: bool = False) -> str:
    terms = []
    for iv in ivs:
        c = draw(st.sampled_from([0, 1, 1, -1, 2]))
        if c:
            terms.append(f"{iv} * {c}" if c != 1 else iv)
    const = draw(st.integers(-2, 2))
    expr = " + ".join(terms) if terms else "0"
    if const:
        expr = f"{expr} + {const}"
    if not small and terms and draw(st.booleans()):
        op = draw(st.sampled_from(["mod", "floordiv", "ceildiv"]))
        expr = f"({expr}) {op} {draw(st.integers(2, 3))}"
        if draw(st.booleans()):
            expr = f"{expr} + {draw(st.sampled_from(ivs))}"
    return expr


def _dims_in(expr: str) -> list[str]:
    import re

    return re.findall(r"d\d+", expr)


@st.composite
def loop(draw, outer: list[str]) -> Loop:
    lb = draw(st.integers(-2, 2))
    trip = draw(st.sampled_from([0, 1, 2, 3, 3, 4, 4, 5, 5]))
    step = draw(st.sampled_from([1, 1, 2, 3]))
    lb_s, ub_s = str(lb), str(lb + trip)
    if outer and draw(st.integers(0, 3)) == 0:
        o = draw(st.sampled_from(outer))
        lb_s = f"max affine_map<(d0) -> ({lb}, d0)>(%{o})"
    if outer and draw(st.integers(0, 3)) == 0:
        o = draw(st.sampled_from(outer))
        ub_s = f"min affine_map<(d0) -> ({lb + trip}, d0 + 2)>(%{o})"
    return Loop(lb_s, ub_s, step)


@st.composite
def program(draw) -> str:
    n_common = draw(st.integers(0, 2))
    n_a = draw(st.integers(0, 2 - n_common if n_common < 2 else 1))
    n_b = draw(st.integers(0, 2 - n_common if n_common < 2 else 1))
    rank = draw(st.sampled_from([1, 1, 2]))
    shared: list[list[str]] = []  # subscripts of the first access, reused (shifted) by the second
    names: list[str] = []
    lines: list[str] = ["func.func @f() {", "  %m = memref.alloc() : memref<100x100xf32>" if rank == 2 else "  %m = memref.alloc() : memref<100xf32>"]
    lines.append("  %cst = arith.constant 1.0 : f32")
    indent = "  "
    closers: list[str] = []

    def open_loop(name: str) -> None:
        nonlocal indent
        lp = draw(loop(list(names)))
        step = f" step {lp.step}" if lp.step != 1 else ""
        lines.append(f"{indent}affine.for %{name} = {lp.lb} to {lp.ub}{step} {{")
        names.append(name)
        closers.append(indent + "}")
        indent += "  "

    for k in range(n_common):
        open_loop(f"c{k}")

    def branch(tag: str, n_loops: int, is_store: bool) -> None:
        nonlocal indent
        base_names = list(names)
        base_closers = len(closers)
        base_indent = indent
        guard = draw(st.sampled_from(["none", "none", "then", "else"]))
        if guard != "none":
            avail = names or []
            if avail:
                cond = _affine(draw, avail, small=True)
                kind = draw(st.sampled_from([">= 0", ">= 0", "== 0"]))
                dims = ", ".join(f"d{i}" for i in range(len(avail)))
                body = cond
                for i, nm in enumerate(avail):
                    body = body.replace(nm, f"d{i}")
                lines.append(f"{indent}affine.if affine_set<({dims}) : ({body} {kind})>({', '.join('%' + a for a in avail)}) {{")
            else:
                lines.append(f"{indent}affine.if affine_set<() : (1 >= 0)>() {{")
            if guard == "else":
                lines.append(f"{indent}}} else {{")
            closers.append(indent + "}")
            indent += "  "
        for k in range(n_loops):
            open_loop(f"{tag}{k}")
        subs = []
        if shared and len(shared[0]) == rank and draw(st.booleans()):
            for e in shared[0]:
                shift = draw(st.integers(-2, 2))
                subs.append(f"{e} + {shift}" if shift else e)
            subs = [e for e in subs if max((int(x[1:]) for x in _dims_in(e)), default=-1) < len(names)] or subs
            if len(subs) != rank or any(max((int(x[1:]) for x in _dims_in(e)), default=-1) >= len(names) for e in subs):
                subs = []
        if not subs:
            for _ in range(rank):
                e = _affine(draw, names)
                for i, nm in enumerate(names):
                    e = e.replace(nm, f"d{i}")
                subs.append(e)
        shared.append(subs)
        dims = ", ".join(f"d{i}" for i in range(len(names)))
        amap = f"affine_map<({dims}) -> ({', '.join(subs)})>"
        operands = ", ".join("%" + nm for nm in names)
        shape = "100x100xf32" if rank == 2 else "100xf32"
        if is_store:
            lines.append(
                f'{indent}"affine.store"(%cst, %m{", " + operands if operands else ""}) {{map = {amap}}} : (f32, memref<{shape}>{", index" * len(names)}) -> ()'
            )
        else:
            lines.append(
                f'{indent}%v{tag} = "affine.load"(%m{", " + operands if operands else ""}) {{map = {amap}}} : (memref<{shape}>{", index" * len(names)}) -> f32'
            )
        while len(closers) > base_closers:
            indent = indent[:-2]
            lines.append(closers.pop())
        del names[len(base_names) :]
        indent = base_indent

    a_store = True
    b_store = draw(st.booleans())
    if draw(st.booleans()):
        branch("a", n_a, a_store)
        branch("b", n_b, b_store)
    else:
        branch("b", n_b, b_store)
        branch("a", n_a, a_store)
    while closers:
        indent = indent[:-2]
        lines.append(closers.pop())
    lines.append("  return")
    lines.append("}")
    return "\n".join(lines)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(program())
def test_check_dependence_equals_enumeration(text: str) -> None:
    doc = Document(text)
    errors = [n.message for n in doc.notes() if n.severity == "error"]
    assert not errors, (errors, text)
    ops = pass_ops([doc.sections[0].module])
    assert len(ops) == 2, text
    cache: dict = {}
    for src in ops:
        for dst in ops:
            c = check_dependence(src, dst, 1).num_common
            for depth in range(1, c + 2):
                r = check_dependence(src, dst, depth)
                exact = brute_dependence(src, dst, depth, cache=cache)
                if exact is None:
                    assert r.status == "none", (text, src, dst, depth, r.mlir_str())
                else:
                    assert r.status == "dependence", (text, src, dst, depth, r.reason)
                    assert r.components == [tuple(x) for x in exact], (text, depth, r.components, exact)
