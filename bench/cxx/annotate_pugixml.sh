#!/usr/bin/env bash
# A C++ code base annotated whole (issue 21): pugixml 1.13, Debian 12's
# `pugixml` source package. One library file (src/pugixml.cpp, 13,158 lines,
# with its return macros PUGI__THROW_ERROR, PUGI__CHECK_ERROR, PUGI__PUSHNODE
# and PUGI__SCANCHAR) and its header, plus the project's own test suite
# (tests/, 40 files, 956 tests, each allocation-failure test run a second
# time with an allocator that throws std::bad_alloc through the library).
#
#   bench/cxx/annotate_pugixml.sh [WORK]     # WORK: default /tmp/annotate-pugixml
#
# Fetches the source (needs a deb-src line for bookworm and `apt-get
# update`), writes a compile database for src/pugixml.cpp with the flags of
# pugixml's Makefile (config=release: -Wall -Wextra -Werror -pedantic
# -Wold-style-cast ... -std=c++11 -O3), then:
#   1. RUNS times, alternated (syntax, --guard=0, default, syntax, ...):
#      `clang-19 -fsyntax-only` of the file with its command, and
#      `annotate -p DB --root src -o OUT` with --guard=0 and with the
#      rule set's guard; prints the medians, their ratio and the load;
#   1b. checks that annotating the output again changes nothing and that
#      --strip of it gives both files back byte for byte;
#   2. builds the original and both annotated trees with the Makefile's
#      flags (-Werror: a new warning fails the build), the annotated ones
#      with -DDFTRACER_TEST_NO_CLEANUP against build/'s libdftracer_core;
#   3. runs each test suite (it must print "Success"), RUNS times
#      alternated: the original, each annotated build with tracing off and
#      traced (DFTRACER_ENABLE=1); prints medians and the trace size;
#   4. runs dftracer-check on each traced run's traces (exit 0: every
#      span closed and nested, no caveat).
# Exits 1 if a step fails. A benchmark, not a test (not in CI); figures go
# to docs/performance.md. Environment: BUILD_DIR (default build/), RUNS
# (default 3), JOBS (default 2: compiler processes), CXX (default g++),
# LAUNCHER (default ccache when installed; empty for none).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
ANNOTATE=${ANNOTATE:-$BUILD/bin/annotate}
CHECK=${CHECK:-$BUILD/bin/dftracer-check}
LIBRARY=$BUILD/runtime/libdftracer_core.so
RUNS=${RUNS:-3}
JOBS=${JOBS:-2}
CXX=${CXX:-g++}
# The builds are not timed: a compiler cache makes a second run quick.
LAUNCHER=${LAUNCHER-$(command -v ccache || true)}
CLANG=$(command -v clang-19 || command -v clang)
WORK=${1:-/tmp/annotate-pugixml}
for f in "$ANNOTATE" "$CHECK" "$LIBRARY"; do
  [ -e "$f" ] || { echo "annotate_pugixml: $f missing: ninja -C $BUILD annotate dftracer-check dftracer_core" >&2; exit 2; }
done
mkdir -p "$WORK"
cd "$WORK"
src=$(ls -d pugixml-1.13*/ 2>/dev/null | head -1 || true)
if [ -z "$src" ]; then
  apt-get source --download-only pugixml >/dev/null 2>&1
  dpkg-source -x --no-check pugixml_1.13*.dsc >/dev/null
  src=$(ls -d pugixml-1.13*/ | head -1)
fi
src=$WORK/${src%/}

# pugixml's Makefile, config=release (its CXXFLAGS, in its order).
FLAGS=(-g -Wall -Wextra -Werror -pedantic -Wundef -Wshadow -Wcast-align
       -Wcast-qual -Wold-style-cast -Wdouble-promotion -std=c++11 -O3 -DNDEBUG)
