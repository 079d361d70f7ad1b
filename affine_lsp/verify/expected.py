"""``expected-*`` annotations, checked as ``mlir-opt -verify-diagnostics`` does.

MLIR 22.1.8's ``SourceMgrDiagnosticVerifierHandler`` (``mlir/lib/IR/Diagnostics.cpp``),
with ``MlirOptMain``'s use of it, is the model:

* every line of the file is searched for
  ``expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *{{(.*)}}$``
  (trailing whitespace ignored; the leftmost ``expected-`` wins, so a line holds
  at most one annotation, and the text runs to the *last* ``}}`` of the line);
* the annotation is about its own line, ``@+N``/``@-N`` lines below/above it,
  ``@above`` the last line above that holds no annotation, ``@below`` the next
  such line below (a dangling ``@below``: the number of lines of the file),
  ``@unknown`` a diagnostic without a location;
* a plain annotation matches a diagnostic of its kind on its line whose message
  *contains* the text; an ``-re`` one turns each ``{{...}}`` part of the text
  into a POSIX extended regex group (the rest is literal) and searches the
  message for it;
* one handler serves the whole file, with ``--split-input-file`` too: the
  ``// -----`` sections are parsed and verified independently, but the
  annotations are read once, with the file's line numbers;
* every emitted diagnostic (error, warning, remark and each note attached to
  one) marks the *first* annotation of its kind on its line that matches it
  (an annotation can be matched by several diagnostics; two identical
  annotations need not both be matched by one diagnostic: the second is "not
  produced"); a diagnostic no annotation matches is reported ``unexpected
  error: MSG`` at its location, or, when an annotation of another kind would
  match, ``'warning' diagnostic emitted when expecting a 'error'`` at that
  annotation; at the end, ``expected error "TEXT" was not produced`` at every
  annotation nothing matched. ``-verify-diagnostics=only-expected`` skips the
  unexpected diagnostics and near misses. The run fails when any of these
  (or an annotation's broken regex) was reported.

Which of affine-lsp's diagnostics take part (:func:`mlir_opt_diagnostics`):
the ones mlir-opt itself would emit, i.e. the errors of the parser, the IR
builder and the verifier, reduced per section as mlir-opt reports them (its
parser stops at the first error of a section, and nothing of that section is
verified then), plus the notes mlir-opt attaches to them (``previously
defined here``, ``prior use here``, ``operand defined here ...``: the related
information whose text is MLIR's, see :data:`MLIR_NOTES`). affine-lsp's own
warnings, remarks and information (dependence analyses, out-of-bounds
accesses, races, unknown-op remarks, legacy syntax) and its explanatory
related information are never emitted by mlir-opt, so they never match an
annotation and are never "unexpected".
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from affine_lsp.syntax.nodes import Note

__all__ = [
    "MLIR_NOTES",
    "AnnotationError",
    "Annotations",
    "Emitted",
    "Expectation",
    "Verification",
    "annotation_for",
    "insertion_edits",
    "is_annotation_line",
    "mlir_opt_diagnostics",
    "parse_annotations",
    "remark_diagnostics",
    "run_line_mode",
    "run_line_passes",
    "verify",
]

KINDS = ("error", "warning", "remark", "note")

# MLIR's designator expression (an llvm::Regex, POSIX ERE, searched in the line).
_DESIGNATOR_RE = re.compile(r"expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}$", re.DOTALL)

MLIR_NOTES = (
    "previously defined here",
    "previously referenced here",
    "prior use here",
    "required by region isolation constraints",
    "operand defined here",
    "operand defined as a block argument",
)
"""How the notes mlir-opt attaches to the errors affine-lsp reproduces begin;
the other related information of affine-lsp's errors (``found ')'``, ``%x is
defined here``, ...) is its own explanation, which mlir-opt never emits."""

_NOTES_EXTENDED = ("prior use here",)
"""The notes whose text affine-lsp extends (``prior use here: '%x' defined
with type 'index'``): mlir-opt's is the prefix alone."""

_NEWLINE_RE = re.compile("\n")
_RUN_RE = re.compile(r"RUN:(.*)$", re.MULTILINE)
_VERIFY_FLAG_RE = re.compile(r"(?<![\w-])--?verify-diagnostics(?:=([\w-]*))?(?![\w-])")


DEPENDENCE_PASS = "test-memref-dependence-check"

