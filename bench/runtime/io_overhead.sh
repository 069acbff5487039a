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
# 4 KiB, <= 1.02 at 1 MiB; docs/performance.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
runs=${2:-7}
preload=$(find "$build" -name libdftracer_preload.so | head -1)
[ -n "$preload" ] || { echo "no libdftracer_preload.so under $build" >&2; exit 2; }

tmp=$(mktemp -d /tmp/dft-io-overhead-XXXXXX)
fs=$tmp/fs
mkdir -p "$fs"
mounted=0
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=2g tmpfs "$fs" 2>/dev/null; then
  mounted=1
fi
cleanup() {
  [ $mounted -eq 1 ] && umount "$fs"
  rm -rf "$tmp"
}
trap cleanup EXIT
echo "files on $(df -T "$fs" | awk 'NR==2 {print $2}') ($fs), load: $(cut -d' ' -f1-3 /proc/loadavg)"

mpicc -O2 -I/usr/include/hdf5/mpich "$root/test/inputs/kernels/ior_driver.c" \
  -o "$tmp/ior_driver" -L/usr/lib/x86_64-linux-gnu/hdf5/mpich -lhdf5 \
  -Wl,-rpath,/usr/lib/x86_64-linux-gnu/hdf5/mpich

# run_once XFER traced|plain: wall seconds of one run
run_once() {
  local xfer=$1 mode=$2 start end
  local args=(-a POSIX -b $((32 << 20)) -t "$xfer" -s 4 -i 4 -o "$fs/ior")
  start=$(date +%s%N)
  if [ "$mode" = traced ]; then
    env DFTRACER_ENABLE=1 DFTRACER_DATA_DIR="$fs" \
      DFTRACER_LOG_FILE="$tmp/trace" LD_PRELOAD="$preload" \
      mpiexec -n 2 "$tmp/ior_driver" "${args[@]}" > /dev/null
  else
    mpiexec -n 2 "$tmp/ior_driver" "${args[@]}" > /dev/null
  fi
  end=$(date +%s%N)
  rm -f "$tmp"/trace-*.pfw
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f\n", (e - s) / 1e9 }'
}

median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

for xfer in 4096 1048576; do
  plain=() traced=()
  run_once "$xfer" plain > /dev/null # warm the page cache and the binaries
  for _ in $(seq "$runs"); do
    plain+=("$(run_once "$xfer" plain)")
    traced+=("$(run_once "$xfer" traced)")
  done
  p=$(printf '%s\n' "${plain[@]}" | median)
  t=$(printf '%s\n' "${traced[@]}" | median)
  printf 'transfer %8d B: plain %6.3f s  traced %6.3f s  ratio %.3f  (runs: plain %s; traced %s)\n' \
    "$xfer" "$p" "$t" "$(awk -v t="$t" -v p="$p" 'BEGIN { print t / p }')" \
    "${plain[*]}" "${traced[*]}"
done
