"""Text edits for transforms, and the safety net every transform goes through.

A transform (fusion, vectorization, parallelization) never rewrites a whole
buffer: it produces a few :class:`TextEdit` s on the original text (replace
this loop nest, delete that op), so untouched text keeps its formatting and
comments. Before a transform is offered, :func:`checked` applies the edits,
re-parses and re-verifies the result; a transform whose output has an error
that the input did not have is withheld.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from affine_lsp.ir.core import Operation
from affine_lsp.source.scratch import scratch_documents
from affine_lsp.syntax.nodes import Note
from affine_lsp.transforms.profitability import Prediction


@dataclass(frozen=True, slots=True)
class TextEdit:
    """Replace ``text[start:end]`` by ``new_text`` (absolute offsets)."""

    start: int
    end: int
    new_text: str


@dataclass
class Transform:
    """A proposed rewrite: what it does, why, and the edits."""

    kind: str  # "fuse", "vectorize", "parallelize"
    title: str
    edits: list[TextEdit]
    details: str = ""  # Markdown: legality, cost figures
    data: dict = field(default_factory=dict)
    prediction: Prediction | None = None  # what it does to speed (None: no model for it)


class UnsafeTransform(Exception):
    """The edited text would not parse or verify; the transform is withheld."""

    def __init__(self, errors: Sequence[Note]) -> None:
        super().__init__("; ".join(n.message for n in errors[:3]))
        self.errors = list(errors)


def apply_edits(text: str, edits: Iterable[TextEdit]) -> str:
    """Apply non-overlapping edits (in any order) to ``text``."""
    out = []
    pos = 0
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if e.start < pos:
            raise ValueError(f"overlapping edits at {e.start}")
        out.append(text[pos : e.start])
        out.append(e.new_text)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


def line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def delete_op(text: str, op: Operation) -> TextEdit:
    """Delete an op together with its line when it is alone on it."""
    s, e = op.span.start, op.span.end
    ls = line_start(text, s)
    le = text.find("\n", e)
    le = len(text) if le < 0 else le
    if not text[ls:s].strip() and not text[e:le].strip():
        return TextEdit(ls, min(le + 1, len(text)), "")
    return TextEdit(s, e, "")


def reindent(block: str, indent: str) -> str:
    """Indent every non-empty line of ``block`` (which starts at column 0)."""
    return "\n".join(indent + line if line.strip() else line for line in block.split("\n"))


def _errors(doc: object) -> list[Note]:
    """The errors of ``doc`` as the server reports them: the parser's and the
    verifier's. Verification is not strict (an item that parses is verified
    even when another item of its section does not, as the server does):
    with mlir-opt's strict rule, a section holding any parse error has no
    verifier error at all, and an edit that breaks an op of such a section
    would pass unseen. The analyses are not run: they report warnings and
    infos only (out-of-bounds accesses, racy ``affine.parallel``, budgets;
    ``tests/test_checked_scope.py`` holds them to that), and each
    transformation proves its own legality from the dependences."""
    from affine_lsp.verify import verify_document

    notes = [*doc.notes(), *verify_document(doc, strict=False)]  # type: ignore[attr-defined]
    return [n for n in notes if n.severity == "error"]


def _keyed_errors(text: str) -> list[tuple[tuple[str, str], Note]]:
    """Errors of ``text``, each keyed by (message, line text): comparable
    across edits that move lines around."""
    from affine_lsp.source.document import Document

    with scratch_documents():  # (freed now, not by a collection)
        errors = _errors(Document(text))
    out = []
    for n in errors:
        ls = line_start(text, n.span.start)
        le = text.find("\n", ls)
        out.append(((n.message, text[ls : le if le >= 0 else len(text)].strip()), n))
    return out


_last_keys = threading.local()


def _error_keys(text: str) -> frozenset[tuple[str, str]]:
    """The keys of :func:`_keyed_errors` of ``text``, kept for the last text
    of this thread: the transformations offered for one loop are all checked
    against the same original, which is then parsed and verified once."""
    last = getattr(_last_keys, "value", None)
    if last is not None and last[0] == text:
        return last[1]
    keys = frozenset(key for key, _ in _keyed_errors(text))
    _last_keys.value = (text, keys)
    return keys


class TooLargeToCheck(UnsafeTransform):
    """The text a check would re-parse and re-verify is larger than the
    thread's :func:`check_limit`: the transform is withheld, unchecked."""

    def __init__(self, lines: int, limit: int) -> None:
        Exception.__init__(
            self, f"not checked: its context is {lines:,} lines, and a code action re-verifies at most {limit:,} (the command line checks any size)"
        )
        self.errors: list[Note] = []


_limit = threading.local()

CODE_ACTION_CHECK_LINES = 2_000
"""The most lines a code action's safety net re-verifies (twice, before and
after): a function with its environment is far smaller; a check of a whole
20,000-line section (a function whose context cannot be narrowed) took
seconds per transformation offered, holding the document's lock."""


@contextmanager
def check_limit(lines: int) -> Iterator[None]:
    """Inside the block, ``rewrite.checked_in_section`` on this thread
    refuses (raises :class:`TooLargeToCheck`) to check a context of more
    than ``lines`` lines (:func:`refuse_if_too_large`)."""
    outer = getattr(_limit, "lines", None)
    _limit.lines = lines
    try:
        yield
    finally:
        _limit.lines = outer


@contextmanager
def editor_request() -> Iterator[None]:
    """What an editor request that runs transformations (the code actions,
    the loop hover) runs inside: the documents and IR its trials build are
    freed at the end (``source.scratch.scratch_documents``), and a safety
    net re-verifies at most :data:`CODE_ACTION_CHECK_LINES` lines
    (:func:`check_limit`)."""
    with scratch_documents(), check_limit(CODE_ACTION_CHECK_LINES):
        yield


def refuse_if_too_large(text: str) -> None:
    """Raise :class:`TooLargeToCheck` when ``text`` has more lines than the
    thread's :func:`check_limit` (if any)."""
    limit = getattr(_limit, "lines", None)
    if limit is not None:
        lines = text.count("\n") + 1
        if lines > limit:
            raise TooLargeToCheck(lines, limit)


def checked(text: str, edits: Sequence[TextEdit]) -> str:
    """Apply ``edits`` and re-parse and re-verify the result. Returns the new
    text, or raises :class:`UnsafeTransform` when the edit introduces an
    error the original text did not have (the transform is then withheld)."""
    new = apply_edits(text, edits)
    before = _error_keys(text)
    fresh = [n for key, n in _keyed_errors(new) if key not in before]
    if fresh:
        raise UnsafeTransform(fresh)
    return new
