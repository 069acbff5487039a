#!/usr/bin/env bash
# Annotation cost against the floor for a Clang tool: parsing.
#
#   bench/annotate_vs_syntax.sh [-n RUNS] [-v VARIANTS] [FILE...]
#
# For each file (default: the sample kernels and the golden inputs), runs
# `clang -fsyntax-only`, `annotate FILE -- FLAGS` and `annotate --strip` on
# FILE annotated (written once, before timing) RUNS times each (default 10),
# interleaved so that machine noise hits all alike, with the same flags, and
# prints the median wall time of each, annotate/syntax ("ratio") and
# strip/annotate; then the ratios of the summed medians. Targets:
# annotate/syntax at most 1.3 (issue 2), strip/annotate at most 1 (issue
# 15). A benchmark, not a test.
#
# -v VARIANTS plans each file in 1 + VARIANTS configurations (annotate
# --variant=-DANNOTATE_BENCH_VARIANT=K ..., -j 1 so that they run one after
# the other): the ratio is then the cost of that many configurations
# against one parse. ANNOTATE (default: $BUILD_DIR/bin/annotate) selects the
# binary; ANNOTATE_BASE=<another annotate> runs that one too, interleaved
# with the same arguments, and adds its median and annotate/base: a change's
# cost measured in one run.
# Needs a build in build/ (BUILD_DIR to change): scripts/test.sh makes one.
#
# A command that fails (clang's parse, annotate, --strip, the base) stops
# the script with the command and its message: a failure is never timed
# as a figure. So does a file that annotate leaves unchanged (its strip
# would time nothing).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
ANNOTATE=${ANNOTATE:-$BUILD/bin/annotate}
RUNS=10
VARIANTS=()
while [ $# -gt 0 ]; do
  case $1 in
    -n) RUNS=$2; shift 2 ;;
    -v)
      VARIANTS=(-j 1)
      for ((k = 1; k <= $2; k++)); do VARIANTS+=("--variant=-DANNOTATE_BENCH_VARIANT=$k"); done
      shift 2 ;;
    *) break ;;
  esac
done
[ -x "$ANNOTATE" ] || { echo "bench: build annotate first (scripts/test.sh)" >&2; exit 2; }
CLANG=$(command -v clang-19 || command -v clang)

FILES=("$@")
if [ ${#FILES[@]} -eq 0 ]; then
  FILES=("$ROOT"/test/inputs/kernels/*.c "$ROOT"/test/inputs/*.c)
fi
FLAGS=(-I"$ROOT/runtime/include" -I/usr/include/hdf5/mpich)
for word in $(mpicc -show 2>/dev/null); do
  case $word in -I*) FLAGS+=("$word") ;; esac
done

now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

BASE=${ANNOTATE_BASE:-}
# The annotated copies --strip reads, one per file, under their own names.
ANNOTATED=$(mktemp -d "${TMPDIR:-/tmp}/annotate-bench.XXXXXX")
trap 'rm -rf "$ANNOTATED"' EXIT
# run OUT CMD...: CMD with its stdout to OUT; stops the script with the
# command and its stderr when it fails.
run() {
  local out=$1 status=0; shift
  "$@" >"$out" 2>"$ANNOTATED/.stderr" || status=$?
  if [ "$status" -ne 0 ]; then
    printf 'bench: failed (exit %s):' "$status" >&2
    printf ' %q' "$@" >&2
    printf '\n' >&2
    tail -n 20 "$ANNOTATED/.stderr" >&2
    exit 1
  fi
}
ms() { awk -v x="$1" 'BEGIN {printf "%12.1f", x / 1000}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%7.2f", a / b}'; }
add() { awk -v x="$1" -v y="$2" 'BEGIN {print x + y}'; }
printf '%-40s %12s %12s %7s %12s %7s' file "syntax (ms)" "annotate (ms)" ratio \
  "strip (ms)" "/annot"
[ -n "$BASE" ] && printf ' %12s %7s' "base (ms)" "/base"
printf '\n'
total_s=0; total_a=0; total_x=0; total_b=0
for f in "${FILES[@]}"; do
  s_times=(); a_times=(); x_times=(); b_times=()
  case $f in *.c) STD=-std=gnu11 ;; *) STD=-std=c++17 ;; esac
  copy=$ANNOTATED/$(basename "$f")
  run "$copy" "$ANNOTATE" "$f" -- $STD "${FLAGS[@]}"
  if cmp -s "$f" "$copy"; then
    echo "bench: annotate changed nothing in $f: its strip would time nothing" >&2
    exit 1
  fi
  for ((i = 0; i < RUNS; i++)); do
    t0=$(now); run /dev/null "$CLANG" -fsyntax-only $STD "${FLAGS[@]}" "$f"; t1=$(now)
    run /dev/null "$ANNOTATE" "$f" ${VARIANTS[@]+"${VARIANTS[@]}"} -- $STD "${FLAGS[@]}"; t2=$(now)
    run /dev/null "$ANNOTATE" --strip "$copy" -- $STD "${FLAGS[@]}"; t3=$(now)
    s_times+=($(( (t1 - t0) / 1000 ))); a_times+=($(( (t2 - t1) / 1000 )))
    x_times+=($(( (t3 - t2) / 1000 )))
    if [ -n "$BASE" ]; then
      run /dev/null "$BASE" "$f" ${VARIANTS[@]+"${VARIANTS[@]}"} -- $STD "${FLAGS[@]}"; t4=$(now)
      b_times+=($(( (t4 - t3) / 1000 )))
    fi
  done
  s=$(printf '%s\n' "${s_times[@]}" | median); a=$(printf '%s\n' "${a_times[@]}" | median)
  x=$(printf '%s\n' "${x_times[@]}" | median)
  total_s=$(add "$total_s" "$s"); total_a=$(add "$total_a" "$a"); total_x=$(add "$total_x" "$x")
  printf '%-40s %s %s %s %s %s' "$(basename "$f")" "$(ms "$s")" "$(ms "$a")" \
    "$(ratio "$a" "$s")" "$(ms "$x")" "$(ratio "$x" "$a")"
  if [ -n "$BASE" ]; then
    b=$(printf '%s\n' "${b_times[@]}" | median); total_b=$(add "$total_b" "$b")
    printf ' %s %s' "$(ms "$b")" "$(ratio "$a" "$b")"
  fi
  printf '\n'
done
printf '%-40s %s %s %s %s %s' "TOTAL (${#FILES[@]} files, median of $RUNS)" \
  "$(ms "$total_s")" "$(ms "$total_a")" "$(ratio "$total_a" "$total_s")" \
  "$(ms "$total_x")" "$(ratio "$total_x" "$total_a")"
[ -n "$BASE" ] && printf ' %s %s' "$(ms "$total_b")" "$(ratio "$total_a" "$total_b")"
printf '\n'

