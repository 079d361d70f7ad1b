"""The machine model the cost models predict for: ``AFFINE_LSP_CACHES``
names it (the suite pins it in conftest.py), whatever the host's caches."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from affine_lsp.transforms.machine import Caches, caches, caches_from_spec

ROOT = Path(__file__).resolve().parents[1]


def test_the_spec_names_three_sizes() -> None:
    assert caches_from_spec("32K,1M,8M") == Caches(32 * 1024, 1024 * 1024, 8 * 1024 * 1024, "AFFINE_LSP_CACHES")
    assert caches_from_spec("48K,2048K,32M") == Caches(48 * 1024, 2 * 1024 * 1024, 32 * 1024 * 1024, "AFFINE_LSP_CACHES")
    for bad in ("", "32K", "32K,1M", "32K,1M,8M,1G", "a,b,c", "32K,,8M", "0,1M,8M"):
        assert caches_from_spec(bad) is None, bad


def test_the_suite_predicts_for_the_pinned_machine() -> None:
    assert os.environ["AFFINE_LSP_CACHES"] == "48K,1M,32M"
    c = caches()
    assert (c.l1, c.l2, c.l3, c.source) == (48 * 1024, 1024 * 1024, 32 * 1024 * 1024, "AFFINE_LSP_CACHES")


def _caches_in_child(spec: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "AFFINE_LSP_CACHES"}
    if spec is not None:
        env["AFFINE_LSP_CACHES"] = spec
    code = "from affine_lsp.transforms.machine import caches; c = caches(); print(c.l1, c.l2, c.l3, c.source)"
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


def test_a_process_reads_the_variable_and_falls_back_to_the_host() -> None:
    assert _caches_in_child("32K,1M,8M") == f"{32 * 1024} {1024 * 1024} {8 * 1024 * 1024} AFFINE_LSP_CACHES"
    host = _caches_in_child(None)
    assert host.split()[-1] in ("sysfs", "defaults")
    # A malformed value is not half-read: the host's sizes are used.
    assert _caches_in_child("lots") == host


def test_a_prediction_follows_the_model_not_the_host() -> None:
    """The floyd-warshall band of tests/test_optimize_api.py: its reuse is
    within a 48 KiB L1 (left alone), not within a 16 KiB one (tiled), on
    any host."""
    from tests.test_optimize_api import FLOYD_WARSHALL

    code = (
        "import sys; from affine_lsp.transforms.optimize import optimize_document;"
        "new, outcomes, _ = optimize_document(sys.stdin.read(), compose=False);"
        "print('left alone' if not outcomes[0].done else 'changed')"
    )
    outs = {}
    for spec in ("48K,1M,32M", "16K,256K,8M"):
        env = dict(os.environ, AFFINE_LSP_CACHES=spec)
        p = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, input=FLOYD_WARSHALL, capture_output=True, text=True, check=True)
        outs[spec] = p.stdout.strip()
    assert outs == {"48K,1M,32M": "left alone", "16K,256K,8M": "changed"}
