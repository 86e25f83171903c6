#!/usr/bin/env bash
# Builds one of the tests' Go programs (a module under test/, against client-go from the Go
# module proxy) into $KEV_CACHE_DIR/<name>-<key>/<binary>, under the cache lock, and prints
# the binary's path. The key hashes the module's Go files, go.mod and go.sum, and those of
# every local module its go.mod replaces with a path (test/support/replay), so a change to
# any of them builds anew; a second run finds the binary and returns at once.
# Usage: build-go.sh <module folder> <cache folder name> <binary name>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/versions.sh"
module=$(cd "$1" && pwd)
name=$2
binary=$3
root=$(cd "$here/../.." && pwd)
command -v go >/dev/null || { echo "$name: Go is required to build ${module#"$root/"} against client-go" >&2; exit 1; }

# One-line `replace example/m => ../path` directives: the local modules built into it.
folders=("$module")
while read -r target; do
  folders+=("$(cd "$module/$target" && pwd)")
done < <(sed -n 's/^replace [^ ]* => \(\.\{1,2\}\/[^ ]*\)$/\1/p' "$module/go.mod")
key=$(for f in "${folders[@]}"; do cat "$f"/*.go "$f/go.mod" "$f/go.sum"; done | sha256sum | cut -c1-16)

out="$KEV_CACHE_DIR/$name-$key"
if [ ! -x "$out/$binary" ]; then
  kev_lock_cache
fi
if [ ! -x "$out/$binary" ]; then
  mkdir -p "$out"
  (cd "$module" && GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -o "$out/$binary.tmp" .) >&2
  mv "$out/$binary.tmp" "$out/$binary"
fi
echo "$out/$binary"
