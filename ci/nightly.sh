#!/usr/bin/env bash
# The nightly regression job: run the nightly matrix, validate the bundle, compare it with the
# last valid nightly in the results folder, look for change points over every nightly there,
# and write a short markdown summary — keeping every bundle, failed and invalid ones too.
#
#   bash ci/nightly.sh [--results DIR] [--matrix FILE] [--plant-delay-ns N]
#
#   --results DIR        where the nightly bundles live (default: results/nightly)
#   --matrix FILE        the matrix (default: matrices/nightly.yaml)
#   --plant-delay-ns N   plant a known delay per operation in this run (a check that the job sees
#                        a slowdown: the comparison then runs across that one setting and says so)
#   --threshold X        a relative change smaller than X is "the same" (default 0.10: what five
#                        repetitions on a noisy 2-core host can tell apart; docs/compare.md)
#
# JBENCH_NIGHTLY_NO_BUILD=1 skips the build (a caller that has just built, like the tests).
# Writes into DIR: the new bundle, <bundle>.compare.txt/.json/.html, history.txt/.json/.html
# (the .html ones are self-contained pages to open in a browser), and <bundle>.summary.md (also
# printed). Exit codes, as `jbench compare`: 0 no regression among the measured cells, 1 a
# regression (or the run or its bundle failed), 4 no verdict (the first night, or nothing
# comparable), 2 bad usage.
set -euo pipefail
cd "$(dirname "$0")/.."
results=results/nightly
matrix=matrices/nightly.yaml
plant=0
threshold=0.10
while [ $# -gt 0 ]; do
  case "$1" in
    --results) results="$2"; shift 2 ;;
    --matrix) matrix="$2"; shift 2 ;;
    --plant-delay-ns) plant="$2"; shift 2 ;;
    --threshold) threshold="$2"; shift 2 ;;
    *) echo "nightly: unknown option $1 (see the head of ci/nightly.sh)" >&2; exit 2 ;;
  esac
done
jbench="${BUILD_DIR:-build}/bin/jbench"
if [ "${JBENCH_NIGHTLY_NO_BUILD:-0}" != 1 ]; then
  bash ci/build.sh jbench jbench-sqlite-worker jbench_bridge_shared jbench_alloc_preload \
    jbench-ledger-worker >&2
fi
mkdir -p "$results"
name="nightly-$(date -u +%Y%m%dT%H%M%SZ)"
run_matrix="$matrix"
if [ "$plant" != 0 ]; then
  # The same matrix with one setting changed, beside it so its relative paths still hold.
  run_matrix="$(dirname "$matrix")/.planted-$(basename "$matrix")"
  sed "s/plant_delay_ns: 0/plant_delay_ns: $plant/" "$matrix" > "$run_matrix"
  grep -q "plant_delay_ns: $plant" "$run_matrix" ||
    { echo "nightly: $matrix has no 'plant_delay_ns: 0' to plant into" >&2; rm -f "$run_matrix"; exit 2; }
fi
# The last valid nightly before this one: the newest bundle `jbench validate` accepts.
last=""
for b in $(ls -1d "$results"/nightly-* 2>/dev/null | grep -v '\.' | sort -r); do
  if "$jbench" validate "$b" > /dev/null 2>&1; then last="$b"; break; fi
done

echo "nightly: running $run_matrix into $results/$name" >&2
set +e
"$jbench" run "$run_matrix" --out "$results" --name "$name"
run_status=$?
set -e
if [ "$plant" != 0 ]; then rm -f "$run_matrix"; fi
bundle=$(ls -1d "$results/$name"* 2>/dev/null | head -1)
summary="$results/$name.summary.md"
{
  echo "# Nightly $name"
  echo
  echo "- matrix: \`$matrix\`$([ "$plant" != 0 ] && echo " with plant_delay_ns: $plant")"
  echo "- bundle: \`$bundle\` (\`jbench run\` exit $run_status)"
} > "$summary"
verdict=4
if [ -z "$bundle" ] || ! "$jbench" validate "$bundle" > "$results/$name.validate.txt" 2>&1; then
  echo "- validation: FAILED, see \`$results/$name.validate.txt\`; nothing is compared" >> "$summary"
  verdict=1
elif [ -z "$last" ]; then
  echo "- validation: valid" >> "$summary"
  echo "- comparison: no earlier valid nightly in \`$results\`: no verdict" >> "$summary"
else
  echo "- validation: valid" >> "$summary"
  allow=(--threshold "$threshold")
  [ "$plant" != 0 ] && allow+=(--allow-different-settings)
  set +e
  "$jbench" compare "$last" "$bundle" "${allow[@]}" > "$results/$name.compare.txt"
  verdict=$?
  "$jbench" compare "$last" "$bundle" "${allow[@]}" --json --html "$results/$name.compare.html" \
    > "$results/$name.compare.json"
  set -e
  line=$(tail -1 "$results/$name.compare.txt")
  echo "- comparison with \`$last\`: **$line** (exit $verdict)" >> "$summary"
  measured=$(grep -E '^w[0-9]' "$results/$name.compare.txt" | awk '{print $1}' | sort -u | tr '\n' ' ' || true)
  echo "- cells compared: ${measured:-none}" >> "$summary"
  regressed=$(grep -E '^w[0-9].* regressed$' "$results/$name.compare.txt" | awk '{print $1 " " $2}' | tr '\n' ';' || true)
  [ -n "$regressed" ] && echo "- regressed: $regressed" >> "$summary"
fi
set +e
"$jbench" history "$results" > "$results/history.txt"
"$jbench" history "$results" --json --html "$results/history.html" > "$results/history.json"
set -e
echo "- history over \`$results\`: $(tail -1 "$results/history.txt")" >> "$summary"
details="\`$results/$name.compare.txt\`"
[ -f "$results/$name.compare.html" ] && details="$details, \`$results/$name.compare.html\`"
details="$details, \`$results/history.txt\`"
[ -f "$results/history.html" ] && details="$details, \`$results/history.html\`"
echo "- details: $details" >> "$summary"
cat "$summary"
if [ "$run_status" -ne 0 ] && [ "$verdict" -eq 0 ]; then verdict=1; fi
exit "$verdict"
