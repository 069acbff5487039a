#!/usr/bin/env bash
# HDF5's library annotated whole, built, and its own tests RUN traced
# (issues 21 and 20).
#
#   bench/hdf5/run_hdf5_tests.sh [WORK]     # WORK: default /tmp/annotate-hdf5
#
# 1. annotate_hdf5.sh WORK (FLOOR=0: no syntax floor) annotates src/ into
#    WORK/out with --guard=0 (reused when WORK/report.json is newer than the
#    annotate binary).
# 2. A second copy of the source package under WORK/build, its src/ replaced
#    by out/, configured with the tests (C library only, shared only) and
#    CPPFLAGS="-I runtime/include -DDFTRACER_TEST_NO_CLEANUP": without the
#    cleanup attribute only the ENDs annotate placed close a span. The
#    runtime is linked before libhdf5 (LDFLAGS), so the HDF5 layer is traced
#    too. make builds libhdf5 and the test programs of TESTS.
# 3. span_check.so (this directory), preloaded on every run, counts the
#    spans whose function left without their END (see span_check.c); a
#    self-test first shows it counts a missing END. Leaks while
#    H5_term_library runs are counted apart (SPAN_CHECK_CONTEXT): there
#    FUNC_ENTER_*'s `if (H5_PKG_INIT_VAR || !H5_TERM_GLOBAL) {` skips the
#    END placed inside it for a package already shut down, a known limit
#    of END-before-the-exit-macro (docs/performance.md); any other leak
#    fails the run. The runtime is preloaded too (after the shim): libtool
#    links libhdf5 before it, and the HDF5 layer needs it first.
# 4. Each test of TESTS runs REPEAT times with tracing off and traced,
#    alternated (off, traced, off, traced, ...), with the default throttle
#    and size budget; each must exit 0 both ways. Then per traced run:
#    dftracer-check (valid trace; its max RSS from /usr/bin/time -v), the
#    trace's size and spans, span_check's leaks (must be 0).
# 5. WHOLE=1 (default): testhdf5 whole, off then traced (issue 20: at most
#    1 GB of trace with the default throttle), with the names that wrote
#    most spans and the throttled summary. The traced run has
#    DFTRACER_MAX_TRACE_SIZE=WHOLE_MAX (default 1G; '' for the runtime's
#    default, a quarter of the free space): says so when the budget, not
#    the throttle, stopped the trace; the throttled lines then count every
#    call the trace did not hold.
# The built tree is reused: configured once (WORK/build/.../.annotated),
# then make only remakes what changed; the runtime is linked by path and
# preloaded, so after `ninja dftracer_core` a re-run measures the new
# runtime with no HDF5 rebuild. TESTS='' builds and runs no subset (only
# the whole testhdf5); WHOLE_OFF=0 skips its untraced run.
# Prints one line per run and a summary; exit 0 only when every test passed
# both ways, every trace is valid and no span leaked (and the whole
# testhdf5 trace is at most 1 GB).
# Environment: BUILD_DIR (runtime and dftracer-check; default build/),
# JOBS (default 2), REPEAT (default 1), WHOLE (default 1), WHOLE_MAX,
# HDF5_ALARM (testframe's watchdog, seconds; default 7200), TESTS (';'-
# separated commands run in test/; default below), ANNOTATE.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
BUILD=$(cd "$BUILD" && pwd)
ANNOTATE=${ANNOTATE:-$BUILD/bin/annotate}
CHECK=$BUILD/bin/dftracer-check
RUNTIME=$BUILD/runtime
JOBS=${JOBS:-2}
REPEAT=${REPEAT:-1}
WHOLE=${WHOLE:-1}
TESTS=${TESTS-"testhdf5 -o config -o metadata -o checksum -o heap -o skiplist -o refstr -o file -o h5s -o coords -o id -o time -o array;lheap;ohdr;stab;gheap;fillval;extend"}
WHOLE_MAX=${WHOLE_MAX-1G} # set but empty: the runtime's default budget
WORK=${1:-/tmp/annotate-hdf5}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
for f in "$ANNOTATE" "$CHECK" "$RUNTIME/libdftracer_core.so"; do
  [ -e "$f" ] || { echo "run_hdf5_tests.sh: $f missing (ninja -C $BUILD annotate dftracer-check dftracer_core)" >&2; exit 2; }
