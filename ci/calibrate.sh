#!/usr/bin/env bash
# Calibrates the nightly comparison on this host with real runs. Runs the nightly matrix 1 + 2K
# times into a scratch folder: a base night, then K pairs of
#   - an unplanted night, compared with the unplanted night before it (A/A: the same build twice,
#     so every regressed or improved row is a false alarm), and
#   - a planted night, the same matrix with a busy wait per operation sized to slow the 1-worker
#     writer cell by --slowdown (measured on the base night), compared with the unplanted night
#     just before it (a row of a writer cell called regressed is a detection).
# Then prints the false-alarm share over every A/A row and cell, and the share of planted nights
# in which a writer cell was found — the real-run check of the power the simulation in
# tests/compare/calibration_test.cpp predicts.
#
#   bash ci/calibrate.sh [--nights K] [--slowdown 0.05] [--matrix FILE] [--out DIR]
#                        [--threshold X] [--fdr Q] [--interleave S]
#
# --interleave S compares interleaved sessions instead of separate nights: each side of a pair is
# a folder of S sessions of the matrix at 1/S of its repetitions, the two sides' sessions
# alternating (ABAB…, then BABA… in the next pair), and `jbench compare` pools each folder. This
# is the check of whether alternating sessions cancels the host's drift between sessions.
#
# Defaults: K = 3, slowdown 0.05, matrices/nightly.yaml, a fresh folder under /tmp, the threshold
# and FDR ci/nightly.sh uses. One night takes what the matrix takes (about two minutes for the
# nightly matrix on 2 cores), so the default calibration takes about fifteen. Run it on a host
# doing nothing else: it measures the host as much as the tool. JBENCH_CALIBRATE_NO_BUILD=1
# skips the build. Exit 0 when the A/A false-alarm share is at most 5% of cells and every planted
# night was found, 1 otherwise, 2 bad usage.
set -euo pipefail
cd "$(dirname "$0")/.."
nights=3
slowdown=0.05
matrix=matrices/nightly.yaml
out=""
threshold=0.03
fdr=0.05
interleave=0
while [ $# -gt 0 ]; do
  case "$1" in
    --nights) nights="$2"; shift 2 ;;
    --slowdown) slowdown="$2"; shift 2 ;;
    --matrix) matrix="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --threshold) threshold="$2"; shift 2 ;;
    --fdr) fdr="$2"; shift 2 ;;
    --interleave) interleave="$2"; shift 2 ;;
    *) echo "calibrate: unknown option $1 (see the head of ci/calibrate.sh)" >&2; exit 2 ;;
  esac
done
grep -q "plant_delay_ns: 0" "$matrix" ||
  { echo "calibrate: $matrix has no 'plant_delay_ns: 0' to plant into" >&2; exit 2; }
jbench="${BUILD_DIR:-build}/bin/jbench"
if [ "${JBENCH_CALIBRATE_NO_BUILD:-0}" != 1 ]; then
  bash ci/build.sh jbench jbench-sqlite-worker jbench_bridge_shared jbench_alloc_preload \
    jbench-ledger-worker >&2
fi
[ -n "$out" ] || out=$(mktemp -d /tmp/jbench-calibrate-XXXXXX)
mkdir -p "$out"
started=$(date +%s)

night() {  # night NAME MATRIX: one run of the matrix into $out/NAME; its bundle on stdout
  local name="$1" m="$2" done_nights="$3" total=$((1 + 2 * nights))
  local eta=""
  if [ "$done_nights" -gt 0 ]; then
    local per=$(( ($(date +%s) - started) / done_nights ))
    eta=", about $(( per * (total - done_nights) / 60 + 1 )) min left"
  fi
  echo "calibrate: night $((done_nights + 1))/$total: $name$eta" >&2
  "$jbench" run "$m" --out "$out" --name "$name" > "$out/$name.log" 2>&1 || true
  { ls -1d "$out/$name" "$out/$name".* 2>/dev/null || true; } | { grep -vE '\.(log|txt)$' || true; } | head -1
}

# Rows of a comparison's table (lines that start with a cell), and the cells among them, whose
# line also matches $2.
count_rows() { { grep -E "^w[0-9].*$2" "$1" || true; } | wc -l; }
count_cells() { { grep -E "^w[0-9].*$2" "$1" || true; } | awk '{print $1}' | sort -u | wc -l; }

# The 1-worker writer cell's median time per operation on a bundle, in ns.
writer_ns_per_op() {
  grep -ho '"throughput_ops_per_s": [0-9.e+]*' "$1"/runs/w1.*.writer.*/summary.json |
    awk '{print $2}' | sort -g | awk '{v[NR]=$1} END {m=(NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2; printf "%.0f", 1e9/m}'
}

base=$(night base "$matrix" 0)
"$jbench" validate "$base" > /dev/null || { echo "calibrate: the base night is invalid: $base" >&2; exit 1; }
per_op=$(writer_ns_per_op "$base")
# A busy wait of d per operation turns t into t + d: a slowdown s needs d = t * s / (1 - s).
delay=$(awk -v t="$per_op" -v s="$slowdown" 'BEGIN {printf "%.0f", t * s / (1 - s)}')
planted_matrix="$(dirname "$matrix")/.calibrate-$(basename "$matrix")"
sed "s/plant_delay_ns: 0/plant_delay_ns: $delay/" "$matrix" > "$planted_matrix"
echo "calibrate: the 1-worker writer takes $per_op ns per operation; planting $delay ns" >&2