python3 - "$src" "$CXX" "${FLAGS[@]}" <<'PY'
import json, os, sys
d, cxx, flags = sys.argv[1], sys.argv[2], sys.argv[3:]
json.dump([{"directory": d, "file": "src/pugixml.cpp",
            "arguments": [cxx] + flags + ["-c", "src/pugixml.cpp", "-o", "pugixml.o"]}],
          open(os.path.join(d, "compile_commands.json"), "w"), indent=1)
PY

now() { date +%s.%N; }
median() { python3 -c 'import statistics,sys; print(f"{statistics.median(map(float, sys.argv[1:])):.3f}")' "$@"; }

# --- 1. annotate against the floor, alternated ------------------------------
load0=$(cut -d' ' -f1-3 /proc/loadavg)
syn=() g0=() gd=()
for run in $(seq "$RUNS"); do
  t0=$(now)
  (cd "$src" && "$CLANG" -fsyntax-only -w "${FLAGS[@]}" src/pugixml.cpp)
  t1=$(now)
  rm -rf out-g0 && mkdir out-g0
  "$ANNOTATE" -p "$src" --root "$src/src" -o out-g0 --guard=0 -j1 \
    --report report-g0.json 2>annotate-g0.err
  t2=$(now)
  rm -rf out-default && mkdir out-default
  "$ANNOTATE" -p "$src" --root "$src/src" -o out-default -j1 \
    --report report-default.json 2>annotate-default.err
  t3=$(now)
  syn+=("$(echo "$t1 - $t0" | bc)") g0+=("$(echo "$t2 - $t1" | bc)") gd+=("$(echo "$t3 - $t2" | bc)")
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)
s=$(median "${syn[@]}") a0=$(median "${g0[@]}") ad=$(median "${gd[@]}")
echo "== annotate (median of $RUNS, alternated; load $load0 -> $load1)"
echo "clang -fsyntax-only $s s, annotate --guard=0 $a0 s ($(echo "scale=2; $a0 / $s" | bc)x), default $ad s ($(echo "scale=2; $ad / $s" | bc)x)"
for v in g0 default; do
  python3 - "report-$v.json" "annotate-$v.err" "$v" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["summary"]
err = open(sys.argv[2]).read().splitlines()
warn = [l for l in err if ": warning: " in l]
print(f"{sys.argv[3]}: failed {r['failed']}, annotated {r['annotated']}, skipped {r['skipped']}, "
      f"warnings {r['warnings']}, warning lines printed {len(warn)}")
for l in warn:
    print("  " + l)
print("  " + err[-1])
sys.exit(1 if r["failed"] else 0)
PY
done

