#!/usr/bin/env bash
# Byte-identical output of the writer thread's encoder across a change
# (issue 40): builds compact_encoder.c, json_writer.c and event_format.c of
# a git revision and of the working tree into two shared objects and feeds
# both the same generated records in several seeds and piece sizes
# (encoder_same.c); stops at the first difference.
#
#   bench/runtime/encoder_same.sh [REV]   (default HEAD)
set -euo pipefail
. "$(dirname "$0")/fail_loudly.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
rev=${1:-HEAD}
tmp=$(mktemp -d /tmp/dft-encoder-same-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
src=$root/runtime/src
mkdir -p "$tmp/old"
for f in compact_encoder.c json_writer.c json_writer.h event_format.c \
  event_format.h; do
  git -C "$root" show "$rev:runtime/src/$f" > "$tmp/old/$f"
done
# The old files first on the include path: their own headers.
cc -O2 -fPIC -shared -I"$tmp/old" -I"$src" -o "$tmp/old.so" \
  "$tmp/old/compact_encoder.c" "$tmp/old/json_writer.c" \
  "$tmp/old/event_format.c" "$src/pages.c" -lz
cc -O2 -fPIC -shared -I"$src" -o "$tmp/new.so" "$src/compact_encoder.c" \
  "$src/json_writer.c" "$src/event_format.c" "$src/pages.c" -lz
cc -O2 -I"$src" -o "$tmp/encoder_same" "$root/bench/runtime/encoder_same.c" \
  -ldl -lzstd
for run in "1 65536" "2 4093" "3 100" "5 777" "8 37"; do
  set -- $run
  echo "seed $1, pieces of $2 bytes:"
  "$tmp/encoder_same" "$tmp/old.so" "$tmp/new.so" "$1" "$2"
done
