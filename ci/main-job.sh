#!/usr/bin/env bash
# The main job: set everything up, build, and expand the SQLite matrix into its plan.
# Extra arguments go to `jbench plan` (e.g. --json, --only workers=1,2).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/build.sh >&2
exec "${BUILD_DIR:-build}/bin/jbench" plan matrices/sqlite.yaml "$@"
