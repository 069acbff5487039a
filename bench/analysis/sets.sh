# Sourced by scale.sh and per_file_cpu.sh: the generated sets of issue 41,
# the same events split over more or fewer trace files (ranks).
#
#   ensure_set FILES  -> prints the set's directory, generating it if need be
#
# Sourced after BUILD is set; sets the shared defaults (EVENTS, WORK, the
# generator GEN, the analyzer ANALYZE from BUILD, BASELINE) and makes WORK.
# Each set is
# `dftracer_trace_gen generate --real-shape --seed 42 --compute 4
# --total-spans EVENTS` in $WORK/f<FILES>-<EVENTS>-total: EVENTS spans in
# all, whatever the file count (within one file's ~10 spans of excess).
# `--spans EVENTS/FILES` put ~10 spans beyond its target in every file
# (a file ends on a whole phase, and each has main, a loose call and a
# GPU span): 100,000 files held 5.16 M spans against 4.10 M in 64 files,
# and that excess was counted as the files' own cost. Generated beside
# its directory, then renamed: an interrupted run leaves no set that
# looks whole.
EVENTS=${EVENTS:-4096000}
WORK=${WORK:-${TMPDIR:-/tmp}/dft-analysis-scale}
GEN=$BUILD/bin/dftracer_trace_gen
ANALYZE=$BUILD/bin/dftracer-analyze
BASELINE=${BASELINE:-}
mkdir -p "$WORK"

ensure_set() {
  local files=$1 set=$WORK/f$1-$EVENTS-total
  if [ ! -d "$set" ]; then
    echo "generating $files files, $EVENTS spans in $set" >&2
    rm -rf "$set.tmp"
    mkdir -p "$set.tmp"
    "$GEN" generate --dir "$set.tmp" --files "$files" \
      --total-spans "$EVENTS" --seed 42 --compute 4 --real-shape >&2
    mv "$set.tmp" "$set"
  fi
  echo "$set"
}
