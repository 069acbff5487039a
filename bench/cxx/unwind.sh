#!/usr/bin/env bash
# An exception leaving an annotated C++ function (docs/rules.md §8), traced:
# bench/cxx/unwind.cpp built with the cleanup attribute and without it
# (-DDFTRACER_TEST_NO_CLEANUP, as upstream DFTracer), printing the level of
# each span of mark() (2: directly in caller(); 3: inside a span the
# exception left open) and of thrower(). Exits 1 if the runtime does not
# behave as docs/rules.md says: with the attribute both marks at level 2;
# without it both at 3 (the guard closed guarded()'s span, nothing closed
# thrower()'s until caller()'s END).
#
#   bench/cxx/unwind.sh            # BUILD_DIR (default build/), CXX (g++)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
LIBRARY=$BUILD/runtime/libdftracer_core.so
CXX=${CXX:-g++}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/unwind.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
status=0
for mode in cleanup no-cleanup; do
  defs=(); want="2 2"
  [ "$mode" = no-cleanup ] && defs=(-DDFTRACER_TEST_NO_CLEANUP) && want="3 3"
  "$CXX" -std=c++11 -O2 -Wall -Wextra -Werror "${defs[@]}" -I"$ROOT/runtime/include" \
    "$ROOT/bench/cxx/unwind.cpp" -o "$WORK/unwind" "$LIBRARY" -Wl,-rpath,"$(dirname "$LIBRARY")"
  rm -rf "$WORK/t" && mkdir "$WORK/t"
  DFTRACER_ENABLE=1 DFTRACER_LOG_FILE="$WORK/t/trace" "$WORK/unwind"
  "$BUILD/bin/dftracer-check" "$WORK/t" >/dev/null
  marks=$(python3 - "$WORK"/t/*.pfw <<'PY'
import json, sys
spans = [json.loads(l.rstrip(",\n")) for l in open(sys.argv[1]) if l.startswith("{")]
spans = sorted((s for s in spans if s.get("ph") == "X"), key=lambda s: s["ts"])
by = {}
for s in spans:
    by.setdefault(s["name"], []).append(s)
t = by["thrower"][0]
c = by["caller"][0]
print(" ".join(str(s["args"]["level"]) for s in by["mark"]),
      "| thrower ends", "with caller" if t["ts"] + t["dur"] == c["ts"] + c["dur"] else "before caller")
PY
)
  echo "$mode: mark levels ${marks}"
  [ "${marks%% |*}" = "$want" ] || { echo "  expected $want" >&2; status=1; }
done
exit $status
