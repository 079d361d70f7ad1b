"""Suite-wide settings.

The language server's persistent diagnostics cache (affine_lsp/server/runtime/persist.py)
is off for the tests, so that every test computes what it checks (a cached
answer from an earlier test would hide a change of behaviour);
tests/test_persistent_cache.py turns it on with a directory of its own.

The cost models predict for one fixed machine (``AFFINE_LSP_CACHES``: 48 KiB
L1d, 1 MiB L2, 32 MiB L3; ``AFFINE_LSP_VECTOR_REGISTERS``: 32 of 512 bits),
whatever machine runs the tests, so that a
prediction a test checks does not change with the CPU; the server and CLI
processes the tests start inherit it. tests/test_machine_model.py checks the
variable itself.
"""

from __future__ import annotations

import os

os.environ["AFFINE_LSP_CACHE_DIR"] = "off"
os.environ["AFFINE_LSP_CACHES"] = "48K,1M,32M"
os.environ["AFFINE_LSP_VECTOR_REGISTERS"] = "32x512"
