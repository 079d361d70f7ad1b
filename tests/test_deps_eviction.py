"""The server keeps the dependence models of the most recently used
functions only (engine.DEPS_KEPT); an evicted function keeps its notes and
gets the same model back, computed again, when a hover asks for it."""

from __future__ import annotations

import pytest

from affine_lsp.ir.core import memo_if_any
from affine_lsp.server import analysis_engine as engine_mod
from affine_lsp.server.analysis_engine import Engine, functions_of
from affine_lsp.server.settings import Settings
from affine_lsp.server.state import DocumentState

KERNEL = """func.func @f{k}(%A: memref<64x64xf32>, %B: memref<64x64xf32>) {{
  affine.for %i = 1 to 64 {{
    affine.for %j = 0 to {ub} {{
      %v = affine.load %A[%i - 1, %j] : memref<64x64xf32>
      %w = affine.load %B[%j, %i] : memref<64x64xf32>
      %s = arith.addf %v, %w : f32
      affine.store %s, %A[%i, %j + {off}] : memref<64x64xf32>
    }}
  }}
  return
}}
"""


def _dep(r: object) -> tuple:
    src, dst = getattr(r, "src", None), getattr(r, "dst", None)
    rel = r.relation if hasattr(r, "relation") else None  # type: ignore[attr-defined]
    return (
        src.op.span.start if src is not None else None,
        dst.op.span.start if dst is not None else None,
        r.depth,  # type: ignore[attr-defined]
        r.status,  # type: ignore[attr-defined]
        r.kind,  # type: ignore[attr-defined]
        tuple(r.components),  # type: ignore[attr-defined]
        str(rel) if rel is not None else None,
        r.reason,  # type: ignore[attr-defined]
    )


def _answers(fa: engine_mod.FunctionAnalysis) -> list[tuple]:
    fd = fa.deps
    out: list[tuple] = [_dep(r) for p in fd.pairs for r in p.results]
    for op in fa.func.walk():
        if op.name == "affine.for":
            out.append(_summary(fd.loop_summary(op)))
    return out


def _summary(s: object) -> tuple:
    """What a loop summary answers (hovers, inlay hints), comparable."""
    return (s.parallel, s.vectorizable, s.min_distance, tuple(s.reasons), tuple(_dep(d) for d in s.carried))  # type: ignore[attr-defined]


@pytest.fixture()
def small_lru(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine_mod, "DEPS_KEPT", 2)


def test_evicted_models_are_recomputed_with_the_same_answers(small_lru: None) -> None:
    text = "\n".join(KERNEL.format(k=k, ub=60 + k, off=k % 3) for k in range(6))
    eng, settings = Engine(), Settings()
    st = DocumentState("file:///lru.mlir", text, 1)
    with st.locked() as doc:
        funcs = functions_of(doc)
        first = []
        for f in funcs:
            fa = eng.analyse_function(st, f, settings)
            assert fa is not None and fa.deps is not None
            first.append((list(fa.notes), _answers(fa)))
        assert any(notes for notes, _ in first)  # out-of-bounds warnings of the last kernels
        # Only the two most recently used models are left.
        kept = [f for f in funcs if st.fn_cache[id(f)].deps is not None]
        assert kept == funcs[-2:]
        for f in funcs[:-2]:
            fa = st.fn_cache[id(f)]
            assert fa.evicted and fa.deps is None
            assert "_affine_lsp_function_deps" not in (memo_if_any(f) or {})
        # Asking again gives the same notes and the same dependences.
        for f, (notes, answers) in zip(funcs, first):
            fa = eng.analyse_function(st, f, settings)
            assert fa is not None and fa.deps is not None and not fa.evicted
            assert fa.notes == notes
            assert _answers(fa) == answers
        assert len(st.deps_lru) == 2


def _summaries(fa: engine_mod.FunctionAnalysis) -> dict[int, tuple]:
    """The loop summaries the model of ``fa`` holds, by loop offset."""
    assert fa.deps is not None
    return {loop.span.start: _summary(s) for loop, s in fa.deps._summaries.items()}


def _analysis_slice(eng: Engine, settings: Settings, st: DocumentState, doc: object, todo: list) -> list:
    """One slice of the server's analysis phase (DiagnosticsManager._analyse_sync)
    over ``todo``; the functions it leaves."""
    from types import SimpleNamespace

    from affine_lsp.server.analysis_engine import function_sources
    from affine_lsp.server.diagnostics_manager import DiagnosticsManager, FastResult, _Progress
    from affine_lsp.server.state import DiagnosticsResult

    server = SimpleNamespace(engine=eng, settings=settings, interactive=0, client=SimpleNamespace(work_done_progress=False))
    fast = FastResult(st.version, DiagnosticsResult(st.version, st.version, [], [], complete=False), [], list(todo), function_sources(doc, todo))  # type: ignore[arg-type]
    return DiagnosticsManager(server)._analyse_sync(st, fast, list(todo), _Progress(server, len(todo)))  # type: ignore[arg-type]


