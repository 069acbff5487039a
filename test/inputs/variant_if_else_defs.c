#include <stdio.h>
#include <string.h>

/* One function defined twice, under #if and #else; another only when
 * USE_X is defined; returns, a goto and a label under #ifdef/#ifndef.
 * Planned without flags and with --variant='-DWIDE=1 -DUSE_X' (two flags
 * in one variant), every definition and every return is annotated. */
#if defined(WIDE) && WIDE == 1
typedef long idx_t;
static idx_t span_of(const char *s)
{
    if (!s) return -1;
    return (idx_t)strlen(s) * 2;
}
#else
typedef int idx_t;
static idx_t span_of(const char *s)
{
    if (!s) return -1;
    return (idx_t)strlen(s);
}
#endif

#ifdef USE_X
static int use_x(int v)
{
    switch (v) {
    case 0:
        return 10;
    default:
        break;
    }
    return v * 3;
}
#endif

static int check(int v)
{
    int r = v;
#ifdef USE_X
    r = use_x(v);
    if (r > 5)
        return r;
#else
    if (r < 0)
        goto fail;
#endif
    printf("%d\n", r);
    return r;
#ifndef USE_X
fail:
    printf("negative\n");
    return -1;
#endif
}

static void mark(void)
{
    fflush(stdout);
}

int main(void)
{
    long total = span_of("abc");
    mark();
    total += check(3);
    mark();
    total += check(-4);
    mark();
#ifdef USE_X
    if (total > 100)
        return 2;
#endif
    mark();
    return total > 0 ? 0 : 1;
}
