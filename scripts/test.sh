#!/usr/bin/env bash
# Runs every test: the whole suite on the embedded database, then the server suite on a real Postgres.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec node scripts/test.mjs "$@"
