#!/bin/sh
# Issue 20: a hot one-line function, untraced against traced with and
# without throttling, and 500 distinct one-line functions (a library
# annotated whole). Rounds alternate the modes, so each saw the same load.
#
#   bench/runtime/throttle.sh <build dir> [rounds=3] [work dir=mktemp -d]
#
# The data file goes to $DATA_DIR (default /dev/shm, as in the issue's
# h5bench run), the trace to the work dir.
#
# Prints, per case, mode and round: the phase's wall and CPU time (µs) and
# the trace's size (bytes). Modes: off (DFTRACER_ENABLE=0), throttle (the
# defaults), tau (DFTRACER_THROTTLE_CALLS=100000, TAU's default), nothrottle
# (DFTRACER_THROTTLE=0). The trace goes to the work dir; nothing is kept.
set -eu
Bin=$1/bin/dftracer_throttle_bench
Rounds=${2:-3}
Work=${3:-$(mktemp -d)}
Data=${DATA_DIR:-/dev/shm}/dftracer-throttle-bench.$$
mkdir -p "$Work" "$Data"
run() { # case mode args...
  Case=$1 Mode=$2
  shift 2
  rm -f "$Work"/trace-*
  case $Mode in
  off) Env="DFTRACER_ENABLE=0" ;;
  throttle) Env="DFTRACER_ENABLE=1" ;;
  tau) Env="DFTRACER_ENABLE=1 DFTRACER_THROTTLE_CALLS=100000" ;;
  nothrottle) Env="DFTRACER_ENABLE=1 DFTRACER_THROTTLE=0" ;;
  esac
  Out=$(env -u DFTRACER_THROTTLE -u DFTRACER_THROTTLE_CALLS \
    -u DFTRACER_THROTTLE_US -u DFTRACER_MAX_TRACE_SIZE $Env \
    DFTRACER_LOG_FILE="$Work/trace" DFTRACER_DATA_DIR="$Data" "$Bin" "$@")
  Size=$(cat "$Work"/trace-* 2>/dev/null | wc -c)
  echo "$Case $Mode $R $Out trace_bytes=$Size"
}
R=1
while [ $R -le "$Rounds" ]; do
  for Mode in off throttle nothrottle; do
    run one $Mode one 4194304 "$Data"
  done
  for Mode in off throttle tau nothrottle; do
    run many $Mode many 20000000
  done
  R=$((R + 1))
done
rm -f "$Work"/trace-*
rm -rf "$Data"
