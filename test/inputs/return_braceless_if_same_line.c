/* IOR-style backend hook: a dry run creates nothing. */
#include <stdio.h>

FILE *create_output(const char *path, int dry_run)
{
    FILE *fp;

    if (dry_run) return NULL;
    fp = fopen(path, "w");
    return fp;
}
