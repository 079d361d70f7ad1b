"""A client that sends bad frames and bad command arguments (issue 44,
items 1, 6, 7): the framing recovers at the next header (server/framing.py),
``affine-lsp.decodeBytecode`` is no file-read oracle, a relative
``toolchain.mlirBin`` is refused, and no error response carries a Python
traceback. A real server process over stdio, raw bytes."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.test_server_support import RawClient

LOOP = "func.func @f(%A: memref<8xf32>) {\n  affine.for %i = 0 to 8 {\n    %v = affine.load %A[%i] : memref<8xf32>\n  }\n  return\n}\n"


def _start(root: Path | None = None) -> RawClient:
    c = RawClient()
    i = c.request("initialize", {"processId": None, "rootUri": root.as_uri() if root else None, "capabilities": {}})
    c.response(i)
    c.notify("initialized", {})
    return c


@pytest.fixture
def raw() -> Iterator[RawClient]:
    c = _start()
    try:
        yield c
    finally:
        if c.proc.poll() is None:
            c.close()


def _raw_write(c: RawClient, data: bytes) -> None:
    assert c.proc.stdin is not None
    c.proc.stdin.write(data)
    c.proc.stdin.flush()


def _request_bytes(msg_id: int, method: str, params: Any) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}).encode()


def _frame(body: bytes, extra: int = 0) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % (len(body) + extra) + body


UNKNOWN = {"command": "affine-lsp.noSuchCommand", "arguments": []}  # (answered at once: InvalidParams)


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param(lambda b: _frame(b, 40), id="length-40-too-large"),
        pytest.param(lambda b: _frame(b, -10), id="length-too-small"),
        pytest.param(lambda b: b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + b, id="no-content-length"),
        pytest.param(lambda b: b"Content-Length: many\r\n\r\n" + b, id="length-not-a-number"),
        pytest.param(lambda b: b"Content-Length: 99999999999999\r\n\r\n" + b, id="length-huge"),
        pytest.param(lambda b: b"hello there\r\n" + b, id="garbage"),
        pytest.param(lambda b: _frame(b[:-3] + b"@@@"), id="body-not-json"),
    ],
)
def test_the_request_after_a_bad_frame_is_answered(raw: RawClient, bad: Any) -> None:
    _raw_write(raw, bad(_request_bytes(900, "workspace/executeCommand", UNKNOWN)))
    _raw_write(raw, _frame(_request_bytes(901, "workspace/executeCommand", UNKNOWN)))
    answer = raw.response(901, timeout=30)
    assert answer["error"]["code"] == -32602
    # And the server goes on serving.
    i = raw.request("workspace/executeCommand", UNKNOWN)
    assert raw.response(i)["error"]["code"] == -32602


def test_a_request_whose_length_is_too_large_gets_an_error(raw: RawClient) -> None:
    _raw_write(raw, _frame(_request_bytes(910, "workspace/executeCommand", UNKNOWN), 40))
    _raw_write(raw, _frame(_request_bytes(911, "workspace/executeCommand", UNKNOWN)))
    first = raw.response(910, timeout=30)
    assert first["error"]["code"] == -32600 and "Content-Length" in first["error"]["message"]
    assert raw.response(911)["error"]["code"] == -32602


def _error_of(c: RawClient, command: str, arguments: Any) -> dict[str, Any]:
    r = c.response(c.request("workspace/executeCommand", {"command": command, "arguments": arguments}))
    assert "error" in r, r
    text = json.dumps(r["error"])
    assert "traceback" not in text.lower() and 'File \\"' not in text, r["error"]
    return r["error"]


def test_bad_command_arguments_get_invalid_params_without_traceback(raw: RawClient) -> None:
    uri = "file:///hostile/views.mlir"
    raw.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": LOOP}})
    at = {"uri": uri, "position": {"line": 1, "character": 4}}
    for options in ({"maxPoints": "x"}, {"maxPoints": -1}, {"maxPoints": True}, {"maxPoints": 10**12}, {"dims": "abc"}, {"fixed": [1]}, {"params": {"N": "x"}}):
        e = _error_of(raw, "affine-lsp.iterationSpace", [{**at, **options}])
        assert e["code"] == -32602 and next(iter(options)) in e["message"], e
    for command, arguments in (
        ("affine-lsp.iterationSpace", [{"uri": uri, "position": {"line": 1e300, "character": 0}}]),
        ("affine-lsp.dependenceGraph", [{"uri": uri, "position": "top"}]),
        ("affine-lsp.showDependences", [{"uri": uri, "position": {"line": [], "character": 0}}]),
        ("affine-lsp.timeFunction", [{"uri": uri, "function": "f", "repeat": "x"}]),
        ("affine-lsp.decodeBytecode", [5]),
    ):
        assert _error_of(raw, command, arguments)["code"] == -32602
    # A well-formed request still works.
    r = raw.response(raw.request("workspace/executeCommand", {"command": "affine-lsp.iterationSpace", "arguments": [{**at, "maxPoints": 10}]}))
    assert "result" in r and r["result"]["uri"] == uri


def test_an_internal_error_answers_without_its_traceback() -> None:
    """The one place (AffineProtocol._send_response): pygls' answer to a
    handler that raised (JsonRpcInternalError with the traceback in data)."""
    from concurrent.futures import Future

    from affine_lsp.server import create_server

    server = create_server()
    sent: list[bytes] = []

    class Writer:
        def write(self, data: bytes) -> None:
            sent.append(data)

        def close(self) -> None:
            pass

    server.protocol.set_writer(Writer())
    try:
        fut: Future[Any] = Future()
        fut.set_exception(ValueError("invalid literal for int() with base 10: 'x'"))
        server.protocol._send_handler_result(fut, msg_id=7)
    finally:
        server.shutdown()
    msg = json.loads(sent[-1].split(b"\r\n\r\n", 1)[1])
    assert msg["id"] == 7 and msg["error"]["code"] == -32603
    assert "invalid literal" in msg["error"]["message"] and msg["error"].get("data") is None


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[tuple[RawClient, Path]]:
    root = tmp_path / "ws"
    root.mkdir()
    c = _start(root)
    try:
        yield c, root
    finally:
        if c.proc.poll() is None:
            c.close()


def test_decode_bytecode_reads_no_file_outside_the_workspace(workspace: tuple[RawClient, Path], tmp_path: Path) -> None:
    c, root = workspace
    secret = tmp_path / "secret.txt"
    secret.write_text("the password\n")
    (root / "link.mlir").symlink_to(secret)
    for arg in ("/etc/passwd", Path("/etc/passwd").as_uri(), "/proc/self/environ", secret.as_uri(), (root / "link.mlir").as_uri(), "-", "relative.mlir"):
        e = _error_of(c, "affine-lsp.decodeBytecode", [{"uri": arg}])
        assert "the password" not in e["message"] and "root:" not in e["message"], e
        assert "not read" in e["message"] or "absolute path" in e["message"], e
    if os.path.exists("/dev/zero"):
        (root / "zero.mlir").symlink_to("/dev/zero")
        assert "not a regular file" in _error_of(c, "affine-lsp.decodeBytecode", [{"uri": (root / "zero.mlir").as_uri()}])["message"]
    # What the client may read: a file under the workspace folder, an open document, bytecode anywhere.
    (root / "a.mlir").write_text(LOOP)
    r = c.response(c.request("workspace/executeCommand", {"command": "affine-lsp.decodeBytecode", "arguments": [{"uri": (root / "a.mlir").as_uri()}]}))
    assert r["result"] == LOOP
    other = tmp_path / "opened.mlir"
    other.write_text(LOOP)
    c.notify("textDocument/didOpen", {"textDocument": {"uri": other.as_uri(), "languageId": "mlir", "version": 1, "text": LOOP}})
    r = c.response(c.request("workspace/executeCommand", {"command": "affine-lsp.decodeBytecode", "arguments": [{"uri": other.as_uri()}]}))
    assert r["result"] == LOOP


def test_a_relative_mlir_bin_is_refused(raw: RawClient, tmp_path: Path) -> None:
    raw.notify("workspace/didChangeConfiguration", {"settings": {"affineLsp": {"toolchain": {"mlirBin": "tools/bin"}}}})
    msg = raw.wait(lambda m: m.get("method") == "window/showMessage")
    assert "mlirBin must be an absolute path" in msg["params"]["message"] and "tools/bin" in msg["params"]["message"]


def test_mlir_bin_setting() -> None:
    from affine_lsp.server.settings import Settings

    problems: list[str] = []
    s = Settings().merged({"toolchain": {"mlirBin": "/opt/llvm/bin"}})
    assert s.mlir_bin == "/opt/llvm/bin"
    assert s.merged({"toolchain": {"mlirBin": "bin"}}, problems).mlir_bin == "/opt/llvm/bin" and len(problems) == 1
    assert s.merged({"toolchain": {"mlirBin": ""}}).mlir_bin == ""
    assert Settings().merged({"toolchain": {"mlirBin": "~/llvm/bin"}}).mlir_bin == os.path.expanduser("~/llvm/bin")


def _read_all(data: bytes, step: int) -> list[Any]:
    """What the server's reader makes of ``data`` fed ``step`` bytes at a
    time (as :func:`affine_lsp.server.framing.run` does, without a server),
    then a pause."""
    from affine_lsp.server.framing import Dropped, Framer

    f = Framer()
    out: list[Any] = []

    def drain() -> None:
        while (item := f.next()) is not None:
            if isinstance(item, Dropped):
                out.append(item)
                continue
            try:
                out.append(json.loads(item))
            except ValueError as e:
                out.append(f.reject(item, str(e)))

    for i in range(0, len(data), step):
        f.feed(data[i : i + step])
        drain()
    if (d := f.stalled()) is not None:
        out.append(d)
        drain()
    return out


@pytest.mark.parametrize("step", [1, 2, 7, 64, 100_000])
def test_the_framer_resyncs_however_the_bytes_arrive(step: int) -> None:
    from affine_lsp.server.framing import Dropped

    a = _request_bytes(1, "a", {"x": [1, 2]})
    b = _request_bytes(2, "b", {"y": "z" * 50})
    small = b'{"id":3,"method":"c"}'
    cases = {
        "+40": (_frame(a, 40) + _frame(b), [1], [b]),
        "+40, then a message shorter than 40 bytes": (_frame(a, 40) + _frame(small), [1], [small]),
        "-10": (_frame(a, -10) + _frame(b), [1], [b]),
        "no Content-Length": (b"Content-Type: x\r\n\r\n" + a + _frame(b), [], [b]),
        "lower case, LF only": (b"content-length: %d\n\n" % len(a) + a + _frame(b), [], [a, b]),
        "a stray line break": (_frame(a) + b"\r\n" + _frame(b), [], [a, b]),
    }
    for name, (data, dropped_ids, bodies) in cases.items():
        out = _read_all(data, step)
        assert [json.loads(x) for x in bodies] == [o for o in out if not isinstance(o, Dropped)], name
        assert dropped_ids == [o.msg_id for o in out if isinstance(o, Dropped) and o.msg_id is not None], (name, out)
