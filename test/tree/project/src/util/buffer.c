/* buffer.c - a write buffer in front of a FILE.
 *
 * Built into tree_util and, with a small capacity, into tree_buffer_selftest:
 * compile_commands.json lists this file twice. */
#include <stdlib.h>
#include <string.h>

#include "tree/common.h"
#include "tree/util.h"

void buffer_init(struct tree_buffer *b, FILE *sink)
{
    b->used = 0;
    b->sink = sink;
    b->flushes = 0;
#if TREE_BUFFER_CAPACITY < 64
    /* Only in the self-test build (the second command of this file in the
     * database): annotate plans both, so this return gets its END too. */
    if (sink == NULL)
        return;
#endif
}

size_t buffer_capacity(void)
{
    return TREE_BUFFER_CAPACITY;
}

int buffer_flush(struct tree_buffer *b)
{
    if (b->used == 0) return 0;
    if (fwrite(b->data, 1, b->used, b->sink) != b->used)
        return -1;
    b->used = 0;
    b->flushes++;
    return fflush(b->sink);
}

int buffer_append(struct tree_buffer *b, const void *data, size_t n)
{
    const char *p = data;
    while (n > 0) {
        size_t room = sizeof b->data - b->used;
        size_t chunk = n < room ? n : room;
        memcpy(b->data + b->used, p, chunk);
        b->used += chunk;
        p += chunk;
        n -= chunk;
        if (b->used == sizeof b->data && tree_check(buffer_flush(b), "flush", NULL))
            return -1;
    }
    return 0;
}

#if TREE_BUFFER_CAPACITY < 64
/* Only in the self-test build, the second command of this file in the
 * database: annotated by the plan of that command. */
void buffer_dump(const struct tree_buffer *b)
{
    fprintf(stderr, "buffer: %lu of %lu bytes used\n", (unsigned long)b->used,
            (unsigned long)sizeof b->data);
}
#endif
