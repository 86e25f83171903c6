#!/usr/bin/env bash
# Builds the client-go side of the benchmarks (go/*.go against client-go v0.34.4 from the
# Go module proxy) into $KEV_CACHE_DIR, keyed by client-go's version and the hash of the
# sources, under the cache lock; prints the binary's path.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../env/versions.sh"
command -v go >/dev/null || { echo "bench: Go is required to build the client-go reference" >&2; exit 1; }
client_go=$(sed -n 's/^\s*k8s.io\/client-go \(v[^ ]*\).*/\1/p' "$here/go/go.mod")
key=$(cat "$here"/go/*.go "$here/go/go.mod" "$here/go/go.sum" | sha256sum | cut -c1-16)
out="$KEV_CACHE_DIR/bench-client-go-$client_go-$key"
if [ ! -x "$out/clientgo-bench" ]; then
  kev_lock_cache
fi
if [ ! -x "$out/clientgo-bench" ]; then
  mkdir -p "$out"
  (cd "$here/go" && GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -o "$out/clientgo-bench.tmp" .) >&2
  mv "$out/clientgo-bench.tmp" "$out/clientgo-bench"
fi
echo "$out/clientgo-bench"
