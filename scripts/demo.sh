#!/usr/bin/env bash
# The annotate demo: instrument the sample HPC I/O kernels, run them under MPI
# with tracing on, and summarise the traces.
#
#   scripts/demo.sh            # from anywhere; works on a fresh clone
#
# Steps: install the build dependencies (scripts/bootstrap.sh), configure and
# build the annotator, the runtime and the trace checker into build/ (only
# what changed), annotate test/inputs/kernels/*.c into build/demo/annotated/,
# compile each annotated kernel with mpicc against MPICH's parallel HDF5 and
# libdftracer_core, run it with `mpirun -np 2` and DFTRACER_ENABLE=1, and
# print dftracer-check's per-function summary of its traces, with the I/O
# calls (POSIX, STDIO, MPI-IO, HDF5) that the runtime recorded under the
# functions, and for a few kernels the tree of one function's I/O; then
# analyse every kernel's traces with dftracer-analyze and write the HTML
# report (build/demo/report.html); end with the findings (--diagnose) and
# one comparison: vpic_writer run again with its configuration's TRANSFER
# key collective instead of the demo's alternate, `dftracer-analyze
# --compare BASE CHANGED`; and one tuning trial: `dftracer-tune run` on
# vpic_writer with DFTRACER_TUNE='hdf5.xfer=collective' (applied by the
# runtime, no rebuild; docs/tuning.md), 6 rounds, its table and the trial's
# entry in a ledger under build/demo (never the user's own ledger).
#
# scripts/readme-blocks.py runs this demo once and copies its output into
# README.md's marked blocks.
#
# Environment: BUILD_DIR (default build), NP (default 2).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
NP=${NP:-2}
DEMO=$BUILD/demo
KERNELS=$ROOT/test/inputs/kernels
start=$SECONDS

step() { printf '\n==> %s\n' "$*"; }
die() { printf 'demo: error: %s\n' "$*" >&2; exit 1; }

step "Installing build dependencies (scripts/bootstrap.sh)"
"$ROOT/scripts/bootstrap.sh"

step "Building annotate, libdftracer_core, dftracer-check, dftracer-analyze and dftracer-tune in $BUILD"
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$BUILD" --target annotate dftracer_core dftracer-check dftracer-analyze \
  dftracer-tune

ANNOTATE=$BUILD/bin/annotate
CHECK=$BUILD/bin/dftracer-check
ANALYZE=$BUILD/bin/dftracer-analyze
TUNE=$BUILD/bin/dftracer-tune
RUNTIME_LIB=$(find "$BUILD/runtime" -maxdepth 2 -name libdftracer_core.so -print -quit)
[ -x "$ANNOTATE" ] || die "$ANNOTATE was not built"
[ -x "$CHECK" ] || die "$CHECK was not built"
[ -x "$ANALYZE" ] || die "$ANALYZE was not built"
[ -x "$TUNE" ] || die "$TUNE was not built (it needs libsqlite3-dev)"
[ -n "$RUNTIME_LIB" ] || die "libdftracer_core.so not found under $BUILD/runtime"

# MPICH's parallel HDF5 (libhdf5-mpich-dev) and mpicc's own include folders.
MULTIARCH=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
HDF5_INC=/usr/include/hdf5/mpich
HDF5_LIB=/usr/lib/$MULTIARCH/hdf5/mpich
[ -f "$HDF5_INC/hdf5.h" ] || die "no $HDF5_INC/hdf5.h: install libhdf5-mpich-dev"
MPI_INCS=()
for word in $(mpicc -show); do
  case $word in -I*) MPI_INCS+=("$word") ;; esac
done

