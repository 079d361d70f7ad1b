"""Benchmark of the dependence engine: all pairs at all depths.

For PolyBench kernels written in affine form (2mm, gemm, jacobi-2d,
seidel-2d, lu, heat-3d) and a generated ~1,000-line function, measures the
time to build the polyhedral model of the function and compute every
candidate access pair at every depth (``FunctionDeps.pairs``, no cache
between repeats), and prints medians over repeats. Run::

    python bench/deps.py [--repeats N] [--lines L]

Target: under 50 ms per PolyBench kernel.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from affine_lsp.analysis.dependences import FunctionDeps
from affine_lsp.source.document import Document

POLYBENCH: dict[str, str] = {
    "2mm": """
func.func @kernel_2mm(%alpha: f32, %beta: f32, %tmp: memref<180x190xf32>, %A: memref<180x210xf32>,
                      %B: memref<210x190xf32>, %C: memref<190x220xf32>, %D: memref<180x220xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 180 {
    affine.for %j = 0 to 190 {
      affine.store %zero, %tmp[%i, %j] : memref<180x190xf32>
      affine.for %k = 0 to 210 {
        %a = affine.load %A[%i, %k] : memref<180x210xf32>
        %b = affine.load %B[%k, %j] : memref<210x190xf32>
        %t = affine.load %tmp[%i, %j] : memref<180x190xf32>
        %p = arith.mulf %alpha, %a : f32
        %q = arith.mulf %p, %b : f32
        %s = arith.addf %t, %q : f32
        affine.store %s, %tmp[%i, %j] : memref<180x190xf32>
      }
    }
  }
  affine.for %i = 0 to 180 {
    affine.for %j = 0 to 220 {
      %d = affine.load %D[%i, %j] : memref<180x220xf32>
      %e = arith.mulf %d, %beta : f32
      affine.store %e, %D[%i, %j] : memref<180x220xf32>
      affine.for %k = 0 to 190 {
        %t = affine.load %tmp[%i, %k] : memref<180x190xf32>
        %c = affine.load %C[%k, %j] : memref<190x220xf32>
        %dd = affine.load %D[%i, %j] : memref<180x220xf32>
        %p = arith.mulf %t, %c : f32
        %s = arith.addf %dd, %p : f32
        affine.store %s, %D[%i, %j] : memref<180x220xf32>
      }
    }
  }
  return
}
""",
    "gemm": """
func.func @kernel_gemm(%alpha: f32, %beta: f32, %C: memref<200x220xf32>, %A: memref<200x240xf32>, %B: memref<240x220xf32>) {
  affine.for %i = 0 to 200 {
    affine.for %j = 0 to 220 {
      %c = affine.load %C[%i, %j] : memref<200x220xf32>
      %m = arith.mulf %c, %beta : f32
      affine.store %m, %C[%i, %j] : memref<200x220xf32>
    }
    affine.for %k = 0 to 240 {
      affine.for %j = 0 to 220 {
        %a = affine.load %A[%i, %k] : memref<200x240xf32>
        %b = affine.load %B[%k, %j] : memref<240x220xf32>
        %c = affine.load %C[%i, %j] : memref<200x220xf32>
        %p = arith.mulf %alpha, %a : f32
        %q = arith.mulf %p, %b : f32
        %s = arith.addf %c, %q : f32
        affine.store %s, %C[%i, %j] : memref<200x220xf32>
      }
    }
  }
  return
}
""",
    "jacobi-2d": """
