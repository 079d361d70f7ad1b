#!/usr/bin/env bash
# Builds vscode-extension/affine-lsp-<version>.vsix from a clean checkout.
# Needs Node >= 20 and npm; fetches packages from the npm registry only.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
npm run package
version=$(node -p "require('./package.json').version")
vsix="affine-lsp-${version}.vsix"
test -f "$vsix"
echo "built $(pwd)/$vsix"
