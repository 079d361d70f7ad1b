""" "Time this function": a code lens on every ``func.func`` the timing
harness can call, shown only when an MLIR toolchain is found (the server
never needs one), and the command ``affine-lsp.timeFunction``.

The command takes ``[{"uri": ..., "function": "kernel", "after": "tile
--sizes 32,32", "repeat": 5}]`` (``after`` and ``repeat`` optional; ``after``
defaults to the setting ``affineLsp.toolchain.timeAfter``, "" = the function
alone). It answers at once (``{"started": true}``) and runs in the
background: compiling and running the original and the transformed function
(see :mod:`affine_lsp.timing`), then one ``window/showMessage`` with the median
times, the speedup and whether the values agree (a warning when they do not
or when something failed).

No toolchain is run, not even the ``mlir-opt --version`` probe behind the
lens, when :meth:`Settings.toolchain_refusal` says why not (an untrusted
workspace, a relative ``mlirBin``): no lens, and the command answers with
that reason.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from affine_lsp import harness, timing, toolchain
from affine_lsp.ir.attributes import StringAttr, TypeAttr
from affine_lsp.ir.types import FunctionType
from affine_lsp.server.navigation import RequestFailed
from affine_lsp.server.snapshot import Snapshot

TIME_FUNCTION = "affine-lsp.timeFunction"
TITLE = "Time this function"


def _toolchain(snap: Snapshot) -> toolchain.Toolchain | None:
    if snap.settings.toolchain_refusal() is not None:
        return None
    try:
        return toolchain.find(setting=snap.settings.mlir_bin or None)
    except toolchain.ToolchainError:
        return None


def lenses(snap: Snapshot, params: types.CodeLensParams) -> list[types.CodeLens]:
    st, uri = snap.st, snap.st.uri
    if _toolchain(snap) is None:
        return []
    out: list[types.CodeLens] = []
    with st.locked() as doc:
        for section in doc.sections:
            for op in section.functions():
                parent = op.parent_op
                if not op.regions or not op.regions[0].blocks or (parent is not None and parent.name != "builtin.module"):
                    continue
                ft, name = op.attributes.get("function_type"), op.attributes.get("sym_name")
                if not isinstance(ft, TypeAttr) or not isinstance(ft.type, FunctionType) or not isinstance(name, StringAttr):
                    continue
                if harness.unsupported(ft.type) is not None:
                    continue
                line, ch = doc.lines.position(op.span.start)
                p = types.Position(line=line, character=ch)
                arg = {"uri": uri, "function": name.value}
                if snap.settings.time_after:
                    arg["after"] = snap.settings.time_after
                title = TITLE + (f" (and after '{snap.settings.time_after}')" if snap.settings.time_after else "")
                out.append(types.CodeLens(range=types.Range(start=p, end=p), command=types.Command(title=title, command=TIME_FUNCTION, arguments=[arg])))
    return out


def _parse(args: tuple[Any, ...]) -> dict[str, Any]:
    arg = args[0] if args else None
    if isinstance(arg, list) and arg:
        arg = arg[0]
    if not isinstance(arg, dict) or not isinstance(arg.get("uri"), str) or not isinstance(arg.get("function"), str):
        raise JsonRpcInvalidParams(message=f"{TIME_FUNCTION} expects [{{uri, function, after?, repeat?}}]")
    repeat = arg.get("repeat", 5)
    if not isinstance(repeat, int) or isinstance(repeat, bool) or not 1 <= repeat <= 1000:
        raise JsonRpcInvalidParams(message=f"{TIME_FUNCTION}: repeat must be an integer from 1 to 1000")
    after = arg.get("after")
    if after is not None and not isinstance(after, str):
        raise JsonRpcInvalidParams(message=f"{TIME_FUNCTION}: after must be a command line such as 'tile --sizes 32,32'")
    return {"uri": arg["uri"], "function": arg["function"], "after": after or None, "repeat": repeat}


MEMORY_LIMIT = 4 * 1024**3
"""The address space of each program a timing runs (mlir-opt, mlir-runner): a
kernel that allocates without bound fails instead of taking the machine."""


def _time(text: str, function: str, after: str | None, repeat: int, mlir_bin: str | None, cancel: threading.Event) -> tuple[types.MessageType, str]:
    try:
        with toolchain.limited(toolchain.Limits(MEMORY_LIMIT, cancel)):
            report = timing.time_function(text, function, after, repeat, setting=mlir_bin)
    except toolchain.Cancelled:
        return types.MessageType.Info, f"Time this function: @{function} cancelled"
    except (toolchain.ToolchainError, harness.HarnessError, timing.TransformError) as e:
        return types.MessageType.Warning, f"Time this function: {e}"
    except Exception as e:  # a message, never a crash of the server
        return types.MessageType.Error, f"Time this function: unexpected failure: {type(e).__name__}: {e}"
    kind = types.MessageType.Info if report.ok() else types.MessageType.Warning
    return kind, report.summary()


async def time_function_command(snap: Snapshot, args: tuple[Any, ...]) -> dict[str, Any]:
    """Start timing a function (the answer comes as a message, with a progress)."""
    a = _parse(args)
    refusal = snap.settings.toolchain_refusal()
    if refusal is not None:
        raise RequestFailed(f"{TIME_FUNCTION}: {refusal}")
    on = snap.document(a["uri"])
    if on is None:
        raise RequestFailed(f"document not open: {a['uri']}")
    busy = _running.get(a["uri"])
    if busy is not None:
        raise RequestFailed(f"{TIME_FUNCTION}: @{busy} of this document is being timed; wait for it or cancel it (its progress's Cancel)")
    with on.st.locked() as doc:
        text = doc.text
    mlir_bin = snap.settings.mlir_bin or None
    cancel = threading.Event()
    _running[a["uri"]] = a["function"]
    token = await _progress(snap, a["function"], cancel)
    task = asyncio.ensure_future(_time_in_background(snap, a, text, mlir_bin, cancel, token))
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)
    return {"started": True, "function": a["function"], "after": a["after"]}


async def _time_in_background(snap: Snapshot, a: dict[str, Any], text: str, mlir_bin: str | None, cancel: threading.Event, token: str | None) -> None:
    """Time, then tell the user (and end the progress)."""
    try:
        loop = asyncio.get_running_loop()
        kind, message = await loop.run_in_executor(None, _time, text, a["function"], a["after"], a["repeat"], mlir_bin, cancel)
        snap.show_message(kind, message)
    finally:
        _running.pop(a["uri"], None)
        if token is not None:
            snap.progress.end(token, types.WorkDoneProgressEnd())


async def _progress(snap: Snapshot, function: str, cancel: threading.Event) -> str | None:
    """A cancellable progress for the run (None: the client has none); its
    Cancel sets ``cancel``, which kills the program running."""
    if not snap.client.work_done_progress:
        return None
    token = f"affine-lsp/time/{uuid.uuid4()}"
    try:
        await snap.progress.create_async(token)
    except Exception:  # the client refused: time without progress
        return None
    snap.progress.begin(token, types.WorkDoneProgressBegin(title=f"Timing @{function}", cancellable=True))
    snap.progress.tokens[token].add_done_callback(lambda f: cancel.set() if f.cancelled() else None)
    return token


_running: dict[str, str] = {}  # uri -> the function being timed: one run at a time per document
_tasks: set[asyncio.Future[None]] = set()
