#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what it needs, then runs
# the VS Code extension's build and grammar tests and the Python suite
# (unit, corpus, oracle tests against MLIR 22.1.8's mlir-opt/mlir-runner,
# the language server end to end, and the real-editor tests when their
# prerequisites can be installed).
#
# What it installs on this machine:
#   - into the current Python ($PYTHON, default python3): affine-lsp in
#     editable mode with its test dependencies and the reference toolchain
#     (pip, extras test,fast,oracle). The hot modules are compiled with
#     Cython, once, by this install (AFFINE_LSP_COMPILE=1, so that
#     tests/test_compiled.py has something to compare; AFFINE_LSP_COMPILE=0
#     skips it); nothing else in the run compiles them again (the
#     pre-commit test's environment and the extension's bundled wheel are
#     plain Python);
#   - with npm: the extension's node modules (npm ci, in vscode-extension/);
#   - unless AFFINE_LSP_SKIP_E2E=1: scripts/setup-e2e.sh, which installs
#     with apt-get (as root, or with sudo -n) neovim, chromium, ripgrep and
#     build tools, and code-server and playwright-core with npm into
#     ~/.cache/affine-lsp-e2e (about 3 minutes the first time).
# Switches: PYTHON, AFFINE_LSP_COMPILE (default 1 here), AFFINE_LSP_SKIP_E2E
# (1: no real-editor prerequisites; those tests are skipped),
# PYTEST_WORKERS (default 2: pytest-xdist workers). Extra arguments go to
# pytest; the reason of every skipped test is printed (-rs).
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
echo "== installing affine-lsp with test dependencies and the reference toolchain"
AFFINE_LSP_COMPILE="${AFFINE_LSP_COMPILE:-1}" "$PY" -m pip install --quiet --disable-pip-version-check -e ".[test,fast,oracle]"

if command -v npm >/dev/null 2>&1; then
  echo "== VS Code extension: build, grammar tests, Workspace Trust test (starts the server with \$PY), package"
  (cd vscode-extension && npm ci --no-audit --no-fund --loglevel=error && npm run --silent compile && npm run --silent test:grammar \
    && AFFINE_LSP_TEST_PYTHON="$PY" npm run --silent test:trust && npm run --silent package)
else
  echo "npm not found: skipping the VS Code extension build" >&2
fi

if [ -x scripts/setup-e2e.sh ] && [ "${AFFINE_LSP_SKIP_E2E:-0}" != "1" ]; then
  echo "== real-editor test prerequisites (neovim, code-server, chromium)"
  scripts/setup-e2e.sh || echo "could not install the real-editor prerequisites; those tests will be skipped" >&2
fi

echo "== pytest"
"$PY" -m pytest -n "${PYTEST_WORKERS:-2}" -q -rs -p no:cacheprovider "$@"
