/* The overhead guard (rule set default: min_statements 2) skips leaf
 * functions of one statement: they would cost more traced than they do. */
#include <stdio.h>

struct block { long offset; long size; };

static long block_end(const struct block *b) { return b->offset + b->size; }

static int is_aligned(long v, long a)
{
    return __builtin_expect(v % a == 0, 1);
}

static void print_block(const struct block *b)
{
    printf("[%ld, %ld)\n", b->offset, block_end(b));
}

static long total(const struct block *b, int n)
{
    long sum = 0;
    for (int i = 0; i < n; i++)
        sum += b[i].size;
    return sum;
}

int main(void)
{
    struct block b[2] = {{0, 4096}, {4096, 512}};
    print_block(&b[1]);
    return is_aligned(total(b, 2), 512) ? 0 : 1;
}
