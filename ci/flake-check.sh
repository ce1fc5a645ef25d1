#!/usr/bin/env bash
# The flake check: runs the process-heavy tests several rounds in a row while a CPU hog keeps
# every core busy, and names every test that failed even once. A test that passes alone but
# fails here waits on the clock instead of on an event; it is a defect, not bad luck.
#   bash ci/flake-check.sh [--rounds N] [--labels REGEX] [--no-hog]
#   --rounds N      rounds of the whole selection (default 5)
#   --labels REGEX  ctest labels to run (default: the tests that start, signal or wait on processes)
#   --no-hog        without the CPU hog (to tell a load-only failure from a plain one)
# Environment: BUILD_DIR (default build; built first when it has no tests), JOBS (default 2),
# JBENCH_TEST_TIME_SCALE (the suite's safety-net deadlines times this; default 1).
# Exit: 0 when every round passed, 1 when a test failed in any round, 2 on bad usage.
# The last line is 'flake-check: N passed, N failed' over every test run in every round.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=5
labels='^(run|cli|collector|integration|workload|alloc|bridge|platform)$'
hog=1
die() { echo "flake-check: $1" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) [ $# -ge 2 ] || die "--rounds wants a number"; rounds="$2"; shift 2 ;;
    --labels) [ $# -ge 2 ] || die "--labels wants a regular expression"; labels="$2"; shift 2 ;;
    --no-hog) hog=0; shift ;;
    *) die "unknown option '$1' (known: --rounds N, --labels REGEX, --no-hog)" ;;
  esac
done
case "$rounds" in '' | *[!0-9]* | 0) die "--rounds wants a whole number above 0, not '$rounds'" ;; esac
build_dir="${BUILD_DIR:-build}"
[ -f "$build_dir/CTestTestfile.cmake" ] || bash ci/build.sh

# One busy loop per core, each ending by itself once this script is gone (kill -0 on our pid),
# so not even a SIGKILL of the check leaves a hog behind.
hogs=()
stop_hogs() { for p in "${hogs[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap stop_hogs EXIT
if [ "$hog" = 1 ]; then
  me=$$
  for _ in $(seq "$(nproc)"); do
    bash -c "while kill -0 $me 2>/dev/null; do :; done" &
    hogs+=($!)
  done
  echo "flake-check: ${#hogs[@]} CPU hog(s) running, one per core" >&2
fi

logs="$build_dir/flake-check"
rm -rf "$logs"
mkdir -p "$logs"
declare -A failures=()
passed=0
failed=0
started=$(date +%s)
for round in $(seq "$rounds"); do
  eta=""
  if [ "$round" -gt 1 ]; then
    eta=", about $(( ($(date +%s) - started) * (rounds - round + 1) / (round - 1) / 60 + 1 )) min left"
  fi
  echo "flake-check: round $round/$rounds$eta" >&2
  status=0
  ctest --test-dir "$build_dir" -L "$labels" -j "${JOBS:-2}" --timeout 600 --output-on-failure \
    > "$logs/round-$round.log" 2>&1 || status=$?
  summary=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' \
    "$logs/round-$round.log" | tail -1 || true)
  [ -n "$summary" ] || die "round $round ran no test (see $logs/round-$round.log)"
  total=$(sed -E 's/.* failed out of ([0-9]+)/\1/' <<<"$summary")
  lost=$(sed -E 's/.* ([0-9]+) tests? failed out of .*/\1/' <<<"$summary")
  passed=$((passed + total - lost))
  failed=$((failed + lost))
  if [ "$status" -ne 0 ] && [ -f "$build_dir/Testing/Temporary/LastTestsFailed.log" ]; then
    while IFS= read -r line; do
      name="${line#*:}"
      failures["$name"]="${failures["$name"]:-}$round "
    done < "$build_dir/Testing/Temporary/LastTestsFailed.log"
  fi
  echo "flake-check: round $round: $summary" >&2
done

if [ "${#failures[@]}" -gt 0 ]; then
  echo "flake-check: tests that failed in at least one of $rounds rounds (logs: $logs):"
  for name in "${!failures[@]}"; do
    echo "  $name: round(s) ${failures[$name]}"
  done | sort
fi
echo "flake-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
