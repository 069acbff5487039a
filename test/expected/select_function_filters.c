/* Function filters apply in order and the last match wins: with
 *   --exclude-function=*_cb --include-function=re:^keep_
 * callbacks are skipped except keep_ ones. */
#include <stdio.h>
#include <dftracer/dftracer.h>

static int progress_cb(int done, int total)
{
    printf("%d/%d\n", done, total);
    return 0;
}

static int keep_error_cb(int code)
{
    DFTRACER_C_FUNCTION_START();
    fprintf(stderr, "error %d\n", code);
    DFTRACER_C_FUNCTION_END();
    return code;
}

int run(int steps)
{
    DFTRACER_C_FUNCTION_START();
    for (int i = 0; i < steps; i++)
        progress_cb(i, steps);
    { int annotate_ret = (keep_error_cb(0)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}
