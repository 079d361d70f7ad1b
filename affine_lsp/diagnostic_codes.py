"""What each diagnostic code means: a short description and a help text.

Every :class:`~affine_lsp.syntax.nodes.Note` carries a ``code``; reports that
describe their rules (SARIF's ``tool.driver.rules``) read them here. A code
missing from :data:`CODES` still gets a rule (see :func:`describe`).
"""

from __future__ import annotations

CODES: dict[str, tuple[str, str]] = {
    # ------------------------------------------------------------ text and syntax
    "syntax": (
        "Syntax error",
        "The text does not parse as MLIR: the message names what was expected. mlir-opt rejects the same text.",
    ),
    "not-text": (
        "Control character or invalid UTF-8",
        "The file holds a control character or bytes that are not UTF-8 (shown as U+FFFD). MLIR files are UTF-8 text.",
    ),
    "too-deep": (
        "Nesting too deep to analyse",
        "Brackets or regions are nested more deeply than affine-lsp analyses; the item is skipped.",
    ),
    "too-large": (
        "Top-level item too large to analyse",
        "One top-level item is larger than affine-lsp analyses; it is skipped.",
    ),
    "unknown-op": (
        "Op with unknown custom syntax",
        "affine-lsp does not know this op's custom assembly format: the op is skipped but its results, operands and regions are kept. "
        "Reported once per op name and file; `affine-lsp check --no-unknown-op-notes` silences it.",
    ),
    "unregistered-dialect": (
        "Op of a dialect MLIR 22.1.8 does not register",
        "mlir-opt rejects an op whose dialect it does not register (the first of each section). "
        "`affine-lsp check --allow-unregistered-dialect`, a lit RUN: line that passes -allow-unregistered-dialect, "
        "or the setting affineLsp.diagnostics.allowUnregisteredDialect allow them: their syntax is then skipped, "
        "their results, operands and regions kept.",
    ),
    "unknown-upstream-op": (
        "Op that MLIR 22.1.8 does not have",
        "The op's dialect is one MLIR registers, but MLIR 22.1.8 has no op of this name (misspelt, removed or moved): "
        "mlir-opt rejects it. The quick fixes offer the nearest names of the dialect.",
    ),
    "legacy-map": (
        "Legacy affine map syntax",
        "An affine map alias written without 'affine_map<...>'; the quick fix rewrites it to the modern form.",
    ),
    "legacy-set": (
        "Legacy integer set syntax",
        "An integer set alias written without 'affine_set<...>'; the quick fix rewrites it to the modern form.",
    ),
    "legacy-func": (
        "Legacy 'func' keyword",
        "'func' is the old spelling of 'func.func'; the quick fix replaces it.",
    ),
    "legacy-terminator": (
        "Legacy loop terminator",
        "'affine.terminator' is the old spelling of 'affine.yield'; the quick fix replaces it.",
    ),
    "legacy-syntax": (
        "File in MLIR's pre-2022 syntax",
        "The file uses the syntax MLIR had before the func, arith and math dialects split out of std (func @, constant, addf, alloc, ...), "
        'which MLIR 22 rejects; `affine-lsp upgrade FILE` or the code action "Upgrade to current MLIR syntax" rewrites it.',
    ),
    # ------------------------------------------------------------ names and IR
    "ir": (
        "Invalid IR",
        "The text parses but does not form valid IR (mlir-opt reports the same error while building the IR).",
    ),
    "undefined-value": (
        "Use of an undefined SSA value",
        "An operand names an SSA value that is not defined in scope. Define it before the use or fix the name.",
    ),
    "undefined-block": (
        "Reference to an undefined block",
        "A successor names a block label that the region does not define.",
    ),
    "undefined-alias": (
        "Use of an undefined attribute or type alias",
        "A '#name' or '!name' alias is used but never defined in this file (or its '// -----' section).",
    ),
    "alias-kind": (
        "Alias of the wrong kind",
        "The alias names an affine map where an integer set is expected, or the other way round.",
    ),
    "redefinition": (
        "Redefinition",
        "An SSA value, block label or alias is defined twice in the same scope; the related location shows the first definition.",
    ),
    "entry-arg-in-use": (
        "Region argument name already in use",
        "A region's entry argument (e.g. a loop induction variable) has a name that was already referenced before it, e.g. by an operand of its own op.",
    ),
    "result-count": (
        "Wrong number of results",
        "The op binds a different number of SSA result names than its type gives results.",
    ),
    "type-mismatch": (
        "Type mismatch",
        "A value is used with a type different from the one it was defined with (or used with before); the related location shows the definition.",
    ),
    "dominance": (
        "Use does not dominate",
        "An operand is used where its definition does not dominate the use; the related location shows the definition.",
    ),
    "verify": (
        "Op verifier error",
        "The op violates a rule of its dialect's verifier (the same error mlir-opt reports); related locations point at the values involved.",
    ),
    # ------------------------------------------------------------ analyses
    "memref-bound": (
        "Out-of-bounds memref access",
        "For some iteration of the enclosing loops the access falls outside the memref's shape; the related location gives a witness iteration.",
    ),
    "racy-parallel": (
        "Race in affine.parallel",
        "Two iterations of the affine.parallel loop access the same element and at least one writes it; the related locations show the accesses.",
    ),
    "racy-parallel-unknown": (
        "Possible race in affine.parallel",
        "The dependence analysis could not prove that the iterations of this affine.parallel loop are independent.",
    ),
    "deps-budget": (
        "Dependence analysis budget exceeded",
        "The dependence analysis stopped early on this op and assumed a dependence; results nearby are conservative.",
    ),
    "deps-limit": (
        "Dependence analysis skipped: too many access pairs",
        "The function has more pairs of memory accesses than the analysis examines; no dependence results for it.",
    ),
    "deps-time": (
        "Dependence analysis skipped: time budget",
        "The function's analysis needs more than the time budget (the affineLsp.analysis.timeBudgetMs setting in the editor).",
    ),
    "deps-internal": (
        "Dependence analysis failed",
        "An internal error of the dependence analysis; please report it with the file.",
    ),
    "internal": (
        "Internal error",
        "affine-lsp failed on this part of the file; please report it with the file.",
    ),
}


def describe(code: str) -> tuple[str, str]:
    """``(short description, help text)`` of ``code``; a code without an
    entry in :data:`CODES` gets a description made from its name."""
    if code in CODES:
        return CODES[code]
    name = code.replace("-", " ") if code else "diagnostic"
    return f"affine-lsp {name}", "See the diagnostic's message."
