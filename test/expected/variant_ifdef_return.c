#include <stdio.h>
#include <dftracer/dftracer.h>

/* A return under #ifdef: the configuration without HAVE_LUSTRE does not
 * compile it, the one with it does (--variant=-DHAVE_LUSTRE). Planned in
 * both, it gets its END; lustre_open exists in one configuration only. */
int stripe_count = 4;

#ifdef HAVE_LUSTRE
static int lustre_open(const char *path, int flags, int count)
{
    DFTRACER_C_FUNCTION_START();
    printf("lustre %s %d\n", path, count);
    DFTRACER_C_FUNCTION_END();
    return flags + count;
}
#endif

static int open_target(const char *path, int flags)
{
    DFTRACER_C_FUNCTION_START();
#ifdef HAVE_LUSTRE
    if (stripe_count > 0) { int annotate_ret = (lustre_open(path, flags, stripe_count)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
#endif
    printf("posix %s\n", path);
    DFTRACER_C_FUNCTION_END();
    return flags;
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
    int fd = open_target("data.h5", 1);
    mark();
    fd += open_target("data.h5", 2);
    mark();
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    return fd > 0 ? 0 : 1;
}
