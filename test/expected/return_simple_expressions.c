#include <stddef.h>
#include <dftracer/dftracer.h>

struct block {
    size_t offset;
    size_t len;
    int flags[4];
};

size_t block_len(const struct block *b)
{
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_FUNCTION_END();
    return b->len;
}

int block_flag(const struct block *b, int i)
{
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_FUNCTION_END();
    return b->flags[i];
}

size_t block_end(struct block b)
{
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_FUNCTION_END();
    return b.offset + b.len;
}

int block_kind(const struct block *b)
{
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_FUNCTION_END();
    return b->len > 4096 ? 1 : (int)sizeof(struct block);
}
