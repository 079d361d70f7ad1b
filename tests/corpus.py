"""The public corpus in ../shared (read in place, never copied into the repo)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"
UPSTREAM = SHARED / "corpus" / "upstream"
STATUS_JSON = SHARED / "corpus" / "STATUS.json"

needs_corpus = pytest.mark.skipif(not STATUS_JSON.is_file(), reason="../shared/corpus is not present")


@dataclass(frozen=True)
class ChunkStatus:
    file: str
    index: int
    first_line: int
    valid: bool
    error_line: int | None
    error_col: int | None
    error: str | None


@lru_cache(maxsize=1)
def status() -> dict:
    return json.loads(STATUS_JSON.read_text())


def corpus_files() -> list[Path]:
    """Every .mlir file of the corpus (tests and reference outputs)."""
    if not UPSTREAM.is_dir():
        return []
    return sorted(UPSTREAM.glob("*.mlir"))


def chunk_statuses(path: Path) -> list[ChunkStatus]:
    """Per-chunk validity under MLIR 22.1.8 from STATUS.json; files without
    an entry (reference outputs printed by mlir-opt) are valid throughout."""
    entry = status().get(f"upstream/{path.name}")
    if entry is None:
        return []
    out = []
    for c in entry["chunks"]:
        line = col = None
        msg = None
        if c["error"]:
            m = re.match(r"L(\d+):(\d+): (.*)", c["error"])
            if m:
                line, col, msg = int(m.group(1)), int(m.group(2)), m.group(3)
        out.append(ChunkStatus(path.name, c["index"], c["first_line"], c["valid"], line, col, msg))
    return out


def reference_run_allows_unregistered(path: Path) -> bool:
    """Whether the mlir-opt run that STATUS.json judged ``path`` by passed
    ``-allow-unregistered-dialect``: its own ``RUN:`` lines, or for a
    reference output (``X.ref.PASS.mlir``, no ``RUN:`` line) those of ``X.mlir``."""
    from affine_lsp.verify.expected import run_line_allows_unregistered

    source = path.with_name(path.name.split(".ref.")[0] + ".mlir") if ".ref." in path.name else path
    return source.is_file() and run_line_allows_unregistered(source.read_text())


def invalid_sections(path: Path) -> set[int]:
    return {c.index for c in chunk_statuses(path) if not c.valid}


REALWORLD = SHARED / "corpus" / "realworld"
REALWORLD_STATUS = REALWORLD / "STATUS.json"

needs_realworld = pytest.mark.skipif(not REALWORLD_STATUS.is_file(), reason="../shared/corpus/realworld is not present")


@lru_cache(maxsize=1)
def realworld_status() -> dict:
    return json.loads(REALWORLD_STATUS.read_text())


def realworld_files() -> list[Path]:
    """The realworld files STATUS.json describes (other dialects around affine code)."""
    if not REALWORLD_STATUS.is_file():
        return []
    return sorted(REALWORLD / name for name in realworld_status() if (REALWORLD / name).is_file())


def realworld_valid_lines(path: Path) -> list[tuple[int, int]]:
    """0-based [first, last) line ranges of the sections mlir-opt 22.1.8 accepts."""
    return [(c["first_line"] - 1, c["last_line"]) for c in realworld_status()[path.name]["chunks"] if c["valid"]]


_MARKER_LINE = re.compile(r"^// -----\s*$")


def valid_sections() -> list[tuple[str, str]]:
    """``(name, text)`` of every ``// -----`` section MLIR 22.1.8's mlir-opt
    accepts: the upstream files' valid chunks (STATUS.json) and the
    realworld files' valid chunks (their STATUS.json); names are
    ``upstream/<file>#<chunk>`` and ``realworld/<file>#<chunk>``."""
    out: list[tuple[str, str]] = []
    if STATUS_JSON.is_file():
        for key, entry in status().items():
            lines = (SHARED / "corpus" / key).read_text().split("\n")
            starts = [0] + [k + 1 for k, line in enumerate(lines) if _MARKER_LINE.match(line)]
            ends = [s - 1 for s in starts[1:]] + [len(lines)]
            for c in entry["chunks"]:
                if c["valid"]:
                    i = c["index"]
                    out.append((f"{key}#{i}", "\n".join(lines[starts[i] : ends[i]])))
    for path in realworld_files():
        lines = path.read_text().split("\n")
        for i, c in enumerate(realworld_status()[path.name]["chunks"]):
            if c["valid"]:
                out.append((f"realworld/{path.name}#{i}", "\n".join(lines[c["first_line"] - 1 : c["last_line"]])))
    return out
