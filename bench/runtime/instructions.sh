#!/usr/bin/env bash
# Instructions on the traced thread, counted by callgrind (they do not move
# with the machine's load, unlike the ns of RuntimeBench on a shared VM),
# under each given build of the runtime, in both formats:
#
#  - pair: a START/END pair (span_pairs.c, 100,000 spans, every one
#    written): dftracer_span_begin's and dftracer_span_end's inclusive cost
#    over the number of pairs;
#  - fwrite, write, pwrite: a traced 1-byte call (data_calls.c, 100,000
#    calls, preloaded, unthrottled): the wrapper's inclusive cost over the
#    number of calls; and, once, libc's own function without the runtime
#    (the untraced call), and each traced call above it.
#
#   bench/runtime/instructions.sh LIBDIR...   (each holding libdftracer_core.so.0)
#
# DARSHAN=PATH/libdarshan.so adds Darshan's wrappers (issue 40's side by
# side; bench/ior/build.sh builds it): the same data_calls preloaded with
# Darshan in its non-MPI mode, counters only and with DXT (its full trace),
# the wrapper's inclusive cost in libdarshan over the number of calls.
#
# A last table counts the whole process instead (every thread: this
# runtime's writer thread, which formats and encodes the records off the
# calling thread, and Darshan's shutdown, which reduces and compresses its
# log), per call, above the untraced program's own total.
#
# The libraries are measured in turn for each case, so old and new are
# alternated in one run. FORMATS (default "pfw compact") picks the formats.
# The buffer is aligned (no `mem_align` arg); BUF_OFFSET=1 puts it one
# byte past that, the calls then carrying `"mem_align":1`. Any failed run
# stops the script with its command and its output.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d /tmp/dft-instructions-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
calls=100000
die() { echo "instructions.sh: $*" >&2; exit 1; }
# run LOG CMD...: CMD in $tmp, or stop with its command and output.
run() {
  local log=$1; shift
  if ! (cd "$tmp" && "$@") > "$log" 2>&1; then
    echo "instructions.sh: failed: $*" >&2
    tail -20 "$log" >&2
    exit 1
  fi
}
# total CGFILE: the run's instructions, every thread.
total() {
  local n
  n=$(callgrind_annotate "$1" 2>/dev/null |
    awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}')
  [ -n "$n" ] || die "no program totals in $1"
  echo "$n"
}
# inclusive CGFILE NAME OBJECT: NAME's inclusive instructions in OBJECT.
inclusive() {
  local n
  n=$(callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
    awk -v n="$2" -v o="$3" '{f = $3; sub(/.*:/, "", f)}
      f == n && $4 ~ o {gsub(",", "", $1); print $1; exit}')
  [ -n "$n" ] || die "no $2 in $3 in $1"
  echo "$n"
}
libs=()
for lib in "$@"; do
  [ -e "$lib/libdftracer_core.so.0" ] || die "no $lib/libdftracer_core.so.0"
  libs+=("$(cd "$lib" && pwd)")
done
[ ${#libs[@]} -gt 0 ] || die "usage: instructions.sh LIBDIR..."
run "$tmp/cc.log" cc -O2 "$root/bench/runtime/data_calls.c" -o "$tmp/data_calls"
for i in "${!libs[@]}"; do
  run "$tmp/cc.log" cc -O2 -I"$root/runtime/include" \
    "$root/bench/runtime/span_pairs.c" -o "$tmp/span_pairs_$i" \
    "${libs[$i]}/libdftracer_core.so.0" -Wl,--allow-shlib-undefined
done
mkdir -p "$tmp/io" "$tmp/trace"
names=(fwrite write pwrite)
kinds=(f w p)
# libc's own calls, untraced.
declare -A base whole
for k in 0 1 2; do
  run "$tmp/run.log" valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" \
    ./data_calls ${kinds[$k]} $calls ${BUF_OFFSET:-0}
  n=$(inclusive "$tmp/cg" "${names[$k]}" 'libc\.so')
  base[$k]=$(echo "$n / $calls" | bc -l)
  whole[base,$k]=$(total "$tmp/cg")
done
# above KEY K: the whole process's instructions per call above untraced.
above() { echo "(${whole[$1,$2]} - ${whole[base,$2]}) / $calls" | bc -l; }
printf "%-8s %-40s %8s %9s %9s %9s\n" format library pair fwrite write pwrite
printf "%-8s %-40s %8s %9.1f %9.1f %9.1f\n" untraced libc - "${base[0]}" "${base[1]}" "${base[2]}"
if [ -n "${DARSHAN:-}" ]; then
  [ -e "$DARSHAN" ] || die "no $DARSHAN"
  mkdir -p "$tmp/darshan"
  for mode in counters dxt; do
    declare -A dar=()
    for k in 0 1 2; do
      rm -f "$tmp"/io/* "$tmp"/darshan/*
      # Darshan turns DXT on when DXT_ENABLE_IO_TRACE is set at all.
      dxt=(-u DXT_ENABLE_IO_TRACE); [ $mode = dxt ] && dxt=(DXT_ENABLE_IO_TRACE=1)
      run "$tmp/run.log" env "${dxt[@]}" LD_PRELOAD="$DARSHAN" DARSHAN_ENABLE_NONMPI=1 \
        DARSHAN_LOG_DIR_PATH="$tmp/darshan" \
        valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" \
        ./data_calls ${kinds[$k]} $calls ${BUF_OFFSET:-0}
      ls "$tmp"/darshan/* > /dev/null 2>&1 || die "Darshan ($mode) wrote no log"
      n=$(inclusive "$tmp/cg" "${names[$k]}" libdarshan)
      dar[$k]=$(echo "$n / $calls" | bc -l)
      whole[darshan-$mode,$k]=$(total "$tmp/cg")
    done
    printf "%-8s %-40s %8s %9.1f %9.1f %9.1f\n" darshan "$mode" - \
      "${dar[0]}" "${dar[1]}" "${dar[2]}"
    printf "%-8s %-40s %8s %9.1f %9.1f %9.1f\n" "" "  above untraced" "" \
      "$(echo "${dar[0]} - ${base[0]}" | bc -l)" \
      "$(echo "${dar[1]} - ${base[1]}" | bc -l)" \
      "$(echo "${dar[2]} - ${base[2]}" | bc -l)"
  done
fi
for fmt in ${FORMATS:-pfw compact}; do
  declare -A fig=()
  for k in s 0 1 2; do
    for i in "${!libs[@]}"; do
      lib=${libs[$i]}
      rm -f "$tmp"/trace/* "$tmp"/io/*
      env=(DFTRACER_ENABLE=1 DFTRACER_THROTTLE=0 DFTRACER_TRACE_FORMAT=$fmt
        DFTRACER_DATA_DIR="$tmp/io" DFTRACER_LOG_FILE="$tmp/trace/t")
      if [ $k = s ]; then
        run "$tmp/run.log" env "${env[@]}" LD_LIBRARY_PATH="$lib" \
          valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" \
          "$tmp/span_pairs_$i" $calls
        b=$(inclusive "$tmp/cg" dftracer_span_begin libdftracer_core)
        e=$(inclusive "$tmp/cg" dftracer_span_end libdftracer_core)
        fig[$k,$i]=$(echo "($b + $e) / $calls" | bc -l)
      else
        run "$tmp/run.log" env "${env[@]}" LD_PRELOAD="$lib/libdftracer_core.so.0" \
          valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" \
          ./data_calls ${kinds[$k]} $calls ${BUF_OFFSET:-0}
        n=$(inclusive "$tmp/cg" "${names[$k]}" libdftracer_core)
        fig[$k,$i]=$(echo "$n / $calls" | bc -l)
        whole[$fmt-$i,$k]=$(total "$tmp/cg")
      fi
      ls "$tmp"/trace/* > /dev/null 2>&1 || die "$lib ($fmt) wrote no trace"
    done
  done
  for i in "${!libs[@]}"; do
    printf "%-8s %-40s %8.1f %9.1f %9.1f %9.1f\n" "$fmt" "${libs[$i]}" \
      "${fig[s,$i]}" "${fig[0,$i]}" "${fig[1,$i]}" "${fig[2,$i]}"
    printf "%-8s %-40s %8s %9.1f %9.1f %9.1f\n" "" "  above untraced" "" \
      "$(echo "${fig[0,$i]} - ${base[0]}" | bc -l)" \
      "$(echo "${fig[1,$i]} - ${base[1]}" | bc -l)" \
      "$(echo "${fig[2,$i]} - ${base[2]}" | bc -l)"
  done
done
echo
echo "whole process (every thread), instructions per call above untraced"
printf "%-8s %-40s %8s %9s %9s %9s\n" format library "" fwrite write pwrite
keys=()
[ -n "${DARSHAN:-}" ] && keys+=(darshan-counters darshan-dxt)
for fmt in ${FORMATS:-pfw compact}; do
  for i in "${!libs[@]}"; do keys+=("$fmt-$i"); done
done
for key in "${keys[@]}"; do
  case $key in darshan-*) f=darshan; l=${key#darshan-} ;; *) f=${key%-*}; l=${libs[${key##*-}]} ;; esac
  printf "%-8s %-40s %8s %9.1f %9.1f %9.1f\n" "$f" "$l" "" \
    "$(above "$key" 0)" "$(above "$key" 1)" "$(above "$key" 2)"
done