# Interleaved: the matrix at 1/S of its repetitions, unplanted and planted.
reps=$(awk '/^repetitions:/ {print $2; exit}' "$matrix")
session_matrix="$(dirname "$matrix")/.calibrate-session-$(basename "$matrix")"
planted_session_matrix="$(dirname "$matrix")/.calibrate-planted-session-$(basename "$matrix")"
trap 'rm -f "$planted_matrix" "$session_matrix" "$planted_session_matrix"' EXIT
if [ "$interleave" -gt 0 ]; then
  per=$(( (reps + interleave - 1) / interleave ))
  # Without the correctness pass: it is not what is calibrated, and twelve of them per pair add up.
  sed -e "s/^repetitions: .*/repetitions: $per/" -e "/^oracle:/d" "$matrix" > "$session_matrix"
  sed -e "s/^repetitions: .*/repetitions: $per/" -e "/^oracle:/d" "$planted_matrix" > "$planted_session_matrix"
  echo "calibrate: interleaving $interleave sessions of $per repetitions per side" >&2
fi

# pair NAME MATRIX_A MATRIX_B FIRST: S sessions of each matrix, alternating, into NAME/base and
# NAME/candidate (the candidate first when FIRST is b); the folder NAME on stdout.
pair() {
  local name="$1" ma="$2" mb="$3" first="$4" k
  mkdir -p "$out/$name/base" "$out/$name/candidate"
  for k in $(seq 1 "$interleave"); do
    local order="a b" offset=0
    [ "$first" = b ] && offset=1
    # ABBA ABBA…: a drift that is linear over a pair of sessions falls on both sides alike.
    if [ $(( (k + offset) % 2 )) -eq 0 ]; then order="b a"; fi
    for side in $order; do
      local m="$ma" dir="$out/$name/base"
      [ "$side" = b ] && m="$mb" dir="$out/$name/candidate"
      echo "calibrate: $name session $k/$interleave ($([ "$side" = a ] && echo base || echo candidate))" >&2
      "$jbench" run "$m" --out "$dir" --name "s$k" > "$dir/s$k.log" 2>&1 || true
    done
  done
  echo "$out/$name"
}

aa_rows=0; aa_flagged_rows=0; aa_cells=0; aa_flagged_cells=0; found=0; planted_nights=0
previous="$base"
done_nights=1
table="$out/calibration.txt"
: > "$table"
for i in $(seq 1 "$nights"); do
  first=a; [ $((i % 2)) -eq 0 ] && first=b
  if [ "$interleave" -gt 0 ]; then
    pooled=$(pair "aa-$i" "$session_matrix" "$session_matrix" "$first")
    "$jbench" compare "$pooled/base" "$pooled/candidate" --threshold "$threshold" --fdr "$fdr" \
      > "$out/aa-$i.compare.txt" || true
  else
    a=$(night "aa-$i" "$matrix" "$done_nights"); done_nights=$((done_nights + 1))
    "$jbench" compare "$previous" "$a" --threshold "$threshold" --fdr "$fdr" > "$out/aa-$i.compare.txt" || true
  fi
  rows=$(count_rows "$out/aa-$i.compare.txt" '')
  flagged=$(count_rows "$out/aa-$i.compare.txt" ' (regressed|improved)$')
  cells=$(count_cells "$out/aa-$i.compare.txt" '')
  flagged_cells=$(count_cells "$out/aa-$i.compare.txt" ' (regressed|improved)$')
  echo "A/A $i: $flagged of $rows rows, $flagged_cells of $cells cells flagged ($(tail -1 "$out/aa-$i.compare.txt"))" | tee -a "$table" >&2
  aa_rows=$((aa_rows + rows)); aa_flagged_rows=$((aa_flagged_rows + flagged))
  aa_cells=$((aa_cells + cells)); aa_flagged_cells=$((aa_flagged_cells + flagged_cells))

  if [ "$interleave" -gt 0 ]; then
    pooled=$(pair "planted-$i" "$session_matrix" "$planted_session_matrix" "$first")
    "$jbench" compare "$pooled/base" "$pooled/candidate" --threshold "$threshold" --fdr "$fdr" \
      --allow-different-settings > "$out/planted-$i.compare.txt" || true
  else
    p=$(night "planted-$i" "$planted_matrix" "$done_nights"); done_nights=$((done_nights + 1))
    "$jbench" compare "$a" "$p" --threshold "$threshold" --fdr "$fdr" --allow-different-settings \
      > "$out/planted-$i.compare.txt" || true
  fi
  regressed=$({ grep -E '^w[0-9]+\.[a-z]+\.writer\..* regressed$' "$out/planted-$i.compare.txt" ||
    true; } | awk '{print $1 " " $2}' | tr '\n' ';')
  planted_nights=$((planted_nights + 1))
  if [ -n "$regressed" ]; then found=$((found + 1)); fi
  echo "planted $i: ${regressed:-no writer row regressed} ($(tail -1 "$out/planted-$i.compare.txt"))" | tee -a "$table" >&2
  [ "$interleave" -gt 0 ] || previous="$a"
done

{
  echo
  how="$nights separate nights each"
  [ "$interleave" -gt 0 ] && how="$nights pairs each of $interleave interleaved sessions per side"
  echo "calibration of $matrix on $(hostname), threshold $threshold, FDR $fdr, $how:"
  echo "  A/A: $aa_flagged_rows of $aa_rows cell metrics and $aa_flagged_cells of $aa_cells cells flagged"
  echo "  planted ${slowdown} slowdown of the 1-worker writer ($delay ns per operation): found in $found of $planted_nights nights"
  echo "  bundles and comparisons: $out"
} | tee -a "$table"
if [ $((aa_flagged_cells * 20)) -le "$aa_cells" ] && [ "$found" -eq "$planted_nights" ]; then exit 0; fi
exit 1
