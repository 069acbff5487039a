#!/usr/bin/env bash
# Builds annotate, the runtime and every test, then runs them all with CTest.
#
#   scripts/test.sh              # from anywhere; works on a fresh clone
#
# Installs missing Debian packages first (scripts/bootstrap.sh). Builds into
# build/ (BUILD_DIR to change), incrementally. Extra arguments go to ctest,
# e.g. `scripts/test.sh -L golden` or `scripts/test.sh -R braces`.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}

"$ROOT/scripts/bootstrap.sh"
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$BUILD"
ctest --test-dir "$BUILD" --output-on-failure -j "$(nproc)" "$@"
