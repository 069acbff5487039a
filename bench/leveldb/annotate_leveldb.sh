#!/usr/bin/env bash
# A GCC-built C++ code base annotated whole through its compile database
# (issue 38): LevelDB 1.23, Debian 12's `leveldb` source package. A
# key-value store whose every operation is file I/O (log, table and
# manifest files through util/env_posix.cc: open/read/pread/write/fsync,
# mmap'ed tables, fopen'ed info logs), its library (48 sources, C++11) and
# its own 31 test programs (GoogleTest and Google Benchmark from Debian, as
# Debian's patches build them; db/c_test.c is C).
#
#   bench/leveldb/annotate_leveldb.sh [WORK]   # WORK: default /tmp/annotate-leveldb
#
# Fetches the source (needs a deb-src line for bookworm and `apt-get
# update`, and libgtest-dev, libgmock-dev, libbenchmark-dev), then:
#   1. configures it with CMake as Debian does (the static build, tests on,
#      benchmarks off), with gcc/g++ and Debian's flags
#      (dpkg-buildflags: -g -O2 -ffile-prefix-map=... -fstack-protector-strong
#      -Wformat -Werror=format-security -D_FORTIFY_SOURCE=2 -fPIC) plus
#      -Wall, writing compile_commands.json; builds it;
#   2. RUNS times, alternated: `clang-19 -fsyntax-only -w` of every distinct
#      command of the database (JOBS at a time; flags Clang does not know
#      dropped; util/testutil.cc's 31 commands differ only by -o),
#      and `annotate -p BUILD --root SRC -o OUT -jJOBS` with the default
#      rule set; prints the medians, their ratio, files, failed, functions
#      and each warning line;
#   3. builds the annotated tree with the same flags, the runtime linked by
#      hand (docs/integration.md, "Linking the runtime by hand": the header's
#      include path in CMAKE_{C,CXX}_FLAGS, -ldftracer_core between
#      --push-state,--no-as-needed and --pop-state in
#      CMAKE_EXE_LINKER_FLAGS), and compares the compiler's warning lines
#      with the original build's (a new one fails the script);
#   4. checks that annotating the annotated tree again changes nothing
#      (`--check`) and that `--strip` gives every source back byte for byte;
#   5. runs the annotated tests with ctest off and traced (DFTRACER_ENABLE=1,
#      DFTRACER_LOG_FILE=WORK/traces/trace), RUNS times alternated with the
#      original's; every test must pass every time;
#   6. `dftracer-check --json` on the traces: its totals, its problems
#      counted by kind and its caveats (a span open on another thread at
#      exit is not written but said in an open_at_exit record, and its
#      children are a caveat); then the Layers table of `dftracer-analyze`;
#      exit 1 if the traces are invalid.
# Exits 1 if a step fails. A benchmark, not a test (not in CI); figures go
# to docs/performance.md. Environment: BUILD_DIR (default build/: annotate,
# dftracer-check, dftracer-analyze, libdftracer_core), RUNS (default 3),
# JOBS (default 2), LAUNCHER (default ccache when installed; empty for none).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$ROOT/bench/tree/real_tree.sh"
RUNS=${RUNS:-3}
LAUNCHER=${LAUNCHER-$(command -v ccache || true)}
WORK=${1:-/tmp/annotate-leveldb}
real_tree_tools annotate_leveldb
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
cd "$WORK"
src=$(ls -d leveldb-1.23*/ 2>/dev/null | head -1 || true)
if [ -z "$src" ]; then
  ls leveldb_1.23*.dsc >/dev/null 2>&1 || apt-get source --download-only leveldb >/dev/null 2>&1
  dpkg-source -x --no-check leveldb_1.23*.dsc >/dev/null
  src=$(ls -d leveldb-1.23*/ | head -1)
