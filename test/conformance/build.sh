#!/usr/bin/env bash
# Builds the client-go oracle (go/main.go against client-go v0.34.4 from the Go module
# proxy) into $KEV_CACHE_DIR, keyed by the hash of its sources (test/env/build-go.sh);
# prints the binary's path.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec bash "$here/../env/build-go.sh" "$here/go" conformance correlator
