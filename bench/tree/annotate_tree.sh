#!/usr/bin/env bash
# Whole-tree annotation cost (issue 5): a generated tree of C files annotated
# through its compile database, against the floor for a Clang tool.
#
#   bench/tree/annotate_tree.sh [-n RUNS] [-f FILES] [-k]
#
# Generates FILES (default 32) module files of I/O-style code in four
# directories, each including stdio.h, stdlib.h, string.h, mpi.h and a shared
# project header with static functions, plus a main.c, and writes their
# compile_commands.json. Then, RUNS times (default 3), interleaved so that
# machine noise hits every side alike:
#   - `clang-19 -fsyntax-only` on each file with its database flags, one
#     process per file, timed separately and summed;
#   - `annotate -p DB --root TREE -j 1 -o OUT` over the whole tree;
#   - the same with -j 2.
# and prints, from the wall times (median and best of the runs),
#   (a) annotate -j1 / sum of -fsyntax-only                  (target <= 1.3)
#   (b) annotate -j1 / annotate -j2, the speed-up             (target >= 1.7)
# plus (a) from CPU times (user + system), which other load on the machine
# disturbs less, and the load average around the runs. A benchmark, not a
# test. Needs a build of annotate in build/ (BUILD_DIR to
# change); -k keeps the generated tree (printed) instead of removing it.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
ANNOTATE=$BUILD/bin/annotate
RUNS=3
FILES=32
KEEP=0
while getopts "n:f:k" opt; do
  case $opt in
    n) RUNS=$OPTARG ;;
    f) FILES=$OPTARG ;;
    k) KEEP=1 ;;
    *) sed -n '2,24p' "$0" >&2; exit 2 ;;
  esac
done
[ -x "$ANNOTATE" ] || { echo "bench: build annotate first (scripts/test.sh)" >&2; exit 2; }
CLANG=$(command -v clang-19 || command -v clang)
[ "$FILES" -ge 30 ] || echo "bench: issue 5 asks for at least 30 files" >&2

WORK=$(mktemp -d "${TMPDIR:-/tmp}/annotate-tree-bench.XXXXXX")
if [ "$KEEP" = 0 ]; then trap 'rm -rf "$WORK"' EXIT; fi
TREE=$WORK/tree
mkdir -p "$TREE/include/bench"

MPI_FLAGS=()
for word in $(mpicc -show 2>/dev/null); do
  case $word in -I*) MPI_FLAGS+=("$word") ;; esac
done
FLAGS=(-std=gnu11 -O2 -I"$TREE/include" "${MPI_FLAGS[@]}")

# --- The tree ----------------------------------------------------------------

