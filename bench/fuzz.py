"""Long edit-stream fuzzing of the language server (see ``tests/fuzzing.py``).

Starts the real server (``python -m affine_lsp serve``, stdio, a new process
every ``--session-minutes``), opens corpus files and generated programs,
applies random edit sequences as incremental ``didChange`` notifications with
requests at random positions in between, and checks after every step that
the server is alive, answers every request within 2 s, publishes diagnostics
for the latest version, agrees with a fresh open of the same text, and never
offers a code action (or rename) whose edit breaks the program.

Usage::

    python bench/fuzz.py --minutes 30            # prints the counts at the end
    python bench/fuzz.py --minutes 5 --seed 7 --json out.json --artifacts /tmp/fuzz-failures

Exit status 1 when any crash, unanswered or late request, missing
diagnostics, mismatch or invalid transform output was found.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.fuzzing import fuzz  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=5.0, help="how long to fuzz (default 5)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--session-minutes", type=float, default=5.0, help="restart the server this often (default 5)")
    p.add_argument("--no-corpus", action="store_true", help="only generated programs and the test data (no upstream corpus)")
    p.add_argument("--json", metavar="FILE", help="also write the counts as JSON")
    p.add_argument("--artifacts", metavar="DIR", help="save the texts of every failure here")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)

    t0 = time.monotonic()

    def echo(s: str) -> None:
        if not args.quiet:
            print(f"[{time.monotonic() - t0:7.1f}s] {s}", flush=True)

    stats = asyncio.run(
        fuzz(
            args.minutes * 60,
            args.seed,
            corpus=not args.no_corpus,
            session_seconds=args.session_minutes * 60,
            artifacts=Path(args.artifacts) if args.artifacts else None,
            echo=echo,
        )
    )
    print(f"\naffine-lsp edit-stream fuzzing: {args.minutes:g} minutes, seed {args.seed}, {time.monotonic() - t0:.0f} s wall")
    print(stats.format())
    if stats.failures:
        print("\nfailures:")
        for f in stats.failures:
            print("  " + f)
    if args.json:
        Path(args.json).write_text(json.dumps({"minutes": args.minutes, "seed": args.seed, **stats.summary(), "failures": stats.failures}, indent=1))
    return 1 if stats.problems else 0


if __name__ == "__main__":
    sys.exit(main())
