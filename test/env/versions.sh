# Pinned versions of everything the test environment builds or installs.
# Kubernetes follows @kubernetes/client-node 1.4.0, which targets Kubernetes 1.34.
KUBE_VERSION=1.34.4
# Node 24 and code-server 4.139.1 (VS Code 1.139.1): code-server refuses Node 20.
NODE24_VERSION=24.22.3
CODE_SERVER_VERSION=4.139.1
# Where heavy builds are cached, keyed by version, outside any clone so CI's fresh
# clones reuse them. Override with KEV_CACHE_DIR.
KEV_CACHE_DIR=${KEV_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kubernetes-events}
