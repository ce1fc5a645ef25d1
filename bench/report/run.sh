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
# The records are kept compressed (syscall.events.jsonl.zst); a bundle of an earlier version holds
# them as text.
records=$(zstdcat -qf "$bundle"/runs/*/raw/syscall.events.jsonl* | grep -c '"type":"syscall"' || true)
echo "bundle: $bundle ($(du -sLh "$bundle" | cut -f1), $records syscall records)"
measure() {
  /usr/bin/time -f "%e s wall, %M KiB peak RSS" "$@" 2>&1 >/dev/null | tail -1
}
for i in 1 2 3; do echo "report, warm, run $i: $(measure "$jbench" report "$bundle")"; done
if [[ $EUID -eq 0 ]]; then
  sync && echo 3 >/proc/sys/vm/drop_caches
  echo "report, cold page cache: $(measure "$jbench" report "$bundle")"
fi
# The whole bundle, uncut (its 5 million calls and 2 million span events exceed the default
# --max-events, whose cut takes counting passes first; the last line times that).
export_once() {
  start=$(date +%s.%N)
  "$jbench" export "$bundle" --format chrome-json --out /tmp/report-bench.trace.json "$@" 2>/dev/null
  end=$(date +%s.%N)
  events=$(python3 -c "import json;print(json.load(open('/tmp/report-bench.trace.json'))['otherData']['events_written'])")
  echo "$events events in $(python3 -c "print(f'{$end-$start:.2f}')") s: $(python3 -c "print(f'{$events/($end-$start)/1e6:.2f}')") M events/s"
}
for i in 1 2 3; do echo "export, uncut, run $i: $(export_once --max-events 100000000)"; done
echo "export, cut at the default --max-events: $(export_once)"
rm -f /tmp/report-bench.trace.json
