""" "Time this function" is bounded: the programs it runs have a memory
limit and are killed at once when the run is cancelled (the progress's
Cancel in the editor), one run at a time per document, the programs after
the first get a time limit scaled to the first, and the toolchain's
``--version`` probe runs once per program."""

from __future__ import annotations

import asyncio
import shlex
import sys
import threading
import time
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from affine_lsp import timing, toolchain
from affine_lsp.server.timing_lens import TIME_FUNCTION
from tests.test_server_support import config, serving
from tests.test_server_timing import TEXT, URI


def _fake_toolchain(root: Path, compile_seconds: int) -> Path:
    """A bin folder whose mlir-opt answers --version and otherwise takes
    ``compile_seconds`` (a slow compile); each run appends to ``calls``."""
    (root / "bin").mkdir(parents=True, exist_ok=True)
    (root / "lib").mkdir(exist_ok=True)
    calls = shlex.quote(str(root / "calls"))
    for tool in ("mlir-opt", "mlir-runner"):
        script = root / "bin" / tool
        script.write_text(
            f'#!/bin/sh\necho "{tool} $1" >> {calls}\nif [ "$1" = "--version" ]; then echo "LLVM version 22.1.8"; exit 0; fi\nexec sleep {compile_seconds}\n'
        )
        script.chmod(0o755)
    for lib in ("libmlir_c_runner_utils.so", "libmlir_runner_utils.so"):
        (root / "lib" / lib).write_bytes(b"")
    return root / "bin"


def test_a_cancel_kills_the_program_running() -> None:
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    started = time.monotonic()
    with toolchain.limited(toolchain.Limits(cancel=cancel)), pytest.raises(toolchain.Cancelled):
        toolchain._child(["sleep", "60"], {"PATH": "/usr/bin:/bin"}, timeout=120)
    assert time.monotonic() - started < 30  # killed, not waited for (sleep 60)
    # Once cancelled, nothing more starts.
    with toolchain.limited(toolchain.Limits(cancel=cancel)), pytest.raises(toolchain.Cancelled):
        toolchain._child(["true"], {"PATH": "/usr/bin:/bin"}, timeout=10)


def test_the_memory_limit_stops_a_program_that_allocates_without_bound() -> None:
    grab = [sys.executable, "-c", "x = bytearray(2 * 1024**3); print('allocated')"]
    with toolchain.limited(toolchain.Limits(memory_bytes=512 * 1024**2)):
        p = toolchain._child(grab, {}, timeout=60)
    assert p.returncode != 0 and "MemoryError" in p.stderr and "allocated" not in p.stdout
    assert toolchain._child([sys.executable, "-c", "print('ok')"], {}, timeout=60).stdout.strip() == "ok"  # no limit outside


def test_the_version_probe_runs_once_per_program(tmp_path: Path) -> None:
    bin_dir = _fake_toolchain(tmp_path, 0)
    for _ in range(3):
        assert toolchain._version(bin_dir / "mlir-opt", {"PATH": "/usr/bin:/bin"}) == "22.1.8"
    assert (tmp_path / "calls").read_text().splitlines() == ["mlir-opt --version"]


def test_the_programs_after_the_first_have_a_scaled_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str, float]] = []

    def fake(tc, text, func, repeat, label, written=None, batch=1, timeout=600):  # type: ignore[no-untyped-def]
        seen.append((label, timeout))
        return timing.Run(label, error="not run")

    monkeypatch.setattr(timing, "measure_run", fake)
    tc = toolchain.Toolchain(Path("/x/mlir-opt"), Path("/x/mlir-runner"), (), {}, "fake", "22.1.8")
    timing.time_function(TEXT, "kernel", "interchange", 3, tc)
    assert seen[0] == ("original", 600)
    assert seen[1][0] == "after 'interchange'" and seen[1][1] == timing.AFTER_TIMEOUT_MIN


@pytest_lsp.fixture(config=config())
async def slow(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    bin_dir = _fake_toolchain(tmp_path_factory.mktemp("slow-toolchain"), 120)
    async for _ in serving(lsp_client, URI, TEXT, init_options={"toolchain": {"mlirBin": str(bin_dir)}}):
        yield


@pytest.mark.asyncio(loop_scope="function")
async def test_one_run_per_document_and_the_progress_cancels_it(slow: LanguageClient) -> None:
    client = slow
    arg = {"uri": URI, "function": "kernel"}
    got = await client.workspace_execute_command_async(types.ExecuteCommandParams(command=TIME_FUNCTION, arguments=[arg]))
    assert got["started"] is True
    with pytest.raises(Exception, match="@kernel of this document is being timed"):
        await client.workspace_execute_command_async(types.ExecuteCommandParams(command=TIME_FUNCTION, arguments=[arg]))
    tokens = [t for t in client.progress_reports if str(t).startswith("affine-lsp/time/")]
    assert len(tokens) == 1 and client.progress_reports[tokens[0]][0].cancellable is True

    async def message(seen: int) -> types.ShowMessageParams:
        while len(client.messages) <= seen:
            await asyncio.sleep(0.1)
        return client.messages[seen]

    seen = len(client.messages)
    client.protocol.notify(types.WINDOW_WORK_DONE_PROGRESS_CANCEL, types.WorkDoneProgressCancelParams(token=tokens[0]))
    msg = await asyncio.wait_for(message(seen), 60)  # the fake compile takes 120 s: the cancel killed it
    assert msg.message == "Time this function: @kernel cancelled"
    # Done: the document can be timed again (it starts).
    got = await client.workspace_execute_command_async(types.ExecuteCommandParams(command=TIME_FUNCTION, arguments=[arg]))
    assert got["started"] is True
    tokens = [t for t in client.progress_reports if str(t).startswith("affine-lsp/time/")]
    assert len(tokens) == 2
    seen = len(client.messages)
    client.protocol.notify(types.WINDOW_WORK_DONE_PROGRESS_CANCEL, types.WorkDoneProgressCancelParams(token=tokens[-1]))
    assert (await asyncio.wait_for(message(seen), 60)).message == "Time this function: @kernel cancelled"
