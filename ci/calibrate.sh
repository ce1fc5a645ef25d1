#!/usr/bin/env bash
# Calibrates the nightly job on this host with real runs: runs ci/nightly.sh itself 1 + 2K times
# into a scratch results folder — a first night, then K pairs of
#   - an unplanted night: this build beside the last night's, which is the same build, so every
#     regressed or improved row of its comparison is a false alarm (A/A), and
#   - a planted night: the same build with a busy wait per operation sized to slow the 1-worker
#     writer cell by --slowdown (measured on the first night), beside the last unplanted night's
#     build (a writer row called regressed is a detection).
# Then prints the false-alarm share over every A/A row and cell, and the share of planted nights
# in which a writer cell was found — the real-run check of the power the simulation in
# tests/compare/nightly_power_test.cpp predicts.
#
#   bash ci/calibrate.sh [--nights K] [--slowdown 0.05] [--matrix FILE] [--out DIR]
#                        [--threshold X] [--sessions S]
#
# Defaults: K = 3, slowdown 0.05, and the nightly's own matrix, threshold and sessions; a fresh
# folder under /tmp. One night takes what the nightly takes (about ten minutes for the nightly
# matrix on 2 cores, the first night half of that), so the default calibration takes about an
# hour. Run it on a host doing nothing else: it measures the host as much as
# the tool. JBENCH_CALIBRATE_NO_BUILD=1 skips the build. Exit 0 when the A/A false-alarm share
# is at most 5% of cells and every planted night was found, 1 otherwise, 2 bad usage.
set -euo pipefail
cd "$(dirname "$0")/.."
nights=3
slowdown=0.05
matrix=matrices/nightly.yaml
out=""
nightly_options=()
while [ $# -gt 0 ]; do
  case "$1" in
    --nights) nights="$2"; shift 2 ;;
    --slowdown) slowdown="$2"; shift 2 ;;
    --matrix) matrix="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --threshold | --sessions) nightly_options+=("$1" "$2"); shift 2 ;;
    *) echo "calibrate: unknown option $1 (see the head of ci/calibrate.sh)" >&2; exit 2 ;;
  esac
done
grep -q "plant_delay_ns: 0" "$matrix" ||
  { echo "calibrate: $matrix has no 'plant_delay_ns: 0' to plant into" >&2; exit 2; }
if [ "${JBENCH_CALIBRATE_NO_BUILD:-0}" != 1 ]; then
  bash ci/build.sh jbench jbench-compare jbench-history jbench-sqlite-worker jbench_bridge_shared \
    jbench_alloc_preload jbench-ledger-worker >&2
fi
[ -n "$out" ] || out=$(mktemp -d /tmp/jbench-calibrate-XXXXXX)
mkdir -p "$out"
started=$(date +%s)
total=$((1 + 2 * nights))
done_nights=0

# night [OPTIONS...]: one night of ci/nightly.sh into $out; its summary is kept beside the log.
night() {
  local eta=""
  if [ "$done_nights" -gt 0 ]; then
    eta=", about $(( ($(date +%s) - started) * (total - done_nights) / done_nights / 60 + 1 )) min left"
  fi
  echo "calibrate: night $((done_nights + 1))/$total$eta" >&2
  JBENCH_NIGHTLY_NO_BUILD=1 bash ci/nightly.sh --results "$out" --matrix "$matrix" \
    ${nightly_options[@]+"${nightly_options[@]}"} "$@" >> "$out/calibrate.log" 2>&1 || true
  done_nights=$((done_nights + 1))
}
newest() { { ls -1d $1 2>/dev/null || true; } | sort | tail -1; }

# Rows of a comparison's table (lines that start with a cell), and the cells among them, whose
# line also matches $2.
count_rows() { { grep -E "^w[0-9].*$2" "$1" || true; } | wc -l; }
count_cells() { { grep -E "^w[0-9].*$2" "$1" || true; } | awk '{print $1}' | sort -u | wc -l; }