_ALLOW_UNREGISTERED_RE = re.compile(r"RUN:.*(?<![\w-])--?allow-unregistered-dialect(?![\w-])")


def run_line_allows_unregistered(text: str) -> bool:
    """Whether a lit ``RUN:`` line of ``text`` passes ``-allow-unregistered-dialect``."""
    return "allow-unregistered-dialect" in text and _ALLOW_UNREGISTERED_RE.search(text) is not None


def run_line_passes(text: str) -> set[str]:
    """The options of the ``RUN:`` lines that run ``-verify-diagnostics``
    which affine-lsp reproduces the diagnostics of: ``DEPENDENCE_PASS``
    (the remarks of ``-test-memref-dependence-check``)."""
    out = set()
    for m in _RUN_RE.finditer(text):
        line = m.group(1)
        if _VERIFY_FLAG_RE.search(line) and re.search(rf"(?<![\w-])--?{DEPENDENCE_PASS}(?![\w-])", line):
            out.add(DEPENDENCE_PASS)
    return out


def _designator(line: str) -> re.Match[str] | None:
    """mlir-opt's designator expression searched in ``line`` (trailing
    whitespace ignored). A line that does not end with ``}}`` cannot match:
    checked first, so that a long line full of ``expected-`` costs no
    backtracking."""
    line = line.rstrip(" \t\n\v\f\r")
    if not line.endswith("}}") or "expected-" not in line:
        return None
    return _DESIGNATOR_RE.search(line)


def run_line_mode(text: str) -> str | None:
    """``"all"`` or ``"only-expected"`` when a lit ``RUN:`` line of ``text``
    runs with ``-verify-diagnostics`` (``=only-expected``), else None."""
    if "verify-diagnostics" not in text:
        return None
    for m in _RUN_RE.finditer(text):
        f = _VERIFY_FLAG_RE.search(m.group(1))
        if f is not None:
            return "only-expected" if f.group(1) == "only-expected" else "all"
    return None


class _Lines:
    """1-based line numbers as mlir-opt counts them (lines end at ``\\n``)."""

    __slots__ = ("starts",)

    def __init__(self, text: str, starts: list[int] | None = None) -> None:
        self.starts = starts if starts is not None else [0, *(m.end() for m in _NEWLINE_RE.finditer(text))]

    @staticmethod
    def of(doc: object) -> _Lines:
        """The document's own line index when it counts lines as mlir-opt
        does (no ``\\r``: the LSP also ends a line at a lone one)."""
        text: str = doc.text  # type: ignore[attr-defined]
        if "\r" not in text:
            return _Lines(text, doc.lines.starts)  # type: ignore[attr-defined]
        return _Lines(text)

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def col(self, offset: int) -> int:
        return offset - self.starts[self.line(offset) - 1] + 1


# ---------------------------------------------------------------- annotations


@dataclass(frozen=True, slots=True)
class Expectation:
    """One ``expected-*`` annotation."""

    kind: str  # error | warning | remark | note
    line: int | None  # the 1-based line it is about; None for @unknown
    text: str  # what is between the braces
    designator: str  # "", "@+1", "@above", ...
    start: int  # offset of "expected-"
    end: int  # offset after the closing "}}"
    ann_line: int  # 1-based line of the annotation itself
    col: int  # 1-based column of "expected-"
    regex: re.Pattern[str] | None = None  # the -re variants

    @property
    def spelling(self) -> str:
        return f"expected-{self.kind}{'-re' if self.regex is not None else ''}{self.designator}"

    def matches(self, message: str) -> bool:
        if self.regex is not None:
            return self.regex.search(message) is not None
        return self.text in message


@dataclass(frozen=True, slots=True)
class AnnotationError:
    """An annotation mlir-opt rejects (its ``-re`` text is no valid regex)."""

    message: str
    start: int
    end: int
    line: int
    col: int


@dataclass(frozen=True, slots=True)
class Annotations:
    expectations: tuple[Expectation, ...]
    errors: tuple[AnnotationError, ...]


def _offset_value(digits: str) -> int:
    """``StringRef::getAsInteger(0, ...)``: a leading 0 means octal."""
    if len(digits) > 1 and digits[0] == "0":
        try:
            return int(digits, 8)
        except ValueError:
            return 0  # mlir-opt reads an uninitialised value here
    return int(digits)


