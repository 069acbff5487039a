#!/usr/bin/env bash
# The cost of the diagnosis (issue 23): dftracer-analyze -j 1 --json over
# bench/analysis's 10 M-event set with the findings (the default) and with
# --no-diagnose (no call-site bookkeeping), alternated A B A B ... so both
# see the same load; then a --compare of the set against itself.
#
#   bench/analysis/diagnose.sh            # REPS=3, EVENTS=10000000
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
EVENTS=${EVENTS:-10000000}
FILES=${FILES:-64}
REPS=${REPS:-3}
SET=${SET:-${TMPDIR:-/tmp}/dft-analysis-bench/plain-$EVENTS}
ANALYZE=$BUILD/bin/dftracer-analyze
if [ ! -d "$SET" ]; then
  mkdir -p "$SET.tmp"
  "$BUILD/bin/dftracer_trace_gen" generate --dir "$SET.tmp" --files "$FILES" \
    --spans $((EVENTS / FILES)) --seed 42 --compute 4
  mv "$SET.tmp" "$SET"
fi
run() { # run ARGS...: wall seconds and peak KiB of one run
  /usr/bin/time -f '%e %M' "$ANALYZE" -j 1 --json "$@" "$SET" 2>&1 >/dev/null | tail -1
}
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$REPS"); do
  echo "no-diagnose $(run --no-diagnose)"
  echo "diagnose    $(run)"
done
echo "compare     $(/usr/bin/time -f '%e %M' "$ANALYZE" -j 1 --json --compare "$SET" "$SET" 2>&1 >/dev/null | tail -1)"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
