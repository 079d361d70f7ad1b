"""A write that fails or is killed leaves the old file byte-identical (issue
#44, item 3): ``affine-lsp upgrade --in-place`` and ``-o FILE`` under
``ulimit -f``, a write that fails half-way (a fault injected into the file
object, as a full disk fails), a process SIGKILLed in the middle of its
first write; the writer keeps the file's mode and writes through a link;
``upgrade`` that leaves constructs as written does not touch its target."""

from __future__ import annotations

import errno
import os
import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from affine_lsp import atomic_write, cli
from affine_lsp.commands import frontend
from affine_lsp.transforms.legacy_upgrade import upgrade_text

ROOT = Path(__file__).resolve().parents[1]
LEGACY = (ROOT / "tests" / "data" / "legacy" / "licm.mlir").read_text()
ENV = dict(os.environ, PYTHONPATH=str(ROOT), AFFINE_LSP_PREFORK="0")
LIMIT = 100 * 1024


def _big_legacy(folder: Path) -> Path:
    """A legacy file of about 250 kB (its sections are independent)."""
    path = folder / "big.mlir"
    path.write_text("\n// -----\n\n".join([LEGACY] * 180))
    assert path.stat().st_size > 2 * LIMIT
    return path


def _temps(folder: Path) -> list[str]:
    return sorted(n for n in os.listdir(folder) if n.endswith(".tmp"))


def _limit_file_size() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG


def test_ulimit_f_leaves_the_file_in_place_and_the_output_file(tmp_path: Path) -> None:
    src = _big_legacy(tmp_path)
    before = src.read_bytes()
    os.chmod(src, 0o640)
    p = subprocess.run(
        [sys.executable, "-m", "affine_lsp", "upgrade", "--in-place", str(src)],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=300,
        preexec_fn=_limit_file_size,
    )
    assert p.returncode == frontend.EXIT_OUTPUT, p.stderr
    assert p.stderr.strip() == f"{src}: error: cannot write: File too large"
    assert src.read_bytes() == before
    assert stat.S_IMODE(src.stat().st_mode) == 0o640
    assert _temps(tmp_path) == []
    # -o FILE: the old contents of FILE stay.
    modern = tmp_path / "modern.mlir"
    old = b"// the previous contents\n" * 10
    modern.write_bytes(old)
    p = subprocess.run(
        [sys.executable, "-m", "affine_lsp", "upgrade", str(src), "-o", str(modern)],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=300,
        preexec_fn=_limit_file_size,
    )
    assert p.returncode == frontend.EXIT_OUTPUT, p.stderr
    assert modern.read_bytes() == old
    assert _temps(tmp_path) == []


