#!/bin/sh
# Rewrites test/expected/NAME.c (or NAME.cpp) from what the current tool
# prints for test/inputs/NAME.c (NAME.cpp), so that a change in the tool's
# output can be reviewed:
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
#   annotate test/inputs/NAME.cpp [options from NAME.cpp.args] -- FLAGS_CXX
#            [flags from NAME.cpp.flags]
# run from test/inputs when there is an options file (its relative paths are
# relative to it). FLAGS and FLAGS_CXX come from BUILD/test/golden/
# compile_flags.txt and compile_flags_cxx.txt when a configured build has
# them, otherwise -std=gnu11 (-std=c++17), runtime/include, MPI's include
# dirs (from `mpicc -show`) and /usr/include/hdf5/mpich.
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

# The common compiler flags when no configured build has them: STD, the
# runtime's include dir, MPI's and HDF5's, one per line.
default_flags() {
    echo "$1"
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
}
tmp_files=
flags_c=$build/test/golden/compile_flags.txt
if [ ! -f "$flags_c" ]; then
    flags_c=$(mktemp)
    tmp_files="$tmp_files $flags_c"
    default_flags -std=gnu11 >"$flags_c"
fi
flags_cxx=$build/test/golden/compile_flags_cxx.txt
if [ ! -f "$flags_cxx" ]; then
    flags_cxx=$(mktemp)
    tmp_files="$tmp_files $flags_cxx"
    default_flags -std=c++17 >"$flags_cxx"
fi

if [ $# -eq 0 ]; then
    for input in "$inputs"/*.c "$inputs"/*.cpp; do
        name=$(basename "$input")
        set -- "$@" "${name%.*}"
    done
fi

# Runs annotate on one case: the options of its options file, the common
# flags and its extra flags, one per line, become separate arguments.
run_case() {
    input=$1 args_file=$2 flags_file=$3 extra_file=$4
    set -- "$input"
    workdir=.
    if [ -f "$args_file" ]; then
        workdir=$inputs
        while IFS= read -r line || [ -n "$line" ]; do
            [ -n "$line" ] && set -- "$@" "$line"
        done <"$args_file"
    fi
    set -- "$@" --
    for list in "$flags_file" "$extra_file"; do
        [ -f "$list" ] || continue
        while IFS= read -r line || [ -n "$line" ]; do
            [ -n "$line" ] && set -- "$@" "$line"
        done <"$list"
    done
    (cd "$workdir" && "$annotate" "$@")
}

status=0
changed=0
for name in "$@"; do
    if [ -f "$inputs/$name.c" ]; then
        file=$name.c
        args=$inputs/$name.args flags=$flags_c extra=
    elif [ -f "$inputs/$name.cpp" ]; then
        file=$name.cpp
        args=$inputs/$name.cpp.args flags=$flags_cxx extra=$inputs/$name.cpp.flags
    else
        echo "regen-goldens: no case $inputs/$name.c or .cpp" >&2
        status=1
        continue
    fi
    out=$expected/$file
    tmp=$out.regen.$$
    if run_case "$inputs/$file" "$args" "$flags" "$extra" >"$tmp" 2>"$tmp.err"; then
        if [ -f "$out" ] && cmp -s "$tmp" "$out"; then
            rm -f "$tmp"
        else
            mv "$tmp" "$out"
            changed=$((changed + 1))
            echo "regen-goldens: rewrote test/expected/$file"
        fi
    else
        echo "regen-goldens: annotate failed on $name; test/expected/$file left as it was:" >&2
        cat "$tmp.err" >&2
        rm -f "$tmp"
        status=1
    fi
    rm -f "$tmp.err"
done

[ -z "$tmp_files" ] || rm -f $tmp_files
echo "regen-goldens: $changed of $# expected files changed; review with: git diff test/expected" >&2
exit $status
