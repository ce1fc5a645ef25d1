#!/usr/bin/env bash
# The test command: set everything up, build, check formatting, and run every test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/build.sh
bash ci/check-format.sh
build_dir="${BUILD_DIR:-build}"
# Every test carries its own timeout (see cmake/JbenchTargets.cmake); --timeout is the backstop.
ctest --test-dir "$build_dir" --output-on-failure -j "${JOBS:-2}" --timeout 300
