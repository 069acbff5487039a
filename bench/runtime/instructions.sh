#!/usr/bin/env bash
# Instructions per traced call of fwrite, write and pwrite (data_calls.c,
# 100,000 1-byte calls, preloaded, tracing on, unthrottled) under each
# given build of the runtime, counted by callgrind: the wrapper's inclusive
# cost over the number of calls. Instruction counts do not move with the
# machine's load, unlike the ns of RuntimeBench on a shared VM.
#
#   bench/runtime/instructions.sh LIBDIR...   (each holding libdftracer_core.so.0)
#
# The buffer is aligned (no `mem_align` arg); BUF_OFFSET=1 puts it one
# byte past that, the calls then carrying `"mem_align":1`.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d /tmp/dft-instructions-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cc -O2 "$root/bench/runtime/data_calls.c" -o "$tmp/data_calls"
mkdir -p "$tmp/io" "$tmp/trace"
calls=100000
printf "%-40s %10s %10s %10s\n" "library" fwrite write pwrite
for lib in "$@"; do
  printf "%-40s" "$lib"
  lib=$(cd "$lib" && pwd) # preloaded from inside $tmp
  for kind in f w p; do
    name=$([ $kind = f ] && echo fwrite || { [ $kind = w ] && echo write || echo pwrite; })
    rm -f "$tmp"/trace/* "$tmp"/io/*
    (cd "$tmp" && DFTRACER_ENABLE=1 DFTRACER_THROTTLE=0 \
      DFTRACER_DATA_DIR="$tmp/io" DFTRACER_LOG_FILE="$tmp/trace/t" \
      LD_PRELOAD="$lib/libdftracer_core.so.0" valgrind --tool=callgrind \
      --callgrind-out-file="$tmp/cg" ./data_calls $kind $calls "${BUF_OFFSET:-0}" > /dev/null 2>&1)
    total=$(callgrind_annotate --inclusive=yes "$tmp/cg" 2>/dev/null |
      awk -v n="???:$name" '$3 == n && $4 ~ /libdftracer_core/ {gsub(",", "", $1); print $1; exit}')
    printf " %10.1f" "$(echo "$total / $calls" | bc -l)"
  done
  echo
done
