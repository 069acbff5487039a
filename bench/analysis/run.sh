#!/usr/bin/env bash
# dftracer-analyze throughput, scaling, gzip cost, memory, a Python
# baseline, and the HTML report of the whole set in headless Chromium.
#
#   bench/analysis/run.sh                 # 64 files, 10 M events
#   EVENTS=2000000 bench/analysis/run.sh  # smaller
#   REPS=5 KEEP=1 bench/analysis/run.sh   # more repetitions; keep the set
#   SHAPE=generated bench/analysis/run.sh # the set before issue 22
#
# Generates the set with dftracer_trace_gen (64 files, one process each,
# about half of the spans I/O calls; SHAPE=real, the default, writes lines
# shaped like a real run's, --real-shape: 16-digit times and path hashes,
# six files per rank, the 6-8 args the runtime writes, ~180 B a line, spans
# 3-5 deep), then measures, each figure the median of REPS runs, both sides
# of every ratio in the same run:
#   - MB/s of uncompressed trace per core: dftracer-analyze -j 1 --json,
#     by wall time and by CPU time (user + system, the helper thread that
#     inflates gzip included)
#   - -j 2 against -j 1
#   - the same set gzip-compressed, -j 1, against plain -j 1
#   - the same set in the compact format (dftracer-convert --compact), -j 1,
#     in events/s against plain -j 1 (issue 25's target: >= 4x), its
#     report checked identical to the plain set's
#   - a plain Python json.loads loop over the lines (per-layer and
#     per-function sums) on 4 of the files, scaled per MB, against -j 1
#   - peak resident memory (GNU time) of -j 2 --html over the set
#   - headless Chromium loading the --html report of the set: seconds
#     until the page has drawn (the issue's target: < 10 s)
#   - parse only (parse_only.cpp, on one file): simdjson's DOM a document
#     per line, as the reader parses, against parse_many, On-Demand and
#     iterate_many, every value read, MB per CPU second
# Figures go to docs/performance.md with the machine's load average.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
EVENTS=${EVENTS:-10000000}
FILES=${FILES:-64}
REPS=${REPS:-3}
WORK=${WORK:-${TMPDIR:-/tmp}/dft-analysis-bench}
SHAPE=${SHAPE:-real}
case "$SHAPE" in
  real) SHAPE_FLAGS=(--real-shape) ;;
  generated) SHAPE_FLAGS=() ;;
  *) echo "SHAPE must be real or generated, not '$SHAPE'" >&2; exit 2 ;;
esac
GEN=$BUILD/bin/dftracer_trace_gen
ANALYZE=$BUILD/bin/dftracer-analyze

cmake --build "$BUILD" --target dftracer-analyze dftracer_trace_gen dftracer-convert >/dev/null
mkdir -p "$WORK"
PLAIN=$WORK/plain-$SHAPE-$EVENTS
GZ=$WORK/gzip-$SHAPE-$EVENTS
PFC=$WORK/compact-$SHAPE-$EVENTS
CONVERT=$BUILD/bin/dftracer-convert
if [ ! -d "$PLAIN" ]; then
  echo "generating $FILES files, $EVENTS spans in $PLAIN" >&2
  mkdir -p "$PLAIN.tmp"
  "$GEN" generate --dir "$PLAIN.tmp" --files "$FILES" --spans $((EVENTS / FILES)) --seed 42 --compute 4 "${SHAPE_FLAGS[@]}"
  mv "$PLAIN.tmp" "$PLAIN"
fi
if [ ! -d "$GZ" ]; then
  mkdir -p "$GZ.tmp"
  "$GEN" generate --dir "$GZ.tmp" --files "$FILES" --spans $((EVENTS / FILES)) --seed 42 --compute 4 --gzip "${SHAPE_FLAGS[@]}"
  mv "$GZ.tmp" "$GZ"
fi

