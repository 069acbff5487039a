#!/usr/bin/env bash
# Reading speed of upstream-shaped traces against the project's own, and
# of the own set against an earlier build (issue 24: within 10%, and the
# own set not slower).
#
#   bench/analysis/upstream.sh                    # 2 M spans, 16 files
#   EVENTS=4000000 REPS=7 bench/analysis/upstream.sh
#   BASELINE=/work/main/build/bin/dftracer-analyze bench/analysis/upstream.sh
#
# dftracer_trace_gen writes the same trees (same seed) three times: in this
# runtime's shape, with --upstream v1 (DFTRACER_INC_METADATA: p_idx -1,
# hhash, start/end) and with --upstream dev (NDJSON, integer ph and type,
# hex hashes, no level/p_idx: nested by time, so also compared with the own
# set written without level/p_idx). Each figure is the median of
# REPS runs of dftracer-analyze -j 1 --json, the sets alternated run by run
# so that the machine's load falls on all of them alike; MB/s is
# uncompressed text per second of wall time, and Mspans/s the same runs by
# spans (upstream's lines are longer). With BASELINE, that binary reads the
# own set in the same alternation.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
EVENTS=${EVENTS:-2000000}
FILES=${FILES:-16}
REPS=${REPS:-5}
WORK=${WORK:-${TMPDIR:-/tmp}/dft-upstream-bench}
GEN=$BUILD/bin/dftracer_trace_gen
ANALYZE=$BUILD/bin/dftracer-analyze
BASELINE=${BASELINE:-}

cmake --build "$BUILD" --target dftracer-analyze dftracer_trace_gen >/dev/null
mkdir -p "$WORK"
# own-np: the own set without level/p_idx (--no-parent all), nested by time
# as the development line must be: the fair comparison for dev.
SETS=(own v1 own-np dev)
for s in "${SETS[@]}"; do
  dir=$WORK/$s-$EVENTS
  [ -d "$dir" ] && continue
  flags=()
  case $s in
    own) ;;
    own-np) flags=(--no-parent all) ;;
    *) flags=(--upstream "$s") ;;
  esac
  "$GEN" generate --dir "$dir.tmp" --files "$FILES" \
    --spans $((EVENTS / FILES)) --seed 42 --compute 4 "${flags[@]}"
  mv "$dir.tmp" "$dir"
done

run() { # run BINARY DIR: wall seconds of one run
  local t0 t1
  t0=$(date +%s.%N)
  "$1" -j 1 --json "$2" >/dev/null
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

declare -A T
keys=("${SETS[@]}")
[ -n "$BASELINE" ] && keys+=(baseline)
for k in "${keys[@]}"; do T[$k]=""; done
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for _ in $(seq "$REPS"); do
  for k in "${keys[@]}"; do
    if [ "$k" = baseline ]; then
      T[$k]+="$(run "$BASELINE" "$WORK/own-$EVENTS") "
    else
      T[$k]+="$(run "$ANALYZE" "$WORK/$k-$EVENTS") "
    fi
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

printf '%-28s %9s %9s %10s %9s\n' set seconds MB/s Mspans/s "vs own"
OWN=$(printf '%s\n' ${T[own]} | median)
for k in "${keys[@]}"; do
  set_dir=$WORK/${k/baseline/own}-$EVENTS
  bytes=$("$ANALYZE" -j 2 --json "$set_dir" | sed -n 's/^  "text_bytes": \([0-9]*\),$/\1/p')
  spans=$("$ANALYZE" -j 2 --json "$set_dir" | sed -n 's/^  "spans": \([0-9]*\),$/\1/p')
  med=$(printf '%s\n' ${T[$k]} | median)
  printf '%-28s %9.3f %9.1f %10.2f %8.1f%%\n' "$k" "$med" \
    "$(echo "$bytes / 1000000 / $med" | bc -l)" \
    "$(echo "$spans / 1000000 / $med" | bc -l)" \
    "$(echo "($med / $OWN - 1) * 100" | bc -l)"
done
[ -n "${KEEP:-}" ] || rm -rf "$WORK"
