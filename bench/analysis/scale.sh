#!/usr/bin/env bash
# Files versus events (issue 41): the same events split over more and more
# trace files (ranks), dftracer-analyze --json -j JOBS (default 1) on each
# set, before and after, in one run.
#
#   BASELINE=<old dftracer-analyze> bench/analysis/scale.sh
#   FILES="64 1024" EVENTS=1024000 REPS=1 bench/analysis/scale.sh
#   KEEP=1 ...   # keep the sets (WORK, default /tmp/dft-analysis-scale)
#   FILES="64 100000" JOBS=2 ...   # the 100,000-file row, with -j 2
#
# Each set is sets.sh's: dftracer_trace_gen generate --real-shape --seed 42
# --compute 4 --total-spans EVENTS (the issue's table: 4,096,000 spans,
# 724 MB in 64 files; 100,000 files hold ~41 each, and their own
# metadata lines: 796 MB). Per row and per analyzer: wall seconds (median of REPS), MB of
# trace per second by wall, CPU seconds (user + system, GNU time, of the
# median run's neighbour: one more run) and peak resident memory. The cost
# of a file beyond its events is the CPU seconds over those of the first
# row, divided by the files added: one run a row, so only a rough figure
# (runs move 15-30 %); per_file_cpu.sh measures it with rounds and an
# interval. Both analyzers must print the same
# JSON (the report is the same, only its cost changes).
set -euo pipefail
shopt -s inherit_errexit # measure's failures, inside $(...), stop it too

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
FILES=${FILES:-64 1024 4096 16384}
REPS=${REPS:-3}
JOBS=${JOBS:-1}

# shellcheck source=bench/analysis/sets.sh
. "$ROOT/bench/analysis/sets.sh"
for F in $FILES; do
  ensure_set "$F" >/dev/null
done

# measure ANALYZER SET: "wall cpu rss_kb" (wall: median of REPS runs). A
# failed run stops the script with the analyzer's message: it is never a
# figure.
measure() {
  local times=() t0 t1
  for _ in $(seq "$REPS"); do
    t0=$(date +%s.%N)
    "$1" --json -j "$JOBS" "$2" >/dev/null 2>"$WORK/measure.err" ||
      { echo "scale.sh: $1 --json -j $JOBS $2 failed:" >&2; tail -5 "$WORK/measure.err" >&2; exit 1; }
    t1=$(date +%s.%N)
    times+=("$(echo "$t1 - $t0" | bc -l)")
  done
  local wall
  wall=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  local cpu_rss
  cpu_rss=$( { /usr/bin/time -f '%U %S %M' "$1" --json -j "$JOBS" "$2" >/dev/null; } 2>&1 | tail -1) ||
    { echo "scale.sh: $1 --json -j $JOBS $2 failed under /usr/bin/time" >&2; exit 1; }
  echo "$wall $cpu_rss" | awk '{print $1, $2 + $3, $4}'
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
ANALYZERS=("$ANALYZE")
NAMES=(after)
if [ -n "$BASELINE" ]; then
  ANALYZERS=("$BASELINE" "$ANALYZE")
  NAMES=(before after)
fi
printf '| files (ranks) | events per file | MB | run | wall s | MB/s | CPU s | peak RSS MB | CPU per file beyond the first row |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
declare -A FIRST_CPU FIRST_FILES
for F in $FILES; do
  SET=$(ensure_set "$F") # made above: its name, from sets.sh
  BYTES=$(du -sbL --apparent-size "$SET/" | cut -f1)
  MB=$(echo "$BYTES / 1000000" | bc -l)
  if [ -n "$BASELINE" ] &&
     ! cmp -s <("$BASELINE" --json -j "$JOBS" "$SET") <("$ANALYZE" --json -j "$JOBS" "$SET"); then
    echo "f$F: the reports differ" >&2
    DIFFER=1
  fi
  for I in "${!ANALYZERS[@]}"; do
    M=$(measure "${ANALYZERS[$I]}" "$SET")
    read -r WALL CPU RSS <<<"$M"
    N=${NAMES[$I]}
    PER=-
    if [ -z "${FIRST_CPU[$N]:-}" ]; then
      FIRST_CPU[$N]=$CPU
      FIRST_FILES[$N]=$F
    else
      PER=$(printf '%.0f µs' "$(echo "($CPU - ${FIRST_CPU[$N]}) / ($F - ${FIRST_FILES[$N]}) * 1000000" | bc -l)")
    fi
    printf '| %s | %s | %.0f | %s | %.2f | %.0f | %.2f | %.0f | %s |\n' \
      "$F" "$(printf '%.0f' "$(echo "$EVENTS / $F" | bc -l)")" "$MB" "$N" "$WALL" "$(echo "$MB / $WALL" | bc -l)" \
      "$CPU" "$(echo "$RSS / 1024" | bc -l)" "$PER"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
[ -n "${KEEP:-}" ] || rm -rf "$WORK"
[ -z "${DIFFER:-}" ]
