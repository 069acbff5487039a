#!/usr/bin/env bash
# Builds annotate, the runtime and every test, then runs them all with CTest.
#
#   scripts/test.sh              # from anywhere; works on a fresh clone
#
# Installs missing Debian packages first (scripts/bootstrap.sh). Builds into
# build/ (BUILD_DIR to change), incrementally. Extra arguments go to ctest,
# e.g. `scripts/test.sh -L golden` or `scripts/test.sh -R braces`.
# With CI=true (as CI runs it) the configure fails when any test suite would
# be left out for a missing dependency (cmake/TestSuites.cmake); before the
# tests it says how many suites are registered and which are left out.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}

"$ROOT/scripts/bootstrap.sh"
if [ "${CI:-}" = "true" ]; then
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DDFT_REQUIRE_ALL_SUITES=ON
elif [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$BUILD"
# Before the tests, so that CTest's summary stays the last lines:
# "test suites: 27 of 27 registered", then those left out, if any.
if [ -f "$BUILD/test-suites.txt" ]; then
  { head -n 1 "$BUILD/test-suites.txt"; grep '^skipped ' "$BUILD/test-suites.txt" || true; } |
    sed 's/^/test /'
fi
ctest --test-dir "$BUILD" --output-on-failure -j "$(nproc)" "$@"
