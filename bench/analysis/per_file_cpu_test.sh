#!/usr/bin/env bash
# per_file_cpu.py's verdicts on made-up rounds (ctest bench.per_file_cpu):
# a figure whose whole interval is below the target is "within", one all
# above it "above", a spread one "cannot decide", and a paired difference
# between two analyzers is told only when its interval excludes zero.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# rounds NAME US...: one "NAME CPU_FEW CPU_MANY" line per value, 16,320
# extra files costing US µs each over a 1.5 s base that drifts by round.
rounds() {
  local name=$1 i=0
  shift
  for us in "$@"; do
    awk -v n="$name" -v us="$us" -v i="$i" \
      'BEGIN {b = 1.5 + 0.1 * (i % 3); printf "%s %.6f %.6f\n", n, b, b + us * 16320e-6}'
    i=$((i + 1))
  done
}
summary() { /usr/bin/python3 "$HERE/per_file_cpu.py" "$1" 16320 50 64 16384 1; }
expect() { # FILE PATTERN
  grep -q -- "$2" "$1" || { echo "expected '$2' in:" >&2; cat "$1" >&2; exit 1; }
}

rounds after 30 32 29 31 33 30 28 31 30 >"$T/within"
summary "$T/within" >"$T/out"
expect "$T/out" 'per file: median 30.0 µs \[29.0, 32.0\] (96.1%): within 50 µs'

rounds after 90 95 88 101 93 97 90 99 94 >"$T/above"
summary "$T/above" >"$T/out"
expect "$T/out" 'above 50 µs'

rounds after 30 80 35 75 40 70 45 65 48 >"$T/spread"
summary "$T/spread" >"$T/out"
expect "$T/out" 'cannot decide with n = 9'

rounds before 60 62 58 61 63 60 59 64 60 >"$T/pair"
rounds after 40 41 39 42 40 38 41 40 43 >>"$T/pair"
# per_file_cpu.sh writes the analyzers of a round next to each other; the
# summary pairs them by their order among each name's lines.
summary "$T/pair" >"$T/out"
expect "$T/out" 'after is cheaper'

rounds before 40 62 38 61 43 60 39 64 40 >"$T/tie"
rounds after 60 41 59 42 60 38 61 40 63 >>"$T/tie"
summary "$T/tie" >"$T/out"
expect "$T/out" 'before - after.*cannot decide with n = 9'
echo "per_file_cpu.py: verdicts as expected"