def _background_analysis(eng: Engine, settings: Settings, st: DocumentState, doc: object) -> list:
    """What the server's analysis phase does with a freshly opened document
    (one slice without a time budget)."""
    funcs = functions_of(doc)  # type: ignore[arg-type]
    assert _analysis_slice(eng, settings, st, doc, funcs) == []
    return funcs


def test_the_background_analysis_computes_loop_summaries_for_the_models_it_keeps_only(small_lru: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A document with more functions than the models kept: every function
    is analysed (its notes kept), the loop summaries are computed for the
    models still kept at the end (those of the others would be dropped with
    their model), and a hover on an evicted function gets the same summaries,
    computed on demand, as one computed during the analysis."""
    from affine_lsp.analysis import summary

    summarized: list[int] = []
    real = summary.summarize_loop
    monkeypatch.setattr(summary, "summarize_loop", lambda fd, loop: summarized.append(loop.span.start) or real(fd, loop))
    text = "\n".join(KERNEL.format(k=k, ub=60 + k, off=k % 3) for k in range(6))
    settings = Settings(time_budget_ms=0)
    eng = Engine()
    st = DocumentState("file:///lru.mlir", text, 1)
    with st.locked() as doc:
        funcs = _background_analysis(eng, settings, st, doc)
        # Two loops in each of the two functions whose model is kept; none
        # for the four evicted ones.
        assert sorted(summarized) == sorted(op.span.start for f in funcs[-2:] for op in f.walk() if op.name == "affine.for")
        fas = [st.fn_cache[id(f)] for f in funcs]
        assert all(fa.warmed for fa in fas)  # evicted ones: summaries on demand
        kept = [fa for fa in fas if fa.deps is not None]
        assert [fa.func for fa in kept] == funcs[-2:]
        assert all(_summaries(fa) for fa in kept)  # computed during the analysis
        # The same answers as a document analysed with every model kept.
        reference = DocumentState("file:///all.mlir", text, 1)
        engine_mod.DEPS_KEPT = 64
        with reference.locked() as ref_doc:
            ref_funcs = _background_analysis(Engine(), settings, reference, ref_doc)
            ref = [reference.fn_cache[id(f)] for f in ref_funcs]
            assert all(fa.deps is not None and _summaries(fa) for fa in ref)
        for fa, r in zip(fas, ref):
            assert repr(fa.notes) == repr(r.notes)  # (two documents: their anchors differ)
            got = eng.analyse_function(st, fa.func, settings)  # a hover's way in
            assert got is not None and got.deps is not None
            for op in got.func.walk():
                if op.name == "affine.for":
                    got.deps.loop_summary(op)
            assert _summaries(got) == _summaries(r)


def test_loop_summaries_left_at_the_end_of_a_slices_time_go_to_the_next_slice(small_lru: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The slice's time budget runs out once its functions are analysed: the
    models it keeps are left unwarmed and handed to the next slice, which
    warms them (nothing computed twice, nothing lost)."""
    import time

    from affine_lsp.server import diagnostics_manager as diagnostics_mod

    text = "\n".join(KERNEL.format(k=k, ub=60 + k, off=k % 3) for k in range(6))
    settings = Settings(time_budget_ms=60_000)
    eng = Engine()
    st = DocumentState("file:///slices.mlir", text, 1)
    analysed: list[object] = []
    real_analyse = eng.analyse_function

    def analyse(*args: object, **kwargs: object) -> object:
        analysed.append(args[1])
        return real_analyse(*args, **kwargs)  # type: ignore[arg-type]

    class Clock:
        """time, whose monotonic clock jumps past the slice's budget once
        the six functions are analysed."""

        sleep = staticmethod(time.sleep)
        perf_counter = staticmethod(time.perf_counter)

        @staticmethod
        def monotonic() -> float:
            return time.monotonic() + (3600.0 if len(analysed) >= 6 else 0.0)

    monkeypatch.setattr(eng, "analyse_function", analyse)
    monkeypatch.setattr(diagnostics_mod, "time", Clock)
    with st.locked() as doc:
        funcs = functions_of(doc)
        left = _analysis_slice(eng, settings, st, doc, funcs)
        assert left == funcs[-2:]  # the two models kept, not warmed yet
        fas = [st.fn_cache[id(f)] for f in funcs]
        assert [fa.warmed for fa in fas] == [True] * 4 + [False] * 2
        assert all(not fa.deps._summaries for fa in fas[-2:])  # type: ignore[union-attr]
        monkeypatch.setattr(diagnostics_mod, "time", time)
        assert _analysis_slice(eng, settings, st, doc, left) == []
        assert all(fa.warmed and fa.deps is not None and _summaries(fa) for fa in fas[-2:])
