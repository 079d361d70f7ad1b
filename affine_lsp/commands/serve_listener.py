"""``affine-lsp serve --tcp`` / ``--socket``: a listener that only its client can use.

The language server has the rights of the user who started it (it reads
files, runs the MLIR toolchain), so a socket must not let anybody else drive
it. The listener, which loads nothing but the standard library:

* listens on a loopback address only (``--tcp 0.0.0.0:…`` is refused unless
  ``--allow-remote``), or on a Unix domain socket created with mode 0600
  (``--socket PATH``, the recommended form where there is one);
* over TCP, wants a token before anything is read as LSP: the client's first
  line is ``affine-lsp-token: <token>\\r\\n`` (:data:`TOKEN_PREFIX`), the
  token being generated per start (:mod:`secrets`) and written to a 0600 file
  whose path is printed on standard error, or read from ``--token-file``
  (created 0600 when it does not exist). A missing or wrong token gets a
  ``window/showMessage`` saying why and the connection is closed; nothing
  of it reaches the server;
* serves one client at a time: a second connection while one is served is
  told so and closed;
* runs each session in a fresh ``affine-lsp serve --stdio`` process whose
  standard input and output are the connection, so a session starts from a
  clean state and a client that disconnects (or a connection closed before
  its token) leaves the listener waiting for the next client. A client's
  ``exit`` notification ends the session and the listener (the LSP: "the
  server exits"), with status 0 after ``shutdown`` and 1 without.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import secrets
import selectors
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

TOKEN_PREFIX = b"affine-lsp-token:"
AUTH_TIMEOUT_S = 10.0  # to send the token line
MAX_TOKEN_LINE = 512
MAX_PENDING = 8  # connections sending their token at the same time
SESSION_DISCONNECTED = 75
"""The status of ``serve --stdio --session-child`` when the client went away without ``exit``."""
SESSION_EXIT_WITHOUT_SHUTDOWN = 76
"""... when the client sent ``exit`` without ``shutdown`` (0: after it; anything else: the server failed)."""


class ListenerError(Exception):
    """A reason not to listen (printed, status 2)."""


def check_host(host: str, allow_remote: bool) -> None:
    """Raise :class:`ListenerError` unless ``host`` names only loopback
    addresses (or ``allow_remote``)."""
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as e:
        raise ListenerError(f"cannot resolve host {host!r}: {e}") from None
    addrs = {info[4][0] for info in infos}
    remote = sorted(a for a in addrs if not ipaddress.ip_address(a.split("%", 1)[0]).is_loopback)
    if remote and not allow_remote:
        raise ListenerError(
            f"refusing to listen on {host} ({', '.join(remote)} is not a loopback address): anybody who can reach it and read the token "
            "(sent in clear text) could drive the server; listen on 127.0.0.1 or a --socket, or pass --allow-remote"
        )


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_from_file(path: Path) -> tuple[str, bool]:
    """The token in ``path`` (which must not be readable by others), or a new
    one written there (mode 0600) when it does not exist; and whether the
    file was created."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _existing_token(path), False
    except OSError as e:
        raise ListenerError(f"cannot create the token file {path}: {e.strerror or e}") from None
    token = new_token()
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(token + "\n")
    return token, True


def _existing_token(path: Path) -> str:
    try:
        st = path.stat()
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError as e:
        raise ListenerError(f"cannot read the token file {path}: {e.strerror or e}") from None
    if os.name == "posix" and st.st_mode & 0o077:
        raise ListenerError(f"the token file {path} is readable or writable by others (mode {stat.S_IMODE(st.st_mode):04o}); chmod 600 it")
    if len(text) < 16 or any(c.isspace() for c in text):
        raise ListenerError(f"the token in {path} must be one word of at least 16 characters")
    return text