cat > "$TREE/include/bench/common.h" <<'EOF'
/* common.h - shared by every file of the generated tree. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BENCH_CHECK(call)                                                     \
    do {                                                                      \
        int bench_rc_ = (call);                                               \
        if (bench_rc_ != MPI_SUCCESS) {                                       \
            fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #call); \
            MPI_Abort(MPI_COMM_WORLD, bench_rc_);                             \
        }                                                                     \
    } while (0)

static inline size_t bench_min(size_t a, size_t b)
{
    return a < b ? a : b;
}

static inline double bench_elapsed(double start)
{
    return MPI_Wtime() - start;
}

static inline int bench_rank(MPI_Comm comm)
{
    int rank = 0;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS)
        return -1;
    return rank;
}

static inline void *bench_alloc(size_t n)
{
    void *p = malloc(n);
    if (p == NULL) {
        perror("malloc");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

#endif
EOF

DIRS=(io mpiio posix util)
MODULES=()
for ((i = 0; i < FILES; i++)); do
  dir=${DIRS[i % ${#DIRS[@]}]}
  m=${dir}_m$i
  MODULES+=("$m")
  mkdir -p "$TREE/src/$dir"
  sed "s/@M@/$m/g" > "$TREE/src/$dir/$m.c" <<'EOF'
/* @M@.c - generated I/O module. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

#include "bench/common.h"

struct @M@_state {
    MPI_File fh;
    char *buf;
    size_t size;
    long ops;
};

static int @M@_fill(char *buf, size_t n, int seed)
{
    size_t i;
    if (buf == NULL) return -1;
    for (i = 0; i < n; i++)
        buf[i] = (char)('a' + (seed + (int)i) % 26);
    return 0;
}

static int @M@_write_posix(const char *path, const char *buf, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return -1;
    if (fwrite(buf, 1, n, f) != n) {
        fclose(f);
        return -2;
    }
    return fclose(f);
}

static long @M@_read_posix(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "rb");
    size_t got;
    if (!f) return -1;
    got = fread(buf, 1, n, f);
    if (ferror(f)) {
        fclose(f);
        return -1;
    }
    fclose(f);
    return (long)got;
}

static int @M@_open(struct @M@_state *s, MPI_Comm comm, const char *path, int mode)
{
    int rc = MPI_File_open(comm, path, mode, MPI_INFO_NULL, &s->fh);
    if (rc != MPI_SUCCESS)
        return rc;
    s->ops = 0;
    return MPI_SUCCESS;
}

static int @M@_write_at(struct @M@_state *s, MPI_Comm comm, size_t block)
{
    MPI_Status status;
    MPI_Offset offset = (MPI_Offset)bench_rank(comm) * (MPI_Offset)block;
    int count;
    BENCH_CHECK(MPI_File_write_at_all(s->fh, offset, s->buf, (int)block,
                                      MPI_BYTE, &status));
    MPI_Get_count(&status, MPI_BYTE, &count);
    s->ops++;
    return count == (int)block ? 0 : -1;
}

static int @M@_read_at(struct @M@_state *s, MPI_Comm comm, size_t block)
{
    MPI_Status status;
    MPI_Offset offset = (MPI_Offset)bench_rank(comm) * (MPI_Offset)block;
    switch (MPI_File_read_at_all(s->fh, offset, s->buf, (int)block, MPI_BYTE,
                                 &status)) {
    case MPI_SUCCESS:
        s->ops++;
        return 0;
    case MPI_ERR_IO: return -2;
    default:
        return -1;
    }
}

static int @M@_close(struct @M@_state *s)
{
    if (s->fh == MPI_FILE_NULL)
        return 0;
    return MPI_File_close(&s->fh);
}

int @M@_run(MPI_Comm comm, const char *dir, size_t block)
{
    struct @M@_state s;
    char path[512];
    double start = MPI_Wtime();
    int rc;

    memset(&s, 0, sizeof s);
    s.fh = MPI_FILE_NULL;
    s.size = bench_min(block, (size_t)1 << 20);
    s.buf = bench_alloc(s.size);
    snprintf(path, sizeof path, "%s/@M@.dat", dir);
    if (@M@_fill(s.buf, s.size, bench_rank(comm)) != 0)
        goto error;
    rc = @M@_open(&s, comm, path, MPI_MODE_CREATE | MPI_MODE_RDWR);
    if (rc != MPI_SUCCESS)
        goto error;
    if (@M@_write_at(&s, comm, s.size) != 0 || @M@_read_at(&s, comm, s.size) != 0)
        goto error;
    @M@_close(&s);
    if (bench_rank(comm) == 0) {
        snprintf(path, sizeof path, "%s/@M@.posix", dir);
        if (@M@_write_posix(path, s.buf, s.size) != 0)
            goto error;
        if (@M@_read_posix(path, s.buf, s.size) != (long)s.size)
            goto error;
        printf("@M@: %ld ops in %.3f s\n", s.ops, bench_elapsed(start));
    }
    free(s.buf);
    return 0;
error:
    @M@_close(&s);
    free(s.buf);
    return -1;
}
EOF
done

{
  echo '/* main.c - generated driver. */'
  echo '#include <stdio.h>'
  echo '#include <stdlib.h>'
  echo '#include <string.h>'
  echo '#include <mpi.h>'
  echo
  echo '#include "bench/common.h"'
  echo
  for m in "${MODULES[@]}"; do echo "int ${m}_run(MPI_Comm comm, const char *dir, size_t block);"; done
  echo
  echo 'int main(int argc, char **argv)'
  echo '{'
  echo '    const char *dir = argc > 1 ? argv[1] : ".";'
  echo '    int failures = 0;'
  echo '    MPI_Init(&argc, &argv);'
  for m in "${MODULES[@]}"; do echo "    failures += ${m}_run(MPI_COMM_WORLD, dir, 4096) != 0;"; done
  echo '    MPI_Finalize();'
  echo '    return failures ? EXIT_FAILURE : EXIT_SUCCESS;'
  echo '}'
} > "$TREE/src/main.c"

SOURCES=()
while IFS= read -r f; do SOURCES+=("$f"); done < <(cd "$TREE" && find src -name '*.c' | sort)
{
  echo '['
  sep=''
  for f in "${SOURCES[@]}"; do
    args="\"$CLANG\""
    for a in "${FLAGS[@]}"; do args+=", \"$a\""; done
    args+=", \"-c\", \"$f\", \"-o\", \"${f%.c}.o\""
    printf '%s  {"directory": "%s", "file": "%s", "arguments": [%s]}' "$sep" "$TREE" "$f" "$args"
    sep=$',\n'
  done
  echo
  echo ']'
} > "$TREE/compile_commands.json"

