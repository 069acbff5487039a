#!/usr/bin/env bash
# IOR 4.0.0 and Darshan 3.4.x built from given source trees, for the side by
# side comparison of run.sh (issues 22 and 23). Not a test, not in CI: it
# needs the two source trees, which ctest never fetches.
#
#   bench/ior/build.sh IOR_SRC DARSHAN_SRC [WORK]   # WORK: default /tmp/ior-darshan
#
# IOR_SRC: a tree of IOR 4.0.0 (e.g. `git archive 4.0.0` of github:hpc/ior);
# `./bootstrap` is run in it when it has no configure (needs autoconf,
# automake and libtool from Debian). DARSHAN_SRC: a tree of Darshan 3.4.x
# (`./prepare.sh` likewise). Everything is built under WORK, never in the
# source trees' build directories or in this repository:
#
#   WORK/darshan/        darshan-runtime (libdarshan.so; configured with
#                        --with-log-path-by-env=DARSHAN_LOG_DIR_PATH
#                        --with-jobid-env=NONE CC=mpicc and its HDF5 module)
#                        and darshan-util (darshan-parser), installed in
#                        WORK/darshan/prefix
#   WORK/ior-plain/      IOR built with mpicc: the binary Darshan runs under
#                        LD_PRELOAD (one interposer at a time)
#   WORK/ior-annotated/  IOR compiled through annotate-cc (CC="annotate-cc
#                        mpicc"): POSIX_Xfer, MPIIO_Xfer, WriteOrRead, ...
#                        are annotated and the binary links libdftracer_core
#
# Both IORs are configured --with-hdf5 against Debian's MPICH parallel HDF5
# (1.10.8: CPPFLAGS=-I/usr/include/hdf5/mpich
# LDFLAGS=-L/usr/lib/x86_64-linux-gnu/hdf5/mpich). Darshan's configure finds
# HDF5 through `h5dump` in --with-hdf5=DIR/bin, which Debian's MPICH HDF5
# does not install (hdf5-tools is the serial build): WORK/darshan/hdf5 is a
# prefix of symlinks to the MPICH HDF5 with a two-line h5dump that prints
# its version.
#
# Environment: BUILD_DIR (this project's build; default build/, needs the
# targets annotate, dftracer_core), JOBS (make -j; default 2).
# Prints the three binaries' paths at the end.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
JOBS=${JOBS:-2}
[ $# -ge 2 ] || { sed -n '2,/^set -e/p' "$0" | sed 's/^# \{0,1\}//;/^set -e/d'; exit 2; }
IOR_SRC=$(cd "$1" && pwd)
DARSHAN_SRC=$(cd "$2" && pwd)
WORK=${3:-/tmp/ior-darshan}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
H5INC=/usr/include/hdf5/mpich
H5LIB=/usr/lib/x86_64-linux-gnu/hdf5/mpich
log() { echo "build.sh: $*" >&2; }

# --- Darshan ------------------------------------------------------------------
D=$WORK/darshan
if [ ! -x "$D/prefix/bin/darshan-parser" ] || [ ! -f "$D/prefix/lib/libdarshan.so" ]; then
  [ -f "$DARSHAN_SRC/darshan-runtime/configure" ] || (cd "$DARSHAN_SRC" && ./prepare.sh >"$WORK/darshan-prepare.log" 2>&1)
  mkdir -p "$D/hdf5/bin" "$D/rt" "$D/util"
  ln -sfn "$H5INC" "$D/hdf5/include"
  ln -sfn "$H5LIB" "$D/hdf5/lib"
  v=$(sed -n 's/.*HDF5 Version: *//p' "$H5LIB/libhdf5.settings")
  printf '#!/bin/sh\necho "h5dump: Version %s"\n' "$v" >"$D/hdf5/bin/h5dump"
  chmod +x "$D/hdf5/bin/h5dump"
  log "darshan-runtime (log: $D/rt.log)"
  (cd "$D/rt" && "$DARSHAN_SRC/darshan-runtime/configure" --prefix="$D/prefix" \
      --with-log-path-by-env=DARSHAN_LOG_DIR_PATH --with-jobid-env=NONE \
      --enable-hdf5-mod --with-hdf5="$D/hdf5" CC=mpicc \
    && make -j"$JOBS" && make install) >"$D/rt.log" 2>&1 \
    || { log "darshan-runtime failed: tail $D/rt.log"; tail -20 "$D/rt.log" >&2; exit 1; }
  log "darshan-util (log: $D/util.log)"
  (cd "$D/util" && "$DARSHAN_SRC/darshan-util/configure" --prefix="$D/prefix" \
    && make -j"$JOBS" && make install) >"$D/util.log" 2>&1 \
    || { log "darshan-util failed: tail $D/util.log"; tail -20 "$D/util.log" >&2; exit 1; }
fi

# --- IOR, twice -----------------------------------------------------------------
[ -x "$IOR_SRC/configure" ] || (cd "$IOR_SRC" && ./bootstrap >"$WORK/ior-bootstrap.log" 2>&1)
build_ior() {  # DIR CC...
  local dir=$1; shift
  [ -x "$dir/src/ior" ] && return 0
  mkdir -p "$dir"
  log "IOR in $dir (CC=$*; log: $dir.log)"
  (cd "$dir" && "$IOR_SRC/configure" --with-hdf5 --with-mpiio --with-posix \
      CC="$*" CPPFLAGS="-I$H5INC" LDFLAGS="-L$H5LIB" \
    && make -j"$JOBS") >"$dir.log" 2>&1 \
    || { log "IOR failed: tail $dir.log"; tail -20 "$dir.log" >&2; exit 1; }
}
build_ior "$WORK/ior-plain" mpicc
for t in "$BUILD/bin/annotate-cc" "$BUILD/bin/annotate"; do
  [ -x "$t" ] || { echo "build.sh: $t missing (ninja -C $BUILD annotate dftracer_core)" >&2; exit 2; }
done
ANNOTATE_CC_QUIET=1 build_ior "$WORK/ior-annotated" "$BUILD/bin/annotate-cc" mpicc
# annotate-cc warns (and compiles the original) for a file it cannot annotate:
# say so, the traced IOR would then lack that file's functions.
grep -h "annotate-cc: warning" "$WORK/ior-annotated.log" >&2 || true
echo "darshan: $D/prefix/lib/libdarshan.so $D/prefix/bin/darshan-parser"
echo "ior (plain): $WORK/ior-plain/src/ior"
echo "ior (annotated): $WORK/ior-annotated/src/ior"
