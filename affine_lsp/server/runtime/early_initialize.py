"""Answer ``initialize`` before the server is loaded.

An editor starts ``affine-lsp serve``, sends ``initialize`` and waits for the
answer before it sends anything else (the opened file comes next). Loading
pygls and lsprotocol is a large part of a start (lsprotocol defines a
thousand attrs classes; docs/performance.md). The answer,
though, depends only on the code (the features the server registers, pygls'
capability builder) and on what the client sends: its capabilities and its
initialization options. So ``affine-lsp serve`` (stdio) reads the first
message itself, with nothing but the standard library loaded, and when it is
an ``initialize`` whose answer is cached (:func:`cache_file`: keyed by the
code fingerprint of :mod:`.persist`, the files of pygls and lsprotocol, the
client's capabilities and initialization options), writes that answer at
once. Then the server is loaded as usual and reads the same bytes again
(:class:`Replay`): pygls handles that ``initialize`` as always (client
capabilities, settings) and its answer, the same one, is dropped
(:meth:`Early.takes`). When nothing is cached (the first start of this
version of affine-lsp with this client), pygls answers and the answer is
stored (:meth:`Early.store`). Like the parser tables' cache (``syntax/
table_cache.py``) it lives in the temporary directory and holds nothing of
any document.

Anything unexpected (another first message, a malformed header, no cache,
an unreadable file) only means that pygls answers, as without this module.
``AFFINE_LSP_EARLY_INITIALIZE=0`` turns it off.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from affine_lsp.atomic_write import write_atomic

MAX_HEADER_LINES = 16
MAX_BODY = 1 << 22  # an initialize larger than 4 MB is left to pygls


class Early:
    """What :func:`read_first` found and did."""

    def __init__(self, prefix: bytes, message: dict[str, Any] | None) -> None:
        self.prefix = prefix  # the bytes read, replayed to pygls
        self.message = message  # the first message when it is an initialize request
        self.answered_id: Any = None  # its id once answered here
        self.path: Path | None = None  # the cache file of its answer

    @property
    def request_id(self) -> Any:
        return None if self.message is None else self.message.get("id")

    def takes(self, msg_id: Any) -> bool:
        """Whether pygls' response to ``msg_id`` is to be dropped (it was
        answered here); true once."""
        if self.answered_id is not None and msg_id == self.answered_id:
            self.answered_id = None
            return True
        return False

    def store(self, msg_id: Any, result_json: str) -> None:
        """pygls answered the initialize request: keep the answer for the next start."""
        if self.path is None or msg_id != self.request_id:
            return
        path, self.path = self.path, None
        with contextlib.suppress(OSError):
            write_atomic(path, result_json.encode("utf-8"), new_mode=0o600)


def read_body(readline: Callable[[], bytes], read: Callable[[int], bytes], max_body: int = MAX_BODY) -> dict[str, Any] | None:
    """One LSP message read with ``readline``/``read`` (its headers, then
    ``Content-Length`` bytes of JSON): the message, or None at the end of
    the input, on a malformed header or body, or past ``max_body`` bytes."""
    length = None
    for _ in range(MAX_HEADER_LINES):
        line = readline()
        if not line.endswith(b"\n"):
            return None  # end of input
        text = line.strip()
        if not text:
            break
        key, sep, value = text.partition(b":")
        if sep and key.strip().lower() == b"content-length":
            try:
                length = int(value.strip())
            except ValueError:
                return None
    else:
        return None
    if length is None or not 0 < length <= max_body:
        return None
    body = read(length)
    if len(body) != length:
        return None
    try:
        msg = json.loads(body)
    except ValueError:
        return None
    return msg if isinstance(msg, dict) else None


def read_first(stream: BinaryIO) -> Early:
    """Read the first LSP message of ``stream`` (headers and body); an
    :class:`Early` holding the bytes read and, when it is a well-formed
    ``initialize`` request, the message."""
    raw = bytearray()

    def readline() -> bytes:
        line = stream.readline()
        raw.extend(line)
        return line

    def read(n: int) -> bytes:
        data = stream.read(n)
        raw.extend(data)
        return data

    msg = read_body(readline, read)
    if msg is None or msg.get("method") != "initialize" or "id" not in msg or not isinstance(msg.get("params"), dict):
        return Early(bytes(raw), None)
    return Early(bytes(raw), msg)


def cache_file(params: dict[str, Any]) -> Path:
    """Where the answer to an ``initialize`` with ``params`` is kept."""
    from affine_lsp.server.runtime.persist import code_fingerprint

    h = hashlib.sha256(code_fingerprint().encode())
    for name in ("pygls", "lsprotocol"):
        spec = importlib.util.find_spec(name)
        for loc in (spec.submodule_search_locations or []) if spec is not None else []:
            for p in sorted(Path(loc).glob("**/*.py")):
                st = p.stat()
                h.update(f"{name}/{p.name}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    h.update(json.dumps([params.get("capabilities"), params.get("initializationOptions")], sort_keys=True).encode())
    try:
        user = str(os.getuid())
    except AttributeError:  # (Windows)
        user = os.environ.get("USERNAME", "user")
    return Path(tempfile.gettempdir()) / f".affine_lsp_initialize_{user}_{h.hexdigest()[:32]}.json"


def answer(early: Early, out: BinaryIO) -> bool:
    """Write the cached answer to ``early``'s initialize request on ``out``;
    False (pygls will answer, and the answer will be stored) when there is
    none."""
    if early.message is None:
        return False
    try:
        early.path = cache_file(early.message["params"])
        result = early.path.read_text(encoding="utf-8")
        json.loads(result)  # (a torn or foreign file is a miss)
    except (OSError, ValueError, TypeError):
        return False
    body = ('{"jsonrpc": "2.0", "id": ' + json.dumps(early.message["id"]) + ', "result": ' + result + "}").encode()
    out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    out.flush()
    early.answered_id = early.message["id"]
    early.path = None
    return True


class Replay(io.RawIOBase):
    """``stream`` with ``prefix`` (the bytes :func:`read_first` consumed) in
    front: what pygls reads its messages from."""

    def __init__(self, prefix: bytes, stream: BinaryIO) -> None:
        super().__init__()
        self._prefix = io.BytesIO(prefix)
        self._left = len(prefix)
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> bytes:  # type: ignore[override]
        if self._left:
            line = self._prefix.readline()
            self._left -= len(line)
            if line.endswith(b"\n") or self._left:
                return line
            return line + self._stream.readline()
        return self._stream.readline()

    def read(self, size: int | None = -1) -> bytes:  # type: ignore[override]
        if self._left:
            n = self._left if size is None or size < 0 else min(size, self._left)
            head = self._prefix.read(n)
            self._left -= len(head)
            if size is None or size < 0:
                return head + self._stream.read()
            return head + (self._stream.read(size - len(head)) if size > len(head) else b"")
        return self._stream.read(size)

    def read1(self, size: int = -1) -> bytes:  # type: ignore[override]
        """The next bytes there are (at most ``size``): the rest of the
        prefix, then one read of the stream."""
        if self._left:
            head = self._prefix.read(self._left if size is None or size < 0 else min(size, self._left))
            self._left -= len(head)
            return head
        read1 = getattr(self._stream, "read1", None)
        return read1(size) if read1 is not None else self._stream.read(size)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._stream.close()
        super().close()
