#!/usr/bin/env bash
# The whole process's CPU (user + sys, every thread: the traced one and the
# writer) per traced 1-byte call of data_calls.c, for each given build of
# the runtime in .pfw and in the compact format, and untraced; the runs
# alternated (plain, then each library's pfw and compact, round after
# round) so that they see the same load. The trace goes to TMPDIR (/tmp).
# Where instructions.sh counts the traced thread's wrapper, this counts
# what the writer thread's formatting or encoding costs too.
#
#   bench/runtime/process_cpu.sh ROUNDS CALLS LIBDIR...
#
# Prints one line per run: round, library (or "untraced"), format, kind
# (fwrite, pwrite), ns per call; and the load average before and after.
set -euo pipefail
. "$(dirname "$0")/fail_loudly.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
rounds=$1 calls=$2
shift 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dft-process-cpu-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
bench_run "$tmp/cc.out" cc -O2 "$root/bench/runtime/data_calls.c" -o "$tmp/data_calls"
mkdir -p "$tmp/io" "$tmp/trace"
run() { # LABEL FORMAT KIND [ENV...]
  local label=$1 format=$2 kind=$3
  shift 3
  rm -f "$tmp"/trace/* "$tmp"/io/*
  (cd "$tmp" && bench_run "$tmp/run.out" env "$@" /usr/bin/time -f '%U %S' \
    -o "$tmp/time" ./data_calls "${kind:0:1}" "$calls")
  if [ "$label" != untraced ] && ! ls "$tmp"/trace/* > /dev/null 2>&1; then
    echo "process_cpu.sh: $label $format $kind wrote no trace" >&2
    exit 1
  fi
  awk -v l="$label" -v f="$format" -v k="$kind" -v r="$round" -v n="$calls" \
    '{printf "round %d %s %s %s %.0f ns\n", r, l, f, k, ($1 + $2) * 1e9 / n}' \
    "$tmp/time"
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
  for kind in fwrite pwrite; do
    run untraced - $kind
    for lib in "$@"; do
      for format in pfw compact; do
        run "$lib" $format $kind DFTRACER_ENABLE=1 DFTRACER_THROTTLE=0 \
          DFTRACER_DATA_DIR="$tmp/io" DFTRACER_LOG_FILE="$tmp/trace/t" \
          DFTRACER_TRACE_FORMAT=$format \
          LD_PRELOAD="$lib/libdftracer_core.so.0"
      done
    done
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
