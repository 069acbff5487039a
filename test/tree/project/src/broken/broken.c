/* broken.c - does not compile (a missing ';' and brace): annotate must leave
 * it byte for byte unchanged, name it, and exit 1. Its target is
 * EXCLUDE_FROM_ALL, so the project still builds. */
#include "tree/common.h"
#include "tree/util.h"

int broken_sum(const int *values, int n)
{
    int i, sum = 0
    for (i = 0; i < n; i++)
        sum += values[i];
    return tree_clamp(sum, 0, 1000);

int broken_twice(int x)
{
    return 2 * x;
}