def parse_annotations(text: str, doc: object | None = None) -> Annotations:
    """The ``expected-*`` annotations of a whole file, as mlir-opt reads them
    (only the lines holding ``expected-`` are looked at); ``doc``, the
    Document of ``text``, lends its line index."""
    if "expected-" not in text:
        return Annotations((), ())
    lines = _Lines.of(doc) if doc is not None else _Lines(text)
    n_lines = len(lines.starts)
    found: list[tuple[int, int, re.Match[str]]] = []  # (0-based line, its offset, match)
    i = text.find("expected-")
    while i >= 0:
        idx = lines.line(i) - 1
        start = lines.starts[idx]
        stop = lines.starts[idx + 1] - 1 if idx + 1 < n_lines else len(text)
        m = _designator(text[start:stop])
        if m is not None:
            found.append((idx, start, m))
        i = text.find("expected-", stop)
    annotated = {idx for idx, _, _ in found}
    exps: list[Expectation] = []
    errors: list[AnnotationError] = []
    for idx, line_start, m in found:
        kind, is_re, designator, where, body = m.group(1), m.group(2), m.group(3) or "", m.group(4), m.group(5)
        start = line_start + m.start()
        end = line_start + m.end()
        col = m.start() + 1
        regex = None
        if is_re:
            regex, err = _compile(body)
            if err is not None:
                # mlir-opt reports it when it reads the file, and drops the annotation.
                errors.append(AnnotationError(err, start, end, idx + 1, col))
                continue
        target: int | None = idx + 1
        if where:
            if where[0] in "+-":
                n = _offset_value(where[1:])
                target = idx + 1 + n if where[0] == "+" else idx + 1 - n
            elif where == "unknown":
                target = None
            elif where == "above":  # the last line above without an annotation (else the first line)
                j = idx - 1
                while j >= 0 and j in annotated:
                    j -= 1
                target = max(j, 0) + 1
            else:  # below: the next line without an annotation (dangling: the line count)
                j = idx + 1
                while j < n_lines and j in annotated:
                    j += 1
                target = j + 1 if j < n_lines else n_lines
        exps.append(Expectation(kind, target, body, designator, start, end, idx + 1, col, regex))
    # mlir-opt keeps @unknown ones in a list of their own, checked last.
    exps.sort(key=lambda e: e.line is None)
    return Annotations(tuple(exps), tuple(errors))


# ---------------------------------------------------------------- -re: POSIX ERE -> Python

_CLASSES = {
    "alnum": "a-zA-Z0-9",
    "alpha": "a-zA-Z",
    "blank": " \\t",
    "cntrl": "\\x00-\\x1f\\x7f",
    "digit": "0-9",
    "graph": "!-~",
    "lower": "a-z",
    "print": " -~",
    "punct": "!-/:-@\\[-`{-~",
    "space": " \\t\\n\\r\\f\\v",
    "upper": "A-Z",
    "xdigit": "0-9A-Fa-f",
}


class _RegexError(Exception):
    pass


def _compile(body: str) -> tuple[re.Pattern[str] | None, str | None]:
    """``ExpectedDiag::computeRegex``: literal text escaped, each ``{{...}}``
    part a group. Returns (pattern, None) or (None, mlir-opt's message)."""
    out: list[str] = []
    rest = body
    while rest:
        i = rest.find("{{")
        if i < 0:
            out.append(re.escape(rest))
            break
        out.append(re.escape(rest[:i]))
        rest = rest[i + 2 :]
        j = rest.find("}}")
        if j < 0:
            return None, "found start of regex with no end '}}'"
        try:
            part = _posix_ere(rest[:j])
        except _RegexError as e:
            return None, f"invalid regex: {e}"
        out.append(f"({part})")
        rest = rest[j + 2 :]
    try:
        return re.compile("".join(out), re.DOTALL), None
    except re.error as e:  # pragma: no cover - _posix_ere produces valid patterns
        return None, f"invalid regex: {e}"


