#!/usr/bin/env bash
# Installs what the real-editor tests (tests/test_vscode_e2e.py, tests/test_neovim.py) need:
#   - Debian: neovim (apt-get; a failure is only a warning)
#   - Debian: chromium, ripgrep, build-essential, pkg-config, libkrb5-dev (apt-get)
#   - npm:    code-server@4.100.3 and playwright-core@1.65.1, into a cache folder
#             outside the repository ($AFFINE_LSP_E2E_CACHE, default
#             ~/.cache/affine-lsp-e2e), with the workarounds of shared/e2e/RECIPE.md.
# Idempotent: what is already there is kept (a second run takes a few seconds).
# About 3 minutes on a fresh machine. Exits non-zero, saying what failed, when
# something cannot be installed. Never downloads a browser (no `playwright install`).
set -euo pipefail

CODE_SERVER_VERSION=4.100.3
PLAYWRIGHT_VERSION=1.65.1
CACHE=${AFFINE_LSP_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/affine-lsp-e2e}
APT_PACKAGES=(build-essential pkg-config libkrb5-dev ripgrep chromium)

say() { echo "setup-e2e: $*"; }
die() { echo "setup-e2e: ERROR: $*" >&2; exit 1; }
t0=$(date +%s)

# ---------------------------------------------------------------- neovim
# The second real editor (tests/test_neovim.py, skipped without nvim). Tried
# first and never fatal: the rest of the setup does not depend on it.
if ! command -v nvim >/dev/null; then
  nvim_sudo=()
  [ "$(id -u)" = 0 ] || nvim_sudo=(sudo -n)
  say "apt-get install neovim"
  if ! { command -v apt-get >/dev/null \
      && DEBIAN_FRONTEND=noninteractive "${nvim_sudo[@]}" apt-get update -qq >/dev/null 2>&1 \
      && DEBIAN_FRONTEND=noninteractive "${nvim_sudo[@]}" apt-get install -y -qq --no-install-recommends neovim >/dev/null 2>&1; }; then
    echo "setup-e2e: WARNING: could not install Debian's neovim; tests/test_neovim.py will be skipped" >&2
  fi
fi

# ---------------------------------------------------------------- apt packages
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  command -v apt-get >/dev/null || die "apt-get not found; install these Debian packages by hand: ${missing[*]}"
  SUDO=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "not root and no sudo; install these Debian packages by hand: ${missing[*]}"
    SUDO=(sudo -n)
  fi
  say "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  aptlog=$(mktemp)
  "${SUDO[@]}" apt-get update -qq >"$aptlog" 2>&1 || { tail -20 "$aptlog" >&2; die "apt-get update failed"; }
  "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$aptlog" 2>&1 \
    || { tail -20 "$aptlog" >&2; die "apt-get install ${missing[*]} failed"; }
  rm -f "$aptlog"
fi
[ -x /usr/bin/chromium ] || die "/usr/bin/chromium missing after installing the Debian package 'chromium'"
command -v rg >/dev/null || die "rg (Debian 'ripgrep') missing"
command -v node >/dev/null && command -v npm >/dev/null || die "node and npm are needed (Node 20+)"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 20 ] || die "Node $node_major is too old: code-server $CODE_SERVER_VERSION needs Node 20"

# ---------------------------------------------------------------- npm packages
mkdir -p "$CACHE" || die "cannot create the cache folder $CACHE (set AFFINE_LSP_E2E_CACHE)"
cd "$CACHE"
[ -f package.json ] || echo '{"name": "affine-lsp-e2e-tools", "private": true}' >package.json

installed_version() {  # installed_version PKG -> version in $CACHE/node_modules, or empty
  node -e 'try { console.log(require(process.argv[1] + "/package.json").version) } catch { }' \
    "$CACHE/node_modules/$1" 2>/dev/null
}

code_server_ok() {
  [ "$(installed_version code-server)" = "$CODE_SERVER_VERSION" ] \
    && [ -x "$CACHE/node_modules/.bin/code-server" ] \
    && [ -e "$CACHE/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg" ] \
    && [ -n "$(find "$CACHE/node_modules/code-server/lib/vscode/node_modules/node-pty/build" -name pty.node 2>/dev/null | head -1)" ]
}

if ! code_server_ok; then
  say "npm install code-server@$CODE_SERVER_VERSION into $CACHE (a few minutes)"
  # node-pty and kerberos build from source against the Node headers in /usr
  # (npm_config_nodedir below): node-gyp must not try to download them.
  [ -f /usr/include/node/node.h ] || die "Node headers missing in /usr/include/node (Debian libnode-dev / nodejs); node-gyp would have to download them"
  # @vscode/ripgrep 1.15.11 (in code-server 4.100.3) downloads rg v13.0.0-10 from
  # GitHub at install time, which fails here: seed its download cache with
  # Debian's rg, packed the way it expects.
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  C=$(node -p "require('os').tmpdir()")/vscode-ripgrep-cache-1.15.11
  f="$C/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
  if [ ! -s "$f" ]; then
    mkdir -p "$C" "$tmp/rg" && cp "$(command -v rg)" "$tmp/rg/rg" && tar czf "$f" -C "$tmp/rg" rg \
      || die "could not seed the ripgrep download cache $f"
  fi
  log="$CACHE/npm-install-code-server.log"
  if ! npm_config_nodedir=/usr npm_config_unsafe_perm=true npm_config_yes=true \
      npm install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION" >"$log" 2>&1; then
    tail -30 "$log" >&2
    die "npm install code-server@$CODE_SERVER_VERSION failed (full log: $log)"
  fi
  code_server_ok || { tail -30 "$log" >&2; die "code-server installed incompletely (rg or node-pty missing; log: $log)"; }
fi

if [ "$(installed_version playwright-core)" != "$PLAYWRIGHT_VERSION" ]; then
  say "npm install playwright-core@$PLAYWRIGHT_VERSION into $CACHE"
  # PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: never fetch a browser; Debian's chromium is used.
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error \
    "playwright-core@$PLAYWRIGHT_VERSION" >"$CACHE/npm-install-playwright.log" 2>&1 \
    || { tail -30 "$CACHE/npm-install-playwright.log" >&2; die "npm install playwright-core@$PLAYWRIGHT_VERSION failed"; }
fi

# ---------------------------------------------------------------- smoke check
# code-server writes a default config and a log folder even for --version:
# keep them in the cache folder, not in the home folder.
v=$(XDG_CONFIG_HOME="$CACHE/xdg/config" XDG_DATA_HOME="$CACHE/xdg/data" \
  "$CACHE/node_modules/.bin/code-server" --config "$CACHE/xdg/config.yaml" --version 2>/dev/null | grep -v '^\[' | head -1) || die "code-server does not start: $CACHE/node_modules/.bin/code-server --version"
case "$v" in "$CODE_SERVER_VERSION"*) ;; *) die "unexpected code-server version: $v" ;; esac
NODE_PATH="$CACHE/node_modules" node -e 'require("playwright-core")' || die "playwright-core does not load from $CACHE/node_modules"

say "ready in $(( $(date +%s) - t0 )) s: code-server $v, playwright-core $PLAYWRIGHT_VERSION, $(/usr/bin/chromium --version 2>/dev/null | head -1) (cache $CACHE)"