def lsp_message(text: str) -> bytes:
    """A ``window/showMessage`` error notification saying ``text``, framed."""
    body = json.dumps({"jsonrpc": "2.0", "method": "window/showMessage", "params": {"type": 1, "message": text}}).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_token_line(conn: socket.socket, timeout: float = AUTH_TIMEOUT_S) -> bytes | None:
    """The first line the client sends (without its line break), read byte
    by byte so that nothing after it is consumed; None on a timeout, at the
    end of the input or past :data:`MAX_TOKEN_LINE` bytes."""
    conn.settimeout(timeout)
    line = bytearray()
    try:
        while len(line) <= MAX_TOKEN_LINE:
            b = conn.recv(1)
            if not b:
                return None
            if b == b"\n":
                return bytes(line).rstrip(b"\r")
            line += b
    except OSError:  # (socket.timeout is one)
        return None
    finally:
        with contextlib.suppress(OSError):
            conn.settimeout(None)
    return None


def refuse(conn: socket.socket, text: str) -> None:
    """Tell the client ``text`` and close the connection."""
    with contextlib.suppress(OSError):
        conn.settimeout(2.0)
        conn.sendall(lsp_message(text))
        conn.shutdown(socket.SHUT_WR)
        # Read what the client had sent (closing with unread bytes would reset the connection before it reads the message).
        end = time.monotonic() + 2.0
        while time.monotonic() < end and conn.recv(65536):
            pass
    with contextlib.suppress(OSError):
        conn.close()


class Listener:
    """Accepts connections on ``sock`` and runs one session at a time (see
    the module's docstring)."""

    def __init__(self, sock: socket.socket, session_cmd: list[str], token: str | None) -> None:
        self.sock = sock
        self.session_cmd = session_cmd
        self.token = token
        self.lock = threading.Lock()
        self.session: subprocess.Popen[bytes] | None = None
        self.busy = False  # a client is authenticated (its session starting or running)
        self.pending = 0
        self.done = threading.Event()
        self.exit_code = 0

    def serve(self) -> int:
        with selectors.DefaultSelector() as sel:
            sel.register(self.sock, selectors.EVENT_READ)
            try:
                while not self.done.is_set():
                    if not sel.select(timeout=0.25):
                        continue
                    try:
                        conn, _addr = self.sock.accept()
                    except OSError:
                        continue
                    threading.Thread(target=self._handle, args=(conn,), daemon=True, name="affine-lsp-connection").start()
            except KeyboardInterrupt:
                self.exit_code = 130
            finally:
                self._stop_session()
        return self.exit_code

    def _handle(self, conn: socket.socket) -> None:
        with self.lock:
            if self.busy:
                refuse(conn, "affine-lsp: another client is connected to this server (it serves one client at a time); connection closed")
                return
            if self.pending >= MAX_PENDING:
                refuse(conn, "affine-lsp: too many connections waiting to authenticate; connection closed")
                return
            self.pending += 1
        try:
            ok = self.token is None or self._authenticated(conn)
        finally:
            with self.lock:
                self.pending -= 1
        if not ok:
            return
        with self.lock:
            if self.busy:
                refuse(conn, "affine-lsp: another client is connected to this server (it serves one client at a time); connection closed")
                return
            self.busy = True
        try:
            self._run_session(conn)
        finally:
            with self.lock:
                self.busy = False

    def _authenticated(self, conn: socket.socket) -> bool:
        assert self.token is not None
        line = read_token_line(conn)
        if line is None or not line.lower().startswith(TOKEN_PREFIX):
            refuse(
                conn,
                f"affine-lsp: no token: the first line a client sends must be '{TOKEN_PREFIX.decode()} <token>' (see affine-lsp serve --help); connection closed",
            )
            return False
        given = line[len(TOKEN_PREFIX) :].strip()
        if not secrets.compare_digest(given, self.token.encode()):
            refuse(conn, "affine-lsp: wrong token; connection closed")
            return False
        return True

    def _run_session(self, conn: socket.socket) -> None:
        try:
            proc = subprocess.Popen(self.session_cmd, stdin=conn.fileno(), stdout=conn.fileno())
        except OSError as e:
            print(f"affine-lsp serve: cannot start the server: {e}", file=sys.stderr, flush=True)
            refuse(conn, f"affine-lsp: cannot start the server: {e}")
            return
        conn.close()  # (the session has its copies)
        with self.lock:
            self.session = proc
        rc = proc.wait()
        with self.lock:
            self.session = None
        if rc in (0, SESSION_EXIT_WITHOUT_SHUTDOWN):  # the client sent exit
            self.exit_code = 0 if rc == 0 else 1
            self.done.set()
        elif rc != SESSION_DISCONNECTED:
            print(f"affine-lsp serve: the server of the session ended with status {rc}; waiting for the next client", file=sys.stderr, flush=True)

    def _stop_session(self) -> None:
        with self.lock:
            proc = self.session
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


