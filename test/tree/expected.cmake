# What annotate must do to test/tree/project. Paths are relative to the
# project's src/ directory, the --root of every test.

# Files that must be annotated, with the number of functions annotated in
# each: every one gets exactly one DFTRACER_C_FUNCTION_START(). common.h is
# included by every unit and must still get each START once; buffer.c's
# buffer_dump() exists under its second compile command only.
set(TREE_ANNOTATED
  app/main.c=2
  io/reader.c=2
  io/writer.c=3
  legacy/legacy_tool.c=2
  util/buffer.c=4
  util/buffer_selftest.c=1
  util/log.c=4
  include/tree/common.h=3)

# Functions skipped by the default selection, and why (a regex of the
# reason): the two accessors written by TREE_STATS_GETTER(...) in common.h,
# and buffer_capacity(), a one-statement leaf (the overhead guard).
set(TREE_SKIPPED
  "tree_stats_records=^macro expansion$"
  "tree_stats_bytes=^macro expansion$"
  "buffer_capacity=^overhead guard")

# Functions annotated and skipped over the whole tree (the summary line).
set(TREE_FUNCTIONS_ANNOTATED 21)
set(TREE_FUNCTIONS_SKIPPED 3)

# Distinct .c files under src/ in compile_commands.json (buffer.c is listed
# twice, third_party/crc/crc32.c is outside --root).
set(TREE_UNITS 8)
# Configurations planned: one per compile command of each file (buffer.c
# has two, with different -D).
set(TREE_CONFIGURATIONS 9)

# Files with a main (DFTRACER_C_INIT once each).
set(TREE_MAINS app/main.c util/buffer_selftest.c legacy/legacy_tool.c)

# A syntax error: never changed, named on stderr, exit 1.
set(TREE_BROKEN broken/broken.c)

# Annotates fine, but the result does not compile with the file's own flags
# (-Werror=declaration-after-statement, see the file): --verify restores it.
set(TREE_UNVERIFIABLE legacy/legacy_tool.c)

# Headers without function definitions: nothing to do.
set(TREE_NOTHING_TO_DO include/tree/io.h include/tree/util.h)

# Outside --root (relative to the project directory): never changed,
# although crc32.h defines a function and writer.c and reader.c include it.
set(TREE_OUTSIDE third_party/crc/crc32.h third_party/crc/crc32.c CMakeLists.txt)
