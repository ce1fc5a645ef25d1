#!/usr/bin/env bash
# Installs the dependencies (idempotent), then configures and builds jbench into build/.
# Environment: BUILD_DIR (default build), BUILD_TYPE (default RelWithDebInfo), JOBS (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
build_dir="${BUILD_DIR:-build}"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" >/dev/null
cmake --build "$build_dir" -j "${JOBS:-2}"