# The 1-worker writer cell's median time per operation over a night's sessions, in ns.
writer_ns_per_op() {
  grep -ho '"throughput_ops_per_s": [0-9.e+]*' "$1"/s[0-9]*/runs/w1.*.writer.*/summary.json |
    awk '{print $2}' | sort -g | awk '{v[NR]=$1} END {m=(NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2; printf "%.0f", 1e9/m}'
}

night
first=$(newest "$out/nightly-*[0-9]Z")
[ -n "$first" ] && [ -f "$first/night.json" ] ||
  { echo "calibrate: the first night left no night (see $out/calibrate.log)" >&2; exit 1; }
per_op=$(writer_ns_per_op "$first")
# A busy wait of d per operation turns t into t + d: a slowdown s needs d = t * s / (1 - s).
delay=$(awk -v t="$per_op" -v s="$slowdown" 'BEGIN {printf "%.0f", t * s / (1 - s)}')
echo "calibrate: the 1-worker writer takes $per_op ns per operation; planting $delay ns" >&2

aa_rows=0; aa_flagged_rows=0; aa_cells=0; aa_flagged_cells=0; found=0; planted_nights=0
table="$out/calibration.txt"
: > "$table"
for i in $(seq 1 "$nights"); do
  night
  aa=$(newest "$out/nightly-*.compare.txt")
  [ -n "$aa" ] || { echo "calibrate: A/A night $i compared nothing (see $out/calibrate.log)" >&2; exit 1; }
  rows=$(count_rows "$aa" '')
  flagged=$(count_rows "$aa" ' (regressed|improved)$')
  cells=$(count_cells "$aa" '')
  flagged_cells=$(count_cells "$aa" ' (regressed|improved)$')
  echo "A/A $i: $flagged of $rows rows, $flagged_cells of $cells cells flagged ($(tail -1 "$aa"))" | tee -a "$table" >&2
  aa_rows=$((aa_rows + rows)); aa_flagged_rows=$((aa_flagged_rows + flagged))
  aa_cells=$((aa_cells + cells)); aa_flagged_cells=$((aa_flagged_cells + flagged_cells))

  night --plant-delay-ns "$delay"
  planted=$(newest "$out/planted/planted-*.compare.txt")
  [ -n "$planted" ] || { echo "calibrate: planted night $i compared nothing (see $out/calibrate.log)" >&2; exit 1; }
  regressed=$({ grep -E '^w[0-9]+\.[a-z]+\.writer\..* regressed$' "$planted" || true; } |
    awk '{print $1 " " $2}' | tr '\n' ';')
  planted_nights=$((planted_nights + 1))
  if [ -n "$regressed" ]; then found=$((found + 1)); fi
  echo "planted $i: ${regressed:-no writer row regressed} ($(tail -1 "$planted"))" | tee -a "$table" >&2
done

{
  echo
  echo "calibration of $matrix on $(hostname) by ci/nightly.sh ${nightly_options[*]:-(its defaults)}, $nights pairs of nights:"
  echo "  A/A: $aa_flagged_rows of $aa_rows cell metrics and $aa_flagged_cells of $aa_cells cells flagged"
  echo "  planted ${slowdown} slowdown of the 1-worker writer ($delay ns per operation): found in $found of $planted_nights nights"
  echo "  nights and comparisons: $out"
  # Each metric's own threshold, its A/A noise on this host: the unplanted nights' reports.
  echo "  per-metric thresholds from these A/A nights: bash ci/nightly.sh$(for f in "$out"/nightly-*.compare.json; do
    [ -f "$f" ] && printf ' --thresholds-from %s' "$f"; done)"
} | tee -a "$table"
if [ $((aa_flagged_cells * 20)) -le "$aa_cells" ] && [ "$found" -eq "$planted_nights" ]; then exit 0; fi
exit 1
