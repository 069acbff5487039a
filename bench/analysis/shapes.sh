#!/usr/bin/env bash
# dftracer-analyze -j 1 on two shapes of trace (issue 41), MB per second by
# wall time and by CPU time:
#   - real: the runtime's lines, dftracer_trace_gen generate --real-shape
#     --seed 42 --compute 4, 64 files of 64,000 spans (~690 MB; the set of
#     scale.sh's first row): spans 3-5 deep, I/O calls under annotated
#     functions, mostly sequential offsets;
#   - random: large transfers at random offsets, dftracer_trace_gen access
#     --pattern random --ranks 128 --calls 20000 --size 4194304 --seed 7
#     (~958 MB, 128 files): each rank's data calls are roots of its trace
#     (no annotated code), land between the byte ranges kept so far, and
#     write "level" and "p_idx" last in args (upstream's order).
#
#   bench/analysis/shapes.sh                      # both, median of 3 runs
#   REPS=5 KEEP=1 bench/analysis/shapes.sh        # more runs; keep the sets
#   BASELINE=<old dftracer-analyze> bench/analysis/shapes.sh
#   SHAPES=random bench/analysis/shapes.sh        # one of them
#
# MB is the report's "text_bytes" (the trace's uncompressed text). Per
# shape and analyzer: wall seconds and CPU seconds (user + system, GNU
# time), each the median of REPS runs (with BASELINE the two analyzers'
# runs alternate, so both see the same load), MB/s of each, the least CPU
# seconds and the largest peak RSS. With BASELINE both must print the same
# JSON. A command that fails stops the script with its message
# (bench/runtime/fail_loudly.sh), never a figure.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=../runtime/fail_loudly.sh
. "$ROOT/bench/runtime/fail_loudly.sh"
BUILD=${BUILD_DIR:-$ROOT/build}
REPS=${REPS:-3}
SHAPES=${SHAPES:-real random}
WORK=${WORK:-${TMPDIR:-/tmp}/dft-analysis-shapes}
GEN=$BUILD/bin/dftracer_trace_gen
ANALYZE=$BUILD/bin/dftracer-analyze
BASELINE=${BASELINE:-}

for SHAPE in $SHAPES; do
  case "$SHAPE" in
    real | random) ;;
    *) echo "${0##*/}: SHAPES holds real and random, not '$SHAPE'" >&2; exit 2 ;;
  esac
done
mkdir -p "$WORK"
bench_run "$WORK/build.log" cmake --build "$BUILD" --target dftracer-analyze dftracer_trace_gen

# generate SHAPE DIR: the shape's set in DIR (made once).
generate() {
  [ -d "$2" ] && return
  echo "generating the $1 set in $2" >&2
  rm -rf "$2.tmp"
  mkdir -p "$2.tmp"
  case "$1" in
    real) bench_run "$WORK/gen.log" "$GEN" generate --dir "$2.tmp" --files 64 \
            --spans 64000 --seed 42 --compute 4 --real-shape ;;
    random) bench_run "$WORK/gen.log" "$GEN" access --pattern random --ranks 128 \
              --calls 20000 --size 4194304 --seed 7 --dir "$2.tmp" ;;
  esac
  mv "$2.tmp" "$2"
}

# median: the median of the numbers on stdin.
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

ANALYZERS=("$ANALYZE")
NAMES=(this)
if [ -n "$BASELINE" ]; then
  ANALYZERS=("$BASELINE" "$ANALYZE")
  NAMES=(baseline this)
fi
bench_need "$ANALYZE" "dftracer-analyze"

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
printf '%-8s %-9s %6s %8s %8s %8s %8s %9s %8s\n' shape run MB "wall s" "MB/s" \
  "CPU s" "MB/CPU s" "least CPU" "RSS MB"
for SHAPE in $SHAPES; do
  SET=$WORK/$SHAPE
  generate "$SHAPE" "$SET"
  bench_run "$WORK/report.json" "$ANALYZE" --json -j 1 "$SET"
  BYTES=$(sed -n 's/^  "text_bytes": \([0-9]*\),$/\1/p' "$WORK/report.json")
  if [ -z "$BYTES" ]; then
    echo "${0##*/}: no text_bytes in the report of $SET ($WORK/report.json)" >&2
    exit 1
  fi
  if [ -n "$BASELINE" ]; then
    bench_run "$WORK/baseline.json" "$BASELINE" --json -j 1 "$SET"
    if ! cmp -s "$WORK/baseline.json" "$WORK/report.json"; then
      echo "${0##*/}: $SHAPE: the two analyzers' reports differ" >&2
      exit 1
    fi
  fi
  MB=$(echo "$BYTES / 1000000" | bc -l)
  declare -A WALLS=() CPUS=() RSS=()
  for _ in $(seq "$REPS"); do
    for I in "${!ANALYZERS[@]}"; do
      bench_run "$WORK/run.out" /usr/bin/time -f '%e %U %S %M' -o "$WORK/run.time" \
        "${ANALYZERS[$I]}" --json -j 1 "$SET"
      read -r W U S M < <(tail -1 "$WORK/run.time")
      WALLS[$I]+="$W "
      CPUS[$I]+="$(echo "$U + $S" | bc -l) "
      if [ "$M" -gt "${RSS[$I]:-0}" ]; then RSS[$I]=$M; fi
    done
  done
  for I in "${!ANALYZERS[@]}"; do
    WALL=$(printf '%s\n' ${WALLS[$I]} | median)
    CPU=$(printf '%s\n' ${CPUS[$I]} | median)
    LEAST=$(printf '%s\n' ${CPUS[$I]} | sort -g | head -1)
    printf '%-8s %-9s %6.0f %8.2f %8.0f %8.2f %8.0f %9.2f %8.0f\n' "$SHAPE" "${NAMES[$I]}" \
      "$MB" "$WALL" "$(echo "$MB / $WALL" | bc -l)" "$CPU" "$(echo "$MB / $CPU" | bc -l)" \
      "$LEAST" "$(echo "${RSS[$I]} / 1024" | bc -l)"
  done
  unset WALLS CPUS RSS
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
[ -n "${KEEP:-}" ] || rm -rf "$WORK"
