#!/usr/bin/env bash
# Installs the dependencies (idempotent), then configures and builds jbench into build/.
#   bash ci/build.sh                 # everything: the tools, the tests, the benchmarks
#   bash ci/build.sh TARGET...       # only these targets (and what they need)
# Environment: BUILD_DIR (default build), BUILD_TYPE (default RelWithDebInfo), JOBS (default 2).
# ccache is used when it is on PATH (a second build of the same sources is then cheap), with this
# checkout as its base directory and the compiler told to write paths relative to it
# (-ffile-prefix-map, in CMakeLists.txt): a second clone in another folder hits the same cache.
# Each step's line says how long the build has run and about how long is left; the last line
# gives the build's time and, with ccache, its hit rate.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
build_dir="${BUILD_DIR:-build}"
launcher=()
if command -v ccache >/dev/null; then
  # Through env, so that a plain `ninja -C build` gives ccache the same base directory.
  via="env;CCACHE_BASEDIR=$PWD;ccache"
  launcher=("-DCMAKE_CXX_COMPILER_LAUNCHER=$via" "-DCMAKE_C_COMPILER_LAUNCHER=$via")
fi
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" \
  "${launcher[@]}" >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
# ccache's counters before and after: this build's hits and misses, whatever ran before it.
ccache_counts() {
  command -v ccache >/dev/null || return 0
  [ -z "${CCACHE_DISABLE:-}" ] || return 0
  ccache --print-stats 2>/dev/null |
    awk '$1 ~ /^(direct_cache_hit|preprocessed_cache_hit)$/ {h += $2} $1 == "cache_miss" {m += $2}
         END {print h + 0, m + 0}'
}
# Each step's line carries how long the build has run and a rough time left: the mean time of a
# step so far times the steps left (compilations take seconds, links a fraction of one).
with_eta() {
  awk '{
    if (match($0, /^\[[0-9]+\/[0-9]+ [0-9.]+s\] /)) {
      split(substr($0, 2, RLENGTH - 3), f, /[\/ s]/)
      done = f[1]; total = f[2]; elapsed = f[3]
      left = done > 0 ? sprintf(", about %d s left", elapsed / done * (total - done) + 0.5) : ""
      $0 = sprintf("[%d/%d, %d s%s] %s", done, total, elapsed, left, substr($0, RLENGTH + 1))
    }
    print; fflush()
  }'
}
before=$(ccache_counts)
started=$(date +%s)
NINJA_STATUS="[%f/%t %es] " cmake --build "$build_dir" -j "${JOBS:-2}" "${targets[@]}" | with_eta
rate=""
if [ -n "${CCACHE_DISABLE:-}" ]; then
  rate=", ccache disabled (CCACHE_DISABLE)"
elif [ -n "$before" ]; then
  read -r h0 m0 <<<"$before"
  read -r h1 m1 <<<"$(ccache_counts)"
  hits=$((h1 - h0)) misses=$((m1 - m0))
  if [ $((hits + misses)) -gt 0 ]; then
    rate=", ccache $hits of $((hits + misses)) compilations hit ($((100 * hits / (hits + misses)))%)"
  else
    rate=", nothing compiled"
  fi
fi
echo "build: $(($(date +%s) - started)) s (${*:-all targets}) in $build_dir$rate" >&2
