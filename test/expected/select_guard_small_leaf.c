/* The overhead guard (rule set default: min_statements 2) skips leaf
 * functions of one statement: they would cost more traced than they do. */
#include <stdio.h>
#include <dftracer/dftracer.h>

struct block { long offset; long size; };

static long block_end(const struct block *b) { return b->offset + b->size; }

static int is_aligned(long v, long a)
{
    return __builtin_expect(v % a == 0, 1);
}

static void print_block(const struct block *b)
{
    DFTRACER_C_FUNCTION_START();
    printf("[%ld, %ld)\n", b->offset, block_end(b));
    DFTRACER_C_FUNCTION_END();
}

static long total(const struct block *b, int n)
{
    DFTRACER_C_FUNCTION_START();
    long sum = 0;
    for (int i = 0; i < n; i++)
        sum += b[i].size;
    DFTRACER_C_FUNCTION_END();
    return sum;
}

int main(void)
{
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    struct block b[2] = {{0, 4096}, {4096, 512}};
    print_block(&b[1]);
    { int annotate_ret = (is_aligned(total(b, 2), 512) ? 0 : 1); DFTRACER_C_FUNCTION_END(); DFTRACER_C_FINI(); return annotate_ret; }
}
