#!/usr/bin/env bash
# The nightly regression job. On a shared host two sessions minutes apart differ by 10-20% in
# every cell (docs/nightly.md, "Calibration"), so a night never compares with last night's runs:
# it runs this build and the build of the last valid night side by side, in interleaved sessions
# (ABBA), validates them, compares the two pooled sides, looks for change points over every
# night, and writes a short markdown summary — keeping every bundle, failed and invalid ones too.
#
#   bash ci/nightly.sh [--results DIR] [--matrix FILE] [--sessions S] [--threshold X]
#                      [--counted-threshold X] [--thresholds-from AA.json ...] [--plant-delay-ns N]
#
#   --results DIR        where the nights live (default: results/nightly)
#   --matrix FILE        the matrix (default: matrices/nightly.yaml)
#   --sessions S         sessions per build, each of 1/S of the matrix's repetitions (default 32:
#                        one repetition each)
#   --threshold X        a relative change smaller than X is neither a regression nor shown to be
#                        the same (default 0.10: what 32 interleaved runs per side can tell apart
#                        on the 2-core host calibrated in docs/nightly.md; ci/calibrate.sh
#                        measures yours)
#   --counted-threshold X  the same for counted metrics (instructions per operation of the
#                        matrix's counted cells, compared pair by pair: one seed counts the same
#                        instructions every time; default 0.005, compare's)
#   --thresholds-from F  give each metric its own threshold, its measured A/A noise, from F: a
#                        night's <night>.compare.json whose two builds were one (repeatable;
#                        ci/calibrate.sh names its A/A nights' reports). See docs/nightly.md.
#   --plant-delay-ns N   plant a known delay per operation in this build's sessions (a check that
#                        the job sees a slowdown: the comparison then runs across that one setting
#                        and says so). The planted night goes to DIR/planted/: it is compared with
#                        the last night's build but is never the base of a later night nor a point
#                        of the history, since it measured another setting.
#
# A night is the folder DIR/nightly-<UTC time>: night.json (what ran), s1..sS (this build's
# sessions: the night's point in the history) and base/s1..sS (the last valid night's build,
# run tonight between them). This build's binaries (the workload's worker and the ledger worker)
# are kept in DIR/builds/<hash prefix> for the nights after; builds no night among the newest
# seven ran are removed.
#
# JBENCH_NIGHTLY_NO_BUILD=1 skips the build (a caller that has just built, like the tests).
# Writes beside the night: <night>.summary.md (also printed), <night>.validate.txt,
# <night>.compare.txt/.json/.html; into DIR: history.txt/.json/.html (the .html ones are
# self-contained pages to open in a browser). Exit codes, as `jbench compare`: 0 no regression
# among the measured cells, 1 a regression (or a session or its bundle failed), 4 no verdict (the
# first night, or nothing comparable), 2 bad usage.
set -euo pipefail
here="$PWD"
cd "$(dirname "$0")/.."
results=results/nightly
matrix=matrices/nightly.yaml
plant=0
threshold=0.10
counted_threshold=0.005
sessions=32
aa_reports=()
die() { echo "nightly: $1" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --results | --matrix | --plant-delay-ns | --threshold | --counted-threshold | --sessions | \
      --thresholds-from)
      [ $# -ge 2 ] || die "$1 wants a value (see the head of ci/nightly.sh)" ;;
    *) die "unknown option $1 (see the head of ci/nightly.sh)" ;;
  esac
  case "$1" in
    # Paths given are the caller's, relative to where the job was started.
    --results) results="$(cd "$here" && realpath -m "$2")"; shift 2 ;;
    --matrix) matrix="$(cd "$here" && realpath -m "$2")"; shift 2 ;;
    --plant-delay-ns) plant="$2"; shift 2 ;;
    --threshold) threshold="$2"; shift 2 ;;
    --counted-threshold) counted_threshold="$2"; shift 2 ;;
    --sessions) sessions="$2"; shift 2 ;;
    --thresholds-from) aa_reports+=("$(cd "$here" && realpath -m "$2")"); shift 2 ;;
  esac
done
# Checked before anything runs: a bad value found after the sessions would waste the night.
case "$sessions" in '' | *[!0-9]* | 0) die "--sessions wants a whole number above 0, not '$sessions'" ;; esac
case "$plant" in '' | *[!0-9]*) die "--plant-delay-ns wants a whole number of ns, not '$plant'" ;; esac
awk -v t="$threshold" 'BEGIN { exit !(t ~ /^[0-9]*\.?[0-9]+$/ && t > 0 && t < 1) }' ||
  die "--threshold wants a fraction between 0 and 1, not '$threshold'"
awk -v t="$counted_threshold" 'BEGIN { exit !(t ~ /^[0-9]*\.?[0-9]+$/ && t > 0 && t < 1) }' ||
  die "--counted-threshold wants a fraction between 0 and 1, not '$counted_threshold'"
