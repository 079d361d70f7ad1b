#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what it needs, then runs
# the VS Code extension's build and grammar tests and the Python suite
# (unit, corpus, oracle tests against MLIR 22.1.8's mlir-opt/mlir-runner,
# the language server end to end, and the real-editor test when its
# prerequisites can be installed).
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
echo "== installing affine-lsp with test dependencies and the reference toolchain"
"$PY" -m pip install --quiet --disable-pip-version-check -e ".[test,fast,oracle]"

if command -v npm >/dev/null 2>&1; then
  echo "== VS Code extension: build, grammar tests, package"
  (cd vscode-extension && npm ci --no-audit --no-fund --loglevel=error && npm run --silent compile && npm run --silent test:grammar && npm run --silent package)
else
  echo "npm not found: skipping the VS Code extension build" >&2
fi

if [ -x scripts/setup-e2e.sh ] && [ "${AFFINE_LSP_SKIP_E2E:-0}" != "1" ]; then
  echo "== real-editor test prerequisites (code-server, chromium)"
  scripts/setup-e2e.sh || echo "could not install the real-editor prerequisites; that test will be skipped" >&2
fi

echo "== pytest"
"$PY" -m pytest -n "${PYTEST_WORKERS:-2}" -q -p no:cacheprovider "$@"
