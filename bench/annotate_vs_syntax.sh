#!/usr/bin/env bash
# Annotation cost against the floor for a Clang tool: parsing.
#
#   bench/annotate_vs_syntax.sh [-n RUNS] [FILE...]
#
# For each file (default: the sample kernels and the golden inputs), runs
# `clang -fsyntax-only` and `annotate FILE -- FLAGS` RUNS times each (default
# 10), interleaved so that machine noise hits both alike, with the same flags,
# and prints the median wall time of each and their ratio; then the ratio of
# the summed medians. Target (issue 2): at most 1.3. A benchmark, not a test.
# Needs a build in build/ (BUILD_DIR to change): scripts/test.sh makes one.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
ANNOTATE=$BUILD/bin/annotate
RUNS=10
if [ "${1:-}" = "-n" ]; then RUNS=$2; shift 2; fi
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

printf '%-40s %12s %12s %7s\n' file "syntax (ms)" "annotate (ms)" ratio
total_s=0; total_a=0
for f in "${FILES[@]}"; do
  s_times=(); a_times=()
  case $f in *.c) STD=-std=gnu11 ;; *) STD=-std=c++17 ;; esac
  for ((i = 0; i < RUNS; i++)); do
    t0=$(now); "$CLANG" -fsyntax-only $STD "${FLAGS[@]}" "$f" 2>/dev/null || true; t1=$(now)
    "$ANNOTATE" "$f" -- $STD "${FLAGS[@]}" >/dev/null 2>&1 || true; t2=$(now)
    s_times+=($(( (t1 - t0) / 1000 ))); a_times+=($(( (t2 - t1) / 1000 )))
  done
  s=$(printf '%s\n' "${s_times[@]}" | median); a=$(printf '%s\n' "${a_times[@]}" | median)
  total_s=$(awk -v x="$total_s" -v y="$s" 'BEGIN {print x + y}')
  total_a=$(awk -v x="$total_a" -v y="$a" 'BEGIN {print x + y}')
  printf '%-40s %12.1f %12.1f %7.2f\n' "$(basename "$f")" \
    "$(awk -v x="$s" 'BEGIN {print x / 1000}')" "$(awk -v x="$a" 'BEGIN {print x / 1000}')" \
    "$(awk -v a="$a" -v s="$s" 'BEGIN {print a / s}')"
done
printf '%-40s %12.1f %12.1f %7.2f\n' "TOTAL (${#FILES[@]} files, median of $RUNS)" \
  "$(awk -v x="$total_s" 'BEGIN {print x / 1000}')" "$(awk -v x="$total_a" 'BEGIN {print x / 1000}')" \
  "$(awk -v a="$total_a" -v s="$total_s" 'BEGIN {print a / s}')"
