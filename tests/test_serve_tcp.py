"""``affine-lsp serve --tcp`` / ``--socket`` (commands/serve_listener.py):
only the client that presents the token gets in, one client at a time, a
disconnect leaves the server waiting for the next client and a client's
exit ends it. A real listener process on 127.0.0.1 (never any other
address), real sockets, raw bytes."""

from __future__ import annotations

import json
import os
import re
import select
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.test_server_support import server_env

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the listener needs a POSIX system")

TIMEOUT = 60.0
INITIALIZE = {"processId": None, "rootUri": None, "capabilities": {}}


class Served:
    """A listener process and what it printed when it started."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "affine_lsp", "serve", *args], env=server_env(), stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
        assert self.proc.stderr is not None
        try:
            line = _readline(self.proc.stderr, TIMEOUT)
            m = re.search(r"listening on (\S+?)(?:;|$)", line)
            assert m, line
        except BaseException:
            self.stop()
            raise
        self.where = m.group(1)
        t = re.search(r"token in (\S+) ", line)
        self.token_file = Path(t.group(1)) if t else None

    @property
    def port(self) -> int:
        return int(self.where.rsplit(":", 1)[1])

    def token(self) -> str:
        assert self.token_file is not None
        return self.token_file.read_text().strip()

    def connect(self, token: str | None = None) -> Conn:
        if self.where.startswith("/"):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(TIMEOUT)
            s.connect(self.where)
        else:
            s = socket.create_connection(("127.0.0.1", self.port), timeout=TIMEOUT)
        c = Conn(s)
        if token is not None:
            s.sendall(b"affine-lsp-token: " + token.encode() + b"\r\n")
        return c

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        if self.proc.stderr is not None:
            self.proc.stderr.close()


def _readline(stream: Any, timeout: float) -> str:
    end = time.monotonic() + timeout
    data = b""
    while not data.endswith(b"\n"):
        ready, _, _ = select.select([stream], [], [], max(0.0, end - time.monotonic()))
        assert ready, f"nothing printed: {data!r}"
        b = os.read(stream.fileno(), 1)
        assert b, f"the listener ended: {data!r}"
        data += b
    return data.decode()


class Conn:
    """One client connection, sending and reading LSP frames."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buf = b""
        self.next_id = 0

    def send(self, msg: dict[str, Any]) -> None:
        body = json.dumps(msg).encode()
        self.sock.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def request(self, method: str, params: Any) -> int:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def messages(self) -> Iterator[dict[str, Any]]:
        """The messages received, until the connection closes (or the timeout)."""
        while True:
            head, sep, rest = self.buf.partition(b"\r\n\r\n")
            m = re.search(rb"Content-Length: (\d+)", head)
            if sep and m and len(rest) >= int(m.group(1)):
                n = int(m.group(1))
                self.buf = rest[n:]
                yield json.loads(rest[:n])
                continue
            try:
                chunk = self.sock.recv(65536)
            except (ConnectionResetError, TimeoutError):
                return
            if not chunk:
                return
            self.buf += chunk

    def response(self, msg_id: int) -> dict[str, Any]:
        for msg in self.messages():
            if "id" in msg and "method" in msg:  # a request of the server
                result = [None for _ in msg["params"]["items"]] if msg["method"] == "workspace/configuration" else None
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
            elif msg.get("id") == msg_id:
                return msg
        raise AssertionError(f"no answer to {msg_id}")

    def initialize(self) -> dict[str, Any]:
        r = self.response(self.request("initialize", INITIALIZE))
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        return r

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def served() -> Iterator[Served]:
    s = Served("--tcp", "127.0.0.1:0")
    try:
        yield s
    finally:
        s.stop()


def _refused(c: Conn) -> list[dict[str, Any]]:
    """What a refused connection received before it was closed."""
    got = list(c.messages())
    c.close()
    return got