def _posix_ere(src: str) -> str:
    """A POSIX extended regular expression (llvm::Regex) as a Python one;
    raises _RegexError with llvm's message for the ones llvm rejects."""
    if src == "":
        raise _RegexError("empty (sub)expression")
    out: list[str] = []
    depth = 0
    i, n = 0, len(src)
    atom = False  # something a repetition can apply to precedes
    while i < n:
        c = src[i]
        if c == "\\":
            if i + 1 >= n:
                raise _RegexError("trailing backslash (\\)")
            d = src[i + 1]
            if d.isdigit() and d != "0":
                out.append("\\" + d)
            else:
                out.append(re.escape(d))
            i += 2
            atom = True
        elif c == "[":
            cls, i = _bracket(src, i)
            out.append(cls)
            atom = True
        elif c == "(":
            if i + 1 < n and src[i + 1] == ")":
                raise _RegexError("empty (sub)expression")
            depth += 1
            out.append("(")
            i += 1
            atom = False
            if i < n and src[i] in "*+?{":
                raise _RegexError("repetition-operator operand invalid")
        elif c == ")":
            if depth == 0:
                raise _RegexError("parentheses not balanced")
            depth -= 1
            out.append(")")
            i += 1
            atom = True
        elif c in "*+?" or (c == "{" and i + 1 < n and src[i + 1].isdigit()):
            if not atom:
                raise _RegexError("repetition-operator operand invalid")
            if c == "{":
                m = re.match(r"\{(\d+)(,(\d*))?", src[i:])
                assert m is not None
                lo, hi = int(m.group(1)), m.group(3)
                if lo > 255 or (hi and (int(hi) > 255 or int(hi) < lo)):
                    raise _RegexError("invalid repetition count(s)")
                i += len(m.group(0))
                if i >= n or src[i] != "}":
                    raise _RegexError("braces not balanced" if "}" not in src[i:] else "invalid repetition count(s)")
                out.append(m.group(0) + "}")
                i += 1
            else:
                out.append(c)
                i += 1
            # llvm rejects a repetition of a repetition (a** or a+{2}).
            if i < n and (src[i] in "*+?" or (src[i] == "{" and i + 1 < n and src[i + 1].isdigit())):
                raise _RegexError("repetition-operator operand invalid")
            atom = False
        elif c == "|":
            if not out or out[-1] in ("(", "|") or i + 1 >= n or src[i + 1] in "|)":
                raise _RegexError("empty (sub)expression")
            out.append("|")
            i += 1
            atom = False
        elif c in "^$.":
            out.append(c)
            i += 1
            atom = c != "^"
        else:
            out.append(re.escape(c))
            i += 1
            atom = True
    if depth:
        raise _RegexError("parentheses not balanced")
    return "".join(out)


def _bracket(src: str, i: int) -> tuple[str, int]:
    """The bracket expression starting at ``src[i] == '['``."""
    j = i + 1
    neg = False
    if j < len(src) and src[j] == "^":
        neg = True
        j += 1
    items: list[str] = []
    first = True
    while True:
        if j >= len(src):
            raise _RegexError("brackets ([ ]) not balanced")
        c = src[j]
        if c == "]" and not first:
            j += 1
            break
        first = False
        if c == "[" and j + 1 < len(src) and src[j + 1] in ":.=":
            kind = src[j + 1]
            close = src.find(kind + "]", j + 2)
            if close < 0:
                raise _RegexError("brackets ([ ]) not balanced")
            name = src[j + 2 : close]
            if kind == ":":
                if name not in _CLASSES:
                    raise _RegexError("invalid character class")
                items.append(_CLASSES[name])
            else:
                if len(name) != 1:
                    raise _RegexError("invalid collating element")
                items.append(re.escape(name))
            j = close + 2
            continue
        if j + 2 >= len(src) and j + 1 < len(src) and src[j + 1] == "-":
            raise _RegexError("invalid character range")  # llvm reads a range with no end
        if j + 2 < len(src) and src[j + 1] == "-" and src[j + 2] != "]":
            hi = src[j + 2]
            if ord(hi) < ord(c):
                raise _RegexError("invalid character range")
            items.append(f"{_cls_escape(c)}-{_cls_escape(hi)}")
            j += 3
            continue
        items.append(_cls_escape(c))
        j += 1
    return "[" + ("^" if neg else "") + "".join(items) + "]", j


def _cls_escape(c: str) -> str:
    return "\\" + c if c in "\\]^-[" else c


# ---------------------------------------------------------------- diagnostics


@dataclass(frozen=True, slots=True)
class Emitted:
    """A diagnostic as mlir-opt would emit it."""

    severity: str  # error | warning | remark | note
    line: int | None  # 1-based; None: unknown location
    col: int
    message: str
    start: int = 0  # offset in the file
    note: Note | None = None  # the affine-lsp Note it comes from
    related: int = -1  # >= 0: it is the note note.data["related"][related]


def _section_bounds(doc: object) -> list[int]:
    return [s.start for s in doc.sections]  # type: ignore[attr-defined]