# io_tree TRACE FUNCTION [MAX]: the first call of FUNCTION in TRACE and the
# I/O events under it, indented by depth (at most MAX lines, default 18):
# the runtime nests each I/O call under the span that made it (p_idx).
io_tree() {
  awk -v root="$2" -v max="${3:-18}" '
    function field(key,   m) {
      if (match($0, "\"" key "\":(\"[^\"]*\"|[0-9-]+)")) {
        m = substr($0, RSTART + length(key) + 3, RLENGTH - length(key) - 3)
        gsub(/"/, "", m); return m
      }
      return ""
    }
    /"ph":"X"/ {
      id = field("id"); name[id] = field("name"); cat[id] = field("cat")
      dur[id] = field("dur"); bytes[id] = field("bytes")
      if (bytes[id] == "" && cat[id] == "POSIX" && name[id] ~ /read|write/)
        bytes[id] = field("ret")
      if (bytes[id] == "" && cat[id] == "STDIO" && name[id] ~ /read|write/)
        bytes[id] = field("size") * field("ret")
      kids[field("p_idx")] = kids[field("p_idx")] " " id
      if (name[id] == root && first == "") first = id
      order[++n] = id
    }
    function show(id, depth,   k, i, c) {
      if (shown++ >= max) return
      printf "    %*s%-24s %-6s %8s us%s\n", depth * 2, "", name[id], cat[id], dur[id],
             bytes[id] != "" && cat[id] != "C_APP" ? "  " bytes[id] " B" : ""
      c = split(kids[id], k, " ")
      for (i = 1; i <= c; ++i) if (cat[k[i]] != "C_APP") show(k[i], depth + 1)
    }
    END { if (first != "") show(first, 0) }' "$1"
}

step "Annotating $(ls "$KERNELS"/*.c | wc -l) kernels into $DEMO/annotated"
rm -rf "$DEMO"
mkdir -p "$DEMO/annotated" "$DEMO/bin" "$DEMO/out" "$DEMO/traces"
"$ANNOTATE" -o "$DEMO/annotated" --root "$KERNELS" --meta run=demo \
  "$KERNELS"/*.c -- "${MPI_INCS[@]}" -I"$HDF5_INC" -I"$ROOT/runtime/include"

# How each kernel is run; {OUT} is its output folder (also its working folder).
# vpic_writer's run is also the comparison's baseline (below): it is traced
# into that comparison's folder, so that the DFTRACER_LOG_FILE its trace
# records is its own trace folder, as the changed run's is (--compare then
# writes both {traces} and does not list it as a change), and linked into
# traces/ with the other kernels'.
COMPARE=$DEMO/compare
mkdir -p "$COMPARE/traces/alternate"

declare -A ARGS=(
  [vpic_writer]="{OUT} {OUT}/vpic_writer.cfg"
  [vpic_reader]="$DEMO/out/vpic_writer/particles.h5 {OUT}/report.txt"
  [mpiio_shared]="{OUT} 4096 8"
  [ior_driver]="-a ALL -b 65536 -t 16384 -s 2 -i 2 -o {OUT}/ior"
  [h5_metadata_stress]="{OUT} $KERNELS/h5_metadata_stress.ini"
)
ORDER=(vpic_writer vpic_reader mpiio_shared ior_driver h5_metadata_stress)

for name in "${ORDER[@]}"; do
  step "$name: mpicc, then mpirun -np $NP with DFTRACER_ENABLE=1"
  mpicc -Wall -Werror -O2 -I"$HDF5_INC" -I"$ROOT/runtime/include" \
    "$DEMO/annotated/$name.c" -o "$DEMO/bin/$name" \
    "$RUNTIME_LIB" -Wl,-rpath,"$(dirname "$RUNTIME_LIB")" \
    -L"$HDF5_LIB" -Wl,-rpath,"$HDF5_LIB" -lhdf5
  out=$DEMO/out/$name
  mkdir -p "$out"
  # Its configuration beside its output: the comparison's baseline run.
  if [ "$name" = vpic_writer ]; then cp "$KERNELS/vpic_writer.cfg" "$out/"; fi
  log=$DEMO/traces/$name
  if [ "$name" = vpic_writer ]; then log=$COMPARE/traces/alternate/$name; fi
  # shellcheck disable=SC2086 # the argument strings are split on purpose
  (cd "$out" && DFTRACER_ENABLE=1 DFTRACER_LOG_FILE="$log" \
     mpirun -np "$NP" "$DEMO/bin/$name" ${ARGS[$name]//\{OUT\}/$out}) \
    >"$DEMO/out/$name.stdout"
  if [ "$log" != "$DEMO/traces/$name" ]; then
    ln "$log"-* "$DEMO/traces/" 2>/dev/null || cp "$log"-* "$DEMO/traces/"
  fi
  lines=$(wc -l <"$DEMO/out/$name.stdout")
  [ "$lines" -le 6 ] || echo "    ... ($((lines - 6)) more lines in $DEMO/out/$name.stdout)"
  tail -n 6 "$DEMO/out/$name.stdout" | sed 's/^/    /'
  step "$name: trace summary (dftracer-check): functions and the I/O calls in them"
  "$CHECK" "$DEMO/traces/$name"-*-app.pfw* | sed 's/^/    /'
  case $name in
    mpiio_shared) fn=write_phase ;;
    vpic_writer) fn=write_dataset ;;
    ior_driver) fn=MPIIO_Xfer ;;
    *) fn= ;;
  esac
  if [ -n "$fn" ]; then
    # Rank 0's trace (its MPI_JOB record), so that the tree is the same
    # rank's from run to run (the files' names are hashes).
    rank0=$(grep -l '"name":"MPI_JOB".*"rank":0,' "$DEMO/traces/$name"-*-app.pfw | head -1)
    [ -n "$rank0" ] || rank0=$(ls "$DEMO/traces/$name"-*-app.pfw | head -1)
    step "$name: the I/O under the first call of $fn (rank 0)"
    io_tree "$rank0" "$fn"
  fi
done

step "Analysis of all the kernels' traces (dftracer-analyze, docs/analysis.md)"
# The report starts with its findings (docs/diagnosis.md): shown last here.
"$ANALYZE" --top 12 --html "$DEMO/report.html" "$DEMO/traces" >"$DEMO/analysis.txt"
awk '/^Findings \(/ { skip = 1 } skip && /^$/ { skip = 0; next } !skip' \
  "$DEMO/analysis.txt" | sed 's/^/    /'

step "Findings of the kernels' traces (the analysis's first section; docs/diagnosis.md)"
awk '/^Findings \(/ { on = 1 } on && /^$/ { exit } on' "$DEMO/analysis.txt" \
  | sed 's/^/    /'

# One change, compared: vpic_writer again with one key of its configuration
# changed, TRANSFER = collective instead of the demo's alternate (collective
# and independent H5Dwrite by timestep). Each run has its configuration and
# output in one folder, so both hold the same files relative to it
# (--compare's test); the baseline is the demo's run above, traced into
# $COMPARE/traces/alternate.
run=$COMPARE/collective
mkdir -p "$COMPARE/traces/collective" "$run"
sed 's/^TRANSFER *=.*/TRANSFER = collective/' "$KERNELS/vpic_writer.cfg" \
  >"$run/vpic_writer.cfg"
step "One change: vpic_writer with TRANSFER = collective, mpirun -np $NP"
diff "$KERNELS/vpic_writer.cfg" "$run/vpic_writer.cfg" | sed 's/^/    /' || true
(cd "$run" && DFTRACER_ENABLE=1 DFTRACER_LOG_FILE="$COMPARE/traces/collective/vpic_writer" \
   mpirun -np "$NP" "$DEMO/bin/vpic_writer" "$run" "$run/vpic_writer.cfg") \
  >"$COMPARE/vpic_writer.stdout"
step "Comparison: dftracer-analyze --compare BASE CHANGED (docs/diagnosis.md#comparison)"
echo "    \$ dftracer-analyze --compare $COMPARE/traces/alternate $COMPARE/traces/collective"
"$ANALYZE" --compare "$COMPARE/traces/alternate" "$COMPARE/traces/collective" \
  | sed 's/^/    /'

# One tuning trial: the same change, collective transfers, made by the
# runtime on the unchanged binary (DFTRACER_TUNE='hdf5.xfer=collective'
# turns every H5Dwrite's transfer list collective; docs/runtime.md) and
# decided over replicates: 6 rounds of baseline and candidate, interleaved,
# each run with a fresh {run} output folder (4 a side is the fewest that
# can decide, and then only when every run of one side beats every run of
# the other: one slow run on a loaded machine would leave it undecided; 6
# a side still decide with one).
# The ledger is the demo's own.
TUNING=$DEMO/tune
step "Tuning: dftracer-tune run, vpic_writer with DFTRACER_TUNE='hdf5.xfer=collective', 6 rounds (docs/tuning.md)"
echo "    \$ dftracer-tune run --name vpic_writer --replicates 6 --try 'hdf5.xfer=collective' \\"
echo "        --work $TUNING/runs --ledger $TUNING/ledger.sqlite \\"
echo "        -- mpirun -np $NP $DEMO/bin/vpic_writer {run} $KERNELS/vpic_writer.cfg"
"$TUNE" run --name vpic_writer --replicates 6 --try 'hdf5.xfer=collective' \
  --work "$TUNING/runs" --ledger "$TUNING/ledger.sqlite" \
  -- mpirun -np "$NP" "$DEMO/bin/vpic_writer" '{run}' "$KERNELS/vpic_writer.cfg" \
  | sed 's/^/    /'
step "The trial in the ledger: dftracer-tune ledger --markdown"
echo "    \$ dftracer-tune ledger --markdown --ledger $TUNING/ledger.sqlite"
"$TUNE" ledger --markdown --ledger "$TUNING/ledger.sqlite" | sed 's/^/    /'

step "Done in $((SECONDS - start)) s"
cat <<EOF
Annotated sources: $DEMO/annotated/   (compare: diff -u $KERNELS/ior_driver.c $DEMO/annotated/ior_driver.c)
Trace files:       $DEMO/traces/
$(ls -1 "$DEMO/traces" | sed 's/^/    /')
Kernel outputs:    $DEMO/out/
Comparison:        $COMPARE/   (vpic_writer with TRANSFER = collective; traces/alternate is the run above)
Tuning trial:      $TUNING/runs/   (one folder per run); ledger $TUNING/ledger.sqlite
HTML report:       $DEMO/report.html   (self-contained; open it in any browser)
Open a .pfw file in Perfetto or Chrome tracing, or check it with: $CHECK $DEMO/traces
EOF