def test_the_token_file_is_private_and_printed(served: Served) -> None:
    assert served.token_file is not None and served.token_file.is_file()
    assert stat.S_IMODE(served.token_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(served.token_file.parent.stat().st_mode) & 0o077 == 0
    assert len(served.token()) >= 32


def test_without_the_token_nothing_is_processed(served: Served) -> None:
    c = served.connect()
    c.request("initialize", INITIALIZE)
    c.request("workspace/executeCommand", {"command": "affine-lsp.decodeBytecode", "arguments": ["/etc/passwd"]})
    got = _refused(c)
    assert [m.get("method") for m in got] == ["window/showMessage"], got
    assert "no token" in got[0]["params"]["message"] and "affine-lsp-token:" in got[0]["params"]["message"]
    assert served.proc.poll() is None
    good = served.connect(served.token())
    assert good.initialize()["result"]["serverInfo"]["name"] == "affine-lsp"
    good.close()


def test_a_wrong_token_is_refused(served: Served) -> None:
    c = served.connect("not-the-token-" + "x" * 30)
    c.request("initialize", INITIALIZE)
    got = _refused(c)
    assert len(got) == 1 and "wrong token" in got[0]["params"]["message"]
    assert not any("id" in m for m in got)
    assert served.proc.poll() is None


def test_connect_and_close_leaves_the_server_running(served: Served) -> None:
    for _ in range(3):
        socket.create_connection(("127.0.0.1", served.port), timeout=TIMEOUT).close()
    c = served.connect(served.token())
    assert "capabilities" in c.initialize()["result"]
    assert served.proc.poll() is None


def test_a_second_client_is_refused_while_the_first_is_served(served: Served) -> None:
    first = served.connect(served.token())
    first.initialize()
    second = served.connect(served.token())  # even with the token
    second.request("initialize", INITIALIZE)
    got = _refused(second)
    assert len(got) == 1 and "another client is connected" in got[0]["params"]["message"], got
    # The first client still gets its answers (and the second got none of them).
    i = first.request("workspace/executeCommand", {"command": "affine-lsp.nope", "arguments": []})
    assert first.response(i)["error"]["code"] == -32602
    first.close()


def test_a_disconnected_client_leaves_the_server_to_the_next_one(served: Served) -> None:
    uri = "file:///tcp/a.mlir"
    first = served.connect(served.token())
    first.initialize()
    first.send(
        {
            "jsonrpc": "2.0",
            "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": "func.func @f() {\n  return\n}\n"}},
        }
    )
    first.close()
    second = None
    for _ in range(100):  # (until the first session has ended: "another client is connected" meanwhile)
        c = served.connect(served.token())
        c.request("initialize", INITIALIZE)
        first_msg = next(c.messages())
        if "result" in first_msg:
            second = c
            break
        assert "another client" in first_msg["params"]["message"]
        c.close()
        time.sleep(0.1)
    assert second is not None
    # A fresh session: the first client's document is not open in it.
    i = second.request(
        "workspace/executeCommand", {"command": "affine-lsp.showDependences", "arguments": [{"uri": uri, "position": {"line": 0, "character": 0}}]}
    )
    assert "not open" in second.response(i)["error"]["message"]
    assert served.proc.poll() is None
    second.close()


def test_exit_ends_the_server(served: Served) -> None:
    c = served.connect(served.token())
    c.initialize()
    c.response(c.request("shutdown", None))
    c.send({"jsonrpc": "2.0", "method": "exit", "params": None})
    assert served.proc.wait(TIMEOUT) == 0
    assert served.token_file is not None and not served.token_file.exists()  # (removed)


def test_a_host_that_is_not_loopback_is_refused() -> None:
    # 192.0.2.1 (TEST-NET-1) is no address of this machine: nothing can be bound there either way.
    r = subprocess.run(
        [sys.executable, "-m", "affine_lsp", "serve", "--tcp", "192.0.2.1:2087"], env=server_env(), capture_output=True, text=True, timeout=TIMEOUT
    )
    assert r.returncode == 2 and "not a loopback address" in r.stderr and "--allow-remote" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_check_host() -> None:
    from affine_lsp.commands.serve_listener import ListenerError, check_host

    for host in ("127.0.0.1", "localhost", "::1", "127.0.0.2"):
        check_host(host, allow_remote=False)
    for host in ("0.0.0.0", "::", "192.0.2.1"):
        with pytest.raises(ListenerError, match="not a loopback address"):
            check_host(host, allow_remote=False)
        check_host(host, allow_remote=True)


def test_token_file(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("a-token-of-my-own-0123456789\n")
    token_file.chmod(0o644)
    r = subprocess.run(
        [sys.executable, "-m", "affine_lsp", "serve", "--tcp", "127.0.0.1:0", "--token-file", str(token_file)],
        env=server_env(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert r.returncode == 2 and "readable or writable by others" in r.stderr
    token_file.chmod(0o600)
    s = Served("--tcp", "127.0.0.1:0", "--token-file", str(token_file))
    try:
        assert s.token_file == token_file
        c = s.connect("a-token-of-my-own-0123456789")
        assert "result" in c.initialize()
        c.close()
    finally:
        s.stop()
    assert token_file.exists()  # (the user's file is left alone)
    made = tmp_path / "new-token"
    s = Served("--tcp", "127.0.0.1:0", "--token-file", str(made))
    try:
        assert stat.S_IMODE(made.stat().st_mode) == 0o600 and len(made.read_text().strip()) >= 32
    finally:
        s.stop()


def test_unix_socket(tmp_path: Path) -> None:
    path = tmp_path / "affine.sock"
    s = Served("--socket", str(path))
    try:
        assert s.where == str(path) and stat.S_ISSOCK(path.stat().st_mode)
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        first = s.connect()
        assert "result" in first.initialize()
        second = s.connect()
        second.request("initialize", INITIALIZE)
        assert "another client" in _refused(second)[0]["params"]["message"]
        first.response(first.request("shutdown", None))
        first.send({"jsonrpc": "2.0", "method": "exit", "params": None})
        assert s.proc.wait(TIMEOUT) == 0
        assert not path.exists()
    finally:
        s.stop()


def test_exit_without_shutdown_ends_the_server_with_status_1(served: Served) -> None:
    c = served.connect(served.token())
    c.initialize()
    c.send({"jsonrpc": "2.0", "method": "exit", "params": None})
    assert served.proc.wait(TIMEOUT) == 1
