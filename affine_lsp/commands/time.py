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

from affine_lsp.commands import frontend


def add_arguments(p: argparse.ArgumentParser) -> None:
    frontend.add_input(p)
    p.add_argument("--func", metavar="NAME", help="the function to time (default: @kernel, or the only function with a body)")
    p.add_argument("--after", metavar="COMMAND", help='an affine-lsp transformation to time too, e.g. "tile --sizes 32,32" or "unroll-jam --factor 4"')
    p.add_argument("--repeat", type=int, default=5, metavar="N", help="timed calls per program, after one warm-up call (default 5)")
    p.add_argument("--mlir-bin", metavar="DIR", help="the bin directory of an MLIR install (mlir-opt, mlir-runner); default: $AFFINE_LSP_MLIR_BIN, PATH, pip")
    p.add_argument("--format", choices=("text", "json"), default="text", help="the report as text (default) or JSON")
    frontend.add_output(p, "the report")


def run(args: argparse.Namespace) -> int:
    """Statuses (``frontend.EXIT_STATUS_HELP``): 0 the function ran (and,
    with ``--after``, the values agree); 1 the input has errors, the
    function cannot be timed, a program failed or the values disagree; 2 a
    bad option or ``--after`` command, an unreadable file, no toolchain."""
    from affine_lsp import harness, timing, toolchain
    from affine_lsp.source.document import Document

    if args.repeat < 1:
        raise frontend.UsageError("--repeat must be at least 1")
    text = frontend.read_input(args.file)
    if frontend.report_errors(args.file, Document(text, uri=args.file), args.allow_unregistered_dialect):
        return frontend.EXIT_ERRORS
    try:
        report = timing.time_function(text, args.func, args.after, args.repeat, mlir_bin=args.mlir_bin)
    except (toolchain.ToolchainError, timing.TransformError) as e:
        raise frontend.UsageError(str(e), args.file) from None
    except harness.HarnessError as e:
        print(f"{args.file}: error: {e}", file=sys.stderr)
        return frontend.EXIT_ERRORS
    if report.remarks.strip():
        sys.stderr.write(report.remarks.replace("<input>", args.file))
    # mlir-opt's diagnostics of a program that failed, on the user's lines
    # (harness.user_positions): named by the user's path
    out = json.dumps(report.as_json(), indent=2) + "\n" if args.format == "json" else report.text()
    sys.stdout.write(out.replace("<input>:", f"{args.file}:"))
    return frontend.EXIT_OK if report.ok() else frontend.EXIT_ERRORS