done
log() { echo "run_hdf5_tests: $*" >&2; }

# 1. The annotated sources.
if [ ! -f "$WORK/report.json" ] || [ "$ANNOTATE" -nt "$WORK/report.json" ]; then
  log "annotating (annotate_hdf5.sh, FLOOR=0)"
  FLOOR=0 BUILD_DIR=$BUILD ANNOTATE=$ANNOTATE JOBS=$JOBS \
    "$ROOT/bench/hdf5/annotate_hdf5.sh" "$WORK"
fi
annotated=$(grep -l DFTRACER_C_FUNCTION_START "$WORK"/out/*.c | wc -l)

# 2. The library and the tests, built from the annotated sources.
progs=$(echo "$TESTS" | tr ';' '\n' | awk 'NF {print $1}' | sort -u | tr '\n' ' ')
tree=$WORK/build/hdf5-1.10.8+repack1
if [ ! -f "$tree/.annotated" ]; then
  log "configuring $tree"
  rm -rf "$WORK/build" && mkdir -p "$WORK/build"
  (cd "$WORK/build" && dpkg-source -x --no-check "$(ls "$WORK"/hdf5_1.10.8*.dsc)" >/dev/null)
  cp "$WORK"/out/* "$tree/src/"
  # Generated from the annotation tree's configure: let make remake them.
  rm -f "$tree/src/H5Tinit.c" "$tree/src/H5lib_settings.c"
  (cd "$tree" && ./configure --disable-fortran --disable-cxx --disable-hl \
     --disable-tools --enable-tests --disable-static \
     CPPFLAGS="-I$ROOT/runtime/include -DDFTRACER_TEST_NO_CLEANUP" \
     LDFLAGS="-L$RUNTIME -Wl,-rpath,$RUNTIME -Wl,--no-as-needed -ldftracer_core" \
     >"$WORK/build/configure.log" 2>&1) ||
    { log "configure failed: $WORK/build/configure.log"; exit 1; }
  touch "$tree/.annotated"
fi
t0=$(date +%s.%N)
make -C "$tree/src" -j"$JOBS" libhdf5.la >"$WORK/build/make-src.log" 2>&1 ||
  { log "building libhdf5 failed: $WORK/build/make-src.log"; tail -20 "$WORK/build/make-src.log" >&2; exit 1; }
t1=$(date +%s.%N)
if [ -n "$progs" ]; then
  make -C "$tree/test" -j"$JOBS" $progs >"$WORK/build/make-test.log" 2>&1 ||
    { log "building the tests failed: $WORK/build/make-test.log"; tail -20 "$WORK/build/make-test.log" >&2; exit 1; }
fi
t2=$(date +%s.%N)
lib=$tree/src/.libs/libhdf5.so
nm -D --undefined-only "$lib" | grep -q dftracer_span_begin ||
  { log "$lib does not call the runtime: not the annotated sources?"; exit 1; }
warnings=$(grep -c ': warning: ' "$WORK/build/make-src.log" || true)
log "built: $annotated annotated files; libhdf5 $(printf %.0f "$(echo "$t1 - $t0" | bc)") s ($warnings compiler warnings), tests $(printf %.0f "$(echo "$t2 - $t1" | bc)") s"

# 3. The leak counter, and a program with a missing END to show it counts.
shim=$WORK/span_check.so
gcc -O2 -Wall -Wextra -Werror -shared -fPIC -o "$shim" "$ROOT/bench/hdf5/span_check.c" -ldl
cat >"$WORK/leak.c" <<'C'
#include <dftracer/dftracer.h>
static int leaves(int x) { DFTRACER_C_FUNCTION_START(); if (x) return 1; DFTRACER_C_FUNCTION_END(); return 0; }
static int caller(int x) { DFTRACER_C_FUNCTION_START(); int r = leaves(x); DFTRACER_C_FUNCTION_END(); return r; }
int main(int argc, char **argv) { (void)argv; return caller(argc) - 1; }
C
gcc -DDFTRACER_TEST_NO_CLEANUP -I"$ROOT/runtime/include" -o "$WORK/leak" "$WORK/leak.c" \
  -L"$RUNTIME" -Wl,-rpath,"$RUNTIME" -ldftracer_core
rm -rf "$WORK/leak-trace" "$WORK/leak.out"; mkdir -p "$WORK/leak-trace"
DFTRACER_ENABLE=1 DFTRACER_LOG_FILE=$WORK/leak-trace/t LD_PRELOAD=$shim \
  SPAN_CHECK_OUT=$WORK/leak.out "$WORK/leak"
grep -q '^span_check: leaked 1 leaves$' "$WORK/leak.out" ||
  { log "span_check.so did not see leak.c's missing END:"; cat "$WORK/leak.out" >&2; exit 1; }

# 4. The tests, tracing off and traced, alternated.
rm -rf "$WORK/runs" && mkdir -p "$WORK/runs"
fail=0
results=$WORK/runs/results.tsv
printf 'test\tmode\trep\trc\tseconds\tmax_rss_kb\n' >"$results"
run() { # NAME MODE REP CMD...: one run in test/, its time and status
  local name=$1 mode=$2 rep=$3; shift 3
  local dir=$WORK/runs/$name.$mode.$rep
  mkdir -p "$dir/trace"
  local envs=("LD_PRELOAD=$shim $RUNTIME/libdftracer_core.so" "SPAN_CHECK_OUT=$dir/span_check.txt"
              SPAN_CHECK_CONTEXT=H5_term_library DFTRACER_ENABLE=0)
  [ "$mode" = traced ] && envs+=(DFTRACER_ENABLE=1 "DFTRACER_LOG_FILE=$dir/trace/trace")
  [ -n "${RUN_MAX:-}" ] && envs+=("DFTRACER_MAX_TRACE_SIZE=$RUN_MAX")
  # testframe's watchdog (SIGALRM after 1200 s, exit 142) killed the whole
  # traced testhdf5 at load 25 before it ended: HDF5_ALARM (default 7200).
  envs+=("HDF5_ALARM_SECONDS=${HDF5_ALARM:-7200}")
  local rc=0
  (cd "$tree/test" && env "${envs[@]}" /usr/bin/time -f '%e %M' -o "$dir/time" \
     "$@" >"$dir/stdout" 2>"$dir/stderr") || rc=$?
  read -r secs rss < <(tail -1 "$dir/time") || true
  [ "$rc" = 0 ] || { fail=1; log "$name $mode: exit $rc (see $dir/stdout)"; }
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$mode" "$rep" "$rc" "${secs:-?}" "${rss:-?}" >>"$results"
}
check() { # NAME DIR: validate a traced run's trace and leaks
  local name=$1 dir=$2 rc=0
  /usr/bin/time -v -o "$dir/check.time" "$CHECK" --json "$dir/trace" >"$dir/check.json" 2>"$dir/check.err" || rc=$?
  [ "$rc" = 0 ] || { fail=1; log "$name: dftracer-check: invalid trace ($dir/check.err)"; }
  local leaked interm
  leaked=$(awk '/^span_check: begins/ {s += $7} END {print s + 0}' "$dir/span_check.txt" 2>/dev/null || echo '?')
  interm=$(awk '/^span_check: begins/ {s += $9} END {print s + 0}' "$dir/span_check.txt" 2>/dev/null || echo '?')
  # The program's own line (begins > 0): a killed program writes none, and
  # the wrapper shell's zero lines must not pass for it.
  awk '/^span_check: begins/ && $3 > 0 {f = 1} END {exit !f}' "$dir/span_check.txt" 2>/dev/null ||
    { fail=1; leaked='?'; log "$name: span_check.so wrote no report for the program (killed?)"; }
  [ "$leaked" = 0 ] || { fail=1; log "$name: $leaked spans left without END:"; grep 'leaked [0-9]* [^ ]' "$dir/span_check.txt" | sort -k3 -nr | head >&2; }
  python3 - "$name" "$dir" "$leaked" "$interm" <<'PY'
import json, os, re, sys
name, d, leaked, interm = sys.argv[1:]
size = sum(os.path.getsize(os.path.join(d, "trace", f)) for f in os.listdir(os.path.join(d, "trace")))
rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", open(os.path.join(d, "check.time")).read())
spans = throttled = calls = 0
try:
    r = json.load(open(os.path.join(d, "check.json")))
    spans = sum(p.get("spans", 0) for p in r.get("processes", []))
    throttled = len(r.get("throttled", []))
    calls = sum(t.get("calls", 0) for t in r.get("throttled", []) if isinstance(t, dict))
except Exception:
    pass
print(f"{name}\ttrace_bytes {size}\tspans {spans}\tthrottled_names {throttled}\tthrottled_calls {calls}\tcheck_max_rss_kb {rss.group(1) if rss else '?'}\tleaked {leaked}\tleaked_at_term {interm}")
PY
}

cmds=()
[ -n "$TESTS" ] && IFS=';' read -r -a cmds <<<"$TESTS"
for rep in $(seq 1 "$REPEAT"); do
  for c in ${cmds[@]+"${cmds[@]}"}; do
    read -r -a argv <<<"$c"
    name=${argv[0]}; [ "${#argv[@]}" -gt 1 ] && name=${argv[0]}-subset
    log "$name (rep $rep): off, traced"
    run "$name" off "$rep" ./"${argv[0]}" "${argv[@]:1}"
    run "$name" traced "$rep" ./"${argv[0]}" "${argv[@]:1}"
  done
done
checks=$WORK/runs/checks.tsv
: >"$checks"
for dir in "$WORK"/runs/*.traced.*; do
  [ -d "$dir" ] || continue # TESTS='': no run
  n=$(basename "$dir"); check "${n%%.*}" "$dir" >>"$checks"
done

# 5. testhdf5 whole with the default throttle (issue 20).
if [ "$WHOLE" = 1 ]; then
  make -C "$tree/test" -j"$JOBS" testhdf5 >>"$WORK/build/make-test.log" 2>&1
  log "testhdf5 whole: off, traced (DFTRACER_MAX_TRACE_SIZE=$WHOLE_MAX)"
  [ "${WHOLE_OFF:-1}" = 0 ] || run testhdf5-whole off 1 ./testhdf5
  RUN_MAX=$WHOLE_MAX run testhdf5-whole traced 1 ./testhdf5
  dir=$WORK/runs/testhdf5-whole.traced.1
  check testhdf5-whole "$dir" >>"$checks"
  size=$(du -cb "$dir"/trace/* | tail -1 | cut -f1)
  [ "$size" -le 1073741824 ] || { fail=1; log "testhdf5 whole: trace of $size bytes, above 1 GB"; }
  if grep -q '"name":"trace_stopped"' "$dir"/trace/*; then
    log "testhdf5 whole: the size budget ($WHOLE_MAX) stopped the trace: the throttle alone does not keep it under it (see the throttled calls below)"
  fi
  # The names that wrote most spans, and what the throttle counted instead.
  python3 - "$dir/trace" >"$WORK/runs/testhdf5-whole.names.txt" <<'PY'
import collections, os, re, sys
# A regex, not json.loads: the trace may be a GB. Spans are "ph":"X"; a
# throttled record names its function in args.
head = re.compile(rb'"name":"([^"]*)"')
func = re.compile(rb'"function":"([^"]*)".*?"calls":(\d+)')
spans, throttled = collections.Counter(), collections.Counter()
for f in os.listdir(sys.argv[1]):
    with open(os.path.join(sys.argv[1], f), "rb") as t:
        for line in t:
            m = head.search(line)
            if not m:
                continue
            if b'"ph":"X"' in line:
                spans[m.group(1).decode()] += 1
            elif m.group(1) == b"throttled":
                g = func.search(line)
                if g:
                    throttled[g.group(1).decode()] += int(g.group(2))
print(f"spans written {sum(spans.values())}, names {len(spans)}; throttled names {len(throttled)}, calls counted only {sum(throttled.values())}")
for n, c in spans.most_common(15):
    print(f"  spans {c:10d}  {n}")
for n, c in throttled.most_common(5):
    print(f"  throttled {c:10d}  {n}")
PY
  cat "$WORK/runs/testhdf5-whole.names.txt"
fi

echo "== runs (seconds, max RSS of the test) =="
column -t "$results"
echo "== traces =="
column -t -s $'\t' "$checks"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$fail" = 0 ] && echo "run_hdf5_tests: all passed" || echo "run_hdf5_tests: FAILED"
exit "$fail"
