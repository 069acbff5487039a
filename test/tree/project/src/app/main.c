/* main.c - writes records, reads them back, prints the totals. */
#include <stdio.h>
#include <stdlib.h>

#include "tree/common.h"
#include "tree/io.h"
#include "tree/util.h"

static int usage(const char *argv0)
{
    fprintf(stderr, "usage: %s FILE [COUNT]\n", tree_basename(argv0));
    return 2;
}

int main(int argc, char **argv)
{
    struct tree_stats written = {0, 0, 0}, read = {0, 0, 0};
    int count;
    if (argc < 2)
        return usage(argv[0]);
    count = tree_clamp(argc > 2 ? atoi(argv[2]) : 100, 1, 100000);
    log_set_verbose(getenv("TREE_VERBOSE") != NULL);
    if (write_records(argv[1], count, &written) != 0)
        return 1;
    if (read_records(argv[1], &read) != 0)
        return 1;
    printf("%ld records, %ld bytes written; %ld records, %ld lines read\n",
           tree_stats_records(&written), tree_stats_bytes(&written),
           tree_stats_records(&read), count_lines(argv[1]));
    log_close();
    return read.records == written.records ? 0 : 1;
}
