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
    python bench/fuzz.py --minutes 20 --big-lines 20000 --big-docs 1   # a 20,000-line document among the small ones

With ``--big-lines N`` the server also holds ``--big-docs`` documents of
about N lines (generated affine content of every kind and valid corpus
sections concatenated, in turn; ``tests/fuzzing.big_texts``), edited like the
others a quarter of the steps. The report gives the latency by document size
class (small / big), every answer after more than 1 s with its method and
document size, and the peak resident set of the server with its children.
A request is late after 2 s, or after ``--small-late`` seconds (default 1)
on a small document.

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
    p.add_argument("--big-lines", type=int, default=0, metavar="N", help="also keep documents of about N lines open (default: none)")
    p.add_argument("--big-docs", type=int, default=1, metavar="K", help="how many such documents (default 1)")
    p.add_argument("--small-late", type=float, default=1.0, metavar="S", help="a request on a small document is late after S seconds (default 1)")
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
            big_lines=args.big_lines,
            big_docs=args.big_docs if args.big_lines > 0 else 0,
            small_late_s=args.small_late,
        )
    )
    print(f"\naffine-lsp edit-stream fuzzing: {args.minutes:g} minutes, seed {args.seed}, {time.monotonic() - t0:.0f} s wall")
    print(stats.format())
    if stats.failures:
        print("\nfailures:")
        for f in stats.failures:
            print("  " + f)
    if args.json:
        out = {"minutes": args.minutes, "seed": args.seed, "big lines": args.big_lines, **stats.summary(), "latency by size": stats.by_size()}
        out["answers after 1 s"] = [{"seconds": round(dt, 2), "method": m, "size": sz, "lines": n} for dt, m, sz, n in sorted(stats.slow, reverse=True)]
        Path(args.json).write_text(json.dumps({**out, "failures": stats.failures}, indent=1))
    return 1 if stats.problems else 0


if __name__ == "__main__":
    sys.exit(main())