def mlir_opt_diagnostics(doc: object, parse_notes: Iterable[Note], verify_notes: Iterable[Note]) -> list[Emitted]:
    """The diagnostics mlir-opt 22.1.8 emits for ``doc`` (with
    ``--split-input-file``), as far as affine-lsp knows them, from the notes
    of the parser and IR builder (``doc.notes()``) and of the verifier (run
    non-strict: every top-level item that parses is verified).

    Per section: when it has a parse error (syntax, names, types, or the
    verifier's parse-class checks, code ``syntax``), mlir-opt's parser stops at
    the first one and verifies nothing, so only that one is emitted; else
    every verifier error (the verifier already stops at the first error of
    each op isolated from above, as mlir-opt). Each error brings the notes of
    :data:`MLIR_NOTES` among its related information, as separate
    diagnostics."""
    lines = _Lines.of(doc)
    starts = _section_bounds(doc)

    def section_of(n: Note) -> int:
        return max(0, bisect.bisect_right(starts, n.span.start) - 1)

    parse: dict[int, list[Note]] = {}
    verify: dict[int, list[Note]] = {}
    for n in parse_notes:
        if n.severity == "error":
            parse.setdefault(section_of(n), []).append(n)
    for n in verify_notes:
        if n.severity == "error":
            (parse if n.code == "syntax" else verify).setdefault(section_of(n), []).append(n)
    chosen: list[Note] = []
    for s in sorted(set(parse) | set(verify)):
        if s in parse:
            chosen.append(min(parse[s], key=lambda n: n.span.start))
        else:
            chosen.extend(verify[s])
    out: list[Emitted] = []
    for n in chosen:
        at = n.span.start
        out.append(Emitted("error", lines.line(at), lines.col(at), n.message, at, n))
        for k, item in enumerate((n.data or {}).get("related") or ()):
            try:
                span, msg = item
            except (TypeError, ValueError):
                continue
            if isinstance(msg, str) and msg.startswith(MLIR_NOTES) and hasattr(span, "start"):
                msg = next((p for p in _NOTES_EXTENDED if msg.startswith(p)), msg)
                out.append(Emitted("note", lines.line(span.start), lines.col(span.start), msg, span.start, n, k))
    return out


def remark_diagnostics(doc: object, remarks: Iterable[object]) -> list[Emitted]:
    """The remarks of ``-test-memref-dependence-check``
    (:class:`affine_lsp.analysis.remarks.Remark`: ``op``, ``severity``,
    ``message``) as mlir-opt emits them, at their op."""
    lines = _Lines.of(doc)
    out = []
    for r in remarks:
        at = r.op.name_span.start  # type: ignore[attr-defined]
        out.append(Emitted(r.severity, lines.line(at), lines.col(at), r.message, at))  # type: ignore[attr-defined]
    return out


# ---------------------------------------------------------------- matching


@dataclass(slots=True)
class Verification:
    """The outcome of matching emitted diagnostics against the annotations."""

    annotations: Annotations
    emitted: list[Emitted]
    only_expected: bool = False
    matched: dict[int, int] = field(default_factory=dict)  # emitted index -> expectation index
    near_misses: dict[int, int] = field(default_factory=dict)  # emitted index -> expectation index
    unexpected: list[int] = field(default_factory=list)  # emitted indices
    satisfied: set[int] = field(default_factory=set)  # expectation indices

    @property
    def missing(self) -> list[int]:
        """Expectations nothing produced (in mlir-opt's order)."""
        return [i for i in range(len(self.annotations.expectations)) if i not in self.satisfied]

    @property
    def ok(self) -> bool:
        """mlir-opt's exit status would be 0."""
        if self.annotations.errors or self.missing:
            return False
        return self.only_expected or not (self.unexpected or self.near_misses)

    def messages(self) -> list[tuple[int, int, str]]:
        """``(line, column, message)`` of each error mlir-opt prints, in its
        order (line 0: no location)."""
        exps = self.annotations.expectations
        out = [(e.line, e.col, e.message) for e in self.annotations.errors]
        if not self.only_expected:
            for i, d in enumerate(self.emitted):
                if i in self.near_misses:
                    e = exps[self.near_misses[i]]
                    out.append((e.ann_line, e.col, f"'{d.severity}' diagnostic emitted when expecting a '{e.kind}'"))
                elif i not in self.matched:
                    out.append((d.line or 0, d.col if d.line else 0, f"unexpected {d.severity}: {d.message}"))
        for i in self.missing:
            e = exps[i]
            out.append((e.ann_line, e.col, not_produced(e)))
        return out


