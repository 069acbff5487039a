#!/usr/bin/env bash
# Whole-process cost of the I/O interception: wall time of the sample
# ior_driver kernel, unannotated (it stands in for IOR, which no Debian
# package ships), under mpiexec -n 2, plain and with libdftracer_preload.so
# tracing its files, alternating runs, 4 KiB and 1 MiB transfers, on a
# tmpfs (mounted here when run as root, else the temporary directory).
#
#   bench/runtime/io_overhead.sh [BUILD_DIR] [RUNS]
#
# Prints the median wall time of each and their ratio (targets: <= 1.15 at
# 4 KiB, <= 1.02 at 1 MiB; docs/performance.md), for each trace format in
# turn (.pfw, .pfw.gz, compact .pfc: runs alternate plain pfw gz compact),
# with the trace bytes per event (issue 25's target: <= 8 at 4 KiB).
set -euo pipefail
shopt -s inherit_errexit # run_once's failures, inside $(...), stop it too
. "$(dirname "$0")/fail_loudly.sh"
. "$(dirname "$0")/scratch_fs.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
runs=${2:-7}
preload=$(find "$build" -name libdftracer_preload.so | head -1)
[ -n "$preload" ] || { echo "no libdftracer_preload.so under $build" >&2; exit 2; }

bench_scratch dft-io-overhead 2g
echo "files on $(df -T "$fs" | awk 'NR==2 {print $2}') ($fs), load: $(cut -d' ' -f1-3 /proc/loadavg)"

bench_run "$tmp/mpicc.out" mpicc -O2 -I/usr/include/hdf5/mpich "$root/test/inputs/kernels/ior_driver.c" \
  -o "$tmp/ior_driver" -L/usr/lib/x86_64-linux-gnu/hdf5/mpich -lhdf5 \
  -Wl,-rpath,/usr/lib/x86_64-linux-gnu/hdf5/mpich

# run_once XFER MODE: wall seconds of one run. MODE: plain (untraced), or
# traced into pfw, gz (.pfw.gz) or compact (.pfc); a traced run leaves the
# bytes of its traces in $tmp/bytes.MODE and pfw its events in $tmp/events.
run_once() {
  local xfer=$1 mode=$2 start end
  local args=(-a POSIX -b $((32 << 20)) -t "$xfer" -s 4 -i 4 -o "$fs/ior")
  local fmt=()
  case $mode in
    gz) fmt=(DFTRACER_TRACE_COMPRESSION=1) ;;
    compact) fmt=(DFTRACER_TRACE_FORMAT=compact) ;;
  esac
  start=$(date +%s%N)
  if [ "$mode" = plain ]; then
    bench_run "$tmp/run.out" mpiexec -n 2 "$tmp/ior_driver" "${args[@]}"
  else
    bench_run "$tmp/run.out" env DFTRACER_ENABLE=1 DFTRACER_DATA_DIR="$fs" "${fmt[@]}" \
      DFTRACER_LOG_FILE="$tmp/trace" LD_PRELOAD="$preload" \
      mpiexec -n 2 "$tmp/ior_driver" "${args[@]}"
  fi
  end=$(date +%s%N)
  if [ "$mode" != plain ]; then
    ls "$tmp"/trace-* > /dev/null 2>&1 || { echo "io_overhead.sh: $mode run wrote no trace" >&2; exit 1; }
    cat "$tmp"/trace-* | wc -c > "$tmp/bytes.$mode"
    [ "$mode" != pfw ] || grep -c '"ph":"X"' "$tmp"/trace-*.pfw | awk -F: '{s += $NF} END {print s}' > "$tmp/events"
  fi
  rm -f "$tmp"/trace-*
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f\n", (e - s) / 1e9 }'
}

median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

modes=(plain pfw gz compact)
for xfer in 4096 1048576; do
  declare -A times=()
  run_once "$xfer" plain > /dev/null # warm the page cache and the binaries
  for _ in $(seq "$runs"); do        # alternated: plain pfw gz compact ...
    for m in "${modes[@]}"; do
      times[$m]+="$(run_once "$xfer" "$m") "
    done
  done
  p=$(printf '%s\n' ${times[plain]} | median)
  printf 'transfer %8d B: plain %6.3f s  (runs: %s)\n' "$xfer" "$p" "${times[plain]}"
  events=$(cat "$tmp/events")
  for m in pfw gz compact; do
    t=$(printf '%s\n' ${times[$m]} | median)
    bytes=$(cat "$tmp/bytes.$m")
    printf '  %-7s traced %6.3f s  ratio %.3f  %7.2f bytes per event (%d events, last run)  (runs: %s)\n' \
      "$m" "$t" "$(awk -v t="$t" -v p="$p" 'BEGIN { print t / p }')" \
      "$(awk -v b="$bytes" -v e="$events" 'BEGIN { print b / e }')" "$events" \
      "${times[$m]}"
  done
  unset times
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
