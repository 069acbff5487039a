/* io.h - record files (src/io). Declarations only. */
#ifndef TREE_IO_H
#define TREE_IO_H

#include "tree/common.h"

int write_records(const char *path, int count, struct tree_stats *stats);
int read_records(const char *path, struct tree_stats *stats);
long count_lines(const char *path);

#endif
