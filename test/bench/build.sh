#!/usr/bin/env bash
# Builds the client-go side of the benchmarks (go/*.go against client-go v0.34.4 from the
# Go module proxy) into $KEV_CACHE_DIR, keyed by client-go's version and the hash of the
# sources (test/env/build-go.sh); prints the binary's path.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
client_go=$(sed -n 's/^\s*k8s.io\/client-go \(v[^ ]*\).*/\1/p' "$here/go/go.mod")
exec bash "$here/../env/build-go.sh" "$here/go" "bench-client-go-$client_go" clientgo-bench
