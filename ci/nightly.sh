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
#                        a slowdown: the comparison then runs across that one setting and says
#                        so). The planted bundle goes to DIR/planted/: it is compared with the
#                        last nightly but is never the base of a later night nor a point of the
#                        history, since it measured another setting.
#   --threshold X        a relative change smaller than X is not a regression (default 0.03, as
#                        `jbench compare`; ci/calibrate.sh measures what this host can tell apart)
#
# JBENCH_NIGHTLY_NO_BUILD=1 skips the build (a caller that has just built, like the tests).
# Writes into DIR (DIR/planted for a planted night): the new bundle,
# <bundle>.compare.txt/.json/.html; into DIR: history.txt/.json/.html
# (the .html ones are self-contained pages to open in a browser), and <bundle>.summary.md (also
# printed). Exit codes, as `jbench compare`: 0 no regression among the measured cells, 1 a
# regression (or the run or its bundle failed), 4 no verdict (the first night, or nothing
# comparable), 2 bad usage.
set -euo pipefail
cd "$(dirname "$0")/.."
results=results/nightly
matrix=matrices/nightly.yaml
plant=0
threshold=0.03
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
stamp="$(date -u +%Y%m%dT%H%M%SZ)"
name="nightly-$stamp"
out="$results"
run_matrix="$matrix"
if [ "$plant" != 0 ]; then
  name="planted-$stamp"
  out="$results/planted"
  mkdir -p "$out"
  # The same matrix with one setting changed, beside it so its relative paths still hold.
  run_matrix="$(dirname "$matrix")/.planted-$(basename "$matrix")"
  sed "s/plant_delay_ns: 0/plant_delay_ns: $plant/" "$matrix" > "$run_matrix"
  grep -q "plant_delay_ns: $plant" "$run_matrix" ||
    { echo "nightly: $matrix has no 'plant_delay_ns: 0' to plant into" >&2; rm -f "$run_matrix"; exit 2; }
fi
# The last valid nightly before this one: the newest bundle `jbench validate` accepts.
last=""
for b in $(ls -1d "$results"/nightly-* 2>/dev/null | sort -r); do
  case "$(basename "$b")" in *.*) continue ;; esac  # .invalid, .interrupted, the summaries
  [ -d "$b" ] || continue
  if "$jbench" validate "$b" > /dev/null 2>&1; then last="$b"; break; fi
done

echo "nightly: running $run_matrix into $out/$name" >&2
set +e
"$jbench" run "$run_matrix" --out "$out" --name "$name"
run_status=$?
set -e
if [ "$plant" != 0 ]; then rm -f "$run_matrix"; fi
bundle=$({ ls -1d "$out/$name" "$out/$name".* 2>/dev/null || true; } | head -1)
summary="$out/$name.summary.md"
{
  echo "# Nightly $name"
  echo
  echo "- matrix: \`$matrix\`$([ "$plant" != 0 ] && echo " with plant_delay_ns: $plant")"
  echo "- bundle: \`$bundle\` (\`jbench run\` exit $run_status)"
  if [ "$plant" != 0 ]; then
    echo "- planted: kept in \`$out\`; never the base of a later night nor a point of the history"
  fi
} > "$summary"
verdict=4
if [ -z "$bundle" ] || ! "$jbench" validate "$bundle" > "$out/$name.validate.txt" 2>&1; then
  echo "- validation: FAILED, see \`$out/$name.validate.txt\`; nothing is compared" >> "$summary"
  verdict=1
elif [ -z "$last" ]; then
  echo "- validation: valid" >> "$summary"
  echo "- comparison: no earlier valid nightly in \`$results\`: no verdict" >> "$summary"
else
  echo "- validation: valid" >> "$summary"
  allow=(--threshold "$threshold")
  [ "$plant" != 0 ] && allow+=(--allow-different-settings)
  set +e
  "$jbench" compare "$last" "$bundle" "${allow[@]}" > "$out/$name.compare.txt"
  verdict=$?
  "$jbench" compare "$last" "$bundle" "${allow[@]}" --json --html "$out/$name.compare.html" \
    > "$out/$name.compare.json"
  set -e
  line=$(tail -1 "$out/$name.compare.txt")
  echo "- comparison with \`$last\`: **$line** (exit $verdict)" >> "$summary"
  note=$({ grep '^note: ' "$out/$name.compare.txt" || true; } | sed 's/^note: //')
  [ -n "$note" ] && echo "- note: $note" >> "$summary"
  measured=$(grep -E '^w[0-9]' "$out/$name.compare.txt" | awk '{print $1}' | sort -u | tr '\n' ' ' || true)
  echo "- cells compared: ${measured:-none}" >> "$summary"
  regressed=$(grep -E '^w[0-9].* regressed$' "$out/$name.compare.txt" | awk '{print $1 " " $2}' | tr '\n' ';' || true)
  [ -n "$regressed" ] && echo "- regressed: $regressed" >> "$summary"
fi
set +e
"$jbench" history "$results" > "$results/history.txt"
"$jbench" history "$results" --json --html "$results/history.html" > "$results/history.json"
set -e
echo "- history over \`$results\`: $(tail -1 "$results/history.txt")" >> "$summary"
details=""
for f in "$out/$name.compare.txt" "$out/$name.compare.html"; do
  [ -f "$f" ] && details="$details\`$f\`, "
done
details="$details\`$results/history.txt\`"
[ -f "$results/history.html" ] && details="$details, \`$results/history.html\`"
echo "- details: $details" >> "$summary"
cat "$summary"
if [ "$run_status" -ne 0 ] && [ "$verdict" -eq 0 ]; then verdict=1; fi
exit "$verdict"
