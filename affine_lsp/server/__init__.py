"""The affine-lsp language server (pygls); see :mod:`.server`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from affine_lsp.server.server import AffineLanguageServer

__all__ = ["AffineLanguageServer", "create_server"]


def create_server(debug_mirror: bool = False) -> AffineLanguageServer:
    from affine_lsp.server.server import create_server as _create

    return _create(debug_mirror=debug_mirror)


def __getattr__(name: str) -> Any:
    if name == "AffineLanguageServer":
        from affine_lsp.server.server import AffineLanguageServer

        return AffineLanguageServer
    raise AttributeError(name)
