#!/usr/bin/env bash
# IOR's own phase times, untraced and under each interposer, in the same
# rounds (issue 40's third target): IOR 4.0.0 unmodified, `mpiexec -n 2`,
# its files on a tmpfs, each round running every mode once in a rotated
# order so that no mode always comes first or last:
#
#   plain    untraced
#   darshan  LD_PRELOAD=libdarshan.so, counters only
#   dxt      the same with DXT_ENABLE_IO_TRACE=1 (Darshan's full trace)
#   pfw      LD_PRELOAD=libdftracer_preload.so, DFTRACER_ENABLE=1 (.pfw)
#   compact  the same with DFTRACER_TRACE_FORMAT=compact (.pfc)
#
#   bench/runtime/ior_darshan.sh [WORK] [BUILD_DIR] [ROUNDS]
#
# WORK is bench/ior/build.sh's (default /tmp/ior-darshan): its
# ior-plain/src/ior and darshan/prefix/lib/libdarshan.so. BUILD_DIR holds
# libdftracer_preload.so (default build/). ROUNDS default 9. Environment:
# XFERS, each a transfer size and its block (-t:-b; default "4k:16m 1m:64m":
# the 1 MiB case writes 4 times the bytes, so that its phases last as long
# as the 4 KiB case's and are not lost in the noise), SEGMENTS (-s, 4),
# ITERS (IOR's -i, default 3: a run's phase time is the sum of its
# iterations'), MODES (default all five, plain first in the list),
# BASELINE (a directory holding another libdftracer_preload.so, e.g. main's
# before a change: adds the modes pfw-base and compact-base, run with it in
# the same rounds), NP (IOR's processes, default 2: on this 2-core machine
# NP=1 leaves a core to the runtime's writer thread).
#
# Prints, per transfer size and phase (write, read), each mode's median
# phase time and its ratio to untraced; then each interposer against
# untraced, this runtime's modes against darshan, and against the baseline:
# the median of the per-round paired ratios with a 95% interval from the
# order statistics (sign test), "cannot decide with n" when the interval
# holds 1. Every failed run stops the script
# (fail_loudly.sh), and every traced run must leave its log or trace.
set -euo pipefail
shopt -s inherit_errexit
. "$(dirname "$0")/ior_modes.sh"
ior_find "${1:-}" "${2:-}"
rounds=${3:-9}
xfers=${XFERS:-4k:16m 1m:64m}
segments=${SEGMENTS:-4}
iters=${ITERS:-3}
np=${NP:-2}
read -r -a modes <<< "${MODES:-plain darshan dxt pfw compact}"
base_preload=
if [ -n "${BASELINE:-}" ]; then
  base_preload=$(find "$BASELINE" -name libdftracer_preload.so | head -1)
  [ -n "$base_preload" ] || { echo "ior_darshan.sh: no libdftracer_preload.so under $BASELINE" >&2; exit 2; }
  [ -n "${MODES:-}" ] || modes+=(pfw-base compact-base)
fi

bench_scratch dft-ior-darshan 2g
mkdir -p "$tmp/logs"
echo "IOR $ior; Darshan $darshan; runtime $preload${base_preload:+; baseline $base_preload}"
echo "mpiexec -n $np IOR -a POSIX -t X -b B -s $segments -F -w -r -e -C -i $iters, X:B in: $xfers"
echo "files on $(df -T "$fs" | awk 'NR==2 {print $2}'), load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# run_once XFER:BLOCK MODE: appends "MODE XFER WRITE_S READ_S" to $tmp/times.
run_once() {
  local xfer=${1%%:*} block=${1#*:} mode=$2
  [ "$block" != "$1" ] || block=16m
  local args=(-a POSIX -t "$xfer" -b "$block" -s "$segments" -F -w -r -e -C -i "$iters" -o "$fs/ior")
  rm -rf "${tmp:?}/logs"/* "$fs"/ior*
  ior_mode_env "$mode"
  bench_run "$tmp/ior.out" env "${env[@]}" mpiexec -n "$np" "$ior" "${args[@]}"
  if [ "$mode" != plain ]; then
    [ -n "$(ls -A "$tmp/logs")" ] || { echo "ior_darshan.sh: the $mode run left no log or trace" >&2; exit 1; }
  fi
  # IOR's Results lines: access ... total(s) iter; a run's phase time is
  # the sum of its iterations'.
  awk -v m="$mode" -v x="$xfer" '
    /^Results:/ { on = 1 }
    /^Summary of all tests/ { on = 0 }
    on && $1 == "write" { w += $10; nw++ }
    on && $1 == "read" { r += $10; nr++ }
    END { if (nw == 0 || nr == 0) exit 1; printf "%s %s %.6f %.6f\n", m, x, w, r }
  ' "$tmp/ior.out" >> "$tmp/times" || { echo "ior_darshan.sh: no Results lines in IOR's output" >&2; cat "$tmp/ior.out" >&2; exit 1; }
}

: > "$tmp/times"
for xfer in $xfers; do
  run_once "$xfer" plain # warm the page cache and the binaries
  : > "$tmp/times"
  for r in $(seq 0 $((rounds - 1))); do
    n=${#modes[@]}
    for i in $(seq 0 $((n - 1))); do
      run_once "$xfer" "${modes[$(((i + r) % n))]}"
    done
  done
  cat "$tmp/times" >> "$tmp/all"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/python3 "$(dirname "$0")/ior_darshan_summary.py" "$tmp/all" "${modes[@]}"
if [ -n "${KEEP:-}" ]; then cp "$tmp/all" "$KEEP"; echo "raw times in $KEEP"; fi
