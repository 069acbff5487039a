#!/bin/sh
# The trace never breaks the program (issue 20), on a 256 KiB tmpfs:
#  1. DFTRACER_MAX_TRACE_SIZE=0 (no budget): the trace fills it and its
#     write fails with ENOSPC. The program's output and exit status are
#     those of an untraced run, stderr has one dftracer line saying tracing
#     stopped, and the trace ends on a whole line.
#  2. The default budget (a quarter of the free space): tracing stops at
#     it, the program's own output to the same tmpfs is whole, and the
#     trace ends with its trace_stopped line, then trace_end (the trace
#     was finished: it stopped growing, the process was not killed).
#  3. As 1 in the compact format (with a converter given): the .pfc is cut
#     back to its last whole block, and its last records, as a .pfw's when
#     there is room for them, say why tracing stopped (trace_stopped,
#     write_error, ENOSPC) and what was only counted (throttled).
# Needs root for mount (CI runs as root); exits 77 (skipped) otherwise.
#   write_error.sh <dft_throttle> <work dir> [<dftracer-convert>]
set -u
Program=$1
Work=$2
Convert=${3:-}
[ "$(id -u)" = 0 ] || { echo "not root: skipped"; exit 77; }
rm -rf "$Work"
mkdir -p "$Work/small" "$Work/out" || exit 1
mount -t tmpfs -o size=256k tmpfs "$Work/small" || { echo "no tmpfs: skipped"; exit 77; }
trap 'umount "$Work/small"' EXIT
Calls=200000
Clean="env -u DFTRACER_LOG_FILE -u DFTRACER_THROTTLE -u DFTRACER_THROTTLE_CALLS \
  -u DFTRACER_THROTTLE_US -u DFTRACER_THROTTLE_MAX_SPANS -u DFTRACER_MAX_TRACE_SIZE -u DFTRACER_DATA_DIR \
  -u DFTRACER_TRACE_COMPRESSION -u LD_PRELOAD"
fail() { echo "FAIL: $*"; exit 1; }
same_output() { # untraced, traced: equal but for the pid
  sed 's/ pid [0-9]*$//' "$1" > "$1.cmp"
  sed 's/ pid [0-9]*$//' "$2" > "$2.cmp"
  cmp -s "$1.cmp" "$2.cmp" || fail "output differs from the untraced run: $2"
}

$Clean DFTRACER_ENABLE=0 "$Program" stdout $Calls > "$Work/out/ref.txt" 2> "$Work/out/ref.err"
Ref=$?
[ $Ref = 0 ] || fail "untraced run failed ($Ref)"

# 1. A write error.
$Clean DFTRACER_ENABLE=1 DFTRACER_LOG_FILE="$Work/small/trace" DFTRACER_THROTTLE=0 \
  DFTRACER_MAX_TRACE_SIZE=0 "$Program" stdout $Calls \
  > "$Work/out/full.txt" 2> "$Work/out/full.err"
Rc=$?
[ $Rc = $Ref ] || fail "exit status $Rc, untraced $Ref; stderr: $(cat "$Work/out/full.err")"
same_output "$Work/out/ref.txt" "$Work/out/full.txt"
[ "$(grep -c '^dftracer:' "$Work/out/full.err")" = 1 ] ||
  fail "stderr should have one dftracer line: $(cat "$Work/out/full.err")"
grep -q "^dftracer: cannot write trace file '$Work/small/trace-.*': No space left on device; tracing stopped, the program goes on" \
  "$Work/out/full.err" || fail "stderr: $(cat "$Work/out/full.err")"
Trace=$(ls "$Work"/small/trace-*)
[ "$(tail -c 1 "$Trace" | od -An -c | tr -d ' ')" = '\n' ] ||
  fail "the trace does not end on a whole line"
if grep -q trace_stopped "$Trace"; then
  grep -q '"reason":"write_error".*"error":"ENOSPC"' "$Trace" ||
    fail "trace_stopped without the write error: $(grep trace_stopped "$Trace")"
fi
rm -f "$Work"/small/*

# 3. A write error in the compact format.
if [ -n "$Convert" ]; then
  # Stored blocks (level 0, as without libzstd) and 32 KiB taken: the
  # first block, 256 KiB, does not fit, and cutting it off leaves the room
  # that the last records need (zstd's blocks of a few KiB would free less
  # than a page).
  dd if=/dev/zero of="$Work/small/fill" bs=4k count=8 2> /dev/null
  $Clean DFTRACER_ENABLE=1 DFTRACER_LOG_FILE="$Work/small/trace" DFTRACER_THROTTLE=0 \
    DFTRACER_MAX_TRACE_SIZE=0 DFTRACER_TRACE_FORMAT=compact DFTRACER_COMPACT_LEVEL=0 \
    "$Program" stdout $Calls \
    > "$Work/out/compact.txt" 2> "$Work/out/compact.err"
  Rc=$?
  [ $Rc = $Ref ] || fail "compact: exit status $Rc, untraced $Ref; stderr: $(cat "$Work/out/compact.err")"
  same_output "$Work/out/ref.txt" "$Work/out/compact.txt"
  grep -q "^dftracer: cannot write trace file '$Work/small/trace-.*\.pfc': No space left on device; tracing stopped" \
    "$Work/out/compact.err" || fail "compact: stderr: $(cat "$Work/out/compact.err")"
  [ "$(grep -c '^dftracer:' "$Work/out/compact.err")" = 1 ] ||
    fail "compact: stderr should have one dftracer line: $(cat "$Work/out/compact.err")"
  Trace=$(ls "$Work"/small/trace-*.pfc)
  "$Convert" -o "$Work/out/compact.pfw" "$Trace" > "$Work/out/convert.txt" 2>&1 ||
    fail "compact: the cut .pfc does not convert: $(cat "$Work/out/convert.txt")"
  grep -q '"name":"trace_stopped".*"reason":"write_error".*"error":"ENOSPC"' \
    "$Work/out/compact.pfw" ||
    fail "compact: no trace_stopped record for the write error: $(tail -n 3 "$Work/out/compact.pfw")"
  grep -q '"name":"throttled".*"reason":"write_error"' "$Work/out/compact.pfw" ||
    fail "compact: no throttled record of the calls only counted: $(tail -n 3 "$Work/out/compact.pfw")"
  rm -f "$Work"/small/*
fi

# 2. The default budget leaves the program room on the same file system.
$Clean DFTRACER_ENABLE=1 DFTRACER_LOG_FILE="$Work/small/trace" DFTRACER_THROTTLE=0 \
  "$Program" stdout $Calls > "$Work/small/own.txt" 2> "$Work/out/budget.err"
Rc=$?
[ $Rc = $Ref ] || fail "exit status $Rc with the default budget, untraced $Ref"
same_output "$Work/out/ref.txt" "$Work/small/own.txt"
[ "$(grep -c '^dftracer:' "$Work/out/budget.err")" = 1 ] &&
  grep -q "reached its size limit of [0-9]* bytes (a quarter of the free space" \
    "$Work/out/budget.err" || fail "stderr: $(cat "$Work/out/budget.err")"
Trace=$(ls "$Work"/small/trace-*)
tail -n 2 "$Trace" | head -n 1 |
  grep -q '"name":"trace_stopped".*"reason":"size_limit"' ||
  fail "the trace does not end with trace_stopped: $(tail -n 2 "$Trace")"
tail -n 1 "$Trace" | grep -q '"name":"trace_end"' ||
  fail "the trace's last line is not trace_end: $(tail -n 1 "$Trace")"
echo "ok"
