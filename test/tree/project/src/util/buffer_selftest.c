/* buffer_selftest.c - fills a small buffer so that it flushes. */
#include <stdlib.h>

#include "tree/common.h"
#include "tree/util.h"

int main(void)
{
    struct tree_buffer b;
    FILE *f = tmpfile();
    int i;
    if (!f)
        return 1;
    buffer_init(&b, f);
    for (i = 0; i < 10; i++)
        if (buffer_append(&b, "0123456789", 10) != 0)
            return 2;
    if (buffer_flush(&b) != 0)
        return 3;
    buffer_dump(&b);
    fclose(f);
    printf("capacity %zu, %ld flushes\n", buffer_capacity(), b.flushes);
    return b.flushes > 1 ? EXIT_SUCCESS : EXIT_FAILURE;
}
