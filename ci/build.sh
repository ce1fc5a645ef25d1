#!/usr/bin/env bash
# Installs the dependencies (idempotent), then configures and builds jbench into build/.
#   bash ci/build.sh                 # everything: the tools, the tests, the benchmarks
#   bash ci/build.sh TARGET...       # only these targets (and what they need)
# Environment: BUILD_DIR (default build), BUILD_TYPE (default RelWithDebInfo), JOBS (default 2).
# ccache is used when it is on PATH (a second build of the same sources is then cheap).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
build_dir="${BUILD_DIR:-build}"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" \
  "${launcher[@]}" >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
started=$(date +%s)
cmake --build "$build_dir" -j "${JOBS:-2}" "${targets[@]}"
echo "build: $(($(date +%s) - started)) s (${*:-all targets}) in $build_dir" >&2
