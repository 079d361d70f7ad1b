"""The code is ruff clean (lint and format), as the brief asks; ruff is a
test dependency."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _ruff() -> list[str]:
    exe = shutil.which("ruff")
    if exe is not None:
        return [exe]
    try:
        import ruff  # noqa: F401
    except ImportError:
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    return [sys.executable, "-m", "ruff"]


def test_ruff_check_is_clean() -> None:
    r = subprocess.run([*_ruff(), "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_ruff_format_is_clean() -> None:
    r = subprocess.run([*_ruff(), "format", "--check", "."], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