# An A/A report (jbench compare --json, as written: indented) whose two sides ran one build.
for f in ${aa_reports[@]+"${aa_reports[@]}"}; do
  [ -f "$f" ] || die "--thresholds-from wants an A/A comparison's JSON report, and $f is not a file"
  grep -q '"schema": "jbench.compare_report"' "$f" ||
    die "--thresholds-from: $f is not a report of jbench compare --json"
  { grep -q '"build_differences": \[\]' "$f" && grep -q '"setting_differences": \[\]' "$f"; } ||
    die "--thresholds-from: $f compares two builds or settings: not an A/A comparison"
done
build_dir="${BUILD_DIR:-build}"
jbench="$build_dir/bin/jbench"
if [ "${JBENCH_NIGHTLY_NO_BUILD:-0}" != 1 ]; then
  bash ci/build.sh jbench jbench-compare jbench-history jbench-sqlite-worker jbench-chez-worker \
    jbench_bridge_shared jbench_alloc_preload jbench-ledger-worker >&2
fi
plan=$("$jbench" plan "$matrix" --json) || die "cannot plan $matrix (above: why)"
kind=$(grep -m1 -o '"kind": *"[^"]*"' <<< "$plan" | cut -d'"' -f4)
reps=$(grep -m1 -o '"repetitions": *[0-9]*' <<< "$plan" | grep -o '[0-9]*$')
per_session=$(( (reps + sessions - 1) / sessions ))

# This build's binaries, kept under a hash of their content so a later night can run them again:
# the workload's worker, and the ledger worker its correctness pass starts beside it.
worker="$build_dir/bin/jbench-$kind-worker"
[ -x "$worker" ] || die "no workload binary $worker (build it: bash ci/build.sh)"
# A worker is kept with what it runs: a binary, or a relocatable launcher and the files it finds
# beside itself in lib/jbench-<kind>/ (the Chez worker's sources and objects) — never a script
# that points into this checkout, which the next commit changes under it.
if [ "$(head -c 4 "$worker" | tail -c 3)" != ELF ] && grep -qF "$PWD/" "$worker"; then
  die "$worker points into the source tree ($PWD): it cannot be kept for the nights after"
fi
payload="$build_dir/lib/jbench-$kind"
kept=("$worker")
[ -x "$build_dir/bin/jbench-ledger-worker" ] && kept+=("$build_dir/bin/jbench-ledger-worker")
mkdir -p "$results/builds"
build=$({
  for f in "${kept[@]}"; do echo "$(sha256sum < "$f" | cut -d' ' -f1) $(basename "$f")"; done
  if [ -d "$payload" ]; then (cd "$payload" && find . -type f | LC_ALL=C sort | xargs sha256sum); fi
} | sha256sum | cut -c1-16)
if [ ! -d "$results/builds/$build" ]; then
  staging="$results/builds/.staging-$build"
  rm -rf "$staging"
  mkdir -p "$staging/bin" "$staging/lib"
  cp "${kept[@]}" "$staging/bin/"
  # Times kept: a compiled object must stay newer than its source, or Chez compiles it again.
  if [ -d "$payload" ]; then cp -a "$payload" "$staging/lib/"; fi
  # Traced modes read the bridge's library beside the worker's folder (lib/ beside bin/).
  { cp -P "$build_dir"/lib/libjbench_bridge.so* "$staging/lib/" 2>/dev/null || true; }
  {
    printf '{"revision": "%s", "kept_utc": "%s", "binaries": {' \
      "$(git rev-parse HEAD 2>/dev/null || echo unknown)" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    sep=""
    for f in "${kept[@]}"; do
      printf '%s"%s": "%s"' "$sep" "$(basename "$f")" "$(sha256sum < "$f" | cut -d' ' -f1)"
      sep=", "
    done
    printf '}}\n'
  } > "$staging/build.json"
  mv "$staging" "$results/builds/$build"
fi

# night_build NIGHT: the build a night ran (from its night.json), or nothing.
night_build() { { grep -o '"build": *"[0-9a-f]*"' "$1/night.json" 2>/dev/null || true; } | head -1 | cut -d'"' -f4; }

# The last valid night: the newest whose sessions all ran and pass `jbench validate`, with its
# build kept. A night cut short (fewer sessions than its night.json names) is not valid.
last=""
last_build=""
for n in $({ ls -1d "$results"/nightly-* 2>/dev/null || true; } | LC_ALL=C sort -r); do
  case "$(basename "$n")" in *.*) continue ;; esac  # the summaries and comparisons beside it
  [ -f "$n/night.json" ] || continue
  planned=$({ grep -o '"sessions": *[0-9]*' "$n/night.json" || true; } | grep -o '[0-9]*$' || true)
  valid_sessions=0
  for s in "$n"/s[0-9]*; do
    case "$s" in *.log) continue ;; esac
    [ -d "$s" ] && "$jbench" validate "$s" > /dev/null 2>&1 || { valid_sessions=-1; break; }
    valid_sessions=$((valid_sessions + 1))
  done
  [ -n "$planned" ] && [ "$valid_sessions" = "$planned" ] || continue
  last="$n"
  last_build=$(night_build "$n")
  break
