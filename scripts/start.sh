#!/usr/bin/env bash
# Quick start: install what is missing, build, and serve Kernelforge on http://localhost:8000
# with the embedded database (PGlite in ./.kforge), a local CPU runner and a first superuser.
set -euo pipefail
cd "$(dirname "$0")/.."
KFORGE_SETUP_BROWSER=0 KFORGE_SETUP_POSTGRES=0 bash scripts/setup.sh
echo "[start] building" >&2
pnpm -r --workspace-concurrency=1 build >/dev/null
export KFORGE_DATA_DIR="${KFORGE_DATA_DIR:-$PWD/.kforge}"
mkdir -p "$KFORGE_DATA_DIR"
if [ -z "${KFORGE_ADMIN_PASSWORD:-}" ]; then
  # A generated first password, kept 0600 in the data directory, rather than a default anyone could guess.
  pwfile="$KFORGE_DATA_DIR/admin-password"
  if [ ! -s "$pwfile" ]; then (umask 077; head -c 18 /dev/urandom | base64 | tr -d '/+=' > "$pwfile"); fi
  export KFORGE_ADMIN_PASSWORD="$(cat "$pwfile")"
fi
export KFORGE_ADMIN_EMAIL="${KFORGE_ADMIN_EMAIL:-admin@kernelforge.local}"
echo "[start] first superuser: $KFORGE_ADMIN_EMAIL / $KFORGE_ADMIN_PASSWORD (created on the first start only)" >&2
exec node packages/server/dist/main.js
