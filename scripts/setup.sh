#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks, then the workspace's packages. Idempotent; safe to run again.
#   KFORGE_SETUP_BROWSER=0   skip chromium (only the browser tests need it)
#   KFORGE_SETUP_POSTGRES=0  skip the Postgres server (only the second test pass needs it)
#   KFORGE_SETUP_TORCH=0     skip PyTorch (Debian's python3-torch, ~220 packages: only pytorch problems need it)
#   bash scripts/setup.sh [--system | --workspace]   only the system's packages (apt), or only pnpm and the workspace's
#                                                    (.ci/run installs the first while the second and the build run)
set -euo pipefail
cd "$(dirname "$0")/.."
part=${1:-all}
case "$part" in all | --system | --workspace) ;; *) echo "usage: bash scripts/setup.sh [--system | --workspace]" >&2; exit 2 ;; esac

say() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

if [ "$part" != --workspace ]; then
  need_apt=()
  command -v bwrap >/dev/null 2>&1 || need_apt+=(bubblewrap)
  command -v cc >/dev/null 2>&1 || need_apt+=(build-essential)
  [ -e /usr/include/cblas.h ] || [ -e /usr/include/x86_64-linux-gnu/cblas.h ] || need_apt+=(libopenblas-dev)
  if [ "${KFORGE_SETUP_BROWSER:-1}" != 0 ]; then command -v chromium >/dev/null 2>&1 || need_apt+=(chromium); fi
  if [ "${KFORGE_SETUP_POSTGRES:-1}" != 0 ]; then ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need_apt+=(postgresql); fi
  # pytorch problems: the runner's torch backend uses /usr/bin/python3 (KFORGE_PYTHON overrides) with Debian's torch;
  # load_inline candidates also need ninja and a C++ compiler (build-essential above).
  if [ "${KFORGE_SETUP_TORCH:-1}" != 0 ]; then
    /usr/bin/python3 -c 'import torch' >/dev/null 2>&1 || need_apt+=(python3-torch)
    command -v ninja >/dev/null 2>&1 || need_apt+=(ninja-build)
    ls /usr/include/python3*/Python.h >/dev/null 2>&1 || need_apt+=(python3-dev)
  fi
  if [ ${#need_apt[@]} -gt 0 ]; then
    if command -v apt-get >/dev/null 2>&1; then
      say "installing ${need_apt[*]} (apt)"
      $SUDO apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
    else
      say "missing ${need_apt[*]} and no apt-get: install them with your package manager"
    fi
  fi
fi
[ "$part" = --system ] && exit 0

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version)" != "10.34.9" ]; then
  say "installing pnpm 10.34.9"
  npm install -g pnpm@10.34.9 >/dev/null 2>&1 || $SUDO npm install -g pnpm@10.34.9 >/dev/null
fi

say "installing workspace packages"
pnpm install --frozen-lockfile --reporter=silent