# --- 1b. idempotent, and --strip gives the original back, byte for byte ------
for v in g0 default; do
  copy=$WORK/round-$v
  rm -rf "$copy" && mkdir -p "$copy"
  cp -r "$src/src" "$copy/" && cp "out-$v"/* "$copy/src/"
  python3 - "$src/compile_commands.json" "$copy" >"$copy/compile_commands.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1])); c[0]["directory"] = sys.argv[2]; print(json.dumps(c))
PY
  guard=(); [ "$v" = g0 ] && guard=(--guard=0)
  "$ANNOTATE" -p "$copy" --root "$copy/src" --check "${guard[@]}" 2>"$copy/check.err" ||
    { echo "annotating the annotated $v again would change it:" >&2; tail -5 "$copy/check.err" >&2; exit 1; }
  "$ANNOTATE" -p "$copy" --root "$copy/src" --strip -i 2>"$copy/strip.err" ||
    { echo "--strip of $v failed:" >&2; tail -5 "$copy/strip.err" >&2; exit 1; }
  for f in pugixml.cpp pugixml.hpp; do
    cmp -s "$copy/src/$f" "$src/src/$f" ||
      { echo "--strip of $v: $f differs from the original" >&2; exit 1; }
  done
  echo "$v: annotating again changes nothing; $(tail -1 "$copy/strip.err" | sed 's/^annotate: //'), both files as the original"
done

# --- 2. the three builds ----------------------------------------------------
build_tree() { # NAME [annotated-output-dir]
  local tree=$WORK/tree-$1
  rm -rf "$tree" && mkdir -p "$tree"
  cp -r "$src/src" "$src/tests" "$tree/"
  local extra=()
  if [ -n "${2:-}" ]; then
    cp "$2"/* "$tree/src/"
    extra=(-DDFTRACER_TEST_NO_CLEANUP -I"$ROOT/runtime/include")
  fi
  mkdir -p "$tree/obj"
  # The Makefile's SOURCES: the library and every test but the fuzzers.
  (cd "$tree" && ls src/pugixml.cpp tests/*.cpp | grep -v '^tests/fuzz_' |
     xargs -P "$JOBS" -I{} sh -c 'o=obj/$(echo {} | tr / _).o; '"$LAUNCHER $CXX"' {} "$@" -c -o "$o"' sh \
       "${FLAGS[@]}" "${extra[@]}") 2>"$WORK/build-$1.err" ||
    { echo "build of $1 failed:" >&2; head -30 "$WORK/build-$1.err" >&2; exit 1; }
  local link=()
  [ -n "${2:-}" ] && link=("$LIBRARY" "-Wl,-rpath,$(dirname "$LIBRARY")")
  (cd "$tree" && "$CXX" obj/*.o "${link[@]}" -o test)
  echo "built $1: $(ls "$tree"/obj/*.o | wc -l) objects, $(wc -l <"$WORK/build-$1.err") lines of compiler output"
}
echo "== builds ($CXX, the Makefile's release flags)"
build_tree orig
build_tree g0 out-g0
build_tree default out-default

# --- 3. the test suites, alternated -----------------------------------------
run_suite() { # TREE MODE(off|traced) -> seconds on stdout
  local tree=$WORK/tree-$1 log=$WORK/test-$1-$2.log t0 t1
  rm -rf "$WORK/traces-$1" && mkdir -p "$WORK/traces-$1"
  t0=$(now)
  if [ "$2" = traced ]; then
    (cd "$tree" && DFTRACER_ENABLE=1 DFTRACER_LOG_FILE="$WORK/traces-$1/trace" ./test) >"$log" 2>&1
  else
    (cd "$tree" && env -u DFTRACER_ENABLE ./test) >"$log" 2>&1
  fi || { echo "test suite of $1 ($2) failed:" >&2; tail -20 "$log" >&2; exit 1; }
  t1=$(now)
  grep -q '^Success: ' "$log" || { echo "test suite of $1 ($2): no Success line" >&2; exit 1; }
  echo "$t1 - $t0" | bc
}
declare -A T
modes=("orig off" "g0 off" "g0 traced" "default off" "default traced")
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for run in $(seq "$RUNS"); do
  for m in "${modes[@]}"; do
    T[$m]="${T[$m]:-} $(run_suite $m)"
  done
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)
echo "== test suite (median of $RUNS, alternated; load $load0 -> $load1): $(grep '^Success' "$WORK/test-orig-off.log")"
for m in "${modes[@]}"; do
  # shellcheck disable=SC2086
  echo "$m: $(median ${T[$m]}) s"
done

# --- 4. the traces ----------------------------------------------------------
for t in g0 default; do
  echo "== trace of $t: $(du -sb "$WORK/traces-$t" | cut -f1) bytes in $(ls "$WORK/traces-$t" | wc -l) file(s)"
  "$CHECK" "$WORK/traces-$t" >"$WORK/check-$t.txt" 2>&1 ||
    { echo "dftracer-check: the trace of $t is not valid" >&2; tail -20 "$WORK/check-$t.txt" >&2; exit 1; }
  if grep -q 'caveat' "$WORK/check-$t.txt"; then
    echo "dftracer-check: caveats on the trace of $t" >&2; grep caveat "$WORK/check-$t.txt" >&2; exit 1
  fi
  tail -3 "$WORK/check-$t.txt"
done
