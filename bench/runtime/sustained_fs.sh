#!/usr/bin/env bash
# The sustained figure (Sustained.h: 10 M START+END pairs of one thread,
# FINI included, against a clock pair) with the trace on two file systems,
# alternated (A B A B ...) so that both see the same load, and beside each
# run the page cache's own rate there: the same number of bytes written by
# dd to a fresh file in 32 KiB and in 256 KiB write() calls (the writer's
# size, sink.c, now and before; DFT_SUSTAINED_DD_BS="32 256", in KiB).
#
#   bench/runtime/sustained_fs.sh BENCH DIR_A DIR_B [ROUNDS]
#   e.g. sustained_fs.sh build/bin/dftracer_runtime_bench /tmp /dev/shm 3
#   (DFT_SUSTAINED_CALLS: pairs per run, default 10000000;
#    DFT_SUSTAINED_PAUSE: seconds idle before each child, default 0;
#    DFT_SUSTAINED_LIBS: library directories to alternate too, through
#    LD_LIBRARY_PATH, e.g. "main/build/runtime build/runtime"; default the
#    benchmark's own)
#
# Prints per round, directory and library the file system, the load, the
# benchmark's one-thread rows ((a), (b), (c) and w), and dd's ns per trace
# line's bytes.
set -euo pipefail
. "$(dirname "$0")/fail_loudly.sh"
bench=$1 a=$2 b=$3 rounds=${4:-3}
calls=${DFT_SUSTAINED_CALLS:-10000000}
pause=${DFT_SUSTAINED_PAUSE:-0}
work=()
cleanup() { [ ${#work[@]} -eq 0 ] || rm -rf "${work[@]}"; }
trap cleanup EXIT
libs=${DFT_SUSTAINED_LIBS:-default}
for round in $(seq 1 "$rounds"); do
  for dir in "$a" "$b"; do
   for lib in $libs; do
    tmp=$(mktemp -d "$dir/dft-sustained-XXXXXX")
    work+=("$tmp")
    fs=$(df --output=fstype "$tmp" | tail -1)
    echo "== round $round $dir ($fs) lib $lib load $(cut -d' ' -f1-3 /proc/loadavg)"
    path=${LD_LIBRARY_PATH:-}
    [ "$lib" = default ] || path=$lib
    # The parent re-executes itself unless DFTRACER_ENABLE=1: set here, so
    # that the trace directory is this one (RuntimeBench.cpp).
    bench_run "$tmp.out" env LD_LIBRARY_PATH=$path \
      DFTRACER_ENABLE=1 DFTRACER_THROTTLE=0 DFTRACER_BENCH_TMPDIR=$tmp \
      DFTRACER_LOG_FILE=$tmp/bench DFTRACER_BENCH_IODIR=$tmp \
      DFTRACER_DATA_DIR=$tmp/none "$bench" --benchmark_filter='^$' \
      --sustained_rounds=1 --sustained_calls="$calls" \
      --sustained_pause="$pause"
    work+=("$tmp.out" "$tmp.out.err")
    out=$(cat "$tmp.out" "$tmp.out.err")
    echo "$out" | grep -E '^\([abc]\)[a-zA-Z, ]+ 1 |^writer|^trace bytes|^traced events' ||
      { echo "sustained_fs.sh: no figures in the output of $bench" >&2; exit 1; }
    bytes=$(echo "$out" | sed -n 's/.*trace bytes per event \([0-9.]*\).*/\1/p')
    mb=$(awk -v b="${bytes:-149}" -v n="$calls" 'BEGIN {printf "%d", b * n / 1048576 + 1}')
    for bs in ${DFT_SUSTAINED_DD_BS:-32 256}; do
      dd_file=$(mktemp "$dir/dft-dd-XXXXXX")
      work+=("$dd_file")
      t0=$(date +%s%N)
      dd if=/dev/zero of="$dd_file" bs=${bs}K count=$((mb * 1024 / bs)) status=none
      t1=$(date +%s%N)
      awk -v ns=$((t1 - t0)) -v mb="$mb" -v b="${bytes:-149}" -v bs="$bs" 'BEGIN {
        printf "dd, %d MiB in %d KiB writes: %.1f ns per %.1f bytes (%.2f GB/s)\n",
          mb, bs, ns / (mb * 1048576 / b), b, mb * 1048576 / ns }'
      rm -f "$dd_file"
    done
    rm -rf "$tmp"
   done
  done
done
