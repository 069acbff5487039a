/* common.h - helpers shared by every file of the project.
 *
 * The functions are `static`, so each translation unit that includes this
 * header has its own copy of them: annotate sees them once per unit and must
 * annotate them once in the file. */
#ifndef TREE_COMMON_H
#define TREE_COMMON_H

#include <stdio.h>
#include <string.h>

struct tree_stats {
    long records;
    long bytes;
    int errors;
};

static inline int tree_clamp(int value, int lo, int hi)
{
    if (value < lo)
        return lo;
    if (value > hi)
        return hi;
    return value;
}

static inline const char *tree_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static inline int tree_check(int rc, const char *what, struct tree_stats *stats)
{
    if (rc == 0)
        return 0;
    fprintf(stderr, "tree: %s failed (%d)\n", what, rc);
    if (stats)
        stats->errors++;
    return rc;
}

/* Accessors written by a macro: the definitions come from an expansion, so
 * annotate skips them ("macro expansion"). */
#define TREE_STATS_GETTER(field)                                              \
    static inline long tree_stats_##field(const struct tree_stats *s)        \
    {                                                                         \
        return s->field;                                                      \
    }
TREE_STATS_GETTER(records)
TREE_STATS_GETTER(bytes)

#endif
