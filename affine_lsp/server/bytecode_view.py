"""``affine-lsp.decodeBytecode``: the text of an MLIR bytecode file.

With arguments ``[{"uri": "file:///.../x.mlirbc"}]`` (or ``["file:///..."]``)
it returns the file's textual form (:mod:`affine_lsp.bytecode`, MLIR's
generic syntax), which the editor shows as a read-only ``mlir`` document;
a text file comes back as it is. A file that cannot be read or decoded fails
the request with the reader's message.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Collection
from typing import Any

from pygls import uris
from pygls.exceptions import JsonRpcInvalidParams

from affine_lsp.bytecode import MAGIC
from affine_lsp.ide.sources import decode
from affine_lsp.server.navigation import RequestFailed
from affine_lsp.server.snapshot import Snapshot

DECODE_BYTECODE = "affine-lsp.decodeBytecode"


def _uri(args: tuple[Any, ...]) -> str:
    arg = args[0] if args else None
    if isinstance(arg, list) and arg:
        arg = arg[0]
    if isinstance(arg, dict):
        arg = arg.get("uri")
    if not isinstance(arg, str):
        raise JsonRpcInvalidParams(message=f"{DECODE_BYTECODE} expects [{{uri}}]")
    return arg


def _under(path: str, root: str) -> bool:
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:  # (another drive)
        return False


def decode_uri(uri: str, roots: Collection[str] = (), open_paths: Collection[str] = ()) -> str:
    """The text of the file ``uri`` names, if it may be read: under one of
    ``roots`` (resolved folders), one of ``open_paths`` (resolved paths of
    open documents) or MLIR bytecode."""
    path = uris.to_fs_path(uri) if uri.startswith("file:") else uri
    if not path or not os.path.isabs(path):
        raise RequestFailed(f"{DECODE_BYTECODE}: not a file URI or an absolute path: {uri}")
    real = os.path.realpath(path)
    known = real in open_paths or any(_under(real, r) for r in roots)
    try:
        with open(real, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise RequestFailed(f"{DECODE_BYTECODE}: {path} is not a regular file")
            head = f.read(len(MAGIC))
            if head != MAGIC and not known:
                raise RequestFailed(f"{DECODE_BYTECODE}: {path} is not MLIR bytecode, and not under a workspace folder or an open document: not read")
            data = head + f.read()
        return decode(data)
    except OSError as e:  # BytecodeError is one
        raise RequestFailed(f"{path}: {e.strerror or e}") from None


def readable_places(snap: Snapshot) -> tuple[list[str], set[str]]:
    """The resolved workspace folders and paths of open documents."""
    roots = [os.path.realpath(p) for u in snap.workspace_roots() if u.startswith("file:") and (p := uris.to_fs_path(u))]
    opened = {os.path.realpath(p) for u in snap.open_uris() if u.startswith("file:") and (p := uris.to_fs_path(u))}
    return roots, opened


async def decode_command(snap: Snapshot, args: tuple[Any, ...]) -> str:
    uri = _uri(args)
    roots, opened = readable_places(snap)
    return await snap.in_lane(decode_uri, uri, roots, opened)