def not_produced(e: Expectation) -> str:
    return f'expected {e.kind} "{e.text}" was not produced'


def verify(annotations: Annotations, emitted: Sequence[Emitted], only_expected: bool = False) -> Verification:
    """Match ``emitted`` against ``annotations`` as mlir-opt's handler does."""
    exps = annotations.expectations
    by_line: dict[int | None, list[int]] = {}
    for i, e in enumerate(exps):
        by_line.setdefault(e.line, []).append(i)
    res = Verification(annotations, list(emitted), only_expected)
    for k, d in enumerate(res.emitted):
        near = None
        hit = None
        for i in by_line.get(d.line, ()):
            e = exps[i]
            if e.matches(d.message):
                if e.kind == d.severity:
                    hit = i
                    break
                near = i
        if hit is not None:
            res.matched[k] = hit
            res.satisfied.add(hit)
        elif near is not None:
            res.near_misses[k] = near
        else:
            res.unexpected.append(k)
    return res


# ---------------------------------------------------------------- writing annotations


def annotation_for(kind: str, message: str, designator: str = "") -> str:
    """The ``expected-KIND[DESIGNATOR] {{...}}`` text that matches a
    diagnostic of ``kind`` with ``message`` (without the leading ``// ``).

    The plain form takes the message as it is: mlir-opt reads everything up to
    the last ``}}`` of the line, so braces in it need no escape. A message of
    several lines is matched by its longest line (a substring). Text that would
    split the file under ``--split-input-file`` (``// ---``) is written with
    the ``-re`` form, the rest escaped for it (``{{`` becomes ``{{[{][{]}}``)."""
    lines = [ln for ln in message.split("\n")]
    text = max(lines, key=len) if len(lines) > 1 else message
    text = text.rstrip("\r")
    if "// ---" not in text:
        return f"expected-{kind}{designator} {{{{{text}}}}}"
    parts = []
    for i, chunk in enumerate(text.split("// ---")):
        if i:
            parts.append("//{{ }}---")
        parts.append(chunk.replace("{{", "{{[{][{]}}"))
    return f"expected-{kind}-re{designator} {{{{{''.join(parts)}}}}}"


def is_annotation_line(line: str) -> bool:
    """Whether mlir-opt reads an annotation on ``line``."""
    return _designator(line) is not None


def insertion_edits(text: str, items: Sequence[Emitted], end_of_line: Emitted | None = None, doc: object | None = None) -> list[tuple[int, int, str]]:
    """Text edits ``(start, end, new text)`` adding an annotation for each of
    ``items`` (diagnostics with a line), each on a line of its own above its
    line, with the ``@+N`` that reaches it; ``end_of_line`` (one of
    ``items``) goes at the end of its own line instead. The new lines go
    above the annotation lines already there (which keep reaching their
    lines); lines are read as mlir-opt reads them (ending at ``\\n``).
    ``doc``, the Document of ``text``, lends its line index."""
    starts = (_Lines.of(doc) if doc is not None else _Lines(text)).starts
    n_lines = len(starts)

    def line_text(i: int) -> str:
        return text[starts[i] : starts[i + 1] - 1] if i + 1 < n_lines else text[starts[i] :]

    groups: dict[int, list[tuple[int, Emitted]]] = {}
    edits: list[tuple[int, int, str]] = []
    for d in items:
        if d.line is None or not 1 <= d.line <= n_lines:
            continue
        target = d.line - 1
        if d is end_of_line:
            stop = starts[target] + len(line_text(target).rstrip("\r"))
            edits.append((stop, stop, f" // {annotation_for(d.severity, d.message)}"))
            continue
        r = target
        while r > 0 and is_annotation_line(line_text(r - 1)):
            r -= 1
        groups.setdefault(r, []).append((target, d))
    for r, group in groups.items():
        group.sort(key=lambda g: g[0])
        m = len(group)
        new = []
        for i, (target, d) in enumerate(group):
            line = line_text(target)
            indent = line[: len(line) - len(line.lstrip(" \t"))]
            new.append(f"{indent}// {annotation_for(d.severity, d.message, f'@+{target + m - (r + i)}')}\n")
        edits.append((starts[r], starts[r], "".join(new)))
    edits.sort()
    return edits
