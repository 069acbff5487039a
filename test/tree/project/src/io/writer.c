/* writer.c - writes a file of text records with a CRC trailer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "tree/common.h"
#include "tree/io.h"
#include "tree/util.h"

enum record_kind { KIND_DATA, KIND_META, KIND_END };

static const char *kind_name(enum record_kind kind)
{
    switch (kind) {
    case KIND_DATA: return "data";
    case KIND_META: return "meta";
    case KIND_END:
        return "end";
    }
    return "?";
}

static int format_record(char *out, size_t size, int index)
{
    enum record_kind kind = index % 10 == 0 ? KIND_META : KIND_DATA;
    return snprintf(out, size, "%s %d\n", kind_name(kind), index);
}

int write_records(const char *path, int count, struct tree_stats *stats)
{
    struct tree_buffer *b = malloc(sizeof *b);
    char line[64];
    uint32_t crc = 0;
    int rc = -1;
    int i;
    FILE *f;

    if (b == NULL)
        return -1;
    f = fopen(path, "w");
    if (f == NULL)
        goto done;
    buffer_init(b, f);
    for (i = 0; i < count; i++) {
        int n = format_record(line, sizeof line, i);
        if (n < 0 || buffer_append(b, line, (size_t)n) != 0)
            goto close;
        crc = crc32_buffer(crc, line, (size_t)n);
        stats->records++;
        stats->bytes += n;
    }
    if (buffer_flush(b) != 0)
        goto close;
    log_message("%s: %d records, crc %08x\n", tree_basename(path), count,
                (unsigned)crc);
    rc = fprintf(f, "%s %08x\n", kind_name(KIND_END), (unsigned)crc) < 0;
close:
    if (fclose(f) != 0)
        rc = -1;
done:
    free(b);
    return tree_check(rc, "write_records", stats);
}