class _FailingHalfway:
    """A file object whose write stores half of the bytes and then fails as
    a full disk does."""

    def __init__(self, real: Any) -> None:
        self._real = real

    def write(self, data: bytes) -> int:
        self._real.write(data[: len(data) // 2])
        self._real.flush()
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def __enter__(self) -> _FailingHalfway:
        return self

    def __exit__(self, *exc: object) -> None:
        self._real.close()


def test_a_write_failing_halfway_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in.mlir"
    src.write_text(LEGACY)
    real_fdopen, real_open = os.fdopen, open
    monkeypatch.setattr(os, "fdopen", lambda *a, **k: _FailingHalfway(real_fdopen(*a, **k)))
    # The writer of today's main opened the target itself.
    monkeypatch.setattr(
        "builtins.open", lambda f, mode="r", *a, **k: _FailingHalfway(real_open(f, mode, *a, **k)) if "w" in mode else real_open(f, mode, *a, **k)
    )
    status = cli.main(["upgrade", "--in-place", str(src)])
    monkeypatch.undo()
    assert status == frontend.EXIT_OUTPUT
    assert capsys.readouterr().err.strip() == f"{src}: error: cannot write: No space left on device"
    assert src.read_text() == LEGACY
    assert _temps(tmp_path) == []


# A child that runs the CLI and SIGKILLs itself in the middle of its first
# write to a file in the folder given (half of the bytes written).
KILLED_CHILD = """
import builtins, os, signal, sys
folder = sys.argv[1]
real_open, real_fdopen = builtins.open, os.fdopen

class Dying:
    def __init__(self, f):
        self.f = f
    def write(self, data):
        self.f.write(data[: len(data) // 2])
        self.f.flush()
        os.kill(os.getpid(), signal.SIGKILL)
    def __getattr__(self, name):
        return getattr(self.f, name)
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        self.f.close()

def in_folder(f):
    name = f if isinstance(f, (str, bytes, os.PathLike)) else os.readlink(f"/proc/self/fd/{f}")
    return os.path.dirname(os.path.realpath(os.fsdecode(name))) == os.path.realpath(folder)

def dying_open(f, mode="r", *a, **k):
    real = real_open(f, mode, *a, **k)
    return Dying(real) if "w" in mode and in_folder(f) else real

def dying_fdopen(fd, mode="r", *a, **k):
    real = real_fdopen(fd, mode, *a, **k)
    return Dying(real) if "w" in mode and in_folder(fd) else real

builtins.open, os.fdopen = dying_open, dying_fdopen
from affine_lsp import cli
sys.exit(cli.main(sys.argv[2:]))
"""


def test_a_kill_in_the_first_write_leaves_the_old_file(tmp_path: Path) -> None:
    src = tmp_path / "in.mlir"
    src.write_text(LEGACY)
    out = tmp_path / "out.mlir"
    out.write_text("// the previous contents\n")
    for argv in (["upgrade", "--in-place", str(src)], ["upgrade", str(src), "-o", str(out)]):
        before = {p.name: p.read_bytes() for p in (src, out)}
        p = subprocess.run([sys.executable, "-c", KILLED_CHILD, str(tmp_path), *argv], capture_output=True, text=True, env=ENV, timeout=300)
        assert p.returncode == -signal.SIGKILL, (argv, p.stderr)
        assert {p.name: p.read_bytes() for p in (src, out)} == before, argv
        # It was killed while writing: the half-written temporary file is
        # what it leaves.
        leftovers = _temps(tmp_path)
        assert len(leftovers) == 1 and (tmp_path / leftovers[0]).stat().st_size > 0, argv
        (tmp_path / leftovers[0]).unlink()


def test_upgrade_that_leaves_constructs_writes_no_file(tmp_path: Path) -> None:
    bad = tmp_path / "problems.mlir"
    text = (ROOT / "tests" / "data" / "legacy" / "problems.mlir").read_text()
    bad.write_text(text)
    assert upgrade_text(text).problems and upgrade_text(text).text != text
    existing = tmp_path / "existing.mlir"
    existing.write_text("// keep me\n")
    for argv, target in (([str(bad), "-o", str(existing)], existing), (["--in-place", str(bad)], bad)):
        before = target.read_bytes()
        p = subprocess.run([sys.executable, "-m", "affine_lsp", "upgrade", *argv], capture_output=True, text=True, env=ENV, timeout=300)
        assert p.returncode == frontend.EXIT_ERRORS
        assert target.read_bytes() == before, argv
        assert f"{target}: note: not written: " in p.stderr
    # Standard output still gets the partial upgrade.
    p = subprocess.run([sys.executable, "-m", "affine_lsp", "upgrade", str(bad)], capture_output=True, text=True, env=ENV, timeout=300)
    assert p.returncode == frontend.EXIT_ERRORS and p.stdout == upgrade_text(text).text


def test_the_writer_keeps_the_mode_and_writes_through_a_link(tmp_path: Path) -> None:
    target = tmp_path / "t.mlir"
    target.write_bytes(b"old")
    os.chmod(target, 0o751)
    link = tmp_path / "link.mlir"
    link.symlink_to(target.name)
    atomic_write.write_atomic(link, b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o751
    fresh = tmp_path / "fresh.mlir"
    old_umask = os.umask(0o027)
    try:
        atomic_write.write_atomic(fresh, b"x")
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o640
    private = tmp_path / "private"
    atomic_write.write_atomic(private, b"x", new_mode=0o600)
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert _temps(tmp_path) == []


def test_a_device_or_fifo_target_is_written_in_place_never_replaced(tmp_path: Path) -> None:
    """``-o /dev/null`` (or a FIFO a reader waits on) is written into, not
    renamed over: as root, a rename put a regular file where /dev/null was."""
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    src = tmp_path / "in.mlir"
    src.write_text(LEGACY)
    proc = subprocess.run([sys.executable, "-m", "affine_lsp", "upgrade", str(src), "-o", str(fifo)], env=ENV, capture_output=True, text=True, timeout=120)
    reader.join(timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert got and got[0].decode() == upgrade_text(LEGACY).text, got
    assert _temps(tmp_path) == []
    if stat.S_ISCHR(os.stat(os.devnull).st_mode) and os.access(os.devnull, os.W_OK):
        atomic_write.write_atomic(os.devnull, b"discarded")
        assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_no_write_in_the_package_bypasses_the_atomic_writer() -> None:
    # Every file affine-lsp writes goes through affine_lsp/atomic_write.py
    # (pipes and the flow worker's descriptors are not files).
    import re

    bad = []
    for path in sorted((ROOT / "affine_lsp").rglob("*.py")):
        if path.name == "atomic_write.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"""\bopen\([^)]*["'][wax]b?["']""", line) or re.search(r"\.write_(text|bytes)\(", line):
                bad.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    allowed = {"affine_lsp/server/runtime/flowproc.py"}  # os.fdopen of a pipe
    assert [b for b in bad if b.split(":")[0] not in allowed] == []
