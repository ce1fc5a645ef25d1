#!/usr/bin/env bash
# The test command: set everything up, build, check formatting, and run every test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/build.sh
bash ci/check-format.sh
# No product function grows past 80 lines, and none joins ci/long-functions.txt.
python3 ci/function_lengths.py --check
build_dir="${BUILD_DIR:-build}"
# Every test carries its own timeout (see cmake/JbenchTargets.cmake); --timeout is the backstop.
status=0
ctest --test-dir "$build_dir" --output-on-failure -j "${JOBS:-2}" --timeout 300 || status=$?
# A test that cannot run here exits 77 with one line saying why; ctest keeps that line only in
# its log, so it is shown here: a skip is never silent.
grep -h ': skipped: ' "$build_dir/Testing/Temporary/LastTest.log" 2>/dev/null || true
exit "$status"
