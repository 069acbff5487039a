#!/usr/bin/env bash
# The per-call cost of traced pwrite, write and fwrite under two builds of
# the runtime, alternated (A B A B ...) so both see the same load: one
# dftracer_runtime_bench binary run against each library directory through
# LD_LIBRARY_PATH (the binary's RUNPATH comes after it), on a tmpfs mounted
# here when run as root (else the temporary directory).
#
#   bench/runtime/compare_libs.sh BENCH OLD_LIBDIR NEW_LIBDIR [ROUNDS]
#   (DFT_COMPARE_FILTER: the benchmark regex, default BM_(Pwrite|Write|Fwrite)/;
#    DFT_COMPARE_MIN_TIME: seconds per repetition, default 0.2)
#
# Prints, per round and build, the median and fastest ns each case adds to
# libc's call (RuntimeBench's "added" tables), and the load before each run.
set -euo pipefail
. "$(dirname "$0")/fail_loudly.sh"
bench=$1 old=$2 new=$3 rounds=${4:-3}
. "$(dirname "$0")/scratch_fs.sh"
bench_scratch dft-compare 1g io
echo "files on $(df -T "$tmp/io" | awk 'NR==2 {print $2}'), $(nproc) CPUs"
for round in $(seq 1 "$rounds"); do
  for build in old new; do
    dir=$old
    [ $build = new ] && dir=$new
    echo "== round $round $build ($dir) load $(cut -d' ' -f1-3 /proc/loadavg)"
    bench_run "$tmp/out" env LD_LIBRARY_PATH=$dir DFTRACER_BENCH_IODIR=$tmp/io "$bench" \
      --benchmark_filter="${DFT_COMPARE_FILTER:-BM_(Pwrite|Write|Fwrite)/}" \
      --benchmark_min_time=${DFT_COMPARE_MIN_TIME:-0.2} --benchmark_repetitions=5 \
      --benchmark_enable_random_interleaving=true \
      --benchmark_report_aggregates_only=true --sustained_calls=1000
    awk '/^1-byte|^BM_(Pwrite|Write|Fwrite)\/[A-Za-z]+ +[0-9.]+ +[0-9.]+ +[-0-9.]+ +[-0-9.]+$/' "$tmp/out" > "$tmp/rows"
    bench_need "$tmp/rows" "benchmark rows in the output of $bench"
    cat "$tmp/rows"
  done
done