fi
src=$WORK/${src%/}
now() { date +%s.%N; }
median() { python3 -c 'import statistics,sys; print(f"{statistics.median(map(float, sys.argv[1:])):.3f}")' "$@"; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

# --- 1. the original, as Debian builds it -------------------------------------
FLAGS="$(dpkg-buildflags --get CXXFLAGS) $(dpkg-buildflags --get CPPFLAGS) -fPIC -Wall"
CFLAGS_="$(dpkg-buildflags --get CFLAGS) $(dpkg-buildflags --get CPPFLAGS) -fPIC -Wall"
configure() { # SOURCE BUILD [extra C/C++ flags] [linker flags]
  rm -rf "$2"
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=None \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
    ${LAUNCHER:+-DCMAKE_C_COMPILER_LAUNCHER=$LAUNCHER -DCMAKE_CXX_COMPILER_LAUNCHER=$LAUNCHER} \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_COLOR_DIAGNOSTICS=OFF -DLEVELDB_BUILD_BENCHMARKS=OFF \
    -DCMAKE_CXX_FLAGS="$FLAGS ${3:-}" -DCMAKE_C_FLAGS="$CFLAGS_ ${3:-}" \
    -DCMAKE_EXE_LINKER_FLAGS="${4:-}" >"$2.configure.log" 2>&1 ||
    { echo "configuring $1 failed:" >&2; tail -20 "$2.configure.log" >&2; exit 1; }
}
build() { real_tree_build "$1" "$WORK/[^/]*/"; } # BUILD -> BUILD.warnings
configure "$src" "$WORK/build-orig"
build "$WORK/build-orig"
db=$WORK/build-orig/compile_commands.json
echo "== $(basename "$src"): $(python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); print(len(c), "commands,", len({e["file"] for e in c}), "files")' "$db") in the database (gcc/g++: $FLAGS)"
echo "original build: $(wc -l <"$WORK/build-orig.warnings") warning lines"

# --- 2. annotate against the floor, alternated --------------------------------
syntax() { python3 "$ROOT/bench/tree/syntax_floor.py" "$db" "$JOBS" "$CLANG"; }
annotate_once() {
  rm -rf "$WORK/out" && mkdir "$WORK/out"
  local status=0
  "$ANNOTATE" -p "$WORK/build-orig" --root "$src" -o "$WORK/out" -j"$JOBS" \
    --report "$WORK/report.json" 2>"$WORK/annotate.err" || status=$?
  # 1 is "some file failed", reported below; anything else stops the bench.
  if [ "$status" -gt 1 ] || [ ! -s "$WORK/report.json" ]; then
    tail -20 "$WORK/annotate.err" >&2; echo "annotate_leveldb: annotate exited $status" >&2; exit 1
  fi
}
syn=() tann=()
load0=$(load)
for _ in $(seq "$RUNS"); do
  t0=$(now); syntax; t1=$(now); annotate_once; t2=$(now)
  syn+=("$(echo "$t1 - $t0" | bc)") tann+=("$(echo "$t2 - $t1" | bc)")
done
s=$(median "${syn[@]}") a=$(median "${tann[@]}")
echo "== annotate -j$JOBS against clang -fsyntax-only -j$JOBS (median of $RUNS, alternated; load $load0 -> $(load))"
echo "clang -fsyntax-only $s s, annotate $a s: $(echo "scale=2; $a / $s" | bc)x"
python3 "$ROOT/bench/tree/annotate_summary.py" "$WORK/report.json" "$WORK/annotate.err"

# The annotated tree: the source with annotate's output over it.
ann=$WORK/src-annotated
rm -rf "$ann" && cp -r "$src" "$ann" && cp -r "$WORK/out/." "$ann/"
changed=$( (diff -rq "$src" "$ann" || true) | wc -l)
echo "files changed by annotate: $changed"

# --- 3. the annotated build -----------------------------------------------------
real_tree_annotated_build "$ann"
readelf -d "$WORK/build-annotated/db_test" | grep -q 'libdftracer_core' ||
  { echo "db_test does not link libdftracer_core" >&2; exit 1; }

# --- 4. idempotent, and --strip gives the original back ---------------------------
"$ANNOTATE" -p "$WORK/build-annotated" --root "$ann" --check -j"$JOBS" 2>"$WORK/check-again.err" ||
  { echo "annotating the annotated tree again would change it:" >&2; tail -5 "$WORK/check-again.err" >&2; exit 1; }
strip=$WORK/src-stripped
rm -rf "$strip" && cp -r "$ann" "$strip"
mkdir -p "$WORK/strip-db"
python3 - "$WORK/build-annotated/compile_commands.json" "$ann" "$strip" >"$WORK/strip-db/compile_commands.json" <<'PY'
import json, sys
print(json.dumps(json.loads(open(sys.argv[1]).read().replace(sys.argv[2] + "/", sys.argv[3] + "/"))))
PY
"$ANNOTATE" -p "$WORK/strip-db" --root "$strip" --strip -i -j"$JOBS" 2>"$WORK/strip.err" ||
  { echo "--strip failed:" >&2; tail -5 "$WORK/strip.err" >&2; exit 1; }
diff -r "$src" "$strip" >"$WORK/strip.diff" ||
  { echo "--strip does not give the original back:" >&2; head -20 "$WORK/strip.diff" >&2; exit 1; }
echo "annotating again changes nothing; $(tail -1 "$WORK/strip.err" | sed 's/^annotate: //'), every file as the original"

# --- 5. the tests, off and traced, alternated -----------------------------------
suite() { # BUILD MODE(off|traced) -> seconds on stdout
  local b=$WORK/$1 log=$WORK/ctest-$1-$2.log t0 t1
  rm -rf "$WORK/tmp" && mkdir -p "$WORK/tmp"
  t0=$(now)
  if [ "$2" = traced ]; then
    rm -rf "$WORK/traces" && mkdir -p "$WORK/traces"
    (cd "$b" && TEST_TMPDIR=$WORK/tmp DFTRACER_ENABLE=1 DFTRACER_LOG_FILE="$WORK/traces/trace" \
       ctest --output-on-failure) >"$log" 2>&1
  else
    (cd "$b" && TEST_TMPDIR=$WORK/tmp env -u DFTRACER_ENABLE ctest --output-on-failure) >"$log" 2>&1
  fi || { echo "the tests of $1 ($2) failed:" >&2; grep -E 'tests passed|Failed|\*\*\*' "$log" | head -20 >&2; exit 1; }
  t1=$(now)
  grep -q '^100% tests passed' "$log" || { echo "the tests of $1 ($2): not all passed" >&2; exit 1; }
  echo "$t1 - $t0" | bc
}
declare -A T
modes=("build-orig off" "build-annotated off" "build-annotated traced")
load0=$(load)
for _ in $(seq "$RUNS"); do
  for m in "${modes[@]}"; do
    # shellcheck disable=SC2086
    T[$m]="${T[$m]:-} $(suite $m)"
  done
done
echo "== tests (median of $RUNS, alternated; load $load0 -> $(load)): $(grep 'tests passed' "$WORK/ctest-build-orig-off.log")"
for m in "${modes[@]}"; do
  # shellcheck disable=SC2086
  echo "$m: $(median ${T[$m]}) s; $(grep 'tests passed' "$WORK/ctest-${m// /-}.log")"
done

# --- 6. the traces --------------------------------------------------------------
# dftracer-check's verdict is kept for the end: its problems are classified
# first, and the traces analysed either way. A span still open on another
# thread when the process exits is not written but said (open_at_exit,
# docs/trace-format.md), its children a caveat: LevelDB's background thread
# (PosixEnv::BackgroundThreadMain, `while (true)`) never returns.
echo "== traces of the last traced run: $(du -sb "$WORK/traces" | cut -f1) bytes in $(ls "$WORK/traces" | wc -l) file(s)"
valid=0
"$CHECK" --json "$WORK/traces" >"$WORK/check.json" 2>"$WORK/check.err" || valid=$?
[ "$valid" -le 1 ] && [ -s "$WORK/check.json" ] ||
  { echo "dftracer-check failed (exit $valid)" >&2; tail -5 "$WORK/check.err" >&2; exit 1; }
python3 - "$WORK/check.json" <<'PY'
import collections, json, re, sys
d = json.load(open(sys.argv[1]))
spans = sum(p["spans"] for p in d["processes"])
lay = ", ".join(f'{k} {v["ops"]:,} ops' for k, v in sorted(d["layers"].items()))
print(f'dftracer-check: valid {d["valid"]}; {len(d["files"])} files, {d["events"]:,} events, '
      f'{spans:,} spans; layers: {lay}; caveats {len(d["caveats"])}, trace_stopped {len(d["trace_stopped"])}')
orphan = re.compile(r"span '([^']*)' .* names parent id (\d+) but no span has that id")
kinds, parents, names = collections.Counter(), set(), collections.Counter()
for p in d["problems"]:
    m = orphan.search(p["message"])
    if m:
        kinds["child of a span never written"] += 1
        parents.add((p["file"], m.group(2))); names[m.group(1)] += 1
    else:
        kinds["other"] += 1
        print("  other problem:", p["file"], p["line"], p["message"][:200])
at_exit = re.compile(r'^(\d+) spans? of pid \d+ name parent id \d+ \("([^"]*)".*\(open_at_exit\)')
open_parents = collections.Counter()
for c in d["caveats"]:
    m = at_exit.search(c["message"])
    if m:
        open_parents[m.group(2)] += int(m.group(1))
if open_parents:
    print(f'caveats: {sum(open_parents.values()):,} spans whose parent was open at exit on another '
          f'thread (open_at_exit), by parent: {dict(open_parents)}')
if d["problems"]:
    files = len({f for f, _ in parents})
    print(f'problems: {dict(kinds)}; {len(parents)} missing parents in {files} files; '
          f'children: {", ".join(f"{n} {c}" for n, c in names.most_common(8))}')
PY
"$ANALYZE" -j"$JOBS" "$WORK/traces" >"$WORK/analyze.txt" 2>&1 ||
  { echo "dftracer-analyze failed" >&2; tail -20 "$WORK/analyze.txt" >&2; exit 1; }
echo "dftracer-analyze: $WORK/analyze.txt"
sed -n '/^Layers/,/^$/p' "$WORK/analyze.txt"
[ "$valid" = 0 ] || { echo "annotate_leveldb: dftracer-check: the traces are not valid (above)" >&2; exit 1; }