done
base_reason=""
if [ -z "$last" ]; then
  base_reason="no earlier valid nightly in \`$results\`"
elif [ -z "$last_build" ] || [ ! -x "$results/builds/$last_build/bin/jbench-$kind-worker" ]; then
  base_reason="the build of \`$last\` (${last_build:-not recorded}) is not kept in \`$results/builds\`"
fi

stamp="$(date -u +%Y%m%dT%H%M%SZ)"
name="nightly-$stamp"
out="$results"
run_matrix="$matrix"
cleanup() { :; }
if [ "$plant" != 0 ]; then
  name="planted-$stamp"
  out="$results/planted"
  # The same matrix with one setting changed, beside it so its relative paths still hold.
  run_matrix="$(dirname "$matrix")/.planted-$(basename "$matrix")"
  sed "s/plant_delay_ns: 0/plant_delay_ns: $plant/" "$matrix" > "$run_matrix"
  cleanup() { rm -f "$run_matrix"; }
  grep -q "plant_delay_ns: $plant" "$run_matrix" ||
    { cleanup; die "$matrix has no 'plant_delay_ns: 0' to plant into"; }
fi
# Names are to the second: a second night within the same second gets -02, -03, ... (sorting
# after the first), never the first one's folder.
stamped="$name"
for k in $(seq -w 2 99); do
  [ -e "$out/$name" ] || [ -e "$out/$name.summary.md" ] || break
  name="$stamped-$k"
done
[ -e "$out/$name" ] && die "$out has 99 nights stamped $stamp already"
night="$out/$name"
summary="$out/$name.summary.md"
mkdir -p "$night"
# A night stopped by a signal still says so beside its sessions: kept, never a base.
interrupted() {
  {
    echo "# Nightly $name"
    echo
    echo "- interrupted by $1 after $done_sessions of $total sessions: nothing is compared"
    echo "- sessions so far: \`$night\`"
  } > "$summary"
  cat "$summary"
  exit 1
}
# Sessions in all (this build's, and the base build's when there is one), and those done so far.
total=$sessions
[ -z "$base_reason" ] && total=$((sessions * 2))
done_sessions=0
trap cleanup EXIT
trap 'interrupted SIGINT' INT
trap 'interrupted SIGTERM' TERM
printf '{"schema": "jbench.night", "matrix": "%s", "plant_delay_ns": %s, "build": "%s", "revision": "%s", "sessions": %s, "repetitions_per_session": %s, "base_night": "%s", "base_build": "%s"}\n' \
  "$matrix" "$plant" "$build" "$(git rev-parse HEAD 2>/dev/null || echo unknown)" "$sessions" \
  "$per_session" "$([ -z "$base_reason" ] && echo "$last")" \
  "$([ -z "$base_reason" ] && echo "$last_build")" > "$night/night.json"

# The sessions, ABBA: this build (A) and the base build (B) alternate, each starting every other
# session, so a drift of the host over the night falls on both sides alike.
started=$(date +%s)
run_status=0
session() {  # session SIDE K: one session of SIDE (this | base)
  local side="$1" k="$2" m="$run_matrix" dir="$night" bin="$results/builds/$build/bin" eta=""
  if [ "$side" = base ]; then m="$matrix"; dir="$night/base"; bin="$results/builds/$last_build/bin"; fi
  if [ "$done_sessions" -gt 0 ]; then
    eta=", about $(( ($(date +%s) - started) * (total - done_sessions) / done_sessions / 60 + 1 )) min left"
  fi
  echo "nightly: session $((done_sessions + 1))/$total: $([ "$side" = base ] && echo "the base build $last_build" || echo "this build $build")$eta" >&2
  mkdir -p "$dir"
  local status=0
  "$jbench" run "$m" --repetitions "$per_session" --worker-dir "$bin" --out "$dir" --name "s$k" \
    > "$dir/s$k.log" 2>&1 || status=$?
  if [ "$side" = this ] && [ "$status" -ne 0 ]; then run_status=$status; fi
  done_sessions=$((done_sessions + 1))
}
echo "nightly: $total sessions of $run_matrix into $night" >&2
for k in $(seq 1 "$sessions"); do
  if [ -n "$base_reason" ]; then
    session this "$k"
  elif [ $((k % 2)) -eq 1 ]; then
    session this "$k"; session base "$k"
  else
    session base "$k"; session this "$k"
  fi
