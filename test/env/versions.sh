# Pinned versions of everything the test environment builds or installs.
# Kubernetes: the default release follows @kubernetes/client-node 1.4.0, which targets 1.34.
# KUBE_RELEASES is the matrix `npm test` runs the cluster layer against: the oldest release
# still widely run that builds here, the default, and the newest the module proxy serves.
# KEV_K8S_VERSION (set by `npm test -- --k8s=<version>`) picks another release.
KUBE_DEFAULT_VERSION=1.34.4
KUBE_RELEASES="1.31.0 1.34.4 1.37.2"
KUBE_VERSION=${KEV_K8S_VERSION:-$KUBE_DEFAULT_VERSION}
# Node 24 and code-server 4.139.1 (VS Code 1.139.1): code-server refuses Node 20.
NODE24_VERSION=24.22.3
CODE_SERVER_VERSION=4.139.1
# KWOK simulates the kubelets of the local cluster's nodes (build-kwok.sh, kwok.ts).
KWOK_VERSION=0.8.0
# Where heavy builds are cached, keyed by version, outside any clone so CI's fresh
# clones reuse them. Override with KEV_CACHE_DIR.
KEV_CACHE_DIR=${KEV_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kubernetes-events}

# Holds the cache's lock for the rest of the calling script: two runs at once (two clones,
# two terminals) would otherwise build into the same folder. Re-entrant through KEV_CACHE_LOCKED.
kev_lock_cache() {
  [ -n "${KEV_CACHE_LOCKED:-}" ] && return 0
  mkdir -p "$KEV_CACHE_DIR"
  exec 9>"$KEV_CACHE_DIR/.lock"
  flock 9
  export KEV_CACHE_LOCKED=1
}
