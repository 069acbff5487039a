# Sourced by the scripts that annotate a real code base whole
# (bench/leveldb/annotate_leveldb.sh, bench/tree/annotate_h5bench.sh),
# after they set ROOT (this repository). It sets what both use: BUILD
# (BUILD_DIR, default ROOT/build), ANNOTATE (default BUILD/bin/annotate),
# CHECK, ANALYZE, LIBDIR (BUILD/runtime), JOBS (default 2) and CLANG
# (clang-19, else clang).
#
#   real_tree_tools NAME   stop (exit 2) unless this project's build ($BUILD)
#                          has annotate ($ANNOTATE), dftracer-check
#                          ($CHECK), dftracer-analyze ($ANALYZE) and
#                          libdftracer_core ($LIBDIR)
#   real_tree_build BUILD PREFIX_RE
#                          ninja -C BUILD -j$JOBS (stop with its errors on
#                          failure); its compiler's warning lines in
#                          BUILD.warnings, sorted, without the directory
#                          PREFIX_RE (an extended regex) and without line
#                          and column: an annotated file has more lines
#   real_tree_annotated_build TREE
#                          the annotated TREE through the script's own
#                          configure and build into WORK/build-annotated,
#                          the runtime linked by hand (docs/integration.md,
#                          "Linking the runtime by hand"); stop if it warns
#                          where the original build (WORK/build-orig) did not
BUILD=${BUILD_DIR:-$ROOT/build}
ANNOTATE=${ANNOTATE:-$BUILD/bin/annotate}
CHECK=$BUILD/bin/dftracer-check
ANALYZE=$BUILD/bin/dftracer-analyze
LIBDIR=$BUILD/runtime
JOBS=${JOBS:-2}
CLANG=$(command -v clang-19 || command -v clang)

real_tree_tools() {
  local f
  for f in "$ANNOTATE" "$CHECK" "$ANALYZE" "$LIBDIR/libdftracer_core.so"; do
    [ -e "$f" ] || { echo "$1: $f missing: ninja -C $BUILD annotate dftracer-check dftracer-analyze dftracer_core" >&2; exit 2; }
  done
}

real_tree_build() {
  ninja -C "$1" -j"$JOBS" >"$1.build.log" 2>&1 ||
    { echo "building $1 failed:" >&2; grep -m 30 -A3 'error' "$1.build.log" >&2; exit 1; }
  grep -E ': warning: ' "$1.build.log" | sed -E "s#$2##; s/:[0-9]+:[0-9]+:/:/" | sort >"$1.warnings" || true
}

real_tree_annotated_build() {
  local new
  configure "$1" "$WORK/build-annotated" "-I$ROOT/runtime/include" \
    "-L$LIBDIR -Wl,-rpath,$LIBDIR -Wl,--push-state,--no-as-needed -ldftracer_core -Wl,--pop-state"
  build "$WORK/build-annotated"
  new=$(comm -13 "$WORK/build-orig.warnings" "$WORK/build-annotated.warnings" | wc -l)
  echo "annotated build: $(wc -l <"$WORK/build-annotated.warnings") warning lines, $new not in the original's"
  [ "$new" = 0 ] || { comm -13 "$WORK/build-orig.warnings" "$WORK/build-annotated.warnings" | head -20 >&2; exit 1; }
}
