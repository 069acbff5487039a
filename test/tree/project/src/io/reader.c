/* reader.c - reads back and checks what writer.c wrote. */
#include <stdio.h>
#include <string.h>

#include "crc32.h"
#include "tree/common.h"
#include "tree/io.h"

long count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    long lines = 0;
    int c;
    if (!f) return -1;
    while ((c = fgetc(f)) != EOF)
        if (c == '\n')
            lines++;
    fclose(f);
    return lines;
}

int read_records(const char *path, struct tree_stats *stats)
{
    char line[64];
    uint32_t crc = 0;
    unsigned expected = 0;
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return tree_check(-1, tree_basename(path), stats);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "end ", 4) == 0) {
            sscanf(line + 4, "%x", &expected);
            break;
        }
        crc = crc32_buffer(crc, line, strlen(line));
        stats->records++;
        stats->bytes += (long)strlen(line);
    }
    fclose(f);
    if (crc != expected)
        return tree_check(-2, "crc", stats);
    return 0;
}
