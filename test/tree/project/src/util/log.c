/* log.c - optional log file. */
#include <stdarg.h>
#include <stdio.h>

#include "tree/common.h"
#include "tree/util.h"

static FILE *log_file;
static int log_verbose;

void log_set_verbose(int verbose)
{
    log_verbose = tree_clamp(verbose, 0, 3);
}

int log_open(const char *path)
{
    log_file = fopen(path, "a");
    if (log_file == NULL) {
        perror(tree_basename(path));
        return -1;
    }
    return 0;
}

void log_message(const char *fmt, ...)
{
    va_list ap;
    if (!log_verbose && !log_file)
        return;
    va_start(ap, fmt);
    vfprintf(log_file ? log_file : stderr, fmt, ap);
    va_end(ap);
}

void log_close(void)
{
    if (log_file)
        fclose(log_file);
    log_file = NULL;
}
