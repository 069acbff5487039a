#!/usr/bin/env bash
# h5bench annotated whole through its own CMake build's compile database
# (issue 38's real trees): its C benchmarks (commons/, h5bench_patterns/,
# the metadata stress test and the exerciser), compiled by mpicc (gcc)
# against Debian's MPICH parallel HDF5, then the annotated write and read
# benchmarks run under mpiexec -n 2, off and traced.
#
#   bench/tree/annotate_h5bench.sh H5BENCH_SRC [WORK]   # WORK: default /tmp/annotate-h5bench
#
# H5BENCH_SRC: a tree of h5bench (e.g. `git archive` of github:hpc-io/h5bench;
# h5bench is not in Debian; its submodules amrex, e3sm, macsio and openpmd
# are not built). Steps:
#   1. configures it (CMake, CC=mpicc, -DH5BENCH_METADATA=ON
#      -DH5BENCH_EXERCISER=ON, HDF5_HOME=Debian's MPICH HDF5, the project's
#      own Debug build type, -Wall) with compile_commands.json, and builds it;
#   2. times `clang-19 -fsyntax-only -w` of every command of the database
#      and `annotate -p BUILD --root SRC -o OUT -jJOBS` (default rule set),
#      and prints the report's counts and each warning line;
#   3. builds the annotated tree with the runtime linked by hand
#      (docs/integration.md, "Linking the runtime by hand"), the compiler's
#      warning lines compared with the original build's;
#   4. runs h5bench_write then h5bench_read (1-D contiguous, 2 ranks, 5
#      time steps of 1 M particles a rank) with the original, the annotated build
#      off and traced (DFTRACER_ENABLE=1): each must exit 0 and print its
#      summary;
#   5. `dftracer-check` of the traces and the Layers table of `dftracer-analyze`.
# Exits 1 if a step fails. A benchmark, not a test (not in CI). Environment:
# BUILD_DIR (default build/), JOBS (default 2).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$ROOT/bench/tree/real_tree.sh"
[ $# -ge 1 ] || { sed -n '2,/^set -e/p' "$0" | sed 's/^# \{0,1\}//;/^set -e/d'; exit 2; }
SRC=$(cd "$1" && pwd)
WORK=${2:-/tmp/annotate-h5bench}
real_tree_tools annotate_h5bench
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
cd "$WORK"
export HDF5_HOME=/usr/lib/x86_64-linux-gnu/hdf5/mpich
now() { date +%s.%N; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

configure() { # SOURCE BUILD [extra C flags] [linker flags]
  rm -rf "$2"
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_C_COMPILER=mpicc \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_COLOR_DIAGNOSTICS=OFF -DH5BENCH_METADATA=ON -DH5BENCH_EXERCISER=ON \
    -DCMAKE_C_FLAGS="-Wall ${3:-}" -DCMAKE_EXE_LINKER_FLAGS="${4:-}" >"$2.configure.log" 2>&1 ||
    { echo "configuring $1 failed:" >&2; tail -20 "$2.configure.log" >&2; exit 1; }
}
build() { real_tree_build "$1" "^($SRC|$WORK/src-annotated)/"; } # BUILD -> BUILD.warnings

# --- 1. the original ------------------------------------------------------------
configure "$SRC" "$WORK/build-orig"
build "$WORK/build-orig"
db=$WORK/build-orig/compile_commands.json
echo "== h5bench: $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$db") commands in the database; original build: $(wc -l <"$WORK/build-orig.warnings") warning lines"

# --- 2. annotate against the floor ------------------------------------------------
t0=$(now)
# The compiler is mpicc: its own include directories (`mpicc -show`) are
# added for Clang, as annotate finds them itself.
MPI_INC=()
for w in $(mpicc -show); do case $w in -I*) MPI_INC+=("$w") ;; esac; done
python3 "$ROOT/bench/tree/syntax_floor.py" "$db" "$JOBS" "$CLANG" "${MPI_INC[@]}"
t1=$(now)
rm -rf out && mkdir out
status=0
"$ANNOTATE" -p "$WORK/build-orig" --root "$SRC" -o out -j"$JOBS" --report report.json 2>annotate.err || status=$?
t2=$(now)
if [ "$status" -gt 1 ] || [ ! -s report.json ]; then
  tail -20 annotate.err >&2; echo "annotate_h5bench: annotate exited $status" >&2; exit 1
