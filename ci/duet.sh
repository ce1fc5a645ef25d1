#!/usr/bin/env bash
# A duet (docs/compare.md, "Duet"): the base and the candidate run at the same time, each pinned
# to its own CPU, so that what the host does during a run — another tenant, a noisy neighbour, the
# disk — falls on both; `jbench compare --pair-by-time` then compares each base run with the
# candidate run that measured beside it. The CPUs are not alike (one takes more interrupts), so
# the duet is played twice with the CPUs swapped, and the pairs of both halves are pooled.
#
#   bash ci/duet.sh BASE.yaml CANDIDATE.yaml [--out DIR] [--cpus A,B]
#                   [--base-worker-dir D] [--candidate-worker-dir D] [--repetitions N]
#
#   BASE.yaml, CANDIDATE.yaml  two matrices of the same cells, seed and order (settings may differ)
#   --out DIR        where the sessions go: DIR/base/h1, h2 and DIR/candidate/h1, h2, then
#                    DIR/compare.txt and compare.json (default: a fresh folder under /tmp)
#   --cpus A,B       the two CPUs (default 0,1): the first half runs the base on A
#   --base-worker-dir, --candidate-worker-dir  another build's workers for that side
#   --repetitions N  each half's repetitions (default: the matrix's)
#
# The two sessions of a half meet before each measure phase (jbench run --lockstep), so each
# base run measures while its candidate run does, however the sides drift between runs.
# Exit codes are compare's (0 no regression, 1 a regression, 4 no verdict), or 1 when a session
# failed, 2 bad usage. Both sides' sessions are kept, whatever the outcome.
set -euo pipefail
here="$PWD"
cd "$(dirname "$0")/.."
die() { echo "duet: $1" >&2; exit 2; }
[ $# -ge 2 ] || die "usage: bash ci/duet.sh BASE.yaml CANDIDATE.yaml [options] (see its head)"
base_matrix="$(cd "$here" && realpath -m "$1")"
cand_matrix="$(cd "$here" && realpath -m "$2")"
shift 2
out="" cpus="0,1" base_args=() cand_args=() common=()
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || die "$1 wants a value (see the head of ci/duet.sh)"
  case "$1" in
    --out) out="$(cd "$here" && realpath -m "$2")" ;;
    --cpus) cpus="$2" ;;
    --base-worker-dir) base_args+=(--worker-dir "$(cd "$here" && realpath -m "$2")") ;;
    --candidate-worker-dir) cand_args+=(--worker-dir "$(cd "$here" && realpath -m "$2")") ;;
    --repetitions) common+=(--repetitions "$2") ;;
    *) die "unknown option $1 (see the head of ci/duet.sh)" ;;
  esac
  shift 2
done
for m in "$base_matrix" "$cand_matrix"; do [ -f "$m" ] || die "no matrix $m"; done
[[ "$cpus" =~ ^[0-9]+,[0-9]+$ ]] || die "--cpus wants two CPU numbers, A,B, not '$cpus'"
cpu_a="${cpus%,*}" cpu_b="${cpus#*,}"
[ "$cpu_a" != "$cpu_b" ] || die "--cpus wants two different CPUs"
taskset=$(command -v taskset) || die "no taskset (util-linux) on PATH"
[ -n "$out" ] || out=$(mktemp -d /tmp/jbench-duet.XXXXXX)
[ ! -e "$out/base" ] && [ ! -e "$out/candidate" ] && [ ! -e "$out/lockstep-h1" ] ||
  die "$out already holds a duet"
jbench="${BUILD_DIR:-build}/bin/jbench"
[ -x "$jbench" ] || die "no $jbench (build it: bash ci/build.sh jbench jbench-compare)"
mkdir -p "$out/base" "$out/candidate"

status=0
for half in 1 2; do
  base_cpu="$cpu_a" cand_cpu="$cpu_b"
  [ "$half" = 2 ] && base_cpu="$cpu_b" cand_cpu="$cpu_a"
  echo "duet: half $half of 2: the base on CPU $base_cpu, the candidate on CPU $cand_cpu" >&2
  meet="$out/lockstep-h$half"
  "$taskset" -c "$base_cpu" "$jbench" run "$base_matrix" --out "$out/base" --name "h$half" \
    --lockstep "$meet" "${common[@]}" "${base_args[@]}" > "$out/base/h$half.log" 2>&1 &
  base_pid=$!
  "$taskset" -c "$cand_cpu" "$jbench" run "$cand_matrix" --out "$out/candidate" --name "h$half" \
    --lockstep "$meet" "${common[@]}" "${cand_args[@]}" > "$out/candidate/h$half.log" 2>&1 &
  cand_pid=$!
  wait "$base_pid" || { status=1; echo "duet: the base's half $half failed: $out/base/h$half.log" >&2; }
  wait "$cand_pid" || { status=1; echo "duet: the candidate's half $half failed: $out/candidate/h$half.log" >&2; }
done
[ "$status" = 0 ] || exit 1

set +e
"$jbench" compare "$out/base" "$out/candidate" --pair-by-time --allow-different-settings \
  --allow-different-build > "$out/compare.txt" 2>&1
verdict=$?
"$jbench" compare "$out/base" "$out/candidate" --pair-by-time --allow-different-settings \
  --allow-different-build --json > "$out/compare.json" 2> /dev/null
set -e
cat "$out/compare.txt"
echo "duet: the sessions and the comparison are in $out" >&2
exit "$verdict"