# --- Measure -----------------------------------------------------------------

# "WALL CPU" in seconds of one command (CPU: user + system, children
# included), its output discarded. A command that fails stops the bench
# with its message: a failed run never becomes a figure (issue 40).
measure() {
  local TIMEFORMAT='%3R %3U %3S' status=0
  { time "$@" >/dev/null 2>"$WORK/measure.err"; } 2>"$WORK/measure.time" || status=$?
  if [ "$status" -ne 0 ]; then
    printf 'bench: failed (exit %s):' "$status" >&2; printf ' %q' "$@" >&2; echo >&2
    tail -n 20 "$WORK/measure.err" >&2
    kill -TERM $$  # measure runs in a pipeline's subshell: stop the script itself
    exit 1
  fi
  awk '{printf "%.3f %.3f\n", $1, $2 + $3}' "$WORK/measure.time"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
best() { sort -n | head -n 1; }
column() { awk -v c="$1" '{print $c}' "$2"; }

syntax_file() { (cd "$TREE" && "$CLANG" -fsyntax-only "${FLAGS[@]}" "$1"); }
annotate_tree() { # JOBS
  "$ANNOTATE" -p "$TREE" --root "$TREE" -j "$1" -o "$WORK/out$1" 2>"$WORK/annotate-j$1.log"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
: > "$WORK/syntax.t"; : > "$WORK/j1.t"; : > "$WORK/j2.t"
for ((r = 0; r < RUNS; r++)); do
  for f in "${SOURCES[@]}"; do measure syntax_file "$f"; done |
    awk '{w += $1; c += $2} END {printf "%.3f %.3f\n", w, c}' >> "$WORK/syntax.t"
  for j in 1 2; do
    rm -rf "$WORK/out$j"
    measure annotate_tree "$j" >> "$WORK/j$j.t"
    grep -q "^annotate: ${#SOURCES[@]} files, .* 0 failed" "$WORK/annotate-j$j.log" ||
      { cat "$WORK/annotate-j$j.log" >&2; echo "bench: annotate -j $j failed" >&2; exit 1; }
  done
done

# The two runs must agree, and the tree must have been annotated.
diff -r "$WORK/out1" "$WORK/out2" >/dev/null || { echo "bench: -j1 and -j2 outputs differ" >&2; exit 1; }
starts=$(cat "$WORK"/out1/src/*/*.c "$WORK"/out1/src/main.c "$WORK"/out1/include/bench/common.h |
  grep -c 'DFTRACER_C_FUNCTION_START();' || true)  # grep -c exits 1 on a count of 0
[ "$starts" -gt 0 ] || { echo "bench: the annotated tree has no START" >&2; exit 1; }

figure() { column "$1" "$WORK/$2.t" | "$3"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

echo "tree: ${#SOURCES[@]} files ($FILES modules + main.c) in ${#DIRS[@]} directories, shared header; $starts functions annotated"
echo "flags: ${FLAGS[*]}"
tail -n 1 "$WORK/annotate-j1.log"
printf '%-44s %12s %12s %12s\n' "$RUNS runs (seconds)" "wall median" "wall best" "CPU median"
for row in "syntax:clang-19 -fsyntax-only, sum over files" "j1:annotate -p -j 1 -o OUT" "j2:annotate -p -j 2 -o OUT"; do
  printf '%-44s %12s %12s %12s\n' "${row#*:}" "$(figure 1 "${row%%:*}" median)" \
    "$(figure 1 "${row%%:*}" best)" "$(figure 2 "${row%%:*}" median)"
done
s_med=$(figure 1 syntax median); s_best=$(figure 1 syntax best)
a1_med=$(figure 1 j1 median); a1_best=$(figure 1 j1 best)
a2_med=$(figure 1 j2 median); a2_best=$(figure 1 j2 best)
echo "(a) annotate -j1 / syntax-only sum, wall:  median $(ratio "$a1_med" "$s_med"), best $(ratio "$a1_best" "$s_best")   (target <= 1.3)"
echo "    same, CPU:                            median $(ratio "$(figure 2 j1 median)" "$(figure 2 syntax median)")"
echo "(b) speed-up of -j2 over -j1, wall:        median $(ratio "$a1_med" "$a2_med"), best $(ratio "$a1_best" "$a2_best")   (target >= 1.7)"
echo "load average (1/5/15 min) before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?") on $(nproc) cores"
if [ "$KEEP" = 1 ]; then echo "tree kept in $TREE"; fi