if [ ! -d "$PFC" ]; then
  mkdir -p "$PFC.tmp"
  for f in "$PLAIN"/*.pfw; do
    b=$(basename "$f" .pfw)
    "$CONVERT" --compact -o "$PFC.tmp/$b.pfc" "$f"
  done
  mv "$PFC.tmp" "$PFC"
fi

# cpu_seconds CMD...: user + system seconds of one run (GNU time).
cpu_seconds() {
  { /usr/bin/time -f '%U %S' "$@" >/dev/null; } 2>&1 | tail -1 | awk '{print $1 + $2}'
}

# median_seconds CMD...: the median wall time of REPS runs (output dropped).
median_seconds() {
  local times=()
  for _ in $(seq "$REPS"); do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null
    t1=$(date +%s.%N)
    times+=("$(echo "$t1 - $t0" | bc -l)")
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
BYTES=$("$ANALYZE" -j 2 --json "$PLAIN" | sed -n 's/^  "text_bytes": \([0-9]*\),$/\1/p')
SPANS=$("$ANALYZE" -j 2 --json "$PLAIN" | sed -n 's/^  "spans": \([0-9]*\),$/\1/p')
APP=$("$ANALYZE" -j 2 "$PLAIN" | awk '$1 == "APP" || $1 == "OTHER" {s += $2} END {print s + 0}')
IO=$((SPANS - APP))
GZBYTES=$(du -sb "$GZ" | cut -f1)
MB=$(echo "$BYTES / 1000000" | bc -l)

J1=$(median_seconds "$ANALYZE" -j 1 --json "$PLAIN")
J2=$(median_seconds "$ANALYZE" -j 2 --json "$PLAIN")
G1=$(median_seconds "$ANALYZE" -j 1 --json "$GZ")
P1=$(median_seconds "$ANALYZE" -j 1 --json "$PFC")
PFCBYTES=$(du -sb "$PFC" | cut -f1)
if ! diff <("$ANALYZE" -j 2 --json "$PLAIN" | sed "s|$PLAIN/||; s/\\.pfw\"/\"/") \
          <("$ANALYZE" -j 2 --json "$PFC" | sed "s|$PFC/||; s/\\.pfc\"/\"/") >/dev/null; then
  echo "the compact set's report differs from the plain set's" >&2
  exit 1
fi
C1=$(cpu_seconds "$ANALYZE" -j 1 --json "$PLAIN")
CG=$(cpu_seconds "$ANALYZE" -j 1 --json "$GZ")

# The Python baseline on 4 files, in MB/s.
PYFILES=$(ls "$PLAIN"/*.pfw | head -4)
PYBYTES=$(cat $PYFILES | wc -c)
cat >"$WORK/baseline.py" <<'PYEOF'
import json, sys
layers, functions = {}, {}
for path in sys.argv[1:]:
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line in "[]":
                continue
            e = json.loads(line)
            if e.get("ph") != "X":
                continue
            l = layers.setdefault(e["cat"], [0, 0])
            l[0] += 1
            l[1] += e["dur"]
            if e["cat"] == "C_APP":
                functions[e["name"]] = functions.get(e["name"], 0) + e["dur"]
print(len(layers), len(functions))
PYEOF
PY=$(median_seconds python3 "$WORK/baseline.py" $PYFILES)

RSS=$( { /usr/bin/time -f '%M' "$ANALYZE" -j 2 --html "$WORK/report.html" "$PLAIN" >/dev/null; } 2>&1 | tail -1)

BROWSER=none
if command -v chromium >/dev/null; then
  PROFILE=$(mktemp -d)
  t0=$(date +%s.%N)
  chromium --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$PROFILE" --dump-dom "file://$WORK/report.html" 2>/dev/null |
    grep -q 'data-rendered="1"' && t1=$(date +%s.%N) &&
    BROWSER=$(printf '%.1f' "$(echo "$t1 - $t0" | bc -l)")
  rm -rf "$PROFILE"
fi

PARSE=$WORK/parse_only
c++ -O2 -std=c++17 "$ROOT/bench/analysis/parse_only.cpp" -lsimdjson -o "$PARSE"
PARSED=$("$PARSE" "$(ls "$PLAIN"/*.pfw | head -1)" "$REPS")

echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
printf 'shape: %s\n' "$SHAPE"
printf 'set: %d files, %d spans (%d I/O calls), %.0f MB of text, %.0f MB gzip, %.0f MB compact\n' \
  "$FILES" "$SPANS" "$IO" "$MB" "$(echo "$GZBYTES / 1000000" | bc -l)" "$(echo "$PFCBYTES / 1000000" | bc -l)"
printf '%-40s %10s %10s\n' "run (median of $REPS)" "seconds" "MB/s"
printf '%-40s %10.2f %10.0f\n' "dftracer-analyze -j 1" "$J1" "$(echo "$MB / $J1" | bc -l)"
printf '%-40s %10.2f %10.0f\n' "dftracer-analyze -j 2" "$J2" "$(echo "$MB / $J2" | bc -l)"
printf '%-40s %10.2f %10.0f\n' "dftracer-analyze -j 1, gzip input" "$G1" "$(echo "$MB / $G1" | bc -l)"
printf '%-40s %10.2f %10.0f\n' "dftracer-analyze -j 1, compact input" "$P1" "$(echo "$MB / $P1" | bc -l)"
printf '%-40s %10.2f %10.0f\n' "python3 json.loads loop (4 files)" "$PY" "$(echo "$PYBYTES / 1000000 / $PY" | bc -l)"
printf '%-40s %10.2f %10.0f\n' "-j 1, CPU seconds (user+sys), plain" "$C1" "$(echo "$MB / $C1" | bc -l)"
printf '%-40s %10.2f %10.0f\n' "-j 1, CPU seconds (user+sys), gzip" "$CG" "$(echo "$MB / $CG" | bc -l)"
printf 'ratios: -j2/-j1 speedup %.2fx; gzip/plain time %.2fx; analyzer/python throughput %.1fx\n' \
  "$(echo "$J1 / $J2" | bc -l)" "$(echo "$G1 / $J1" | bc -l)" \
  "$(echo "($MB / $J1) / ($PYBYTES / 1000000 / $PY)" | bc -l)"
printf 'events/s, -j 1: plain %.2f M/s, compact %.2f M/s (%.2fx; %.1f bytes per event on disk, .pfw %.1f)\n' \
  "$(echo "$SPANS / $J1 / 1000000" | bc -l)" "$(echo "$SPANS / $P1 / 1000000" | bc -l)" \
  "$(echo "$J1 / $P1" | bc -l)" "$(echo "$PFCBYTES / $SPANS" | bc -l)" "$(echo "$BYTES / $SPANS" | bc -l)"
printf 'peak RSS, -j 2 --html over the set: %d MB\n' "$((RSS / 1024))"
printf 'HTML report: %d KB; headless Chromium drew it in %s s\n' \
  "$(( $(stat -c %s "$WORK/report.html") / 1024 ))" "$BROWSER"
printf 'parse only, one file:\n%s\n' "$PARSED"
[ -n "${KEEP:-}" ] || rm -rf "$PLAIN" "$GZ" "$PFC"
