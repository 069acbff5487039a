#!/bin/sh
# Rewrites test/expected/NAME.c from what the current tool prints for
# test/inputs/NAME.c, so that a change in the tool's output can be reviewed:
#
#   scripts/regen-goldens.sh              # every case
#   scripts/regen-goldens.sh NAME...      # only these cases
#   git diff test/expected                # review, line by line
#   git checkout -- test/expected         # or throw the rewrite away
#
# The expected files are a hand-written specification (docs/rules.md), not a
# snapshot: commit a regenerated file only when the diff shows the tool is
# right and the old expectation was wrong, and say why in the commit message.
#
# Uses the same command line as the golden tests (test/golden/CMakeLists.txt):
#   annotate test/inputs/NAME.c [options from test/inputs/NAME.args] -- FLAGS
# FLAGS come from BUILD/test/golden/compile_flags.txt when a configured build
# has it, otherwise -std=gnu11, runtime/include, MPI's include dirs (from
# `mpicc -show`) and /usr/include/hdf5/mpich.
#
# Environment: ANNOTATE (default: build/bin/annotate), BUILD (default: build).
# Exit status: 0 when every case was rewritten, 1 when annotate failed on some
# case (its expected file is then left as it was), 2 on a usage error.
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$repo/build}
annotate=${ANNOTATE:-$build/bin/annotate}
inputs=$repo/test/inputs
expected=$repo/test/expected

if [ ! -x "$annotate" ]; then
    echo "regen-goldens: $annotate is not built; build the annotate target or set ANNOTATE=..." >&2
    exit 2
fi

flags_file=$build/test/golden/compile_flags.txt
tmp_flags=
if [ ! -f "$flags_file" ]; then
    tmp_flags=$(mktemp)
    flags_file=$tmp_flags
    {
        echo "-std=gnu11"
        echo "-I$repo/runtime/include"
        if command -v mpicc >/dev/null 2>&1; then
            for word in $(mpicc -show); do
                case $word in -I*) echo "$word" ;; esac
            done
        fi
        for dir in /usr/include/hdf5/mpich /usr/include/hdf5/openmpi; do
            if [ -f "$dir/hdf5.h" ]; then
                echo "-I$dir"
                break
            fi
        done
    } >"$flags_file"
fi

if [ $# -eq 0 ]; then
    for input in "$inputs"/*.c; do
        name=$(basename "$input" .c)
        set -- "$@" "$name"
    done
fi

# Runs annotate on one case: the options of NAME.args and the flags, one per
# line, become separate arguments (blank lines are skipped).
run_case() {
    input=$1
    args_file=$2
    set -- "$input"
    if [ -f "$args_file" ]; then
        while IFS= read -r line || [ -n "$line" ]; do
            [ -n "$line" ] && set -- "$@" "$line"
        done <"$args_file"
    fi
    set -- "$@" --
    while IFS= read -r line || [ -n "$line" ]; do
        [ -n "$line" ] && set -- "$@" "$line"
    done <"$flags_file"
    "$annotate" "$@"
}

status=0
changed=0
for name in "$@"; do
    input=$inputs/$name.c
    if [ ! -f "$input" ]; then
        echo "regen-goldens: no case $input" >&2
        status=1
        continue
    fi
    out=$expected/$name.c
    tmp=$out.regen.$$
    if run_case "$input" "$inputs/$name.args" >"$tmp" 2>"$tmp.err"; then
        if [ -f "$out" ] && cmp -s "$tmp" "$out"; then
            rm -f "$tmp"
        else
            mv "$tmp" "$out"
            changed=$((changed + 1))
            echo "regen-goldens: rewrote test/expected/$name.c"
        fi
    else
        echo "regen-goldens: annotate failed on $name; test/expected/$name.c left as it was:" >&2
        cat "$tmp.err" >&2
        rm -f "$tmp"
        status=1
    fi
    rm -f "$tmp.err"
done

[ -n "$tmp_flags" ] && rm -f "$tmp_flags"
echo "regen-goldens: $changed of $# expected files changed; review with: git diff test/expected" >&2
exit $status
