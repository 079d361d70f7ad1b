"""``affine-lsp time``: compile and run a function, and the version after an
affine-lsp transformation, with an MLIR toolchain; report the median times,
the speedup and whether the values agree.

The function gets a generated ``main`` (see :mod:`affine_lsp.harness`):
its memref arguments must be statically shaped (scalars get fixed values).
The toolchain is found as :mod:`affine_lsp.toolchain` says (``--mlir-bin``,
``AFFINE_LSP_MLIR_BIN``, ``mlir-opt`` on PATH, ``pip install
affine-lsp[run]``).
"""

from __future__ import annotations

import argparse
import json
import sys

EXIT_HELP = """\
exit status:
  0  the function ran (and, with --after, the values agree)
  1  the values disagree, or a program failed to compile or run
  2  usage error, an unreadable file, a function the harness cannot time,
     a bad --after command, or no MLIR toolchain"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.epilog = EXIT_HELP
    p.add_argument("file", metavar="FILE", help="MLIR file ('-' for standard input)")
    p.add_argument("--func", metavar="NAME", help="the function to time (default: @kernel, or the only function with a body)")
    p.add_argument("--after", metavar="COMMAND", help='an affine-lsp transformation to time too, e.g. "tile --sizes 32,32" or "unroll-jam --factor 4"')
    p.add_argument("--repeat", type=int, default=5, metavar="N", help="timed calls per program, after one warm-up call (default 5)")
    p.add_argument("--mlir-bin", metavar="DIR", help="the bin directory of an MLIR install (mlir-opt, mlir-runner); default: $AFFINE_LSP_MLIR_BIN, PATH, pip")
    p.add_argument("--format", choices=("text", "json"), default="text", help="the report as text (default) or JSON")
    p.add_argument("-o", dest="output", metavar="OUT", default="-", help="write the report to OUT (default: standard output)")


def run(args: argparse.Namespace) -> int:
    from affine_lsp import harness, timing, toolchain
    from affine_lsp.commands.check import read_source_or_report

    if args.repeat < 1:
        print(f"{args.file}: error: --repeat must be at least 1", file=sys.stderr)
        return 2
    text = read_source_or_report(args.file)
    if text is None:
        return 2
    try:
        report = timing.time_function(text, args.func, args.after, args.repeat, mlir_bin=args.mlir_bin)
    except (toolchain.ToolchainError, harness.HarnessError, timing.TransformError) as e:
        print(f"{args.file}: error: {e}", file=sys.stderr)
        return 2
    if report.remarks.strip():
        sys.stderr.write(report.remarks.replace("<input>", args.file))
    out = json.dumps(report.as_json(), indent=2) + "\n" if args.format == "json" else report.text()
    if args.output == "-":
        sys.stdout.write(out)
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(out)
    return 0 if report.ok() else 1
