#!/usr/bin/env bash
# The runtime benchmark in each trace format (issue 25): the cost a traced
# 1-byte pwrite adds (median, min, added), the sustained span cost ((a)
# thread CPU and (c) wall per pair, clock pair beside), the
# writer thread's CPU per event and trace bytes per event, for .pfw,
# .pfw.gz and compact .pfc, the formats' runs alternated (pfw gz compact
# pfw gz compact ...) so that they see the same load.
#
#   bench/runtime/formats.sh [BUILD_DIR] [ROUNDS]
#
# Figures in docs/performance.md ("Trace formats").
set -euo pipefail
. "$(dirname "$0")/fail_loudly.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
rounds=${2:-3}
bench=$build/bin/dftracer_runtime_bench
[ -x "$bench" ] || { echo "no $bench (ninja -C $build dftracer_runtime_bench)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/dft-formats-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
  for f in pfw gz compact; do
    case $f in
      pfw) env=() ;;
      gz) env=(DFTRACER_TRACE_COMPRESSION=1) ;;
      compact) env=(DFTRACER_TRACE_FORMAT=compact) ;;
    esac
    bench_run "$tmp/out" env "${env[@]}" "$bench" \
      --benchmark_filter='BM_ClockPair|BM_Pwrite/(Libc|Traced)' \
      --benchmark_min_time=0.05 --benchmark_repetitions=5 \
      --benchmark_report_aggregates_only=true --sustained_rounds=1 \
      --sustained_pause=0
    grep -E '^BM_Pwrite/Traced +[0-9.]+ +[0-9.]+ +[0-9.-]+|^\((a|c)\) |traced events/s|writer thread|trace bytes per event|^\(trace written' \
      "$tmp/out" > "$tmp/rows" || true # none: stopped just below
    bench_need "$tmp/rows" "figures in the output of $bench ($f)"
    sed "s/^/round $r $f: /" "$tmp/rows"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