func.func @kernel_jacobi_2d(%A: memref<250x250xf32>, %B: memref<250x250xf32>) {
  %c = arith.constant 0.2 : f32
  affine.for %t = 0 to 100 {
    affine.for %i = 1 to 249 {
      affine.for %j = 1 to 249 {
        %0 = affine.load %A[%i, %j] : memref<250x250xf32>
        %1 = affine.load %A[%i, %j - 1] : memref<250x250xf32>
        %2 = affine.load %A[%i, %j + 1] : memref<250x250xf32>
        %3 = affine.load %A[%i + 1, %j] : memref<250x250xf32>
        %4 = affine.load %A[%i - 1, %j] : memref<250x250xf32>
        %5 = arith.addf %0, %1 : f32
        %6 = arith.addf %5, %2 : f32
        %7 = arith.addf %6, %3 : f32
        %8 = arith.addf %7, %4 : f32
        %9 = arith.mulf %c, %8 : f32
        affine.store %9, %B[%i, %j] : memref<250x250xf32>
      }
    }
    affine.for %i = 1 to 249 {
      affine.for %j = 1 to 249 {
        %0 = affine.load %B[%i, %j] : memref<250x250xf32>
        %1 = affine.load %B[%i, %j - 1] : memref<250x250xf32>
        %2 = affine.load %B[%i, %j + 1] : memref<250x250xf32>
        %3 = affine.load %B[%i + 1, %j] : memref<250x250xf32>
        %4 = affine.load %B[%i - 1, %j] : memref<250x250xf32>
        %5 = arith.addf %0, %1 : f32
        %6 = arith.addf %5, %2 : f32
        %7 = arith.addf %6, %3 : f32
        %8 = arith.addf %7, %4 : f32
        %9 = arith.mulf %c, %8 : f32
        affine.store %9, %A[%i, %j] : memref<250x250xf32>
      }
    }
  }
  return
}
""",
    "seidel-2d": """
func.func @kernel_seidel_2d(%A: memref<400x400xf32>) {
  %nine = arith.constant 9.0 : f32
  affine.for %t = 0 to 100 {
    affine.for %i = 1 to 399 {
      affine.for %j = 1 to 399 {
        %0 = affine.load %A[%i - 1, %j - 1] : memref<400x400xf32>
        %1 = affine.load %A[%i - 1, %j] : memref<400x400xf32>
        %2 = affine.load %A[%i - 1, %j + 1] : memref<400x400xf32>
        %3 = affine.load %A[%i, %j - 1] : memref<400x400xf32>
        %4 = affine.load %A[%i, %j] : memref<400x400xf32>
        %5 = affine.load %A[%i, %j + 1] : memref<400x400xf32>
        %6 = affine.load %A[%i + 1, %j - 1] : memref<400x400xf32>
        %7 = affine.load %A[%i + 1, %j] : memref<400x400xf32>
        %8 = affine.load %A[%i + 1, %j + 1] : memref<400x400xf32>
        %s0 = arith.addf %0, %1 : f32
        %s1 = arith.addf %s0, %2 : f32
        %s2 = arith.addf %s1, %3 : f32
        %s3 = arith.addf %s2, %4 : f32
        %s4 = arith.addf %s3, %5 : f32
        %s5 = arith.addf %s4, %6 : f32
        %s6 = arith.addf %s5, %7 : f32
        %s7 = arith.addf %s6, %8 : f32
        %r = arith.divf %s7, %nine : f32
        affine.store %r, %A[%i, %j] : memref<400x400xf32>
      }
    }
  }
  return
}
""",
    "lu": """
func.func @kernel_lu(%A: memref<400x400xf32>) {
  affine.for %i = 0 to 400 {
    affine.for %j = 0 to #map_id(%i) {
      affine.for %k = 0 to #map_id(%j) {
        %a = affine.load %A[%i, %k] : memref<400x400xf32>
        %b = affine.load %A[%k, %j] : memref<400x400xf32>
        %c = affine.load %A[%i, %j] : memref<400x400xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.subf %c, %p : f32
        affine.store %s, %A[%i, %j] : memref<400x400xf32>
      }
      %d = affine.load %A[%j, %j] : memref<400x400xf32>
      %c = affine.load %A[%i, %j] : memref<400x400xf32>
      %q = arith.divf %c, %d : f32
      affine.store %q, %A[%i, %j] : memref<400x400xf32>
    }
    affine.for %j = #map_id(%i) to 400 {
      affine.for %k = 0 to #map_id(%i) {
        %a = affine.load %A[%i, %k] : memref<400x400xf32>
        %b = affine.load %A[%k, %j] : memref<400x400xf32>
        %c = affine.load %A[%i, %j] : memref<400x400xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.subf %c, %p : f32
        affine.store %s, %A[%i, %j] : memref<400x400xf32>
      }
    }
  }
  return
}
""",
    "heat-3d": """
