#include <stdio.h>
#include <string.h>
#include <dftracer/dftracer.h>
#ifdef HAVE_LUSTRE
#include <lustre/lustreapi.h>
#endif

/* Stripe count to request for a new file: wide on Lustre mounts. */
int stripe_count(const char *path)
{
    DFTRACER_C_FUNCTION_START();
    int wide = strncmp(path, "/lustre/", 8) == 0;

    printf("%s: %s striping\n", path, wide ? "wide" : "default");
    DFTRACER_C_FUNCTION_END();
    return wide ? 4 : 1;
}
