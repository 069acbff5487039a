#!/usr/bin/env bash
# IOR 4.0.0 side by side with Darshan, strace as referee (issue 22), and the
# diagnosis and comparison on real code (issue 23). A benchmark, not a test:
# it needs IOR and Darshan built by build.sh from fetched sources, which no
# ctest has.
#
#   bench/ior/build.sh IOR_SRC DARSHAN_SRC [WORK]   # first
#   bench/ior/run.sh [WORK] [CASE...]               # WORK: default /tmp/ior-darshan
#
# Issue 22 cases (CASES22; 2 ranks, -w -r, small sizes so each run takes
# seconds), each run three ways on the same arguments:
#   posix_fpp     -a POSIX -t 4k -b 4m -F       file per process
#   posix_random  -a POSIX -t 4k -b 4m -z --random-offset-seed=42
#                                               one shared file, random offsets
#                                               (the same in both runs)
#   mpiio_coll    -a MPIIO -t 64k -b 4m -c      shared file, collective
#   hdf5          -a HDF5 -t 64k -b 4m          shared file, MPI-IO driver
#  1. darshan: the plain IOR under LD_PRELOAD=libdarshan.so, its log parsed
#     with `darshan-parser --all` and `--perf` (darshan.txt, darshan-perf.txt);
#  2. traced: the annotated IOR with DFTRACER_ENABLE=1, then
#     `dftracer-analyze --json --all-files` (analyze.json) and the text
#     report (analyze.txt);
#  each under `strace -f -y -e trace=desc` (strace-darshan.log,
#  strace-traced.log), summarised per file by strace_access.py; then
#  compare.py writes table.md: per file of the data directory, Darshan's
#  counters, this analyzer's figures and strace's, side by side.
# Issue 23 pairs (CASES23; traced only, no strace, no Darshan):
#   posix_4k / posix_1m        -a POSIX -t 4k / -t 1m, -b 16m
#   mpiio_indep / mpiio_coll4k -a MPIIO -t 4k -b 4k -s 1024, without / with -c
#                              (the ranks' 4 KiB blocks alternate in the file)
#  each REPEAT times (default 3), the pairs' runs alternated (A B A B ...),
#  into CASE/rN/traces; `dftracer-analyze` of r1 (the text report, Findings
#  first: CASE/report.txt) and `dftracer-analyze --compare SMALL/r1
#  --compare SMALL/r2 ... --replicates BIG/r1 BIG/r2 ...` (BIG/compare.txt):
#  the replicates' spread is the noise band of the comparison.
#
# Every run directory is WORK/runs/CASE; IOR's files go to WORK/data/CASE
# (DATA to change it: the file system's type is in the reports). The load
# average is printed before and after each run (loadavg lines).
# Environment: BUILD_DIR (default build/: dftracer-analyze), NP (2),
# CASES22, CASES23 (space-separated names; "" skips a group), REPEAT (3).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HERE=$ROOT/bench/ior
BUILD=${BUILD_DIR:-$ROOT/build}
WORK=${1:-/tmp/ior-darshan}
[ $# -gt 0 ] && shift
WORK=$(cd "$WORK" && pwd)
DATA=${DATA:-$WORK/data}
NP=${NP:-2}
ANALYZE=$BUILD/bin/dftracer-analyze
IOR_PLAIN=$WORK/ior-plain/src/ior
IOR_ANN=$WORK/ior-annotated/src/ior
DLIB=$WORK/darshan/prefix/lib/libdarshan.so
DPARSER=$WORK/darshan/prefix/bin/darshan-parser
for f in "$ANALYZE" "$IOR_PLAIN" "$IOR_ANN" "$DLIB" "$DPARSER"; do
  [ -e "$f" ] || { echo "run.sh: $f missing (bench/ior/build.sh first)" >&2; exit 2; }
done
CASES22=${CASES22-posix_fpp posix_random mpiio_coll hdf5}
CASES23=${CASES23-posix_4k posix_1m mpiio_indep mpiio_coll4k}
if [ $# -gt 0 ]; then CASES22=""; CASES23=""; for c in "$@"; do
  case $c in posix_4k|posix_1m|mpiio_indep|mpiio_coll4k) CASES23+=" $c" ;; *) CASES22+=" $c" ;; esac
done; fi

