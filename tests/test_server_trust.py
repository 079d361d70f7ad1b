"""Workspace Trust on the server's side (the real server, pytest-lsp): with
``initializationOptions`` ``{"trusted": false}`` (what the VS Code extension
sends for a folder in Restricted Mode) no MLIR toolchain is ever run: no code
lens (its probe would run ``mlir-opt --version``), "Time this function"
refused with the reason, and no later settings object turns it back on. In a
trusted folder a relative ``toolchain.mlirBin`` (``tools/bin``: a program in
the folder the server runs in) is refused the same way. The fake
``mlir-opt``/``mlir-runner`` write a marker file when they run; a control
shows that an absolute path to them is probed.

The extension's side (settings, discovery, how the server is started) is
``vscode-extension/test/trust/trust.test.ts`` (``npm run test:trust``)."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from affine_lsp.server.settings import Settings
from affine_lsp.server.timing_lens import TIME_FUNCTION
from tests.test_server_support import make_client, server_env, serving
from tests.test_server_timing import TEXT, URI, lenses

# The folder the server runs in (a cloned repository), made at import: the
# server command changes into it before the fixtures run.
FOLDER = Path(tempfile.gettempdir()) / f"affine-lsp-trust-{os.getpid()}"
MARKERS = FOLDER.parent / f"{FOLDER.name}-markers"
TOOLS = FOLDER / "tools"


def _make_folder() -> None:
    (TOOLS / "bin").mkdir(parents=True, exist_ok=True)
    (TOOLS / "lib").mkdir(exist_ok=True)
    MARKERS.mkdir(exist_ok=True)
    for tool in ("mlir-opt", "mlir-runner"):
        script = TOOLS / "bin" / tool
        script.write_text(f"#!/bin/sh\necho \"$*\" > {shlex.quote(str(MARKERS / tool))}\necho 'LLVM version 22.1.8'\n")
        script.chmod(0o755)
    for lib in ("libmlir_c_runner_utils.so", "libmlir_runner_utils.so"):
        (TOOLS / "lib" / lib).write_bytes(b"")


_make_folder()


@pytest.fixture(scope="module", autouse=True)
def _cleanup() -> Iterator[None]:
    yield
    shutil.rmtree(FOLDER, ignore_errors=True)
    shutil.rmtree(MARKERS, ignore_errors=True)


def ran() -> list[str]:
    return sorted(p.name for p in MARKERS.iterdir())


def in_folder() -> ClientServerConfig:
    serve = shlex.join([sys.executable, "-m", "affine_lsp", "serve", "--log-level", "warning"])
    return ClientServerConfig(
        server_command=["/bin/sh", "-c", f"cd {shlex.quote(str(FOLDER))} && exec {serve}"],
        client_factory=make_client,
        server_env=server_env(AFFINE_LSP_MLIR_BIN=""),
    )


def test_trusted_false_is_one_way() -> None:
    untrusted = Settings().merged({"trusted": False})
    assert untrusted.workspace_trusted is False
    assert untrusted.merged({"trusted": True}).workspace_trusted is False
    assert untrusted.merged({"affineLsp": {"trusted": True, "toolchain": {"mlirBin": "/opt/mlir/bin"}}}).workspace_trusted is False
    assert Settings().merged({"trusted": True}).workspace_trusted is True
    assert "Restricted Mode" in (untrusted.toolchain_refusal() or "")
    # What the diagnostics depend on (the persistent cache's key) does not change.
    assert untrusted.results_key() == Settings().results_key()


def test_relative_mlir_bin_is_refused() -> None:
    assert Settings(mlir_bin="/opt/mlir/bin").toolchain_refusal() is None
    assert Settings().toolchain_refusal() is None
    assert Settings().merged({"toolchain": {"mlirBin": "/opt/mlir/bin"}}).mlir_bin == "/opt/mlir/bin"
    assert Settings().merged({"toolchain": {"mlirBin": "~/mlir/bin"}}).mlir_bin.endswith("/mlir/bin")
    for relative in ("tools/bin", "./tools/bin", "bin", "${workspaceFolder}/tools/bin"):
        problems: list[str] = []
        kept = Settings(mlir_bin="/opt/mlir/bin").merged({"toolchain": {"mlirBin": relative}}, problems)
        assert kept.mlir_bin == "/opt/mlir/bin"  # the relative one is ignored, the previous value kept
        assert problems == [f"affineLsp.toolchain.mlirBin must be an absolute path; {relative!r} is ignored"]


@pytest_lsp.fixture(config=in_folder())
async def untrusted(lsp_client: LanguageClient):
    async for _ in serving(lsp_client, URI, TEXT, init_options={"trusted": False, "toolchain": {"mlirBin": str(TOOLS / "bin")}}):
        yield


@pytest.mark.asyncio(loop_scope="function")
async def test_untrusted_runs_no_toolchain(untrusted: LanguageClient) -> None:
    client = untrusted
    assert await lenses(client) == []
    with pytest.raises(Exception, match="Time this function is off in Restricted Mode"):
        await client.workspace_execute_command_async(types.ExecuteCommandParams(command=TIME_FUNCTION, arguments=[{"uri": URI, "function": "kernel"}]))
    # A settings object (the workspace's own settings come the same way) cannot lift it.
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"affineLsp": {"trusted": True, "toolchain": {"mlirBin": str(TOOLS / "bin")}}})
    )
    assert await lenses(client) == []
    assert ran() == []


@pytest_lsp.fixture(config=in_folder())
async def trusted_relative(lsp_client: LanguageClient):
    async for _ in serving(lsp_client, URI, TEXT, init_options={"toolchain": {"mlirBin": "tools/bin"}}):
        yield


@pytest.mark.asyncio(loop_scope="function")
async def test_trusted_relative_mlir_bin_is_refused(trusted_relative: LanguageClient) -> None:
    client = trusted_relative
    # The relative mlirBin is ignored (another toolchain may give the lens): nothing in tools/bin runs.
    await lenses(client)
    assert ran() == []
    # Control: the same directory given as an absolute path is probed (the marker appears).
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"affineLsp": {"toolchain": {"mlirBin": str(TOOLS / "bin")}}}))
    assert len(await lenses(client)) == 1
    assert ran() == ["mlir-opt"]
    (MARKERS / "mlir-opt").unlink()
