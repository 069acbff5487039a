#!/usr/bin/env bash
# The analysis's CPU per trace file beyond its events (issue 41: at most
# 50 µs), with an interval and a verdict. scale.sh's table takes it from
# one run a row, and CPU times here move 15-30 % from run to run: too
# little to tell 40 µs from 80. So this script runs many rounds, each the
# FEW-file set and the MANY-file set (the same events) back to back, in an
# order that alternates, and takes each round's own difference:
#
#   per file = (CPU(MANY files) - CPU(FEW files)) / (MANY - FEW)
#
# then the median over the rounds with a sign-test 95 % interval
# (bench/paired_stats.py): "within" the target when the whole interval is
# at most TARGET_US, "above" when it is all above, otherwise "cannot decide
# with n". CPU is user + system of the analyzer's process (GNU time).
#
#   bench/analysis/per_file_cpu.sh
#   ROUNDS=21 MANY=16384 JOBS=1 BASELINE=<old dftracer-analyze> ...
#   KEEP=1 WORK=/tmp/sets ...   # keep the generated sets (sets.sh)
#
# BASELINE alternates an older analyzer in the same rounds, and its figure
# and the difference of the two come out too. Both must print the same
# JSON. A failed run stops the script with its message: never a figure.
set -euo pipefail
shopt -s inherit_errexit

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
FEW=${FEW:-64}
MANY=${MANY:-16384}
ROUNDS=${ROUNDS:-15}
JOBS=${JOBS:-1}
TARGET_US=${TARGET_US:-50}

# shellcheck source=bench/analysis/sets.sh
. "$ROOT/bench/analysis/sets.sh"
SETS=("$(ensure_set "$FEW")" "$(ensure_set "$MANY")")
ANALYZERS=("$ANALYZE")
NAMES=(after)
if [ -n "$BASELINE" ]; then
  ANALYZERS=("$BASELINE" "$ANALYZE")
  NAMES=(before after)
  for SET in "${SETS[@]}"; do
    cmp -s <("$BASELINE" --json -j "$JOBS" "$SET") \
      <("$ANALYZE" --json -j "$JOBS" "$SET") ||
      { echo "per_file_cpu.sh: the reports of $SET differ" >&2; exit 1; }
  done
fi

TIMES=$(mktemp)
trap 'rm -f "$TIMES"; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
# cpu ANALYZER SET: user + system seconds of one run.
cpu() {
  local out
  out=$( { /usr/bin/time -f 'CPU %U %S' "$1" --json -j "$JOBS" "$2" >/dev/null; } 2>&1) ||
    { echo "per_file_cpu.sh: $1 --json -j $JOBS $2 failed:" >&2; echo "$out" | tail -5 >&2; exit 1; }
  echo "$out" | awk '$1 == "CPU" {print $2 + $3}'
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $ROUNDS rounds of ${NAMES[*]} on $FEW and $MANY files, -j $JOBS" >&2
for R in $(seq "$ROUNDS"); do
  # Odd rounds run the few-file set first, even rounds the many-file set:
  # a drift of the machine's speed within a round then cancels over two.
  ORDER=(0 1)
  [ $((R % 2)) -eq 1 ] || ORDER=(1 0)
  for I in "${!ANALYZERS[@]}"; do
    declare -A C=()
    for S in "${ORDER[@]}"; do
      C[$S]=$(cpu "${ANALYZERS[$I]}" "${SETS[$S]}")
    done
    echo "${NAMES[$I]} ${C[0]} ${C[1]}" >>"$TIMES"
  done
  printf '.' >&2
done
echo >&2
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
/usr/bin/python3 "$ROOT/bench/analysis/per_file_cpu.py" "$TIMES" \
  "$((MANY - FEW))" "$TARGET_US" "$FEW" "$MANY" "$JOBS"
