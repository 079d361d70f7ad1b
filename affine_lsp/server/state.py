"""Per-document state of the language server.

One :class:`DocumentState` per open document wraps the incremental
:class:`~affine_lsp.source.document.Document`, which is the single source of
truth for the text: every LSP content change becomes one
``Document.apply_edit`` (so an edit re-parses only the chunks it touches).

Threading model
---------------
Handlers run on the asyncio event loop; parsing, IR building, the verifier
and the analyses run in worker threads (the value-based dataflow in a worker
process, see :mod:`.flowproc`). The Document is only touched while holding
:attr:`DocumentState.lock`:

* ``didChange`` (event loop) queues the changes and applies them right away
  if the lock is free; otherwise the next holder of the lock applies them
  first thing (:meth:`DocumentState.locked`). The event loop therefore never
  waits for a worker, and changes are applied in order.
* ``didOpen`` only stores the text: the Document is built by the first
  holder of the lock (a worker), so opening a huge file never stalls the
  event loop.
* Workers take the lock to read the Document (positions, sections, IR) and
  release it before running a heavy analysis: the IR of a function is never
  mutated once built (an edit builds new ops for the chunks it changes), so
  an analysis may keep reading it while the document moves on; its results
  are only published if the version did not change meanwhile.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from affine_lsp.ide.name_targets import chunk_at
from affine_lsp.ir.core import Operation
from affine_lsp.server.runtime.lanes import DocumentLanes
from affine_lsp.source.document import Document
from affine_lsp.syntax.nodes import Note

if TYPE_CHECKING:
    from concurrent.futures import Future

    from affine_lsp.server.expected_view import View
    from affine_lsp.transforms.legacy_upgrade import UpgradeResult

Change = types.TextDocumentContentChangeEvent


@dataclass(slots=True)
class DiagnosticsResult:
    """The diagnostics of one document version."""

    version: int
    doc_version: int  # Document.version (internal edit counter) they were computed for
    notes: list[Note]
    diagnostics: list[types.Diagnostic]
    complete: bool  # False while analysis results are still missing


class DocumentState:
    """One open document: its text (the :class:`Document`), the scheduling
    of its diagnostics, and the caches the features keep for it. Every
    field is declared here (``__slots__``): a feature that keeps something
    per document adds a field, never an attribute of its own."""

    __slots__ = (
        "_doc",
        "_good_seen",
        "_initial_text",
        "_pending",
        "_pending_lock",
        "closed",
        "deps_lru",
        "diag_task",
        "expected_view",
        "fast_future",
        "fn_cache",
        "language_id",
        "lanes",
        "last",
        "last_edit_offset",
        "last_good",
        "last_published",
        "lock",
        "mirror_text",
        "partial_open",
        "persist_wanted",
        "preloaded",
        "published_version",
        "result_counter",
        "token_cache",
        "tokens_warming",
        "transform_actions",
        "upgrade_action",
        "uri",
        "version",
        "verify_cache",
    )

    def __init__(self, uri: str, text: str, version: int, language_id: str = "mlir") -> None:
        self.uri = uri
        self.language_id = language_id
        self.version = version
        self.lock = threading.RLock()
        # Built on first use, under the lock, by a worker: chunking a big
        # file takes seconds, which the event loop (didOpen) must not spend.
        self._doc: Document | None = None
        self._initial_text: str | None = valid_text(text)
        self._pending: deque[tuple[int, Sequence[Change]]] = deque()
        self._pending_lock = threading.Lock()
        self.closed = False
        self.last_edit_offset: int | None = None  # where the latest change started
        # Diagnostics scheduling (event loop only).
        self.diag_task: asyncio.Task[Any] | None = None
        # The fast phase computed or pending for one version: (version, concurrent future).
        self.fast_future: tuple[int, Any] | None = None
        self.last: DiagnosticsResult | None = None
        self.published_version: int | None = None
        self.last_published: list[types.Diagnostic] | None = None
        # Diagnostics of the opened version read from the persistent cache
        # (server/runtime/persist.py): (version, diagnostics), shown until the
        # computation of that version is complete.
        self.preloaded: tuple[int, list[types.Diagnostic]] | None = None
        # Store the next complete diagnostics in the persistent cache (set
        # when the document is opened or saved).
        self.persist_wanted = False
        # The last diagnostics were computed on two processes; the IR of the
        # other process's functions is being built (see diagnostics._split_open).
        self.partial_open = False
        # Per-function analysis results (see engine.Engine), keyed by id(func op).
        self.fn_cache: dict[int, Any] = {}
        # Which of them still hold their dependence model, least recently used first.
        self.deps_lru: dict[int, None] = {}
        # Verifier results per top-level item (see engine.Engine.verify).
        self.verify_cache: dict[int, Any] = {}
        # Semantic tokens per chunk (see semantic_tokens.chunk_tokens), and
        # whether the background completes them (after a partial answer).
        self.token_cache: dict[int, tuple[Any, ...]] = {}
        self.tokens_warming = False
        self.result_counter = 0
        # Loop-transformation code actions per (version, loops, width, tile sizes) (see transform_actions).
        self.transform_actions: dict[tuple[Any, ...], Any] = {}  # ActionsJob (server/transform_actions.py): no IR, only LSP data
        # The upgrade of the text of one version, being computed or done (see upgrade_action).
        self.upgrade_action: tuple[int, Future[UpgradeResult]] | None = None
        # What the last diagnostics look like to mlir-opt (see expected_checks).
        self.expected_view: View | None = None
        # Last successfully built top-level ops by symbol name (completion in
        # a function that currently does not parse).
        self.last_good: dict[str, Operation] = {}
        self._good_seen: set[int] = set()
        # Set by the debug text mirror (tests): the text pygls' workspace holds.
        self.mirror_text: str | None = None
        # Its worker threads (server/runtime/lanes.py; made by the server on first use).
        self.lanes: DocumentLanes | None = None

    def close(self) -> None:
        """Closed (or replaced by a new open): its threads stop once idle."""
        self.closed = True
        if self.lanes is not None:
            self.lanes.shutdown()

    # ------------------------------------------------------------ edits
    def queue_changes(self, version: int, changes: Sequence[Change]) -> None:
        """Record changes (event loop); apply them now if nobody reads the document."""
        with self._pending_lock:
            self._pending.append((version, list(changes)))
            self.version = version
        if self._doc is not None and self.lock.acquire(blocking=False):
            try:
                self._flush()
            finally:
                self.lock.release()

    def _document(self) -> Document:
        """The Document (built now if needed; call with the lock held)."""
        doc = self._doc
        if doc is None:
            # The server keeps the IR, not the syntax records of functions
            # (parsed again for the moment when a feature reads them).
            doc = self._doc = Document(self._initial_text or "", uri=self.uri, release=True)
            self._initial_text = None
        return doc

    def _flush(self) -> None:
        doc = self._document()
        while True:
            with self._pending_lock:
                if not self._pending:
                    return
                _version, changes = self._pending.popleft()
            for ch in changes:
                self.last_edit_offset = apply_change(doc, ch)

    @contextmanager
    def locked(self) -> Iterator[Document]:
        """The Document with every queued change applied, under the lock."""
        with self.lock:
            self._flush()
            yield self._document()

    def document_if_built(self) -> Document | None:
        """The Document without taking the lock, when it exists and no change
        is queued (its text is the latest); else None. Its chunk list and text
        are replaced, never changed in place: a reader may copy them."""
        doc = self._doc
        return doc if doc is not None and not self._pending else None

    @property
    def document_unsafe(self) -> Document:
        """The Document without taking the lock (tests, debugging)."""
        return self._doc if self._doc is not None else self._document()

    def size(self) -> int:
        """The length of the text (of the latest change applied; no lock)."""
        text = self._initial_text
        doc = self._doc
        return len(text) if text is not None or doc is None else len(doc.text)

    def is_current(self, version: int) -> bool:
        return not self.closed and self.version == version

    # ------------------------------------------------------------ lookups (call with the lock held)
    chunk_at = staticmethod(chunk_at)  # (ide.name_targets.chunk_at)

    def remember_good_ops(self, doc: Document) -> None:
        """Record the functions whose IR is new since the last call, and
        forget those whose name is in no item of the text any more (an op
        kept here keeps, by its parent links, the IR of the version it was
        built in). A function of an older version this forgets is retired
        (``doc.retired``)."""
        seen = self._good_seen
        now: set[int] = set()
        names: set[str] = set()
        dropped: list[Operation] = []
        for s in doc.sections:
            for c in s.chunks:
                op = c.ir_op
                if op is None:
                    m = _FUNC_NAME_RE.search(c.text)
                    if m is not None:
                        names.add(m.group(1)[1:].strip('"'))
                    continue
                now.add(id(op))
                if op.name != "func.func":
                    continue
                attr = op.attributes.get("sym_name")
                if attr is None:
                    continue
                name = getattr(attr, "value", str(attr))
                names.add(name)
                if id(op) not in seen:
                    old = self.last_good.get(name)
                    if old is not None and old is not op:
                        dropped.append(old)
                    self.last_good[name] = op
        for name in [n for n in self.last_good if n not in names]:
            dropped.append(self.last_good.pop(name))
        self._good_seen = now
        if doc.retired is not None:
            kept = {id(op) for op in self.last_good.values()}
            for op in dropped:
                if id(op) not in now and id(op) not in kept:
                    doc.retired.add(op, False)


_SURROGATE = re.compile("[\ud800-\udfff]")
# (As symbols._FUNC_RE, which completion reads last_good with.)
_FUNC_NAME_RE = re.compile(r"\bfunc(?:\.func)?\s+(?:(?:private|public|nested)\s+)?(@[\w$.\-]+|@\"[^\"]*\")")


def valid_text(text: str) -> str:
    """``text`` with lone UTF-16 surrogates (a client may send them as JSON
    ``\\udXXX`` escapes; they cannot be encoded) replaced by U+FFFD: one
    UTF-16 code unit for one, so every position stays the same (and the
    document gets the "invalid UTF-8 (replaced by U+FFFD)" warning)."""
    if text.isascii():  # (known to the string object: no scan)
        return text
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text


def apply_change(doc: Document, change: Change) -> int:
    """Apply one LSP content change; returns the offset where it starts."""
    rng = getattr(change, "range", None)
    if rng is None:
        doc.set_text(valid_text(change.text))
        return 0
    lines = doc.lines
    start = lines.offset(rng.start.line, rng.start.character)
    end = lines.offset(rng.end.line, rng.end.character)
    if end < start:
        start, end = end, start
    doc.apply_edit(start, end, valid_text(change.text))
    return start


@dataclass
class Workspace:
    """The open documents."""

    docs: dict[str, DocumentState] = field(default_factory=dict)

    def get(self, uri: str) -> DocumentState | None:
        st = self.docs.get(uri)
        return st if st is not None and not st.closed else None

    def open(self, uri: str, text: str, version: int, language_id: str) -> DocumentState:
        old = self.docs.get(uri)
        if old is not None:
            old.close()
        st = DocumentState(uri, text, version, language_id)
        self.docs[uri] = st
        return st

    def close(self, uri: str) -> DocumentState | None:
        st = self.docs.pop(uri, None)
        if st is not None:
            st.close()
        return st