func.func @kernel_heat_3d(%A: memref<40x40x40xf32>, %B: memref<40x40x40xf32>) {
  %c = arith.constant 0.125 : f32
  affine.for %t = 1 to 101 {
    affine.for %i = 1 to 39 {
      affine.for %j = 1 to 39 {
        affine.for %k = 1 to 39 {
          %0 = affine.load %A[%i + 1, %j, %k] : memref<40x40x40xf32>
          %1 = affine.load %A[%i, %j, %k] : memref<40x40x40xf32>
          %2 = affine.load %A[%i - 1, %j, %k] : memref<40x40x40xf32>
          %3 = affine.load %A[%i, %j + 1, %k] : memref<40x40x40xf32>
          %4 = affine.load %A[%i, %j - 1, %k] : memref<40x40x40xf32>
          %5 = affine.load %A[%i, %j, %k + 1] : memref<40x40x40xf32>
          %6 = affine.load %A[%i, %j, %k - 1] : memref<40x40x40xf32>
          %s0 = arith.addf %0, %2 : f32
          %s1 = arith.addf %s0, %3 : f32
          %s2 = arith.addf %s1, %4 : f32
          %s3 = arith.addf %s2, %5 : f32
          %s4 = arith.addf %s3, %6 : f32
          %s5 = arith.mulf %c, %s4 : f32
          %s6 = arith.addf %s5, %1 : f32
          affine.store %s6, %B[%i, %j, %k] : memref<40x40x40xf32>
        }
      }
    }
    affine.for %i = 1 to 39 {
      affine.for %j = 1 to 39 {
        affine.for %k = 1 to 39 {
          %0 = affine.load %B[%i + 1, %j, %k] : memref<40x40x40xf32>
          %1 = affine.load %B[%i, %j, %k] : memref<40x40x40xf32>
          %2 = affine.load %B[%i - 1, %j, %k] : memref<40x40x40xf32>
          %3 = affine.load %B[%i, %j + 1, %k] : memref<40x40x40xf32>
          %4 = affine.load %B[%i, %j - 1, %k] : memref<40x40x40xf32>
          %5 = affine.load %B[%i, %j, %k + 1] : memref<40x40x40xf32>
          %6 = affine.load %B[%i, %j, %k - 1] : memref<40x40x40xf32>
          %s0 = arith.addf %0, %2 : f32
          %s1 = arith.addf %s0, %3 : f32
          %s2 = arith.addf %s1, %4 : f32
          %s3 = arith.addf %s2, %5 : f32
          %s4 = arith.addf %s3, %6 : f32
          %s5 = arith.mulf %c, %s4 : f32
          %s6 = arith.addf %s5, %1 : f32
          affine.store %s6, %A[%i, %j, %k] : memref<40x40x40xf32>
        }
      }
    }
  }
  return
}
""",
}

PRELUDE = "#map_id = affine_map<(d0) -> (d0)>\n"


def generated_function(lines: int = 1000) -> str:
    """One function of about ``lines`` lines: a sequence of small loop nests
    (stencils, copies, strided and guarded updates, mod/floordiv subscripts)
    over four shared memrefs and a symbol."""
    out = [
        "func.func @generated(%A: memref<512x512xf32>, %B: memref<512x512xf32>, %C: memref<512xf32>, %D: memref<512xf32>, %N: index) {",
        "  %f = arith.constant 1.0 : f32",
    ]
    templates = [
        [
            "  affine.for %i = 1 to 255 {{",
            "    affine.for %j = 1 to 255 {{",
            "      %a{n} = affine.load %A[%i - 1, %j + {s}] : memref<512x512xf32>",
            "      %b{n} = affine.load %A[%i + 1, %j] : memref<512x512xf32>",
            "      %c{n} = arith.addf %a{n}, %b{n} : f32",
            "      affine.store %c{n}, %B[%i, %j] : memref<512x512xf32>",
            "    }}",
            "  }}",
        ],
        [
            "  affine.for %i = 0 to %N step {st} {{",
            "    %a{n} = affine.load %C[%i floordiv 2 + {s}] : memref<512xf32>",
            "    affine.store %a{n}, %D[%i mod 7 + {s}] : memref<512xf32>",
            "  }}",
        ],
        [
            "  affine.for %i = 0 to 128 {{",
            "    affine.if affine_set<(d0) : (d0 - {s} >= 0)>(%i) {{",
            "      %a{n} = affine.load %D[%i] : memref<512xf32>",
            "      affine.store %a{n}, %C[%i + {s}] : memref<512xf32>",
            "    }} else {{",
            "      affine.store %f, %C[%i] : memref<512xf32>",
            "    }}",
            "  }}",
        ],
        [
            "  affine.for %i = 0 to 64 {{",
            "    affine.for %j = max affine_map<(d0) -> (0, d0 - {s})>(%i) to min affine_map<(d0) -> (64, d0 + 8)>(%i) {{",
            "      %a{n} = affine.load %B[%j, %i] : memref<512x512xf32>",
            "      affine.store %a{n}, %A[%i, %j] : memref<512x512xf32>",
            "    }}",
            "  }}",
        ],
    ]
    n = 0
    while len(out) < lines - 2:
        t = templates[n % len(templates)]
        out.extend(line.format(n=n, s=n % 5 + 1, st=n % 3 + 1) for line in t)
        n += 1
    out += ["  return", "}"]
    return "\n".join(out) + "\n"


def _time_all_pairs(text: str, repeats: int) -> tuple[float, float, int, int, int]:
    """Median wall and CPU seconds to model one function and compute all pairs."""
    doc = Document(text)
    funcs = list(doc.sections[0].functions())
    assert len(funcs) == 1, "one function expected"
    f = funcs[0]
    _ = FunctionDeps(f).pairs  # warm up (isl, caches of parsed helper maps)
    wall, cpu = [], []
    n_pairs = n_checks = n_acc = 0
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        fd = FunctionDeps(f)  # fresh: no cache
        pairs = fd.pairs
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        n_acc, n_pairs = len(fd.accesses), len(pairs)
        n_checks = sum(len(p.results) for p in pairs)
    return statistics.median(wall), statistics.median(cpu), n_acc, n_pairs, n_checks


def _time_analyze(text: str, repeats: int) -> float:
    """Median wall seconds of ``analyze_document`` (what the server runs) on a fresh document."""
    from affine_lsp.analysis import analyze_document

    times = []
    for _ in range(repeats):
        doc = Document(text)
        _ = doc.sections  # parse outside the timing
        t0 = time.perf_counter()
        analyze_document(doc)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--lines", type=int, default=1000)
    args = ap.parse_args(argv)
    head = f"{'kernel':<16} {'accesses':>8} {'pairs':>7} {'checks':>7} {'wall ms':>9} {'cpu ms':>9} {'analyze ms':>10}"
    print(head)
    worst = 0.0
    for name, body in POLYBENCH.items():
        text = PRELUDE + body
        wall, cpu, n_acc, n_pairs, n_checks = _time_all_pairs(text, args.repeats)
        an = _time_analyze(text, args.repeats)
        worst = max(worst, wall)
        print(f"{name:<16} {n_acc:>8} {n_pairs:>7} {n_checks:>7} {wall * 1e3:>9.2f} {cpu * 1e3:>9.2f} {an * 1e3:>10.2f}")
    text = generated_function(args.lines)
    reps = max(1, args.repeats // 5)
    wall, cpu, n_acc, n_pairs, n_checks = _time_all_pairs(text, reps)
    an = _time_analyze(text, reps)
    label = f"generated-{text.count(chr(10))}l"
    print(f"{label:<16} {n_acc:>8} {n_pairs:>7} {n_checks:>7} {wall * 1e3:>9.2f} {cpu * 1e3:>9.2f} {an * 1e3:>10.2f}")
    print(f"worst PolyBench kernel (median wall): {worst * 1e3:.2f} ms (target < 50 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
