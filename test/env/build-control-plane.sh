#!/usr/bin/env bash
# Builds etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kubectl
# from the Go module proxy at KUBE_VERSION, into $KEV_CACHE_DIR/control-plane-v$KUBE_VERSION/bin.
# A second run finds the binaries and returns at once. Prints the bin folder on stdout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/versions.sh"

out="$KEV_CACHE_DIR/control-plane-v$KUBE_VERSION"
bins=(etcd kube-apiserver kube-controller-manager kube-scheduler kubectl)
done_marker="$out/bin/.complete"
if [ -f "$done_marker" ]; then echo "$out/bin"; exit 0; fi
kev_lock_cache
if [ -f "$done_marker" ]; then echo "$out/bin"; exit 0; fi

command -v go >/dev/null || { echo "build-control-plane: Go is required (go.dev toolchain 1.24+)" >&2; exit 1; }
minor=$(echo "$KUBE_VERSION" | cut -d. -f2)
staging="v0.$minor.$(echo "$KUBE_VERSION" | cut -d. -f3)"
mod="$out/module"
mkdir -p "$mod" "$out/bin"
cd "$mod"
export GOFLAGS=-mod=mod GOTOOLCHAIN=local
start=$(date +%s)

if [ ! -f go.mod ]; then
  go mod init kubernetes-events.local/controlplane >&2
fi
# k8s.io/kubernetes requires its staging modules at v0.0.0 and replaces them with
# local paths; a consumer must replace each with the published v0.<minor>.<patch>.
kube_gomod=$(go mod download -json "k8s.io/kubernetes@v$KUBE_VERSION" | sed -n 's/.*"GoMod": "\(.*\)",*/\1/p')
go mod edit -require="k8s.io/kubernetes@v$KUBE_VERSION"
for m in $(grep -E '^[[:space:]]+k8s\.io/[a-z0-9-]+ v0\.0\.0$' "$kube_gomod" | awk '{print $1}'); do
  go mod edit -replace="$m=$m@$staging"
done
# etcd at exactly the version Kubernetes pins for its own client.
etcd_version=$(grep -E '^[[:space:]]+go\.etcd\.io/etcd/client/v3 ' "$kube_gomod" | awk '{print $2}')
go mod edit -require="go.etcd.io/etcd/server/v3@$etcd_version"
cat > tools.go <<'GO'
//go:build tools

// Package tools pins the main packages this module builds.
package tools

import (
	_ "go.etcd.io/etcd/server/v3"
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
	_ "k8s.io/kubernetes/cmd/kubectl"
)
GO
echo "build-control-plane: resolving modules for Kubernetes v$KUBE_VERSION, etcd $etcd_version" >&2
go mod tidy >&2

ldflags="-s -w -X k8s.io/component-base/version.gitVersion=v$KUBE_VERSION -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/client-go/pkg/version.gitVersion=v$KUBE_VERSION -X k8s.io/client-go/pkg/version.gitMajor=1 -X k8s.io/client-go/pkg/version.gitMinor=$minor"
build() { # name package
  echo "build-control-plane: building $1" >&2
  CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$out/bin/$1" "$2" >&2
}
build etcd go.etcd.io/etcd/server/v3
build kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver
build kube-controller-manager k8s.io/kubernetes/cmd/kube-controller-manager
build kube-scheduler k8s.io/kubernetes/cmd/kube-scheduler
build kubectl k8s.io/kubernetes/cmd/kubectl
for b in "${bins[@]}"; do [ -x "$out/bin/$b" ] || { echo "build-control-plane: $b missing" >&2; exit 1; }; done
echo "$etcd_version" > "$out/bin/.etcd-version"
touch "$done_marker"
echo "build-control-plane: done in $(( $(date +%s) - start ))s" >&2
echo "$out/bin"
