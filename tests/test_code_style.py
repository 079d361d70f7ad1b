"""The code is ruff clean (lint and format), as the brief asks; ruff is a
test dependency."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
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


# ---------------------------------------------------------------- measurements
# A figure measured once (a time, a size, a speedup) goes stale in a code
# comment; it lives in docs/performance.md ("Figures behind the code"),
# stated of the current code, and the comment points there. Limits,
# defaults and budgets the code sets are no measurements and may stay.

_FIGURE = re.compile(r"(?<![\w.])~?\d+(?:[.,]\d+)*\s?(?:ms|µs|us|s|MB|MiB|KB|kB|KiB|GB|GiB)(?![\w])|(?<![\w.])~?\d+(?:\.\d+)?[x\u00d7](?=[\s,;:)]|$|\.(?!\w))")
_MEASURED = re.compile(
    r"\bmeasured\b(?! by)|\bat \d[\d,.]*k?[- ]lines?\b|\b\d[\d,.]*k?-line\b|\bpeaks?\b|\bresident\b|\bto build\b|\bof CPU\b|\bran\b|\bfaster\b"
    r"|\binstead of\b|\btakes\b|\btook\b|\bcosts?\b|\bwas\b|\bwere\b|\bgives\b|\bis slow\b|\bwaited\b|\bspent\b",
    re.IGNORECASE,
)


def _prose(source: str) -> Iterator[tuple[int, str]]:
    """The comment blocks and docstrings of ``source`` (line, text), with
    ``literal`` spans removed."""
    import ast
    import io
    import tokenize

    block: list[str] = []
    start = 0
    last = -2
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            if tok.start[0] != last + 1 and block:
                yield start, " ".join(block)
                block = []
            if not block:
                start = tok.start[0]
            block.append(tok.string.lstrip("#").strip())
            last = tok.start[0]
    if block:
        yield start, " ".join(block)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            yield node.lineno, " ".join(node.value.value.split())


def measurement_comments(source: str) -> list[tuple[int, str]]:
    """The sentences of comments and docstrings that quote a measured figure."""
    out = []
    for line, text in _prose(source):
        text = re.sub(r"``.*?``|`[^`]*`", "", text)
        for sentence in re.split(r"(?<=[.;!?:])\s+", text):
            figures = _FIGURE.findall(sentence)
            if figures and (_MEASURED.search(sentence) or sum(1 for f in figures if f.rstrip().endswith(("x", "\u00d7"))) >= 2):
                out.append((line, sentence.strip()))
    return out


def test_no_code_comment_quotes_a_measurement() -> None:
    bad = [
        f"{p.relative_to(ROOT)}:{line}: {s[:120]}"
        for p in sorted((ROOT / "affine_lsp").rglob("*.py"))
        for line, s in measurement_comments(p.read_text(encoding="utf-8"))
    ]
    assert bad == [], "move measured figures to docs/performance.md (Figures behind the code):\n" + "\n".join(bad)


def test_the_measurement_finder_tells_figures_from_limits() -> None:
    found = measurement_comments(
        "# building the table takes 1.8 s\nX = 1\n"
        "# a document larger than 32 MB is left to the server\nY = 2\n"
        'def f():\n    """gemm 2.0x, atax 1.6x on the kernels. A shape ``4x?x`` and 32 x 32 tiles."""\n'
        "# (0.15 s at 50k lines)\nZ = 3\n"
    )
    assert sorted(line for line, _ in found) == [1, 6, 7], found
