#!/usr/bin/env bash
# Runs every test: set-up, build and type-check, then the whole suite on the embedded database and the database
# files again on a real Postgres (scripts/test.mjs). KFORGE_SETUP_DONE=1 skips the set-up (.ci/run has just done it).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${KFORGE_SETUP_DONE:-0}" != 1 ]; then bash scripts/setup.sh; fi
exec node scripts/test.mjs "$@"
