#!/usr/bin/env bash
# Builds the tools/events oracle (go-events/main.go) against client-go v0.37.2 from the Go
# module proxy, into $KEV_CACHE_DIR keyed by the hash of its sources; prints its path.
# The oracle drives unexported functions of client-go's package events, so the build
# vendors the module and compiles go-events/shim/oracle.go into that package through an
# overlay; the package's wall-clock reads (time.Now(): eventf's EventTime, finishSeries'
# now) are pointed at the stream's clock the same way. Nothing else of client-go changes,
# and the build stops if those reads are not exactly where and as many as expected.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../env/versions.sh"
module="$here/go-events"
command -v go >/dev/null || { echo "tools-events: Go is required to build the client-go oracle" >&2; exit 1; }
key=$(cat "$module"/*.go "$module"/shim/*.go "$module/go.mod" "$module/go.sum" "$0" | sha256sum | cut -c1-16)
out="$KEV_CACHE_DIR/tools-events-$key"
if [ ! -x "$out/tools-events" ]; then
  kev_lock_cache
fi
if [ ! -x "$out/tools-events" ]; then
  work="$out/build"
  rm -rf "$work" && mkdir -p "$work/overlay"
  cp "$module"/*.go "$module/go.mod" "$module/go.sum" "$work/"
  cd "$work"
  GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod vendor >&2
  pkg="$work/vendor/k8s.io/client-go/tools/events"
  # file:expected count of time.Now() reads
  for spec in event_broadcaster.go:2 event_recorder.go:1; do
    file=${spec%%:*} want=${spec##*:}
    got=$(grep -o 'time\.Now()' "$pkg/$file" | wc -l)
    [ "$got" = "$want" ] || { echo "tools-events: $file has $got wall-clock reads, expected $want: client-go changed" >&2; exit 1; }
    # A conversion, so that the file's import of time stays used.
    sed 's/time\.Now()/time.Time(oracleNow())/g' "$pkg/$file" > "$work/overlay/$file"
  done
  cp "$module/shim/oracle.go" "$work/overlay/zz_oracle.go"
  printf '{"Replace":{"%s":"%s","%s":"%s","%s":"%s"}}\n' \
    "$pkg/event_broadcaster.go" "$work/overlay/event_broadcaster.go" \
    "$pkg/event_recorder.go" "$work/overlay/event_recorder.go" \
    "$pkg/zz_oracle.go" "$work/overlay/zz_oracle.go" > "$work/overlay.json"
  GOTOOLCHAIN=local CGO_ENABLED=0 go build -mod=vendor -tags kevoracle -trimpath -overlay "$work/overlay.json" -o "$out/tools-events.tmp" . >&2
  mv "$out/tools-events.tmp" "$out/tools-events"
  rm -rf "$work"
fi
echo "$out/tools-events"