args_of() {
  case $1 in
    posix_fpp)    echo "-a POSIX -t 4k -b 4m -F" ;;
    posix_random) echo "-a POSIX -t 4k -b 4m -z --random-offset-seed=42" ;;
    mpiio_coll)   echo "-a MPIIO -t 64k -b 4m -c" ;;
    hdf5)         echo "-a HDF5 -t 64k -b 4m" ;;
    posix_4k)     echo "-a POSIX -t 4k -b 16m" ;;
    posix_1m)     echo "-a POSIX -t 1m -b 16m" ;;
    mpiio_indep)  echo "-a MPIIO -t 4k -b 4k -s 1024" ;;
    mpiio_coll4k) echo "-a MPIIO -t 4k -b 4k -s 1024 -c" ;;
    *) echo "run.sh: unknown case $1" >&2; return 1 ;;
  esac
}
loadavg() { echo "loadavg $1: $(cut -d' ' -f1-3 /proc/loadavg)"; }
STRACE=(strace -f -y -qq -s 0 -e trace=desc)

darshan_run() {  # CASE DIR
  local c=$1 d=$2 data=$DATA/$1
  rm -rf "$d/darshan" "$data"; mkdir -p "$d/darshan" "$data"
  # shellcheck disable=SC2046
  "${STRACE[@]}" -o "$d/strace-darshan.log" \
    mpirun -np "$NP" -genv LD_PRELOAD "$DLIB" -genv DARSHAN_LOG_DIR_PATH "$d/darshan" \
    "$IOR_PLAIN" $(args_of "$c") -w -r -o "$data/testFile" >"$d/ior-darshan.out" 2>&1
  local log; log=$(ls "$d"/darshan/*.darshan | head -1)
  "$DPARSER" --all "$log" >"$d/darshan.txt"
  "$DPARSER" --perf "$log" >"$d/darshan-perf.txt"
  "$HERE/strace_access.py" "$d/strace-darshan.log" "$data" >"$d/strace-darshan.json"
}

traced_run() {  # CASE DIR [STRACE]
  local c=$1 d=$2 data=$DATA/$1 pre=()
  mkdir -p "$d"
  [ "${3:-}" = strace ] && pre=("${STRACE[@]}" -o "$d/strace-traced.log")
  rm -rf "$d/traces" "$data"; mkdir -p "$d/traces" "$data"
  # shellcheck disable=SC2046
  DFTRACER_ENABLE=1 DFTRACER_LOG_FILE="$d/traces/ior" \
    "${pre[@]}" mpirun -np "$NP" "$IOR_ANN" $(args_of "$c") -w -r -o "$data/testFile" \
    >"$d/ior-traced.out" 2>&1
  if [ "${3:-}" = strace ]; then
    "$HERE/strace_access.py" "$d/strace-traced.log" "$data" >"$d/strace-traced.json"
  fi
}

for c in $CASES22; do
  d=$WORK/runs/$c; mkdir -p "$d"
  echo "== $c: ior $(args_of "$c") -w -r (np $NP)"
  loadavg before
  darshan_run "$c" "$d"
  traced_run "$c" "$d" strace
  loadavg after
  "$ANALYZE" --json --all-files "$d/traces" >"$d/analyze.json"
  "$ANALYZE" "$d/traces" >"$d/analyze.txt"
  "$HERE/compare.py" "$d" "$DATA/$c" "$c: ior $(args_of "$c") -w -r, $NP ranks" | tee "$d/table.md"
done

REPEAT=${REPEAT:-3}
for r in $(seq 1 "$REPEAT"); do
  for c in $CASES23; do
    echo "== $c (run $r of $REPEAT): ior $(args_of "$c") -w -r (np $NP)"
    loadavg before
    traced_run "$c" "$WORK/runs/$c/r$r"
    loadavg after
  done
done
for c in $CASES23; do
  "$ANALYZE" "$WORK/runs/$c/r1/traces" >"$WORK/runs/$c/report.txt"
  echo "== $c: the first finding (r1)"
  sed -n '/^Findings/,/^2\. /p' "$WORK/runs/$c/report.txt" | sed '$d'
done
pair() {  # SMALL BIG
  [ -d "$WORK/runs/$1/r1/traces" ] && [ -d "$WORK/runs/$2/r1/traces" ] || return 0
  local base=() changed=()
  for r in $(seq 1 "$REPEAT"); do
    base+=(--compare "$WORK/runs/$1/r$r/traces")
    changed+=("$WORK/runs/$2/r$r/traces")
  done
  echo "== --compare $1 $2 ($REPEAT runs each)"
  "$ANALYZE" "${base[@]}" --replicates "${changed[@]}" >"$WORK/runs/$2/compare.txt" ||
    { echo "run.sh: --compare $1 $2 failed" >&2; exit 1; }
  sed -n '1,/^layer/p' "$WORK/runs/$2/compare.txt"
}
case " $CASES23 " in *" posix_1m "*) pair posix_4k posix_1m ;; esac
case " $CASES23 " in *" mpiio_coll4k "*) pair mpiio_indep mpiio_coll4k ;; esac