fi
s=$(echo "$t1 - $t0" | bc) a=$(echo "$t2 - $t1" | bc)
echo "== clang -fsyntax-only -j$JOBS $s s, annotate -j$JOBS $a s: $(echo "scale=2; $a / $s" | bc)x (load $(load))"
python3 "$ROOT/bench/tree/annotate_summary.py" report.json annotate.err
ann=$WORK/src-annotated
rm -rf "$ann" && cp -r "$SRC" "$ann" && cp -r out/. "$ann/"
echo "files changed by annotate: $(diff -rq "$SRC" "$ann" | wc -l)"

# --- 3. the annotated build ---------------------------------------------------------
real_tree_annotated_build "$ann"

# --- 4. write and read, off and traced ------------------------------------------------
cat >"$WORK/write.cfg" <<'EOF'
MEM_PATTERN=CONTIG
FILE_PATTERN=CONTIG
TIMESTEPS=5
DELAYED_CLOSE_TIMESTEPS=2
COLLECTIVE_DATA=YES
COLLECTIVE_METADATA=YES
EMULATED_COMPUTE_TIME_PER_TIMESTEP=0 s
NUM_DIMS=1
DIM_1=1048576
DIM_2=1
DIM_3=1
EOF
sed 's/^DELAYED_CLOSE_TIMESTEPS=.*/READ_OPTION=FULL/' "$WORK/write.cfg" >"$WORK/read.cfg"
run() { # BUILD MODE(off|traced)
  local b=$WORK/$1 log=$WORK/run-$1-$2.log data=$WORK/data-$1-$2 env=(env -u DFTRACER_ENABLE)
  rm -rf "$data" && mkdir -p "$data"
  if [ "$2" = traced ]; then
    rm -rf "$WORK/traces" && mkdir -p "$WORK/traces"
    env=(env DFTRACER_ENABLE=1 DFTRACER_LOG_FILE="$WORK/traces/trace")
  fi
  local t0 t1; t0=$(now)
  { "${env[@]}" mpiexec -n 2 "$b/h5bench_write" "$WORK/write.cfg" "$data/test.h5" &&
    "${env[@]}" mpiexec -n 2 "$b/h5bench_read" "$WORK/read.cfg" "$data/test.h5"; } >"$log" 2>&1 ||
    { echo "h5bench of $1 ($2) failed:" >&2; tail -20 "$log" >&2; exit 1; }
  t1=$(now)
  [ "$(grep -c 'Total emulated compute time' "$log")" = 2 ] ||
    { echo "h5bench of $1 ($2): no summary from both runs" >&2; tail -20 "$log" >&2; exit 1; }
  echo "$1 $2: $(echo "$t1 - $t0" | bc) s, write and read exit 0 ($(grep -m1 -i 'raw write rate' "$log" | sed 's/^ *//'))"
}
echo "== h5bench_write + h5bench_read, mpiexec -n 2 (load $(load))"
run build-orig off
run build-annotated off
run build-annotated traced

# --- 5. the traces --------------------------------------------------------------------
echo "== traces: $(du -sb "$WORK/traces" | cut -f1) bytes in $(ls "$WORK/traces" | wc -l) file(s)"
"$CHECK" "$WORK/traces" >"$WORK/check.txt" 2>&1 ||
  { echo "dftracer-check: the traces are not valid" >&2; tail -20 "$WORK/check.txt" >&2; exit 1; }
grep -qi caveat "$WORK/check.txt" && { grep -i caveat "$WORK/check.txt" >&2; exit 1; }
tail -2 "$WORK/check.txt"
"$ANALYZE" -j"$JOBS" "$WORK/traces" >"$WORK/analyze.txt" 2>&1 ||
  { echo "dftracer-analyze failed" >&2; tail -20 "$WORK/analyze.txt" >&2; exit 1; }
echo "dftracer-analyze: $WORK/analyze.txt"
sed -n '/^Layers/,/^$/p' "$WORK/analyze.txt"
