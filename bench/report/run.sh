#!/usr/bin/env bash
# The report benchmark (docs/attribution.md, "Reading speed"): a full-mode bundle of 110 runs and
# more than 5 million syscall records (bench/report/report-bench.yaml, a few minutes to make),
# then `jbench report` on it three times, warm, and once after the page cache is dropped (root
# only), each with its wall time and peak RSS; and `jbench export --format chrome-json` on the
# same bundle with its events per second. Usage: bash bench/report/run.sh [BUNDLES_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
jbench="$root/build/bin/jbench"
out="${1:-$root/bundles}"
bundle="$out/report-bench"
if [[ ! -d "$bundle" ]]; then
  "$jbench" run "$here/report-bench.yaml" --out "$out" --name report-bench >/dev/null
fi
records=$(cat "$bundle"/runs/*/raw/syscall.events.jsonl | grep -c '"type":"syscall"' || true)
echo "bundle: $bundle ($(du -sh "$bundle" | cut -f1), $records syscall records)"
measure() {
  /usr/bin/time -f "%e s wall, %M KiB peak RSS" "$@" 2>&1 >/dev/null | tail -1
}
for i in 1 2 3; do echo "report, warm, run $i: $(measure "$jbench" report "$bundle")"; done
if [[ $EUID -eq 0 ]]; then
  sync && echo 3 >/proc/sys/vm/drop_caches
  echo "report, cold page cache: $(measure "$jbench" report "$bundle")"
fi
for i in 1 2 3; do
  start=$(date +%s.%N)
  "$jbench" export "$bundle" --format chrome-json --out /tmp/report-bench.trace.json 2>/dev/null
  end=$(date +%s.%N)
  events=$(python3 -c "import json;print(json.load(open('/tmp/report-bench.trace.json'))['otherData']['events_written'])")
  echo "export, run $i: $events events in $(python3 -c "print(f'{$end-$start:.2f}')") s: $(python3 -c "print(f'{$events/($end-$start)/1e6:.2f}')") M events/s"
done
rm -f /tmp/report-bench.trace.json
