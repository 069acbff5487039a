#!/usr/bin/env bash
# Issue 20: a hot one-line function, untraced against traced with and
# without throttling, and 500 distinct one-line functions (a library
# annotated whole). Rounds alternate the modes, so each saw the same load.
#
#   bench/runtime/throttle.sh <build dir> [rounds=3] [work dir=mktemp -d]
#
# The data file goes to $DATA_DIR (default /dev/shm, as in the issue's
# h5bench run), the trace to the work dir. CASES="one many" (the default)
# picks the cases.
#
# Prints, per case, mode and round: the phase's wall and CPU time (µs), the
# trace's size (bytes) and, for `one`, the throttled function's calls and
# time as the trace says them (its spans plus its `throttled` line: calls
# must be 4194304 in every mode). Then the load average. Modes: off
# (DFTRACER_ENABLE=0), sampled (the default: DFTRACER_THROTTLE_TIME
# unset), exact (DFTRACER_THROTTLE_TIME=exact), tau
# (DFTRACER_THROTTLE_CALLS=100000, TAU's default), nothrottle
# (DFTRACER_THROTTLE=0). Nothing is kept.
set -euo pipefail
. "$(dirname "$0")/fail_loudly.sh"
Bin=$1/bin/dftracer_throttle_bench
Rounds=${2:-3}
Work=${3:-$(mktemp -d)}
Cases=${CASES:-one many}
Data=${DATA_DIR:-/dev/shm}/dftracer-throttle-bench.$$
mkdir -p "$Work" "$Data"
# The function's calls and summed dur: its spans, plus its throttled line.
fnTotals() { # function
  cat "$Work"/trace-* 2>/dev/null | awk -v F="$1" '
    index($0, "\"name\":\"" F "\",") && match($0, /"dur":[0-9]+/) {
      C++; D += substr($0, RSTART + 6, RLENGTH - 6) }
    index($0, "\"function\":\"" F "\"") {
      if (match($0, /"calls":[0-9]+/)) C += substr($0, RSTART + 8, RLENGTH - 8)
      if (match($0, /"dur":[0-9]+/)) D += substr($0, RSTART + 6, RLENGTH - 6) }
    END { printf "fn_calls=%d fn_dur_us=%d", C, D }'
}
run() { # case mode args...
  Case=$1 Mode=$2
  shift 2
  rm -f "$Work"/trace-*
  case $Mode in
  off) Env="DFTRACER_ENABLE=0" ;;
  sampled) Env="DFTRACER_ENABLE=1" ;;
  exact) Env="DFTRACER_ENABLE=1 DFTRACER_THROTTLE_TIME=exact" ;;
  tau) Env="DFTRACER_ENABLE=1 DFTRACER_THROTTLE_CALLS=100000" ;;
  nothrottle) Env="DFTRACER_ENABLE=1 DFTRACER_THROTTLE=0" ;;
  esac
  bench_run "$Work/out" env -u DFTRACER_THROTTLE -u DFTRACER_THROTTLE_CALLS \
    -u DFTRACER_THROTTLE_US -u DFTRACER_THROTTLE_MAX_SPANS -u DFTRACER_THROTTLE_TIME \
    -u DFTRACER_THROTTLE_SAMPLE -u DFTRACER_MAX_TRACE_SIZE $Env \
    DFTRACER_LOG_FILE="$Work/trace" DFTRACER_DATA_DIR="$Data" "$Bin" "$@"
  Out=$(cat "$Work/out")
  if [ "$Mode" != off ] && ! ls "$Work"/trace-* > /dev/null 2>&1; then
    echo "throttle.sh: $Case $Mode wrote no trace" >&2
    exit 1
  fi
  Size=0
  [ "$Mode" = off ] || Size=$(cat "$Work"/trace-* | wc -c)
  Fn=
  [ "$Case" = one ] && [ "$Mode" != off ] && Fn=" $(fnTotals uniform_random_number)"
  echo "$Case $Mode $R $Out trace_bytes=$Size$Fn"
}
R=1
while [ $R -le "$Rounds" ]; do
  for Case in $Cases; do
    case $Case in
    one)
      for Mode in off sampled exact nothrottle; do
        run one $Mode one 4194304 "$Data"
      done ;;
    many)
      for Mode in off sampled tau nothrottle; do
        run many $Mode many 20000000
      done ;;
    esac
  done
  R=$((R + 1))
done
echo "load: $(cat /proc/loadavg)"
rm -f "$Work"/trace-*
rm -rf "$Data"
