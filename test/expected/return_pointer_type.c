#include <stdlib.h>
#include <string.h>
#include <dftracer/dftracer.h>

struct buffer {
    char *data;
    size_t size;
};

/* Pointer-returning helpers, as I/O kernels write them. */
char *copy_path(const char *path)
{
    DFTRACER_C_FUNCTION_START();
    { char *annotate_ret = (strdup(path)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}

const struct buffer *const_buffer(const struct buffer *b)
{
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_FUNCTION_END();
    return b->size ? b : NULL;
}

void *alloc_block(size_t n)
{
    DFTRACER_C_FUNCTION_START();
    { void *annotate_ret = (calloc(n, 1)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}
