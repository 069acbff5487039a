# What annotate must do to test/tree/project. Paths are relative to the
# project's src/ directory, the --root of every test.

# Files that must be annotated, with the number of function definitions in
# each: every one gets exactly one DFTRACER_C_FUNCTION_START(). common.h is
# included by every unit and must still get each START once; its two
# accessors written by TREE_STATS_GETTER(...) are skipped (macro expansion).
set(TREE_ANNOTATED
  app/main.c=2
  io/reader.c=2
  io/writer.c=3
  legacy/legacy_tool.c=2
  util/buffer.c=4
  util/buffer_selftest.c=1
  util/log.c=4
  include/tree/common.h=3)

# Functions annotated and skipped over the whole tree (the summary line).
set(TREE_FUNCTIONS_ANNOTATED 21)
set(TREE_FUNCTIONS_SKIPPED 2)

# Distinct .c files under src/ in compile_commands.json (buffer.c is listed
# twice, third_party/crc/crc32.c is outside --root).
set(TREE_UNITS 8)

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
