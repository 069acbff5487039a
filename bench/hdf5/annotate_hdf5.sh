#!/usr/bin/env bash
# HDF5's library annotated whole (issue 21), against the floor of a Clang
# tool: `clang-19 -fsyntax-only` of the same files with the same flags.
#
#   bench/hdf5/annotate_hdf5.sh [WORK]     # WORK: default /tmp/annotate-hdf5
#
# Fetches Debian 12's hdf5 source package (1.10.8; needs a deb-src line for
# bookworm and `apt-get update`), configures the C library only, generates
# H5Tinit.c and H5lib_settings.c, and writes src/compile_commands.json from
# `make -n` (libtool's --mode=compile lines: one command per source, the
# commands bear would record, without building). Then, on a fresh copy of
# src/ each time:
#   annotate -p src --root src -o OUT --guard=0 -jJOBS --report r.json
#   clang-19 -fsyntax-only, each file with its command, JOBS in parallel
# and prints: files, failed, functions annotated/skipped, warnings and
# warning lines printed, and both wall times and their ratio. A benchmark,
# not a test (not in CI); figures go to docs/performance.md.
# Environment: BUILD_DIR (default build/), JOBS (default 2), RULES (a rule
# set; default bench/hdf5/hdf5.rules.json, dftracer with HDF5's exit macros
# listed), FLOOR (default 1; 0 skips the clang-19 -fsyntax-only timing, for
# run_hdf5_tests.sh, which needs only out/), ANNOTATE (the binary; default
# BUILD_DIR/bin/annotate).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
ANNOTATE=${ANNOTATE:-$BUILD/bin/annotate}
RULES=${RULES:-$ROOT/bench/hdf5/hdf5.rules.json}
JOBS=${JOBS:-2}
WORK=${1:-/tmp/annotate-hdf5}
mkdir -p "$WORK"
cd "$WORK"
src=$(ls -d hdf5-1.10.8*/ 2>/dev/null | head -1 || true)
if [ -z "$src" ]; then
  ls hdf5_1.10.8*.dsc >/dev/null 2>&1 || apt-get source --download-only hdf5 >/dev/null
  dpkg-source -x --no-check hdf5_1.10.8*.dsc >/dev/null
  src=$(ls -d hdf5-1.10.8*/ | head -1)
fi
src=$WORK/${src%/}
if [ ! -f "$src/src/H5Tinit.c" ]; then
  (cd "$src" && ./configure --disable-fortran --disable-cxx --disable-hl \
     --disable-tests --disable-tools >/dev/null &&
   make -C src H5Tinit.c H5lib_settings.c >/dev/null)
fi
if [ ! -f "$src/src/compile_commands.json" ]; then
  (cd "$src/src" && make -n libhdf5.la 2>/dev/null) | python3 -c '
import json, os, shlex, sys
d = os.path.join(sys.argv[1], "src")
out = []
for line in sys.stdin:
    if "--mode=compile" not in line:
        continue
    args = shlex.split(line.split("--mode=compile", 1)[1].split("&&")[0])
    files = [a for a in args if a.endswith(".c")]
    if not files:
        continue
    # libtool`s own: -o x.lo becomes the object the compiler writes.
    if "-o" in args:
        i = args.index("-o"); del args[i:i + 2]
    out.append({"directory": d, "file": files[-1], "arguments": args})
json.dump(out, open(os.path.join(d, "compile_commands.json"), "w"), indent=1)
print(len(out), "compile commands", file=sys.stderr)
' "$src"
fi
files=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$src/src/compile_commands.json")

# The floor: each file parsed once with its command.
syntax() {
  python3 - "$src/src/compile_commands.json" "$JOBS" <<'PY'
import json, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
import re
cmds = json.load(open(sys.argv[1]))
# The flags Clang rejects (GCC-only), dropped as annotate drops them.
probe = subprocess.run(["clang-19", "-fsyntax-only", "-w"] + cmds[0]["arguments"][1:],
                       cwd=cmds[0]["directory"], capture_output=True, text=True)
unknown = set(re.findall(r"unknown argument: '([^']*)'", probe.stderr))
print("clang-19 -fsyntax-only without", " ".join(sorted(unknown)), file=sys.stderr)
def run(c):
    args = ["clang-19", "-fsyntax-only", "-w"] + [a for a in c["arguments"][1:] if a != "-c" and a not in unknown]
    return subprocess.run(args, cwd=c["directory"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
with ThreadPoolExecutor(int(sys.argv[2])) as ex:
    bad = sum(1 for rc in ex.map(run, cmds) if rc)
print(bad, "files clang -fsyntax-only rejected", file=sys.stderr)
PY
}
t0=$(date +%s.%N); [ "${FLOOR:-1}" = 0 ] || syntax; t1=$(date +%s.%N)
rm -rf out && mkdir out
# Exit 1 is "some file failed or was left unchanged", which the figures
# below report; any other status (a crash, a bad option) stops the bench.
status=0
"$ANNOTATE" -p "$src/src" --root "$src/src" -o out --guard=0 -j"$JOBS" \
  --rules "$RULES" --report report.json 2>annotate.err || status=$?
if [ "$status" -gt 1 ] || [ ! -s report.json ]; then
  tail -n 20 annotate.err >&2
  echo "annotate_hdf5: annotate failed (exit $status)" >&2
  exit 1
fi
t2=$(date +%s.%N)
syn=$(echo "$t1 - $t0" | bc); ann=$(echo "$t2 - $t1" | bc)
python3 - report.json annotate.err "$files" "$syn" "$ann" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["summary"]
err = open(sys.argv[2]).read().splitlines()
warn = [l for l in err if ": warning: " in l]
print(f"files {sys.argv[3]}, failed {r['failed']}, functions annotated {r['annotated']}, skipped {r['skipped']}")
print(f"warnings {r['warnings']}, warning lines printed {len(warn)} (summary: {r['warning_lines']})")
syn, ann = float(sys.argv[4]), float(sys.argv[5])
if syn > 0.5:
    print(f"clang-19 -fsyntax-only {syn:.1f} s, annotate {ann:.1f} s, ratio {ann / syn:.2f}")
else:
    print(f"annotate {ann:.1f} s (FLOOR=0: no clang-19 -fsyntax-only floor)")
print(err[-1])
PY