done

trap - INT TERM
{
  echo "# Nightly $name"
  echo
  echo "- matrix: \`$matrix\`$([ "$plant" != 0 ] && echo " with plant_delay_ns: $plant")"
  echo "- this build: $build, $sessions sessions of $per_session repetition$([ "$per_session" = 1 ] || echo s) in \`$night\`"
  if [ -z "$base_reason" ]; then
    echo "- base: the build of \`$last\` ($last_build), run tonight between them in \`$night/base\`"
  fi
  if [ "$plant" != 0 ]; then
    echo "- planted: kept in \`$out\`; never the base of a later night nor a point of the history"
  fi
} > "$summary"
verdict=4
valid=1
: > "$out/$name.validate.txt"
for k in $(seq 1 "$sessions"); do
  s=$({ ls -1d "$night/s$k" "$night/s$k".* 2>/dev/null || true; } | { grep -v '\.log$' || true; } | head -1)
  if [ -z "$s" ]; then
    echo "$night/s$k: no bundle (see $night/s$k.log)" >> "$out/$name.validate.txt"
    valid=0
  elif ! "$jbench" validate "$s" >> "$out/$name.validate.txt" 2>&1; then
    valid=0
  fi
done
if [ "$valid" = 0 ]; then
  echo "- validation: FAILED, see \`$out/$name.validate.txt\`; nothing is compared" >> "$summary"
  verdict=1
elif [ -n "$base_reason" ]; then
  echo "- validation: valid ($sessions sessions)" >> "$summary"
  echo "- comparison: $base_reason: no verdict" >> "$summary"
else
  echo "- validation: valid ($sessions sessions)" >> "$summary"
  allow=(--threshold "$threshold" --counted-threshold "$counted_threshold")
  own=""
  for f in ${aa_reports[@]+"${aa_reports[@]}"}; do allow+=(--thresholds-from "$f"); done
  [ ${#aa_reports[@]} -gt 0 ] && own=", each metric's own from ${#aa_reports[@]} A/A report(s)"
  [ "$plant" != 0 ] && allow+=(--allow-different-settings)
  [ "$build" != "$last_build" ] && allow+=(--allow-different-build)
  set +e
  "$jbench" compare "$night/base" "$night" "${allow[@]}" > "$out/$name.compare.txt" 2>&1
  verdict=$?
  "$jbench" compare "$night/base" "$night" "${allow[@]}" --json --html "$out/$name.compare.html" \
    > "$out/$name.compare.json" 2> /dev/null
  set -e
  line=$(tail -1 "$out/$name.compare.txt")
  echo "- comparison with the build of \`$last\`, threshold $threshold (counted metrics $counted_threshold, pair by pair$own): **$line** (exit $verdict)" >> "$summary"
  note=$({ grep '^note: ' "$out/$name.compare.txt" || true; } | sed 's/^note: //')
  [ -n "$note" ] && echo "- note: $note" >> "$summary"
  # Per cell, which metrics had which verdict: what was measured, and what was not settled.
  cells=$({ grep -E '^w[0-9]' "$out/$name.compare.txt" || true; } | awk '
    { cell = $1; v = $NF; if (!(cell in seen)) { seen[cell] = 1; order[++n] = cell }
      key = cell SUBSEP v; if (key in list) list[key] = list[key] ", " $2; else list[key] = $2 }
    END { for (i = 1; i <= n; i++) { c = order[i]; line = ""
            split("regressed improved same unknown", vs, " ")
            for (j = 1; j <= 4; j++) if ((c SUBSEP vs[j]) in list)
              line = line (line == "" ? "" : "; ") vs[j] ": " list[c SUBSEP vs[j]]
            print "  - " c ": " line } }')
  if [ -n "$cells" ]; then
    echo "- cells compared:" >> "$summary"
    echo "$cells" >> "$summary"
  else
    echo "- cells compared: none" >> "$summary"
  fi
  regressed=$({ grep -E '^w[0-9].* regressed$' "$out/$name.compare.txt" || true; } | awk '{print $1 " " $2}' | tr '\n' ';')
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

# Keep the builds the newest seven nights ran (and this one); the others can no longer be a base.
keep=" $build "
for n in $({ ls -1d "$results"/nightly-* 2>/dev/null || true; } | LC_ALL=C sort -r | head -7); do
  keep="$keep$(night_build "$n") "
done
for b in "$results"/builds/*; do
  [ -d "$b" ] || continue
  case "$keep" in *" $(basename "$b") "*) ;; *) rm -rf "$b" ;; esac
done

cat "$summary"
if [ "$run_status" -ne 0 ] && [ "$verdict" -eq 0 ]; then verdict=1; fi
exit "$verdict"
