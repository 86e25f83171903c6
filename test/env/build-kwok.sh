#!/usr/bin/env bash
# Builds KWOK (sigs.k8s.io/kwok/cmd/kwok) from the Go module proxy at KWOK_VERSION, into
# $KEV_CACHE_DIR/kwok-v$KWOK_VERSION/bin, beside the control plane. KWOK plays the kubelets
# of the local cluster's simulated nodes (kwok.ts). A second run finds the binary and
# returns at once. Prints the bin folder on stdout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/versions.sh"

out="$KEV_CACHE_DIR/kwok-v$KWOK_VERSION"
done_marker="$out/bin/.complete"
if [ -f "$done_marker" ]; then echo "$out/bin"; exit 0; fi
kev_lock_cache
if [ -f "$done_marker" ]; then echo "$out/bin"; exit 0; fi

command -v go >/dev/null || { echo "build-kwok: Go is required (go.dev toolchain 1.26+)" >&2; exit 1; }
mod="$out/module"
mkdir -p "$mod" "$out/bin"
cd "$mod"
export GOFLAGS=-mod=mod GOTOOLCHAIN=local
start=$(date +%s)

# A module of our own that requires KWOK: its go.mod (no replace directives) then picks
# every dependency version, exactly as in KWOK's release build.
[ -f go.mod ] || go mod init kubernetes-events.local/kwok >&2
go mod edit -require="sigs.k8s.io/kwok@v$KWOK_VERSION"
cat > tools.go <<'GO'
//go:build tools

// Package tools pins the main package this module builds.
package tools

import _ "sigs.k8s.io/kwok/cmd/kwok"
GO
echo "build-kwok: resolving modules for KWOK v$KWOK_VERSION" >&2
go mod tidy >&2
echo "build-kwok: building kwok" >&2
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$out/bin/kwok" sigs.k8s.io/kwok/cmd/kwok >&2
[ -x "$out/bin/kwok" ] || { echo "build-kwok: kwok missing" >&2; exit 1; }
touch "$done_marker"
echo "build-kwok: done in $(( $(date +%s) - start ))s" >&2
echo "$out/bin"