def tcp_socket(host: str, port: int) -> socket.socket:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _name, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
        sock.listen(MAX_PENDING)
    except OSError as e:
        sock.close()
        raise ListenerError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    return sock


def unix_socket(path: Path) -> socket.socket:
    """A Unix domain socket at ``path``, mode 0600 from its creation; a
    stale socket there (nobody listening) is replaced, anything else is not."""
    if path.exists() or path.is_symlink():
        if not stat.S_ISSOCK(path.lstat().st_mode):
            raise ListenerError(f"{path} exists and is not a socket")
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                probe.connect(str(path))
            except OSError:
                path.unlink()
            else:
                raise ListenerError(f"{path} is in use by another server")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)
    try:
        sock.bind(str(path))
    except OSError as e:
        sock.close()
        raise ListenerError(f"cannot create the socket {path}: {e.strerror or e}") from None
    finally:
        os.umask(old)
    os.chmod(path, 0o600)
    sock.listen(MAX_PENDING)
    return sock


def session_command(log_level: str, log_file: str | None, debug_mirror: bool) -> list[str]:
    """``affine-lsp serve --stdio`` for one session (``-P``: the working
    directory is not put on ``sys.path``)."""
    cmd = [sys.executable, "-P", "-m", "affine_lsp", "serve", "--stdio", "--session-child", "--log-level", log_level]
    if log_file:
        cmd += ["--log-file", os.path.abspath(log_file)]
    if debug_mirror:
        cmd.append("--debug-mirror")
    return cmd


def run(
    *,
    tcp: tuple[str, int] | None,
    unix_path: str | None,
    token_file: str | None,
    allow_remote: bool,
    session_cmd: list[str],
) -> int:
    """Listen and serve until a client sends ``exit``; the status."""
    if os.name != "posix":
        print("affine-lsp serve: --tcp and --socket need a POSIX system; use stdio", file=sys.stderr)
        return 2
    cleanup: list[Path] = []
    try:
        if tcp is not None:
            check_host(tcp[0], allow_remote)  # (before any file is made)
        token: str | None = None
        token_path: Path | None = None
        if tcp is not None or token_file:
            if token_file:
                token_path = Path(token_file).expanduser().absolute()
                token, created = token_from_file(token_path)
                if created:
                    cleanup.append(token_path)
            else:
                folder = Path(tempfile.mkdtemp(prefix="affine-lsp-"))  # (mode 0700)
                token_path = folder / "token"
                token, _ = token_from_file(token_path)
                cleanup += [token_path, folder]
        if tcp is not None:
            sock = tcp_socket(*tcp)
            host, port = sock.getsockname()[:2]
            where = f"{'[' + host + ']' if ':' in host else host}:{port}"
        else:
            assert unix_path is not None
            path = Path(unix_path).expanduser().absolute()
            sock = unix_socket(path)
            cleanup.insert(0, path)
            where = str(path)
    except ListenerError as e:
        _remove(cleanup)
        print(f"affine-lsp serve: {e}", file=sys.stderr)
        return 2
    how = f"; token in {token_path} (a client's first line: '{TOKEN_PREFIX.decode()} <token>')" if token_path is not None else ""
    print(f"affine-lsp serve: listening on {where}{how}", file=sys.stderr, flush=True)
    signal.signal(signal.SIGTERM, _terminated)  # (the session stopped and the files removed, below)
    try:
        with sock:
            return Listener(sock, session_cmd, token).serve()
    finally:
        _remove(cleanup)


def _terminated(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def _remove(paths: list[Path]) -> None:
    for p in paths:
        with contextlib.suppress(OSError):
            p.rmdir() if p.is_dir() and not p.is_symlink() else p.unlink()
