"""The invalid sections of ../shared/corpus whose ops all come from upstream
dialects (issue #32): at most 1 in 20 without an error from affine-lsp
(mlir-opt 22.1.8 rejects every one of them, STATUS.json)."""

from __future__ import annotations

import re

from affine_lsp import diagnostics
from affine_lsp.ir import op_registry
from affine_lsp.source.document import Document
from tests.corpus import SHARED, needs_corpus, realworld_status, status

_OP_NAME = re.compile(r'^[ \t]*(?:%[\w$.:, %-]*=[ \t]*)?"?([A-Za-z_][\w$]*\.[\w$.]+)', re.M)
_MARKER = re.compile(r"^// -----\s*$")


def _invalid_sections() -> list[tuple[str, str]]:
    out = []
    for key, entry in status().items():
        lines = (SHARED / "corpus" / key).read_text().split("\n")
        starts = [0] + [k + 1 for k, line in enumerate(lines) if _MARKER.match(line)]
        ends = [s - 1 for s in starts[1:]] + [len(lines)]
        for c in entry["chunks"]:
            if not c["valid"]:
                i = c["index"]
                out.append((f"{key}#{i}", "\n".join(lines[starts[i] : ends[i]])))
    for name, entry in realworld_status().items():
        lines = (SHARED / "corpus" / "realworld" / name).read_text().split("\n")
        for i, c in enumerate(entry["chunks"]):
            if not c["valid"]:
                out.append((f"realworld/{name}#{i}", "\n".join(lines[c["first_line"] - 1 : c["last_line"]])))
    return out


def _upstream_only(text: str) -> bool:
    code = "\n".join(line.split("//", 1)[0] for line in text.split("\n"))
    names = {m.group(1) for m in _OP_NAME.finditer(code)}
    return all(op_registry.is_upstream_dialect(n.split(".", 1)[0]) for n in names)


@needs_corpus
def test_invalid_upstream_sections_get_an_error() -> None:
    sections = [(n, t) for n, t in _invalid_sections() if _upstream_only(t)]
    missed = [n for n, t in sections if not [d for d in diagnostics.collect(Document(t)) if d.severity == "error"]]
    print(f"{len(sections)} invalid sections with only upstream ops; {len(missed)} without an error: {missed}")
    assert len(sections) >= 40
    assert len(missed) * 20 <= len(sections)
