#!/usr/bin/env bash
# `jbench slurm --submit --wait` on a real single-node Slurm (local-slurm.sh): a 2-task job array
# of tests/fixtures/merge/shards.yaml and its dependent merge leave one merged bundle that
# `jbench validate` accepts; then an array of which only task 0 ran leaves a merge job that fails
# naming the missing shard, rather than nothing. Exit 77 (skipped, with the reason on stderr)
# only when the daemons cannot start here. Every wait is bounded; the daemons and their jobs are
# stopped on every way out.
#
#   slurm_array_test.sh JBENCH SOURCE_DIR
set -euo pipefail

jbench=$1
source_dir=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Short on purpose: slurmstepd's socket path under the state dir must fit a socket address.
state=$(mktemp -d /tmp/jbench-slurm.XXXXXX)
out=$(mktemp -d /tmp/jbench-slurm-out.XXXXXX)
cleanup() {
  bash "$here/local-slurm.sh" stop "$state" >/dev/null 2>&1 || true
  rm -rf "$state" "$out"
}
trap cleanup EXIT

fail() {
  echo "slurm_array_test: FAIL: $*" >&2
  for f in "$out"/*.slurm/logs/*.out; do
    [ -f "$f" ] && { echo "--- $f" >&2; tail -n 20 "$f" >&2; }
  done
  exit 1
}

set +e
env_lines=$(bash "$here/local-slurm.sh" start "$state" 2>"$out/start.stderr")
started=$?
set -e
if [ "$started" -eq 77 ]; then
  echo "slurm_array_test: skipped: $(grep 'cannot start' "$out/start.stderr" | tail -n 1)" >&2
  exit 77
fi
cat "$out/start.stderr" >&2
[ "$started" -eq 0 ] || fail "local-slurm.sh start exited $started"
while IFS= read -r line; do export "${line?}"; done <<<"$env_lines"
[ -n "${SLURM_CONF:-}" ] || fail "local-slurm.sh printed no SLURM_CONF"

matrix="$source_dir/tests/fixtures/merge/shards.yaml"

# 1. The whole path: write the scripts, submit the array and the merge, wait for the merge.
set +e
timeout 300 "$jbench" slurm "$matrix" --shards 2 --out "$out" --name whole --time 4 \
  --merge-time 2 --submit --wait >"$out/whole.stdout" 2>"$out/whole.stderr"
rc=$?
set -e
cat "$out/whole.stderr" >&2
[ "$rc" -eq 0 ] || fail "jbench slurm --submit --wait exited $rc"
[ "$(cat "$out/whole.stdout")" = "$out/whole" ] || fail "stdout is not the merged bundle's path"
"$jbench" validate "$out/whole" >&2 || fail "the merged bundle does not validate"
grep -q '"shard_count": 2' "$out/whole/manifest.json" || fail "the merged manifest is not of 2 shards"
for k in 0 1; do
  [ -d "$out/whole.slurm/shards/shard-$k" ] || fail "no bundle of shard $k"
  [ -s "$out/whole.slurm/logs/shard-$k.out" ] || fail "array task $k left no log"
done
# Slurm's own record (JobCompType=jobcomp/filetxt): the array's 2 tasks and the merge ended well.
completed=$(grep -c ' Name=whole[a-z-]* JobState=COMPLETED .* ExitCode=0:0' "$state/jobcomp.txt" || true)
merged=$(grep -c ' Name=whole-merge JobState=COMPLETED .* ExitCode=0:0' "$state/jobcomp.txt" || true)
[ "$completed" -eq 3 ] && [ "$merged" -eq 1 ] ||
  fail "jobcomp.txt records $completed completed jobs named whole* (3 expected), $merged merges"

# 2. A shard that never ran: only task 0 of the array, then the merge, which must fail and say so.
"$jbench" slurm "$matrix" --shards 2 --out "$out" --name partial --time 4 --merge-time 2 \
  >/dev/null 2>&1 || fail "jbench slurm (writing only) failed"
array_id=$(sbatch --parsable --array=0 "$out/partial.slurm/array.sbatch")
set +e
timeout 240 sbatch --parsable --wait --dependency="afterany:${array_id%%;*}" \
  --kill-on-invalid-dep=no "$out/partial.slurm/merge.sbatch" >/dev/null
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "the merge of a partial array exited $rc, not 1"
grep -q 'merge.missing_shard  shard 1/2 is missing' "$out/partial.slurm/logs/merge.out" ||
  fail "the merge's log does not name the missing shard"
[ ! -e "$out/partial" ] || fail "a refused merge left a bundle"
echo "slurm_array_test: ok" >&2
