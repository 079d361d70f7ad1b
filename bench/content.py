"""Generated MLIR files of several kinds of content, and real corpus files
concatenated to size, for the start-up benchmark (``bench/first_squiggle.py``).

Each kind is a list of function templates (``{name}``: the function's name)
repeated until the file has the lines asked for; every file is valid for
mlir-opt 22.1.8 (``tests/test_bench_content.py`` checks it):

* ``constant``: loop nests with constant bounds only;
* ``symbolic``: symbolic bounds, ``max``/``min`` bound maps, steps;
* ``modfloor``: ``mod``/``floordiv``/``ceildiv`` subscripts and semi-affine
  (symbol-multiplied) subscripts;
* ``if``: ``affine.if`` guards, with and without ``else``, with results;
* ``iter_args``: reductions carried by ``affine.for`` ``iter_args``;
* ``mixed``: affine code among arith, math, scf, memref and vector ops;
* ``all``: every template above in turn, and every tenth function an
  out-of-bounds access (what a user's file may hold);
* ``corpus``: the valid sections of real files of ``/work/shared/corpus``
  (``STATUS.json``), concatenated (split markers kept, ``RUN:`` lines
  removed) until the size.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

CONSTANT = [
    """func.func @{name}(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {{
  %cst = arith.constant 0.000000e+00 : f32
  affine.for %i = 0 to 64 {{
    affine.for %j = 0 to 64 {{
      affine.store %cst, %C[%i, %j] : memref<64x64xf32>
      affine.for %k = 0 to 64 {{
        %a = affine.load %A[%i, %k] : memref<64x64xf32>
        %b = affine.load %B[%k, %j] : memref<64x64xf32>
        %c = affine.load %C[%i, %j] : memref<64x64xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<64x64xf32>
      }}
    }}
  }}
  return
}}
""",
    """func.func @{name}(%A: memref<128xf32>, %B: memref<128xf32>) {{
  affine.for %i = 1 to 127 step 2 {{
    %0 = affine.load %A[%i - 1] : memref<128xf32>
    %1 = affine.load %A[%i + 1] : memref<128xf32>
    %2 = arith.addf %0, %1 : f32
    affine.store %2, %B[%i] : memref<128xf32>
  }}
  return
}}
""",
]

SYMBOLIC = [
    """func.func @{name}(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %N: index, %M: index) {{
  affine.for %i = 0 to %N {{
    affine.for %j = max affine_map<(d0) -> (0, d0 - 4)>(%i) to min affine_map<(d0)[s0] -> (s0, d0 + 4)>(%i)[%M] {{
      %0 = affine.load %A[%i, %j] : memref<?x?xf32>
      %1 = affine.load %B[%j, %i] : memref<?x?xf32>
      %2 = arith.addf %0, %1 : f32
      affine.store %2, %A[%i, %j] : memref<?x?xf32>
    }}
  }}
  return
}}
""",
    """func.func @{name}(%A: memref<?xf32>, %N: index, %T: index) {{
  affine.for %t = 0 to %T {{
    affine.for %i = max affine_map<(d0)[s0] -> (1, d0 * 2 - s0)>(%t)[%N] to min affine_map<(d0)[s0] -> (s0 - 1, d0 * 2 + 32)>(%t)[%N] step 4 {{
      %0 = affine.load %A[%i - 1] : memref<?xf32>
      %1 = affine.load %A[%i + 1] : memref<?xf32>
      %2 = arith.addf %0, %1 : f32
      affine.store %2, %A[%i] : memref<?xf32>
    }}
  }}
  return
}}
""",
]

MODFLOOR = [
    """func.func @{name}(%A: memref<64x64xf32>, %B: memref<16x32xf32>) {{
  affine.for %i = 0 to 64 {{
    affine.for %j = 0 to 64 {{
      %0 = affine.load %A[%i, %j] : memref<64x64xf32>
      %1 = affine.load %B[%i floordiv 4, %j mod 32] : memref<16x32xf32>
      %2 = arith.addf %0, %1 : f32
      affine.store %2, %B[%i floordiv 4, (%j + 5) mod 32] : memref<16x32xf32>
      %k = affine.apply affine_map<(d0, d1) -> ((d0 * 64 + d1) ceildiv 8)>(%i, %j)
    }}
  }}
  return
}}
""",
    """func.func @{name}(%A: memref<?xf32>, %N: index, %S: index) {{
  affine.for %i = 0 to %N {{
    %0 = affine.load %A[%i * symbol(%S)] : memref<?xf32>
    %1 = affine.load %A[%i mod symbol(%S)] : memref<?xf32>
    %2 = arith.mulf %0, %1 : f32
    affine.store %2, %A[%i floordiv symbol(%S)] : memref<?xf32>
  }}
  return
}}
""",
]

IF = [
    """#{name}_set = affine_set<(d0, d1)[s0] : (d0 - d1 >= 0, s0 - d0 - 1 >= 0)>
func.func @{name}(%A: memref<64x64xf32>, %N: index) {{
  %cst = arith.constant 1.000000e+00 : f32
  affine.for %i = 0 to 64 {{
    affine.for %j = 0 to 64 {{
      affine.if #{name}_set(%i, %j)[%N] {{
        %0 = affine.load %A[%i, %j] : memref<64x64xf32>
        %1 = arith.addf %0, %cst : f32
        affine.store %1, %A[%i, %j] : memref<64x64xf32>
      }} else {{
        affine.store %cst, %A[%j, %i] : memref<64x64xf32>
      }}
    }}
  }}
  return
}}
""",
    """func.func @{name}(%A: memref<128xf32>) -> f32 {{
  %z = arith.constant 0.000000e+00 : f32
  %r = affine.for %i = 0 to 128 iter_args(%acc = %z) -> (f32) {{
    %v = affine.if affine_set<(d0) : (d0 mod 2 == 0)>(%i) -> f32 {{
      %0 = affine.load %A[%i] : memref<128xf32>
      affine.yield %0 : f32
    }} else {{
      affine.yield %z : f32
    }}
    %s = arith.addf %acc, %v : f32
    affine.yield %s : f32
  }}
  return %r : f32
}}
""",
]

ITER_ARGS = [
    """func.func @{name}(%A: memref<64x64xf32>, %y: memref<64xf32>) {{
  %z = arith.constant 0.000000e+00 : f32
  affine.for %i = 0 to 64 {{
    %s = affine.for %j = 0 to 64 iter_args(%acc = %z) -> (f32) {{
      %0 = affine.load %A[%i, %j] : memref<64x64xf32>
      %1 = arith.addf %acc, %0 : f32
      affine.yield %1 : f32
    }}
    affine.store %s, %y[%i] : memref<64xf32>
  }}
  return
}}
""",
    """func.func @{name}(%A: memref<256xf32>) -> (f32, f32) {{
  %z = arith.constant 0.000000e+00 : f32
  %m0 = arith.constant -1.000000e+30 : f32
  %r:2 = affine.for %i = 0 to 256 step 2 iter_args(%sum = %z, %max = %m0) -> (f32, f32) {{
    %0 = affine.load %A[%i] : memref<256xf32>
    %1 = arith.addf %sum, %0 : f32
    %2 = arith.maximumf %max, %0 : f32
    affine.yield %1, %2 : f32, f32
  }}
  return %r#0, %r#1 : f32, f32
}}
""",
]

MIXED = [
    """func.func @{name}(%A: memref<64xf32>, %n: index) -> vector<8xf32> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.000000e+00 : f32
  scf.for %k = %c0 to %n step %c1 {{
    %0 = memref.load %A[%k] : memref<64xf32>
    %1 = math.sqrt %0 : f32
    memref.store %1, %A[%k] : memref<64xf32>
  }}
  affine.for %i = 0 to 64 {{
    %0 = affine.load %A[%i] : memref<64xf32>
    %1 = arith.mulf %0, %f : f32
    %c = arith.cmpf ogt, %1, %f : f32
    %2 = arith.select %c, %1, %f : f32
    affine.store %2, %A[%i] : memref<64xf32>
  }}
  %v = vector.transfer_read %A[%c0], %f : memref<64xf32>, vector<8xf32>
  return %v : vector<8xf32>
}}
""",
    """func.func @{name}(%A: memref<32x32xf32>) {{
  %t = memref.alloc() : memref<32xf32>
  affine.for %i = 0 to 32 {{
    %v = affine.vector_load %A[%i, 0] : memref<32x32xf32>, vector<8xf32>
    affine.vector_store %v, %A[%i, 8] : memref<32x32xf32>, vector<8xf32>
    %0 = affine.load %A[%i, %i] : memref<32x32xf32>
    affine.store %0, %t[%i] : memref<32xf32>
  }}
  %r = scf.execute_region -> index {{
    %c = arith.constant 3 : index
    scf.yield %c : index
  }}
  memref.dealloc %t : memref<32xf32>
  return
}}
""",
]

OUT_OF_BOUNDS = [
    """func.func @{name}(%A: memref<64xf32>) {{
  affine.for %i = 0 to 65 {{
    %0 = affine.load %A[%i] : memref<64xf32>
    affine.store %0, %A[%i - 1] : memref<64xf32>
  }}
  return
}}
""",
]

KINDS: dict[str, list[str]] = {
    "constant": CONSTANT,
    "symbolic": SYMBOLIC,
    "modfloor": MODFLOOR,
    "if": IF,
    "iter_args": ITER_ARGS,
    "mixed": MIXED,
}
ALL_KINDS = [*KINDS, "all", "corpus"]
CORPUS = Path("/work/shared/corpus")
_SPLIT = re.compile(r"^// -----[ \t]*$", re.M)  # mlir-opt's -split-input-file marker
_RUN_LINE = re.compile(r"^//\s*RUN:.*$", re.M)


def generate_kind(kind: str, lines: int) -> str:
    """About ``lines`` lines of content ``kind`` (one of :data:`ALL_KINDS`)."""
    if kind == "corpus":
        return corpus_text(lines)
    if kind == "all":
        templates = [t for ts in KINDS.values() for t in ts]
    else:
        templates = KINDS[kind]
    out = [f"// bench/content.py: {kind}"]
    count = 1
    i = 0
    while count < lines:
        if kind == "all" and i % 10 == 9:
            t = OUT_OF_BOUNDS[0]
        else:
            t = templates[i % len(templates)]
        text = t.format(name=f"{kind.replace('_', '')}_{i}")
        out.append(text)
        count += text.count("\n")
        i += 1
    return "\n".join(out)


def corpus_sections(root: Path = CORPUS) -> list[str]:
    """The sections (``// -----``) of the corpus files that mlir-opt accepts
    (STATUS.json: the chunks it marks ``valid``), in file order."""
    status = json.loads((root / "STATUS.json").read_text())
    out: list[str] = []
    for rel, info in sorted(status.items()):
        valid = _valid_sections(info)
        if valid is None:
            continue
        path = root / rel
        if not path.exists() or path.suffix != ".mlir":
            continue
        # Without the RUN lines: the concatenation of several files' RUN lines
        # would put the whole text in one file's -verify-diagnostics mode.
        sections = _SPLIT.split(_RUN_LINE.sub("", path.read_text(errors="replace")))
        out.extend(s for k, s in enumerate(sections) if k in valid and s.strip())
    return out


def _valid_sections(info: object) -> set[int] | None:
    if not isinstance(info, dict):
        return None
    chunks = info.get("chunks")
    if isinstance(chunks, list):
        return {c["index"] for c in chunks if isinstance(c, dict) and c.get("valid") is True and isinstance(c.get("index"), int)}
    return None


def corpus_text(lines: int, root: Path = CORPUS) -> str:
    """Valid corpus sections, concatenated with split markers until about
    ``lines`` lines (the sections again, in turn, when the corpus is
    smaller)."""
    sections = corpus_sections(root)
    if not sections:
        raise RuntimeError(f"no valid corpus sections under {root}")
    out: list[str] = []
    count = 0
    i = 0
    while count < lines:
        s = sections[i % len(sections)].strip("\n") + "\n"
        out.append(s)
        count += s.count("\n") + 1
        i += 1
    return "\n// -----\n".join(out)


if __name__ == "__main__":
    sys.stdout.write(generate_kind(sys.argv[1] if len(sys.argv) > 1 else "all", int(sys.argv[2]) if len(sys.argv) > 2 else 10000))
