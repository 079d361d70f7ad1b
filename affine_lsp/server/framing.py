"""The LSP base protocol's framing, read so that a bad frame costs only itself.

A message is headers (``Content-Length: N``, maybe ``Content-Type``), an
empty line, then N bytes of JSON. pygls' reader (``pygls.io_.run_async``)
trusts every length: a ``Content-Length`` larger than its body swallows the
next message and waits for ever, and a header block without one loses the
message after it. :class:`Framer` is fed the bytes as they arrive and
returns what they hold, recovering at the next ``Content-Length:`` header
whenever a frame is wrong:

* a header block without a valid ``Content-Length`` (missing, not a number,
  over :data:`MAX_CONTENT_LENGTH`), or bytes that are not a header: skipped
  up to the next ``Content-Length:``;
* a body that is not JSON (:meth:`Framer.reject`): when a header starts in
  it, its length was too large: it is cut there and reading goes on at that
  header; else (the length was too small, or garbage) the rest is read as the
  next header (and skipped to the next ``Content-Length:`` when it is not
  one). Raw CR/LF cannot occur inside a JSON string, so ``Content-Length:
  <digits>`` followed by a line break is never part of a valid body;
* a body still incomplete after :data:`STALL_S` without bytes
  (:meth:`Framer.stalled`: the length was too large and the client waits for
  the answer): when a header starts in what came, the same.

A well-formed body costs nothing more than with pygls: nothing is searched
in it (the JSON parser finds out).

Each dropped frame is a :class:`Dropped` with the request id when one can
be read from it, so that the client gets an error response instead of
waiting for ever (:func:`run`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("affine_lsp.server.framing")

MAX_CONTENT_LENGTH = 1 << 30
MAX_HEADER_BYTES = 8192
STALL_S = 0.5  # nothing more in the middle of a body for this long: look for a header in it
CHUNK = 1 << 20  # (read1: what is there, up to this)

_HEADER_START = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)
_HEADER_BEFORE_EOL = re.compile(rb"content-length[ \t]*:[ \t]*\d+[ \t]*\r?$", re.IGNORECASE)
_HEADER_LINE = re.compile(rb"[A-Za-z0-9-]+[ \t]*:[^\r\n]*")
# A top-level "id" before any nested object or array (how clients write requests).
_ID = re.compile(rb'\s*\{[^{}\[\]]*?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")')


@dataclass(frozen=True, slots=True)
class Dropped:
    """Bytes that were not a well-framed message."""

    reason: str
    msg_id: Any = None  # the id of the request they held, when readable


def recover_id(body: bytes) -> Any:
    """The id of the request in ``body`` (a message that may be cut or
    malformed), or None."""
    try:
        msg = json.loads(body)
    except ValueError:
        msg = None
    if isinstance(msg, dict):
        msg_id = msg.get("id")
        return msg_id if "method" in msg and isinstance(msg_id, int | str) and not isinstance(msg_id, bool) else None
    m = _ID.match(body)
    if m is None or b'"method"' not in body:
        return None
    try:
        value = json.loads(m.group(1))
    except ValueError:
        return None
    return value if isinstance(value, int | str) else None


class Framer:
    """Turns the bytes of a stream into message bodies and :class:`Dropped`
    frames (see the module's docstring); whether a body is JSON is for the
    caller to find out (it parses it anyway)."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._length: int | None = None  # the body being read, once its headers are
        self._scanned = 0  # how much of that body was searched for a header
        self._skip_from = -1  # >= 0: dropping bytes up to the next header, searched from there

    def feed(self, data: bytes) -> None:
        """The next bytes of the stream."""
        self._buf += data

    def next(self) -> bytes | Dropped | None:
        """The next body or dropped frame the bytes fed so far hold; None
        until more bytes come."""
        out: list[bytes | Dropped] = []
        while not out and (self._headers(out) if self._length is None else self._body(out)):
            pass
        return out[0] if out else None

    def items(self, data: bytes) -> list[bytes | Dropped]:
        """:meth:`feed` ``data``, then every :meth:`next` (for bodies that are all JSON)."""
        self.feed(data)
        out = []
        while (item := self.next()) is not None:
            out.append(item)
        return out

    @property
    def mid_body(self) -> bool:
        return self._length is not None

    def reject(self, body: bytes, why: str) -> Dropped:
        """``body`` (from :meth:`next`) is not JSON (``why``): when a header
        starts inside it (its length was too large) the bytes from there are
        read again; the frame dropped."""
        k = _header_in(body, 0, len(body))
        if k < 0:
            return Dropped(f"a body of {len(body)} bytes that is not JSON ({why})", recover_id(body))
        self._buf[:0] = body[k:]
        return Dropped(f"Content-Length {len(body)} but the next message starts after {k} bytes", recover_id(body[:k]))

    def stalled(self) -> Dropped | None:
        """No bytes came for a while in the middle of a body: when a header
        starts in what came of it (its length was too large and the client
        waits for the answer), the frame is dropped and reading goes on
        there."""
        if self._length is None:
            return None
        buf = self._buf
        k = _header_in(buf, max(0, self._scanned - 16), len(buf))
        self._scanned = len(buf)
        if k < 0:
            return None
        length, self._length = self._length, None
        cut = bytes(buf[:k])
        del buf[:k]
        return Dropped(f"Content-Length {length} but the next message starts after {k} bytes", recover_id(cut))

    def _skip_to_header(self, start: int, out: list[bytes | Dropped], reason: str) -> bool:
        """Report ``reason`` and drop the buffer up to the next
        ``Content-Length:`` at or after ``start`` (the bytes to come are
        searched too, until one is found)."""
        out.append(Dropped(reason))
        self._skip_from = start
        return self._skip()

    def _skip(self) -> bool:
        buf = self._buf
        m = _HEADER_START.search(buf, self._skip_from)
        if m is None:
            cut = max(self._skip_from, len(buf) - 32)  # (keep a header cut by the read)
            del buf[:cut]
            self._skip_from -= min(cut, self._skip_from)
            return False
        del buf[: m.start()]
        self._skip_from = -1
        return True

    def _headers(self, out: list[bytes | Dropped]) -> bool:
        if self._skip_from >= 0:
            return self._skip()
        buf = self._buf
        if buf[:2] == b"\r\n" or buf[:1] == b"\n":
            del buf[: 2 if buf[:1] == b"\r" else 1]  # a stray line break between messages
            return True
        length: int | None = None
        bad: str | None = None
        pos = 0
        while True:
            nl = buf.find(b"\n", pos)
            if nl < 0:
                rest = bytes(buf[pos:])
                if len(buf) > MAX_HEADER_BYTES:
                    return self._skip_to_header(1, out, "a header block over 8 KB skipped")
                if rest and not _could_be_header(rest):
                    return self._skip_to_header(pos + 1 if pos == 0 else pos, out, f"bytes that are not an LSP header skipped: {rest[:40]!r}")
                return False  # the rest of the headers is to come
            line = bytes(buf[pos:nl]).rstrip(b"\r")
            if not line.strip():
                pos = nl + 1
                break
            inner = _HEADER_START.search(line, 1)
            if inner is not None or not _HEADER_LINE.fullmatch(line):
                # Not a header, or the tail of a cut body in front of one.
                return self._skip_to_header(pos + 1, out, f"bytes that are not an LSP header skipped: {line[:40]!r}")
            key, _, value = line.partition(b":")
            if key.strip().lower() == b"content-length":
                text = value.strip()
                if not text.isdigit() or int(text) > MAX_CONTENT_LENGTH:
                    bad = f"invalid Content-Length {text[:30].decode('latin-1')!r}"
                else:
                    length = int(text)
            pos = nl + 1
            if pos > MAX_HEADER_BYTES:
                return self._skip_to_header(1, out, "a header block over 8 KB skipped")
        if bad is not None or length is None:
            return self._skip_to_header(pos, out, f"{bad or 'a header block without Content-Length'}: its message is skipped")
        self._buf = buf[pos:]  # (a new buffer: appending to one cut at its front moves it)
        self._length = length
        self._scanned = 0
        return True

    def _body(self, out: list[bytes | Dropped]) -> bool:
        length = self._length
        assert length is not None
        buf = self._buf
        if len(buf) < length:
            return False
        body = bytes(memoryview(buf)[:length])
        self._buf = buf[length:]
        self._length = None
        out.append(body)
        return True


def _header_in(buf: bytes | bytearray, start: int, end: int) -> int:
    """Where a ``Content-Length: <digits>`` line whose line break is in
    ``buf[start:end]`` starts, or -1. A case-insensitive search of a whole
    body is slow (docs/performance.md): only the raw line breaks after a digit
    are looked at (a JSON body has few raw line breaks)."""
    nl = buf.find(b"\n", start, end)
    while nl >= 0:
        k = nl - 1
        while k >= 0 and buf[k] in b" \t\r":
            k -= 1
        if k >= 0 and 48 <= buf[k] <= 57:
            lo = max(0, nl - 64)
            h = _HEADER_BEFORE_EOL.search(bytes(buf[lo:nl]))
            if h is not None:
                return lo + h.start()
        nl = buf.find(b"\n", nl + 1, end)
    return -1


def _could_be_header(data: bytes) -> bool:
    """Whether ``data`` (no line break yet) may still become a header line."""
    data = data.rstrip(b"\r")
    return _HEADER_LINE.fullmatch(data) is not None or re.fullmatch(rb"[A-Za-z0-9-]*", data) is not None


async def run(
    stop_event: threading.Event,
    read: Callable[[], Awaitable[bytes]],
    protocol: Any,
    error_handler: Callable[[Exception, type[Exception]], Any] | None = None,
) -> None:
    """Read messages with ``read`` (the next bytes, ``b""`` at the end) and
    hand each to ``protocol`` (a pygls ``JsonRPCProtocol``) as pygls'
    ``run_async`` does; a dropped frame is logged and, when it held a
    request id, answered with an InvalidRequest error."""
    from pygls.exceptions import JsonRpcException, JsonRpcInvalidRequest

    def report(item: Dropped) -> None:
        answered = f" (request {item.msg_id!r} answered with an error)" if item.msg_id is not None else ""
        log.error("LSP framing: %s%s", item.reason, answered)
        if item.msg_id is not None:
            err = JsonRpcInvalidRequest(message=f"malformed message: {item.reason}")
            protocol._send_response(item.msg_id, None, err.to_response_error())

    framer = Framer()

    def drain() -> None:
        while (item := framer.next()) is not None:
            if isinstance(item, Dropped):
                report(item)
                continue
            try:
                message = json.loads(item, object_hook=protocol.structure_message)
            except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:  # a length too large or too small, garbage
                report(framer.reject(item, f"{type(exc).__name__}: {str(exc)[:80]}"))
                continue
            except Exception as exc:
                log.exception("Unable to read a message")
                if error_handler is not None:
                    error_handler(exc, JsonRpcException)
                continue
            try:
                protocol.handle_message(message)
            except Exception as exc:
                log.exception("Unable to handle message")
                if error_handler is not None:
                    error_handler(exc, JsonRpcException)

    pending: asyncio.Future[bytes] | None = None
    try:
        while not stop_event.is_set():
            if pending is None:
                pending = asyncio.ensure_future(read())
            done, _ = await asyncio.wait({pending}, timeout=STALL_S if framer.mid_body else None)
            if not done:  # (in the middle of a body)
                if (dropped := framer.stalled()) is not None:
                    report(dropped)
                    drain()
                continue
            data = pending.result()
            pending = None
            if not data:
                break
            framer.feed(data)
            drain()
    finally:
        if pending is not None:
            pending.cancel()
