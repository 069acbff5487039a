#include <stdio.h>

/* A return under #ifdef: the configuration without HAVE_LUSTRE does not
 * compile it, the one with it does (--variant=-DHAVE_LUSTRE). Planned in
 * both, it gets its END; lustre_open exists in one configuration only. */
int stripe_count = 4;

#ifdef HAVE_LUSTRE
static int lustre_open(const char *path, int flags, int count)
{
    printf("lustre %s %d\n", path, count);
    return flags + count;
}
#endif

static int open_target(const char *path, int flags)
{
#ifdef HAVE_LUSTRE
    if (stripe_count > 0) return lustre_open(path, flags, stripe_count);
#endif
    printf("posix %s\n", path);
    return flags;
}

static void mark(void)
{
    fflush(stdout);
}

int main(void)
{
    int fd = open_target("data.h5", 1);
    mark();
    fd += open_target("data.h5", 2);
    mark();
    return fd > 0 ? 0 : 1;
}
