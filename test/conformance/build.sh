#!/usr/bin/env bash
# Builds the client-go oracle (go/main.go against client-go v0.34.4 from the Go module
# proxy) into $KEV_CACHE_DIR, keyed by the hash of its sources; prints the binary's path.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../env/versions.sh"
command -v go >/dev/null || { echo "conformance: Go is required to build the client-go oracle" >&2; exit 1; }
key=$(cat "$here/go/main.go" "$here/go/go.mod" "$here/go/go.sum" | sha256sum | cut -c1-16)
out="$KEV_CACHE_DIR/conformance-$key"
if [ ! -x "$out/correlator" ]; then
  kev_lock_cache
fi
if [ ! -x "$out/correlator" ]; then
  mkdir -p "$out"
  (cd "$here/go" && GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -o "$out/correlator.tmp" .) >&2
  mv "$out/correlator.tmp" "$out/correlator"
fi
echo "$out/correlator"
