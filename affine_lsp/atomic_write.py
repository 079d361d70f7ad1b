"""The one way affine-lsp writes a file: atomically.

The new contents go to a temporary file in the target's folder (same file
system, so the final rename is atomic), are flushed and fsynced, get the
old file's permission bits (or, for a new file, the usual ``0666 & ~umask``
unless a ``mode`` is given), and are then renamed over the target with
``os.replace``. A write that fails (a full disk, ``ulimit -f``, a bad
permission) removes the temporary file and leaves the target as it was; a
process killed while writing leaves the target as it was too (and at worst
a stray ``.NAME.*.tmp`` file next to it).

A symbolic link is written through: the file it points at gets the new
contents, the link stays a link. A target that is not a regular file (a
device such as ``/dev/null``, a FIFO) is written in place, never replaced.

This module imports only the standard library: the CLI's front end, the
server's caches and the grammar tables all use it.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterator
from typing import IO, Any

_TRIES = 100


def _create_temp(folder: str, name: str, mode: int) -> tuple[int, str]:
    """A new, exclusively created file in ``folder``: its descriptor and path."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(_TRIES):
        tmp = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, flags, mode), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name for {name} in {folder}")


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike[str], mode: str = "wb", *, new_mode: int | None = None, fsync: bool = True, **kwargs: Any) -> Iterator[IO[Any]]:
    """A file object to write ``path``'s new contents into (``mode`` ``"wb"``
    or ``"w"``, ``kwargs`` as for :func:`open`); when the ``with`` block ends
    without an exception the contents replace ``path`` at once, otherwise
    ``path`` is left untouched. ``new_mode``: the permission bits of a file
    that did not exist yet (default ``0o666`` less the umask); an existing
    file keeps its own."""
    if "w" not in mode or any(c in mode for c in "ax+"):
        raise ValueError(f"atomic_open writes a whole file: mode {mode!r} is not 'w' or 'wb'")
    target = os.path.realpath(os.fspath(path))
    folder, name = os.path.split(target)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        old_mode: int | None = None
    else:
        if not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode):
            # A device, a FIFO or a socket (``-o /dev/null``, ``-o /dev/stdout``):
            # written in place. Renaming over it would put a regular file where
            # the device was (as root: /dev/null gone for every program).
            with open(target, mode, **kwargs) as f:
                yield f
            return
        old_mode = st.st_mode & 0o7777
    fd, tmp = _create_temp(folder, name, 0o666 if new_mode is None else new_mode)
    try:
        if old_mode is not None:
            os.fchmod(fd, old_mode)
        elif new_mode is not None:
            os.fchmod(fd, new_mode)  # exactly these bits, whatever the umask
        with os.fdopen(fd, mode, **kwargs) as f:
            fd = -1  # the file object owns it now
            yield f
            f.flush()
            if fsync:
                os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if fsync:
        _fsync_folder(folder)


def _fsync_folder(folder: str) -> None:
    """Make the rename itself durable (where the platform allows it)."""
    with contextlib.suppress(OSError, AttributeError):
        dfd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


def write_atomic(path: str | os.PathLike[str], data: bytes, *, new_mode: int | None = None, fsync: bool = True) -> None:
    """Replace the contents of ``path`` with ``data`` atomically (see the
    module's docstring); raises :class:`OSError` and leaves ``path`` as it
    was when that fails."""
    with atomic_open(path, "wb", new_mode=new_mode, fsync=fsync) as f:
        f.write(data)
