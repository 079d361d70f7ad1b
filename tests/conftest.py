"""Suite-wide settings.

The language server's persistent diagnostics cache (affine_lsp/server/persist.py)
is off for the tests, so that every test computes what it checks (a cached
answer from an earlier test would hide a change of behaviour);
tests/test_persistent_cache.py turns it on with a directory of its own.
"""

from __future__ import annotations

import os

os.environ["AFFINE_LSP_CACHE_DIR"] = "off"
