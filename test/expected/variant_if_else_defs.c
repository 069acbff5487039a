#include <stdio.h>
#include <string.h>
#include <dftracer/dftracer.h>

/* One function defined twice, under #if and #else; another only when
 * USE_X is defined; returns, a goto and a label under #ifdef/#ifndef.
 * Planned without flags and with --variant='-DWIDE=1 -DUSE_X' (two flags
 * in one variant), every definition and every return is annotated. */
#if defined(WIDE) && WIDE == 1
typedef long idx_t;
static idx_t span_of(const char *s)
{
    DFTRACER_C_FUNCTION_START();
    if (!s) { /* annotate */ DFTRACER_C_FUNCTION_END(); return -1; }
    { idx_t annotate_ret = ((idx_t)strlen(s) * 2); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}
#else
typedef int idx_t;
static idx_t span_of(const char *s)
{
    DFTRACER_C_FUNCTION_START();
    if (!s) { /* annotate */ DFTRACER_C_FUNCTION_END(); return -1; }
    { idx_t annotate_ret = ((idx_t)strlen(s)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}
#endif

#ifdef USE_X
static int use_x(int v)
{
    DFTRACER_C_FUNCTION_START();
    switch (v) {
    case 0:
        DFTRACER_C_FUNCTION_END();
        return 10;
    default:
        break;
    }
    DFTRACER_C_FUNCTION_END();
    return v * 3;
}
#endif

static int check(int v)
{
    DFTRACER_C_FUNCTION_START();
    int r = v;
#ifdef USE_X
    r = use_x(v);
    if (r > 5) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return r;
    }
#else
    if (r < 0)
        goto fail;
#endif
    printf("%d\n", r);
    DFTRACER_C_FUNCTION_END();
    return r;
#ifndef USE_X
fail:
    printf("negative\n");
    DFTRACER_C_FUNCTION_END();
    return -1;
#endif
}

static void mark(void)
{
    DFTRACER_C_FUNCTION_START();
    fflush(stdout);
    DFTRACER_C_FUNCTION_END();
}

int main(void)
{
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    long total = span_of("abc");
    mark();
    total += check(3);
    mark();
    total += check(-4);
    mark();
#ifdef USE_X
    if (total > 100) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        DFTRACER_C_FINI();
        return 2;
    }
#endif
    mark();
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    return total > 0 ? 0 : 1;
}
