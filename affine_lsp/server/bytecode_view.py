"""``affine-lsp.decodeBytecode``: the text of an MLIR bytecode file.

With arguments ``[{"uri": "file:///.../x.mlirbc"}]`` (or ``["file:///..."]``)
it returns the file's textual form (:mod:`affine_lsp.bytecode`, MLIR's
generic syntax), which the editor shows as a read-only ``mlir`` document;
a text file comes back as it is. A file that cannot be read or decoded fails
the request with the reader's message.
"""

from __future__ import annotations

from typing import Any

from pygls import uris

from affine_lsp.ide.sources import read_source
from affine_lsp.server.navigation import RequestFailed
from affine_lsp.server.server import AffineLanguageServer

DECODE_BYTECODE = "affine-lsp.decodeBytecode"


def _uri(args: tuple[Any, ...]) -> str:
    arg = args[0] if args else None
    if isinstance(arg, list) and arg:
        arg = arg[0]
    if isinstance(arg, dict):
        arg = arg.get("uri")
    if not isinstance(arg, str):
        raise RequestFailed(f"{DECODE_BYTECODE} expects [{{uri}}]")
    return arg


def decode_uri(uri: str) -> str:
    path = uris.to_fs_path(uri) if uri.startswith("file:") else uri
    if not path:
        raise RequestFailed(f"{DECODE_BYTECODE}: not a file: {uri}")
    try:
        return read_source(path)
    except OSError as e:  # BytecodeError is one
        raise RequestFailed(f"{path}: {e.strerror or e}") from None


def register(server: AffineLanguageServer) -> None:
    @server.command(DECODE_BYTECODE)
    async def decode_bytecode_cmd(ls: AffineLanguageServer, *args: Any) -> str:
        return await ls.in_thread(decode_uri, _uri(args))
