"""Two processes (or more) for one large document.

The top-level ``func.func`` items of the second half of a large document are
parsed, built, verified (and, for ``affine-lsp check``, analysed) in a
forked child process while this process does the rest; the child sends
back the diagnostics of its items only. The first open of a document in
the server (:func:`split_open`) forks one child per core beyond the
first (:func:`processes`, at most :data:`MAX_PROCESSES` in all), each
taking an equal share of the functions; the same reasoning holds for each. Fork start is cheap (the document
is only chunked when it forks) and the child leaves without freeing
anything.

Why the result is the one of a single process. Every diagnostic of a
top-level ``func.func`` item depends on its own text and its environment
only: its parse on its text; its IR on the aliases of its section and the
values defined at the top of its modules (a ``func.func`` defines none, so
leaving one out changes no other item's environment); its verification on
nothing else (it is isolated from above, see
:class:`~affine_lsp.verify.verifier.ItemCache`); its analysis on its own IR.
Both processes chunk the whole text and parse every chunk except the
other's functions (a placeholder stands for each), so they build the same
environment. The child sends, per function chunk, its parse and IR notes,
its verifier results and its analysis notes, their spans anchored to the
chunk (pickled by chunk number). This process puts the notes on its
placeholder chunks and hands the verifier results to
:func:`~affine_lsp.verify.verifier.verify_section` (``foreign``), where the
module-level flow of the verifier (items without regions, an isolated
item's failure stopping its module's own checks) runs as in one process. Documents with values
at the top of a module are not split (an untyped result learns its type
from a use in any item). Every note of an item lies inside the item, so
sorting the merged list gives the single-process order.

``tests/test_parallel.py`` checks that ``affine-lsp check`` prints the same
as one process on every corpus file with the split forced on small files,
and that a child that fails or dies falls back to one process.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import pickle
import re
import select
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from affine_lsp import forking
from affine_lsp.ir.core import ROOT_ANCHOR, Anchor
from affine_lsp.source.document import Chunk, Document, is_function_chunk
from affine_lsp.syntax.nodes import Note
from affine_lsp.syntax.parser import ParseResult

log = logging.getLogger("affine_lsp.parallel")

MIN_CHARS = int(os.environ.get("AFFINE_LSP_SPLIT_MIN_CHARS", "150000"))
"""Documents shorter than this are done in one process (forking and merging
cost more than they save). ``AFFINE_LSP_SPLIT_MIN_CHARS=0`` forces the split
(tests); a negative value turns it off."""
CHILD_SHARE = 0.5
"""The share of the function text the child takes (:func:`plan`, two processes)."""
MAX_PROCESSES = 4
"""At most this many processes open a document (:func:`split_open`)."""
CHILD_TIMEOUT_S = 120.0
"""A child that has not answered by then is killed; its items are then done here."""

_VALUE_HEAD_RE = re.compile(r"\s*%")  # an item defining a value: `%x = ...`


@dataclass(slots=True)
class ItemResult:
    """What the child computed for one function chunk."""

    parse_notes: list[Note]
    ir_notes: list[Note]
    parse_check: tuple[bool, list[Note]] | None
    verified: tuple[bool, list[Note]] | None
    analysis: list[Note] = field(default_factory=list)


def available() -> bool:
    return hasattr(os, "fork") and sys.platform.startswith("linux") and MIN_CHARS >= 0


def _splittable(doc: Document) -> list[int] | None:
    """The chunk indices of the functions of ``doc`` another process may
    take, or None when ``doc`` is not worth splitting or may not be split."""
    if not available() or len(doc.text) < MIN_CHARS:
        return None
    funcs = _independent_functions(doc)
    return funcs if len(funcs) >= 2 else None


def plan(doc: Document) -> list[int] | None:
    """The indices of the chunks the child takes, or None when ``doc`` is
    not worth splitting or may not be split."""
    funcs = _splittable(doc)
    if funcs is None:
        return None
    total = sum(doc.chunks[i].length for i in funcs)
    acc = 0
    for k, i in enumerate(funcs):
        acc += doc.chunks[i].length
        if acc >= total * (1 - CHILD_SHARE):
            return funcs[k + 1 :] or None
    return None


def processes() -> int:
    """How many processes :func:`split_open` opens a large document on: one
    per core this process may run on, at least 2 (the split's merge and the
    child's fork cost little) and at most :data:`MAX_PROCESSES`;
    ``AFFINE_LSP_SPLIT_PROCESSES`` sets it."""
    env = os.environ.get("AFFINE_LSP_SPLIT_PROCESSES", "")
    if env.strip().isdigit():
        return max(2, int(env))
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(2, min(MAX_PROCESSES, cores))


def plan_shares(doc: Document, n: int) -> list[list[int]] | None:
    """The chunk indices each of ``n - 1`` children takes (consecutive
    functions, about ``1/n`` of the function text each; this process keeps
    the first share), the empty shares left out; None when ``doc`` is not
    worth splitting or may not be split (as :func:`plan`)."""
    if n <= 2:
        owned = plan(doc)
        return [owned] if owned is not None else None
    funcs = _splittable(doc)
    if funcs is None:
        return None
    total = sum(doc.chunks[i].length for i in funcs)
    shares: list[list[int]] = [[] for _ in range(n)]
    acc = 0
    j = 0
    for i in funcs:
        shares[j].append(i)
        acc += doc.chunks[i].length
        while j < n - 1 and acc >= total * (j + 1) / n:
            j += 1
    children = [s for s in shares[1:] if s]
    return children or None


def _independent_functions(doc: Document) -> list[int]:
    """The top-level ``func.func`` chunks of the sections (``// -----``)
    without a value at the top of a module: in a section with one, an
    untyped result may learn its type from a use in any item, so none of
    its functions is verified apart (the other sections' are: a section is
    a document of its own)."""
    section = 0
    section_of: list[int] = []
    with_values: set[int] = set()
    for c in doc.chunks:
        if c.kind == "split":
            section += 1
        elif c.kind == "item" and _VALUE_HEAD_RE.match(c.text):
            with_values.add(section)
        section_of.append(section)
    return [i for i in _function_chunks(doc) if section_of[i] not in with_values]


def _function_chunks(doc: Document) -> list[int]:
    """The indices of the top-level ``func.func`` chunks (what may be split)."""
    return [i for i, c in enumerate(doc.chunks) if is_function_chunk(c)]


def _reset(doc: Document, indices: list[int], placeholder: bool) -> None:
    """Forget what ``indices`` hold: a placeholder (no item, no notes yet) or nothing (parsed again when needed)."""
    for i in indices:
        c = doc.chunks[i]
        c.parse = ParseResult(None, []) if placeholder else None
        c.released = False
        doc.drop_ir(c)
    doc.forget_sections()


def placeholders(doc: Document, indices: list[int]) -> None:
    """Stand-ins for the chunks another process does: no item, no notes (yet)."""
    _reset(doc, indices, True)


def restore(doc: Document, indices: list[int]) -> None:
    """Undo the placeholders: those chunks are parsed again when needed."""
    _reset(doc, indices, False)


# ---------------------------------------------------------------- the child


class _Recorder:
    """An ItemCache that remembers what the verifier stored; with
    ``replay``, it answers with it."""

    def __init__(self) -> None:
        self.stored: dict[tuple[int, str], tuple[bool, list[Note]]] = {}
        self.replay = False

    def lookup(self, op: Any, kind: str) -> tuple[bool, list[Note]] | None:
        return self.stored.get((id(op), kind)) if self.replay else None

    def store(self, op: Any, kind: str, ok: bool, notes: list[Note]) -> None:
        self.stored[(id(op), kind)] = (ok, list(notes))


def compute_items(doc: Document, owned: list[int], analyses: bool) -> dict[int, ItemResult]:
    """Parse, build, verify (and analyse) the chunks ``owned`` of ``doc``,
    with placeholders for the other function chunks: run by the child."""
    from affine_lsp.verify import verifier

    taken = set(owned)
    placeholders(doc, [i for i in _function_chunks(doc) if i not in taken])
    # Only notes leave this process: a function's syntax records are freed
    # once its IR is built (one function's are alive at a time).
    doc._release = True
    rec = _Recorder()
    text, line_of = doc.text, doc.lines.line_of
    for section in doc.sections:
        verifier.verify_section(section, text, line_of, strict=False, cache=rec)
    out: dict[int, ItemResult] = {}
    for i in owned:
        c = doc.chunks[i]
        op = c.ir_op
        res = ItemResult(list(c.parse_notes()), list(c.ir_notes), None, None)
        if op is not None:
            res.parse_check = rec.stored.get((id(op), "parse"))
            res.verified = rec.stored.get((id(op), "verify"))
            if analyses:
                res.analysis = _analyse(op)
        out[i] = res
    return out


def _analyse(op: Any) -> list[Note]:
    from affine_lsp.analysis import analyze_function
    from affine_lsp.ir import op_traits

    notes: list[Note] = []
    try:
        for scope in op_traits.analysis_scopes([op]):
            notes.extend(analyze_function(scope, keep=False))
    except Exception:
        pass
    return notes


class _Pickler(pickle.Pickler):
    def __init__(self, f: io.BytesIO, anchors: dict[int, int]) -> None:
        super().__init__(f, protocol=pickle.HIGHEST_PROTOCOL)
        self.anchors = anchors

    def persistent_id(self, obj: Any) -> Any:
        if type(obj) is Anchor:
            if obj is ROOT_ANCHOR:
                return ("root",)
            k = self.anchors.get(id(obj))
            if k is not None:
                return ("chunk", k)
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, f: io.BytesIO, chunks: list[Chunk]) -> None:
        super().__init__(f)
        self.chunks = chunks

    def persistent_load(self, pid: Any) -> Any:
        if pid[0] == "root":
            return ROOT_ANCHOR
        return self.chunks[pid[1]].anchor


def _dumps(doc: Document, payload: Any) -> bytes:
    f = io.BytesIO()
    _Pickler(f, {id(c.anchor): i for i, c in enumerate(doc.chunks)}).dump(payload)
    return f.getvalue()


def _loads(doc: Document, data: bytes) -> Any:
    return _Unpickler(io.BytesIO(data), doc.chunks).load()


# ---------------------------------------------------------------- the parent


class Child:
    """A forked child computing :func:`compute_items` for ``owned``."""

    def __init__(self, doc: Document, owned: list[int], analyses: bool, on_fork: Callable[[], None] | None = None) -> None:
        self.owned = owned
        self.doc = doc
        r, w = os.pipe()

        def child() -> None:  # compute, send, leave without cleaning up (affine_lsp.forking)
            os.close(r)
            if on_fork is not None:
                on_fork()
            try:
                payload = _dumps(doc, compute_items(doc, owned, analyses))
                data = pickle.dumps(("ok", payload, _private_mb()))
            except BaseException as e:
                data = pickle.dumps(("error", f"{type(e).__name__}: {e}", _private_mb()))
            view = memoryview(data)
            while view:
                n = os.write(w, view)
                view = view[n:]

        pid = forking.fork(child)
        os.close(w)
        self.pid = pid
        self.fd = r
        self.error: str | None = None
        self.private_mb = 0.0  # the child's own memory at its end (pages it did not share with this process)

    def result(self, timeout: float = CHILD_TIMEOUT_S) -> dict[int, ItemResult] | None:
        """The child's results (None if it failed, died or timed out; then it is gone)."""
        chunks: list[bytes] = []
        deadline = time.monotonic() + timeout
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.error = "timed out"
                    os.kill(self.pid, 9)
                    return None
                ready, _, _ = select.select([self.fd], [], [], left)
                if not ready:
                    continue
                block = os.read(self.fd, 1 << 20)
                if not block:
                    break
                chunks.append(block)
        finally:
            os.close(self.fd)
            self._reap()
        try:
            kind, value, self.private_mb = pickle.loads(b"".join(chunks))
            if kind != "ok":
                self.error = value
                return None
            value = _loads(self.doc, value)
        except Exception as e:
            self.error = f"unreadable answer: {type(e).__name__}: {e}"
            return None
        if not isinstance(value, dict) or set(value) != set(self.owned) or not all(isinstance(r, ItemResult) for r in value.values()):
            self.error = "unexpected answer"
            return None
        return value

    def _reap(self) -> None:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


def _private_mb() -> float:
    """This process's private memory (pages not shared with the parent:
    what the fork costs), from ``/proc/self/smaps_rollup``; its peak, since
    the child frees nothing."""
    total = 0
    try:
        with open("/proc/self/smaps_rollup") as f:
            for line in f:
                if line.startswith(("Private_Clean:", "Private_Dirty:")):
                    total += int(line.split()[1])
    except OSError:
        return 0.0
    return total / 1024.0


def splice(doc: Document, results: dict[int, ItemResult]) -> dict[int, list[Any]]:
    """Put the child's parse and IR notes on the placeholder chunks of
    ``doc`` (whose sections are built) and return its verifier results per
    section index, as :func:`~affine_lsp.verify.verifier.verify_document`
    takes them."""
    from affine_lsp.verify.verifier import ForeignItem

    for i, r in results.items():
        c = doc.chunks[i]
        c.parse = ParseResult(None, r.parse_notes)
        c.ir_notes = r.ir_notes
    foreign: dict[int, list[Any]] = {}
    index = {id(c): i for i, c in enumerate(doc.chunks)}
    for section in doc.sections:
        stack = [section.module]
        for c in section.chunks:
            if c.kind == "module_open" and c.ir_op is not None:
                stack.append(c.ir_op)
            elif c.kind == "module_close" and len(stack) > 1:
                stack.pop()
            else:
                r = results.get(index[id(c)])
                if r is not None and (r.parse_check is not None or r.verified is not None):
                    foreign.setdefault(section.index, []).append(ForeignItem(stack[-1], r.parse_check, r.verified))
    return foreign


def collect(doc: Document, unknown_op_mode: str = "once", allow_unregistered: bool = False) -> list[Note] | None:
    """What :func:`affine_lsp.diagnostics.collect` returns for ``doc`` (with
    the verifier and the analyses), computed on two processes; None when
    ``doc`` is not split (then nothing was done)."""
    owned = plan(doc)
    if owned is None:
        return None
    from affine_lsp import diagnostics
    from affine_lsp.analysis import analyze_document
    from affine_lsp.verify import verify_document

    child = Child(doc, owned, analyses=True)
    placeholders(doc, owned)
    doc.release_syntax()  # builds the IR of this process's share, as the CLI does
    # This process's items are verified and analysed while the child works;
    # the verifier's module-level flow runs once the child's results are in.
    rec = _Recorder()
    verify_document(doc, strict=False, cache=rec)
    mine = analyze_document(doc)
    results = child.result()
    if results is None:
        restore(doc, owned)
        return None
    foreign = splice(doc, results)
    rec.replay = True
    # (strict=False: the rule of diagnostics.verifier_notes)
    base = diagnostics.layer_notes(doc, doc.notes(), verify_document(doc, strict=False, foreign=foreign, cache=rec), unknown_op_mode, allow_unregistered)
    return diagnostics.assemble(base, [mine, *(results[i].analysis for i in owned)])


def split_open(
    doc: Document, verify: Callable[[], None], on_fork: Callable[[], None] | None = None, what: str = "", n: int | None = None
) -> tuple[list[int], dict[int, list[Any]], float] | None:
    """The first computation of a large document on ``n`` processes
    (default :func:`processes`): the top-level functions of all but its
    first ``1/n`` (:func:`plan_shares`) are parsed, built and verified in
    forked children while ``verify`` (this process's share, kept per item)
    runs here, on placeholder chunks. (the chunk indices the children
    owned, their verifier results per section, for ``verify_section``'s
    ``foreign``, their private memory in MB), or None (not split, or a
    child failed: then nothing is left of the children). The server's first
    fast phase and its early first publish (``server/runtime/early_open.py``) both
    open through it."""
    shares = plan_shares(doc, processes() if n is None else n)
    if shares is None:
        return None
    from affine_lsp.syntax.parser import shared_tables

    shared_tables()  # built before the fork (it is built under a lock)
    t0 = time.perf_counter()
    children: list[Child] = []
    for share in shares:
        try:
            children.append(Child(doc, share, analyses=False, on_fork=on_fork))
        except OSError:
            log.exception("fork failed")  # the shares not forked stay here
            break
    if not children:
        return None
    owned = [i for child in children for i in child.owned]
    placeholders(doc, owned)
    try:
        verify()
    except Exception:
        log.exception("verifier failed")
    # A child does as much; past three times as long it is not coming.
    results: dict[int, ItemResult] = {}
    failed = []
    for child in children:
        got = child.result(timeout=max(2.0, 3 * (time.perf_counter() - t0)))
        if got is None:
            failed.append(child.error)
        else:
            results.update(got)
    if failed:
        log.warning("%s: a parse child failed (%s); parsing in this process", what, "; ".join(str(e) for e in failed))
        restore(doc, owned)
        return None
    return owned, splice(doc, results), sum(child.private_mb for child in children)
