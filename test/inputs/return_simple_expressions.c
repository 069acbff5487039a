#include <stddef.h>

struct block {
    size_t offset;
    size_t len;
    int flags[4];
};

size_t block_len(const struct block *b)
{
    return b->len;
}

int block_flag(const struct block *b, int i)
{
    return b->flags[i];
}

size_t block_end(struct block b)
{
    return b.offset + b.len;
}

int block_kind(const struct block *b)
{
    return b->len > 4096 ? 1 : (int)sizeof(struct block);
}
